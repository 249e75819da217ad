// libxml2's HTML and XML parsers, for WebMarkup (Debian: libxml2-dev).
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, whose headers clash with Foundation's own
// copy of ICU in one Swift module. WebMarkup never touches the ICU members of
// xmlCharEncodingHandler (only pointers to it), so the ICU include is left out.
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
