/* SPDX-License-Identifier: MIT */
/*
 * compose.h — build an outgoing RFC 5322 message from parts, safely.
 *
 * Every string that goes into a header may come from a player (a display
 * name, a subject quoted back, the Message-ID of the mail answered), so
 * none is copied raw:
 *   - addresses must be plain addr-specs (dot-atom local part, dot-atom
 *     domain, no spaces, quotes or control characters): anything else is
 *     refused (PERMFAIL), never "cleaned up" into some other address;
 *   - free text (subject, display names) loses CR, LF and every other
 *     control character, invalid UTF-8 becomes U+FFFD, it is capped in
 *     length, and non-ASCII text is RFC 2047-encoded (UTF-8, "B");
 *   - Message-IDs keep only well-formed <left@right> tokens.
 * So no input can add a header line or break the header block.
 *
 * The body is UTF-8 text/plain: invalid bytes become U+FFFD, control
 * characters other than TAB go, line ends are normalised; pure ASCII with
 * lines of at most 998 octets is sent 7bit, anything else quoted-printable
 * (which also keeps every line under 78 octets).
 *
 * With an attachment (a picture of the board) the message is
 * multipart/mixed: the text part, then the file in base64.  The boundary
 * starts with "=_", which base64 and quoted-printable never produce, and a
 * 7bit text part that happens to contain it is sent quoted-printable, so
 * no body can end its part early.  The attachment's file name
 * keeps only letters, digits, '.', '-' and '_' (else "attachment"), and
 * its type must be a plain type/subtype token.
 *
 * The result uses "\n" line ends (the local convention of Maildir and the
 * sendmail program); the SMTP transport turns them into CRLF.
 */
#ifndef DJ_MAIL_COMPOSE_H
#define DJ_MAIL_COMPOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mail/transport.h"
#include "util/buf.h"

#define DJ_COMPOSE_MSGID_MAX 256  /* a Message-ID with its <> */
#define DJ_COMPOSE_ADDR_MAX 254   /* RFC 5321 path limit */
#define DJ_COMPOSE_TEXT_MAX 400   /* bytes of a subject or display name */
#define DJ_COMPOSE_REFS_MAX 12    /* Message-IDs kept in References */

typedef struct dj_compose_addr {
    const char *name; /* display name, may be NULL or "" */
    const char *addr; /* addr-spec: local@domain */
} dj_compose_addr;

/* RFC 3834 Auto-Submitted: what kind of automatic mail this is. */
typedef enum dj_auto_submitted {
    DJ_AUTO_NONE = 0,   /* no header */
    DJ_AUTO_GENERATED,  /* results, reminders, notices */
    DJ_AUTO_REPLIED     /* a reply to a player's mail */
} dj_auto_submitted;

typedef struct dj_compose_attachment {
    const char *filename;        /* e.g. "demo-F1901M.png" */
    const char *content_type;    /* e.g. "image/png" */
    const unsigned char *data;
    size_t len;
} dj_compose_attachment;

typedef struct dj_compose {
    dj_compose_addr from;
    const dj_compose_addr *to;   /* at least one */
    size_t nto;
    const dj_compose_addr *reply_to; /* optional */
    const char *subject;         /* UTF-8, may be NULL */
    const char *in_reply_to;     /* the answered mail's Message-ID, or NULL */
    const char *references;      /* the answered mail's References, or NULL */
    const char *x_loop;          /* X-Loop address (the judge's), or NULL */
    dj_auto_submitted auto_submitted;
    const char *message_id;      /* NULL: one is made from from.addr */
    int64_t date;                /* seconds since 1970; 0: now */
    const char *body;            /* UTF-8 text, may be NULL */
    const dj_compose_attachment *attachment; /* NULL: text/plain alone */
    /* A calendar (.ics, RFC 5545: CRLF lines) attached after the picture
     * as text/calendar; method=PUBLISH, in base64 so its CRLFs arrive as
     * written.  NULL or "": none. */
    const char *calendar;
} dj_compose;

/*
 * Write the whole message into out (replacing its contents).  The
 * Message-ID used is copied to msgid_out (DJ_COMPOSE_MSGID_MAX bytes) when
 * that is not NULL.  PERMFAIL with a reason when an address is malformed.
 */
dj_mail_status dj_compose_message(const dj_compose *c, dj_buf *out,
                                  char *msgid_out, char *err, size_t errlen);

/* Is addr a plain, safe addr-spec (see above)? */
bool dj_compose_addr_ok(const char *addr);

/*
 * Header text for a player's string: control characters and line breaks
 * out, whitespace runs collapsed, invalid UTF-8 replaced, capped at
 * DJ_COMPOSE_TEXT_MAX bytes on a character boundary.  Appends to out.
 */
void dj_compose_clean_text(const char *in, dj_buf *out);

/*
 * Append the first well-formed "<left@right>" in in to out; false (and
 * nothing appended) when there is none.
 */
bool dj_compose_msgid(const char *in, dj_buf *out);

/* Append an RFC 5322 date ("Sat, 01 Mar 2025 12:00:00 +0000", UTC). */
void dj_compose_date(int64_t t, dj_buf *out);

#endif
