/* SPDX-License-Identifier: MIT */
/*
 * crosscheck.c — the differential harness: random movement phases, built to
 * hit the hard patterns, adjudicated by the DPjudge and the Kruijswijk
 * engines; every disagreement is shrunk to a minimal phase and written as a
 * case in the `judgectl check` format.
 *
 * Usage: test_crosscheck SRCDIR [--phases N] [--seed S] [--rules PERCENT]
 *                               [--cases DIR] [--show N] [--map FILE]
 *                               [--progress N]
 *
 * The phases are drawn on every board of SRCDIR/maps (*.map: the standard
 * board and every variant shipped, in turn) and the test boards listed in
 * fixture_boards (tests/maps/halfborder.map, with DPjudge's half-strength
 * borders), or on the one --map names.
 *
 * Phases come from the bench corpus (bench/corpus.c) made harder by
 * bench/hard.c: denser boards, chaos (supports of anything reachable,
 * moves into occupied places, convoys along fleet chains), sea battles,
 * planted convoy paradoxes, rings of units moving round (circular
 * movement, attacked or not), head-to-head battles with supports from
 * every side, supports of a foreign move into one's own unit and
 * self-supports, order noise (repeated, conflicting, wrong power, types and
 * coasts missing or wrong, orders for empty places), coasts left out or
 * changed everywhere, convoy routes written, hostile orders (fields out of
 * range), a power in civil disorder, large convoy networks (bench/
 * hard_network.c: 20 seas to every sea convoying, fleets dislodged on and
 * off the routes); and for PERCENT of the phases (default 30) every
 * chapter-4 rule drawn at random (both engines implement them all).
 *
 * A disagreement (dj_result_diff, or one engine refusing the phase) is
 * shrunk: orders, then units with their orders, are dropped one at a time
 * while the engines still disagree.  The minimal phase is printed (the
 * first --show of them, default 5) and, with --cases, written to
 * DIR/crosscheck-N.txt, expecting what the DPjudge engine gave, with the
 * Kruijswijk engine's answer in a comment: check it by hand against the
 * DATC, then fix the engine that is wrong and keep the case.
 *
 * --progress N prints a line every N phases (long runs).
 *
 * Ends with one line per board, "crosscheck: BOARD: N phases, D
 * disagreements", then "crosscheck: N phases, D disagreements, T s (R
 * phases/s)" and, for the test suites, "N passed, N failed" (one check per
 * phase).  The default is 100,000 phases (`make check`); `make crosscheck`
 * runs 1,000,000 (PHASES= to change).
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "corpus.h"
#include "hard.h"

#define DEFAULT_PHASES 100000L
#define DEFAULT_SEED UINT64_C(0xc0ffee1901)

#define MAX_BOARDS 64

/* Boards of the tests drawn on too (after SRCDIR/maps): the fixture board
 * of DPjudge's half-strength borders (`*`, tests/halfborder). */
static const char *const fixture_boards[] = {"tests/maps/halfborder.map"};

/* One board: its map, its generators, its counts. */
typedef struct board {
    dj_map *map;
    corpus_gen corpus;
    hard_gen hard;
    long phases, disagreements;
} board;

typedef struct harness {
    const dj_map *map; /* the board of the phase at hand */
    corpus_gen *corpus;
    corpus_rng rng;
    hard_gen *hard;
    dj_rules rules;
    int rules_percent;
    corpus_phase *cp, *extra;
    hard_phase *in, *trial;
    dj_result *ra, *rb;
    char why[256];
} harness;

/* Do the two engines agree on this phase?  Fills h->why when not. */
static bool engines_agree(harness *h, const hard_phase *p)
{
    int a = dj_adjudicate_with(DJ_ENGINE_DPJUDGE, h->map, &p->pos, p->orders,
                               p->norders, &h->rules, h->ra);
    int b = dj_adjudicate_with(DJ_ENGINE_KRUIJSWIJK, h->map, &p->pos,
                               p->orders, p->norders, &h->rules, h->rb);
    if (a < 0 || b < 0) {
        if (a == b)
            return true;
        snprintf(h->why, sizeof h->why, "%s refused the phase",
                 a < 0 ? "dpjudge" : "kruijswijk");
        return false;
    }
    return dj_result_diff(h->map, h->ra, h->rb, h->why, sizeof h->why) == 0;
}

