/* SPDX-License-Identifier: MIT */
/*
 * movement.h — internal state of one movement-phase adjudication.
 *
 * The adjudicator follows DPjudge's marked-order algorithm: every unit
 * carries a "mark" (void, cut, bounce, no convoy, ...), a support count and
 * a no-help list; every province carries a combat list of the units trying
 * to move into it or to stay in it.  Passes named after the rule they apply
 * mark units until nothing changes, then the surviving moves are made.
 *
 * Not part of the public API: only src/engine/ includes this file.
 */
#ifndef DJ_ENGINE_MOVEMENT_H
#define DJ_ENGINE_MOVEMENT_H

#include "board.h"
#include "map.h"
#include "order.h"
#include "position.h"
#include "result.h"
#include "rules.h"

typedef enum {
    MK_NONE = 0,
    MK_VOID,         /* support/convoy that matches nothing */
    MK_CUT,          /* support cut */
    MK_BOUNCE,       /* move failed */
    MK_NO_CONVOY,    /* convoyed army without a working route */
    MK_ENDANGERED,   /* convoy route threatened (steps 4-5 only) */
    MK_UNDER_ATTACK, /* convoy route was threatened in step 4 */
} mv_mark;

typedef enum { MV_HOLD, MV_MOVE, MV_SUPPORT, MV_CONVOY } mv_kind;

/* Convoy outcome imposed while searching for paradoxes (4.A.2). */
typedef enum { CV_FREE = 0, CV_SUCCEED, CV_FAIL } mv_convoy_force;

/* Fields ordered and narrowed so a unit fits in 48 bytes: the passes walk
 * the units again and again.  The enums are stored as uint8_t. */
typedef struct mv_unit {
    const dj_order *written; /* the order obeyed, as written (convoy route, 4.A.6) */
    int order;           /* index of the order obeyed, -1: none (holds) */
    int16_t support;     /* "support count" */
    int16_t no_help;     /* size of this unit's no-help list */
    int16_t power;
    int16_t loc;
    int16_t prov;
    int16_t dest_loc;    /* MV_MOVE: destination location */
    int16_t dest_prov;   /* MV_MOVE: destination province */
    int16_t target;      /* MV_SUPPORT/MV_CONVOY: the other unit, -1 none */
    int16_t target_dest; /* support-move/convoy: destination province; -1 hold */
    int16_t target_coast;/* support-move: location written with a coast, -1 */
    int16_t dislodger;   /* unit that dislodged this one */
    uint8_t type;        /* dj_unit_type */
    uint8_t kind;        /* mv_kind */
    uint8_t mark;        /* mv_mark */
    uint8_t force;       /* mv_convoy_force */
    uint8_t doomed_why;  /* dj_why: why it cannot succeed */
    bool by_convoy;      /* MV_MOVE: travels by convoy */
    bool dislodged;
    bool on_no_help;     /* this supporter is on its target's no-help list */
    bool convoy_ok;      /* convoyed army whose convoy succeeded */
    bool forced_bounce;  /* 'All Hold' paradox rule: this move fails */
    bool moved;          /* step 10 has moved it */
    bool in_paradox;     /* convoyed army failed by the paradox rule */
    bool doomed;         /* 4.E.1 a-c: impossible move that still counts as one */
    bool half;           /* MV_MOVE across a half-strength border (`*`):
                            strength 1/2 plus its supports, cuts no support
                            it does not dislodge (mv_prepare) */
    uint8_t void_why;    /* dj_why of a void support or convoy that is not
                            DJ_WHY_UNMATCHED (off route, 4.D.9 a), or 0 */
} mv_unit;

/* One entry of a province's combat list. */
typedef struct mv_entry {
    int16_t unit;
    int16_t next;   /* next entry of the same province, -1 */
    bool home;      /* bounced back to its own province: strength 0 */
    bool weak;      /* home entry of a head-to-head loser across a `*`,
                       unsupported: it defended with 1/2 only */
    bool removed;
} mv_entry;

