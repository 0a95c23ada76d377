/* SPDX-License-Identifier: MIT */
/*
 * press.h — the press archive: every press message a game has carried,
 * with its real sender and recipients and what fake press showed, so the
 * game room can decide who may read each one (game/press_archive.c).
 */
#ifndef DJ_STORE_PRESS_H
#define DJ_STORE_PRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

typedef struct dj_press_rec {
    int64_t id;
    int64_t phase_id;      /* 0: none (a forming game) */
    char phase[16];        /* its name, "" when none */
    int phase_order;       /* year * 100 + season * 10 + type; -1 none */
    int64_t sent_at;
    int64_t sender_id;     /* the participant who sent it (0: unknown) */
    char sender_role[12];  /* player, master, observer ("" unknown) */
    int from_power;        /* the sender's power, -1 none */
    bool broadcast;        /* to everyone */
    uint64_t to_mask;      /* real recipients: bit p for power p */
    bool to_master, to_observers;
    bool grey;             /* sent anonymously */
    bool fake;             /* showed other recipients than the real ones */
    char shown[512];       /* fake: the recipients shown, "" for a fake
                              broadcast */
    char to_names[512];    /* the real recipients' names, "" broadcast */
    char *body;
} dj_press_rec;

/* Archive one press message (r->id, r->phase, r->phase_order ignored). */
int dj_store_press_add(dj_store *s, int64_t game_id, const dj_press_rec *r,
                       const char *author, int64_t at);

/* Every press message of a game, oldest first. */
int dj_store_press_list(dj_store *s, int64_t game_id, dj_press_rec **out,
                        int *n);
void dj_press_recs_free(dj_press_rec *r, int n);

/* Players' diaries (DIARY ... ENDDIARY): an entry kept for a power and
 * the phase it was written in (phase_id 0: none). */
int dj_store_diary_add(dj_store *s, int64_t game_id, int64_t phase_id,
                       int power, const char *body, int64_t at);

/* A game's diary entries, of one power (power >= 0) or of all (-1), by
 * power then oldest first, in press records (from_power, phase,
 * phase_order, sent_at, body; dj_press_recs_free). */
int dj_store_diary_list(dj_store *s, int64_t game_id, int power,
                        dj_press_rec **out, int *n);

#endif
