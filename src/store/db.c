/* SPDX-License-Identifier: MIT */
/*
 * db.c — the connection once open (open.c opens it): errors,
 * transactions, settings, closing, and the statement helpers of stmt.h.
 * Statements are compiled once per connection and kept (stmt_cache.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/stmt.h"
#include "util/fmt.h"

const char *dj_store_error(const dj_store *s)
{
    return s->err[0] ? s->err : "unknown database error";
}

int dj_store_fail(dj_store *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    s->busy = false;
    return -1;
}

static int fail_db(dj_store *s, const char *what)
{
    int code = sqlite3_errcode(s->db) & 0xff;
    /* A full disk is said as one (SQLite says "disk I/O error" when a
     * write of the WAL fails with ENOSPC): the transaction rolled back,
     * nothing half-written. */
    if (code == SQLITE_FULL ||
        (code == SQLITE_IOERR && sqlite3_system_errno(s->db) == ENOSPC)) {
        dj_store_fail(s, "database: %s: no space left on the device holding "
                         "the database (nothing was written; free space "
                         "and try again)", what);
        s->busy = false;
        return -1;
    }
    dj_store_fail(s, "database: %s: %s", what, sqlite3_errmsg(s->db));
    s->busy = code == SQLITE_BUSY || code == SQLITE_LOCKED;
    return -1;
}

bool dj_store_busy(const dj_store *s)
{
    return s && s->busy;
}

void dj_store_crash_at(dj_store *s, long n)
{
    s->crash_at = n > 0 ? n : 0;
    s->writes = 0;
}

void st_write_point(dj_store *s)
{
    if (s->crash_at > 0 && ++s->writes >= s->crash_at)
        _exit(DJ_STORE_CRASH_STATUS);
}

/* ---- statements ---------------------------------------------------------- */

static int bind_args(dj_store *s, sqlite3_stmt *st, const char *fmt,
                     va_list ap)
{
    /* no format letter without its parameter in the SQL (stmt.h; the
     * caller may bind the rest itself, as games.c binds the settings) */
    assert(st != NULL);
    assert((fmt ? (int)strlen(fmt) : 0) <= sqlite3_bind_parameter_count(st));
    int idx = 1, rc = SQLITE_OK;
    for (const char *f = fmt; f && *f && rc == SQLITE_OK; f++, idx++) {
        switch (*f) {
        case 'i':
            rc = sqlite3_bind_int(st, idx, va_arg(ap, int));
            break;
        case 'I':
            rc = sqlite3_bind_int64(st, idx, va_arg(ap, int64_t));
            break;
        case 's': {
            const char *v = va_arg(ap, const char *);
            rc = v ? sqlite3_bind_text(st, idx, v, -1, SQLITE_TRANSIENT)
                   : sqlite3_bind_null(st, idx);
            break;
        }
        case 'n':
            rc = sqlite3_bind_null(st, idx);
            break;
        case 'b': { /* a blob: pointer, then its size_t length */
            const void *v = va_arg(ap, const void *);
            size_t len = va_arg(ap, size_t);
            rc = len > (size_t)INT32_MAX
                     ? SQLITE_TOOBIG
                     : sqlite3_bind_blob(st, idx, v, (int)len,
                                         SQLITE_TRANSIENT);
            break;
        }
        default:
            return dj_store_fail(s, "database: bad bind format '%c'", *f);
        }
    }
    if (rc != SQLITE_OK)
        return fail_db(s, "bind");
    return 0;
}

static sqlite3_stmt *prepare_v(dj_store *s, const char *sql, const char *fmt,
                               va_list ap)
{
    sqlite3_stmt *st = st_cache_take(s, sql);
    if (!st) {
        fail_db(s, "prepare");
        return NULL;
    }
    if (bind_args(s, st, fmt, ap) < 0) {
        st_finish(s, st);
        return NULL;
    }
    return st;
}

void st_finish(dj_store *s, sqlite3_stmt *st)
{
    st_cache_give_back(s, st);
}

sqlite3_stmt *st_prepare(dj_store *s, const char *sql, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sqlite3_stmt *st = prepare_v(s, sql, fmt, ap);
    va_end(ap);
    return st;
}

int st_step(dj_store *s, sqlite3_stmt *st)
{
    assert(st != NULL); /* prepared (st_prepare) before it is stepped */
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        return rc;
    if (rc == SQLITE_CONSTRAINT)
        dj_store_fail(s, "database: constraint failed: %s",
                      sqlite3_errmsg(s->db));
    else
        fail_db(s, "step");
    return -1;
}

