/* SPDX-License-Identifier: MIT */
/*
 * order_pad.c — what the web's order pad needs from a game, for one
 * power and the phase taking orders: the orders it may give (the engine's
 * dj_legal_orders on the game's position and rules, each as the text a
 * player mails and the places the picture names), and the picture of its
 * own orders on file over the board, for its player alone.
 *
 * Both read in one read transaction and write nothing.  The picture is
 * drawn each time and never cached: it shows orders nobody else may see
 * until the phase is processed.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/legal_list.h"
#include "game/game.h"
#include "game/game_int.h"
#include "game/orders.h"
#include "game/pictures.h"

/* The game, the power and a phase taking orders; -1 with the error. */
static int open_ordering(dj_judge *j, game_view *v, const char *game,
                         const char *power, int *p)
{
    if (gv_load(j, game, v) < 0)
        return -1;
    if (gv_require(j, v, "active paused") < 0)
        return -1;
    if (!v->has_phase || strcmp(v->phase.status, "current") != 0)
        return judge_fail(j, "game '%s' has no phase taking orders",
                          v->g.name);
    *p = gv_power(j, v, power);
    return *p < 0 ? -1 : 0;
}

static void place_of(const dj_map *m, int loc, char *out, size_t len)
{
    snprintf(out, len, "%s",
             loc >= 0 && loc < m->nlocs ? m->locs[loc].abbr : "");
}

static const char *kind_name(dj_order_kind k)
{
    switch (k) {
    case DJ_ORDER_HOLD: return "hold";
    case DJ_ORDER_MOVE: return "move";
    case DJ_ORDER_SUPPORT: return "support";
    case DJ_ORDER_CONVOY: return "convoy";
    case DJ_ORDER_RETREAT: return "retreat";
    case DJ_ORDER_DISBAND: return "disband";
    case DJ_ORDER_BUILD: return "build";
    case DJ_ORDER_REMOVE: return "remove";
    default: return "other";
    }
}

static void entry_of(const dj_map *m, const dj_legal_order *l,
                     dj_pad_order *e)
{
    const dj_order *o = &l->order;
    memset(e, 0, sizeof *e);
    snprintf(e->kind, sizeof e->kind, "%s", kind_name(o->kind));
    dj_legal_text(m, o, e->text, sizeof e->text);
    dj_order u = *o;
    u.kind = DJ_ORDER_NONE;
    if (o->kind != DJ_ORDER_BUILD)
        dj_order_format(m, &u, e->unit, sizeof e->unit);
    place_of(m, o->loc, e->place, sizeof e->place);
    snprintf(e->type, sizeof e->type, "%s", dj_unit_letter(o->unit_type));
    if (o->target >= 0)
        place_of(m, o->target, e->target, sizeof e->target);
    if (o->dest >= 0)
        place_of(m, o->dest, e->to, sizeof e->to);
    e->by_convoy = l->by_convoy;
}

int dj_game_pad_orders(dj_judge *j, const char *game, const char *power,
                       dj_pad_list *out)
{
    memset(out, 0, sizeof *out);
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    memset(&v, 0, sizeof v);
    int p = -1;
    dj_legal_set *set = malloc(sizeof *set);
    int rc = set ? open_ordering(j, &v, game, power, &p)
                 : judge_fail(j, "out of memory");
    if (rc == 0 && dj_legal_orders(v.map, v.pos, &v.rules, p, set) < 0)
        rc = judge_fail(j, "out of memory");
    if (rc == 0 && set->n > 0) {
        out->o = calloc((size_t)set->n, sizeof *out->o);
        if (!out->o)
            rc = judge_fail(j, "out of memory");
    }
    if (rc == 0) {
        snprintf(out->game, sizeof out->game, "%s", v.g.name);
        snprintf(out->phase, sizeof out->phase, "%s", v.phase.name);
        snprintf(out->power, sizeof out->power, "%s", gv_power_name(&v, p));
        snprintf(out->phase_type, sizeof out->phase_type, "%s",
                 v.pos->phase.type == DJ_MOVEMENT ? "movement"
                 : v.pos->phase.type == DJ_RETREAT ? "retreat"
                                                   : "adjustment");
        out->due = set->due;
        out->truncated = set->truncated;
        for (int i = 0; i < set->n; i++)
            entry_of(v.map, &set->o[i], &out->o[i]);
        out->n = set->n;
    }
    dj_store_rollback(j->store);
    free(set);
    gv_free(&v);
    return rc;
}

void dj_pad_list_free(dj_pad_list *l)
{
    free(l->o);
    l->o = NULL;
    l->n = 0;
}

int dj_game_own_orders_picture(dj_judge *j, const char *game,
                               const char *power, int format,
                               dj_picture *out)
{
    out->data = NULL;
    out->len = 0;
    if (format < 0 || format >= DJ_PICTURE_NONE)
        return judge_fail(j, "no such picture format");
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    memset(&v, 0, sizeof v);
    int p = -1;
    order_set *set = malloc(sizeof *set);
    int rc = set ? open_ordering(j, &v, game, power, &p)
                 : judge_fail(j, "out of memory");
    if (rc == 0)
        rc = gv_orders_load(j, &v, &v.phase, set);
    if (rc == 0) {
        /* the power's own orders only, kept in their order */
        int n = 0;
        for (int i = 0; i < set->n; i++)
            if (set->orders[i].power == p)
                set->orders[n++] = set->orders[i];
        rc = gv_game_draw(j, &v, v.pos, set->orders, n, NULL, format, out);
    }
    dj_store_rollback(j->store);
    free(set);
    gv_free(&v);
    return rc;
}
