/* SPDX-License-Identifier: MIT */
/*
 * haplomacy.c — movement adjudication by the Haplomacy dispute algorithm
 * (seed 003), step by step as the seed writes it.
 *
 *   1. cancel invalid orders;                     (haplomacy_orders.c)
 *   2. cut support, rules 13 and 16 but not 14;   (haplomacy_orders.c)
 *   3. while some unit is not ordered to hold: pick the next dispute, settle
 *      it, repeat.
 *
 * An army is a unit that moves or holds (its leader) with every unit
 * still supporting it; its target is where the leader moves, or its own
 * province.  The armies with one target make a dispute.  The next dispute
 * is a vacant province targeted by one army alone; else the one with the
 * largest army, preferring one whose province holds a supporting unit,
 * then (largest army a single unit) the one with the most units, then —
 * the seed's "arbitrary choice" — the lowest province number.  A dispute
 * with one largest army whose leader moves is won (unless the defender is
 * the leader's own power's, or that power supports the leader: a draw,
 * rule 12): the defender is dislodged, the leader moves in; otherwise it
 * is a draw, a standoff.  Settled units are "ordered to hold", so every
 * step settles at least one unit and the loop ends.
 *
 * Extensions where the seed is silent, each the smallest that keeps its
 * spirit (doc/engine.md lists them and the DATC cases they decide):
 *   - convoys: a convoyed army's move is valid when fleets are ordered to
 *     carry it all the way; when its dispute comes up the fleets must
 *     still be in place (none dislodged), or the move fails; convoying
 *     fleets hold for the disputes;
 *   - a dislodged unit keeps its move order, as the seed says (rule 10);
 *     if that move later wins, the unit is where it moved and not
 *     dislodged;
 *   - coasts: a fleet moving to a two-coast province without a coast goes
 *     to the one it can reach, or the order is invalid;
 *   - retreats: the seed's standoff record and dislodgers give the
 *     retreats, with 4.A.5 as the game's rules say.
 * Nothing here shares code with the DPjudge or Kruijswijk engines beyond
 * the map, position, order and result types and the board's set-up
 * (board.c: where each unit stands); legality is this engine's own.
 */
#include "haplomacy.h"

#include <stdlib.h>
#include <string.h>

#include "haplomacy_int.h"

static void init_context(hp_ctx *c, const dj_map *map, const dj_position *pos,
                         const dj_rules *rules)
{
    c->map = map;
    c->pos = pos;
    c->rules = rules;
    c->n = pos->nunits;
    dj_board_set_up(&c->board, map, pos);
    memcpy(c->occupant, c->board.at, sizeof(int16_t) * (size_t)map->nlocs);
    memset(c->standoff, 0, sizeof(bool) * (size_t)map->nlocs);
    for (int i = 0; i < c->n; i++) {
        const dj_unit *du = &pos->units[i];
        hp_unit *u = &c->u[i];
        memset(u, 0, sizeof *u);
        u->power = du->power;
        u->loc = du->loc;
        u->prov = c->board.prov[i];
        u->type = du->type;
        u->order = -1;
        u->written = u->kind = HP_HOLD;
        u->dest_loc = u->dest_prov = u->target = u->target_prov = -1;
        u->dislodger_prov = -1;
    }
}

/* ---- armies and disputes --------------------------------------------------- */

/* Does unit s still support leader l? */
static bool supports(const hp_ctx *c, const hp_unit *s, int l)
{
    if (s->kind != HP_SUPPORT || s->target != l)
        return false;
    const hp_unit *lead = &c->u[l];
    return s->target_prov < 0 ? lead->kind == HP_HOLD
                              : lead->kind == HP_MOVE &&
                                    lead->dest_prov == s->target_prov;
}

/* A leader: moving, or holding on the board. */
static bool is_leader(const hp_unit *u)
{
    return u->kind == HP_MOVE || (u->kind == HP_HOLD && !u->dislodged);
}

/* Where a unit's army aims: where it moves, or where it stands now. */
static int target_of(const hp_unit *u)
{
    if (u->kind == HP_MOVE)
        return u->dest_prov;
    return u->moved ? u->dest_prov : u->prov;
}

/* Strengths in halves: the leader 2 (1 moving across a half-strength
 * border, `*`), each supporting unit 2. */
typedef struct dispute_view {
    int size[DJ_MAX_UNITS];   /* per leader: its strength, 2 + 2 a support */
    bool active[DJ_MAX_LOCS]; /* some unit of it is not ordered to hold */
    int armies[DJ_MAX_LOCS];  /* armies targeting the province */
    int units[DJ_MAX_LOCS];   /* units in those armies */
    int largest[DJ_MAX_LOCS]; /* its largest army's size */
    int largest_units[DJ_MAX_LOCS]; /* units in it (1: a single unit) */
} dispute_view;

