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
 * results never depend on the process's locale, TZ or C library.
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
#include "util/buf.h"

/* Bounds of a loaded zone: a zone file exceeding one is refused. */
#define DJ_ZONE_NAME_MAX 64   /* "America/Argentina/ComodRivadavia" */
#define DJ_ZONE_ABBR_MAX 16   /* "CEST", "+0530" */
#define DJ_ZONE_MAX_TRANS 2000
#define DJ_ZONE_MAX_TYPES 64

/* The directory zone names are looked up in by dj_zone_load(). */
#define DJ_ZONEINFO_DIR "/usr/share/zoneinfo"

/* One kind of local time of a zone: offset from UTC, summer time, name. */
typedef struct dj_zone_type {
    int32_t utoff;                /* seconds east of UTC */
    bool isdst;
    char abbr[DJ_ZONE_ABBR_MAX];  /* "CET", "EDT" */
} dj_zone_type;

/*
 * A POSIX TZ rule date: Jn (day 1-365, never Feb 29), n (day 0-365) or
 * Mm.w.d (weekday d of week w of month m, week 5 = the last), plus the
 * local time of the change in seconds (may be negative or past 24h).
 */
typedef struct dj_zone_rule_date {
    char kind;      /* 'J', 'N' or 'M' */
    int month, week, day;
    int32_t time;
} dj_zone_rule_date;

/* The POSIX TZ rule ("CET-1CEST,M3.5.0,M10.5.0/3") for later dates. */
typedef struct dj_zone_rule {
    dj_zone_type std, dst;
    bool has_dst;
    dj_zone_rule_date start, end;  /* into and out of summer time */
} dj_zone_rule;

/* A loaded zone.  Fields are the module's own; use the functions below. */
typedef struct dj_zone {
    char name[DJ_ZONE_NAME_MAX];
    int ntrans;
    int64_t trans[DJ_ZONE_MAX_TRANS];       /* UTC instants, ascending */
    uint8_t trans_type[DJ_ZONE_MAX_TRANS];  /* type in force from trans[i] */
    int ntypes;
    dj_zone_type types[DJ_ZONE_MAX_TYPES];
    int first_type;                         /* before the first transition */
    bool has_rule;
    dj_zone_rule rule;                      /* after the last transition */
} dj_zone;

/* Calendar fields of a local (or UTC) time. */
typedef struct dj_civil {
    int year, month, day;     /* month 1-12, day 1-31 */
    int hour, minute, second;
} dj_civil;

/* A UTC instant seen in a zone. */
typedef struct dj_local_time {
    dj_civil c;
    int wday;                     /* 0 Sunday .. 6 Saturday */
    int32_t utoff;
    bool isdst;
    char abbr[DJ_ZONE_ABBR_MAX];
} dj_local_time;

/* ---- zones ------------------------------------------------------------- */

/* UTC itself; needs no file. */
void dj_zone_utc(dj_zone *zone);

/*
 * Load zone `name` ("Europe/Amsterdam", "UTC") from $TZDIR when set,
 * else DJ_ZONEINFO_DIR.
 * Names are checked (letters, digits, '_', '-', '+', '/', no "..") before
 * any file is opened.  "UTC", "GMT", "Etc/UTC" and "" need no file.
 * Returns 0, or -1 with a message in err and the zone set to UTC (so a
 * game with a broken zone still runs, in UTC, while the error is shown).
 */
int dj_zone_load(const char *name, dj_zone *zone, char *err, size_t errlen);

/* The same from another zoneinfo directory (tests, unusual systems). */
int dj_zone_load_dir(const char *dir, const char *name, dj_zone *zone,
                     char *err, size_t errlen);

/* Parse TZif bytes already in memory; `name` is only recorded. */
int dj_zone_parse_tzif(const unsigned char *data, size_t len,
                       const char *name, dj_zone *zone, char *err,
                       size_t errlen);

/* A zone made from a POSIX TZ rule alone ("EST5EDT,M3.2.0,M11.1.0"). */
int dj_zone_parse_posix(const char *tz, dj_zone *zone, char *err,
                        size_t errlen);

/* UTC instant -> local time in the zone. */
void dj_zone_to_local(const dj_zone *zone, int64_t t, dj_local_time *out);

/*
 * Local wall time -> UTC instant, resolving gaps and overlaps as described
 * at the top.  Fields out of range are normalised (day 32 of January is
 * 1 February; minute 90 is 1:30).
 */
int64_t dj_zone_from_local(const dj_zone *zone, const dj_civil *local);

/* Civil UTC <-> seconds, and the weekday (0 Sunday) of a date. */
int64_t dj_civil_to_utc(const dj_civil *c);
void dj_utc_to_civil(int64_t t, dj_civil *out);
int dj_weekday(int year, int month, int day);

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
