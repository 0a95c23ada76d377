/*
 * bench_adjudicate.c — how fast does the engine adjudicate movement phases?
 *
 * Usage: bench_adjudicate MAP [PHASES [ROUNDS]]   (`make bench`)
 *
 * The corpus is generated, not recorded: a fixed-seed xorshift generator
 * places 20-34 units of random powers on distinct random provinces (armies
 * where armies may stand, fleets where fleets may stand, coasts included)
 * and gives every unit an order drawn from a realistic mix:
 *
 *   ~35% hold
 *   ~35% move to an adjacent location (the exact coast for fleets)
 *   ~20% support, of a neighbouring unit's actual order: a support to move
 *        when that unit moves to a province the supporter reaches, else a
 *        support to hold, so the supports are real ones
 *   ~5%  convoy: a fleet at sea convoys an adjacent coastal army to a
 *        coastal province the fleet touches, and the army is ordered there
 *        (only where such a pair exists: the figure printed is the real one)
 *   ~5%  illegal: a move to a location the unit cannot reach, or a support
 *        of a unit that does not exist
 *
 * Then the whole corpus is adjudicated ROUNDS times; the best round gives
 * phases per second on one core and the mean time per phase.  A checksum
 * of the results (orders that succeeded, units dislodged, a hash of every
 * result) makes runs comparable between builds.  This is a benchmark, not
 * a test: the target (100,000 phases/s) is printed beside the figure and
 * nothing fails on it.
 *
 * Only the engine's public API is used: the bench is a client like any other.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "engine/adjudicate.h"

#define DEFAULT_PHASES 10000
#define DEFAULT_ROUNDS 5
#define MIN_UNITS 20
#define MAX_UNITS 34
#define SEED UINT64_C(0x5eed0f0d1901)
#define TARGET_PHASES_PER_SEC 100000.0

/* ---- the generator ------------------------------------------------------ */

/* xorshift64*: small, fast, and the same sequence on every machine. */
typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rng_next(rng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * UINT64_C(0x2545F4914F6CDD1D);
}

/* Uniform enough in [0, n) for n far below 2^32. */
static int rng_below(rng *r, int n)
{
    return (int)((rng_next(r) >> 32) % (uint64_t)n);
}

/* One phase of the corpus: units and their orders, parallel. */
typedef struct bench_phase {
    dj_phase phase;
    int nunits;
    dj_unit units[MAX_UNITS];
    dj_order orders[MAX_UNITS];
} bench_phase;

/* What a unit was given; counted for the printed mix. */
typedef enum {
    PLAN_HOLD,
    PLAN_MOVE,
    PLAN_SUPPORT,
    PLAN_CONVOY,   /* the fleet of a convoy pair */
    PLAN_CONVOYED, /* the army of a convoy pair */
    PLAN_ILLEGAL,
    PLAN_UNDECIDED,
    PLAN_COUNT
} plan;

/* The board as the generator sees it, computed once from the map. */
typedef struct board {
    const dj_map *map;
    int nprovs;
    int *provs;       /* base locations where some unit may stand */
    int *place_start; /* per entry of provs: first placement */
    int *place_count; /* per entry of provs: number of placements */
    dj_unit *places;  /* (type, loc) a unit may take; power unused */
} board;

/* Everything a phase is built from: scratch arrays sized to the map. */
typedef struct gen {
    board *b;
    rng r;
    int16_t *occupant; /* per location: unit index in the phase, -1 */
    int *shuffle;      /* province order */
    long counts[PLAN_COUNT];
    long support_moves, support_holds;
} gen;

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "bench_adjudicate: out of memory\n");
        exit(1);
    }
    return p;
}

