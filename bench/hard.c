/* SPDX-License-Identifier: MIT */
/*
 * hard.c — harder movement phases than the corpus gives: where engine bugs
 * live.  Shared by the randomised engine test (tests/unit/
 * test_engine_random.c) and the differential harness (bench/crosscheck.c).
 * See hard.h for what each generator plants.
 */
#include "hard.h"

#include <string.h>

static int prov_of(const hard_gen *g, int loc)
{
    return loc >= 0 && loc < g->map->nlocs ? dj_province(g->map, loc) : -1;
}

static bool fleet_at_sea(const hard_gen *g, const dj_unit *u)
{
    return u->type == DJ_FLEET && g->map->locs[u->loc].terrain == DJ_WATER;
}

static bool land_adjacent(const hard_gen *g, int from, int prov)
{
    return dj_map_reaches_province(g->map, from, prov, DJ_ARMY);
}

void hard_add_order(hard_phase *in, dj_order o)
{
    if (in->norders < DJ_MAX_ORDERS)
        in->orders[in->norders++] = o;
}

/*
 * The corpus is a realistic mix; engine bugs live in the crowded corners.
 * Some phases are made denser (a second corpus phase's units are added
 * where there is room, with their orders) and some get "chaos": more
 * supports of any move or hold a unit can reach, moves into occupied
 * provinces, and convoys along chains of several fleets, with the fleets
 * that could carry the army ordered to convoy it.
 */

void hard_load(hard_gen *g, const corpus_phase *cp, hard_phase *in)
{
    dj_position_empty(g->map, cp->phase, &in->pos);
    in->pos.nunits = cp->nunits;
    memcpy(in->pos.units, cp->units, sizeof(dj_unit) * (size_t)cp->nunits);
    in->norders = cp->nunits;
    memcpy(in->orders, cp->orders, sizeof(dj_order) * (size_t)cp->nunits);
}

/* Add the units (and orders) of another phase where there is room. */
void hard_merge(hard_gen *g, hard_phase *in, const corpus_phase *extra)
{
    for (int k = 0; k < extra->nunits; k++) {
        const dj_unit *u = &extra->units[k];
        if (dj_position_unit_at(g->map, &in->pos, prov_of(g, u->loc)) >= 0 ||
            in->pos.nunits >= DJ_MAX_UNITS)
            continue;
        in->pos.units[in->pos.nunits++] = *u;
        in->orders[in->norders++] = extra->orders[k];
    }
}

/*
 * Convoy the army of unit `a` along a random chain of fleets at sea to a
 * random coast the chain reaches; false if there is none.
 */

static bool convoy_along_chain(hard_gen *g, hard_phase *in, int a)
{
    const dj_position *pos = &in->pos;
    const dj_unit *army = &pos->units[a];
    int from = prov_of(g, army->loc);
    if (army->type != DJ_ARMY || g->map->locs[from].terrain != DJ_COAST)
        return false;
    int parent[DJ_MAX_UNITS], queue[DJ_MAX_UNITS];
    bool seen[DJ_MAX_UNITS];
    int head = 0, tail = 0;
    for (int f = 0; f < pos->nunits; f++) {
        seen[f] = false;
        parent[f] = -1;
        if (fleet_at_sea(g, &pos->units[f]) &&
            dj_map_reaches_province(g->map, pos->units[f].loc, from, DJ_FLEET)) {
            seen[f] = true;
            queue[tail++] = f;
        }
    }
    while (head < tail) {
        int f = queue[head++];
        for (int h = 0; h < pos->nunits; h++)
            if (!seen[h] && fleet_at_sea(g, &pos->units[h]) &&
                dj_map_adjacent(g->map, pos->units[f].loc, pos->units[h].loc,
                                DJ_FLEET)) {
                seen[h] = true;
                parent[h] = f;
                queue[tail++] = h;
            }
    }
    if (tail == 0)
        return false;
    /* A fleet of the chain, then a coast it touches. */
    for (int tries = 0; tries < 8; tries++) {
        int f = queue[corpus_rng_below(g->rng, tail)];
        const dj_location *l = &g->map->locs[pos->units[f].loc];
        int cand[DJ_MAX_ADJ], n = 0;
        for (int i = 0; i < l->nadj; i++) {
            int q = prov_of(g, l->adj[i].to);
            if ((l->adj[i].types & DJ_TYPE_BIT(DJ_FLEET)) && q != from &&
                g->map->locs[q].army_ok && g->map->locs[q].terrain == DJ_COAST)
                cand[n++] = q;
        }
        if (n == 0)
            continue;
        int dest = cand[corpus_rng_below(g->rng, n)];
        g->last_convoy_fleet = f;
        g->last_convoy_dest = dest;
        for (int c = f; c >= 0; c = parent[c]) {
            const dj_unit *fu = &pos->units[c];
            dj_order *o = &in->orders[c];
            *o = dj_order_make(DJ_ORDER_CONVOY, fu->power, DJ_FLEET, fu->loc);
            o->target_type = DJ_ARMY;
            o->target = army->loc;
            o->dest = (int16_t)dest;
        }
        dj_order *o = &in->orders[a];
        *o = dj_order_make(DJ_ORDER_MOVE, army->power, DJ_ARMY, army->loc);
        o->dest = (int16_t)dest;
        o->via_convoy = land_adjacent(g, army->loc, dest)
                            ? corpus_rng_below(g->rng, 4) != 0
                            : corpus_rng_below(g->rng, 3) == 0;
        return true;
    }
    return false;
}

