/* SPDX-License-Identifier: MIT */
/*
 * djmail.c — a small command-line front to the mail transports, so that
 * tests/scripts/mail-servers.sh can drive them against real servers:
 *
 *   djmail send   TRANSPORT --from A --to A[,A...] [--subject S]
 *                 [--name N] [--body TEXT] [--repeat N]
 *                                              compose (compose.h), send
 *   djmail rawsend TRANSPORT --from A --to A[,A...]   message on stdin
 *   djmail list    SOURCE                       ids, one per line
 *   djmail read    SOURCE ID [--max N]          raw bytes to stdout
 *   djmail confirm SOURCE ID
 *   djmail quarantine SOURCE ID  (move a message aside, as judged does)
 *   djmail wait    SOURCE --ms N                "woken" or "timeout"
 *
 * TRANSPORT: --smtp HOST:PORT [--user U --password P] [TLS]
 *            | --sendmail PROG | --outbox DIR
 * SOURCE:    --imap HOST:PORT | --pop3 HOST:PORT  (--user U --password P
 *            [TLS] [--expunge] [--isolate [--probe]])  | --maildir DIR
 *            --isolate: through the restricted reader process, as judged
 *            reads (fetch_child.c); --probe: that reader, once
 *            restricted, tries to open /etc/hostname and to make a
 *            socket and says on stderr what happened
 * TLS:       --tls MODE [--tls-ca FILE | --insecure]  (the server's
 *            certificate is checked against FILE, else the system's CAs,
 *            unless --insecure)
 *
 * Exit status: 0 ok, 75 temporary failure, 77 permanent failure (or a
 * server refused before any message), 3 gone,
 * 2 usage; the reason goes to stderr.  Each run is one session, so the
 * script can check what survives a disconnect (an unconfirmed message is
 * listed again; POP3 DELE takes effect at QUIT).
 */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/compose.h"
#include "mail/fetch.h"
#include "mail/send.h"

#define MAX_TO 16

typedef struct opts {
    const char *cmd, *id;
    const char *smtp, *sendmail, *outbox, *imap, *pop3, *maildir;
    const char *user, *password, *tls, *from, *to, *subject, *name, *body;
    const char *tls_ca;
    long max, ms, repeat;
    bool expunge, insecure, isolate, probe;
} opts;

static int usage(void)
{
    fprintf(stderr, "usage: djmail send|rawsend|list|read|confirm|quarantine|wait "
                    "[options] (see djmail.c)\n");
    return 2;
}

static int exit_code(dj_mail_status st)
{
    switch (st) {
    case DJ_MAIL_OK:
        return 0;
    case DJ_MAIL_TEMPFAIL:
        return 75;
    case DJ_MAIL_PERMFAIL:
    case DJ_MAIL_UNUSABLE: /* the server refused us before any message */
        return 77;
    case DJ_MAIL_GONE:
        return 3;
    }
    return 1;
}

/* Option name -> the field it sets (NULL: not a string option). */
static const char **string_opt(opts *o, const char *name)
{
    static const char *const names[] = {
        "--smtp", "--sendmail", "--outbox", "--imap", "--pop3",
        "--maildir", "--user", "--password", "--tls", "--tls-ca", "--from",
        "--to", "--subject", "--name", "--body"};
    const char **fields[] = {&o->smtp, &o->sendmail, &o->outbox, &o->imap,
                             &o->pop3, &o->maildir, &o->user, &o->password,
                             &o->tls, &o->tls_ca, &o->from, &o->to,
                             &o->subject,
                             &o->name, &o->body};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i]) == 0)
            return fields[i];
    }
    return NULL;
}

static int parse(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    if (argc < 2)
        return -1;
    o->cmd = argv[1];
    for (int i = 2; i < argc; i++) {
        const char **field = string_opt(o, argv[i]);
        if (strcmp(argv[i], "--expunge") == 0)
            o->expunge = true;
        else if (strcmp(argv[i], "--insecure") == 0)
            o->insecure = true;
        else if (strcmp(argv[i], "--isolate") == 0)
            o->isolate = true;
        else if (strcmp(argv[i], "--probe") == 0)
            o->probe = true;
        else if (field && i + 1 < argc)
            *field = argv[++i];
        else if (strcmp(argv[i], "--max") == 0 && i + 1 < argc)
            o->max = atol(argv[++i]);
        else if (strcmp(argv[i], "--ms") == 0 && i + 1 < argc)
            o->ms = atol(argv[++i]);
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            o->repeat = atol(argv[++i]);
        else if (argv[i][0] != '-' && !o->id)
            o->id = argv[i];
        else
            return -1;
    }
    return 0;
}

