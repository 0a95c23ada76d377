/* SPDX-License-Identifier: MIT */
/*
 * fuzz_snapshot.c — a stored position read back (dj_snapshot_read): the
 * database is ours, but a damaged file must give an error, not a crash
 * or a position with units off the map.
 */
#include "fuzzlib.h"

#include "engine/position.h"
#include "game/snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const dj_map *map = fuzz_standard_map();
    char *text = fuzz_string(data, size);
    dj_position *pos = malloc(sizeof *pos);
    char err[256];
    if (!pos)
        abort();
    if (dj_snapshot_read(map, text, pos, err, sizeof err) == 0) {
        for (int i = 0; i < pos->nunits; i++)
            if (pos->units[i].loc < 0 || pos->units[i].loc >= map->nlocs)
                abort();
    }
    free(pos);
    free(text);
    return 0;
}