static void view_disputes(const hp_ctx *c, dispute_view *v)
{
    int nlocs = c->map->nlocs;
    memset(v->active, 0, sizeof(bool) * (size_t)nlocs);
    memset(v->armies, 0, sizeof(int) * (size_t)nlocs);
    memset(v->units, 0, sizeof(int) * (size_t)nlocs);
    memset(v->largest, 0, sizeof(int) * (size_t)nlocs);
    memset(v->largest_units, 0, sizeof(int) * (size_t)nlocs);
    for (int l = 0; l < c->n; l++) {
        v->size[l] = 0;
        const hp_unit *lead = &c->u[l];
        if (!is_leader(lead))
            continue;
        int units = 1;
        bool busy = lead->kind != HP_HOLD;
        for (int s = 0; s < c->n; s++)
            if (supports(c, &c->u[s], l)) {
                units++;
                busy = true;
            }
        int size = 2 * units - (lead->kind == HP_MOVE && lead->half);
        v->size[l] = size;
        int t = target_of(lead);
        v->armies[t]++;
        v->units[t] += units;
        v->active[t] |= busy;
        if (size > v->largest[t]) {
            v->largest[t] = size;
            v->largest_units[t] = units;
        }
    }
}

/* The seed's choice of the next dispute; -1 when none is left. */
static int next_dispute(const hp_ctx *c, const dispute_view *v)
{
    int nlocs = c->map->nlocs;
    for (int t = 0; t < nlocs; t++)
        if (v->active[t] && v->armies[t] == 1 && c->occupant[t] < 0)
            return t;
    int largest = 0, largest_units = 0;
    for (int t = 0; t < nlocs; t++)
        if (v->active[t] && v->largest[t] > largest) {
            largest = v->largest[t];
            largest_units = v->largest_units[t];
        }
    int best = -1;
    bool best_support = false;
    for (int t = 0; t < nlocs; t++) {
        if (!v->active[t] || v->largest[t] != largest)
            continue;
        int occ = c->occupant[t];
        bool support = occ >= 0 && c->u[occ].kind == HP_SUPPORT;
        if (best < 0 || (support && !best_support) ||
            (support == best_support && largest_units == 1 &&
             v->units[t] > v->units[best])) {
            best = t;
            best_support = support;
        }
    }
    return best;
}

/* ---- settling a dispute ------------------------------------------------------ */

/* "Cancel" a unit's orders: it holds, and so does every unit supporting it. */
static void cancel(hp_ctx *c, int u)
{
    for (int s = 0; s < c->n; s++)
        if (supports(c, &c->u[s], u))
            c->u[s].kind = HP_HOLD;
    c->u[u].kind = HP_HOLD;
}

static void move_in(hp_ctx *c, int w, int t)
{
    hp_unit *u = &c->u[w];
    if (!u->dislodged && c->occupant[u->prov] == w)
        c->occupant[u->prov] = -1;
    c->occupant[t] = (int16_t)w;
    u->moved = true;
    u->dislodged = false;
}

static void dislodge(hp_ctx *c, int d, const hp_unit *by)
{
    hp_unit *u = &c->u[d];
    u->dislodged = true;
    u->dislodger_prov = by->prov;
    u->dislodger_convoyed = by->by_convoy;
    if (c->occupant[u->prov] == d)
        c->occupant[u->prov] = -1;
}

/* Rule 12: no power dislodges its own unit, nor helps dislodge it. */
static bool self_attack(const hp_ctx *c, int w, int d)
{
    if (d < 0)
        return false;
    if (c->u[w].power == c->u[d].power)
        return true;
    for (int s = 0; s < c->n; s++)
        if (supports(c, &c->u[s], w) && c->u[s].power == c->u[d].power)
            return true;
    return false;
}

