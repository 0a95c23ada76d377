/* SPDX-License-Identifier: MIT */
/*
 * transport.h — what the mail transports share: one result code, the TLS
 * modes of the network transports, and two small helpers.
 *
 * The transports (maildir.h, fetch.h, send.h) move bytes and nothing else:
 * they never parse a message body or know what a game is.  Every failure
 * is reported as a status plus a human-readable sentence in a
 * caller-supplied buffer, so the judge can log it and decide: a temporary
 * failure is retried later, a permanent one needs the admin (bad address,
 * bad password, bad configuration).  Nothing here aborts or exits.
 */
#ifndef DJ_MAIL_TRANSPORT_H
#define DJ_MAIL_TRANSPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum dj_mail_status {
    DJ_MAIL_OK = 0,
    DJ_MAIL_TEMPFAIL = 1, /* try again later: network, disk, server busy */
    DJ_MAIL_PERMFAIL = 2, /* retrying will not help: auth, address, config */
    DJ_MAIL_GONE = 3,     /* the message asked for is no longer there */
    DJ_MAIL_UNUSABLE = 4  /* sending: the server cannot be used until the
                             admin acts (login refused, certificate not
                             trusted); nothing was sent, and nothing is
                             wrong with the message */
} dj_mail_status;

/* A readable name for a status ("ok", "temporary failure", ...). */
const char *dj_mail_status_name(dj_mail_status st);

/*
 * How a network transport protects the connection.  Whenever TLS is used
 * the server's certificate is verified (tls_check.h) unless the transport's
 * dj_tls_trust says otherwise.
 */
typedef enum dj_tls_mode {
    DJ_TLS_NONE = 0,      /* plain text (loopback and tests) */
    DJ_TLS_STARTTLS_MAY,  /* STARTTLS when the server offers it */
    DJ_TLS_STARTTLS,      /* STARTTLS, fail when not offered */
    DJ_TLS_IMPLICIT       /* TLS from the first byte (465, 993, 995) */
} dj_tls_mode;

/* How a transport checks its server: zero-initialised means "verify
 * against the system's authorities". */
typedef struct dj_tls_trust {
    bool insecure;       /* true: do not verify (tls_verify = false) */
    const char *ca_file; /* NULL or "": the system's CAs; else only these */
} dj_tls_trust;

/* "none", "may", "starttls", "tls" -> mode; returns -1 when unknown. */
int dj_tls_mode_parse(const char *name, dj_tls_mode *out);

/* Largest error sentence a transport writes (buffers may be smaller). */
#define DJ_MAIL_ERR_MAX 512

/* snprintf into err (when err and len are non-zero); returns st. */
dj_mail_status dj_mail_fail(char *err, size_t len, dj_mail_status st,
                            const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/*
 * Fill buf with n unpredictable bytes (from the system, util/random.h;
 * clock and pid mixed when that fails).  For unique file names and
 * Message-IDs, not for secrets.
 */
void dj_mail_random(void *buf, size_t n);

#endif
