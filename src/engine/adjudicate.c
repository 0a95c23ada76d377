/* SPDX-License-Identifier: MIT */
/*
 * adjudicate.c — the engine's front door: check the input, hand the phase to
 * movement.c, retreat.c or adjustment.c, then advance the calendar: supply
 * centres change hands after the Fall, empty retreat and adjustment phases
 * are skipped, and a power at the map's victory count wins.
 */
#include "adjudicate.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "haplomacy.h"
#include "kruijswijk.h"
#include "movement.h"
#include "retreat.h"

static bool position_ok(const dj_map *map, const dj_position *pos)
{
    if (pos->nunits < 0 || pos->nunits > DJ_MAX_UNITS || pos->ndislodged < 0 ||
        pos->ndislodged > DJ_MAX_UNITS || map->nlocs > DJ_MAX_LOCS)
        return false;
    for (int i = 0; i < pos->nunits; i++) {
        const dj_unit *u = &pos->units[i];
        if (u->loc < 0 || u->loc >= map->nlocs || u->power < 0 ||
            u->power >= map->npowers)
            return false;
    }
    for (int i = 0; i < pos->ndislodged; i++) {
        const dj_unit *u = &pos->dislodged[i].unit;
        if (u->loc < 0 || u->loc >= map->nlocs || u->power < 0 ||
            u->power >= map->npowers)
            return false;
    }
    return true;
}

static bool orders_ok(const dj_map *map, const dj_order *orders, int n)
{
    if (n < 0 || n > DJ_MAX_ORDERS)
        return false;
    for (int i = 0; i < n; i++)
        if (orders[i].power < 0 || orders[i].power >= map->npowers)
            return false;
    return true;
}

#ifndef NDEBUG
/* Units of a position in distinct provinces (seen: DJ_MAX_LOCS, false). */
static bool one_per_province(const dj_map *map, const dj_unit *u, int n,
                             bool *seen)
{
    for (int i = 0; i < n; i++) {
        int prov = dj_province(map, u[i].loc);
        if (seen[prov])
            return false;
        seen[prov] = true;
    }
    return true;
}

/*
 * What every engine promises of the result of a phase it adjudicated
 * (test builds check it, --enable-assertions): a result for every order,
 * naming a unit of the input or none, none both succeeded and bounced or
 * was illegal, a unit destroyed only if dislodged; the position after it
 * as sound as the engine's front door asks of its input, each dislodged
 * unit's retreats places of the map; and, when the input stood one unit
 * per province, so does the output (units and dislodged units alike).
 */
static bool result_sane(const dj_map *map, const dj_position *pos,
                        const dj_result *out)
{
    if (out->nauto < 0 || out->nauto > DJ_MAX_UNITS)
        return false;
    int units = pos->nunits > pos->ndislodged ? pos->nunits : pos->ndislodged;
    for (int k = 0; k < out->norders; k++) {
        const dj_order_result *r = &out->orders[k];
        if (r->unit < -1 || r->unit >= units || r->dislodged_by < -1 ||
            r->dislodged_by >= map->nlocs)
            return false;
        if (r->success && (r->flags & (DJ_RF_BOUNCE | DJ_RF_ILLEGAL)))
            return false;
        if ((r->flags & DJ_RF_DESTROYED) && !(r->flags & DJ_RF_DISLODGED))
            return false;
    }
    if (!position_ok(map, &out->next))
        return false;
    for (int i = 0; i < out->next.ndislodged; i++) {
        const dj_dislodged *d = &out->next.dislodged[i];
        if (d->nretreats < 0 || d->nretreats > DJ_MAX_RETREATS)
            return false;
        for (int r = 0; r < d->nretreats; r++)
            if (d->retreats[r] < 0 || d->retreats[r] >= map->nlocs)
                return false;
    }
    bool seen[DJ_MAX_LOCS];
    memset(seen, 0, sizeof seen);
    bool was_one = one_per_province(map, pos->units, pos->nunits, seen);
    if (!was_one)
        return true;
    memset(seen, 0, sizeof seen);
    if (!one_per_province(map, out->next.units, out->next.nunits, seen))
        return false;
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < out->next.ndislodged; i++) {
        int prov = dj_province(map, out->next.dislodged[i].unit.loc);
        if (seen[prov])
            return false;
        seen[prov] = true;
    }
    return true;
}
#endif

