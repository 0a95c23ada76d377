/* SPDX-License-Identifier: MIT */
/*
 * hard_network.c — large convoy networks for the differential harness
 * (bench/crosscheck.c) and the bench's large-network corpus
 * (bench/bench_adjudicate.c): where the route searches are put to work.
 *
 * From 20 seas to every sea of the board (all of them on a board with
 * fewer) holds a fleet, nearly all ordered to convoy one army, or one of a
 * few, from a coast to another coast; the fleets are of the army's power
 * or of others (4.A.1 a leaves foreign fleets out when the army's own can
 * carry it).  Then fleets of the network are attacked from the coasts
 * around, supported or not: the fleets dislodged may lie on a route or
 * off every route (a dead end of the network), and some fleets of the
 * network join the attacks instead of convoying.
 */
#include "hard.h"

#include <string.h>

#define NET_MAX_ARMIES 3

static int prov_of(const hard_gen *g, int loc)
{
    return dj_province(g->map, loc);
}

/* A coastal province where an army stands and that one of the chosen seas
 * touches, other than `not`; -1 if none. */
static int coast_by(hard_gen *g, const int *seas, int nseas, int not)
{
    for (int tries = 0; tries < 40; tries++) {
        int s = seas[corpus_rng_below(g->rng, nseas)];
        const dj_location *l = &g->map->locs[s];
        int cand[DJ_MAX_ADJ], n = 0;
        for (int k = 0; k < l->nadj; k++) {
            int q = prov_of(g, l->adj[k].to);
            if ((l->adj[k].types & DJ_TYPE_BIT(DJ_FLEET)) && q != not &&
                g->map->locs[q].terrain == DJ_COAST && g->map->locs[q].army_ok)
                cand[n++] = q;
        }
        if (n > 0)
            return cand[corpus_rng_below(g->rng, n)];
    }
    return -1;
}

/* A place next to sea `s` where a fleet may stand, outside `avoid`. */
static int fleet_spot_by(hard_gen *g, int s, const bool *avoid)
{
    const dj_location *l = &g->map->locs[s];
    int cand[DJ_MAX_ADJ], n = 0;
    for (int k = 0; k < l->nadj; k++) {
        int to = l->adj[k].to;
        if ((l->adj[k].types & DJ_TYPE_BIT(DJ_FLEET)) &&
            g->map->locs[to].fleet_ok && !avoid[prov_of(g, to)])
            cand[n++] = to;
    }
    return n ? cand[corpus_rng_below(g->rng, n)] : -1;
}

/* Attack the fleet at sea `s` (power `victim`) from around, with a
 * supporting fleet when there is room; `avoid` keeps the armies' coasts. */
static void attack(hard_gen *g, hard_phase *in, int s, int victim, bool *avoid)
{
    int from = fleet_spot_by(g, s, avoid);
    if (from < 0)
        return;
    int power = (victim + 1 + corpus_rng_below(g->rng, g->map->npowers - 1)) %
                g->map->npowers;
    if (g->map->npowers < 2)
        power = victim;
    /* the attacker may be a fleet of the network itself */
    int x = hard_place(g, in, from, power, DJ_FLEET);
    if (x < 0)
        return;
    avoid[prov_of(g, from)] = true;
    dj_order *o = &in->orders[x];
    *o = dj_order_make(DJ_ORDER_MOVE, power, DJ_FLEET, from);
    o->dest = (int16_t)s;
    if (corpus_rng_below(g->rng, 4) == 0)
        return; /* alone: a bounce, unless the fleet has left */
    for (int k = corpus_rng_below(g->rng, 2); k >= 0; k--) {
        int by = fleet_spot_by(g, s, avoid);
        if (by < 0)
            return;
        int sp = corpus_rng_below(g->rng, 3) ? power
                                             : corpus_rng_below(g->rng, g->map->npowers);
        int y = hard_place(g, in, by, sp, DJ_FLEET);
        if (y < 0)
            return;
        avoid[prov_of(g, by)] = true;
        dj_order *so = &in->orders[y];
        *so = dj_order_make(DJ_ORDER_SUPPORT, sp, DJ_FLEET, by);
        so->target_type = DJ_FLEET;
        so->target = (int16_t)from;
        so->dest = (int16_t)prov_of(g, s);
    }
}

