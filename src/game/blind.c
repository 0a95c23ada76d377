/* SPDX-License-Identifier: MIT */
/*
 * blind.c — the one place deciding what a power sees in a blind game
 * (blind.h gives the rule; dipjudge(7) the worked cases).  Pure: engine
 * values in, a filtered copy out, so every output renders a view the way
 * it renders a whole game and none of them decides visibility itself.
 */
#include "game/blind.h"

#include <string.h>

/* Mark `prov` and every province adjacent to it (either unit type). */
static void look_from(const dj_map *map, int prov, bool *seen)
{
    seen[prov] = true;
    for (int l = 0; l < map->nlocs; l++) {
        if (map->locs[l].province != prov)
            continue;
        for (int q = 0; q < map->nlocs; q++)
            if (map->locs[q].province == q && !seen[q] &&
                (dj_map_reaches_province(map, l, q, DJ_ARMY) ||
                 dj_map_reaches_province(map, l, q, DJ_FLEET)))
                seen[q] = true;
    }
}

void dj_blind_sight(const dj_map *map, const dj_position *pos, int viewer,
                    bool *seen)
{
    for (int l = 0; l < map->nlocs; l++)
        seen[l] = viewer == DJ_BLIND_ALL && map->locs[l].province == l;
    if (viewer < 0)
        return;
    bool from[DJ_MAX_LOCS] = {false};
    for (int i = 0; i < pos->nunits; i++)
        if (pos->units[i].power == viewer)
            from[dj_province(map, pos->units[i].loc)] = true;
    for (int d = 0; d < pos->ndislodged; d++)
        if (pos->dislodged[d].unit.power == viewer)
            from[dj_province(map, pos->dislodged[d].unit.loc)] = true;
    for (int l = 0; l < map->nlocs; l++)
        if (map->is_sc[l] && map->locs[l].province == l &&
            pos->owner[l] == viewer)
            from[l] = true;
    for (int l = 0; l < map->nlocs; l++)
        if (from[l])
            look_from(map, l, seen);
}

bool dj_blind_sees(const dj_map *map, const bool *seen, int viewer,
                   int power, int loc)
{
    if (viewer == DJ_BLIND_ALL)
        return true;
    if (viewer >= 0 && power == viewer)
        return true;
    return loc >= 0 && loc < map->nlocs && seen[dj_province(map, loc)];
}

/* The position filtered by a sight already worked out. */
static void filter_position(const dj_map *map, const dj_position *pos,
                            int viewer, const bool *seen, dj_position *out)
{
    if (out != pos)
        *out = *pos;
    if (viewer == DJ_BLIND_ALL)
        return;
    int n = 0;
    for (int i = 0; i < pos->nunits; i++)
        if (dj_blind_sees(map, seen, viewer, pos->units[i].power,
                          pos->units[i].loc))
            out->units[n++] = pos->units[i];
    out->nunits = n;
    n = 0;
    for (int d = 0; d < pos->ndislodged; d++)
        if (dj_blind_sees(map, seen, viewer, pos->dislodged[d].unit.power,
                          pos->dislodged[d].unit.loc))
            out->dislodged[n++] = pos->dislodged[d];
    out->ndislodged = n;
    for (int l = 0; l < map->nlocs; l++)
        if (map->is_sc[l] && map->locs[l].province == l &&
            !(viewer >= 0 && pos->owner[l] == viewer) && !seen[l])
            out->owner[l] = DJ_BLIND_UNSEEN;
    out->civil_disorder =
        viewer >= 0 ? pos->civil_disorder & ((dj_power_set)1 << viewer) : 0;
}

void dj_blind_position(const dj_map *map, const dj_position *pos, int viewer,
                       dj_position *out)
{
    bool seen[DJ_MAX_LOCS];
    dj_blind_sight(map, pos, viewer, seen);
    filter_position(map, pos, viewer, seen, out);
}

static bool names_seen(const dj_map *map, const bool *seen, int loc)
{
    return loc >= 0 && loc < map->nlocs && seen[dj_province(map, loc)];
}

/* Is this order (or judge-made order) shown to viewer? */
static bool order_shown(const dj_map *map, const bool *seen, int viewer,
                        const dj_order *o)
{
    if (viewer == DJ_BLIND_ALL || (viewer >= 0 && o->power == viewer))
        return true;
    return names_seen(map, seen, o->loc) || names_seen(map, seen, o->target) ||
           names_seen(map, seen, o->dest);
}

