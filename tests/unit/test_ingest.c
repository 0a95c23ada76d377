/* SPDX-License-Identifier: MIT */
/*
 * test_ingest.c — the judge's mail loop, on a real database in a
 * temporary directory: src/judge/ingest.c (one message, one transaction)
 * and src/judge/outbox.c (claim, send, mark; retries, admin reports, the
 * lock, crash recovery).  Run as `test_ingest SRCDIR`.
 *
 * Ingest: orders answered with a threaded reply; the same message again,
 * with or without a Message-ID, is a duplicate; auto-replies, bounces,
 * list mail, our own X-Loop, our own address, mail without a sender and
 * bytes that are not mail are recorded and never answered; oversized and
 * truncated mail gets one polite refusal; replies are rate-limited per
 * sender; a process dying at each fault point before the commit leaves
 * nothing (the message runs once afterwards), after it the message is a
 * duplicate.
 *
 * Outbox: rows sent once through a Maildir, headers right (Message-ID
 * kept, In-Reply-To, X-Loop, Auto-Submitted); backoff doubling to its cap;
 * temporary failures (a sendmail stub exiting 75) retried until the
 * attempts run out, permanent ones (exit 67) failed at once, both reported
 * to the admin; never a mail to the judge itself; a busy lock skips the
 * pass; a sender dying after the claim re-sends without a duplicate, one
 * dying after the transport accepted re-sends exactly one duplicate with
 * the same Message-ID.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "game/config.h"
#include "game/forming.h"
#include "game/game.h"
#include "game/orders.h"
#include "judge/ingest.h"
#include "judge/outbox.h"
#include "mail/send.h"
#include "store/mail.h"
#include "store/sending.h"
#include "store/store.h"
#include "testlib.h"

static const char *srcdir = ".";
static char dir[256];
static dj_judge *J;
static const int64_t NOW = 1800000000; /* Fri 15 Jan 2027 08:00 UTC */
static const char *const POWERS[] = {"Austria", "England", "France",
                                     "Germany", "Italy",   "Russia",
                                     "Turkey"};
#define JUDGE "judge@judge.example"

static dj_ingest_config icfg(void)
{
    dj_ingest_config c;
    memset(&c, 0, sizeof c);
    c.judge_address = JUDGE;
    c.judge_name = "dipjudge";
    c.max_size = 8192;
    c.max_lines = 200;
    return c;
}

static void setup(void)
{
    dj_config cfg;
    dj_config_defaults(&cfg);
    snprintf(cfg.database, sizeof cfg.database, "%s/judge.db", dir);
    snprintf(cfg.judge_address, sizeof cfg.judge_address, JUDGE);
    char maps[512], err[512];
    snprintf(maps, sizeof maps, "%s/maps", srcdir);
    J = dj_judge_open(&cfg, maps, err, sizeof err);
    if (!J) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    dj_judge_set_now(J, NOW);
    dj_buf out;
    dj_buf_init(&out);
    CHECK(dj_game_create(J, "alpha", NULL, NULL, NULL, 0, &out) == 0);
    dj_join_request gm = {"gm@x.example", NULL, NULL, "gm-secret", "master",
                             NULL};
    CHECK(dj_game_join(J, "alpha", &gm, &out) == 0);
    for (int p = 0; p < 7; p++) {
        char email[64], pw[64];
        snprintf(email, sizeof email, "p%d@x.example", p);
        snprintf(pw, sizeof pw, "pw-%d", p);
        dj_join_request req = {email, NULL, POWERS[p], pw, NULL, NULL};
        CHECK(dj_game_join(J, "alpha", &req, &out) == 0);
    }
    dj_buf_free(&out);
}

