/* SPDX-License-Identifier: MIT */
/*
 * legal_list.h — every order one power may give now: for each of its
 * units in a movement phase its hold, moves (by convoy too), supports and
 * convoys; for each dislodged unit its retreats and its disband; in an
 * adjustment the builds it may make (each centre, each unit type and
 * coast) and the units it may remove, with how many it is due.  What the
 * web's order pad offers (judgeweb's legal.json).
 *
 * Design.  Nothing here decides legality on its own: a movement order is
 * offered when the check the adjudicator makes of a written order
 * (legal.c, 4.E.1 under the game's rules) passes for it; a retreat is one
 * of the position's legal retreats (dj_position_compute_retreats); a build
 * site is dj_build_site_why's.  The list is the candidates those checks
 * let through: every place for a move, every unit and place for a
 * support, every army and coast for a convoy by a fleet on some route of
 * fleets there and then.  Pure: no I/O, no globals.
 */
#ifndef DJ_ENGINE_LEGAL_LIST_H
#define DJ_ENGINE_LEGAL_LIST_H

#include <stdbool.h>

#include "map.h"
#include "order.h"
#include "position.h"
#include "rules.h"

#define DJ_LEGAL_MAX 8192

typedef struct dj_legal_order {
    dj_order order;
    int16_t unit;    /* the unit: index in pos->units (movement, removal)
                        or pos->dislodged (retreat); -1 for a build */
    bool by_convoy;  /* a move that needs a convoy */
} dj_legal_order;

typedef struct dj_legal_set {
    int n;
    bool truncated;  /* more than DJ_LEGAL_MAX: the rest left out */
    int due;         /* adjustment: builds (> 0) or removals (< 0) due */
    dj_legal_order o[DJ_LEGAL_MAX];
} dj_legal_set;

/*
 * Fill *out with the orders `power` may give in pos's phase, unit by unit
 * in the position's order (builds by location).  0, or -1 when the power
 * is out of range or memory runs out (out->n 0).
 */
int dj_legal_orders(const dj_map *map, const dj_position *pos,
                    const dj_rules *rules, int power, dj_legal_set *out);

/*
 * The order's text as a player mails it: dj_order_format's, except
 * builds and removals, written "BUILD A PAR", "REMOVE F BRE", and
 * disbands "DISBAND A PAR".
 */
int dj_legal_text(const dj_map *map, const dj_order *o, char *buf,
                  size_t len);

#endif
