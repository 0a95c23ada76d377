/* SPDX-License-Identifier: MIT */
/*
 * stats.c — reliability figures per address (stats.h).
 */
#include "store/stats.h"

#include <stdio.h>
#include <string.h>

#include "store/stmt.h"

int dj_store_player_event(dj_store *s, const char *email, int64_t game_id,
                          const char *kind, int64_t at)
{
    if (!email || !*email)
        return 0; /* a power without a player: nobody to count */
    return st_exec(s,
                   "INSERT INTO player_events (email, game_id, kind, at)"
                   " VALUES (?, NULLIF(?, 0), ?, ?)",
                   "sIsI", email, game_id, kind, at);
}

static int one(dj_store *s, int *out, const char *sql, const char *email)
{
    int64_t n = 0;
    int rc = st_query_int(s, &n, sql, "s", email);
    if (rc < 0)
        return -1;
    *out = rc == 0 ? (int)n : 0;
    return 0;
}

int dj_store_player_stats(dj_store *s, const char *email,
                          dj_player_stats *out)
{
    memset(out, 0, sizeof *out);
    static const char EVENTS[] =
        "SELECT count(*) FROM player_events WHERE email = ?1 AND kind = ";
    char sql[160];
    int rc = 0;
    rc |= one(s, &out->joined,
              "SELECT count(DISTINCT game_id) FROM participants"
              " WHERE email = ?1 COLLATE NOCASE AND role = 'player'",
              email);
    rc |= one(s, &out->finished,
              "SELECT count(DISTINCT p.game_id) FROM participants p"
              " JOIN games g ON g.id = p.game_id"
              " WHERE p.email = ?1 COLLATE NOCASE AND p.role = 'player'"
              " AND g.state = 'finished'"
              " AND p.status NOT IN ('resigned', 'replaced')",
              email);
    snprintf(sql, sizeof sql, "%s'abandoned'", EVENTS);
    rc |= one(s, &out->abandoned, sql, email);
    snprintf(sql, sizeof sql, "%s'missed'", EVENTS);
    rc |= one(s, &out->missed, sql, email);
    snprintf(sql, sizeof sql, "%s'disorder'", EVENTS);
    rc |= one(s, &out->disorders, sql, email);
    snprintf(sql, sizeof sql, "%s'takeover'", EVENTS);
    rc |= one(s, &out->takeovers, sql, email);
    int pub = 0;
    rc |= one(s, &pub,
              "SELECT stats_public FROM player_prefs WHERE email = ?1",
              email);
    out->public = pub != 0;
    return rc ? -1 : 0;
}

int dj_store_player_stats_public(dj_store *s, const char *email, bool public)
{
    return st_exec(s,
                   "INSERT INTO player_prefs (email, stats_public) VALUES (?, ?)"
                   " ON CONFLICT (email) DO UPDATE SET"
                   " stats_public = excluded.stats_public",
                   "si", email, public ? 1 : 0);
}
