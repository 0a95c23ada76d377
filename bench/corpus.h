/* SPDX-License-Identifier: MIT */
/*
 * corpus.h — a deterministic random corpus of movement phases, shared by the
 * benchmark (bench/bench_adjudicate.c) and the randomised engine test
 * (tests/unit/test_engine_random.c).
 *
 * A fixed-seed xorshift generator places CORPUS_MIN_UNITS..CORPUS_MAX_UNITS
 * units of random powers on distinct random provinces (armies where armies
 * may stand, fleets where fleets may stand, coasts included) and gives
 * every unit an order drawn from a realistic mix:
 *
 *   ~35% hold
 *   ~35% move to an adjacent location (the exact coast for fleets)
 *   ~20% support, of a neighbouring unit's actual order: a support to move
 *        when that unit moves to a province the supporter reaches, else a
 *        support to hold, so the supports are real ones
 *   ~5%  convoy: a fleet at sea convoys an adjacent coastal army to a
 *        coastal province the fleet touches, and the army is ordered there
 *        (only where such a pair exists)
 *   ~5%  illegal: a move to a location the unit cannot reach, or a support
 *        of a unit that does not exist
 *
 * The same seed gives the same corpus on every machine.  Only the engine's
 * public API is used.
 */
#ifndef DJ_BENCH_CORPUS_H
#define DJ_BENCH_CORPUS_H

#include <stdint.h>

#include "engine/adjudicate.h"

#define CORPUS_MIN_UNITS 20
#define CORPUS_MAX_UNITS 34

/* xorshift64*: small, fast, and the same sequence on every machine. */
typedef struct corpus_rng {
    uint64_t s; /* never 0 */
} corpus_rng;

uint64_t corpus_rng_next(corpus_rng *r);

/* Uniform enough in [0, n) for 0 < n far below 2^32. */
int corpus_rng_below(corpus_rng *r, int n);

/* One phase of the corpus: units and their orders, parallel. */
typedef struct corpus_phase {
    dj_phase phase;
    int nunits;
    dj_unit units[CORPUS_MAX_UNITS];
    dj_order orders[CORPUS_MAX_UNITS];
} corpus_phase;

/* What a unit was given; counted for the bench's printed mix. */
typedef enum corpus_plan {
    CORPUS_HOLD,
    CORPUS_MOVE,
    CORPUS_SUPPORT,
    CORPUS_CONVOY,   /* the fleet of a convoy pair */
    CORPUS_CONVOYED, /* the army of a convoy pair */
    CORPUS_ILLEGAL,
    CORPUS_UNDECIDED,
    CORPUS_PLAN_COUNT
} corpus_plan;

/* The board as the generator sees it, computed once from the map. */
typedef struct corpus_board {
    const dj_map *map;
    int nprovs;
    int *provs;       /* base locations where some unit may stand */
    int *place_start; /* per entry of provs: first placement */
    int *place_count; /* per entry of provs: number of placements */
    dj_unit *places;  /* (type, loc) a unit may take; power unused */
} corpus_board;

/* The generator: the board, the random state, scratch arrays, counts. */
typedef struct corpus_gen {
    corpus_board board;
    corpus_rng r;
    int16_t *occupant; /* per location: unit index in the phase, -1 */
    int *shuffle;      /* province order */
    long counts[CORPUS_PLAN_COUNT];
    long support_moves, support_holds;
} corpus_gen;

/* Set a generator up for `map` (kept by pointer) with this seed (not 0).
 * Exits with a message when out of memory. */
void corpus_init(corpus_gen *g, const dj_map *map, uint64_t seed);

void corpus_free(corpus_gen *g);

/* The next phase of the corpus (Spring or Fall Movement, no dislodged
 * units, ownership left to the caller). */
void corpus_generate(corpus_gen *g, corpus_phase *ph);

/* calloc that exits with a message when out of memory. */
void *corpus_xcalloc(size_t n, size_t size);

#endif
