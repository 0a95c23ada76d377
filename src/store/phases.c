/* SPDX-License-Identifier: MIT */
/*
 * phases.c — rows of the phases, orders, readiness, results and rollbacks
 * tables.  See phases.h for what may change and what never does.
 */
#include <stdlib.h>
#include <string.h>

#include "store/phases.h"
#include "store/stmt.h"

#define PHASE_COLUMNS                                                     \
    "id, game_id, seq, name, year, season, type, status, position,"      \
    " opened_at, deadline, late_at, rollback_id"

void dj_phase_rec_free(dj_phase_rec *p)
{
    if (p) {
        free(p->position);
        p->position = NULL;
    }
}

void dj_phase_recs_free(dj_phase_rec *p, int n)
{
    for (int i = 0; i < n; i++)
        dj_phase_rec_free(&p[i]);
    free(p);
}

static int read_phase(dj_store *s, sqlite3_stmt *st, dj_phase_rec *p)
{
    memset(p, 0, sizeof *p);
    p->id = sqlite3_column_int64(st, 0);
    p->game_id = sqlite3_column_int64(st, 1);
    p->seq = sqlite3_column_int(st, 2);
    st_text(st, 3, p->name, sizeof p->name);
    p->year = sqlite3_column_int(st, 4);
    p->season = sqlite3_column_int(st, 5);
    p->type = sqlite3_column_int(st, 6);
    st_text(st, 7, p->status, sizeof p->status);
    p->position = st_text_dup(st, 8);
    p->opened_at = st_int64(st, 9, 0);
    p->deadline = st_int64(st, 10, 0);
    p->late_at = st_int64(st, 11, 0);
    p->rollback_id = st_int64(st, 12, 0);
    if (!p->position)
        return dj_store_fail(s, "out of memory");
    return 0;
}

int dj_store_phase_insert(dj_store *s, dj_phase_rec *p)
{
    if (st_exec(s,
                "INSERT INTO phases (game_id, seq, name, year, season, type,"
                " status, position, opened_at, deadline)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULLIF(?, 0))",
                "IisiiissII", p->game_id, p->seq, p->name, p->year,
                p->season, p->type, p->status, p->position, p->opened_at,
                p->deadline) < 0)
        return -1;
    p->id = st_last_id(s);
    return 0;
}

static int phase_one(dj_store *s, sqlite3_stmt *st, dj_phase_rec *p)
{
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW && read_phase(s, st, p) < 0)
        rc = -1;
    st_finish(s, st);
    return rc < 0 ? -1 : rc == SQLITE_ROW ? 0 : DJ_STORE_NOTFOUND;
}

static int phase_row(dj_store *s, sqlite3_stmt *st, void *row)
{
    return read_phase(s, st, row);
}

static void phase_rows_free(void *rows, int n)
{
    dj_phase_recs_free(rows, n);
}

static int phase_many(dj_store *s, sqlite3_stmt *st, dj_phase_rec **out,
                      int *n)
{
    return st_collect(s, st, sizeof **out, phase_row, phase_rows_free,
                      (void **)out, n);
}

int dj_store_phase_open(dj_store *s, int64_t game_id, dj_phase_rec *p)
{
    return phase_one(s,
                     st_prepare(s,
                                "SELECT " PHASE_COLUMNS " FROM phases"
                                " WHERE game_id = ? AND status IN"
                                " ('current', 'final')",
                                "I", game_id),
                     p);
}

int dj_store_phase_get(dj_store *s, int64_t id, dj_phase_rec *p)
{
    return phase_one(
        s,
        st_prepare(s, "SELECT " PHASE_COLUMNS " FROM phases WHERE id = ?",
                   "I", id),
        p);
}

int dj_store_phase_at_seq(dj_store *s, int64_t game_id, int seq,
                          dj_phase_rec *p)
{
    return phase_one(s,
                     st_prepare(s,
                                "SELECT " PHASE_COLUMNS " FROM phases"
                                " WHERE game_id = ? AND seq = ?"
                                " AND status <> 'undone'",
                                "Ii", game_id, seq),
                     p);
}

