/* SPDX-License-Identifier: MIT */
/*
 * test_kruijswijk.c — the Kruijswijk engine on every case file of the
 * test suites, and against the DPjudge engine on the same cases.
 *
 * Usage: test_kruijswijk SRCDIR [FILE...]
 *
 * Without files, every *.txt of SRCDIR/tests/datc, tests/datc-extra and
 * tests/datc-alt is read.  Each case is adjudicated by the Kruijswijk
 * engine and checked against its expected position (as `judgectl check`
 * does for the DPjudge engine); the DPjudge engine adjudicates it too and
 * the two results must agree (dj_result_diff).  One line per folder gives
 * "kruijswijk FOLDER: N/M passed, K disagreements".
 *
 * Then a big board (a 23 x 23 grid map made here, fleets everywhere): a
 * ring of 484 fleets moving round (circular movement, the guess
 * algorithm's deepest recursion), a chain of 483 fleets each moving into
 * the next one's place, and random phases of 484 units; both engines, the
 * same answers, no crash.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casefile/casefile.h"
#include "casefile/check.h"
#include "testlib.h"
#include "../../bench/corpus.h"

static dj_checker *checker;
static dj_result *other;
static dj_case *one;
static char mapdir[4096];

typedef struct tally {
    int cases, passed, disagree;
} tally;

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_file(const char *path, tally *t)
{
    char err[DJ_CASE_ERR_MAX];
    dj_casefile *cf = dj_casefile_open(path, mapdir, err, sizeof err);
    if (!cf) {
        fprintf(stderr, "%s\n", err);
        CHECK(cf != NULL);
        return;
    }
    dj_case_status st;
    while ((st = dj_casefile_next(cf, one, err, sizeof err)) != DJ_CASE_EOF) {
        if (st == DJ_CASE_ERROR) {
            fprintf(stderr, "%s\n", err);
            continue;
        }
        const dj_map *map = dj_casefile_map(cf);
        t->cases++;
        dj_check_verdict v = dj_check_case_with(checker, DJ_ENGINE_KRUIJSWIJK,
                                                map, one, getenv("KJ_VERBOSE") != NULL, stdout);
        CHECK(v == DJ_CHECK_PASS);
        t->passed += v == DJ_CHECK_PASS;
        dj_order orders[DJ_CASE_MAX_ORDERS];
        for (int i = 0; i < one->norders; i++)
            orders[i] = one->orders[i].order;
        int rc = dj_adjudicate_with(DJ_ENGINE_DPJUDGE, map, &one->pre, orders,
                                    one->norders, &one->rules, other);
        char why[256];
        if (rc == 0 && dj_result_diff(map, dj_checker_result(checker), other,
                                      why, sizeof why) != 0) {
            printf("DISAGREE %s: %s\n", one->name, why);
            t->disagree++;
        }
    }
    dj_casefile_close(cf);
}

static void run_folder(const char *srcdir, const char *folder)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/%s", srcdir, folder);
    DIR *d = opendir(dir);
    if (!d)
        return;
    char *names[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".txt") == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, compare_names);
    tally t = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        run_file(path, &t);
        free(names[i]);
    }
    CHECK(t.disagree == 0);
    printf("kruijswijk %s: %d/%d passed, %d disagreements with dpjudge\n",
           folder, t.passed, t.cases, t.disagree);
}


/* ---- the big board ------------------------------------------------------- */

#define GRID 23
#define RING 22 /* the ring and the chain use the first 22 x 22 places */

static char *grid_map_text(void)
{
    size_t cap = 64 * 1024, n = 0;
    char *t = malloc(cap);
    if (!t)
        return NULL;
    for (int r = 0; r < GRID; r++)
        for (int c = 0; c < GRID; c++)
            n += (size_t)snprintf(t + n, cap - n, "Place %d %d = p%02d%02d\n",
                                  r, c, r, c);
    for (int r = 0; r < GRID; r++)
        for (int c = 0; c < GRID; c++) {
            bool sea = r % 4 == 2 && c % 3 != 0;
            n += (size_t)snprintf(t + n, cap - n, "%s P%02d%02d ABUTS",
                                  sea ? "WATER" : "COAST", r, c);
            static const int dr[] = {0, 1, 0, -1}, dc[] = {1, 0, -1, 0};
            for (int k = 0; k < 4; k++) {
                int rr = r + dr[k], cc = c + dc[k];
                if (rr >= 0 && rr < GRID && cc >= 0 && cc < GRID)
                    n += (size_t)snprintf(t + n, cap - n, " P%02d%02d", rr, cc);
            }
            n += (size_t)snprintf(t + n, cap - n, "\n");
        }
    snprintf(t + n, cap - n, "NORTH (NORTHERN) P0000\nSOUTH (SOUTHERN) "
                             "P2222\nEAST (EASTERN) P0022\nVICTORY 2\n");
    return t;
}

/* The k-th place of a closed tour of the 22 x 22 corner: along row 0, then
 * snaking down and up columns 21..1 through rows 1..21, back up column 0. */
static void ring_place(int k, int *r, int *c)
{
    if (k < RING) {
        *r = 0, *c = k;
        return;
    }
    k -= RING;
    int snake = (RING - 1) * (RING - 1);
    if (k < snake) {
        int col = RING - 1 - k / (RING - 1), i = k % (RING - 1);
        *c = col;
        *r = (RING - 1 - col) % 2 == 0 ? 1 + i : RING - 1 - i;
        return;
    }
    k -= snake;
    *c = 0, *r = RING - 1 - k;
}

