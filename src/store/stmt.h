/* SPDX-License-Identifier: MIT */
/*
 * stmt.h — private to src/store: the one way this module talks SQL.
 *
 * Every statement goes through st_prepare(), which prepares it and binds
 * its parameters from a small format string, one letter per '?':
 *
 *   'i' int        'I' int64_t      's' const char * (NULL binds NULL)
 *   'n' NULL (takes no argument)
 *   'b' blob: const void *, then its length as size_t
 *
 * so no value ever reaches the SQL text.  st_exec() runs a statement that
 * returns no rows; st_step() steps one that does.  Both count write points
 * for the crash tests (see dj_store_crash_at()).  A statement from
 * st_prepare() is given back with st_finish(), never finalized: the
 * connection keeps it compiled for the next use (stmt_cache.c).
 */
#ifndef DJ_STORE_STMT_H
#define DJ_STORE_STMT_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

struct dj_store {
    sqlite3 *db;
    char err[512];
    int depth;        /* open levels: 1 the transaction, 2.. savepoints */
    long crash_at;    /* fault injection: crash at this write point */
    long writes;      /* write points passed so far */
    bool busy;        /* the last failure: another writer held the lock */
    bool newer_schema; /* opening failed on a newer dipjudge's schema */
    char notice[2600]; /* what opening did that the admin should hear of */
    int64_t busy_since; /* ms (monotonic) when the current wait began */
    struct st_cache *cache; /* the compiled statements (stmt_cache.c) */
    dj_store_lock_fn lock_fn; /* dj_store_lock_observer's, or NULL */
    void *lock_ctx;
    int64_t lock_since_us;    /* when the write lock was taken (lock_fn) */
};

/* The statement cache (stmt_cache.c): a compiled statement for `sql`, NULL
 * when it does not compile (the error in sqlite3_errmsg); given back reset
 * and unbound; all finalized by st_cache_free, before the connection
 * closes. */
sqlite3_stmt *st_cache_take(dj_store *s, const char *sql);
void st_cache_give_back(dj_store *s, sqlite3_stmt *st);
void st_cache_free(dj_store *s);

/* Prepare `sql` and bind the arguments; NULL (error recorded) on failure. */
sqlite3_stmt *st_prepare(dj_store *s, const char *sql, const char *fmt, ...);

/* Done with a statement from st_prepare (NULL: nothing to do). */
void st_finish(dj_store *s, sqlite3_stmt *st);

/* Step: SQLITE_ROW, SQLITE_DONE, or -1 (error recorded). */
int st_step(dj_store *s, sqlite3_stmt *st);

/* Prepare, bind, run to completion, finalize: 0 or -1.  A write point. */
int st_exec(dj_store *s, const char *sql, const char *fmt, ...);

/* A pragma or other fixed statement with no parameters and no user text,
 * its rows read and dropped: 0 or -1. */
int st_run_fixed(dj_store *s, const char *sql);

/* Like st_exec, and the number of rows changed in *changes. */
int st_exec_changes(dj_store *s, int *changes, const char *sql,
                    const char *fmt, ...);

/* The rowid of the last INSERT. */
int64_t st_last_id(dj_store *s);

/*
 * Make room for one more element in a malloc'd array of n elements of
 * `size` bytes with capacity *cap.  Returns the array (moved or not), or
 * NULL with the error recorded and the old array left as it was.
 */
void *st_grow(dj_store *s, void *array, int n, int *cap, size_t size);

/*
 * Every row of `st` (NULL: a prepare that failed) into a new array of
 * `size`-byte rows, read by read_row (which returns -1 when out of memory,
 * after recording the error; the row still counts, so it is freed).  `st`
 * is finalized.  On error the rows are freed with free_rows (plain free
 * when NULL) and *out is NULL.  Returns 0 or -1.
 */
typedef int (*st_row_fn)(dj_store *s, sqlite3_stmt *st, void *row);
int st_collect(dj_store *s, sqlite3_stmt *st, size_t size, st_row_fn read_row,
               void (*free_rows)(void *rows, int n), void **out, int *n);

/* A write point: crash here when the fault injection says so. */
void st_write_point(dj_store *s);

/* Copy column `col` as text into buf (empty for NULL), truncating. */
void st_text(sqlite3_stmt *st, int col, char *buf, size_t len);

/* Column `col` as a malloc'd string ("" for NULL); NULL when out of memory. */
char *st_text_dup(sqlite3_stmt *st, int col);

/* Column as int64, with `null_value` for NULL. */
int64_t st_int64(sqlite3_stmt *st, int col, int64_t null_value);

/*
 * Run a query expected to return one integer: 0 with *out set,
 * DJ_STORE_NOTFOUND when no row, -1 on error.
 */
int st_query_int(dj_store *s, int64_t *out, const char *sql,
                 const char *fmt, ...);

#endif
