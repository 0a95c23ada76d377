/* SPDX-License-Identifier: MIT */
/*
 * web.c — rows of web_sessions, and the games' overview.  See web.h.
 */
#include <stdlib.h>
#include <string.h>

#include "store/stmt.h"
#include "store/web.h"

int dj_store_web_session_add(dj_store *s, const char *token_hash,
                             int64_t participant_id, const char *csrf,
                             const char *client, int64_t now,
                             int64_t expires_at)
{
    return st_exec(s,
                   "INSERT INTO web_sessions (token_hash, participant_id,"
                   " csrf, client, created_at, expires_at)"
                   " VALUES (?, ?, ?, ?, ?, ?)",
                   "sIssII", token_hash, participant_id, csrf, client, now,
                   expires_at);
}

int dj_store_web_session_get(dj_store *s, const char *token_hash, int64_t now,
                             dj_web_session_rec *out)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT p.id, p.game_id, p.role, IFNULL(p.power, -1), w.csrf,"
        " w.expires_at FROM web_sessions w"
        " JOIN participants p ON p.id = w.participant_id"
        " WHERE w.token_hash = ? AND w.expires_at > ?"
        " AND p.status NOT IN ('resigned', 'replaced')",
        "sI", token_hash, now);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW) {
        out->participant_id = sqlite3_column_int64(st, 0);
        out->game_id = sqlite3_column_int64(st, 1);
        st_text(st, 2, out->role, sizeof out->role);
        out->power = sqlite3_column_int(st, 3);
        st_text(st, 4, out->csrf, sizeof out->csrf);
        out->expires_at = sqlite3_column_int64(st, 5);
    }
    st_finish(s, st);
    if (rc == SQLITE_ROW)
        return 0;
    return rc == SQLITE_DONE ? DJ_STORE_NOTFOUND : -1;
}

int dj_store_web_session_delete(dj_store *s, const char *token_hash)
{
    return st_exec(s, "DELETE FROM web_sessions WHERE token_hash = ?", "s",
                   token_hash);
}

int dj_store_web_session_prune(dj_store *s, int64_t now)
{
    return st_exec(s, "DELETE FROM web_sessions WHERE expires_at <= ?", "I",
                   now);
}

int dj_store_web_sessions_end_others(dj_store *s, int64_t participant_id,
                                     const char *keep_hash)
{
    return st_exec(s,
                   "DELETE FROM web_sessions WHERE participant_id = ?"
                   " AND token_hash <> ?",
                   "Is", participant_id, keep_hash ? keep_hash : "");
}

int dj_store_web_device_add(dj_store *s, const char *device_hash,
                            int64_t participant_id, int64_t now,
                            int64_t expires_at)
{
    if (st_exec(s, "DELETE FROM web_devices WHERE expires_at <= ?", "I",
                now) < 0)
        return -1;
    return st_exec(s,
                   "INSERT OR REPLACE INTO web_devices (device_hash,"
                   " participant_id, created_at, expires_at)"
                   " VALUES (?, ?, ?, ?)",
                   "sIII", device_hash, participant_id, now, expires_at);
}

int dj_store_web_device_known(dj_store *s, const char *device_hash,
                              int64_t participant_id, int64_t now)
{
    int64_t n = 0;
    if (st_query_int(s, &n,
                     "SELECT count(*) FROM web_devices WHERE device_hash = ?"
                     " AND participant_id = ? AND expires_at > ?",
                     "sII", device_hash, participant_id, now) < 0)
        return -1;
    return n > 0;
}

static int overview_row(dj_store *s, sqlite3_stmt *st, void *row)
{
    (void)s;
    dj_game_overview_rec *o = row;
    memset(o, 0, sizeof *o);
    st_text(st, 0, o->name, sizeof o->name);
    st_text(st, 1, o->map, sizeof o->map);
    st_text(st, 2, o->state, sizeof o->state);
    st_text(st, 3, o->ending, sizeof o->ending);
    st_text(st, 4, o->phase, sizeof o->phase);
    o->deadline = st_int64(st, 5, 0);
    o->players = sqlite3_column_int(st, 6);
    o->waiting = sqlite3_column_int(st, 7);
    o->unlisted = sqlite3_column_int(st, 8);
    st_text(st, 9, o->join_password, sizeof o->join_password);
    return 0;
}

int dj_store_game_overviews(dj_store *s, const char *name,
                            dj_game_overview_rec **out, int *n)
{
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT g.name, g.map, g.state, g.ending, IFNULL(ph.name, ''),"
        " CASE WHEN ph.status = 'current' THEN ph.deadline END,"
        " (SELECT count(*) FROM participants p WHERE p.game_id = g.id"
        "   AND p.role = 'player' AND p.power IS NOT NULL"
        "   AND p.status NOT IN ('resigned', 'replaced')),"
        " (SELECT count(*) FROM participants p WHERE p.game_id = g.id"
        "   AND p.role = 'player' AND p.power IS NULL"
        "   AND p.status = 'playing'),"
        " g.unlisted, g.join_password"
        " FROM games g LEFT JOIN phases ph ON ph.game_id = g.id"
        "  AND ph.status IN ('current', 'final')"
        " WHERE ?1 IS NULL OR g.name = ?1 COLLATE NOCASE"
        " ORDER BY g.name COLLATE NOCASE, g.id",
        "s", name);
    return st_collect(s, st, sizeof **out, overview_row, NULL, (void **)out,
                      n);
}