static int exec_v(dj_store *s, int *changes, const char *sql, const char *fmt,
                  va_list ap)
{
    sqlite3_stmt *st = prepare_v(s, sql, fmt, ap);
    if (!st)
        return -1;
    st_write_point(s);
    int rc = st_step(s, st);
    st_finish(s, st);
    if (rc < 0)
        return -1;
    if (changes)
        *changes = sqlite3_changes(s->db);
    st_write_point(s);
    return 0;
}

int st_exec(dj_store *s, const char *sql, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = exec_v(s, NULL, sql, fmt, ap);
    va_end(ap);
    return rc;
}

int st_exec_changes(dj_store *s, int *changes, const char *sql,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = exec_v(s, changes, sql, fmt, ap);
    va_end(ap);
    return rc;
}

void *st_grow(dj_store *s, void *array, int n, int *cap, size_t size)
{
    if (n < *cap)
        return array;
    int want = *cap ? *cap * 2 : 8;
    void *grown = realloc(array, size * (size_t)want);
    if (!grown) {
        dj_store_fail(s, "out of memory");
        return NULL;
    }
    *cap = want;
    return grown;
}

int st_collect(dj_store *s, sqlite3_stmt *st, size_t size, st_row_fn read_row,
               void (*free_rows)(void *rows, int n), void **out, int *n)
{
    *out = NULL;
    *n = 0;
    if (!st)
        return -1;
    char *rows = NULL;
    int rc, cap = 0, count = 0;
    while ((rc = st_step(s, st)) == SQLITE_ROW) {
        void *grown = st_grow(s, rows, count, &cap, size);
        if (!grown) {
            rc = -1;
            break;
        }
        rows = grown;
        void *row = rows + size * (size_t)count++;
        memset(row, 0, size);
        if (read_row(s, st, row) < 0) {
            rc = -1;
            break;
        }
    }
    st_finish(s, st);
    if (rc < 0) {
        if (free_rows)
            free_rows(rows, count);
        else
            free(rows);
        return -1;
    }
    *out = rows;
    *n = count;
    return 0;
}

int64_t st_last_id(dj_store *s)
{
    return sqlite3_last_insert_rowid(s->db);
}

void st_text(sqlite3_stmt *st, int col, char *buf, size_t len)
{
    if (len == 0)
        return;
    const char *t = (const char *)sqlite3_column_text(st, col);
    size_t n = t ? strnlen(t, len - 1) : 0;
    if (n)
        memcpy(buf, t, n);
    buf[n] = '\0';
}

char *st_text_dup(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return strdup(t ? (const char *)t : "");
}

int64_t st_int64(sqlite3_stmt *st, int col, int64_t null_value)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        return null_value;
    return sqlite3_column_int64(st, col);
}

int st_query_int(dj_store *s, int64_t *out, const char *sql,
                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sqlite3_stmt *st = prepare_v(s, sql, fmt, ap);
    va_end(ap);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW)
        *out = st_int64(st, 0, 0);
    st_finish(s, st);
    return rc < 0 ? -1 : rc == SQLITE_ROW ? 0 : DJ_STORE_NOTFOUND;
}

/* ---- connection ------------------------------------------------------------ */

int st_run_fixed(dj_store *s, const char *sql)
{
    sqlite3_stmt *st = st_prepare(s, sql, "");
    if (!st)
        return -1;
    int rc;
    while ((rc = st_step(s, st)) == SQLITE_ROW)
        ;
    st_finish(s, st);
    return rc < 0 ? -1 : 0;
}

const char *dj_store_notice(const dj_store *s)
{
    return s->notice;
}

void dj_store_close(dj_store *s)
{
    if (!s)
        return;
    while (s->depth)
        dj_store_rollback(s);
    st_cache_free(s);
    sqlite3_close(s->db);
    free(s);
}

int dj_store_schema_version(dj_store *s)
{
    int64_t v = 0;
    if (st_query_int(s, &v, "PRAGMA user_version", "") != 0)
        return -1;
    return (int)v;
}

/* ---- transactions ---------------------------------------------------------- */

/*
 * Inside an open transaction, "begin" opens a savepoint (dj2, dj3, ...):
 * a game operation run from a larger unit of work (one mail message with
 * many commands) is then atomic on its own, and its commit only releases
 * the savepoint, so the outer transaction still decides for everything.
 * The names are our own fixed words: no user text reaches the SQL.
 */
static int savepoint_sql(dj_store *s, const char *verb, int level)
{
    char sql[64];
    snprintf(sql, sizeof sql, "%s dj%d", verb, level);
    return st_run_fixed(s, sql);
}

