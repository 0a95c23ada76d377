/* SPDX-License-Identifier: MIT */
/*
 * fetch_pop3.c — the POP3 reader: connect (plain, STLS or implicit TLS),
 * USER/PASS and QUIT through libetpan; LIST+UIDL for the messages, RETR to
 * read (TOP 0 — the header only — when a message is over the size limit,
 * which is all a polite refusal needs) and DELE to confirm through our own
 * bounded reader (pop3_wire.h says why).
 *
 * POP3 has no "seen" flag and a session sees a snapshot of the maildrop:
 * DELEs are applied when the session ends with QUIT, and a session that
 * dies keeps every message.  So confirmation is durable only after
 * the session ends with QUIT; it is ended before each wait,
 * and the next list starts a fresh one that also sees new mail.
 * Ids are UIDLs (stable across sessions); a server without UIDL is
 * refused, since message numbers change between sessions.
 */
#define _POSIX_C_SOURCE 200809L

#include <libetpan/libetpan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/fetch_int.h"
#include "mail/pop3_wire.h"
#include "mail/tls_check.h"

#define REPLY_KEEP 200

static mailpop3 *session_of(dj_fetcher *f)
{
    return f->pop3;
}

static void pop3_hang_up(dj_fetcher *f, bool polite)
{
    if (f->pop3_tab) {
        dj_pop3_table_free(f->pop3_tab);
        free(f->pop3_tab);
        f->pop3_tab = NULL;
    }
    mailpop3 *pop = session_of(f);
    if (!pop)
        return;
    if (polite)
        mailpop3_quit(pop); /* applies the DELEs */
    if (pop->pop3_stream) {
        /* Hang up without QUIT: mailpop3_free would say QUIT itself, and
         * libetpan reads before its line buffer when the server has
         * already gone (valgrind, on a replayed fuzz finding). */
        mailstream_close(pop->pop3_stream);
        pop->pop3_stream = NULL;
        free(pop->pop3_timestamp); /* QUIT's to free, as the greeting's */
        pop->pop3_timestamp = NULL;
    }
    mailpop3_free(pop);
    f->pop3 = NULL;
}

static dj_mail_status pop3_fail(dj_fetcher *f, int r, const char *what,
                                char *err, size_t errlen)
{
    mailpop3 *pop = session_of(f);
    char reply[REPLY_KEEP + 1] = "";
    const char *text = pop && pop->pop3_response ? pop->pop3_response : "";
    size_t n = 0;
    for (; text[n] && n < REPLY_KEEP; n++)
        reply[n] = (unsigned char)text[n] < 0x20 ? ' ' : text[n];
    reply[n] = '\0';
    bool auth = r == MAILPOP3_ERROR_BAD_USER ||
                r == MAILPOP3_ERROR_BAD_PASSWORD ||
                r == MAILPOP3_ERROR_DENIED;
    dj_mail_status st = auth || r == MAILPOP3_ERROR_STLS_NOT_SUPPORTED
                            ? DJ_MAIL_PERMFAIL
                            : DJ_MAIL_TEMPFAIL;
    if (r != MAILPOP3_ERROR_NO_SUCH_MESSAGE)
        pop3_hang_up(f, false); /* without QUIT: DELEs roll back */
    return dj_mail_fail(err, errlen, st, "POP3 %s failed%s (libetpan error %d)%s%s",
                        what, auth ? ": login refused" : "", r,
                        reply[0] ? ": " : "", reply);
}

/* Does the server list capability name (CAPA)? */
static bool has_capa(mailpop3 *pop, const char *name)
{
    clist *caps = NULL;
    bool found = false;
    if (mailpop3_capa(pop, &caps) != MAILPOP3_NO_ERROR || !caps)
        return false;
    for (clistiter *it = clist_begin(caps); it; it = clist_next(it)) {
        struct mailpop3_capa *c = clist_content(it);
        if (c->cap_name && strcmp(c->cap_name, name) == 0)
            found = true;
    }
    mailpop3_capa_resp_free(caps);
    return found;
}

