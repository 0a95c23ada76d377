/* SPDX-License-Identifier: MIT */
/*
 * kruijswijk_orders.c — which order each unit obeys, for the Kruijswijk
 * engine: legality (4.E.1), several orders for one unit (4.D.3), coasts
 * (4.B.1-4.B.6), implicit orders (4.E.3), land or sea next door (4.A.3),
 * written routes (4.A.6), and which supports and convoys match.
 *
 * Deliberately decided here and not borrowed from the DPjudge engine's
 * legal.c, so that a legality mistake in one engine shows up as a
 * disagreement with the other.  Each written order is first "read" into
 * what the unit would do (a kj_reading); an order that cannot be read on
 * this board is illegal and its unit holds, except that under 4.E.1 a/b an
 * impossible move stays a move that fails.
 */
#include "kruijswijk_int.h"

#include <string.h>

/* What one written order asks of its unit. */
typedef struct kj_reading {
    kj_kind kind;
    int16_t dest_loc, dest_prov;
    bool by_sea;
    bool hopeless;
    dj_why hopeless_why;
    int16_t aim, aim_dest, aim_coast;
} kj_reading;

#define MAX_CANDIDATES 16

static dj_terrain terrain_of(const dj_map *m, int prov)
{
    return m->locs[prov].terrain;
}

static bool has_coasts(const dj_map *m, int loc)
{
    return !m->locs[loc].is_coast && dj_map_ncoasts(m, loc) > 0;
}

/* 4.B.1 and 4.B.2: a fleet ordered to a two-coast province, no coast given. */
static dj_why pick_unwritten_coast(const kj_ctx *c, const kj_unit *u, int prov,
                                   int16_t *loc)
{
    const dj_map *m = c->map;
    int reachable[8], nreach = 0;
    for (int i = 0; i < dj_map_ncoasts(m, prov); i++) {
        int coast = dj_map_coast(m, prov, i);
        if (dj_map_adjacent(m, u->loc, coast, DJ_FLEET) && nreach < 8)
            reachable[nreach++] = coast;
    }
    if (nreach == 0)
        return DJ_WHY_NOT_ADJACENT;
    char choice = nreach == 1 ? dj_rule(c->rules, DJ_RULE_COAST_ONE_OMITTED)
                              : dj_rule(c->rules, DJ_RULE_COAST_TWO_OMITTED);
    if (nreach == 1) {
        if (choice == 'a') {
            *loc = (int16_t)reachable[0];
            return DJ_WHY_NONE;
        }
        if (choice == 'c')
            return DJ_WHY_COAST_NEEDED;
    } else if (choice == 'a') {
        return DJ_WHY_COAST_NEEDED;
    }
    int first = dj_map_coast(m, prov, 0); /* the map's default coast */
    for (int i = 0; i < nreach; i++)
        if (reachable[i] == first) {
            *loc = (int16_t)first;
            return DJ_WHY_NONE;
        }
    return DJ_WHY_COAST_UNREACHABLE;
}

static dj_why read_fleet_move(const kj_ctx *c, const kj_unit *u, int dest,
                              int16_t *loc)
{
    const dj_map *m = c->map;
    int prov = dj_province(m, dest);
    if (has_coasts(m, dest))
        return pick_unwritten_coast(c, u, prov, loc);
    if (dj_map_adjacent(m, u->loc, dest, DJ_FLEET)) {
        *loc = (int16_t)dest;
        return DJ_WHY_NONE;
    }
    if (m->locs[dest].is_coast) { /* 4.B.3: the wrong coast written */
        for (int i = 0; i < dj_map_ncoasts(m, prov); i++) {
            int other = dj_map_coast(m, prov, i);
            if (other == dest || !dj_map_adjacent(m, u->loc, other, DJ_FLEET))
                continue;
            if (dj_rule(c->rules, DJ_RULE_COAST_IMPOSSIBLE) != 'a')
                return DJ_WHY_COAST_UNREACHABLE;
            *loc = (int16_t)other;
            return DJ_WHY_NONE;
        }
    }
    return terrain_of(m, prov) == DJ_LAND ? DJ_WHY_BAD_TERRAIN
                                          : DJ_WHY_NOT_ADJACENT;
}

