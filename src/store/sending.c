/* SPDX-License-Identifier: MIT */
/*
 * sending.c — the outbox rows' life while they are sent, and the mail
 * log's outcome.  See sending.h.
 *
 * Every change is one UPDATE guarded by the state it expects ("WHERE
 * state = 'queued'"), so two senders racing for a row cannot both claim
 * it, and a row marked sent is never queued again.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "store/mail.h"
#include "store/sending.h"
#include "store/stmt.h"

void dj_outbox_send_rec_free(dj_outbox_send_rec *r)
{
    if (!r)
        return;
    free(r->recipients);
    free(r->subject);
    free(r->body);
    free(r->picture);
    free(r->calendar);
    memset(r, 0, sizeof *r);
}

int dj_store_outbox_recover(dj_store *s, int64_t now, int *n)
{
    int changes = 0;
    int rc = st_exec_changes(s, &changes,
                             "UPDATE outbox SET state = 'queued',"
                             " next_attempt_at = ?,"
                             " last_error = 'sender stopped while sending:"
                             " sent again'"
                             " WHERE state = 'sending'",
                             "I", now);
    if (n)
        *n = rc < 0 ? 0 : changes;
    return rc;
}

int dj_store_outbox_next_due(dj_store *s, int64_t now, int64_t after_id,
                             dj_outbox_send_rec *r)
{
    memset(r, 0, sizeof *r);
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT o.id, o.kind, o.recipients, o.subject, o.body, o.attempts,"
        " o.created_at, o.message_id, o.in_reply_to,"
        " o.picture_phase_id, o.picture_format, IFNULL(o.game_id, 0),"
        " IFNULL(o.press_id, 0), o.calendar"
        " FROM outbox o"
        " WHERE o.state = 'queued' AND o.next_attempt_at <= ? AND o.id > ?"
        " ORDER BY o.id LIMIT 1",
        "II", now, after_id);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW) {
        r->id = sqlite3_column_int64(st, 0);
        st_text(st, 1, r->kind, sizeof r->kind);
        r->recipients = st_text_dup(st, 2);
        r->subject = st_text_dup(st, 3);
        r->body = st_text_dup(st, 4);
        r->attempts = sqlite3_column_int(st, 5);
        r->created_at = sqlite3_column_int64(st, 6);
        st_text(st, 7, r->message_id, sizeof r->message_id);
        st_text(st, 8, r->in_reply_to, sizeof r->in_reply_to);
        r->picture_phase_id = sqlite3_column_int64(st, 9);
        st_text(st, 10, r->picture_format, sizeof r->picture_format);
        r->game_id = sqlite3_column_int64(st, 11);
        r->press_id = sqlite3_column_int64(st, 12);
        if (sqlite3_column_type(st, 13) != SQLITE_NULL)
            r->calendar = st_text_dup(st, 13);
        rc = 0;
        if (!r->recipients || !r->subject || !r->body) {
            dj_outbox_send_rec_free(r);
            rc = dj_store_fail(s, "out of memory");
        }
    } else if (rc == SQLITE_DONE) {
        rc = DJ_STORE_NOTFOUND;
    }
    st_finish(s, st);
    return rc;
}

int dj_store_outbox_claim(dj_store *s, dj_outbox_send_rec *r,
                          const char *message_id, int64_t now)
{
    int changes = 0;
    if (st_exec_changes(s, &changes,
                        "UPDATE outbox SET state = 'sending',"
                        " attempts = attempts + 1, claimed_at = ?,"
                        " message_id = CASE WHEN message_id = '' THEN ?"
                        "  ELSE message_id END"
                        " WHERE id = ? AND state = 'queued'",
                        "IsI", now, message_id, r->id) < 0)
        return -1;
    if (!changes)
        return DJ_STORE_NOTFOUND;
    sqlite3_stmt *st = st_prepare(
        s, "SELECT message_id, attempts FROM outbox WHERE id = ?", "I",
        r->id);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW) {
        st_text(st, 0, r->message_id, sizeof r->message_id);
        r->attempts = sqlite3_column_int(st, 1);
        rc = 0;
    } else if (rc == SQLITE_DONE) {
        rc = dj_store_fail(s, "outbox row %lld vanished", (long long)r->id);
    }
    st_finish(s, st);
    return rc;
}

int dj_store_outbox_mark_sent(dj_store *s, int64_t id, int64_t now)
{
    return st_exec(s,
                   "UPDATE outbox SET state = 'sent', sent_at = ?,"
                   " last_error = '' WHERE id = ? AND state = 'sending'",
                   "II", now, id);
}

/* A mail being sent queued again for next_at; `uncount` takes back the
 * attempt its claim counted (the send never began). */
static int requeue(dj_store *s, int64_t id, int64_t next_at,
                   const char *error, bool uncount)
{
    return st_exec(s,
                   "UPDATE outbox SET state = 'queued', next_attempt_at = ?,"
                   " attempts = MAX(attempts - ?, 0), last_error = ?"
                   " WHERE id = ? AND state = 'sending'",
                   "IIsI", next_at, (int64_t)(uncount ? 1 : 0),
                   error ? error : "", id);
}

int dj_store_outbox_mark_retry(dj_store *s, int64_t id, int64_t next_at,
                               const char *error)
{
    return requeue(s, id, next_at, error, false);
}

int dj_store_outbox_unclaim(dj_store *s, int64_t id, int64_t next_at,
                            const char *error)
{
    return requeue(s, id, next_at, error, true);
}