static int count_rows(const char *kind, const char *state)
{
    dj_outbox_rec *o;
    int n, k = 0;
    if (dj_store_outbox_list(dj_judge_store(J), 0, state, &o, &n) < 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (!kind || strcmp(o[i].kind, kind) == 0)
            k++;
    dj_outbox_recs_free(o, n);
    return k;
}

static dj_ingest_status ingest(const dj_ingest_config *c, const char *raw,
                               dj_ingest_result *res)
{
    return dj_ingest_message(J, c, raw, strlen(raw), false, res);
}

/* ---- ingest --------------------------------------------------------------- */

static const char ORDERS[] = "From: France <p2@x.example>\n"
                             "To: " JUDGE "\n"
                             "Subject: my orders\n"
                             "Message-ID: <orders-1@x.example>\n"
                             "\n"
                             "SIGNON Falpha pw-2\n"
                             "A par-bur\n"
                             "F bre-mao\n"
                             "-- \n"
                             "A mar-spa (a signature: not read)\n";

static void test_orders_and_duplicates(void)
{
    dj_ingest_config c = icfg();
    dj_ingest_result r;
    int replies = count_rows("reply", NULL);
    CHECK(ingest(&c, ORDERS, &r) == DJ_INGEST_DONE);
    CHECK(r.replied);
    CHECK_STR(r.message_id, "orders-1@x.example");
    CHECK_STR(r.sender, "p2@x.example");
    CHECK_STR(r.game, "alpha");
    CHECK(count_rows("reply", NULL) == replies + 1);
    dj_buf o;
    dj_buf_init(&o);
    CHECK(dj_game_get_orders(J, "alpha", "France", &o) == 0);
    CHECK(strstr(o.data, "A PAR - BUR") && strstr(o.data, "F BRE - MAO"));
    CHECK(!strstr(o.data, "SPA"));
    dj_buf_free(&o);
    /* The reply answers the message. */
    dj_outbox_send_rec row;
    CHECK(dj_store_outbox_next_due(dj_judge_store(J), NOW, 0, &row) == 0);
    dj_outbox_send_rec_free(&row);

    /* The same message again (another copy, CRLF): nothing happens. */
    char crlf[2048];
    size_t k = 0;
    for (const char *p = ORDERS; *p && k + 2 < sizeof crlf; p++) {
        if (*p == '\n')
            crlf[k++] = '\r';
        crlf[k++] = *p;
    }
    crlf[k] = '\0';
    CHECK(ingest(&c, crlf, &r) == DJ_INGEST_DUPLICATE);
    CHECK(!r.replied);
    CHECK(count_rows("reply", NULL) == replies + 1);

    /* A forged mail that borrows a player's Message-ID (issue 9): the mail
     * log keys on the sender and the content too, so it is acted on as
     * the different mail it is, and the player's real mail that follows
     * with that same Message-ID is not lost as "seen before". */
    const char *forged =
        "From: attacker@evil.example\nMessage-ID: <real-2@x.example>\n"
        "Subject: help\n\nHELP\n";
    const char *real =
        "From: p3@x.example\nMessage-ID: <real-2@x.example>\n"
        "Subject: help\n\nHELP\n";
    CHECK(ingest(&c, forged, &r) == DJ_INGEST_DONE);
    CHECK(ingest(&c, real, &r) == DJ_INGEST_DONE);
    CHECK(ingest(&c, real, &r) == DJ_INGEST_DUPLICATE);
    replies += 2;

    /* Without a Message-ID: known by a hash of its bytes. */
    const char *noid = "From: p3@x.example\nSubject: help\n\nHELP\n";
    CHECK(ingest(&c, noid, &r) == DJ_INGEST_DONE);
    CHECK(strstr(r.message_id, "hash.dipjudge.invalid") != NULL);
    CHECK(ingest(&c, noid, &r) == DJ_INGEST_DUPLICATE);
    CHECK(count_rows("reply", NULL) == replies + 2);
}

static void test_ignored(void)
{
    dj_ingest_config c = icfg();
    dj_ingest_result r;
    int before = count_rows(NULL, NULL);
    static const char *const cases[][2] = {
        {"From: p1@x.example\nMessage-ID: <auto@x>\n"
         "Auto-Submitted: auto-replied\nSubject: Out of office\n\nHELP\n",
         "automatic"},
        {"From: p1@x.example\nMessage-ID: <list@x>\nPrecedence: list\n"
         "Subject: digest\n\nHELP\n",
         "list"},
        {"From: p1@x.example\nMessage-ID: <loop@x>\nX-Loop: " JUDGE "\n"
         "Subject: Re: results\n\nHELP\n",
         "X-Loop"},
        {"From: MAILER-DAEMON@x.example\nMessage-ID: <bounce@x>\n"
         "Subject: Undelivered Mail Returned to Sender\n"
         "Content-Type: multipart/report; report-type=delivery-status;"
         " boundary=b\n\n--b\nContent-Type: text/plain\n\nHELP\n--b--\n",
         "bounce"},
        {"From: " JUDGE "\nMessage-ID: <own@x>\nSubject: x\n\nHELP\n",
         "own address"},
        /* judge+anything@host is the judge too (issue 9) */
        {"From: JUDGE+Results@Judge.Example\nMessage-ID: <own2@x>\n"
         "Subject: x\n\nHELP\n",
         "own address"},
        {"From: p1@x.example\nMessage-ID: <loop2@x>\nX-Loop: judge+x@"
         "judge.example\nSubject: Re: results\n\nHELP\n",
         "X-Loop"},
        {"Subject: nobody\nMessage-ID: <nobody@x>\n\nHELP\n", "no sender"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dj_ingest_status st = ingest(&c, cases[i][0], &r);
        CHECK(st == DJ_INGEST_IGNORED);
        CHECK(!r.replied);
        if (st != DJ_INGEST_IGNORED || !strstr(r.outcome, cases[i][1]))
            fprintf(stderr, "case %zu: %s (%s)\n", i,
                    dj_ingest_status_name(st), r.outcome);
        CHECK(strstr(r.outcome, cases[i][1]) != NULL);
        /* Recorded: the second copy is a duplicate. */
        CHECK(ingest(&c, cases[i][0], &r) == DJ_INGEST_DUPLICATE);
    }
    /* The envelope's null sender <> is a bounce whatever the headers. */
    c.envelope_sender = "";
    CHECK(ingest(&c, "From: p1@x.example\nMessage-ID: <null@x>\n\nHELP\n",
                 &r) == DJ_INGEST_IGNORED);
    c.envelope_sender = NULL;
    /* Bytes that are no mail message at all. */
    const char junk[] = "\x01\x02\x03";
    dj_ingest_status st =
        dj_ingest_message(J, &c, junk, sizeof junk - 1, false, &r);
    CHECK(st == DJ_INGEST_IGNORED);
    CHECK(r.message_id[0] != '\0');
    CHECK(count_rows(NULL, NULL) == before);
}

static void test_refusals(void)
{
    dj_ingest_config c = icfg();
    dj_ingest_result r;
    dj_buf big;
    dj_buf_init(&big);
    dj_buf_append(&big, "From: p4@x.example\nMessage-ID: <big@x>\n"
                        "Subject: a novel\n\nSIGNON Galpha pw-3\n");
    while (big.len < 9000)
        dj_buf_append(&big, "A mun-ruh\n");
    int refusals = count_rows("refusal", NULL);
    CHECK(dj_ingest_message(J, &c, big.data, big.len, false, &r) ==
          DJ_INGEST_REFUSED);
    CHECK(r.replied && strstr(r.outcome, "size"));
    CHECK(count_rows("refusal", NULL) == refusals + 1);
    dj_buf o;
    dj_buf_init(&o);
    CHECK(dj_game_get_orders(J, "alpha", "Germany", &o) == 0 && !o.data[0]);
    dj_buf_free(&o);
    CHECK(dj_ingest_message(J, &c, big.data, big.len, false, &r) ==
          DJ_INGEST_DUPLICATE);
    /* Only the start of a longer message was read. */
    const char *part = "From: p4@x.example\nMessage-ID: <part@x>\n\nHELP\n";
    CHECK(dj_ingest_message(J, &c, part, strlen(part), true, &r) ==
          DJ_INGEST_REFUSED);
    CHECK(count_rows("refusal", NULL) == refusals + 2);
    /* Too many lines. */
    dj_buf_reset(&big);
    dj_buf_append(&big, "From: p4@x.example\nMessage-ID: <lines@x>\n\n");
    for (int i = 0; i < 300; i++)
        dj_buf_append(&big, "x\n");
    CHECK(dj_ingest_message(J, &c, big.data, big.len, false, &r) ==
          DJ_INGEST_REFUSED);
    CHECK(strstr(r.outcome, "lines") != NULL);
    dj_buf_free(&big);
}

static void test_rate_limit(void)
{
    dj_ingest_config c = icfg();
    c.reply_limit = 2;
    c.reply_window = 3600;
    dj_ingest_result r;
    char msg[256];
    int answered = 0;
    for (int i = 0; i < 4; i++) {
        snprintf(msg, sizeof msg,
                 "From: flood@x.example\nMessage-ID: <flood-%d@x>\n\nHELP\n",
                 i);
        CHECK(ingest(&c, msg, &r) == DJ_INGEST_DONE);
        answered += r.replied;
        if (i >= 2)
            CHECK(strstr(r.outcome, "reply limit") != NULL);
    }
    CHECK(answered == 2);
    /* Another sender is not affected; later the window has passed. */
    CHECK(ingest(&c, "From: calm@x.example\nMessage-ID: <calm@x>\n\nHELP\n",
                 &r) == DJ_INGEST_DONE &&
          r.replied);
    dj_judge_set_now(J, NOW + 3601);
    CHECK(ingest(&c, "From: flood@x.example\nMessage-ID: <later@x>\n\nHELP\n",
                 &r) == DJ_INGEST_DONE &&
          r.replied);
    dj_judge_set_now(J, NOW);
}

/* ---- dying at a fault point ------------------------------------------------ */

typedef struct crash_at {
    const char *point;
} crash_at;

static void die_at(void *ctx, const char *point)
{
    const crash_at *c = ctx;
    if (strcmp(point, c->point) == 0)
        _exit(86);
}

/* Run fn in a child that dies at `point`; true when it died there. */
static bool in_child(void (*fn)(void *), void *arg)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        fn(arg);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) && WEXITSTATUS(st) == 86;
}

