/*
 * check_ahead.c — a case file read ahead on a second thread (see
 * check_ahead.h for why, and who owns what).
 *
 * Design.  A ring of AHEAD_SLOTS cases and two counters under one mutex:
 * `produced`, the cases the reader has written, and `released`, the ones
 * the caller has given back.  The reader writes slot produced % N while
 * fewer than N are out (the one the caller holds counts as out), outside
 * the lock, and publishes it by counting it under the lock; the caller
 * takes slot released % N once produced > released.  So a slot is only
 * ever touched by one thread at a time, and the mutex orders the writes
 * before the reads.  The reader stops after writing the end of the file,
 * or when check_ahead_close() asks it to.  Each side sleeps only when it
 * must, and is woken only when the other has something for it: a sleeping
 * reader once half the ring is free again, not for every case.
 *
 * Serial reading goes through the same slot code on the caller's thread,
 * one slot, so the two differ only in where dj_casefile_next() runs.
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include "cli/check_ahead.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define AHEAD_SLOTS 8 /* cases read ahead at most (each about 100 KB) */
/* How long the caller spins for a case before it sleeps: a case takes a
 * few microseconds to read, and being woken from a sleep costs tens, on
 * this machine as much as the reading itself. */
#define SPIN_ROUNDS 2000

typedef struct slot {
    dj_case c;
    dj_case_status status;
    const dj_map *map;
    char err[DJ_CASE_ERR_MAX];
} slot;

struct check_ahead {
    dj_casefile *cf;
    bool threaded;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t filled;   /* the reader counted a slot in */
    pthread_cond_t emptied;  /* the caller gave one back, or close */
    atomic_ulong produced;   /* slots written (changed under the lock) */
    unsigned long released;  /* slots given back (lock) */
    bool holding;            /* the caller holds slot released % N */
    bool reader_waits;       /* the reader sleeps on `emptied` (lock) */
    bool caller_waits;       /* the caller sleeps on `filled` (lock) */
    bool stop;               /* close: the reader must stop (lock) */
    bool at_end;             /* the caller has been given the end */
    double read_s;           /* time in dj_casefile_next (lock) */
    double wait_s;           /* the caller's time in take() */
    slot slots[AHEAD_SLOTS];
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Read the next case into s; false once the end of the file is in s. */
static bool fill(check_ahead *a, slot *s)
{
    s->err[0] = '\0';
    s->status = dj_casefile_next(a->cf, &s->c, s->err, sizeof s->err);
    s->map = dj_casefile_map(a->cf);
    return s->status != DJ_CASE_EOF;
}

static void *reader_main(void *arg)
{
    check_ahead *a = arg;
    pthread_mutex_lock(&a->lock);
    for (;;) {
        while (!a->stop && a->produced - a->released == AHEAD_SLOTS) {
            a->reader_waits = true;
            pthread_cond_wait(&a->emptied, &a->lock);
        }
        a->reader_waits = false;
        if (a->stop)
            break;
        slot *s = &a->slots[a->produced % AHEAD_SLOTS];
        pthread_mutex_unlock(&a->lock);
        double t0 = now_s();
        bool more = fill(a, s);
        double spent = now_s() - t0;
        pthread_mutex_lock(&a->lock);
        a->read_s += spent;
        a->produced++;
        if (a->caller_waits)
            pthread_cond_signal(&a->filled);
        if (!more)
            break;
    }
    pthread_mutex_unlock(&a->lock);
    return NULL;
}

/* Is a second processor there to read on?  Those this process may run
 * on, not those the machine has. */
static bool second_processor(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return CPU_COUNT(&set) >= 2;
    return sysconf(_SC_NPROCESSORS_ONLN) >= 2;
}

check_ahead *check_ahead_open(dj_casefile *cf, bool serial)
{
    check_ahead *a = calloc(1, sizeof *a);
    if (!a) {
        dj_casefile_close(cf);
        return NULL;
    }
    a->cf = cf;
    if (serial || !second_processor())
        return a; /* nothing to gain from a second thread */
    if (pthread_mutex_init(&a->lock, NULL) != 0)
        return a;
    if (pthread_cond_init(&a->filled, NULL) != 0) {
        pthread_mutex_destroy(&a->lock);
        return a;
    }
    if (pthread_cond_init(&a->emptied, NULL) != 0) {
        pthread_cond_destroy(&a->filled);
        pthread_mutex_destroy(&a->lock);
        return a;
    }
    if (pthread_create(&a->thread, NULL, reader_main, a) != 0) {
        pthread_cond_destroy(&a->emptied);
        pthread_cond_destroy(&a->filled);
        pthread_mutex_destroy(&a->lock);
        return a; /* no thread to be had: read serially */
    }
    a->threaded = true;
    return a;
}

/* A moment's pause in a spin, easing the processor's pipeline. */
static void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    atomic_signal_fence(memory_order_seq_cst);
#endif
}

