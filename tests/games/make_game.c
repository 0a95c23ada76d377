/* SPDX-License-Identifier: MIT */
/*
 * make_game.c — writes the scripted games of tests/games/: every phase's
 * orders for every power, played by simple bots through the engine.
 *
 *   make tests/games/make_game
 *   tests/games/make_game maps/standard.map tests/games/full
 *   tests/games/make_game maps/pure.map tests/games/pure Russia none
 *
 * The files it writes are committed; this program is only needed to make
 * them again (after a change of the bots or of the adjudicator's results).
 * One file per phase, named NN-PHASE.txt ("07-F1902R.txt"), one order a
 * line, "Power: ORDER" in canonical notation; a power with no line sends
 * no orders.  expect.txt lists what the game must come to.
 *
 * The bots: one conqueror (CONQUEROR below, or the third argument) moves
 * every unit towards the
 * nearest supply centre it does not own and supports its attacks on
 * occupied provinces; the others hold, wander and support at random,
 * retreat or disband, build and remove.  One power (SILENT, or the fourth
 * argument; "none" for nobody) stops
 * ordering from SILENT_FROM on: under the judge it misses its deadline,
 * falls into civil disorder, and the engine plays it (holds, disbands,
 * waived builds, removals by the civil-disorder rule).
 *
 * Everything is deterministic: a fixed seed, the engine's adjudication.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/adjudicate.h"
#include "engine/map.h"
#include "engine/order.h"
#include "engine/position.h"
#include "engine/rules_map.h"

#define CONQUEROR "Russia"
#define SILENT "Austria"
#define SILENT_FROM 1904
#define GREEDY_FROM 1903   /* the conqueror plays at random before */
#define GREEDY_PERCENT 45  /* and after, each unit follows the plan this often */
#define MAX_YEAR 1930

/*
 * The years above are the standard calendar's.  A map whose turns step
 * the years differently (FLOW: Hundred's five years a turn, from 1425) or
 * that begins long before (Ancient Mediterranean's year 1) or after the
 * standard game's years (Modern's 1995) is counted in
 * game years from its first: its first year is "1901".
 */
static int game_year(int year);
#define SEED 7

static uint64_t rng_state = SEED;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int pick(int n)
{
    return n > 0 ? (int)(rnd() % (uint64_t)n) : 0;
}

static const dj_map *M;
static int conqueror, silent;

/* ---- distances ------------------------------------------------------------ */

/* Steps for a unit of `type` at `loc` to any location of a province p
 * with want[p]; a large number when unreachable. */
static int distance_to(int loc, dj_unit_type type, const bool *want)
{
    static int dist[DJ_MAX_LOCS], queue[DJ_MAX_LOCS];
    for (int i = 0; i < M->nlocs; i++)
        dist[i] = -1;
    int head = 0, tail = 0;
    dist[loc] = 0;
    queue[tail++] = loc;
    while (head < tail) {
        int l = queue[head++];
        if (want[dj_province(M, l)])
            return dist[l];
        for (int k = 0; k < M->locs[l].nadj; k++) {
            int to = M->locs[l].adj[k].to;
            if (dist[to] < 0 && dj_map_adjacent(M, l, to, type)) {
                dist[to] = dist[l] + 1;
                queue[tail++] = to;
            }
        }
    }
    return 1000;
}

/* ---- movement ------------------------------------------------------------- */

typedef struct plan {
    int n;
    dj_order o[DJ_MAX_ORDERS];
} plan;

static void add(plan *p, dj_order o)
{
    p->o[p->n++] = o;
}

static int unit_at(const dj_position *pos, int prov)
{
    return dj_position_unit_at(M, pos, prov);
}