/* Before USER and PASS go out: is this the server we meant? */
static dj_mail_status pop3_verify(dj_fetcher *f, char *err, size_t errlen)
{
    dj_mail_status st = dj_tls_check(session_of(f)->pop3_stream, "POP3",
                                     dj_fetch_host(f), &f->cfg.trust, err,
                                     errlen);
    if (st != DJ_MAIL_OK)
        pop3_hang_up(f, false);
    return st;
}

static dj_mail_status pop3_stls(dj_fetcher *f, char *err, size_t errlen)
{
    dj_tls_mode tls = f->cfg.tls;
    if (tls != DJ_TLS_STARTTLS && tls != DJ_TLS_STARTTLS_MAY)
        return DJ_MAIL_OK;
    if (!has_capa(session_of(f), "STLS")) {
        if (tls == DJ_TLS_STARTTLS_MAY)
            return DJ_MAIL_OK;
        pop3_hang_up(f, true);
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "POP3 server does not offer STLS");
    }
    int r = mailpop3_socket_starttls_with_callback(session_of(f), dj_tls_sni,
                                                   (void *)dj_fetch_host(f));
    return r == MAILPOP3_NO_ERROR ? pop3_verify(f, err, errlen)
                                  : pop3_fail(f, r, "STLS", err, errlen);
}

static dj_mail_status pop3_connect(dj_fetcher *f, char *err, size_t errlen)
{
    if (f->pop3)
        return DJ_MAIL_OK;
    const char *host = dj_fetch_host(f);
    int port = f->cfg.port ? f->cfg.port
               : f->cfg.tls == DJ_TLS_IMPLICIT ? 995
                                               : 110;
    mailpop3 *pop = mailpop3_new(0, NULL);
    if (!pop)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    f->pop3 = pop;
    mailpop3_set_timeout(pop, (time_t)f->cfg.timeout);
    int r = f->cfg.tls == DJ_TLS_IMPLICIT
                ? mailpop3_ssl_connect_with_callback(pop, host, (uint16_t)port,
                                                     dj_tls_sni, (void *)host)
                : mailpop3_socket_connect(pop, host, (uint16_t)port);
    if (r != MAILPOP3_NO_ERROR) {
        pop3_hang_up(f, false);
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                            "cannot connect to POP3 server %s:%d "
                            "(libetpan error %d)",
                            host, port, r);
    }
    dj_mail_status st = f->cfg.tls == DJ_TLS_IMPLICIT
                            ? pop3_verify(f, err, errlen)
                            : pop3_stls(f, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    r = mailpop3_user(pop, f->cfg.user);
    if (r == MAILPOP3_NO_ERROR)
        r = mailpop3_pass(pop, f->cfg.password);
    if (r != MAILPOP3_NO_ERROR)
        return pop3_fail(f, r, "login", err, errlen);
    return DJ_MAIL_OK;
}

/* A wire failure as a status: the session is dropped unless the server
 * only refused (-ERR) one command. */
static dj_mail_status wire_fail(dj_fetcher *f, dj_pop3_result r,
                                const char *what, const char *reply,
                                char *err, size_t errlen)
{
    if (r == DJ_POP3_MEMORY)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    if (r != DJ_POP3_REFUSED)
        pop3_hang_up(f, false); /* without QUIT: DELEs roll back */
    return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "POP3 %s failed%s%s%s",
                        what,
                        r == DJ_POP3_STREAM     ? " (connection lost)"
                        : r == DJ_POP3_PROTOCOL ? " (the server broke the "
                                                  "protocol)"
                                                : "",
                        reply[0] ? ": " : "", reply);
}

/* The session's message table (LIST + UIDL), fetched once per session. */
static dj_mail_status message_table(dj_fetcher *f, dj_pop3_table **tab,
                                    char *err, size_t errlen)
{
    dj_mail_status st = pop3_connect(f, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    if (!f->pop3_tab) {
        dj_pop3_table *t = calloc(1, sizeof *t);
        if (!t)
            return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                                "out of memory");
        char reply[DJ_POP3_REPLY_MAX + 1] = "";
        dj_pop3_result r = dj_pop3_wire_list(session_of(f), t, reply,
                                             sizeof reply);
        if (r != DJ_POP3_OK) {
            free(t);
            return wire_fail(f, r, "LIST", reply, err, errlen);
        }
        f->pop3_tab = t;
    }
    *tab = f->pop3_tab;
    return DJ_MAIL_OK;
}