/* "host:port" -> host (in buf) and port. */
static int host_port(const char *hp, char *buf, size_t cap, int *port)
{
    const char *colon = hp ? strrchr(hp, ':') : NULL;
    if (!colon || (size_t)(colon - hp) >= cap)
        return -1;
    memcpy(buf, hp, (size_t)(colon - hp));
    buf[colon - hp] = '\0';
    *port = atoi(colon + 1);
    return 0;
}

static dj_tls_mode tls_of(const opts *o)
{
    dj_tls_mode m = DJ_TLS_NONE;
    if (o->tls && dj_tls_mode_parse(o->tls, &m) != 0)
        fprintf(stderr, "djmail: unknown TLS mode %s\n", o->tls);
    return m;
}

static dj_sender *open_sender(const opts *o, char *host, size_t cap)
{
    char err[DJ_MAIL_ERR_MAX];
    dj_send_config c = {.timeout = 20};
    if (o->smtp) {
        c.kind = DJ_SEND_SMTP;
        if (host_port(o->smtp, host, cap, &c.port) != 0)
            return NULL;
        c.host = host;
        c.tls = tls_of(o);
        c.trust.insecure = o->insecure;
        c.trust.ca_file = o->tls_ca;
        c.user = o->user;
        c.password = o->password;
    } else if (o->sendmail) {
        c.kind = DJ_SEND_SENDMAIL;
        c.sendmail = o->sendmail;
    } else if (o->outbox) {
        c.kind = DJ_SEND_MAILDIR;
        c.maildir = o->outbox;
    } else {
        return NULL;
    }
    dj_sender *s = dj_sender_open(&c, err, sizeof err);
    if (!s)
        fprintf(stderr, "djmail: %s\n", err);
    return s;
}

static size_t split_to(char *list, const char **out)
{
    size_t n = 0;
    for (char *tok = strtok(list, ","); tok && n < MAX_TO;
         tok = strtok(NULL, ","))
        out[n++] = tok;
    return n;
}

static int read_stdin(dj_buf *b)
{
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, stdin)) > 0)
        dj_buf_append_n(b, chunk, got);
    return dj_buf_ok(b) ? 0 : -1;
}

static dj_mail_status compose_from(const opts *o, const char *const *to,
                                   size_t nto, dj_buf *msg)
{
    char err[DJ_MAIL_ERR_MAX];
    dj_compose_addr rcpt[MAX_TO];
    for (size_t i = 0; i < nto; i++) {
        rcpt[i].name = i == 0 ? o->name : NULL;
        rcpt[i].addr = to[i];
    }
    dj_compose c = {.from = {"Diplomacy Judge", o->from},
                    .to = rcpt,
                    .nto = nto,
                    .subject = o->subject,
                    .x_loop = o->from,
                    .auto_submitted = DJ_AUTO_GENERATED,
                    .body = o->body};
    dj_mail_status st = dj_compose_message(&c, msg, NULL, err, sizeof err);
    if (st != DJ_MAIL_OK)
        fprintf(stderr, "djmail: compose: %s\n", err);
    return st;
}

static int cmd_send(const opts *o, bool raw)
{
    char host[256], err[DJ_MAIL_ERR_MAX], list[1024];
    const char *to[MAX_TO];
    if (!o->from || !o->to)
        return usage();
    snprintf(list, sizeof list, "%s", o->to);
    size_t nto = split_to(list, to);
    dj_buf msg;
    dj_buf_init(&msg);
    dj_mail_status st = raw ? (read_stdin(&msg) == 0 ? DJ_MAIL_OK
                                                     : DJ_MAIL_TEMPFAIL)
                            : compose_from(o, to, nto, &msg);
    dj_sender *s = st == DJ_MAIL_OK ? open_sender(o, host, sizeof host)
                                    : NULL;
    if (st == DJ_MAIL_OK && !s)
        st = DJ_MAIL_PERMFAIL;
    dj_mail_status rs[MAX_TO];
    /* --repeat N: N messages over one connection (kept open). */
    for (long k = 0; s && st == DJ_MAIL_OK && k < (o->repeat ? o->repeat : 1);
         k++)
        st = dj_sender_send(s, msg.data, msg.len, o->from, to, nto, rs, err,
                            sizeof err);
    if (s && st != DJ_MAIL_OK)
        fprintf(stderr, "djmail: send: %s\n", err);
    for (size_t i = 0; s && i < nto; i++)
        printf("%s %s\n", to[i], dj_mail_status_name(rs[i]));
    dj_sender_close(s);
    dj_buf_free(&msg);
    return exit_code(st);
}

