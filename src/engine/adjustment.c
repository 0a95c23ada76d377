/* SPDX-License-Identifier: MIT */
/*
 * adjustment.c — the Winter adjustment phase (DATC 6.I, 6.J).
 *
 * A power with more centres than units builds in its vacant, owned home
 * centres (rule V.1 may allow others; on a MOBILIZE map the opening
 * adjustment gives every power one build in any of its home centres, which
 * it then owns); one with fewer removes units.  Orders are taken one by one in
 * the order written: the first legal ones are used (4.D.4-4.D.6 b), and
 * later ones are reported as ignored.  Builds not used are waived.  Removals
 * not ordered are made by the civil-disorder rule (4.D.8): the unit farthest
 * from the power's home centres goes first, fleets before armies at equal
 * distance, then in alphabetical order of the province's full name.
 */
#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "adjustment.h"

#define FAR_AWAY 100000

typedef struct adj_state {
    const dj_map *map;
    const dj_position *pos;
    const dj_rules *rules;
    int due[DJ_MAX_POWERS];    /* builds (>0) or removals (<0) owed */
    int used[DJ_MAX_POWERS];   /* builds/waives or removals accepted */
    bool removed[DJ_MAX_UNITS];
} adj_state;

bool dj_mobilizing(const dj_map *map, const dj_position *pos)
{
    return map->mobilize && pos->phase.type == DJ_ADJUSTMENT &&
           (int)pos->phase.season == map->start_season &&
           pos->phase.year == map->start_year;
}

int dj_adjustment_due(const dj_map *map, const dj_position *pos, int power)
{
    if (dj_mobilizing(map, pos))
        return 1 - dj_position_units(pos, power);
    return dj_position_centres(map, pos, power) - dj_position_units(pos, power);
}

/* 4.C.3, 4.C.4, 4.B.7: which unit, standing where, does a build order make? */
static dj_why build_unit(const adj_state *s, const dj_order *o, dj_unit *out)
{
    const dj_map *m = s->map;
    int prov = dj_province(m, o->loc);
    dj_unit_type type = o->unit_type;
    bool multi = dj_map_ncoasts(m, prov) > 0;

    if (type == DJ_NO_UNIT) {
        char rule = dj_rule(s->rules, DJ_RULE_BUILD_UNIT_MISSING);
        if (m->locs[prov].terrain == DJ_LAND && rule != 'a')
            type = DJ_ARMY;
        else if (rule == 'c' && m->locs[o->loc].is_coast)
            type = DJ_FLEET;
        else
            return DJ_WHY_BUILD_TERRAIN;
    }
    if (type == DJ_FLEET && m->locs[prov].terrain == DJ_LAND) {
        if (dj_rule(s->rules, DJ_RULE_BUILD_FLEET_LAND) == 'a')
            return DJ_WHY_BUILD_TERRAIN;
        type = DJ_ARMY;
    }
    int loc = prov;
    if (type == DJ_FLEET && multi) {
        if (m->locs[o->loc].is_coast)
            loc = o->loc;
        else if (dj_rule(s->rules, DJ_RULE_COAST_IN_BUILD) == 'b')
            loc = dj_map_coast(m, prov, 0);
        else
            return DJ_WHY_BUILD_COAST;
    }
    if ((type == DJ_FLEET && !m->locs[loc].fleet_ok) ||
        (type == DJ_ARMY && !m->locs[loc].army_ok))
        return DJ_WHY_BUILD_TERRAIN;
    out->power = (int16_t)o->power;
    out->type = type;
    out->loc = (int16_t)loc;
    return DJ_WHY_NONE;
}

/* Does power p own one of its own home centres (REMOTE_BUILDS)? */
static bool owns_a_home(const adj_state *s, int p)
{
    const dj_map *m = s->map;
    for (int l = 0; l < m->nlocs; l++)
        if (m->is_sc[l] && (m->home_of[l] & DJ_POWER_BIT(p)) &&
            s->pos->owner[l] == p)
            return true;
    return false;
}

/* May power p build in supply centre prov, if it owns it (rule V.1)? */
static bool build_site(const adj_state *s, int prov, int p)
{
    switch (dj_rule(s->rules, DJ_RULE_BUILD_SITES)) {
    case 'b':
        return true;
    case 'd':
        return owns_a_home(s, p);
    case 'c':
        return s->map->home_of[prov] != 0;
    default:
        return (s->map->home_of[prov] & DJ_POWER_BIT(p)) != 0;
    }
}

