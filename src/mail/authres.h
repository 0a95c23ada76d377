/* SPDX-License-Identifier: MIT */
/*
 * authres.h — what the mail system says about who sent a mail: the
 * RFC 8601 Authentication-Results header fields that a trusted host (the
 * admin's MTA running OpenDKIM and OpenDMARC or rspamd, or the mailbox
 * provider of an IMAP or POP3 inbox) added, read into one class and one
 * short verdict line for the mail log.
 *
 * The rules (which headers are trusted, when a mail is authenticated or
 * forged) are in authres.c's opening comment and in judged(8).  The
 * module uses only libc; it knows nothing of games, players or storage.
 */
#ifndef DJ_MAIL_AUTHRES_H
#define DJ_MAIL_AUTHRES_H

#include <stddef.h>

typedef enum {
    DJ_AUTH_UNKNOWN = 0, /* no usable verdict, or not configured */
    DJ_AUTH_AUTHENTICATED,
    DJ_AUTH_FORGED /* DMARC failed for the From: domain */
} dj_auth_class;

typedef struct {
    dj_auth_class cls;
    /* e.g. "dmarc=pass header.from=example.org"; always NUL-terminated,
     * printable ASCII only. */
    char verdict[128];
} dj_auth_verdict;

/*
 * headers: the message's raw header block as received (the whole message
 * may be given: reading stops at the first empty line or at len; CRLF or
 * LF line ends; need not be NUL-terminated).  from_domain: the From:
 * address's domain ("" or NULL: no From: domain, never authenticated).
 * trusted: the authserv-ids of judge.conf's authentication group
 * (ntrusted == 0: not configured, always DJ_AUTH_UNKNOWN).  *out is
 * always filled.  Thread-safe, no allocation, linear in len.
 */
void dj_authres_evaluate(const char *headers, size_t len,
                         const char *from_domain, const char *const *trusted,
                         size_t ntrusted, dj_auth_verdict *out);

/* "authenticated", "forged" or "unknown". */
const char *dj_auth_class_name(dj_auth_class cls);

#endif
