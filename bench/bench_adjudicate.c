/* SPDX-License-Identifier: MIT */
/*
 * bench_adjudicate.c — how fast does the engine adjudicate movement phases?
 *
 * Usage: bench_adjudicate [--network] MAP [PHASES [ROUNDS [ENGINE]]]
 *                                                         (`make bench`)
 *
 * ENGINE (a name) times that engine alone, in this process (for profiling).
 *
 * --network: the large-network corpus instead.  Each phase is a corpus
 * phase with a convoy network added (bench/hard_network.c): 20 to 49 seas
 * (every sea of a smaller board) hold fleets convoying one army or a few,
 * fleets of the network attacked on and off the routes.  The target there
 * is under 1 ms per phase for every engine.
 *
 * The corpus is generated, not recorded: bench/corpus.c (shared with
 * tests/unit/test_engine_random.c) places 20-34 units of random powers on
 * distinct random provinces with a fixed seed and gives every unit an order
 * from a realistic mix of holds, moves, real supports, convoys and illegal
 * orders (see corpus.h; the mix printed is the real one).
 *
 * Then, for each movement engine in turn (DPjudge, Kruijswijk, Haplomacy),
 * in a child process of its own so that its peak memory is its own, the
 * whole corpus is adjudicated ROUNDS times; the best round gives phases per
 * second on one core and the mean time per phase.  An engine that refuses
 * phases (a stub returning -1) is reported as unavailable.  A checksum of
 * the outcome (orders that succeeded, the units after the phase, dislodged
 * units and their retreats) makes runs comparable between builds and
 * between engines: the DPjudge and Kruijswijk hashes must be identical
 * (MATCH).  This is a benchmark, not a test: the target (250,000 phases/s)
 * is printed beside the figures and nothing fails on it.
 *
 * Only the engine's public API is used: the bench is a client like any other.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "corpus.h"
#include "engine/adjudicate.h"
#include "hard.h"

#define DEFAULT_PHASES 10000
#define DEFAULT_ROUNDS 5
#define SEED UINT64_C(0x5eed0f0d1901)
#define TARGET_PHASES_PER_SEC 250000.0
#define NETWORK_MIN_FLEETS 20
#define NETWORK_MAX_FLEETS 49
#define NETWORK_MAX_UNITS 160

/* A phase of the large-network corpus. */
typedef struct network_phase {
    dj_phase phase;
    int nunits, norders;
    dj_unit units[NETWORK_MAX_UNITS];
    dj_order orders[NETWORK_MAX_UNITS];
} network_phase;

/* The corpus timed: plain corpus phases, or the large networks. */
typedef struct bench_corpus {
    const corpus_phase *plain;
    const network_phase *network;
    int n;
} bench_corpus;

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
static uint64_t hash_unit(uint64_t h, const dj_unit *u)
{
    return fnv(h, (uint32_t)u->power << 20 | (uint32_t)u->type << 16 |
                      (uint16_t)u->loc);
}

/* Adjudicate one phase into the checksum. */
static inline void run_phase(dj_engine engine, const dj_map *map,
                             dj_phase phase, int nunits, const dj_unit *units,
                             int norders, const dj_order *orders,
                             const dj_rules *rules, dj_position *pos,
                             dj_result *res, checksum *sum)
{
    pos->phase = phase;
    pos->nunits = nunits;
    memcpy(pos->units, units, (size_t)nunits * sizeof *units);
    if (dj_adjudicate_with(engine, map, pos, orders, norders, rules, res) != 0) {
        sum->rejected++;
        return;
    }
    /* The outcome only (what dj_result_diff compares), not the marks
     * that explain it: the same for every correct engine. */
    for (int k = 0; k < norders; k++) {
        sum->succeeded += res->orders[k].success;
        sum->hash = fnv(sum->hash, res->orders[k].success);
    }
    for (int k = 0; k < res->next.nunits; k++)
        sum->hash = hash_unit(sum->hash, &res->next.units[k]);
    for (int k = 0; k < res->next.ndislodged; k++) {
        const dj_dislodged *d = &res->next.dislodged[k];
        sum->hash = hash_unit(sum->hash, &d->unit);
        for (int r = 0; r < d->nretreats; r++)
            sum->hash = fnv(sum->hash, (uint16_t)d->retreats[r]);
    }
    sum->dislodged += res->next.ndislodged;
}