/* The centre, its owner and whether a unit stands there (not the unit). */
static dj_why check_site(const adj_state *s, int p, int prov)
{
    const dj_map *m = s->map;
    bool mobilizing = dj_mobilizing(m, s->pos);
    if (!m->is_sc[prov] || (mobilizing ? !(m->home_of[prov] & DJ_POWER_BIT(p))
                                       : !build_site(s, prov, p)))
        return DJ_WHY_BUILD_NOT_HOME;
    if (s->pos->owner[prov] != p && !mobilizing)
        return DJ_WHY_BUILD_NOT_OWNED;
    if (dj_position_unit_at(m, s->pos, prov) >= 0)
        return DJ_WHY_BUILD_OCCUPIED;
    return DJ_WHY_NONE;
}

dj_why dj_build_site_why(const dj_map *map, const dj_position *pos,
                         const dj_rules *rules, int power, int prov)
{
    adj_state s;
    memset(&s, 0, sizeof s);
    s.map = map;
    s.pos = pos;
    s.rules = rules;
    if (prov < 0 || prov >= map->nlocs)
        return DJ_WHY_BUILD_NOT_HOME;
    return check_site(&s, power, dj_province(map, prov));
}

static dj_why check_build(const adj_state *s, const dj_order *o, dj_unit *unit)
{
    const dj_map *m = s->map;
    int p = o->power;
    if (s->due[p] <= 0)
        return DJ_WHY_NO_ADJUSTMENT;
    if (o->kind == DJ_ORDER_WAIVE)
        return DJ_WHY_NONE;
    if (o->loc < 0 || o->loc >= m->nlocs)
        return DJ_WHY_BUILD_NOT_HOME;
    dj_why why = check_site(s, p, dj_province(m, o->loc));
    return why != DJ_WHY_NONE ? why : build_unit(s, o, unit);
}

static dj_why check_remove(const adj_state *s, const dj_order *o, int *unit)
{
    const dj_map *m = s->map;
    if (s->due[o->power] >= 0)
        return DJ_WHY_NO_ADJUSTMENT;
    if (o->loc < 0 || o->loc >= m->nlocs)
        return DJ_WHY_NO_UNIT;
    *unit = dj_position_unit_at(m, s->pos, dj_province(m, o->loc));
    if (*unit < 0)
        return DJ_WHY_NO_UNIT;
    if (s->pos->units[*unit].power != o->power)
        return DJ_WHY_NOT_OWNER;
    return DJ_WHY_NONE;
}

/* ---- 4.D.8: distance from home --------------------------------------- */

/* May a unit of this type step from province a to province b (choice d/e)? */
static bool step_allowed(const dj_map *m, int from_loc, int to_loc,
                         dj_unit_type type, char rule)
{
    if (type == DJ_FLEET && rule != 'e')
        return dj_map_adjacent(m, from_loc, to_loc, DJ_FLEET);
    /* Armies move over land, and (choice d) also as fleets do. */
    return dj_map_adjacent(m, from_loc, to_loc, DJ_ARMY) ||
           dj_map_adjacent(m, from_loc, to_loc, DJ_FLEET) ||
           (rule == 'e' && dj_map_adjacent(m, to_loc, from_loc, DJ_FLEET));
}

/* Does water location w hold a fleet that counts for a convoy jump (a-c)? */
static bool water_usable(const adj_state *s, int w, int power, char rule)
{
    if (rule == 'a')
        return true;
    int u = dj_position_unit_at(s->map, s->pos, w);
    return u >= 0 && s->pos->units[u].type == DJ_FLEET &&
           (rule == 'c' || s->pos->units[u].power == power);
}

/*
 * 4.D.8 a-c: an army's convoy counts as one move, to any coast reached
 * through usable water.  Marks the provinces reached in `reach`.
 */
