/* SPDX-License-Identifier: MIT */
/*
 * kruijswijk_decide.c — the decision equations of DATC chapter 5 (seed 001)
 * and Kruijswijk's recursive guess algorithm that resolves them (seed 000),
 * for the Kruijswijk engine.  The two call each other by design: an
 * equation asks kj_resolve() for the decisions it depends on, and
 * kj_resolve() computes a decision with its equation (kj_decide()), so
 * they are one file.
 *
 * Each function computes one decision or strength from the decisions it
 * depends on, asking kj_resolve() for them; it never knows whether what it
 * gets is final or a guess.  That is the whole trick of the guess algorithm
 * (below).
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

#include <assert.h>
#include <string.h>

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

/* Strengths in halves: a unit 2, a support 2, and a move across a
 * half-strength border (`*`) 1 of its own. */
static int own(const kj_unit *u)
{
    return u->kind == KJ_MOVE && u->half ? 1 : 2;
}

static int attack_strength(kj_ctx *c, int a)
{
    const kj_unit *u = &c->u[a];
    int b = c->board.at[u->dest_prov];
    if (b < 0)
        return own(u) + 2 * supports(c, a, -1);
    const kj_unit *v = &c->u[b];
    if (v->kind == KJ_MOVE && !head_to_head(c, a, b) &&
        kj_resolve(c, KJ_MAIN(b)))
        return own(u) + 2 * supports(c, a, -1); /* it left */
    if (v->power == u->power)
        return 0; /* no dislodging one's own unit */
    return own(u) + 2 * supports(c, a, v->power);
}

static int hold_strength(kj_ctx *c, int prov)
{
    int b = c->board.at[prov];
    if (b < 0)
        return 0;
    if (c->u[b].kind == KJ_MOVE)
        return kj_resolve(c, KJ_MAIN(b)) ? 0 : 2;
    return 2 + 2 * supports(c, b, -1);
}