/* Spin until the reader has counted in more than `released` slots, for
 * SPIN_ROUNDS at most. */
static void spin_for_case(check_ahead *a, unsigned long released)
{
    for (int i = 0; i < SPIN_ROUNDS; i++) {
        if (atomic_load_explicit(&a->produced, memory_order_acquire) !=
            released)
            return;
        spin_pause();
    }
}

/* The slot to hand out next, NULL at the end; threaded: waits for it,
 * spinning a while before it sleeps. */
static slot *take(check_ahead *a)
{
    if (!a->threaded) {
        if (a->at_end)
            return NULL;
        slot *s = &a->slots[0];
        double t0 = now_s();
        fill(a, s);
        a->read_s += now_s() - t0;
        return s;
    }
    if (a->at_end)
        return NULL;
    pthread_mutex_lock(&a->lock);
    if (a->holding) {
        a->released++;
        a->holding = false;
        /* Wake a sleeping reader only once half the ring is free: one
         * wake-up per few cases, not one per case. */
        if (a->reader_waits && a->produced - a->released <= AHEAD_SLOTS / 2)
            pthread_cond_signal(&a->emptied);
    }
    unsigned long released = a->released;
    bool ready = a->produced != released;
    pthread_mutex_unlock(&a->lock);
    if (!ready)
        spin_for_case(a, released);
    pthread_mutex_lock(&a->lock);
    while (a->produced == a->released) {
        a->caller_waits = true;
        if (a->reader_waits)
            pthread_cond_signal(&a->emptied);
        pthread_cond_wait(&a->filled, &a->lock);
    }
    a->caller_waits = false;
    slot *s = &a->slots[a->released % AHEAD_SLOTS];
    a->holding = true;
    pthread_mutex_unlock(&a->lock);
    return s;
}

dj_case_status check_ahead_next(check_ahead *a, const dj_case **c,
                                const dj_map **map, char *err, size_t errlen)
{
    if (err && errlen > 0)
        err[0] = '\0';
    double t0 = now_s();
    slot *s = take(a);
    a->wait_s += now_s() - t0;
    if (!s)
        return DJ_CASE_EOF;
    if (s->status == DJ_CASE_EOF) {
        a->at_end = true;
        return DJ_CASE_EOF;
    }
    if (s->status == DJ_CASE_ERROR && err && errlen > 0) {
        size_t n = strlen(s->err);
        if (n >= errlen)
            n = errlen - 1;
        memcpy(err, s->err, n);
        err[n] = '\0';
    }
    *c = &s->c;
    *map = s->map;
    return s->status;
}

bool check_ahead_threaded(const check_ahead *a)
{
    return a->threaded;
}

double check_ahead_read_seconds(check_ahead *a)
{
    if (!a->threaded)
        return a->read_s;
    pthread_mutex_lock(&a->lock);
    double t = a->read_s;
    pthread_mutex_unlock(&a->lock);
    return t;
}

double check_ahead_wait_seconds(const check_ahead *a)
{
    return a->wait_s;
}

void check_ahead_close(check_ahead *a)
{
    if (!a)
        return;
    if (a->threaded) {
        pthread_mutex_lock(&a->lock);
        a->stop = true;
        pthread_cond_signal(&a->emptied);
        pthread_mutex_unlock(&a->lock);
        pthread_join(a->thread, NULL);
        pthread_cond_destroy(&a->emptied);
        pthread_cond_destroy(&a->filled);
        pthread_mutex_destroy(&a->lock);
    }
    dj_casefile_close(a->cf);
    free(a);
}
