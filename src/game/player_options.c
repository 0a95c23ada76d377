/* SPDX-License-Identifier: MIT */
/*
 * player_options.c — a participant's own options (player_options.h): SET
 * ZONE, SET REMINDER, SET CALENDAR, their deadline line and calendar
 * entry in the mail addressed to them, and a player's PREVIEW.
 *
 * The calendar entry (RFC 5545) is one VEVENT at the deadline:
 *   UID        dipjudge-GAME-PHASE@DOMAIN (the judge address's domain):
 *              the same for every mail about that phase's deadline, so a
 *              calendar replaces the entry when a later mail moves it;
 *   DTSTAMP    when the mail was queued, DTSTART the deadline, both UTC;
 *   SUMMARY    "dipjudge:GAME - PHASE deadline";
 *   VALARM     DISPLAY at the participant's reminder lead (none: no alarm).
 * Lines end in CRLF and are folded at 75 octets (never inside a UTF-8
 * sequence); TEXT values are escaped (\\ \; \, \n).
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

#include "game/player_options_int.h"
#include "game/process.h"
#include "game/report.h"

/* ---- the deadline line and the calendar ---------------------------------- */

void gv_own_deadline(const game_view *v, const dj_participant_rec *p,
                     int64_t deadline, dj_buf *out)
{
    if (!p || !p->zone[0] || !deadline || strcmp(p->zone, v->g.zone) == 0)
        return;
    dj_zone *z = malloc(sizeof *z);
    char why[128];
    if (!z)
        return;
    if (dj_zone_load(p->zone, z, why, sizeof why) == 0) {
        dj_buf_printf(out, "Deadline in your zone (%s): ", p->zone);
        dj_time_format(z, deadline, out);
        dj_buf_append(out, "\n");
    }
    free(z);
}

int gv_own_lead(const dj_judge *j, const dj_participant_rec *p)
{
    if (p && p->reminder != DJ_REMINDER_JUDGE)
        return p->reminder;
    return j->cfg.reminder;
}

/* One content line, CRLF-ended and folded at 75 octets. */
static void ics_line(dj_buf *out, const char *line)
{
    size_t len = strlen(line), col = 0;
    for (size_t i = 0; i < len;) {
        size_t n = 1;
        unsigned char c = (unsigned char)line[i];
        if (c >= 0xf0)
            n = 4;
        else if (c >= 0xe0)
            n = 3;
        else if (c >= 0xc0)
            n = 2;
        if (i + n > len)
            n = len - i;
        if (col + n > 75) {
            dj_buf_append(out, "\r\n ");
            col = 1;
        }
        dj_buf_append_n(out, line + i, n);
        col += n;
        i += n;
    }
    dj_buf_append(out, "\r\n");
}

/* A TEXT value escaped (RFC 5545 3.3.11). */
static void ics_text(dj_buf *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\' || *s == ';' || *s == ',')
            dj_buf_printf(out, "\\%c", *s);
        else if (*s == '\n')
            dj_buf_append(out, "\\n");
        else if ((unsigned char)*s >= 0x20 || *s == '\t')
            dj_buf_append_n(out, s, 1);
    }
}

static void ics_utc(dj_buf *out, int64_t t)
{
    dj_civil c;
    dj_utc_to_civil(t, &c);
    dj_buf_printf(out, "%04d%02d%02dT%02d%02d%02dZ", c.year, c.month, c.day,
                  c.hour, c.minute, c.second);
}

/* Build one property line in `line`, then fold it into out. */
static void ics_put(dj_buf *out, dj_buf *line)
{
    if (dj_buf_ok(line))
        ics_line(out, line->data);
    dj_buf_reset(line);
}