typedef struct ingest_job {
    const char *point;
    const char *raw;
} ingest_job;

static void ingest_child(void *arg)
{
    const ingest_job *job = arg;
    /* The child opens its own connection: a SQLite handle must not be
     * used (or closed) on both sides of a fork. */
    dj_config cfg;
    dj_config_defaults(&cfg);
    snprintf(cfg.database, sizeof cfg.database, "%s/judge.db", dir);
    snprintf(cfg.judge_address, sizeof cfg.judge_address, JUDGE);
    char maps[512], err[512];
    snprintf(maps, sizeof maps, "%s/maps", srcdir);
    dj_judge *j = dj_judge_open(&cfg, maps, err, sizeof err);
    if (!j)
        _exit(1);
    dj_judge_set_now(j, NOW);
    crash_at ca = {job->point};
    dj_ingest_config c = icfg();
    c.fault = die_at;
    c.fault_ctx = &ca;
    dj_ingest_result r;
    dj_ingest_message(j, &c, job->raw, strlen(job->raw), false, &r);
    _exit(0);
}

static void test_ingest_crashes(void)
{
    static const char *const points[] = {"ingest-logged", "ingest-executed"};
    char msg[512];
    for (int i = 0; i < 2; i++) {
        snprintf(msg, sizeof msg,
                 "From: p%d@x.example\nMessage-ID: <crash-%d@x>\n\n"
                 "SIGNON %calpha pw-%d\nA %s H\n",
                 i == 0 ? 0 : 4, i, i == 0 ? 'A' : 'I', i == 0 ? 0 : 4,
                 i == 0 ? "vie" : "rom");
        int replies = count_rows("reply", NULL);
        ingest_job job = {points[i], msg};
        CHECK(in_child(ingest_child, &job));
        /* Nothing of it remains: not even the mail log row. */
        CHECK(count_rows("reply", NULL) == replies);
        dj_ingest_config c = icfg();
        dj_ingest_result r;
        CHECK(ingest(&c, msg, &r) == DJ_INGEST_DONE);
        CHECK(count_rows("reply", NULL) == replies + 1);
        CHECK(ingest(&c, msg, &r) == DJ_INGEST_DUPLICATE);
    }
}