static void conqueror_moves(const dj_position *pos, int power, plan *out)
{
    bool want[DJ_MAX_LOCS] = {false};
    for (int l = 0; l < M->nlocs; l++)
        if (M->is_sc[l] && pos->owner[l] != power)
            want[l] = true;
    bool claimed[DJ_MAX_LOCS] = {false}; /* provinces ordered into */
    int action[DJ_MAX_UNITS];            /* order index per unit, -1 */
    for (int i = 0; i < pos->nunits; i++)
        action[i] = -1;
    /* Own units that stay where they are hold their province. */
    for (int i = 0; i < pos->nunits; i++) {
        const dj_unit *u = &pos->units[i];
        if (u->power != power || action[i] >= 0)
            continue;
        if (pick(100) >= GREEDY_PERCENT) {
            action[i] = out->n;
            add(out, dj_order_make(DJ_ORDER_HOLD, power, u->type, u->loc));
            claimed[dj_province(M, u->loc)] = true;
            continue;
        }
        int here = distance_to(u->loc, u->type, want);
        int best = -1, best_d = here, best_score = -1;
        for (int k = 0; k < M->locs[u->loc].nadj; k++) {
            int to = M->locs[u->loc].adj[k].to;
            if (!dj_map_adjacent(M, u->loc, to, u->type))
                continue;
            int prov = dj_province(M, to);
            if (claimed[prov])
                continue;
            int occ = unit_at(pos, prov);
            if (occ >= 0 && pos->units[occ].power == power)
                continue;
            int d = want[prov] ? 0 : distance_to(to, u->type, want);
            int score = (want[prov] ? 100 : 0) - d * 10 + pick(5);
            if (d < best_d || (d == best_d && d == 0 && score > best_score) ||
                (best >= 0 && d == best_d && score > best_score)) {
                best = to;
                best_d = d;
                best_score = score;
            }
        }
        if (best < 0 || (best_d >= here && pick(3) == 0)) {
            action[i] = out->n;
            add(out, dj_order_make(DJ_ORDER_HOLD, power, u->type, u->loc));
            claimed[dj_province(M, u->loc)] = true;
            continue;
        }
        dj_order mv = dj_order_make(DJ_ORDER_MOVE, power, u->type, u->loc);
        mv.dest = (int16_t)best;
        action[i] = out->n;
        add(out, mv);
        int prov = dj_province(M, best);
        claimed[prov] = true;
        /* An attack on a unit: bring a supporter if one is free. */
        if (unit_at(pos, prov) < 0)
            continue;
        for (int s = 0; s < pos->nunits; s++) {
            const dj_unit *su = &pos->units[s];
            if (su->power != power || action[s] >= 0 || s == i ||
                !dj_map_reaches_province(M, su->loc, prov, su->type))
                continue;
            dj_order sp =
                dj_order_make(DJ_ORDER_SUPPORT, power, su->type, su->loc);
            sp.target_type = u->type;
            sp.target = u->loc;
            sp.dest = (int16_t)prov;
            action[s] = out->n;
            add(out, sp);
            claimed[dj_province(M, su->loc)] = true;
            break;
        }
    }
}

static void random_moves(const dj_position *pos, int power, plan *out)
{
    for (int i = 0; i < pos->nunits; i++) {
        const dj_unit *u = &pos->units[i];
        if (u->power != power)
            continue;
        int r = pick(100);
        int moves[DJ_MAX_ADJ], nm = 0;
        for (int k = 0; k < M->locs[u->loc].nadj; k++) {
            int to = M->locs[u->loc].adj[k].to;
            if (dj_map_adjacent(M, u->loc, to, u->type))
                moves[nm++] = to;
        }
        if (r < 35 && nm) {
            dj_order mv = dj_order_make(DJ_ORDER_MOVE, power, u->type, u->loc);
            mv.dest = (int16_t)moves[pick(nm)];
            add(out, mv);
        } else if (r < 55) {
            /* Support a neighbouring unit of its own to hold. */
            int friends[DJ_MAX_ADJ], nf = 0;
            for (int k = 0; k < nm; k++) {
                int occ = unit_at(pos, dj_province(M, moves[k]));
                if (occ >= 0 && pos->units[occ].power == power)
                    friends[nf++] = occ;
            }
            if (nf) {
                const dj_unit *f = &pos->units[friends[pick(nf)]];
                dj_order sp =
                    dj_order_make(DJ_ORDER_SUPPORT, power, u->type, u->loc);
                sp.target_type = f->type;
                sp.target = f->loc;
                add(out, sp);
            } else {
                add(out, dj_order_make(DJ_ORDER_HOLD, power, u->type, u->loc));
            }
        } else if (r < 95) {
            add(out, dj_order_make(DJ_ORDER_HOLD, power, u->type, u->loc));
        } /* else: no order for this unit (it holds) */
    }
}

