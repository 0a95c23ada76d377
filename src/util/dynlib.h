/*
 * dynlib.h — a shared library opened at its first use, its functions
 * reached through a table.
 *
 * Why: every shared library a program is linked with is loaded, mapped
 * and relocated before main(), whether the run calls it or not.  sqlite,
 * libconfig and libpng cost `judgectl check` (which uses none of them)
 * about half a millisecond of its start-up that way, and cairo (with its
 * eighteen libraries) 1.5 ms.  So the programs are linked without them,
 * and each room that calls one keeps a table of its functions, filled by
 * dj_dynlib_load() the first time the room needs the library.
 *
 * The pattern, one header per table in the room that calls it (see
 * store/sqlite_calls.h): the library's own header, for every type and
 * prototype; one X-macro list of the functions called; a struct whose
 * members have each function's own type (__typeof__); and one macro per
 * function that sends the room's calls through the table.  A function
 * missing from the list is a link error (the library is not on the link
 * line), so the list cannot fall behind the code.
 *
 * Libraries are opened by their run-time names (the sonames of the ABI
 * the headers describe), with RTLD_NODELETE, never to be closed.
 */
#ifndef DJ_UTIL_DYNLIB_H
#define DJ_UTIL_DYNLIB_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/* One function of a table: which of its libraries has it, its name, and
 * where its pointer goes. */
typedef struct dj_dynlib_fn {
    int lib;       /* index into the table's sonames */
    const char *name;
    size_t offset; /* offsetof(the table's struct, name) */
} dj_dynlib_fn;

/* A room's table and what fills it; DJ_DYNLIB_INIT makes one. */
typedef struct dj_dynlib {
    const char *const *sonames;
    int nlibs;
    const char *what;        /* "the database": what needs the libraries */
    const dj_dynlib_fn *fns;
    size_t nfns;
    void *table;             /* the room's struct of pointers */
    size_t table_size;
    pthread_mutex_t lock;
    bool tried;              /* (lock) */
    char error[256];         /* (lock) why the table is empty; "" if full */
} dj_dynlib;

#define DJ_DYNLIB_INIT(sonames, what, fns, table)                             \
    {(sonames), (int)(sizeof(sonames) / sizeof(sonames)[0]), (what), (fns),  \
     sizeof(fns) / sizeof(fns)[0], &(table), sizeof(table),                  \
     PTHREAD_MUTEX_INITIALIZER, false, ""}

/*
 * Fill lib's table, once per process (thread-safe; every later call
 * gives the first one's answer): 0, or -1 with "cannot load <soname> (for
 * <what>): <why>" or the function missing in err, the table left empty.
 */
int dj_dynlib_load(dj_dynlib *lib, char *err, size_t errlen);

#endif
