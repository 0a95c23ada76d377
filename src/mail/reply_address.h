/* SPDX-License-Identifier: MIT */
/*
 * reply_address.h — the judge's reply addresses: LOCAL<delim>TAG@DOMAIN,
 * where LOCAL@DOMAIN is judge_address, <delim> judge.conf's
 * recipient_delimiter ("+" by default, as in Postfix) and TAG a reply
 * token (24 letters a-z2-7), followed for an answer to a press message by
 * "-p" and the press message's number.  Making them, and finding them
 * among a received mail's recipients: the envelope recipient when the
 * transport gave one (judged deliver -r), else the To:, Cc:,
 * Delivered-To: and X-Original-To: fields.  Pure text work: what a token
 * means is the game layer's (game/reply_token.c).
 */
#ifndef DJ_MAIL_REPLY_ADDRESS_H
#define DJ_MAIL_REPLY_ADDRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DJ_REPLY_TAG_LEN 24 /* = DJ_REPLY_TOKEN_LEN (game.h) */
#define DJ_REPLY_TAGS_MAX 4 /* tags read from one mail, at most */

typedef struct dj_reply_tag {
    char token[DJ_REPLY_TAG_LEN + 1];
    int64_t press_id; /* > 0: an answer to that press message */
} dj_reply_tag;

/* "LOCAL<delim>TOKEN[-pN]@DOMAIN" into out: 0, or -1 when judge_address
 * has no '@' or out is too small. */
int dj_reply_address_make(const char *judge_address, const char *delim,
                          const char *token, int64_t press_id, char *out,
                          size_t outlen);

/*
 * The reply tags among the recipients of the raw message (its header
 * block is read; the body never): at most max into out, how many
 * returned.  *malformed is set when some recipient is the judge's
 * address with a tag that is no token's shape (a made-up or damaged
 * reply address).  envelope: the envelope recipient, or NULL; when given
 * only it is read.
 */
size_t dj_reply_address_find(const char *raw, size_t len, const char *envelope,
                             const char *judge_address, const char *delim,
                             dj_reply_tag *out, size_t max, bool *malformed);

#endif
