/*
 * kruijswijk_routes.c — chains of fleets at sea for the Kruijswijk engine.
 *
 * A convoy route is a chain of fleets on water, each adjacent to the next,
 * the first next to the army's coast and the last next to the destination.
 * "Ordered" routes use only fleets whose convoy order carries this army to
 * this destination (and, under 4.A.6 b/c, stand in a province the army's
 * order names).  Written apart from the DPjudge engine's convoy.c on
 * purpose: a mistake in one is caught by the other.
 */
#include "kruijswijk_int.h"

#include <string.h>

/* Search steps allowed when looking for a simple route through one fleet. */
#define ROUTE_BUDGET 20000

/* 4.A.6 b/c: is the fleet in a province the army's written route names? */
static bool named_in_route(const kj_ctx *c, int fleet, int army)
{
    int oi = c->u[army].order;
    if (oi < 0 || dj_rule(c->rules, DJ_RULE_CONVOY_PATH) == 'a')
        return true;
    const dj_order *o = &c->orders[oi];
    if (o->npath <= 0)
        return true;
    for (int i = 0; i < o->npath && i < DJ_MAX_PATH; i++) {
        int loc = o->path[i];
        if (loc >= 0 && loc < c->map->nlocs &&
            dj_province(c->map, loc) == c->u[fleet].prov)
            return true;
    }
    return false;
}

bool kj_carries(const kj_ctx *c, int fleet, int army, int dest_prov,
                bool ordered)
{
    const kj_unit *f = &c->u[fleet];
    if (f->type != DJ_FLEET || !c->map->locs[f->loc].convoys)
        return false;
    if (!ordered)
        return true;
    return f->kind == KJ_CONVOY && !f->unmatched && f->aim == army &&
           f->aim_dest == dest_prov && named_in_route(c, fleet, army);
}

static bool touches(const kj_ctx *c, int fleet, int prov)
{
    return dj_map_reaches_province(c->map, c->u[fleet].loc, prov, DJ_FLEET);
}

static bool fleets_meet(const kj_ctx *c, int f, int g)
{
    return dj_map_adjacent(c->map, c->u[f].loc, c->u[g].loc, DJ_FLEET);
}

bool kj_route_exists(kj_ctx *c, int army, int dest_prov, bool ordered,
                     int without, const bool *lost)
{
    int from = c->u[army].prov, head = 0, tail = 0, nusable = 0;
    int16_t *usable = c->stack;
    /* The fleets that may carry it; those next to its coast start. */
    for (int k = 0; k < c->nsea; k++) {
        int f = c->sea[k];
        /* lost[] is only meaningful for fleets that may carry the army. */
        if (f == without || !kj_carries(c, f, army, dest_prov, ordered) ||
            (lost && lost[f]))
            continue;
        if (touches(c, f, from))
            c->queue[tail++] = (int16_t)f;
        else
            usable[nusable++] = (int16_t)f;
    }
    while (head < tail) {
        int f = c->queue[head++];
        if (touches(c, f, dest_prov))
            return true;
        for (int k = 0; k < nusable; k++) {
            int g = usable[k];
            if (g >= 0 && fleets_meet(c, f, g)) {
                usable[k] = -1;
                c->queue[tail++] = (int16_t)g;
            }
        }
    }
    return false;
}

/*
 * Depth-first over simple chains: c->stack holds the chain so far, seen[]
 * marks its fleets (3) among usable ones (2).  True when a chain through
 * `fleet` reaches the destination.
 */
static bool extend_chain(kj_ctx *c, int depth, int fleet, int dest_prov)
{
    int last = c->stack[depth - 1];
    bool through = false;
    for (int i = 0; i < depth && !through; i++)
        through = c->stack[i] == fleet;
    if (through && touches(c, last, dest_prov))
        return true;
    if (--c->budget < 0)
        return false;
    for (int k = 0; k < c->nsea; k++) {
        int g = c->sea[k];
        if (c->seen[g] != 2 || !fleets_meet(c, last, g))
            continue;
        c->seen[g] = 3;
        c->stack[depth] = (int16_t)g;
        bool found = extend_chain(c, depth + 1, fleet, dest_prov);
        c->seen[g] = 2;
        if (found)
            return true;
    }
    return false;
}

bool kj_on_some_route(kj_ctx *c, int fleet, int army, int dest_prov,
                      bool ordered)
{
    if (!kj_carries(c, fleet, army, dest_prov, ordered))
        return false;
    int from = c->u[army].prov;
    memset(c->seen, 0, (size_t)c->n);
    for (int k = 0; k < c->nsea; k++)
        if (kj_carries(c, c->sea[k], army, dest_prov, ordered))
            c->seen[c->sea[k]] = 2;
    c->budget = ROUTE_BUDGET;
    for (int k = 0; k < c->nsea; k++) {
        int f = c->sea[k];
        if (c->seen[f] != 2 || !touches(c, f, from))
            continue;
        c->seen[f] = 3;
        c->stack[0] = (int16_t)f;
        bool found = extend_chain(c, 1, fleet, dest_prov);
        c->seen[f] = 2;
        if (found)
            return true;
        if (c->budget < 0)
            break;
    }
    if (c->budget >= 0)
        return false;
    /* Too many chains to try: settle for a route existing at all. */
    return kj_route_exists(c, army, dest_prov, ordered, -1, NULL);
}
