/* SPDX-License-Identifier: MIT */
/*
 * order.h — orders as plain structs, and their canonical text.
 *
 * An order records what was written, not what is legal: the adjudicator
 * decides legality (4.E.1) against the position.  Locations are map
 * location indices; a location written without a coast is the base
 * location of its province.
 */
#ifndef DJ_ENGINE_ORDER_H
#define DJ_ENGINE_ORDER_H

#include "map.h"

#define DJ_MAX_PATH 16
#define DJ_MAX_ORDERS 1024

typedef enum {
    DJ_ORDER_NONE = 0,
    DJ_ORDER_HOLD,
    DJ_ORDER_MOVE,
    DJ_ORDER_SUPPORT,  /* dest < 0: support to hold, else support to move */
    DJ_ORDER_CONVOY,
    DJ_ORDER_RETREAT,
    DJ_ORDER_DISBAND,  /* retreat phase: disband a dislodged unit */
    DJ_ORDER_BUILD,
    DJ_ORDER_REMOVE,   /* adjustment phase: remove a unit */
    DJ_ORDER_WAIVE
} dj_order_kind;

typedef struct dj_order {
    dj_order_kind kind;
    int16_t power;             /* the power giving the order */
    dj_unit_type unit_type;    /* as written; DJ_NO_UNIT when omitted */
    int16_t loc;               /* the ordered unit (or build site) */
    dj_unit_type target_type;  /* support/convoy: type written for the other unit */
    int16_t target;            /* support/convoy: location of the other unit */
    int16_t dest;              /* move/retreat/convoy/support-move destination, else -1 */
    bool via_convoy;           /* "via convoy" / "by convoy" written */
    int8_t npath;              /* explicit convoy route written (4.A.6) */
    int16_t path[DJ_MAX_PATH]; /* provinces of that route, in order */
} dj_order;

/* Make *o a blank order of the given kind: every location field -1.
 * Field by field, in place: readers make one per order, and a whole
 * struct assembled on the stack and copied out stalls the copy on store
 * forwarding. */
static inline void dj_order_blank(dj_order *o, dj_order_kind kind, int power,
                                  dj_unit_type type, int loc)
{
    o->kind = kind;
    o->power = (int16_t)power;
    o->unit_type = type;
    o->loc = (int16_t)loc;
    o->target_type = DJ_NO_UNIT;
    o->target = -1;
    o->dest = -1;
    o->via_convoy = false;
    o->npath = 0;
    for (int i = 0; i < DJ_MAX_PATH; i++)
        o->path[i] = -1;
}

/* The same as a value. */
static inline dj_order dj_order_make(dj_order_kind kind, int power,
                                     dj_unit_type type, int loc)
{
    dj_order o;
    dj_order_blank(&o, kind, power, type, loc);
    return o;
}

/* Do two orders say the same (every field, the route up to its length)? */
bool dj_order_equal(const dj_order *a, const dj_order *b);

/*
 * Canonical DPjudge short text, upper case: "A PAR - BUR", "A MAR S A PAR - BUR",
 * "F NTH C A LON - BEL", "A PAR H", "A LON - BEL VIA", "A PAR R BUR",
 * "A PAR D", "A PAR B", "F STP/SC B", "F BRE D", "WAIVE".
 * Returns the length written (truncated to len-1 like snprintf).
 */
int dj_order_format(const dj_map *map, const dj_order *o, char *buf, size_t len);

/* "A" / "F" / "" */
const char *dj_unit_letter(dj_unit_type t);

#endif
