/* SPDX-License-Identifier: MIT */
/*
 * press.c — rows of the press archive (press.h).
 */
#include "store/press.h"

#include <stdlib.h>
#include <string.h>

#include "store/stmt.h"

int dj_store_press_add(dj_store *s, int64_t game_id, const dj_press_rec *r,
                       const char *author, int64_t at)
{
    return st_exec(
        s,
        "INSERT INTO press (game_id, phase_id, sent_at, from_power, author,"
        " to_powers, grey, body, sender_id, sender_role, broadcast, to_mask,"
        " to_master, to_observers, fake, shown)"
        " VALUES (?, NULLIF(?, 0), ?, NULLIF(?, -1), ?, ?, ?, ?, ?, ?, ?, ?,"
        " ?, ?, ?, ?)",
        "IIIissisIsiIiiis", game_id, r->phase_id, at, r->from_power,
        author ? author : "", r->broadcast ? "" : r->to_names, r->grey ? 1 : 0,
        r->body ? r->body : "", r->sender_id, r->sender_role,
        r->broadcast ? 1 : 0, (int64_t)r->to_mask, r->to_master ? 1 : 0,
        r->to_observers ? 1 : 0, r->fake ? 1 : 0, r->shown);
}

static int press_row(dj_store *s, sqlite3_stmt *st, void *row)
{
    dj_press_rec *r = row;
    r->id = st_int64(st, 0, 0);
    r->phase_id = st_int64(st, 1, 0);
    st_text(st, 2, r->phase, sizeof r->phase);
    r->phase_order = (int)st_int64(st, 3, -1);
    r->sent_at = st_int64(st, 4, 0);
    r->sender_id = st_int64(st, 5, 0);
    st_text(st, 6, r->sender_role, sizeof r->sender_role);
    r->from_power = (int)st_int64(st, 7, -1);
    r->broadcast = st_int64(st, 8, 0) != 0;
    r->to_mask = (uint64_t)st_int64(st, 9, 0);
    r->to_master = st_int64(st, 10, 0) != 0;
    r->to_observers = st_int64(st, 11, 0) != 0;
    r->grey = st_int64(st, 12, 0) != 0;
    r->fake = st_int64(st, 13, 0) != 0;
    st_text(st, 14, r->shown, sizeof r->shown);
    st_text(st, 15, r->to_names, sizeof r->to_names);
    r->body = st_text_dup(st, 16);
    if (!r->body)
        return dj_store_fail(s, "out of memory");
    return 0;
}

void dj_press_recs_free(dj_press_rec *r, int n)
{
    for (int i = 0; r && i < n; i++)
        free(r[i].body);
    free(r);
}

static void press_rows_free(void *rows, int n)
{
    dj_press_recs_free(rows, n);
}

int dj_store_press_list(dj_store *s, int64_t game_id, dj_press_rec **out,
                        int *n)
{
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT p.id, IFNULL(p.phase_id, 0), IFNULL(f.name, ''),"
        " IFNULL(f.year * 100 + f.season * 10 + f.type, -1), p.sent_at,"
        " p.sender_id, p.sender_role, IFNULL(p.from_power, -1), p.broadcast,"
        " p.to_mask, p.to_master, p.to_observers, p.grey, p.fake, p.shown,"
        " p.to_powers, p.body"
        " FROM press p LEFT JOIN phases f ON f.id = p.phase_id"
        " WHERE p.game_id = ? ORDER BY p.id",
        "I", game_id);
    return st_collect(s, st, sizeof **out, press_row, press_rows_free,
                      (void **)out, n);
}

int dj_store_diary_add(dj_store *s, int64_t game_id, int64_t phase_id,
                       int power, const char *body, int64_t at)
{
    return st_exec(s,
                   "INSERT INTO diaries (game_id, phase_id, power,"
                   " written_at, body) VALUES (?, NULLIF(?, 0), ?, ?, ?)",
                   "IIiIs", game_id, phase_id, power, at, body ? body : "");
}

static int diary_row(dj_store *s, sqlite3_stmt *st, void *row)
{
    dj_press_rec *r = row;
    r->id = st_int64(st, 0, 0);
    r->phase_id = st_int64(st, 1, 0);
    st_text(st, 2, r->phase, sizeof r->phase);
    r->phase_order = (int)st_int64(st, 3, -1);
    r->sent_at = st_int64(st, 4, 0);
    r->from_power = (int)st_int64(st, 5, -1);
    r->to_mask = 0;
    r->body = st_text_dup(st, 6);
    if (!r->body)
        return dj_store_fail(s, "out of memory");
    return 0;
}

int dj_store_diary_list(dj_store *s, int64_t game_id, int power,
                        dj_press_rec **out, int *n)
{
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT d.id, IFNULL(d.phase_id, 0), IFNULL(f.name, ''),"
        " IFNULL(f.year * 100 + f.season * 10 + f.type, -1), d.written_at,"
        " d.power, d.body"
        " FROM diaries d LEFT JOIN phases f ON f.id = d.phase_id"
        " WHERE d.game_id = ? AND (? < 0 OR d.power = ?)"
        " ORDER BY d.power, d.id",
        "Iii", game_id, power, power);
    return st_collect(s, st, sizeof **out, diary_row, press_rows_free,
                      (void **)out, n);
}