/* Support some unit's current order (move or stay) that `i` can reach. */
static bool support_something(hard_gen *g, hard_phase *in, int i)
{
    const dj_position *pos = &in->pos;
    const dj_unit *u = &pos->units[i];
    int here = prov_of(g, u->loc);
    int cand[DJ_MAX_UNITS], n = 0;
    for (int j = 0; j < pos->nunits; j++) {
        if (j == i)
            continue;
        const dj_order *o = &in->orders[j];
        int q = o->kind == DJ_ORDER_MOVE ? prov_of(g, o->dest)
                                         : prov_of(g, pos->units[j].loc);
        if (q >= 0 && q != here &&
            dj_map_reaches_province(g->map, u->loc, q, u->type))
            cand[n++] = j;
    }
    if (n == 0)
        return false;
    int j = cand[corpus_rng_below(g->rng, n)];
    const dj_order *oj = &in->orders[j];
    dj_order *o = &in->orders[i];
    *o = dj_order_make(DJ_ORDER_SUPPORT, u->power, u->type, u->loc);
    o->target_type = pos->units[j].type;
    o->target = pos->units[j].loc;
    if (oj->kind == DJ_ORDER_MOVE)
        o->dest = (int16_t)prov_of(g, oj->dest);
    return true;
}

static void move_anywhere(hard_gen *g, hard_phase *in, int i)
{
    const dj_unit *u = &in->pos.units[i];
    const dj_location *l = &g->map->locs[u->loc];
    int cand[DJ_MAX_ADJ], n = 0;
    for (int k = 0; k < l->nadj; k++)
        if (l->adj[k].types & DJ_TYPE_BIT(u->type))
            cand[n++] = l->adj[k].to;
    if (n == 0)
        return;
    dj_order *o = &in->orders[i];
    *o = dj_order_make(DJ_ORDER_MOVE, u->power, u->type, u->loc);
    o->dest = (int16_t)cand[corpus_rng_below(g->rng, n)];
}

void hard_chaos(hard_gen *g, hard_phase *in)
{
    int n = in->pos.nunits;
    int rate = 20 + corpus_rng_below(g->rng, 50); /* percent of units changed */
    /* Moves and convoys first, supports after, so they see them. */
    for (int i = 0; i < n; i++) {
        if (corpus_rng_below(g->rng, 100) >= rate)
            continue;
        int roll = corpus_rng_below(g->rng, 100);
        if (roll < 40)
            move_anywhere(g, in, i);
        else if (roll < 70 && !convoy_along_chain(g, in, i))
            move_anywhere(g, in, i);
    }
    for (int i = 0; i < n; i++)
        if (corpus_rng_below(g->rng, 100) < rate / 2)
            support_something(g, in, i);
}

/*
 * A sea battle: fleets on most seas, units on many coasts, armies convoyed
 * along chains of fleets, fleets attacking fleets, supports everywhere -
 * where convoy paradoxes come from.
 */
