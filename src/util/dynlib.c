/*
 * dynlib.c — opening a shared library at its first use and filling a
 * table of its functions (see dynlib.h for why and how).
 */
#define _POSIX_C_SOURCE 200809L
#include "util/dynlib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifndef RTLD_NODELETE
#define RTLD_NODELETE 0x01000 /* glibc's value; <dlfcn.h> hides it under
                                 _POSIX_C_SOURCE */
#endif

/* The most libraries one room opens. */
#define LIBS_MAX 4

int dj_dynlib_fill(const char *const *sonames, int nlibs, const char *what,
                   const dj_dynlib_fn *fns, size_t n, void *table, char *err,
                   size_t errlen)
{
    void *lib[LIBS_MAX];
    if (nlibs < 1 || nlibs > LIBS_MAX) {
        snprintf(err, errlen, "%s: %d libraries to open", what, nlibs);
        return -1;
    }
    for (int i = 0; i < nlibs; i++) {
        lib[i] = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (!lib[i]) {
            const char *why = dlerror();
            snprintf(err, errlen, "cannot load %s (for %s): %s", sonames[i],
                     what, why ? why : "no reason given");
            return -1;
        }
    }
    for (size_t i = 0; i < n; i++) {
        void *f = fns[i].lib >= 0 && fns[i].lib < nlibs
                      ? dlsym(lib[fns[i].lib], fns[i].name)
                      : NULL;
        if (!f) {
            snprintf(err, errlen, "%s (for %s) has no %s (too old?)",
                     fns[i].lib >= 0 && fns[i].lib < nlibs ? sonames[fns[i].lib]
                                                         : "?",
                     what, fns[i].name);
            return -1;
        }
        /* dlsym's void * as a function pointer: POSIX requires that to
         * work, and the two have one representation. */
        memcpy((unsigned char *)table + fns[i].offset, &f, sizeof f);
    }
    return 0;
}
