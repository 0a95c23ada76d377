/* SPDX-License-Identifier: MIT */
/*
 * send_smtp.c — SMTP submission through libetpan: connect (plain,
 * STARTTLS or implicit TLS), EHLO (HELO when EHLO is refused), AUTH PLAIN
 * or LOGIN when credentials are configured, then MAIL, one RCPT per
 * recipient (each judged on its own reply), DATA.
 *
 * The connection stays open between messages, since the judge sends a
 * phase's results as a burst; a server that closed it while idle shows up
 * as a stream error on MAIL, and the message is retried once on a fresh
 * connection.  Any other stream error drops the connection, so the next
 * call starts clean.  Replies are classified the SMTP way: 4xx and
 * network trouble are temporary, 5xx permanent.
 *
 * libetpan converts "\n" to CRLF and dot-stuffs the DATA for us.  The
 * server's reply text goes into error messages only after control
 * characters are replaced, and cut short.
 */
#define _POSIX_C_SOURCE 200809L

#include <libetpan/libetpan.h>
#include <stdio.h>
#include <string.h>

#include "mail/send_int.h"
#include "mail/tls_check.h"

#define REPLY_KEEP 200

/* The last reply's text, printable and bounded. */
static void reply_text(mailsmtp *smtp, char *out, size_t cap)
{
    const char *r = smtp && smtp->response ? smtp->response : "";
    size_t n = 0;
    for (; r[n] && n + 1 < cap && n < REPLY_KEEP; n++) {
        unsigned char c = (unsigned char)r[n];
        out[n] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
    }
    out[n] = '\0';
}

static bool is_stream_error(int r)
{
    return r == MAILSMTP_ERROR_STREAM || r == MAILSMTP_ERROR_SSL ||
           r == MAILSMTP_ERROR_CONNECTION_REFUSED ||
           r == MAILSMTP_ERROR_HOSTNAME;
}

/* Temporary or permanent, from libetpan's code and the reply code. */
static dj_mail_status classify(mailsmtp *smtp, int r)
{
    switch (r) {
    case MAILSMTP_ERROR_AUTH_LOGIN:
    case MAILSMTP_ERROR_AUTH_AUTHENTICATION_FAILED:
    case MAILSMTP_ERROR_AUTH_NOT_SUPPORTED:
    case MAILSMTP_ERROR_AUTH_REQUIRED:
    case MAILSMTP_ERROR_AUTH_TOO_WEAK:
    case MAILSMTP_ERROR_AUTH_ENCRYPTION_REQUIRED:
    case MAILSMTP_ERROR_STARTTLS_NOT_SUPPORTED:
        return DJ_MAIL_PERMFAIL;
    default:
        break;
    }
    if (is_stream_error(r) || !smtp)
        return DJ_MAIL_TEMPFAIL;
    int code = smtp->response_code;
    return code >= 500 && code < 600 ? DJ_MAIL_PERMFAIL : DJ_MAIL_TEMPFAIL;
}

static dj_mail_status smtp_fail(mailsmtp *smtp, int r, const char *what,
                                char *err, size_t errlen)
{
    char reply[REPLY_KEEP + 1];
    reply_text(smtp, reply, sizeof reply);
    return dj_mail_fail(err, errlen, classify(smtp, r), "SMTP %s: %s%s%s",
                        what, mailsmtp_strerror(r), reply[0] ? ": " : "",
                        reply);
}

void dj_send_smtp_close(dj_sender *s, int polite)
{
    mailsmtp *smtp = s->smtp;
    if (!smtp)
        return;
    if (polite)
        mailsmtp_quit(smtp);
    mailsmtp_free(smtp);
    s->smtp = NULL;
}

static int say_hello(mailsmtp *smtp)
{
    int r = mailesmtp_ehlo(smtp);
    if (r == MAILSMTP_ERROR_NOT_IMPLEMENTED)
        r = mailsmtp_helo(smtp);
    return r;
}

