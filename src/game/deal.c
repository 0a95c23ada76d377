/* SPDX-License-Identifier: MIT */
/*
 * deal.c — preference lists read and powers dealt by them (deal.h).
 *
 * Why the Hungarian method: the deal must be exact (the least total rank
 * there is) on every board, and Chaos has 34 powers: no search over
 * permutations could finish.  The method is O(n^2 m) and exact.  Ties are
 * broken by folding seeded weights into the costs below the rank's unit
 * (RANK_UNIT exceeds the most the weights of a whole deal can add up to),
 * so the deal minimises the total rank first and the weights second: a
 * well-defined optimum whatever order the method visits, reproducible
 * from the seed.
 */
#include "game/deal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define WEIGHT_BITS 20
#define RANK_UNIT ((int64_t)1 << 27) /* > DJ_MAX_POWERS << WEIGHT_BITS */

/* splitmix64 of one value. */
static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---- reading ----------------------------------------------------------------- */

static int letter_power(const dj_map *map, char c)
{
    for (int p = 0; p < map->npowers; p++)
        if (toupper((unsigned char)map->powers[p].letter) ==
            toupper((unsigned char)c))
            return p;
    return -1;
}

static int add_item(const dj_map *map, dj_deal_list *list, int item,
                    char *why, size_t whylen)
{
    for (int i = 0; i < list->n; i++)
        if (list->item[i] == item) {
            if (item == DJ_DEAL_ANY)
                snprintf(why, whylen, "'*' (the rest) is given twice");
            else
                snprintf(why, whylen, "%s is given twice",
                         map->powers[item].name);
            return -1;
        }
    if (list->n >= DJ_MAX_POWERS + 1) {
        snprintf(why, whylen, "too many powers");
        return -1;
    }
    list->item[list->n++] = item;
    return 0;
}

static int read_word(const dj_map *map, const char *w, dj_deal_list *list,
                     char *why, size_t whylen)
{
    if (strcmp(w, "*") == 0)
        return add_item(map, list, DJ_DEAL_ANY, why, whylen);
    int p = dj_map_find_power(map, w);
    if (p >= 0)
        return add_item(map, list, p, why, whylen);
    /* a run of letters, '*' among them perhaps: each must be a power's */
    for (const char *c = w; *c; c++)
        if (*c != '*' && letter_power(map, *c) < 0) {
            char letters[DJ_MAX_POWERS + 1];
            int k = 0;
            for (int q = 0; q < map->npowers && k < DJ_MAX_POWERS; q++)
                letters[k++] = map->powers[q].letter;
            letters[k] = '\0';
            snprintf(why, whylen,
                     "no power '%s' on map %s: give power names, or "
                     "their letters (%s)",
                     w, map->name, letters);
            return -1;
        }
    for (const char *c = w; *c; c++)
        if (add_item(map, list,
                     *c == '*' ? DJ_DEAL_ANY : letter_power(map, *c), why,
                     whylen) < 0)
            return -1;
    return 0;
}

int dj_deal_parse(const dj_map *map, const char *text, dj_deal_list *list,
                  char *why, size_t whylen)
{
    memset(list, 0, sizeof *list);
    char word[DJ_DEAL_TEXT_MAX];
    const char *s = text ? text : "";
    while (*s) {
        while (*s == ',' || isspace((unsigned char)*s))
            s++;
        size_t n = 0;
        while (s[n] && s[n] != ',' && !isspace((unsigned char)s[n]))
            n++;
        if (n == 0)
            break;
        if (n >= sizeof word) {
            snprintf(why, whylen, "a word of the list is too long");
            return -1;
        }
        memcpy(word, s, n);
        word[n] = '\0';
        s += n;
        if (read_word(map, word, list, why, whylen) < 0)
            return -1;
    }
    if (list->n == 0) {
        snprintf(why, whylen, "the list is empty: give powers in the order "
                              "you prefer them (EFG, or England, France, *)");
        return -1;
    }
    return 0;
}

void dj_deal_format(const dj_map *map, const dj_deal_list *list, char *out,
                    size_t len)
{
    size_t used = 0;
    if (len)
        out[0] = '\0';
    for (int i = 0; i < list->n && used < len; i++) {
        int k = snprintf(out + used, len - used, "%s%s", i ? ", " : "",
                         list->item[i] == DJ_DEAL_ANY
                             ? "*"
                             : map->powers[list->item[i]].name);
        if (k < 0)
            break;
        used += (size_t)k;
    }
}

void dj_deal_ranks(const dj_deal_list *list, int npowers, int *rank)
{
    bool named[DJ_MAX_POWERS] = {false};
    bool any = false;
    for (int i = 0; i < list->n; i++) {
        if (list->item[i] == DJ_DEAL_ANY)
            any = true;
        else if (list->item[i] >= 0 && list->item[i] < npowers)
            named[list->item[i]] = true;
    }
    /* the implicit '*' at the end of a list without one */
    int rank_any = list->n + (any ? 0 : 1);
    int r = 0;
    for (int i = 0; i < list->n; i++) {
        r++;
        if (list->item[i] == DJ_DEAL_ANY)
            rank_any = r;
        else if (list->item[i] >= 0 && list->item[i] < npowers)
            rank[list->item[i]] = r;
    }
    if (list->n == 0)
        rank_any = 1;
    for (int p = 0; p < npowers; p++)
        if (!named[p])
            rank[p] = rank_any;
}

/* ---- the deal ---------------------------------------------------------------- */

int dj_deal(int nplayers, int npowers, const int *rank, const bool *avail,
            uint64_t seed, int *assign)
{
    int col[DJ_MAX_POWERS + 1]; /* the free powers, 1-based */
    int m = 0;
    for (int p = 0; p < npowers && p < DJ_MAX_POWERS; p++)
        if (avail[p])
            col[++m] = p;
    int n = nplayers;
    if (n > m || n < 0)
        return -1;
    if (n == 0)
        return 0;
    static const int64_t INF = INT64_MAX / 4;
    int64_t u[DJ_MAX_POWERS + 1] = {0}, v[DJ_MAX_POWERS + 1] = {0};
    int64_t minv[DJ_MAX_POWERS + 1];
    int pr[DJ_MAX_POWERS + 1] = {0}, way[DJ_MAX_POWERS + 1] = {0};
    bool used[DJ_MAX_POWERS + 1];
#define COST(i, j)                                                          \
    ((int64_t)rank[(i - 1) * npowers + col[j]] * RANK_UNIT +               \
     (int64_t)(mix(seed ^ mix((uint64_t)(i - 1) << 8 | (uint64_t)col[j])) >> \
               (64 - WEIGHT_BITS)))
    for (int i = 1; i <= n; i++) {
        pr[0] = i;
        int j0 = 0;
        for (int j = 0; j <= m; j++) {
            minv[j] = INF;
            used[j] = false;
        }
        do {
            used[j0] = true;
            int i0 = pr[j0], j1 = 0;
            int64_t delta = INF;
            for (int j = 1; j <= m; j++)
                if (!used[j]) {
                    int64_t cur = COST(i0, j) - u[i0] - v[j];
                    if (cur < minv[j]) {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if (minv[j] < delta) {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            for (int j = 0; j <= m; j++)
                if (used[j]) {
                    u[pr[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            j0 = j1;
        } while (pr[j0] != 0);
        do {
            int j1 = way[j0];
            pr[j0] = pr[j1];
            j0 = j1;
        } while (j0);
    }
#undef COST
    for (int j = 1; j <= m; j++)
        if (pr[j])
            assign[pr[j] - 1] = col[j];
    return 0;
}
