/* SPDX-License-Identifier: MIT */
/*
 * test_hooks.h — the test suite's ways into what no real run reaches: a
 * clock set by the test, a crash at a chosen database write or at a named
 * point of ingest or sending, a message that fails as a bug would, and
 * engines that disagree.  The one place these hooks are described.
 *
 * They are compiled only into the copies of the programs that `make
 * check` runs (tests/bin/judgectl and tests/bin/judged, built with
 * -DDJ_TEST_HOOKS, as SQLite builds its test fixture with SQLITE_TEST).
 * The installed judgectl and judged are built without: there every
 * function below is an empty inline, the environment is never read and
 * no hook's name is in the binary (tests/scripts/test-hooks.sh checks it
 * with strings(1)).
 *
 * In the test copies, from the environment:
 *
 *   DIPJUDGE_NOW=SECONDS      the time to act at (seconds since 1970, or
 *                             "2027-01-09 20:00" UTC); judgectl's clock
 *                             stands there, judged's runs on from it
 *   DIPJUDGE_CRASH_AT=N       exit at the N-th database write point
 *                             (dj_store_crash_at), as if killed
 *   DIPJUDGE_CRASH_POINT=NAME[:N]
 *                             judged: exit at the N-th pass through a
 *                             named point of ingest or sending
 *                             (ingest-logged, ingest-executed,
 *                             ingest-committed, send-claimed,
 *                             send-accepted, send-marked)
 *   DIPJUDGE_TEST_POISON=TEXT judged: a message containing TEXT fails as
 *                             a bug would (not as a busy database)
 *   DIPJUDGE_TEST_DISAGREE=1  the verifying engine's result is changed,
 *                             so that the engines disagree
 *   DIPJUDGE_TEST_FETCH_PROBE=1
 *                             judged: the isolated IMAP/POP3 reader, once
 *                             restricted (fetch_child.c), tries to open
 *                             /etc/hostname and to make a socket, and says
 *                             on stderr what happened ("fetch reader
 *                             probe: open: ...; socket: ...")
 *   DIPJUDGE_TEST_LOCK_LOG=FILE
 *                             append to FILE, one line per write
 *                             transaction, how long it held the
 *                             database's write lock, in microseconds
 *                             (dj_store_lock_observer; make bench-ingest)
 *
 * The libraries only offer the seams (dj_store_crash_at,
 * dj_store_lock_observer, the fault
 * callbacks of dj_ingest_config and dj_outbox_config, test_fail_marker,
 * dj_judge_set_verifier_hook); only this file sets them.
 */
#ifndef DJ_CLI_TEST_HOOKS_H
#define DJ_CLI_TEST_HOOKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "game/game.h"
#include "judge/ingest.h"
#include "judge/outbox.h"
#include "mail/fetch.h"

typedef struct dj_test_hooks {
    const char *program;   /* "judged": names the crash in its message */
    bool clock_set;        /* DIPJUDGE_NOW */
    bool clock_runs;       /* judged: the clock runs on from it */
    int64_t clock_base;
    int64_t clock_start;   /* time() when it was read */
    long crash_at;         /* DIPJUDGE_CRASH_AT, or 0 */
    char crash_point[32];  /* DIPJUDGE_CRASH_POINT's NAME, or "" */
    long crash_point_at;
    long crash_point_seen;
    const char *poison;    /* DIPJUDGE_TEST_POISON, or NULL */
    bool disagree;         /* DIPJUDGE_TEST_DISAGREE */
    const char *lock_log;  /* DIPJUDGE_TEST_LOCK_LOG, or NULL */
    bool fetch_probe;      /* DIPJUDGE_TEST_FETCH_PROBE */
} dj_test_hooks;

#ifdef DJ_TEST_HOOKS

/* Read the hooks from the environment for `program` (whose clock runs on
 * when clock_runs); 0, or -1 with the reason in err. */
int dj_test_hooks_read(dj_test_hooks *h, const char *program,
                       bool clock_runs, char *err, size_t errlen);
/* The time now: the test's clock when set, else the system's. */
int64_t dj_test_hooks_now(const dj_test_hooks *h);
/* Arm the session's hooks: the crash at a write, the disagreement. */
void dj_test_hooks_judge(const dj_test_hooks *h, dj_judge *j);
/* Arm ingest's and sending's: the crash points, the poison. */
void dj_test_hooks_ingest(dj_test_hooks *h, dj_ingest_config *c);
void dj_test_hooks_outbox(dj_test_hooks *h, dj_outbox_config *c);
/* Arm the isolated mail reader's probe (inline: judgectl's test copy,
 * which reads no mail, links no mail library). */
static inline void dj_test_hooks_fetcher(const dj_test_hooks *h,
                                         dj_fetch_config *c)
{
    if (h->fetch_probe)
        c->child_restricted = dj_fetch_probe;
}

#else /* the installed programs: no hooks */

static inline int dj_test_hooks_read(dj_test_hooks *h, const char *program,
                                     bool clock_runs, char *err,
                                     size_t errlen)
{
    (void)h, (void)program, (void)clock_runs, (void)err, (void)errlen;
    return 0;
}
static inline int64_t dj_test_hooks_now(const dj_test_hooks *h)
{
    (void)h;
    return (int64_t)time(NULL);
}
static inline void dj_test_hooks_judge(const dj_test_hooks *h, dj_judge *j)
{
    (void)h, (void)j;
}
static inline void dj_test_hooks_ingest(dj_test_hooks *h,
                                        dj_ingest_config *c)
{
    (void)h, (void)c;
}
static inline void dj_test_hooks_outbox(dj_test_hooks *h,
                                        dj_outbox_config *c)
{
    (void)h, (void)c;
}
static inline void dj_test_hooks_fetcher(const dj_test_hooks *h,
                                         dj_fetch_config *c)
{
    (void)h, (void)c;
}

#endif

#endif
