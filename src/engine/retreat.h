/* SPDX-License-Identifier: MIT */
/*
 * retreat.h — the retreat phase (retreat.c).
 */
#ifndef DJ_ENGINE_RETREAT_H
#define DJ_ENGINE_RETREAT_H

#include "map.h"
#include "order.h"
#include "position.h"
#include "result.h"
#include "rules.h"

/*
 * Adjudicate a retreat phase: fill out->orders, out->autos and out->next
 * (phase not advanced).
 */
void rt_adjudicate(const dj_map *map, const dj_position *pos,
                   const dj_order *orders, int norders, const dj_rules *rules,
                   dj_result *out);

#endif