/* Fall's end: centres go to whoever occupies them. */
static void capture_centres(const dj_map *map, dj_position *pos)
{
    for (int i = 0; i < pos->nunits; i++) {
        int prov = dj_province(map, pos->units[i].loc);
        assert(prov >= 0 && prov < DJ_MAX_LOCS);
        if (map->is_sc[prov])
            pos->owner[prov] = pos->units[i].power;
    }
}

/* Centres and units per power, counted in one pass each. */
static void count_powers(const dj_map *map, const dj_position *pos,
                         int *centres, int *units)
{
    for (int p = 0; p < map->npowers; p++)
        centres[p] = units[p] = 0;
    for (int i = 0; i < map->nlocs && i < DJ_MAX_LOCS; i++)
        if (map->is_sc[i] && pos->owner[i] >= 0 &&
            pos->owner[i] < map->npowers)
            centres[pos->owner[i]]++;
    for (int i = 0; i < pos->nunits; i++)
        if (pos->units[i].power >= 0 && pos->units[i].power < map->npowers)
            units[pos->units[i].power]++;
}

static int find_winner(const dj_map *map, const int *centres)
{
    int winner = -1, best = 0;
    bool tie = false;
    for (int p = 0; p < map->npowers; p++) {
        int n = centres[p];
        if (n > best) {
            best = n;
            winner = p;
            tie = false;
        } else if (n == best) {
            tie = true;
        }
    }
    return !tie && best >= map->victory ? winner : -1;
}

static bool adjustments_needed(const dj_map *map, const int *centres,
                               const int *units)
{
    for (int p = 0; p < map->npowers; p++)
        if (centres[p] != units[p])
            return true;
    return false;
}

/*
 * Move `pos` (already carrying the outcome of its phase) to the phase that
 * has something to do.  Returns the winner found at the Fall capture, or -1.
 */
static int advance(const dj_map *map, dj_position *pos)
{
    dj_phase *ph = &pos->phase;
    if (ph->type == DJ_RETREAT && pos->ndislodged > 0)
        return -1;
    if (ph->type == DJ_ADJUSTMENT || ph->season == DJ_WINTER) {
        ph->season = DJ_SPRING;
        ph->type = DJ_MOVEMENT;
        ph->year += map->years_to_spring;
        return -1;
    }
    if (ph->season == DJ_SPRING) {
        ph->season = DJ_FALL;
        ph->type = DJ_MOVEMENT;
        ph->year += map->years_to_fall;
        return -1;
    }
    capture_centres(map, pos);
    int centres[DJ_MAX_POWERS], units[DJ_MAX_POWERS];
    count_powers(map, pos, centres, units);
    int winner = find_winner(map, centres);
    if (winner < 0 && adjustments_needed(map, centres, units)) {
        ph->season = DJ_WINTER;
        ph->type = DJ_ADJUSTMENT;
    } else {
        ph->season = DJ_SPRING;
        ph->type = DJ_MOVEMENT;
        ph->year += map->years_to_spring;
    }
    return winner;
}

dj_phase dj_next_phase(const dj_map *map, const dj_position *pos)
{
    dj_position *copy = malloc(sizeof *copy);
    if (!copy)
        return pos->phase;
    *copy = *pos;
    advance(map, copy);
    dj_phase next = copy->phase;
    free(copy);
    return next;
}

/* Dislodged units with nowhere to go are destroyed at once. */
static void destroy_trapped_units(dj_result *out)
{
    dj_position *n = &out->next;
    int kept = 0;
    for (int i = 0; i < n->ndislodged; i++) {
        dj_dislodged *d = &n->dislodged[i];
        if (d->nretreats > 0) {
            n->dislodged[kept++] = *d;
            continue;
        }
        assert(out->nauto < DJ_MAX_UNITS); /* one per dislodged unit */
        dj_auto_order *a = &out->autos[out->nauto++];
        a->order = dj_order_make(DJ_ORDER_DISBAND, d->unit.power, d->unit.type,
                                 d->unit.loc);
        a->why = DJ_WHY_NO_RETREAT;
    }
    n->ndislodged = kept;
}