/* The outer transaction may have been rolled back by SQLite itself (an
 * I/O error, a full disk): a savepoint opened now would silently start a
 * new, separate transaction, so nesting refuses instead. */
static int begin_nested(dj_store *s)
{
    assert(s->depth >= 1 && s->depth <= DJ_STORE_MAX_DEPTH);
    if (sqlite3_get_autocommit(s->db))
        return dj_store_fail(s, "database: the enclosing transaction was "
                                "rolled back");
    if (s->depth >= DJ_STORE_MAX_DEPTH)
        return dj_store_fail(s, "database: transactions nested too deep");
    if (savepoint_sql(s, "SAVEPOINT", s->depth + 1) < 0)
        return -1;
    s->depth++;
    return 0;
}

void dj_store_lock_observer(dj_store *s, dj_store_lock_fn fn, void *ctx)
{
    s->lock_fn = fn;
    s->lock_ctx = ctx;
    s->lock_since_us = 0;
}

static int64_t monotonic_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The write transaction ended: tell the observer how long it held. */
static void lock_released(dj_store *s)
{
    if (!s->lock_fn || !s->lock_since_us)
        return;
    int64_t held = monotonic_us() - s->lock_since_us;
    s->lock_since_us = 0;
    s->lock_fn(s->lock_ctx, held);
}

/* No level open: SQLite has no transaction either (every BEGIN of the
 * store is one of ours, counted in depth). */
#define ASSERT_NO_TRANSACTION(s)                                              \
    assert((s)->depth == 0 && sqlite3_get_autocommit((s)->db) != 0)

int dj_store_begin(dj_store *s)
{
    if (s->depth)
        return begin_nested(s);
    ASSERT_NO_TRANSACTION(s);
    if (st_run_fixed(s, "BEGIN IMMEDIATE") < 0)
        return -1;
    s->depth = 1;
    if (s->lock_fn)
        s->lock_since_us = monotonic_us();
    return 0;
}

int dj_store_begin_read(dj_store *s)
{
    if (s->depth)
        return begin_nested(s);
    ASSERT_NO_TRANSACTION(s);
    if (st_run_fixed(s, "BEGIN") < 0)
        return -1;
    s->depth = 1;
    return 0;
}

int dj_store_commit(dj_store *s)
{
    if (!s->depth)
        return dj_store_fail(s, "database: no transaction to commit");
    assert(s->depth <= DJ_STORE_MAX_DEPTH);
    if (s->depth > 1) {
        if (savepoint_sql(s, "RELEASE", s->depth) < 0) {
            dj_store_rollback(s);
            return -1;
        }
        s->depth--;
        return 0;
    }
    st_write_point(s);
    if (st_run_fixed(s, "COMMIT") < 0) {
        dj_store_rollback(s);
        return -1;
    }
    s->depth = 0;
    ASSERT_NO_TRANSACTION(s);
    lock_released(s);
    st_write_point(s);
    return 0;
}

/* Roll back the innermost level: a savepoint (undone, then released so
 * the level is gone) or the whole transaction. */
void dj_store_rollback(dj_store *s)
{
    if (!s->depth)
        return;
    assert(s->depth <= DJ_STORE_MAX_DEPTH);
    char keep[sizeof s->err];
    memcpy(keep, s->err, sizeof keep);
    if (sqlite3_get_autocommit(s->db) == 0) {
        if (s->depth > 1) {
            savepoint_sql(s, "ROLLBACK TO", s->depth);
            savepoint_sql(s, "RELEASE", s->depth);
        } else {
            st_run_fixed(s, "ROLLBACK");
        }
    }
    memcpy(s->err, keep, sizeof keep);
    s->depth--;
    if (!s->depth)
        lock_released(s);
}

bool dj_store_in_transaction(const dj_store *s)
{
    return s->depth != 0;
}

bool dj_store_transaction_alive(const dj_store *s)
{
    return s->depth != 0 && sqlite3_get_autocommit(s->db) == 0;
}

/* ---- settings ---------------------------------------------------------------- */

int dj_store_setting_get(dj_store *s, const char *key, char *value,
                         size_t len)
{
    sqlite3_stmt *st =
        st_prepare(s, "SELECT value FROM settings WHERE key = ?", "s", key);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW)
        st_text(st, 0, value, len);
    st_finish(s, st);
    return rc < 0 ? -1 : rc == SQLITE_ROW ? 0 : DJ_STORE_NOTFOUND;
}

int dj_store_setting_set(dj_store *s, const char *key, const char *value)
{
    return st_exec(s,
                   "INSERT INTO settings (key, value) VALUES (?, ?) "
                   "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                   "ss", key, value);
}
