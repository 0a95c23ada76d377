/* SPDX-License-Identifier: MIT */
/*
 * rules_map.h — building the rules a game is played under.
 *
 * A game's rules come from three layers, each overriding the one before:
 *
 *   1. the DATC's preferred choices (dj_rules_default),
 *   2. the RULE lines of the game's map file, in file order,
 *   3. explicit overrides: the game's own settings, a case file's RULE
 *      lines, `judgectl rules --rule`.
 *
 * Each assignment is "name=value" as dj_rules_set() takes it.  Every
 * function here leaves its output untouched when it fails, and reports the
 * offending assignment in `err` (when err is not NULL).
 */
#ifndef DJ_ENGINE_RULES_MAP_H
#define DJ_ENGINE_RULES_MAP_H

#include <stddef.h>

#include "map.h"
#include "rules.h"

/* Where the value of one option came from. */
typedef enum {
    DJ_RULE_FROM_DEFAULT = 0, /* the DATC's preferred choice */
    DJ_RULE_FROM_MAP,         /* a RULE line of the map */
    DJ_RULE_FROM_OVERRIDE     /* an explicit override */
} dj_rule_source;

/*
 * Apply one "name=value" assignment like dj_rules_set(), and say which
 * option it set.  Returns the dj_rule_id, or -1 (rules untouched, message
 * in err).
 */
int dj_rule_assign(dj_rules *rules, const char *assignment, char *err,
                   size_t errlen);

/*
 * Apply the map's RULE lines, in order, on top of *rules.  `from`, when not
 * NULL, has the options the map sets marked DJ_RULE_FROM_MAP.  Returns 0,
 * or -1 with err = "RULE 'text' of map 'name': why" for the first bad line;
 * on error neither *rules nor `from` is changed.
 */
int dj_rules_apply_map(const dj_map *map, dj_rules *rules,
                       dj_rule_source from[DJ_RULE_COUNT], char *err,
                       size_t errlen);

/* Defaults, then the map's RULE lines.  Returns 0, or -1 as above. */
int dj_rules_from_map(const dj_map *map, dj_rules *rules, char *err,
                      size_t errlen);

/*
 * The whole build: defaults, the map's RULE lines (map may be NULL), then
 * the `noverrides` assignments in `overrides`.  `from`, when not NULL,
 * receives where each option's value came from.  Returns 0, or -1 with the
 * first bad assignment in err ("override 'text': why" for an override);
 * on error neither *rules nor `from` is changed.
 */
int dj_rules_build(const dj_map *map, const char *const *overrides,
                   int noverrides, dj_rules *rules,
                   dj_rule_source from[DJ_RULE_COUNT], char *err,
                   size_t errlen);

#endif