/*
 * Read "unit ui moves to dest" (also for a support of that move, where the
 * supporting fleet `without` cannot carry it).  Fills the destination and
 * whether it goes by sea, or says why it cannot be done.
 */
static dj_why read_move(kj_ctx *c, int ui, int dest, bool via, int without,
                        kj_reading *r)
{
    const dj_map *m = c->map;
    const kj_unit *u = &c->u[ui];
    int prov = dj_province(m, dest);

    r->dest_loc = (int16_t)dest;
    r->dest_prov = (int16_t)prov;
    r->by_sea = false;
    if (prov == u->prov)
        return DJ_WHY_SAME_PLACE;
    if (terrain_of(m, prov) == DJ_SHUT)
        return DJ_WHY_NOT_ADJACENT;
    if (u->type == DJ_FLEET) {
        if (via)
            return DJ_WHY_FLEET_CONVOYED;
        return read_fleet_move(c, u, dest, &r->dest_loc);
    }
    /* An army. */
    if (terrain_of(m, prov) == DJ_WATER)
        return DJ_WHY_BAD_TERRAIN;
    if (m->locs[dest].is_coast &&
        dj_rule(c->rules, DJ_RULE_COAST_UNKNOWN) == 'a')
        return DJ_WHY_WRONG_COAST;
    r->dest_loc = (int16_t)prov;
    bool next_door = dj_map_adjacent(m, u->loc, prov, DJ_ARMY);
    bool sea_only = via && dj_rule(c->rules, DJ_RULE_ADJACENT_CONVOY) == 'e';
    if (next_door && !sea_only)
        return DJ_WHY_NONE;
    if (terrain_of(m, u->prov) != DJ_COAST || terrain_of(m, prov) != DJ_COAST)
        return DJ_WHY_NOT_ADJACENT;
    r->by_sea = true;
    if (next_door)
        return DJ_WHY_NONE;
    if (dj_rule(c->rules, DJ_RULE_ILLEGAL_ORDERS) == 'd' &&
        !kj_route_exists(c, ui, prov, false, without, NULL))
        return DJ_WHY_NO_CONVOY_ROUTE;
    return DJ_WHY_NONE;
}

static dj_why read_support(kj_ctx *c, int ui, const dj_order *o, kj_reading *r)
{
    const dj_map *m = c->map;
    const kj_unit *u = &c->u[ui];
    r->kind = KJ_SUPPORT;
    int other = o->target >= 0 ? c->board.at[dj_province(m, o->target)] : -1;
    if (other < 0)
        return DJ_WHY_NO_TARGET;
    if (other == ui)
        return DJ_WHY_SUPPORT_SELF;
    r->aim = (int16_t)other;
    if (o->dest < 0) {
        r->aim_dest = -1;
        if (!dj_map_reaches_province(m, u->loc, c->u[other].prov, u->type))
            return DJ_WHY_SUPPORT_UNREACHABLE;
        return dj_map_reaches_province_whole(m, u->loc, c->u[other].prov,
                                             u->type)
                   ? DJ_WHY_NONE
                   : DJ_WHY_SUPPORT_HALF_BORDER; /* as DPjudge: illegal */
    }
    int prov = dj_province(m, o->dest);
    if (prov == u->prov)
        return DJ_WHY_SUPPORT_SELF;
    if (!dj_map_reaches_province(m, u->loc, prov, u->type))
        return DJ_WHY_SUPPORT_UNREACHABLE;
    if (!dj_map_reaches_province_whole(m, u->loc, prov, u->type))
        return DJ_WHY_SUPPORT_HALF_BORDER;
    kj_reading move;
    dj_why why = read_move(c, other, prov, false, ui, &move);
    /* The supported unit's own order settles the coast, not the support. */
    if (why != DJ_WHY_NONE && why != DJ_WHY_COAST_NEEDED &&
        why != DJ_WHY_COAST_UNREACHABLE)
        return DJ_WHY_NOT_ADJACENT;
    r->aim_dest = (int16_t)prov;
    r->aim_coast = m->locs[o->dest].is_coast ? o->dest : -1;
    return DJ_WHY_NONE;
}

