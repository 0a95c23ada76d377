/* SPDX-License-Identifier: MIT */
/*
 * movement.c — the DPjudge marked-order passes for a movement phase.
 *
 * Steps, each a function named after what it decides:
 *   1  markInvalidConvoys     armies without an ordered route; void convoys
 *   2  markInvalidSupports    void supports; support counts; no-help lists
 *   3  cutSupportsByNonConvoyedAttacks, then the combat lists
 *   4-5 resolveConvoys        checkDisruptions until the convoys settle
 *   6  markSwapBounces        head-to-head battles
 *   7  markUnderStrengthBounces
 *   8  markSelfDislodgeBounces
 *   9  markSupportsCutByDislodgement   (6-9 repeat until nothing changes)
 *   10 moveUnits              dislodgements, moves, unbounce
 * Steps 1-2 run once (mv_prepare); steps 3-10 (mv_run_passes) may run again
 * under the paradox search of convoy.c, from the units steps 1-2 left.
 */
#include "movement.h"

#include <assert.h>
#include <string.h>

/* ---- combat lists ------------------------------------------------------- */

static void add_entry(mv_ctx *c, int prov, int unit, bool home)
{
    /* cannot happen: each unit has at most two live entries */
    assert(c->nentries < MV_MAX_ENTRIES);
    assert(prov >= 0 && prov < c->map->nlocs && unit >= 0 &&
           unit < c->nunits);
    if (c->nentries >= MV_MAX_ENTRIES)
        return;
    mv_entry *e = &c->e[c->nentries];
    e->unit = (int16_t)unit;
    e->home = home;
    e->weak = false;
    e->removed = false;
    e->next = c->head[prov];
    c->head[prov] = (int16_t)c->nentries++;
}

static void remove_entry(mv_ctx *c, int prov, int unit, bool home)
{
    for (int i = c->head[prov]; i >= 0; i = c->e[i].next)
        if (!c->e[i].removed && c->e[i].unit == unit && c->e[i].home == home)
            c->e[i].removed = true;
}

/*
 * Strengths are in halves (a half-strength border's move has 1/2): a unit
 * is 2, each support 2, a move across a `*` 1.  A unit bounced back home
 * stands there with its own 2 and no support.
 */
static int move_strength(const mv_unit *u, int supports)
{
    return 2 * supports + (u->half ? 1 : 2);
}

static int entry_strength(const mv_ctx *c, const mv_entry *e)
{
    if (e->home)
        return e->weak ? 1 : 2;
    return move_strength(&c->u[e->unit], c->u[e->unit].support);
}

/*
 * The unit whose entry in prov's combat list is stronger than every other
 * entry, or -1 (empty list or a tie).  *best receives the top strength.
 */
int mv_strongest(const mv_ctx *c, int prov, int *best)
{
    int top = -1, who = -1;
    bool tie = false;
    for (int i = c->head[prov]; i >= 0; i = c->e[i].next) {
        const mv_entry *e = &c->e[i];
        if (e->removed)
            continue;
        int s = entry_strength(c, e);
        if (s > top) {
            top = s;
            who = e->unit;
            tie = false;
        } else if (s == top) {
            tie = true;
        }
    }
    if (best)
        *best = top;
    return tie ? -1 : who;
}

/* Is `strength` greater than every entry of prov other than unit's own? */
static bool beats_others(const mv_ctx *c, int prov, int unit, int strength)
{
    for (int i = c->head[prov]; i >= 0; i = c->e[i].next) {
        const mv_entry *e = &c->e[i];
        if (!e->removed && !(e->unit == unit && !e->home) &&
            entry_strength(c, e) >= strength)
            return false;
    }
    return true;
}

/* The single strongest entry of prov, if it is a unit moving into prov. */
static int strongest_mover(const mv_ctx *c, int prov)
{
    int w = mv_strongest(c, prov, NULL);
    if (w < 0 || !mv_is_mover(&c->u[w]) || c->u[w].dest_prov != prov)
        return -1;
    return w;
}

/* bounce: the move fails; the unit falls back to its own province, strength 0. */
static void bounce(mv_ctx *c, int unit)
{
    c->u[unit].mark = MK_BOUNCE;
    add_entry(c, c->u[unit].prov, unit, true);
    c->changed = true;
}