#define MV_MAX_ENTRIES (3 * DJ_MAX_UNITS)

/* Convoys searched for paradoxes: 2^10 runs at most (convoy.c). */
#define MV_MAX_DOUBTFUL 10

typedef struct mv_search {
    int n;
    int16_t army[MV_MAX_DOUBTFUL];
    mv_unit saved[DJ_MAX_UNITS]; /* the units as steps 1-2 left them */
} mv_search;

typedef struct mv_ctx {
    const dj_map *map;
    const dj_position *pos;
    const dj_rules *rules;
    int nunits;
    mv_unit u[DJ_MAX_UNITS];
    dj_board board;                /* units by province, fleets that may carry */
    int16_t head[DJ_MAX_LOCS];     /* per province: first combat entry */
    int nentries;
    mv_entry e[MV_MAX_ENTRIES];
    int nconvoyed;                 /* the "convoying armies list" */
    int16_t convoyed[DJ_MAX_UNITS];
    bool changed;                  /* a pass marked something */
    bool land_only[DJ_MAX_UNITS];  /* 4.A.3 c: convoy disrupted, go by land */
    /* Half-strength borders: supports a move across a `*` cut by
     * dislodging its supporter in step 9 of this run (half_cut), and those
     * the run before found so, cut from step 3 (precut), so that no battle
     * is decided with a support a later step takes away (dpjudge.c). */
    bool half_cut[DJ_MAX_UNITS];
    bool precut[DJ_MAX_UNITS];
    /* Moves across a `*` failed as a knot: a support they cut so stood
     * when cut from the start (dpjudge.c: cut_earlier) */
    bool half_held[DJ_MAX_UNITS];
    int nmovers;                   /* units ordered to move, in index order */
    int16_t movers[DJ_MAX_UNITS];
    mv_search search;
} mv_ctx;

/* legal.c — 4.E.1: decide which order each unit obeys. */
void mv_assign_orders(mv_ctx *c, const dj_order *orders, int norders,
                      dj_order_result *res);

/* convoy_routes.c — which fleets may carry an army, and the routes they
 * make: whether one exists (not through exclude_unit, nor through fleets
 * marked in broken), and which fleets lie on some route. */
bool mv_sea_carrier(const mv_ctx *c, int fleet, int army, int dest_prov,
                    bool ordered_only, int exclude_unit);
bool mv_carrier(const mv_ctx *c, int fleet, int army, int dest_prov,
                bool ordered_only, int exclude_unit);
bool mv_fleet_path_exists(const mv_ctx *c, int army, int dest_prov,
                          bool ordered_only, int exclude_unit);
bool mv_convoy_route_ok(const mv_ctx *c, int army, const bool *broken);
bool mv_fleet_on_route(const mv_ctx *c, int fleet, int army, int dest,
                       bool ordered_only);
void mv_fleets_on_route(const mv_ctx *c, int army, int dest,
                        bool ordered_only, bool *on_route);

/* convoy_routes.c — disruption (4.A.1): is the army's convoy broken when
 * the fleets in `broken` fail? */
bool mv_convoy_broken(const mv_ctx *c, int army, const bool *broken);

/* convoy.c — the passes run under the paradox rule (4.A.2). */
void mv_resolve_with_paradox_rule(mv_ctx *c);

/* movement.c — the marked passes (steps 3-10), run on a prepared context. */
void mv_run_passes(mv_ctx *c);
void mv_prepare(mv_ctx *c);
void mv_cut_support(mv_ctx *c, int mover, bool dislodge_step);
int mv_strongest(const mv_ctx *c, int prov, int *best_strength);

/* dpjudge.c — the whole movement phase: fills out->orders,
 * out->contested and out->next's units and dislodged units (adjudicate.c
 * does the rest). */
int mv_adjudicate(const dj_map *map, const dj_position *pos,
                  const dj_order *orders, int norders, const dj_rules *rules,
                  dj_result *out, mv_ctx *c);

static inline bool mv_is_mover(const mv_unit *u)
{
    return u->kind == MV_MOVE;
}

#endif