void hard_sea_battle(hard_gen *g, const corpus_phase *cp, hard_phase *in)
{
    dj_position *pos = &in->pos;
    dj_position_empty(g->map, cp->phase, pos);
    int sea_pct = 50 + corpus_rng_below(g->rng, 45);
    int coast_pct = 30 + corpus_rng_below(g->rng, 50);
    for (int p = 0; p < g->map->nlocs && pos->nunits < DJ_MAX_UNITS; p++) {
        if (prov_of(g, p) != p)
            continue;
        const dj_location *l = &g->map->locs[p];
        dj_unit u = {(int16_t)corpus_rng_below(g->rng, g->map->npowers), (int16_t)p,
                     DJ_FLEET};
        if (l->terrain == DJ_WATER) {
            if (corpus_rng_below(g->rng, 100) >= sea_pct)
                continue;
        } else if (l->terrain == DJ_COAST) {
            if (corpus_rng_below(g->rng, 100) >= coast_pct)
                continue;
            int nc = dj_map_ncoasts(g->map, p);
            if (corpus_rng_below(g->rng, 3) != 0 || (!l->fleet_ok && nc == 0))
                u.type = DJ_ARMY;
            else if (nc > 0)
                u.loc =
                    (int16_t)dj_map_coast(g->map, p, corpus_rng_below(g->rng, nc));
        } else {
            continue;
        }
        pos->units[pos->nunits++] = u;
    }
    in->norders = pos->nunits;
    for (int i = 0; i < pos->nunits; i++) {
        const dj_unit *u = &pos->units[i];
        in->orders[i] = dj_order_make(DJ_ORDER_HOLD, u->power, u->type, u->loc);
    }
    for (int i = 0; i < pos->nunits; i++) {
        if (pos->units[i].type == DJ_ARMY) {
            if (corpus_rng_below(g->rng, 100) < 70)
                convoy_along_chain(g, in, i);
            else if (corpus_rng_below(g->rng, 2))
                move_anywhere(g, in, i);
        }
    }
    for (int i = 0; i < pos->nunits; i++)
        if (in->orders[i].kind == DJ_ORDER_HOLD &&
            corpus_rng_below(g->rng, 3) == 0)
            move_anywhere(g, in, i);
    for (int i = 0; i < pos->nunits; i++)
        if (in->orders[i].kind == DJ_ORDER_HOLD &&
            corpus_rng_below(g->rng, 4) != 0)
            support_something(g, in, i);
}

int hard_place(hard_gen *g, hard_phase *in, int loc, int power,
               dj_unit_type type)
{
    dj_position *pos = &in->pos;
    int i = dj_position_unit_at(g->map, pos, prov_of(g, loc));
    if (i < 0) {
        if (pos->nunits >= DJ_MAX_UNITS || in->norders >= DJ_MAX_ORDERS)
            return -1;
        i = pos->nunits++;
        in->norders++;
    }
    pos->units[i] = (dj_unit){(int16_t)power, (int16_t)loc, type};
    in->orders[i] = dj_order_make(DJ_ORDER_HOLD, power, type, loc);
    return i;
}

static int place_fleet(hard_gen *g, hard_phase *in, int loc, int power)
{
    return hard_place(g, in, loc, power, DJ_FLEET);
}

/*
 * Plant the seed of a convoy paradox (DATC 6.F.14 and its relatives): an
 * army convoyed to a province whose fleet supports an attack on the last
 * fleet of the convoy, so that the army, if it lands, cuts the support
 * that would break its own convoy.
 */
