/* SPDX-License-Identifier: MIT */
/*
 * fuzz_map.c — the map loader on arbitrary text: DPjudge's dialect, RULE
 * lines and all (dj_map_parse).  A map that loads must hold together:
 * every adjacency names a location of the map, every name is found again
 * as itself and its words are known as words of names, and its years move
 * forward whatever its FLOW.
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
        /* every name is found again, through the hash, as itself */
        for (int i = 0; i < map->naliases; i++)
            if (dj_map_find_location(map, map->aliases[i].text) !=
                map->aliases[i].loc)
                abort();
        /* every word of every name may be part of a name */
        for (int i = 0; i < map->naliases; i++) {
            const char *t = map->aliases[i].text;
            while (*t) {
                size_t n = strcspn(t, " ()-");
                if (n > 0 && !dj_map_may_name(map, t, n))
                    abort();
                t += n + (t[n] != '\0');
            }
        }
        /* a FLOW's calendar always moves forward */
        if (map->years_to_spring < 1 || map->years_to_fall < 0)
            abort();
        dj_map_free(map);
    } else if (!memchr(err, '\0', sizeof err) || !err[0]) {
        abort(); /* a refusal always says why */
    }
    free(text);
    return 0;
}
