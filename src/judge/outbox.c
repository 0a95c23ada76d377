/* SPDX-License-Identifier: MIT */
/*
 * outbox.c — the outbox sender.  See outbox.h for the protocol (claim,
 * send, mark) and the one duplicate it can produce.
 *
 * The order inside send_row() is the whole point: claim committed ->
 * compose -> transport -> mark committed, with nothing between the
 * transport's return and the mark.
 */
#define _POSIX_C_SOURCE 200809L

#include "judge/outbox.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <unistd.h>

#include "judge/admin_notice.h"
#include "mail/compose.h"
#include "mail/message.h"
#include "store/mail.h"
#include "util/buf.h"

#define MAX_RCPTS 64
#define DEFAULT_ATTEMPTS 8
#define DEFAULT_DELAY 60
#define DEFAULT_MAX_DELAY (6 * 3600)

static void fault(const dj_outbox_config *cfg, const char *point)
{
    if (cfg->fault)
        cfg->fault(cfg->fault_ctx, point);
}

int64_t dj_outbox_backoff(const dj_outbox_config *cfg, int attempt)
{
    int64_t delay = cfg->retry_delay > 0 ? cfg->retry_delay : DEFAULT_DELAY;
    int64_t cap =
        cfg->retry_max_delay > 0 ? cfg->retry_max_delay : DEFAULT_MAX_DELAY;
    for (int i = 1; i < attempt && delay < cap; i++)
        delay *= 2;
    return delay < cap ? delay : cap;
}

/* ---- the lock ------------------------------------------------------------ */

/* -1: error; 0: someone else holds it; 1: ours (fd in *fd). */
static int take_lock(const char *path, int *fd)
{
    *fd = -1;
    if (!path)
        return 1;
    int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (f < 0)
        return -1;
    if (flock(f, LOCK_EX | LOCK_NB) < 0) {
        int e = errno;
        close(f);
        return e == EWOULDBLOCK ? 0 : -1;
    }
    *fd = f;
    return 1;
}

static void drop_lock(int fd)
{
    if (fd >= 0) {
        flock(fd, LOCK_UN);
        close(fd);
    }
}

/* ---- one row ------------------------------------------------------------- */

/* "<dj.ROW.RANDOM@domain>", the judge's domain when it has one. */
static void new_message_id(const dj_outbox_config *cfg, int64_t row,
                           char *out, size_t outlen)
{
    const char *at = cfg->judge_address ? strrchr(cfg->judge_address, '@')
                                        : NULL;
    const char *domain = at && at[1] ? at + 1 : "dipjudge.invalid";
    unsigned long long r;
    dj_mail_random(&r, sizeof r);
    snprintf(out, outlen, "<dj.%lld.%016llx@%s>", (long long)row, r, domain);
}

/*
 * Split "a@x, b@y" into at most MAX_RCPTS addresses (pointers into buf,
 * which is modified), leaving out the judge's own address.
 */
static size_t split_rcpts(char *buf, const char *own, const char **out)
{
    size_t n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok && n < MAX_RCPTS;
         tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ' || *tok == '\t')
            tok++;
        size_t len = strlen(tok);
        while (len && (tok[len - 1] == ' ' || tok[len - 1] == '\t'))
            tok[--len] = '\0';
        if (!*tok || dj_address_is_judges(tok, own))
            continue;
        out[n++] = tok;
    }
    return n;
}

/* Queue a report of an undeliverable row to the admin (not for admin's). */
static int report_failure(dj_store *s, const dj_outbox_config *cfg,
                          const dj_outbox_send_rec *row, const char *why,
                          int64_t now)
{
    if (strcmp(row->kind, DJ_ADMIN_NOTICE_KIND) == 0)
        return 0;
    dj_buf body;
    dj_buf_init(&body);
    dj_buf_printf(&body,
                  "The judge gave up sending this mail after %d "
                  "attempt%s:\n\n"
                  "  outbox row: %lld (%s)\n"
                  "  to:         %s\n"
                  "  subject:    %s\n"
                  "  message-id: %s\n"
                  "  last error: %s\n\n"
                  "It stays in the outbox as \"failed\" (judgectl outbox "
                  "shows it).  Check the address or the mail transport.\n",
                  row->attempts, row->attempts == 1 ? "" : "s",
                  (long long)row->id, row->kind, row->recipients,
                  row->subject, row->message_id, why);
    int rc = dj_admin_notice(s, cfg->admin_address, cfg->judge_name,
                                  "Undeliverable mail", &body, now);
    dj_buf_free(&body);
    return rc;
}

