/* SPDX-License-Identifier: MIT */
/*
 * picture.c — a game's pictures: finds the board's geometry beside its
 * map, the phase asked for, its position and (once processed) its orders
 * and how they went, and hands them to the renderer room.  A phase played
 * is drawn as the board it left with its orders and results over it (the
 * picture its results mail carries); the current phase as its position,
 * its orders being secret until processed (the administrator may ask for
 * them: judgectl map --orders).
 *
 * Pictures are derived data: dj_game_phase_picture() is the one way to
 * the picture of a phase as players see it, taken from the cache on disk
 * (picture_cache.c) or drawn and kept there; the results mail, MAP,
 * `judgectl map` and the web all come through it, and the board alone
 * (the web's board.svg, `judgectl map --no-orders`) is cached the same
 * way: the web keeps no pictures of its own.  Nothing here writes a
 * picture to the database: mail names the phase and format, and the
 * sender asks for the bytes as it goes.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/blind.h"
#include "game/game.h"
#include "game/game_int.h"
#include "game/pictures.h"
#include "game/process.h"
#include "game/signon.h"
#include "game/snapshot.h"
#include "render/render.h"
#include "store/mail.h"

int gv_game_draw(dj_judge *j, const game_view *v, const dj_position *pos,
              const dj_order *orders, int norders, const dj_result *res,
              int format, dj_picture *out)
{
    char why[512];
    const dj_geo *geo = judge_geo(j, v->g.map);
    if (!geo)
        return -1;
    char phase[64], title[256];
    dj_map_phase_format(v->map, pos->phase.season, pos->phase.year,
                        pos->phase.type, phase, sizeof phase);
    snprintf(title, sizeof title, "Game %s: %s%s", v->g.name, phase,
             orders ? (res ? ", orders and results, the board after"
                           : ", orders")
                    : "");
    dj_blind_view *view = NULL;
    if (v->blinded) { /* a blind game: the viewer's view (blind.h) */
        view = malloc(sizeof *view);
        if (!view)
            return judge_fail(j, "out of memory");
        if (res) {
            dj_blind_results(v->map, pos, orders, norders, res, v->viewer,
                             view);
            orders = view->orders;
            norders = view->norders;
            res = &view->res;
        } else {
            dj_blind_position(v->map, pos, v->viewer, &view->before);
            if (orders) {
                /* orders of the current phase: the viewer's own only */
                int n = 0;
                for (int k = 0; k < norders && n < DJ_MAX_ORDERS; k++)
                    if (orders[k].power == v->viewer)
                        view->orders[n++] = orders[k];
                orders = view->orders;
                norders = n;
            }
        }
        pos = &view->before;
    }
    dj_picture_request rq = {v->map, geo, pos, orders, norders, res, title,
                             orders && res ? &res->next : NULL};
    int rc = dj_render_picture(&rq, (dj_picture_format)format, out, why,
                               sizeof why);
    free(view);
    if (rc < 0)
        return judge_fail(j, "game '%s': %s", v->g.name, why);
    return 0;
}

/* Has the phase been adjudicated (it has results)?  1, 0, or -1. */
static int phase_played(dj_judge *j, int64_t phase_id)
{
    dj_result_rec r;
    int rc = dj_store_result_get(j->store, phase_id, &r);
    if (rc == 0) {
        dj_result_rec_free(&r);
        return 1;
    }
    return rc == DJ_STORE_NOTFOUND ? 0 : judge_store_fail(j);
}

/* The live phase of that name, or the current one. */
static int find_phase(dj_judge *j, const game_view *v, const char *name,
                      dj_phase_rec *out)
{
    dj_phase_rec *list = NULL;
    int n = 0, found = -1;
    if (dj_store_phase_list(j->store, v->g.id, &list, &n) < 0)
        return judge_store_fail(j);
    for (int i = 0; i < n; i++)
        if (name ? strcasecmp(list[i].name, name) == 0
                 : strcmp(list[i].status, "done") != 0)
            found = i;
    if (found < 0 && !name && n > 0)
        found = n - 1;
    if (found < 0) {
        dj_phase_recs_free(list, n);
        return name ? judge_fail(j, "game '%s' has no phase %s", v->g.name,
                                 name)
                    : judge_fail(j, "game '%s' has not started", v->g.name);
    }
    *out = list[found];
    list[found].position = NULL;
    dj_phase_recs_free(list, n);
    return 0;
}

/*
 * Draw a phase: with its orders (and, once played, their results and the
 * board after it) when `orders` is true, else its position alone.
 */
