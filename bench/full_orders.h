/* SPDX-License-Identifier: MIT */
/*
 * full_orders.h — a full set of orders for any board and position, made
 * up without a player: what the picture tests (tests/unit/test_labels)
 * and benches (bench/bench_render) draw, so every board is drawn crowded
 * the way a real phase crowds it.  Orders go to o (DJ_MAX_ORDERS room);
 * each returns how many.
 */
#ifndef DJ_BENCH_FULL_ORDERS_H
#define DJ_BENCH_FULL_ORDERS_H

#include "engine/adjudicate.h"

/* Every unit ordered: moves mostly (to one of its first two neighbours, so
 * some bounce), every fifth a hold, every fifth a support of a
 * neighbouring unit's hold. */
int full_movement_orders(const dj_map *map, const dj_position *pos,
                         dj_order *o);
/* Each dislodged unit retreats to its first choice, or disbands. */
int full_retreat_orders(const dj_position *pos, dj_order *o);
/* A build in every free home centre: an army on land, else a fleet. */
int full_build_orders(const dj_map *map, const dj_position *pos, dj_order *o);

#endif
