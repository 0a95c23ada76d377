/* SPDX-License-Identifier: MIT */
/*
 * testlib.h — the smallest test harness that does the job: CHECK records a
 * failure with file:line and carries on, test_summary() prints the closing
 * "N passed, N failed" line the suite runner adds up.
 */
#ifndef DJ_TESTLIB_H
#define DJ_TESTLIB_H

#include <stdio.h>
#include <string.h>

static int test_passed, test_failed;

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (cond) {                                                          \
            test_passed++;                                                   \
        } else {                                                             \
            test_failed++;                                                   \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                  \
        }                                                                    \
    } while (0)

#define CHECK_STR(got, want)                                                 \
    do {                                                                     \
        const char *g_ = (got), *w_ = (want);                                \
        if (g_ && w_ && strcmp(g_, w_) == 0) {                               \
            test_passed++;                                                   \
        } else {                                                             \
            test_failed++;                                                   \
            fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", __FILE__,    \
                    __LINE__, g_ ? g_ : "(null)", w_ ? w_ : "(null)");       \
        }                                                                    \
    } while (0)

/*
 * Where a test's data (maps/, tests/...) lives: SRCDIR when the test is
 * run as `test_x SRCDIR` (a first argument not starting with '-'), else
 * $srcdir (Automake's test harness exports it), else the source tree this
 * binary was configured from (DJ_TEST_SRCDIR, config.h), so a test binary
 * run by hand from anywhere finds its data.
 */
#include <stdlib.h>
#include "config.h"
static inline const char *test_srcdir(int argc, char **argv)
{
    if (argc > 1 && argv[1][0] != '-')
        return argv[1];
    const char *env = getenv("srcdir");
    return env && *env ? env : DJ_TEST_SRCDIR;
}

static inline int test_summary(void)
{
    printf("%d passed, %d failed\n", test_passed, test_failed);
    return test_failed ? 1 : 0;
}

#endif
