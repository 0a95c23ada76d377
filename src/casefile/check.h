/* SPDX-License-Identifier: MIT */
/*
 * check.h — run a test case through the adjudicator and judge the outcome.
 *
 * A dj_checker owns the (large) adjudication result, allocated once and
 * reused for every case.  dj_check_case adjudicates, compares the board
 * afterwards with what the case expects, and writes a verdict line
 * ("PASS name" / "FAIL name") followed, on failure, by the differences.
 */
#ifndef DJ_CASEFILE_CHECK_H
#define DJ_CASEFILE_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "casefile/casefile.h"
#include "engine/adjudicate.h"

typedef struct dj_checker dj_checker;

typedef enum { DJ_CHECK_PASS = 0, DJ_CHECK_FAIL = 1 } dj_check_verdict;

/* NULL when out of memory. */
dj_checker *dj_checker_new(void);
void dj_checker_free(dj_checker *ck);

/*
 * Adjudicate case `c` on `map` and compare.  Writes the verdict and any
 * differences to `out`; with `verbose`, also every order with its result.
 */
dj_check_verdict dj_check_case(dj_checker *ck, const dj_map *map,
                               const dj_case *c, bool verbose, FILE *out);

/* The same with a chosen movement engine (dj_check_case uses DPjudge's). */
dj_check_verdict dj_check_case_with(dj_checker *ck, dj_engine engine,
                                    const dj_map *map, const dj_case *c,
                                    bool verbose, FILE *out);

/* The result of the last case checked (valid until the next one). */
const dj_result *dj_checker_result(const dj_checker *ck);

#endif