void hard_plant_paradox(hard_gen *g, hard_phase *in)
{
    dj_position *pos = &in->pos;
    int armies[DJ_MAX_UNITS], na = 0;
    for (int i = 0; i < pos->nunits; i++)
        if (pos->units[i].type == DJ_ARMY &&
            g->map->locs[prov_of(g, pos->units[i].loc)].terrain == DJ_COAST)
            armies[na++] = i;
    if (na == 0)
        return;
    int a = armies[corpus_rng_below(g->rng, na)];
    if (!convoy_along_chain(g, in, a))
        return;
    int f = g->last_convoy_fleet, dest = g->last_convoy_dest;
    int fl = pos->units[f].loc;
    /* The supporter: a fleet on a coast of dest next to the fleet. */
    int sloc = -1;
    for (int l = 0; l < g->map->nlocs; l++)
        if (prov_of(g, l) == dest && g->map->locs[l].fleet_ok &&
            dj_map_adjacent(g->map, l, fl, DJ_FLEET))
            sloc = l;
    if (sloc < 0)
        return;
    /* The attacker: next to the fleet, not on the route or the landing. */
    int cand[DJ_MAX_ADJ], n = 0;
    const dj_location *L = &g->map->locs[fl];
    for (int i = 0; i < L->nadj; i++) {
        int to = L->adj[i].to, q = prov_of(g, to);
        if (!(L->adj[i].types & DJ_TYPE_BIT(DJ_FLEET)) || q == dest ||
            q == prov_of(g, pos->units[a].loc) || !g->map->locs[to].fleet_ok)
            continue;
        int there = dj_position_unit_at(g->map, pos, q);
        if (there >= 0 && in->orders[there].kind == DJ_ORDER_CONVOY)
            continue;
        cand[n++] = to;
    }
    if (n == 0)
        return;
    int xloc = cand[corpus_rng_below(g->rng, n)];
    int fpower = pos->units[f].power;
    int xpower =
        (fpower + 1 + corpus_rng_below(g->rng, g->map->npowers - 1)) % g->map->npowers;
    int spower = corpus_rng_below(g->rng, 2)
                     ? xpower
                     : corpus_rng_below(g->rng, g->map->npowers);
    int s = place_fleet(g, in, sloc, spower);
    int x = place_fleet(g, in, xloc, xpower);
    if (s < 0 || x < 0)
        return;
    dj_order *xo = &in->orders[x];
    *xo = dj_order_make(DJ_ORDER_MOVE, xpower, DJ_FLEET, xloc);
    xo->dest = (int16_t)fl;
    dj_order *so = &in->orders[s];
    *so = dj_order_make(DJ_ORDER_SUPPORT, spower, DJ_FLEET, sloc);
    so->target_type = DJ_FLEET;
    so->target = (int16_t)xloc;
    so->dest = (int16_t)prov_of(g, fl);
    /* The convoy's army still lands on dest: the chain was not touched. */
}

/*
 * Order noise for the rules of chapter 4.B-4.D: a unit given a second
 * order (the same or another), an order from the wrong power, the unit
 * type left out or wrong, a fleet sent to a two-coast province without a
 * coast, an order for a unit that is not there.
 */
void hard_noise(hard_gen *g, hard_phase *in)
{
    int n = in->norders;
    for (int k = 0; k < n; k++) {
        if (corpus_rng_below(g->rng, 100) >= 8)
            continue;
        dj_order o = in->orders[k];
        switch (corpus_rng_below(g->rng, 7)) {
        case 0: /* the same order again */
            hard_add_order(in, o);
            break;
        case 1: /* a different second order */
            o.kind = DJ_ORDER_HOLD;
            o.dest = o.target = -1;
            o.target_type = DJ_NO_UNIT;
            o.via_convoy = false;
            if (corpus_rng_below(g->rng, 2))
                hard_add_order(in, o);
            else {
                hard_add_order(in, in->orders[k]);
                in->orders[k] = o;
            }
            break;
        case 2: /* from another power */
            in->orders[k].power =
                (int16_t)((o.power + 1 +
                           corpus_rng_below(g->rng, g->map->npowers - 1)) %
                          g->map->npowers);
            break;
        case 3: /* unit type left out */
            in->orders[k].unit_type = DJ_NO_UNIT;
            if (o.target_type != DJ_NO_UNIT && corpus_rng_below(g->rng, 2))
                in->orders[k].target_type = DJ_NO_UNIT;
            break;
        case 4: /* unit type wrong */
            in->orders[k].unit_type =
                o.unit_type == DJ_ARMY ? DJ_FLEET : DJ_ARMY;
            break;
        case 5: /* a move to a two-coast province without the coast */
            if (o.kind == DJ_ORDER_MOVE && g->map->locs[o.dest].is_coast)
                in->orders[k].dest = (int16_t)prov_of(g, o.dest);
            else if (o.kind == DJ_ORDER_SUPPORT && o.target >= 0 &&
                     g->map->locs[o.target].is_coast)
                in->orders[k].target = (int16_t)prov_of(g, o.target);
            break;
        default: { /* an order for an empty province */
            int l = prov_of(g, corpus_rng_below(g->rng, g->map->nlocs));
            if (dj_position_unit_at(g->map, &in->pos, l) < 0) {
                o.loc = (int16_t)l;
                hard_add_order(in, o);
            }
            break;
        }
        }
    }
}

