/* SPDX-License-Identifier: MIT */
/*
 * hard.h — harder movement phases than the corpus (corpus.h) gives, for the
 * randomised engine test and the differential harness (bench/crosscheck.c).
 *
 * Each generator changes a phase in place, drawing from the caller's
 * random state:
 *   hard_merge          a second corpus phase's units added where there is room
 *   hard_chaos          more supports of any order a unit can reach, moves
 *                       into occupied provinces, convoys along fleet chains
 *   hard_sea_battle     fleets on most seas, armies convoyed everywhere
 *   hard_plant_paradox  the seed of a convoy paradox (DATC 6.F.14-like)
 *   hard_noise          repeated and conflicting orders, wrong power, unit
 *                       type missing or wrong, coast missing, empty places
 *   hard_circle         units moving round a ring of neighbouring provinces,
 *                       sometimes with a convoy in the ring or a unit against it
 *   hard_head_to_head   two units swapping, with supports of either move
 *                       (and of holds) from units of every power around,
 *                       the two powers' own included
 *   hard_own_target     supports of a foreign move into one's own unit, and
 *                       self-support attempts
 *   hard_coasts         coasts left out, changed or added: destinations,
 *                       supports, the unit's own, an army's (4.B.1-4.B.6)
 *   hard_paths          convoy routes written in army moves (4.A.6), now
 *                       and then short of a fleet or with a stranger
 *   hard_garbage        hostile orders: kinds, places, types and routes
 *                       out of range
 *   hard_convoy_network (hard_network.c) min..max seas full of fleets
 *                       convoying one army or a few, fleets of the network
 *                       attacked on and off the routes
 * hard_rules draws chapter-4 rule choices for `percent` of the phases.
 */
#ifndef DJ_BENCH_HARD_H
#define DJ_BENCH_HARD_H

#include "corpus.h"

/* A phase to adjudicate: a position and its orders. */
typedef struct hard_phase {
    dj_position pos;
    int norders;
    dj_order orders[DJ_MAX_ORDERS];
} hard_phase;

typedef struct hard_gen {
    const dj_map *map;
    corpus_rng *rng;
    int last_convoy_fleet, last_convoy_dest; /* of the last convoy made */
} hard_gen;

void hard_load(hard_gen *g, const corpus_phase *cp, hard_phase *in);
void hard_merge(hard_gen *g, hard_phase *in, const corpus_phase *extra);
void hard_chaos(hard_gen *g, hard_phase *in);
void hard_sea_battle(hard_gen *g, const corpus_phase *cp, hard_phase *in);
void hard_plant_paradox(hard_gen *g, hard_phase *in);
void hard_noise(hard_gen *g, hard_phase *in);
void hard_circle(hard_gen *g, hard_phase *in);
void hard_head_to_head(hard_gen *g, hard_phase *in);
void hard_own_target(hard_gen *g, hard_phase *in);
void hard_coasts(hard_gen *g, hard_phase *in);
void hard_paths(hard_gen *g, hard_phase *in);
void hard_garbage(hard_gen *g, hard_phase *in);
void hard_add_order(hard_phase *in, dj_order o);
/* Put a unit at `loc` (replacing whatever stands in its province) with a
 * hold order, orders still one per unit; its index, or -1 when full. */
int hard_place(hard_gen *g, hard_phase *in, int loc, int power,
               dj_unit_type type);
/* Call on a phase whose orders are still one per unit (before hard_noise);
 * false when the board has no network to make. */
bool hard_convoy_network(hard_gen *g, hard_phase *in, int min_fleets,
                         int max_fleets);

/* Rule choices: the defaults, or for `percent` of the calls every rule
 * drawn at random.  Returns whether the rules are the defaults. */
bool hard_rules(hard_gen *g, int percent, dj_rules *rules);

#endif