static dj_why read_convoy(kj_ctx *c, int ui, const dj_order *o, kj_reading *r)
{
    const dj_map *m = c->map;
    const kj_unit *u = &c->u[ui];

    r->kind = KJ_CONVOY;
    if (u->type != DJ_FLEET || !m->locs[u->loc].convoys)
        return DJ_WHY_CONVOY_NOT_AT_SEA;
    int army = o->target >= 0 ? c->board.at[dj_province(m, o->target)] : -1;
    if (army < 0)
        return DJ_WHY_NO_TARGET;
    const kj_unit *a = &c->u[army];
    if (a->type != DJ_ARMY || o->dest < 0)
        return DJ_WHY_CONVOY_BAD_TARGET;
    int prov = dj_province(m, o->dest);
    if (prov == a->prov || terrain_of(m, a->prov) != DJ_COAST ||
        terrain_of(m, prov) != DJ_COAST)
        return DJ_WHY_CONVOY_BAD_TARGET;
    r->aim = (int16_t)army;
    r->aim_dest = (int16_t)prov;
    return DJ_WHY_NONE;
}

static dj_why read_order(kj_ctx *c, int ui, const dj_order *o, kj_reading *r)
{
    memset(r, 0, sizeof *r);
    r->dest_loc = r->dest_prov = r->aim = r->aim_dest = r->aim_coast = -1;
    switch (o->kind) {
    case DJ_ORDER_HOLD:
        r->kind = KJ_HOLD;
        return DJ_WHY_NONE;
    case DJ_ORDER_MOVE: {
        r->kind = KJ_MOVE;
        if (o->dest < 0)
            return DJ_WHY_NOT_ADJACENT;
        dj_why why = read_move(c, ui, o->dest, o->via_convoy, -1, r);
        char legality = dj_rule(c->rules, DJ_RULE_ILLEGAL_ORDERS);
        if (why != DJ_WHY_NONE && (legality == 'a' || legality == 'b')) {
            /* Still a move: it fails and cannot be supported to hold. */
            r->hopeless = true;
            r->hopeless_why = why;
            return DJ_WHY_NONE;
        }
        return why;
    }
    case DJ_ORDER_SUPPORT:
        return read_support(c, ui, o, r);
    case DJ_ORDER_CONVOY:
        return read_convoy(c, ui, o, r);
    default:
        return DJ_WHY_WRONG_PHASE;
    }
}

static bool same_reading(const kj_reading *a, const kj_reading *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case KJ_HOLD:
        return true;
    case KJ_MOVE:
        return a->dest_loc == b->dest_loc;
    default:
        return a->aim == b->aim && a->aim_dest == b->aim_dest &&
               a->aim_coast == b->aim_coast;
    }
}

static void obey(kj_unit *u, const kj_reading *r, int order)
{
    u->order = order;
    u->kind = r->kind;
    u->dest_loc = r->dest_loc;
    u->dest_prov = r->dest_prov;
    u->by_sea = r->by_sea;
    u->hopeless = r->hopeless;
    u->hopeless_why = r->hopeless_why;
    u->aim = r->aim;
    u->aim_dest = r->aim_dest;
    u->aim_coast = r->aim_coast;
}