void gv_calendar(const dj_judge *j, const game_view *v,
                 const dj_participant_rec *p, const char *phase,
                 int64_t deadline, dj_buf *out)
{
    if (!p || !p->calendar || !deadline)
        return;
    const char *at = strrchr(j->cfg.judge_address, '@');
    const char *domain = at && at[1] ? at + 1 : "dipjudge.invalid";
    char summary[160];
    snprintf(summary, sizeof summary, "dipjudge:%s - %s deadline", v->g.name,
             phase);
    dj_buf l;
    dj_buf_init(&l);
    ics_line(out, "BEGIN:VCALENDAR");
    ics_line(out, "VERSION:2.0");
    ics_line(out, "PRODID:-//dipjudge//dipjudge judge//EN");
    ics_line(out, "CALSCALE:GREGORIAN");
    ics_line(out, "METHOD:PUBLISH");
    ics_line(out, "BEGIN:VEVENT");
    dj_buf_printf(&l, "UID:dipjudge-%s-%s@%s", v->g.name, phase, domain);
    ics_put(out, &l);
    dj_buf_append(&l, "DTSTAMP:");
    ics_utc(&l, j->now);
    ics_put(out, &l);
    dj_buf_append(&l, "DTSTART:");
    ics_utc(&l, deadline);
    ics_put(out, &l);
    dj_buf_append(&l, "DTEND:");
    ics_utc(&l, deadline);
    ics_put(out, &l);
    dj_buf_append(&l, "SUMMARY:");
    ics_text(&l, summary);
    ics_put(out, &l);
    dj_buf when;
    dj_buf_init(&when);
    dj_time_format(v->zone, deadline, &when);
    dj_buf_printf(&when, " (the game's zone, %s)\n", v->g.zone);
    gv_own_deadline(v, p, deadline, &when);
    while (dj_buf_ok(&when) && when.len && when.data[when.len - 1] == '\n')
        when.data[--when.len] = '\0';
    dj_buf_append(&l, "DESCRIPTION:");
    dj_buf text;
    dj_buf_init(&text);
    dj_buf_printf(&text,
                  "Orders for %s of game %s on the judge %s (%s) are due "
                  "by the deadline: %s",
                  phase, v->g.name, j->cfg.judge_name, j->cfg.judge_address,
                  dj_buf_ok(&when) ? when.data : "");
    ics_text(&l, dj_buf_ok(&text) ? text.data : "");
    ics_put(out, &l);
    dj_buf_free(&text);
    dj_buf_free(&when);
    int lead = gv_own_lead(j, p);
    if (lead >= 0) {
        ics_line(out, "BEGIN:VALARM");
        ics_line(out, "ACTION:DISPLAY");
        dj_buf_append(&l, "DESCRIPTION:");
        ics_text(&l, summary);
        ics_put(out, &l);
        dj_buf_printf(&l, "TRIGGER:-PT%dM", lead);
        ics_put(out, &l);
        ics_line(out, "END:VALARM");
    }
    ics_line(out, "END:VEVENT");
    ics_line(out, "END:VCALENDAR");
    dj_buf_free(&l);
}

/* ---- SET ZONE, SET REMINDER, SET CALENDAR ----------------------------------
 */

typedef struct own_option {
    const dj_signon *id;
    const char *value;
    bool on;
} own_option;

static dj_participant_rec *own_part(dj_judge *j, game_view *v,
                                    const dj_signon *id)
{
    for (int i = 0; i < v->nparts; i++)
        if (v->parts[i].id == id->participant_id &&
            strcmp(v->parts[i].status, "resigned") != 0 &&
            strcmp(v->parts[i].status, "replaced") != 0)
            return &v->parts[i];
    judge_fail(j, "you are no longer in game '%s'", v->g.name);
    return NULL;
}

static int save(dj_judge *j, const dj_participant_rec *p)
{
    return dj_store_participant_set_options(j->store, p) < 0
               ? judge_store_fail(j)
               : 0;
}

static int do_zone(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const own_option *a = arg;
    dj_participant_rec *p = own_part(j, v, a->id);
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
    dj_participant_rec *p = own_part(j, v, a->id);
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
    dj_participant_rec *p = own_part(j, v, a->id);
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
    if (orders_load(j, v, &v->phase, set) < 0)
        goto done;
    /* only the power's own orders: every other unit holds */
    int n = 0;
    for (int k = 0; k < set->n; k++)
        if (set->orders[k].power == power)
            set->orders[n++] = set->orders[k];
    set->n = n;
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