static void settle(hp_ctx *c, const dispute_view *v, int t)
{
    int involved[DJ_MAX_UNITS], ninv = 0, winner = -1, nlargest = 0,
        largest_leader = -1;
    for (int l = 0; l < c->n; l++) {
        if (!v->size[l] || target_of(&c->u[l]) != t)
            continue;
        involved[ninv++] = l;
        if (v->size[l] == v->largest[t]) {
            nlargest++;
            largest_leader = l;
        }
    }
    if (nlargest == 1 && c->u[largest_leader].kind == HP_MOVE)
        winner = largest_leader;
    /* A convoy broken by now (a fleet dislodged) carries no army. */
    if (winner >= 0 && c->u[winner].by_convoy && !hp_convoy_route(c, winner))
        winner = -1;
    int d = c->occupant[t];
    if (d == winner)
        d = -1;
    if (winner >= 0 && !self_attack(c, winner, d)) {
        hp_unit *w = &c->u[winner];
        if (d >= 0) {
            hp_unit *def = &c->u[d];
            bool h2h = (def->kind == HP_MOVE && def->dest_prov == w->prov) ||
                       (def->kind == HP_SUPPORT && def->target_prov == w->prov);
            dislodge(c, d, w);
            if (h2h || def->kind != HP_MOVE)
                cancel(c, d);
        }
        cancel(c, winner);
        move_in(c, winner, t);
    } else {
        c->standoff[t] = true;
        if (d >= 0) {
            const hp_unit *def = &c->u[d];
            int from = largest_leader >= 0 ? c->u[largest_leader].prov : -1;
            if (def->kind == HP_HOLD ||
                (def->kind == HP_MOVE && def->dest_prov == from))
                cancel(c, d);
        }
    }
    for (int k = 0; k < ninv; k++)
        if (involved[k] != winner)
            cancel(c, involved[k]);
}

/* ---- the outcome ------------------------------------------------------------- */

static void fill_results(const hp_ctx *c, const dj_order *orders, int norders,
                         dj_result *out)
{
    (void)orders;
    for (int i = 0; i < norders; i++) {
        dj_order_result *r = &out->orders[i];
        int ui = r->unit;
        if (ui < 0 || c->u[ui].order != i) {
            r->success = false;
            continue;
        }
        const hp_unit *u = &c->u[ui];
        bool ok = true;
        if (u->illegal) {
            ok = false;
            r->why = u->why;
            if (u->no_route)
                r->flags |= DJ_RF_NO_CONVOY;
            else if (u->why == DJ_WHY_UNMATCHED || u->why == DJ_WHY_NO_TARGET)
                r->flags |= DJ_RF_VOID;
            else
                r->flags |= DJ_RF_ILLEGAL;
        } else if (u->written == HP_MOVE) {
            ok = u->moved;
            if (!ok)
                r->flags |= DJ_RF_BOUNCE;
        } else if (u->written == HP_SUPPORT) {
            ok = !u->cut;
            if (u->cut)
                r->flags |= DJ_RF_CUT;
        } else if (u->written == HP_CONVOY) {
            ok = c->u[u->target].moved && !u->dislodged;
            if (!ok)
                r->flags |= DJ_RF_DISRUPTED;
        }
        if (u->dislodged) {
            ok = false;
            r->flags |= DJ_RF_DISLODGED;
            r->dislodged_by = u->dislodger_prov;
        }
        r->success = ok;
    }
}

static void build_next(const hp_ctx *c, dj_result *out)
{
    const dj_map *m = c->map;
    dj_position *n = &out->next;
    n->nunits = 0;
    n->ndislodged = 0;
    for (int i = 0; i < c->n; i++) {
        const hp_unit *u = &c->u[i];
        dj_unit unit = {u->power, u->moved ? u->dest_loc : u->loc, u->type};
        if (!u->dislodged) {
            n->units[n->nunits++] = unit;
            continue;
        }
        dj_dislodged *d = &n->dislodged[n->ndislodged++];
        memset(d, 0, sizeof *d);
        d->unit = unit;
        d->attacker_from = u->dislodger_prov;
        d->by_convoy = u->dislodger_convoyed;
    }
    for (int p = 0; p < m->nlocs; p++)
        out->contested[p] = c->standoff[p] && c->occupant[p] < 0 &&
                            dj_province(m, p) == p;
}

int hp_adjudicate_movement(const dj_map *map, const dj_position *pos,
                           const dj_order *orders, int norders,
                           const dj_rules *rules, dj_result *out)
{
    hp_ctx *c = malloc(sizeof *c);
    dispute_view *v = malloc(sizeof *v);
    if (!c || !v) {
        free(c);
        free(v);
        return -1;
    }
    init_context(c, map, pos, rules);
    hp_read_orders(c, orders, norders, out->orders);
    hp_cut_support(c);
    /* Each step settles at least one unit: n + 1 steps always suffice. */
    for (int step = 0; step <= c->n; step++) {
        view_disputes(c, v);
        int t = next_dispute(c, v);
        if (t < 0)
            break;
        settle(c, v, t);
    }
    fill_results(c, orders, norders, out);
    build_next(c, out);
    free(c);
    free(v);
    return 0;
}
