/* SPDX-License-Identifier: MIT */
/*
 * daemon.c — the judge's working cycle: the three steps (ingest, tick,
 * flush) with what each logs, and the loop of `judged run` with its waits
 * and signals.  See daemon.h; the program that fills a dj_daemon is
 * src/cli/judged.c.
 *
 * No globals but two: the signal handlers' flags (volatile sig_atomic_t,
 * the only thing a handler may safely write), stop and re-read
 * judge.conf, read by the loop.  Everything else lives in the dj_daemon.
 */
#define _POSIX_C_SOURCE 200809L

#include "judge/daemon.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "game/game.h"
#include "game/process.h"
#include "mail/authres.h"
#include "mail/transport.h"
#include "store/health.h"
#include "store/sending.h"
#include "util/buf.h"
#include "util/fmt.h"

#define SLICE_MS 1000     /* longest sleep between looks at the stop flag */
#define IDLE_SLICE_MS (5 * 60 * 1000) /* one IMAP IDLE at most */

/*
 * Set by the SIGTERM/SIGINT handler (or dj_daemon_stop), read by the loop.
 * A signal handler may only write a volatile sig_atomic_t.
 */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

/* The other: set by SIGHUP, judge.conf to be read again (judged run). */
static volatile sig_atomic_t reload_signal;

static void on_hangup(int sig)
{
    (void)sig;
    reload_signal = 1;
}

void dj_daemon_install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a wait returns at once */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sa.sa_handler = on_hangup;
    sigaction(SIGHUP, &sa, NULL);  /* judge.conf read again */
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL); /* a server hanging up is an error */
}

void dj_daemon_stop(int sig)
{
    stop_signal = sig;
}

/* ---- logging and the clock ------------------------------------------------ */

static void logmsg(const dj_daemon *d, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void logmsg(const dj_daemon *d, int level, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt(msg, sizeof msg, fmt, ap);
    va_end(ap);
    d->ops.log(d->ops.ctx, level, msg);
}

static int64_t clock_now(const dj_daemon *d)
{
    return d->ops.now(d->ops.ctx);
}

/* ---- the three steps ---------------------------------------------------------- */

void dj_daemon_note_message(dj_daemon *d, const char *mailbox_id,
                            const dj_ingest_result *r)
{
    logmsg(d, LOG_DEBUG, "message %s: %s mail, signed on by %s, write lock "
                         "%lld us",
           mailbox_id ? mailbox_id : "-", r->sender_class, r->signed_on_by,
           (long long)r->lock_us);
    /* the mail system's verdict, when authentication is configured */
    char auth[sizeof r->auth.verdict + 32] = "";
    if (d->icfg.n_authserv_ids && r->auth.verdict[0])
        snprintf(auth, sizeof auth, " (%s: %s)",
                 dj_auth_class_name(r->auth.cls), r->auth.verdict);
    logmsg(d, r->status == DJ_INGEST_RETRY ? LOG_WARNING : LOG_INFO,
           "message %s <%s> from %s%s: %s%s%s%s%s",
           mailbox_id ? mailbox_id : "-", r->message_id,
           r->sender[0] ? r->sender : "(no sender)", auth,
           dj_ingest_status_name(r->status), r->outcome[0] ? ", " : "",
           r->outcome, r->error[0] ? ": " : "", r->error);
}

static void note_message(void *ud, const char *mailbox_id,
                         const dj_ingest_result *r)
{
    dj_daemon_note_message(ud, mailbox_id, r);
}

static const char *const EVENT_NAMES[] = {"sent", "retry later", "FAILED",
                                          "recovered", "unusable"};

static void note_row(void *ud, dj_outbox_event ev,
                     const dj_outbox_send_rec *row, const char *detail)
{
    dj_daemon *d = ud;
    if (ev == DJ_OUTBOX_RECOVERED) {
        logmsg(d, LOG_WARNING,
               "outbox: %s left 'sending' by a stopped sender: sent again "
               "(the one possible duplicate, see judged(8))",
               detail);
        return;
    }
    if (ev == DJ_OUTBOX_UNUSABLE) {
        /* Permanent, as for the inbound mailbox: said at once, as an
         * error, and once until it works again. */
        if (!d->send_unusable)
            logmsg(d, LOG_ERR,
                   "outbound server unusable: %s; nothing is sent (the mail "
                   "stays queued) until judge.conf's outbound is mended",
                   detail ? detail : "");
        d->send_unusable = true;
        return;
    }
    if (ev == DJ_OUTBOX_SENT && d->send_unusable) {
        logmsg(d, LOG_INFO, "outbound server: working again");
        d->send_unusable = false;
    }
    logmsg(d, ev == DJ_OUTBOX_SENT ? LOG_INFO : LOG_WARNING,
           "outbox row %lld (%s) to %s, attempt %d: %s%s%s",
           (long long)row->id, row->kind, row->recipients, row->attempts,
           EVENT_NAMES[ev], detail && detail[0] ? ": " : "",
           detail ? detail : "");
}

int dj_daemon_ingest_pass(dj_daemon *d, size_t batch)
{
    dj_judge_set_now(d->j, clock_now(d));
    dj_ingest_pass pass;
    char err[DJ_MAIL_ERR_MAX] = "";
    dj_mail_status st = dj_ingest_fetch(d->j, &d->icfg, d->fetcher, batch,
                                        note_message, d, &pass, err,
                                        sizeof err);
    if (pass.quarantined)
        logmsg(d, LOG_WARNING,
               "inbound mailbox: %d message%s failed %d times and %s moved "
               "aside (the admin is told)",
               pass.quarantined, pass.quarantined == 1 ? "" : "s",
               d->icfg.max_tries, pass.quarantined == 1 ? "was" : "were");
    if (st != DJ_MAIL_OK) {
        d->trouble = true;
        if ((int)st != d->last_fetch_status)
            logmsg(d, st == DJ_MAIL_PERMFAIL ? LOG_ERR : LOG_WARNING,
                   "inbound mailbox: %s: %s", dj_mail_status_name(st), err);
        d->last_fetch_status = (int)st;
        return -1;
    }
    if (d->last_fetch_status != DJ_MAIL_OK)
        logmsg(d, LOG_INFO, "inbound mailbox: working again");
    d->last_fetch_status = DJ_MAIL_OK;
    return pass.seen;
}

void dj_daemon_tick(dj_daemon *d)
{
    dj_judge_set_now(d->j, clock_now(d));
    dj_buf out;
    dj_buf_init(&out);
    int processed = 0;
    int rc = dj_judge_tick(d->j, &out, &processed);
    /* One line per thing done ("alpha: S1901M processed", reminders...). */
    char *line = out.data;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (*line)
            logmsg(d, LOG_INFO, "tick: %s", line);
        line = nl ? nl + 1 : NULL;
    }
    if (rc < 0) {
        d->trouble = true;
        logmsg(d, LOG_ERR, "tick: %s", dj_judge_error(d->j));
    } else if (dj_store_tick_record(dj_judge_store(d->j), clock_now(d)) < 0) {
        logmsg(d, LOG_WARNING, "tick: its time not recorded (judgectl "
               "status): %s", dj_store_error(dj_judge_store(d->j)));
    }
    dj_buf_free(&out);
}

