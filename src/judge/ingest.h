/* SPDX-License-Identifier: MIT */
/*
 * ingest.h — one incoming mail, from raw bytes to a committed result:
 * the step between the mailbox (fetch.h, or the MTA's pipe) and the
 * command language (command/command.h).  judged calls it for every
 * message, whatever the mail came through.
 *
 * The rules, in the order they apply to a message:
 *
 *   1. Read it (message.h) with the judge's limits; the judge's own
 *      address is the X-Loop value it recognises as its own mail.
 *   1a. What the mail system says of its sender (mail/authres.h, with
 *      cfg->authserv_ids): authenticated, forged or unknown, and the
 *      verdict line; computed once, kept in the result and the mail log.
 *   2. BEGIN IMMEDIATE; record its key in the mail log FIRST: the
 *      sender, the Message-ID (or, when it has none, the content hash)
 *      and the SHA-256 of what the sender wrote (mail/message_key.h:
 *      body, From, To, Date, Subject; never trace fields).  Seen before:
 *      roll back, nothing is done (DJ_INGEST_DUPLICATE) — a message
 *      delivered twice (through a backup MX too), or read again after a
 *      crash between the commit and the mailbox update, is acted on once.
 *   3. Never act on and never answer: automatic mail (auto-replies,
 *      bounces, list traffic, our own X-Loop), mail without a sender,
 *      mail from the judge's own address, mail that is not a message.
 *      It is recorded in the mail log with why (DJ_INGEST_IGNORED).
 *   4. Over a limit (size, lines, parts): nothing in it is read; a polite
 *      refusal is queued to the sender (DJ_INGEST_REFUSED).
 *   5. Otherwise the commands run (dj_command_execute) inside the same
 *      transaction, and the reply is queued in the outbox, answering the
 *      message's Message-ID (DJ_INGEST_DONE).
 *   6. Replies and refusals are rate-limited (judge/reply_budget.h: per
 *      address with its +tag folded in, per failed sign-on, per domain
 *      and judge-wide): past a budget the message is still acted on but
 *      not answered (the mail log says which budget), so a mail loop with
 *      another robot or a flood of forged mail cannot make the judge a
 *      mail cannon, nor silence a player; a correct sign-on is always
 *      answered.
 *   7. The mail log's outcome is written and the transaction committed:
 *      the record, everything the commands changed, the reply and the
 *      mail they queued become durable together or not at all.
 *
 * Only after dj_ingest_message() returned something other than
 * DJ_INGEST_RETRY may the caller mark the message handled in its mailbox
 * (dj_fetch_confirm(), or exit 0 to the MTA).  A crash anywhere before
 * the commit leaves nothing (the message is read again); a crash after
 * it and before the mailbox update makes the next reading a duplicate.
 *
 * Fault injection: cfg->fault, when set, is called at the named points
 * "ingest-logged" (mail log row written, commands not run),
 * "ingest-executed" (commands run and reply queued, not committed) and,
 * in dj_ingest_fetch(), "ingest-committed" (committed, mailbox not yet
 * updated); the crash tests make it end the process there.
 *
 * This file sits at the mail room's front door and hands the text on to
 * the command room: data still flows one way (mail -> command -> game).
 */
#ifndef DJ_JUDGE_INGEST_H
#define DJ_JUDGE_INGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "mail/authres.h"
#include "judge/reply_budget.h"
#include "mail/fetch.h"

/* Called at a named point of the work (fault injection); may not return. */
typedef void (*dj_fault_fn)(void *ctx, const char *point);

typedef struct dj_ingest_config {
    const char *judge_address; /* our own address and X-Loop value */
    const char *judge_name;    /* subjects of refusals: "dipjudge - ..." */
    size_t max_size;           /* bytes; 0: message.h's default */
    size_t max_lines;          /* lines of text; 0: message.h's default */
    int reply_limit;           /* replies per sender per window; 0: no cap */
    int reply_window;          /* seconds */
    int signon_reply_limit;    /* replies to failed sign-ons per sender */
    int domain_reply_limit;    /* replies per domain per window */
    int judge_reply_limit;     /* replies to anyone per window */
    dj_reply_byte_limits reply_bytes; /* the same budgets in bytes */
    /* The SMTP envelope sender when known (judged deliver -f), "" for the
     * null sender <>; NULL: unknown (Return-Path is used). */
    const char *envelope_sender;
    /* The envelope recipient when known (judged deliver -r, Postfix's
     * ${recipient}); NULL: the To:, Cc:, Delivered-To: and X-Original-To:
     * fields are read for reply addresses. */
    const char *envelope_recipient;
    const char *recipient_delimiter; /* reply addresses; NULL: "+" */
    /* Whose Authentication-Results to trust (judge.conf's
     * authentication { authserv_ids }); n_authserv_ids 0: not configured,
     * every mail is of class unknown. */
    const char *const *authserv_ids;
    size_t n_authserv_ids;
    dj_fault_fn fault;         /* NULL: none */
    void *fault_ctx;
    /* Poison messages (see dj_ingest_fetch): tries before a message that
     * keeps failing is moved aside (0: DJ_INGEST_MAX_TRIES), and who is
     * told (NULL or "": nobody). */
    int max_tries;
    const char *admin_address;
    /* Tests only: a message containing this text fails as a bug would
     * (not as a busy database).  NULL in production. */
    const char *test_fail_marker;
} dj_ingest_config;