/* Some phases run under random choices of the disputable rules. */
bool hard_rules(hard_gen *g, int percent, dj_rules *rules)
{
    dj_rules_default(rules);
    if (corpus_rng_below(g->rng, 100) >= percent)
        return true;
    const dj_rule_info *t = dj_rule_table();
    for (int i = 0; i < DJ_RULE_COUNT; i++) {
        const char *c = t[i].choices;
        rules->choice[i] = c[corpus_rng_below(g->rng, (int)strlen(c))];
    }
    dj_rules def;
    dj_rules_default(&def);
    return memcmp(&def, rules, sizeof def) == 0;
}


/* ---- patterns for the differential harness ------------------------------- */

/* Where unit u would go to enter province prov: a coast for a fleet into a
 * two-coast province (one it can reach), else the province. */
static int entry_loc(const hard_gen *g, const dj_unit *u, int prov)
{
    int n = dj_map_ncoasts(g->map, prov);
    if (u->type != DJ_FLEET || n == 0)
        return prov;
    int cand[8], k = 0;
    for (int i = 0; i < n && k < 8; i++) {
        int c = dj_map_coast(g->map, prov, i);
        if (dj_map_adjacent(g->map, u->loc, c, DJ_FLEET))
            cand[k++] = c;
    }
    return k ? cand[corpus_rng_below(g->rng, k)] : prov;
}

static bool reaches(const hard_gen *g, const dj_unit *u, int prov)
{
    return dj_map_reaches_province(g->map, u->loc, prov, u->type);
}

static void order_move(hard_gen *g, hard_phase *in, int i, int prov)
{
    const dj_unit *u = &in->pos.units[i];
    dj_order *o = &in->orders[i];
    *o = dj_order_make(DJ_ORDER_MOVE, u->power, u->type, u->loc);
    o->dest = (int16_t)entry_loc(g, u, prov);
}

/* Unit s supports unit t's order as it now stands (move or stay). */
static void order_support(hard_phase *in, int s, int t)
{
    const dj_unit *su = &in->pos.units[s], *tu = &in->pos.units[t];
    const dj_order *to = &in->orders[t];
    dj_order *o = &in->orders[s];
    *o = dj_order_make(DJ_ORDER_SUPPORT, su->power, su->type, su->loc);
    o->target_type = tu->type;
    o->target = tu->loc;
    if (to->kind == DJ_ORDER_MOVE && to->dest >= 0)
        o->dest = to->dest;
}

static int random_power(hard_gen *g)
{
    return corpus_rng_below(g->rng, g->map->npowers);
}

void hard_circle(hard_gen *g, hard_phase *in)
{
    dj_position *pos = &in->pos;
    if (pos->nunits < 3)
        return;
    int ring[6], len = 1;
    ring[0] = corpus_rng_below(g->rng, pos->nunits);
    while (len < 6) {
        const dj_unit *last = &pos->units[ring[len - 1]];
        int first_prov = prov_of(g, pos->units[ring[0]].loc);
        if (len >= 2 && reaches(g, last, first_prov) &&
            corpus_rng_below(g->rng, 3) != 0)
            break;
        int cand[DJ_MAX_UNITS], n = 0;
        for (int j = 0; j < pos->nunits; j++) {
            bool used = false;
            for (int k = 0; k < len; k++)
                used |= ring[k] == j;
            if (!used && reaches(g, last, prov_of(g, pos->units[j].loc)))
                cand[n++] = j;
        }
        if (n == 0)
            break;
        ring[len++] = cand[corpus_rng_below(g->rng, n)];
    }
    const dj_unit *last = &pos->units[ring[len - 1]];
    if (len < 2 || !reaches(g, last, prov_of(g, pos->units[ring[0]].loc)))
        return;
    for (int k = 0; k < len; k++)
        order_move(g, in, ring[k],
                   prov_of(g, pos->units[ring[(k + 1) % len]].loc));
    /* Sometimes someone attacks the ring, maybe with support. */
    for (int tries = 0; tries < 3; tries++) {
        int x = corpus_rng_below(g->rng, pos->nunits), target = -1;
        for (int k = 0; k < len; k++)
            if (x == ring[k])
                x = -1, k = len;
        if (x < 0)
            continue;
        for (int k = 0; k < len && target < 0; k++) {
            int p = prov_of(g, pos->units[ring[k]].loc);
            if (reaches(g, &pos->units[x], p))
                target = p;
        }
        if (target >= 0) {
            order_move(g, in, x, target);
            break;
        }
    }
}

