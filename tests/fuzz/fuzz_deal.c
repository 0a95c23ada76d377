/* SPDX-License-Identifier: MIT */
/*
 * fuzz_deal.c — a SET PREFERENCE list read (dj_deal_parse, game/deal.h):
 * the text is any player's.  A list read must hold only the map's powers
 * and at most one '*', none twice; written back (dj_deal_format, as the
 * judge stores it) it must read back the same; its ranks run from 1 up;
 * and a deal of seven players all sending it is a deal (each a power,
 * none twice).
 */
#include "fuzzlib.h"

#include "game/deal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const dj_map *map = fuzz_standard_map();
    char *text = fuzz_string(data, size);
    dj_deal_list l, again;
    char why[256], stored[DJ_DEAL_TEXT_MAX];
    if (dj_deal_parse(map, text, &l, why, sizeof why) == 0) {
        bool seen[DJ_MAX_POWERS + 1] = {false};
        for (int i = 0; i < l.n; i++) {
            int k = l.item[i] == DJ_DEAL_ANY ? DJ_MAX_POWERS : l.item[i];
            if (k < 0 || (k >= map->npowers && k != DJ_MAX_POWERS) || seen[k])
                abort();
            seen[k] = true;
        }
        dj_deal_format(map, &l, stored, sizeof stored);
        if (dj_deal_parse(map, stored, &again, why, sizeof why) != 0 ||
            again.n != l.n ||
            memcmp(again.item, l.item, sizeof(int) * (size_t)l.n) != 0)
            abort();
        int rank[DJ_MAX_POWERS * DJ_MAX_POWERS];
        for (int i = 0; i < map->npowers; i++)
            dj_deal_ranks(&l, map->npowers, rank + i * map->npowers);
        for (int p = 0; p < map->npowers; p++)
            if (rank[p] < 1 || rank[p] > l.n + 1)
                abort();
        bool all[DJ_MAX_POWERS];
        for (int p = 0; p < map->npowers; p++)
            all[p] = true;
        int a[DJ_MAX_POWERS];
        bool got[DJ_MAX_POWERS] = {false};
        if (dj_deal(map->npowers, map->npowers, rank, all, size, a) != 0)
            abort();
        for (int i = 0; i < map->npowers; i++) {
            if (a[i] < 0 || a[i] >= map->npowers || got[a[i]])
                abort();
            got[a[i]] = true;
        }
    } else if (!why[0]) {
        abort(); /* a refusal says why */
    }
    free(text);
    return 0;
}
