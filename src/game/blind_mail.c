/* SPDX-License-Identifier: MIT */
/*
 * blind_mail.c — a blind game's results as one reader sees them: the
 * results mail, one copy per reader rendered from that reader's view
 * (blind.c), and a played phase's results for HISTORY and the web,
 * adjudicated again from its orders and rendered from the view.  Who
 * gets which view is blind_view.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "game/blind.h"
#include "game/game_int.h"
#include "game/process.h"
#include "game/report.h"
#include "game/snapshot.h"

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