/* ---- steps 1 and 2: mark invalid orders --------------------------------- */

/* Step 1: armies without an ordered route get "no convoy"; convoys that
 * carry nobody are void.  The others form the convoying armies list. */
static void markInvalidConvoys(mv_ctx *c)
{
    c->nconvoyed = 0;
    /* Only fleets at sea convoy (legal.c), and only movers are convoyed. */
    for (int k = 0; k < c->board.nsea; k++) {
        mv_unit *fl = &c->u[c->board.sea[k]];
        if (fl->kind != MV_CONVOY || fl->mark == MK_VOID)
            continue;
        const mv_unit *a = &c->u[fl->target];
        if (a->kind != MV_MOVE || !a->by_convoy || a->dest_prov != fl->target_dest)
            fl->mark = MK_VOID;
    }
    /* Convoys on no route of their army are void: one search per army
     * (voiding a fleet on no route changes no other fleet's answer).  An
     * army has a route exactly when one of its fleets is on one. */
    bool decided[DJ_MAX_UNITS], on_route[DJ_MAX_UNITS], routed[DJ_MAX_UNITS];
    memset(decided, 0, sizeof(bool) * (size_t)c->nunits);
    memset(routed, 0, sizeof(bool) * (size_t)c->nunits);
    for (int k = 0; k < c->board.nsea; k++) {
        const mv_unit *fl = &c->u[c->board.sea[k]];
        if (fl->kind != MV_CONVOY || fl->mark == MK_VOID || decided[c->board.sea[k]])
            continue;
        int army = fl->target, dest = fl->target_dest;
        mv_fleets_on_route(c, army, dest, true, on_route);
        for (int j = k; j < c->board.nsea; j++) {
            mv_unit *g = &c->u[c->board.sea[j]];
            if (g->kind == MV_CONVOY && g->mark != MK_VOID &&
                g->target == army && g->target_dest == dest) {
                decided[c->board.sea[j]] = true;
                if (!on_route[c->board.sea[j]]) {
                    g->mark = MK_VOID;
                    g->void_why = DJ_WHY_CONVOY_OFF_ROUTE;
                } else {
                    routed[army] = true;
                }
            }
        }
    }
    for (int k = 0; k < c->nmovers; k++) {
        int a = c->movers[k];
        mv_unit *u = &c->u[a];
        if (u->kind != MV_MOVE || !u->by_convoy || u->doomed)
            continue;
        if (routed[a])
            c->convoyed[c->nconvoyed++] = (int16_t)a;
        else
            u->mark = MK_NO_CONVOY;
    }
}

/* Does unit s's support match what its target actually ordered? */
static bool support_matches(const mv_ctx *c, const mv_unit *s)
{
    const mv_unit *t = &c->u[s->target];
    if (s->target_dest < 0)
        return t->kind != MV_MOVE;
    if (t->kind != MV_MOVE || t->dest_prov != s->target_dest)
        return false;
    /* 4.B.4: a coast written in the support must be the one moved to
     * (d, the default); e ignores it; a and b insist on one being written. */
    char rule = dj_rule(c->rules, DJ_RULE_COAST_IN_SUPPORT);
    bool multi = t->dest_loc != t->dest_prov;
    if (s->target_coast >= 0)
        return rule == 'e' || t->dest_loc == s->target_coast;
    if (multi && rule == 'a')
        return false;
    if (multi && rule == 'b')
        return t->dest_loc == dj_map_coast(c->map, t->dest_prov, 0);
    return true;
}

