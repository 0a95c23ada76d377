/* SPDX-License-Identifier: MIT */
/*
 * kruijswijk.h — movement adjudication by Kruijswijk's guess algorithm on the DATC decision equations (seeds 000, 001).
 *
 * An engine of its own: it shares only the map, position, order and result
 * types and the board's set-up (board.h) with the other engines, and
 * decides legality itself, so a bug in one is caught by another
 * (dj_result_diff).  Reached through dj_adjudicate_with().
 */
#ifndef DJ_ENGINE_KRUIJSWIJK_H
#define DJ_ENGINE_KRUIJSWIJK_H

#include "map.h"
#include "order.h"
#include "position.h"
#include "result.h"
#include "rules.h"

/*
 * Adjudicate a movement phase: fill out->orders (already initialised),
 * out->contested and out->next's units and dislodged units (the front door,
 * adjudicate.c, sets the phase, centres and retreats).  Returns 0, or -1 when it cannot.
 */
int kj_adjudicate_movement(const dj_map *map, const dj_position *pos,
                          const dj_order *orders, int norders,
                          const dj_rules *rules, dj_result *out);

#endif
