/* SPDX-License-Identifier: MIT */
/*
 * map_names.c — the one form of a name that every lookup compares (lower
 * case, dots dropped, spaces collapsed), its hash, and the words names are
 * cut into: shared by the map-file parser, which builds the name tables,
 * and the lookups (map.c), which search them.
 */
#define _POSIX_C_SOURCE 200809L

#include "map_int.h"

#include <ctype.h>
#include <string.h>

/*
 * Lookup form of a name: lower case, dots dropped, runs of white space (and
 * '+', the DPjudge space) as one space, trimmed.  Reads the n bytes at src
 * (stopping early at a NUL); the key's length, or -1 if it does not fit.
 * ASCII only, as the C locale's ctype (the program never sets a locale):
 * every order and case-file word comes through here, so no ctype calls.
 */
int mp_normalise_n(const char *src, size_t len, char *dst, size_t size)
{
    size_t n = 0;
    bool space = false;
    for (size_t i = 0; i < len && src[i]; i++) {
        unsigned char c = (unsigned char)src[i];
        if (c == '.')
            continue;
        if (c == ' ' || c == '+' || (c >= '\t' && c <= '\r')) {
            space = n > 0;
            continue;
        }
        if (n + (space ? 2 : 1) >= size)
            return -1;
        if (space)
            dst[n++] = ' ';
        space = false;
        dst[n++] = mp_ascii_lower((char)c);
    }
    dst[n] = '\0';
    return (int)n;
}

bool mp_normalise(const char *src, char *dst, size_t size)
{
    return mp_normalise_n(src, (size_t)-1, dst, size) >= 0;
}

char *mp_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

uint32_t mp_name_hash(const char *s, size_t n)
{
    uint32_t h = NAME_HASH_START;
    for (size_t i = 0; i < n; i++)
        h = mp_name_hash_step(h, (unsigned char)s[i]);
    return h;
}

/* The words of a coast notation ("spa north coast", "spa (nc)"): each
 * coast's code, then the words that name it (coast_code), and the word
 * "coast" that may follow. */
const char *const MP_COAST_WORDS[MP_NCOAST_WORDS][4] = {
    {"nc", "n", "north", "nc"},
    {"sc", "s", "south", "sc"},
    {"ec", "e", "east", "ec"},
    {"wc", "w", "west", "wc"}};
const char MP_COAST_SUFFIX[6] = "coast";

/* Words of names, for dj_map_may_name: each alias cut at spaces,
 * parentheses and hyphens (the order reader's tokens), and the coast
 * words. */

bool mp_word_cut(char c)
{
    return c == ' ' || c == '(' || c == ')' || c == '-';
}

int32_t mp_find_word(const dj_map *m, const char *w, size_t n)
{
    uint32_t h = mp_name_hash(w, n);
    for (h &= m->word_hash_mask; m->word_hash[h];
         h = (h + 1) & m->word_hash_mask) {
        const char *have = m->name_words + m->word_hash[h];
        if (strncmp(have, w, n) == 0 && have[n] == '\0')
            return (int32_t)h;
    }
    return -(int32_t)h - 1; /* where it would go */
}

