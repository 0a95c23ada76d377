/* SPDX-License-Identifier: MIT */
/*
 * context.c — the session (dj_judge) and loading a game for an operation
 * (a session is opened in open.c).
 *
 * A session caches the maps it reads (a game names its map; a tick over
 * many games reads each map file once).  Loading a game (gv_load) reads
 * its row, builds its rules (defaults, the map's RULE lines, the game's
 * overrides), its schedule and zone, its current phase and position and
 * its participants, so that each operation starts from one consistent
 * picture taken inside its transaction.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "engine/rules_map.h"
#include "game/game.h"
#include "game/game_int.h"
#include "game/pictures.h"
#include "game/player_options_int.h"
#include "game/report.h"
#include "game/signon.h"
#include "game/snapshot.h"
#include "store/mail.h"
#include "util/fmt.h"

int judge_fail(dj_judge *j, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt(j->err, sizeof j->err, fmt, ap);
    va_end(ap);
    return -1;
}

int judge_store_fail(dj_judge *j)
{
    return judge_fail(j, "%s", dj_store_error(j->store));
}

void dj_judge_close(dj_judge *j)
{
    if (!j)
        return;
    for (int i = 0; i < j->nmaps; i++) {
        dj_geo_free(j->maps[i].geo);
        dj_map_free(j->maps[i].map);
    }
    dj_store_close(j->store);
    gv_signon_memo_free(j->memo);
    free(j);
}

const char *dj_judge_error(const dj_judge *j)
{
    return j->err[0] ? j->err : "unknown error";
}

dj_store *dj_judge_store(dj_judge *j)
{
    return j->store;
}

void dj_judge_set_now(dj_judge *j, int64_t now)
{
    j->now = now;
}

int64_t dj_judge_now(const dj_judge *j)
{
    return j->now;
}

void dj_judge_set_verifier_hook(dj_judge *j, dj_verifier_hook hook)
{
    j->verifier_hook = hook;
}

void dj_judge_set_sender_class(dj_judge *j, dj_sender_class c)
{
    j->sender_class = c;
}

dj_sender_class dj_judge_sender_class(const dj_judge *j)
{
    return j->sender_class;
}

const char *dj_sender_class_name(dj_sender_class c)
{
    switch (c) {
    case DJ_SENDER_AUTHENTICATED:
        return "authenticated";
    case DJ_SENDER_FORGED:
        return "forged";
    case DJ_SENDER_WEB:
        return "web";
    case DJ_SENDER_UNKNOWN:
        break;
    }
    return "unknown";
}

const char *dj_identity_how_name(dj_identity_how h)
{
    switch (h) {
    case DJ_BY_TOKEN:
        return "reply token";
    case DJ_BY_PASSWORD:
        return "password";
    case DJ_BY_WEB:
        return "web";
    case DJ_BY_NONE:
        break;
    }
    return "none";
}

void dj_judge_set_actor(dj_judge *j, const char *actor)
{
    snprintf(j->actor, sizeof j->actor, "%s", actor ? actor : "");
}

const char *dj_judge_actor(const dj_judge *j)
{
    return j->actor;
}

const dj_config *dj_judge_config(const dj_judge *j)
{
    return &j->cfg;
}

/* Map names are file names: letters, digits, '_' and '-' only. */
static bool map_name_ok(const char *name)
{
    if (!*name || strlen(name) >= 64)
        return false;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
            return false;
    return true;
}

/* A loader's reason without the judge's folder ("standard.map:12: ..."):
 * the server's paths are no business of a player's, who reads the
 * reason in a reply. */
static void without_maps_dir(const dj_judge *j, char *why)
{
    size_t dl = strlen(j->maps_dir);
    for (char *p = dl ? strstr(why, j->maps_dir) : NULL; p;
         p = strstr(p, j->maps_dir)) {
        size_t cut = dl + (p[dl] == '/');
        memmove(p, p + cut, strlen(p + cut) + 1);
    }
}