/* 4.D.3: the legal orders of one unit; keep one, or none. */
static void choose_among(kj_ctx *c, int ui, const int *idx,
                         const kj_reading *reads, int n, dj_order_result *res)
{
    bool differ = false;
    for (int i = 1; i < n; i++)
        differ |= !same_reading(&reads[0], &reads[i]);
    if (!differ) {
        obey(&c->u[ui], &reads[0], idx[0]);
        return;
    }
    char choice = dj_rule(c->rules, DJ_RULE_MULTIPLE_ORDERS);
    int keep = choice == 'a' ? 0 : choice == 'b' ? n - 1 : -1;
    for (int i = 0; i < n; i++) {
        if (i == keep)
            continue;
        res[idx[i]].flags |= keep < 0 ? DJ_RF_ILLEGAL : DJ_RF_IGNORED;
        res[idx[i]].why = DJ_WHY_DUPLICATE;
    }
    if (keep >= 0)
        obey(&c->u[ui], &reads[keep], idx[keep]);
}

/* Attach the written orders to units and keep the ones each unit obeys. */
static void read_written_orders(kj_ctx *c, dj_order_result *res)
{
    const dj_map *m = c->map;
    int idx[MAX_CANDIDATES];
    kj_reading reads[MAX_CANDIDATES];

    /* Each unit's orders chained in written order (built backwards). */
    int16_t first[DJ_MAX_UNITS], next[DJ_MAX_ORDERS];
    for (int ui = 0; ui < c->n; ui++)
        first[ui] = -1;
    for (int i = c->norders - 1; i >= 0; i--) {
        const dj_order *o = &c->orders[i];
        next[i] = -1;
        bool in_range = o->loc >= 0 && o->loc < m->nlocs &&
                        o->dest < m->nlocs && o->target < m->nlocs;
        int ui = in_range ? c->board.at[dj_province(m, o->loc)] : -1;
        if (ui < 0) {
            res[i].flags |= DJ_RF_ILLEGAL;
            res[i].why = DJ_WHY_NO_UNIT;
            continue;
        }
        res[i].unit = (int16_t)ui;
        if (c->u[ui].power != o->power) {
            res[i].flags |= DJ_RF_ILLEGAL;
            res[i].why = DJ_WHY_NOT_OWNER;
        } else if (m->locs[o->loc].is_coast && o->loc != c->u[ui].loc &&
                   dj_rule(c->rules, DJ_RULE_COAST_WRONG_UNIT) == 'a') {
            res[i].flags |= DJ_RF_ILLEGAL;
            res[i].why = DJ_WHY_WRONG_COAST;
        } else {
            next[i] = first[ui];
            first[ui] = (int16_t)i;
        }
    }
    for (int ui = 0; ui < c->n; ui++) {
        int n = 0;
        for (int i = first[ui]; i >= 0; i = next[i]) {
            kj_reading r;
            dj_why why = read_order(c, ui, &c->orders[i], &r);
            if (why != DJ_WHY_NONE) {
                res[i].why = why;
                res[i].flags |= why == DJ_WHY_NO_TARGET ? DJ_RF_VOID
                                                        : DJ_RF_ILLEGAL;
            } else if (n == MAX_CANDIDATES) {
                res[i].flags |= DJ_RF_IGNORED;
                res[i].why = DJ_WHY_DUPLICATE;
            } else {
                idx[n] = i;
                reads[n++] = r;
            }
        }
        if (n > 0)
            choose_among(c, ui, idx, reads, n, res);
    }
}

/* 4.E.3 a: an unordered unit moves where all its own power's supports and
 * convoys of it say it moves. */
static void imply_moves(kj_ctx *c)
{
    for (int ui = 0; ui < c->n; ui++) {
        kj_unit *u = &c->u[ui];
        if (u->order >= 0 || u->kind != KJ_HOLD)
            continue;
        int dest = -1;
        bool agreed = true;
        for (int s = 0; s < c->n && agreed; s++) {
            const kj_unit *h = &c->u[s];
            if ((h->kind == KJ_SUPPORT || h->kind == KJ_CONVOY) &&
                h->aim == ui && h->aim_dest >= 0 && h->power == u->power) {
                agreed = dest < 0 || dest == h->aim_dest;
                dest = h->aim_dest;
            }
        }
        if (dest < 0 || !agreed)
            continue;
        kj_reading r;
        if (read_move(c, ui, dest, false, -1, &r) != DJ_WHY_NONE)
            continue;
        u->kind = KJ_MOVE;
        u->dest_loc = r.dest_loc;
        u->dest_prov = r.dest_prov;
        u->by_sea = r.by_sea;
    }
}

