/*
 * fuzz_map.c — the map loader on arbitrary text: DPjudge's dialect, RULE
 * lines and all (dj_map_parse).  A map that loads must hold together:
 * every adjacency names a location of the map.
 */
#include "fuzzlib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    char err[512];
    /* A USE or MAP line looks beside this name: nothing is there. */
    dj_map *map = dj_map_parse(text, "/nonexistent/fuzz.map", err, sizeof err);
    if (map) {
        for (int i = 0; i < map->nlocs; i++)
            for (int k = 0; k < map->locs[i].nadj; k++)
                if (map->locs[i].adj[k].to < 0 ||
                    map->locs[i].adj[k].to >= map->nlocs)
                    abort();
        dj_map_free(map);
    } else if (!memchr(err, '\0', sizeof err) || !err[0]) {
        abort(); /* a refusal always says why */
    }
    free(text);
    return 0;
}