/* Give up on a row: failed, and the admin told, in one transaction. */
static int give_up(dj_store *s, const dj_outbox_config *cfg,
                   const dj_outbox_send_rec *row, const char *why,
                   int64_t now)
{
    if (dj_store_begin(s) < 0)
        return -1;
    if (dj_store_outbox_mark_failed(s, row->id, why, now) < 0 ||
        report_failure(s, cfg, row, why, now) < 0 ||
        dj_store_commit(s) < 0) {
        dj_store_rollback(s);
        return -1;
    }
    return 0;
}

static void note_row(dj_outbox_note_fn note, void *ud, dj_outbox_event ev,
                     const dj_outbox_send_rec *row, const char *detail)
{
    if (note)
        note(ud, ev, row, detail);
}

/* Compose a claimed row into msg.  PERMFAIL when it cannot be (bad
 * addresses, nobody left to send to). */
static dj_mail_status compose_row(const dj_outbox_config *cfg,
                                  const dj_outbox_send_rec *row, char *rbuf,
                                  const char **rcpts, size_t *nrcpt,
                                  dj_buf *msg, char *err, size_t errlen)
{
    *nrcpt = split_rcpts(rbuf, cfg->judge_address, rcpts);
    if (*nrcpt == 0)
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "no recipient (the judge never mails itself)");
    dj_compose_addr to[MAX_RCPTS];
    for (size_t i = 0; i < *nrcpt; i++) {
        to[i].name = NULL;
        to[i].addr = rcpts[i];
    }
    dj_compose c;
    memset(&c, 0, sizeof c);
    c.from.name = cfg->judge_name;
    c.from.addr = cfg->judge_address;
    c.to = to;
    c.nto = *nrcpt;
    c.subject = row->subject;
    c.in_reply_to = row->in_reply_to[0] ? row->in_reply_to : NULL;
    c.x_loop = cfg->judge_address;
    c.auto_submitted = strcmp(row->kind, "reply") == 0 ||
                               strcmp(row->kind, "refusal") == 0 ||
                               strcmp(row->kind, "signon-failed") == 0
                           ? DJ_AUTO_REPLIED
                           : DJ_AUTO_GENERATED;
    c.message_id = row->message_id;
    c.body = row->body;
    /* A game's mail to one participant: answering it signs them on. */
    char reply_addr[DJ_MSG_ADDR_MAX];
    dj_compose_addr reply_to = {NULL, reply_addr};
    if (cfg->reply_to && row->game_id > 0 && *nrcpt == 1 &&
        cfg->reply_to(cfg->reply_to_ctx, row, rcpts[0], reply_addr,
                      sizeof reply_addr) == 0 &&
        dj_compose_addr_ok(reply_addr))
        c.reply_to = &reply_to;
    dj_compose_attachment pic = {row->picture_name, row->picture_type,
                                 row->picture, row->picture_len};
    if (row->picture)
        c.attachment = &pic;
    c.calendar = row->calendar;
    return dj_compose_message(&c, msg, NULL, err, errlen);
}

/*
 * Claim, send and mark one row.  Returns -1 on a database error, else
 * the transport's status (TEMPFAIL stops the pass).
 */
