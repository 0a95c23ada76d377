/*
 * cairo_calls.c — opens cairo, fontconfig and libpng at the first picture
 * and fills the table the render room calls them through (cairo_calls.h,
 * util/dynlib.h).
 *
 * Opened once per process under pthread_once, never closed: cairo and
 * fontconfig keep caches for the life of the process and are released
 * at exit (picture.c), so they must never be unmapped before that.
 */
#define DJ_CAIRO_LOADER
#include "render/cairo_calls.h"

#include <pthread.h>
#include <stdio.h>

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

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
/* Why the table is empty; "" once it is full. */
static char load_error[256] = "pictures: cairo was not loaded";

static void load(void)
{
    dj_cairo_calls t = {0};
    if (dj_dynlib_fill(LIBRARY_NAMES, DJ_CAIRO_NLIBS, "pictures", FUNCTIONS,
                       sizeof FUNCTIONS / sizeof FUNCTIONS[0], &t, load_error,
                       sizeof load_error) != 0)
        return;
    dj_cairo = t;
    load_error[0] = '\0';
}

int dj_cairo_load(char *err, size_t errlen)
{
    pthread_once(&load_once, load);
    if (load_error[0] == '\0')
        return 0;
    snprintf(err, errlen, "%s", load_error);
    return -1;
}
