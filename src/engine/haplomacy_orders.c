/* SPDX-License-Identifier: MIT */
/*
 * haplomacy_orders.c — steps 1 and 2 of the Haplomacy algorithm (seed
 * 003): "cancel all invalid orders", then "cut support subject to rules 13
 * and 16, but not to rule 14".
 *
 * The seed leaves validity to the rules; this engine decides it on its own
 * (sharing no legality code with the other engines, so a legality bug in
 * one shows against the others): an order is invalid when its unit is not
 * there or not the power's, a move cannot reach its destination (an army
 * may go by convoy when fleets are ordered to carry it all the way), a
 * support names a unit that is not there, cannot reach the province, or
 * does not match what that unit was ordered, a convoy is not a fleet at sea
 * carrying an army that moves where it says.  An invalid order is a hold.
 *
 * Support is cut (rule 13) when a unit of another power attacks the
 * supporter from anywhere but the province the support goes into; a
 * convoyed army cuts only if its convoy can carry it, and (the extension
 * for rule 16, convoys being the seed's silence) not the support of an
 * attack on one of its own convoying fleets.  Being dislodged (rule 14)
 * does not cut support here: the seed's footnote 8 accepts that.
 */
#include "haplomacy_int.h"

#include <string.h>

static int unit_in_province(const hp_ctx *c, int prov)
{
    return c->board.at[prov];
}

static void invalid(hp_unit *u, dj_why why)
{
    u->illegal = true;
    u->why = why;
    u->written = u->kind = HP_HOLD;
}

/* A fleet's destination: the coast written, or the only one it can reach. */
static int fleet_destination(const hp_ctx *c, const hp_unit *u, int dest,
                             dj_why *why)
{
    const dj_map *m = c->map;
    int prov = dj_province(m, dest);
    int ncoasts = dj_map_ncoasts(m, prov);
    if (ncoasts > 0 && dest == prov) {
        int found = -1, count = 0;
        for (int k = 0; k < ncoasts; k++) {
            int coast = dj_map_coast(m, prov, k);
            if (dj_map_adjacent(m, u->loc, coast, DJ_FLEET)) {
                found = coast;
                count++;
            }
        }
        if (count != 1) {
            *why = count ? DJ_WHY_COAST_NEEDED : DJ_WHY_NOT_ADJACENT;
            return -1;
        }
        return found;
    }
    if (!m->locs[dest].fleet_ok) {
        *why = DJ_WHY_BAD_TERRAIN;
        return -1;
    }
    if (!dj_map_adjacent(m, u->loc, dest, DJ_FLEET)) {
        *why = DJ_WHY_NOT_ADJACENT;
        return -1;
    }
    return dest;
}

static void read_move(hp_ctx *c, hp_unit *u, const dj_order *o)
{
    const dj_map *m = c->map;
    if (o->dest < 0 || o->dest >= m->nlocs) {
        invalid(u, DJ_WHY_NOT_ADJACENT);
        return;
    }
    int prov = dj_province(m, o->dest);
    if (prov == u->prov) {
        invalid(u, DJ_WHY_SAME_PLACE);
        return;
    }
    dj_why why = DJ_WHY_NONE;
    int dest = o->dest;
    if (u->type == DJ_FLEET) {
        dest = fleet_destination(c, u, o->dest, &why);
        if (dest < 0) {
            invalid(u, why);
            return;
        }
    } else {
        dest = prov;
        if (!m->locs[prov].army_ok) {
            invalid(u, DJ_WHY_BAD_TERRAIN);
            return;
        }
        u->by_convoy = o->via_convoy || o->npath > 0 ||
                       !dj_map_reaches_province(m, u->loc, prov, DJ_ARMY);
        if (u->by_convoy && m->locs[u->prov].terrain != DJ_COAST) {
            invalid(u, DJ_WHY_NO_CONVOY_ROUTE);
            return;
        }
    }
    u->written = u->kind = HP_MOVE;
    u->dest_loc = (int16_t)dest;
    u->dest_prov = (int16_t)prov;
}

