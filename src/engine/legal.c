/* SPDX-License-Identifier: MIT */
/*
 * legal.c — which order does each unit obey?  (DATC 4.E.1, 4.D.3, 4.B, 4.A.3)
 *
 * Before any marking, every written order is checked against the board.
 * Under 4.E.1 choice d (the default) an order is legal only if it could be
 * valid in the current situation: the unit exists and belongs to the power,
 * the destination is reachable (by land, or through fleets now at sea), a
 * supporter can reach the province it supports into, a convoying fleet is
 * at sea on a possible route.  An illegal order is dropped and its unit
 * holds, so it can still receive support to hold.
 *
 * A unit with several legal orders follows 4.D.3: first, last, or (the
 * default) none of them: it holds.  Finally each army moving to an adjacent
 * province is told whether it travels by land or by convoy (4.A.3).
 */
#include "movement.h"

#include <string.h>

static bool is_multi_coast_base(const dj_map *m, int loc)
{
    return !m->locs[loc].is_coast && dj_map_ncoasts(m, loc) > 0;
}

/* 4.B.1-4.B.3: settle the coast of a fleet's destination, or say why not. */
static dj_why fleet_destination(const mv_ctx *c, const mv_unit *u, int dest,
                                int16_t *dest_loc)
{
    const dj_map *m = c->map;
    int prov = dj_province(m, dest);

    if (is_multi_coast_base(m, dest)) {
        int reachable = -1, count = 0;
        for (int i = 0; i < dj_map_ncoasts(m, prov); i++) {
            int coast = dj_map_coast(m, prov, i);
            if (dj_map_adjacent(m, u->loc, coast, DJ_FLEET)) {
                if (count == 0)
                    reachable = coast;
                count++;
            }
        }
        if (count == 0)
            return DJ_WHY_NOT_ADJACENT;
        char rule = dj_rule(c->rules, count == 1 ? DJ_RULE_COAST_ONE_OMITTED
                                                 : DJ_RULE_COAST_TWO_OMITTED);
        if (count == 1 && rule == 'a') {
            *dest_loc = (int16_t)reachable; /* 4.B.2 a: the only coast */
            return DJ_WHY_NONE;
        }
        if ((count == 1 && rule == 'c') || (count > 1 && rule == 'a'))
            return DJ_WHY_COAST_NEEDED;
        /* A default coast (4.B.1 b, 4.B.2 b): the map's first. */
        int fallback = dj_map_coast(m, prov, 0);
        if (!dj_map_adjacent(m, u->loc, fallback, DJ_FLEET))
            return DJ_WHY_COAST_UNREACHABLE;
        *dest_loc = (int16_t)fallback;
        return DJ_WHY_NONE;
    }
    if (dj_map_adjacent(m, u->loc, dest, DJ_FLEET)) {
        *dest_loc = (int16_t)dest;
        return DJ_WHY_NONE;
    }
    if (m->locs[dest].is_coast) {
        /* 4.B.3: a coast that cannot be reached, while another can. */
        for (int i = 0; i < dj_map_ncoasts(m, prov); i++) {
            int coast = dj_map_coast(m, prov, i);
            if (coast != dest && dj_map_adjacent(m, u->loc, coast, DJ_FLEET)) {
                if (dj_rule(c->rules, DJ_RULE_COAST_IMPOSSIBLE) == 'a') {
                    *dest_loc = (int16_t)coast;
                    return DJ_WHY_NONE;
                }
                return DJ_WHY_COAST_UNREACHABLE;
            }
        }
    }
    if (m->locs[prov].terrain == DJ_LAND)
        return DJ_WHY_BAD_TERRAIN;
    return DJ_WHY_NOT_ADJACENT;
}

/* Could an army at `from` ever be convoyed to `prov`?  Coasts at both ends. */
static bool convoyable_ends(const dj_map *m, int from, int prov)
{
    return m->locs[dj_province(m, from)].terrain == DJ_COAST &&
           m->locs[prov].terrain == DJ_COAST;
}

