/* SPDX-License-Identifier: MIT */
/*
 * open.c — opening a session (dj_judge_open, dj_judge_open_as): its
 * store, its configuration, and the check that judge.conf's defaults for
 * new games can be played by their engines (settings.c).  It stands above the
 * session's helpers (context.c), which every operation, the settings'
 * included, uses.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>

#include "game/game_int.h"

dj_judge *dj_judge_open(const dj_config *cfg, const char *maps_dir,
                        char *err, size_t errlen)
{
    dj_store_open_failure failure;
    return dj_judge_open_as(cfg, maps_dir, true, &failure, err, errlen);
}

dj_judge *dj_judge_open_as(const dj_config *cfg, const char *maps_dir,
                           bool create, dj_store_open_failure *failure,
                           char *err, size_t errlen)
{
    *failure = DJ_STORE_OPEN_ERROR;
    dj_judge *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    j->cfg = *cfg;
    snprintf(j->maps_dir, sizeof j->maps_dir, "%s", maps_dir);
    snprintf(j->actor, sizeof j->actor, "judge");
    j->store = dj_store_open_as(cfg->database, create, failure, err, errlen);
    if (!j->store) {
        free(j);
        return NULL;
    }
    if (judge_check_game_defaults(j) < 0) {
        snprintf(err, errlen, "judge.conf games { }: %s", j->err);
        dj_judge_close(j);
        return NULL;
    }
    return j;
}
