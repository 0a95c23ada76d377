/* SPDX-License-Identifier: MIT */
/*
 * notation.h — the strict, standard order notation of adjudicator test files
 * ("A bud-ser", "F nth C A lon-bel", "Build F stp/sc", ...).
 *
 * This reader knows the map but not the position: it turns words into an
 * order exactly as written and leaves every question of legality to the
 * engine.  The best-effort reader for players' mail is built on top of it.
 */
#ifndef DJ_READER_NOTATION_H
#define DJ_READER_NOTATION_H

#include "engine/map.h"
#include "engine/order.h"
#include "engine/position.h"

/*
 * Parse one order for `power` in a phase of type `phase`.  Accepts
 * "A bud-ser", "A bud - ser", "A bud -> ser", "army budapest moves to serbia",
 * "A mar S A par-bur", "A mar supports A par", "F nth C A lon-bel",
 * "A par H" / "hold", "A lon-bel via convoy" / "by convoy",
 * jDip's "A bud => ser" and a full stop at the end ("Army Galicia HOLD."),
 * "A lon-nth-bel" (a route), coasts "spa/nc", "spa(nc)", "spa nc",
 * full names, "Build A par", "Build F stp/sc", "Remove F bre",
 * "A lvp-yor" or "A lvp R yor" (retreat), "Disband A lvp", "Waive".
 * In a retreat phase a move is a retreat; in an adjustment phase
 * "A par B" and "F bre D" are accepted too.
 * Returns 0, or -1 with a short message in err.
 */
int dj_notation_parse(const dj_map *map, int power, dj_phase_type phase,
                      const char *text, dj_order *out, char *err,
                      size_t errlen);

/*
 * The same, by the general reader alone.  dj_notation_parse reads the
 * plainest orders ("A lvp-yor", "A lvp S A lon-yor") on a quick path that
 * must give the same answer; tests compare the two.
 */
int dj_notation_parse_general(const dj_map *map, int power,
                              dj_phase_type phase, const char *text,
                              dj_order *out, char *err, size_t errlen);

/* Locations named in dj_notation_unknown_place's message, at most. */
#define DJ_NEAREST_PLACES 3

/*
 * The message for a place the map does not know, the `n` bytes at `text`:
 * "unknown location 'galacia' (nearest: Galicia (gal))", naming up to
 * DJ_NEAREST_PLACES locations whose names are close (reader/fuzzy.h).
 * Returns how many it names.
 */
int dj_notation_unknown_place(const dj_map *map, const char *text, size_t n,
                              char *msg, size_t len);

#endif