/* STARTTLS when the configuration asks for it (and EHLO again after). */
static dj_mail_status maybe_starttls(mailsmtp *smtp, const dj_send_config *c,
                                     const char *host, char *err,
                                     size_t errlen)
{
    dj_tls_mode tls = c->tls;
    bool offered = (smtp->esmtp & MAILSMTP_ESMTP_STARTTLS) != 0;
    if (tls == DJ_TLS_STARTTLS && !offered)
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "SMTP server does not offer STARTTLS");
    if (!offered || (tls != DJ_TLS_STARTTLS && tls != DJ_TLS_STARTTLS_MAY))
        return DJ_MAIL_OK;
    int r = mailsmtp_socket_starttls_with_callback(smtp, dj_tls_sni,
                                                   (void *)host);
    if (r != MAILSMTP_NO_ERROR)
        return smtp_fail(smtp, r, "STARTTLS", err, errlen);
    /* Before EHLO, AUTH or any message: is this the server we meant? */
    dj_mail_status st = dj_tls_check(smtp->stream, "SMTP", host, &c->trust,
                                     err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    r = say_hello(smtp);
    return r == MAILSMTP_NO_ERROR ? DJ_MAIL_OK
                                  : smtp_fail(smtp, r, "EHLO", err, errlen);
}

static dj_mail_status authenticate(mailsmtp *smtp, const dj_send_config *c,
                                   char *err, size_t errlen)
{
    if (!c->user || !c->user[0])
        return DJ_MAIL_OK;
    int type = (smtp->auth & MAILSMTP_AUTH_PLAIN)   ? MAILSMTP_AUTH_PLAIN
               : (smtp->auth & MAILSMTP_AUTH_LOGIN) ? MAILSMTP_AUTH_LOGIN
                                                    : 0;
    if (type == 0)
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "SMTP server offers no AUTH PLAIN or LOGIN%s",
                            smtp->esmtp & MAILSMTP_ESMTP_STARTTLS
                                ? " (it may want STARTTLS first)"
                                : "");
    int r = mailsmtp_auth_type(smtp, c->user, c->password ? c->password : "",
                               type);
    if (r == MAILSMTP_NO_ERROR)
        return DJ_MAIL_OK;
    /* A refused login is the admin's to fix, whatever code came back. */
    dj_mail_status st = smtp_fail(smtp, r, "authentication", err, errlen);
    return r == MAILSMTP_ERROR_AUTH_TEMPORARY_FAILTURE || is_stream_error(r)
               ? st
               : DJ_MAIL_PERMFAIL;
}

static dj_mail_status smtp_connect(dj_sender *s, char *err, size_t errlen)
{
    const dj_send_config *c = &s->cfg;
    const char *host = c->host ? c->host : "127.0.0.1";
    int port = c->port ? c->port : c->tls == DJ_TLS_IMPLICIT ? 465 : 25;
    mailsmtp *smtp = mailsmtp_new(0, NULL);
    if (!smtp)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    s->smtp = smtp;
    mailsmtp_set_timeout(smtp, (time_t)c->timeout);
    int r = c->tls == DJ_TLS_IMPLICIT
                ? mailsmtp_ssl_connect_with_callback(smtp, host,
                                                     (uint16_t)port,
                                                     dj_tls_sni, (void *)host)
                : mailsmtp_socket_connect(smtp, host, (uint16_t)port);
    dj_mail_status st = DJ_MAIL_OK;
    if (r != MAILSMTP_NO_ERROR) {
        char what[300];
        snprintf(what, sizeof what, "connect to %s:%d", host, port);
        st = smtp_fail(smtp, r, what, err, errlen);
    } else if (c->tls == DJ_TLS_IMPLICIT &&
               (st = dj_tls_check(smtp->stream, "SMTP", host, &c->trust, err,
                                  errlen)) != DJ_MAIL_OK) {
        /* the reason is in err */
    } else if ((r = say_hello(smtp)) != MAILSMTP_NO_ERROR) {
        st = smtp_fail(smtp, r, "EHLO", err, errlen);
    } else {
        st = maybe_starttls(smtp, c, host, err, errlen);
        if (st == DJ_MAIL_OK)
            st = authenticate(smtp, c, err, errlen);
    }
    if (st != DJ_MAIL_OK)
        dj_send_smtp_close(s, 0);
    return st;
}

