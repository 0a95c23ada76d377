/* SPDX-License-Identifier: MIT */
/*
 * open_check.c — why a database file cannot be opened, said before SQLite
 * tries (its own word for all of these is "unable to open database
 * file").  A permission problem is the admin's to fix, not a passing one:
 * the caller reports DJ_STORE_OPEN_DENIED, which judged turns into exit
 * 78 (EX_CONFIG) so neither the MTA nor systemd retries for days.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* faccessat's AT_EACCESS */

#include "store/open_check.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The names of a user and a group, or their numbers.  The reentrant
 * lookups: judgeweb's threads open their connections at once, and
 * getpwuid's one static record would be shared between them.
 */
static void user_name(uid_t uid, char *out, size_t len)
{
    struct passwd pw, *found = NULL;
    char scratch[4096];
    if (getpwuid_r(uid, &pw, scratch, sizeof scratch, &found) == 0 && found)
        snprintf(out, len, "%s", found->pw_name);
    else
        snprintf(out, len, "%u", (unsigned)uid);
}

static void group_name(gid_t gid, char *out, size_t len)
{
    struct group gr, *found = NULL;
    char scratch[4096];
    if (getgrgid_r(gid, &gr, scratch, sizeof scratch, &found) == 0 && found)
        snprintf(out, len, "%s", found->gr_name);
    else
        snprintf(out, len, "%u", (unsigned)gid);
}

/* "dipjudge:dipjudge, mode 0600" */
static void describe(const struct stat *st, char *out, size_t len)
{
    char user[32], group[32];
    user_name(st->st_uid, user, sizeof user);
    group_name(st->st_gid, group, sizeof group);
    snprintf(out, len, "owned by %s:%s, mode %04o", user, group,
             (unsigned)(st->st_mode & 07777));
}

/* "user alice (uid 1000)" */
static void running_user(char *out, size_t len)
{
    uid_t uid = geteuid();
    struct passwd pw, *found = NULL;
    char scratch[4096];
    bool named = getpwuid_r(uid, &pw, scratch, sizeof scratch, &found) == 0 &&
                 found;
    snprintf(out, len, "user %s (uid %u)", named ? found->pw_name : "?",
             (unsigned)uid);
}

static void folder_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == path)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

static int denied(char *err, size_t errlen, const char *path,
                  const char *what, const char *where, int error)
{
    char who[96];
    running_user(who, sizeof who);
    snprintf(err, errlen,
             "cannot open database %s: %s (%s; this is %s)%s", path,
             strerror(error), where, who, what);
    return DJ_STORE_OPEN_DENIED;
}

/* The folder: it must exist and be writable (the -wal and -shm files). */
static int check_folder(const char *path, bool creating, char *err,
                        size_t errlen)
{
    char dir[1024], where[1200], owner[96];
    folder_of(path, dir, sizeof dir);
    struct stat st;
    if (stat(dir, &st) != 0) {
        int e = errno;
        snprintf(where, sizeof where, "its folder %s cannot be reached",
                 dir);
        return denied(err, errlen, path,
                      e == ENOENT ? ": create the folder, owned by the user "
                                    "the judge runs as"
                                  : "",
                      where, e);
    }
    if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0) {
        int e = errno;
        describe(&st, owner, sizeof owner);
        snprintf(where, sizeof where, "its folder %s is %s", dir, owner);
        return denied(err, errlen, path,
                      creating ? ": the database is created there"
                               : ": SQLite keeps its -wal and -shm files "
                                 "in the database's folder",
                      where, e);
    }
    return 0;
}

int st_open_check(const char *path, bool create, char *err, size_t errlen)
{
    if (!path || !path[0] || strcmp(path, ":memory:") == 0)
        return 0;
    struct stat st;
    if (stat(path, &st) != 0) {
        int e = errno;
        if (e == ENOENT && !create) {
            snprintf(err, errlen, "no database at %s", path);
            return DJ_STORE_OPEN_MISSING;
        }
        if (e == ENOENT)
            return check_folder(path, true, err, errlen);
        return check_folder(path, false, err, errlen) ? DJ_STORE_OPEN_DENIED
               : denied(err, errlen, path, "", "the file cannot be reached",
                        e);
    }
    char where[256], owner[96];
    describe(&st, owner, sizeof owner);
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "cannot open database %s: not a regular file "
                              "(%s)", path, owner);
        return DJ_STORE_OPEN_DENIED;
    }
    if (faccessat(AT_FDCWD, path, R_OK | W_OK, AT_EACCESS) != 0) {
        int e = errno;
        snprintf(where, sizeof where, "the file is %s", owner);
        /* The advice fits who is asking: the owner itself is told what
         * stops it (a mode without rw, a read-only file system), not to
         * run as the owner. */
        const char *advice =
            e == EROFS ? ": the file system holding it is mounted "
                         "read-only; remount it read-write"
            : geteuid() == st.st_uid
                ? ": you own it but its mode forbids reading or writing; "
                  "chmod 600 it"
                : ": run the command as the file's owner (sudo -u "
                  "dipjudge judgectl ...), or give the file to the "
                  "user the judge runs as";
        return denied(err, errlen, path, advice, where, e);
    }
    return check_folder(path, false, err, errlen);
}
