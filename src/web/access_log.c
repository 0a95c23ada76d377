/* SPDX-License-Identifier: MIT */
/*
 * access_log.c — the combined-format access log and /health (see
 * access_log.h).  A line is formatted whole, then written with one
 * fputs under a mutex (or one syslog call), so the worker threads'
 * lines never interleave.
 */
#define _POSIX_C_SOURCE 200809L

#include "web/access_log.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "store/store.h"

enum where { TO_STDERR, TO_SYSLOG, TO_FILE, TO_NOWHERE };

struct dj_access_log {
    enum where where;
    FILE *file;
    pthread_mutex_t lock;
};

dj_access_log *dj_access_log_open(const char *where, char *err,
                                  size_t errlen)
{
    dj_access_log *log = calloc(1, sizeof *log);
    if (!log) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&log->lock, NULL);
    if (!where[0] || strcmp(where, "stderr") == 0) {
        log->where = TO_STDERR;
    } else if (strcmp(where, "syslog") == 0) {
        log->where = TO_SYSLOG;
        openlog("judgeweb", LOG_PID, LOG_DAEMON);
    } else if (strcmp(where, "off") == 0) {
        log->where = TO_NOWHERE;
    } else if (where[0] == '/') {
        log->where = TO_FILE;
        log->file = fopen(where, "a");
        if (!log->file) {
            snprintf(err, errlen, "web.access_log %s: %s", where,
                     strerror(errno));
            dj_access_log_close(log);
            return NULL;
        }
    } else {
        snprintf(err, errlen, "web.access_log '%s': want \"stderr\", "
                              "\"syslog\", \"off\" or an absolute file",
                 where);
        dj_access_log_close(log);
        return NULL;
    }
    return log;
}

void dj_access_log_close(dj_access_log *log)
{
    if (!log)
        return;
    if (log->file)
        fclose(log->file);
    if (log->where == TO_SYSLOG)
        closelog();
    pthread_mutex_destroy(&log->lock);
    free(log);
}

/* Append s to out (at most `room` bytes left) with '"', '\\' and every
 * byte below 0x20 or 0x7f and above as \xHH; "-" for NULL or empty.
 * Returns the bytes written. */
static size_t escaped(char *out, size_t room, const char *s, size_t max)
{
    if (!s || !*s)
        s = "-";
    size_t n = 0;
    for (size_t i = 0; s[i] && i < max && n + 5 < room; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
            n += (size_t)snprintf(out + n, room - n, "\\x%02x", c);
        else
            out[n++] = (char)c;
    }
    out[n] = '\0';
    return n;
}

void dj_access_log_write(dj_access_log *log, const dj_access_entry *e)
{
    if (!log || log->where == TO_NOWHERE)
        return;
    char client[80], method[24], path[1100], version[24], ref[600], ua[600];
    escaped(client, sizeof client, e->client, 64);
    escaped(method, sizeof method, e->method, 16);
    escaped(path, sizeof path, e->path, 256);
    escaped(version, sizeof version, e->version, 16);
    escaped(ref, sizeof ref, e->referer, 128);
    escaped(ua, sizeof ua, e->user_agent, 128);
    char stamp[40] = "-";
    time_t t = (time_t)e->at;
    struct tm tm;
    if (localtime_r(&t, &tm))
        strftime(stamp, sizeof stamp, "%d/%b/%Y:%H:%M:%S %z", &tm);
    char line[3000];
    snprintf(line, sizeof line,
             "%s - - [%s] \"%s %s %s\" %d %zu \"%s\" \"%s\"", client, stamp,
             method, path, version, e->status, e->bytes, ref, ua);
    if (log->where == TO_SYSLOG) {
        syslog(LOG_INFO, "%s", line);
        return;
    }
    FILE *to = log->where == TO_FILE ? log->file : stderr;
    pthread_mutex_lock(&log->lock);
    fprintf(to, "%s\n", line);
    fflush(to);
    pthread_mutex_unlock(&log->lock);
}

bool dj_web_health(dj_judge *j)
{
    return j && dj_store_schema_version(dj_judge_store(j)) > 0;
}
