/* SPDX-License-Identifier: MIT */
/*
 * board.h — the units of a movement phase as every engine first reads
 * them: each unit's province, the unit standing in each province, and the
 * fleets standing where fleets convoy.
 *
 * Plumbing, not legality: the DPjudge, Kruijswijk and Haplomacy engines
 * each set one up (dj_board_set_up) and then decide on their own which
 * orders are legal and what happens, so that a mistake in one engine's
 * rules is still caught by another.  Only src/engine/ includes this file.
 */
#ifndef DJ_ENGINE_BOARD_H
#define DJ_ENGINE_BOARD_H

#include "map.h"
#include "position.h"

typedef struct dj_board {
    int n;                       /* units: those of the position */
    int16_t prov[DJ_MAX_UNITS];  /* per unit: its province */
    int16_t at[DJ_MAX_LOCS];     /* per province: the unit standing there, -1 */
    int nsea;                    /* fleets where fleets convoy (at sea, or a
                                    port): the only ones that may carry */
    int16_t sea[DJ_MAX_UNITS];
} dj_board;

void dj_board_set_up(dj_board *b, const dj_map *map, const dj_position *pos);

#endif
