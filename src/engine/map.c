/* SPDX-License-Identifier: MIT */
/*
 * map.c — the lookups the engine, the reader and every other room run
 * against a loaded dj_map: locations by any of their names (coasts
 * included), powers, adjacency and reach, coasts of a province, the
 * map's own names of its seasons (position.c).  Loading is in map_load.c.
 *
 * Adjacency entries for armies always point at a province's base location,
 * so "may an army go from X to Y" is a binary search for Y's province in
 * X's sorted list; fleet entries name the exact location (coast).
 */
#define _POSIX_C_SOURCE 200809L

#include "map.h"
#include "map_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool dj_map_may_name(const dj_map *map, const char *word, size_t n)
{
    char key[KEY_MAX];
    if (!map || !map->word_hash || n >= sizeof key)
        return true; /* longer than any name: let the lookup say */
    if (n == 1 && mp_letter_index(word[0]) >= 0) {
        /* One letter (the unit's after S or C, for every such order):
         * its lookup form is itself in lower case. */
        char letter = mp_ascii_lower(word[0]);
        return mp_find_word(map, &letter, 1) >= 0;
    }
    bool alnum = false;
    for (size_t i = 0; i < n && !alnum; i++)
        alnum = isalnum((unsigned char)word[i]);
    if (!alnum)
        return true;
    int klen = mp_normalise_n(word, n, key, sizeof key);
    if (klen < 0)
        return true;
    return mp_find_word(map, key, (size_t)klen) >= 0;
}

/* ---- public: lookups ---------------------------------------------------- */

static bool valid_loc(const dj_map *map, int loc)
{
    return map && loc >= 0 && loc < map->nlocs;
}

static int cmp_alias_text(const void *key, const void *elem)
{
    return strcmp(key, ((const dj_alias *)elem)->text);
}

/* Exact lookup of normalised text (its length known) in the name table. */
static int lookup_name_n(const dj_map *map, const char *key, size_t klen)
{
    if (!map->aliases || map->naliases <= 0)
        return -1;
    if (map->alias_hash) {
        uint32_t h = mp_name_hash(key, klen) & map->alias_hash_mask;
        for (int32_t e; (e = map->alias_hash[h]) != 0;
             h = (h + 1) & map->alias_hash_mask)
            if (strcmp(map->aliases[e - 1].text, key) == 0)
                return map->aliases[e - 1].loc;
        return -1;
    }
    const dj_alias *a = bsearch(key, map->aliases, (size_t)map->naliases,
                                sizeof *map->aliases, cmp_alias_text);
    return a ? a->loc : -1;
}

static int lookup_name(const dj_map *map, const char *key)
{
    return lookup_name_n(map, key, strlen(key));
}

/* "north", "n", "nc", "north coast" -> "nc"; other text is kept as is. */
static void coast_code(char *word, char *code, size_t size)
{
    size_t n = strlen(word);
    if (n >= 5 && strcmp(word + n - 5, MP_COAST_SUFFIX) == 0)
        word[n - 5] = '\0';
    word = mp_trim(word);
    for (size_t i = 0; i < sizeof MP_COAST_WORDS / sizeof MP_COAST_WORDS[0];
         i++)
        for (int j = 1; j < 4; j++)
            if (strcmp(word, MP_COAST_WORDS[i][j]) == 0) {
                snprintf(code, size, "%s", MP_COAST_WORDS[i][0]);
                return;
            }
    snprintf(code, size, "%s", word);
}

/* Split "spa/nc", "spa(nc)", "spa nc", "spa north coast" in place into a
 * province part and a coast part; false if there is no coast part. */
static bool split_coast(char *key, char **prov, char **coast)
{
    char *cut = strrchr(key, '/');
    size_t n = strlen(key);
    if (!cut && n > 0 && key[n - 1] == ')' && (cut = strrchr(key, '(')))
        key[n - 1] = '\0';
    if (!cut) {
        if (n > 6 && strcmp(key + n - 6, " coast") == 0)
            key[n - 6] = '\0';
        cut = strrchr(key, ' ');
    }
    if (!cut)
        return false;
    *cut = '\0';
    *prov = mp_trim(key);
    *coast = mp_trim(cut + 1);
    return **prov && **coast;
}

static int find_with_coast(const dj_map *map, char *key)
{
    char *prov_text, *coast_text;
    if (!split_coast(key, &prov_text, &coast_text))
        return -1;
    int loc = lookup_name(map, prov_text);
    if (loc < 0)
        return -1;
    char code[KEY_MAX];
    coast_code(coast_text, code, sizeof code);
    int prov = map->locs[loc].province;
    for (int i = 0; i < dj_map_ncoasts(map, prov); i++) {
        int c = dj_map_coast(map, prov, i);
        const char *slash = strchr(map->locs[c].abbr, '/');
        if (slash && strcmp(slash + 1, code) == 0)
            return c;
    }
    return -1;
}