/* 4.A.3: does an army ordered next door go through fleets? */
static bool goes_by_sea(kj_ctx *c, int ui)
{
    const kj_unit *u = &c->u[ui];
    bool via = c->orders[u->order].via_convoy;
    char choice = dj_rule(c->rules, DJ_RULE_ADJACENT_CONVOY);
    if (choice == 'e')
        return via;
    if (c->land_only[ui] || !kj_route_exists(c, ui, u->dest_prov, true, -1, NULL))
        return false;
    switch (choice) {
    case 'a':
        return true;
    case 'b':
    case 'c': {
        int other = c->board.at[u->dest_prov];
        return other >= 0 && c->u[other].kind == KJ_MOVE &&
               c->u[other].dest_prov == u->prov;
    }
    default:
        break;
    }
    if (via)
        return true;
    /* 2000 rules: its own fleet ordered to convoy it shows intent, when
     * that fleet could be on some route of the fleets at sea (6.G.6/7). */
    for (int f = 0; f < c->n; f++) {
        const kj_unit *fl = &c->u[f];
        if (fl->power == u->power && fl->kind == KJ_CONVOY && fl->aim == ui &&
            fl->aim_dest == u->dest_prov &&
            kj_on_some_route(c, f, ui, u->dest_prov, false))
            return true;
    }
    return false;
}

static void settle_land_or_sea(kj_ctx *c)
{
    for (int ui = 0; ui < c->n; ui++) {
        kj_unit *u = &c->u[ui];
        if (u->kind != KJ_MOVE || u->type != DJ_ARMY || u->hopeless)
            continue;
        if (u->order >= 0 && dj_map_adjacent(c->map, u->loc, u->dest_prov, DJ_ARMY))
            u->by_sea = goes_by_sea(c, ui);
        if (u->by_sea && u->order >= 0 && c->orders[u->order].npath <= 0 &&
            dj_rule(c->rules, DJ_RULE_CONVOY_PATH) == 'c') {
            u->hopeless = true; /* 4.A.6 c: the route must be written */
            u->hopeless_why = DJ_WHY_PATH_NEEDED;
        }
    }
}

/* 4.B.4: does a support's destination (and coast) fit the move made? */
static bool support_fits_move(const kj_ctx *c, const kj_unit *s,
                              const kj_unit *t)
{
    if (t->kind != KJ_MOVE || t->dest_prov != s->aim_dest)
        return false;
    char choice = dj_rule(c->rules, DJ_RULE_COAST_IN_SUPPORT);
    if (s->aim_coast >= 0)
        return choice == 'e' || s->aim_coast == t->dest_loc;
    if (t->dest_loc == t->dest_prov)
        return true; /* no coast in play */
    if (choice == 'a')
        return false;
    if (choice == 'b')
        return t->dest_loc == dj_map_coast(c->map, t->dest_prov, 0);
    return true;
}

