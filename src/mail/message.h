/* SPDX-License-Identifier: MIT */
/*
 * message.h — read one incoming mail (raw RFC 5322 bytes, as a Maildir
 * file, an IMAP FETCH of BODY[] or a pipe from the MTA) into a plain
 * struct: who sent it, what it is about, whether it is automatic mail the
 * judge must never answer, and the body text the command parser reads.
 *
 * Every byte is hostile.  The reader:
 *   - refuses, with the distinct status DJ_MSG_ELIMIT, mail over the size,
 *     MIME-part, body-line or line-length limits: the header fields are
 *     still filled (so the caller can record the Message-ID and send a
 *     polite refusal) but there is no body, so a partial parse can never
 *     be taken as orders;
 *   - never trusts libetpan with unbounded nesting (it recurses once per
 *     level), by counting MIME parts before handing the bytes over;
 *   - returns only valid UTF-8 with LF line ends in every text field,
 *     invalid or undecodable bytes replaced by U+FFFD;
 *   - keeps every field in a fixed-size array (truncated on a UTF-8
 *     boundary), except the body, which is malloc'd.
 *
 * Body choice: the first non-empty text/plain part that is not an
 * attachment (walking multipart/mixed, alternative, related, signed,
 * report and nested multiparts, never into an attached message/rfc822),
 * else the first such text/html part turned into text.  Transfer
 * encodings (quoted-printable, base64) and charsets are decoded; then the
 * text is cleaned for the command parser: quoted lines ("> ..."), the
 * "On ... wrote:" line above them, everything from a signature separator
 * ("-- " or "--") or an Outlook original-message block onward, mobile
 * "Sent from my ..." footers and trailing spaces are dropped.
 *
 * The module uses only libetpan, iconv and libc (and dj_buf); it knows
 * nothing of games, players or storage.
 */
#ifndef DJ_MAIL_MESSAGE_H
#define DJ_MAIL_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Return values of dj_message_parse(). */
enum {
    DJ_MSG_OK = 0,
    DJ_MSG_ELIMIT = 1, /* a limit was exceeded: headers only, no body */
    DJ_MSG_EPARSE = 2, /* not a mail message (no header fields at all) */
    DJ_MSG_ENOMEM = 3  /* out of memory */
};

/* Which limit a DJ_MSG_ELIMIT hit (dj_message.limit_hit). */
enum {
    DJ_MSG_LIMIT_NONE = 0,
    DJ_MSG_LIMIT_SIZE,       /* raw bytes over max_size */
    DJ_MSG_LIMIT_HEADER,     /* header section over max_header */
    DJ_MSG_LIMIT_PARTS,      /* more MIME parts than max_parts */
    DJ_MSG_LIMIT_LINES,      /* cleaned body over max_lines lines */
    DJ_MSG_LIMIT_LINE_LENGTH /* a cleaned body line over max_line_len */
};

/* Why a message is automatic (dj_message.flags); any flag set means:
 * do not act on it and do not answer it. */
#define DJ_MSG_AUTO 0x1u   /* auto-reply / auto-generated / out of office */
#define DJ_MSG_BOUNCE 0x2u /* delivery status notification */
#define DJ_MSG_LIST 0x4u   /* mailing-list traffic */
#define DJ_MSG_LOOP 0x8u   /* carries the judge's own X-Loop value */

/* Where the body came from (dj_message.body_source). */
enum {
    DJ_MSG_BODY_NONE = 0, /* no readable text part (body is "") */
    DJ_MSG_BODY_PLAIN,
    DJ_MSG_BODY_HTML
};

/*
 * Limits and context of one parse.  A zero (or NULL) member takes its
 * default, so `dj_message_limits lim = {0};` is a valid start.
 */
typedef struct dj_message_limits {
    size_t max_size;     /* raw bytes; default DJ_MSG_DEFAULT_MAX_SIZE */
    size_t max_header;   /* header section bytes; default 256 KiB */
    size_t max_parts;    /* MIME parts; default 100 (counted cheaply
                            before parsing: Content-Type fields, and
                            lines starting "--" over 16) */
    size_t max_lines;    /* lines of the cleaned body; default 2000 */
    size_t max_line_len; /* bytes in one cleaned body line; default 4000 */
    /* The judge's own X-Loop value: mail carrying it is DJ_MSG_LOOP. */
    const char *own_loop;
    /* The SMTP envelope sender when the caller knows it (e.g. from the
     * MTA's pipe); "" is the null sender <> of a bounce.  NULL: unknown,
     * the Return-Path header field is used instead. */
    const char *envelope_sender;
} dj_message_limits;

#define DJ_MSG_DEFAULT_MAX_SIZE ((size_t)4 << 20)
#define DJ_MSG_DEFAULT_MAX_HEADER ((size_t)256 << 10)
#define DJ_MSG_DEFAULT_MAX_PARTS 100
#define DJ_MSG_DEFAULT_MAX_LINES 2000
#define DJ_MSG_DEFAULT_MAX_LINE_LEN 4000

