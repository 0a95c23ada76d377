/* SPDX-License-Identifier: MIT */
/*
 * game_options.c — what the game options of issue 37 do (game_options.h
 * says which): the checks of victory and end_year against the map, the
 * game's own victory count, the end by year, lapsing draw proposals,
 * EXTEND votes, excused missed phases, the grace-ended notice of nmr =
 * wait and the hidden late notice.  Kept apart from process.c and
 * lifecycle.c so each option's rule is in one place.
 */
#define _POSIX_C_SOURCE 200809L

#include "game/game_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/game_options.h"
#include "store/mail.h"

/* ---- victory and end_year ------------------------------------------------- */

/* The most centres any power holds or calls home at the start: a victory
 * count at or below it could be met before anyone moves. */
static int start_most(const dj_map *map)
{
    int owned[DJ_MAX_POWERS] = {0}, home[DJ_MAX_POWERS] = {0}, most = 0;
    for (int i = 0; i < map->nlocs && i < DJ_MAX_LOCS; i++) {
        if (!map->is_sc[i])
            continue;
        int o = map->initial_owner[i];
        if (o >= 0 && o < map->npowers)
            owned[o]++;
        for (int p = 0; p < map->npowers; p++)
            if (map->home_of[i] >> p & 1u)
                home[p]++;
    }
    for (int p = 0; p < map->npowers; p++) {
        if (owned[p] > most)
            most = owned[p];
        if (home[p] > most)
            most = home[p];
    }
    return most;
}

int gv_check_options(dj_judge *j, const dj_game_rec *g, const dj_map *map,
                     int year)
{
    if (g->victory) {
        int least = start_most(map) + 1;
        if (least > map->nsc)
            least = map->nsc;
        if (g->victory < least || g->victory > map->nsc)
            return judge_fail(j,
                              "victory = %d: on map %s it must be from %d "
                              "(one more than any power starts with) to %d "
                              "(the map's supply centres), or 0 for the "
                              "map's own %d",
                              g->victory, map->name, least, map->nsc,
                              map->victory);
    }
    if (g->end_year) {
        if (g->end_year <= map->start_year)
            return judge_fail(j,
                              "end_year = %d: map %s starts in %d; the last "
                              "year must come after it (or 0 for none)",
                              g->end_year, map->name, map->start_year);
        if (year && g->end_year < year)
            return judge_fail(j,
                              "end_year = %d: game '%s' is already in %d",
                              g->end_year, g->name, year);
    }
    if (g->extension == 0)
        return judge_fail(j, "extension = 0: write a duration (2d, 12h) or "
                             "none");
    return 0;
}

bool gv_year_limit_reached(const game_view *v, const dj_position *next)
{
    return v->g.end_year > 0 && next->phase.year > v->g.end_year;
}

void gv_year_limit_ending(const game_view *v, const dj_position *next,
                          char *ending, size_t len)
{
    dj_buf names;
    dj_buf_init(&names);
    int total = 0, n = 0;
    for (int p = 0; p < v->map->npowers; p++)
        total += dj_position_units(next, p) > 0 ||
                 dj_position_centres(v->map, next, p) > 0;
    for (int p = 0; p < v->map->npowers; p++)
        if (dj_position_units(next, p) > 0 ||
            dj_position_centres(v->map, next, p) > 0) {
            n++;
            dj_buf_printf(&names, "%s%s",
                          n == 1 ? "" : n == total ? " and " : ", ",
                          gv_power_name(v, p));
        }
    snprintf(ending, len,
             "Draw among %s: the game's last year (end_year = %d) is over.",
             dj_buf_ok(&names) ? names.data : "the surviving powers",
             v->g.end_year);
    dj_buf_free(&names);
}

/* ---- draw_proposals = phase ----------------------------------------------- */

int gv_lapse_votes(dj_judge *j, game_view *v, dj_buf *report)
{
    if (strcmp(v->g.draw_proposals, "phase") != 0)
        return 0;
    dj_power_set had = 0;
    for (int p = 0; p < v->map->npowers; p++) {
        const dj_participant_rec *pl = gv_player(v, p);
        if (pl && pl->vote[0])
            had |= DJ_POWER_BIT(p);
    }
    if (had && dj_store_participant_clear_votes(j->store, v->g.id) < 0)
        return judge_store_fail(j);
    for (int i = 0; i < v->nparts; i++)
        v->parts[i].vote[0] = '\0';
    /* Always said, whether or not anyone voted: under secret votes the
     * line must not tell that someone did. */
    dj_buf_printf(report,
                  "\nDraw and concession votes lapse with each phase "
                  "(draw_proposals = phase): any cast in %s have lapsed; "
                  "vote again to propose again.\n",
                  v->phase.name);
    if (had && strcmp(v->g.votes, "public") == 0) {
        dj_buf_append(report, "Lapsed: the votes of");
        for (int p = 0; p < v->map->npowers; p++)
            if (had >> p & 1u)
                dj_buf_printf(report, " %s", gv_power_name(v, p));
        dj_buf_append(report, ".\n");
    }
    return 0;
}

/* ---- excuses ------------------------------------------------------------------ */