const dj_map *judge_map(dj_judge *j, const char *name)
{
    for (int i = 0; i < j->nmaps; i++)
        if (strcmp(j->maps[i].name, name) == 0)
            return j->maps[i].map;
    if (!map_name_ok(name)) {
        judge_fail(j, "bad map name '%s'", name);
        return NULL;
    }
    char path[DJ_PATH_MAX + 80], why[512];
    snprintf(path, sizeof path, "%s/%s.map", j->maps_dir, name);
    if (access(path, R_OK) != 0) {
        /* the judge's folders are no business of a player's */
        judge_fail(j, "this judge has no map '%s' (judgectl maps lists "
                      "them)", name);
        return NULL;
    }
    dj_map *map = dj_map_load(path, why, sizeof why);
    if (!map) {
        without_maps_dir(j, why);
        judge_fail(j, "cannot load map '%s': %s", name, why);
        return NULL;
    }
    if (j->nmaps == JUDGE_MAX_MAPS) {
        dj_geo_free(j->maps[0].geo);
        dj_map_free(j->maps[0].map);
        memmove(&j->maps[0], &j->maps[1],
                sizeof j->maps[0] * (JUDGE_MAX_MAPS - 1));
        j->nmaps--;
    }
    snprintf(j->maps[j->nmaps].name, sizeof j->maps[j->nmaps].name, "%s",
             name);
    j->maps[j->nmaps].geo = NULL;
    j->maps[j->nmaps++].map = map;
    return map;
}

int judge_geo_path(const dj_judge *j, const char *name, char *out,
                   size_t len)
{
    char path[DJ_PATH_MAX + 80];
    snprintf(path, sizeof path, "%s/%s.map", j->maps_dir, name);
    if (dj_geo_find(path, out, len) == 0)
        return 0;
    /* no geography: the schematic, drawn from the map file itself */
    int n = snprintf(out, len, "%s", path);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

const dj_geo *judge_geo(dj_judge *j, const char *name)
{
    const dj_map *map = judge_map(j, name);
    if (!map)
        return NULL;
    int i = 0;
    while (j->maps[i].map != map)
        i++;
    if (j->maps[i].geo)
        return j->maps[i].geo;
    char path[DJ_PATH_MAX + 80], why[512];
    snprintf(path, sizeof path, "%s/%s.map", j->maps_dir, name);
    bool schematic;
    j->maps[i].geo = dj_geo_for_map(path, map, &schematic, why, sizeof why);
    if (!j->maps[i].geo) {
        without_maps_dir(j, why);
        judge_fail(j, "%s", why);
    }
    return j->maps[i].geo;
}

/* ---- a game ----------------------------------------------------------------- */

void gv_schedule(const dj_game_rec *g, dj_schedule *s)
{
    dj_schedule_default(s);
    s->delay[DJ_MOVEMENT] = g->move_delay;
    s->delay[DJ_RETREAT] = g->retreat_delay;
    s->delay[DJ_ADJUSTMENT] = g->adjust_delay;
    s->time_of_day = g->time_of_day;
    s->days = (uint8_t)g->days;
    s->grace = g->grace;
    s->absence_limit = g->absence_limit;
    snprintf(s->zone, sizeof s->zone, "%s", g->zone);
}

int gv_rules(dj_judge *j, const dj_map *map, const char *overrides,
             dj_rules *rules)
{
    char copy[DJ_STORE_TEXT_MAX];
    const char *list[DJ_RULE_COUNT * 2];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", overrides);
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w && n < DJ_RULE_COUNT * 2;
         w = strtok_r(NULL, " ", &save))
        list[n++] = w;
    char why[256];
    if (dj_rules_build(map, list, n, rules, NULL, why, sizeof why) < 0)
        return judge_fail(j, "%s", why);
    return 0;
}

void gv_free(game_view *v)
{
    free(v->zone);
    free(v->pos);
    free(v->parts);
    free(v->own_map);
    dj_phase_rec_free(&v->phase);
    memset(v, 0, sizeof *v);
}

int gv_reload_parts(dj_judge *j, game_view *v)
{
    free(v->parts);
    v->parts = NULL;
    v->nparts = 0;
    if (dj_store_participant_list(j->store, v->g.id, &v->parts, &v->nparts) <
        0)
        return judge_store_fail(j);
    for (int p = 0; p < DJ_MAX_POWERS; p++)
        v->player[p] = -1;
    for (int i = 0; i < v->nparts; i++) {
        const dj_participant_rec *p = &v->parts[i];
        if (strcmp(p->role, "player") == 0 && p->power >= 0 &&
            p->power < DJ_MAX_POWERS && strcmp(p->status, "resigned") != 0 &&
            strcmp(p->status, "replaced") != 0)
            v->player[p->power] = i;
    }
    return 0;
}

