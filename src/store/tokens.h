/* SPDX-License-Identifier: MIT */
/*
 * tokens.h — the reply tokens' columns of participants (schema version
 * 13): a generation per participant, and the SHA-256 of the token the
 * judge last mailed for it.  The token itself is never stored: it is
 * derived (game/reply_token.c) from a key kept outside the database.  A
 * trigger starts a new generation (and clears the hash) when the
 * password, address or power changes.
 */
#ifndef DJ_STORE_TOKENS_H
#define DJ_STORE_TOKENS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* The live participant (not resigned nor replaced) of game_id mailed at
 * `email`, its first address or a further one (case-insensitive; the
 * lowest id when several): 0 with *pid and
 * *gen, DJ_STORE_NOTFOUND, or -1. */
int dj_store_token_participant(dj_store *s, int64_t game_id, const char *email,
                               int64_t *pid, int64_t *gen);

/* The generation of participant pid: 0, DJ_STORE_NOTFOUND or -1. */
int dj_store_token_gen(dj_store *s, int64_t pid, int64_t *gen);

/* Record the hash of generation gen's token (nothing when the generation
 * has moved on meanwhile). */
int dj_store_token_set_hash(dj_store *s, int64_t pid, int64_t gen,
                            const char *hash);

/* The live participant whose token hash is `hash`: 0 with *pid and its
 * *game_id, DJ_STORE_NOTFOUND or -1.  One indexed lookup. */
int dj_store_token_find(dj_store *s, const char *hash, int64_t *pid,
                        int64_t *game_id);

/* A new generation: the old token stops working at once. */
int dj_store_token_bump(dj_store *s, int64_t pid);

/* ---- press replies: a press mail's reply address names its message ---- */

/* The highest outbox row id (0 when empty). */
int dj_store_outbox_last_id(dj_store *s, int64_t *id);

/* The game's latest press message id (0 when none). */
int dj_store_press_last_id(dj_store *s, int64_t game_id, int64_t *id);

/* Mark the game's press mail queued after outbox row `after` as carrying
 * press message press_id. */
int dj_store_outbox_set_press(dj_store *s, int64_t game_id, int64_t after,
                              int64_t press_id);

/* Who a press message is answered to, and who may answer it. */
typedef struct dj_press_origin {
    int64_t game_id;
    int from_power; /* the power it showed as its sender, -1 none */
    char role[16];  /* its sender's role */
    bool grey;
    bool broadcast;               /* its real recipients: everyone, or */
    uint64_t to_mask;             /* these powers, */
    bool to_master, to_observers; /* the master, the observers */
} dj_press_origin;

/* 0, DJ_STORE_NOTFOUND or -1. */
int dj_store_press_origin(dj_store *s, int64_t press_id, dj_press_origin *o);

#endif
