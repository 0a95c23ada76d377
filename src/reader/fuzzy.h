/* SPDX-License-Identifier: MIT */
/*
 * fuzzy.h — close matches for misspelt words: edit distance, and the map
 * locations whose names are near a piece of text.
 *
 * The distance is Damerau-Levenshtein in its "optimal string alignment"
 * form: insertions, deletions, substitutions and swaps of two neighbouring
 * letters each cost 1 ("pariz" -> "paris" is 1, "bohmeia" -> "bohemia" 1).
 * Every computation is cut off at a bound, so a lookup against a few
 * hundred names costs little however long the input is.
 *
 * How far a word may be from a name depends on its length
 * (dj_fuzzy_bound): a short word has few letters to spare, so "pir" may be
 * one letter off, "pariz" two.  A word of four letters or more that begins
 * a name ("tyrrh", "bohe") also matches it, at distance 1: players shorten
 * names as often as they misspell them.
 */
#ifndef DJ_READER_FUZZY_H
#define DJ_READER_FUZZY_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/map.h"

#define DJ_FUZZY_TEXT_MAX 64 /* longest text compared; longer never matches */

/*
 * Distance between a and b, or bound + 1 as soon as it is known to exceed
 * `bound` (also when either string is longer than DJ_FUZZY_TEXT_MAX - 1).
 */
int dj_edit_distance(const char *a, const char *b, int bound);

/* The largest distance accepted for text of n letters (spaces not counted). */
int dj_fuzzy_bound(int nletters);

typedef struct dj_loc_match {
    int16_t
        loc; /* a location of the map (a coast when a coast's name matched) */
    uint8_t dist; /* distance of its closest name */
} dj_loc_match;

/*
 * Locations with a name (abbreviation, full name or alias) within the bound
 * for `text` (already lower case, single spaces, no dots), closest first,
 * ties in map order; at most `max`.  Returns how many were written.
 */
int dj_fuzzy_locations(const dj_map *map, const char *text, dj_loc_match *out,
                       int max);

/*
 * Is w (lower case) one of the common English words players write around
 * orders ("go", "to", "the", "please", "me", "we"...)?  Such a word is
 * never corrected into a place or a power: dj_fuzzy_locations() gives it
 * only a place of exactly that name.
 */
bool dj_fuzzy_common_word(const char *w);

#endif
