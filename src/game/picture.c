/*
 * picture.c — a game's pictures: finds the board's geometry beside its
 * map, the phase asked for, its position and (once processed) its orders
 * and how they went, and hands them to the renderer room.  Orders of the
 * current phase are secret until it is processed: they are drawn only
 * when the administrator asks for them (judgectl map --orders).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/game_int.h"
#include "game/snapshot.h"
#include "render/render.h"

int game_draw(dj_judge *j, const game_view *v, const dj_position *pos,
              const dj_order *orders, int norders, const dj_result *res,
              int format, dj_picture *out)
{
    char path[DJ_PATH_MAX + 80], geo_path[DJ_PATH_MAX + 80], why[512];
    snprintf(path, sizeof path, "%s/%s.map", j->maps_dir, v->g.map);
    if (dj_geo_find(path, geo_path, sizeof geo_path) < 0)
        return judge_fail(j, "map '%s' has no geometry file for pictures",
                          v->g.map);
    dj_geo *geo = dj_geo_load(geo_path, v->map, why, sizeof why);
    if (!geo)
        return judge_fail(j, "%s", why);
    char phase[64], title[256];
    dj_phase_format(pos->phase, phase, sizeof phase);
    snprintf(title, sizeof title, "Game %s: %s%s", v->g.name, phase,
             orders ? (res ? ", orders and results" : ", orders") : "");
    dj_picture_request rq = {v->map, geo, pos, orders, norders, res, title};
    int rc = dj_render_picture(&rq, (dj_picture_format)format, out, why,
                               sizeof why);
    dj_geo_free(geo);
    if (rc < 0)
        return judge_fail(j, "game '%s': %s", v->g.name, why);
    return 0;
}

typedef struct picture_request {
    const char *phase;
    int orders; /* -1: when the phase is processed */
    int format;
    dj_picture *out;
} picture_request;

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

static int do_picture(dj_judge *j, game_view *v, void *arg)
{
    picture_request *r = arg;
    dj_phase_rec ph;
    if (find_phase(j, v, r->phase, &ph) < 0)
        return -1;
    dj_position *pos = malloc(sizeof *pos);
    dj_result *res = malloc(sizeof *res);
    order_set *set = malloc(sizeof *set);
    char why[512];
    int rc = -1;
    if (!pos || !res || !set) {
        judge_fail(j, "out of memory");
        goto done;
    }
    if (dj_snapshot_read(v->map, ph.position, pos, why, sizeof why) < 0) {
        judge_fail(j, "game '%s', phase %s: %s", v->g.name, ph.name, why);
        goto done;
    }
    bool processed = strcmp(ph.status, "done") == 0;
    bool orders = r->orders < 0 ? processed : r->orders;
    if (!orders) {
        rc = game_draw(j, v, pos, NULL, 0, NULL, r->format, r->out);
        goto done;
    }
    if (orders_load(j, v, ph.id, set) < 0)
        goto done;
    const dj_result *shown = NULL;
    if (processed) {
        /* Adjudicated again as it was: the engine is a pure function. */
        for (int p = 0; p < v->map->npowers; p++)
            if (power_must_order(v->map, pos, p) && !set->has[p])
                pos->civil_disorder |= DJ_POWER_BIT(p);
        if (dj_adjudicate_with(dj_game_engine(&v->g), v->map, pos,
                               set->orders, set->n, &v->rules, res) < 0) {
            judge_fail(j, "game '%s': the orders of %s are malformed",
                       v->g.name, ph.name);
            goto done;
        }
        shown = res;
    }
    rc = game_draw(j, v, pos, set->orders, set->n, shown, r->format, r->out);
done:
    free(pos);
    free(res);
    free(set);
    dj_phase_rec_free(&ph);
    return rc;
}

int dj_game_picture(dj_judge *j, const char *game, const char *phase,
                    int orders, int format, dj_picture *out)
{
    out->data = NULL;
    out->len = 0;
    if (format < 0 || format >= DJ_PICTURE_NONE)
        return judge_fail(j, "no such picture format");
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    picture_request r = {phase, orders, format, out};
    int rc = gv_load(j, game, &v);
    if (rc == 0)
        rc = do_picture(j, &v, &r);
    dj_store_rollback(j->store);
    gv_free(&v);
    return rc;
}
