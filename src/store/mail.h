/* SPDX-License-Identifier: MIT */
/*
 * mail.h — the mail the judge keeps: the outbox (mail waiting to be sent,
 * and mail sent), the log of Message-IDs received (to drop duplicates),
 * and the press archive.
 *
 * The outbox is written in the same transaction as whatever the mail
 * announces (a phase's results, a late notice), so a result is queued for
 * every recipient exactly when it exists.  The mail issue's sender picks
 * queued rows, marks them sending/sent/failed; nothing here sends mail.
 * Subjects follow one pattern: "JUDGE:GAME - PHASE What", e.g.
 * "dipjudge:alpha - S1901M Results".
 */
#ifndef DJ_STORE_MAIL_H
#define DJ_STORE_MAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

typedef struct dj_outbox_rec {
    int64_t id;
    int64_t game_id;     /* 0: not about a game */
    int64_t phase_id;    /* 0: not about a phase */
    char kind[16];       /* results, late, notice, end */
    char *recipients;    /* addresses, comma-separated; malloc'd */
    char *subject;       /* malloc'd */
    char *body;          /* malloc'd */
    char state[12];      /* queued, sending, sent, failed */
    int attempts;
    int64_t created_at;
    int64_t sent_at;     /* 0: not sent */
    char *last_error;    /* the last attempt's trouble, "" if none */
    bool held;           /* queued, held by the admin (not sent) */
} dj_outbox_rec;

/*
 * A held mail (judgectl outbox --hold) is a queued row whose next
 * attempt is this far off: never due, never counted as waiting
 * (health.c), never the next time to wake for (sending.c).  A time, not
 * a state, so the schema is unchanged; --retry makes it due again.
 */
#define DJ_OUTBOX_HELD_AT ((int64_t)1 << 53)

/* The admin's hand on one row (judgectl outbox --retry/--hold/--delete):
 * retry makes a queued, held or failed mail due now with its attempts
 * counted afresh; hold keeps a queued mail from being sent; delete
 * removes one that is not being sent. */
typedef enum {
    DJ_OUTBOX_ACT_RETRY,
    DJ_OUTBOX_ACT_HOLD,
    DJ_OUTBOX_ACT_DELETE
} dj_outbox_action;

/* 0 done; DJ_STORE_NOTFOUND (no such mail); 2 refused, why in `why`
 * (sent already, being sent...); -1 (dj_store_error). */
int dj_store_outbox_act(dj_store *s, int64_t id, dj_outbox_action act,
                        char *why, size_t whylen);

void dj_outbox_recs_free(dj_outbox_rec *o, int n);

/* Queue one mail. */
int dj_store_outbox_add(dj_store *s, int64_t game_id, int64_t phase_id,
                        const char *kind, const char *recipients,
                        const char *subject, const char *body, int64_t at);

/*
 * The picture a mail carries: the picture of that phase in that format
 * ("png", "svg", "pdf"), drawn (or taken from the picture cache) when the
 * mail is sent — pictures are never stored in the database.  phase_id 0:
 * no picture.
 */
typedef struct dj_picture_ref {
    int64_t phase_id;
    char format[4];
} dj_picture_ref;

/* Queue one mail with a picture (NULL or phase_id 0: none). */
int dj_store_outbox_add_pictured(dj_store *s, int64_t game_id,
                                 int64_t phase_id, const char *kind,
                                 const char *recipients, const char *subject,
                                 const char *body, int64_t at,
                                 const dj_picture_ref *picture);

/* The same with the text of a calendar (.ics) attachment (NULL: none),
 * attached as text/calendar when the mail is sent (game/player_options.h). */
int dj_store_outbox_add_calendar(dj_store *s, int64_t game_id,
                                 int64_t phase_id, const char *kind,
                                 const char *recipients, const char *subject,
                                 const char *body, int64_t at,
                                 const dj_picture_ref *picture,
                                 const char *calendar);

/*
 * An incoming message (by its mailbox id) failed for a reason other than a
 * busy database: count it (rows older than `prune_before` go); *tries is
 * its count now.
 */
int dj_store_mail_failure(dj_store *s, const char *mailbox_id,
                          const char *error, int64_t now, int64_t prune_before,
                          int *tries);

/* Record that the message was moved aside. */
int dj_store_mail_quarantined(dj_store *s, const char *mailbox_id,
                              int64_t now);

/* Was it moved aside before?  1 yes, 0 no, -1 error. */
int dj_store_mail_is_quarantined(dj_store *s, const char *mailbox_id);

/*
 * Delete mail-log rows received, and sent or given-up outbox rows made,
 * before `before`; how many in *logs and *mails.  (Queued mail stays.)
 */
int dj_store_prune_mail(dj_store *s, int64_t before, int *logs, int *mails);

/* Mail of one game (0: all), in order; state NULL for every state. */
int dj_store_outbox_list(dj_store *s, int64_t game_id, const char *state,
                         dj_outbox_rec **out, int *n);

/* Set a row's state (and sent_at when it becomes "sent"). */
int dj_store_outbox_set_state(dj_store *s, int64_t id, const char *state,
                              const char *error, int64_t at);

/*
 * Record a received Message-ID.  Returns 0 when new, DJ_STORE_DUPLICATE
 * when it was seen before, -1 on error.
 */
#define DJ_STORE_DUPLICATE 1
int dj_store_maillog_add(dj_store *s, const char *message_id,
                         const char *sender, int64_t game_id,
                         const char *outcome, int64_t at);

/* What the mail system said of a received mail's sender: its class
 * ("authenticated", "forged", "unknown") and verdict line. */
int dj_store_maillog_set_auth(dj_store *s, const char *message_id,
                              const char *auth, const char *verdict);

/* One row of the mail log. */
typedef struct dj_maillog_rec {
    int64_t received_at;
    char sender[256];
    char game[64]; /* "" when none */
    char outcome[128];
    char auth[16];
    char auth_verdict[128];
    char signed_on_by[16]; /* "reply token", "password", "none", "" */
} dj_maillog_rec;

/* The latest `limit` mails received (game_id 0: every game), newest
 * last; *out is malloc'd (free it). */
int dj_store_maillog_list(dj_store *s, int64_t game_id, int limit,
                          dj_maillog_rec **out, int *n);

#endif
