/* SPDX-License-Identifier: MIT */
/*
 * outbox.h — send the mail waiting in the SQLite outbox through a
 * transport (send.h): SMTP, the sendmail program or a Maildir.
 *
 * Every mail the judge writes (replies, results, notices, press) is first
 * a row in the outbox, committed with whatever it announces.  Sending a
 * row, one at a time:
 *
 *   1. claim it: one committed UPDATE makes it "sending", counts the
 *      attempt and fixes its Message-ID (kept for every later attempt);
 *   2. compose it (compose.h: safe headers, X-Loop, Auto-Submitted) and
 *      hand it to the transport;
 *   3. the moment the transport accepted it, mark it "sent" (one
 *      committed UPDATE, nothing in between);
 *   4. a temporary failure queues it again after a backoff (retry.delay,
 *      doubled per attempt up to retry.max_delay); after `max_attempts`
 *      attempts, or on a permanent failure, it is "failed" and the admin
 *      gets a report (itself an outbox row, kind "admin"; a failed admin
 *      report is only logged).
 *
 * Exactly once, at least once.  A row is never lost: it stays in the
 * database until a transport accepted it.  It is never sent twice —
 * except in one window: a crash (kill -9, power loss) after the transport
 * accepted the message (SMTP said 250 to the end of DATA, sendmail exited
 * 0, the Maildir link was made) and before step 3's UPDATE reached the
 * disk.  The row is then still "sending"; the next sender (it holds the
 * outbox lock, so nobody else is at work) cannot know whether the copy
 * went out and queues it again: that one message may arrive twice, with
 * the same Message-ID (so mail programs and Sieve duplicate checks can
 * drop the copy).  Losing a result is worse than a duplicate, so this is
 * the side the trade takes.  The window is kept small: the claim is
 * committed before the connection does anything, the UPDATE follows the
 * transport's return with no other work between, rows are sent one by
 * one (at most one row is ever in the window), and the crash tests
 * (DIPJUDGE_CRASH_POINT=send-accepted) check that exactly that one row is
 * duplicated and nothing else.  A crash after the claim but before the
 * transport accepted (send-claimed) re-sends a mail that never left: no
 * duplicate.
 *
 * The outbox lock (cfg->lock_path, a file next to the database, flock)
 * keeps two senders — `judged run` and a `judged deliver` or `judged
 * once` — from working at once; the one that does not get it skips its
 * pass (the other sends).  The lock dies with its process, so a crashed
 * sender never blocks the next.
 *
 * Never to ourselves: a recipient equal to the judge's own address is
 * dropped (a row left with nobody fails).
 */
#ifndef DJ_JUDGE_OUTBOX_H
#define DJ_JUDGE_OUTBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/ingest.h"
#include "mail/send.h"
#include "store/sending.h"
#include "store/store.h"

/*
 * The picture a row carries (its picture_phase_id and picture_format):
 * fill row->picture, picture_len, picture_name and picture_type and
 * return 0, or return -1 and the mail goes without it.  Pictures are
 * drawn (or read from the cache) as the mail goes out, never stored.
 */
typedef int (*dj_outbox_picture_fn)(void *ctx, dj_outbox_send_rec *row);

/*
 * The Reply-To address of a row going to the one recipient `to` (a
 * participant's reply address: game/reply_token.c): fill out and return
 * 0, or return 1 (none: the mail goes without a Reply-To).
 */
typedef int (*dj_outbox_reply_to_fn)(void *ctx, const dj_outbox_send_rec *row,
                                     const char *to, char *out,
                                     size_t outlen);

typedef struct dj_outbox_config {
    const char *judge_address;  /* From and envelope sender */
    const char *judge_name;     /* From's display name, report subjects */
    const char *admin_address;  /* failures reported here; NULL/"": none */
    int max_attempts;           /* 0: 8 */
    int retry_delay;            /* seconds before the first retry; 0: 60 */
    int retry_max_delay;        /* seconds; 0: 6 hours */
    size_t max_rows;            /* rows per pass at most; 0: no limit */
    const char *lock_path;      /* NULL: no lock (a single sender) */
    dj_fault_fn fault;          /* points "send-claimed", "send-accepted",
                                   "send-marked"; NULL: none */
    void *fault_ctx;
    dj_outbox_picture_fn picture; /* NULL: mail goes without pictures */
    void *picture_ctx;
    dj_outbox_reply_to_fn reply_to; /* NULL: no Reply-To */
    void *reply_to_ctx;
} dj_outbox_config;

/* What happened to one row (for the log). */
typedef enum dj_outbox_event {
    DJ_OUTBOX_SENT = 0,
    DJ_OUTBOX_RETRY,      /* temporary failure, queued again */
    DJ_OUTBOX_FAILED,     /* given up; reported to the admin */
    DJ_OUTBOX_RECOVERED,  /* left "sending" by a dead sender: queued again */
    DJ_OUTBOX_UNUSABLE    /* the transport refused before any message (a
                             certificate not trusted, a refused login):
                             permanent until the admin mends judge.conf;
                             the row stays queued, its attempt not spent */
} dj_outbox_event;

typedef void (*dj_outbox_note_fn)(void *ud, dj_outbox_event ev,
                                  const dj_outbox_send_rec *row,
                                  const char *detail);

typedef struct dj_outbox_pass {
    int sent, retried, failed, recovered;
    bool busy;  /* another sender holds the lock: nothing was done */
} dj_outbox_pass;

/*
 * Send every row due at `now` (at most cfg->max_rows).  The pass stops
 * early at a temporary failure (the transport is likely down: the other
 * rows wait for the next pass without an attempt counted).  Returns 0, or
 * -1 on a database error (reason in dj_store_error(s)).
 */
int dj_outbox_flush(dj_store *s, dj_sender *snd, const dj_outbox_config *cfg,
                    int64_t now, dj_outbox_note_fn note, void *ud,
                    dj_outbox_pass *pass);

/* Seconds to wait after the attempt-th failed attempt (1, 2, ...). */
int64_t dj_outbox_backoff(const dj_outbox_config *cfg, int attempt);

#endif
