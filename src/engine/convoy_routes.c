/* SPDX-License-Identifier: MIT */
/*
 * convoy_routes.c — convoy routes for the DPjudge engine, as searches in
 * the graph of the fleets that may carry an army.
 *
 * No path is ever required from the player (4.A.6 a): a route is any chain
 * of fleets at sea, each bordering the next, from the army's coast to its
 * destination's coast, no fleet used twice.  "Ordered" routes use only
 * fleets whose convoy order matches the army's move.  Two questions are
 * asked, and each is answered by breadth-first searches with a visited
 * set, in time linear in the fleets and the borders between them:
 *
 *   - Is there a route at all?  One search from the army's coast.
 *   - Does fleet v lie on SOME route?  Only if two chains leave v that
 *     share no fleet, one reaching the army's coast and one the
 *     destination: two disjoint chains, found as a flow of two units from
 *     v in the graph where every other fleet may be used once (each fleet
 *     split into an entry and an exit joined by one unit of capacity), the
 *     two coasts each taking one unit.  Two augmenting searches decide it.
 *
 * Written apart from the Kruijswijk engine's kruijswijk_routes.c, which
 * answers the second question another way (the block of the graph that
 * holds both coasts), so that the cross-check compares two independent
 * pieces of code.  Borders between convoying places are read as two-way:
 * every shipped map lists them both ways (tests/unit/test_map checks it).
 *
 * Disruption (4.A.1) is answered from these searches: with b (the
 * default) a convoy is disrupted only when no ordered route is left
 * without a dislodged fleet; with a, when a dislodged fleet lies on some
 * ordered route.
 */
#include "movement.h"

#include <string.h>

/*
 * 4.A.6 b/c: when the army's order names its route, only fleets in the
 * provinces named may carry it.  Under a (the default) a route is ignored.
 */
static bool on_written_route(const mv_ctx *c, int f, int army)
{
    const dj_order *o = c->u[army].written;
    if (!o || o->npath <= 0 || dj_rule(c->rules, DJ_RULE_CONVOY_PATH) == 'a')
        return true;
    for (int i = 0; i < o->npath && i < DJ_MAX_PATH; i++)
        if (o->path[i] >= 0 && o->path[i] < c->map->nlocs &&
            dj_province(c->map, o->path[i]) == c->u[f].prov)
            return true;
    return false;
}

bool mv_sea_carrier(const mv_ctx *c, int f, int army, int dest_prov,
                    bool ordered_only, int exclude)
{
    const mv_unit *u = &c->u[f];
    if (f == exclude)
        return false;
    if (!ordered_only)
        return true;
    return u->kind == MV_CONVOY && u->mark != MK_VOID && u->target == army &&
           u->target_dest == dest_prov && on_written_route(c, f, army);
}

bool mv_carrier(const mv_ctx *c, int f, int army, int dest_prov,
                bool ordered_only, int exclude)
{
    const mv_unit *u = &c->u[f];
    return u->type == DJ_FLEET && c->map->locs[u->loc].convoys &&
           mv_sea_carrier(c, f, army, dest_prov, ordered_only, exclude);
}

/* ---- the graph of carriers ---------------------------------------------- */

/* The fleets that may carry one army (nodes 0..n-1), and which of them
 * border its coast (start) or, when asked, its destination (end). */
typedef struct carriers {
    int n;
    int16_t unit[DJ_MAX_UNITS];    /* node -> unit */
    int16_t node[DJ_MAX_UNITS];    /* unit -> node, -1 */
    bool start[DJ_MAX_UNITS];
    bool end[DJ_MAX_UNITS];
} carriers;

static void gather(const mv_ctx *c, carriers *g, int army, int dest_prov,
                   bool ordered_only, int exclude, const bool *broken,
                   bool ends)
{
    g->n = 0;
    for (int k = 0; k < c->board.nsea; k++) {
        int f = c->board.sea[k];
        if (mv_sea_carrier(c, f, army, dest_prov, ordered_only, exclude) &&
            !(broken && broken[f]))
            g->unit[g->n++] = (int16_t)f;
    }
    if (g->n == 0)
        return; /* the usual case: nothing to search (node[] unused) */
    memset(g->node, 0xff, sizeof(int16_t) * (size_t)c->nunits); /* all -1 */
    for (int x = 0; x < g->n; x++) {
        int loc = c->u[g->unit[x]].loc;
        g->node[g->unit[x]] = (int16_t)x;
        g->start[x] = dj_map_reaches_province(c->map, loc, c->u[army].prov,
                                              DJ_FLEET);
        g->end[x] = ends && dj_map_reaches_province(c->map, loc, dest_prov,
                                                     DJ_FLEET);
    }
}