/* Step 2: void supports that match nothing; count the rest; no-help lists. */
static void markInvalidSupports(mv_ctx *c)
{
    for (int s = 0; s < c->nunits; s++) {
        mv_unit *su = &c->u[s];
        if (su->kind != MV_SUPPORT || su->mark == MK_VOID)
            continue;
        mv_unit *t = &c->u[su->target];
        if (!support_matches(c, su)) {
            su->mark = MK_VOID;
            continue;
        }
        if (su->target_dest < 0 && (c->pos->civil_disorder >> t->power & 1u) &&
            dj_rule(c->rules, DJ_RULE_CIVIL_DISORDER_SUPPORT) == 'a') {
            su->mark = MK_VOID; /* 4.D.9 a: no hold support in civil disorder */
            su->void_why = DJ_WHY_DISORDER_SUPPORT;
            continue;
        }
        t->support++;
        int victim = su->target_dest >= 0 ? c->board.at[su->target_dest] : -1;
        if (victim >= 0 && c->u[victim].power == su->power) {
            t->no_help++;
            su->on_no_help = true;
        }
    }
}

/* 4.E.1 a-c: moves that cannot succeed still count as moves, and fail. */
static void markImpossibleMoves(mv_ctx *c)
{
    for (int k = 0; k < c->nmovers; k++)
        if (c->u[c->movers[k]].doomed)
            c->u[c->movers[k]].mark = MK_BOUNCE;
}

/* The moving units, in index order: most passes look at nothing else. */
static void list_movers(mv_ctx *c)
{
    c->nmovers = 0;
    for (int m = 0; m < c->nunits; m++)
        if (mv_is_mover(&c->u[m]))
            c->movers[c->nmovers++] = (int16_t)m;
}

/*
 * Which moves cross a half-strength border (`*`, maps/README.md): over
 * land, the border from the unit's place to where it goes; a convoyed
 * army's, decided from the orders alone, unless some fleet whose order is
 * to convoy it there, standing where fleets convoy, borders the
 * destination across an ordinary border.
 */
static void markHalfBorderMoves(mv_ctx *c)
{
    const dj_map *map = c->map;
    if (!map->half_borders)
        return;
    for (int k = 0; k < c->nmovers; k++) {
        mv_unit *u = &c->u[c->movers[k]];
        if (u->doomed)
            continue;
        if (c->half_held[c->movers[k]])
            u->forced_bounce = true;
        if (!u->by_convoy) {
            u->half = dj_map_half_border(map, u->loc, u->dest_loc,
                                         (dj_unit_type)u->type);
            continue;
        }
        u->half = true;
        for (int f = 0; f < c->nunits && u->half; f++) {
            const mv_unit *fl = &c->u[f];
            if (fl->kind == MV_CONVOY && fl->target == c->movers[k] &&
                fl->target_dest == u->dest_prov &&
                map->locs[fl->loc].convoys &&
                dj_map_reaches_province_whole(map, fl->loc, u->dest_prov,
                                              DJ_FLEET))
                u->half = false;
        }
    }
}

void mv_prepare(mv_ctx *c)
{
    list_movers(c);
    markHalfBorderMoves(c);
    markImpossibleMoves(c);
    markInvalidConvoys(c);
    markInvalidSupports(c);
}

/* ---- cutSupport --------------------------------------------------------- */

/* Is fleet f one of the convoying fleets of army a (any ordered route)? */
static bool convoys_army(const mv_ctx *c, int f, int a)
{
    const mv_unit *fl = &c->u[f];
    return fl->kind == MV_CONVOY && fl->mark != MK_VOID && fl->target == a;
}

/* Is fleet f on every ordered route of army a ("necessary", 2000 rule)? */
static bool necessary_for(const mv_ctx *c, int f, int a)
{
    bool broken[DJ_MAX_UNITS] = {false};
    broken[f] = true;
    return convoys_army(c, f, a) && !mv_convoy_route_ok(c, a, broken);
}

/*
 * The older paradox rules (4.A.2 a-c) spare some supports from convoyed
 * armies; Szykman and its relatives spare none and search instead.
 */
static bool paradox_rule_spares(const mv_ctx *c, int mover, const mv_unit *s)
{
    char rule = dj_rule(c->rules, DJ_RULE_CONVOY_PARADOX);
    int against = s->target_dest >= 0 ? s->target_dest : c->u[s->target].prov;
    int fleet = c->board.at[against];

    if (fleet < 0)
        return false;
    if (rule == 'b') /* 1982: support for or against any convoying fleet */
        return c->u[fleet].kind == MV_CONVOY && c->u[fleet].mark != MK_VOID;
    if (rule == 'a') /* 1971: for or against one of this army's fleets */
        return convoys_army(c, fleet, mover);
    if (rule == 'c') /* 2000: an attack on a fleet the army needs */
        return s->target_dest >= 0 && necessary_for(c, fleet, mover);
    return false;
}

