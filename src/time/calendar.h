/* SPDX-License-Identifier: MIT */
/*
 * calendar.h — deadline arithmetic in a game's time zone.
 *
 * Design.  Every time the judge stores or compares is an int64 count of UTC
 * seconds since 1970 (no time_t, no struct tm, no TZ environment variable):
 * local time exists only at the edges, where a deadline is snapped to a time
 * of day, moved to an allowed weekday, shown to players or read from what a
 * master typed.  For that edge this module has its own reader of the IANA
 * zone files (TZif versions 1-3 under /usr/share/zoneinfo, the POSIX TZ rule
 * at their end covering every date past the last listed transition), so
 * results never depend on the process's locale, TZ or C library.  The room's
 * floors, each header included here: civil.h (dates without a zone),
 * zone_rule.h (POSIX rules), tzif.h (zones and their conversions), then
 * this file (schedules and times as text, calendar.c).
 *
 * A dj_zone is a plain value filled once by dj_zone_load() and passed by
 * pointer to every call that needs local time; nothing is cached between
 * calls or kept in globals, so any number of games in any zones may be
 * handled at once.
 *
 * Local times that do not exist or exist twice (daylight-saving changes)
 * are resolved the same way everywhere:
 *   - a wall time inside a spring-forward gap is moved forward by the length
 *     of the gap (02:30 on the night clocks jump from 02:00 to 03:00 is read
 *     as 03:30), as if the clock had not been changed yet;
 *   - a wall time that happens twice (fall back) means the earlier instant,
 *     the one still in summer time, unless a zone abbreviation written with
 *     it (dj_time_parse: "... 02:30 CET") picks the other.
 * A deadline that snaps to 20:00 therefore stays at 20:00 local on either
 * side of a change (its UTC time moves by the change).
 *
 * Schedules follow DPjudge and njudge: per-phase-type delays, an optional
 * time of day, a weekday mask written Sunday first ("-MTWTF-": a letter
 * allows deadlines that day, '-' forbids them), a grace period, and player
 * absences that push a deadline past their end, up to a limit.
 */
#ifndef DJ_TIME_CALENDAR_H
#define DJ_TIME_CALENDAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/position.h"
#include "time/civil.h"
#include "time/tzif.h"
#include "time/zone_rule.h"
#include "util/buf.h"

/* ---- schedules ---------------------------------------------------------- */

#define DJ_DAYS_ALL 0x7f   /* bit d: deadlines allowed on weekday d (0 Sunday) */

typedef struct dj_schedule {
    int delay[3];          /* minutes from phase start, by dj_phase_type */
    int time_of_day;       /* minutes after local midnight to snap to, or -1 */
    uint8_t days;          /* DJ_DAYS_ALL or a mask; 0 is read as all */
    int grace;             /* minutes after the deadline before NMR action */
    int absence_limit;     /* days an absence may delay a deadline; 0 = no cap */
    char zone[DJ_ZONE_NAME_MAX];  /* IANA name; load it with dj_zone_load() */
} dj_schedule;

/* A player's declared absence: no deadline in [start, end). */
typedef struct dj_absence {
    int64_t start, end;
} dj_absence;

/*
 * Defaults: movement 72 h, retreats and adjustments 24 h, no time of day,
 * every day, grace 24 h, absences capped at 14 days, zone "UTC".
 */
void dj_schedule_default(dj_schedule *s);

/*
 * The deadline of a phase of type `type` starting at `start`:
 *   1. start + the phase type's delay, its whole days counted as local
 *      calendar days at the same wall time (a 1-day delay from Saturday
 *      20:00 ends Sunday 20:00 even when the clocks change that night),
 *      the remaining minutes as elapsed time;
 *   2. with a time of day, the first instant at or after that which is that
 *      time of day locally;
 *   3. while the local weekday is not allowed, one local day later (same
 *      wall time);
 *   4. while the result falls inside an absence, its end, then 2-3 again
 *      (overlapping and back-to-back absences chain);
 *   5. when absences pushed it more than absence_limit local days past the
 *      deadline of steps 1-3, the latest allowed deadline (steps 2-3) at or
 *      before that cap instead (never earlier than the step-3 deadline).
 * `zone` is the loaded schedule zone; absences may be NULL when nabs is 0.
 */
int64_t dj_deadline_next(const dj_schedule *s, const dj_zone *zone,
                         dj_phase_type type, int64_t start,
                         const dj_absence *abs, int nabs);

/* Steps 2 and 3 alone: the first allowed deadline instant at or after t. */
int64_t dj_deadline_snap(const dj_schedule *s, const dj_zone *zone, int64_t t);

/* When the grace period after `deadline` runs out. */
int64_t dj_grace_expiry(const dj_schedule *s, int64_t deadline);

/* ---- text --------------------------------------------------------------- */

/*
 * Weekday masks, seven characters Sunday first: a letter allows that day,
 * '-' or '.' forbids it ("-MTWTF-", "smtwtfs", "SMTWTF-"; a letter must be
 * that day's initial, either case).  "all" and "" mean every day.
 * Formatting writes "SMTWTFS" letters and '-' into out[8].
 */
int dj_days_parse(const char *text, uint8_t *mask, char *err, size_t errlen);
void dj_days_format(uint8_t mask, char out[8]);

/*
 * Durations: "90m", "36h", "3d", "1w", "1d12h" (a unit is required), in
 * minutes; a day here is 24 hours.
 */
int dj_duration_parse(const char *text, int *minutes, char *err,
                      size_t errlen);
void dj_duration_format(int minutes, dj_buf *out);   /* "1d12h", "90m", "0m" */

/* Time of day "20:00" / "8:30" / "none" (-1), in minutes after midnight. */
int dj_clock_parse(const char *text, int *minutes, char *err, size_t errlen);

/* Appends "Sat 09 Jan 2027 20:00 CET" (English names, 24-hour clock). */
void dj_time_format(const dj_zone *zone, int64_t t, dj_buf *out);

/* Appends "2027-01-09 20:00" (the form dj_time_parse reads first). */
void dj_time_format_iso(const dj_zone *zone, int64_t t, dj_buf *out);

/*
 * A time a user wrote, in the zone:
 *   "2027-01-09 20:00", "2027-01-09T20:00", "2027-01-09 20:00:30",
 *   "2027-01-09" (00:00 local),
 *   "Sat 09 Jan 2027 20:00 CET" (dj_time_format's output; the weekday must
 *   match the date, the abbreviation must be one of the zone's or UTC/GMT
 *   and picks the instant when the wall time happens twice),
 *   "+2d", "+36h", "+90m", "+1w", "+1d12h" (from `now`; days and weeks are
 *   local calendar days at the same wall time, hours and minutes exact),
 *   "now".
 * Returns 0, or -1 with a message in err.
 */
int dj_time_parse(const dj_zone *zone, const char *text, int64_t now,
                  int64_t *out, char *err, size_t errlen);

#endif