static void drop_order(hard_phase *p, int k)
{
    memmove(&p->orders[k], &p->orders[k + 1],
            sizeof(dj_order) * (size_t)(p->norders - k - 1));
    p->norders--;
}

/* Drop unit i and every order given from its province. */
static void drop_unit(const dj_map *map, hard_phase *p, int i)
{
    int prov = dj_province(map, p->pos.units[i].loc);
    memmove(&p->pos.units[i], &p->pos.units[i + 1],
            sizeof(dj_unit) * (size_t)(p->pos.nunits - i - 1));
    p->pos.nunits--;
    for (int k = p->norders - 1; k >= 0; k--)
        if (p->orders[k].loc >= 0 && p->orders[k].loc < map->nlocs &&
            dj_province(map, p->orders[k].loc) == prov)
            drop_order(p, k);
}

/* Smallest phase (one removal at a time) on which the engines disagree. */
static void shrink(harness *h, hard_phase *p)
{
    bool smaller = true;
    while (smaller) {
        smaller = false;
        for (int k = p->norders - 1; k >= 0; k--) {
            *h->trial = *p;
            drop_order(h->trial, k);
            if (!engines_agree(h, h->trial)) {
                *p = *h->trial;
                smaller = true;
            }
        }
        for (int i = p->pos.nunits - 1; i >= 0; i--) {
            *h->trial = *p;
            drop_unit(h->map, h->trial, i);
            if (!engines_agree(h, h->trial)) {
                *p = *h->trial;
                smaller = true;
            }
        }
    }
    engines_agree(h, p); /* leaves both results and the reason of p */
}

static void put_units(FILE *f, const dj_map *map, const char *title,
                      const dj_unit *u, int n, const char *prefix)
{
    if (title)
        fprintf(f, "%s\n", title);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%s: %s %s\n", prefix, map->powers[u[i].power].name,
                dj_unit_letter(u[i].type), map->locs[u[i].loc].abbr);
}

static void put_case(FILE *f, harness *h, const hard_phase *p, long number)
{
    const dj_map *map = h->map;
    const dj_rule_info *t = dj_rule_table();
    dj_rules def;
    dj_rules_default(&def);
    fprintf(f, "\nCASE crosscheck %ld\n", number);
    fprintf(f, "# The engines disagree: %s\n", h->why);
    if (p->pos.civil_disorder)
        fprintf(f, "# NOT IN THIS FILE: a power is in civil disorder "
                   "(mask %#llx)\n",
                (unsigned long long)p->pos.civil_disorder);
    for (int i = 0; i < DJ_RULE_COUNT; i++)
        if (h->rules.choice[i] != def.choice[i])
            fprintf(f, "RULE %s=%c\n", t[i].name, h->rules.choice[i]);
    fprintf(f, "PRESTATE_SETPHASE %s %d, Movement\n",
            p->pos.phase.season == DJ_SPRING ? "Spring" : "Fall",
            p->pos.phase.year);
    put_units(f, map, "PRESTATE", p->pos.units, p->pos.nunits, "");
    fprintf(f, "ORDERS\n");
    for (int k = 0; k < p->norders; k++) {
        char text[160];
        dj_order_format(map, &p->orders[k], text, sizeof text);
        fprintf(f, "%s: %s\n", map->powers[p->orders[k].power].name, text);
    }
    fprintf(f, "# Kruijswijk engine:\n");
    put_units(f, map, NULL, h->rb->next.units, h->rb->next.nunits, "#   ");
    fprintf(f, "#   dislodged:\n");
    for (int i = 0; i < h->rb->next.ndislodged; i++)
        put_units(f, map, NULL, &h->rb->next.dislodged[i].unit, 1, "#   ");
    fprintf(f, "# DPjudge engine:\n");
    put_units(f, map, "POSTSTATE", h->ra->next.units, h->ra->next.nunits, "");
    if (h->ra->next.ndislodged > 0) {
        fprintf(f, "POSTSTATE_DISLODGED\n");
        for (int i = 0; i < h->ra->next.ndislodged; i++)
            put_units(f, map, NULL, &h->ra->next.dislodged[i].unit, 1, "");
    }
    fprintf(f, "END\n");
}

