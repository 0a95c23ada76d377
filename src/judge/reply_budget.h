/* SPDX-License-Identifier: MIT */
/*
 * reply_budget.h — whether the judge answers a message: the budgets that
 * keep forged mail from making the judge a mail cannon, or from silencing
 * a player.
 *
 * Every From: line may be forged, so a reply goes to whoever the forger
 * named.  Four budgets, each over the same window (reply_window, an hour
 * by default), counted on the outbox (store/sending.h):
 *   - per address: reply_limit replies and refusals to one address, its
 *     "+tag" folded in (ann+1@ and ann+2@ are ann@), so one mailbox
 *     cannot draw more by varying the tag;
 *   - per failed sign-on: a message whose sign-on was refused is answered
 *     (queued as kind "signon-failed", command.h) under a small limit of
 *     its own per address (signon_reply_limit), and does not count
 *     against reply_limit: forged sign-ons in a player's name cannot use
 *     up the player's replies;
 *   - per domain: domain_reply_limit replies of every kind to one domain;
 *   - judge-wide: judge_reply_limit replies of every kind to anyone.
 * A message whose sign-on succeeded is always answered (it carried the
 * password: it is the player's, or the password is already lost), and
 * counts against the others' budgets like any reply.  A message not
 * answered is still acted on; the mail log says which budget stopped the
 * reply.
 */
#ifndef DJ_JUDGE_REPLY_BUDGET_H
#define DJ_JUDGE_REPLY_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

typedef struct dj_reply_limits {
    int per_address;   /* reply_limit; 0: no cap */
    int signon_failed; /* signon_reply_limit; 0: no cap */
    int per_domain;    /* domain_reply_limit; 0: no cap */
    int judge_wide;    /* judge_reply_limit; 0: no cap */
    int window;        /* seconds */
} dj_reply_limits;

typedef enum dj_reply_class {
    DJ_REPLY_SIGNED_ON,     /* a correct sign-on: always answered */
    DJ_REPLY_SIGNON_FAILED, /* its sign-on was refused */
    DJ_REPLY_OTHER          /* anything else, refusals included */
} dj_reply_class;

/*
 * May `to` be answered now?  1 yes; 0 no, with the budget that stopped it
 * in *why ("reply limit", ...); -1 on a database error.
 */
int dj_reply_allowed(dj_store *st, const dj_reply_limits *lim,
                     dj_reply_class c, const char *to, int64_t now,
                     const char **why);

/*
 * The same budgets in bytes (issue 33): the replies' text queued within
 * the window to one address (its "+tag" folded in, refusals and replies
 * to failed sign-ons included), to its domain, to anyone.  A budget
 * reached stops the next reply, as a count does; a correct sign-on is
 * answered all the same.  0: no cap.
 */
typedef struct dj_reply_byte_limits {
    int per_address;
    int per_domain;
    int judge_wide;
    int window;        /* seconds (reply_window) */
} dj_reply_byte_limits;

int dj_reply_bytes_allowed(dj_store *st, const dj_reply_byte_limits *lim,
                           dj_reply_class c, const char *to, int64_t now,
                           const char **why);

/* The address as the budgets count it: lower case, "+tag" taken off. */
void dj_reply_fold_address(const char *addr, char *out, size_t outlen);

#endif
