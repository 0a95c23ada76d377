/* SPDX-License-Identifier: MIT */
/*
 * board.c — see board.h: the per-unit set-up the three movement engines
 * share.
 */
#include "board.h"

#include <assert.h>
#include <string.h>

void dj_board_set_up(dj_board *b, const dj_map *map, const dj_position *pos)
{
    /* the engine's front door checked the position (adjudicate.c) */
    assert(pos->nunits >= 0 && pos->nunits <= DJ_MAX_UNITS);
    assert(map->nlocs <= DJ_MAX_LOCS);
    b->n = pos->nunits;
    b->nsea = 0;
    memset(b->at, 0xff, sizeof(int16_t) * (size_t)map->nlocs); /* all -1 */
    for (int i = 0; i < pos->nunits; i++) {
        const dj_unit *u = &pos->units[i];
        int prov = dj_province(map, u->loc);
        assert(prov >= 0 && prov < map->nlocs);
        b->prov[i] = (int16_t)prov;
        b->at[prov] = (int16_t)i;
        if (u->type == DJ_FLEET && map->locs[u->loc].convoys)
            b->sea[b->nsea++] = (int16_t)i; /* nsea <= i + 1 <= n */
    }
}
