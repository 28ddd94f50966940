// nghttp2 as Swift sees it. Only nghttp2 macros Swift cannot import get a
// wrapper here; everything else is used directly by APNSHTTP2.
#ifndef CNGHTTP2_SHIM_H
#define CNGHTTP2_SHIM_H
#include <nghttp2/nghttp2.h>

static inline const char *CNghttp2_version_string(void) {
    nghttp2_info *info = nghttp2_version(0);
    return info ? info->version_str : "unknown";
}
#endif
