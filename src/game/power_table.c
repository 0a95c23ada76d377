/* SPDX-License-Identifier: MIT */
/*
 * power_table.c — the game page's table of powers (issue 38): per power
 * its player, centres, units and whether its orders are in, and the
 * deadline in the game's zone and the viewer's, as numbers and words a
 * page lays out (judgeweb's /game/NAME) instead of the text of LIST.
 *
 * Design.  What the viewer may know is decided here, by the rules LIST
 * GAME follows (export.c's show_powers): players named only through
 * dj_game_player_shown (the setting identities), never by address;
 * whether orders are in told to anyone unless hide_late = yes; how many
 * orders are given and READY only to the power itself and the master.
 * One read transaction, so the table is one state of the game.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/audience.h"
#include "game/game.h"
#include "game/game_int.h"
#include "game/reading.h"
#include "store/phases.h"
#include "time/tzif.h"

typedef struct table_arg {
    const dj_signon *viewer; /* of this game, or NULL */
    dj_power_table *t;
} table_arg;

static const dj_participant_rec *viewer_part(const game_view *v,
                                             const dj_signon *viewer)
{
    for (int i = 0; viewer && i < v->nparts; i++)
        if (v->parts[i].id == viewer->participant_id)
            return &v->parts[i];
    return NULL;
}

static void deadlines(const game_view *v, const dj_signon *viewer,
                      dj_power_table *t)
{
    snprintf(t->zone, sizeof t->zone, "%s", v->g.zone);
    if (!t->current || !v->phase.deadline)
        return;
    t->deadline = v->phase.deadline;
    t->late = v->phase.late_at != 0;
    dj_buf b;
    dj_buf_init(&b);
    gv_time(v, t->deadline, &b);
    snprintf(t->deadline_game, sizeof t->deadline_game, "%s",
             dj_buf_ok(&b) ? b.data : "");
    const dj_participant_rec *p = viewer_part(v, viewer);
    if (p && p->zone[0] && strcmp(p->zone, v->g.zone) != 0) {
        dj_zone *z = malloc(sizeof *z);
        char why[128];
        if (z && dj_zone_load(p->zone, z, why, sizeof why) == 0) {
            dj_buf_reset(&b);
            dj_time_format(z, t->deadline, &b);
            snprintf(t->own_zone, sizeof t->own_zone, "%s", p->zone);
            snprintf(t->deadline_own, sizeof t->deadline_own, "%s",
                     dj_buf_ok(&b) ? b.data : "");
        }
        free(z);
    }
    dj_buf_free(&b);
}

static int do_table(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    (void)out;
    const table_arg *a = arg;
    dj_power_table *t = a->t;
    const dj_signon *viewer = a->viewer;
    bool master = viewer && strcmp(viewer->role, "master") == 0;
    t->current = v->has_phase && strcmp(v->phase.status, "current") == 0;
    if (v->has_phase)
        dj_map_phase_format(v->map, v->pos->phase.season, v->pos->phase.year,
                            v->pos->phase.type, t->phase_long,
                            sizeof t->phase_long);
    deadlines(v, viewer, t);
    order_set *set = NULL;
    if (t->current) {
        set = malloc(sizeof *set);
        if (!set)
            return judge_fail(j, "out of memory");
        if (gv_orders_load(j, v, &v->phase, set) < 0) {
            free(set);
            return -1;
        }
    }
    t->npowers = v->map->npowers < DJ_MAX_POWERS ? v->map->npowers
                                                 : DJ_MAX_POWERS;
    for (int p = 0; p < t->npowers; p++) {
        dj_power_row *r = &t->row[p];
        const dj_participant_rec *pl = gv_player(v, p);
        snprintf(r->power, sizeof r->power, "%s", gv_power_name(v, p));
        /* the one function that names players to anyone (audience.c);
         * the master too is shown names, never addresses, on a page */
        snprintf(r->player, sizeof r->player, "%s",
                 !pl             ? "(open)"
                 : !pl->email[0] ? "(dummy)"
                                 : dj_game_player_shown(&v->g, viewer, pl,
                                                        "(a player)"));
        snprintf(r->status, sizeof r->status, "%s", pl ? pl->status : "-");
        r->own = viewer && viewer->power == p;
        r->given = r->needed = r->ready = -1;
        if (v->has_phase) {
            r->centres = dj_position_centres(v->map, v->pos, p);
            r->units = dj_position_units(v->pos, p);
        }
        if (!t->current)
            continue;
        bool knows = master || r->own;
        if (!gv_power_must_order(v->map, v->pos, p)) {
            r->orders = DJ_POWER_ORDERS_NONE_NEEDED;
        } else if (v->g.hide_late && !knows) {
            /* hide_late = yes: whose orders are missing is the power's
             * and the master's business only */
            r->orders = DJ_POWER_ORDERS_HIDDEN;
        } else {
            r->orders = gv_orders_complete(v->map, v->pos, p, set)
                            ? DJ_POWER_ORDERS_IN
                        : gv_in_disorder(v, p) ? DJ_POWER_ORDERS_JUDGE
                                               : DJ_POWER_ORDERS_AWAITED;
        }
        if (knows && gv_power_must_order(v->map, v->pos, p)) {
            int ready = 0, wait = 0;
            gv_power_order_count(v->map, v->pos, p, set, &r->needed,
                                 &r->given);
            if (dj_store_readiness_get(j->store, v->phase.id, p, &ready,
                                       &wait) < 0) {
                free(set);
                return judge_store_fail(j);
            }
            r->ready = ready != 0;
        }
    }
    free(set);
    return 0;
}

int dj_game_power_table(dj_judge *j, const char *game,
                        const dj_signon *viewer, dj_power_table *t)
{
    memset(t, 0, sizeof *t);
    table_arg a = {viewer, t};
    if (viewer && strcasecmp(viewer->game, game) != 0)
        a.viewer = NULL;
    dj_buf out;
    dj_buf_init(&out);
    int rc = gv_with_game_read(j, game, do_table, &a, &out);
    dj_buf_free(&out);
    return rc;
}