static dj_fetcher *open_fetcher(const opts *o, char *host, size_t cap)
{
    char err[DJ_MAIL_ERR_MAX];
    dj_fetch_config c = {.timeout = 20, .expunge = o->expunge};
    const char *hp = o->imap ? o->imap : o->pop3;
    if (hp) {
        c.kind = o->imap ? DJ_FETCH_IMAP : DJ_FETCH_POP3;
        if (host_port(hp, host, cap, &c.port) != 0)
            return NULL;
        c.host = host;
        c.tls = tls_of(o);
        c.trust.insecure = o->insecure;
        c.trust.ca_file = o->tls_ca;
        c.user = o->user;
        c.password = o->password;
        c.isolate = o->isolate;
        if (o->probe)
            c.child_restricted = dj_fetch_probe;
    } else if (o->maildir) {
        c.kind = DJ_FETCH_MAILDIR;
        c.maildir = o->maildir;
    } else {
        return NULL;
    }
    dj_fetcher *f = dj_fetch_open(&c, err, sizeof err);
    if (!f)
        fprintf(stderr, "djmail: %s\n", err);
    return f;
}

static dj_mail_status run_fetch(const opts *o, dj_fetcher *f, char *err,
                                size_t errlen)
{
    if (strcmp(o->cmd, "list") == 0) {
        dj_fetch_item *items;
        size_t n;
        dj_mail_status st = dj_fetch_list(f, 0, &items, &n, err, errlen);
        for (size_t i = 0; i < n; i++)
            printf("%s %llu\n", items[i].id, (unsigned long long)items[i].size);
        free(items);
        return st;
    }
    if (strcmp(o->cmd, "wait") == 0) {
        bool woken = false;
        dj_mail_status st =
            dj_fetch_wait(f, (int)o->ms, &woken, err, errlen);
        if (st == DJ_MAIL_OK)
            puts(woken ? "woken" : "timeout");
        return st;
    }
    if (!o->id)
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL, "no message id");
    if (strcmp(o->cmd, "confirm") == 0)
        return dj_fetch_confirm(f, o->id, err, errlen);
    if (strcmp(o->cmd, "quarantine") == 0)
        return dj_fetch_quarantine(f, o->id, err, errlen);
    dj_buf b;
    bool trunc = false;
    dj_buf_init(&b);
    dj_mail_status st =
        dj_fetch_read(f, o->id, (size_t)o->max, &b, &trunc, err, errlen);
    if (st == DJ_MAIL_OK) {
        fwrite(b.data, 1, b.len, stdout);
        if (trunc)
            fprintf(stderr, "djmail: truncated\n");
    }
    dj_buf_free(&b);
    return st;
}

static int cmd_fetch(const opts *o)
{
    char host[256], err[DJ_MAIL_ERR_MAX] = "";
    dj_fetcher *f = open_fetcher(o, host, sizeof host);
    if (!f)
        return exit_code(DJ_MAIL_PERMFAIL);
    dj_mail_status st = run_fetch(o, f, err, sizeof err);
    if (st != DJ_MAIL_OK)
        fprintf(stderr, "djmail: %s: %s\n", o->cmd, err);
    dj_fetch_close(f);
    return exit_code(st);
}

int main(int argc, char **argv)
{
    opts o;
    signal(SIGPIPE, SIG_IGN); /* a dropped connection is an error, not death */
    if (parse(argc, argv, &o) != 0)
        return usage();
    if (strcmp(o.cmd, "send") == 0 || strcmp(o.cmd, "rawsend") == 0)
        return cmd_send(&o, strcmp(o.cmd, "rawsend") == 0);
    if (strcmp(o.cmd, "list") == 0 || strcmp(o.cmd, "read") == 0 ||
        strcmp(o.cmd, "confirm") == 0 || strcmp(o.cmd, "wait") == 0 ||
        strcmp(o.cmd, "quarantine") == 0)
        return cmd_fetch(&o);
    return usage();
}
