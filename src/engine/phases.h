/* SPDX-License-Identifier: MIT */
/*
 * phases.h — internal entry points of the retreat and adjustment phases.
 * Each fills out->orders, out->autos and out->next (phase not advanced).
 */
#ifndef DJ_ENGINE_PHASES_H
#define DJ_ENGINE_PHASES_H

#include "adjudicate.h"

void rt_adjudicate(const dj_map *map, const dj_position *pos,
                   const dj_order *orders, int norders, const dj_rules *rules,
                   dj_result *out);

void adj_adjudicate(const dj_map *map, const dj_position *pos,
                    const dj_order *orders, int norders, const dj_rules *rules,
                    dj_result *out);

#endif
