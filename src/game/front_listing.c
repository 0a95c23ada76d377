/* SPDX-License-Identifier: MIT */
/*
 * front_listing.c — the web front page's games a page at a time (issue
 * 38): the store's indexed page of listed games (store/listing.h) made
 * into the overviews the page shows, players still wanted counted on the
 * game's board.  One read transaction; 51 rows read at most.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/audience.h"
#include "game/game.h"
#include "game/game_int.h"
#include "game/reading.h"
#include "store/listing.h"

int dj_game_listing(dj_judge *j, const dj_listing_filter *f,
                    dj_game_overview *out, int *n, bool *more)
{
    *n = 0;
    *more = false;
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    dj_listing_rec *rows = NULL;
    int nrows = 0;
    int rc = dj_store_listing(j->store, f, DJ_LISTING_PAGE, &rows, &nrows,
                              more);
    dj_store_rollback(j->store);
    if (rc < 0)
        return judge_store_fail(j);
    for (int i = 0; i < nrows && i < DJ_LISTING_PAGE; i++) {
        const dj_listing_rec *r = &rows[i];
        dj_game_overview *o = &out[(*n)++];
        memset(o, 0, sizeof *o);
        snprintf(o->name, sizeof o->name, "%s", r->o.name);
        snprintf(o->map, sizeof o->map, "%s", r->o.map);
        snprintf(o->state, sizeof o->state, "%s", r->o.state);
        snprintf(o->ending, sizeof o->ending, "%s", r->o.ending);
        snprintf(o->phase, sizeof o->phase, "%s", r->o.phase);
        snprintf(o->press, sizeof o->press, "%s", r->press);
        o->deadline = r->o.deadline;
        o->move_delay = r->move_delay;
        const dj_map *map = judge_map(j, r->o.map);
        int powers = map ? map->npowers : 0;
        o->wanted = strcmp(r->o.state, "forming") == 0 && powers > r->o.players
                        ? powers - r->o.players - r->o.waiting
                        : 0;
        if (o->wanted < 0)
            o->wanted = 0;
    }
    free(rows);
    return 0;
}
