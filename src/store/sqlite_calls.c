/*
 * sqlite_calls.c — opens SQLite at the first dj_store_open() and fills
 * the table the store calls it through (sqlite_calls.h, util/dynlib.h).
 */
#define DJ_SQLITE_LOADER
#include "store/sqlite_calls.h"

#include <pthread.h>
#include <stdio.h>

#include "util/dynlib.h"

dj_sqlite_calls dj_sqlite;

static const dj_dynlib_fn FUNCTIONS[] = {
#define DJ_SQLITE_FUNCTION(fn) {0, #fn, offsetof(dj_sqlite_calls, fn)},
    DJ_SQLITE_CALLS(DJ_SQLITE_FUNCTION)
#undef DJ_SQLITE_FUNCTION
};

static const char *const LIBRARY[] = {DJ_SQLITE_SONAME};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
/* Why the table is empty; "" once it is full. */
static char load_error[256] = "the database: SQLite was not loaded";

static void load(void)
{
    dj_sqlite_calls t = {0};
    if (dj_dynlib_fill(LIBRARY, 1, "the database", FUNCTIONS,
                       sizeof FUNCTIONS / sizeof FUNCTIONS[0], &t, load_error,
                       sizeof load_error) != 0)
        return;
    dj_sqlite = t;
    load_error[0] = '\0';
}

int dj_sqlite_load(char *err, size_t errlen)
{
    pthread_once(&load_once, load);
    if (load_error[0] == '\0')
        return 0;
    snprintf(err, errlen, "%s", load_error);
    return -1;
}
