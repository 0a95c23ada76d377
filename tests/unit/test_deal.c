/* SPDX-License-Identifier: MIT */
/*
 * test_deal.c — the deal of powers by preference lists (game/deal.h):
 * reading lists (letters, names, '*', refusals), the ranks they give, and
 * the deal checked against every permutation of small boards (the least
 * total rank, the seeded tie-break) and for reproducibility by seed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/map.h"
#include "game/deal.h"
#include "testlib.h"

static dj_map *map;

static void test_parse(void)
{
    dj_deal_list l;
    char why[256] = "", text[DJ_DEAL_TEXT_MAX];
    int rank[DJ_MAX_POWERS];
    CHECK(dj_deal_parse(map, "EFG", &l, why, sizeof why) == 0);
    dj_deal_format(map, &l, text, sizeof text);
    CHECK_STR(text, "England, France, Germany");
    dj_deal_ranks(&l, map->npowers, rank);
    /* Austria England France Germany Italy Russia Turkey */
    CHECK(rank[1] == 1 && rank[2] == 2 && rank[3] == 3);
    CHECK(rank[0] == 4 && rank[4] == 4 && rank[6] == 4);
    CHECK(dj_deal_parse(map, "England, France, *", &l, why, sizeof why) == 0);
    dj_deal_format(map, &l, text, sizeof text);
    CHECK_STR(text, "England, France, *");
    CHECK(dj_deal_parse(map, "*, russia", &l, why, sizeof why) == 0);
    dj_deal_ranks(&l, map->npowers, rank);
    CHECK(rank[5] == 2 && rank[0] == 1 && rank[1] == 1);
    CHECK(dj_deal_parse(map, "e*t", &l, why, sizeof why) == 0);
    dj_deal_ranks(&l, map->npowers, rank);
    CHECK(rank[1] == 1 && rank[6] == 3 && rank[3] == 2);
    /* refusals name the problem */
    CHECK(dj_deal_parse(map, "EFX", &l, why, sizeof why) < 0);
    CHECK(strstr(why, "no power 'EFX'") != NULL);
    CHECK(dj_deal_parse(map, "Englnd", &l, why, sizeof why) < 0);
    CHECK(strstr(why, "Englnd") != NULL);
    CHECK(dj_deal_parse(map, "EFE", &l, why, sizeof why) < 0);
    CHECK_STR(why, "England is given twice");
    CHECK(dj_deal_parse(map, "England, E", &l, why, sizeof why) < 0);
    CHECK(dj_deal_parse(map, "*, E, *", &l, why, sizeof why) < 0);
    CHECK(strstr(why, "twice") != NULL);
    CHECK(dj_deal_parse(map, " , ", &l, why, sizeof why) < 0);
    CHECK(strstr(why, "empty") != NULL);
    /* no list: every power ranks alike */
    memset(&l, 0, sizeof l);
    dj_deal_ranks(&l, map->npowers, rank);
    CHECK(rank[0] == 1 && rank[6] == 1);
}

static uint64_t state = 12345;
static unsigned next(unsigned n)
{
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(state >> 33) % n;
}

static int best;
static int total(int n, int npowers, const int *rank, const int *assign)
{
    int t = 0;
    for (int i = 0; i < n; i++)
        t += rank[i * npowers + assign[i]];
    return t;
}

/* every assignment of n players to the free powers: the least total */
static void search(int i, int n, int npowers, const int *rank,
                   const bool *free, bool *taken, int *a)
{
    if (i == n) {
        int t = total(n, npowers, rank, a);
        if (t < best)
            best = t;
        return;
    }
    for (int p = 0; p < npowers; p++)
        if (free[p] && !taken[p]) {
            taken[p] = true;
            a[i] = p;
            search(i + 1, n, npowers, rank, free, taken, a);
            taken[p] = false;
        }
}

