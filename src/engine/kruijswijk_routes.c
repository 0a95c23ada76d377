/* SPDX-License-Identifier: MIT */
/*
 * kruijswijk_routes.c — chains of fleets at sea for the Kruijswijk engine.
 *
 * A convoy route is a chain of fleets on water, each adjacent to the next,
 * the first next to the army's coast and the last next to the destination.
 * "Ordered" routes use only fleets whose convoy order carries this army to
 * this destination (and, under 4.A.6 b/c, stand in a province the army's
 * order names).  Whether a route exists is a breadth-first search; which
 * fleets lie on some route (no fleet used twice) is one depth-first search
 * for the block of the fleets' graph that joins the two coasts; both take
 * time linear in the fleets and their borders.  Borders between convoying
 * places are read as two-way, as every shipped map lists them.  Written
 * apart from the DPjudge engine's convoy_routes.c on purpose, by another
 * method: a mistake in one is caught by the other.
 */
#include "kruijswijk_int.h"

#include <string.h>

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

/* The fleet across the k-th border of fleet f's place, or -1. */
static int across(const kj_ctx *c, int f, int k)
{
    const dj_adj *b = &c->map->locs[c->u[f].loc].adj[k];
    if (!(b->types & DJ_TYPE_BIT(DJ_FLEET)))
        return -1;
    int g = c->board.at[c->map->locs[b->to].province];
    return g >= 0 && c->u[g].loc == b->to ? g : -1;
}

static int nborders(const kj_ctx *c, int f)
{
    return c->map->locs[c->u[f].loc].nadj;
}

/* Mark in c->seen the fleets that may carry the army (1), others 0, and
 * list them in c->queue; their number.  When there are none (the usual
 * case), nothing else is touched. */
static int mark_usable(kj_ctx *c, int army, int dest_prov, bool ordered,
                       int without, const bool *lost)
{
    int count = 0;
    int16_t *usable = c->queue;
    for (int k = 0; k < c->board.nsea; k++) {
        int f = c->board.sea[k];
        /* lost[] is only meaningful for fleets that may carry the army. */
        if (f != without && kj_carries(c, f, army, dest_prov, ordered) &&
            !(lost && lost[f]))
            usable[count++] = (int16_t)f;
    }
    if (count == 0)
        return 0;
    memset(c->seen, 0, (size_t)c->n);
    for (int k = 0; k < count; k++)
        c->seen[usable[k]] = 1;
    return count;
}

/* Breadth-first from the army's coast through usable fleets. */
bool kj_route_exists(kj_ctx *c, int army, int dest_prov, bool ordered,
                     int without, const bool *lost)
{
    int from = c->u[army].prov, head = 0, tail = 0;
    int usable = mark_usable(c, army, dest_prov, ordered, without, lost);
    /* The queue starts with those at the army's coast, written over the
     * list of usable fleets behind the one read (tail <= k). */
    for (int k = 0; k < usable; k++) {
        int f = c->queue[k];
        if (touches(c, f, from)) {
            c->seen[f] = 2;
            c->queue[tail++] = (int16_t)f;
        }
    }
    while (head < tail) {
        int f = c->queue[head++];
        if (touches(c, f, dest_prov))
            return true;
        for (int k = 0; k < nborders(c, f); k++) {
            int g = across(c, f, k);
            if (g >= 0 && c->seen[g] == 1) {
                c->seen[g] = 2;
                c->queue[tail++] = (int16_t)g;
            }
        }
    }
    return false;
}

/*
 * Which fleets lie on some route.  Join the army's coast S and the
 * destination T by one more edge: a fleet lies on a chain from S to T
 * using no fleet twice exactly when it lies on a cycle through that edge,
 * that is, in the block (biconnected component) of the graph that holds
 * the edge S-T.  One depth-first search from T (entered from S) finds it:
 * a vertex w starts a block of its own below its parent p when no edge
 * from w's subtree climbs above p (low[w] >= order[p]); every other vertex
 * is in its parent's block.  Vertices are the fleets (unit numbers), S is
 * c->n and T is c->n + 1.
 */
