/* SPDX-License-Identifier: MIT */
/*
 * result.c — what a result says: the reason for an illegal, void or
 * ignored order in words, and whether two adjudications of one phase
 * agree.
 *
 * The judge runs a second, independent engine over every phase before its
 * results are stored or mailed; this is where the two answers are held
 * side by side.  Only outcomes are compared (which orders succeeded, who
 * was dislodged, where everything stands afterwards), never the marks an
 * engine uses to explain a failure: "cut" and "void" are two words for the
 * same failed support.  Units are compared as sets, since two engines may
 * list the same units in different orders.
 */
#include "result.h"

#include <stdio.h>
#include <string.h>

static const char *const why_text[DJ_WHY_COUNT] = {
    [DJ_WHY_NONE] = "",
    [DJ_WHY_NO_UNIT] = "no such unit",
    [DJ_WHY_NOT_OWNER] = "not your unit",
    [DJ_WHY_WRONG_PHASE] = "not an order for this phase",
    [DJ_WHY_SAME_PLACE] = "cannot move to its own province",
    [DJ_WHY_NOT_ADJACENT] = "destination cannot be reached",
    [DJ_WHY_BAD_TERRAIN] = "unit cannot go there (army to sea or fleet inland)",
    [DJ_WHY_COAST_NEEDED] = "which coast? it must be given",
    [DJ_WHY_COAST_UNREACHABLE] = "that coast cannot be reached",
    [DJ_WHY_FLEET_CONVOYED] = "only armies can be convoyed",
    [DJ_WHY_NO_CONVOY_ROUTE] = "no fleets to convoy it there",
    [DJ_WHY_CONVOY_NOT_AT_SEA] = "only fleets at sea can convoy",
    [DJ_WHY_CONVOY_BAD_TARGET] = "only armies on a coast can be convoyed to a coast",
    [DJ_WHY_SUPPORT_UNREACHABLE] = "supporting unit cannot reach that province",
    [DJ_WHY_SUPPORT_SELF] = "a unit cannot support itself or a move into its own province",
    [DJ_WHY_NO_TARGET] = "no unit there to support or convoy",
    [DJ_WHY_UNMATCHED] = "the other unit did not order that",
    [DJ_WHY_DUPLICATE] = "more than one order for this unit",
    [DJ_WHY_NOT_DISLODGED] = "that unit was not dislodged",
    [DJ_WHY_RETREAT_BLOCKED] = "not a place this unit can retreat to",
    [DJ_WHY_BUILD_NOT_HOME] = "not one of your home supply centres",
    [DJ_WHY_BUILD_NOT_OWNED] = "you do not own that home centre now",
    [DJ_WHY_BUILD_OCCUPIED] = "a unit is already there",
    [DJ_WHY_BUILD_NO_ROOM] = "no builds left",
    [DJ_WHY_BUILD_TERRAIN] = "that unit type cannot stand there",
    [DJ_WHY_BUILD_COAST] = "a fleet there needs a coast",
    [DJ_WHY_BUILD_TWICE] = "already a build in that province",
    [DJ_WHY_REMOVE_NOT_NEEDED] = "no removal needed",
    [DJ_WHY_NO_ADJUSTMENT] = "nothing to build or remove",
    [DJ_WHY_WRONG_COAST] = "that coast does not apply to this unit",
    [DJ_WHY_NO_ORDER] = "no order given",
    [DJ_WHY_PATH_NEEDED] = "a convoy route must be written (A LON-NTH-BEL)",
    [DJ_WHY_CONVOY_OFF_ROUTE] = "the army ordered that move, but this fleet is on no route of its convoy",
    [DJ_WHY_NO_RETREAT] = "it had nowhere to retreat, so it was destroyed",
    [DJ_WHY_RETREAT_FAILED] = "its retreat failed",
    [DJ_WHY_RETREAT_REFUSED] = "its retreat order could not be carried out",
    [DJ_WHY_TOO_FEW_REMOVALS] = "fewer removals were ordered than are owed",
    [DJ_WHY_DISORDER_SUPPORT] = "no support to hold for a power in civil disorder (rule 4.D.9 a)",
    [DJ_WHY_SUPPORT_HALF_BORDER] = "no unit supports across a half-strength border",
};

const char *dj_why_text(dj_why why)
{
    if ((unsigned)why >= DJ_WHY_COUNT)
        return "?";
    return why_text[why];
}

static int find_unit(const dj_position *p, const dj_unit *u)
{
    for (int i = 0; i < p->nunits; i++)
        if (p->units[i].loc == u->loc && p->units[i].power == u->power &&
            p->units[i].type == u->type)
            return i;
    return -1;
}