/*
 * The lookup of a plain word, letters, digits and '-' ("lon", "LON",
 * "mid-atlantic"), whose lookup form is itself in lower case: hashed and
 * compared where it stands, no copy.  Such a word that is no name is no
 * coast notation either (those need '/', '(' or a space), so a miss is
 * final (-1).  -2: not a plain word, for the general lookup.
 */
static __attribute__((noinline)) int find_plain_word(const dj_map *map,
                                                     const char *text, size_t n)
{
    if (!map->alias_hash)
        return -2;
    uint32_t h = NAME_HASH_START; /* name_hash of the lower-cased word */
    bool upper = false;
    size_t i = 0;
    for (; i < n && text[i]; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 'A' && c <= 'Z') {
            c += 'a' - 'A';
            upper = true;
        } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                     c == '-')) {
            return -2;
        }
        h = mp_name_hash_step(h, c);
    }
    if (i == 0 || i >= DJ_NAME_MAX) /* longer than any alias's text */
        return -2;
    for (h &= map->alias_hash_mask; map->alias_hash[h];
         h = (h + 1) & map->alias_hash_mask) {
        const dj_alias *a = &map->aliases[map->alias_hash[h] - 1];
        if (a->text[i] != '\0')
            continue;
        if (!upper) {
            if (memcmp(a->text, text, i) == 0)
                return a->loc;
            continue;
        }
        size_t j = 0;
        while (j < i && a->text[j] == mp_ascii_lower(text[j]))
            j++;
        if (j == i)
            return a->loc;
    }
    return -1;
}

/* The lookup of any other text: normalised into a key first.  Kept out
 * of line so that the plain words' path sets up no key buffer. */
static __attribute__((noinline)) int find_normalised(const dj_map *map,
                                                     const char *text, size_t n)
{
    char key[KEY_MAX];
    int klen = mp_normalise_n(text, n, key, sizeof key);
    if (klen <= 0)
        return -1;
    int loc = lookup_name_n(map, key, (size_t)klen);
    return loc >= 0 ? loc : find_with_coast(map, key);
}

/* The lookup of anything but three letters: a plain word, else the
 * normalised text.  Out of line, so that the three letters' path below
 * keeps nothing in registers across a call. */
static __attribute__((noinline)) int find_other(const dj_map *map,
                                                const char *text, size_t n)
{
    int plain = find_plain_word(map, text, n);
    return plain != -2 ? plain : find_normalised(map, text, n);
}

int dj_map_find_location_n(const dj_map *map, const char *text, size_t n)
{
    if (!map || !text)
        return -1;
    /* Three letters, either case: one look in a table (one test of the
     * three letters together).  A NUL-terminated text (n unknown) is read
     * no further than its end: text[3] only after three non-NULs. */
    if (map->three_letter && n >= 3 &&
        (n == 3 || (text[0] && text[1] && text[2] && text[3] == '\0'))) {
        int l0 = mp_letter_index(text[0]), l1 = mp_letter_index(text[1]),
            l2 = mp_letter_index(text[2]);
        if ((l0 | l1 | l2) >= 0)
            return map->three_letter[(l0 * 26 + l1) * 26 + l2] - 1;
    }
    return find_other(map, text, n);
}

int dj_map_find_location(const dj_map *map, const char *text)
{
    return dj_map_find_location_n(map, text, (size_t)-1);
}

int dj_map_find_power(const dj_map *map, const char *text)
{
    char key[DJ_NAME_MAX], have[DJ_NAME_MAX];
    if (!map || !text)
        return -1;
    /* Most lookups name a power exactly: no normalising needed (and the
     * first letter settles most of the comparisons). */
    char first = mp_ascii_lower(text[0]);
    for (int i = 0; i < map->npowers; i++) {
        const char *a = text, *b = map->powers[i].name;
        if (mp_ascii_lower(*b) != first)
            continue;
        while (*a && mp_ascii_lower(*a) == mp_ascii_lower(*b))
            a++, b++;
        if (!*a && !*b)
            return i;
    }
    if (!mp_normalise(text, key, sizeof key) || !*key)
        return -1;
    for (int i = 0; i < map->npowers; i++) {
        const dj_power *pw = &map->powers[i];
        if (mp_normalise(pw->name, have, sizeof have) && strcmp(key, have) == 0)
            return i;
        if (mp_normalise(pw->adjective, have, sizeof have) &&
            strcmp(key, have) == 0)
            return i;
        if (key[1] == '\0' && toupper((unsigned char)key[0]) == pw->letter)
            return i;
    }
    return -1;
}

