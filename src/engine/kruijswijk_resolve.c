/* SPDX-License-Identifier: MIT */
/*
 * kruijswijk_resolve.c — Kruijswijk's recursive guess algorithm (seed 000)
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
#include "kruijswijk_int.h"

#include <string.h>

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

static void backup_rule(kj_ctx *c, int from)
{
    bool paradox = false;
    for (int i = from; i < c->ndeps; i++)
        paradox |= c->deps[i] % 2 == 1;
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
        c->in_deps[d] = true;
        c->deps[c->ndeps++] = (int16_t)d;
    }
    c->result[d] = value;
    c->oldest_read = oldest < outer ? oldest : outer;
    return value;
}

bool kj_resolve(kj_ctx *c, int d)
{
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
        return 0;
    }
    return -1;
}
