/* SPDX-License-Identifier: MIT */
/*
 * health.h — the figures `judgectl status` reports to an admin or a
 * monitoring system: when the deadline scheduler last ran, games past
 * their deadline, mail waiting, failed and quarantined, confirmations
 * pending, the database's size.  Read in one read transaction.
 */
#ifndef DJ_STORE_HEALTH_H
#define DJ_STORE_HEALTH_H

#include <stdint.h>

#include "store/store.h"

typedef struct dj_store_health {
    int64_t last_tick;      /* when the scheduler last ran; 0: never */
    int games_active;
    int games_overdue;      /* a current phase past its deadline, grace and
                               the margin given, its game neither paused
                               nor waiting for orders (nmr = wait) */
    char overdue[256];      /* their names, ", " between, cut short */
    int mail_waiting;       /* outbox rows queued or being sent */
    int64_t oldest_waiting; /* the oldest one's creation time; 0: none */
    int mail_failed;        /* rows given up on since `since` */
    int quarantined;        /* inbound messages moved aside since `since` */
    int confirmations;      /* codes mailed and not yet expired */
    int64_t db_bytes;       /* pages in use times page size */
    char written_by[128];   /* the release that last wrote it (open.c) */
} dj_store_health;

/* Read the figures at time `now`.  0, or -1 (dj_store_error). */
int dj_store_health_read(dj_store *s, int64_t now, int64_t overdue_after,
                         int64_t since, dj_store_health *h);

/* Record that the deadline scheduler ran at `now` (judgectl tick, judged). */
int dj_store_tick_record(dj_store *s, int64_t now);

#endif