/* The entry for `to` in a location's sorted adjacency list, or NULL. */
static const dj_adj *find_adj(const dj_location *l, int to)
{
    int lo = 0, hi = l->nadj - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (l->adj[mid].to == to)
            return &l->adj[mid];
        if (l->adj[mid].to < to)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

bool dj_map_adjacent(const dj_map *map, int from, int to, dj_unit_type type)
{
    if (!valid_loc(map, from) || !valid_loc(map, to))
        return false;
    if (map->reach && (type == DJ_ARMY || type == DJ_FLEET))
        return map->reach[(size_t)from * (size_t)map->nlocs + (size_t)to] &
               (type == DJ_ARMY ? REACH_ARMY_ADJ : REACH_FLEET_ADJ);
    if (type == DJ_ARMY) {
        /* Armies move province to province: entries name base locations. */
        from = map->locs[from].province;
        to = map->locs[to].province;
    } else if (type != DJ_FLEET) {
        return false;
    }
    const dj_adj *a = find_adj(&map->locs[from], to);
    return a && (a->types & DJ_TYPE_BIT(type));
}

bool dj_map_reaches_province(const dj_map *map, int from, int prov,
                             dj_unit_type type)
{
    if (!valid_loc(map, from) || !valid_loc(map, prov))
        return false;
    if (map->reach && (type == DJ_ARMY || type == DJ_FLEET))
        return map->reach[(size_t)from * (size_t)map->nlocs + (size_t)prov] &
               (type == DJ_ARMY ? REACH_ARMY_PROV : REACH_FLEET_PROV);
    prov = map->locs[prov].province;
    if (type == DJ_ARMY)
        return dj_map_adjacent(map, from, prov, DJ_ARMY);
    if (type != DJ_FLEET)
        return false;
    const dj_location *l = &map->locs[from];
    for (int i = 0; i < l->nadj; i++)
        if ((l->adj[i].types & DJ_TYPE_BIT(DJ_FLEET)) &&
            map->locs[l->adj[i].to].province == prov)
            return true;
    return false;
}

bool dj_map_half_border(const dj_map *map, int from, int to,
                        dj_unit_type type)
{
    if (!map->half_borders || !valid_loc(map, from) || !valid_loc(map, to))
        return false;
    if (map->reach && (type == DJ_ARMY || type == DJ_FLEET))
        return map->reach[(size_t)from * (size_t)map->nlocs + (size_t)to] &
               (type == DJ_ARMY ? REACH_ARMY_HALF : REACH_FLEET_HALF);
    if (type == DJ_ARMY) {
        from = map->locs[from].province;
        to = map->locs[to].province;
    } else if (type != DJ_FLEET) {
        return false;
    }
    const dj_adj *a = find_adj(&map->locs[from], to);
    return a && (a->types & a->half & DJ_TYPE_BIT(type));
}

bool dj_map_reaches_province_whole(const dj_map *map, int from, int prov,
                                   dj_unit_type type)
{
    if (!map->half_borders)
        return dj_map_reaches_province(map, from, prov, type);
    if (!valid_loc(map, from) || !valid_loc(map, prov))
        return false;
    if (map->reach && (type == DJ_ARMY || type == DJ_FLEET))
        return map->reach[(size_t)from * (size_t)map->nlocs + (size_t)prov] &
               (type == DJ_ARMY ? REACH_ARMY_PROV_WHOLE
                                : REACH_FLEET_PROV_WHOLE);
    prov = map->locs[prov].province;
    if (type == DJ_ARMY)
        return dj_map_adjacent(map, from, prov, DJ_ARMY) &&
               !dj_map_half_border(map, from, prov, DJ_ARMY);
    if (type != DJ_FLEET)
        return false;
    const dj_location *l = &map->locs[from];
    for (int i = 0; i < l->nadj; i++)
        if ((l->adj[i].types & ~l->adj[i].half & DJ_TYPE_BIT(DJ_FLEET)) &&
            map->locs[l->adj[i].to].province == prov)
            return true;
    return false;
}

/* The loader places a province's coasts right after its base location. */
int dj_map_ncoasts(const dj_map *map, int prov)
{
    if (!valid_loc(map, prov))
        return 0;
    prov = map->locs[prov].province;
    int n = 0;
    while (prov + 1 + n < map->nlocs &&
           map->locs[prov + 1 + n].province == prov &&
           map->locs[prov + 1 + n].is_coast)
        n++;
    return n;
}

int dj_map_coast(const dj_map *map, int prov, int i)
{
    if (!valid_loc(map, prov) || i < 0 || i >= dj_map_ncoasts(map, prov))
        return -1;
    return map->locs[prov].province + 1 + i;
}