int gv_game_get(dj_judge *j, const char *name, dj_game_rec *g)
{
    int rc = dj_store_game_get(j->store, name, g);
    if (rc == DJ_STORE_NOTFOUND)
        return judge_fail(j, "game '%s' does not exist", name);
    return rc < 0 ? judge_store_fail(j) : 0;
}

/* A game with its own victory count (victory = N, game_options.h) plays
 * on a copy of its map carrying that count, so every engine, the
 * verifier, the reports and rollbacks use it; v->own_map, freed by
 * gv_free.  A step of gv_load. */
static int victory_map(dj_judge *j, game_view *v)
{
    if (!v->g.victory || v->g.victory == v->map->victory)
        return 0;
    dj_map *copy = malloc(sizeof *copy);
    if (!copy)
        return judge_fail(j, "out of memory");
    /* a shallow copy: its tables stay the session's map's (judge_map) */
    *copy = *v->map;
    copy->victory = v->g.victory;
    v->own_map = copy;
    v->map = copy;
    return 0;
}

int gv_load(dj_judge *j, const char *name, game_view *v)
{
    memset(v, 0, sizeof *v);
    j->err[0] = '\0';
    if (gv_game_get(j, name, &v->g) < 0)
        return -1;
    v->map = judge_map(j, v->g.map);
    if (!v->map)
        return -1;
    if (gv_rules(j, v->map, v->g.rules, &v->rules) < 0 ||
        victory_map(j, v) < 0)
        return -1;
    gv_schedule(&v->g, &v->sched);
    v->zone = malloc(sizeof *v->zone);
    v->pos = malloc(sizeof *v->pos);
    if (!v->zone || !v->pos)
        return judge_fail(j, "out of memory");
    char why[512];
    if (dj_zone_load(v->g.zone, v->zone, why, sizeof why) < 0)
        return judge_fail(j, "game '%s': %s", v->g.name, why);
    int rc = dj_store_phase_open(j->store, v->g.id, &v->phase);
    if (rc < 0)
        return judge_store_fail(j);
    v->has_phase = rc == 0;
    if (v->has_phase &&
        dj_snapshot_read(v->map, v->phase.position, v->pos, why,
                         sizeof why) < 0)
        return judge_fail(j, "game '%s', phase %s: %s", v->g.name,
                          v->phase.name, why);
    return gv_reload_parts(j, v);
}

int gv_with_game(dj_judge *j, const char *game, gv_action_fn fn, void *arg,
                 dj_buf *out)
{
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    dj_buf part;
    dj_buf_init(&part);
    int rc = gv_load(j, game, &v);
    if (rc == 0)
        rc = fn(j, &v, arg, &part);
    if (rc == 0 && dj_store_commit(j->store) < 0)
        rc = judge_store_fail(j);
    if (rc < 0)
        dj_store_rollback(j->store);
    else
        dj_buf_append(out, part.data);
    dj_buf_free(&part);
    gv_free(&v);
    return rc;
}

int gv_with_game_read(dj_judge *j, const char *game, gv_action_fn fn,
                      void *arg, dj_buf *out)
{
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    int rc = gv_load(j, game, &v);
    if (rc == 0) {
        gv_view_reader(j, &v); /* a blind game: the reader's view */
        rc = fn(j, &v, arg, out);
    }
    dj_store_rollback(j->store);
    gv_free(&v);
    return rc;
}

int gv_power(dj_judge *j, const game_view *v, const char *text)
{
    int p = dj_map_find_power(v->map, text);
    if (p < 0)
        p = dj_snapshot_power(v->map, text);
    if (p < 0)
        return judge_fail(j, "no power '%s' on map '%s'", text, v->g.map);
    return p;
}

const char *gv_power_name(const game_view *v, int power)
{
    return v->map->powers[power].name;
}

dj_participant_rec *gv_player(const game_view *v, int power)
{
    if (power < 0 || power >= DJ_MAX_POWERS || v->player[power] < 0)
        return NULL;
    return &v->parts[v->player[power]];
}

bool gv_in_disorder(const game_view *v, int power)
{
    int i = power >= 0 && power < DJ_MAX_POWERS ? v->player[power] : -1;
    return i < 0 || strcmp(v->parts[i].status, "civil-disorder") == 0;
}

