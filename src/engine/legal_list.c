/* SPDX-License-Identifier: MIT */
/*
 * legal_list.c — the orders one power may give now (legal_list.h): the
 * candidates of each unit put through the adjudicator's own checks.
 */
#include "legal_list.h"

#include <stdio.h>
#include <stdlib.h>

#include "adjustment.h"
#include "movement.h"

static void add(dj_legal_set *out, const dj_order *o, int unit, bool convoy)
{
    if (out->n >= DJ_LEGAL_MAX) {
        out->truncated = true;
        return;
    }
    dj_legal_order *l = &out->o[out->n++];
    l->order = *o;
    l->unit = (int16_t)unit;
    l->by_convoy = convoy;
}

/* The locations a move may name: for an army each province, for a fleet
 * each place it may stand (a coast of a province with coasts, not the
 * province itself). */
static bool move_place(const dj_map *m, int loc, dj_unit_type type)
{
    if (type == DJ_ARMY)
        return !m->locs[loc].is_coast && dj_province(m, loc) == loc;
    return m->locs[loc].is_coast || dj_map_ncoasts(m, loc) == 0;
}

static void unit_orders(const mv_ctx *c, int ui, dj_legal_set *out)
{
    const dj_map *m = c->map;
    const dj_unit *pu = &c->pos->units[ui];
    bool convoy;
    dj_order o = dj_order_make(DJ_ORDER_HOLD, pu->power, pu->type, pu->loc);
    add(out, &o, ui, false);
    for (int d = 0; d < m->nlocs; d++) {
        if (!move_place(m, d, pu->type))
            continue;
        o = dj_order_make(DJ_ORDER_MOVE, pu->power, pu->type, pu->loc);
        o.dest = (int16_t)d;
        if (mv_order_why(c, ui, &o, &convoy) == DJ_WHY_NONE)
            add(out, &o, ui, convoy);
    }
    for (int t = 0; t < c->nunits; t++) {
        if (t == ui)
            continue;
        const dj_unit *tu = &c->pos->units[t];
        o = dj_order_make(DJ_ORDER_SUPPORT, pu->power, pu->type, pu->loc);
        o.target_type = tu->type;
        o.target = tu->loc;
        if (mv_order_why(c, ui, &o, &convoy) == DJ_WHY_NONE)
            add(out, &o, ui, false);
        for (int d = 0; d < m->nlocs; d++) {
            if (dj_province(m, d) != d || d == c->u[t].prov ||
                !dj_map_reaches_province(m, pu->loc, d, pu->type))
                continue;
            o.dest = (int16_t)d;
            if (mv_order_why(c, ui, &o, &convoy) == DJ_WHY_NONE)
                add(out, &o, ui, false);
        }
        if (pu->type != DJ_FLEET || tu->type != DJ_ARMY ||
            !m->locs[pu->loc].convoys)
            continue;
        o = dj_order_make(DJ_ORDER_CONVOY, pu->power, pu->type, pu->loc);
        o.target_type = tu->type;
        o.target = tu->loc;
        for (int d = 0; d < m->nlocs; d++) {
            if (dj_province(m, d) != d)
                continue;
            o.dest = (int16_t)d;
            if (mv_order_why(c, ui, &o, &convoy) == DJ_WHY_NONE &&
                mv_fleet_on_route(c, ui, t, d, false))
                add(out, &o, ui, false);
        }
    }
}

static void retreat_orders(const dj_position *pos, int power,
                           dj_legal_set *out)
{
    for (int i = 0; i < pos->ndislodged; i++) {
        const dj_dislodged *d = &pos->dislodged[i];
        if (d->unit.power != power)
            continue;
        dj_order o;
        for (int r = 0; r < d->nretreats; r++) {
            o = dj_order_make(DJ_ORDER_RETREAT, power, d->unit.type,
                              d->unit.loc);
            o.dest = d->retreats[r];
            add(out, &o, i, false);
        }
        o = dj_order_make(DJ_ORDER_DISBAND, power, d->unit.type, d->unit.loc);
        add(out, &o, i, false);
    }
}

static void adjustment_orders(const dj_map *m, const dj_position *pos,
                              const dj_rules *rules, int power,
                              dj_legal_set *out)
{
    out->due = dj_adjustment_due(m, pos, power);
    dj_order o;
    if (out->due < 0) {
        for (int i = 0; i < pos->nunits; i++) {
            const dj_unit *u = &pos->units[i];
            if (u->power != power)
                continue;
            o = dj_order_make(DJ_ORDER_REMOVE, power, u->type, u->loc);
            add(out, &o, i, false);
        }
        return;
    }
    if (out->due == 0)
        return;
    for (int prov = 0; prov < m->nlocs; prov++) {
        if (dj_province(m, prov) != prov ||
            dj_build_site_why(m, pos, rules, power, prov) != DJ_WHY_NONE)
            continue;
        if (m->locs[prov].army_ok) {
            o = dj_order_make(DJ_ORDER_BUILD, power, DJ_ARMY, prov);
            add(out, &o, -1, false);
        }
        int nc = dj_map_ncoasts(m, prov);
        for (int k = 0; k < (nc > 0 ? nc : 1); k++) {
            int loc = nc > 0 ? dj_map_coast(m, prov, k) : prov;
            if (!m->locs[loc].fleet_ok)
                continue;
            o = dj_order_make(DJ_ORDER_BUILD, power, DJ_FLEET, loc);
            add(out, &o, -1, false);
        }
    }
}

int dj_legal_orders(const dj_map *map, const dj_position *pos,
                    const dj_rules *rules, int power, dj_legal_set *out)
{
    out->n = 0;
    out->truncated = false;
    out->due = 0;
    if (power < 0 || power >= map->npowers)
        return -1;
    switch (pos->phase.type) {
    case DJ_MOVEMENT: {
        mv_ctx *c = calloc(1, sizeof *c);
        if (!c)
            return -1;
        mv_init_context(c, map, pos, rules);
        for (int ui = 0; ui < pos->nunits; ui++)
            if (pos->units[ui].power == power)
                unit_orders(c, ui, out);
        free(c);
        break;
    }
    case DJ_RETREAT:
        retreat_orders(pos, power, out);
        break;
    case DJ_ADJUSTMENT:
        adjustment_orders(map, pos, rules, power, out);
        break;
    }
    return 0;
}

int dj_legal_text(const dj_map *map, const dj_order *o, char *buf,
                  size_t len)
{
    const char *verb = o->kind == DJ_ORDER_BUILD    ? "BUILD "
                       : o->kind == DJ_ORDER_REMOVE ? "REMOVE "
                       : o->kind == DJ_ORDER_DISBAND ? "DISBAND "
                                                     : NULL;
    if (!verb)
        return dj_order_format(map, o, buf, len);
    /* the unit as a hold writes it, "A PAR", after the verb */
    dj_order u = *o;
    u.kind = DJ_ORDER_NONE;
    char unit[64];
    dj_order_format(map, &u, unit, sizeof unit);
    return snprintf(buf, len, "%s%s", verb, unit);
}
