/* SPDX-License-Identifier: MIT */
/*
 * run_as.c — the switch from root to the owner of the state folder
 * (run_as.h): the folder is judge.conf's state_dir, else the database's
 * own folder.  Groups first (initgroups, or only the folder's group for
 * a uid without a passwd entry), then the group, then the user; then a
 * check that root cannot be taken back.
 */
#define _DEFAULT_SOURCE /* initgroups, setgroups */

#include "cli/run_as.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The folder whose owner the program works as: 0, or -1 (none exists). */
static int state_folder(const dj_config *cfg, struct stat *st,
                        char *path, size_t len)
{
    if (cfg->state_dir[0] && stat(cfg->state_dir, st) == 0 &&
        S_ISDIR(st->st_mode)) {
        snprintf(path, len, "%s", cfg->state_dir);
        return 0;
    }
    snprintf(path, len, "%s", cfg->database);
    char *slash = strrchr(path, '/');
    if (slash == path)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    else
        snprintf(path, len, ".");
    return stat(path, st) == 0 && S_ISDIR(st->st_mode) ? 0 : -1;
}

int cli_run_as_state_owner(const dj_config *cfg, char *said, size_t saidlen,
                           char *err, size_t errlen)
{
    if (geteuid() != 0)
        return 0;
    struct stat st;
    char folder[DJ_PATH_MAX];
    if (state_folder(cfg, &st, folder, sizeof folder) < 0 || st.st_uid == 0)
        return 0;
    uid_t uid = st.st_uid;
    gid_t gid = st.st_gid;
    struct passwd *pw = getpwuid(uid);
    if (pw) {
        gid = pw->pw_gid;
        snprintf(said, saidlen, "%s", pw->pw_name);
    } else {
        snprintf(said, saidlen, "uid %ld", (long)uid);
    }
    int rc = pw ? initgroups(pw->pw_name, gid) : setgroups(1, &gid);
    if (rc != 0 || setgid(gid) != 0 || setuid(uid) != 0) {
        snprintf(err, errlen,
                 "started as root: cannot become %s, the owner of %s: %s",
                 said, folder, strerror(errno));
        return -1;
    }
    if (setuid(0) == 0) {
        snprintf(err, errlen, "started as root: root could be taken back "
                              "after becoming %s", said);
        return -1;
    }
    return 1;
}
