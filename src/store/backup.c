/* SPDX-License-Identifier: MIT */
/*
 * backup.c — a consistent copy of the open database in a new file, with
 * SQLite's online backup API (dj_store_backup, store.h).
 *
 * The copy is taken in one step: SQLite holds a read transaction over the
 * source for its length, so the copy is the database at one instant,
 * while the judge (in WAL mode) goes on writing; a writer is never
 * blocked.  The file is created 0600 before SQLite opens it (it holds
 * what the database holds), and removed again if the copy fails.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/stmt.h"

enum { BUSY_TRIES = 100, BUSY_SLEEP_MS = 50 };

int dj_store_backup(dj_store *s, const char *dest)
{
    int fd = open(dest, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
                  0600);
    if (fd < 0)
        return dj_store_fail(s, "backup %s: %s%s", dest, strerror(errno),
                             errno == EEXIST ? " (name a new file)" : "");
    int chmod_rc = fchmod(fd, 0600);
    close(fd);
    sqlite3 *to = NULL;
    int rc = chmod_rc == 0 ? sqlite3_open_v2(dest, &to, SQLITE_OPEN_READWRITE,
                                             NULL)
                           : SQLITE_PERM;
    if (rc == SQLITE_OK) {
        sqlite3_backup *b = sqlite3_backup_init(to, "main", s->db, "main");
        if (!b) {
            rc = sqlite3_errcode(to);
        } else {
            for (int i = 0; i < BUSY_TRIES; i++) {
                rc = sqlite3_backup_step(b, -1);
                if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
                    break;
                sqlite3_sleep(BUSY_SLEEP_MS);
            }
            sqlite3_backup_finish(b);
            if (rc == SQLITE_DONE)
                rc = sqlite3_errcode(to);
        }
    }
    char why[256];
    snprintf(why, sizeof why, "%s",
             to ? sqlite3_errmsg(to) : sqlite3_errstr(rc));
    sqlite3_close(to);
    if (rc != SQLITE_OK && rc != SQLITE_DONE) {
        unlink(dest);
        return dj_store_fail(s, "backup %s: %s", dest, why);
    }
    return 0;
}