/* The k-th border of node x's place, as a node of g, or -1. */
static int border(const mv_ctx *c, const carriers *g, int x, int k)
{
    const dj_location *l = &c->map->locs[c->u[g->unit[x]].loc];
    if (!(l->adj[k].types & DJ_TYPE_BIT(DJ_FLEET)))
        return -1;
    int to = l->adj[k].to;
    int other = c->board.at[c->map->locs[to].province];
    if (other < 0 || g->node[other] < 0 || c->u[other].loc != to)
        return -1;
    return g->node[other];
}

static int borders(const mv_ctx *c, const carriers *g, int x)
{
    return c->map->locs[c->u[g->unit[x]].loc].nadj;
}

/* ---- is there a route? -------------------------------------------------- */

static bool search_route(const mv_ctx *c, int army, int dest_prov,
                         bool ordered_only, int exclude, const bool *broken)
{
    carriers g;
    int16_t queue[DJ_MAX_UNITS];
    bool seen[DJ_MAX_UNITS];
    int head = 0, tail = 0;

    gather(c, &g, army, dest_prov, ordered_only, exclude, broken, false);
    for (int x = 0; x < g.n; x++) {
        seen[x] = g.start[x];
        if (seen[x])
            queue[tail++] = (int16_t)x;
    }
    while (head < tail) {
        int x = queue[head++];
        if (dj_map_reaches_province(c->map, c->u[g.unit[x]].loc, dest_prov,
                                    DJ_FLEET))
            return true;
        for (int k = 0; k < borders(c, &g, x); k++) {
            int y = border(c, &g, x, k);
            if (y >= 0 && !seen[y]) {
                seen[y] = true;
                queue[tail++] = (int16_t)y;
            }
        }
    }
    return false;
}

bool mv_fleet_path_exists(const mv_ctx *c, int army, int dest_prov,
                          bool ordered_only, int exclude_unit)
{
    return search_route(c, army, dest_prov, ordered_only, exclude_unit, NULL);
}

bool mv_convoy_route_ok(const mv_ctx *c, int army, const bool *broken)
{
    return search_route(c, army, c->u[army].dest_prov, true, -1, broken);
}

/* ---- does fleet v lie on some route? ------------------------------------ */

/*
 * The flow network: node x of g is split into IN(x) and OUT(x), joined by
 * one unit of capacity (the fleet is used once); a border x-y gives arcs
 * OUT(x)->IN(y) and OUT(y)->IN(x); a fleet at the start has an arc to
 * START, one at the end an arc to END, and START and END each pass one
 * unit to the sink.  Flow leaves from OUT(v).  Every node but OUT(v)
 * sends at most one unit, so the flow is kept as "where each node sends"
 * (sends[], two slots for OUT(v)) and "who sends to it" (from[]).
 */
#define IN(x) (2 * (x))
#define OUT(x) (2 * (x) + 1)
#define START(n) (2 * (n))
#define END(n) (2 * (n) + 1)
#define SINK(n) (2 * (n) + 2)
#define NODES (2 * DJ_MAX_UNITS + 3)

typedef struct flow {
    const mv_ctx *c;
    const carriers *g;
    int v;
    int16_t sends[NODES];  /* OUT(x), START, END: where its unit goes, -1 */
    int16_t sends2;        /* OUT(v)'s second unit */
    int16_t from[NODES];   /* IN(x), START, END: who sends to it, -1 */
    bool through[DJ_MAX_UNITS]; /* IN(x)->OUT(x) carries a unit */
    /* the search: how each node was reached (-1: not yet), and whether
     * along an arc (forward) or back against a unit (backward) */
    int16_t parent[NODES];
    bool backward[NODES];
    int16_t queue[NODES];
} flow;

static bool saturated(const flow *w, int a, int b)
{
    return w->sends[a] == b || (a == OUT(w->v) && w->sends2 == b);
}

/* Reach b from a in the residual graph, unless already reached. */
static void reach(flow *w, int a, int b, bool backward, int *tail)
{
    if (w->parent[b] != -1)
        return;
    w->parent[b] = (int16_t)a;
    w->backward[b] = backward;
    w->queue[(*tail)++] = (int16_t)b;
}

/* The residual arcs out of node a. */
static void expand(flow *w, int a, int *tail)
{
    const carriers *g = w->g;
    int n = g->n;
    if (a == START(n) || a == END(n) || a % 2 == 0) {
        /* START, END or IN(x): on, or back against the unit it got */
        if (a == START(n) || a == END(n)) {
            if (w->sends[a] < 0)
                reach(w, a, SINK(n), false, tail);
        } else if (!w->through[a / 2] && a / 2 != w->v) {
            reach(w, a, a + 1, false, tail);
        }
        if (w->from[a] >= 0)
            reach(w, a, w->from[a], true, tail);
        return;
    }
    int x = a / 2;
    if (w->through[x])
        reach(w, a, IN(x), true, tail);
    if (g->start[x] && !saturated(w, a, START(n)))
        reach(w, a, START(n), false, tail);
    if (g->end[x] && !saturated(w, a, END(n)))
        reach(w, a, END(n), false, tail);
    for (int k = 0; k < borders(w->c, g, x); k++) {
        int y = border(w->c, g, x, k);
        if (y >= 0 && !saturated(w, a, IN(y)))
            reach(w, a, IN(y), false, tail);
    }
}