void hard_head_to_head(hard_gen *g, hard_phase *in)
{
    dj_position *pos = &in->pos;
    int n = pos->nunits;
    if (n < 2)
        return;
    int a = corpus_rng_below(g->rng, n), b = -1;
    int cand[DJ_MAX_UNITS], k = 0;
    for (int j = 0; j < n; j++) {
        if (j == a)
            continue;
        int pa = prov_of(g, pos->units[a].loc), pb = prov_of(g, pos->units[j].loc);
        if (reaches(g, &pos->units[a], pb) && reaches(g, &pos->units[j], pa))
            cand[k++] = j;
    }
    if (k == 0)
        return;
    b = cand[corpus_rng_below(g->rng, k)];
    int pa = prov_of(g, pos->units[a].loc), pb = prov_of(g, pos->units[b].loc);
    if (corpus_rng_below(g->rng, 5) != 0 && pos->units[a].power == pos->units[b].power)
        pos->units[b].power = (int16_t)((pos->units[a].power + 1) % g->map->npowers);
    in->orders[b].power = pos->units[b].power;
    order_move(g, in, a, pb);
    order_move(g, in, b, pa);
    /* Supports from all around, of either move, from every side. */
    for (int s = 0; s < n; s++) {
        if (s == a || s == b || corpus_rng_below(g->rng, 3) == 0)
            continue;
        dj_unit *su = &pos->units[s];
        bool to_b = reaches(g, su, pb), to_a = reaches(g, su, pa);
        if (!to_a && !to_b)
            continue;
        int roll = corpus_rng_below(g->rng, 3);
        su->power = (int16_t)(roll == 0   ? pos->units[a].power
                              : roll == 1 ? pos->units[b].power
                                          : random_power(g));
        in->orders[s].power = su->power;
        if (to_b && (!to_a || corpus_rng_below(g->rng, 2)))
            order_support(in, s, a);
        else
            order_support(in, s, b);
    }
    /* A third unit into one of the two places, now and then. */
    if (corpus_rng_below(g->rng, 3) == 0)
        for (int x = 0; x < n; x++)
            if (x != a && x != b && in->orders[x].kind != DJ_ORDER_SUPPORT &&
                reaches(g, &pos->units[x], pa)) {
                order_move(g, in, x, pa);
                break;
            }
}

void hard_own_target(hard_gen *g, hard_phase *in)
{
    dj_position *pos = &in->pos;
    int n = pos->nunits;
    if (n < 3)
        return;
    int v = corpus_rng_below(g->rng, n), m = -1, s = -1;
    int pv = prov_of(g, pos->units[v].loc);
    for (int j = 0; j < n && m < 0; j++)
        if (j != v && reaches(g, &pos->units[j], pv) &&
            pos->units[j].power != pos->units[v].power)
            m = j;
    if (m < 0)
        return;
    order_move(g, in, m, pv);
    for (int j = 0; j < n && s < 0; j++)
        if (j != v && j != m && reaches(g, &pos->units[j], pv))
            s = j;
    if (s < 0)
        return;
    /* The supporter is of the victim's power: it may not help dislodge it. */
    pos->units[s].power = pos->units[v].power;
    in->orders[s].power = pos->units[s].power;
    order_support(in, s, m);
    if (corpus_rng_below(g->rng, 3) == 0) {
        /* A self-support attempt: v supports a move into its own place. */
        order_support(in, v, m);
    } else if (corpus_rng_below(g->rng, 2) == 0) {
        /* Or the victim holds with support from a third power. */
        for (int j = 0; j < n; j++)
            if (j != v && j != m && j != s && reaches(g, &pos->units[j], pv) &&
                in->orders[j].kind != DJ_ORDER_SUPPORT) {
                order_support(in, j, v);
                break;
            }
    }
}