void dj_daemon_flush(dj_daemon *d)
{
    if (d->no_send)
        return;
    dj_outbox_pass pass;
    dj_store *s = dj_judge_store(d->j);
    if (dj_outbox_flush(s, d->sender, &d->ocfg, clock_now(d), note_row, d,
                        &pass) < 0) {
        d->trouble = true;
        logmsg(d, LOG_ERR, "outbox: %s", dj_store_error(s));
        return;
    }
    if (pass.busy)
        logmsg(d, LOG_DEBUG, "outbox: another judged is sending");
    if (pass.retried || pass.failed)
        d->trouble = true;
}

/* ---- the loop ------------------------------------------------------------------- */

/* Milliseconds from now until t (seconds), at least 0, at most cap. */
static int64_t ms_until(const dj_daemon *d, int64_t t, int64_t cap)
{
    int64_t ms = (t - clock_now(d)) * 1000;
    if (ms < 0)
        ms = 0;
    return ms < cap ? ms : cap;
}

/*
 * Wait for new mail, a due time or a signal, whichever comes first: in
 * slices of at most a second (an IMAP IDLE: until the server speaks, a
 * signal interrupts it), so SIGTERM is seen within a second.  When the
 * mailbox cannot be waited on (IMAP with idle off, or the server gone),
 * just sleep: the next pass looks.
 */
static void wait_a_while(dj_daemon *d, int64_t ms)
{
    bool idle = d->imap && d->idle;
    bool use_wait = !d->imap || idle;
    while (ms > 0 && !stop_signal && !reload_signal) {
        int64_t slice = idle ? IDLE_SLICE_MS : SLICE_MS;
        if (slice > ms)
            slice = ms;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        bool woken = false;
        char err[DJ_MAIL_ERR_MAX];
        if (!use_wait) {
            struct timespec ts = {(time_t)(slice / 1000),
                                  (long)(slice % 1000) * 1000000L};
            nanosleep(&ts, NULL); /* a signal cuts it short */
        } else if (dj_fetch_wait(d->fetcher, (int)slice, &woken, err,
                                 sizeof err) != DJ_MAIL_OK) {
            logmsg(d, LOG_DEBUG, "wait: %s", err);
            use_wait = idle = false;
        }
        if (woken)
            return;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        int64_t spent = (int64_t)(t1.tv_sec - t0.tv_sec) * 1000 +
                        (t1.tv_nsec - t0.tv_nsec) / 1000000;
        ms -= spent > 0 ? spent : 1;
    }
}

int dj_daemon_run(dj_daemon *d)
{
    int64_t next_tick = clock_now(d);
    while (!stop_signal) {
        if (reload_signal) {
            reload_signal = 0;
            d->ops.reload(d->ops.ctx);
            if (stop_signal)
                break;
        }
        int seen = dj_daemon_ingest_pass(d, DJ_DAEMON_BATCH);
        if (stop_signal)
            break;
        if (seen > 0)
            dj_daemon_flush(d); /* replies out at once */
        if (!d->no_tick && clock_now(d) >= next_tick) {
            dj_daemon_tick(d);
            next_tick = clock_now(d) + d->tick_interval;
        }
        if (stop_signal)
            break;
        dj_daemon_flush(d);
        if (seen == DJ_DAEMON_BATCH)
            continue; /* more waiting */
        int64_t cap = (int64_t)d->poll_interval * 1000;
        int64_t ms = d->no_tick ? cap : ms_until(d, next_tick, cap);
        int64_t due;
        if (!d->no_send &&
            dj_store_outbox_next_time(dj_judge_store(d->j), &due) == 0)
            ms = ms_until(d, due, ms);
        wait_a_while(d, ms);
    }
    return (int)stop_signal;
}
