/* SPDX-License-Identifier: MIT */
/*
 * test_hooks.c — the test hooks of test_hooks.h, read from the
 * environment.  Compiled only into the test copies of the programs
 * (-DDJ_TEST_HOOKS); never into the installed judgectl and judged.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli/test_hooks.h"

#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "time/calendar.h"
#include "store/store.h"

#ifndef DJ_TEST_HOOKS
#error "test_hooks.c belongs to the test copies only (-DDJ_TEST_HOOKS)"
#endif

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* Seconds since 1970, or a UTC date and time. */
static int parse_time(const char *text, int64_t *t, char *why, size_t len)
{
    char *end;
    long long v = strtoll(text, &end, 10);
    if (!*end) {
        *t = v;
        return 0;
    }
    dj_zone utc;
    dj_zone_utc(&utc);
    return dj_time_parse(&utc, text, (int64_t)time(NULL), t, why, len);
}

int dj_test_hooks_read(dj_test_hooks *h, const char *program,
                       bool clock_runs, char *err, size_t errlen)
{
    memset(h, 0, sizeof *h);
    h->program = program;
    h->clock_runs = clock_runs;
    const char *now = env("DIPJUDGE_NOW");
    if (now) {
        char why[128] = "";
        if (parse_time(now, &h->clock_base, why, sizeof why) < 0) {
            snprintf(err, errlen, "bad DIPJUDGE_NOW '%s'%s%s", now,
                     why[0] ? ": " : "", why);
            return -1;
        }
        h->clock_set = true;
        h->clock_start = (int64_t)time(NULL);
    }
    const char *crash = env("DIPJUDGE_CRASH_AT");
    if (crash)
        h->crash_at = strtol(crash, NULL, 10);
    const char *point = env("DIPJUDGE_CRASH_POINT");
    if (point) {
        size_t n = strcspn(point, ":");
        if (n >= sizeof h->crash_point) {
            snprintf(err, errlen, "bad DIPJUDGE_CRASH_POINT");
            return -1;
        }
        memcpy(h->crash_point, point, n);
        h->crash_point[n] = '\0';
        h->crash_point_at =
            point[n] == ':' ? strtol(point + n + 1, NULL, 10) : 1;
        if (h->crash_point_at < 1)
            h->crash_point_at = 1;
    }
    h->poison = env("DIPJUDGE_TEST_POISON");
    h->disagree = env("DIPJUDGE_TEST_DISAGREE") != NULL;
    h->lock_log = env("DIPJUDGE_TEST_LOCK_LOG");
    h->fetch_probe = env("DIPJUDGE_TEST_FETCH_PROBE") != NULL;
    return 0;
}

int64_t dj_test_hooks_now(const dj_test_hooks *h)
{
    int64_t t = (int64_t)time(NULL);
    if (!h->clock_set)
        return t;
    return h->clock_runs ? h->clock_base + (t - h->clock_start)
                         : h->clock_base;
}

/* The verifier's result made different from the engine's. */
static void disagree(dj_result *b)
{
    if (b->norders > 0)
        b->orders[0].success = !b->orders[0].success;
    else
        b->winner = b->winner >= 0 ? -1 : 0;
}

/* One write transaction's hold of the lock, appended to the log (after
 * the lock is released: the hold does not include this). */
static void log_lock(void *ctx, int64_t held_us)
{
    int fd = open(ctx, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    char line[32];
    int n = snprintf(line, sizeof line, "%lld\n", (long long)held_us);
    if (write(fd, line, (size_t)n) != n)
        fprintf(stderr, "DIPJUDGE_TEST_LOCK_LOG: cannot write\n");
    close(fd);
}

void dj_test_hooks_judge(const dj_test_hooks *h, dj_judge *j)
{
    if (h->lock_log)
        dj_store_lock_observer(dj_judge_store(j), log_lock,
                               (void *)h->lock_log);
    if (h->crash_at)
        dj_store_crash_at(dj_judge_store(j), h->crash_at);
    if (h->disagree)
        dj_judge_set_verifier_hook(j, disagree);
}

static void crash_point(void *ctx, const char *point)
{
    dj_test_hooks *h = ctx;
    if (!h->crash_point[0] || strcmp(point, h->crash_point) != 0)
        return;
    if (++h->crash_point_seen < h->crash_point_at)
        return;
    fprintf(stderr, "%s: DIPJUDGE_CRASH_POINT %s reached: exiting as if "
                    "killed\n",
            h->program, point);
    _exit(DJ_STORE_CRASH_STATUS);
}

void dj_test_hooks_ingest(dj_test_hooks *h, dj_ingest_config *c)
{
    c->fault = crash_point;
    c->fault_ctx = h;
    c->test_fail_marker = h->poison;
}

void dj_test_hooks_outbox(dj_test_hooks *h, dj_outbox_config *c)
{
    c->fault = crash_point;
    c->fault_ctx = h;
}
