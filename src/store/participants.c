/* SPDX-License-Identifier: MIT */
/*
 * participants.c — rows of the participants and absences tables.
 *
 * Power -1 in a record is NULL in the table (NULLIF on the way in,
 * IFNULL on the way out), so the partial unique index on (game, power)
 * only concerns players that hold a power.
 */
#include <stdlib.h>
#include <string.h>

#include "store/addresses.h"
#include "store/participants.h"
#include "store/stmt.h"

#define PART_COLUMNS                                                      \
    "id, game_id, role, IFNULL(power, -1), name, email, password_hash,"  \
    " status, vote, joined_at, left_at, map_format, zone,"          \
    " IFNULL(reminder, -2), calendar, reminded_deadline, preference"

static void read_participant(sqlite3_stmt *st, dj_participant_rec *p)
{
    memset(p, 0, sizeof *p);
    p->id = sqlite3_column_int64(st, 0);
    p->game_id = sqlite3_column_int64(st, 1);
    st_text(st, 2, p->role, sizeof p->role);
    p->power = sqlite3_column_int(st, 3);
    st_text(st, 4, p->name, sizeof p->name);
    st_text(st, 5, p->email, sizeof p->email);
    st_text(st, 6, p->password_hash, sizeof p->password_hash);
    st_text(st, 7, p->status, sizeof p->status);
    st_text(st, 8, p->vote, sizeof p->vote);
    p->joined_at = st_int64(st, 9, 0);
    p->left_at = st_int64(st, 10, 0);
    st_text(st, 11, p->map_format, sizeof p->map_format);
    st_text(st, 12, p->zone, sizeof p->zone);
    p->reminder = sqlite3_column_int(st, 13);
    p->calendar = sqlite3_column_int(st, 14) != 0;
    p->reminded_deadline = st_int64(st, 15, 0);
    st_text(st, 16, p->preference, sizeof p->preference);
}

int dj_store_participant_insert(dj_store *s, dj_participant_rec *p)
{
    if (st_exec(s,
                "INSERT INTO participants (game_id, role, power, name, email,"
                " password_hash, status, vote, joined_at, map_format)"
                " VALUES (?, ?, NULLIF(?, -1), ?, ?, ?, ?, ?, ?, ?)",
                "IsisssssIs", p->game_id, p->role, p->power, p->name,
                p->email, p->password_hash, p->status, p->vote,
                p->joined_at, p->map_format) < 0)
        return -1;
    p->id = st_last_id(s);
    return 0;
}

static int participant_row(dj_store *s, sqlite3_stmt *st, void *row)
{
    (void)s;
    read_participant(st, row);
    return 0;
}

int dj_store_participant_list(dj_store *s, int64_t game_id,
                              dj_participant_rec **out, int *n)
{
    sqlite3_stmt *st = st_prepare(s,
                                  "SELECT " PART_COLUMNS
                                  " FROM participants WHERE game_id = ?"
                                  " ORDER BY id",
                                  "I", game_id);
    if (st_collect(s, st, sizeof **out, participant_row, NULL, (void **)out,
                   n) < 0)
        return -1;
    if (dj_store_address_fill(s, *out, *n) < 0) {
        free(*out);
        *out = NULL;
        *n = 0;
        return -1;
    }
    return 0;
}

int dj_store_participant_of_power(dj_store *s, int64_t game_id, int power,
                                  dj_participant_rec *p)
{
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT " PART_COLUMNS " FROM participants"
        " WHERE game_id = ? AND role = 'player' AND power = ?"
        " AND status NOT IN ('resigned', 'replaced')",
        "Ii", game_id, power);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW)
        read_participant(st, p);
    st_finish(s, st);
    if (rc == SQLITE_ROW && dj_store_address_fill(s, p, 1) < 0)
        return -1;
    return rc < 0 ? -1 : rc == SQLITE_ROW ? 0 : DJ_STORE_NOTFOUND;
}

int dj_store_participant_update(dj_store *s, const dj_participant_rec *p)
{
    return st_exec(s,
                   "UPDATE participants SET power = NULLIF(?, -1), name = ?,"
                   " email = ?, password_hash = ?, status = ?, vote = ?,"
                   " left_at = NULLIF(?, 0), map_format = ? WHERE id = ?",
                   "isssssIsI", p->power, p->name, p->email, p->password_hash,
                   p->status, p->vote, p->left_at, p->map_format, p->id);
}

int dj_store_participant_set_options(dj_store *s, const dj_participant_rec *p)
{
    return st_exec(s,
                   "UPDATE participants SET zone = ?,"
                   " reminder = NULLIF(?, -2), calendar = ?,"
                   " reminded_deadline = ? WHERE id = ?",
                   "siiII", p->zone, p->reminder, p->calendar ? 1 : 0,
                   p->reminded_deadline, p->id);
}

int dj_store_participant_set_preference(dj_store *s,
                                        const dj_participant_rec *p)
{
    return st_exec(s, "UPDATE participants SET preference = ? WHERE id = ?",
                   "sI", p->preference, p->id);
}

int dj_store_participant_clear_votes(dj_store *s, int64_t game_id)
{
    return st_exec(s,
                   "UPDATE participants SET vote = '' WHERE game_id = ?"
                   " AND vote <> ''",
                   "I", game_id);
}

/* ---- absences -------------------------------------------------------------- */

int dj_store_absence_insert(dj_store *s, int64_t participant_id,
                            int64_t start, int64_t end)
{
    return st_exec(s,
                   "INSERT INTO absences (participant_id, start_at, end_at)"
                   " VALUES (?, ?, ?)",
                   "III", participant_id, start, end);
}

static int absence_row(dj_store *s, sqlite3_stmt *st, void *row)
{
    (void)s;
    dj_absence_rec *a = row;
    a->id = sqlite3_column_int64(st, 0);
    a->participant_id = sqlite3_column_int64(st, 1);
    a->power = sqlite3_column_int(st, 2);
    a->start = sqlite3_column_int64(st, 3);
    a->end = sqlite3_column_int64(st, 4);
    return 0;
}

int dj_store_absence_list(dj_store *s, int64_t game_id, int64_t after,
                          dj_absence_rec **out, int *n)
{
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT a.id, a.participant_id, IFNULL(p.power, -1), a.start_at,"
        " a.end_at FROM absences a JOIN participants p"
        " ON p.id = a.participant_id"
        " WHERE p.game_id = ? AND a.end_at > ?"
        " AND p.status NOT IN ('resigned', 'replaced')"
        " ORDER BY a.start_at, a.id",
        "II", game_id, after);
    return st_collect(s, st, sizeof **out, absence_row, NULL, (void **)out,
                      n);
}

int dj_store_absence_delete(dj_store *s, int64_t participant_id,
                            int64_t absence_id)
{
    int changes = 0;
    if (st_exec_changes(s, &changes,
                        "DELETE FROM absences WHERE id = ? AND"
                        " participant_id = ?",
                        "II", absence_id, participant_id) < 0)
        return -1;
    return changes ? 0 : DJ_STORE_NOTFOUND;
}
