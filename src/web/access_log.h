/* SPDX-License-Identifier: MIT */
/*
 * access_log.h — judgeweb's access log and its /health answer, kept out
 * of server.c (which only calls them): one line per request in the
 * combined log format web servers write (so goaccess, fail2ban and
 * awstats read it), to judgeweb's standard error (the journal under
 * systemd), to syslog (daemon facility) or to a file (web.access_log in
 * judge.conf(5)); and /health, 200 when the database answers and 503
 * when it does not, with no game data in either.
 */
#ifndef DJ_WEB_ACCESS_LOG_H
#define DJ_WEB_ACCESS_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

typedef struct dj_access_log dj_access_log;

/* `where`: "stderr", "syslog", "off" or an absolute file (appended to).
 * NULL with a message when the file cannot be opened or `where` is none
 * of these. */
dj_access_log *dj_access_log_open(const char *where, char *err,
                                  size_t errlen);
void dj_access_log_close(dj_access_log *log);

/* One request, as the combined format has it: the client's address,
 * the request line's parts, the status, the body's bytes, Referer and
 * User-Agent (NULL: "-").  Thread-safe; quotes and control characters
 * of what the client sent are escaped (\x22), so a line is one line. */
typedef struct dj_access_entry {
    const char *client, *method, *path, *version;
    int status;
    size_t bytes;
    const char *referer, *user_agent;
    int64_t at;
} dj_access_entry;
void dj_access_log_write(dj_access_log *log, const dj_access_entry *e);

/* /health: does the database answer?  j NULL (it could not be opened)
 * is no.  The body is "ok\n" or "unavailable\n". */
bool dj_web_health(dj_judge *j);

#endif
