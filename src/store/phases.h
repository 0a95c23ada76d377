/* SPDX-License-Identifier: MIT */
/*
 * phases.h — a game's phases and everything attached to one: the orders
 * received, READY/WAIT flags, the results, and the rollbacks that take
 * phases back.
 *
 * A phase row's position snapshot is written once, when the phase opens,
 * and never changed: processing a phase adds a results row and the next
 * phase's row; a rollback marks rows undone and opens a copy of the phase
 * it returns to.  Orders are rows added, never edited; the latest row for
 * a (phase, power) is the set in force.
 */
#ifndef DJ_STORE_PHASES_H
#define DJ_STORE_PHASES_H

#include <stdint.h>

#include "store/games.h"
#include "store/store.h"

typedef struct dj_phase_rec {
    int64_t id;
    int64_t game_id;
    int seq;                /* 0 for the first phase, +1 per phase played */
    char name[16];          /* "S1901M" */
    int year, season, type; /* dj_phase fields */
    char status[12];        /* current, done, final, undone */
    char *position;         /* snapshot text, malloc'd; NULL if not loaded */
    int64_t opened_at;
    int64_t deadline;       /* 0: none */
    int64_t late_at;        /* 0: lateness not yet announced */
    int64_t rollback_id;    /* 0: not undone */
} dj_phase_rec;

void dj_phase_rec_free(dj_phase_rec *p);
void dj_phase_recs_free(dj_phase_rec *p, int n);

/* Insert with its position; sets p->id. */
int dj_store_phase_insert(dj_store *s, dj_phase_rec *p);

/* The game's current (or final) phase: 0, DJ_STORE_NOTFOUND or -1. */
int dj_store_phase_open(dj_store *s, int64_t game_id, dj_phase_rec *p);

int dj_store_phase_get(dj_store *s, int64_t id, dj_phase_rec *p);

/* The game's live phases (not undone) by seq; positions loaded. */
int dj_store_phase_list(dj_store *s, int64_t game_id, dj_phase_rec **out,
                        int *n);

/* Every phase of a game, undone ones included, by seq then id. */
int dj_store_phase_list_all(dj_store *s, int64_t game_id, dj_phase_rec **out,
                            int *n);

/* Phases undone by one rollback, by seq. */
int dj_store_phase_list_undone(dj_store *s, int64_t rollback_id,
                               dj_phase_rec **out, int *n);

/* The live phase of a game with this seq. */
int dj_store_phase_at_seq(dj_store *s, int64_t game_id, int seq,
                          dj_phase_rec *p);

int dj_store_phase_set_status(dj_store *s, int64_t id, const char *status,
                              int64_t rollback_id);
int dj_store_phase_set_deadline(dj_store *s, int64_t id, int64_t deadline);
int dj_store_phase_set_late(dj_store *s, int64_t id, int64_t late_at);
/*
 * Claim the phase's deadline reminder (sent once per deadline; moving the
 * deadline resets it): 0 when this call claimed it, DJ_STORE_NOTFOUND
 * when it was claimed before.
 */
int dj_store_phase_claim_reminder(dj_store *s, int64_t id, int64_t at);

/* ---- orders ------------------------------------------------------------ */

typedef struct dj_orders_rec {
    int64_t id;
    int power;
    char *orders;           /* canonical text, one order a line; malloc'd */
    char source[32];        /* "judgectl", "mail", ... */
    char author[256];
    int64_t received_at;
} dj_orders_rec;

void dj_orders_recs_free(dj_orders_rec *o, int n);

int dj_store_orders_add(dj_store *s, int64_t phase_id, int power,
                        const char *orders, const char *source,
                        const char *author, int64_t at);

/* The latest set of each power that has one, by power; *out malloc'd. */
int dj_store_orders_latest(dj_store *s, int64_t phase_id,
                           dj_orders_rec **out, int *n);

/* Every set received for the phase, in order of arrival. */
int dj_store_orders_all(dj_store *s, int64_t phase_id, dj_orders_rec **out,
                        int *n);

/* Copy the latest set of each power from one phase to another. */
int dj_store_orders_copy(dj_store *s, int64_t from_phase, int64_t to_phase);

/* ---- READY and WAIT ------------------------------------------------------ */

int dj_store_readiness_set(dj_store *s, int64_t phase_id, int power,
                           int ready, int wait);
/* Flags of a power; both 0 when nothing was recorded. */
int dj_store_readiness_get(dj_store *s, int64_t phase_id, int power,
                           int *ready, int *wait);

/* ---- results --------------------------------------------------------------- */

typedef struct dj_result_rec {
    int64_t phase_id;
    int64_t processed_at;
    char *report;    /* the results text players received; malloc'd */
    char *detail;    /* one line per order: see game/process.c; malloc'd */
    char *disorder;  /* powers in civil disorder, space-separated; malloc'd */
} dj_result_rec;

void dj_result_rec_free(dj_result_rec *r);

/* Fails (constraint) when the phase already has a result. */
int dj_store_result_insert(dj_store *s, const dj_result_rec *r);
int dj_store_result_get(dj_store *s, int64_t phase_id, dj_result_rec *r);

/* ---- rollbacks ---------------------------------------------------------- */

typedef struct dj_rollback_rec {
    int64_t id;
    int64_t game_id;
    int64_t created_at;
    int to_seq;
    int64_t copy_phase_id;
    char prev_state[16];
    char prev_ending[DJ_STORE_TEXT_MAX];
    int64_t undone_at;  /* 0 while in effect */
} dj_rollback_rec;

int dj_store_rollback_insert(dj_store *s, dj_rollback_rec *r);
int dj_store_rollback_set_copy(dj_store *s, int64_t id, int64_t copy_phase);
/* The latest rollback of the game still in effect. */
int dj_store_rollback_latest(dj_store *s, int64_t game_id,
                             dj_rollback_rec *r);
int dj_store_rollback_set_undone(dj_store *s, int64_t id, int64_t at);

/*
 * Orders for a later phase (njudge's PHASE, version 16): one text per
 * game, power and phase ("F1902M"), the lines as sent, kept until that
 * phase opens (game/orders.c reads them then) or a later phase opens
 * without it.
 */
typedef struct dj_later_rec {
    int power;
    char phase[16];
    char *text; /* malloc'd */
    char sent_by[256];
    int64_t sent_at;
} dj_later_rec;

/* Begin (or replace) the power's text for the phase: empty. */
int dj_store_later_begin(dj_store *s, int64_t game_id, int power,
                         const char *phase, const char *by, int64_t now);
/* One more line of it. */
int dj_store_later_append(dj_store *s, int64_t game_id, int power,
                          const char *phase, const char *line);
/* Every stored text of the game (*out malloc'd, freed with
 * dj_later_recs_free). */
int dj_store_later_list(dj_store *s, int64_t game_id, dj_later_rec **out,
                        int *n);
void dj_later_recs_free(dj_later_rec *r, int n);
int dj_store_later_delete(dj_store *s, int64_t game_id, int power,
                          const char *phase);

#endif
