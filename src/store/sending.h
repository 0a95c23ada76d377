/* SPDX-License-Identifier: MIT */
/*
 * sending.h — the outbox as the mail sender (src/judge/outbox.c) and the
 * mail reader (src/judge/ingest.c) use it: claiming a row before it is
 * handed to a transport, marking it sent, retried or failed, finding
 * rows a crashed sender left half-done, counting the replies an address
 * was sent (the reply rate limit), and the mail log's outcome.
 *
 * A row's life:
 *
 *   queued --claim--> sending --sent--> sent
 *     ^                  |  \---fail--> failed   (permanent, or too many
 *     |                  |                        attempts: the admin is told)
 *     +-----retry--------+   (temporary failure: next_attempt_at moves on)
 *
 * The claim (attempts + 1, claimed_at, the Message-ID fixed) is committed
 * before any byte goes to the transport, and "sent" is written right
 * after the transport accepted the message.  A row still "sending" when
 * a sender starts (it holds the outbox lock, so no other sender is at
 * work) was left by one that died between the two: whether the transport
 * got it is unknown, so dj_store_outbox_recover() queues it again — the
 * at-least-once side of the trade, documented in src/judge/outbox.h.
 */
#ifndef DJ_STORE_SENDING_H
#define DJ_STORE_SENDING_H

#include <stdint.h>

#include "store/store.h"

#define DJ_OUTBOX_MSGID_MAX 256

/* One row as the sender needs it; free with dj_outbox_send_rec_free. */
typedef struct dj_outbox_send_rec {
    int64_t id;
    int64_t game_id;    /* 0: no game's mail */
    int64_t press_id;   /* a press mail: the message it carries (0: none) */
    char kind[16];
    char *recipients;   /* comma-separated; malloc'd */
    char *subject;      /* malloc'd */
    char *body;         /* malloc'd */
    int attempts;       /* before this claim */
    int64_t created_at;
    char message_id[DJ_OUTBOX_MSGID_MAX];   /* "" until first claimed */
    char in_reply_to[DJ_OUTBOX_MSGID_MAX];  /* "" unless a reply */
    /* The picture attached (results, MAP), when there is one: the phase
     * and format queued (store/mail.h: dj_picture_ref), and the bytes the
     * sender got for them (judge/outbox.h: the config's picture). */
    int64_t picture_phase_id; /* 0: none */
    char picture_format[4];   /* "png", "svg", "pdf" */
    char picture_name[64];   /* file name, e.g. "demo-F1901M.png" */
    char picture_type[32];   /* MIME type, e.g. "image/png" */
    unsigned char *picture;  /* malloc'd; NULL: no attachment */
    size_t picture_len;
    char *calendar;          /* the .ics attached, malloc'd; NULL: none */
} dj_outbox_send_rec;

void dj_outbox_send_rec_free(dj_outbox_send_rec *r);

/*
 * Queue again every row left "sending" (by a sender that died), due at
 * `now`.  *n (may be NULL) counts them.
 */
int dj_store_outbox_recover(dj_store *s, int64_t now, int *n);

/*
 * The queued row with the lowest id above after_id that is due at `now`
 * (next_attempt_at <= now).  0 with *r filled, DJ_STORE_NOTFOUND, -1.
 */
int dj_store_outbox_next_due(dj_store *s, int64_t now, int64_t after_id,
                             dj_outbox_send_rec *r);

/*
 * Claim a queued row for sending: state "sending", attempts + 1,
 * claimed_at = now, and its Message-ID set to message_id unless it has
 * one already (a row re-sent keeps its first).  0 when claimed,
 * DJ_STORE_NOTFOUND when the row is no longer queued.  The caller's copy
 * gets the Message-ID in force and the new attempt count.
 */
int dj_store_outbox_claim(dj_store *s, dj_outbox_send_rec *r,
                          const char *message_id, int64_t now);

/* The transport accepted the row: "sent" at `now`. */
int dj_store_outbox_mark_sent(dj_store *s, int64_t id, int64_t now);

/* A temporary failure: queued again, not before next_at. */
/*
 * Back to the queue without the attempt counting: the transport could not
 * be used at all (a refused login or certificate), so nothing was tried
 * and the row must not run out of attempts while the admin fixes it.
 */
int dj_store_outbox_unclaim(dj_store *s, int64_t id, int64_t next_at,
                            const char *error);
int dj_store_outbox_mark_retry(dj_store *s, int64_t id, int64_t next_at,
                               const char *error);

/* Given up: "failed" with the reason. */
int dj_store_outbox_mark_failed(dj_store *s, int64_t id, const char *error,
                                int64_t now);

/*
 * When the next queued row falls due: 0 with *at set, DJ_STORE_NOTFOUND
 * when nothing is queued.
 */
int dj_store_outbox_next_time(dj_store *s, int64_t *at);

/* Rows in each state (for logs and tests); any pointer may be NULL. */
int dj_store_outbox_counts(dj_store *s, int *queued, int *sending, int *sent,
                           int *failed);

/*
 * The replies queued at or after `since`, for the reply budgets
 * (judge/reply_budget.h).  Addresses are compared as the budgets count
 * them: lower case, a "+tag" of the local part taken off
 * ("ann+x@Example.org" counts as "ann@example.org").
 *   to_addr    replies and refusals (kinds "reply", "refusal") to `addr`
 *   failed     replies to failed sign-ons (kind "signon-failed") to `addr`
 *   to_domain  every kind of reply to any address @domain
 *   to_all     every kind of reply to anyone
 */
typedef struct dj_reply_counts {
    int to_addr, failed, to_domain, to_all;
} dj_reply_counts;

int dj_store_outbox_reply_counts(dj_store *s, const char *addr,
                                 const char *domain, int64_t since,
                                 dj_reply_counts *out);

/* The bytes of those replies (their text), to the folded address, to the
 * domain and to anyone, queued at or after `since`. */
typedef struct dj_reply_bytes {
    int64_t to_addr, to_domain, to_all;
} dj_reply_bytes;

int dj_store_outbox_reply_bytes(dj_store *s, const char *addr,
                                const char *domain, int64_t since,
                                dj_reply_bytes *out);

/*
 * Queue one mail answering the Message-ID in_reply_to (may be NULL or
 * ""): kind "reply" or "refusal", not about a game.
 */
int dj_store_outbox_add_reply(dj_store *s, const char *kind, const char *to,
                              const char *subject, const char *body,
                              const char *in_reply_to, int64_t at);

/*
 * Mark the row inserted last on this connection (the reply
 * dj_command_queue_reply() just queued) as answering in_reply_to.
 */
int dj_store_outbox_thread_last(dj_store *s, const char *in_reply_to);

/* Set the outcome (and game) of a message already in the mail log. */
int dj_store_maillog_set_outcome(dj_store *s, const char *message_id,
                                 const char *game, const char *outcome);

/* How its sender was signed on (schema version 13): "reply token",
 * "password", "none". */
int dj_store_maillog_set_signed_on_by(dj_store *s, const char *message_id,
                                      const char *by);

#endif