static int find_dislodged(const dj_position *p, const dj_unit *u)
{
    for (int i = 0; i < p->ndislodged; i++) {
        const dj_unit *d = &p->dislodged[i].unit;
        if (d->loc == u->loc && d->power == u->power && d->type == u->type)
            return i;
    }
    return -1;
}

static bool same_retreats(const dj_dislodged *a, const dj_dislodged *b)
{
    if (a->nretreats != b->nretreats)
        return false;
    for (int i = 0; i < a->nretreats; i++) {
        bool found = false;
        for (int j = 0; j < b->nretreats && !found; j++)
            found = a->retreats[i] == b->retreats[j];
        if (!found)
            return false;
    }
    return true;
}

static const char *abbr(const dj_map *map, int loc)
{
    return loc >= 0 && loc < map->nlocs ? map->locs[loc].abbr : "?";
}

/* Every unit of `x` stands in `y` too; else describe the first that does not. */
static int units_within(const dj_map *map, const dj_position *x,
                        const dj_position *y, char x_name, char y_name,
                        char *why, size_t len)
{
    for (int i = 0; i < x->nunits; i++)
        if (find_unit(y, &x->units[i]) < 0) {
            snprintf(why, len, "%s %s %s stands after engine %c, not after %c",
                     map->powers[x->units[i].power].name,
                     dj_unit_letter(x->units[i].type),
                     abbr(map, x->units[i].loc), x_name, y_name);
            return 1;
        }
    for (int i = 0; i < x->ndislodged; i++) {
        const dj_dislodged *d = &x->dislodged[i];
        int j = find_dislodged(y, &d->unit);
        if (j < 0) {
            snprintf(why, len, "%s %s %s is dislodged after engine %c, not after %c",
                     map->powers[d->unit.power].name,
                     dj_unit_letter(d->unit.type), abbr(map, d->unit.loc),
                     x_name, y_name);
            return 1;
        }
        if (!same_retreats(d, &y->dislodged[j])) {
            snprintf(why, len, "%s %s %s has other retreats after engine %c than after %c",
                     map->powers[d->unit.power].name,
                     dj_unit_letter(d->unit.type), abbr(map, d->unit.loc),
                     x_name, y_name);
            return 1;
        }
    }
    return 0;
}

int dj_result_diff(const dj_map *map, const dj_result *a, const dj_result *b,
                   char *why, size_t whylen)
{
    char dummy[1];
    if (!why || whylen == 0) {
        why = dummy;
        whylen = sizeof dummy;
    }
    why[0] = '\0';
    if (a->norders != b->norders) {
        snprintf(why, whylen, "different order counts (%d, %d)", a->norders,
                 b->norders);
        return 1;
    }
    for (int i = 0; i < a->norders; i++) {
        const dj_order_result *x = &a->orders[i], *y = &b->orders[i];
        if (x->success != y->success) {
            snprintf(why, whylen, "order %d %s after engine A, %s after B",
                     i + 1, x->success ? "succeeds" : "fails",
                     y->success ? "succeeds" : "fails");
            return 1;
        }
        if ((x->flags & DJ_RF_DISLODGED) != (y->flags & DJ_RF_DISLODGED)) {
            snprintf(why, whylen, "order %d: unit %sdislodged after engine A, "
                     "%sdislodged after B", i + 1,
                     x->flags & DJ_RF_DISLODGED ? "" : "not ",
                     y->flags & DJ_RF_DISLODGED ? "" : "not ");
            return 1;
        }
    }
    const dj_position *p = &a->next, *q = &b->next;
    if (p->nunits != q->nunits || p->ndislodged != q->ndislodged) {
        snprintf(why, whylen, "%d units and %d dislodged after engine A, "
                 "%d and %d after B", p->nunits, p->ndislodged, q->nunits,
                 q->ndislodged);
        return 1;
    }
    if (units_within(map, p, q, 'A', 'B', why, whylen) ||
        units_within(map, q, p, 'B', 'A', why, whylen))
        return 1;
    for (int l = 0; l < map->nlocs; l++)
        if (p->owner[l] != q->owner[l]) {
            snprintf(why, whylen, "owner of %s differs", abbr(map, l));
            return 1;
        }
    if (memcmp(&p->phase, &q->phase, sizeof p->phase) != 0 ||
        a->winner != b->winner) {
        snprintf(why, whylen, "next phase or winner differs");
        return 1;
    }
    return 0;
}
