/* SPDX-License-Identifier: MIT */
/*
 * kruijswijk_decide.c — the decision equations of DATC chapter 5 (seed 001)
 * for the Kruijswijk engine.
 *
 * Each function computes one decision or strength from the decisions it
 * depends on, asking kj_resolve() for them; it never knows whether what it
 * gets is final or a guess.  That is the whole trick of the guess algorithm
 * (kruijswijk_resolve.c).
 *
 *   MOVE     succeeds when its ATTACK beats the HOLD of the place (or the
 *            DEFEND of the unit coming the other way, head to head) and the
 *            PREVENT of every other move there; an army by sea also needs
 *            its PATH.
 *   PATH     an ordered chain of convoying fleets none of which is
 *            dislodged (4.A.1 b; under a, no fleet of the convoy dislodged).
 *   SUPPORT  given unless cut by a move from a foreign unit (not from where
 *            the support is aimed) whose path succeeds, or its unit is
 *            dislodged.  The 1971/1982/2000 paradox rules spare some.
 *   dislodged  a move into its place succeeds and it does not move away.
 */
#include "kruijswijk_int.h"

static bool head_to_head(const kj_ctx *c, int a, int b)
{
    const kj_unit *x = &c->u[a], *y = &c->u[b];
    return y->kind == KJ_MOVE && !y->hopeless && y->dest_prov == x->prov &&
           !x->by_sea && !y->by_sea;
}

/* Successful supports of unit x, leaving out those of power `except`. */
static int supports(kj_ctx *c, int x, int except)
{
    int n = 0;
    for (int s = c->u[x].first_support; s >= 0; s = c->u[s].next_support)
        if (c->u[s].power != except && kj_resolve(c, KJ_MAIN(s)))
            n++;
    return n;
}

static bool path_ok(kj_ctx *c, int m)
{
    return !c->u[m].by_sea || kj_resolve(c, KJ_PATH(m));
}

static int attack_strength(kj_ctx *c, int a)
{
    const kj_unit *u = &c->u[a];
    int b = c->board.at[u->dest_prov];
    if (b < 0)
        return 1 + supports(c, a, -1);
    const kj_unit *v = &c->u[b];
    if (v->kind == KJ_MOVE && !head_to_head(c, a, b) &&
        kj_resolve(c, KJ_MAIN(b)))
        return 1 + supports(c, a, -1); /* it left */
    if (v->power == u->power)
        return 0; /* no dislodging one's own unit */
    return 1 + supports(c, a, v->power);
}

static int hold_strength(kj_ctx *c, int prov)
{
    int b = c->board.at[prov];
    if (b < 0)
        return 0;
    if (c->u[b].kind == KJ_MOVE)
        return kj_resolve(c, KJ_MAIN(b)) ? 0 : 1;
    return 1 + supports(c, b, -1);
}

static int defend_strength(kj_ctx *c, int b)
{
    return 1 + supports(c, b, -1);
}

static int prevent_strength(kj_ctx *c, int m)
{
    const kj_unit *u = &c->u[m];
    if (!path_ok(c, m))
        return 0;
    /* Beaten by the unit coming the other way: no effect where it came
     * from (4.A.7 b, DATC 5.B).  Under a, also when either went by sea
     * and so dislodged it - not when both got through (a swap by convoy). */
    int b = c->board.at[u->dest_prov];
    if (b >= 0 && c->u[b].kind == KJ_MOVE && !c->u[b].hopeless &&
        c->u[b].dest_prov == u->prov) {
        if (head_to_head(c, m, b)) {
            if (kj_resolve(c, KJ_MAIN(b)))
                return 0;
        } else if (dj_rule(c->rules, DJ_RULE_DISLODGED_BOUNCE) == 'a' &&
                   kj_resolve(c, KJ_MAIN(b)) && !kj_resolve(c, KJ_MAIN(m))) {
            return 0;
        }
    }
    return 1 + supports(c, m, -1);
}

bool kj_move_prevents(kj_ctx *c, int mover)
{
    return prevent_strength(c, mover) > 0;
}

static bool decide_move(kj_ctx *c, int a)
{
    const kj_unit *u = &c->u[a];
    if (u->hopeless || u->no_route || u->held || !path_ok(c, a))
        return false;
    int attack = attack_strength(c, a);
    int b = c->board.at[u->dest_prov];
    if (b >= 0 && head_to_head(c, a, b)) {
        if (attack <= defend_strength(c, b))
            return false;
    } else if (attack <= hold_strength(c, u->dest_prov)) {
        return false;
    }
    for (int m = c->first_mover[u->dest_prov]; m >= 0; m = c->u[m].next_mover)
        if (m != a && attack <= prevent_strength(c, m))
            return false;
    return true;
}

