/* SPDX-License-Identifier: MIT */
/*
 * message_key.h — what makes two deliveries the same mail: a hash of what
 * its sender wrote, never of what the mail system added on the way.
 *
 * The same message can reach the judge twice: through a backup MX, from a
 * mailbox that offers it again, read again after a crash.  Each copy has
 * other trace fields (Received:, Return-Path:, Delivered-To:, the MTA's
 * own X- fields) but the same body and the same originator fields.  So
 * the hash covers the body and the From and Subject fields only (each
 * field unfolded, white space at its ends ignored, carriage returns
 * ignored everywhere), with SHA-256 (GnuTLS).  Not Date or To: a mail
 * client re-sending a mail (from its outbox, or a "resend") writes them
 * anew, and it is still the same mail; a changed body is another mail.  Together with the
 * sender and the Message-ID it is the mail log's key (judge/ingest.c): a
 * re-delivery is recognised and never acted on, and a forged mail that
 * borrows a player's Message-ID but says something else is not taken for
 * the player's mail.
 */
#ifndef DJ_MAIL_MESSAGE_KEY_H
#define DJ_MAIL_MESSAGE_KEY_H

#include <stddef.h>

#define DJ_MESSAGE_HASH_HEX 65 /* 64 hex digits and the NUL */

/* The hash of raw's body and originator fields, in lower-case hex.
 * Returns 0, or -1 when GnuTLS cannot hash (out is then ""). */
int dj_message_content_hash(const char *raw, size_t len,
                            char out[DJ_MESSAGE_HASH_HEX]);

#endif