#define DJ_MSG_ADDR_MAX 256    /* an address (RFC 5321 allows 254) */
#define DJ_MSG_NAME_MAX 256    /* a display name */
#define DJ_MSG_SUBJECT_MAX 512 /* the subject */
#define DJ_MSG_ID_MAX 256      /* a Message-ID, without <> */
#define DJ_MSG_LIST_MAX 1024   /* To or Cc: "a@x, b@y", whole addresses */
#define DJ_MSG_VALUE_MAX 256   /* X-Loop, the automatic reason */

/* One mailbox; addr is "" when absent or not a plausible address (an
 * over-long or malformed address is dropped, never truncated: a cut
 * address could belong to someone else). */
typedef struct dj_mailbox {
    char addr[DJ_MSG_ADDR_MAX];
    char name[DJ_MSG_NAME_MAX]; /* decoded display name, UTF-8 */
} dj_mailbox;

typedef struct dj_message {
    dj_mailbox from;     /* the first From mailbox */
    dj_mailbox reply_to; /* the first Reply-To mailbox */
    dj_mailbox sender;   /* the Sender field */
    /* Envelope sender: limits->envelope_sender when given, else the
     * first Return-Path field; "" with return_path_known is <>. */
    char return_path[DJ_MSG_ADDR_MAX];
    bool return_path_known;
    char to[DJ_MSG_LIST_MAX]; /* addresses only, ", "-separated */
    char cc[DJ_MSG_LIST_MAX];
    char subject[DJ_MSG_SUBJECT_MAX]; /* RFC 2047 decoded, unfolded */
    /* Message-ID without <>; when the mail has none (or a malformed
     * one), a stable hash of its bytes (CRs ignored, so the same mail
     * read from IMAP with CRLF and from a Maildir with LF hashes the
     * same): "<16 hex>.<length>@hash.dipjudge.invalid". */
    char message_id[DJ_MSG_ID_MAX];
    bool message_id_hashed;
    char in_reply_to[DJ_MSG_ID_MAX]; /* the first id, without <> */
    char date[32];    /* Date in UTC, "YYYY-MM-DDTHH:MM:SSZ"; "" if none */
    int64_t date_utc; /* the same in seconds since 1970; 0 if none */
    char x_loop[DJ_MSG_VALUE_MAX]; /* the first X-Loop field */
    /* DJ_MSG_AUTO | _BOUNCE | _LIST | _LOOP, and the first reason found,
     * e.g. "Precedence: bulk", for the log. */
    unsigned flags;
    char auto_reason[DJ_MSG_VALUE_MAX];
    int limit_hit;   /* DJ_MSG_LIMIT_*, with DJ_MSG_ELIMIT */
    int body_source; /* DJ_MSG_BODY_* */
    /* The cleaned UTF-8 text, LF lines each ending in '\n' ("" when
     * empty); NULL unless DJ_MSG_OK. */
    char *body;
    size_t body_len;
    size_t body_lines;
} dj_message;

/*
 * Parse the raw message raw[0..len) (need not be NUL-terminated; CRLF or
 * LF line ends).  lim may be NULL for all defaults.  out is always
 * initialised (free it with dj_message_free() whatever the result).  On
 * any result but DJ_MSG_OK a one-line reason goes to err (if errlen > 0).
 * Returns DJ_MSG_OK, DJ_MSG_ELIMIT, DJ_MSG_EPARSE or DJ_MSG_ENOMEM.
 * Thread-safe: no global state.
 */
int dj_message_parse(const char *raw, size_t len, const dj_message_limits *lim,
                     dj_message *out, char *err, size_t errlen);

/* Release out->body and reset *m to an empty message. */
void dj_message_free(dj_message *m);

/* True when the message must neither be acted on nor answered. */
bool dj_message_is_automatic(const dj_message *m);

/*
 * Is `addr` the judge's own address `judge`, a "+tag" sub-address of it
 * included ("judge+x@host" for "judge@host"), ignoring case?  Mail from it
 * is never acted on and never answered (loops), and the judge never mails
 * it.
 */
bool dj_address_is_judges(const char *addr, const char *judge);

/*
 * HTML to plain text, as used for HTML-only mail: tags dropped, script,
 * style and head skipped, entities (named and numeric) decoded, <br>,
 * <p>, <div>, <li>, <tr>, headings and the like end a line, blockquote
 * lines come out prefixed with "> " (so the cleaner drops them as
 * quotes).  html[0..len) should be UTF-8 (other bytes pass through);
 * *out receives a malloc'd NUL-terminated string (free it).  Returns 0,
 * or -1 when out of memory.
 */
int dj_html_to_text(const char *html, size_t len, char **out);

#endif