static void flag_destroyed(const dj_map *map, const dj_position *pos,
                           dj_result *out)
{
    for (int k = 0; k < out->norders; k++) {
        dj_order_result *r = &out->orders[k];
        if (!(r->flags & DJ_RF_DISLODGED) || r->unit < 0)
            continue;
        int prov = dj_province(map, pos->units[r->unit].loc);
        if (dj_position_dislodged_at(map, &out->next, prov) < 0)
            r->flags |= DJ_RF_DESTROYED;
    }
}

static void init_result(int norders, dj_result *out)
{
    out->norders = norders;
    out->nauto = 0;
    out->winner = -1;
    for (int i = 0; i < norders; i++) {
        dj_order_result *r = &out->orders[i];
        memset(r, 0, sizeof *r);
        r->unit = -1;
        r->dislodged_by = -1;
    }
}

/*
 * What follows a movement phase whatever the engine: its retreat phase,
 * centres and civil disorder as they were, and the retreats open to each
 * dislodged unit (the engine filled the units, the dislodged units and
 * the contested provinces; 4.A.5 decides about a convoy's start).
 */
static void start_retreats(const dj_map *map, const dj_position *pos,
                           const dj_rules *rules, dj_result *out)
{
    dj_position *n = &out->next;
    n->phase = pos->phase;
    n->phase.type = DJ_RETREAT;
    memcpy(n->owner, pos->owner, sizeof n->owner);
    n->civil_disorder = pos->civil_disorder;
    dj_position_compute_retreats(map, n, out->contested,
                                 dj_rule(rules, DJ_RULE_CONVOY_RETREAT) == 'b');
}

/* DPjudge's passes: the context is large, so it lives on the heap. */
static int dpjudge_movement(const dj_map *map, const dj_position *pos,
                            const dj_order *orders, int norders,
                            const dj_rules *rules, dj_result *out)
{
    mv_ctx *c = malloc(sizeof *c);
    if (!c)
        return -1;
    int rc = mv_adjudicate(map, pos, orders, norders, rules, out, c);
    free(c);
    return rc;
}

#define RULE_BIT(r) (UINT64_C(1) << (r))

/* The rule options the movement engines read (the others are decided by
 * the code all engines share). */
#define MOVEMENT_OPTIONS                                                      \
    (RULE_BIT(DJ_RULE_MULTI_ROUTE_DISRUPTION) |                               \
     RULE_BIT(DJ_RULE_CONVOY_PARADOX) | RULE_BIT(DJ_RULE_ADJACENT_CONVOY) |   \
     RULE_BIT(DJ_RULE_CONVOY_SELF_CUT) | RULE_BIT(DJ_RULE_CONVOY_PATH) |      \
     RULE_BIT(DJ_RULE_DISLODGED_BOUNCE) |                                     \
     RULE_BIT(DJ_RULE_COAST_TWO_OMITTED) |                                    \
     RULE_BIT(DJ_RULE_COAST_ONE_OMITTED) |                                    \
     RULE_BIT(DJ_RULE_COAST_IMPOSSIBLE) |                                     \
     RULE_BIT(DJ_RULE_COAST_IN_SUPPORT) |                                     \
     RULE_BIT(DJ_RULE_COAST_WRONG_UNIT) | RULE_BIT(DJ_RULE_COAST_UNKNOWN) |   \
     RULE_BIT(DJ_RULE_MULTIPLE_ORDERS) |                                      \
     RULE_BIT(DJ_RULE_CIVIL_DISORDER_SUPPORT) |                               \
     RULE_BIT(DJ_RULE_ILLEGAL_ORDERS) | RULE_BIT(DJ_RULE_IMPLICIT_ORDERS))