/* Add arc a->b of an augmenting path to the flow, or (backward) take
 * away the unit b sends to a.  Applied from the source on, so a node's
 * old unit is taken away before its new one is sent. */
static void push(flow *w, int a, int b, bool backward)
{
    int n = w->g->n;
    bool split = a < START(n) && b < START(n) && a / 2 == b / 2;
    if (split) {
        w->through[a / 2] = !backward;
    } else if (backward) {
        w->sends[b] = -1; /* b is never OUT(v): the search starts there */
        if (w->from[a] == b)
            w->from[a] = -1;
    } else {
        if (a == OUT(w->v) && w->sends[a] >= 0)
            w->sends2 = (int16_t)b;
        else
            w->sends[a] = (int16_t)b;
        if (b != SINK(n))
            w->from[b] = (int16_t)a;
    }
}

/* One augmenting search from OUT(v); true when a unit reached the sink. */
static bool augment(flow *w)
{
    int n = w->g->n, head = 0, tail = 0, len = 0;
    int16_t path[NODES];
    for (int i = 0; i <= SINK(n); i++)
        w->parent[i] = -1;
    w->parent[OUT(w->v)] = (int16_t)OUT(w->v);
    w->queue[tail++] = (int16_t)OUT(w->v);
    while (head < tail && w->parent[SINK(n)] == -1)
        expand(w, w->queue[head++], &tail);
    if (w->parent[SINK(n)] == -1)
        return false;
    for (int b = SINK(n); b != OUT(w->v); b = w->parent[b])
        path[len++] = (int16_t)b;
    for (int a = OUT(w->v); len > 0; len--) {
        int b = path[len - 1];
        push(w, a, b, w->backward[b]);
        a = b;
    }
    return true;
}

/* Does node v of g lie on a route: two chains from it, sharing no fleet,
 * one to each coast? */
static bool node_on_route(const mv_ctx *c, const carriers *g, int v)
{
    flow w;
    w.c = c;
    w.g = g;
    w.v = v;
    w.sends2 = -1;
    for (int i = 0; i <= SINK(g->n); i++)
        w.sends[i] = w.from[i] = -1;
    memset(w.through, 0, sizeof(bool) * (size_t)g->n);
    return augment(&w) && augment(&w);
}

bool mv_fleet_on_route(const mv_ctx *c, int fleet, int army, int dest,
                       bool ordered_only)
{
    carriers g;
    if (!mv_carrier(c, fleet, army, dest, ordered_only, -1))
        return false;
    gather(c, &g, army, dest, ordered_only, -1, NULL, true);
    return g.n > 0 && g.node[fleet] >= 0 &&
           node_on_route(c, &g, g.node[fleet]);
}

void mv_fleets_on_route(const mv_ctx *c, int army, int dest,
                        bool ordered_only, bool *on_route)
{
    carriers g;
    gather(c, &g, army, dest, ordered_only, -1, NULL, true);
    memset(on_route, 0, sizeof(bool) * (size_t)c->nunits);
    for (int x = 0; x < g.n; x++) {
        int f = g.unit[x];
        on_route[f] =
            mv_carrier(c, f, army, dest, ordered_only, -1) &&
            (g.n == 1 ? g.start[0] && g.end[0] /* alone */
                      : node_on_route(c, &g, x));
    }
}

/* ---- disruption (4.A.1) -------------------------------------------------- */

/*
 * Is army a's convoy broken when the fleets in `broken` fail?  4.A.1 b: only
 * if no route is left.  4.A.1 a: if any fleet of the convoy fails, where the
 * convoy leaves out foreign fleets when the army's own power can carry it
 * alone (the DPTG's reading, 6.F.10).
 */
bool mv_convoy_broken(const mv_ctx *c, int a, const bool *broken)
{
    if (dj_rule(c->rules, DJ_RULE_MULTI_ROUTE_DISRUPTION) != 'a')
        return !mv_convoy_route_ok(c, a, broken);
    bool foreign[DJ_MAX_UNITS];
    for (int f = 0; f < c->nunits; f++)
        foreign[f] = c->u[f].power != c->u[a].power;
    bool own_only = mv_convoy_route_ok(c, a, foreign);
    bool any = false;
    for (int f = 0; f < c->nunits && !any; f++)
        any = broken[f] && !(own_only && foreign[f]) &&
              mv_carrier(c, f, a, c->u[a].dest_prov, true, -1);
    if (!any)
        return false;
    bool on_route[DJ_MAX_UNITS];
    mv_fleets_on_route(c, a, c->u[a].dest_prov, true, on_route);
    for (int f = 0; f < c->nunits; f++)
        if (broken[f] && !(own_only && foreign[f]) && on_route[f])
            return true;
    return false;
}
