/* SPDX-License-Identifier: MIT */
/*
 * games.h — the games table and the per-game log.
 *
 * A dj_game_rec is one row as plain values; the game layer gives them
 * meaning (calendar.h for the schedule fields, rules_map.h for the rule
 * overrides).  Its settings fields, and the columns they are kept in, come
 * from the one table of settings_table.h.  Updates write the whole settings part of a row at once
 * (dj_store_game_update) or one lifecycle field (state, times, ending).
 */
#ifndef DJ_STORE_GAMES_H
#define DJ_STORE_GAMES_H

#include <stdint.h>

#include "store/settings_table.h"
#include "store/store.h"

#define DJ_GAME_NAME_MAX 33     /* 32 characters and the NUL */
#define DJ_STORE_NAME_MAX 64    /* map, zone, state and other short words */
#define DJ_STORE_TEXT_MAX 1024  /* rule overrides, ending, press */

typedef struct dj_game_rec {
    int64_t id;
    char name[DJ_GAME_NAME_MAX];
    char map[DJ_STORE_NAME_MAX];
    char rules[DJ_STORE_TEXT_MAX];  /* overrides "name=value", space-separated */
    char state[16];                 /* forming, active, paused, finished */
    /* Every per-game setting, one field each (settings_table.h). */
#define DJ_FIELD_INT(field, ...) int field;
#define DJ_FIELD_TEXT(field, size, ...) char field[size];
    DJ_GAME_SETTINGS(DJ_FIELD_INT, DJ_FIELD_TEXT)
#undef DJ_FIELD_INT
#undef DJ_FIELD_TEXT
    char ending[DJ_STORE_TEXT_MAX]; /* how it ended, "" while running */
    int64_t created_at;
    int64_t started_at, finished_at, paused_at;  /* 0 when not yet */
} dj_game_rec;

/* Insert a new game (state forming); sets g->id. */
int dj_store_game_insert(dj_store *s, dj_game_rec *g);

/* By name (case-insensitive): 0, DJ_STORE_NOTFOUND or -1. */
int dj_store_game_get(dj_store *s, const char *name, dj_game_rec *g);
int dj_store_game_get_id(dj_store *s, int64_t id, dj_game_rec *g);

/*
 * All games, by name, optionally only those in `state` (NULL for all).
 * *out is malloc'd; free it.
 */
int dj_store_game_list(dj_store *s, const char *state, dj_game_rec **out,
                       int *n);

/* Write back every settings field (rules, schedule, policies, press). */
int dj_store_game_update(dj_store *s, const dj_game_rec *g);

/* Lifecycle fields: state, ending and the four times. */
int dj_store_game_set_state(dj_store *s, const dj_game_rec *g);

/* Append to the game's log. */
int dj_store_game_log(dj_store *s, int64_t game_id, int64_t at,
                      const char *actor, const char *action,
                      const char *detail);

typedef struct dj_game_log_rec {
    int64_t at;
    char actor[256];
    char action[DJ_STORE_NAME_MAX];
    char detail[DJ_STORE_TEXT_MAX];
} dj_game_log_rec;

int dj_store_game_log_list(dj_store *s, int64_t game_id,
                           dj_game_log_rec **out, int *n);

#endif
