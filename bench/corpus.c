/* SPDX-License-Identifier: MIT */
/*
 * corpus.c — the random movement-phase corpus of corpus.h.
 *
 * Any change here changes the bench's checksum: keep the sequence of
 * random draws as it is unless a new corpus is wanted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"

uint64_t corpus_rng_next(corpus_rng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * UINT64_C(0x2545F4914F6CDD1D);
}

/* Uniform enough in [0, n) for n far below 2^32. */
int corpus_rng_below(corpus_rng *r, int n)
{
    return (int)((corpus_rng_next(r) >> 32) % (uint64_t)n);
}

void *corpus_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "corpus: out of memory\n");
        exit(1);
    }
    return p;
}

static void board_init(corpus_board *b, const dj_map *map)
{
    b->map = map;
    b->provs = corpus_xcalloc((size_t)map->nlocs, sizeof *b->provs);
    b->place_start = corpus_xcalloc((size_t)map->nlocs, sizeof *b->place_start);
    b->place_count = corpus_xcalloc((size_t)map->nlocs, sizeof *b->place_count);
    b->places = corpus_xcalloc((size_t)map->nlocs * 2, sizeof *b->places);
    int nplaces = 0;
    b->nprovs = 0;
    for (int p = 0; p < map->nlocs; p++) {
        if (dj_province(map, p) != p)
            continue;
        int first = nplaces;
        for (int l = 0; l < map->nlocs; l++) {
            const dj_location *loc = &map->locs[l];
            if (loc->province != p)
                continue;
            if (loc->army_ok)
                b->places[nplaces++] = (dj_unit){-1, (int16_t)l, DJ_ARMY};
            if (loc->fleet_ok)
                b->places[nplaces++] = (dj_unit){-1, (int16_t)l, DJ_FLEET};
        }
        if (nplaces > first) {
            b->place_start[b->nprovs] = first;
            b->place_count[b->nprovs] = nplaces - first;
            b->provs[b->nprovs++] = p;
        }
    }
}

static void board_free(corpus_board *b)
{
    free(b->provs);
    free(b->place_start);
    free(b->place_count);
    free(b->places);
}

static int unit_at(const corpus_gen *g, int prov)
{
    return g->occupant[prov];
}

static bool at_sea(const dj_map *map, const dj_unit *u)
{
    return u->type == DJ_FLEET && map->locs[u->loc].terrain == DJ_WATER;
}

/* A random province the fleet at `floc` touches where an army may land,
 * other than `not_prov`; -1 if none. */
static int convoy_destination(corpus_gen *g, int floc, int not_prov)
{
    const dj_map *map = g->board.map;
    const dj_location *f = &map->locs[floc];
    int cand[DJ_MAX_ADJ], n = 0;
    for (int i = 0; i < f->nadj; i++) {
        if (!(f->adj[i].types & DJ_TYPE_BIT(DJ_FLEET)))
            continue;
        int q = dj_province(map, f->adj[i].to);
        if (q != not_prov && map->locs[q].army_ok)
            cand[n++] = q;
    }
    return n ? cand[corpus_rng_below(&g->r, n)] : -1;
}

/* Give one free pair, a fleet at sea and an army on a coast it touches, a
 * convoy to a coastal province the fleet touches; false if none is left. */
static bool make_convoy(corpus_gen *g, corpus_phase *ph, corpus_plan *plans)
{
    const dj_map *map = g->board.map;
    int pairs[CORPUS_MAX_UNITS * CORPUS_MAX_UNITS][2], npairs = 0;

    for (int f = 0; f < ph->nunits; f++) {
        if (plans[f] != CORPUS_UNDECIDED || !at_sea(map, &ph->units[f]))
            continue;
        for (int a = 0; a < ph->nunits; a++) {
            const dj_unit *army = &ph->units[a];
            if (plans[a] == CORPUS_UNDECIDED && army->type == DJ_ARMY &&
                dj_map_reaches_province(map, ph->units[f].loc,
                                        dj_province(map, army->loc),
                                        DJ_FLEET)) {
                pairs[npairs][0] = f;
                pairs[npairs][1] = a;
                npairs++;
            }
        }
    }
    while (npairs > 0) {
        int k = corpus_rng_below(&g->r, npairs);
        int fleet = pairs[k][0], army = pairs[k][1];
        const dj_unit *f = &ph->units[fleet], *a = &ph->units[army];
        int dest = convoy_destination(g, f->loc, dj_province(map, a->loc));
        if (dest < 0) {
            pairs[k][0] = pairs[npairs - 1][0];
            pairs[k][1] = pairs[npairs - 1][1];
            npairs--;
            continue;
        }

        dj_order *fo = &ph->orders[fleet];
        *fo = dj_order_make(DJ_ORDER_CONVOY, f->power, DJ_FLEET, f->loc);
        fo->target_type = DJ_ARMY;
        fo->target = a->loc;
        fo->dest = (int16_t)dest;

        dj_order *ao = &ph->orders[army];
        *ao = dj_order_make(DJ_ORDER_MOVE, a->power, DJ_ARMY, a->loc);
        ao->dest = (int16_t)dest;
        /* Next door by land too: say that the convoy is meant (4.A.3). */
        ao->via_convoy = dj_map_adjacent(map, a->loc, dest, DJ_ARMY);

        plans[fleet] = CORPUS_CONVOY;
        plans[army] = CORPUS_CONVOYED;
        return true;
    }
    return false;
}

