/* SPDX-License-Identifier: MIT */
/*
 * adjudicate.h — the engine's one entry point: a position and orders in,
 * results and the next position out.  Pure: no I/O, no globals, no
 * allocation visible to the caller; any number may run at once.  What
 * comes back is described in result.h; what each power is due in an
 * adjustment, in adjustment.h.
 */
#ifndef DJ_ENGINE_ADJUDICATE_H
#define DJ_ENGINE_ADJUDICATE_H

#include "adjustment.h"
#include "map.h"
#include "order.h"
#include "position.h"
#include "result.h"
#include "rules.h"

/*
 * The movement adjudicators.  Each is an independent implementation that
 * shares only the map, position, order and result types: DPjudge's
 * marked-order passes (movement.c, the default), Kruijswijk's guess
 * algorithm on the DATC decision equations (kruijswijk*.c) and the
 * Haplomacy dispute algorithm (haplomacy*.c).  Retreat and adjustment
 * phases are the same for all.
 */
typedef enum {
    DJ_ENGINE_DPJUDGE = 0,
    DJ_ENGINE_KRUIJSWIJK,
    DJ_ENGINE_HAPLOMACY,
    DJ_ENGINE_COUNT
} dj_engine;

/* "dpjudge", "kruijswijk", "haplomacy". */
const char *dj_engine_name(dj_engine engine);

/* The engine of that name (case-insensitive), or -1. */
int dj_engine_lookup(const char *name);

/*
 * Does the engine honour every choice of this rule option?  The options
 * decided outside the movement engines (retreats, adjustments, 4.A.5, the
 * order reader's) are honoured by all.  One table, adjudicate.c's.
 */
bool dj_engine_implements(dj_engine engine, dj_rule_id rule);

/*
 * Can the engine play a game under these rules: does it implement every
 * option they set away from the DATC's preferred choice?  Returns 0, or -1
 * with `why` naming the first option it does not implement and the
 * engines that do.
 */
int dj_engine_check_rules(dj_engine engine, const dj_rules *rules, char *why,
                          size_t whylen);

/*
 * Adjudicate the phase of `pos` with these orders.  Units without an order
 * hold (movement) or are disbanded (retreat); powers without adjustment
 * orders waive builds and lose units by the civil-disorder rule (4.D.8).
 * Returns 0, or -1 if the position or an order is malformed (out of range
 * locations or powers); results are then unspecified.
 */
int dj_adjudicate(const dj_map *map, const dj_position *pos,
                  const dj_order *orders, int norders, const dj_rules *rules,
                  dj_result *out);

/* The same with a chosen movement engine (dj_adjudicate is DPjudge's). */
int dj_adjudicate_with(dj_engine engine, const dj_map *map,
                       const dj_position *pos, const dj_order *orders,
                       int norders, const dj_rules *rules, dj_result *out);

/* The phase after `pos`, skipping retreat and adjustment phases with nothing to do. */
dj_phase dj_next_phase(const dj_map *map, const dj_position *pos);

#endif