int dj_store_phase_list(dj_store *s, int64_t game_id, dj_phase_rec **out,
                        int *n)
{
    return phase_many(s,
                      st_prepare(s,
                                 "SELECT " PHASE_COLUMNS " FROM phases"
                                 " WHERE game_id = ? AND status <> 'undone'"
                                 " ORDER BY seq",
                                 "I", game_id),
                      out, n);
}

int dj_store_phase_list_all(dj_store *s, int64_t game_id, dj_phase_rec **out,
                            int *n)
{
    return phase_many(s,
                      st_prepare(s,
                                 "SELECT " PHASE_COLUMNS " FROM phases"
                                 " WHERE game_id = ? ORDER BY seq, id",
                                 "I", game_id),
                      out, n);
}

int dj_store_phase_list_undone(dj_store *s, int64_t rollback_id,
                               dj_phase_rec **out, int *n)
{
    return phase_many(s,
                      st_prepare(s,
                                 "SELECT " PHASE_COLUMNS " FROM phases"
                                 " WHERE rollback_id = ? AND status ="
                                 " 'undone' ORDER BY seq",
                                 "I", rollback_id),
                      out, n);
}

int dj_store_phase_set_status(dj_store *s, int64_t id, const char *status,
                              int64_t rollback_id)
{
    return st_exec(s,
                   "UPDATE phases SET status = ?,"
                   " rollback_id = NULLIF(?, 0) WHERE id = ?",
                   "sII", status, rollback_id, id);
}

int dj_store_phase_set_deadline(dj_store *s, int64_t id, int64_t deadline)
{
    return st_exec(s,
                   "UPDATE phases SET deadline = NULLIF(?, 0), late_at = NULL,"
                   " reminded_at = NULL WHERE id = ?",
                   "II", deadline, id);
}

int dj_store_phase_set_late(dj_store *s, int64_t id, int64_t late_at)
{
    return st_exec(s, "UPDATE phases SET late_at = NULLIF(?, 0) WHERE id = ?",
                   "II", late_at, id);
}

int dj_store_phase_claim_reminder(dj_store *s, int64_t id, int64_t at)
{
    int changes = 0;
    if (st_exec_changes(s, &changes,
                        "UPDATE phases SET reminded_at = ?"
                        " WHERE id = ? AND reminded_at IS NULL",
                        "II", at, id) < 0)
        return -1;
    return changes ? 0 : DJ_STORE_NOTFOUND;
}

/* ---- orders -------------------------------------------------------------- */

void dj_orders_recs_free(dj_orders_rec *o, int n)
{
    for (int i = 0; o && i < n; i++)
        free(o[i].orders);
    free(o);
}

int dj_store_orders_add(dj_store *s, int64_t phase_id, int power,
                        const char *orders, const char *source,
                        const char *author, int64_t at)
{
    return st_exec(s,
                   "INSERT INTO orders (phase_id, power, orders, source,"
                   " author, received_at) VALUES (?, ?, ?, ?, ?, ?)",
                   "IisssI", phase_id, power, orders, source,
                   author ? author : "", at);
}

static int orders_row(dj_store *s, sqlite3_stmt *st, void *row)
{
    dj_orders_rec *o = row;
    o->id = sqlite3_column_int64(st, 0);
    o->power = sqlite3_column_int(st, 1);
    o->orders = st_text_dup(st, 2);
    st_text(st, 3, o->source, sizeof o->source);
    st_text(st, 4, o->author, sizeof o->author);
    o->received_at = sqlite3_column_int64(st, 5);
    return o->orders ? 0 : dj_store_fail(s, "out of memory");
}

static void orders_rows_free(void *rows, int n)
{
    dj_orders_recs_free(rows, n);
}

static int orders_many(dj_store *s, sqlite3_stmt *st, dj_orders_rec **out,
                       int *n)
{
    return st_collect(s, st, sizeof **out, orders_row, orders_rows_free,
                      (void **)out, n);
}