static void make_hold(corpus_phase *ph, corpus_plan *plans, int i)
{
    const dj_unit *u = &ph->units[i];
    ph->orders[i] = dj_order_make(DJ_ORDER_HOLD, u->power, u->type, u->loc);
    plans[i] = CORPUS_HOLD;
}

static void make_move(corpus_gen *g, corpus_phase *ph, corpus_plan *plans,
                      int i)
{
    const dj_unit *u = &ph->units[i];
    const dj_location *l = &g->board.map->locs[u->loc];
    int cand[DJ_MAX_ADJ], n = 0;
    for (int k = 0; k < l->nadj; k++)
        if (l->adj[k].types & DJ_TYPE_BIT(u->type))
            cand[n++] = l->adj[k].to;
    if (n == 0) {
        make_hold(ph, plans, i);
        return;
    }
    dj_order *o = &ph->orders[i];
    *o = dj_order_make(DJ_ORDER_MOVE, u->power, u->type, u->loc);
    o->dest = (int16_t)cand[corpus_rng_below(&g->r, n)];
    plans[i] = CORPUS_MOVE;
}

/* A move the unit cannot make, or a support of a unit that is not there. */
static void make_illegal(corpus_gen *g, corpus_phase *ph, corpus_plan *plans,
                         int i)
{
    const dj_map *map = g->board.map;
    const dj_unit *u = &ph->units[i];
    int here = dj_province(map, u->loc);
    dj_order *o = &ph->orders[i];

    if (corpus_rng_below(&g->r, 2) == 0) {
        for (int tries = 0; tries < 32; tries++) {
            int to = corpus_rng_below(&g->r, map->nlocs);
            int q = dj_province(map, to);
            if (q == here || dj_map_reaches_province(map, u->loc, q, u->type))
                continue;
            *o = dj_order_make(DJ_ORDER_MOVE, u->power, u->type, u->loc);
            o->dest = (int16_t)to;
            plans[i] = CORPUS_ILLEGAL;
            return;
        }
    } else {
        for (int tries = 0; tries < 32; tries++) {
            int q = g->board.provs[corpus_rng_below(&g->r, g->board.nprovs)];
            if (q == here || unit_at(g, q) >= 0)
                continue;
            *o = dj_order_make(DJ_ORDER_SUPPORT, u->power, u->type, u->loc);
            o->target_type = map->locs[q].army_ok ? DJ_ARMY : DJ_FLEET;
            o->target = (int16_t)q;
            plans[i] = CORPUS_ILLEGAL;
            return;
        }
    }
    make_hold(ph, plans, i);
}

/* Support of a neighbour's actual order; false if no neighbour fits. */
static bool make_support(corpus_gen *g, corpus_phase *ph, corpus_plan *plans,
                         int i)
{
    const dj_map *map = g->board.map;
    const dj_unit *u = &ph->units[i];
    int here = dj_province(map, u->loc);
    int cand[CORPUS_MAX_UNITS], n = 0;

    for (int j = 0; j < ph->nunits; j++) {
        if (j == i || plans[j] == CORPUS_ILLEGAL)
            continue;
        const dj_order *oj = &ph->orders[j];
        if (plans[j] == CORPUS_MOVE || plans[j] == CORPUS_CONVOYED) {
            int q = dj_province(map, oj->dest);
            if (q != here && dj_map_reaches_province(map, u->loc, q, u->type))
                cand[n++] = j;
        } else if (dj_map_reaches_province(map, u->loc,
                                           dj_province(map, ph->units[j].loc),
                                           u->type)) {
            cand[n++] = j; /* holds, supports or convoys: it stays */
        }
    }
    if (n == 0)
        return false;
    int j = cand[corpus_rng_below(&g->r, n)];
    dj_order *o = &ph->orders[i];
    *o = dj_order_make(DJ_ORDER_SUPPORT, u->power, u->type, u->loc);
    o->target_type = ph->units[j].type;
    o->target = ph->units[j].loc;
    if (plans[j] == CORPUS_MOVE || plans[j] == CORPUS_CONVOYED) {
        o->dest = (int16_t)dj_province(map, ph->orders[j].dest);
        g->support_moves++;
    } else {
        g->support_holds++;
    }
    plans[i] = CORPUS_SUPPORT;
    return true;
}

