// sd-bus from libsystemd (Debian's libsystemd-dev): the session bus client the
// GNOME Shell search provider (SpotlightDBus) is written on. Only functions
// with fixed arguments are used from Swift: sd-bus's variadic readers and
// vtable macros are not importable.
#include <systemd/sd-bus.h>