#define DJ_INGEST_MAX_TRIES 3

typedef enum dj_ingest_status {
    DJ_INGEST_DONE = 0,   /* commands run, committed (reply queued) */
    DJ_INGEST_DUPLICATE,  /* seen before: nothing done */
    DJ_INGEST_IGNORED,    /* recorded, not acted on, not answered */
    DJ_INGEST_REFUSED,    /* over a limit: recorded, refusal queued */
    DJ_INGEST_RETRY       /* a temporary failure: nothing done; keep the
                             message and try again later */
} dj_ingest_status;

typedef struct dj_ingest_result {
    dj_ingest_status status;
    char message_id[256];  /* the mail's (or a hash); the mail log records
                              it with the sender and a content hash */
    char sender[256];      /* the From address ("" when none) */
    char game[64];         /* the message's game, "" when none */
    char outcome[96];      /* as recorded in the mail log */
    dj_auth_verdict auth;  /* the mail system's verdict (step 1a) */
    bool replied;          /* a reply or refusal was queued */
    char error[256];       /* why, with DJ_INGEST_RETRY */
    bool busy;             /* ... and it was a busy database (try again) */
    /* Who sent it (decided before the transaction): the class whose
     * limits it spent ("authenticated", "forged", "unknown": the mail
     * system's, or authenticated by a reply token) and how the sender was
     * signed on ("reply token", "password", "none"). */
    char sender_class[16];
    char signed_on_by[16];
    /* How long the mail held the database's write lock (BEGIN IMMEDIATE
     * to COMMIT), in microseconds: judged -v logs it. */
    int64_t lock_us;
} dj_ingest_result;

/* A readable name for a status ("done", "duplicate", ...). */
const char *dj_ingest_status_name(dj_ingest_status st);

/*
 * Ingest one message of len bytes at the session's time (dj_judge_now).
 * `truncated` says the caller read only the first len bytes of a longer
 * message (it is then refused as too big).  See the rules above.
 */
dj_ingest_status dj_ingest_message(dj_judge *j, const dj_ingest_config *cfg,
                                   const char *raw, size_t len,
                                   bool truncated, dj_ingest_result *res);

/* Told about every message a pass handled (for the log). */
typedef void (*dj_ingest_note_fn)(void *ud, const char *mailbox_id,
                                  const dj_ingest_result *res);

typedef struct dj_ingest_pass {
    int seen;        /* messages listed and read */
    int handled;     /* confirmed in the mailbox */
    int retry;       /* left for later (a temporary failure) */
    int quarantined; /* moved aside after failing max_tries times */
} dj_ingest_pass;

/*
 * One pass over a mailbox: list at most max unseen messages (0: all),
 * read each (at most cfg->max_size + 1 bytes: a longer one is refused),
 * ingest it, and confirm it in the mailbox once its transaction
 * committed.  The pass stops at the first temporary failure (mailbox or
 * database), leaving the rest for the next pass, so messages are handled
 * strictly in arrival order.  Poison messages: a message that fails for
 * another reason than a busy database (a bug it triggers) is counted in
 * the mail_failures table; at its max_tries-th failure it is moved aside
 * (dj_fetch_quarantine), the admin is mailed once, and the pass goes on
 * with the next message.  Returns DJ_MAIL_OK, or
 * the failure with a reason in err.
 */
dj_mail_status dj_ingest_fetch(dj_judge *j, const dj_ingest_config *cfg,
                               dj_fetcher *f, size_t max,
                               dj_ingest_note_fn note, void *ud,
                               dj_ingest_pass *pass, char *err,
                               size_t errlen);

#endif
