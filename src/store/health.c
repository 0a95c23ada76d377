/* SPDX-License-Identifier: MIT */
/*
 * health.c — the figures of health.h, each one query.  The scheduler's
 * last run is the judge's own setting "last_tick" (seconds since 1970).
 */
#define _POSIX_C_SOURCE 200809L

#include "store/health.h"
#include "store/mail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/stmt.h"

static const char LAST_TICK[] = "last_tick";

int dj_store_tick_record(dj_store *s, int64_t now)
{
    char v[32];
    snprintf(v, sizeof v, "%lld", (long long)now);
    return dj_store_setting_set(s, LAST_TICK, v);
}

static int count(dj_store *s, int *out, const char *sql, const char *fmt,
                 int64_t arg)
{
    int64_t v = 0;
    int rc = fmt[0] ? st_query_int(s, &v, sql, fmt, arg)
                    : st_query_int(s, &v, sql, "");
    if (rc < 0)
        return -1;
    *out = (int)v;
    return 0;
}

static int overdue_games(dj_store *s, int64_t limit, dj_store_health *h)
{
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT g.name FROM games g JOIN phases p ON p.game_id = g.id"
        " WHERE g.state = 'active' AND g.nmr <> 'wait'"
        " AND p.status = 'current' AND p.deadline IS NOT NULL"
        " AND p.deadline + 60 * g.grace < ? ORDER BY g.name",
        "I", limit);
    if (!st)
        return -1;
    int rc;
    while ((rc = st_step(s, st)) == SQLITE_ROW) {
        char name[64];
        st_text(st, 0, name, sizeof name);
        size_t used = strlen(h->overdue);
        if (h->games_overdue++ < 8 && used + strlen(name) + 3 < sizeof h->overdue)
            snprintf(h->overdue + used, sizeof h->overdue - used, "%s%s",
                     used ? ", " : "", name);
    }
    st_finish(s, st);
    return rc < 0 ? -1 : 0;
}

int dj_store_health_read(dj_store *s, int64_t now, int64_t overdue_after,
                         int64_t since, dj_store_health *h)
{
    memset(h, 0, sizeof *h);
    if (dj_store_begin_read(s) < 0)
        return -1;
    char tick[32];
    int64_t pages = 0, page_size = 0;
    int rc = dj_store_setting_get(s, LAST_TICK, tick, sizeof tick);
    if (rc == 0)
        h->last_tick = strtoll(tick, NULL, 10);
    rc = rc < 0 ? -1 : 0;
    if (rc == 0)
        rc = count(s, &h->games_active,
                   "SELECT count(*) FROM games WHERE state = 'active'", "", 0);
    if (rc == 0)
        rc = overdue_games(s, now - overdue_after, h);
    if (rc == 0)
        rc = count(s, &h->mail_waiting,
                   "SELECT count(*) FROM outbox"
                   " WHERE state IN ('queued', 'sending')"
                   " AND next_attempt_at < ?", "I", DJ_OUTBOX_HELD_AT);
    if (rc == 0 &&
        st_query_int(s, &h->oldest_waiting,
                     "SELECT coalesce(min(created_at), 0) FROM outbox"
                     " WHERE state IN ('queued', 'sending')"
                     " AND next_attempt_at < ?", "I", DJ_OUTBOX_HELD_AT) < 0)
        rc = -1;
    if (rc == 0)
        rc = count(s, &h->mail_failed,
                   "SELECT count(*) FROM outbox WHERE state = 'failed'"
                   " AND coalesce(sent_at, created_at) >= ?", "I", since);
    if (rc == 0)
        rc = count(s, &h->quarantined,
                   "SELECT count(*) FROM mail_failures"
                   " WHERE quarantined_at >= ?", "I", since);
    if (rc == 0)
        rc = count(s, &h->confirmations,
                   "SELECT count(*) FROM confirmations WHERE expires_at > ?",
                   "I", now);
    if (rc == 0 && (st_query_int(s, &pages, "PRAGMA page_count", "") < 0 ||
                    st_query_int(s, &page_size, "PRAGMA page_size", "") < 0))
        rc = -1;
    h->db_bytes = pages * page_size;
    if (rc == 0 && dj_store_setting_get(s, "written_by", h->written_by,
                                        sizeof h->written_by) < 0)
        rc = -1;
    dj_store_rollback(s);
    return rc;
}
