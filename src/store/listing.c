/* SPDX-License-Identifier: MIT */
/*
 * listing.c — the front page's games a page at a time.  See listing.h.
 *
 * The statement is put together from fixed pieces, one per filter given
 * (every value bound, never in the text): at most 16 texts, each kept
 * compiled by the statement cache, and each one SQLite answers from the
 * index whose columns are the filter's (state, then board, press or
 * speed, then name), reading only the rows of the page it returns.
 */
#include "store/listing.h"

#include <stdio.h>
#include <string.h>

#include "store/stmt.h"

/* The expressions the indexes are built on; the query's must be the
 * same text for SQLite to use them. */
#define LIST_STATE "(CASE state WHEN 'paused' THEN 'play' " \
                   "WHEN 'active' THEN 'play' ELSE state END)"
#define LIST_SPEED "(CASE WHEN move_delay < 1440 THEN 'fast' " \
                   "WHEN move_delay <= 4320 THEN 'normal' ELSE 'slow' END)"
#define LISTED "unlisted = 0 AND join_password = ''"

static const char *const INDEXES[] = {
    "CREATE INDEX IF NOT EXISTS games_list_state ON games (" LIST_STATE
    ", name) WHERE " LISTED,
    "CREATE INDEX IF NOT EXISTS games_list_map ON games (" LIST_STATE
    ", map, name) WHERE " LISTED,
    "CREATE INDEX IF NOT EXISTS games_list_press ON games (" LIST_STATE
    ", press, name) WHERE " LISTED,
    "CREATE INDEX IF NOT EXISTS games_list_speed ON games (" LIST_STATE
    ", " LIST_SPEED ", name) WHERE " LISTED,
};

int dj_store_listing_indexes(dj_store *s)
{
    for (size_t i = 0; i < sizeof INDEXES / sizeof INDEXES[0]; i++)
        if (st_run_fixed(s, INDEXES[i]) < 0)
            return -1;
    return 0;
}

bool dj_store_listing_speed_ok(const char *word)
{
    return word && (strcmp(word, "fast") == 0 || strcmp(word, "normal") == 0 ||
                    strcmp(word, "slow") == 0);
}

static int listing_row(dj_store *s, sqlite3_stmt *st, void *row)
{
    (void)s;
    dj_listing_rec *r = row;
    memset(r, 0, sizeof *r);
    dj_game_overview_rec *o = &r->o;
    st_text(st, 0, o->name, sizeof o->name);
    st_text(st, 1, o->map, sizeof o->map);
    st_text(st, 2, o->state, sizeof o->state);
    st_text(st, 3, o->ending, sizeof o->ending);
    st_text(st, 4, o->phase, sizeof o->phase);
    o->deadline = st_int64(st, 5, 0);
    o->players = sqlite3_column_int(st, 6);
    o->waiting = sqlite3_column_int(st, 7);
    st_text(st, 8, r->press, sizeof r->press);
    r->move_delay = sqlite3_column_int(st, 9);
    return 0;
}

/* The page's statement for the filter (the pieces given, nothing else):
 * its text into sql. */
static void listing_sql(const dj_listing_filter *f, bool back, char *sql,
                        size_t len)
{
    /* the page's games from the index, then their phase and players */
    snprintf(sql, len,
             "SELECT g.name, g.map, g.state, g.ending, IFNULL(ph.name, ''),"
             " CASE WHEN ph.status = 'current' THEN ph.deadline END,"
             " (SELECT count(*) FROM participants p WHERE p.game_id = g.id"
             "   AND p.role = 'player' AND p.power IS NOT NULL"
             "   AND p.status NOT IN ('resigned', 'replaced')),"
             " (SELECT count(*) FROM participants p WHERE p.game_id = g.id"
             "   AND p.role = 'player' AND p.power IS NULL"
             "   AND p.status = 'playing'),"
             " g.press, g.move_delay"
             " FROM (SELECT id FROM games WHERE " LISTED
             " AND " LIST_STATE " = ?1%s%s%s AND name %s ?5"
             " ORDER BY name %s LIMIT ?6) AS pick"
             " JOIN games g ON g.id = pick.id"
             " LEFT JOIN phases ph ON ph.game_id = g.id"
             "  AND ph.status IN ('current', 'final')"
             " ORDER BY g.name %s",
             f->map ? " AND map = ?2" : "", f->press ? " AND press = ?3" : "",
             f->speed ? " AND " LIST_SPEED " = ?4" : "", back ? "<" : ">",
             back ? "DESC" : "ASC", back ? "DESC" : "ASC");
}

int dj_store_listing_plan(dj_store *s, const dj_listing_filter *f, char *out,
                          size_t len)
{
    char sql[1600] = "EXPLAIN QUERY PLAN ";
    size_t at = strlen(sql);
    listing_sql(f, !f->after && f->before, sql + at, sizeof sql - at);
    const char *key = f->before ? f->before : f->after ? f->after : "";
    sqlite3_stmt *st = st_prepare(s, sql, "sssssi", f->state, f->map,
                                  f->press, f->speed, key, 51);
    if (!st)
        return -1;
    out[0] = '\0';
    size_t used = 0;
    int rc;
    while ((rc = st_step(s, st)) == SQLITE_ROW && used + 2 < len) {
        const unsigned char *d = sqlite3_column_text(st, 3);
        used += (size_t)snprintf(out + used, len - used, "%s%s",
                                 used ? "; " : "", d ? (const char *)d : "");
        if (used >= len)
            used = len - 1;
    }
    st_finish(s, st);
    return rc < 0 ? -1 : 0;
}

int dj_store_listing(dj_store *s, const dj_listing_filter *f, int limit,
                     dj_listing_rec **out, int *n, bool *more)
{
    *out = NULL;
    *n = 0;
    *more = false;
    if (limit < 1 || limit > 200)
        limit = DJ_LISTING_PAGE;
    bool back = !f->after && f->before;
    char sql[1536];
    listing_sql(f, back, sql, sizeof sql);
    const char *key = back ? f->before : f->after ? f->after : "";
    sqlite3_stmt *st = st_prepare(s, sql, "sssssi", f->state, f->map,
                                  f->press, f->speed, key, limit + 1);
    int rc = st_collect(s, st, sizeof **out, listing_row, NULL,
                        (void **)out, n);
    if (rc < 0)
        return -1;
    if (*n > limit) {
        *more = true;
        *n = limit;
    }
    if (back) /* read backwards: put the page in name order */
        for (int i = 0, k = *n - 1; i < k; i++, k--) {
            dj_listing_rec t = (*out)[i];
            (*out)[i] = (*out)[k];
            (*out)[k] = t;
        }
    return 0;
}