/* ---- the outbox ------------------------------------------------------------- */

static dj_outbox_config ocfg(void)
{
    dj_outbox_config c;
    memset(&c, 0, sizeof c);
    c.judge_address = JUDGE;
    c.judge_name = "dipjudge";
    c.admin_address = "admin@x.example";
    c.max_attempts = 3;
    c.retry_delay = 60;
    c.retry_max_delay = 200;
    return c;
}

static dj_sender *maildir_sender(const char *name)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    dj_send_config sc;
    memset(&sc, 0, sizeof sc);
    sc.kind = DJ_SEND_MAILDIR;
    sc.maildir = path;
    dj_sender *s = dj_sender_open(&sc, err, sizeof err);
    if (!s)
        fprintf(stderr, "%s\n", err);
    return s;
}

/* Files in DIR/name/new, and how many contain `needle` (NULL: any). */
static int files_with(const char *name, const char *needle)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/new", dir, name);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char file[1024];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        FILE *f = fopen(file, "r");
        if (!f)
            continue;
        static char buf[65536];
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        buf[len] = '\0';
        fclose(f);
        if (!needle || strstr(buf, needle))
            n++;
    }
    closedir(d);
    return n;
}

static void test_backoff(void)
{
    dj_outbox_config c = ocfg();
    CHECK(dj_outbox_backoff(&c, 1) == 60);
    CHECK(dj_outbox_backoff(&c, 2) == 120);
    CHECK(dj_outbox_backoff(&c, 3) == 200);
    CHECK(dj_outbox_backoff(&c, 30) == 200);
    memset(&c, 0, sizeof c);
    CHECK(dj_outbox_backoff(&c, 1) == 60);
    CHECK(dj_outbox_backoff(&c, 100) == 6 * 3600);
}