static void cut(mv_ctx *c, int s);

void mv_cut_support(mv_ctx *c, int mover, bool dislodge_step)
{
    const mv_unit *m = &c->u[mover];
    int s = c->board.at[m->dest_prov];
    if (s < 0)
        return;
    mv_unit *su = &c->u[s];
    if (su->kind != MV_SUPPORT || su->mark == MK_CUT || su->mark == MK_VOID ||
        su->power == m->power)
        return;
    if (m->by_convoy && paradox_rule_spares(c, mover, su))
        return;
    /* An attack from the province the support is aimed at does not cut it,
     * unless the attacker dislodges the supporter (step 9).  4.A.4: an army
     * convoyed from that province comes from it all the same (choice a). */
    bool from_target = su->target_dest == m->prov;
    if (m->by_convoy && dj_rule(c->rules, DJ_RULE_CONVOY_SELF_CUT) == 'b')
        from_target = false;
    if (!dislodge_step && from_target)
        return;
    /* Across a half-strength border: only by dislodging (step 9). */
    if (!dislodge_step && m->half)
        return;
    if (m->half)
        c->half_cut[s] = true;
    cut(c, s);
}

/* Support s is cut: its target loses it. */
static void cut(mv_ctx *c, int s)
{
    mv_unit *su = &c->u[s];
    su->mark = MK_CUT;
    mv_unit *t = &c->u[su->target];
    t->support--;
    if (su->on_no_help) {
        t->no_help--;
        su->on_no_help = false;
    }
    c->changed = true;
}

/* ---- step 3 ------------------------------------------------------------- */

/* Step 3: supports cut by attacks over land, then every province's list.
 * A move that cannot be made (4.E.1 a/b) attacks nothing: it cuts no
 * support, as a move without a convoy route cuts none. */
static void cutSupportsByNonConvoyedAttacks(mv_ctx *c)
{
    if (c->map->half_borders) {
        memset(c->half_cut, 0, sizeof(bool) * (size_t)c->nunits);
        for (int s = 0; s < c->nunits; s++) {
            const mv_unit *su = &c->u[s];
            if (c->precut[s] && su->kind == MV_SUPPORT &&
                su->mark != MK_CUT && su->mark != MK_VOID) {
                c->half_cut[s] = true;
                cut(c, s);
            }
        }
    }
    for (int k = 0; k < c->nmovers; k++) {
        int m = c->movers[k];
        if (mv_is_mover(&c->u[m]) && !c->u[m].by_convoy && !c->u[m].doomed)
            mv_cut_support(c, m, false);
    }
}

static void buildCombatLists(mv_ctx *c)
{
    for (int m = 0; m < c->nunits; m++) {
        const mv_unit *u = &c->u[m];
        if (!mv_is_mover(u))
            add_entry(c, u->prov, m, false);
        else if (u->mark == MK_NO_CONVOY || u->mark == MK_BOUNCE)
            add_entry(c, u->prov, m, true);
        else
            add_entry(c, u->dest_prov, m, false);
    }
    for (int k = 0; k < c->nmovers; k++) {
        int m = c->movers[k];
        if (c->u[m].forced_bounce && c->u[m].mark == MK_NONE)
            bounce(c, m);
    }
}

/* ---- steps 4 and 5: convoys --------------------------------------------- */

/* checkDisruptions: is every route of army a threatened by a stronger foe? */
static bool checkDisruptions(const mv_ctx *c, int a)
{
    bool threatened[DJ_MAX_UNITS];
    for (int f = 0; f < c->nunits; f++) {
        threatened[f] = false;
        if (!convoys_army(c, f, a))
            continue;
        int w = mv_strongest(c, c->u[f].prov, NULL);
        threatened[f] = w >= 0 && c->u[w].power != c->u[f].power;
    }
    return mv_convoy_broken(c, a, threatened);
}

