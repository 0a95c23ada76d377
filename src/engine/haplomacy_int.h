/* SPDX-License-Identifier: MIT */
/*
 * haplomacy_int.h — the state of one Haplomacy adjudication (seed 003).
 *
 * Not part of the public API: only src/engine/haplomacy*.c include it.
 * The board is changed as the disputes are settled, as the seed's
 * algorithm does: `occupant` is who stands in each province now, and a
 * dislodged unit leaves the board (its move may still be settled later).
 */
#ifndef DJ_ENGINE_HAPLOMACY_INT_H
#define DJ_ENGINE_HAPLOMACY_INT_H

#include "board.h"
#include "map.h"
#include "order.h"
#include "position.h"
#include "result.h"
#include "rules.h"

typedef enum { HP_HOLD, HP_MOVE, HP_SUPPORT, HP_CONVOY } hp_kind;

typedef struct hp_unit {
    int16_t power, loc, prov;
    dj_unit_type type;
    int order;            /* the order obeyed, -1: none */
    hp_kind written;      /* what the order asked, once judged legal */
    hp_kind kind;         /* what is still to be settled (HP_HOLD: done) */
    bool illegal;         /* step 1: cancelled as invalid */
    dj_why why;           /* the reason */
    bool no_route;        /* a convoyed move with no fleets to carry it */
    int16_t dest_loc, dest_prov;  /* HP_MOVE */
    bool by_convoy;       /* HP_MOVE: needs the fleets */
    bool half;            /* HP_MOVE across a half-strength border (`*`):
                             its army counts 1/2 for it; cuts no support */
    int16_t target;       /* HP_SUPPORT, HP_CONVOY: the other unit, -1 */
    int16_t target_prov;  /* support/convoy of a move: where to; -1 hold */
    bool cut;             /* step 2 */
    bool moved;           /* settled: it moved to dest */
    bool dislodged;
    int16_t dislodger_prov;   /* where the dislodging army came from */
    bool dislodger_convoyed;  /* ... by convoy (4.A.5) */
} hp_unit;

typedef struct hp_ctx {
    const dj_map *map;
    const dj_position *pos;
    const dj_rules *rules;
    int n;
    hp_unit u[DJ_MAX_UNITS];
    dj_board board;                /* where the units stood at the start */
    int16_t occupant[DJ_MAX_LOCS]; /* per province: unit standing there, -1 */
    bool standoff[DJ_MAX_LOCS];    /* a draw was settled there */
} hp_ctx;

/* haplomacy_orders.c — the seed's steps 1 and 2: each unit's order, the
 * invalid ones cancelled, support cut by rules 13 and 16 (not 14). */
void hp_read_orders(hp_ctx *c, const dj_order *orders, int norders,
                    dj_order_result *res);
void hp_cut_support(hp_ctx *c);

/* Is there a chain of fleets ordered to convoy army `a`, still at their
 * places, from its province to its destination? */
bool hp_convoy_route(const hp_ctx *c, int a);

#endif
