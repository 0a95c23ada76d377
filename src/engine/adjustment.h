/* SPDX-License-Identifier: MIT */
/*
 * adjustment.h — the adjustment phase (adjustment.c): what each power is
 * due, where it may build, and the phase adjudicated.
 */
#ifndef DJ_ENGINE_ADJUSTMENT_H
#define DJ_ENGINE_ADJUSTMENT_H

#include <stdbool.h>

#include "map.h"
#include "order.h"
#include "position.h"
#include "result.h"
#include "rules.h"

/* Builds (positive) or removals (negative) a power is due in an adjustment. */
int dj_adjustment_due(const dj_map *map, const dj_position *pos, int power);

/*
 * Is this the opening adjustment of a MOBILIZE map (1898)?  Then each
 * power is due one build, in any of its home centres whether it owns it
 * or not, and owns the centre it builds in.
 */
bool dj_mobilizing(const dj_map *map, const dj_position *pos);

/*
 * May `power` build in province `prov` now: a centre it may build in
 * (home centre, or as rule V.1 build_sites allows), owned by it (or the
 * opening of a MOBILIZE map), empty?  DJ_WHY_NONE, or the reason
 * (DJ_WHY_BUILD_NOT_HOME, _NOT_OWNED, _OCCUPIED).  The unit is not checked.
 */
dj_why dj_build_site_why(const dj_map *map, const dj_position *pos,
                         const dj_rules *rules, int power, int prov);

/*
 * Adjudicate an adjustment phase: fill out->orders, out->autos and
 * out->next (phase not advanced).
 */
void adj_adjudicate(const dj_map *map, const dj_position *pos,
                    const dj_order *orders, int norders, const dj_rules *rules,
                    dj_result *out);

#endif