/* RCPT for every recipient still OK; returns how many were accepted. */
static size_t send_rcpts(mailsmtp *smtp, const char *const *rcpts, size_t n,
                         dj_mail_status *status, char *err, size_t errlen,
                         bool *broken)
{
    size_t accepted = 0;
    for (size_t i = 0; i < n && !*broken; i++) {
        if (status[i] != DJ_MAIL_OK)
            continue;
        int r = mailsmtp_rcpt(smtp, rcpts[i]);
        if (r == MAILSMTP_NO_ERROR) {
            accepted++;
            continue;
        }
        char what[300];
        snprintf(what, sizeof what, "recipient %s refused", rcpts[i]);
        status[i] = smtp_fail(smtp, r, what, err, errlen);
        *broken = is_stream_error(r);
    }
    if (*broken) { /* nobody got anything */
        for (size_t i = 0; i < n; i++) {
            if (status[i] == DJ_MAIL_OK)
                status[i] = DJ_MAIL_TEMPFAIL;
        }
        return 0;
    }
    return accepted;
}

/* The outcome when no recipient was accepted. */
static dj_mail_status none_accepted(const dj_mail_status *status, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (status[i] == DJ_MAIL_TEMPFAIL)
            return DJ_MAIL_TEMPFAIL;
    }
    return DJ_MAIL_PERMFAIL;
}

static void fail_accepted(dj_mail_status *status, size_t n, dj_mail_status st)
{
    for (size_t i = 0; i < n; i++) {
        if (status[i] == DJ_MAIL_OK)
            status[i] = st;
    }
}

/*
 * One transaction on an open connection.  *broken: the stream failed;
 * only a failure on MAIL (nothing of the message sent yet) is safe to
 * retry, and that is when *broken is 2.
 */
static dj_mail_status transaction(dj_sender *s, const char *msg, size_t len,
                                  const char *from, const char *const *rcpts,
                                  size_t n, dj_mail_status *status,
                                  char *err, size_t errlen, int *broken)
{
    mailsmtp *smtp = s->smtp;
    bool lost = false;
    int r = mailsmtp_mail(smtp, from);
    if (r != MAILSMTP_NO_ERROR) {
        *broken = is_stream_error(r) ? 2 : 0;
        dj_mail_status st = smtp_fail(smtp, r, "MAIL FROM refused", err,
                                      errlen);
        if (!*broken)
            mailsmtp_reset(smtp);
        fail_accepted(status, n, st);
        return st;
    }
    if (send_rcpts(smtp, rcpts, n, status, err, errlen, &lost) == 0) {
        *broken = lost;
        if (!lost)
            mailsmtp_reset(smtp);
        return none_accepted(status, n);
    }
    r = mailsmtp_data(smtp);
    if (r == MAILSMTP_NO_ERROR)
        r = mailsmtp_data_message(smtp, msg, len);
    if (r != MAILSMTP_NO_ERROR) {
        *broken = is_stream_error(r);
        dj_mail_status st = smtp_fail(smtp, r, "DATA refused", err, errlen);
        fail_accepted(status, n, st);
        return st;
    }
    return DJ_MAIL_OK;
}

dj_mail_status dj_send_smtp(dj_sender *s, const char *msg, size_t len,
                            const char *from, const char *const *rcpts,
                            size_t nrcpt, dj_mail_status *rcpt_status,
                            char *err, size_t errlen)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        bool reused = s->smtp != NULL;
        int broken = 0;
        if (!reused) {
            dj_mail_status st = smtp_connect(s, err, errlen);
            /* Refused before any message: the server's fault or the
             * configuration's, never the message's. */
            if (st == DJ_MAIL_PERMFAIL)
                st = DJ_MAIL_UNUSABLE;
            if (st != DJ_MAIL_OK) {
                fail_accepted(rcpt_status, nrcpt, st);
                return st;
            }
        }
        dj_mail_status st = transaction(s, msg, len, from, rcpts, nrcpt,
                                        rcpt_status, err, errlen, &broken);
        if (broken)
            dj_send_smtp_close(s, 0);
        /* An idle connection the server dropped: once more, afresh. */
        if (!(broken == 2 && reused))
            return st;
        for (size_t i = 0; i < nrcpt; i++) {
            if (rcpt_status[i] == DJ_MAIL_TEMPFAIL)
                rcpt_status[i] = DJ_MAIL_OK;
        }
    }
    return DJ_MAIL_TEMPFAIL; /* not reached: the second try is fresh */
}
