/* SPDX-License-Identifier: MIT */
/*
 * dpjudge.c — the DPjudge movement engine's front (mv_adjudicate): the
 * context set up from the board, each unit's order decided (legal.c), the
 * marked passes prepared (movement.c) and run under the paradox rule
 * (convoy.c), again with an army by land where 4.A.3 c says so, then the
 * marks turned into results and the units' next places.
 */
#include "movement.h"

#include <assert.h>
#include <string.h>

/* ---- from marks to results ---------------------------------------------- */

static void init_context(mv_ctx *c, const dj_map *map, const dj_position *pos,
                         const dj_rules *rules)
{
    c->map = map;
    c->pos = pos;
    c->rules = rules;
    c->nunits = pos->nunits;
    dj_board_set_up(&c->board, map, pos);
    for (int i = 0; i < pos->nunits; i++) {
        const dj_unit *pu = &pos->units[i];
        mv_unit *u = &c->u[i];
        memset(u, 0, sizeof *u);
        u->power = pu->power;
        u->loc = pu->loc;
        u->prov = c->board.prov[i];
        u->type = pu->type;
        u->order = -1;
        u->kind = MV_HOLD;
        u->target = u->target_dest = u->target_coast = -1;
        u->dest_loc = u->dest_prov = u->dislodger = -1;
    }
}

/* Report what the marks mean for one obeyed order. */
static void order_outcome(const mv_ctx *c, int ui, dj_order_result *r)
{
    const mv_unit *u = &c->u[ui];
    bool ok = true;
    switch (u->kind) {
    case MV_MOVE:
        ok = u->moved;
        if (u->doomed) {
            r->flags |= DJ_RF_ILLEGAL;
            r->why = u->doomed_why;
        } else if (u->mark == MK_NO_CONVOY)
            r->flags |= DJ_RF_NO_CONVOY;
        else if (!ok)
            r->flags |= DJ_RF_BOUNCE;
        if (u->in_paradox)
            r->flags |= DJ_RF_PARADOX;
        break;
    case MV_SUPPORT:
        ok = u->mark != MK_CUT && u->mark != MK_VOID;
        if (u->mark == MK_CUT)
            r->flags |= DJ_RF_CUT;
        if (u->mark == MK_VOID) {
            r->flags |= DJ_RF_VOID;
            r->why = u->void_why ? (dj_why)u->void_why : DJ_WHY_UNMATCHED;
        }
        break;
    case MV_CONVOY:
        if (u->mark == MK_VOID) {
            ok = false;
            r->flags |= DJ_RF_VOID;
            r->why = u->void_why ? (dj_why)u->void_why : DJ_WHY_UNMATCHED;
        } else if (!c->u[u->target].moved || u->dislodged) {
            ok = false;
            r->flags |= DJ_RF_DISRUPTED;
        }
        break;
    case MV_HOLD:
        break;
    }
    if (u->dislodged) {
        /* A support the paradox rule (4.A.2 a-c) spared from its dislodger
         * still counted: it succeeded although the unit is dislodged. */
        if (u->kind != MV_SUPPORT || u->mark != MK_NONE)
            ok = false;
        r->flags |= DJ_RF_DISLODGED;
        r->dislodged_by = c->u[u->dislodger].prov;
    }
    r->success = ok;
}

static void fill_results(const mv_ctx *c, const dj_order *orders, int norders,
                         dj_result *out)
{
    for (int i = 0; i < norders; i++) {
        dj_order_result *r = &out->orders[i];
        int ui = r->unit;
        if (ui < 0)
            continue;
        if (c->u[ui].order == i) {
            order_outcome(c, ui, r);
        } else if (c->u[ui].dislodged) {
            r->flags |= DJ_RF_DISLODGED;
            r->dislodged_by = c->u[c->u[ui].dislodger].prov;
        }
        /* An exact repeat of the obeyed order shares its outcome. */
        if (!(r->flags & (DJ_RF_ILLEGAL | DJ_RF_IGNORED | DJ_RF_VOID)) &&
            c->u[ui].order != i && c->u[ui].order >= 0 &&
            orders[i].kind == orders[c->u[ui].order].kind)
            order_outcome(c, ui, r);
    }
}