static int defend_strength(kj_ctx *c, int b)
{
    return own(&c->u[b]) + 2 * supports(c, b, -1);
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
    return own(u) + 2 * supports(c, m, -1);
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
        /* across a half-strength border, only by dislodging */
        if (from_aim || mu->half ? kj_resolve(c, KJ_MAIN(m)) : path_ok(c, m))
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

/* ---- the guess algorithm --------------------------------------------------
 *
 * Kruijswijk's recursive guess algorithm (seed 000)
 * and the backup rule, for the Kruijswijk engine.
 *
 * kj_resolve(d): a resolved decision is returned as it is.  A decision
 * being guessed is returned as guessed, and the reader notes how old that
 * guess is.  Otherwise d is guessed to fail and computed.  If no guess was
 * read, the result is final.  If a guess older than d's own was read, d is
 * part of a cycle that starts further up: it keeps its provisional result
 * and goes on the dependency list, to be forgotten when that cycle is
 * settled.  If d's own guess is the oldest read, the cycle starts here: it
 * is computed again guessing success; the same answer both ways is final;
 * otherwise the cycle has two consistent outcomes or none, and the backup
 * rule settles it.
 *
 * (Seed 000 decides "built on a guess" by the dependency list growing.  A
 * decision that reads only a guess already on the list, or that reads an
 * ancestor's guess after its own, is then taken for final or for a cycle's
 * head when it is neither: 6.F.16 and 6.G.15 under 4.A.7 a go wrong.  Ages
 * of guesses tell exactly.)  The backup rule:
 *
 *   - no convoy path in the cycle: circular movement, every move in it
 *     succeeds (DATC 6.C);
 *   - a PATH decision in the cycle: a convoy paradox.  The armies whose
 *     paths are in the cycle fail and have no effect (Szykman, and what
 *     remains under the 1971/1982/2000 rules once their supports are
 *     spared); under All Hold the moves against their fleets fail too; under
 *     the DPTG rule the armies fail if that is consistent (their convoys are
 *     then broken), else All Hold.
 *
 * A convoy paradox changes the board (armies that no longer count), so the
 * whole phase is resolved again from scratch with those armies failing:
 * every restart settles at least one more army, so there are at most as
 * many restarts as units.  Recursion is bounded by the number of
 * decisions (each nested call is on a decision not yet being guessed), and
 * the work of a phase by decisions_left.
 */
/* Guessed decisions computed in one phase before the engine gives up. */
#define KJ_DECISION_BUDGET 4000000L

/* oldest_read when no guess was read. */
#define NO_GUESS_READ 0x7fffffff

static void forget_from(kj_ctx *c, int from)
{
    for (int i = from; i < c->ndeps; i++) {
        c->state[c->deps[i]] = KJ_UNRESOLVED;
        c->in_deps[c->deps[i]] = false;
    }
    c->ndeps = from;
}

/* 'All Hold': every move into a place where the army's fleets are fails. */
static void hold_attacks_on_convoy(kj_ctx *c, int army)
{
    for (int f = c->u[army].first_fleet; f >= 0; f = c->u[f].next_fleet)
        for (int m = c->first_mover[c->u[f].prov]; m >= 0; m = c->u[m].next_mover)
            c->u[m].held = true;
}

/*
 * A knot of half-strength borders: a move across a `*` cuts a support only
 * by dislodging its supporter, so two such moves may each hang on the
 * support the other would cut (both succeed or neither: two outcomes, or
 * none).  The moves across a `*` of the cycle that attack a support of the
 * cycle fail, as convoyed armies in a paradox do (Szykman), and the phase
 * is resolved again.  Returns whether the cycle was such a knot.
 */
static bool half_knot(kj_ctx *c, int from)
{
    bool any = false;
    for (int i = from; i < c->ndeps; i++) {
        int d = c->deps[i];
        const kj_unit *su = &c->u[d / 2];
        if (d % 2 == 1 || su->kind != KJ_SUPPORT)
            continue;
        for (int m = c->first_mover[su->prov]; m >= 0; m = c->u[m].next_mover) {
            kj_unit *mu = &c->u[m];
            if (!mu->half || mu->power == su->power || mu->held)
                continue;
            for (int k = from; k < c->ndeps; k++)
                if (c->deps[k] == KJ_MAIN(m)) {
                    mu->held = true;
                    any = true;
                    break;
                }
        }
    }
    if (any)
        c->restart = true;
    return any;
}

static void backup_rule(kj_ctx *c, int from)
{
    bool paradox = false;
    for (int i = from; i < c->ndeps; i++)
        paradox |= c->deps[i] % 2 == 1;
    if (!paradox && c->map->half_borders && half_knot(c, from))
        return;
    if (!paradox) {
        /* Circular movement: the moves of the cycle all succeed. */
        for (int i = from; i < c->ndeps; i++) {
            int d = c->deps[i];
            c->in_deps[d] = false;
            if (c->u[d / 2].kind == KJ_MOVE) {
                c->result[d] = true;
                c->state[d] = KJ_RESOLVED;
            } else {
                c->state[d] = KJ_UNRESOLVED;
            }
        }
        c->ndeps = from;
        return;
    }
    int group = c->paradox_groups++;
    bool all_hold = dj_rule(c->rules, DJ_RULE_CONVOY_PARADOX) == 'e';
    for (int i = from; i < c->ndeps; i++) {
        int d = c->deps[i];
        if (d % 2 == 0)
            continue;
        kj_unit *army = &c->u[d / 2];
        army->paradox = true;
        c->group_of[d / 2] = (int16_t)group;
        if (all_hold)
            hold_attacks_on_convoy(c, d / 2);
    }
    c->restart = true;
}

/* Keep a decision computed on someone else's guess: it stays GUESSING,
 * listed, so the cycle's head forgets it when the cycle is settled. */
static bool provisional(kj_ctx *c, int d, bool value, int outer, int oldest)
{
    if (!c->in_deps[d]) {
        assert(c->ndeps < 2 * c->n); /* each decision listed once at most */
        c->in_deps[d] = true;
        c->deps[c->ndeps++] = (int16_t)d;
    }
    c->result[d] = value;
    c->oldest_read = oldest < outer ? oldest : outer;
    return value;
}

bool kj_resolve(kj_ctx *c, int d)
{
    assert(d >= 0 && d < 2 * c->n);
    for (;;) {
        if (c->restart)
            return false;
        if (c->state[d] == KJ_RESOLVED)
            return c->result[d];
        if (c->state[d] == KJ_GUESSING) {
            if (c->entered[d] < c->oldest_read)
                c->oldest_read = c->entered[d];
            return c->result[d];
        }
        if (--c->decisions_left < 0) {
            c->restart = true; /* gives up: kj_resolve_all reports it */
            return false;
        }
        int before = c->ndeps, outer = c->oldest_read;
        int me = c->entered[d] = ++c->entries;
        c->oldest_read = NO_GUESS_READ;
        c->result[d] = false;
        c->state[d] = KJ_GUESSING;
        bool first = kj_decide(c, d);
        if (c->restart)
            return false;
        int oldest = c->oldest_read;
        if (oldest == NO_GUESS_READ) {
            /* Built on no guess: final. */
            c->result[d] = first;
            c->state[d] = KJ_RESOLVED;
            c->oldest_read = outer;
            return first;
        }
        if (oldest < me) /* a cycle that starts further up */
            return provisional(c, d, first, outer, oldest);
        /* The cycle starts here: forget what was built on the guess and
         * try the other one. */
        forget_from(c, before);
        c->oldest_read = NO_GUESS_READ;
        c->result[d] = true;
        bool second = kj_decide(c, d);
        if (c->restart)
            return false;
        oldest = c->oldest_read;
        if (oldest < me)
            return provisional(c, d, second, outer, oldest);
        if (oldest == NO_GUESS_READ || first == second) {
            forget_from(c, before);
            c->result[d] = second;
            c->state[d] = KJ_RESOLVED;
            c->oldest_read = outer;
            return second;
        }
        /* Two outcomes or none: the backup rule settles the cycle, then
         * the decision is resolved again. */
        assert(!c->in_deps[d] && c->ndeps < 2 * c->n);
        c->in_deps[d] = true;
        c->deps[c->ndeps++] = (int16_t)d;
        backup_rule(c, before);
        c->oldest_read = outer;
    }
}

/* Does the army's convoy really fail, given who is dislodged? */
static bool convoy_broken(kj_ctx *c, int army)
{
    kj_unit *u = &c->u[army];
    bool paradox = u->paradox;
    u->paradox = false;
    c->state[KJ_PATH(army)] = KJ_UNRESOLVED;
    c->ndeps = 0;
    bool ok = kj_decide(c, KJ_PATH(army));
    u->paradox = paradox;
    c->result[KJ_PATH(army)] = false;
    c->state[KJ_PATH(army)] = KJ_RESOLVED;
    return !ok;
}

/* DPTG (4.A.2 f): a paradox whose armies' failure is not consistent falls
 * back to All Hold.  Returns whether some group did. */
static bool dptg_fallback(kj_ctx *c, bool *held_group)
{
    bool changed = false;
    for (int g = 0; g < c->paradox_groups && g < DJ_MAX_UNITS; g++) {
        if (held_group[g])
            continue;
        bool consistent = true;
        for (int a = 0; a < c->n && consistent; a++)
            if (c->group_of[a] == g)
                consistent = convoy_broken(c, a);
        if (consistent)
            continue;
        held_group[g] = true;
        changed = true;
        for (int a = 0; a < c->n; a++)
            if (c->group_of[a] == g)
                hold_attacks_on_convoy(c, a);
    }
    return changed;
}

static void reset_decisions(kj_ctx *c)
{
    size_t nd = 2 * (size_t)c->n;
    memset(c->state, KJ_UNRESOLVED, nd);
    memset(c->in_deps, 0, nd * sizeof(bool));
    c->ndeps = 0;
    c->entries = 0;
    c->oldest_read = NO_GUESS_READ;
    c->restart = false;
}

#ifndef NDEBUG
/* After a round that did not restart: every decision the phase needs is
 * final, and no provisional one is left listed. */
static bool all_resolved(const kj_ctx *c)
{
    if (c->ndeps != 0)
        return false;
    for (int u = 0; u < c->n; u++) {
        const kj_unit *x = &c->u[u];
        if ((x->kind == KJ_MOVE || x->kind == KJ_SUPPORT) &&
            c->state[KJ_MAIN(u)] != KJ_RESOLVED)
            return false;
        if (x->kind == KJ_MOVE && x->by_sea &&
            c->state[KJ_PATH(u)] != KJ_RESOLVED)
            return false;
    }
    return true;
}
#endif

static bool resolve_every_decision(kj_ctx *c)
{
    for (int u = 0; u < c->n && !c->restart; u++) {
        const kj_unit *x = &c->u[u];
        if (x->kind == KJ_MOVE || x->kind == KJ_SUPPORT)
            kj_resolve(c, KJ_MAIN(u));
        if (x->kind == KJ_MOVE && x->by_sea)
            kj_resolve(c, KJ_PATH(u));
    }
    return !c->restart;
}

int kj_resolve_all(kj_ctx *c)
{
    bool held_group[DJ_MAX_UNITS];
    memset(held_group, 0, sizeof held_group);
    c->paradox_groups = 0;
    c->decisions_left = KJ_DECISION_BUDGET;
    for (int round = 0; round <= 2 * c->n + 1; round++) {
        reset_decisions(c);
        if (!resolve_every_decision(c)) {
            if (c->decisions_left < 0)
                return -1;
            continue;
        }
        if (dj_rule(c->rules, DJ_RULE_CONVOY_PARADOX) == 'f' &&
            c->paradox_groups > 0 && dptg_fallback(c, held_group))
            continue;
        assert(all_resolved(c));
        return 0;
    }
    return -1;
}
