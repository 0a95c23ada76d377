/* SPDX-License-Identifier: MIT */
/*
 * result.h — what adjudicating a phase gives back, whichever engine did
 * it: each order's outcome (and why an order was illegal, void or
 * ignored), the orders the judge supplied itself, and the next position;
 * whether two results of one phase agree.
 */
#ifndef DJ_ENGINE_RESULT_H
#define DJ_ENGINE_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "map.h"
#include "order.h"
#include "position.h"

/* What happened to one order; several may hold (bounced and dislodged). */
enum {
    DJ_RF_BOUNCE = 1 << 0,    /* move or retreat failed */
    DJ_RF_CUT = 1 << 1,       /* support cut */
    DJ_RF_VOID = 1 << 2,      /* support/convoy that matched nothing real */
    DJ_RF_NO_CONVOY = 1 << 3, /* army's convoy failed: no route or disrupted */
    DJ_RF_DISLODGED = 1 << 4, /* the ordered unit was dislodged */
    DJ_RF_ILLEGAL = 1 << 5,   /* order not legal here: unit holds (4.E.1) */
    DJ_RF_PARADOX = 1 << 6,   /* failed under the convoy paradox rule (4.A.2) */
    DJ_RF_DISRUPTED = 1 << 7, /* convoying fleet whose convoy did not succeed */
    DJ_RF_DESTROYED = 1 << 8, /* dislodged with nowhere to retreat */
    DJ_RF_IGNORED = 1 << 9,   /* adjustment order not used (too many, repeated) */
};

/* Why an order is illegal, void or ignored. */
typedef enum {
    DJ_WHY_NONE = 0,
    DJ_WHY_NO_UNIT,            /* no unit there */
    DJ_WHY_NOT_OWNER,          /* the unit belongs to another power */
    DJ_WHY_WRONG_PHASE,        /* order kind does not belong in this phase */
    DJ_WHY_SAME_PLACE,         /* move to its own province */
    DJ_WHY_NOT_ADJACENT,       /* destination cannot be reached */
    DJ_WHY_BAD_TERRAIN,        /* army to sea, fleet inland */
    DJ_WHY_COAST_NEEDED,       /* 4.B.1: which coast? */
    DJ_WHY_COAST_UNREACHABLE,  /* 4.B.3: that coast cannot be reached */
    DJ_WHY_FLEET_CONVOYED,     /* only armies are convoyed */
    DJ_WHY_NO_CONVOY_ROUTE,    /* 4.E.1 d: no route of fleets exists */
    DJ_WHY_CONVOY_NOT_AT_SEA,  /* only fleets at sea convoy */
    DJ_WHY_CONVOY_BAD_TARGET,  /* convoyed unit is not an army on a coast */
    DJ_WHY_SUPPORT_UNREACHABLE,/* supporter cannot reach the province */
    DJ_WHY_SUPPORT_SELF,       /* support of itself */
    DJ_WHY_NO_TARGET,          /* supported/convoyed unit does not exist */
    DJ_WHY_UNMATCHED,          /* supported/convoyed unit did not order that */
    DJ_WHY_DUPLICATE,          /* 4.D.3: more than one order for the unit */
    DJ_WHY_NOT_DISLODGED,      /* retreat of a unit that was not dislodged */
    DJ_WHY_RETREAT_BLOCKED,    /* not among the unit's legal retreats */
    DJ_WHY_BUILD_NOT_HOME,     /* not a home centre of the power */
    DJ_WHY_BUILD_NOT_OWNED,    /* home centre owned by someone else */
    DJ_WHY_BUILD_OCCUPIED,     /* a unit stands there */
    DJ_WHY_BUILD_NO_ROOM,      /* no builds left to use */
    DJ_WHY_BUILD_TERRAIN,      /* fleet inland, army at sea */
    DJ_WHY_BUILD_COAST,        /* 4.B.7: fleet build needs a coast */
    DJ_WHY_BUILD_TWICE,        /* 4.D.5: that province already has a build */
    DJ_WHY_REMOVE_NOT_NEEDED,  /* no removals owed, or all already given */
    DJ_WHY_NO_ADJUSTMENT,      /* power has nothing to build or remove */
    DJ_WHY_WRONG_COAST,        /* 4.B.5/4.B.6 a: a coast that does not apply */
    DJ_WHY_PATH_NEEDED,        /* 4.A.6 c: a convoy route must be written */
    DJ_WHY_NO_ORDER,           /* the judge acted because no order came */
    DJ_WHY_CONVOY_OFF_ROUTE,   /* the army ordered that, but no route of
                                  fleets from it passes this fleet */
    DJ_WHY_NO_RETREAT,         /* dislodged with nowhere to retreat: destroyed */
    DJ_WHY_RETREAT_FAILED,     /* its retreat bounced: the unit disbands */
    DJ_WHY_RETREAT_REFUSED,    /* its only retreat orders could not stand */
    DJ_WHY_TOO_FEW_REMOVALS,   /* removals owed beyond those ordered that stood */
    DJ_WHY_DISORDER_SUPPORT,   /* 4.D.9 a: no hold support for a power in
                                  civil disorder */
    DJ_WHY_SUPPORT_HALF_BORDER,/* the supporter reaches the province only
                                  across a half-strength border (`*`) */
    DJ_WHY_COUNT
} dj_why;

typedef struct dj_order_result {
    uint16_t flags;        /* DJ_RF_* */
    bool success;          /* the order did what it said */
    dj_why why;            /* reason when illegal, void or ignored */
    int16_t unit;          /* index in the input position's units (or dislodged), -1 */
    int16_t dislodged_by;  /* province the dislodging unit came from, -1 */
} dj_order_result;

/* Orders the judge itself supplied: civil-disorder removals, disbands. */
typedef struct dj_auto_order {
    dj_order order;
    dj_why why;
} dj_auto_order;

typedef struct dj_result {
    int norders;
    dj_order_result orders[DJ_MAX_ORDERS]; /* parallel to the input orders */
    int nauto;
    dj_auto_order autos[DJ_MAX_UNITS];
    bool contested[DJ_MAX_LOCS]; /* per province: a standoff left it empty */
    dj_position next;            /* the position after this phase */
    int winner;                  /* power that reached the victory count, -1 */
} dj_result;

/*
 * Do two results of the same phase agree?  Compared: whether each order
 * succeeded, which units were dislodged, the next position (units,
 * dislodged units and their retreats, centre owners, phase) and the
 * winner.  Marks that only explain a failure (cut, void, ...) are not
 * compared: two engines may word the same outcome differently.  Returns 0
 * when they agree, else 1 with the first difference described in `why`.
 */
int dj_result_diff(const dj_map *map, const dj_result *a, const dj_result *b,
                   char *why, size_t whylen);

/* Short English reason: "no unit there", "not adjacent", ... */
const char *dj_why_text(dj_why why);

#endif
