/* SPDX-License-Identifier: MIT */
/*
 * deal.h — dealing powers by the players' preference lists (assignment =
 * preference, issue 37): reading a list (SET PREFERENCE EFG, or England,
 * France, *) and the deal itself.  No I/O and no store: the lifecycle
 * (lifecycle.c) reads the lists, calls dj_deal and writes what it says;
 * tests/unit/test_deal.c checks the deal against every permutation.
 *
 * The method (dipjudge(7), "Power preferences").  A list ranks the
 * powers: each power named has its own rank in the order given, `*`
 * stands for every power not named (all at one rank), and a list
 * without `*` ends with one.  So "E F G" ranks England 1, France 2,
 * Germany 3 and every other power 4; "*, Russia" ranks Russia after all
 * the rest; no list ranks every power 1.  The deal is the assignment of
 * players to the free powers with the least total rank (each player one
 * power, no power twice), found exactly by the Hungarian method; among
 * assignments of equal total rank it is the one with the least total of
 * weights drawn from the seed (splitmix64 of seed, player and power), so
 * the same seed, players (in the order they joined) and lists always give
 * the same deal.
 */
#ifndef DJ_GAME_DEAL_H
#define DJ_GAME_DEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/map.h"

#define DJ_DEAL_ANY (-1) /* the `*` of a list */
#define DJ_DEAL_TEXT_MAX 1024

/* A list as read: powers (map indices) and at most one DJ_DEAL_ANY. */
typedef struct dj_deal_list {
    int n;
    int item[DJ_MAX_POWERS + 1];
} dj_deal_list;

/*
 * Read a list: words separated by commas or spaces, each a power's name
 * (or adjective), a run of power letters ("EFG"), or `*`.  0, or -1 with
 * the problem in why (an unknown power or letter, a power twice, `*`
 * twice, an empty list).
 */
int dj_deal_parse(const dj_map *map, const char *text, dj_deal_list *list,
                  char *why, size_t whylen);

/* The list as stored and shown: "England, France, *" ("" when empty). */
void dj_deal_format(const dj_map *map, const dj_deal_list *list, char *out,
                    size_t len);

/* Each power's rank (1 best) under the list; an empty list ranks all 1. */
void dj_deal_ranks(const dj_deal_list *list, int npowers, int *rank);

/*
 * Deal: rank[i * npowers + p] is player i's rank of power p; only powers
 * with avail[p] may be dealt; nplayers at most the free powers.  Writes
 * each player's power into assign[i].  0, or -1 when there are more
 * players than free powers.
 */
int dj_deal(int nplayers, int npowers, const int *rank, const bool *avail,
            uint64_t seed, int *assign);

#endif