static void test_flush_maildir(void)
{
    dj_store *s = dj_judge_store(J);
    dj_sender *snd = maildir_sender("out");
    CHECK(snd != NULL);
    int queued = count_rows(NULL, "queued");
    CHECK(queued > 0);
    /* A row to the judge itself is never sent. */
    CHECK(dj_store_outbox_add(s, 0, 0, "notice", JUDGE, "to myself", "x",
                              NOW) == 0);
    dj_outbox_config c = ocfg();
    dj_outbox_pass pass;
    CHECK(dj_outbox_flush(s, snd, &c, NOW, NULL, NULL, &pass) == 0);
    /* Everything, and the admin's report on the row to ourselves (queued
     * during the pass, sent in it). */
    CHECK(pass.sent == queued + 1 && pass.failed == 1 && !pass.busy);
    CHECK(count_rows(NULL, "queued") == 0);
    CHECK(count_rows("admin", "sent") == 1);
    CHECK(files_with("out", NULL) == queued + 1);
    CHECK(files_with("out", "Subject: dipjudge - Undeliverable mail") == 1);
    CHECK(files_with("out", "To: admin@x.example") == 1);
    queued++; /* the report, an auto-generated mail */
    CHECK(files_with("out", "In-Reply-To: <orders-1@x.example>") == 1);
    CHECK(files_with("out", "X-Loop: " JUDGE) == queued);
    CHECK(files_with("out", "Auto-Submitted: auto-replied") ==
          count_rows("reply", "sent") + count_rows("refusal", "sent"));
    CHECK(files_with("out", "Auto-Submitted: auto-generated") ==
          queued - count_rows("reply", "sent") -
              count_rows("refusal", "sent"));
    CHECK(files_with("out", "To: " JUDGE) == 0);
    /* Nothing is sent twice. */
    CHECK(dj_outbox_flush(s, snd, &c, NOW, NULL, NULL, &pass) == 0);
    CHECK(pass.sent == 0 && pass.failed == 0);
    CHECK(files_with("out", NULL) == queued);
    dj_sender_close(snd);
}