bool hard_convoy_network(hard_gen *g, hard_phase *in, int min_fleets,
                         int max_fleets)
{
    const dj_map *m = g->map;
    int seas[DJ_MAX_LOCS], nseas = 0;
    for (int p = 0; p < m->nlocs; p++)
        if (prov_of(g, p) == p && m->locs[p].convoys && m->locs[p].fleet_ok &&
            m->locs[p].terrain == DJ_WATER)
            seas[nseas++] = p;
    if (nseas < 2)
        return false;
    /* shuffle, then keep the first `want` */
    for (int i = nseas - 1; i > 0; i--) {
        int j = corpus_rng_below(g->rng, i + 1), t = seas[i];
        seas[i] = seas[j];
        seas[j] = t;
    }
    int lo = min_fleets < nseas ? min_fleets : nseas;
    int hi = max_fleets < nseas ? max_fleets : nseas;
    int want = lo + corpus_rng_below(g->rng, hi - lo + 1);

    bool avoid[DJ_MAX_LOCS];
    memset(avoid, 0, sizeof(bool) * (size_t)m->nlocs);
    int armies[NET_MAX_ARMIES], dests[NET_MAX_ARMIES], na = 0;
    int nwant = 1;
    if (corpus_rng_below(g->rng, 3) == 0)
        nwant += corpus_rng_below(g->rng, NET_MAX_ARMIES);
    for (int k = 0; k < nwant; k++) {
        int from = coast_by(g, seas, want, -1);
        if (from < 0 || avoid[from])
            continue;
        int to = coast_by(g, seas, want, from);
        if (to < 0)
            continue;
        int power = corpus_rng_below(g->rng, m->npowers);
        int a = hard_place(g, in, from, power, DJ_ARMY);
        if (a < 0)
            continue;
        avoid[from] = avoid[to] = true;
        armies[na] = a;
        dests[na++] = to;
    }
    if (na == 0)
        return false;
    for (int i = 0; i < want; i++) {
        int k = corpus_rng_below(g->rng, na);
        const dj_unit *army = &in->pos.units[armies[k]];
        int power = corpus_rng_below(g->rng, 2)
                        ? army->power
                        : corpus_rng_below(g->rng, m->npowers);
        int f = hard_place(g, in, seas[i], power, DJ_FLEET);
        if (f < 0)
            break;
        if (corpus_rng_below(g->rng, 12) == 0)
            continue; /* a hole in the network: it holds */
        dj_order *o = &in->orders[f];
        *o = dj_order_make(DJ_ORDER_CONVOY, power, DJ_FLEET, seas[i]);
        o->target_type = DJ_ARMY;
        o->target = army->loc;
        o->dest = (int16_t)dests[k];
    }
    for (int k = 0; k < na; k++) {
        const dj_unit *army = &in->pos.units[armies[k]];
        dj_order *o = &in->orders[armies[k]];
        *o = dj_order_make(DJ_ORDER_MOVE, army->power, DJ_ARMY, army->loc);
        o->dest = (int16_t)dests[k];
        o->via_convoy = dj_map_reaches_province(m, army->loc, dests[k], DJ_ARMY)
                            ? corpus_rng_below(g->rng, 4) != 0
                            : corpus_rng_below(g->rng, 3) == 0;
    }
    /* Dislodgements, on and off the routes. */
    for (int k = corpus_rng_below(g->rng, 5); k > 0; k--) {
        int s = seas[corpus_rng_below(g->rng, want)];
        int v = dj_position_unit_at(m, &in->pos, s);
        if (v >= 0)
            attack(g, in, s, in->pos.units[v].power, avoid);
    }
    return true;
}