/* One row per engine: its name, its movement adjudicator, which fills
 * out->orders, out->contested and out->next's units and dislodged units
 * (start_retreats does the rest), and the rule options it does not
 * implement (a game asking for one is refused). */
static const struct {
    const char *name;
    int (*movement)(const dj_map *, const dj_position *, const dj_order *,
                    int, const dj_rules *, dj_result *);
    uint64_t ignores;
} engines[DJ_ENGINE_COUNT] = {
    [DJ_ENGINE_DPJUDGE] = {"dpjudge", dpjudge_movement, 0},
    [DJ_ENGINE_KRUIJSWIJK] = {"kruijswijk", kj_adjudicate_movement, 0},
    /* seed 003's algorithm follows its own reading of the rules */
    [DJ_ENGINE_HAPLOMACY] = {"haplomacy", hp_adjudicate_movement,
                             MOVEMENT_OPTIONS},
};

bool dj_engine_implements(dj_engine engine, dj_rule_id rule)
{
    return (unsigned)engine < DJ_ENGINE_COUNT &&
           (unsigned)rule < DJ_RULE_COUNT &&
           !(engines[engine].ignores & RULE_BIT(rule));
}

int dj_engine_check_rules(dj_engine engine, const dj_rules *rules, char *why,
                          size_t whylen)
{
    const dj_rule_info *t = dj_rule_table();
    for (int r = 0; r < DJ_RULE_COUNT; r++) {
        if (rules->choice[r] == t[r].preferred ||
            dj_engine_implements(engine, (dj_rule_id)r))
            continue;
        char list[128] = "";
        for (int e = 0; e < DJ_ENGINE_COUNT; e++)
            if (dj_engine_implements((dj_engine)e, (dj_rule_id)r)) {
                size_t used = strlen(list);
                snprintf(list + used, sizeof list - used, "%s%s",
                         used ? ", " : "", engines[e].name);
            }
        snprintf(why, whylen,
                 "the %s engine does not implement rule option %s (%s) = %c; "
                 "engines that do: %s",
                 dj_engine_name(engine), t[r].name, t[r].issue,
                 rules->choice[r], list[0] ? list : "none");
        return -1;
    }
    return 0;
}

const char *dj_engine_name(dj_engine engine)
{
    if ((unsigned)engine >= DJ_ENGINE_COUNT)
        return "?";
    return engines[engine].name;
}

int dj_engine_lookup(const char *name)
{
    for (int e = 0; e < DJ_ENGINE_COUNT; e++)
        if (name && strcasecmp(name, engines[e].name) == 0)
            return e;
    return -1;
}

int dj_adjudicate_with(dj_engine engine, const dj_map *map,
                       const dj_position *pos, const dj_order *orders,
                       int norders, const dj_rules *rules, dj_result *out)
{
    if ((unsigned)engine >= DJ_ENGINE_COUNT || !position_ok(map, pos) ||
        !orders_ok(map, orders, norders))
        return -1;
    init_result(norders, out);
    switch (pos->phase.type) {
    case DJ_MOVEMENT:
        if (engines[engine].movement(map, pos, orders, norders, rules, out) < 0)
            return -1;
        start_retreats(map, pos, rules, out);
        destroy_trapped_units(out);
        flag_destroyed(map, pos, out);
        break;
    case DJ_RETREAT:
        rt_adjudicate(map, pos, orders, norders, rules, out);
        break;
    case DJ_ADJUSTMENT:
        adj_adjudicate(map, pos, orders, norders, rules, out);
        break;
    default:
        return -1;
    }
    assert(out->norders == norders);
    assert(result_sane(map, pos, out));
    out->winner = advance(map, &out->next);
    assert(out->winner >= -1 && out->winner < map->npowers);
    return 0;
}

int dj_adjudicate(const dj_map *map, const dj_position *pos,
                  const dj_order *orders, int norders, const dj_rules *rules,
                  dj_result *out)
{
    return dj_adjudicate_with(DJ_ENGINE_DPJUDGE, map, pos, orders, norders,
                              rules, out);
}