static void markNoConvoy(mv_ctx *c, int a)
{
    mv_unit *u = &c->u[a];
    u->mark = MK_NO_CONVOY;
    remove_entry(c, u->dest_prov, a, false);
    add_entry(c, u->prov, a, true);
}

static void convoySucceeded(mv_ctx *c, int a)
{
    c->u[a].mark = MK_NONE;
    c->u[a].convoy_ok = true;
    mv_cut_support(c, a, false);
}

static bool convoy_pending(const mv_unit *u)
{
    return !u->convoy_ok && u->mark != MK_NO_CONVOY;
}

/* Step 4: convoys not endangered succeed and cut; the others are "under attack". */
static bool markEndangeredConvoys(mv_ctx *c)
{
    bool grew_any = false, grew;
    do {
        grew = false;
        for (int i = 0; i < c->nconvoyed; i++) {
            int a = c->convoyed[i];
            mv_unit *u = &c->u[a];
            if (!convoy_pending(u))
                continue;
            if (u->force == CV_FAIL) {
                markNoConvoy(c, a);
            } else if (u->force == CV_SUCCEED || !checkDisruptions(c, a)) {
                convoySucceeded(c, a);
                grew = true;
            } else {
                u->mark = MK_UNDER_ATTACK;
            }
        }
        grew_any |= grew;
    } while (grew);
    return grew_any;
}

/* Step 5: still endangered means disrupted; no longer endangered succeeds. */
static bool markConvoyDisruptions(mv_ctx *c)
{
    bool grew = false;
    for (int i = 0; i < c->nconvoyed; i++) {
        int a = c->convoyed[i];
        if (!convoy_pending(&c->u[a]))
            continue;
        if (checkDisruptions(c, a)) {
            markNoConvoy(c, a);
        } else {
            convoySucceeded(c, a);
            grew = true;
        }
    }
    return grew;
}

static void resolveConvoys(mv_ctx *c)
{
    do
        markEndangeredConvoys(c);
    while (markConvoyDisruptions(c));
}

/* ---- steps 6 to 9 ------------------------------------------------------- */

static bool unmarked_mover(const mv_unit *u)
{
    return mv_is_mover(u) && u->mark == MK_NONE;
}

/* Step 6: two units trading places over land cannot both succeed. */
static bool markSwapBounces(mv_ctx *c)
{
    bool any = false, again;
    do {
        again = false;
        for (int k = 0; k < c->nmovers; k++) {
            int m = c->movers[k];
            mv_unit *u = &c->u[m];
            if (!unmarked_mover(u) || u->by_convoy)
                continue;
            int o = c->board.at[u->dest_prov];
            if (o < 0 || !unmarked_mover(&c->u[o]) || c->u[o].by_convoy ||
                c->u[o].dest_prov != u->prov)
                continue;
            /* DATC 5.B: each side attacks with its supports less those
             * given by the other side's power (its no-help list, 6.E.6),
             * and defends with every support it has, the attacker's own
             * power's included.  Both may fail. */
            const mv_unit *ou = &c->u[o];
            int attack_mine = move_strength(u, u->support - u->no_help);
            int attack_theirs = move_strength(ou, ou->support - ou->no_help);
            bool mine_fails = attack_mine <= move_strength(ou, ou->support);
            bool theirs_fails = attack_theirs <= move_strength(u, u->support);
            /* The loser stays home: its winner had to beat only its
             * defence, which across a `*` unsupported is 1/2, less than
             * a unit standing (no third move can tell the two apart: it
             * must beat the winner's strength too). */
            if (mine_fails) {
                bounce(c, m);
                c->e[c->nentries - 1].weak =
                    !theirs_fails && move_strength(u, u->support) < 2;
            }
            if (theirs_fails) {
                bounce(c, o);
                c->e[c->nentries - 1].weak =
                    !mine_fails && move_strength(ou, ou->support) < 2;
            }
            again = any = true;
        }
    } while (again);
    return any;
}

/* Step 7: a move not stronger than every rival for the province fails. */
static bool markUnderStrengthBounces(mv_ctx *c)
{
    bool any = false;
    for (int k = 0; k < c->nmovers; k++) {
        int m = c->movers[k];
        mv_unit *u = &c->u[m];
        if (unmarked_mover(u) &&
            !beats_others(c, u->dest_prov, m, move_strength(u, u->support))) {
            bounce(c, m);
            any = true;
        }
    }
    return any;
}

