/* SPDX-License-Identifier: MIT */
/*
 * participants.h — players, observers and masters of a game, and the
 * absences they declare.
 *
 * A player's row names a power (an index into the map's powers) once one
 * is assigned; until then, and for observers and masters, power is -1.
 * Statuses: playing, civil-disorder (missed a deadline, or a dummy for a
 * power nobody took), eliminated, resigned and replaced (rows kept for the
 * record; such a participant no longer plays or receives mail).
 * `email` is one address, the participant's first; a player may have
 * up to DJ_ADDRESSES_MAX in all, the others in `more` (store/addresses.h).
 */
#ifndef DJ_STORE_PARTICIPANTS_H
#define DJ_STORE_PARTICIPANTS_H

#include <stdbool.h>
#include <stdint.h>

#include "store/games.h"
#include "store/store.h"

#define DJ_EMAIL_MAX 512
#define DJ_HASH_MAX 160
#define DJ_PREFERENCE_MAX 1024
/* Addresses a player may have: email and up to two more (SET ADDRESS). */
#define DJ_ADDRESSES_MAX 3

typedef struct dj_participant_rec {
    int64_t id;
    int64_t game_id;
    char role[12];           /* player, observer, master */
    int power;               /* -1: none */
    char name[DJ_STORE_NAME_MAX];
    char email[DJ_EMAIL_MAX];
    char password_hash[DJ_HASH_MAX];
    char status[16];
    char vote[24];           /* "", "draw", "concede:N" */
    int64_t joined_at;
    int64_t left_at;         /* 0 while present */
    char map_format[8];      /* picture with results: "" the game's
                                map_attachment, or png, pdf, svg, none */
    /* the participant's own options (game/player_options.h) */
    char zone[64];           /* SET ZONE: "" the game's zone */
    int reminder;            /* SET REMINDER, minutes before the deadline:
                                -1 none, DJ_REMINDER_JUDGE the judge's */
    bool calendar;           /* SET CALENDAR: .ics with start/results */
    int64_t reminded_deadline; /* own-lead reminder sent for it (0 none) */
    char preference[DJ_PREFERENCE_MAX]; /* SET PREFERENCE: "England, France,
                                           *" (game/deal.h); "" none */
    /* the further confirmed addresses, oldest first (store/addresses.h) */
    char more[DJ_ADDRESSES_MAX - 1][DJ_EMAIL_MAX];
    int nmore;
} dj_participant_rec;

#define DJ_REMINDER_JUDGE (-2)

/* Insert; sets p->id.  A second live player for one power fails. */
int dj_store_participant_insert(dj_store *s, dj_participant_rec *p);

/* Every participant of a game, in the order they joined; *out malloc'd. */
int dj_store_participant_list(dj_store *s, int64_t game_id,
                              dj_participant_rec **out, int *n);

/* The live player (not resigned or replaced) of a power. */
int dj_store_participant_of_power(dj_store *s, int64_t game_id, int power,
                                  dj_participant_rec *p);

/* Write back power, name, email, password hash, status, vote, left_at,
 * map_format. */
int dj_store_participant_update(dj_store *s, const dj_participant_rec *p);

/* Write back zone, reminder, calendar, reminded_deadline (nothing else). */
int dj_store_participant_set_options(dj_store *s, const dj_participant_rec *p);

/* Write back the preference list (nothing else). */
int dj_store_participant_set_preference(dj_store *s,
                                        const dj_participant_rec *p);

/* Clear every vote in a game. */
int dj_store_participant_clear_votes(dj_store *s, int64_t game_id);

typedef struct dj_absence_rec {
    int64_t id;
    int64_t participant_id;
    int power;            /* of that participant, for convenience */
    int64_t start, end;
} dj_absence_rec;

int dj_store_absence_insert(dj_store *s, int64_t participant_id,
                            int64_t start, int64_t end);

/* Absences of the game's live players ending after `after`; *out malloc'd. */
int dj_store_absence_list(dj_store *s, int64_t game_id, int64_t after,
                          dj_absence_rec **out, int *n);

/* Remove one absence of a participant; 0, DJ_STORE_NOTFOUND or -1. */
int dj_store_absence_delete(dj_store *s, int64_t participant_id,
                            int64_t absence_id);

#endif