static void test_optimum(void)
{
    int ok = 0, rounds = 400;
    for (int round = 0; round < rounds; round++) {
        int npowers = 2 + (int)next(6); /* 2..7: 5040 permutations at most */
        bool free[DJ_MAX_POWERS];
        int nfree = 0;
        for (int p = 0; p < npowers; p++)
            nfree += (free[p] = next(5) != 0);
        int n = nfree ? (int)next((unsigned)nfree) + 1 : 0;
        int rank[DJ_MAX_POWERS * DJ_MAX_POWERS];
        for (int i = 0; i < n; i++) {
            dj_deal_list l;
            memset(&l, 0, sizeof l);
            bool used[DJ_MAX_POWERS] = {false};
            int len = (int)next((unsigned)npowers + 1);
            for (int k = 0; k < len; k++) {
                int p = (int)next((unsigned)npowers);
                if (!used[p]) {
                    used[p] = true;
                    l.item[l.n++] = p;
                }
            }
            if (next(3) == 0)
                l.item[l.n++] = DJ_DEAL_ANY;
            dj_deal_ranks(&l, npowers, rank + i * npowers);
        }
        int a[DJ_MAX_POWERS], b[DJ_MAX_POWERS], s[DJ_MAX_POWERS];
        bool taken[DJ_MAX_POWERS] = {false};
        uint64_t seed = state;
        if (dj_deal(n, npowers, rank, free, seed, a) < 0)
            continue;
        best = 1 << 30;
        search(0, n, npowers, rank, free, taken, s);
        /* a deal: distinct free powers, the least total rank */
        bool seen[DJ_MAX_POWERS] = {false}, fine = true;
        for (int i = 0; i < n; i++) {
            fine = fine && a[i] >= 0 && a[i] < npowers && free[a[i]] &&
                   !seen[a[i]];
            if (a[i] >= 0 && a[i] < npowers)
                seen[a[i]] = true;
        }
        fine = fine && (n == 0 || total(n, npowers, rank, a) == best);
        /* the same seed, the same deal */
        dj_deal(n, npowers, rank, free, seed, b);
        fine = fine && memcmp(a, b, sizeof(int) * (size_t)n) == 0;
        ok += fine;
    }
    CHECK(ok == rounds);
}

/* A known case: the optimum is not everyone's first choice. */
static void test_known(void)
{
    /* three players, three powers A B C; lists: 1 "A B", 2 "A C", 3 "A" */
    int rank[9] = {1, 2, 3, /**/ 1, 3, 2, /**/ 1, 2, 2};
    bool free[3] = {true, true, true};
    int a[3];
    CHECK(dj_deal(3, 3, rank, free, 1, a) == 0);
    /* the least total is 5 (A B C: 1 + 2 + 2 however it falls);
     * every permutation agrees */
    best = 1 << 30;
    bool taken[3] = {false};
    int s[3];
    search(0, 3, 3, rank, free, taken, s);
    CHECK(best == 5);
    CHECK(rank[0 * 3 + a[0]] + rank[1 * 3 + a[1]] + rank[2 * 3 + a[2]] == 5);
    /* ties: with no lists at all, seeds give different deals */
    int flat[49];
    for (int k = 0; k < 49; k++)
        flat[k] = 1;
    bool all[7] = {true, true, true, true, true, true, true};
    int d1[7], d2[7];
    int differ = 0;
    for (uint64_t sd = 1; sd < 20; sd++) {
        dj_deal(7, 7, flat, all, sd, d1);
        dj_deal(7, 7, flat, all, sd + 1000, d2);
        differ += memcmp(d1, d2, sizeof d1) != 0;
    }
    CHECK(differ >= 15);
    /* more players than free powers */
    bool two[3] = {true, false, true};
    CHECK(dj_deal(3, 3, rank, two, 1, a) < 0);
    /* Chaos's size is no problem */
    int big[34 * 34];
    bool bigfree[34];
    int da[34];
    for (int i = 0; i < 34; i++) {
        bigfree[i] = true;
        for (int p = 0; p < 34; p++)
            big[i * 34 + p] = p == i ? 1 : 2;
    }
    CHECK(dj_deal(34, 34, big, bigfree, 7, da) == 0);
    int firsts = 0;
    for (int i = 0; i < 34; i++)
        firsts += da[i] == i;
    CHECK(firsts == 34);
}

int main(int argc, char **argv)
{
    const char *srcdir = test_srcdir(argc, argv);
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/maps/standard.map", srcdir);
    map = dj_map_load(path, err, sizeof err);
    CHECK(map != NULL);
    if (map)
        test_parse();
    test_optimum();
    test_known();
    dj_map_free(map);
    return test_summary();
}
