/*
 * cairo_calls.c — opens cairo, fontconfig and libpng at the first picture
 * and fills the table the render room calls them through (cairo_calls.h,
 * util/dynlib.h).
 *
 * Opened once per process, never closed: cairo and fontconfig keep
 * caches for the life of the process and are released at exit
 * (picture.c), so they must never be unmapped before that.
 */
#define DJ_CAIRO_LOADER
#include "render/cairo_calls.h"

#include "util/dynlib.h"

dj_cairo_calls dj_cairo;

static const char *const LIBRARY_NAMES[DJ_CAIRO_NLIBS] = {
    [DJ_CAIRO_LIB_CAIRO] = "libcairo.so.2",
    [DJ_CAIRO_LIB_FONTCONFIG] = "libfontconfig.so.1",
    [DJ_CAIRO_LIB_PNG] = "libpng16.so.16",
};

static const dj_dynlib_fn FUNCTIONS[] = {
#define DJ_CAIRO_FUNCTION(lib, fn) {lib, #fn, offsetof(dj_cairo_calls, fn)},
    DJ_CAIRO_CALLS(DJ_CAIRO_FUNCTION)
#undef DJ_CAIRO_FUNCTION
};

static dj_dynlib cairo_lib =
    DJ_DYNLIB_INIT(LIBRARY_NAMES, "pictures", FUNCTIONS, dj_cairo);

int dj_cairo_load(char *err, size_t errlen)
{
    return dj_dynlib_load(&cairo_lib, err, errlen);
}
