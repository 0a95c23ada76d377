/* SPDX-License-Identifier: MIT */
/*
 * retreat.c — the retreat phase (DATC 6.H).
 *
 * Each dislodged unit may retreat to one of the places computed when it was
 * dislodged (never where its attacker came from, unless the attacker was
 * convoyed, 4.A.5 b; never into a standoff; never into an occupied
 * province) or disband.  Two retreats into one province both fail, but
 * for those across a half-strength border (`*`), which give way to the
 * others (maps/README.md).  A unit
 * without a successful retreat is disbanded; the judge records that as an
 * order of its own so the report can say so.
 */
#include <string.h>

#include "retreat.h"

/* The retreat location in d's list that `dest` names, or -1 with why. */
static int retreat_location(const dj_map *map, const dj_dislodged *d, int dest,
                            dj_why *why)
{
    int prov = dj_province(map, dest);
    int match = -1, count = 0;
    for (int i = 0; i < d->nretreats; i++) {
        int loc = d->retreats[i];
        if (dj_province(map, loc) != prov)
            continue;
        if (loc == dest || d->unit.type == DJ_ARMY)
            return loc;
        match = loc;
        count++;
    }
    /* A fleet named without its coast: fine if only one coast is open. */
    if (count == 1 && !map->locs[dest].is_coast)
        return match;
    *why = count > 1 ? DJ_WHY_COAST_NEEDED : DJ_WHY_RETREAT_BLOCKED;
    return -1;
}

/* Which order each dislodged unit obeys (-1 none): the 4.D.3 rule applies. */
static void choose_orders(const dj_map *map, const dj_position *pos,
                          const dj_order *orders, int norders,
                          const dj_rules *rules, dj_result *out, int *chosen,
                          int *target)
{
    int count[DJ_MAX_UNITS] = {0};
    for (int i = 0; i < pos->ndislodged; i++)
        chosen[i] = target[i] = -1;
    for (int i = 0; i < norders; i++) {
        const dj_order *o = &orders[i];
        dj_order_result *r = &out->orders[i];
        bool retreat = o->kind == DJ_ORDER_RETREAT || o->kind == DJ_ORDER_MOVE;
        if (!retreat && o->kind != DJ_ORDER_DISBAND) {
            r->flags |= DJ_RF_ILLEGAL;
            r->why = DJ_WHY_WRONG_PHASE;
            continue;
        }
        int d = o->loc >= 0 && o->loc < map->nlocs
                    ? dj_position_dislodged_at(map, pos, dj_province(map, o->loc))
                    : -1;
        if (d < 0) {
            r->flags |= DJ_RF_ILLEGAL;
            r->why = DJ_WHY_NOT_DISLODGED;
            continue;
        }
        r->unit = (int16_t)d;
        if (pos->dislodged[d].unit.power != o->power) {
            r->flags |= DJ_RF_ILLEGAL;
            r->why = DJ_WHY_NOT_OWNER;
            continue;
        }
        int loc = -1;
        if (retreat) {
            dj_why why = DJ_WHY_NOT_ADJACENT;
            loc = o->dest >= 0 && o->dest < map->nlocs
                      ? retreat_location(map, &pos->dislodged[d], o->dest, &why)
                      : -1;
            if (loc < 0) {
                r->flags |= DJ_RF_ILLEGAL;
                r->why = why;
                continue;
            }
        }
        if (count[d] > 0 && target[d] != loc) {
            /* 4.D.3: different orders for one unit. */
            char rule = dj_rule(rules, DJ_RULE_MULTIPLE_ORDERS);
            int loser = rule == 'a' ? i : chosen[d];
            if (rule == 'c' || loser >= 0) {
                int first = chosen[d];
                if (rule == 'c') {
                    r->flags |= DJ_RF_ILLEGAL;
                    r->why = DJ_WHY_DUPLICATE;
                    if (first >= 0) {
                        out->orders[first].flags |= DJ_RF_ILLEGAL;
                        out->orders[first].why = DJ_WHY_DUPLICATE;
                    }
                    chosen[d] = -2; /* no order stands: the unit disbands */
                    count[d]++;
                    continue;
                }
                out->orders[loser].flags |= DJ_RF_IGNORED;
                out->orders[loser].why = DJ_WHY_DUPLICATE;
                if (loser == i) {
                    count[d]++;
                    continue;
                }
            }
        } else if (count[d] > 0) {
            count[d]++;
            continue; /* the same order again */
        }
        if (chosen[d] == -2) {
            r->flags |= DJ_RF_ILLEGAL;
            r->why = DJ_WHY_DUPLICATE;
            continue;
        }
        count[d]++;
        chosen[d] = i;
        target[d] = loc;
    }
}

void rt_adjudicate(const dj_map *map, const dj_position *pos,
                   const dj_order *orders, int norders, const dj_rules *rules,
                   dj_result *out)
{
    int chosen[DJ_MAX_UNITS], target[DJ_MAX_UNITS];
    int into[DJ_MAX_LOCS];

    choose_orders(map, pos, orders, norders, rules, out, chosen, target);
    memset(into, 0, sizeof(int) * (size_t)map->nlocs);
    for (int d = 0; d < pos->ndislodged; d++)
        if (chosen[d] >= 0 && target[d] >= 0)
            into[dj_province(map, target[d])]++;
    /* DPjudge's half-strength border (`*`): of several units retreating
     * to one place, those crossing one are disbanded and the others
     * contest it as usual (whole[] counts them); one alone goes in. */
    bool half[DJ_MAX_UNITS];
    int whole[DJ_MAX_LOCS];
    memset(whole, 0, sizeof(int) * (size_t)map->nlocs);
    for (int d = 0; d < pos->ndislodged; d++) {
        const dj_unit *u = &pos->dislodged[d].unit;
        half[d] = chosen[d] >= 0 && target[d] >= 0 &&
                  dj_map_half_border(map, u->loc, target[d], u->type);
        if (chosen[d] >= 0 && target[d] >= 0 && !half[d])
            whole[dj_province(map, target[d])]++;
    }

    dj_position *n = &out->next;
    memcpy(n, pos, sizeof *n);
    n->ndislodged = 0;
    memset(out->contested, 0, sizeof(bool) * (size_t)map->nlocs);
    for (int d = 0; d < pos->ndislodged; d++) {
        const dj_unit *u = &pos->dislodged[d].unit;
        int i = chosen[d];
        int p = target[d] >= 0 ? dj_province(map, target[d]) : -1;
        if (i >= 0 && p >= 0 &&
            (into[p] == 1 || (!half[d] && whole[p] == 1))) {
            dj_unit moved = *u;
            moved.loc = (int16_t)target[d];
            n->units[n->nunits++] = moved;
            out->orders[i].success = true;
            continue;
        }
        if (i >= 0 && target[d] < 0) {
            out->orders[i].success = true; /* an ordered disband */
            continue;
        }
        if (i >= 0)
            out->orders[i].flags |= DJ_RF_BOUNCE;
        dj_auto_order *a = &out->autos[out->nauto++];
        a->order = dj_order_make(DJ_ORDER_DISBAND, u->power, u->type, u->loc);
        /* Why it goes: its retreat bounced, its power's orders for it
         * could not stand (illegal, or refused as duplicates), or none. */
        bool tried = false;
        for (int k = 0; k < norders && !tried; k++)
            tried = out->orders[k].unit == d && orders[k].power == u->power;
        a->why = i >= 0 ? DJ_WHY_RETREAT_FAILED
                 : tried ? DJ_WHY_RETREAT_REFUSED
                         : DJ_WHY_NO_ORDER;
    }
}
