/* SPDX-License-Identifier: MIT */
/*
 * test_mail_transport.c — the mail transports without a mail server:
 * Maildir delivery, listing, reading, marking, and what a crash leaves
 * behind (a half-written tmp/ file, a message linked but not yet
 * unlinked); the Maildir and sendmail senders (sendmail played by small
 * shell scripts that record what they got and exit with a chosen status);
 * the network transports' clear failure when nothing listens; and the
 * composer: header injection attempts through every field, RFC 2047
 * encoded-words that decode back to the input, folding, quoted-printable
 * bodies, line limits.  tests/scripts/mail-servers.sh covers the same
 * code against real Postfix and Dovecot.
 */
#define _XOPEN_SOURCE 700

#include <arpa/inet.h>
#include <ftw.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mail/compose.h"
#include "mail/fetch.h"
#include "mail/maildir.h"
#include "mail/pop3_wire.h"
#include "mail/send.h"
#include "testlib.h"

static char root[256];

static int remove_entry(const char *p, const struct stat *sb, int flag,
                        struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void path_in(char *out, size_t cap, const char *rel)
{
    snprintf(out, cap, "%s/%s", root, rel);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static size_t count_files(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    if (p) {
        if (fscanf(p, "%zu", &n) != 1)
            n = 0;
        pclose(p);
    }
    return n;
}

/* ---- Maildir --------------------------------------------------------- */

static void test_maildir_basics(void)
{
    char path[512], err[DJ_MAIL_ERR_MAX];
    dj_maildir md;
    path_in(path, sizeof path, "box");
    CHECK(dj_maildir_open(&md, path, false, err, sizeof err) ==
          DJ_MAIL_PERMFAIL);
    CHECK(dj_maildir_open(&md, path, true, err, sizeof err) == DJ_MAIL_OK);

    char ids[3][DJ_MAILDIR_ID_MAX];
    const char *msgs[3] = {"Subject: one\n\nfirst\n", "Subject: two\n\n2\n",
                           "Subject: three\n\nthird one\n"};
    for (int i = 0; i < 3; i++)
        CHECK(dj_maildir_deliver(&md, msgs[i], strlen(msgs[i]), ids[i], err,
                                 sizeof err) == DJ_MAIL_OK);
    CHECK(strcmp(ids[0], ids[1]) != 0 && strcmp(ids[1], ids[2]) != 0);
    CHECK(dj_maildir_id_ok(ids[0]));

    dj_maildir_entry *e;
    size_t n;
    CHECK(dj_maildir_list(&md, 0, &e, &n, err, sizeof err) == DJ_MAIL_OK);
    CHECK(n == 3);
    for (size_t i = 0; i < n; i++) { /* every id is one we delivered */
        bool known = false;
        for (int j = 0; j < 3; j++)
            known = known || strcmp(e[i].id, ids[j]) == 0;
        CHECK(known);
    }
    free(e);
    CHECK(dj_maildir_list(&md, 2, &e, &n, err, sizeof err) == DJ_MAIL_OK);
    CHECK(n == 2);
    free(e);

    dj_buf b;
    bool trunc = true;
    dj_buf_init(&b);
    CHECK(dj_maildir_read(&md, ids[1], 0, &b, &trunc, err, sizeof err) ==
          DJ_MAIL_OK);
    CHECK_STR(b.data, msgs[1]);
    CHECK(!trunc);
    CHECK(dj_maildir_read(&md, ids[2], 10, &b, &trunc, err, sizeof err) ==
          DJ_MAIL_OK);
    CHECK(b.len == 10 && trunc);
    CHECK(dj_maildir_read(&md, ids[2], strlen(msgs[2]), &b, &trunc, err,
                          sizeof err) == DJ_MAIL_OK);
    CHECK(b.len == strlen(msgs[2]) && !trunc);

    /* Marking: gone from the list, still readable, idempotent. */
    CHECK(dj_maildir_mark_done(&md, ids[0], err, sizeof err) == DJ_MAIL_OK);
    CHECK(dj_maildir_mark_done(&md, ids[0], err, sizeof err) == DJ_MAIL_OK);
    CHECK(dj_maildir_list(&md, 0, &e, &n, err, sizeof err) == DJ_MAIL_OK);
    CHECK(n == 2);
    for (size_t i = 0; i < n; i++)
        CHECK(strcmp(e[i].id, ids[0]) != 0);
    free(e);
    char done[DJ_MAILDIR_ID_MAX + 600];
    snprintf(done, sizeof done, "%s/cur/%s:2,S", path, ids[0]);
    CHECK(access(done, F_OK) == 0);
    CHECK(dj_maildir_read(&md, ids[0], 0, &b, &trunc, err, sizeof err) ==
          DJ_MAIL_OK);
    CHECK_STR(b.data, msgs[0]);

    /* Unknown and hostile ids. */
    CHECK(dj_maildir_mark_done(&md, "1234.nope", err, sizeof err) ==
          DJ_MAIL_GONE);
    CHECK(dj_maildir_read(&md, "../../etc/passwd", 0, &b, &trunc, err,
                          sizeof err) == DJ_MAIL_PERMFAIL);
    CHECK(dj_maildir_mark_done(&md, ".hidden", err, sizeof err) ==
          DJ_MAIL_PERMFAIL);
    CHECK(!dj_maildir_id_ok("a/b") && !dj_maildir_id_ok("") &&
          !dj_maildir_id_ok("x:2,S") && !dj_maildir_id_ok("a\nb"));
    dj_buf_free(&b);
}

/* Messages other programs left: flags in cur/, dotfiles, directories. */
/* A backlog larger than one look (issue 9): the oldest messages come first
 * however the directory lists them, by the delivery time in their names. */
static void test_maildir_backlog_order(void)
{
    char path[512], file[700], err[DJ_MAIL_ERR_MAX];
    dj_maildir md;
    path_in(path, sizeof path, "backlog");
    CHECK(dj_maildir_open(&md, path, true, err, sizeof err) == DJ_MAIL_OK);
    enum { N = 2000 };
    /* Written newest first, so that directory order is not arrival order;
     * file times all the same, names carry the delivery times. */
    for (int i = N - 1; i >= 0; i--) {
        snprintf(file, sizeof file, "%s/new/%d.M%dP1.backlog", path,
                 1700000000 + i, i);
        FILE *f = fopen(file, "w");
        CHECK(f != NULL);
        if (f) {
            fprintf(f, "Subject: %d\n\nbody %d\n", i, i);
            fclose(f);
        }
    }
    dj_maildir_entry *e;
    size_t n;
    CHECK(dj_maildir_list(&md, 100, &e, &n, err, sizeof err) == DJ_MAIL_OK);
    CHECK(n == 100);
    bool in_order = true;
    for (size_t i = 0; i < n; i++) {
        char want[64];
        snprintf(want, sizeof want, "%d.M%zuP1.backlog", 1700000000 + (int)i,
                 i);
        in_order = in_order && strcmp(e[i].id, want) == 0;
    }
    CHECK(in_order);
    free(e);
    CHECK(dj_maildir_list(&md, 0, &e, &n, err, sizeof err) == DJ_MAIL_OK);
    CHECK(n == N);
    CHECK(n == N && strcmp(e[N - 1].id, "1700001999.M1999P1.backlog") == 0);
    free(e);
}

static void test_maildir_foreign(void)
{
    char path[512], p[700], err[DJ_MAIL_ERR_MAX];
    dj_maildir md;
    path_in(path, sizeof path, "foreign");
    CHECK(dj_maildir_open(&md, path, true, err, sizeof err) == DJ_MAIL_OK);
    snprintf(p, sizeof p, "%s/cur/100.flagged:2,F", path);
    write_file(p, "Subject: flagged\n\nx\n");
    snprintf(p, sizeof p, "%s/cur/101.read:2,RS", path);
    write_file(p, "Subject: read\n\nx\n");
    snprintf(p, sizeof p, "%s/new/.hidden", path);
    write_file(p, "x");
    snprintf(p, sizeof p, "%s/new/adir", path);
    mkdir(p, 0700);

    dj_maildir_entry *e;
    size_t n;
    CHECK(dj_maildir_list(&md, 0, &e, &n, err, sizeof err) == DJ_MAIL_OK);
    CHECK(n == 1);
    if (n == 1)
        CHECK_STR(e[0].id, "100.flagged");
    free(e);
    CHECK(dj_maildir_mark_done(&md, "100.flagged", err, sizeof err) ==
          DJ_MAIL_OK);
    snprintf(p, sizeof p, "%s/cur/100.flagged:2,FS", path);
    CHECK(access(p, F_OK) == 0);
    CHECK(dj_maildir_list(&md, 0, &e, &n, err, sizeof err) == DJ_MAIL_OK);
    CHECK(n == 0 && e == NULL);
}

/* What a crash at each point of delivery leaves, and how it is handled. */
static void test_maildir_crash(void)
{
    char path[512], p[700], err[DJ_MAIL_ERR_MAX];
    dj_maildir md;
    path_in(path, sizeof path, "crash");
    CHECK(dj_maildir_open(&md, path, true, err, sizeof err) == DJ_MAIL_OK);

    /* Crash while writing: only a tmp/ file, never listed. */
    snprintf(p, sizeof p, "%s/tmp/1700000000.M1P1R0.host", path);
    write_file(p, "Subject: half");
    /* Crash after link(), before unlink(): the message is in new/ and a
     * second name for it stays in tmp/. */
    const char *whole = "Subject: whole\n\nbody\n";
    char np[700], tp[700];
    snprintf(np, sizeof np, "%s/new/1700000001.M2P2R0.host", path);
    snprintf(tp, sizeof tp, "%s/tmp/1700000001.M2P2R0.host", path);
    write_file(np, whole);
    CHECK(link(np, tp) == 0);

    dj_maildir_entry *e;
    size_t n;
    CHECK(dj_maildir_list(&md, 0, &e, &n, err, sizeof err) == DJ_MAIL_OK);
    CHECK(n == 1);
    if (n == 1)
        CHECK_STR(e[0].id, "1700000001.M2P2R0.host");
    free(e);

    /* Young tmp files are deliveries in progress: kept. */
    int removed = -1;
    CHECK(dj_maildir_clean_tmp(&md, DJ_MAILDIR_TMP_AGE, &removed, err,
                               sizeof err) == DJ_MAIL_OK);
    CHECK(removed == 0);
    snprintf(p, sizeof p, "%s/tmp", path);
    CHECK(count_files(p) == 2);
    /* Old ones are leftovers: removed, and the message is intact. */
    struct timeval old[2] = {{1000, 0}, {1000, 0}};
    snprintf(p, sizeof p, "%s/tmp/1700000000.M1P1R0.host", path);
    utimes(p, old);
    utimes(tp, old);
    CHECK(dj_maildir_clean_tmp(&md, DJ_MAILDIR_TMP_AGE, &removed, err,
                               sizeof err) == DJ_MAIL_OK);
    CHECK(removed == 2);
    snprintf(p, sizeof p, "%s/tmp", path);
    CHECK(count_files(p) == 0);
    dj_buf b;
    dj_buf_init(&b);
    CHECK(dj_maildir_read(&md, "1700000001.M2P2R0.host", 0, &b, NULL, err,
                          sizeof err) == DJ_MAIL_OK);
    CHECK_STR(b.data, whole);
    dj_buf_free(&b);

    /* A delivering process killed at any moment: the message is in
     * new/ whole, or only in tmp/ - never half in new/. */
    for (int round = 0; round < 20; round++) {
        int ready[2];
        if (pipe(ready) != 0)
            break;
        pid_t pid = fork();
        if (pid == 0) {
            static char big[64 * 1024];
            memset(big, 'x', sizeof big);
            memcpy(big, "Subject: big\n\n", 14);
            big[sizeof big - 1] = '\n';
            dj_maildir_deliver(&md, big, sizeof big, NULL, NULL, 0);
            if (write(ready[1], "r", 1) != 1) /* one delivery done */
                _exit(1);
            for (;;)
                dj_maildir_deliver(&md, big, sizeof big, NULL, NULL, 0);
        }
        char c;
        close(ready[1]);
        if (read(ready[0], &c, 1) != 1)
            c = 0;
        close(ready[0]);
        struct timespec ts = {0, (long)(round % 5) * 1000000L};
        nanosleep(&ts, NULL); /* then kill it wherever it is */
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    CHECK(dj_maildir_list(&md, 0, &e, &n, err, sizeof err) == DJ_MAIL_OK);
    size_t whole_ok = 0;
    for (size_t i = 0; i < n; i++)
        whole_ok += e[i].size == 64 * 1024 ||
                    strcmp(e[i].id, "1700000001.M2P2R0.host") == 0;
    CHECK(n > 20 && whole_ok == n);
    free(e);
}

/* ---- senders --------------------------------------------------------- */

static void test_send_maildir(void)
{
    char path[512], err[DJ_MAIL_ERR_MAX];
    path_in(path, sizeof path, "outbox");
    dj_send_config cfg = {.kind = DJ_SEND_MAILDIR, .maildir = path};
    dj_sender *s = dj_sender_open(&cfg, err, sizeof err);
    CHECK(s != NULL);
    if (!s)
        return;
    const char *msg = "Subject: hi\n\nhello\n";
    const char *rcpts[3] = {"p1@example.org", "evil@x.org\nBcc: y@z.org",
                            "p2@example.org"};
    dj_mail_status st[3];
    CHECK(dj_sender_send(s, msg, strlen(msg), "judge@example.org", rcpts, 3,
                         st, err, sizeof err) == DJ_MAIL_OK);
    CHECK(st[0] == DJ_MAIL_OK && st[1] == DJ_MAIL_PERMFAIL &&
          st[2] == DJ_MAIL_OK);
    CHECK(dj_sender_send(s, msg, strlen(msg), "judge@example.org", rcpts + 1,
                         1, NULL, err, sizeof err) == DJ_MAIL_PERMFAIL);
    CHECK(dj_sender_send(s, msg, strlen(msg), "judge@x.org\nBcc: y@z.org",
                         rcpts, 1, NULL, err, sizeof err) == DJ_MAIL_PERMFAIL);
    dj_sender_close(s);

    dj_maildir md;
    dj_maildir_entry *e;
    size_t n;
    dj_buf b;
    dj_buf_init(&b);
    CHECK(dj_maildir_open(&md, path, false, err, sizeof err) == DJ_MAIL_OK);
    CHECK(dj_maildir_list(&md, 0, &e, &n, err, sizeof err) == DJ_MAIL_OK);
    CHECK(n == 1);
    if (n == 1) {
        dj_maildir_read(&md, e[0].id, 0, &b, NULL, err, sizeof err);
        CHECK_STR(b.data, "Return-Path: <judge@example.org>\n"
                          "X-Envelope-To: p1@example.org,\n p2@example.org\n"
                          "Subject: hi\n\nhello\n");
    }
    free(e);
    dj_buf_free(&b);
}

/* A stand-in sendmail: records its arguments and input, exits `code`. */
static void make_script(const char *path, const char *record, int code)
{
    char text[1200];
    snprintf(text, sizeof text,
             "#!/bin/sh\nprintf '%%s|' \"$@\" > '%s.args'\n"
             "cat > '%s.msg'\necho 'sendmail says no' >&2\nexit %d\n",
             record, record, code);
    write_file(path, text);
    chmod(path, 0700);
}

static void test_send_sendmail(void)
{
    char script[512], record[512], p[600], err[DJ_MAIL_ERR_MAX];
    path_in(script, sizeof script, "fake-sendmail");
    path_in(record, sizeof record, "sendmail-run");
    const char *rcpts[2] = {"p1@example.org", "-oQ/tmp@example.org"};
    dj_mail_status st[2];
    const char *msg = "Subject: hi\n\n.\nhello\n";
    const struct {
        int code;
        dj_mail_status want;
    } cases[] = {{0, DJ_MAIL_OK}, {75, DJ_MAIL_TEMPFAIL},
                 {67, DJ_MAIL_PERMFAIL}, {71, DJ_MAIL_TEMPFAIL}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        make_script(script, record, cases[i].code);
        dj_send_config cfg = {.kind = DJ_SEND_SENDMAIL, .sendmail = script,
                              .timeout = 10};
        dj_sender *s = dj_sender_open(&cfg, err, sizeof err);
        CHECK(s != NULL);
        if (!s)
            continue;
        CHECK(dj_sender_send(s, msg, strlen(msg), "judge@example.org", rcpts,
                             2, st, err, sizeof err) == cases[i].want);
        CHECK(st[0] == cases[i].want && st[1] == cases[i].want);
        if (cases[i].code != 0)
            CHECK(strstr(err, "sendmail says no") != NULL);
        dj_sender_close(s);
    }
    /* The arguments: -oi, the sender, "--", then the recipients (a
     * recipient that looks like an option stays a recipient). */
    snprintf(p, sizeof p, "%s.args", record);
    FILE *f = fopen(p, "r");
    char line[400] = "";
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        fclose(f);
    }
    CHECK_STR(line, "-oi|-f|judge@example.org|--|p1@example.org|"
                    "-oQ/tmp@example.org|");
    snprintf(p, sizeof p, "%s.msg", record);
    f = fopen(p, "r");
    size_t got = f ? fread(line, 1, sizeof line - 1, f) : 0;
    line[got] = '\0';
    if (f)
        fclose(f);
    CHECK_STR(line, msg);

    /* A program that does not exist. */
    dj_send_config cfg = {.kind = DJ_SEND_SENDMAIL,
                          .sendmail = "/nonexistent/sendmail"};
    dj_sender *s = dj_sender_open(&cfg, err, sizeof err);
    if (s) {
        CHECK(dj_sender_send(s, msg, strlen(msg), "", rcpts, 1, NULL, err,
                             sizeof err) == DJ_MAIL_PERMFAIL);
        CHECK(strstr(err, "cannot run") != NULL);
        dj_sender_close(s);
    }
}

/* A local port nothing listens on: tcpmux, unused on any test machine,
 * so the connection is refused at once. */
static int dead_port(void)
{
    return 1;
}

static void test_network_unreachable(void)
{
    char err[DJ_MAIL_ERR_MAX];
    const char *rcpt = "p1@example.org";
    dj_send_config sc = {.kind = DJ_SEND_SMTP, .host = "127.0.0.1",
                         .port = dead_port(), .timeout = 5};
    dj_sender *s = dj_sender_open(&sc, err, sizeof err);
    CHECK(s != NULL);
    if (s) {
        CHECK(dj_sender_send(s, "x\n", 2, "judge@example.org", &rcpt, 1, NULL,
                             err, sizeof err) == DJ_MAIL_TEMPFAIL);
        CHECK(strstr(err, "connect") != NULL);
        dj_sender_close(s);
    }
    dj_fetch_kind kinds[2] = {DJ_FETCH_IMAP, DJ_FETCH_POP3};
    for (int i = 0; i < 2; i++) {
        dj_fetch_config fc = {.kind = kinds[i], .host = "127.0.0.1",
                              .port = dead_port(), .user = "u",
                              .password = "p", .timeout = 5};
        dj_fetcher *f = dj_fetch_open(&fc, err, sizeof err);
        CHECK(f != NULL);
        if (!f)
            continue;
        dj_fetch_item *items;
        size_t n;
        CHECK(dj_fetch_list(f, 0, &items, &n, err, sizeof err) ==
              DJ_MAIL_TEMPFAIL);
        CHECK(n == 0 && items == NULL);
        CHECK(strstr(err, "cannot connect") != NULL);
        dj_fetch_close(f);
    }
    dj_fetch_config nouser = {.kind = DJ_FETCH_IMAP};
    CHECK(dj_fetch_open(&nouser, err, sizeof err) == NULL);
}

/* The Maildir fetcher, including a wait woken by a delivery. */
static void test_fetch_maildir(void)
{
    char path[512], err[DJ_MAIL_ERR_MAX];
    path_in(path, sizeof path, "inbox");
    dj_fetch_config cfg = {.kind = DJ_FETCH_MAILDIR, .maildir = path};
    dj_fetcher *f = dj_fetch_open(&cfg, err, sizeof err);
    CHECK(f != NULL);
    if (!f)
        return;
    dj_maildir md;
    dj_maildir_open(&md, path, false, err, sizeof err);
    bool woken = true;
    CHECK(dj_fetch_wait(f, 150, &woken, err, sizeof err) == DJ_MAIL_OK);
    CHECK(!woken);

    pid_t pid = fork();
    if (pid == 0) {
        struct timespec ts = {0, 200 * 1000000L};
        nanosleep(&ts, NULL);
        dj_maildir_deliver(&md, "Subject: x\n\ny\n", 14, NULL, NULL, 0);
        _exit(0);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK(dj_fetch_wait(f, 5000, &woken, err, sizeof err) == DJ_MAIL_OK);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    waitpid(pid, NULL, 0);
    CHECK(woken);
    CHECK(t1.tv_sec - t0.tv_sec < 3);

    dj_fetch_item *items;
    size_t n;
    dj_buf b;
    dj_buf_init(&b);
    CHECK(dj_fetch_list(f, 0, &items, &n, err, sizeof err) == DJ_MAIL_OK);
    CHECK(n == 1);
    if (n == 1) {
        CHECK(dj_fetch_read(f, items[0].id, 0, &b, NULL, err, sizeof err) ==
              DJ_MAIL_OK);
        CHECK_STR(b.data, "Subject: x\n\ny\n");
        /* Not confirmed: listed again. */
        free(items);
        CHECK(dj_fetch_list(f, 0, &items, &n, err, sizeof err) == DJ_MAIL_OK);
        CHECK(n == 1);
        CHECK(dj_fetch_confirm(f, items[0].id, err, sizeof err) ==
              DJ_MAIL_OK);
    }
    free(items);
    CHECK(dj_fetch_list(f, 0, &items, &n, err, sizeof err) == DJ_MAIL_OK);
    CHECK(n == 0);
    free(items);
    dj_buf_free(&b);
    dj_fetch_close(f);
}

/* ---- compose --------------------------------------------------------- */

/* The header block: every line is a known header or a continuation. */
static bool headers_safe(const char *msg)
{
    static const char *const known[] = {
        "Date:", "From:", "To:", "Reply-To:", "Subject:", "Message-ID:",
        "In-Reply-To:", "References:", "Auto-Submitted:", "X-Loop:",
        "X-Mailer:",
        "MIME-Version:", "Content-Type:", "Content-Transfer-Encoding:"};
    const char *p = msg;
    while (*p && *p != '\n') {
        bool ok = *p == ' ' || *p == '\t';
        for (size_t i = 0; !ok && i < sizeof known / sizeof known[0]; i++)
            ok = strncmp(p, known[i], strlen(known[i])) == 0;
        if (!ok) {
            fprintf(stderr, "unexpected header line: %.60s\n", p);
            return false;
        }
        const char *nl = strchr(p, '\n');
        if (!nl)
            return false;
        if (memchr(p, '\r', (size_t)(nl - p)))
            return false;
        p = nl + 1;
    }
    return *p == '\n';
}

/* Longest line of the whole message, and of the header block. */
static size_t longest_line(const char *msg, bool header_only)
{
    size_t best = 0, cur = 0;
    for (const char *p = msg; *p; p++) {
        if (*p == '\n') {
            if (header_only && cur == 0)
                break;
            best = cur > best ? cur : best;
            cur = 0;
        } else {
            cur++;
        }
    }
    return cur > best ? cur : best;
}

/* The unfolded value of header name, "" when absent. */
static void header_value(const char *msg, const char *name, dj_buf *out)
{
    size_t nl = strlen(name);
    dj_buf_reset(out);
    const char *p = msg;
    while (*p && *p != '\n') {
        const char *end = strchr(p, '\n');
        if (!end)
            return;
        if (strncmp(p, name, nl) == 0 && p[nl] == ':') {
            const char *v = p + nl + 1;
            for (;;) {
                dj_buf_append_n(out, v, (size_t)(end - v));
                if (end[1] != ' ' && end[1] != '\t')
                    return;
                v = end + 1;
                end = strchr(v, '\n');
                if (!end)
                    return;
            }
        }
        p = end + 1;
    }
}

static int b64val(char c)
{
    const char *tab =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *p = c ? strchr(tab, c) : NULL;
    return p ? (int)(p - tab) : -1;
}

/* Decode every =?UTF-8?B?...?= in s, dropping the space between words. */
static void decode_words(const char *s, dj_buf *out)
{
    dj_buf_reset(out);
    while (*s) {
        const char *w = strstr(s, "=?UTF-8?B?");
        if (!w)
            break;
        const char *end = strstr(w + 10, "?=");
        if (!end)
            break;
        uint32_t acc = 0;
        int bits = 0;
        for (const char *p = w + 10; p < end; p++) {
            int v = b64val(*p);
            if (v < 0)
                continue;
            acc = (acc << 6) | (uint32_t)v;
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                char c = (char)((acc >> bits) & 0xff);
                dj_buf_append_n(out, &c, 1);
            }
        }
        s = end + 2;
    }
}

static void qp_decode(const char *s, dj_buf *out)
{
    dj_buf_reset(out);
    for (; *s; s++) {
        if (*s == '=' && s[1] == '\n') {
            s++;
        } else if (*s == '=' && s[1] && s[2]) {
            char hex[3] = {s[1], s[2], 0};
            char c = (char)strtol(hex, NULL, 16);
            dj_buf_append_n(out, &c, 1);
            s += 2;
        } else {
            dj_buf_append_n(out, s, 1);
        }
    }
}

static const char *body_of(const char *msg)
{
    const char *p = strstr(msg, "\n\n");
    return p ? p + 2 : "";
}

static dj_mail_status compose(const char *subject, const char *name,
                              const char *to, const char *body, dj_buf *out)
{
    char err[DJ_MAIL_ERR_MAX];
    dj_compose_addr rcpt = {name, to};
    dj_compose c = {.from = {"Diplomacy Judge", "judge@example.org"},
                    .to = &rcpt,
                    .nto = 1,
                    .subject = subject,
                    .x_loop = "judge@example.org",
                    .auto_submitted = DJ_AUTO_GENERATED,
                    .date = 1700000000,
                    .body = body};
    return dj_compose_message(&c, out, NULL, err, sizeof err);
}

static void test_compose_basic(void)
{
    dj_buf m, v;
    dj_buf_init(&m);
    dj_buf_init(&v);
    char msgid[DJ_COMPOSE_MSGID_MAX], err[DJ_MAIL_ERR_MAX];
    dj_compose_addr to[2] = {{"Player One", "p1@example.org"},
                             {NULL, "p2@example.org"}};
    dj_compose c = {.from = {"Diplomacy Judge", "judge@example.org"},
                    .to = to,
                    .nto = 2,
                    .subject = "dipjudge:alpha - S1901M Results",
                    .in_reply_to = "<orig.1@player.example>",
                    .references = "<a@x> <b@y>",
                    .x_loop = "judge@example.org",
                    .auto_submitted = DJ_AUTO_REPLIED,
                    .date = 1700000000,
                    .body = "Orders received.\r\nA PAR-BUR\r\n"};
    CHECK(dj_compose_message(&c, &m, msgid, err, sizeof err) == DJ_MAIL_OK);
    CHECK(headers_safe(m.data));
    CHECK(strstr(m.data, "Date: Tue, 14 Nov 2023 22:13:20 +0000\n") != NULL);
    CHECK(strstr(m.data, "From: \"Diplomacy Judge\" <judge@example.org>\n"));
    CHECK(strstr(m.data, "To: \"Player One\" <p1@example.org>,"
                         " p2@example.org\n"));
    CHECK(strstr(m.data, "Subject: dipjudge:alpha - S1901M Results\n"));
    CHECK(strstr(m.data, "In-Reply-To: <orig.1@player.example>\n"));
    CHECK(strstr(m.data,
                 "References: <a@x> <b@y> <orig.1@player.example>\n"));
    CHECK(strstr(m.data, "Auto-Submitted: auto-replied\n"));
    CHECK(strstr(m.data, "X-Loop: judge@example.org\n"));
    CHECK(strstr(m.data, "Content-Type: text/plain; charset=UTF-8\n"));
    CHECK(strstr(m.data, "Content-Transfer-Encoding: 7bit\n"));
    CHECK_STR(body_of(m.data), "Orders received.\nA PAR-BUR\n");
    header_value(m.data, "Message-ID", &v);
    CHECK(v.len > 20 && strstr(v.data, "@example.org>"));
    CHECK(strstr(v.data, msgid) != NULL);

    c.message_id = "<fixed.1@example.org>";
    c.auto_submitted = DJ_AUTO_GENERATED;
    CHECK(dj_compose_message(&c, &m, msgid, err, sizeof err) == DJ_MAIL_OK);
    CHECK_STR(msgid, "<fixed.1@example.org>");
    CHECK(strstr(m.data, "Auto-Submitted: auto-generated\n"));

    v.len = 0;
    dj_buf_reset(&v);
    dj_compose_date(0, &v);
    CHECK_STR(v.data, "Thu, 01 Jan 1970 00:00:00 +0000");
    dj_buf_free(&m);
    dj_buf_free(&v);
}

static void test_compose_injection(void)
{
    dj_buf m, v;
    dj_buf_init(&m);
    dj_buf_init(&v);
    const char *subjects[] = {
        "Hi\r\nBcc: victim@example.net",
        "Hi\nBcc: victim@example.net\n\nfake body",
        "Hi\rBcc: victim@example.net",
        "Hi\x0b\x0c\x1b[31m\x7f\xc2\x85 there",
        "caf\xc3\xa9\r\nBcc: victim@example.net",
        "\342\200\250Bcc: victim@example.net"}; /* U+2028 */
    for (size_t i = 0; i < sizeof subjects / sizeof subjects[0]; i++) {
        CHECK(compose(subjects[i], "Eve\"\r\nBcc: x@example.net", "p1@x.org",
                      "b", &m) == DJ_MAIL_OK);
        CHECK(headers_safe(m.data));
        CHECK(strstr(m.data, "\nBcc:") == NULL);
    }
    compose(subjects[4], NULL, "p1@x.org", "b", &m);
    header_value(m.data, "Subject", &v);
    CHECK(strstr(v.data, "=?UTF-8?B?") != NULL);
    compose("Hi\r\nBcc: victim@example.net", NULL, "p1@x.org", "b", &m);
    header_value(m.data, "Subject", &v);
    CHECK_STR(v.data, " Hi Bcc: victim@example.net");
    compose("Hi", "Eve\" <evil@x.org>, \"Bob\\", "p1@x.org", "b", &m);
    header_value(m.data, "To", &v);
    CHECK_STR(v.data, " \"Eve\\\" <evil@x.org>, \\\"Bob\\\\\" <p1@x.org>");

    /* Addresses are refused, not repaired. */
    const char *bad[] = {"p1@x.org\r\nBcc: y@z.org", "p1@x.org\n",
                         "p 1@x.org", "<p1@x.org>", "p1@x.org, y@z.org",
                         "p1", "@x.org", "p1@", "p1@x..org", ".p1@x.org",
                         "p1@x.org>", "\"p1\"@x.org", "p1@x_y.org", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(!dj_compose_addr_ok(bad[i]));
        CHECK(compose("s", NULL, bad[i], "b", &m) == DJ_MAIL_PERMFAIL);
    }
    CHECK(dj_compose_addr_ok("first.last+tag@sub.example.org"));
    CHECK(dj_compose_addr_ok("o'brien@example.ie"));

    /* Message-IDs: only well-formed tokens get through. */
    char err[DJ_MAIL_ERR_MAX];
    dj_compose_addr rcpt = {NULL, "p1@x.org"};
    dj_compose c = {.from = {NULL, "judge@example.org"},
                    .to = &rcpt,
                    .nto = 1,
                    .in_reply_to = "<a@b>\r\nBcc: y@z.org",
                    .references = "garbage <x y@z> <<c@d> <e@f>\nBcc: g@h",
                    .message_id = "not an id\r\nBcc: y@z.org",
                    .date = 1};
    CHECK(dj_compose_message(&c, &m, NULL, err, sizeof err) == DJ_MAIL_OK);
    CHECK(headers_safe(m.data));
    CHECK(strstr(m.data, "In-Reply-To: <a@b>\n"));
    CHECK(strstr(m.data, "References: <c@d> <e@f> <a@b>\n"));
    header_value(m.data, "Message-ID", &v);
    CHECK(strstr(v.data, "@example.org>") && !strstr(v.data, "not"));
    c.in_reply_to = "no id here";
    c.references = NULL;
    CHECK(dj_compose_message(&c, &m, NULL, err, sizeof err) == DJ_MAIL_OK);
    CHECK(!strstr(m.data, "In-Reply-To") && !strstr(m.data, "References"));
    c.x_loop = "judge@example.org\nBcc: y@z.org";
    CHECK(dj_compose_message(&c, &m, NULL, err, sizeof err) ==
          DJ_MAIL_PERMFAIL);
    dj_buf_free(&m);
    dj_buf_free(&v);
}

static void test_compose_rfc2047(void)
{
    dj_buf m, v, d;
    dj_buf_init(&m);
    dj_buf_init(&v);
    dj_buf_init(&d);
    const char *subject = "R\xc3\xa9sultats d'\xc3\xa9t\xc3\xa9";
    CHECK(compose(subject, "J\xc3\xbcrgen M\xc3\xbcller", "p1@x.org", "b",
                  &m) == DJ_MAIL_OK);
    header_value(m.data, "Subject", &v);
    decode_words(v.data, &d);
    CHECK_STR(d.data, subject);
    header_value(m.data, "To", &v);
    decode_words(v.data, &d);
    CHECK_STR(d.data, "J\xc3\xbcrgen M\xc3\xbcller");
    CHECK(strstr(v.data, "<p1@x.org>") != NULL);

    /* A long subject of 2- and 3-byte characters: many words, each on a
     * short line, none splitting a character. */
    dj_buf longs;
    dj_buf_init(&longs);
    for (int i = 0; i < 40; i++)
        dj_buf_append(&longs, "\xc3\xa9\xe2\x82\xac ");
    dj_buf_append(&longs, "end");
    CHECK(compose(longs.data, NULL, "p1@x.org", "b", &m) == DJ_MAIL_OK);
    CHECK(longest_line(m.data, true) <= 76);
    header_value(m.data, "Subject", &v);
    decode_words(v.data, &d);
    CHECK_STR(d.data, longs.data);
    CHECK(headers_safe(m.data));

    /* ASCII that a reader would take for an encoded-word is encoded. */
    CHECK(compose("=?UTF-8?B?QmNjOg==?=", NULL, "p1@x.org", "b", &m) ==
          DJ_MAIL_OK);
    header_value(m.data, "Subject", &v);
    decode_words(v.data, &d);
    CHECK_STR(d.data, "=?UTF-8?B?QmNjOg==?=");

    /* Invalid UTF-8 becomes U+FFFD. */
    CHECK(compose("bad \xff\xc3 bytes", NULL, "p1@x.org", "b", &m) ==
          DJ_MAIL_OK);
    header_value(m.data, "Subject", &v);
    decode_words(v.data, &d);
    CHECK_STR(d.data, "bad \xef\xbf\xbd\xef\xbf\xbd bytes");
    dj_buf_free(&longs);
    dj_buf_free(&m);
    dj_buf_free(&v);
    dj_buf_free(&d);
}

static void test_compose_folding(void)
{
    dj_buf m, v, s;
    dj_buf_init(&m);
    dj_buf_init(&v);
    dj_buf_init(&s);
    for (int i = 0; i < 50; i++) /* 340 bytes: under the cap */
        dj_buf_printf(&s, "word%d ", i);
    CHECK(compose(s.data, NULL, "p1@x.org", "b", &m) == DJ_MAIL_OK);
    CHECK(longest_line(m.data, true) <= 78);
    header_value(m.data, "Subject", &v);
    CHECK(strncmp(v.data, " word0 word1", 12) == 0);
    CHECK(strstr(v.data, "word48 word49") != NULL);

    /* Text is capped; a cap never splits a character. */
    dj_buf_reset(&s);
    for (int i = 0; i < 300; i++)
        dj_buf_append(&s, "\xe2\x82\xac");
    dj_buf_reset(&v);
    dj_compose_clean_text(s.data, &v);
    CHECK(v.len <= DJ_COMPOSE_TEXT_MAX && v.len % 3 == 0 && v.len > 390);
    dj_buf_reset(&v);
    dj_compose_clean_text("  many   \t spaces \n here  ", &v);
    CHECK_STR(v.data, "many spaces here");

    /* References: the first and the most recent ones are kept. */
    dj_buf refs;
    dj_buf_init(&refs);
    for (int i = 0; i < 30; i++)
        dj_buf_printf(&refs, "<ref%d@example.org> ", i);
    char err[DJ_MAIL_ERR_MAX];
    dj_compose_addr rcpt = {NULL, "p1@x.org"};
    dj_compose c = {.from = {NULL, "judge@example.org"},
                    .to = &rcpt,
                    .nto = 1,
                    .references = refs.data,
                    .in_reply_to = "<parent@example.org>",
                    .date = 1};
    CHECK(dj_compose_message(&c, &m, NULL, err, sizeof err) == DJ_MAIL_OK);
    header_value(m.data, "References", &v);
    CHECK(strncmp(v.data, " <ref0@example.org>", 19) == 0);
    CHECK(strstr(v.data, "<ref29@example.org> <parent@example.org>"));
    CHECK(!strstr(v.data, "<ref5@example.org>"));
    size_t ids = 0;
    for (const char *p = v.data; (p = strchr(p, '<')) != NULL; p++)
        ids++;
    CHECK(ids == DJ_COMPOSE_REFS_MAX);
    CHECK(longest_line(m.data, true) <= 78);
    dj_buf_free(&refs);
    dj_buf_free(&m);
    dj_buf_free(&v);
    dj_buf_free(&s);
}

/* A calendar entry (issue 37): text/calendar; method=PUBLISH after the
 * text (and after a picture when there is one), its CRLF lines in base64
 * so they arrive as written; none for NULL or "". */
static void test_compose_calendar(void)
{
    dj_buf m;
    dj_buf_init(&m);
    char err[DJ_MAIL_ERR_MAX];
    dj_compose_addr to = {NULL, "p1@example.org"};
    const char *ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n";
    dj_compose c = {.from = {"Judge", "judge@example.org"},
                    .to = &to,
                    .nto = 1,
                    .subject = "dipjudge:alpha - S1901M Results",
                    .date = 1700000000,
                    .message_id = "<cal.1@example.org>",
                    .body = "Results.\n",
                    .calendar = ics};
    CHECK(dj_compose_message(&c, &m, NULL, err, sizeof err) == DJ_MAIL_OK);
    CHECK(headers_safe(m.data));
    CHECK(strstr(m.data, "Content-Type: multipart/mixed; boundary=") != NULL);
    CHECK(strstr(m.data, "its text, then the deadline's calendar entry.") !=
          NULL);
    CHECK(strstr(m.data, "Content-Type: text/calendar; charset=UTF-8; "
                         "method=PUBLISH; name=\"deadline.ics\"\n") != NULL);
    /* base64 of the CRLF lines: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n..." */
    CHECK(strstr(m.data, "QkVHSU46VkNBTEVOREFSDQpWRVJTSU9OOjIuMA0KRU5EOlZDQUxFTkRBUg0K\n") != NULL);
    CHECK(strstr(m.data, "image/png") == NULL);
    CHECK(strstr(m.data, "--=_dj_") != NULL);
    /* with a picture: the picture first, then the calendar */
    static const unsigned char png[] = {0x89, 'P', 'N', 'G'};
    dj_compose_attachment pic = {"alpha-S1901M.png", "image/png", png,
                                 sizeof png};
    c.attachment = &pic;
    CHECK(dj_compose_message(&c, &m, NULL, err, sizeof err) == DJ_MAIL_OK);
    const char *p = strstr(m.data, "Content-Type: image/png");
    const char *q = strstr(m.data, "Content-Type: text/calendar");
    CHECK(p && q && p < q);
    CHECK(strstr(m.data, "a picture of the board and the deadline's "
                         "calendar entry") != NULL);
    /* none */
    c.attachment = NULL;
    c.calendar = "";
    CHECK(dj_compose_message(&c, &m, NULL, err, sizeof err) == DJ_MAIL_OK);
    CHECK(strstr(m.data, "multipart") == NULL);
    dj_buf_free(&m);
}

static void test_compose_body(void)
{
    dj_buf m, d, body;
    dj_buf_init(&m);
    dj_buf_init(&d);
    dj_buf_init(&body);

    /* Non-ASCII: quoted-printable that decodes back. */
    const char *text = "Ordres re\xc3\xa7us.\n=== F1901M ===\nTrailing \n";
    CHECK(compose("s", NULL, "p1@x.org", text, &m) == DJ_MAIL_OK);
    CHECK(strstr(m.data, "Content-Transfer-Encoding: quoted-printable\n"));
    CHECK(strstr(body_of(m.data), "re=C3=A7us") != NULL);
    qp_decode(body_of(m.data), &d);
    CHECK_STR(d.data, text);

    /* Long lines: soft breaks keep every line at 76. */
    for (int i = 0; i < 3000; i++)
        dj_buf_append(&body, i % 100 == 99 ? " " : "x");
    dj_buf_append(&body, "\n.\nFrom the judge\n");
    CHECK(compose("s", NULL, "p1@x.org", body.data, &m) == DJ_MAIL_OK);
    CHECK(strstr(m.data, "quoted-printable"));
    CHECK(longest_line(m.data, false) <= 78);
    qp_decode(body_of(m.data), &d);
    CHECK_STR(d.data, body.data);
    CHECK(strstr(body_of(m.data), "\n=2E\n") != NULL);
    CHECK(strstr(body_of(m.data), "\n=46rom the judge") != NULL);

    /* Line ends normalised, control characters out, invalid UTF-8
     * replaced, a final line end added. */
    CHECK(compose("s", NULL, "p1@x.org", "a\r\nb\rc\0d", &m) == DJ_MAIL_OK);
    CHECK_STR(body_of(m.data), "a\nb\nc\n");
    CHECK(compose("s", NULL, "p1@x.org", "x\x01y\x1b[0m\tz", &m) ==
          DJ_MAIL_OK);
    CHECK_STR(body_of(m.data), "xy[0m\tz\n");
    CHECK(compose("s", NULL, "p1@x.org", "bad\xfe", &m) == DJ_MAIL_OK);
    qp_decode(body_of(m.data), &d);
    CHECK_STR(d.data, "bad\xef\xbf\xbd\n");
    CHECK(compose("s", NULL, "p1@x.org", NULL, &m) == DJ_MAIL_OK);
    CHECK_STR(body_of(m.data), "\n");
    dj_buf_free(&m);
    dj_buf_free(&d);
    dj_buf_free(&body);
}

/* POP3 listing lines as RFC 1939 has them, and what a hostile server may
 * send instead (message number 0 wrote before libetpan's table). */
static void test_pop3_lines(void)
{
    unsigned num;
    uint64_t size;
    char uidl[DJ_POP3_UIDL_MAX + 1];
    CHECK(dj_pop3_parse_list_line("1 639", &num, &size) && num == 1 &&
          size == 639);
    CHECK(dj_pop3_parse_list_line("7 120 extra", &num, &size) && num == 7);
    CHECK(!dj_pop3_parse_list_line("0 10", &num, &size));
    CHECK(!dj_pop3_parse_list_line("-1 10", &num, &size));
    CHECK(!dj_pop3_parse_list_line("100001 10", &num, &size));
    CHECK(!dj_pop3_parse_list_line("4294967297 10", &num, &size));
    CHECK(!dj_pop3_parse_list_line("3  10", &num, &size));
    CHECK(!dj_pop3_parse_list_line("3 99999999999999999999999", &num, &size));
    CHECK(!dj_pop3_parse_list_line("Return-Path: <x@y>", &num, &size));
    CHECK(!dj_pop3_parse_list_line("", &num, &size));
    CHECK(dj_pop3_parse_uidl_line("2 000000024fb0a1c2", &num, uidl,
                                  sizeof uidl) &&
          num == 2 && strcmp(uidl, "000000024fb0a1c2") == 0);
    CHECK(!dj_pop3_parse_uidl_line("0 abc", &num, uidl, sizeof uidl));
    CHECK(!dj_pop3_parse_uidl_line("2 ", &num, uidl, sizeof uidl));
    CHECK(!dj_pop3_parse_uidl_line("2 a b", &num, uidl, sizeof uidl));
    CHECK(!dj_pop3_parse_uidl_line("2 a\x01b", &num, uidl, sizeof uidl));
    char longid[100];
    memset(longid, 'x', sizeof longid);
    memcpy(longid, "3 ", 2);
    longid[2 + DJ_POP3_UIDL_MAX] = '\0';
    CHECK(dj_pop3_parse_uidl_line(longid, &num, uidl, sizeof uidl));
    longid[2 + DJ_POP3_UIDL_MAX] = 'x';
    longid[3 + DJ_POP3_UIDL_MAX] = '\0';
    CHECK(!dj_pop3_parse_uidl_line(longid, &num, uidl, sizeof uidl));
}

/* ---- the reader in a child process (fetch_child.c) ----------------------- */

/* A one-shot server on loopback: each connection gets the file's bytes
 * (after its first, protocol-choosing byte), then the server closes. */
static pid_t fake_server(const char *path, int *port)
{
    static char data[1 << 16];
    FILE *fp = fopen(path, "rb");
    size_t n = fp ? fread(data, 1, sizeof data, fp) : 0;
    if (fp)
        fclose(fp);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (n == 0 || fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        listen(fd, 8) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &len) != 0)
        return -1;
    *port = ntohs(a.sin_port);
    pid_t pid = fork();
    if (pid == 0) {
        for (;;) {
            int c = accept(fd, NULL, NULL);
            if (c < 0)
                _exit(0);
            if (write(c, data + 1, n - 1) < 0) {
                /* the reader hung up first */
            }
            shutdown(c, SHUT_WR);
            char sink[4096];
            while (read(c, sink, sizeof sink) > 0)
                ;
            close(c);
        }
    }
    close(fd);
    return pid;
}

static void test_fetch_isolated(const char *srcdir)
{
    char path[1024], err[DJ_MAIL_ERR_MAX];
    int port;
    /* A reply that crashes libetpan's IMAP parser: the reader process
     * dies, we are told, and we live on. */
    snprintf(path, sizeof path, "%s/tests/fuzz/known/mailserver/"
             "imap-permanentflags-junk-select", srcdir);
    pid_t server = fake_server(path, &port);
    CHECK(server > 0);
    if (server <= 0)
        return;
    dj_fetch_config cfg = {.kind = DJ_FETCH_IMAP, .host = "127.0.0.1",
                           .port = port, .user = "judge",
                           .password = "pw-judge", .timeout = 5,
                           .isolate = true};
    dj_fetcher *f = dj_fetch_open(&cfg, err, sizeof err);
    CHECK(f != NULL);
    dj_fetch_item *items = NULL;
    size_t n = 0;
    dj_mail_status st = dj_fetch_list(f, 0, &items, &n, err, sizeof err);
    CHECK(st == DJ_MAIL_TEMPFAIL);
    CHECK(strstr(err, "the IMAP reader died") != NULL);
    if (!strstr(err, "the IMAP reader died"))
        fprintf(stderr, "  isolated reader: %s\n", err);
    free(items);
    /* and the next request starts a new reader */
    st = dj_fetch_list(f, 0, &items, &n, err, sizeof err);
    CHECK(st == DJ_MAIL_TEMPFAIL && strstr(err, "reader died"));
    free(items);
    dj_fetch_close(f);
    kill(server, SIGKILL);
    waitpid(server, NULL, 0);

    /* A healthy session (Dovecot's, recorded) through the reader
     * process: three messages listed, read and confirmed. */
    snprintf(path, sizeof path, "%s/tests/fuzz/corpus/mailserver/"
             "dovecot-imap-3-messages", srcdir);
    server = fake_server(path, &port);
    CHECK(server > 0);
    if (server <= 0)
        return;
    cfg.port = port;
    f = dj_fetch_open(&cfg, err, sizeof err);
    st = dj_fetch_list(f, 0, &items, &n, err, sizeof err);
    CHECK(st == DJ_MAIL_OK && n == 3);
    if (st == DJ_MAIL_OK && n == 3) {
        dj_buf b;
        dj_buf_init(&b);
        bool trunc = true;
        CHECK(dj_fetch_read(f, items[0].id, 0, &b, &trunc, err, sizeof err) ==
              DJ_MAIL_OK);
        CHECK(!trunc && b.len > 100 && strstr(b.data, "Subject: orders 1"));
        CHECK(dj_fetch_confirm(f, items[0].id, err, sizeof err) ==
              DJ_MAIL_OK);
        dj_buf_free(&b);
    } else {
        fprintf(stderr, "  isolated IMAP list: %s\n", err);
    }
    free(items);
    dj_fetch_close(f);
    kill(server, SIGKILL);
    waitpid(server, NULL, 0);
}

int main(int argc, char **argv)
{
    snprintf(root, sizeof root, "/tmp/dj-mail-test-XXXXXX");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);
    test_maildir_basics();
    test_maildir_backlog_order();
    test_maildir_foreign();
    test_maildir_crash();
    test_send_maildir();
    test_send_sendmail();
    test_network_unreachable();
    test_fetch_maildir();
    test_compose_basic();
    test_compose_injection();
    test_compose_rfc2047();
    test_compose_folding();
    test_compose_body();
    test_compose_calendar();
    test_pop3_lines();
    test_fetch_isolated(test_srcdir(argc, argv));
    nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return test_summary();
}