/*
 * Can unit `ui` move to province/location `dest` in this position?  Used both
 * for the unit's own move and for supports of it (exclude_fleet: a fleet that
 * cannot be part of the route because it gives the support, 6.D.31).
 */
static dj_why check_move_to(const mv_ctx *c, int ui, int dest, bool via,
                            int exclude_fleet, int16_t *dest_loc,
                            bool *needs_convoy)
{
    const dj_map *m = c->map;
    const mv_unit *u = &c->u[ui];
    int prov = dj_province(m, dest);

    *needs_convoy = false;
    if (prov == u->prov)
        return DJ_WHY_SAME_PLACE;
    if (m->locs[prov].terrain == DJ_SHUT)
        return DJ_WHY_NOT_ADJACENT;
    if (u->type == DJ_FLEET) {
        if (via)
            return DJ_WHY_FLEET_CONVOYED;
        return fleet_destination(c, u, dest, dest_loc);
    }
    if (m->locs[prov].terrain == DJ_WATER)
        return DJ_WHY_BAD_TERRAIN;
    if (m->locs[dest].is_coast &&
        dj_rule(c->rules, DJ_RULE_COAST_UNKNOWN) == 'a')
        return DJ_WHY_WRONG_COAST; /* 4.B.6 a: an army has no coast */
    *dest_loc = (int16_t)prov;  /* 4.B.6 b: an army ignores any coast written */
    bool adjacent = dj_map_adjacent(m, u->loc, prov, DJ_ARMY);
    bool explicit_only = dj_rule(c->rules, DJ_RULE_ADJACENT_CONVOY) == 'e';
    if (adjacent && !(explicit_only && via))
        return DJ_WHY_NONE;
    if (!convoyable_ends(m, u->loc, prov))
        return DJ_WHY_NOT_ADJACENT;
    *needs_convoy = true;
    if (adjacent)  /* 4.A.3 e: "via convoy" means by convoy only, route or not */
        return DJ_WHY_NONE;
    if (dj_rule(c->rules, DJ_RULE_ILLEGAL_ORDERS) == 'd' &&
        !mv_fleet_path_exists(c, ui, prov, false, exclude_fleet))
        return DJ_WHY_NO_CONVOY_ROUTE;
    return DJ_WHY_NONE;
}

static dj_why check_support(const mv_ctx *c, int ui, const dj_order *o,
                            mv_unit *out)
{
    const dj_map *m = c->map;
    const mv_unit *u = &c->u[ui];
    int t = o->target >= 0 ? c->board.at[dj_province(m, o->target)] : -1;

    if (t < 0)
        return DJ_WHY_NO_TARGET;
    if (t == ui)
        return DJ_WHY_SUPPORT_SELF;
    out->target = (int16_t)t;
    if (o->dest < 0) {
        if (!dj_map_reaches_province(m, u->loc, c->u[t].prov, u->type))
            return DJ_WHY_SUPPORT_UNREACHABLE;
        if (!dj_map_reaches_province_whole(m, u->loc, c->u[t].prov, u->type))
            return DJ_WHY_SUPPORT_HALF_BORDER; /* DPjudge: illegal */
        out->target_dest = -1;
        return DJ_WHY_NONE;
    }
    int dprov = dj_province(m, o->dest);
    if (dprov == u->prov)
        return DJ_WHY_SUPPORT_SELF;
    if (!dj_map_reaches_province(m, u->loc, dprov, u->type))
        return DJ_WHY_SUPPORT_UNREACHABLE;
    if (!dj_map_reaches_province_whole(m, u->loc, dprov, u->type))
        return DJ_WHY_SUPPORT_HALF_BORDER;
    int16_t loc = -1;
    bool needs_convoy = false;
    dj_why why = check_move_to(c, t, dprov, false, ui, &loc, &needs_convoy);
    if (why == DJ_WHY_COAST_NEEDED || why == DJ_WHY_COAST_UNREACHABLE)
        why = DJ_WHY_NONE; /* the support does not decide the coast */
    if (why != DJ_WHY_NONE)
        return DJ_WHY_NOT_ADJACENT;
    out->target_dest = (int16_t)dprov;
    out->target_coast = m->locs[o->dest].is_coast ? o->dest : -1;
    return DJ_WHY_NONE;
}

