/*
 * bench_adjudicate.c — how fast does the engine adjudicate movement phases?
 *
 * Usage: bench_adjudicate MAP [PHASES [ROUNDS]]   (`make bench`)
 *
 * The corpus is generated, not recorded: bench/corpus.c (shared with
 * tests/unit/test_engine_random.c) places 20-34 units of random powers on
 * distinct random provinces with a fixed seed and gives every unit an order
 * from a realistic mix of holds, moves, real supports, convoys and illegal
 * orders (see corpus.h; the mix printed is the real one).
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

#include "corpus.h"
#include "engine/adjudicate.h"

#define DEFAULT_PHASES 10000
#define DEFAULT_ROUNDS 5
#define SEED UINT64_C(0x5eed0f0d1901)
#define TARGET_PHASES_PER_SEC 100000.0

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
static double run_round(const dj_map *map, const corpus_phase *corpus,
                        int nphases, const dj_rules *rules, dj_position *pos,
                        dj_result *res, checksum *sum)
{
    memset(sum, 0, sizeof *sum);
    sum->hash = UINT64_C(0xcbf29ce484222325);
    double t0 = now();
    for (int i = 0; i < nphases; i++) {
        const corpus_phase *ph = &corpus[i];
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

    corpus_gen g;
    corpus_init(&g, map, SEED);

    corpus_phase *corpus = corpus_xcalloc((size_t)nphases, sizeof *corpus);
    long norders = 0;
    for (int i = 0; i < nphases; i++) {
        corpus_generate(&g, &corpus[i]);
        norders += corpus[i].nunits;
    }

    dj_rules rules;
    dj_rules_default(&rules);
    dj_position *pos = corpus_xcalloc(1, sizeof *pos);
    dj_result *res = corpus_xcalloc(1, sizeof *res);
    dj_phase first = {DJ_SPRING, map->start_year, DJ_MOVEMENT};
    dj_position_empty(map, first, pos); /* initial ownership, no units */

    printf("dipjudge adjudication benchmark\n");
    printf("map:      %s (%d provinces where units stand, %d powers)\n",
           argv[1], g.board.nprovs, map->npowers);
    printf("corpus:   %d movement phases, %ld orders, %d-%d units each, "
           "seed 0x%" PRIx64 "\n",
           nphases, norders, CORPUS_MIN_UNITS, CORPUS_MAX_UNITS, SEED);
    printf("mix:      hold %.1f%%, move %.1f%%, support %.1f%% "
           "(%ld to hold, %ld to move),\n"
           "          convoy %.1f%% (%ld fleets, %ld armies), illegal %.1f%%\n",
           pct(g.counts[CORPUS_HOLD], norders),
           pct(g.counts[CORPUS_MOVE], norders),
           pct(g.counts[CORPUS_SUPPORT], norders), g.support_holds,
           g.support_moves,
           pct(g.counts[CORPUS_CONVOY] + g.counts[CORPUS_CONVOYED], norders),
           g.counts[CORPUS_CONVOY], g.counts[CORPUS_CONVOYED],
           pct(g.counts[CORPUS_ILLEGAL], norders));

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
    corpus_free(&g);
    dj_map_free(map);
    return 0;
}
