// zlib, for gzip-compressed sitemaps (Debian: zlib1g-dev).
#include <zlib.h>