static void convoy_reach(const adj_state *s, int prov, int power, char rule,
                         bool *reach)
{
    const dj_map *m = s->map;
    int16_t queue[DJ_MAX_LOCS];
    bool seen[DJ_MAX_LOCS];
    int head = 0, tail = 0;
    memset(seen, 0, sizeof(bool) * (size_t)m->nlocs);
    for (int w = 0; w < m->nlocs; w++)
        if (m->locs[w].terrain == DJ_WATER && water_usable(s, w, power, rule) &&
            dj_map_reaches_province(m, w, prov, DJ_FLEET)) {
            seen[w] = true;
            queue[tail++] = (int16_t)w;
        }
    while (head < tail) {
        int w = queue[head++];
        for (int i = 0; i < m->locs[w].nadj; i++) {
            int to = m->locs[w].adj[i].to;
            int tp = dj_province(m, to);
            if (m->locs[tp].terrain == DJ_COAST)
                reach[tp] = true;
            else if (m->locs[to].terrain == DJ_WATER && !seen[to] &&
                     water_usable(s, to, power, rule)) {
                seen[to] = true;
                queue[tail++] = (int16_t)to;
            }
        }
    }
}

/* Armies under 4.D.8 a-c: moves over land, and convoys as single moves. */
static int army_distance_by_convoy(const adj_state *s, int loc, int power,
                                   char rule)
{
    const dj_map *m = s->map;
    int16_t dist[DJ_MAX_LOCS];
    int16_t queue[DJ_MAX_LOCS];
    bool reach[DJ_MAX_LOCS];
    int head = 0, tail = 0;
    for (int i = 0; i < m->nlocs; i++)
        dist[i] = -1;
    int start = dj_province(m, loc);
    dist[start] = 0;
    queue[tail++] = (int16_t)start;
    while (head < tail) {
        int at = queue[head++];
        if (m->is_sc[at] && (m->home_of[at] & DJ_POWER_BIT(power)))
            return dist[at];
        memset(reach, 0, sizeof(bool) * (size_t)m->nlocs);
        if (m->locs[at].terrain == DJ_COAST)
            convoy_reach(s, at, power, rule, reach);
        for (int to = 0; to < m->nlocs; to++) {
            if (dist[to] >= 0 || dj_province(m, to) != to)
                continue;
            if (reach[to] || dj_map_adjacent(m, at, to, DJ_ARMY)) {
                dist[to] = (int16_t)(dist[at] + 1);
                queue[tail++] = (int16_t)to;
            }
        }
    }
    return FAR_AWAY;
}

/* Breadth-first distance, in moves, from loc to the nearest home centre. */
static int distance_home(const dj_map *m, int loc, dj_unit_type type, int power,
                         char rule)
{
    int16_t dist[DJ_MAX_LOCS];
    int16_t queue[DJ_MAX_LOCS];
    int head = 0, tail = 0;
    for (int i = 0; i < m->nlocs; i++)
        dist[i] = -1;
    dist[loc] = 0;
    queue[tail++] = (int16_t)loc;
    while (head < tail) {
        int at = queue[head++];
        int prov = dj_province(m, at);
        if (m->is_sc[prov] && (m->home_of[prov] & DJ_POWER_BIT(power)))
            return dist[at];
        for (int to = 0; to < m->nlocs; to++) {
            if (dist[to] >= 0 || !step_allowed(m, at, to, type, rule))
                continue;
            dist[to] = (int16_t)(dist[at] + 1);
            queue[tail++] = (int16_t)to;
            /* Armies stand on the province, whichever coast led there. */
        }
    }
    return FAR_AWAY;
}

/* Full name without spaces, dots and hyphens, folded to lower case. */
static void sort_key(const char *name, char *key, size_t len)
{
    size_t k = 0;
    for (; *name && k + 1 < len; name++)
        if (isalnum((unsigned char)*name))
            key[k++] = (char)tolower((unsigned char)*name);
    key[k] = '\0';
}

/* Should unit a be removed before unit b? */
static bool removes_first(const adj_state *s, int a, int da, int b, int db)
{
    const dj_map *m = s->map;
    const dj_unit *ua = &s->pos->units[a], *ub = &s->pos->units[b];
    if (da != db)
        return da > db;
    if (ua->type != ub->type)
        return ua->type == DJ_FLEET;
    char ka[DJ_NAME_MAX], kb[DJ_NAME_MAX];
    sort_key(m->locs[dj_province(m, ua->loc)].name, ka, sizeof ka);
    sort_key(m->locs[dj_province(m, ub->loc)].name, kb, sizeof kb);
    return strcmp(ka, kb) < 0;
}