static dj_why check_convoy(const mv_ctx *c, int ui, const dj_order *o,
                           mv_unit *out)
{
    const dj_map *m = c->map;
    const mv_unit *u = &c->u[ui];

    if (u->type != DJ_FLEET || !m->locs[u->loc].convoys)
        return DJ_WHY_CONVOY_NOT_AT_SEA;
    int t = o->target >= 0 ? c->board.at[dj_province(m, o->target)] : -1;
    if (t < 0)
        return DJ_WHY_NO_TARGET;
    int dprov = o->dest >= 0 ? dj_province(m, o->dest) : -1;
    if (c->u[t].type != DJ_ARMY || dprov < 0 || dprov == c->u[t].prov ||
        !convoyable_ends(m, c->u[t].loc, dprov))
        return DJ_WHY_CONVOY_BAD_TARGET;
    out->target = (int16_t)t;
    out->target_dest = (int16_t)dprov;
    return DJ_WHY_NONE;
}

/* Check one order against the board; on success fill the unit's order fields. */
static dj_why check_order(const mv_ctx *c, int ui, const dj_order *o,
                          mv_unit *out)
{
    int16_t dest_loc = -1;
    bool needs_convoy = false;
    dj_why why = DJ_WHY_NONE;

    out->target = out->target_dest = out->target_coast = -1;
    out->dest_loc = out->dest_prov = -1;
    out->by_convoy = false;
    switch (o->kind) {
    case DJ_ORDER_HOLD:
        out->kind = MV_HOLD;
        break;
    case DJ_ORDER_MOVE:
        if (o->dest < 0 || o->dest >= c->map->nlocs)
            return DJ_WHY_NOT_ADJACENT;
        why = check_move_to(c, ui, o->dest, o->via_convoy, -1, &dest_loc,
                            &needs_convoy);
        out->kind = MV_MOVE;
        out->dest_loc = dest_loc >= 0 ? dest_loc : o->dest;
        out->dest_prov = (int16_t)dj_province(c->map, out->dest_loc);
        out->by_convoy = needs_convoy;
        break;
    case DJ_ORDER_SUPPORT:
        out->kind = MV_SUPPORT;
        why = check_support(c, ui, o, out);
        break;
    case DJ_ORDER_CONVOY:
        out->kind = MV_CONVOY;
        why = check_convoy(c, ui, o, out);
        break;
    default:
        why = DJ_WHY_WRONG_PHASE;
    }
    return why;
}

static bool same_orders(const mv_unit *a, const mv_unit *b)
{
    return a->kind == b->kind && a->dest_loc == b->dest_loc &&
           a->target == b->target && a->target_dest == b->target_dest &&
           a->target_coast == b->target_coast;
}

static bool locations_in_range(const dj_map *m, const dj_order *o)
{
    return o->loc >= 0 && o->loc < m->nlocs && o->dest < m->nlocs &&
           o->target < m->nlocs;
}

/* Void supports/convoys of a missing unit still leave a holding unit. */
static bool why_is_void(dj_why why)
{
    return why == DJ_WHY_NO_TARGET;
}

/*
 * 4.E.1 a-c: some impossible moves are still moves (they fail, and the unit
 * cannot be supported to hold).  Under d, the default, they are illegal.
 */
static bool still_a_move(const mv_ctx *c, const dj_order *o, dj_why why)
{
    char rule = dj_rule(c->rules, DJ_RULE_ILLEGAL_ORDERS);
    if (o->kind != DJ_ORDER_MOVE || rule == 'd' || o->dest < 0)
        return false;
    if (rule == 'c') /* could be valid on this map: a convoy may come */
        return why == DJ_WHY_NO_CONVOY_ROUTE;
    return why != DJ_WHY_WRONG_PHASE;
}