static int grid_loc(const dj_map *m, int r, int c)
{
    char name[16];
    snprintf(name, sizeof name, "p%02d%02d", r, c);
    return dj_map_find_location(m, name);
}

static bool big_phase_agrees(const dj_map *m, const dj_position *pos,
                             const dj_order *orders, int n, const char *what)
{
    dj_rules rules;
    dj_rules_default(&rules);
    int a = dj_adjudicate_with(DJ_ENGINE_DPJUDGE, m, pos, orders, n, &rules,
                               other);
    dj_result *mine = malloc(sizeof *mine);
    if (!mine)
        return false;
    int b = dj_adjudicate_with(DJ_ENGINE_KRUIJSWIJK, m, pos, orders, n, &rules,
                               mine);
    char why[256] = "";
    bool same = a == 0 && b == 0 &&
                dj_result_diff(m, other, mine, why, sizeof why) == 0;
    if (!same)
        fprintf(stderr, "big board, %s: rc %d/%d %s\n", what, a, b, why);
    free(mine);
    return same;
}

static void big_board(void)
{
    char *text = grid_map_text();
    char err[256];
    dj_map *m = text ? dj_map_parse(text, "grid.map", err, sizeof err) : NULL;
    free(text);
    CHECK(m != NULL);
    if (!m)
        return;
    dj_position *pos = malloc(sizeof *pos);
    dj_order *orders = malloc(sizeof(dj_order) * DJ_MAX_ORDERS);
    if (!pos || !orders)
        return;
    dj_phase spring = {DJ_SPRING, 1901, DJ_MOVEMENT};
    int ring = RING * RING;

    /* The ring: every fleet moves on; all succeed. */
    dj_position_empty(m, spring, pos);
    for (int k = 0; k < ring; k++) {
        int r, c, r2, c2;
        ring_place(k, &r, &c);
        ring_place((k + 1) % ring, &r2, &c2);
        int loc = grid_loc(m, r, c);
        pos->units[k] = (dj_unit){(int16_t)(k % 3), (int16_t)loc, DJ_FLEET};
        orders[k] = dj_order_make(DJ_ORDER_MOVE, k % 3, DJ_FLEET, loc);
        orders[k].dest = (int16_t)grid_loc(m, r2, c2);
    }
    pos->nunits = ring;
    CHECK(big_phase_agrees(m, pos, orders, ring, "ring"));
    CHECK(other->next.nunits == ring && other->next.ndislodged == 0);
    int moved = 0;
    for (int k = 0; k < ring; k++)
        moved += other->orders[k].success;
    CHECK(moved == ring);

    /* The chain: the last place empty, everyone follows. */
    pos->nunits = ring - 1;
    CHECK(big_phase_agrees(m, pos, orders, ring - 1, "chain"));
    moved = 0;
    for (int k = 0; k < ring - 1; k++)
        moved += other->orders[k].success;
    CHECK(moved == ring - 1);

    /* Random phases: any order a fleet could give its neighbours. */
    corpus_rng rng = {UINT64_C(0x6b6a2d6269670a)};
    for (int round = 0; round < 40; round++) {
        dj_position_empty(m, spring, pos);
        for (int k = 0; k < ring; k++) {
            int r, c;
            ring_place(k, &r, &c);
            pos->units[k] = (dj_unit){(int16_t)corpus_rng_below(&rng, 3),
                                      (int16_t)grid_loc(m, r, c), DJ_FLEET};
        }
        pos->nunits = ring;
        for (int k = 0; k < ring; k++) {
            const dj_unit *u = &pos->units[k];
            const dj_location *l = &m->locs[u->loc];
            int to = l->adj[corpus_rng_below(&rng, l->nadj)].to;
            int roll = corpus_rng_below(&rng, 10);
            dj_order *o = &orders[k];
            *o = dj_order_make(DJ_ORDER_HOLD, u->power, DJ_FLEET, u->loc);
            if (roll < 5) {
                o->kind = DJ_ORDER_MOVE;
                o->dest = (int16_t)to;
            } else if (roll < 9) {
                /* Support whatever the unit next door may do. */
                int t = corpus_rng_below(&rng, ring);
                o->kind = DJ_ORDER_SUPPORT;
                o->target_type = DJ_FLEET;
                o->target = pos->units[t].loc;
                if (corpus_rng_below(&rng, 2))
                    o->dest = (int16_t)to;
            }
        }
        CHECK(big_phase_agrees(m, pos, orders, ring, "random"));
    }
    printf("kruijswijk big board: ring, chain and 40 random phases of %d "
           "units\n", ring);
    free(pos);
    free(orders);
    dj_map_free(m);
}

int main(int argc, char **argv)
{
    /* test_kruijswijk [SRCDIR [FILE...]] */
    const char *srcdir = test_srcdir(argc, argv);
    snprintf(mapdir, sizeof mapdir, "%s/maps", srcdir);
    checker = dj_checker_new();
    other = malloc(sizeof *other);
    one = malloc(sizeof *one);
    if (!checker || !other || !one)
        return 2;
    if (argc > 2) {
        tally t = {0, 0, 0};
        for (int i = 2; i < argc; i++)
            run_file(argv[i], &t);
        printf("kruijswijk: %d/%d passed, %d disagreements with dpjudge\n",
               t.passed, t.cases, t.disagree);
    } else {
        run_folder(srcdir, "datc");
        run_folder(srcdir, "datc-extra");
        run_folder(srcdir, "datc-alt");
        big_board();
    }
    dj_checker_free(checker);
    free(other);
    free(one);
    return test_summary();
}