/* ---- retreats and adjustments ------------------------------------------------- */

static void retreats(const dj_position *pos, int power, plan *out)
{
    bool used[DJ_MAX_LOCS] = {false};
    for (int i = 0; i < pos->ndislodged; i++) {
        const dj_dislodged *d = &pos->dislodged[i];
        if (d->unit.power != power || d->nretreats == 0)
            continue;
        int r = pick(10);
        if (r < 7) {
            int to = d->retreats[pick(d->nretreats)];
            if (used[dj_province(M, to)] && power == conqueror)
                goto disband;
            used[dj_province(M, to)] = true;
            dj_order o = dj_order_make(DJ_ORDER_RETREAT, power, d->unit.type,
                                       d->unit.loc);
            o.dest = (int16_t)to;
            add(out, o);
            continue;
        }
        if (r == 9)
            continue; /* no order: the judge disbands it */
    disband:
        add(out, dj_order_make(DJ_ORDER_DISBAND, power, d->unit.type,
                               d->unit.loc));
    }
}

static void adjustments(const dj_position *pos, int power, plan *out)
{
    int due = dj_adjustment_due(M, pos, power);
    if (due > 0) {
        int built = 0;
        for (int l = 0; l < M->nlocs && built < due; l++) {
            if (!M->is_sc[l] || !(M->home_of[l] >> power & 1u) ||
                (pos->owner[l] != power && !dj_mobilizing(M, pos)) ||
                unit_at(pos, l) >= 0)
                continue;
            dj_unit_type t = DJ_ARMY;
            int loc = l;
            if (M->locs[l].fleet_ok && pick(2) == 0)
                t = DJ_FLEET;
            else if (!M->locs[l].army_ok)
                t = DJ_FLEET;
            if (t == DJ_FLEET && dj_map_ncoasts(M, l) > 0)
                loc = dj_map_coast(M, l, pick(dj_map_ncoasts(M, l)));
            if (t == DJ_FLEET && !M->locs[loc].fleet_ok)
                t = DJ_ARMY, loc = l;
            add(out, dj_order_make(DJ_ORDER_BUILD, power, t, loc));
            built++;
        }
        if (built < due && pick(2) == 0)
            add(out, dj_order_make(DJ_ORDER_WAIVE, power, DJ_NO_UNIT, -1));
    } else if (due < 0) {
        bool gone[DJ_MAX_UNITS] = {false};
        for (int k = 0; k < -due; k++) {
            int cand[DJ_MAX_UNITS], nc = 0;
            for (int i = 0; i < pos->nunits; i++)
                if (pos->units[i].power == power && !gone[i])
                    cand[nc++] = i;
            if (!nc)
                break;
            int i = cand[pick(nc)];
            gone[i] = true;
            add(out, dj_order_make(DJ_ORDER_REMOVE, power, pos->units[i].type,
                                   pos->units[i].loc));
        }
    }
}

/* Whether the map's years are the standard calendar's (1898, 1900 and
 * 1901 starts); boards set later (Modern's 1995) or stepping otherwise
 * count game years from their first. */
static bool standard_calendar(const dj_map *map)
{
    return map->years_to_spring == 1 && map->start_year >= 1800 &&
           map->start_year <= 1901;
}

static int game_year(int year)
{
    if (!M || standard_calendar(M))
        return year;
    return 1901 + (year - M->start_year) / M->years_to_spring;
}

/* ---- the game ---------------------------------------------------------------- */

