/* SPDX-License-Identifier: MIT */
/*
 * stats.h — reliability figures per address, across every game on the
 * judge: what masters and players use to pick players.  Counted from the
 * participants and games (joined, finished) and from player_events, one
 * row per deadline missed, civil disorder, takeover and abandoned game.
 */
#ifndef DJ_STORE_STATS_H
#define DJ_STORE_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

typedef struct dj_player_stats {
    int joined;     /* games joined as a player */
    int finished;   /* of which finished while the address still played */
    int abandoned;  /* games left before their end (resigned) */
    int missed;     /* deadlines missed */
    int disorders;  /* times a power went into civil disorder */
    int takeovers;  /* powers taken over from civil disorder */
    bool public;    /* SET STATS PUBLIC: shown in LIST */
} dj_player_stats;

/* One event: kind "missed", "disorder", "takeover" or "abandoned". */
int dj_store_player_event(dj_store *s, const char *email, int64_t game_id,
                          const char *kind, int64_t at);

int dj_store_player_stats(dj_store *s, const char *email,
                          dj_player_stats *out);

int dj_store_player_stats_public(dj_store *s, const char *email,
                                 bool public);

#endif
