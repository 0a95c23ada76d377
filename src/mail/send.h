/* SPDX-License-Identifier: MIT */
/*
 * send.h — hand a finished message to a mail transport: SMTP (libetpan,
 * STARTTLS, AUTH PLAIN/LOGIN), the sendmail program, or a Maildir outbox
 * (the demo's default).  One interface for the three.
 *
 * The caller owns the queue (the SQLite outbox): it marks a row sent only
 * after dj_sender_send() returned OK, and retries TEMPFAIL with backoff.
 * So a crash between "accepted" and "marked" can send one mail twice,
 * never lose one — the safe side of the trade.
 *
 * Recipients are judged one by one: when the server accepts some and
 * refuses others, the message still goes to those accepted (OK), and the
 * per-recipient results say which failed and how, so only those are
 * retried or reported.  The call as a whole fails only when nobody got
 * the message: TEMPFAIL when any refusal was temporary, else PERMFAIL.
 *
 * Messages come with "\n" line ends (compose.h); SMTP converts to CRLF
 * and dot-stuffs, sendmail gets them as they are (with -oi, so a lone "."
 * line does not end the message), the Maildir stores them as they are.
 */
#ifndef DJ_MAIL_SEND_H
#define DJ_MAIL_SEND_H

#include <stdbool.h>
#include <stddef.h>

#include "mail/transport.h"

typedef enum dj_send_kind {
    DJ_SEND_MAILDIR = 0,
    DJ_SEND_SENDMAIL,
    DJ_SEND_SMTP
} dj_send_kind;

typedef struct dj_send_config {
    dj_send_kind kind;
    /* DJ_SEND_MAILDIR: the outbox Maildir (created when missing). */
    const char *maildir;
    /* DJ_SEND_SENDMAIL: the program (NULL: /usr/sbin/sendmail). */
    const char *sendmail;
    /* DJ_SEND_SMTP: */
    const char *host;      /* NULL: 127.0.0.1 */
    int port;              /* 0: 25, or 465 with DJ_TLS_IMPLICIT */
    dj_tls_mode tls;
    dj_tls_trust trust;    /* how the server's certificate is checked */
    const char *user;      /* NULL: no AUTH */
    const char *password;
    const char *helo;      /* NULL: libetpan's choice (the host name) */
    int timeout;           /* seconds per network operation; 0: 60 */
} dj_send_config;

typedef struct dj_sender dj_sender;

/* NULL (with a reason in err) only when out of memory or cfg is unusable. */
dj_sender *dj_sender_open(const dj_send_config *cfg, char *err,
                          size_t errlen);

/*
 * Send msg (len bytes) from envelope sender `from` (an address, or "" for
 * the null sender) to nrcpt recipients.  rcpt_status, when not NULL, gets
 * one status per recipient.  err gets the reason of any failure, and on
 * partial success the refusals.  An SMTP connection is kept open between
 * calls (reconnected when it broke) until dj_sender_close().
 */
dj_mail_status dj_sender_send(dj_sender *s, const char *msg, size_t len,
                              const char *from, const char *const *rcpts,
                              size_t nrcpt, dj_mail_status *rcpt_status,
                              char *err, size_t errlen);

/*
 * The name the next message is filed under by the Maildir transport (the
 * outbox row's: "CREATED.QROW.dipjudge"): a re-send after a crash finds
 * the earlier file and writes no second copy.  Other transports ignore
 * it; NULL or an id dj_maildir_id_ok refuses: a fresh name.
 */
void dj_sender_set_name(dj_sender *s, const char *name);

/* Say goodbye to the server (if any) and free everything. */
void dj_sender_close(dj_sender *s);

/* Overwrite the sender's copy of its password (a process that has a copy
 * of the sender and will not send: the isolated mail reader, judged.c).
 * NULL: nothing. */
void dj_sender_wipe_secrets(dj_sender *s);

#endif