static void test_lock(void)
{
    dj_store *s = dj_judge_store(J);
    dj_sender *snd = maildir_sender("out-lock");
    char lock[512];
    snprintf(lock, sizeof lock, "%s/outbox-lock", dir);
    dj_outbox_config c = ocfg();
    c.lock_path = lock;
    CHECK(dj_store_outbox_add(s, 0, 0, "notice", "p1@x.example", "locked",
                              "x", NOW) == 0);
    int fd = open(lock, O_RDWR | O_CREAT, 0600);
    CHECK(fd >= 0 && flock(fd, LOCK_EX) == 0);
    dj_outbox_pass pass;
    /* flock locks belong to the open file: a second open is another
     * holder, as another process would be. */
    CHECK(dj_outbox_flush(s, snd, &c, NOW, NULL, NULL, &pass) == 0);
    CHECK(pass.busy && pass.sent == 0);
    close(fd);
    CHECK(dj_outbox_flush(s, snd, &c, NOW, NULL, NULL, &pass) == 0);
    CHECK(!pass.busy && pass.sent == 1);
    dj_sender_close(snd);
}

/* A sendmail program failing for some recipients: 75 (temporary) for
 * tmp@..., 67 (no such user: permanent) for perm@..., else delivered. */
static dj_sender *stub_sender(void)
{
    char stub[512], err[256];
    snprintf(stub, sizeof stub, "%s/sendmail-stub", dir);
    FILE *f = fopen(stub, "w");
    if (!f)
        return NULL;
    fprintf(f, "#!/bin/sh\n"
               "case \"$*\" in *tmp@*) exit 75;; *perm@*) exit 67;; esac\n"
               "cat >>'%s/stub-delivered'\nexit 0\n",
            dir);
    fclose(f);
    chmod(stub, 0755);
    dj_send_config sc;
    memset(&sc, 0, sizeof sc);
    sc.kind = DJ_SEND_SENDMAIL;
    sc.sendmail = stub;
    dj_sender *s = dj_sender_open(&sc, err, sizeof err);
    if (!s)
        fprintf(stderr, "%s\n", err);
    return s;
}

static void test_retries(void)
{
    dj_store *s = dj_judge_store(J);
    dj_sender *snd = stub_sender();
    CHECK(snd != NULL);
    if (!snd)
        return;
    dj_outbox_config c = ocfg();
    dj_outbox_pass pass;
    CHECK(dj_store_outbox_add(s, 0, 0, "notice", "perm@x.example",
                              "permanent", "x", NOW) == 0);
    int reports = count_rows("admin", "sent");
    CHECK(dj_outbox_flush(s, snd, &c, NOW, NULL, NULL, &pass) == 0);
    /* Failed at once; the admin's report goes out in the same pass. */
    CHECK(pass.failed == 1 && pass.retried == 0 && pass.sent == 1);
    CHECK(count_rows("admin", "sent") == reports + 1);

    CHECK(dj_store_outbox_add(s, 0, 0, "notice", "tmp@x.example",
                              "temporary", "x", NOW) == 0);
    CHECK(dj_store_outbox_add(s, 0, 0, "notice", "ok@x.example", "fine",
                              "x", NOW) == 0);
    /* Attempt 1 fails and stops the pass: "fine" waits, uncounted. */
    CHECK(dj_outbox_flush(s, snd, &c, NOW, NULL, NULL, &pass) == 0);
    CHECK(pass.retried == 1 && pass.sent == 0);
    int64_t at = 0;
    CHECK(dj_store_outbox_next_time(s, &at) == 0 && at <= NOW); /* "fine" */
    /* Before the backoff is over the row is not tried again. */
    CHECK(dj_outbox_flush(s, snd, &c, NOW + 10, NULL, NULL, &pass) == 0);
    CHECK(pass.retried == 0 && pass.sent == 1);
    CHECK(dj_store_outbox_next_time(s, &at) == 0 && at == NOW + 60);
    CHECK(dj_outbox_flush(s, snd, &c, NOW + 60, NULL, NULL, &pass) == 0);
    CHECK(pass.retried == 1);
    CHECK(dj_store_outbox_next_time(s, &at) == 0 && at == NOW + 60 + 120);
    /* The third attempt is the last: failed, and the admin told. */
    CHECK(dj_outbox_flush(s, snd, &c, NOW + 180, NULL, NULL, &pass) == 0);
    CHECK(pass.failed == 1 && pass.retried == 0);
    CHECK(count_rows("admin", "queued") == 1);
    CHECK(dj_outbox_flush(s, snd, &c, NOW + 180, NULL, NULL, &pass) == 0);
    CHECK(pass.sent == 1);
    CHECK(count_rows(NULL, "queued") == 0);
    dj_sender_close(snd);
}

