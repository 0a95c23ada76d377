/* SPDX-License-Identifier: MIT */
/*
 * daemon.h — the judge's working cycle, as judged(8) runs it: one ingest
 * pass over the inbound mailbox (ingest.h), the deadline tick
 * (dj_judge_tick), the outbox flushed (outbox.h), and for `judged run` the
 * loop of the three with its waits, its signals (SIGTERM and SIGINT stop it
 * between two steps, SIGHUP asks for judge.conf to be read again) and what
 * it logs.  The program (src/cli/judged.c) reads its options and
 * judge.conf, opens the judge, the mailbox and the transport, and fills a
 * dj_daemon; the clock, the log and the re-reading of judge.conf are its
 * callbacks, so that this room knows no configuration file and no test
 * hook.
 *
 * Log levels are syslog(3)'s (LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG).
 */
#ifndef DJ_JUDGE_DAEMON_H
#define DJ_JUDGE_DAEMON_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "judge/ingest.h"
#include "judge/outbox.h"
#include "mail/fetch.h"
#include "mail/send.h"

/* What the program lends the daemon. */
typedef struct dj_daemon_ops {
    void *ctx;
    /* The time now, UTC seconds (the test copies: their clock). */
    int64_t (*now)(void *ctx);
    /* One line of the log, at a syslog(3) level. */
    void (*log)(void *ctx, int level, const char *msg);
    /* SIGHUP came: read the settings again and reopen what they name (the
     * fields below may change); dj_daemon_stop() when nothing opens. */
    void (*reload)(void *ctx);
} dj_daemon_ops;

typedef struct dj_daemon {
    /* Set by the program (and again by its reload). */
    dj_judge *j;
    dj_fetcher *fetcher;          /* NULL for deliver: no mailbox */
    dj_sender *sender;            /* NULL: nothing opened to send with */
    dj_ingest_config icfg;
    dj_outbox_config ocfg;
    bool no_send, no_tick;        /* --no-send, --no-tick */
    bool imap, idle;              /* the mailbox is IMAP; IDLE on it */
    int poll_interval;            /* seconds between looks at the mailbox */
    int tick_interval;            /* seconds between two ticks */
    dj_daemon_ops ops;
    /* The daemon's own. */
    int last_fetch_status; /* to log a mailbox's trouble once, not per pass */
    bool send_unusable;    /* the outbound server refused us (logged once) */
    bool trouble;          /* once: something failed */
} dj_daemon;

/* Messages a pass of the daemon takes at most from the mailbox. */
#define DJ_DAEMON_BATCH 100

/* One ingest pass of at most `batch` messages.  Returns the messages seen,
 * or -1 on mailbox trouble (logged once until it works again). */
int dj_daemon_ingest_pass(dj_daemon *d, size_t batch);

/* The deadline tick, each thing it did logged, its time recorded. */
void dj_daemon_tick(dj_daemon *d);

/* The outbox sent (nothing with no_send), each mail's fate logged. */
void dj_daemon_flush(dj_daemon *d);

/* The log line of one message ingested (deliver logs its one so). */
void dj_daemon_note_message(dj_daemon *d, const char *mailbox_id,
                            const dj_ingest_result *r);

/* SIGTERM, SIGINT and SIGHUP caught for dj_daemon_run, SIGPIPE ignored. */
void dj_daemon_install_signals(void);

/* Stop the loop before its next step, as if signal `sig` had come. */
void dj_daemon_stop(int sig);

/*
 * `judged run`: ingest, flush the replies, tick when due, flush, then wait
 * for new mail, the next tick or the next mail to retry, whichever comes
 * first; until a signal stops it.  Returns the signal that did (SIGHUP:
 * the settings could not be reopened after a reload).
 */
int dj_daemon_run(dj_daemon *d);

#endif
