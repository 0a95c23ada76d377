/*
 * sqlite_calls.c — opens SQLite at the first dj_store_open() and fills
 * the table the store calls it through (sqlite_calls.h, util/dynlib.h).
 */
#define DJ_SQLITE_LOADER
#include "store/sqlite_calls.h"

#include "util/dynlib.h"

dj_sqlite_calls dj_sqlite;

static const char *const LIBRARY[] = {DJ_SQLITE_SONAME};

static const dj_dynlib_fn FUNCTIONS[] = {
#define DJ_SQLITE_FUNCTION(fn) {0, #fn, offsetof(dj_sqlite_calls, fn)},
    DJ_SQLITE_CALLS(DJ_SQLITE_FUNCTION)
#undef DJ_SQLITE_FUNCTION
};

static dj_dynlib sqlite_lib =
    DJ_DYNLIB_INIT(LIBRARY, "the database", FUNCTIONS, dj_sqlite);

int dj_sqlite_load(char *err, size_t errlen)
{
    return dj_dynlib_load(&sqlite_lib, err, errlen);
}
