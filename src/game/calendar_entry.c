/* SPDX-License-Identifier: MIT */
/*
 * calendar_entry.c — what the mail addressed to one participant carries
 * of their own options (player_options_int.h): the deadline in their own
 * zone, their reminder lead and the deadline as a calendar entry.  Pure
 * text from the view and the participant, calling nothing of the game
 * room's, so the mail code (context.c) may use it without a circle.
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
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/player_options_int.h"

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
