/* SPDX-License-Identifier: MIT */
/*
 * store.h — the judge's database: one SQLite file holding every game,
 * player, order, result and piece of mail waiting to go out.
 *
 * Design.  A dj_store is an open connection plus the last error message.
 * Opening sets WAL journaling (readers never block the writer), a busy
 * timeout (a second judgectl waits for the first instead of failing),
 * foreign keys, and brings the schema up to date: the schema version is
 * PRAGMA user_version and every migration from the file's version to the
 * current one runs, each in its own transaction, when the file is opened.
 *
 * Every statement is prepared with bound parameters; no text from a user
 * is ever spliced into SQL.  The table families each have their own file
 * and header (games.h, participants.h, phases.h, mail.h); this one holds
 * the connection, transactions, the judge's key/value settings and the
 * fault-injection hook the crash tests use.
 *
 * Transactions.  Everything that changes a game runs between
 * dj_store_begin() (BEGIN IMMEDIATE: the write lock is taken at once, so
 * two processes deciding "this phase is due" cannot both go on to write)
 * and dj_store_commit(); on any error the caller calls dj_store_rollback()
 * and nothing of the change remains.
 *
 * Nesting.  A begin inside an open transaction opens a SAVEPOINT instead:
 * its commit releases the savepoint, its rollback undoes just that level.
 * So a front end may run many game operations in one transaction of its
 * own (the mail command language runs a whole message so, together with
 * the record of the message's Message-ID): each operation stays atomic,
 * and only the outermost commit makes anything durable.
 *
 * Errors.  Functions return 0 on success and -1 on failure with a one-line
 * message in dj_store_error(); lookups return DJ_STORE_NOTFOUND (1) when
 * no row matches.
 */
#ifndef DJ_STORE_STORE_H
#define DJ_STORE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DJ_STORE_NOTFOUND 1
#define DJ_STORE_SCHEMA_VERSION 21
#define DJ_STORE_BUSY_MS 30000  /* how long to wait for another writer */

typedef struct dj_store dj_store;

/*
 * Open (creating when missing) the database at `path` and migrate it to
 * DJ_STORE_SCHEMA_VERSION.  A file from a newer dipjudge is refused.
 * Returns NULL with a message in err on failure.
 */
dj_store *dj_store_open(const char *path, char *err, size_t errlen);
void dj_store_close(dj_store *s);

/* Why an open failed. */
typedef enum dj_store_open_failure {
    DJ_STORE_OPEN_ERROR = 1, /* anything else: it may pass (a lock, a disk) */
    DJ_STORE_OPEN_MISSING,   /* no such file, and not asked to create one */
    DJ_STORE_OPEN_DENIED,    /* permissions: only the admin can fix it */
    DJ_STORE_OPEN_NEWER      /* a newer dipjudge's schema */
} dj_store_open_failure;

/*
 * dj_store_open, creating a missing file only when `create`.  On failure
 * *failure says why, and err names the file; a permission error also
 * names the file's (or its folder's) owner and mode, the user running and
 * the system's reason (open_check.c).
 */
dj_store *dj_store_open_as(const char *path, bool create,
                           dj_store_open_failure *failure, char *err,
                           size_t errlen);

/*
 * What opening did that the admin should hear of, or "": a schema upgrade,
 * naming the copy of the old file written first, next to it
 * ("FILE.schema-vN.bak", by dj_store_backup).
 */
const char *dj_store_notice(const dj_store *s);

/*
 * A consistent copy of the whole database into the new file `dest`
 * (created 0600; an existing file is refused), with SQLite's online
 * backup: the judge may go on reading and writing meanwhile.  0, or -1
 * with the reason in dj_store_error().
 */
int dj_store_backup(dj_store *s, const char *dest);

/* The message of the last failure. */
const char *dj_store_error(const dj_store *s);

/* Was the last failure a busy database (another writer held the lock past
 * the busy timeout), rather than anything else? */
bool dj_store_busy(const dj_store *s);

/* Record a failure message (printf-style) for dj_store_error(); returns -1. */
int dj_store_fail(dj_store *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The file's schema version (PRAGMA user_version). */
int dj_store_schema_version(dj_store *s);

/*
 * BEGIN IMMEDIATE / COMMIT / ROLLBACK, or SAVEPOINT / RELEASE /
 * ROLLBACK TO inside an open transaction.  Rollback never fails visibly.
 */
#define DJ_STORE_MAX_DEPTH 16
int dj_store_begin(dj_store *s);
/* BEGIN (deferred): a consistent view for reading; end with rollback. */
int dj_store_begin_read(dj_store *s);
int dj_store_commit(dj_store *s);
void dj_store_rollback(dj_store *s);
bool dj_store_in_transaction(const dj_store *s);
/*
 * Is the transaction opened with dj_store_begin still there?  False when
 * none is open, or when SQLite rolled it back by itself after an error
 * (then the caller must roll back and retry the whole unit of work).
 */
bool dj_store_transaction_alive(const dj_store *s);

/* The judge's own settings: a key/value table. */
int dj_store_setting_get(dj_store *s, const char *key, char *value,
                         size_t len);  /* 0, DJ_STORE_NOTFOUND or -1 */
int dj_store_setting_set(dj_store *s, const char *key, const char *value);

/*
 * Fault injection for the crash tests: with n > 0, the process ends with
 * _exit(DJ_STORE_CRASH_STATUS) at the n-th write point (each write
 * statement, before and after it runs, and each commit, before and after),
 * exactly as if it had been killed there.  0 turns it off.
 */
#define DJ_STORE_CRASH_STATUS 86
void dj_store_crash_at(dj_store *s, long n);

/*
 * A seam for measuring (the test copies' DIPJUDGE_TEST_LOCK_LOG,
 * src/cli/test_hooks.h, and `make bench-ingest`; nothing else sets it):
 * fn is called each time a write transaction (dj_store_begin's BEGIN
 * IMMEDIATE) ends, committed or rolled back, with how long it held the
 * database's write lock, in microseconds.  NULL turns it off; while it is
 * off no clock is read.
 */
typedef void (*dj_store_lock_fn)(void *ctx, int64_t held_us);
void dj_store_lock_observer(dj_store *s, dj_store_lock_fn fn, void *ctx);

#endif