typedef struct flush_job {
    const char *point;
    const char *box;
} flush_job;

static void flush_child(void *arg)
{
    const flush_job *job = arg;
    char err[512], maps[512];
    dj_config cfg;
    dj_config_defaults(&cfg);
    snprintf(cfg.database, sizeof cfg.database, "%s/judge.db", dir);
    snprintf(maps, sizeof maps, "%s/maps", srcdir);
    dj_judge *j = dj_judge_open(&cfg, maps, err, sizeof err);
    dj_sender *snd = maildir_sender(job->box);
    if (!j || !snd)
        _exit(1);
    crash_at ca = {job->point};
    dj_outbox_config c = ocfg();
    c.fault = die_at;
    c.fault_ctx = &ca;
    dj_outbox_pass pass;
    dj_outbox_flush(dj_judge_store(j), snd, &c, NOW, NULL, NULL, &pass);
    _exit(0);
}

static void test_send_crashes(void)
{
    dj_store *s = dj_judge_store(J);
    static const char *const points[] = {"send-claimed", "send-accepted",
                                         "send-marked"};
    static const char *const boxes[] = {"out-claimed", "out-accepted",
                                        "out-marked"};
    /* One copy each: after send-accepted the re-send finds the file the
     * Maildir transport named after the outbox row. */
    static const int copies[] = {1, 1, 1};
    for (int i = 0; i < 3; i++) {
        char subject[64];
        snprintf(subject, sizeof subject, "crash %s", points[i]);
        CHECK(dj_store_outbox_add(s, 0, 0, "notice", "p1@x.example",
                                  subject, "x", NOW) == 0);
        flush_job job = {points[i], boxes[i]};
        CHECK(in_child(flush_child, &job));
        int sending = 0;
        CHECK(dj_store_outbox_counts(s, NULL, &sending, NULL, NULL) == 0);
        CHECK(sending == (i < 2 ? 1 : 0));
        dj_sender *snd = maildir_sender(boxes[i]);
        dj_outbox_config c = ocfg();
        dj_outbox_pass pass;
        CHECK(dj_outbox_flush(s, snd, &c, NOW, NULL, NULL, &pass) == 0);
        CHECK(pass.recovered == (i < 2 ? 1 : 0));
        CHECK(pass.sent == (i < 2 ? 1 : 0));
        dj_sender_close(snd);
        char want[128];
        snprintf(want, sizeof want, "Subject: %s", subject);
        CHECK(files_with(boxes[i], want) == copies[i]);
        CHECK(files_with(boxes[i], "Message-ID: <dj.") == copies[i]);
        CHECK(count_rows(NULL, "queued") == 0);
    }
}

int main(int argc, char **argv)
{
    srcdir = test_srcdir(argc, argv);
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/dj-ingest-XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    setup();
    test_orders_and_duplicates();
    test_ignored();
    test_refusals();
    test_rate_limit();
    test_ingest_crashes();
    test_backoff();
    test_flush_maildir();
    test_lock();
    test_retries();
    test_send_crashes();
    dj_judge_close(J);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return test_summary();
}