/* Support and convoy: the other unit, and where the help goes. */
static void read_help(hp_ctx *c, hp_unit *u, const dj_order *o, hp_kind kind)
{
    const dj_map *m = c->map;
    if (o->target < 0 || o->target >= m->nlocs) {
        invalid(u, DJ_WHY_NO_TARGET);
        return;
    }
    int t = unit_in_province(c, dj_province(m, o->target));
    if (t < 0) {
        invalid(u, DJ_WHY_NO_TARGET);
        return;
    }
    if (&c->u[t] == u) {
        invalid(u, DJ_WHY_SUPPORT_SELF);
        return;
    }
    int to = o->dest >= 0 && o->dest < m->nlocs ? dj_province(m, o->dest)
                                                : -1;
    if (kind == HP_SUPPORT) {
        int reach = to >= 0 ? to : c->u[t].prov;
        if (reach == u->prov) {
            invalid(u, DJ_WHY_SUPPORT_SELF);
            return;
        }
        if (!dj_map_reaches_province(m, u->loc, reach, u->type)) {
            invalid(u, DJ_WHY_SUPPORT_UNREACHABLE);
            return;
        }
        if (!dj_map_reaches_province_whole(m, u->loc, reach, u->type)) {
            invalid(u, DJ_WHY_SUPPORT_HALF_BORDER); /* DPjudge: illegal */
            return;
        }
    } else {
        if (u->type != DJ_FLEET || !m->locs[u->loc].convoys) {
            invalid(u, DJ_WHY_CONVOY_NOT_AT_SEA);
            return;
        }
        if (c->u[t].type != DJ_ARMY || to < 0) {
            invalid(u, DJ_WHY_CONVOY_BAD_TARGET);
            return;
        }
    }
    u->written = u->kind = kind;
    u->target = (int16_t)t;
    u->target_prov = (int16_t)to;
}

/* Support and convoy must match what the other unit was ordered. */
static void match_help(hp_ctx *c)
{
    for (int i = 0; i < c->n; i++) {
        hp_unit *u = &c->u[i];
        if (u->written != HP_SUPPORT && u->written != HP_CONVOY)
            continue;
        const hp_unit *t = &c->u[u->target];
        bool ok = u->target_prov < 0
                      ? t->written != HP_MOVE
                      : t->written == HP_MOVE && t->dest_prov == u->target_prov;
        if (u->written == HP_CONVOY)
            ok = ok && t->by_convoy;
        if (!ok)
            invalid(u, DJ_WHY_UNMATCHED);
    }
}

bool hp_convoy_route(const hp_ctx *c, int a)
{
    const dj_map *m = c->map;
    const hp_unit *army = &c->u[a];
    bool seen[DJ_MAX_UNITS] = {false};
    int16_t queue[DJ_MAX_UNITS];
    int head = 0, tail = 0;
    for (int i = 0; i < c->n; i++) {
        const hp_unit *f = &c->u[i];
        if (f->written != HP_CONVOY || f->target != a ||
            f->target_prov != army->dest_prov || f->dislodged)
            continue;
        if (dj_map_reaches_province(m, f->loc, army->prov, DJ_FLEET)) {
            seen[i] = true;
            queue[tail++] = (int16_t)i;
        }
    }
    while (head < tail) {
        const hp_unit *f = &c->u[queue[head++]];
        if (dj_map_reaches_province(m, f->loc, army->dest_prov, DJ_FLEET))
            return true;
        for (int i = 0; i < c->n; i++) {
            const hp_unit *g = &c->u[i];
            if (seen[i] || g->written != HP_CONVOY || g->target != a ||
                g->target_prov != army->dest_prov || g->dislodged ||
                !dj_map_adjacent(m, f->loc, g->loc, DJ_FLEET))
                continue;
            seen[i] = true;
            queue[tail++] = (int16_t)i;
        }
    }
    return false;
}

/* Moves across a half-strength border (`*`, maps/README.md): over land
 * the border crossed; a convoyed army's unless a fleet ordered to convoy it
 * there borders the destination across an ordinary border. */
static void half_moves(hp_ctx *c)
{
    const dj_map *m = c->map;
    if (!m->half_borders)
        return;
    for (int i = 0; i < c->n; i++) {
        hp_unit *u = &c->u[i];
        if (u->written != HP_MOVE)
            continue;
        if (!u->by_convoy) {
            u->half = dj_map_half_border(m, u->loc, u->dest_loc, u->type);
            continue;
        }
        u->half = true;
        for (int f = 0; f < c->n && u->half; f++) {
            const hp_unit *fl = &c->u[f];
            if (fl->written == HP_CONVOY && fl->target == i &&
                fl->target_prov == u->dest_prov &&
                m->locs[fl->loc].convoys &&
                dj_map_reaches_province_whole(m, fl->loc, u->dest_prov,
                                              DJ_FLEET))
                u->half = false;
        }
    }
}

