/* SPDX-License-Identifier: MIT */
/*
 * kruijswijk.c — the Kruijswijk engine's entry point: set the board up,
 * read the orders (kruijswijk_orders.c), settle every decision
 * (kruijswijk_decide.c), then turn decisions into results: which orders
 * succeeded and why not, who is dislodged by whom, which provinces a
 * standoff left empty, and the position after the moves.
 */
#include "kruijswijk_int.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static void set_up(kj_ctx *c, const dj_map *map, const dj_position *pos,
                   const dj_order *orders, int norders, const dj_rules *rules)
{
    c->map = map;
    c->pos = pos;
    c->rules = rules;
    c->orders = orders;
    c->norders = norders;
    c->n = pos->nunits;
    dj_board_set_up(&c->board, map, pos);
    memset(c->first_mover, 0xff, sizeof(int16_t) * (size_t)map->nlocs);
    for (int i = 0; i < c->n; i++) {
        const dj_unit *pu = &pos->units[i];
        kj_unit *u = &c->u[i];
        memset(u, 0, sizeof *u);
        u->power = pu->power;
        u->loc = pu->loc;
        u->prov = c->board.prov[i];
        u->type = pu->type;
        u->order = -1;
        u->kind = KJ_HOLD;
        u->dest_loc = u->dest_prov = u->aim = u->aim_dest = u->aim_coast = -1;
        u->first_support = u->next_support = u->next_mover = -1;
        u->first_fleet = u->next_fleet = -1;
        c->group_of[i] = -1;
    }
}

static bool moved(const kj_ctx *c, int x)
{
    const kj_unit *u = &c->u[x];
    return u->kind == KJ_MOVE && c->state[KJ_MAIN(x)] == KJ_RESOLVED &&
           c->result[KJ_MAIN(x)];
}

static bool path_failed(const kj_ctx *c, int x)
{
    const kj_unit *u = &c->u[x];
    return u->no_route || u->paradox ||
           (u->by_sea && c->state[KJ_PATH(x)] == KJ_RESOLVED &&
            !c->result[KJ_PATH(x)]);
}

/* The result of the order unit x obeys. */
static void outcome(kj_ctx *c, int x, const int16_t *dislodger,
                    dj_order_result *r)
{
    const kj_unit *u = &c->u[x];
    bool ok = true;
    switch (u->kind) {
    case KJ_MOVE:
        ok = moved(c, x);
        if (u->hopeless) {
            r->flags |= DJ_RF_ILLEGAL;
            r->why = u->hopeless_why;
        } else if (path_failed(c, x)) {
            r->flags |= DJ_RF_NO_CONVOY;
        } else if (!ok) {
            r->flags |= DJ_RF_BOUNCE;
        }
        if (u->paradox)
            r->flags |= DJ_RF_PARADOX;
        break;
    case KJ_SUPPORT:
        if (u->unmatched) {
            ok = false;
            r->flags |= DJ_RF_VOID;
            r->why = u->void_why ? u->void_why : DJ_WHY_UNMATCHED;
        } else {
            ok = c->result[KJ_MAIN(x)];
            if (!ok)
                r->flags |= DJ_RF_CUT;
        }
        break;
    case KJ_CONVOY:
        if (u->unmatched) {
            ok = false;
            r->flags |= DJ_RF_VOID;
            r->why = u->void_why ? u->void_why : DJ_WHY_UNMATCHED;
        } else if (!moved(c, u->aim) || dislodger[x] >= 0) {
            ok = false;
            r->flags |= DJ_RF_DISRUPTED;
        }
        break;
    case KJ_HOLD:
        break;
    }
    if (dislodger[x] >= 0) {
        /* A support spared by the 1971/1982/2000 rule still counted. */
        if (u->kind != KJ_SUPPORT)
            ok = false;
        r->flags |= DJ_RF_DISLODGED;
        r->dislodged_by = c->u[dislodger[x]].prov;
    }
    r->success = ok;
}

