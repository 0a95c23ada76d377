/* SPDX-License-Identifier: MIT */
/*
 * player_options.c — a participant's own options (player_options.h): SET
 * ZONE, SET REMINDER, SET CALENDAR and a player's PREVIEW.  What the
 * mail addressed to them carries of these options (their deadline line,
 * their calendar entry) is in calendar_entry.c.
 *
 * PREVIEW adjudicates the power's orders on file (those of earlier mail
 * and the lines above PREVIEW in this one, filed as usual) with every
 * other unit holding: it tells a player what their orders do if nobody
 * else moves — not what will happen.  Nothing is written.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/blind.h"
#include "game/player_options_int.h"
#include "game/process.h"
#include "game/report.h"

typedef struct own_option {
    const dj_signon *id;
    const char *value;
    bool on;
} own_option;


static int save(dj_judge *j, const dj_participant_rec *p)
{
    return dj_store_participant_set_options(j->store, p) < 0
               ? judge_store_fail(j)
               : 0;
}

static int do_zone(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const own_option *a = arg;
    dj_participant_rec *p = gv_live_participant(j, v, a->id->participant_id);
    if (!p)
        return -1;
    if (strcasecmp(a->value, "game") == 0 ||
        strcasecmp(a->value, "none") == 0) {
        p->zone[0] = '\0';
        if (save(j, p) < 0)
            return -1;
        dj_buf_printf(out,
                      "%s: deadlines shown in the game's zone (%s) "
                      "only\n",
                      v->g.name, v->g.zone);
        return 0;
    }
    dj_zone *z = malloc(sizeof *z);
    if (!z)
        return judge_fail(j, "out of memory");
    char why[256];
    int rc = dj_zone_load(a->value, z, why, sizeof why);
    free(z);
    if (rc < 0 || strlen(a->value) >= sizeof p->zone)
        return judge_fail(j,
                          "unknown time zone '%s': give a zone of the "
                          "time zone database, as Europe/Paris or "
                          "America/New_York (or GAME for the game's)",
                          a->value);
    snprintf(p->zone, sizeof p->zone, "%s", a->value);
    if (save(j, p) < 0)
        return -1;
    dj_buf_printf(out,
                  "%s: deadlines shown to you in %s as well as in the "
                  "game's zone (%s)\n",
                  v->g.name, p->zone, v->g.zone);
    if (v->has_phase && v->phase.deadline &&
        strcmp(v->phase.status, "current") == 0) {
        dj_buf_append(out, "Next deadline: ");
        gv_time(v, v->phase.deadline, out);
        dj_buf_append(out, "\n");
        gv_own_deadline(v, p, v->phase.deadline, out);
    }
    return 0;
}

int dj_game_set_own_zone(dj_judge *j, const dj_signon *id, const char *zone,
                         dj_buf *out)
{
    own_option a = {id, zone, false};
    return gv_with_game(j, id->game, do_zone, &a, out);
}

static int do_reminder(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const own_option *a = arg;
    dj_participant_rec *p = gv_live_participant(j, v, a->id->participant_id);
    if (!p)
        return -1;
    if (strcasecmp(a->value, "none") == 0 || strcasecmp(a->value, "off") == 0) {
        p->reminder = -1;
    } else if (strcasecmp(a->value, "default") == 0) {
        p->reminder = DJ_REMINDER_JUDGE;
    } else {
        int minutes = 0;
        char why[128];
        if (dj_duration_parse(a->value, &minutes, why, sizeof why) < 0 ||
            minutes <= 0 || minutes > 14 * 24 * 60)
            return judge_fail(j,
                              "SET REMINDER takes a lead time before the "
                              "deadline (6h, 90m, 1d; at most 14d), NONE "
                              "or DEFAULT, not '%s'",
                              a->value);
        p->reminder = minutes;
    }
    if (save(j, p) < 0)
        return -1;
    int lead = gv_own_lead(j, p);
    if (lead < 0) {
        dj_buf_printf(out, "%s: no deadline reminders for you\n", v->g.name);
    } else {
        dj_buf_printf(out, "%s: reminded ", v->g.name);
        dj_duration_format(lead, out);
        dj_buf_printf(out, " before each deadline%s\n",
                      p->reminder == DJ_REMINDER_JUDGE ? " (the judge's)" : "");
    }
    return 0;
}

int dj_game_set_own_reminder(dj_judge *j, const dj_signon *id, const char *lead,
                             dj_buf *out)
{
    own_option a = {id, lead, false};
    return gv_with_game(j, id->game, do_reminder, &a, out);
}

static int do_calendar(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const own_option *a = arg;
    dj_participant_rec *p = gv_live_participant(j, v, a->id->participant_id);
    if (!p)
        return -1;
    p->calendar = a->on;
    if (save(j, p) < 0)
        return -1;
    dj_buf_printf(out, "%s: %s\n", v->g.name,
                  a->on ? "start and results mail carry the next deadline "
                          "as a calendar entry (deadline.ics)"
                        : "no calendar entry with your mail");
    return 0;
}

int dj_game_set_own_calendar(dj_judge *j, const dj_signon *id, bool on,
                             dj_buf *out)
{
    own_option a = {id, "", on};
    return gv_with_game(j, id->game, do_calendar, &a, out);
}

static int do_own_deadline(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const dj_signon *id = arg;
    const dj_participant_rec *p = NULL;
    for (int i = 0; i < v->nparts && !p; i++)
        if (v->parts[i].id == id->participant_id)
            p = &v->parts[i];
    (void)j;
    if (v->has_phase && strcmp(v->phase.status, "current") == 0)
        gv_own_deadline(v, p, v->phase.deadline, out);
    return 0;
}

int dj_game_own_deadline(dj_judge *j, const dj_signon *id, dj_buf *out)
{
    return gv_with_game_read(j, id->game, do_own_deadline, (void *)id, out);
}

/* ---- PREVIEW by a player ----------------------------------------------------
 */