static dj_mail_status pop3_list(dj_fetcher *f, dj_fetch_items *l, char *err,
                                size_t errlen)
{
    dj_pop3_table *tab;
    dj_mail_status st = message_table(f, &tab, err, errlen);
    for (size_t i = 0; st == DJ_MAIL_OK && i < tab->n; i++) {
        const dj_pop3_msg *m = &tab->v[i];
        if (m->deleted)
            continue;
        if (!m->uidl[0])
            return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                                "POP3 server does not support UIDL");
        if (!dj_fetch_items_push(l, m->uidl, m->size))
            st = dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    }
    return st;
}

/* The live (not deleted) message with this UIDL, or NULL. */
static dj_pop3_msg *find_uidl(dj_pop3_table *tab, const char *id)
{
    for (size_t i = 0; i < tab->n; i++) {
        dj_pop3_msg *m = &tab->v[i];
        if (!m->deleted && m->uidl[0] && strcmp(m->uidl, id) == 0)
            return m;
    }
    return NULL;
}

static dj_mail_status lookup(dj_fetcher *f, const char *id, dj_pop3_msg **m,
                             char *err, size_t errlen)
{
    dj_pop3_table *tab;
    dj_mail_status st = message_table(f, &tab, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    *m = find_uidl(tab, id);
    if (!*m)
        return dj_mail_fail(err, errlen, DJ_MAIL_GONE, "no POP3 message %s",
                            id);
    return DJ_MAIL_OK;
}

static dj_mail_status pop3_read(dj_fetcher *f, const char *id, size_t max,
                                dj_buf *out, bool *truncated, char *err,
                                size_t errlen)
{
    dj_pop3_msg *m;
    dj_mail_status st = lookup(f, id, &m, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    bool header_only = max && m->size > max;
    char reply[DJ_POP3_REPLY_MAX + 1] = "";
    dj_pop3_result r = dj_pop3_wire_read(session_of(f), m->num, header_only,
                                         max, out, truncated, reply,
                                         sizeof reply);
    if (r != DJ_POP3_OK)
        return wire_fail(f, r, header_only ? "TOP" : "RETR", reply, err,
                         errlen);
    *truncated = *truncated || header_only;
    return DJ_MAIL_OK;
}

static dj_mail_status pop3_confirm(dj_fetcher *f, const char *id, char *err,
                                   size_t errlen)
{
    dj_pop3_msg *m;
    dj_mail_status st = lookup(f, id, &m, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    char reply[DJ_POP3_REPLY_MAX + 1] = "";
    dj_pop3_result r = dj_pop3_wire_dele(session_of(f), m->num, reply,
                                         sizeof reply);
    if (r != DJ_POP3_OK)
        return wire_fail(f, r, "DELE", reply, err, errlen);
    m->deleted = true;
    return DJ_MAIL_OK;
}

static dj_mail_status pop3_open(dj_fetcher *f, char *err, size_t errlen)
{
    return dj_fetch_need_login(f, err, errlen);
}

/* Left in the maildrop (POP3 has nowhere else); the caller skips it. */
static dj_mail_status pop3_quarantine(dj_fetcher *f, const char *id,
                                      char *err, size_t errlen)
{
    (void)f, (void)id, (void)err, (void)errlen;
    return DJ_MAIL_OK;
}

/* A POP3 session sees a snapshot: end it (applying the DELEs) so the next
 * list starts a fresh one that sees new mail. */
static dj_mail_status pop3_wait(dj_fetcher *f, int timeout_ms, bool *woken,
                                char *err, size_t errlen)
{
    (void)woken, (void)err, (void)errlen;
    pop3_hang_up(f, true);
    dj_fetch_sleep_ms(timeout_ms);
    return DJ_MAIL_OK;
}

static void pop3_quit(dj_fetcher *f)
{
    pop3_hang_up(f, true);
}

const dj_fetch_ops dj_fetch_pop3_ops = {
    .name = "POP3",
    .open = pop3_open,
    .list = pop3_list,
    .read = pop3_read,
    .confirm = pop3_confirm,
    .quarantine = pop3_quarantine,
    .wait = pop3_wait,
    .connect = pop3_connect,
    .disconnect = pop3_quit,
    .close = pop3_quit,
};
