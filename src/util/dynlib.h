/*
 * dynlib.h — a shared library opened at its first use, its functions
 * reached through a table.
 *
 * Why: every shared library a program is linked with is loaded, mapped
 * and relocated before main(), whether the run calls it or not.  sqlite,
 * libconfig, libcrypt and libpng cost `judgectl check` (which uses none
 * of them) about half a millisecond of its start-up that way, and cairo
 * (with its eighteen libraries) 1.5 ms.  So the programs are linked
 * without them, and each room that calls one keeps a table of its
 * functions, filled by dj_dynlib_fill() the first time the room needs
 * the library.
 *
 * The pattern, one header per library in the room that calls it (see
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

#include <stddef.h>

/* One function of a table: which of the room's libraries has it, its
 * name, and where its pointer goes. */
typedef struct dj_dynlib_fn {
    int lib;       /* index into the sonames given to dj_dynlib_fill() */
    const char *name;
    size_t offset; /* offsetof(the table's struct, name) */
} dj_dynlib_fn;

/*
 * Open the nlibs libraries named by their sonames and store the address
 * of each of the n functions in *table at its offset.  0, or -1 with
 * "cannot load <soname> (for <what>): <why>" (or the function missing)
 * in err.  Fill a copy of the room's table and keep it
 * only on success: on failure some of it may be filled, some not.
 */
int dj_dynlib_fill(const char *const *sonames, int nlibs, const char *what,
                   const dj_dynlib_fn *fns, size_t n, void *table, char *err,
                   size_t errlen);

#endif