static int draw_phase(dj_judge *j, game_view *v, const dj_phase_rec *ph,
                      bool orders, bool played, int format, dj_picture *out)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_result *res = malloc(sizeof *res);
    order_set *set = malloc(sizeof *set);
    char why[512];
    int rc = -1;
    if (!pos || !res || !set) {
        judge_fail(j, "out of memory");
        goto done;
    }
    if (dj_snapshot_read(v->map, ph->position, pos, why, sizeof why) < 0) {
        judge_fail(j, "game '%s', phase %s: %s", v->g.name, ph->name, why);
        goto done;
    }
    if (!orders) {
        rc = gv_game_draw(j, v, pos, NULL, 0, NULL, format, out);
        goto done;
    }
    if (gv_orders_load(j, v, ph, set) < 0)
        goto done;
    const dj_result *shown = NULL;
    if (played) {
        /* Adjudicated again as it was: the engine is a pure function. */
        for (int p = 0; p < v->map->npowers; p++)
            if (gv_power_must_order(v->map, pos, p) && !set->has[p])
                pos->civil_disorder |= DJ_POWER_BIT(p);
        if (dj_adjudicate_with(dj_game_engine(&v->g), v->map, pos,
                               set->orders, set->n, &v->rules, res) < 0) {
            judge_fail(j, "game '%s': the orders of %s are malformed",
                       v->g.name, ph->name);
            goto done;
        }
        shown = res;
    }
    rc = gv_game_draw(j, v, pos, set->orders, set->n, shown, format, out);
done:
    free(pos);
    free(res);
    free(set);
    return rc;
}

/*
 * The picture of a phase as players see it (orders drawn once it is
 * played), or with `board_only` its position alone, from the cache or
 * drawn and cached.  The board alone is keyed as the phase before it was
 * played, whose picture it is: one file for both.
 */
static int phase_picture(dj_judge *j, game_view *v, const dj_phase_rec *ph,
                         int format, bool board_only, dj_picture *out)
{
    int played = board_only ? 0 : phase_played(j, ph->id);
    if (played < 0)
        return -1;
    char geo_path[DJ_PATH_MAX + 80], path[DJ_PATH_MAX + 200];
    const char *fmt = dj_picture_format_name((dj_picture_format)format);
    uint64_t key;
    bool cached = judge_geo_path(j, v->g.map, geo_path, sizeof geo_path) == 0;
    if (cached && gv_picture_cache_key(j, v, ph, played, geo_path, fmt, &key) < 0)
        return -1;
    cached = cached &&
             gv_picture_cache_path(j, v, ph, fmt, key, path, sizeof path) == 0;
    if (cached && gv_picture_cache_read(path, out) == 0)
        return 0;
    if (draw_phase(j, v, ph, played, played, format, out) < 0)
        return -1;
    if (cached)
        gv_picture_cache_write(path, out);
    return 0;
}

typedef struct picture_request {
    const char *phase;
    int orders; /* -1: as players see it, 0: the board alone (both cached) */
    int format;
    dj_picture *out;
} picture_request;

static int do_picture(dj_judge *j, game_view *v, void *arg)
{
    picture_request *r = arg;
    dj_phase_rec ph;
    if (find_phase(j, v, r->phase, &ph) < 0)
        return -1;
    int rc;
    if (r->orders <= 0) {
        rc = phase_picture(j, v, &ph, r->format, r->orders == 0, r->out);
    } else {
        int played = phase_played(j, ph.id);
        rc = played < 0 ? -1
                        : draw_phase(j, v, &ph, r->orders, played, r->format,
                                     r->out);
    }
    dj_phase_rec_free(&ph);
    return rc;
}

static int check_format(dj_judge *j, int format, dj_picture *out)
{
    out->data = NULL;
    out->len = 0;
    if (format < 0 || format >= DJ_PICTURE_NONE)
        return judge_fail(j, "no such picture format");
    return 0;
}

int dj_game_picture(dj_judge *j, const char *game, const char *phase,
                    int orders, int format, dj_picture *out)
{
    if (check_format(j, format, out) < 0)
        return -1;
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    picture_request r = {phase, orders, format, out};
    int rc = gv_load(j, game, &v);
    if (rc == 0) {
        gv_view_reader(j, &v); /* a blind game: the reader's view */
        rc = do_picture(j, &v, &r);
    }
    dj_store_rollback(j->store);
    gv_free(&v);
    return rc;
}

int dj_game_phase_picture(dj_judge *j, int64_t phase_id, int format,
                          dj_picture *out, char *name, size_t namelen)
{
    return dj_game_phase_picture_to(j, phase_id, format, NULL, out, name,
                                    namelen);
}