int gv_require(dj_judge *j, const game_view *v, const char *states)
{
    char copy[64];
    snprintf(copy, sizeof copy, "%s", states);
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w;
         w = strtok_r(NULL, " ", &save))
        if (strcmp(w, v->g.state) == 0)
            return 0;
    if (strcmp(v->g.state, "finished") == 0)
        return judge_fail(j, "game '%s' is finished", v->g.name);
    return judge_fail(j, "game '%s' is %s", v->g.name, v->g.state);
}

int gv_log(dj_judge *j, const game_view *v, const char *action,
           const char *fmt, ...)
{
    char detail[DJ_STORE_TEXT_MAX];
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt(detail, sizeof detail, fmt, ap);
    va_end(ap);
    if (dj_store_game_log(j->store, v->g.id, j->now, j->actor, action,
                          detail) < 0)
        return judge_store_fail(j);
    return 0;
}

void dj_game_mail_subject(dj_buf *out, const char *judge, const char *game,
                          const char *phase, const char *what)
{
    bool has_game = game && *game;
    bool has_phase = phase && *phase && strcmp(phase, "-") != 0;
    dj_buf_printf(out, "%s%s%s - %s%s%s", judge ? judge : "dipjudge",
                  has_game ? ":" : "", has_game ? game : "",
                  has_phase ? phase : "", has_phase ? " " : "", what);
}

void gv_subject(dj_judge *j, const game_view *v, const char *phase,
                const char *what, dj_buf *out)
{
    dj_game_mail_subject(out, j->cfg.judge_name, v->g.name, phase, what);
}

/* ---- who is still in the game ----------------------------------------------- */

bool gv_is_live(const dj_participant_rec *p)
{
    return strcmp(p->status, "resigned") != 0 &&
           strcmp(p->status, "replaced") != 0;
}

dj_participant_rec *gv_live_participant(dj_judge *j, game_view *v, int64_t pid)
{
    for (int i = 0; i < v->nparts; i++)
        if (v->parts[i].id == pid && gv_is_live(&v->parts[i]))
            return &v->parts[i];
    judge_fail(j, "you are no longer in game '%s'", v->g.name);
    return NULL;
}

int gv_queue_to(dj_judge *j, const game_view *v, const dj_participant_rec *p,
                int64_t phase_id, const char *kind, const char *subject,
                const char *body, const dj_picture_ref *pic, const char *ics)
{
    for (int k = 0; k < gv_address_count(p); k++)
        if (dj_store_outbox_add_calendar(j->store, v->g.id, phase_id, kind,
                                         gv_address_at(p, k), subject, body,
                                         j->now, pic, ics) < 0)
            return judge_store_fail(j);
    return 0;
}

/* Was one of this participant's addresses already given the mail (a
 * master who also plays)? */
static bool mailed_before(const game_view *v, int i, const bool *sent)
{
    for (int k = 0; k < i; k++)
        for (int a = 0; sent[k] && a < gv_address_count(&v->parts[i]); a++)
            if (gv_has_address(&v->parts[k],
                               gv_address_at(&v->parts[i], a)))
                return true;
    return false;
}

int gv_mail_one(dj_judge *j, const game_view *v, const dj_participant_rec *p,
                int64_t phase_id, const char *kind, const char *subject,
                const char *body, const dj_picture_ref *pic)
{
    if (!v->mail_deadline)
        return gv_queue_to(j, v, p, phase_id, kind, subject, body, pic, NULL);
    /* the reader's own zone and calendar entry (player_options_int.h) */
    dj_buf mine, ics;
    dj_buf_init(&mine);
    dj_buf_init(&ics);
    dj_buf_append(&mine, body);
    dj_buf own;
    dj_buf_init(&own);
    gv_own_deadline(v, p, v->mail_deadline, &own);
    if (own.len)
        dj_buf_printf(&mine, "%s%s", mine.len && mine.data[mine.len - 1] ==
                                                 '\n' ? "" : "\n",
                      own.data);
    dj_buf_free(&own);
    gv_calendar(j, v, p, v->mail_phase, v->mail_deadline, &ics);
    int rc = 0;
    if (!dj_buf_ok(&mine) || !dj_buf_ok(&ics))
        rc = judge_fail(j, "out of memory");
    else
        rc = gv_queue_to(j, v, p, phase_id, kind, subject, mine.data, pic,
                         ics.len ? ics.data : NULL);
    dj_buf_free(&mine);
    dj_buf_free(&ics);
    return rc;
}