int dj_store_outbox_mark_failed(dj_store *s, int64_t id, const char *error,
                                int64_t now)
{
    (void)now;
    return st_exec(s,
                   "UPDATE outbox SET state = 'failed', last_error = ?"
                   " WHERE id = ? AND state IN ('queued', 'sending')",
                   "sI", error ? error : "", id);
}

int dj_store_outbox_next_time(dj_store *s, int64_t *at)
{
    /* MIN() over no rows is one NULL row: ask for the row itself. */
    return st_query_int(s, at,
                        "SELECT next_attempt_at FROM outbox"
                        " WHERE state = 'queued' AND next_attempt_at < ?"
                        " ORDER BY next_attempt_at LIMIT 1",
                        "I", DJ_OUTBOX_HELD_AT);
}

int dj_store_outbox_counts(dj_store *s, int *queued, int *sending, int *sent,
                           int *failed)
{
    static const char *const states[] = {"queued", "sending", "sent",
                                         "failed"};
    int *outs[] = {queued, sending, sent, failed};
    for (int i = 0; i < 4; i++) {
        if (!outs[i])
            continue;
        int64_t n = 0;
        if (st_query_int(s, &n,
                         "SELECT count(*) FROM outbox WHERE state = ?", "s",
                         states[i]) < 0)
            return -1;
        *outs[i] = (int)n;
    }
    return 0;
}

/* The recipients column as the budgets count it: lower case, "+tag" off. */
#define FOLDED_RECIPIENT                                                    \
    "lower(CASE WHEN instr(recipients, '+') > 0 AND instr(recipients, '+')" \
    " < instr(recipients, '@') THEN substr(recipients, 1,"                  \
    " instr(recipients, '+') - 1) || substr(recipients,"                   \
    " instr(recipients, '@')) ELSE recipients END)"
/* Its domain, and the replies the budgets count (reply_budget.c). */
#define RECIPIENT_DOMAIN "lower(substr(recipients, instr(recipients, '@') + 1))"
#define REPLIES_SINCE                                                       \
    " FROM outbox WHERE kind IN ('reply', 'refusal', 'signon-failed')"      \
    " AND created_at >= ?3"

int dj_store_outbox_reply_counts(dj_store *s, const char *addr,
                                 const char *domain, int64_t since,
                                 dj_reply_counts *out)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT IFNULL(sum(kind IN ('reply', 'refusal') AND " FOLDED_RECIPIENT
        " = lower(?1)), 0), IFNULL(sum(kind = 'signon-failed' AND "
        FOLDED_RECIPIENT " = lower(?1)), 0),"
        " IFNULL(sum(" RECIPIENT_DOMAIN " = lower(?2)), 0), count(*)"
        REPLIES_SINCE,
        "ssI", addr, domain, since);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW) {
        out->to_addr = sqlite3_column_int(st, 0);
        out->failed = sqlite3_column_int(st, 1);
        out->to_domain = sqlite3_column_int(st, 2);
        out->to_all = sqlite3_column_int(st, 3);
    }
    st_finish(s, st);
    return rc == SQLITE_ROW ? 0 : -1;
}

int dj_store_outbox_reply_bytes(dj_store *s, const char *addr,
                                const char *domain, int64_t since,
                                dj_reply_bytes *out)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT IFNULL(sum(CASE WHEN " FOLDED_RECIPIENT " = lower(?1)"
        " THEN length(CAST(body AS BLOB)) END), 0),"
        " IFNULL(sum(CASE WHEN " RECIPIENT_DOMAIN " = lower(?2)"
        " THEN length(CAST(body AS BLOB)) END), 0),"
        " IFNULL(sum(length(CAST(body AS BLOB))), 0)" REPLIES_SINCE,
        "ssI", addr, domain, since);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW) {
        out->to_addr = sqlite3_column_int64(st, 0);
        out->to_domain = sqlite3_column_int64(st, 1);
        out->to_all = sqlite3_column_int64(st, 2);
    }
    st_finish(s, st);
    return rc == SQLITE_ROW ? 0 : -1;
}

int dj_store_outbox_add_reply(dj_store *s, const char *kind, const char *to,
                              const char *subject, const char *body,
                              const char *in_reply_to, int64_t at)
{
    return st_exec(s,
                   "INSERT INTO outbox (kind, recipients, subject, body,"
                   " created_at, in_reply_to) VALUES (?, ?, ?, ?, ?, ?)",
                   "ssssIs", kind, to, subject, body, at,
                   in_reply_to ? in_reply_to : "");
}

int dj_store_outbox_thread_last(dj_store *s, const char *in_reply_to)
{
    return st_exec(s, "UPDATE outbox SET in_reply_to = ? WHERE id = ?",
                   "sI", in_reply_to ? in_reply_to : "", st_last_id(s));
}

int dj_store_maillog_set_signed_on_by(dj_store *s, const char *message_id,
                                      const char *by)
{
    return st_exec(s, "UPDATE maillog SET signed_on_by = ? WHERE message_id = ?",
                   "ss", by ? by : "", message_id);
}

int dj_store_maillog_set_outcome(dj_store *s, const char *message_id,
                                 const char *game, const char *outcome)
{
    return st_exec(s,
                   "UPDATE maillog SET outcome = ?,"
                   " game_id = (SELECT id FROM games WHERE name = ?"
                   "  COLLATE NOCASE)"
                   " WHERE message_id = ?",
                   "sss", outcome ? outcome : "", game ? game : "",
                   message_id);
}