static int do_preview(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const dj_signon *id = arg;
    if (gv_require(j, v, "active paused") < 0)
        return -1;
    if (strcmp(v->phase.status, "current") != 0)
        return judge_fail(j, "game '%s' has no phase to process", v->g.name);
    int power = id->power;
    if (power < 0 && id->power_name[0]) /* the master after BECOME */
        power = dj_map_find_power(v->map, id->power_name);
    if (power < 0)
        return judge_fail(j, "you have no power in game '%s' yet", v->g.name);
    order_set *set = malloc(sizeof *set);
    dj_result *res = malloc(sizeof *res);
    int rc = -1;
    if (!set || !res) {
        rc = judge_fail(j, "out of memory");
        goto done;
    }
    if (gv_orders_load(j, v, &v->phase, set) < 0)
        goto done;
    /* only the power's own orders: every other unit holds */
    int n = 0;
    for (int k = 0; k < set->n; k++)
        if (set->orders[k].power == power)
            set->orders[n++] = set->orders[k];
    set->n = n;
    /* a blind game's player previews against the units it sees only: a
     * bounce must not show a unit out of its sight (game/blind.h) */
    if (id->power >= 0 && gv_viewer_of_power(v, power) >= 0)
        dj_blind_position(v->map, v->pos, power, v->pos);
    dj_position before = *v->pos;
    before.civil_disorder = 0;
    v->pos->civil_disorder = 0;
    if (dj_adjudicate_with(dj_game_engine(&v->g), v->map, v->pos, set->orders,
                           set->n, &v->rules, res) < 0) {
        rc = judge_fail(j,
                        "game '%s': the position or orders of %s are "
                        "malformed",
                        v->g.name, v->phase.name);
        goto done;
    }
    dj_buf_printf(out,
                  "Preview for %s: your orders on file, every other unit "
                  "holding (what your orders do if nobody else moves; "
                  "nothing is saved and nobody else is told).\n\n",
                  gv_power_name(v, power));
    dj_report_info info;
    memset(&info, 0, sizeof info);
    info.judge = j->cfg.judge_name;
    info.game = v->g.name;
    info.variant = v->g.map;
    info.deadline = "(preview: nothing saved)";
    if (dj_report_results(v->map, &before, set->orders, set->n, res, &info,
                          out) < 0)
        rc = judge_fail(j, "out of memory");
    else
        rc = 0;
done:
    free(set);
    free(res);
    return rc;
}

int dj_game_preview_own(dj_judge *j, const dj_signon *id, dj_buf *out)
{
    return gv_with_game_read(j, id->game, do_preview, (void *)id, out);
}