/* Another coast of the province of loc (or its base), at random. */
static int other_coast(hard_gen *g, int loc)
{
    int prov = prov_of(g, loc), n = dj_map_ncoasts(g->map, prov);
    if (n == 0)
        return loc;
    int pick = corpus_rng_below(g->rng, n + 1);
    return pick == n ? prov : dj_map_coast(g->map, prov, pick);
}

void hard_coasts(hard_gen *g, hard_phase *in)
{
    for (int k = 0; k < in->norders; k++) {
        dj_order *o = &in->orders[k];
        if (corpus_rng_below(g->rng, 100) >= 15)
            continue;
        switch (corpus_rng_below(g->rng, 4)) {
        case 0: /* 4.B.1-4.B.3: the destination's coast left out or changed */
            if (o->dest >= 0)
                o->dest = (int16_t)other_coast(g, o->dest);
            break;
        case 1: /* 4.B.4: a support's coast left out, changed or added */
            if (o->kind == DJ_ORDER_SUPPORT && o->dest >= 0)
                o->dest = (int16_t)other_coast(g, o->dest);
            break;
        case 2: /* 4.B.5: the unit's own coast written wrong */
            if (o->loc >= 0)
                o->loc = (int16_t)other_coast(g, o->loc);
            break;
        default: /* 4.B.6: a coast written for an army's destination */
            if (o->kind == DJ_ORDER_MOVE && o->unit_type == DJ_ARMY &&
                o->dest >= 0 && dj_map_ncoasts(g->map, prov_of(g, o->dest)) > 0)
                o->dest = (int16_t)dj_map_coast(g->map, prov_of(g, o->dest), 0);
            break;
        }
    }
}

void hard_paths(hard_gen *g, hard_phase *in)
{
    const dj_position *pos = &in->pos;
    for (int k = 0; k < in->norders; k++) {
        dj_order *o = &in->orders[k];
        if (o->kind != DJ_ORDER_MOVE || o->unit_type != DJ_ARMY ||
            corpus_rng_below(g->rng, 2))
            continue;
        /* 4.A.6: the route as the fleets convoying it stand, now and then
         * one fleet short or with a stranger. */
        o->npath = 0;
        for (int f = 0; f < in->norders && o->npath < DJ_MAX_PATH; f++) {
            const dj_order *c = &in->orders[f];
            if (c->kind == DJ_ORDER_CONVOY && c->target == o->loc &&
                corpus_rng_below(g->rng, 8) != 0)
                o->path[o->npath++] = (int16_t)prov_of(g, c->loc);
        }
        if (corpus_rng_below(g->rng, 6) == 0 && o->npath < DJ_MAX_PATH &&
            pos->nunits > 0)
            o->path[o->npath++] = (int16_t)prov_of(
                g, pos->units[corpus_rng_below(g->rng, pos->nunits)].loc);
    }
}

/* Hostile input: fields an attacker could put in an order, out of range. */
void hard_garbage(hard_gen *g, hard_phase *in)
{
    int n = g->map->nlocs;
    for (int k = 0; k < in->norders; k++) {
        if (corpus_rng_below(g->rng, 100) >= 5)
            continue;
        dj_order *o = &in->orders[k];
        switch (corpus_rng_below(g->rng, 6)) {
        case 0:
            o->kind = (dj_order_kind)corpus_rng_below(g->rng, 10);
            break;
        case 1:
            o->dest = (int16_t)(corpus_rng_below(g->rng, n + 4) - 2);
            break;
        case 2:
            o->target = (int16_t)(corpus_rng_below(g->rng, n + 4) - 2);
            break;
        case 3:
            o->unit_type = (dj_unit_type)corpus_rng_below(g->rng, 3);
            o->target_type = (dj_unit_type)corpus_rng_below(g->rng, 3);
            break;
        case 4:
            o->npath = (int8_t)(corpus_rng_below(g->rng, DJ_MAX_PATH + 5) - 2);
            for (int i = 0; i < DJ_MAX_PATH; i++)
                o->path[i] = (int16_t)(corpus_rng_below(g->rng, n + 4) - 2);
            break;
        default:
            o->loc = (int16_t)(corpus_rng_below(g->rng, n + 4) - 2);
            break;
        }
    }
}