void hp_read_orders(hp_ctx *c, const dj_order *orders, int norders,
                    dj_order_result *res)
{
    const dj_map *m = c->map;
    for (int i = 0; i < norders; i++) {
        const dj_order *o = &orders[i];
        dj_order_result *r = &res[i];
        if (o->loc < 0 || o->loc >= m->nlocs) {
            r->flags |= DJ_RF_ILLEGAL;
            r->why = DJ_WHY_NO_UNIT;
            continue;
        }
        int ui = unit_in_province(c, dj_province(m, o->loc));
        r->unit = (int16_t)ui;
        dj_why why = DJ_WHY_NONE;
        if (o->kind != DJ_ORDER_HOLD && o->kind != DJ_ORDER_MOVE &&
            o->kind != DJ_ORDER_SUPPORT && o->kind != DJ_ORDER_CONVOY)
            why = DJ_WHY_WRONG_PHASE;
        else if (ui < 0)
            why = DJ_WHY_NO_UNIT;
        else if (c->u[ui].power != o->power)
            why = DJ_WHY_NOT_OWNER;
        else if (o->unit_type != DJ_NO_UNIT && o->unit_type != c->u[ui].type)
            why = DJ_WHY_NO_UNIT;
        else if (c->u[ui].order >= 0)
            why = DJ_WHY_DUPLICATE;
        if (why != DJ_WHY_NONE) {
            r->flags |= DJ_RF_ILLEGAL;
            r->why = why;
            if (ui >= 0 && (why == DJ_WHY_NOT_OWNER || why == DJ_WHY_NO_UNIT))
                r->unit = -1;
            continue;
        }
        hp_unit *u = &c->u[ui];
        u->order = i;
        if (o->kind == DJ_ORDER_MOVE)
            read_move(c, u, o);
        else if (o->kind == DJ_ORDER_SUPPORT || o->kind == DJ_ORDER_CONVOY)
            read_help(c, u, o, o->kind == DJ_ORDER_SUPPORT ? HP_SUPPORT
                                                           : HP_CONVOY);
    }
    /* A convoyed move needs its fleets (it then holds, and may be
     * supported to hold); then each support and convoy must match. */
    for (int i = 0; i < c->n; i++) {
        hp_unit *u = &c->u[i];
        if (u->written == HP_MOVE && u->by_convoy && !hp_convoy_route(c, i)) {
            invalid(u, DJ_WHY_NO_CONVOY_ROUTE);
            u->no_route = true;
        }
    }
    match_help(c);
    half_moves(c);
    /* Fleets convoying stay where they are: they hold, for the disputes. */
    for (int i = 0; i < c->n; i++)
        if (c->u[i].written == HP_CONVOY)
            c->u[i].kind = HP_HOLD;
}

/* Is unit s supporting an attack on a fleet that convoys army a? */
static bool supports_attack_on_convoy(const hp_ctx *c, const hp_unit *s,
                                      int a)
{
    if (s->target_prov < 0)
        return false;
    for (int i = 0; i < c->n; i++)
        if (c->u[i].written == HP_CONVOY && c->u[i].target == a &&
            c->u[i].prov == s->target_prov)
            return true;
    return false;
}

void hp_cut_support(hp_ctx *c)
{
    for (int i = 0; i < c->n; i++) {
        hp_unit *s = &c->u[i];
        if (s->kind != HP_SUPPORT)
            continue;
        int into = s->target_prov >= 0 ? s->target_prov : c->u[s->target].prov;
        for (int k = 0; k < c->n && !s->cut; k++) {
            const hp_unit *m = &c->u[k];
            if (m->written != HP_MOVE || m->dest_prov != s->prov ||
                m->power == s->power || m->prov == into)
                continue;
            /* across a half-strength border: it cuts by dislodging only
             * (the supporter dislodged gives up its support, settle) */
            if (m->half)
                continue;
            if (m->by_convoy && supports_attack_on_convoy(c, s, k))
                continue;
            s->cut = true;
            s->kind = HP_HOLD;
        }
    }
}