int dj_store_orders_latest(dj_store *s, int64_t phase_id,
                           dj_orders_rec **out, int *n)
{
    return orders_many(
        s,
        st_prepare(s,
                   "SELECT id, power, orders, source, author, received_at"
                   " FROM orders o WHERE phase_id = ?1 AND id ="
                   " (SELECT MAX(id) FROM orders i WHERE i.phase_id = ?1"
                   " AND i.power = o.power) ORDER BY power",
                   "I", phase_id),
        out, n);
}

int dj_store_orders_all(dj_store *s, int64_t phase_id, dj_orders_rec **out,
                        int *n)
{
    return orders_many(
        s,
        st_prepare(s,
                   "SELECT id, power, orders, source, author, received_at"
                   " FROM orders WHERE phase_id = ? ORDER BY id",
                   "I", phase_id),
        out, n);
}

int dj_store_orders_copy(dj_store *s, int64_t from_phase, int64_t to_phase)
{
    return st_exec(s,
                   "INSERT INTO orders (phase_id, power, orders, source,"
                   " author, received_at)"
                   " SELECT ?2, power, orders, source, author, received_at"
                   " FROM orders o WHERE phase_id = ?1 AND id ="
                   " (SELECT MAX(id) FROM orders i WHERE i.phase_id = ?1"
                   " AND i.power = o.power) ORDER BY power",
                   "II", from_phase, to_phase);
}

/* ---- READY and WAIT ---------------------------------------------------------- */

int dj_store_readiness_set(dj_store *s, int64_t phase_id, int power,
                           int ready, int wait)
{
    return st_exec(s,
                   "INSERT INTO readiness (phase_id, power, ready, wait)"
                   " VALUES (?, ?, ?, ?) ON CONFLICT (phase_id, power)"
                   " DO UPDATE SET ready = excluded.ready,"
                   " wait = excluded.wait",
                   "Iiii", phase_id, power, ready, wait);
}

int dj_store_readiness_get(dj_store *s, int64_t phase_id, int power,
                           int *ready, int *wait)
{
    *ready = *wait = 0;
    sqlite3_stmt *st = st_prepare(s,
                                  "SELECT ready, wait FROM readiness"
                                  " WHERE phase_id = ? AND power = ?",
                                  "Ii", phase_id, power);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW) {
        *ready = sqlite3_column_int(st, 0);
        *wait = sqlite3_column_int(st, 1);
    }
    st_finish(s, st);
    return rc < 0 ? -1 : 0;
}

/* ---- results ----------------------------------------------------------------- */

void dj_result_rec_free(dj_result_rec *r)
{
    if (!r)
        return;
    free(r->report);
    free(r->detail);
    free(r->disorder);
    r->report = r->detail = r->disorder = NULL;
}

int dj_store_result_insert(dj_store *s, const dj_result_rec *r)
{
    return st_exec(s,
                   "INSERT INTO results (phase_id, processed_at, report,"
                   " detail, disorder) VALUES (?, ?, ?, ?, ?)",
                   "IIsss", r->phase_id, r->processed_at, r->report,
                   r->detail, r->disorder ? r->disorder : "");
}

int dj_store_result_get(dj_store *s, int64_t phase_id, dj_result_rec *r)
{
    memset(r, 0, sizeof *r);
    sqlite3_stmt *st = st_prepare(s,
                                  "SELECT processed_at, report, detail,"
                                  " disorder FROM results WHERE phase_id = ?",
                                  "I", phase_id);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW) {
        r->phase_id = phase_id;
        r->processed_at = sqlite3_column_int64(st, 0);
        r->report = st_text_dup(st, 1);
        r->detail = st_text_dup(st, 2);
        r->disorder = st_text_dup(st, 3);
        if (!r->report || !r->detail || !r->disorder) {
            dj_result_rec_free(r);
            rc = dj_store_fail(s, "out of memory");
        }
    }
    st_finish(s, st);
    return rc < 0 ? -1 : rc == SQLITE_ROW ? 0 : DJ_STORE_NOTFOUND;
}

/* ---- rollbacks ------------------------------------------------------------------ */

