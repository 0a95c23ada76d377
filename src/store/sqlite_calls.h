/*
 * sqlite_calls.h — private to src/store: SQLite reached through a table
 * filled when the first database is opened (util/dynlib.h says why and
 * how: a program linked with libsqlite3 loads and relocates it before
 * main(), which `judgectl check` and `judgectl --version` never need).
 *
 * dj_sqlite_load() fills the table; dj_store_open() calls it before
 * anything else, and every other store function works on an open store,
 * so no call can reach an empty table.
 */
#ifndef DJ_STORE_SQLITE_CALLS_H
#define DJ_STORE_SQLITE_CALLS_H

#include <sqlite3.h>
#include <stddef.h>

/* The run-time name of the library whose ABI <sqlite3.h> describes. */
#define DJ_SQLITE_SONAME "libsqlite3.so.0"

/* Every SQLite function the store calls, one X(name) each. */
#define DJ_SQLITE_CALLS(X)                                                     \
    X(sqlite3_bind_blob)                                                       \
    X(sqlite3_bind_int)                                                        \
    X(sqlite3_bind_int64)                                                      \
    X(sqlite3_bind_null)                                                       \
    X(sqlite3_bind_text)                                                       \
    X(sqlite3_busy_timeout)                                                    \
    X(sqlite3_changes)                                                         \
    X(sqlite3_close)                                                           \
    X(sqlite3_column_blob)                                                     \
    X(sqlite3_column_bytes)                                                    \
    X(sqlite3_column_int)                                                      \
    X(sqlite3_column_int64)                                                    \
    X(sqlite3_column_text)                                                     \
    X(sqlite3_column_type)                                                     \
    X(sqlite3_errcode)                                                         \
    X(sqlite3_errmsg)                                                          \
    X(sqlite3_extended_result_codes)                                           \
    X(sqlite3_finalize)                                                        \
    X(sqlite3_get_autocommit)                                                  \
    X(sqlite3_last_insert_rowid)                                               \
    X(sqlite3_open_v2)                                                         \
    X(sqlite3_prepare_v2)                                                      \
    X(sqlite3_step)

typedef struct dj_sqlite_calls {
#define DJ_SQLITE_MEMBER(fn) __typeof__(fn) *fn;
    DJ_SQLITE_CALLS(DJ_SQLITE_MEMBER)
#undef DJ_SQLITE_MEMBER
} dj_sqlite_calls;

/* The table: all NULL until dj_sqlite_load() has succeeded, then read
 * only. */
extern dj_sqlite_calls dj_sqlite;

/* Open SQLite and fill the table, once per process (thread-safe); 0, or
 * -1 with the reason in err. */
int dj_sqlite_load(char *err, size_t errlen);

#ifndef DJ_SQLITE_LOADER /* sqlite_calls.c names the members themselves */
#define sqlite3_bind_blob (dj_sqlite.sqlite3_bind_blob)
#define sqlite3_bind_int (dj_sqlite.sqlite3_bind_int)
#define sqlite3_bind_int64 (dj_sqlite.sqlite3_bind_int64)
#define sqlite3_bind_null (dj_sqlite.sqlite3_bind_null)
#define sqlite3_bind_text (dj_sqlite.sqlite3_bind_text)
#define sqlite3_busy_timeout (dj_sqlite.sqlite3_busy_timeout)
#define sqlite3_changes (dj_sqlite.sqlite3_changes)
#define sqlite3_close (dj_sqlite.sqlite3_close)
#define sqlite3_column_blob (dj_sqlite.sqlite3_column_blob)
#define sqlite3_column_bytes (dj_sqlite.sqlite3_column_bytes)
#define sqlite3_column_int (dj_sqlite.sqlite3_column_int)
#define sqlite3_column_int64 (dj_sqlite.sqlite3_column_int64)
#define sqlite3_column_text (dj_sqlite.sqlite3_column_text)
#define sqlite3_column_type (dj_sqlite.sqlite3_column_type)
#define sqlite3_errcode (dj_sqlite.sqlite3_errcode)
#define sqlite3_errmsg (dj_sqlite.sqlite3_errmsg)
#define sqlite3_extended_result_codes (dj_sqlite.sqlite3_extended_result_codes)
#define sqlite3_finalize (dj_sqlite.sqlite3_finalize)
#define sqlite3_get_autocommit (dj_sqlite.sqlite3_get_autocommit)
#define sqlite3_last_insert_rowid (dj_sqlite.sqlite3_last_insert_rowid)
#define sqlite3_open_v2 (dj_sqlite.sqlite3_open_v2)
#define sqlite3_prepare_v2 (dj_sqlite.sqlite3_prepare_v2)
#define sqlite3_step (dj_sqlite.sqlite3_step)
#endif

#endif
