/* SPDX-License-Identifier: MIT */
/*
 * fuzzy.c — bounded edit distance and near-name lookup on a map.
 *
 * Design.  dj_edit_distance keeps three rows of the classic dynamic
 * programme (the third for swaps) on the stack and gives up as soon as a
 * whole row exceeds the bound, which is what makes it cheap: most names
 * are rejected after a letter or two, and names whose length differs by
 * more than the bound are never compared at all.
 *
 * dj_fuzzy_locations walks the map's sorted name table (every abbreviation,
 * full name and alias, normalised) once, keeps the best distance per
 * location, then sorts by distance.
 */
#include "reader/fuzzy.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define ROW (DJ_FUZZY_TEXT_MAX + 1)
#define PREFIX_MIN 4 /* letters a shortened name needs to count */

static int min2(int a, int b)
{
    return a < b ? a : b;
}

/* One row of the programme: cur[j] from prev (row i-1) and prev2 (i-2). */
static int fill_row(const char *a, const char *b, size_t i, size_t m,
                    const int *prev2, const int *prev, int *cur)
{
    assert(i >= 1 && m < ROW); /* the rows hold every column */
    int best = cur[0] = (int)i;
    for (size_t j = 1; j <= m; j++) {
        int cost = a[i - 1] != b[j - 1];
        int v = min2(min2(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
            v = min2(v, prev2[j - 2] + 1); /* two letters swapped */
        cur[j] = v;
        best = min2(best, v);
    }
    return best;
}

int dj_edit_distance(const char *a, const char *b, int bound)
{
    if (!a || !b || bound < 0)
        return bound + 1;
    size_t n = strlen(a), m = strlen(b);
    if (n >= DJ_FUZZY_TEXT_MAX || m >= DJ_FUZZY_TEXT_MAX)
        return bound + 1;
    if ((n > m ? n - m : m - n) > (size_t)bound)
        return bound + 1;
    int rows[3][ROW];
    int *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= m; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        if (fill_row(a, b, i, m, prev2, prev, cur) > bound)
            return bound + 1; /* every path already costs too much */
        int *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return min2(prev[m], bound + 1);
}

int dj_fuzzy_bound(int nletters)
{
    if (nletters < 2)
        return 0;
    if (nletters <= 4)
        return 1;
    if (nletters <= 8)
        return 2;
    return 3;
}

static int count_letters(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s != ' ';
    return n;
}

/* Distance of text to one name, counting "text begins name" as 1. */
static int name_distance(const char *text, size_t tlen, const char *name,
                         int bound)
{
    int d = dj_edit_distance(text, name, bound);
    if (d > 1 && tlen >= PREFIX_MIN && strlen(name) > tlen &&
        strncmp(text, name, tlen) == 0)
        d = 1;
    return d;
}

static int cmp_match(const void *x, const void *y)
{
    const dj_loc_match *a = x, *b = y;
    if (a->dist != b->dist)
        return a->dist - b->dist;
    return a->loc - b->loc;
}

/* Sorted, for bsearch: words players write around orders and in prose,
 * never corrected into a place or a power. */
static const char *const COMMON_WORDS[] = {
    "a",      "about",   "all",    "also",    "am",     "an",
    "and",    "any",     "are",    "as",      "at",     "be",
    "best",   "but",     "by",     "can",     "cheers", "dear",
    "did",    "do",      "for",    "from",    "get",    "go",
    "goes",   "going",   "got",    "had",     "has",    "have",
    "he",     "hello",   "her",    "here",    "hey",    "hi",
    "him",    "his",     "how",    "i",       "i'd",    "i'm",
    "if",     "in",      "is",     "it",      "its",    "just",
    "kind",   "kindly",  "let",    "let's",   "lets",   "like",
    "many",   "may",     "me",     "my",      "new",    "no",
    "not",    "now",     "of",     "ok",      "okay",   "on",
    "one",    "or",      "our",    "out",     "per",    "please",
    "pls",    "plz",     "regards", "say",    "see",    "sent",
    "she",    "so",      "sure",   "thank",   "thanks", "that",
    "the",    "them",    "then",   "there",   "they",   "this",
    "thx",    "to",      "too",    "two",     "up",     "us",
    "via",    "want",    "was",    "way",     "we",     "what",
    "when",   "who",     "why",    "will",    "wish",   "with",
    "would",  "yes",     "you",    "your",
};

static int cmp_word(const void *key, const void *elem)
{
    return strcmp(key, *(const char *const *)elem);
}

bool dj_fuzzy_common_word(const char *w)
{
    return w && bsearch(w, COMMON_WORDS,
                        sizeof COMMON_WORDS / sizeof COMMON_WORDS[0],
                        sizeof COMMON_WORDS[0], cmp_word) != NULL;
}

int dj_fuzzy_locations(const dj_map *map, const char *text, dj_loc_match *out,
                       int max)
{
    if (!map || !text || !out || max <= 0 || !map->aliases)
        return 0;
    size_t tlen = strlen(text);
    /* A common English word is a place only when it is the name itself
     * ("and", the Andaman Sea on Youngstown): never a correction. */
    bool common = dj_fuzzy_common_word(text);
    int bound = common ? 0 : dj_fuzzy_bound(count_letters(text));
    if ((bound == 0 && !common) || tlen >= DJ_FUZZY_TEXT_MAX)
        return 0;
    if (map->nlocs <= 0 || map->nlocs > DJ_MAX_LOCS)
        return 0;
    uint8_t best[DJ_MAX_LOCS];
    memset(best, 0xff, sizeof best);
    for (int i = 0; i < map->naliases; i++) {
        const dj_alias *a = &map->aliases[i];
        int d = name_distance(text, tlen, a->text, bound);
        if (d <= bound && a->loc >= 0 && a->loc < map->nlocs &&
            d < best[a->loc])
            best[a->loc] = (uint8_t)d;
    }
    int n = 0;
    dj_loc_match all[DJ_MAX_LOCS];
    for (int loc = 0; loc < map->nlocs && n < DJ_MAX_LOCS; loc++)
        if (best[loc] != 0xff)
            all[n++] = (dj_loc_match){(int16_t)loc, best[loc]};
    qsort(all, (size_t)n, sizeof all[0], cmp_match);
    if (n > max)
        n = max;
    memcpy(out, all, (size_t)n * sizeof all[0]);
    return n;
}
