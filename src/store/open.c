/* SPDX-License-Identifier: MIT */
/*
 * open.c — opening a database (dj_store_open, store.h): the file created
 * private, the connection's busy handler and pragmas, then the migrations
 * of schema.c.  It stands above db.c and schema.c, so the connection's
 * helpers never call back into the schema.
 *
 * Opening order matters: the busy handler is set first (so that even the
 * pragmas wait for a concurrent writer instead of failing), then WAL mode
 * and foreign keys, then the migrations.  synchronous=FULL in WAL mode
 * makes every commit durable: a result the judge has announced (queued in
 * the outbox) survives a power cut as well as a kill.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "store/open_check.h"
#include "store/schema.h"
#include "store/stmt.h"

/*
 * The database holds password hashes, addresses, secret orders and
 * private press: a new file is created 0600 whatever the umask, before
 * SQLite opens it, and SQLite gives its -wal and -shm files the database
 * file's own mode.  An existing file is left as the admin set it.
 */
static int create_private(const char *path, char *err, size_t errlen)
{
    if (strcmp(path, ":memory:") == 0 || path[0] == '\0')
        return 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
                  0600);
    if (fd < 0) {
        if (errno == EEXIST)
            return 0;
        snprintf(err, errlen, "cannot create database %s: %s", path,
                 strerror(errno));
        return -1;
    }
    /* O_CREAT's mode is masked by the umask; this is not. */
    int rc = fchmod(fd, 0600);
    close(fd);
    if (rc != 0) {
        snprintf(err, errlen, "cannot protect database %s: %s", path,
                 strerror(errno));
        return -1;
    }
    return 0;
}

static int64_t monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Another process holds the write lock: try again every millisecond, for
 * DJ_STORE_BUSY_MS at most.  SQLite's own handler (sqlite3_busy_timeout)
 * backs off to 100 ms between tries, and a writer that commits and begins
 * again at once — a tick going through a thousand games, one transaction
 * each — would hold the lock at nearly every one of them: a mail arriving
 * then waited for the whole tick.  Tried every millisecond, it gets in at
 * the first pause between two games (the tick leaves one: game/process.c).
 */
static int busy_wait(void *ctx, int tries)
{
    dj_store *s = ctx;
    int64_t now = monotonic_ms();
    if (tries == 0)
        s->busy_since = now;
    if (now - s->busy_since >= DJ_STORE_BUSY_MS)
        return 0;
    sqlite3_sleep(1);
    return 1;
}

/*
 * The release that last opened the file for writing, in the settings
 * table's "written_by" (judgectl status shows it): the admin can tell
 * which build touched a database.  Written only when it changes, and a
 * failure (a busy or read-only file) is no reason not to open.
 */
static void record_writer(dj_store *s)
{
    static const char WRITER[] = PACKAGE_NAME " " PACKAGE_VERSION;
    char had[128] = "";
    if (dj_store_setting_get(s, "written_by", had, sizeof had) >= 0 &&
        strcmp(had, WRITER) == 0)
        return;
    dj_store_setting_set(s, "written_by", WRITER);
}

dj_store *dj_store_open(const char *path, char *err, size_t errlen)
{
    dj_store_open_failure failure;
    return dj_store_open_as(path, true, &failure, err, errlen);
}

dj_store *dj_store_open_as(const char *path, bool create,
                           dj_store_open_failure *failure, char *err,
                           size_t errlen)
{
    *failure = DJ_STORE_OPEN_ERROR;
    int checked = st_open_check(path, create, err, errlen);
    if (checked != 0) {
        *failure = (dj_store_open_failure)checked;
        return NULL;
    }
    if (path && create && create_private(path, err, errlen) < 0)
        return NULL;
    dj_store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
                (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "cannot open database %s: %s", path,
                 s->db ? sqlite3_errmsg(s->db) : "out of memory");
        dj_store_close(s);
        return NULL;
    }
    sqlite3_busy_handler(s->db, busy_wait, s);
    sqlite3_extended_result_codes(s->db, 0);
    if (st_run_fixed(s, "PRAGMA journal_mode=WAL") < 0 ||
        st_run_fixed(s, "PRAGMA synchronous=FULL") < 0 ||
        st_run_fixed(s, "PRAGMA foreign_keys=ON") < 0 ||
        dj_schema_migrate(s) < 0) {
        snprintf(err, errlen, "%s: %s", path, dj_store_error(s));
        if (s->newer_schema)
            *failure = DJ_STORE_OPEN_NEWER;
        dj_store_close(s);
        return NULL;
    }
    record_writer(s);
    return s;
}