int dj_store_rollback_insert(dj_store *s, dj_rollback_rec *r)
{
    if (st_exec(s,
                "INSERT INTO rollbacks (game_id, created_at, to_seq,"
                " prev_state, prev_ending) VALUES (?, ?, ?, ?, ?)",
                "IIiss", r->game_id, r->created_at, r->to_seq, r->prev_state,
                r->prev_ending) < 0)
        return -1;
    r->id = st_last_id(s);
    return 0;
}

int dj_store_rollback_set_copy(dj_store *s, int64_t id, int64_t copy_phase)
{
    return st_exec(s, "UPDATE rollbacks SET copy_phase_id = ? WHERE id = ?",
                   "II", copy_phase, id);
}

int dj_store_rollback_latest(dj_store *s, int64_t game_id,
                             dj_rollback_rec *r)
{
    memset(r, 0, sizeof *r);
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT id, game_id, created_at, to_seq, IFNULL(copy_phase_id, 0),"
        " prev_state, prev_ending, undone_at FROM rollbacks"
        " WHERE game_id = ? AND undone_at IS NULL ORDER BY id DESC LIMIT 1",
        "I", game_id);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW) {
        r->id = sqlite3_column_int64(st, 0);
        r->game_id = sqlite3_column_int64(st, 1);
        r->created_at = sqlite3_column_int64(st, 2);
        r->to_seq = sqlite3_column_int(st, 3);
        r->copy_phase_id = sqlite3_column_int64(st, 4);
        st_text(st, 5, r->prev_state, sizeof r->prev_state);
        st_text(st, 6, r->prev_ending, sizeof r->prev_ending);
        r->undone_at = st_int64(st, 7, 0);
    }
    st_finish(s, st);
    return rc < 0 ? -1 : rc == SQLITE_ROW ? 0 : DJ_STORE_NOTFOUND;
}

int dj_store_rollback_set_undone(dj_store *s, int64_t id, int64_t at)
{
    return st_exec(s, "UPDATE rollbacks SET undone_at = ? WHERE id = ?", "II",
                   at, id);
}

/* ---- orders for a later phase (version 16) ---------------------------------- */

int dj_store_later_begin(dj_store *s, int64_t game_id, int power,
                         const char *phase, const char *by, int64_t now)
{
    return st_exec(s,
                   "INSERT OR REPLACE INTO later_orders (game_id, power,"
                   " phase, text, sent_by, sent_at) VALUES (?, ?, ?, '', ?, ?)",
                   "IissI", game_id, power, phase, by, now);
}

int dj_store_later_append(dj_store *s, int64_t game_id, int power,
                          const char *phase, const char *line)
{
    return st_exec(s,
                   "UPDATE later_orders SET text = text || ? || char(10)"
                   " WHERE game_id = ? AND power = ? AND phase = ?",
                   "sIis", line, game_id, power, phase);
}

static int later_row(dj_store *s, sqlite3_stmt *st, void *row)
{
    (void)s;
    dj_later_rec *r = row;
    memset(r, 0, sizeof *r);
    r->power = sqlite3_column_int(st, 0);
    st_text(st, 1, r->phase, sizeof r->phase);
    r->text = st_text_dup(st, 2);
    st_text(st, 3, r->sent_by, sizeof r->sent_by);
    r->sent_at = sqlite3_column_int64(st, 4);
    return r->text ? 0 : -1;
}

void dj_later_recs_free(dj_later_rec *r, int n)
{
    for (int i = 0; r && i < n; i++)
        free(r[i].text);
    free(r);
}

static void later_rows_free(void *rows, int n)
{
    dj_later_recs_free(rows, n);
}

int dj_store_later_list(dj_store *s, int64_t game_id, dj_later_rec **out,
                        int *n)
{
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT power, phase, text, sent_by, sent_at FROM later_orders"
        " WHERE game_id = ? ORDER BY power, phase",
        "I", game_id);
    return st_collect(s, st, sizeof **out, later_row, later_rows_free,
                      (void **)out, n);
}

int dj_store_later_delete(dj_store *s, int64_t game_id, int power,
                          const char *phase)
{
    return st_exec(s,
                   "DELETE FROM later_orders WHERE game_id = ? AND power = ?"
                   " AND phase = ?",
                   "Iis", game_id, power, phase);
}