typedef struct dfs {
    int16_t order[DJ_MAX_UNITS + 2];  /* discovery time, -1 not yet */
    int16_t low[DJ_MAX_UNITS + 2];
    int16_t parent[DJ_MAX_UNITS + 2];
    int16_t step[DJ_MAX_UNITS + 2];   /* next neighbour to look at */
    int16_t top[DJ_MAX_UNITS + 2];    /* the vertex that starts its block */
    int16_t seq[DJ_MAX_UNITS + 2];    /* the vertices in discovery order */
} dfs;

/* The next neighbour of v not yet looked at, or -1 when none is left. */
static int next_neighbour(const kj_ctx *c, dfs *d, int v, int from,
                          int dest_prov)
{
    int S = c->n, T = c->n + 1;
    if (v == T) {
        while (d->step[v] < c->board.nsea) {
            int f = c->board.sea[d->step[v]++];
            if (c->seen[f] && touches(c, f, dest_prov))
                return f;
        }
        return -1;
    }
    int nb = nborders(c, v);
    while (d->step[v] < nb + 2) {
        int k = d->step[v]++;
        if (k < nb) {
            int g = across(c, v, k);
            if (g >= 0 && c->seen[g])
                return g;
        } else if (k == nb && touches(c, v, from)) {
            return S;
        } else if (k == nb + 1 && touches(c, v, dest_prov)) {
            return T;
        }
    }
    return -1;
}

void kj_route_fleets(kj_ctx *c, int army, int dest_prov, bool ordered,
                     bool *on_route)
{
    dfs d;
    int S = c->n, T = c->n + 1, from = c->u[army].prov;
    int16_t *stack = c->stack;
    memset(on_route, 0, sizeof(bool) * (size_t)c->n);
    int usable = mark_usable(c, army, dest_prov, ordered, -1, NULL);
    if (usable == 0)
        return;
    if (usable == 1) { /* the usual convoy: one fleet, a route by itself */
        int f = c->queue[0];
        on_route[f] = touches(c, f, from) && touches(c, f, dest_prov);
        return;
    }
    memset(d.order, 0xff, sizeof(int16_t) * (size_t)(T + 1)); /* all -1 */
    d.order[S] = 0;
    d.order[T] = d.low[T] = 1;
    d.parent[T] = (int16_t)S;
    d.step[T] = 0;
    int time = 2, nseq = 0, depth = 0;
    stack[depth++] = (int16_t)T;
    while (depth > 0) {
        int v = stack[depth - 1];
        int w = next_neighbour(c, &d, v, from, dest_prov);
        if (w < 0) {
            depth--;
            int p = d.parent[v];
            if (p != S && d.low[v] < d.low[p])
                d.low[p] = d.low[v];
            continue;
        }
        if (d.order[w] >= 0) {
            if (d.order[w] < d.low[v])
                d.low[v] = d.order[w];
            continue;
        }
        d.order[w] = d.low[w] = (int16_t)time++;
        d.parent[w] = (int16_t)v;
        d.step[w] = 0;
        d.seq[nseq++] = (int16_t)w;
        stack[depth++] = (int16_t)w;
    }
    d.top[T] = (int16_t)T;
    for (int i = 0; i < nseq; i++) {
        int w = d.seq[i], p = d.parent[w];
        d.top[w] = d.low[w] >= d.order[p] ? (int16_t)w : d.top[p];
        on_route[w] = d.top[w] == T;
    }
}

bool kj_on_some_route(kj_ctx *c, int fleet, int army, int dest_prov,
                      bool ordered)
{
    bool on_route[DJ_MAX_UNITS];
    if (!kj_carries(c, fleet, army, dest_prov, ordered))
        return false;
    kj_route_fleets(c, army, dest_prov, ordered, on_route);
    return on_route[fleet];
}