void corpus_generate(corpus_gen *g, corpus_phase *ph)
{
    const corpus_board *b = &g->board;
    const dj_map *map = b->map;
    int n = CORPUS_MIN_UNITS +
            corpus_rng_below(&g->r, CORPUS_MAX_UNITS - CORPUS_MIN_UNITS + 1);
    if (n > b->nprovs)
        n = b->nprovs;

    ph->phase.season = corpus_rng_below(&g->r, 2) ? DJ_FALL : DJ_SPRING;
    ph->phase.year = map->start_year + corpus_rng_below(&g->r, 10);
    ph->phase.type = DJ_MOVEMENT;
    ph->nunits = n;

    /* Distinct provinces: the first n of a partial Fisher-Yates shuffle. */
    for (int k = 0; k < b->nprovs; k++)
        g->shuffle[k] = k;
    for (int k = 0; k < n; k++) {
        int s = k + corpus_rng_below(&g->r, b->nprovs - k);
        int t = g->shuffle[k];
        g->shuffle[k] = g->shuffle[s];
        g->shuffle[s] = t;
        int pi = g->shuffle[k];
        dj_unit u = b->places[b->place_start[pi] +
                              corpus_rng_below(&g->r, b->place_count[pi])];
        u.power = (int16_t)corpus_rng_below(&g->r, map->npowers);
        ph->units[k] = u;
        g->occupant[b->provs[pi]] = (int16_t)k;
    }

    corpus_plan plans[CORPUS_MAX_UNITS];
    for (int k = 0; k < n; k++)
        plans[k] = CORPUS_UNDECIDED;

    /* Convoys first, where pairs exist: about 5% of the orders, two to a
     * pair. */
    int want_pairs = (n * 5 + corpus_rng_below(&g->r, 200)) / 200;
    for (int k = 0; k < want_pairs; k++)
        if (!make_convoy(g, ph, plans))
            break;

    /* The others: hold 35, move 35, support 20, illegal 5 (out of 95).
     * Supports come last, so that they see the orders they support. */
    corpus_plan rolled[CORPUS_MAX_UNITS];
    for (int k = 0; k < n; k++) {
        int r = corpus_rng_below(&g->r, 95);
        rolled[k] = r < 35   ? CORPUS_HOLD
                    : r < 70 ? CORPUS_MOVE
                    : r < 90 ? CORPUS_SUPPORT
                             : CORPUS_ILLEGAL;
    }
    for (int k = 0; k < n; k++) {
        if (plans[k] != CORPUS_UNDECIDED)
            continue;
        if (rolled[k] == CORPUS_HOLD)
            make_hold(ph, plans, k);
        else if (rolled[k] == CORPUS_MOVE)
            make_move(g, ph, plans, k);
        else if (rolled[k] == CORPUS_ILLEGAL)
            make_illegal(g, ph, plans, k);
    }
    int missed = 0;
    for (int k = 0; k < n; k++)
        if (plans[k] == CORPUS_UNDECIDED && !make_support(g, ph, plans, k)) {
            make_hold(ph, plans, k);
            missed++;
        }
    /* A support with no neighbour to support became a hold: make up for it
     * with holds that do have one, to keep the mix. */
    for (int k = 0, start = corpus_rng_below(&g->r, n); k < n && missed > 0;
         k++) {
        int i = (start + k) % n;
        if (plans[i] == CORPUS_HOLD && make_support(g, ph, plans, i))
            missed--;
    }

    for (int k = 0; k < n; k++) {
        g->counts[plans[k]]++;
        g->occupant[dj_province(map, ph->units[k].loc)] = -1;
    }
}

void corpus_init(corpus_gen *g, const dj_map *map, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    board_init(&g->board, map);
    g->r.s = seed;
    g->occupant = corpus_xcalloc((size_t)map->nlocs, sizeof *g->occupant);
    g->shuffle = corpus_xcalloc((size_t)map->nlocs, sizeof *g->shuffle);
    for (int l = 0; l < map->nlocs; l++)
        g->occupant[l] = -1;
}

void corpus_free(corpus_gen *g)
{
    free(g->occupant);
    free(g->shuffle);
    board_free(&g->board);
}
