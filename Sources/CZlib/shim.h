// zlib, for compressing stored attribute blobs (Debian: zlib1g-dev).
#include <zlib.h>
