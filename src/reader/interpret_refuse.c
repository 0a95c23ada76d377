/* SPDX-License-Identifier: MIT */
/*
 * interpret_refuse.c — orders that cannot be orders are refused when they
 * are written (DATC 4.E.1 choice d), not stored to fail at the deadline.
 *
 * Under 4.E.1 d an order is legal only if it could be valid in the
 * current position.  An order that cannot be (another power's unit, a
 * unit that is not there, a place no route could ever reach, a coast left
 * out where two can be reached, a retreat the unit cannot make, a build
 * where none can stand, more builds or removals than are due) would only
 * leave the unit holding; refusing it at once tells the player while
 * there is time, keeps the unit's earlier order, and keeps it out of
 * everyone's results.  Orders that are possible but may fail (a move
 * waiting for a convoy, a support not yet matched) are still accepted.
 *
 * Under the other 4.E.1 choices an impossible order is still an order
 * (it fails, and under a-c it may even be a move that cannot be
 * supported to hold), so it is accepted with a note and the adjudicator
 * rules on it.  Extra builds and removals are refused only where the
 * rules use the first ones (4.D.4 b, 4.D.5 b, 4.D.6 b): under the other
 * choices the later orders change what happens to the earlier ones.
 */
#include "engine/adjudicate.h"
#include "reader/interpret_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/fmt.h"

static const ir_reading *chosen(const ir_item *it)
{
    return it->kind == DJ_READ_OK && it->chosen >= 0
               ? &it->readings[it->chosen]
               : NULL;
}

static void refuse(ir_item *it, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void refuse(ir_item *it, const char *fmt, ...)
{
    va_list ap;
    it->kind = DJ_READ_ERROR;
    va_start(ap, fmt);
    dj_vfmt(it->message, sizeof it->message, fmt, ap);
    va_end(ap);
}

/* Why a unit order cannot be given, naming the place when no unit fits. */
static void refuse_unit_order(const ir_ctx *c, ir_item *it,
                              const ir_reading *r)
{
    const dj_map *map = c->map;
    const dj_order *o = &r->order;
    int prov = o->loc >= 0 ? dj_province(map, o->loc) : -1;
    const char *place = prov >= 0 ? ir_place_name(map, prov) : "?";
    int ui = prov >= 0 ? dj_position_unit_at(map, c->pos, prov) : -1;
    if (c->phase == DJ_RETREAT) {
        int d = prov >= 0 ? dj_position_dislodged_at(map, c->pos, prov) : -1;
        if (d < 0 && ui >= 0) {
            refuse(it, "%s: the unit in %s was not dislodged: only dislodged "
                       "units retreat",
                   r->text, place);
            return;
        }
        if (d < 0) {
            refuse(it, "no dislodged unit in %s", place);
            return;
        }
        if (c->pos->dislodged[d].unit.power != c->power) {
            refuse(it, "the dislodged unit in %s is not yours", place);
            return;
        }
    } else if (ui < 0) {
        refuse(it, "no unit in %s", place);
        return;
    } else if (c->pos->units[ui].power != c->power) {
        refuse(it, "the unit in %s is not yours (it is %s)", place,
               map->powers[c->pos->units[ui].power].adjective);
        return;
    }
    refuse(it, "%s: %s", r->text, r->why);
}

/* 4.E.1 d: every order chosen that is not possible in the position. */
static void refuse_impossible(const ir_ctx *c, ir_item *items, int n)
{
    for (int i = 0; i < n; i++) {
        const ir_reading *r = chosen(&items[i]);
        if (!r || !r->why)
            continue;
        if (c->phase == DJ_ADJUSTMENT)
            refuse(&items[i], "%s: %s", r->text, r->why);
        else
            refuse_unit_order(c, &items[i], r);
    }
}

/* Does this adjustment order count towards builds (due > 0) or removals? */
static bool counts_towards(const dj_order *o, int due)
{
    if (due > 0)
        return o->kind == DJ_ORDER_BUILD || o->kind == DJ_ORDER_WAIVE;
    return o->kind == DJ_ORDER_REMOVE || o->kind == DJ_ORDER_DISBAND;
}

/*
 * 4.D.4 b, 4.D.5 b, 4.D.6 b: the first legal builds or removals are used,
 * so any beyond what is due, and a second build in one province, cannot
 * happen: refused, so that "builds given" counts only builds that can.
 */
static void refuse_extra_adjustments(const ir_ctx *c, ir_item *items, int n)
{
    const dj_map *map = c->map;
    int due = dj_adjustment_due(map, c->pos, c->power);
    int needed = due < 0 ? -due : due;
    char rule = dj_rule(c->rules, due > 0 ? DJ_RULE_TOO_MANY_BUILDS
                                          : DJ_RULE_TOO_MANY_DISBANDS);
    bool same_area_first = dj_rule(c->rules, DJ_RULE_BUILD_SAME_AREA) == 'b';
    int given = 0;
    for (int i = 0; i < n; i++) {
        const ir_reading *r = chosen(&items[i]);
        if (!r || !counts_towards(&r->order, due))
            continue;
        if (same_area_first && r->order.kind == DJ_ORDER_BUILD) {
            bool twice = false;
            for (int k = 0; k < i && !twice; k++) {
                const ir_reading *e = chosen(&items[k]);
                twice = e && e->order.kind == DJ_ORDER_BUILD &&
                        dj_province(map, e->order.loc) ==
                            dj_province(map, r->order.loc);
            }
            if (twice) {
                refuse(&items[i], "%s: %s already has a build", r->text,
                       ir_place_name(map, dj_province(map, r->order.loc)));
                continue;
            }
        }
        if (given < needed || rule != 'b') {
            given++;
            continue;
        }
        refuse(&items[i], "%s: more %s than the %d due", r->text,
               due > 0 ? "builds" : "removals", needed);
    }
}

void ir_refuse_impossible(const ir_ctx *c, ir_item *items, int nitems)
{
    if (dj_rule(c->rules, DJ_RULE_ILLEGAL_ORDERS) != 'd')
        return;
    refuse_impossible(c, items, nitems);
    if (c->phase == DJ_ADJUSTMENT)
        refuse_extra_adjustments(c, items, nitems);
}
