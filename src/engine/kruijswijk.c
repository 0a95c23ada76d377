/*
 * kruijswijk.c — placeholder until the engine lands: it refuses every phase.
 */
#include "kruijswijk.h"

int kj_adjudicate_movement(const dj_map *map, const dj_position *pos,
                          const dj_order *orders, int norders,
                          const dj_rules *rules, dj_result *out)
{
    (void)map, (void)pos, (void)orders, (void)norders, (void)rules, (void)out;
    return -1;
}