static void report_orders(kj_ctx *c, const int16_t *dislodger, dj_result *out)
{
    for (int i = 0; i < c->norders; i++) {
        dj_order_result *r = &out->orders[i];
        int x = r->unit;
        if (x < 0)
            continue;
        int obeyed = c->u[x].order;
        if (obeyed == i) {
            outcome(c, x, dislodger, r);
            continue;
        }
        if (dislodger[x] >= 0) {
            r->flags |= DJ_RF_DISLODGED;
            r->dislodged_by = c->u[dislodger[x]].prov;
        }
        /* The same order written twice: both copies share the outcome. */
        if (!(r->flags & (DJ_RF_ILLEGAL | DJ_RF_IGNORED | DJ_RF_VOID)) &&
            obeyed >= 0 && c->orders[i].kind == c->orders[obeyed].kind)
            outcome(c, x, dislodger, r);
    }
}

/* A province nobody holds after a standoff: no retreat there. */
static void mark_standoffs(kj_ctx *c, dj_result *out)
{
    memset(out->contested, 0, sizeof(bool) * (size_t)c->map->nlocs);
    for (int x = 0; x < c->n; x++) {
        const kj_unit *u = &c->u[x];
        if (u->kind == KJ_MOVE && !u->hopeless && !u->no_route &&
            !moved(c, x) && kj_move_prevents(c, x))
            out->contested[u->dest_prov] = true;
    }
}

static void build_next(kj_ctx *c, const int16_t *dislodger, dj_result *out)
{
    const dj_position *pos = c->pos;
    dj_position *n = &out->next;
    n->nunits = n->ndislodged = 0;
    for (int x = 0; x < c->n; x++) {
        dj_unit unit = pos->units[x];
        if (moved(c, x))
            unit.loc = c->u[x].dest_loc;
        if (dislodger[x] < 0) {
            n->units[n->nunits++] = unit;
            out->contested[dj_province(c->map, unit.loc)] = false;
            continue;
        }
        assert(dislodger[x] < c->n && dislodger[x] != x);
        dj_dislodged *d = &n->dislodged[n->ndislodged++];
        memset(d, 0, sizeof *d);
        d->unit = unit;
        d->attacker_from = c->u[dislodger[x]].prov;
        d->by_convoy = c->u[dislodger[x]].by_sea;
    }
}

/* 4.A.3 c: an army whose convoy next door failed goes over land instead. */
static bool go_by_land_instead(kj_ctx *c)
{
    if (dj_rule(c->rules, DJ_RULE_ADJACENT_CONVOY) != 'c')
        return false;
    bool changed = false;
    for (int x = 0; x < c->n; x++) {
        const kj_unit *u = &c->u[x];
        if (u->kind == KJ_MOVE && u->by_sea && !u->hopeless &&
            path_failed(c, x) && !c->land_only[x] &&
            dj_map_adjacent(c->map, u->loc, u->dest_prov, DJ_ARMY)) {
            c->land_only[x] = true;
            changed = true;
        }
    }
    return changed;
}

static int adjudicate(kj_ctx *c, const dj_map *map, const dj_position *pos,
                      const dj_order *orders, int norders,
                      const dj_rules *rules, dj_result *out)
{
    memset(c->land_only, 0, sizeof(bool) * (size_t)pos->nunits);
    for (int round = 0; round <= pos->nunits; round++) {
        set_up(c, map, pos, orders, norders, rules);
        for (int i = 0; i < norders; i++)
            out->orders[i] = (dj_order_result){.unit = -1, .dislodged_by = -1};
        kj_read_orders(c, out->orders);
        if (kj_resolve_all(c) < 0)
            return -1;
        if (!go_by_land_instead(c))
            break;
    }
    int16_t dislodger[DJ_MAX_UNITS];
    for (int x = 0; x < c->n; x++) {
        int by = -1;
        dislodger[x] = -1;
        if (kj_dislodged(c, x, &by))
            dislodger[x] = (int16_t)by;
    }
    report_orders(c, dislodger, out);
    mark_standoffs(c, out);
    build_next(c, dislodger, out);
    return 0;
}

int kj_adjudicate_movement(const dj_map *map, const dj_position *pos,
                           const dj_order *orders, int norders,
                           const dj_rules *rules, dj_result *out)
{
    kj_ctx *c = malloc(sizeof *c);
    if (!c)
        return -1;
    int rc = adjudicate(c, map, pos, orders, norders, rules, out);
    free(c);
    return rc;
}