/* Which supports and convoys match what their units really do. */
static void match_orders(kj_ctx *c)
{
    for (int f = 0; f < c->n; f++) {
        kj_unit *fl = &c->u[f];
        if (fl->kind != KJ_CONVOY)
            continue;
        const kj_unit *a = &c->u[fl->aim];
        fl->void_why = DJ_WHY_NONE;
        fl->unmatched = a->kind != KJ_MOVE || !a->by_sea ||
                        a->dest_prov != fl->aim_dest;
    }
    /* A convoy on no route of its army matches nothing: one search per
     * army, before any of its fleets is struck off. */
    bool asked[DJ_MAX_UNITS], on_route[DJ_MAX_UNITS];
    memset(asked, 0, sizeof(bool) * (size_t)c->n);
    for (int f = 0; f < c->n; f++) {
        const kj_unit *fl = &c->u[f];
        if (fl->kind != KJ_CONVOY || fl->unmatched || asked[f])
            continue;
        int army = fl->aim, dest = fl->aim_dest;
        kj_route_fleets(c, army, dest, true, on_route);
        for (int g = f; g < c->n; g++) {
            kj_unit *other = &c->u[g];
            if (other->kind == KJ_CONVOY && !other->unmatched &&
                other->aim == army && other->aim_dest == dest) {
                asked[g] = true;
                other->unmatched = !on_route[g];
                if (other->unmatched)
                    other->void_why = DJ_WHY_CONVOY_OFF_ROUTE;
            }
        }
    }
    for (int s = 0; s < c->n; s++) {
        kj_unit *su = &c->u[s];
        if (su->kind != KJ_SUPPORT)
            continue;
        const kj_unit *t = &c->u[su->aim];
        su->void_why = DJ_WHY_NONE;
        if (su->aim_dest >= 0) {
            su->unmatched = !support_fits_move(c, su, t);
        } else {
            /* 4.D.9 a: no hold support for a power in civil disorder. */
            bool disorder = (c->pos->civil_disorder & DJ_POWER_BIT(t->power)) != 0;
            su->unmatched = t->kind == KJ_MOVE ||
                            (disorder && dj_rule(c->rules,
                                                 DJ_RULE_CIVIL_DISORDER_SUPPORT) == 'a');
            if (su->unmatched && t->kind != KJ_MOVE)
                su->void_why = DJ_WHY_DISORDER_SUPPORT;
        }
    }
    for (int a = 0; a < c->n; a++) {
        kj_unit *u = &c->u[a];
        if (u->kind == KJ_MOVE && u->by_sea && !u->hopeless)
            u->no_route = !kj_route_exists(c, a, u->dest_prov, true, -1, NULL);
    }
}

/* The lists the decisions walk: supports per unit, moves per province,
 * convoying fleets per army. */
static void link_orders(kj_ctx *c)
{
    for (int i = c->n - 1; i >= 0; i--) {
        kj_unit *u = &c->u[i];
        if (u->kind == KJ_SUPPORT && !u->unmatched) {
            u->next_support = c->u[u->aim].first_support;
            c->u[u->aim].first_support = (int16_t)i;
        } else if (u->kind == KJ_CONVOY && !u->unmatched) {
            u->next_fleet = c->u[u->aim].first_fleet;
            c->u[u->aim].first_fleet = (int16_t)i;
        } else if (u->kind == KJ_MOVE && !u->hopeless && !u->no_route) {
            u->next_mover = c->first_mover[u->dest_prov];
            c->first_mover[u->dest_prov] = (int16_t)i;
        }
    }
}

/* Moves across a half-strength border (`*`, maps/README.md): by land, the
 * border crossed; by sea, unless a fleet ordered to convoy the army there,
 * where fleets convoy, borders the destination across an ordinary one. */
static void find_half_moves(kj_ctx *c)
{
    const dj_map *m = c->map;
    if (!m->half_borders)
        return;
    for (int a = 0; a < c->n; a++) {
        kj_unit *u = &c->u[a];
        if (u->kind != KJ_MOVE || u->hopeless)
            continue;
        if (!u->by_sea) {
            u->half = dj_map_half_border(m, u->loc, u->dest_loc, u->type);
            continue;
        }
        u->half = true;
        for (int f = 0; f < c->n && u->half; f++) {
            const kj_unit *fl = &c->u[f];
            if (fl->kind == KJ_CONVOY && fl->aim == a &&
                fl->aim_dest == u->dest_prov && m->locs[fl->loc].convoys &&
                dj_map_reaches_province_whole(m, fl->loc, u->dest_prov,
                                              DJ_FLEET))
                u->half = false;
        }
    }
}

void kj_read_orders(kj_ctx *c, dj_order_result *res)
{
    read_written_orders(c, res);
    if (dj_rule(c->rules, DJ_RULE_IMPLICIT_ORDERS) == 'a')
        imply_moves(c);
    settle_land_or_sea(c);
    match_orders(c);
    find_half_moves(c);
    link_orders(c);
}
