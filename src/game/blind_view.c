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
#include "game/report.h"

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
