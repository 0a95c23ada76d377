/* SPDX-License-Identifier: MIT */
/*
 * interpret_read.c — skeletons to readings: the position is consulted.
 *
 * Design.  A skeleton has up to three slots with candidates (the unit,
 * the other unit of a support or convoy, the destination); every
 * combination is one reading.  build_reading() makes the dj_order of one
 * combination the way the rules say to read it:
 *
 *   - the ordered unit is the one standing there: its real type and
 *     coast are used (4.C.1/4.C.2 b, 4.B.5 b), or under choice a the
 *     order is void;
 *   - a coast is filled in when only one can be reached (4.B.2 a) or
 *     replaced (4.B.3 a); an unknown or pointless coast is dropped
 *     (4.B.6 b) or voids the order (4.B.6 a);
 *   - the nationality written for another unit is checked (4.C.5/4.C.6);
 *   - a written convoy route is dropped under 4.A.6 a.
 *
 * Then why_impossible() says whether the order is legal here in the sense
 * of 4.E.1 d, and if not why, in a few words.  It is a reader's check, kept
 * independent of the adjudicator: the adjudicator has the last word.
 *
 * The same function explains a chosen reading to the player: given a
 * notes buffer it records every correction it makes.
 */
#include "engine/adjudicate.h"
#include "reader/interpret_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/fmt.h"

/* The building of one reading, and where its notes go (NULL: none). */
typedef struct builder {
    const ir_ctx *c;
    const ir_skel *s;
    ir_reading *r;
    char *notes;
    size_t nlen;
} builder;

