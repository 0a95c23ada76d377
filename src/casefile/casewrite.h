/* SPDX-License-Identifier: MIT */
/*
 * casewrite.h — a phase written out as a case file, the format
 * `judgectl check` reads (casefile.h), so that a phase the judge found
 * doubtful can be pasted into tests/ and replayed.
 */
#ifndef DJ_CASEFILE_CASEWRITE_H
#define DJ_CASEFILE_CASEWRITE_H

#include <stdio.h>

#include "engine/adjudicate.h"

/* "VARIANT_ALL <map>": once, before the cases. */
void dj_case_write_variant(FILE *out, const dj_map *map);

/*
 * One case: `name`, then `comment` as "# " lines (NULL for none), the
 * rules that differ from the defaults, the phase, the centre owners, the
 * units (and dislodged units), the orders and, from `res`, the position
 * after the phase (POSTSTATE, POSTSTATE_DISLODGED), then END.  Only
 * movement and adjustment phases can be written whole: a retreat case
 * would need the previous phase's results (PRESTATE_RESULTS).
 */
void dj_case_write(FILE *out, const dj_map *map, const char *name,
                   const char *comment, const dj_position *pos,
                   const dj_order *orders, int norders, const dj_rules *rules,
                   const dj_result *res);

#endif
