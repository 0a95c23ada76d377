/*
 * dynlib.c — opening a room's shared libraries at their first use and
 * filling its table of their functions (see dynlib.h for why and how).
 */
#define _POSIX_C_SOURCE 200809L
#include "util/dynlib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef RTLD_NODELETE
#define RTLD_NODELETE 0x01000 /* glibc's value; <dlfcn.h> hides it under
                                 _POSIX_C_SOURCE */
#endif

/* The most libraries one table draws on. */
#define LIBS_MAX 4

/* Open the libraries and find every function, into `copy` (the table's
 * size): 0, or -1 with the reason in lib->error. */
static int fill(dj_dynlib *lib, unsigned char *copy)
{
    void *handle[LIBS_MAX];
    if (lib->nlibs < 1 || lib->nlibs > LIBS_MAX) {
        snprintf(lib->error, sizeof lib->error, "%s: %d libraries to open",
                 lib->what, lib->nlibs);
        return -1;
    }
    for (int i = 0; i < lib->nlibs; i++) {
        handle[i] =
            dlopen(lib->sonames[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (!handle[i]) {
            const char *why = dlerror();
            snprintf(lib->error, sizeof lib->error,
                     "cannot load %s (for %s): %s", lib->sonames[i],
                     lib->what, why ? why : "no reason given");
            return -1;
        }
    }
    for (size_t i = 0; i < lib->nfns; i++) {
        const dj_dynlib_fn *fn = &lib->fns[i];
        bool known = fn->lib >= 0 && fn->lib < lib->nlibs &&
                     fn->offset + sizeof(void *) <= lib->table_size;
        void *f = known ? dlsym(handle[fn->lib], fn->name) : NULL;
        if (!f) {
            snprintf(lib->error, sizeof lib->error,
                     "%s (for %s) has no %s (too old?)",
                     known ? lib->sonames[fn->lib] : "?", lib->what,
                     fn->name);
            return -1;
        }
        /* dlsym's void * as a function pointer: POSIX requires that to
         * work, and the two have one representation. */
        memcpy(copy + fn->offset, &f, sizeof f);
    }
    return 0;
}

int dj_dynlib_load(dj_dynlib *lib, char *err, size_t errlen)
{
    pthread_mutex_lock(&lib->lock);
    if (!lib->tried) {
        /* Filled in a copy, kept only whole: a table is empty or full. */
        unsigned char *copy = calloc(1, lib->table_size);
        if (!copy) { /* not tried: the next call may have the memory */
            pthread_mutex_unlock(&lib->lock);
            snprintf(err, errlen, "cannot load the libraries for %s: out "
                     "of memory", lib->what);
            return -1;
        }
        lib->tried = true;
        if (fill(lib, copy) == 0) {
            memcpy(lib->table, copy, lib->table_size);
            lib->error[0] = '\0';
        }
        free(copy);
    }
    int rc = lib->error[0] ? -1 : 0;
    if (rc < 0)
        snprintf(err, errlen, "%s", lib->error);
    pthread_mutex_unlock(&lib->lock);
    return rc;
}