/* 4.D.3: several different legal orders for one unit. */
static void settle_duplicates(mv_ctx *c, int ui, const int *cand, int n,
                              const mv_unit *parsed, const dj_order *orders,
                              dj_order_result *res)
{
    mv_unit *u = &c->u[ui];
    bool all_same = true;
    for (int i = 1; i < n; i++)
        all_same &= same_orders(&parsed[0], &parsed[i]);
    int use = 0;
    if (!all_same) {
        char rule = dj_rule(c->rules, DJ_RULE_MULTIPLE_ORDERS);
        if (rule == 'c') {
            for (int i = 0; i < n; i++) {
                res[cand[i]].flags |= DJ_RF_ILLEGAL;
                res[cand[i]].why = DJ_WHY_DUPLICATE;
            }
            u->kind = MV_HOLD;
            u->order = -1;
            return;
        }
        use = rule == 'a' ? 0 : n - 1;
    }
    for (int i = 0; i < n; i++) {
        if (i != use && !all_same) {
            res[cand[i]].flags |= DJ_RF_IGNORED;
            res[cand[i]].why = DJ_WHY_DUPLICATE;
        }
    }
    mv_convoy_force force = u->force;
    *u = parsed[use];
    u->force = force;
    u->order = cand[use];
    u->written = &orders[cand[use]];
}

/* 4.A.3: does an army ordered to an adjacent province go by convoy? */
static bool adjacent_move_by_convoy(const mv_ctx *c, int ui,
                                    const dj_order *orders)
{
    const mv_unit *u = &c->u[ui];
    bool via = orders[u->order].via_convoy;
    char rule = dj_rule(c->rules, DJ_RULE_ADJACENT_CONVOY);

    if (rule == 'e')
        return via;
    if (c->land_only[ui] || !mv_fleet_path_exists(c, ui, u->dest_prov, true, -1))
        return false;
    if (rule == 'a')
        return true;
    if (rule == 'b' || rule == 'c') {
        int other = c->board.at[u->dest_prov];
        return other >= 0 && c->u[other].kind == MV_MOVE &&
               c->u[other].dest_prov == u->prov;
    }
    if (via)
        return true;
    /* 2000 rulebook: a convoy ordered by a fleet of the army's own power
     * shows intent, if that fleet could be part of some route (6.G.6); a
     * fleet that could not is only confusing the judge (6.G.7). */
    for (int f = 0; f < c->nunits; f++) {
        const mv_unit *fl = &c->u[f];
        if (fl->power == u->power && fl->kind == MV_CONVOY &&
            fl->target == ui && fl->target_dest == u->dest_prov &&
            mv_fleet_on_route(c, f, ui, u->dest_prov, false))
            return true;
    }
    return false;
}

/*
 * 4.E.3 a: a unit left without an order moves where its own power's
 * supports and convoys say it moves, if they all agree.
 */
static void add_implicit_moves(mv_ctx *c, dj_order_result *res)
{
    (void)res;
    for (int ui = 0; ui < c->nunits; ui++) {
        mv_unit *u = &c->u[ui];
        if (u->order >= 0 || u->kind != MV_HOLD)
            continue;
        int dest = -1;
        bool agree = true;
        for (int s = 0; s < c->nunits; s++) {
            const mv_unit *o = &c->u[s];
            if ((o->kind != MV_SUPPORT && o->kind != MV_CONVOY) ||
                o->target != ui || o->target_dest < 0 || o->power != u->power)
                continue;
            if (dest >= 0 && dest != o->target_dest)
                agree = false;
            dest = o->target_dest;
        }
        if (dest < 0 || !agree)
            continue;
        int16_t loc = -1;
        bool needs_convoy = false;
        if (check_move_to(c, ui, dest, false, -1, &loc, &needs_convoy) !=
            DJ_WHY_NONE)
            continue;
        u->kind = MV_MOVE;
        u->dest_loc = loc;
        u->dest_prov = (int16_t)dest;
        u->by_convoy = needs_convoy;
    }
}

