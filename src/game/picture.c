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
#include "store/mail.h"

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
    dj_map_phase_format(v->map, pos->phase.season, pos->phase.year,
                        pos->phase.type, phase, sizeof phase);
    snprintf(title, sizeof title, "Game %s: %s%s", v->g.name, phase,
             orders ? (res ? ", orders and results, the board after" : ", orders")
                    : "");
    dj_picture_request rq = {v->map, geo, pos, orders, norders, res, title,
                             orders && res ? &res->next : NULL};
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

/* ---- pictures in mail ------------------------------------------------------- */

/*
 * Draw and store one picture of a phase for mail: its id in *id, 0 (and
 * no error) when the board has no geometry file, -1 on a store error.  A
 * picture that cannot be drawn is not an error either: the mail goes
 * without it, and the judge's log says why.
 */
static int store_picture(dj_judge *j, const game_view *v, int64_t phase_id,
                         const char *phase_name, const dj_position *pos,
                         const dj_order *orders, int norders,
                         const dj_result *res, dj_picture_format format,
                         int64_t *id)
{
    *id = 0;
    char path[DJ_PATH_MAX + 80], geo_path[DJ_PATH_MAX + 80];
    snprintf(path, sizeof path, "%s/%s.map", j->maps_dir, v->g.map);
    if (dj_geo_find(path, geo_path, sizeof geo_path) < 0)
        return 0; /* this board has no picture */
    dj_picture pic;
    if (game_draw(j, v, pos, orders, norders, res, (int)format, &pic) < 0) {
        fprintf(stderr, "dipjudge: game %s, %s: no picture: %s\n",
                v->g.name, phase_name, j->err);
        j->err[0] = '\0';
        return 0;
    }
    char filename[128];
    snprintf(filename, sizeof filename, "%s-%s.%s", v->g.name, phase_name,
             dj_picture_format_name(format));
    int rc = dj_store_picture_add(j->store, phase_id, filename,
                                  dj_picture_mime_type(format), pic.data,
                                  pic.len, id);
    dj_picture_free(&pic);
    return rc < 0 ? judge_store_fail(j) : 0;
}

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

typedef struct results_pictures {
    dj_judge *j;
    const game_view *v;
    const dj_position *before;
    const dj_order *orders;
    int norders;
    const dj_result *res;
    int64_t id[DJ_PICTURE_NONE];
    bool drawn[DJ_PICTURE_NONE];
} results_pictures;

/* One drawing per format, whoever asks for it first. */
static int64_t results_picture(void *ctx, const dj_participant_rec *p)
{
    results_pictures *r = ctx;
    dj_picture_format f = format_for(r->v, p);
    if (f == DJ_PICTURE_NONE)
        return 0;
    if (!r->drawn[f]) {
        r->drawn[f] = true;
        if (store_picture(r->j, r->v, r->v->phase.id, r->v->phase.name,
                          r->before, r->orders, r->norders, r->res, f,
                          &r->id[f]) < 0)
            return -1;
    }
    return r->id[f];
}

int gv_mail_results(dj_judge *j, const game_view *v, const char *subject,
                    const char *body, const dj_position *before,
                    const dj_order *orders, int norders, const dj_result *res)
{
    results_pictures r = {j, v, before, orders, norders, res, {0}, {0}};
    return gv_mail_all_pictured(j, v, v->phase.id, "results", subject, body,
                                DJ_ALL_POWERS, true, results_picture, &r);
}

/* MAP by mail: in the caller's transaction (the command's). */
typedef struct mail_map_arg {
    const char *phase;
    const dj_signon *id;
    int64_t *picture_id;
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
    char path[DJ_PATH_MAX + 80], geo_path[DJ_PATH_MAX + 80];
    snprintf(path, sizeof path, "%s/%s.map", j->maps_dir, v->g.map);
    if (dj_geo_find(path, geo_path, sizeof geo_path) < 0)
        return judge_fail(j, "the %s board has no picture yet", v->g.map);
    dj_picture pic;
    picture_request r = {a->phase, -1, (int)f, &pic};
    dj_phase_rec ph;
    if (find_phase(j, v, a->phase, &ph) < 0)
        return -1;
    char name[16];
    snprintf(name, sizeof name, "%s", ph.name);
    dj_phase_rec_free(&ph);
    r.phase = name;
    if (do_picture(j, v, &r) < 0)
        return -1;
    char filename[128];
    snprintf(filename, sizeof filename, "%s-%s.%s", v->g.name, name,
             dj_picture_format_name(f));
    /* No phase: the picture goes once its reply is sent (schema.c). */
    int rc = dj_store_picture_add(j->store, 0, filename,
                                  dj_picture_mime_type(f), pic.data, pic.len,
                                  a->picture_id);
    dj_picture_free(&pic);
    if (rc < 0)
        return judge_store_fail(j);
    dj_buf_printf(out, "%s: the map of %s is attached (%s)\n", v->g.name, name,
                  filename);
    return 0;
}

int dj_game_map_for_mail(dj_judge *j, const char *game, const char *phase,
                         const dj_signon *id, int64_t *picture_id,
                         dj_buf *out)
{
    *picture_id = 0;
    mail_map_arg a = {phase, id, picture_id};
    return gv_with_game(j, game, do_map_for_mail, &a, out);
}