/* One random phase, made hard in one or more ways. */
static void generate(harness *h)
{
    hard_gen *g = h->hard;
    hard_phase *p = h->in;
    corpus_generate(h->corpus, h->cp);
    hard_load(g, h->cp, p);
    hard_rules(g, h->rules_percent, &h->rules);
    int mode = corpus_rng_below(&h->rng, 9);
    if (mode == 0)
        hard_sea_battle(g, h->cp, p);
    if (mode == 8)
        hard_convoy_network(g, p, 20, DJ_MAX_UNITS);
    if (mode == 1 || mode == 2 || corpus_rng_below(&h->rng, 4) == 0) {
        corpus_generate(h->corpus, h->extra);
        hard_merge(g, p, h->extra);
    }
    if (mode == 2 || mode == 3)
        hard_chaos(g, p);
    if (mode == 0 || mode == 4)
        for (int k = corpus_rng_below(&h->rng, 4); k >= 0; k--)
            hard_plant_paradox(g, p);
    for (int k = corpus_rng_below(&h->rng, 3); k >= 0; k--) {
        switch (corpus_rng_below(&h->rng, 4)) {
        case 0:
            hard_circle(g, p);
            break;
        case 1:
            hard_head_to_head(g, p);
            break;
        case 2:
            hard_own_target(g, p);
            break;
        default:
            break;
        }
    }
    if (mode == 5)
        hard_chaos(g, p);
    if (corpus_rng_below(&h->rng, 4) == 0)
        hard_noise(g, p);
    if (corpus_rng_below(&h->rng, 5) == 0)
        hard_coasts(g, p);
    if (corpus_rng_below(&h->rng, 5) == 0)
        hard_paths(g, p);
    if (corpus_rng_below(&h->rng, 20) == 0)
        hard_garbage(g, p);
    if (corpus_rng_below(&h->rng, 10) == 0)
        p->pos.civil_disorder =
            DJ_POWER_BIT(corpus_rng_below(&h->rng, h->map->npowers));
}

static long arg_long(int argc, char **argv, const char *name, long dflt)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return strtol(argv[i + 1], NULL, 0);
    return dflt;
}

static const char *arg_str(int argc, char **argv, const char *name)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return argv[i + 1];
    return NULL;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.map of dir, by name; returns how many were loaded, -1 on error. */
static int load_boards(const char *dir, board *boards)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "cannot open %s\n", dir);
        return -1;
    }
    char *names[MAX_BOARDS];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < MAX_BOARDS;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".map") == 0) {
            names[n] = corpus_xcalloc(1, len + 1);
            memcpy(names[n++], e->d_name, len);
        }
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    int loaded = 0;
    for (int i = 0; i < n; i++) {
        char path[4400], err[256];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        free(names[i]);
        if (loaded < 0)
            continue;
        boards[loaded].map = dj_map_load(path, err, sizeof err);
        if (!boards[loaded].map) {
            fprintf(stderr, "%s\n", err);
            loaded = -1;
            continue;
        }
        loaded++;
    }
    return loaded;
}

