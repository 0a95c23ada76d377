/* SPDX-License-Identifier: MIT */
/*
 * tokens.c — the reply tokens' columns of participants.  See tokens.h.
 */
#include "store/tokens.h"

#include <string.h>

#include "store/stmt.h"

#define LIVE " status NOT IN ('resigned', 'replaced')"

int dj_store_token_participant(dj_store *s, int64_t game_id, const char *email,
                               int64_t *pid, int64_t *gen)
{
    int rc = st_query_int(s, pid,
                          "SELECT id FROM participants WHERE game_id = ?"
                          " AND (lower(email) = lower(?) OR id IN"
                          "  (SELECT participant_id FROM participant_addresses"
                          "   WHERE lower(email) = lower(?))) AND" LIVE
                          " ORDER BY id LIMIT 1",
                          "Iss", game_id, email ? email : "",
                          email ? email : "");
    if (rc != 0)
        return rc;
    return dj_store_token_gen(s, *pid, gen);
}

int dj_store_token_gen(dj_store *s, int64_t pid, int64_t *gen)
{
    return st_query_int(
        s, gen, "SELECT token_gen FROM participants WHERE id = ?", "I", pid);
}

int dj_store_token_set_hash(dj_store *s, int64_t pid, int64_t gen,
                            const char *hash)
{
    return st_exec(s,
                   "UPDATE participants SET token_hash = ? WHERE id = ?"
                   " AND token_gen = ? AND token_hash IS NOT ?",
                   "sIIs", hash, pid, gen, hash);
}

int dj_store_token_find(dj_store *s, const char *hash, int64_t *pid,
                        int64_t *game_id)
{
    int rc = st_query_int(s, pid,
                          "SELECT id FROM participants WHERE token_hash = ?"
                          " AND" LIVE,
                          "s", hash ? hash : "");
    if (rc != 0)
        return rc;
    return st_query_int(
        s, game_id, "SELECT game_id FROM participants WHERE id = ?", "I", *pid);
}

int dj_store_token_bump(dj_store *s, int64_t pid)
{
    return st_exec(s,
                   "UPDATE participants SET token_gen = token_gen + 1,"
                   " token_hash = NULL WHERE id = ?",
                   "I", pid);
}

int dj_store_outbox_last_id(dj_store *s, int64_t *id)
{
    return st_query_int(s, id, "SELECT IFNULL(max(id), 0) FROM outbox", "");
}

int dj_store_press_last_id(dj_store *s, int64_t game_id, int64_t *id)
{
    return st_query_int(
        s, id, "SELECT IFNULL(max(id), 0) FROM press WHERE game_id = ?", "I",
        game_id);
}

int dj_store_outbox_set_press(dj_store *s, int64_t game_id, int64_t after,
                              int64_t press_id)
{
    return st_exec(s,
                   "UPDATE outbox SET press_id = ? WHERE id > ? AND"
                   " game_id = ? AND kind = 'press'",
                   "III", press_id, after, game_id);
}

int dj_store_press_origin(dj_store *s, int64_t press_id, dj_press_origin *o)
{
    memset(o, 0, sizeof *o);
    sqlite3_stmt *st = st_prepare(s,
                                  "SELECT game_id, IFNULL(from_power, -1),"
                                  " sender_role, grey, broadcast, to_mask,"
                                  " to_master, to_observers"
                                  " FROM press WHERE id = ?",
                                  "I", press_id);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW) {
        o->game_id = sqlite3_column_int64(st, 0);
        o->from_power = sqlite3_column_int(st, 1);
        st_text(st, 2, o->role, sizeof o->role);
        o->grey = sqlite3_column_int(st, 3) != 0;
        o->broadcast = sqlite3_column_int(st, 4) != 0;
        o->to_mask = (uint64_t)sqlite3_column_int64(st, 5);
        o->to_master = sqlite3_column_int(st, 6) != 0;
        o->to_observers = sqlite3_column_int(st, 7) != 0;
    }
    st_finish(s, st);
    return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? DJ_STORE_NOTFOUND : -1;
}