int gv_excuses_used(dj_judge *j, const game_view *v, int p)
{
    int n = 0;
    if (dj_store_power_excused(j->store, v->g.id, p, &n) < 0)
        return judge_store_fail(j);
    return n;
}

int gv_excusable(dj_judge *j, const game_view *v, dj_power_set missed,
                 dj_power_set *excused)
{
    *excused = 0;
    if (v->g.excuses <= 0)
        return 0;
    for (int p = 0; p < v->map->npowers; p++) {
        const dj_participant_rec *pl = gv_player(v, p);
        if (!(missed >> p & 1u) || !pl || !pl->email[0])
            continue;
        int used = gv_excuses_used(j, v, p);
        if (used < 0)
            return -1;
        if (used < v->g.excuses)
            *excused |= DJ_POWER_BIT(p);
    }
    return 0;
}

int gv_excuse(dj_judge *j, game_view *v, dj_power_set excused,
              dj_buf *report)
{
    for (int p = 0; p < v->map->npowers; p++) {
        const dj_participant_rec *pl = gv_player(v, p);
        if (!(excused >> p & 1u) || !pl)
            continue;
        if (dj_store_participant_excuse(j->store, pl->id) < 0)
            return judge_store_fail(j);
        int used = gv_excuses_used(j, v, p);
        if (used < 0)
            return -1;
        int left = v->g.excuses - used;
        dj_buf_printf(report,
                      "\n%s sent no orders for %s and is excused (%d of %d "
                      "excuses used): its units held, and it is not in "
                      "civil disorder.  %s\n",
                      gv_power_name(v, p), v->phase.name, used,
                      v->g.excuses,
                      left > 0 ? "Its next missed phase may be excused too."
                               : "Its next missed phase is not excused.");
    }
    return 0;
}

/* ---- nmr = wait: the grace is over ---------------------------------------- */

int gv_grace_ended(dj_judge *j, game_view *v, dj_power_set waiting,
                   dj_buf *out)
{
    int rc = dj_store_phase_claim_grace_told(j->store, v->phase.id, j->now);
    if (rc == DJ_STORE_NOTFOUND)
        return 0;
    if (rc < 0)
        return judge_store_fail(j);
    dj_buf names, text;
    dj_buf_init(&names);
    dj_buf_init(&text);
    for (int p = 0; p < v->map->npowers; p++)
        if (waiting >> p & 1u)
            dj_buf_printf(&names, "%s%s", names.len ? ", " : "",
                          gv_power_name(v, p));
    dj_buf_printf(&text,
                  "the grace for %s has ended and orders are still missing "
                  "from %s.  The game waits (nmr = wait): for those orders, "
                  "or for the master to REPLACE the player or PROCESS.",
                  v->phase.name, names.data);
    if (!dj_buf_ok(&text))
        rc = judge_fail(j, "out of memory");
    else
        rc = gv_tell(j, v, NULL, false, "Grace ended", text.data);
    for (int p = 0; p < v->map->npowers && rc == 0; p++) {
        const dj_participant_rec *pl = gv_player(v, p);
        if ((waiting >> p & 1u) && pl && pl->email[0])
            rc = gv_tell_participant(j, v, pl, "Grace ended", text.data);
    }
    if (rc == 0)
        rc = gv_log(j, v, "grace", "%s: waiting for %s", v->phase.name,
                    names.data);
    if (rc == 0)
        dj_buf_printf(out, "%s: %s grace ended; waiting for %s\n", v->g.name,
                      v->phase.name, names.data);
    dj_buf_free(&names);
    dj_buf_free(&text);
    return rc;
}

/* ---- hide_late = yes ------------------------------------------------------------ */

static int late_body(const game_view *v, const char *head, const char *names,
                     const char *tail, dj_buf *body)
{
    dj_buf_reset(body);
    dj_buf_printf(body,
                  "%s\nThe deadline for %s has passed.  Orders are missing "
                  "from: %s.\n%s",
                  head, v->phase.name, names, tail);
    return dj_buf_ok(body) ? 0 : -1;
}

int gv_late_notice_hidden(dj_judge *j, game_view *v, dj_power_set late,
                          const char *subject, const char *head,
                          const char *tail)
{
    dj_buf body, all;
    dj_buf_init(&body);
    dj_buf_init(&all);
    for (int p = 0; p < v->map->npowers; p++)
        if (late >> p & 1u)
            dj_buf_printf(&all, "%s%s", all.len ? " " : "",
                          gv_power_name(v, p));
    int rc = 0;
    /* the master: every late power (powers 0: no player) */
    if (late_body(v, head, all.data, tail, &body) < 0)
        rc = judge_fail(j, "out of memory");
    else
        rc = gv_mail_all(j, v, v->phase.id, "late", subject, body.data, 0,
                         false);
    for (int p = 0; p < v->map->npowers && rc == 0; p++) {
        const dj_participant_rec *pl = gv_player(v, p);
        if (!(late >> p & 1u) || !pl || !pl->email[0])
            continue;
        if (late_body(v, head, gv_power_name(v, p), tail, &body) < 0)
            rc = judge_fail(j, "out of memory");
        else
            rc = gv_queue_to(j, v, pl, v->phase.id, "late", subject,
                             body.data, NULL, NULL);
    }
    dj_buf_free(&body);
    dj_buf_free(&all);
    return rc;
}
