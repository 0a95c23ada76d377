/* SPDX-License-Identifier: MIT */
/*
 * mail.c — rows of the outbox, maillog and press tables.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/mail.h"
#include "store/stmt.h"

void dj_outbox_recs_free(dj_outbox_rec *o, int n)
{
    for (int i = 0; o && i < n; i++) {
        free(o[i].recipients);
        free(o[i].subject);
        free(o[i].body);
        free(o[i].last_error);
    }
    free(o);
}

int dj_store_outbox_add(dj_store *s, int64_t game_id, int64_t phase_id,
                        const char *kind, const char *recipients,
                        const char *subject, const char *body, int64_t at)
{
    return dj_store_outbox_add_pictured(s, game_id, phase_id, kind,
                                        recipients, subject, body, at, NULL);
}

int dj_store_outbox_add_pictured(dj_store *s, int64_t game_id,
                                 int64_t phase_id, const char *kind,
                                 const char *recipients, const char *subject,
                                 const char *body, int64_t at,
                                 const dj_picture_ref *picture)
{
    return dj_store_outbox_add_calendar(s, game_id, phase_id, kind,
                                        recipients, subject, body, at,
                                        picture, NULL);
}

int dj_store_outbox_add_calendar(dj_store *s, int64_t game_id,
                                 int64_t phase_id, const char *kind,
                                 const char *recipients, const char *subject,
                                 const char *body, int64_t at,
                                 const dj_picture_ref *picture,
                                 const char *calendar)
{
    bool pictured = picture && picture->phase_id > 0;
    return st_exec(s,
                   "INSERT INTO outbox (game_id, phase_id, kind, recipients,"
                   " subject, body, created_at, picture_phase_id,"
                   " picture_format, calendar)"
                   " VALUES (NULLIF(?, 0), NULLIF(?, 0), ?, ?, ?, ?, ?,"
                   " NULLIF(?, 0), ?, NULLIF(?, ''))",
                   "IIssssIIss", game_id, phase_id, kind, recipients, subject,
                   body, at, pictured ? picture->phase_id : 0,
                   pictured ? picture->format : "", calendar ? calendar : "");
}

static int outbox_row(dj_store *s, sqlite3_stmt *st, void *row)
{
    dj_outbox_rec *o = row;
    o->id = sqlite3_column_int64(st, 0);
    o->game_id = sqlite3_column_int64(st, 1);
    o->phase_id = sqlite3_column_int64(st, 2);
    st_text(st, 3, o->kind, sizeof o->kind);
    o->recipients = st_text_dup(st, 4);
    o->subject = st_text_dup(st, 5);
    o->body = st_text_dup(st, 6);
    st_text(st, 7, o->state, sizeof o->state);
    o->attempts = sqlite3_column_int(st, 8);
    o->created_at = sqlite3_column_int64(st, 9);
    o->sent_at = st_int64(st, 10, 0);
    o->last_error = st_text_dup(st, 11);
    o->held = strcmp(o->state, "queued") == 0 &&
              sqlite3_column_int64(st, 12) >= DJ_OUTBOX_HELD_AT;
    if (!o->recipients || !o->subject || !o->body || !o->last_error)
        return dj_store_fail(s, "out of memory");
    return 0;
}

static void outbox_rows_free(void *rows, int n)
{
    dj_outbox_recs_free(rows, n);
}

int dj_store_outbox_list(dj_store *s, int64_t game_id, const char *state,
                         dj_outbox_rec **out, int *n)
{
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT id, IFNULL(game_id, 0), IFNULL(phase_id, 0), kind,"
        " recipients, subject, body, state, attempts, created_at, sent_at,"
        " last_error, next_attempt_at"
        " FROM outbox WHERE (?1 = 0 OR game_id = ?1)"
        " AND (?2 IS NULL OR state = ?2) ORDER BY id",
        "Is", game_id, state);
    return st_collect(s, st, sizeof **out, outbox_row, outbox_rows_free,
                      (void **)out, n);
}

int dj_store_outbox_set_state(dj_store *s, int64_t id, const char *state,
                              const char *error, int64_t at)
{
    return st_exec(s,
                   "UPDATE outbox SET state = ?1,"
                   " attempts = attempts + (?1 IN ('sent', 'failed')),"
                   " last_error = ?2,"
                   " sent_at = CASE WHEN ?1 = 'sent' THEN ?3 ELSE sent_at END"
                   " WHERE id = ?4",
                   "ssII", state, error ? error : "", at, id);
}

int dj_store_outbox_act(dj_store *s, int64_t id, dj_outbox_action act,
                        char *why, size_t whylen)
{
    char state[16] = "";
    sqlite3_stmt *st =
        st_prepare(s, "SELECT state FROM outbox WHERE id = ?", "I", id);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW)
        st_text(st, 0, state, sizeof state);
    st_finish(s, st);
    if (rc < 0)
        return -1;
    if (rc != SQLITE_ROW)
        return DJ_STORE_NOTFOUND;
    bool sending = strcmp(state, "sending") == 0;
    bool sent = strcmp(state, "sent") == 0;
    bool queued = strcmp(state, "queued") == 0;
    if (sending || (sent && act != DJ_OUTBOX_ACT_DELETE) ||
        (act == DJ_OUTBOX_ACT_HOLD && !queued)) {
        snprintf(why, whylen, "mail %lld is %s", (long long)id,
                 sending ? "being sent now" : sent ? "sent already"
                                                   : "not queued (failed)");
        return 2;
    }
    switch (act) {
    case DJ_OUTBOX_ACT_RETRY:
        return st_exec(s, "UPDATE outbox SET state = 'queued',"
                          " next_attempt_at = 0, attempts = 0 WHERE id = ?",
                       "I", id);
    case DJ_OUTBOX_ACT_HOLD:
        return st_exec(s, "UPDATE outbox SET next_attempt_at = ? WHERE id = ?",
                       "II", DJ_OUTBOX_HELD_AT, id);
    case DJ_OUTBOX_ACT_DELETE:
        return st_exec(s, "DELETE FROM outbox WHERE id = ?", "I", id);
    }
    return -1;
}

int dj_store_maillog_add(dj_store *s, const char *message_id,
                         const char *sender, int64_t game_id,
                         const char *outcome, int64_t at)
{
    int changes = 0;
    if (st_exec_changes(s, &changes,
                        "INSERT INTO maillog (message_id, received_at, sender,"
                        " game_id, outcome)"
                        " VALUES (?, ?, ?, NULLIF(?, 0), ?)"
                        " ON CONFLICT (message_id) DO NOTHING",
                        "sIsIs", message_id, at, sender ? sender : "",
                        game_id, outcome ? outcome : "") < 0)
        return -1;
    return changes ? 0 : DJ_STORE_DUPLICATE;
}

int dj_store_maillog_set_auth(dj_store *s, const char *message_id,
                              const char *auth, const char *verdict)
{
    return st_exec(s,
                   "UPDATE maillog SET auth = ?, auth_verdict = ?"
                   " WHERE message_id = ?",
                   "sss", auth, verdict ? verdict : "", message_id);
}

static int maillog_row(dj_store *s, sqlite3_stmt *st, void *row)
{
    (void)s;
    dj_maillog_rec *r = row;
    r->received_at = sqlite3_column_int64(st, 0);
    st_text(st, 1, r->sender, sizeof r->sender);
    st_text(st, 2, r->game, sizeof r->game);
    st_text(st, 3, r->outcome, sizeof r->outcome);
    st_text(st, 4, r->auth, sizeof r->auth);
    st_text(st, 5, r->auth_verdict, sizeof r->auth_verdict);
    st_text(st, 7, r->signed_on_by, sizeof r->signed_on_by);
    return 0;
}

static void maillog_rows_free(void *rows, int n)
{
    (void)n;
    free(rows);
}

int dj_store_maillog_list(dj_store *s, int64_t game_id, int limit,
                          dj_maillog_rec **out, int *n)
{
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT * FROM (SELECT m.received_at, m.sender, IFNULL(g.name, ''),"
        " m.outcome, m.auth, m.auth_verdict, m.id, m.signed_on_by"
        " FROM maillog m LEFT JOIN games g ON g.id = m.game_id"
        " WHERE (?1 = 0 OR m.game_id = ?1) ORDER BY m.id DESC LIMIT ?2)"
        " ORDER BY id",
        "II", game_id, (int64_t)limit);
    return st_collect(s, st, sizeof **out, maillog_row, maillog_rows_free,
                      (void **)out, n);
}

int dj_store_mail_failure(dj_store *s, const char *mailbox_id,
                          const char *error, int64_t now, int64_t prune_before,
                          int *tries)
{
    if (st_exec(s, "DELETE FROM mail_failures WHERE last_at < ?", "I",
                prune_before) < 0 ||
        st_exec(s,
                "INSERT INTO mail_failures (mailbox_id, tries, first_at,"
                " last_at, last_error) VALUES (?, 1, ?, ?, ?)"
                " ON CONFLICT (mailbox_id) DO UPDATE SET tries = tries + 1,"
                " last_at = excluded.last_at,"
                " last_error = excluded.last_error",
                "sIIs", mailbox_id, now, now, error ? error : "") < 0)
        return -1;
    int64_t n = 0;
    if (st_query_int(s, &n,
                     "SELECT tries FROM mail_failures WHERE mailbox_id = ?",
                     "s", mailbox_id) < 0)
        return -1;
    *tries = (int)n;
    return 0;
}

int dj_store_mail_quarantined(dj_store *s, const char *mailbox_id,
                              int64_t now)
{
    return st_exec(s,
                   "UPDATE mail_failures SET quarantined_at = ?"
                   " WHERE mailbox_id = ?",
                   "Is", now, mailbox_id);
}

int dj_store_mail_is_quarantined(dj_store *s, const char *mailbox_id)
{
    int64_t n = 0;
    int rc = st_query_int(s, &n,
                          "SELECT count(*) FROM mail_failures WHERE"
                          " mailbox_id = ? AND quarantined_at IS NOT NULL",
                          "s", mailbox_id);
    return rc < 0 ? -1 : n > 0;
}

int dj_store_prune_mail(dj_store *s, int64_t before, int *logs, int *mails)
{
    if (st_exec_changes(s, logs,
                        "DELETE FROM maillog WHERE received_at < ?", "I",
                        before) < 0)
        return -1;
    return st_exec_changes(s, mails,
                           "DELETE FROM outbox WHERE state IN ('sent',"
                           " 'failed') AND created_at < ?",
                           "I", before);
}