int dj_game_phase_picture_to(dj_judge *j, int64_t phase_id, int format,
                             const char *recipients, dj_picture *out,
                             char *name, size_t namelen)
{
    if (check_format(j, format, out) < 0)
        return -1;
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    dj_phase_rec ph;
    memset(&ph, 0, sizeof ph);
    dj_game_rec g;
    game_view v;
    bool loaded = false;
    int rc = dj_store_phase_get(j->store, phase_id, &ph);
    if (rc == DJ_STORE_NOTFOUND)
        rc = judge_fail(j, "no phase %lld", (long long)phase_id);
    else if (rc < 0)
        rc = judge_store_fail(j);
    if (rc == 0) {
        rc = dj_store_game_get_id(j->store, ph.game_id, &g);
        if (rc < 0)
            rc = rc == DJ_STORE_NOTFOUND
                     ? judge_fail(j, "phase %lld has no game",
                                  (long long)phase_id)
                     : judge_store_fail(j);
    }
    if (rc == 0) {
        rc = gv_load(j, g.name, &v);
        loaded = rc == 0;
    }
    if (rc == 0 && recipients) /* blind games: the reader's own view */
        gv_view(&v, gv_viewer_of_address(&v, recipients));
    if (rc == 0)
        rc = phase_picture(j, &v, &ph, format, false, out);
    if (rc == 0)
        snprintf(name, namelen, "%s-%s.%s", v.g.name, ph.name,
                 dj_picture_format_name((dj_picture_format)format));
    dj_store_rollback(j->store);
    if (loaded)
        gv_free(&v);
    dj_phase_rec_free(&ph);
    return rc;
}

/* ---- pictures in mail ------------------------------------------------------- */

/* The format a participant's mail carries: their SET MAP, else the
 * game's map_attachment. */
static dj_picture_format format_for(const game_view *v,
                                    const dj_participant_rec *p)
{
    const char *want = p && p->map_format[0] ? p->map_format
                       : v->g.map_attachment[0] ? v->g.map_attachment
                                                : "png";
    int f = dj_picture_format_from_name(want);
    return f < 0 ? DJ_PICTURE_PNG : (dj_picture_format)f;
}

/* The picture of this phase in format f, for a mail. */
static void picture_ref(int64_t phase_id, dj_picture_format f,
                        dj_picture_ref *ref)
{
    ref->phase_id = phase_id;
    snprintf(ref->format, sizeof ref->format, "%s", dj_picture_format_name(f));
}

typedef struct results_pictures {
    const game_view *v;
    bool has_geometry;
} results_pictures;

static int results_picture(void *ctx, const dj_participant_rec *p,
                           dj_picture_ref *ref)
{
    const results_pictures *r = ctx;
    dj_picture_format f = format_for(r->v, p);
    if (r->has_geometry && f != DJ_PICTURE_NONE)
        picture_ref(r->v->phase.id, f, ref);
    return 0;
}

int gv_mail_results(dj_judge *j, const game_view *v, const char *subject,
                    const char *body)
{
    return gv_mail_results_each(j, v, subject, body, NULL, NULL);
}

int gv_mail_results_each(dj_judge *j, const game_view *v, const char *subject,
                         const char *body, gv_body_fn bodyfn, void *bctx)
{
    char geo_path[DJ_PATH_MAX + 80];
    results_pictures r = {v, judge_geo_path(j, v->g.map, geo_path, sizeof geo_path) == 0};
    return gv_mail_all_bodies(j, v, v->phase.id, "results", subject, body,
                              DJ_ALL_POWERS, true, results_picture, &r,
                              bodyfn, bctx);
}

/* MAP by mail: in the caller's transaction (the command's). */
typedef struct mail_map_arg {
    const char *phase;
    const dj_signon *id;
    dj_picture_ref *picture;
} mail_map_arg;

static int do_map_for_mail(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const mail_map_arg *a = arg;
    const dj_participant_rec *me = NULL;
    for (int i = 0; a->id && i < v->nparts; i++)
        if (v->parts[i].id == a->id->participant_id)
            me = &v->parts[i];
    dj_picture_format f = format_for(v, me);
    if (f == DJ_PICTURE_NONE)
        f = DJ_PICTURE_PNG; /* asked for: "none" is for results mail */
    char geo_path[DJ_PATH_MAX + 80];
    if (judge_geo_path(j, v->g.map, geo_path, sizeof geo_path) < 0)
        return judge_fail(j, "the %s board has no picture yet", v->g.map);
    dj_phase_rec ph;
    if (find_phase(j, v, a->phase, &ph) < 0)
        return -1;
    picture_ref(ph.id, f, a->picture);
    dj_buf_printf(out, "%s: the map of %s is attached (%s-%s.%s)\n",
                  v->g.name, ph.name, v->g.name, ph.name,
                  dj_picture_format_name(f));
    dj_phase_rec_free(&ph);
    return 0;
}

int dj_game_map_for_mail(dj_judge *j, const char *game, const char *phase,
                         const dj_signon *id, dj_picture_ref *picture,
                         dj_buf *out)
{
    memset(picture, 0, sizeof *picture);
    mail_map_arg a = {phase, id, picture};
    return gv_with_game(j, game, do_map_for_mail, &a, out);
}
