/*
 * cairo_calls.c — opens cairo and fontconfig with dlopen() and fills the
 * table the render room calls them through (see cairo_calls.h for why).
 *
 * The libraries are opened by their run-time names (the sonames of the
 * ABI the headers describe: libcairo.so.2, libfontconfig.so.1), once per
 * process under pthread_once, with RTLD_NODELETE: cairo and fontconfig
 * keep caches for the life of the process and are released at exit
 * (picture.c), so they must never be unmapped before that.
 */
#define _POSIX_C_SOURCE 200809L
#define DJ_CAIRO_LOADER
#include "render/cairo_calls.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#ifndef RTLD_NODELETE
#define RTLD_NODELETE 0x01000 /* glibc's value; <dlfcn.h> hides it under
                                 _POSIX_C_SOURCE */
#endif

dj_cairo_calls dj_cairo;

static const char *const LIBRARY_NAMES[DJ_CAIRO_NLIBS] = {
    [DJ_CAIRO_LIB_CAIRO] = "libcairo.so.2",
    [DJ_CAIRO_LIB_FONTCONFIG] = "libfontconfig.so.1",
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
/* Why the table is empty; "" once it is full. */
static char load_error[256] = "pictures: cairo was not loaded";

static void load(void)
{
    void *lib[DJ_CAIRO_NLIBS];
    dj_cairo_calls t;
    for (int i = 0; i < DJ_CAIRO_NLIBS; i++) {
        lib[i] = dlopen(LIBRARY_NAMES[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (!lib[i]) {
            const char *why = dlerror();
            snprintf(load_error, sizeof load_error,
                     "pictures need cairo, which could not be loaded: %s",
                     why ? why : LIBRARY_NAMES[i]);
            return;
        }
    }
    /* dlsym's void * to a function pointer: POSIX requires it to work. */
#define DJ_CAIRO_FIND(l, fn)                                                   \
    *(void **)&t.fn = dlsym(lib[l], #fn);                                      \
    if (!t.fn) {                                                               \
        snprintf(load_error, sizeof load_error,                                \
                 "pictures need cairo: %s has no %s (too old?)",              \
                 LIBRARY_NAMES[l], #fn);                                       \
        return;                                                                \
    }
    DJ_CAIRO_CALLS(DJ_CAIRO_FIND)
#undef DJ_CAIRO_FIND
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
