/* SPDX-License-Identifier: MIT */
/*
 * kruijswijk_int.h — the state of one Kruijswijk adjudication, shared by the
 * files of the engine (kruijswijk*.c) and by nothing else.
 *
 * The engine follows the DATC's chapter 5: every move has a MOVE decision,
 * every army going through fleets a PATH decision, every support a SUPPORT
 * decision; strengths (ATTACK, HOLD, PREVENT, DEFEND) are computed from the
 * decisions they depend on; dislodgements follow from the moves.  The
 * decisions are settled by Kruijswijk's recursive guess algorithm
 * (kruijswijk_decide.c), which finds dependency cycles and hands them to
 * the backup rule: circular movement, or the game's convoy paradox rule.
 */
#ifndef DJ_ENGINE_KRUIJSWIJK_INT_H
#define DJ_ENGINE_KRUIJSWIJK_INT_H

#include "board.h"
#include "kruijswijk.h"

typedef enum { KJ_HOLD, KJ_MOVE, KJ_SUPPORT, KJ_CONVOY } kj_kind;

typedef enum { KJ_UNRESOLVED = 0, KJ_GUESSING, KJ_RESOLVED } kj_state;

/* Decisions are numbered per unit: 2u is the unit's MOVE or SUPPORT
 * decision, 2u+1 the PATH decision of an army moving through fleets. */
#define KJ_MAIN(u) (2 * (u))
#define KJ_PATH(u) (2 * (u) + 1)
#define KJ_MAX_DECISIONS (2 * DJ_MAX_UNITS)

typedef struct kj_unit {
    int16_t power;
    int16_t loc;
    int16_t prov;
    dj_unit_type type;
    int order;             /* index of the order it obeys, -1: none */
    kj_kind kind;
    /* KJ_MOVE */
    int16_t dest_loc;
    int16_t dest_prov;
    bool by_sea;           /* travels through fleets */
    bool hopeless;         /* 4.E.1 a-c: a move that cannot be made; fails */
    dj_why hopeless_why;
    bool no_route;         /* by sea, but no route of convoying fleets */
    bool half;             /* across a half-strength border (`*`): strength
                              1/2 plus supports; cuts only by dislodging */
    /* KJ_SUPPORT, KJ_CONVOY */
    int16_t aim;           /* the other unit */
    int16_t aim_dest;      /* its destination province; -1: support to hold */
    int16_t aim_coast;     /* support: the coast written, -1 */
    bool unmatched;        /* support or convoy that matches nothing */
    dj_why void_why;       /* why unmatched when not DJ_WHY_UNMATCHED: a
                              convoy off its army's routes, 4.D.9 a */
    /* lists */
    int16_t first_support; /* matched supports given to this unit */
    int16_t next_support;
    int16_t next_mover;    /* next move into the same province */
    int16_t first_fleet;   /* KJ_MOVE by sea: its convoying fleets */
    int16_t next_fleet;
    /* backup rule results, kept across restarts */
    bool paradox;          /* its convoy failed by the paradox rule */
    bool held;             /* All Hold: this move fails */
} kj_unit;

typedef struct kj_ctx {
    const dj_map *map;
    const dj_position *pos;
    const dj_rules *rules;
    const dj_order *orders;
    int norders;
    int n;
    kj_unit u[DJ_MAX_UNITS];
    dj_board board;                   /* units by province, fleets that may carry */
    int16_t first_mover[DJ_MAX_LOCS]; /* per province: first move into it */
    bool land_only[DJ_MAX_UNITS];     /* 4.A.3 c: convoy failed, go by land */
    /* the guess algorithm */
    uint8_t state[KJ_MAX_DECISIONS];
    bool result[KJ_MAX_DECISIONS];
    int16_t deps[KJ_MAX_DECISIONS];
    int ndeps;
    int entered[KJ_MAX_DECISIONS];    /* when its guess was made */
    int entries;                      /* guesses made so far */
    int oldest_read;                  /* oldest guess read by the decision
                                       * being computed */
    bool restart;                     /* the backup rule changed the board */
    int paradox_groups;               /* paradox cycles settled so far */
    int16_t group_of[DJ_MAX_UNITS];   /* per army: its paradox cycle, -1 */
    bool lost[DJ_MAX_UNITS];          /* per convoying fleet: dislodged */
    bool foreign[DJ_MAX_UNITS];       /* per convoying fleet: not the army's power */
    bool in_deps[KJ_MAX_DECISIONS];
    long decisions_left;              /* bound on the work of one phase */
    /* scratch for route searches (never held across a decision) */
    int16_t queue[DJ_MAX_UNITS];
    uint8_t seen[DJ_MAX_UNITS];
    int16_t stack[DJ_MAX_UNITS];
} kj_ctx;

/* kruijswijk_orders.c — which order each unit obeys, its own legality. */
void kj_read_orders(kj_ctx *c, dj_order_result *res);

/* kruijswijk_routes.c — chains of fleets at sea. */
bool kj_route_exists(kj_ctx *c, int army, int dest_prov, bool ordered,
                     int without, const bool *lost);
bool kj_on_some_route(kj_ctx *c, int fleet, int army, int dest_prov,
                      bool ordered);
void kj_route_fleets(kj_ctx *c, int army, int dest_prov, bool ordered,
                     bool *on_route);
bool kj_carries(const kj_ctx *c, int fleet, int army, int dest_prov,
                bool ordered);

/* kruijswijk_decide.c — the decision equations and strengths. */
bool kj_decide(kj_ctx *c, int d);
bool kj_dislodged(kj_ctx *c, int unit, int *by);
bool kj_move_prevents(kj_ctx *c, int mover);

/* kruijswijk_decide.c — the guess algorithm and the backup rule. */
bool kj_resolve(kj_ctx *c, int d);
int kj_resolve_all(kj_ctx *c);

#endif