int gv_mail_all(dj_judge *j, const game_view *v, int64_t phase_id,
                const char *kind, const char *subject, const char *body,
                dj_power_set powers, bool observers)
{
    return gv_mail_all_pictured(j, v, phase_id, kind, subject, body, powers,
                                observers, NULL, NULL);
}

int gv_mail_all_pictured(dj_judge *j, const game_view *v, int64_t phase_id,
                         const char *kind, const char *subject,
                         const char *body, dj_power_set powers,
                         bool observers, gv_picture_fn picture, void *ctx)
{
    return gv_mail_all_bodies(j, v, phase_id, kind, subject, body, powers,
                              observers, picture, ctx, NULL, NULL);
}

int gv_mail_all_bodies(dj_judge *j, const game_view *v, int64_t phase_id,
                       const char *kind, const char *subject,
                       const char *body, dj_power_set powers, bool observers,
                       gv_picture_fn picture, void *ctx, gv_body_fn bodyfn,
                       void *bctx)
{
    bool *sent = calloc((size_t)v->nparts + 1, sizeof *sent);
    if (!sent)
        return judge_fail(j, "out of memory");
    int rc = 0;
    for (int i = 0; i < v->nparts && rc == 0; i++) {
        const dj_participant_rec *p = &v->parts[i];
        if (!p->email[0] || strcmp(p->status, "resigned") == 0 ||
            strcmp(p->status, "replaced") == 0)
            continue;
        if (strcmp(p->role, "player") == 0) {
            if (p->power < 0 || !(powers >> p->power & 1u))
                continue;
        } else if (strcmp(p->role, "observer") == 0 && !observers) {
            continue;
        }
        if (mailed_before(v, i, sent))
            continue;
        sent[i] = true;
        dj_picture_ref pic = {0, ""};
        if (picture && picture(ctx, p, &pic) < 0) {
            rc = -1;
        } else if (bodyfn) {
            dj_buf own;
            dj_buf_init(&own);
            rc = bodyfn(bctx, p, &own);
            if (rc == 0 && !dj_buf_ok(&own))
                rc = judge_fail(j, "out of memory");
            if (rc == 0)
                rc = gv_mail_one(j, v, p, phase_id, kind, subject, own.data,
                                 &pic);
            dj_buf_free(&own);
        } else {
            rc = gv_mail_one(j, v, p, phase_id, kind, subject, body, &pic);
        }
    }
    free(sent);
    return rc;
}

int gv_notice(dj_judge *j, const game_view *v, const char *what,
              const char *text)
{
    dj_buf body, subject;
    dj_buf_init(&body);
    dj_buf_init(&subject);
    dj_report_info info = {j->cfg.judge_name, v->g.name, v->g.map, NULL,
                           false, NULL};
    dj_buf when;
    dj_buf_init(&when);
    if (v->phase.deadline) {
        gv_time(v, v->phase.deadline, &when);
        info.deadline = when.data;
    }
    dj_report_header(v->map, &v->pos->phase, &info, &body);
    dj_buf_printf(&body, "\n%s\n", text);
    gv_subject(j, v, v->phase.name, what, &subject);
    int rc = gv_mail_all(j, v, 0, "notice", subject.data, body.data,
                         DJ_ALL_POWERS,
                         true);
    dj_buf_free(&body);
    dj_buf_free(&subject);
    dj_buf_free(&when);
    return rc;
}

void gv_time(const game_view *v, int64_t t, dj_buf *out)
{
    dj_time_format(v->zone, t, out);
}

int64_t gv_deadline(dj_judge *j, const game_view *v, dj_phase_type type)
{
    dj_absence_rec *recs = NULL;
    int n = 0;
    dj_absence abs[64];
    int nabs = 0;
    if (dj_store_absence_list(j->store, v->g.id, j->now, &recs, &n) == 0) {
        for (int i = 0; i < n && nabs < 64; i++) {
            /* Only players still in the game hold the deadline back. */
            const dj_participant_rec *pl =
                recs[i].power >= 0 ? gv_player(v, recs[i].power)
                                   : NULL;
            if (!pl || pl->id != recs[i].participant_id ||
                strcmp(pl->status, "eliminated") == 0)
                continue;
            abs[nabs].start = recs[i].start;
            abs[nabs].end = recs[i].end;
            nabs++;
        }
    }
    free(recs);
    return dj_deadline_next(&v->sched, v->zone, type, j->now, abs, nabs);
}
