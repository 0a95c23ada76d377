/* SPDX-License-Identifier: MIT */
/*
 * full_orders.c — a full set of orders for any board, for the picture
 * tests and benches (see full_orders.h).
 */
#include "full_orders.h"

/* A location the unit may move to (the first neighbour it reaches), or -1. */
static int first_move(const dj_map *map, const dj_unit *u, int skip)
{
    const dj_location *l = &map->locs[u->loc];
    for (int k = 0; k < l->nadj; k++) {
        int to = l->adj[k].to;
        if ((l->adj[k].types & DJ_TYPE_BIT(u->type)) && skip-- <= 0)
            return to;
    }
    return -1;
}

/* Every unit ordered: moves mostly (two choices of neighbour, so some
 * bounce), a hold, a support of a neighbouring unit's hold. */
int full_movement_orders(const dj_map *map, const dj_position *pos,
                           dj_order *o)
{
    int n = 0;
    for (int i = 0; i < pos->nunits; i++) {
        const dj_unit *u = &pos->units[i];
        dj_order_blank(&o[n], DJ_ORDER_HOLD, u->power, u->type, u->loc);
        if (i % 5 == 4) {
            for (int j = 0; j < pos->nunits; j++) {
                int prov = dj_province(map, pos->units[j].loc);
                if (j != i && dj_map_adjacent(map, u->loc, prov, u->type)) {
                    o[n].kind = DJ_ORDER_SUPPORT;
                    o[n].target = (int16_t)pos->units[j].loc;
                    o[n].target_type = pos->units[j].type;
                    break;
                }
            }
        } else if (i % 5 != 3) {
            int to = first_move(map, u, i % 2);
            if (to < 0)
                to = first_move(map, u, 0);
            if (to >= 0) {
                o[n].kind = DJ_ORDER_MOVE;
                o[n].dest = (int16_t)to;
            }
        }
        n++;
    }
    return n;
}

/* The dislodged units retreat to their first choice, or disband. */
int full_retreat_orders(const dj_position *pos, dj_order *o)
{
    int n = 0;
    for (int i = 0; i < pos->ndislodged; i++) {
        const dj_dislodged *d = &pos->dislodged[i];
        dj_order_blank(&o[n], d->nretreats ? DJ_ORDER_RETREAT : DJ_ORDER_DISBAND,
                       d->unit.power, d->unit.type, d->unit.loc);
        if (d->nretreats)
            o[n].dest = (int16_t)d->retreats[0];
        n++;
    }
    return n;
}

/* Builds in every home centre that is free: an army on land, else a fleet. */
int full_build_orders(const dj_map *map, const dj_position *pos, dj_order *o)
{
    int n = 0;
    for (int l = 0; l < map->nlocs && n < DJ_MAX_ORDERS; l++) {
        if (dj_province(map, l) != l || !map->is_sc[l] || !map->home_of[l] ||
            dj_position_unit_at(map, pos, l) >= 0)
            continue;
        int p = 0;
        while (!(map->home_of[l] & DJ_POWER_BIT(p)))
            p++;
        dj_unit_type t = map->locs[l].army_ok ? DJ_ARMY : DJ_FLEET;
        dj_order_blank(&o[n++], DJ_ORDER_BUILD, p, t, l);
    }
    return n;
}