/* Provinces left empty by a standoff: no retreating into them. */
static void mark_contested(const mv_ctx *c, dj_result *out)
{
    memset(out->contested, 0, sizeof(bool) * (size_t)c->map->nlocs);
    for (int m = 0; m < c->nunits; m++) {
        const mv_unit *u = &c->u[m];
        if (!mv_is_mover(u) || u->moved || u->mark == MK_NO_CONVOY ||
            u->doomed)
            continue;
        int p = u->dest_prov;
        bool listed = false; /* a head-to-head loser no longer counts */
        for (int i = c->head[p]; i >= 0; i = c->e[i].next)
            if (c->e[i].unit == m && !c->e[i].home && !c->e[i].removed)
                listed = true;
        if (listed)
            out->contested[p] = true;
    }
    for (int m = 0; m < c->nunits; m++) {
        const mv_unit *u = &c->u[m];
        int p = u->moved ? u->dest_prov : u->dislodged ? -1 : u->prov;
        if (p >= 0)
            out->contested[p] = false;
    }
}

static void build_next_position(const mv_ctx *c, dj_result *out)
{
    dj_position *n = &out->next;
    const dj_position *pos = c->pos;
    n->nunits = n->ndislodged = 0;
    for (int m = 0; m < c->nunits; m++) {
        const mv_unit *u = &c->u[m];
        dj_unit unit = pos->units[m];
        if (u->moved)
            unit.loc = u->dest_loc;
        if (!u->dislodged) {
            n->units[n->nunits++] = unit;
            continue;
        }
        assert(u->dislodger >= 0 && u->dislodger < c->nunits &&
               u->dislodger != m); /* a dislodged unit has its dislodger */
        dj_dislodged *d = &n->dislodged[n->ndislodged++];
        memset(d, 0, sizeof *d);
        d->unit = unit;
        d->attacker_from = c->u[u->dislodger].prov;
        d->by_convoy = c->u[u->dislodger].by_convoy;
    }
}

/*
 * 4.A.3 c: an army swapping by convoy goes over land after all when its
 * convoy is disrupted.  Returns whether some army changed its mind, in which
 * case the phase is adjudicated again.
 */
static bool take_land_route_instead(mv_ctx *c)
{
    bool changed = false;
    if (dj_rule(c->rules, DJ_RULE_ADJACENT_CONVOY) != 'c')
        return false;
    for (int a = 0; a < c->nunits; a++) {
        const mv_unit *u = &c->u[a];
        if (u->kind == MV_MOVE && u->by_convoy && u->mark == MK_NO_CONVOY &&
            dj_map_adjacent(c->map, u->loc, u->dest_prov, DJ_ARMY) &&
            !c->land_only[a]) {
            c->land_only[a] = true;
            changed = true;
        }
    }
    return changed;
}

/*
 * Half-strength borders: a move across a `*` cuts a support only by
 * dislodging its supporter, which step 9 finds after step 6 has settled
 * the head-to-head battles with that support still counted.  The supports
 * cut so are cut from step 3 in a new run, until the set no longer
 * changes.  A support cut so from the start whose supporter is then not
 * dislodged makes a knot (each such move hangs on the support another
 * would cut, Kruijswijk's two outcomes or none): the moves across a `*`
 * into its province fail, as convoyed armies in a paradox do (Szykman),
 * and the support is no longer cut.  Returns whether anything changed.
 */
static bool cut_earlier(mv_ctx *c)
{
    if (!c->map->half_borders)
        return false;
    bool changed = false;
    for (int s = 0; s < c->nunits; s++) {
        const mv_unit *su = &c->u[s];
        bool keep = c->half_cut[s];
        if (keep && c->precut[s]) {
            int by = su->dislodger;
            keep = su->dislodged && by >= 0 && c->u[by].half &&
                   c->u[by].power != su->power;
            for (int m = 0; !keep && m < c->nunits; m++) {
                const mv_unit *mu = &c->u[m];
                if (mv_is_mover(mu) && mu->half && mu->dest_prov == su->prov &&
                    mu->power != su->power && !c->half_held[m])
                    c->half_held[m] = true;
            }
        }
        if (keep != c->precut[s]) {
            c->precut[s] = keep;
            changed = true;
        }
    }
    return changed;
}

int mv_adjudicate(const dj_map *map, const dj_position *pos,
                  const dj_order *orders, int norders, const dj_rules *rules,
                  dj_result *out, mv_ctx *c)
{
    memset(c->land_only, 0, sizeof c->land_only);
    memset(c->precut, 0, sizeof c->precut);
    memset(c->half_held, 0, sizeof c->half_held);
    for (int round = 0; round <= 2 * pos->nunits + 1; round++) {
        init_context(c, map, pos, rules);
        for (int i = 0; i < norders; i++)
            out->orders[i] = (dj_order_result){.unit = -1, .dislodged_by = -1};
        mv_assign_orders(c, orders, norders, out->orders);
        mv_prepare(c);
        mv_resolve_with_paradox_rule(c);
        if (!take_land_route_instead(c) && !cut_earlier(c))
            break;
    }
    fill_results(c, orders, norders, out);
    mark_contested(c, out);
    build_next_position(c, out);
    return 0;
}