void dj_blind_results(const dj_map *map, const dj_position *before,
                      const dj_order *orders, int norders,
                      const dj_result *res, int viewer, dj_blind_view *out)
{
    if (norders > DJ_MAX_ORDERS)
        norders = DJ_MAX_ORDERS;
    if (norders < 0)
        norders = 0;
    out->before = *before;
    out->res = *res;
    if (viewer == DJ_BLIND_ALL) {
        memcpy(out->orders, orders, (size_t)norders * sizeof *orders);
        out->norders = norders;
        return;
    }
    /* the sight before the phase and after it, together */
    bool seen[DJ_MAX_LOCS], after[DJ_MAX_LOCS];
    dj_blind_sight(map, before, viewer, seen);
    dj_blind_sight(map, &res->next, viewer, after);
    for (int l = 0; l < map->nlocs; l++)
        seen[l] = seen[l] || after[l];

    bool kept_order[DJ_MAX_ORDERS] = {false};
    bool keep_unit[DJ_MAX_UNITS] = {false};
    bool retreat = before->phase.type == DJ_RETREAT;
    for (int k = 0; k < norders; k++) {
        kept_order[k] = order_shown(map, seen, viewer, &orders[k]);
        int u = res->orders[k].unit;
        if (kept_order[k] && u >= 0 && !retreat && u < before->nunits)
            keep_unit[u] = true;
    }
    /* the units before: seen ones and those a shown order is given to */
    int newindex[DJ_MAX_UNITS];
    int n = 0;
    for (int i = 0; i < before->nunits; i++) {
        newindex[i] = -1;
        if (keep_unit[i] || dj_blind_sees(map, seen, viewer,
                                          before->units[i].power,
                                          before->units[i].loc)) {
            out->before.units[n] = before->units[i];
            newindex[i] = n++;
        }
    }
    out->before.nunits = n;
    int dindex[DJ_MAX_UNITS];
    n = 0;
    for (int d = 0; d < before->ndislodged; d++) {
        dindex[d] = -1;
        const dj_unit *u = &before->dislodged[d].unit;
        if (dj_blind_sees(map, seen, viewer, u->power, u->loc)) {
            out->before.dislodged[n] = before->dislodged[d];
            dindex[d] = n++;
        }
    }
    out->before.ndislodged = n;
    /* a dislodged unit a shown retreat order is given to stays */
    for (int k = 0; retreat && k < norders; k++) {
        int u = res->orders[k].unit;
        if (kept_order[k] && u >= 0 && u < before->ndislodged &&
            dindex[u] < 0) {
            out->before.dislodged[out->before.ndislodged] =
                before->dislodged[u];
            dindex[u] = out->before.ndislodged++;
        }
    }
    for (int l = 0; l < map->nlocs; l++)
        if (map->is_sc[l] && map->locs[l].province == l &&
            !(viewer >= 0 && before->owner[l] == viewer) && !seen[l])
            out->before.owner[l] = DJ_BLIND_UNSEEN;
    out->before.civil_disorder =
        viewer >= 0 ? before->civil_disorder & ((dj_power_set)1 << viewer)
                    : 0;

    n = 0;
    for (int k = 0; k < norders; k++) {
        if (!kept_order[k])
            continue;
        out->orders[n] = orders[k];
        out->res.orders[n] = res->orders[k];
        int u = res->orders[k].unit;
        if (u >= 0)
            out->res.orders[n].unit =
                (int16_t)(retreat ? (u < before->ndislodged ? dindex[u] : -1)
                                  : (u < before->nunits ? newindex[u] : -1));
        n++;
    }
    out->norders = n;
    out->res.norders = n;
    n = 0;
    for (int a = 0; a < res->nauto; a++)
        if (order_shown(map, seen, viewer, &res->autos[a].order))
            out->res.autos[n++] = res->autos[a];
    out->res.nauto = n;
    for (int l = 0; l < map->nlocs; l++)
        out->res.contested[l] = res->contested[l] && seen[l];
    filter_position(map, &res->next, viewer, after, &out->res.next);
}