/* Adjudicate the whole corpus once; returns the seconds it took. */
static double run_round(dj_engine engine, const dj_map *map,
                        const bench_corpus *corpus, const dj_rules *rules,
                        dj_position *pos, dj_result *res, checksum *sum)
{
    memset(sum, 0, sizeof *sum);
    sum->hash = UINT64_C(0xcbf29ce484222325);
    double t0 = now();
    for (int i = 0; i < corpus->n; i++) {
        if (corpus->plain) {
            const corpus_phase *ph = &corpus->plain[i];
            run_phase(engine, map, ph->phase, ph->nunits, ph->units,
                      ph->nunits, ph->orders, rules, pos, res, sum);
        } else {
            const network_phase *ph = &corpus->network[i];
            run_phase(engine, map, ph->phase, ph->nunits, ph->units,
                      ph->norders, ph->orders, rules, pos, res, sum);
        }
    }
    return now() - t0;
}

/* Time one engine (in a child process); its hash goes up the pipe. */
static void bench_engine(dj_engine engine, const dj_map *map,
                         const bench_corpus *corpus, int rounds, int out_fd)
{
    dj_rules rules;
    dj_rules_default(&rules);
    dj_position *pos = corpus_xcalloc(1, sizeof *pos);
    dj_result *res = corpus_xcalloc(1, sizeof *res);
    dj_phase first = {DJ_SPRING, map->start_year, DJ_MOVEMENT};
    dj_position_empty(map, first, pos); /* initial ownership, no units */
    const char *name = dj_engine_name(engine);

    checksum first_sum = {0}, sum;
    double best = 0, worst = 0;
    bool consistent = true;
    for (int r = 0; r < rounds; r++) {
        double t = run_round(engine, map, corpus, &rules, pos, res,
                             &sum);
        if (r == 0) {
            first_sum = sum;
            best = worst = t;
            if (sum.rejected == corpus->n)
                break;
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
    uint64_t hash = first_sum.hash;
    if (first_sum.rejected == corpus->n) {
        printf("%-11s unavailable (the engine refuses every phase)\n", name);
        hash = 0;
    } else {
        printf("%-11s %.0f phases/s, %.2f us per phase (best of %d rounds, "
               "worst %.3f s), %.1f MiB peak\n",
               name, corpus->n / best, best * 1e6 / corpus->n, rounds, worst,
               (double)ru.ru_maxrss / 1024.0);
        printf("            %ld orders succeeded, %ld units dislodged, "
               "results hash %016" PRIx64 "\n",
               first_sum.succeeded, first_sum.dislodged, first_sum.hash);
        if (first_sum.rejected)
            printf("            warning: %ld phases rejected\n",
                   first_sum.rejected);
        if (!consistent)
            printf("            warning: results differed between rounds "
                   "(not deterministic)\n");
    }
    fflush(stdout);
    if (out_fd >= 0 && write(out_fd, &hash, sizeof hash) != (ssize_t)sizeof hash)
        perror("bench: pipe");
    free(res);
    free(pos);
}

static double pct(long part, long whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The large-network corpus: corpus phases with a convoy network added. */
static long network_corpus(const dj_map *map, corpus_gen *g,
                           network_phase *store, int nphases, long *fleets)
{
    corpus_rng rng = {SEED ^ UINT64_C(0x2545f4914f6cdd1d)};
    hard_gen hg = {map, &rng, -1, -1};
    corpus_phase *cp = corpus_xcalloc(1, sizeof *cp);
    hard_phase *hp = corpus_xcalloc(1, sizeof *hp);
    long norders = 0;
    *fleets = 0;
    for (int i = 0; i < nphases; i++) {
        do {
            corpus_generate(g, cp);
            hard_load(&hg, cp, hp);
        } while (!hard_convoy_network(&hg, hp, NETWORK_MIN_FLEETS,
                                      NETWORK_MAX_FLEETS) ||
                 hp->pos.nunits > NETWORK_MAX_UNITS ||
                 hp->norders > NETWORK_MAX_UNITS);
        store[i].phase = cp->phase;
        store[i].nunits = hp->pos.nunits;
        store[i].norders = hp->norders;
        memcpy(store[i].units, hp->pos.units,
               sizeof(dj_unit) * (size_t)hp->pos.nunits);
        memcpy(store[i].orders, hp->orders,
               sizeof(dj_order) * (size_t)hp->norders);
        for (int k = 0; k < hp->norders; k++)
            *fleets += hp->orders[k].kind == DJ_ORDER_CONVOY;
        norders += hp->norders;
    }
    free(cp);
    free(hp);
    return norders;
}

int main(int argc, char **argv)
{
    bool network = argc > 1 && strcmp(argv[1], "--network") == 0;
    if (network) {
        argv++;
        argc--;
    }
    if (argc < 2 || argc > 5) {
        fprintf(stderr, "usage: %s [--network] MAP [PHASES [ROUNDS [ENGINE]]]\n",
                argv[0]);
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

    corpus_phase *corpus = NULL;
    network_phase *store = NULL;
    long norders = 0, fleets = 0;
    if (network) {
        store = corpus_xcalloc((size_t)nphases, sizeof *store);
        norders = network_corpus(map, &g, store, nphases, &fleets);
    } else {
        corpus = corpus_xcalloc((size_t)nphases, sizeof *corpus);
        for (int i = 0; i < nphases; i++) {
            corpus_generate(&g, &corpus[i]);
            norders += corpus[i].nunits;
        }
    }
    bench_corpus timed = {corpus, store, nphases};

    printf("dipjudge adjudication benchmark%s\n",
           network ? ": large convoy networks" : "");
    printf("map:      %s (%d provinces where units stand, %d powers)\n",
           argv[1], g.board.nprovs, map->npowers);
    if (network) {
        printf("corpus:   %d movement phases, %ld orders: a corpus phase and "
               "%d-%d seas (all of a smaller board) filled with fleets, "
               "%ld convoy orders in all, seed 0x%" PRIx64 "\n",
               nphases, norders, NETWORK_MIN_FLEETS, NETWORK_MAX_FLEETS,
               fleets, SEED);
        printf("target:   under 1 ms per phase for every engine\n");
    } else {
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

        printf("target:   %.0f movement phases/s on one core\n",
               TARGET_PHASES_PER_SEC);
    }
    fflush(stdout);

    if (argc > 4) {
        int only = dj_engine_lookup(argv[4]);
        if (only < 0) {
            fprintf(stderr, "%s: no engine %s\n", argv[0], argv[4]);
            return 2;
        }
        bench_engine((dj_engine)only, map, &timed, rounds, -1);
        free(store);
        free(corpus);
        corpus_free(&g);
        dj_map_free(map);
        return 0;
    }
    uint64_t hashes[DJ_ENGINE_COUNT] = {0};
    for (int e = 0; e < DJ_ENGINE_COUNT; e++) {
        int fds[2];
        if (pipe(fds) != 0) {
            perror("bench: pipe");
            return 1;
        }
        pid_t pid = fork();
        if (pid < 0) {
            perror("bench: fork");
            return 1;
        }
        if (pid == 0) {
            close(fds[0]);
            bench_engine((dj_engine)e, map, &timed, rounds, fds[1]);
            _exit(0);
        }
        close(fds[1]);
        if (read(fds[0], &hashes[e], sizeof hashes[e]) != (ssize_t)sizeof hashes[e])
            hashes[e] = 0;
        close(fds[0]);
        waitpid(pid, NULL, 0);
    }
    bool match = hashes[DJ_ENGINE_DPJUDGE] != 0 &&
                 hashes[DJ_ENGINE_DPJUDGE] == hashes[DJ_ENGINE_KRUIJSWIJK];
    printf("hashes:   dpjudge %016" PRIx64 ", kruijswijk %016" PRIx64 ": %s\n",
           hashes[DJ_ENGINE_DPJUDGE], hashes[DJ_ENGINE_KRUIJSWIJK],
           match ? "MATCH" : "MISMATCH");
    if (hashes[DJ_ENGINE_HAPLOMACY])
        printf("          haplomacy %016" PRIx64 ": %s\n",
               hashes[DJ_ENGINE_HAPLOMACY],
               hashes[DJ_ENGINE_HAPLOMACY] == hashes[DJ_ENGINE_DPJUDGE]
                   ? "matches dpjudge"
                   : "differs from dpjudge (it is not a DATC-complete engine)");

    free(store);
    free(corpus);
    corpus_free(&g);
    dj_map_free(map);
    return 0;
}
