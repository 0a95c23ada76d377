/* SPDX-License-Identifier: MIT */
/*
 * blind_view.c — who sees what of a blind game (blind = yes), for the
 * game room's outputs: the viewer a participant or mail address is, the
 * view a loaded game shows (pictures draw it, the web and the JSON read
 * it), and the results mail, one copy per reader rendered from that
 * reader's view.  The rule itself is blind.c's; here is only who gets
 * which view: the master (and every reader of a game that is not blind
 * or is over) everything, a player its power's, observers and the public
 * nothing.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/blind.h"
#include "game/game_int.h"
#include "game/process.h"
#include "game/report.h"
#include "game/snapshot.h"

static bool everything(const game_view *v)
{
    return !v->g.blind || strcmp(v->g.state, "finished") == 0;
}

int gv_viewer(const game_view *v, const dj_participant_rec *p)
{
    if (everything(v))
        return DJ_BLIND_ALL;
    if (!p)
        return DJ_BLIND_NONE;
    if (strcmp(p->role, "master") == 0)
        return DJ_BLIND_ALL;
    if (strcmp(p->role, "player") == 0 && p->power >= 0 &&
        p->power < v->map->npowers)
        return p->power;
    return DJ_BLIND_NONE;
}

int gv_viewer_of_address(const game_view *v, const char *address)
{
    /* a list of addresses: the first one's (mail is queued one reader a row) */
    if (everything(v))
        return DJ_BLIND_ALL;
    int viewer = DJ_BLIND_NONE;
    size_t alen = address ? strcspn(address, ",") : 0;
    for (int i = 0; address && i < v->nparts; i++) {
        const dj_participant_rec *p = &v->parts[i];
        if (strlen(p->email) != alen ||
            strncasecmp(p->email, address, alen) != 0 ||
            strcmp(p->status, "resigned") == 0 ||
            strcmp(p->status, "replaced") == 0)
            continue;
        int w = gv_viewer(v, p);
        if (w == DJ_BLIND_ALL)
            return w;
        if (w >= 0)
            viewer = w;
    }
    return viewer;
}

void gv_view(game_view *v, int viewer)
{
    v->blinded = !everything(v) && viewer != DJ_BLIND_ALL;
    v->viewer = v->blinded ? viewer : DJ_BLIND_ALL;
}

typedef struct blind_mail {
    dj_judge *j;
    const game_view *v;
    const dj_position *before;
    const dj_order *orders;
    int norders;
    const dj_result *res;
    const dj_report_info *info;
    const char *tail;
    dj_blind_view *view; /* one, reused for every copy */
} blind_mail;

static int blind_body(void *ctx, const dj_participant_rec *p, dj_buf *out)
{
    blind_mail *b = ctx;
    int viewer = gv_viewer(b->v, p);
    dj_blind_results(b->v->map, b->before, b->orders, b->norders, b->res,
                     viewer, b->view);
    if (dj_report_results(b->v->map, &b->view->before, b->view->orders,
                          b->view->norders, &b->view->res, b->info,
                          out) < 0)
        return judge_fail(b->j, "out of memory");
    dj_buf_append(out, b->tail);
    return 0;
}

int gv_mail_results_blind(dj_judge *j, const game_view *v,
                          const char *subject, const dj_position *before,
                          const dj_order *orders, int norders,
                          const dj_result *res,
                          const struct dj_report_info *info,
                          const char *tail)
{
    blind_mail b = {j, v, before, orders, norders, res, info, tail,
                    malloc(sizeof(dj_blind_view))};
    if (!b.view)
        return judge_fail(j, "out of memory");
    int rc = gv_mail_results_each(j, v, subject, NULL, blind_body, &b);
    free(b.view);
    return rc;
}

/* ---- reads shown to somebody ------------------------------------------------ */

void dj_game_read_as(dj_judge *j, const dj_signon *id)
{
    j->reader = id && id->participant_id > 0 ? 1 : 2;
    j->reader_pid = id ? id->participant_id : 0;
}

void dj_game_read_all(dj_judge *j)
{
    j->reader = 0;
    j->reader_pid = 0;
}

void gv_view_reader(const dj_judge *j, game_view *v)
{
    if (j->reader == 0) {
        gv_view(v, DJ_BLIND_ALL);
        return;
    }
    const dj_participant_rec *me = NULL;
    for (int i = 0; j->reader == 1 && i < v->nparts; i++)
        if (v->parts[i].id == j->reader_pid &&
            strcmp(v->parts[i].status, "resigned") != 0 &&
            strcmp(v->parts[i].status, "replaced") != 0)
            me = &v->parts[i];
    gv_view(v, gv_viewer(v, me));
}

int gv_blind_phase_results(dj_judge *j, const game_view *v,
                           const dj_phase_rec *ph, dj_buf *out)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_result *res = malloc(sizeof *res);
    order_set *set = malloc(sizeof *set);
    dj_blind_view *view = malloc(sizeof *view);
    char why[256];
    int rc = -1;
    if (!pos || !res || !set || !view) {
        judge_fail(j, "out of memory");
        goto done;
    }
    if (dj_snapshot_read(v->map, ph->position, pos, why, sizeof why) < 0) {
        judge_fail(j, "game '%s', phase %s: %s", v->g.name, ph->name, why);
        goto done;
    }
    if (gv_orders_load(j, v, ph, set) < 0)
        goto done;
    /* adjudicated again as it was (picture.c does the same) */
    for (int p = 0; p < v->map->npowers; p++)
        if (gv_power_must_order(v->map, pos, p) && !set->has[p])
            pos->civil_disorder |= DJ_POWER_BIT(p);
    if (dj_adjudicate_with(dj_game_engine(&v->g), v->map, pos, set->orders,
                           set->n, &v->rules, res) < 0) {
        judge_fail(j, "game '%s': the orders of %s are malformed", v->g.name,
                   ph->name);
        goto done;
    }
    dj_blind_results(v->map, pos, set->orders, set->n, res, v->viewer, view);
    dj_report_info info = {j->cfg.judge_name, v->g.name, v->g.map, NULL,
                           false, NULL};
    rc = dj_report_results(v->map, &view->before, view->orders,
                           view->norders, &view->res, &info, out) < 0
             ? judge_fail(j, "out of memory")
             : 0;
done:
    free(pos);
    free(res);
    free(set);
    free(view);
    return rc;
}