/* The removals the power owes and did not order, the judge's choice: for
 * want of any order, or of enough that stood (`ordered`: the power gave
 * some order this phase). */
static void civil_disorder_removals(adj_state *s, int power, bool ordered,
                                    dj_result *out)
{
    char rule = dj_rule(s->rules, DJ_RULE_CIVIL_DISORDER_REMOVAL);
    int dist[DJ_MAX_UNITS];
    for (int i = 0; i < s->pos->nunits; i++) {
        const dj_unit *u = &s->pos->units[i];
        if (u->power != power)
            dist[i] = -1;
        else if (u->type == DJ_ARMY && rule >= 'a' && rule <= 'c')
            dist[i] = army_distance_by_convoy(s, u->loc, power, rule);
        else
            dist[i] = distance_home(s->map, u->loc, u->type, power, rule);
    }
    while (s->used[power] < -s->due[power]) {
        int pick = -1;
        for (int i = 0; i < s->pos->nunits; i++) {
            if (s->pos->units[i].power != power || s->removed[i])
                continue;
            if (pick < 0 || removes_first(s, i, dist[i], pick, dist[pick]))
                pick = i;
        }
        if (pick < 0)
            return;
        s->removed[pick] = true;
        s->used[power]++;
        const dj_unit *u = &s->pos->units[pick];
        /* one removal a unit, each unit removed once */
        assert(out->nauto < s->pos->nunits && out->nauto < DJ_MAX_UNITS);
        dj_auto_order *a = &out->autos[out->nauto++];
        a->order = dj_order_make(DJ_ORDER_REMOVE, power, u->type, u->loc);
        a->why = ordered ? DJ_WHY_TOO_FEW_REMOVALS : DJ_WHY_NO_ORDER;
    }
}

/* ---- the phase ---------------------------------------------------------- */

static void reject(dj_order_result *r, uint16_t flag, dj_why why)
{
    r->flags |= flag;
    r->why = why;
}

/* Pass 1: is this order legal on its own?  Builds remember their unit. */
static void check_order(adj_state *s, const dj_order *o, dj_order_result *r,
                        dj_unit *unit)
{
    if (o->kind == DJ_ORDER_BUILD || o->kind == DJ_ORDER_WAIVE) {
        dj_why why = check_build(s, o, unit);
        if (why != DJ_WHY_NONE)
            reject(r, DJ_RF_ILLEGAL, why);
        else if (o->kind == DJ_ORDER_WAIVE &&
                 dj_rule(s->rules, DJ_RULE_WAIVE) == 'b')
            reject(r, DJ_RF_IGNORED, DJ_WHY_WRONG_PHASE);
        return;
    }
    if (o->kind == DJ_ORDER_REMOVE || o->kind == DJ_ORDER_DISBAND) {
        int u = -1;
        dj_why why = check_remove(s, o, &u);
        if (why != DJ_WHY_NONE)
            reject(r, DJ_RF_ILLEGAL, why);
        else
            r->unit = (int16_t)u;
        return;
    }
    reject(r, DJ_RF_ILLEGAL, DJ_WHY_WRONG_PHASE);
}

static bool still_open(const dj_order_result *r)
{
    return !(r->flags & (DJ_RF_ILLEGAL | DJ_RF_IGNORED));
}

/*
 * Keep `limit` of the n candidates by a 4.D.4-4.D.6 style choice: 'a' none
 * (when there are too many), 'b' the first, 'c' the last; the others are
 * ignored with `why`.
 */
static void keep_some(dj_result *out, const int *cand, int n, int limit,
                      char rule, dj_why why)
{
    if (n <= limit)
        return;
    for (int k = 0; k < n; k++) {
        bool keep = rule == 'b' ? k < limit : rule == 'c' ? k >= n - limit : false;
        if (!keep)
            reject(&out->orders[cand[k]], DJ_RF_IGNORED, why);
    }
}