int main(int argc, char **argv)
{
    /* [SRCDIR] (else $srcdir, else the configured source tree) */
    const char *srcdir = argc > 1 && argv[1][0] != '-' ? argv[1]
                         : getenv("srcdir") && *getenv("srcdir")
                             ? getenv("srcdir")
                             : DJ_TEST_SRCDIR;
    long phases = arg_long(argc, argv, "--phases", DEFAULT_PHASES);
    uint64_t seed = (uint64_t)arg_long(argc, argv, "--seed", (long)DEFAULT_SEED);
    int rules_percent = (int)arg_long(argc, argv, "--rules", 30);
    long show = arg_long(argc, argv, "--show", 5);
    const char *casedir = arg_str(argc, argv, "--cases");
    long progress = arg_long(argc, argv, "--progress", 0);

    board *boards = corpus_xcalloc(MAX_BOARDS, sizeof *boards);
    int nboards = 0;
    char path[4096], err[256];
    const char *map_file = arg_str(argc, argv, "--map");
    if (map_file) {
        boards[0].map = dj_map_load(map_file, err, sizeof err);
        if (!boards[0].map) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        nboards = 1;
    } else {
        snprintf(path, sizeof path, "%s/maps", srcdir);
        nboards = load_boards(path, boards);
        if (nboards <= 0)
            return 2;
        for (size_t f = 0; f < sizeof fixture_boards / sizeof fixture_boards[0] &&
                           nboards < MAX_BOARDS;
             f++) {
            snprintf(path, sizeof path, "%s/%s", srcdir, fixture_boards[f]);
            boards[nboards].map = dj_map_load(path, err, sizeof err);
            if (!boards[nboards].map) {
                fprintf(stderr, "%s\n", err);
                return 2;
            }
            nboards++;
        }
    }
    harness *h = corpus_xcalloc(1, sizeof *h);
    h->rules_percent = rules_percent;
    h->rng.s = seed ? seed : DEFAULT_SEED;
    for (int b = 0; b < nboards; b++) {
        corpus_init(&boards[b].corpus, boards[b].map,
                    (h->rng.s ^ UINT64_C(0x9e3779b97f4a7c15)) + (uint64_t)b);
        boards[b].hard = (hard_gen){boards[b].map, &h->rng, -1, -1};
    }
    h->cp = corpus_xcalloc(1, sizeof *h->cp);
    h->extra = corpus_xcalloc(1, sizeof *h->extra);
    h->in = corpus_xcalloc(1, sizeof *h->in);
    h->trial = corpus_xcalloc(1, sizeof *h->trial);
    h->ra = corpus_xcalloc(1, sizeof *h->ra);
    h->rb = corpus_xcalloc(1, sizeof *h->rb);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long disagreements = 0;
    for (long n = 0; n < phases; n++) {
        if (progress > 0 && n > 0 && n % progress == 0) {
            printf("crosscheck: %ld phases so far, %ld disagreements\n", n,
                   disagreements);
            fflush(stdout);
        }
        board *bd = &boards[n % nboards];
        h->map = bd->map;
        h->corpus = &bd->corpus;
        h->hard = &bd->hard;
        bd->phases++;
        generate(h);
        if (engines_agree(h, h->in))
            continue;
        disagreements++;
        bd->disagreements++;
        shrink(h, h->in);
        if (disagreements <= show)
            put_case(stdout, h, h->in, n);
        if (casedir) {
            char name[4200];
            snprintf(name, sizeof name, "%s/crosscheck-%s-%ld.txt", casedir,
                     h->map->name, n);
            FILE *f = fopen(name, "w");
            if (f) {
                fprintf(f, "VARIANT_ALL %s\n", h->map->name);
                put_case(f, h, h->in, n);
                fclose(f);
            }
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) +
                  (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    for (int b = 0; b < nboards; b++)
        printf("crosscheck: %s: %ld phases, %ld disagreements\n",
               boards[b].map->name, boards[b].phases, boards[b].disagreements);
    printf("crosscheck: %ld phases, %ld disagreements, %.1f s (%.0f phases/s), "
           "seed %#llx, %d%% under random rules\n",
           phases, disagreements, secs, secs > 0 ? (double)phases / secs : 0.0,
           (unsigned long long)(seed ? seed : DEFAULT_SEED), rules_percent);
    printf("%ld passed, %ld failed\n", phases - disagreements, disagreements);

    for (int b = 0; b < nboards; b++) {
        corpus_free(&boards[b].corpus);
        dj_map_free(boards[b].map);
    }
    free(boards);
    free(h->cp);
    free(h->extra);
    free(h->in);
    free(h->trial);
    free(h->ra);
    free(h->rb);
    free(h);
    return disagreements ? 1 : 0;
}