/*
 * Step 8: a winner may not dislodge a unit of its own power, and supports
 * from the victim's power (its no-help list) do not count against it.
 */
static bool markSelfDislodgeBounces(mv_ctx *c)
{
    bool any = false;
    for (int k = 0; k < c->nmovers; k++) {
        int m = c->movers[k];
        mv_unit *u = &c->u[m];
        if (!unmarked_mover(u) || strongest_mover(c, u->dest_prov) != m)
            continue;
        int v = c->board.at[u->dest_prov];
        if (v < 0 || v == m || unmarked_mover(&c->u[v]))
            continue;
        if (c->u[v].power == u->power ||
            !beats_others(c, u->dest_prov, m,
                          move_strength(u, u->support - u->no_help))) {
            bounce(c, m);
            any = true;
        }
    }
    return any;
}

/* Step 9: a supporter that is about to be dislodged gives no support. */
static bool markSupportsCutByDislodgement(mv_ctx *c)
{
    c->changed = false;
    for (int k = 0; k < c->nmovers; k++) {
        int m = c->movers[k];
        if (unmarked_mover(&c->u[m]))
            mv_cut_support(c, m, true);
    }
    return c->changed;
}

/* ---- step 10 ------------------------------------------------------------ */

/*
 * unbounce: once a province is vacated, a bounced unit that is now the
 * single strongest contender for it goes after all, which may in turn
 * vacate its own province.
 */
static void unbounce(mv_ctx *c, int prov, int depth)
{
    int w = strongest_mover(c, prov);
    if (w < 0 || c->u[w].mark != MK_BOUNCE || depth > c->nunits)
        return;
    mv_unit *u = &c->u[w];
    u->mark = MK_NONE;
    if (u->dislodged) {
        u->dislodged = false;
        return;
    }
    remove_entry(c, u->prov, w, true);
    unbounce(c, u->prov, depth + 1);
}

static bool head_to_head(const mv_unit *a, const mv_unit *b)
{
    return mv_is_mover(b) && b->dest_prov == a->prov && !a->by_convoy &&
           !b->by_convoy;
}

/* Step 10: make the moves that survived; mark the units they dislodge. */
static void moveUnits(mv_ctx *c)
{
    bool again;
    do {
        again = false;
        for (int k = 0; k < c->nmovers; k++) {
            int m = c->movers[k];
            mv_unit *u = &c->u[m];
            if (!unmarked_mover(u) || u->moved)
                continue;
            int v = c->board.at[u->dest_prov];
            if (v >= 0 && v != m && !unmarked_mover(&c->u[v])) {
                mv_unit *victim = &c->u[v];
                victim->dislodged = true;
                victim->dislodger = (int16_t)m;
                /* 4.A.7: the loser of a head-to-head battle has no effect
                 * where its attacker came from (choice b: only then). */
                if (mv_is_mover(victim) && victim->dest_prov == u->prov &&
                    (head_to_head(u, victim) ||
                     dj_rule(c->rules, DJ_RULE_DISLODGED_BOUNCE) == 'a'))
                    remove_entry(c, u->prov, v, false);
            }
            u->moved = true;
            unbounce(c, u->prov, 0);
            again = true;
        }
    } while (again);
}

/* ---- the whole run ------------------------------------------------------ */

static void reset_run(mv_ctx *c)
{
    c->nentries = 0;
    for (int p = 0; p < c->map->nlocs; p++)
        c->head[p] = -1;
}

void mv_run_passes(mv_ctx *c)
{
    reset_run(c);
    cutSupportsByNonConvoyedAttacks(c);
    buildCombatLists(c);
    resolveConvoys(c);
    for (;;) {
        markSwapBounces(c);
        if (markUnderStrengthBounces(c))
            continue;
        if (markSelfDislodgeBounces(c))
            continue;
        if (markSupportsCutByDislodgement(c))
            continue;
        break;
    }
    moveUnits(c);
}
