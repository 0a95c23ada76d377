/* SPDX-License-Identifier: MIT */
/*
 * check_render.h — `judgectl check --render DIR`: each case of a case file
 * drawn before (its position with the orders and how they went) and after
 * (the position the engine left), a visual way to read the DATC.
 */
#ifndef DJ_CLI_CHECK_RENDER_H
#define DJ_CLI_CHECK_RENDER_H

#include "casefile/casefile.h"
#include "engine/adjudicate.h"

typedef struct check_render check_render;

/* A renderer writing PNG files into dir (created when missing); NULL with
 * a message on stderr when dir cannot be made. */
check_render *check_render_new(const char *dir);
void check_render_free(check_render *cr);

/*
 * Draw one case: DIR/<file>-<case>-before.png and -after.png (names made of
 * letters, digits, '.', '-' and '_').  The map's geometry is found beside
 * its file in mapdir.  0, or -1 with the reason printed.
 */
int check_render_case(check_render *cr, const char *mapdir, const dj_map *map,
                      const dj_case *c, const dj_result *res);

/* Pictures written so far. */
int check_render_count(const check_render *cr);

#endif