void mv_assign_orders(mv_ctx *c, const dj_order *orders, int norders,
                      dj_order_result *res)
{
    const dj_map *m = c->map;
    int first[DJ_MAX_UNITS];
    int next[DJ_MAX_ORDERS];

    for (int i = 0; i < c->nunits; i++)
        first[i] = -1;
    /* Pass 1: attach each order to its unit (kept in written order). */
    for (int i = norders - 1; i >= 0; i--) {
        const dj_order *o = &orders[i];
        dj_order_result *r = &res[i];
        next[i] = -1;
        int ui = locations_in_range(m, o) ? c->board.at[dj_province(m, o->loc)]
                                          : -1;
        if (ui < 0) {
            r->flags |= DJ_RF_ILLEGAL;
            r->why = DJ_WHY_NO_UNIT;
            continue;
        }
        r->unit = (int16_t)ui;
        if (c->u[ui].power != o->power) {
            r->flags |= DJ_RF_ILLEGAL;
            r->why = DJ_WHY_NOT_OWNER;
            continue;
        }
        if (m->locs[o->loc].is_coast && o->loc != c->u[ui].loc &&
            dj_rule(c->rules, DJ_RULE_COAST_WRONG_UNIT) == 'a') {
            r->flags |= DJ_RF_ILLEGAL; /* 4.B.5 a: the unit is not there */
            r->why = DJ_WHY_WRONG_COAST;
            continue;
        }
        next[i] = first[ui];
        first[ui] = i;
    }
    /* Pass 2: legality of each unit's orders, then 4.D.3. */
    for (int ui = 0; ui < c->nunits; ui++) {
        int cand[16];
        mv_unit parsed_orders[16];
        int n = 0;
        for (int i = first[ui]; i >= 0; i = next[i]) {
            /* memcpy, not assignment: padding stays defined, so the
             * compiler may compare neighbouring fields in one load. */
            mv_unit p;
            memcpy(&p, &c->u[ui], sizeof p);
            dj_why why = check_order(c, ui, &orders[i], &p);
            if (why != DJ_WHY_NONE && still_a_move(c, &orders[i], why)) {
                p.doomed = true;
                p.doomed_why = why;
                why = DJ_WHY_NONE;
            }
            if (why != DJ_WHY_NONE) {
                res[i].why = why;
                res[i].flags |= why_is_void(why) ? DJ_RF_VOID : DJ_RF_ILLEGAL;
                continue;
            }
            if (n == 0 && next[i] < 0) {
                /* The usual case, one legal order: obey it (as
                 * settle_duplicates would) without the candidate list. */
                mv_convoy_force force = c->u[ui].force;
                memcpy(&c->u[ui], &p, sizeof p);
                c->u[ui].force = force;
                c->u[ui].order = i;
                c->u[ui].written = &orders[i];
                break;
            }
            if (n < 16) {
                cand[n] = i;
                memcpy(&parsed_orders[n++], &p, sizeof p);
            } else {
                res[i].flags |= DJ_RF_IGNORED;
                res[i].why = DJ_WHY_DUPLICATE;
            }
        }
        if (n > 0)
            settle_duplicates(c, ui, cand, n, parsed_orders, orders, res);
    }
    if (dj_rule(c->rules, DJ_RULE_IMPLICIT_ORDERS) == 'a')
        add_implicit_moves(c, res);
    /* Pass 3: land or sea for armies moving next door (4.A.3). */
    for (int ui = 0; ui < c->nunits; ui++) {
        mv_unit *u = &c->u[ui];
        if (u->kind != MV_MOVE || u->type != DJ_ARMY || u->doomed)
            continue;
        if (u->order >= 0 && dj_map_adjacent(m, u->loc, u->dest_prov, DJ_ARMY))
            u->by_convoy = adjacent_move_by_convoy(c, ui, orders);
        /* 4.A.6 c: a convoyed army must name its route. */
        if (u->by_convoy && u->order >= 0 && orders[u->order].npath <= 0 &&
            dj_rule(c->rules, DJ_RULE_CONVOY_PATH) == 'c') {
            u->doomed = true;
            u->doomed_why = DJ_WHY_PATH_NEEDED;
        }
    }
}