/* 4.A.1: does the army's convoy survive the fleets lost? */
static bool decide_path(kj_ctx *c, int a)
{
    kj_unit *u = &c->u[a];
    if (u->paradox || u->no_route)
        return false;
    /* Settle every fleet first: the route search below must not be
     * interrupted by another decision. */
    bool any_lost = false;
    for (int f = u->first_fleet; f >= 0; f = c->u[f].next_fleet) {
        int by;
        c->lost[f] = kj_dislodged(c, f, &by);
        any_lost |= c->lost[f];
    }
    if (c->restart)
        return false;
    if (!any_lost)
        return true;
    if (dj_rule(c->rules, DJ_RULE_MULTI_ROUTE_DISRUPTION) != 'a')
        return kj_route_exists(c, a, u->dest_prov, true, -1, c->lost);
    /* 4.A.1 a: any fleet of the convoy lost breaks it; foreign fleets do
     * not count when the army's own power can carry it alone (6.F.10). */
    for (int f = u->first_fleet; f >= 0; f = c->u[f].next_fleet)
        c->foreign[f] = c->u[f].power != u->power;
    bool own_suffice = kj_route_exists(c, a, u->dest_prov, true, -1,
                                       c->foreign);
    for (int f = u->first_fleet; f >= 0; f = c->u[f].next_fleet)
        if (c->lost[f] && !(own_suffice && c->u[f].power != u->power))
            return false;
    return true;
}

/* The 1971/1982/2000 paradox rules: supports a convoyed army cannot cut. */
static bool spared(kj_ctx *c, int m, int s)
{
    const kj_unit *su = &c->u[s];
    char rule = dj_rule(c->rules, DJ_RULE_CONVOY_PARADOX);
    if (rule != 'a' && rule != 'b' && rule != 'c')
        return false;
    int against = su->aim_dest >= 0 ? su->aim_dest : c->u[su->aim].prov;
    int f = c->board.at[against];
    if (f < 0 || c->u[f].kind != KJ_CONVOY || c->u[f].unmatched)
        return false;
    if (rule == 'b')
        return true; /* 1982: for or against any convoying fleet */
    if (c->u[f].aim != m)
        return false;
    if (rule == 'a')
        return true; /* 1971: for or against one of its own fleets */
    /* 2000: an attack on a fleet it cannot do without. */
    return su->aim_dest >= 0 &&
           !kj_route_exists(c, m, c->u[m].dest_prov, true, f, NULL);
}

static bool decide_support(kj_ctx *c, int s)
{
    const kj_unit *su = &c->u[s];
    if (su->unmatched)
        return false;
    for (int m = c->first_mover[su->prov]; m >= 0; m = c->u[m].next_mover) {
        const kj_unit *mu = &c->u[m];
        if (mu->power == su->power || (mu->by_sea && spared(c, m, s)))
            continue;
        bool from_aim = su->aim_dest >= 0 && su->aim_dest == mu->prov &&
                        !(mu->by_sea && dj_rule(c->rules,
                                                DJ_RULE_CONVOY_SELF_CUT) == 'b');
        if (from_aim ? kj_resolve(c, KJ_MAIN(m)) : path_ok(c, m))
            return false;
    }
    return true;
}

bool kj_dislodged(kj_ctx *c, int x, int *by)
{
    const kj_unit *u = &c->u[x];
    *by = -1;
    if (u->kind == KJ_MOVE && !u->hopeless && !u->no_route &&
        kj_resolve(c, KJ_MAIN(x)))
        return false;
    for (int m = c->first_mover[u->prov]; m >= 0; m = c->u[m].next_mover)
        if (kj_resolve(c, KJ_MAIN(m))) {
            *by = m;
            return true;
        }
    return false;
}

bool kj_decide(kj_ctx *c, int d)
{
    int unit = d / 2;
    if (d % 2 == 1)
        return decide_path(c, unit);
    switch (c->u[unit].kind) {
    case KJ_MOVE:
        return decide_move(c, unit);
    case KJ_SUPPORT:
        return decide_support(c, unit);
    default:
        return false;
    }
}