/* 4.D.5: two builds in one province. */
static void settle_same_area(adj_state *s, const dj_order *orders,
                             const int *cand, int n, const dj_unit *units,
                             dj_result *out)
{
    char rule = dj_rule(s->rules, DJ_RULE_BUILD_SAME_AREA);
    for (int k = 0; k < n; k++) {
        const dj_order *o = &orders[cand[k]];
        if (o->kind != DJ_ORDER_BUILD || !still_open(&out->orders[cand[k]]))
            continue;
        int prov = dj_province(s->map, units[cand[k]].loc);
        int same[DJ_MAX_ORDERS], m = 0;
        for (int j = k; j < n; j++)
            if (orders[cand[j]].kind == DJ_ORDER_BUILD &&
                still_open(&out->orders[cand[j]]) &&
                dj_province(s->map, units[cand[j]].loc) == prov)
                same[m++] = cand[j];
        keep_some(out, same, m, 1, rule, DJ_WHY_BUILD_TWICE);
    }
}

/* Pass 2 for one power: which of its legal orders are used. */
static void select_orders(adj_state *s, int p, const dj_order *orders,
                          int norders, const dj_unit *units, dj_result *out,
                          dj_position *next)
{
    int cand[DJ_MAX_ORDERS], n = 0;
    for (int i = 0; i < norders; i++)
        if (orders[i].power == p && still_open(&out->orders[i]))
            cand[n++] = i;
    if (s->due[p] > 0) {
        settle_same_area(s, orders, cand, n, units, out);
        int m = 0;
        for (int k = 0; k < n; k++)
            if (still_open(&out->orders[cand[k]]))
                cand[m++] = cand[k];
        keep_some(out, cand, m, s->due[p],
                  dj_rule(s->rules, DJ_RULE_TOO_MANY_BUILDS),
                  DJ_WHY_BUILD_NO_ROOM);
        for (int k = 0; k < m; k++) {
            dj_order_result *r = &out->orders[cand[k]];
            if (!still_open(r))
                continue;
            r->success = true;
            s->used[p]++;
            if (orders[cand[k]].kind != DJ_ORDER_BUILD)
                continue;
            next->units[next->nunits++] = units[cand[k]];
            if (dj_mobilizing(s->map, s->pos)) /* it owns where it built */
                next->owner[dj_province(s->map, units[cand[k]].loc)] =
                    (int16_t)p;
        }
        return;
    }
    /* Removals: the same unit twice counts once. */
    int m = 0;
    for (int k = 0; k < n; k++) {
        dj_order_result *r = &out->orders[cand[k]];
        bool seen = false;
        for (int j = 0; j < m; j++)
            seen |= out->orders[cand[j]].unit == r->unit;
        if (seen)
            reject(r, DJ_RF_IGNORED, DJ_WHY_DUPLICATE);
        else
            cand[m++] = cand[k];
    }
    keep_some(out, cand, m, -s->due[p],
              dj_rule(s->rules, DJ_RULE_TOO_MANY_DISBANDS),
              DJ_WHY_REMOVE_NOT_NEEDED);
    for (int k = 0; k < m; k++) {
        dj_order_result *r = &out->orders[cand[k]];
        if (!still_open(r))
            continue;
        r->success = true;
        s->removed[r->unit] = true;
        s->used[p]++;
    }
}

void adj_adjudicate(const dj_map *map, const dj_position *pos,
                    const dj_order *orders, int norders, const dj_rules *rules,
                    dj_result *out)
{
    static const adj_state zero;
    adj_state s = zero;
    s.map = map;
    s.pos = pos;
    s.rules = rules;
    for (int p = 0; p < map->npowers; p++)
        s.due[p] = dj_adjustment_due(map, pos, p);

    dj_position *next = &out->next;
    memcpy(next, pos, sizeof *next);
    next->ndislodged = 0;
    memset(out->contested, 0, sizeof(bool) * (size_t)map->nlocs);
    dj_unit *units = calloc((size_t)(norders > 0 ? norders : 1), sizeof *units);
    if (!units)
        return;
    for (int i = 0; i < norders; i++)
        check_order(&s, &orders[i], &out->orders[i], &units[i]);
    for (int p = 0; p < map->npowers; p++) {
        select_orders(&s, p, orders, norders, units, out, next);
        bool ordered = false;
        for (int i = 0; i < norders && !ordered; i++)
            ordered = orders[i].power == p;
        if (s.due[p] < 0)
            civil_disorder_removals(&s, p, ordered, out);
    }
    free(units);

    int kept = 0;
    for (int i = 0; i < next->nunits; i++) {
        bool gone = i < pos->nunits && s.removed[i];
        if (!gone)
            next->units[kept++] = next->units[i];
    }
    next->nunits = kept;
}