static void note(builder *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void note(builder *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt_note(b->notes, b->nlen, fmt, ap);
    va_end(ap);
}

/* A rule option voids the reading: keep the first reason. */
static void void_reading(builder *b, const char *why)
{
    if (!b->r->invalid)
        b->r->invalid = why;
}

static char rule(const builder *b, dj_rule_id id)
{
    return dj_rule(b->c->rules, id);
}

/* ---- the board ----------------------------------------------------------- */

static const dj_map *map_of(const builder *b)
{
    return b->c->map;
}

static const char *name_of(const builder *b, int loc)
{
    return ir_place_name(map_of(b), dj_province(map_of(b), loc));
}

static const char *type_word(dj_unit_type t)
{
    return t == DJ_FLEET ? "fleet" : "army";
}

/* The unit an order in this phase is given to, in province prov, or NULL. */
static const dj_unit *ordered_unit(const ir_ctx *c, int prov)
{
    if (c->phase == DJ_RETREAT) {
        int d = dj_position_dislodged_at(c->map, c->pos, prov);
        return d >= 0 ? &c->pos->dislodged[d].unit : NULL;
    }
    int u = dj_position_unit_at(c->map, c->pos, prov);
    return u >= 0 ? &c->pos->units[u] : NULL;
}

static const dj_unit *board_unit(const ir_ctx *c, int prov)
{
    int u = dj_position_unit_at(c->map, c->pos, prov);
    return u >= 0 ? &c->pos->units[u] : NULL;
}

/* The coast location of prov named `code`, or -1. */
static int coast_loc(const dj_map *map, int prov, const char *code)
{
    for (int i = 0; i < dj_map_ncoasts(map, prov); i++) {
        int loc = dj_map_coast(map, prov, i);
        const char *slash = strchr(map->locs[loc].abbr, '/');
        if (slash && strcmp(slash + 1, code) == 0)
            return loc;
    }
    return -1;
}

/* Coasts of prov a fleet at `from` can reach: how many, and the first. */
static int reachable_coasts(const dj_map *map, int from, int prov, int *first)
{
    int n = 0;
    *first = -1;
    for (int i = 0; i < dj_map_ncoasts(map, prov); i++) {
        int loc = dj_map_coast(map, prov, i);
        if (dj_map_adjacent(map, from, loc, DJ_FLEET)) {
            if (n++ == 0)
                *first = loc;
        }
    }
    return n;
}

/* ---- coasts -------------------------------------------------------------- */

/* Why a coast written does not apply. */
typedef enum { STRAY_ARMY, STRAY_NO_COASTS, STRAY_NO_SUCH } stray_kind;

/* Why a coast cannot be used, for province prov. */
static stray_kind stray_reason(const builder *b, int prov, bool army)
{
    if (army)
        return STRAY_ARMY;
    return dj_map_ncoasts(map_of(b), prov) ? STRAY_NO_SUCH : STRAY_NO_COASTS;
}

/*
 * A coast written where none applies (4.B.6): dropped with a note under b;
 * under a the reading is void when the coast cannot even be written down,
 * else kept for the adjudicator to refuse.  Returns the location to use.
 */
static int stray_coast(builder *b, const ir_cand *cand, stray_kind why)
{
    int prov = cand->prov;
    int loc = coast_loc(map_of(b), prov, cand->coast);
    if (rule(b, DJ_RULE_COAST_UNKNOWN) == 'b') {
        const char *name = ir_place_name(map_of(b), prov);
        if (why == STRAY_ARMY)
            note(b, "coast '%s' ignored: armies have no coast", cand->coast);
        else
            note(b, "coast '%s' ignored: %s has %s", cand->coast, name,
                 why == STRAY_NO_COASTS ? "no coasts" : "no such coast");
        return prov;
    }
    if (loc < 0)
        void_reading(b, "a coast that does not exist (rule 4.B.6 a)");
    return loc >= 0 ? loc : prov;
}

/* The written coast of the place, or its base: no questions asked. */
static int plain_place(builder *b, const ir_cand *cand)
{
    if (!cand->coast[0])
        return cand->prov;
    int loc = coast_loc(map_of(b), cand->prov, cand->coast);
    return loc >= 0 ? loc
                    : stray_coast(b, cand, stray_reason(b, cand->prov, false));
}

/* ---- the ordered unit ---------------------------------------------------- */

/* 4.C.1/4.C.2: the type written against the unit's real type. */
static dj_unit_type settle_unit_type(builder *b, const dj_unit *u)
{
    dj_unit_type written = b->s->unit_type;
    if (written == DJ_NO_UNIT) {
        char choice = rule(b, DJ_RULE_UNIT_MISSING);
        if (choice == 'a')
            void_reading(b, "no unit type written (rule 4.C.1 a)");
        else if (choice == 'c')
            b->r->flags |= IRF_TYPE_MISSING;
        return u->type;
    }
    if (written == u->type)
        return u->type;
    b->r->mismatch++;
    char choice = rule(b, DJ_RULE_UNIT_WRONG);
    if (choice == 'a')
        void_reading(b, "wrong unit type (rule 4.C.2 a)");
    else if (choice == 'c')
        b->r->flags |= IRF_TYPE_WRONG;
    note(b, "the unit in %s is %s %s", name_of(b, u->loc),
         u->type == DJ_FLEET ? "a" : "an", type_word(u->type));
    return u->type;
}

/* 4.B.5/4.B.6: a coast written for the unit itself. */
static int settle_unit_coast(builder *b, const ir_cand *cand, const dj_unit *u)
{
    const dj_map *map = map_of(b);
    if (!cand->coast[0])
        return u->loc;
    int loc = coast_loc(map, cand->prov, cand->coast);
    if (loc == u->loc)
        return u->loc;
    if (loc < 0 || u->type == DJ_ARMY) {
        stray_coast(b, cand, stray_reason(b, cand->prov, u->type == DJ_ARMY));
        return u->loc;
    }
    if (rule(b, DJ_RULE_COAST_WRONG_UNIT) == 'a')
        return loc; /* the adjudicator refuses it (4.B.5 a) */
    note(b, "coast ignored: the fleet is on %s", map->locs[u->loc].name);
    return u->loc;
}

static void place_unit(builder *b, const ir_cand *cand, dj_order *o)
{
    const dj_unit *u = ordered_unit(b->c, cand->prov);
    if (!u) {
        o->loc = (int16_t)plain_place(b, cand);
        o->unit_type = b->s->unit_type;
        return;
    }
    o->unit_type = settle_unit_type(b, u);
    o->loc = (int16_t)settle_unit_coast(b, cand, u);
}

/* 4.C.3: the unit built when no type is written, or DJ_NO_UNIT. */
static dj_unit_type untyped_build(builder *b, const ir_cand *cand)
{
    const dj_map *map = map_of(b);
    char choice = rule(b, DJ_RULE_BUILD_UNIT_MISSING);
    if (map->locs[cand->prov].terrain == DJ_LAND && choice != 'a') {
        note(b, "no unit type given: an army is built inland (rule 4.C.3 %c)",
             choice);
        return DJ_ARMY;
    }
    if (choice == 'c' && cand->coast[0] &&
        coast_loc(map, cand->prov, cand->coast) >= 0) {
        note(b, "no unit type given: a coast is named, so a fleet is built "
                "(rule 4.C.3 c)");
        return DJ_FLEET;
    }
    return DJ_NO_UNIT; /* as written: the build fails */
}

/* 4.C.4 b: a fleet ordered inland is built as an army. */
static dj_unit_type inland_fleet(builder *b, const ir_cand *cand)
{
    if (map_of(b)->locs[cand->prov].terrain != DJ_LAND ||
        rule(b, DJ_RULE_BUILD_FLEET_LAND) != 'b')
        return DJ_FLEET;
    note(b, "a fleet cannot be built inland: an army is built "
            "(rule 4.C.4 b)");
    return DJ_ARMY;
}

/* 4.B.7 b: a fleet in a province of several coasts, on the map's first. */
static int default_build_coast(builder *b, int loc)
{
    const dj_map *map = map_of(b);
    int prov = dj_province(map, loc);
    if (loc != prov || dj_map_ncoasts(map, prov) == 0 ||
        rule(b, DJ_RULE_COAST_IN_BUILD) != 'b')
        return loc;
    int coast = dj_map_coast(map, prov, 0);
    note(b, "no coast given: built on %s (rule 4.B.7 b)",
         map->locs[coast].name);
    return coast;
}

static void place_build(builder *b, const ir_cand *cand, dj_order *o)
{
    dj_unit_type type = b->s->unit_type;
    if (type == DJ_NO_UNIT)
        type = untyped_build(b, cand);
    else if (type == DJ_FLEET)
        type = inland_fleet(b, cand);
    o->unit_type = type;
    if (cand->coast[0] && type == DJ_ARMY) {
        o->loc = (int16_t)stray_coast(b, cand, STRAY_ARMY);
        return;
    }
    o->loc = (int16_t)plain_place(b, cand);
    if (type == DJ_FLEET)
        o->loc = (int16_t)default_build_coast(b, o->loc);
}

/* ---- the other unit of a support or convoy ------------------------------- */

/* 4.C.5/4.C.6: the nationality written for the other unit. */
static void check_nationality(builder *b, const dj_unit *t)
{
    int written = b->s->target_nation;
    const dj_map *map = map_of(b);
    if (written < 0) {
        if (t->power == b->c->power)
            return;
        char choice = rule(b, DJ_RULE_NATIONALITY_MISSING);
        if (choice == 'a')
            void_reading(b, "foreign unit without its nationality "
                            "(rule 4.C.5 a)");
        else if (choice == 'c')
            b->r->flags |= IRF_NATION_MISSING;
        return;
    }
    if (written == t->power)
        return;
    b->r->mismatch++;
    char choice = rule(b, DJ_RULE_NATIONALITY_WRONG);
    if (choice == 'a')
        void_reading(b, "wrong nationality (rule 4.C.6 a)");
    else if (choice == 'c')
        b->r->flags |= IRF_NATION_WRONG;
    note(b, "the unit in %s is %s, not %s", name_of(b, t->loc),
         map->powers[t->power].adjective, map->powers[written].adjective);
}

static void place_target(builder *b, const ir_cand *cand, dj_order *o)
{
    const dj_unit *t = board_unit(b->c, cand->prov);
    dj_unit_type written = b->s->target_type;
    if (!t) {
        o->target = cand->prov;
        o->target_type = written;
        return;
    }
    o->target = t->loc;
    o->target_type = t->type;
    if (written != DJ_NO_UNIT && written != t->type) {
        b->r->mismatch++;
        note(b, "the unit in %s is %s %s", name_of(b, t->loc),
             t->type == DJ_FLEET ? "a" : "an", type_word(t->type));
    }
    check_nationality(b, t);
}

/* ---- destinations -------------------------------------------------------- */

/* 4.B.1-4.B.3: where a fleet at `from` goes when it names this place. */
static int fleet_destination(builder *b, int from, const ir_cand *cand)
{
    const dj_map *map = map_of(b);
    int prov = cand->prov, first;
    int ncoasts = dj_map_ncoasts(map, prov);
    if (cand->coast[0]) {
        int loc = coast_loc(map, prov, cand->coast);
        if (loc < 0) {
            loc = stray_coast(b, cand, stray_reason(b, prov, false));
            if (loc != prov)
                return loc;
        } else if (dj_map_adjacent(map, from, loc, DJ_FLEET) ||
                   reachable_coasts(map, from, prov, &first) == 0 ||
                   rule(b, DJ_RULE_COAST_IMPOSSIBLE) != 'a') {
            return loc;
        } else {
            note(b, "%s cannot be reached: read as %s", map->locs[loc].name,
                 map->locs[first].name);
            return first; /* 4.B.3 a */
        }
    }
    if (ncoasts == 0)
        return prov;
    int n = reachable_coasts(map, from, prov, &first);
    char choice =
        rule(b, n == 1 ? DJ_RULE_COAST_ONE_OMITTED : DJ_RULE_COAST_TWO_OMITTED);
    if (n == 1 && choice == 'a')
        return first; /* the only coast it can reach */
    return prov;      /* as written: the adjudicator applies 4.B.1/4.B.2 */
}

/* An army's destination: coasts mean nothing to it (4.B.6). */
static int army_destination(builder *b, const ir_cand *cand)
{
    if (!cand->coast[0])
        return cand->prov;
    return stray_coast(b, cand, STRAY_ARMY);
}

static int move_destination(builder *b, const dj_order *o, const ir_cand *cand)
{
    const dj_unit *u = ordered_unit(b->c, dj_province(map_of(b), o->loc));
    if (!u)
        return plain_place(b, cand);
    if (u->type == DJ_FLEET)
        return fleet_destination(b, u->loc, cand);
    return army_destination(b, cand);
}

/* The place a support or convoy names as the other unit's destination. */
static int target_destination(builder *b, const dj_order *o,
                              const ir_cand *cand)
{
    if (!cand->coast[0])
        return cand->prov;
    if (o->kind == DJ_ORDER_CONVOY)
        return cand->prov;
    if (o->target_type == DJ_ARMY)
        return army_destination(b, cand);
    return plain_place(b, cand);
}

static void place_dest(builder *b, const ir_cand *cand, dj_order *o)
{
    if (o->kind == DJ_ORDER_MOVE || o->kind == DJ_ORDER_RETREAT)
        o->dest = (int16_t)move_destination(b, o, cand);
    else
        o->dest = (int16_t)target_destination(b, o, cand);
}

/* 4.A.6: a written route is kept (b, c) or dropped (a). */
static void place_path(builder *b, dj_order *o)
{
    const ir_skel *s = b->s;
    if (s->npath == 0)
        return;
    if (rule(b, DJ_RULE_CONVOY_PATH) == 'a') {
        note(b, "convoy route ignored (rule 4.A.6 a)");
        return;
    }
    for (int i = 0; i < s->npath && i < DJ_MAX_PATH; i++) {
        const ir_slot *p = &s->path[i];
        o->path[o->npath++] = p->ncand > 0 ? p->cand[0].prov : -1;
        if (p->ncand > 0)
            b->r->cost = (uint8_t)(b->r->cost + p->cand[0].cost);
    }
}

/* ---- is it possible? (4.E.1 d) ------------------------------------------- */

/* Fleets at sea linking province `from` to province `to` (any power's). */
static bool convoy_route(const ir_ctx *c, int from, int to)
{
    const dj_map *map = c->map;
    const dj_position *pos = c->pos;
    bool seen[DJ_MAX_UNITS] = {false};
    int queue[DJ_MAX_UNITS], head = 0, tail = 0;
    for (int i = 0; i < pos->nunits && i < DJ_MAX_UNITS; i++) {
        const dj_unit *f = &pos->units[i];
        if (f->type == DJ_FLEET && map->locs[f->loc].convoys &&
            dj_map_reaches_province(map, f->loc, from, DJ_FLEET)) {
            seen[i] = true;
            queue[tail++] = i;
        }
    }
    while (head < tail) {
        const dj_unit *f = &pos->units[queue[head++]];
        if (dj_map_reaches_province(map, f->loc, to, DJ_FLEET))
            return true;
        for (int i = 0; i < pos->nunits && i < DJ_MAX_UNITS; i++) {
            const dj_unit *g = &pos->units[i];
            if (!seen[i] && g->type == DJ_FLEET &&
                map->locs[g->loc].convoys &&
                dj_map_adjacent(map, f->loc, g->loc, DJ_FLEET)) {
                seen[i] = true;
                queue[tail++] = i;
            }
        }
    }
    return false;
}

static bool coastal(const dj_map *map, int prov)
{
    return map->locs[prov].terrain == DJ_COAST;
}

/* Can this army get to province prov, overland or by some convoy? */
static bool army_can_reach(const ir_ctx *c, int from, int prov)
{
    const dj_map *map = c->map;
    if (dj_map_adjacent(map, from, prov, DJ_ARMY))
        return true;
    int fprov = dj_province(map, from);
    return coastal(map, fprov) && coastal(map, prov) &&
           convoy_route(c, fprov, prov);
}

static const char *fleet_move_why(const ir_ctx *c, const dj_unit *u, int dest)
{
    const dj_map *map = c->map;
    int prov = dj_province(map, dest), first;
    if (map->locs[prov].terrain == DJ_LAND)
        return "a fleet cannot go inland";
    if (dest == prov && dj_map_ncoasts(map, prov) > 0) {
        int n = reachable_coasts(map, u->loc, prov, &first);
        if (n == 0)
            return "not adjacent";
        char choice = dj_rule(c->rules, n == 1 ? DJ_RULE_COAST_ONE_OMITTED
                                               : DJ_RULE_COAST_TWO_OMITTED);
        if (n > 1 && choice == 'a')
            return "which coast? both can be reached";
        if (n == 1 && choice == 'c')
            return "no coast given";
        return NULL;
    }
    if (dj_map_adjacent(map, u->loc, dest, DJ_FLEET))
        return NULL;
    if (map->locs[dest].is_coast &&
        reachable_coasts(map, u->loc, prov, &first) > 0)
        return "that coast cannot be reached";
    return "not adjacent";
}

static const char *move_why(const ir_ctx *c, const dj_unit *u,
                            const dj_order *o)
{
    const dj_map *map = c->map;
    int prov = dj_province(map, o->dest);
    if (prov == dj_province(map, u->loc))
        return "a unit cannot move to its own place";
    if (map->locs[prov].terrain == DJ_SHUT)
        return "no unit can go there";
    if (u->type == DJ_FLEET)
        return o->via_convoy ? "fleets cannot be convoyed"
                             : fleet_move_why(c, u, o->dest);
    if (map->locs[prov].terrain == DJ_WATER)
        return "an army cannot go to sea";
    return army_can_reach(c, u->loc, prov) ? NULL : "not adjacent";
}

static const char *support_why(const ir_ctx *c, const dj_unit *u,
                               const dj_order *o)
{
    const dj_map *map = c->map;
    const dj_unit *t = board_unit(c, dj_province(map, o->target));
    if (!t)
        return "no unit there to support";
    if (t == u)
        return "a unit cannot support itself";
    int goal =
        o->dest >= 0 ? dj_province(map, o->dest) : dj_province(map, t->loc);
    if (goal == dj_province(map, u->loc))
        return "a unit cannot support a move to its own place";
    if (!dj_map_reaches_province(map, u->loc, goal, u->type))
        return "it cannot reach the place it supports";
    if (o->dest < 0)
        return NULL;
    bool can = t->type == DJ_FLEET
                   ? dj_map_reaches_province(map, t->loc, goal, DJ_FLEET)
                   : army_can_reach(c, t->loc, goal) &&
                         map->locs[goal].terrain != DJ_WATER;
    return can && goal != dj_province(map, t->loc)
               ? NULL
               : "the supported unit cannot get there";
}

static const char *convoy_why(const ir_ctx *c, const dj_unit *u,
                              const dj_order *o)
{
    const dj_map *map = c->map;
    if (u->type != DJ_FLEET || !map->locs[u->loc].convoys)
        return "only fleets at sea (or in a port) convoy";
    const dj_unit *t = board_unit(c, dj_province(map, o->target));
    if (!t)
        return "no unit there to convoy";
    if (t->type != DJ_ARMY)
        return "only armies are convoyed";
    int from = dj_province(map, t->loc), to = dj_province(map, o->dest);
    if (from == to || !coastal(map, from) || !coastal(map, to))
        return "that army cannot be convoyed there";
    return convoy_route(c, from, to) ? NULL : "no convoy route";
}

static const char *retreat_why(const ir_ctx *c, const dj_order *o)
{
    const dj_map *map = c->map;
    int d = dj_position_dislodged_at(map, c->pos, dj_province(map, o->loc));
    const dj_dislodged *dl = &c->pos->dislodged[d];
    int prov = dj_province(map, o->dest);
    for (int i = 0; i < dl->nretreats && i < DJ_MAX_RETREATS; i++) {
        int r = dl->retreats[i];
        if (r == o->dest || (o->dest == prov && dj_province(map, r) == prov))
            return NULL;
    }
    return "not a legal retreat";
}

static const char *build_type_why(const ir_ctx *c, const dj_order *o)
{
    const dj_map *map = c->map;
    int prov = dj_province(map, o->loc);
    switch (o->unit_type) {
    case DJ_NO_UNIT:
        if (map->locs[prov].terrain == DJ_LAND)
            return dj_rule(c->rules, DJ_RULE_BUILD_UNIT_MISSING) == 'a'
                       ? "no unit type given"
                       : NULL;
        return dj_rule(c->rules, DJ_RULE_BUILD_UNIT_MISSING) == 'c' &&
                       map->locs[o->loc].is_coast
                   ? NULL
                   : "army or fleet?";
    case DJ_FLEET:
        if (map->locs[prov].terrain == DJ_LAND)
            return dj_rule(c->rules, DJ_RULE_BUILD_FLEET_LAND) == 'b'
                       ? NULL
                       : "a fleet cannot be built inland";
        if (dj_map_ncoasts(map, prov) > 0 && !map->locs[o->loc].is_coast)
            return dj_rule(c->rules, DJ_RULE_COAST_IN_BUILD) == 'b'
                       ? NULL
                       : "no coast given";
        return map->locs[o->loc].fleet_ok ? NULL : "a fleet cannot stand there";
    case DJ_ARMY:
        return map->locs[prov].army_ok ? NULL : "an army cannot stand there";
    }
    return NULL;
}

static const char *adjustment_why(const ir_ctx *c, const dj_order *o)
{
    const dj_map *map = c->map;
    int due = dj_adjustment_due(map, c->pos, c->power);
    if (o->kind == DJ_ORDER_WAIVE)
        return due > 0 ? NULL : "no builds due";
    int prov = dj_province(map, o->loc);
    if (o->kind == DJ_ORDER_REMOVE) {
        const dj_unit *u = board_unit(c, prov);
        if (!u)
            return "no unit there";
        if (u->power != c->power)
            return "not your unit";
        return due < 0 ? NULL : "no removals due";
    }
    if (due <= 0)
        return "no builds due";
    switch (dj_build_site_why(map, c->pos, c->rules, c->power, prov)) {
    case DJ_WHY_NONE:
        return build_type_why(c, o);
    case DJ_WHY_BUILD_NOT_HOME:
        return map->is_sc[prov] ? "not a home centre" : "not a supply centre";
    case DJ_WHY_BUILD_NOT_OWNED:
        return "that centre is not yours now";
    default:
        return "a unit stands there";
    }
}

/* NULL when the order is possible in this position, else why not. */
static const char *why_impossible(const ir_ctx *c, const dj_order *o)
{
    const dj_map *map = c->map;
    if (c->phase == DJ_ADJUSTMENT)
        return adjustment_why(c, o);
    const dj_unit *u = ordered_unit(c, dj_province(map, o->loc));
    if (!u)
        return c->phase == DJ_RETREAT ? "no dislodged unit there"
                                      : "no unit there";
    if (u->power != c->power)
        return "not your unit";
    switch (o->kind) {
    case DJ_ORDER_MOVE:
        return move_why(c, u, o);
    case DJ_ORDER_SUPPORT:
        return support_why(c, u, o);
    case DJ_ORDER_CONVOY:
        return convoy_why(c, u, o);
    case DJ_ORDER_RETREAT:
        return retreat_why(c, o);
    default:
        return NULL;
    }
}

/* ---- readings ------------------------------------------------------------ */

static int slot_count(bool has, const ir_slot *s)
{
    return has && s->ncand > 0 ? s->ncand : 1;
}

int ir_count_readings(const ir_skel *s)
{
    long n = (long)slot_count(s->has_unit, &s->unit) *
             slot_count(s->has_target, &s->target) *
             slot_count(s->has_dest, &s->dest);
    return n > IR_MAX_READINGS ? IR_MAX_READINGS : (int)n;
}

/* The candidate picked in a slot, or NULL for a slot not written. */
static const ir_cand *picked(bool has, const ir_slot *s, int i)
{
    return has && i < s->ncand ? &s->cand[i] : NULL;
}

static void build_reading(builder *b, const uint8_t pick[3])
{
    const ir_skel *s = b->s;
    ir_reading *r = b->r;
    memset(r, 0, sizeof *r);
    memcpy(r->pick, pick, sizeof r->pick);
    dj_order o = dj_order_make(s->kind, b->c->power, DJ_NO_UNIT, -1);
    const ir_cand *unit = picked(s->has_unit, &s->unit, pick[0]);
    const ir_cand *target = picked(s->has_target, &s->target, pick[1]);
    const ir_cand *dest = picked(s->has_dest, &s->dest, pick[2]);
    if (unit && s->kind == DJ_ORDER_BUILD)
        place_build(b, unit, &o);
    else if (unit)
        place_unit(b, unit, &o);
    if (target)
        place_target(b, target, &o);
    if (dest)
        place_dest(b, dest, &o);
    o.via_convoy = s->via;
    place_path(b, &o);
    r->cost = (uint8_t)(r->cost + (unit ? unit->cost : 0) +
                        (target ? target->cost : 0) + (dest ? dest->cost : 0));
    r->order = o;
    r->why = why_impossible(b->c, &o);
    r->possible = !r->why && !r->invalid;
    dj_order_format(b->c->map, &o, r->text, sizeof r->text);
}

int ir_expand(const ir_ctx *c, const ir_skel *s, ir_reading *out, int max)
{
    int nu = slot_count(s->has_unit, &s->unit);
    int nt = slot_count(s->has_target, &s->target);
    int nd = slot_count(s->has_dest, &s->dest);
    int n = 0;
    builder b = {c, s, NULL, NULL, 0};
    for (int u = 0; u < nu; u++)
        for (int t = 0; t < nt; t++)
            for (int d = 0; d < nd && n < max; d++) {
                uint8_t pick[3] = {(uint8_t)u, (uint8_t)t, (uint8_t)d};
                b.r = &out[n++];
                build_reading(&b, pick);
            }
    return n;
}

/* "Picardy", or "Bulgaria (east coast)" when a real coast goes with it. */
static const char *cand_name(const builder *b, const ir_cand *c)
{
    int loc = c->coast[0] ? coast_loc(map_of(b), c->prov, c->coast) : -1;
    return ir_place_name(map_of(b), loc >= 0 ? loc : c->prov);
}

/* "'pir' read as Picardy" for every place not written exactly. */
static void note_corrections(builder *b, const ir_reading *r)
{
    const ir_skel *s = b->s;
    const ir_slot *slots[3] = {s->has_unit ? &s->unit : NULL,
                               s->has_target ? &s->target : NULL,
                               s->has_dest ? &s->dest : NULL};
    for (int i = 0; i < 3; i++) {
        const ir_slot *sl = slots[i];
        if (!sl || r->pick[i] >= sl->ncand || sl->cand[r->pick[i]].cost == 0)
            continue;
        note(b, "'%s' read as %s", sl->written,
             cand_name(b, &sl->cand[r->pick[i]]));
    }
    for (int i = 0; i < s->npath; i++)
        if (s->path[i].ncand > 0 && s->path[i].cand[0].cost > 0)
            note(b, "'%s' read as %s", s->path[i].written,
                 ir_place_name(map_of(b), s->path[i].cand[0].prov));
}

void ir_explain(const ir_ctx *c, const ir_skel *s, const ir_reading *r,
                char *notes, size_t len)
{
    ir_reading again;
    builder b = {c, s, &again, notes, len};
    if (s->notes[0])
        ir_note(notes, len, "%s", s->notes);
    note_corrections(&b, r);
    build_reading(&b, r->pick);
    if (again.invalid)
        return;
    if (again.why)
        note(&b, "this order will fail: %s", again.why);
}