static void orders_for(const dj_position *pos, int power, plan *out)
{
    switch (pos->phase.type) {
    case DJ_MOVEMENT:
        if (power == conqueror && game_year(pos->phase.year) >= GREEDY_FROM)
            conqueror_moves(pos, power, out);
        else
            random_moves(pos, power, out);
        break;
    case DJ_RETREAT:
        retreats(pos, power, out);
        break;
    case DJ_ADJUSTMENT:
        adjustments(pos, power, out);
        break;
    }
}

int main(int argc, char **argv)
{
    const char *seed = getenv("MAKE_GAME_SEED");
    if (seed)
        rng_state = strtoull(seed, NULL, 0);
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: make_game MAPFILE OUTDIR [CONQUEROR [SILENT]]\n");
        return 2;
    }
    char err[512];
    dj_map *map = dj_map_load(argv[1], err, sizeof err);
    if (!map) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    M = map;
    conqueror = dj_map_find_power(map, argc > 3 ? argv[3] : CONQUEROR);
    silent = dj_map_find_power(map, argc > 4 ? argv[4] : SILENT);
    if (conqueror < 0) {
        fprintf(stderr, "no power %s on this map\n", argc > 3 ? argv[3] : CONQUEROR);
        return 2;
    }
    dj_rules rules;
    if (dj_rules_from_map(map, &rules, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    dj_position *pos = malloc(sizeof *pos);
    dj_result *res = malloc(sizeof *res);
    plan *all = malloc(sizeof *all);
    dj_position_initial(map, pos);
    int nphase = 0, retreat_phases = 0, builds = 0, removals = 0,
        judge_removals = 0;
    while (game_year(pos->phase.year) <= MAX_YEAR) {
        nphase++;
        char name[16], path[1024];
        dj_phase_format_short(pos->phase, name, sizeof name);
        snprintf(path, sizeof path, "%s/%02d-%s.txt", argv[2], nphase, name);
        FILE *f = fopen(path, "w");
        if (!f) {
            perror(path);
            return 1;
        }
        all->n = 0;
        for (int p = 0; p < map->npowers; p++) {
            if (p == silent && game_year(pos->phase.year) >= SILENT_FROM) {
                pos->civil_disorder |= DJ_POWER_BIT(p);
                continue;
            }
            int first = all->n;
            orders_for(pos, p, all);
            for (int k = first; k < all->n; k++) {
                char text[128];
                dj_order_format(map, &all->o[k], text, sizeof text);
                fprintf(f, "%s: %s\n", map->powers[p].name, text);
                builds += all->o[k].kind == DJ_ORDER_BUILD;
                removals += all->o[k].kind == DJ_ORDER_REMOVE;
            }
        }
        fclose(f);
        retreat_phases += pos->phase.type == DJ_RETREAT;
        if (dj_adjudicate(map, pos, all->o, all->n, &rules, res) < 0) {
            fprintf(stderr, "%s: adjudication failed\n", name);
            return 1;
        }
        for (int k = 0; k < res->nauto; k++)
            judge_removals += res->autos[k].order.kind == DJ_ORDER_REMOVE;
        if (res->winner >= 0) {
            snprintf(path, sizeof path, "%s/expect.txt", argv[2]);
            f = fopen(path, "w");
            fprintf(f, "phases %d\nlast %s\nwinner %s\ncentres %d\n"
                       "retreat_phases %d\nbuilds %d\nremovals %d\n"
                       "judge_removals %d\nsilent %s from %d\n",
                    nphase, name, map->powers[res->winner].name,
                    dj_position_centres(map, &res->next, res->winner),
                    retreat_phases, builds, removals, judge_removals,
                    silent >= 0 ? map->powers[silent].name : "none",
                    standard_calendar(map)
                        ? SILENT_FROM
                        : map->start_year +
                              (SILENT_FROM - 1901) * map->years_to_spring);
            fclose(f);
            printf("%s wins in %s after %d phases\n",
                   map->powers[res->winner].name, name, nphase);
            return 0;
        }
        *pos = res->next;
    }
    fprintf(stderr, "no winner by %d\n", MAX_YEAR);
    return 1;
}