static int send_row(dj_store *s, dj_sender *snd, const dj_outbox_config *cfg,
                    dj_outbox_send_rec *row, int64_t now,
                    dj_outbox_note_fn note, void *ud, dj_outbox_pass *pass)
{
    char msgid[DJ_OUTBOX_MSGID_MAX];
    new_message_id(cfg, row->id, msgid, sizeof msgid);
    int rc = dj_store_outbox_claim(s, row, msgid, now);
    if (rc == DJ_STORE_NOTFOUND)
        return DJ_MAIL_OK; /* another sender took it */
    if (rc < 0)
        return -1;
    fault(cfg, "send-claimed");

    char err[DJ_MAIL_ERR_MAX] = "";
    if (row->picture_phase_id > 0 && cfg->picture && !row->picture &&
        cfg->picture(cfg->picture_ctx, row) < 0) {
        free(row->picture);
        row->picture = NULL; /* the mail goes, without its picture */
        row->picture_len = 0;
    }
    char *rbuf = strdup(row->recipients);
    const char *rcpts[MAX_RCPTS];
    size_t nrcpt = 0;
    dj_buf msg;
    dj_buf_init(&msg);
    dj_mail_status st;
    if (!rbuf)
        st = dj_mail_fail(err, sizeof err, DJ_MAIL_TEMPFAIL, "out of memory");
    else
        st = compose_row(cfg, row, rbuf, rcpts, &nrcpt, &msg, err,
                         sizeof err);
    if (st == DJ_MAIL_OK && !dj_buf_ok(&msg))
        st = dj_mail_fail(err, sizeof err, DJ_MAIL_TEMPFAIL, "out of memory");
    dj_mail_status rst[MAX_RCPTS];
    if (st == DJ_MAIL_OK) {
        char name[64];
        snprintf(name, sizeof name, "%lld.Q%lld.dipjudge",
                 (long long)row->created_at, (long long)row->id);
        dj_sender_set_name(snd, name);
        st = dj_sender_send(snd, msg.data, msg.len, cfg->judge_address,
                            rcpts, nrcpt, rst, err, sizeof err);
        if (st == DJ_MAIL_OK) {
            /* The window: accepted, not yet marked.  Nothing between. */
            fault(cfg, "send-accepted");
            rc = dj_store_outbox_mark_sent(s, row->id, now);
            if (rc == 0)
                fault(cfg, "send-marked");
        }
    }
    dj_buf_free(&msg);
    free(rbuf);
    if (st == DJ_MAIL_OK) {
        if (rc < 0)
            return -1;
        pass->sent++;
        note_row(note, ud, DJ_OUTBOX_SENT, row, err[0] ? err : "");
        return DJ_MAIL_OK;
    }
    int max = cfg->max_attempts > 0 ? cfg->max_attempts : DEFAULT_ATTEMPTS;
    if (st == DJ_MAIL_UNUSABLE) {
        /* Nothing was tried: queued again, the attempt not counted, and
         * the pass stops until the admin mends the transport. */
        if (dj_store_outbox_unclaim(s, row->id,
                                    now + dj_outbox_backoff(cfg, 1), err) < 0)
            return -1;
        pass->retried++;
        note_row(note, ud, DJ_OUTBOX_UNUSABLE, row, err);
        return DJ_MAIL_TEMPFAIL;
    }
    if (st == DJ_MAIL_TEMPFAIL && row->attempts < max) {
        int64_t next = now + dj_outbox_backoff(cfg, row->attempts);
        if (dj_store_outbox_mark_retry(s, row->id, next, err) < 0)
            return -1;
        pass->retried++;
        note_row(note, ud, DJ_OUTBOX_RETRY, row, err);
        return DJ_MAIL_TEMPFAIL;
    }
    if (give_up(s, cfg, row, err, now) < 0)
        return -1;
    pass->failed++;
    note_row(note, ud, DJ_OUTBOX_FAILED, row, err);
    /* A transport that failed temporarily stops the pass either way. */
    return st == DJ_MAIL_TEMPFAIL ? DJ_MAIL_TEMPFAIL : DJ_MAIL_PERMFAIL;
}

/* Queue again the rows a dead sender left "sending" (under the lock). */
static int recover(dj_store *s, int64_t now, dj_outbox_note_fn note,
                   void *ud, dj_outbox_pass *pass)
{
    int n = 0;
    if (dj_store_outbox_recover(s, now, &n) < 0)
        return -1;
    pass->recovered = n;
    if (n > 0 && note) {
        dj_outbox_send_rec none;
        memset(&none, 0, sizeof none);
        char what[64];
        snprintf(what, sizeof what, "%d row%s", n, n == 1 ? "" : "s");
        note(ud, DJ_OUTBOX_RECOVERED, &none, what);
    }
    return 0;
}

int dj_outbox_flush(dj_store *s, dj_sender *snd, const dj_outbox_config *cfg,
                    int64_t now, dj_outbox_note_fn note, void *ud,
                    dj_outbox_pass *pass)
{
    memset(pass, 0, sizeof *pass);
    int lockfd;
    int locked = take_lock(cfg->lock_path, &lockfd);
    if (locked < 0)
        return dj_store_fail(s, "cannot lock %s: %s", cfg->lock_path,
                             strerror(errno));
    if (locked == 0) {
        pass->busy = true;
        return 0;
    }
    int rc = recover(s, now, note, ud, pass);
    int64_t after = 0;
    size_t done = 0;
    while (rc == 0 && (!cfg->max_rows || done < cfg->max_rows)) {
        dj_outbox_send_rec row;
        int got = dj_store_outbox_next_due(s, now, after, &row);
        if (got == DJ_STORE_NOTFOUND)
            break;
        if (got < 0) {
            rc = -1;
            break;
        }
        after = row.id;
        done++;
        int st = send_row(s, snd, cfg, &row, now, note, ud, pass);
        dj_outbox_send_rec_free(&row);
        if (st < 0)
            rc = -1;
        else if (st == DJ_MAIL_TEMPFAIL)
            break;
    }
    drop_lock(lockfd);
    return rc;
}