static void board_init(board *b, const dj_map *map)
{
    b->map = map;
    b->provs = xcalloc((size_t)map->nlocs, sizeof *b->provs);
    b->place_start = xcalloc((size_t)map->nlocs, sizeof *b->place_start);
    b->place_count = xcalloc((size_t)map->nlocs, sizeof *b->place_count);
    b->places = xcalloc((size_t)map->nlocs * 2, sizeof *b->places);
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

static void board_free(board *b)
{
    free(b->provs);
    free(b->place_start);
    free(b->place_count);
    free(b->places);
}

static int unit_at(const gen *g, int prov)
{
    return g->occupant[prov];
}

static bool at_sea(const dj_map *map, const dj_unit *u)
{
    return u->type == DJ_FLEET && map->locs[u->loc].terrain == DJ_WATER;
}

/* A random province the fleet at `floc` touches where an army may land,
 * other than `not_prov`; -1 if none. */
static int convoy_destination(gen *g, int floc, int not_prov)
{
    const dj_map *map = g->b->map;
    const dj_location *f = &map->locs[floc];
    int cand[DJ_MAX_ADJ], n = 0;
    for (int i = 0; i < f->nadj; i++) {
        if (!(f->adj[i].types & DJ_TYPE_BIT(DJ_FLEET)))
            continue;
        int q = dj_province(map, f->adj[i].to);
        if (q != not_prov && map->locs[q].army_ok)
            cand[n++] = q;
    }
    return n ? cand[rng_below(&g->r, n)] : -1;
}

/* Give one free pair, a fleet at sea and an army on a coast it touches, a
 * convoy to a coastal province the fleet touches; false if none is left. */
static bool make_convoy(gen *g, bench_phase *ph, plan *plans)
{
    const dj_map *map = g->b->map;
    int pairs[MAX_UNITS * MAX_UNITS][2], npairs = 0;

    for (int f = 0; f < ph->nunits; f++) {
        if (plans[f] != PLAN_UNDECIDED || !at_sea(map, &ph->units[f]))
            continue;
        for (int a = 0; a < ph->nunits; a++) {
            const dj_unit *army = &ph->units[a];
            if (plans[a] == PLAN_UNDECIDED && army->type == DJ_ARMY &&
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
        int k = rng_below(&g->r, npairs);
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

        plans[fleet] = PLAN_CONVOY;
        plans[army] = PLAN_CONVOYED;
        return true;
    }
    return false;
}

static void make_hold(bench_phase *ph, plan *plans, int i)
{
    const dj_unit *u = &ph->units[i];
    ph->orders[i] = dj_order_make(DJ_ORDER_HOLD, u->power, u->type, u->loc);
    plans[i] = PLAN_HOLD;
}

static void make_move(gen *g, bench_phase *ph, plan *plans, int i)
{
    const dj_unit *u = &ph->units[i];
    const dj_location *l = &g->b->map->locs[u->loc];
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
    o->dest = (int16_t)cand[rng_below(&g->r, n)];
    plans[i] = PLAN_MOVE;
}

/* A move the unit cannot make, or a support of a unit that is not there. */
static void make_illegal(gen *g, bench_phase *ph, plan *plans, int i)
{
    const dj_map *map = g->b->map;
    const dj_unit *u = &ph->units[i];
    int here = dj_province(map, u->loc);
    dj_order *o = &ph->orders[i];

    if (rng_below(&g->r, 2) == 0) {
        for (int tries = 0; tries < 32; tries++) {
            int to = rng_below(&g->r, map->nlocs);
            int q = dj_province(map, to);
            if (q == here || dj_map_reaches_province(map, u->loc, q, u->type))
                continue;
            *o = dj_order_make(DJ_ORDER_MOVE, u->power, u->type, u->loc);
            o->dest = (int16_t)to;
            plans[i] = PLAN_ILLEGAL;
            return;
        }
    } else {
        for (int tries = 0; tries < 32; tries++) {
            int q = g->b->provs[rng_below(&g->r, g->b->nprovs)];
            if (q == here || unit_at(g, q) >= 0)
                continue;
            *o = dj_order_make(DJ_ORDER_SUPPORT, u->power, u->type, u->loc);
            o->target_type = map->locs[q].army_ok ? DJ_ARMY : DJ_FLEET;
            o->target = (int16_t)q;
            plans[i] = PLAN_ILLEGAL;
            return;
        }
    }
    make_hold(ph, plans, i);
}

/* Support of a neighbour's actual order; false if no neighbour fits. */
static bool make_support(gen *g, bench_phase *ph, plan *plans, int i)
{
    const dj_map *map = g->b->map;
    const dj_unit *u = &ph->units[i];
    int here = dj_province(map, u->loc);
    int cand[MAX_UNITS], n = 0;

    for (int j = 0; j < ph->nunits; j++) {
        if (j == i || plans[j] == PLAN_ILLEGAL)
            continue;
        const dj_order *oj = &ph->orders[j];
        if (plans[j] == PLAN_MOVE || plans[j] == PLAN_CONVOYED) {
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
    int j = cand[rng_below(&g->r, n)];
    dj_order *o = &ph->orders[i];
    *o = dj_order_make(DJ_ORDER_SUPPORT, u->power, u->type, u->loc);
    o->target_type = ph->units[j].type;
    o->target = ph->units[j].loc;
    if (plans[j] == PLAN_MOVE || plans[j] == PLAN_CONVOYED) {
        o->dest = (int16_t)dj_province(map, ph->orders[j].dest);
        g->support_moves++;
    } else {
        g->support_holds++;
    }
    plans[i] = PLAN_SUPPORT;
    return true;
}

static void generate_phase(gen *g, bench_phase *ph)
{
    const board *b = g->b;
    const dj_map *map = b->map;
    int n = MIN_UNITS + rng_below(&g->r, MAX_UNITS - MIN_UNITS + 1);
    if (n > b->nprovs)
        n = b->nprovs;

    ph->phase.season = rng_below(&g->r, 2) ? DJ_FALL : DJ_SPRING;
    ph->phase.year = map->start_year + rng_below(&g->r, 10);
    ph->phase.type = DJ_MOVEMENT;
    ph->nunits = n;

    /* Distinct provinces: the first n of a partial Fisher-Yates shuffle. */
    for (int k = 0; k < b->nprovs; k++)
        g->shuffle[k] = k;
    for (int k = 0; k < n; k++) {
        int s = k + rng_below(&g->r, b->nprovs - k);
        int t = g->shuffle[k];
        g->shuffle[k] = g->shuffle[s];
        g->shuffle[s] = t;
        int pi = g->shuffle[k];
        dj_unit u = b->places[b->place_start[pi] +
                              rng_below(&g->r, b->place_count[pi])];
        u.power = (int16_t)rng_below(&g->r, map->npowers);
        ph->units[k] = u;
        g->occupant[b->provs[pi]] = (int16_t)k;
    }

    plan plans[MAX_UNITS];
    for (int k = 0; k < n; k++)
        plans[k] = PLAN_UNDECIDED;

    /* Convoys first, where pairs exist: about 5% of the orders, two to a
     * pair. */
    int want_pairs = (n * 5 + rng_below(&g->r, 200)) / 200;
    for (int k = 0; k < want_pairs; k++)
        if (!make_convoy(g, ph, plans))
            break;

    /* The others: hold 35, move 35, support 20, illegal 5 (out of 95).
     * Supports come last, so that they see the orders they support. */
    plan rolled[MAX_UNITS];
    for (int k = 0; k < n; k++) {
        int r = rng_below(&g->r, 95);
        rolled[k] = r < 35   ? PLAN_HOLD
                    : r < 70 ? PLAN_MOVE
                    : r < 90 ? PLAN_SUPPORT
                             : PLAN_ILLEGAL;
    }
    for (int k = 0; k < n; k++) {
        if (plans[k] != PLAN_UNDECIDED)
            continue;
        if (rolled[k] == PLAN_HOLD)
            make_hold(ph, plans, k);
        else if (rolled[k] == PLAN_MOVE)
            make_move(g, ph, plans, k);
        else if (rolled[k] == PLAN_ILLEGAL)
            make_illegal(g, ph, plans, k);
    }
    int missed = 0;
    for (int k = 0; k < n; k++)
        if (plans[k] == PLAN_UNDECIDED && !make_support(g, ph, plans, k)) {
            make_hold(ph, plans, k);
            missed++;
        }
    /* A support with no neighbour to support became a hold: make up for it
     * with holds that do have one, to keep the mix. */
    for (int k = 0, start = rng_below(&g->r, n); k < n && missed > 0; k++) {
        int i = (start + k) % n;
        if (plans[i] == PLAN_HOLD && make_support(g, ph, plans, i))
            missed--;
    }

    for (int k = 0; k < n; k++) {
        g->counts[plans[k]]++;
        g->occupant[dj_province(map, ph->units[k].loc)] = -1;
    }
}

/* ---- the timed part ----------------------------------------------------- */

typedef struct checksum {
    long succeeded;
    long dislodged;
    long rejected; /* dj_adjudicate returned -1: a bug in bench or engine */
    uint64_t hash; /* FNV-1a over every order's result */
} checksum;

static uint64_t fnv(uint64_t h, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Adjudicate the whole corpus once; returns the seconds it took. */
static double run_round(const dj_map *map, const bench_phase *corpus,
                        int nphases, const dj_rules *rules, dj_position *pos,
                        dj_result *res, checksum *sum)
{
    memset(sum, 0, sizeof *sum);
    sum->hash = UINT64_C(0xcbf29ce484222325);
    double t0 = now();
    for (int i = 0; i < nphases; i++) {
        const bench_phase *ph = &corpus[i];
        pos->phase = ph->phase;
        pos->nunits = ph->nunits;
        memcpy(pos->units, ph->units, (size_t)ph->nunits * sizeof *ph->units);
        if (dj_adjudicate(map, pos, ph->orders, ph->nunits, rules, res) != 0) {
            sum->rejected++;
            continue;
        }
        for (int k = 0; k < ph->nunits; k++) {
            const dj_order_result *r = &res->orders[k];
            sum->succeeded += r->success;
            sum->hash = fnv(sum->hash, (uint32_t)r->flags << 1 | r->success);
        }
        sum->dislodged += res->next.ndislodged;
    }
    return now() - t0;
}

static double pct(long part, long whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s MAP [PHASES [ROUNDS]]\n", argv[0]);
        return 2;
    }
    int nphases = argc > 2 ? atoi(argv[2]) : DEFAULT_PHASES;
    int rounds = argc > 3 ? atoi(argv[3]) : DEFAULT_ROUNDS;
    if (nphases < 1 || rounds < 1) {
        fprintf(stderr, "%s: PHASES and ROUNDS must be positive\n", argv[0]);
        return 2;
    }

    char err[256];
    dj_map *map = dj_map_load(argv[1], err, sizeof err);
    if (!map) {
        fprintf(stderr, "%s: %s\n", argv[0], err);
        return 1;
    }
    if (map->npowers < 1) {
        fprintf(stderr, "%s: %s has no powers\n", argv[0], argv[1]);
        return 1;
    }

    board b;
    board_init(&b, map);
    gen g = {.b = &b, .r = {SEED}};
    g.occupant = xcalloc((size_t)map->nlocs, sizeof *g.occupant);
    g.shuffle = xcalloc((size_t)map->nlocs, sizeof *g.shuffle);
    for (int l = 0; l < map->nlocs; l++)
        g.occupant[l] = -1;

    bench_phase *corpus = xcalloc((size_t)nphases, sizeof *corpus);
    long norders = 0;
    for (int i = 0; i < nphases; i++) {
        generate_phase(&g, &corpus[i]);
        norders += corpus[i].nunits;
    }

    dj_rules rules;
    dj_rules_default(&rules);
    dj_position *pos = xcalloc(1, sizeof *pos);
    dj_result *res = xcalloc(1, sizeof *res);
    dj_phase first = {DJ_SPRING, map->start_year, DJ_MOVEMENT};
    dj_position_empty(map, first, pos); /* initial ownership, no units */

    printf("dipjudge adjudication benchmark\n");
    printf("map:      %s (%d provinces where units stand, %d powers)\n",
           argv[1], b.nprovs, map->npowers);
    printf("corpus:   %d movement phases, %ld orders, %d-%d units each, "
           "seed 0x%" PRIx64 "\n",
           nphases, norders, MIN_UNITS, MAX_UNITS, SEED);
    printf("mix:      hold %.1f%%, move %.1f%%, support %.1f%% "
           "(%ld to hold, %ld to move),\n"
           "          convoy %.1f%% (%ld fleets, %ld armies), illegal %.1f%%\n",
           pct(g.counts[PLAN_HOLD], norders), pct(g.counts[PLAN_MOVE], norders),
           pct(g.counts[PLAN_SUPPORT], norders), g.support_holds,
           g.support_moves,
           pct(g.counts[PLAN_CONVOY] + g.counts[PLAN_CONVOYED], norders),
           g.counts[PLAN_CONVOY], g.counts[PLAN_CONVOYED],
           pct(g.counts[PLAN_ILLEGAL], norders));

    checksum first_sum = {0}, sum;
    double best = 0, worst = 0;
    bool consistent = true;
    for (int r = 0; r < rounds; r++) {
        double t = run_round(map, corpus, nphases, &rules, pos, res, &sum);
        if (r == 0) {
            first_sum = sum;
            best = worst = t;
        } else {
            if (t < best)
                best = t;
            if (t > worst)
                worst = t;
            if (sum.succeeded != first_sum.succeeded ||
                sum.dislodged != first_sum.dislodged ||
                sum.hash != first_sum.hash)
                consistent = false;
        }
    }
    if (best <= 0)
        best = 1e-9;

    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);

    printf("rounds:   %d, best %.3f s, worst %.3f s\n", rounds, best, worst);
    printf("speed:    %.0f phases/s on one core (target %.0f phases/s)\n",
           nphases / best, TARGET_PHASES_PER_SEC);
    printf("mean:     %.2f us per phase\n", best * 1e6 / nphases);
    printf("memory:   %.1f MiB peak resident (ru_maxrss, corpus included)\n",
           (double)ru.ru_maxrss / 1024.0);
    printf("checksum: %ld orders succeeded, %ld units dislodged, "
           "results hash %016" PRIx64 "\n",
           first_sum.succeeded, first_sum.dislodged, first_sum.hash);
    if (first_sum.rejected)
        printf("warning:  %ld phases rejected as malformed by dj_adjudicate\n",
               first_sum.rejected);
    if (!consistent)
        printf("warning:  results differed between rounds "
               "(the engine is not deterministic)\n");

    free(res);
    free(pos);
    free(corpus);
    free(g.occupant);
    free(g.shuffle);
    board_free(&b);
    dj_map_free(map);
    return 0;
}
