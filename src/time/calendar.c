/* SPDX-License-Identifier: MIT */
/*
 * calendar.c — the deadline calendar: schedules (snapping to a time of
 * day, allowed weekdays, absences and the absence cap, grace), then text:
 * weekday masks, durations, clock times, formatting and parsing of times
 * in a game's zone. See calendar.h; the zones it works in are read by
 * tzif.c and zone_rule.c, the date arithmetic is civil.c's.
 *
 * Every error message is written with snprintf into the caller's bounded
 * buffer; nothing here allocates.
 */
#include "time/calendar.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "time/civil.h"
#include "time/tzif.h"
#include "time/zone_rule.h"
#include "util/fmt.h"

/* Years accepted from users: keeps every sum far from int64 overflow. */
#define YEAR_MIN 1800
#define YEAR_MAX 9999

static const char *const WDAY_NAMES[7] = {"Sun", "Mon", "Tue", "Wed",
                                          "Thu", "Fri", "Sat"};
static const char *const WDAY_LONG[7] = {"sunday",   "monday", "tuesday",
                                         "wednesday", "thursday", "friday",
                                         "saturday"};
static const char *const MONTH_NAMES[12] = {"Jan", "Feb", "Mar", "Apr",
                                            "May", "Jun", "Jul", "Aug",
                                            "Sep", "Oct", "Nov", "Dec"};
static const char DAY_LETTERS[8] = "SMTWTFS";

void dj_schedule_default(dj_schedule *s)
{
    memset(s, 0, sizeof *s);
    s->delay[DJ_MOVEMENT] = 72 * 60;
    s->delay[DJ_RETREAT] = 24 * 60;
    s->delay[DJ_ADJUSTMENT] = 24 * 60;
    s->time_of_day = -1;
    s->days = DJ_DAYS_ALL;
    s->grace = 24 * 60;
    s->absence_limit = 14;
    snprintf(s->zone, sizeof s->zone, "UTC");
}

static bool day_allowed(const dj_schedule *s, int wday)
{
    uint8_t days = s->days & DJ_DAYS_ALL;
    return days == 0 || (days & (1u << wday));
}

/* The instant of local date c (time fields ignored) at wall time `secs`. */
static int64_t at_wall(const dj_zone *z, const dj_civil *c, int secs)
{
    dj_civil w = {c->year, c->month, c->day, 0, 0, secs};
    return dj_zone_from_local(z, &w);
}

static int wall_secs(const dj_local_time *lt)
{
    return lt->c.hour * 3600 + lt->c.minute * 60 + lt->c.second;
}

/* The wall time deadlines of this schedule sit at, given one example. */
static int slot_secs(const dj_schedule *s, const dj_local_time *lt)
{
    return s->time_of_day >= 0 ? (s->time_of_day % 1440) * 60 : wall_secs(lt);
}

int64_t dj_deadline_snap(const dj_schedule *s, const dj_zone *zone, int64_t t)
{
    dj_local_time lt;
    dj_zone_to_local(zone, t, &lt);
    int secs = slot_secs(s, &lt);
    dj_civil day = lt.c;
    /* Without a time of day t itself is the first candidate (at_wall could
       pick the other reading of a wall time that happens twice). */
    int64_t d = s->time_of_day >= 0 ? at_wall(zone, &day, secs) : t;
    /* Up to 8 days: past the time of day today, then 7 weekdays. */
    for (int i = 0; i < 9; i++) {
        int wday = dj_weekday(day.year, day.month, day.day);
        if (d >= t && day_allowed(s, wday))
            return d;
        day.day++;
        dj_civil norm;
        dj_date_from_days(dj_days_from_date(day.year, day.month, day.day), &norm);
        day = norm;
        d = at_wall(zone, &day, secs);
    }
    return d;
}

static const dj_absence *absence_covering(const dj_absence *abs, int nabs,
                                          int64_t t)
{
    for (int i = 0; i < nabs; i++)
        if (abs[i].start <= t && t < abs[i].end)
            return &abs[i];
    return NULL;
}

/* Local date of t moved by `days`, at the wall time of t. */
static int64_t add_local_days(const dj_zone *z, int64_t t, int days)
{
    dj_local_time lt;
    dj_zone_to_local(z, t, &lt);
    dj_civil c = lt.c;
    c.day += days;
    return dj_zone_from_local(z, &c);
}

/* The latest allowed deadline slot in [floor, cap]. */
static int64_t latest_slot(const dj_schedule *s, const dj_zone *z,
                           int64_t floor, int64_t cap)
{
    dj_local_time lt;
    dj_zone_to_local(z, floor, &lt);
    int secs = slot_secs(s, &lt);
    dj_zone_to_local(z, cap, &lt);
    dj_civil day = lt.c;
    for (int i = 0; i < 9; i++) {
        int64_t d = at_wall(z, &day, secs);
        if (d <= cap && d >= floor &&
            day_allowed(s, dj_weekday(day.year, day.month, day.day)))
            return d;
        if (d < floor)
            break;
        day.day--;
        dj_civil norm;
        dj_date_from_days(dj_days_from_date(day.year, day.month, day.day), &norm);
        day = norm;
    }
    return floor;
}

int64_t dj_deadline_next(const dj_schedule *s, const dj_zone *zone,
                         dj_phase_type type, int64_t start,
                         const dj_absence *abs, int nabs)
{
    int delay = (type >= DJ_MOVEMENT && type <= DJ_ADJUSTMENT) ? s->delay[type] : 0;
    if (delay < 0)
        delay = 0;
    /* Whole days by the calendar, so "3 days" stays 3 days across DST. */
    int64_t due = delay >= 1440 ? add_local_days(zone, start, delay / 1440) : start;
    int64_t d0 = dj_deadline_snap(s, zone, due + (int64_t)(delay % 1440) * 60);
    int64_t d = d0;
    /* Each absence can move the deadline once: it ends up past its end. */
    for (int i = 0; i <= nabs; i++) {
        const dj_absence *a = absence_covering(abs, abs ? nabs : 0, d);
        if (!a)
            break;
        d = dj_deadline_snap(s, zone, a->end);
    }
    if (s->absence_limit > 0 && d > d0) {
        int64_t cap = add_local_days(zone, d0, s->absence_limit);
        if (d > cap)
            d = latest_slot(s, zone, d0, cap);
    }
    return d;
}

int64_t dj_grace_expiry(const dj_schedule *s, int64_t deadline)
{
    return deadline + (int64_t)s->grace * 60;
}

/* ---- text: masks, durations, clock -------------------------------------- */

int dj_days_parse(const char *text, uint8_t *mask, char *err, size_t errlen)
{
    if (!text || text[0] == '\0' || strcmp(text, "all") == 0) {
        *mask = DJ_DAYS_ALL;
        return 0;
    }
    if (strlen(text) != 7) {
        dj_fmt(err, errlen,
                "weekday mask '%s' must have 7 characters, Sunday first "
                "(e.g. -MTWTF-)", text);
        return -1;
    }
    uint8_t m = 0;
    for (int d = 0; d < 7; d++) {
        char ch = text[d];
        if (ch == '-' || ch == '.')
            continue;
        if (toupper((unsigned char)ch) != DAY_LETTERS[d]) {
            dj_fmt(err, errlen,
                    "weekday mask '%s': character %d should be '%c' or '-'",
                    text, d + 1, DAY_LETTERS[d]);
            return -1;
        }
        m |= (uint8_t)(1u << d);
    }
    if (m == 0) {
        dj_fmt(err, errlen, "weekday mask '%s' allows no day at all", text);
        return -1;
    }
    *mask = m;
    return 0;
}

void dj_days_format(uint8_t mask, char out[8])
{
    if ((mask & DJ_DAYS_ALL) == 0)
        mask = DJ_DAYS_ALL;
    for (int d = 0; d < 7; d++)
        out[d] = (mask & (1u << d)) ? DAY_LETTERS[d] : '-';
    out[7] = '\0';
}

/* Minutes per duration unit letter, or 0. */
static int64_t unit_minutes(char u)
{
    switch (tolower((unsigned char)u)) {
    case 'w': return 7 * 1440;
    case 'd': return 1440;
    case 'h': return 60;
    case 'm': return 1;
    default: return 0;
    }
}

/* "1d12h": per-unit amounts; fails on anything else. */
static bool parse_units(const char *s, int64_t amount[4])
{
    static const char order[] = "wdhm";
    memset(amount, 0, 4 * sizeof *amount);
    int last = -1;
    if (*s == '\0')
        return false;
    while (*s) {
        if (!isdigit((unsigned char)*s))
            return false;
        int64_t v = 0;
        int nd = 0;
        while (isdigit((unsigned char)*s)) {
            if (++nd > 6)
                return false;
            v = v * 10 + (*s++ - '0');
        }
        const char *u = *s ? strchr(order, tolower((unsigned char)*s)) : NULL;
        if (!u || u - order <= last)
            return false; /* a unit is needed, each once, largest first */
        last = (int)(u - order);
        amount[last] = v;
        s++;
        while (*s == ' ')
            s++;
    }
    return true;
}

int dj_duration_parse(const char *text, int *minutes, char *err,
                      size_t errlen)
{
    static const char order[] = "wdhm";
    int64_t amount[4], total = 0;
    if (!text || !parse_units(text, amount)) {
        dj_fmt(err, errlen,
                "bad duration '%s' (write e.g. 90m, 36h, 3d, 1w or 1d12h)",
                text ? text : "");
        return -1;
    }
    for (int i = 0; i < 4; i++)
        total += amount[i] * unit_minutes(order[i]);
    if (total > 366 * 1440) {
        dj_fmt(err, errlen, "duration '%s' is longer than a year", text);
        return -1;
    }
    *minutes = (int)total;
    return 0;
}

void dj_duration_format(int minutes, dj_buf *out)
{
    if (minutes <= 0) {
        dj_buf_append(out, "0m");
        return;
    }
    int d = minutes / 1440, h = minutes / 60 % 24, m = minutes % 60;
    if (d)
        dj_buf_printf(out, "%dd", d);
    if (h)
        dj_buf_printf(out, "%dh", h);
    if (m)
        dj_buf_printf(out, "%dm", m);
}

/* "HH:MM" or "HH:MM:SS" at *s; advances it. */
static bool parse_hm(const char **s, int *h, int *m, int *sec)
{
    const char *p = *s;
    int v[3] = {0, 0, 0}, n = 0;
    for (; n < 3; n++) {
        if (n > 0) {
            if (*p != ':')
                break;
            p++;
        }
        if (!isdigit((unsigned char)p[0]))
            return false;
        int nd = 0;
        while (isdigit((unsigned char)*p) && nd < 2)
            v[n] = v[n] * 10 + (*p++ - '0'), nd++;
        if (n > 0 && nd != 2)
            return false;
    }
    if (n < 2 || isdigit((unsigned char)*p) || v[0] > 23 || v[1] > 59 ||
        v[2] > 59)
        return false;
    *h = v[0];
    *m = v[1];
    *sec = v[2];
    *s = p;
    return true;
}

int dj_clock_parse(const char *text, int *minutes, char *err, size_t errlen)
{
    const char *p = text ? text : "";
    int h, m, s;
    if (strcmp(p, "none") == 0 || strcmp(p, "-") == 0) {
        *minutes = -1;
        return 0;
    }
    if (!parse_hm(&p, &h, &m, &s) || s != 0 || *p != '\0') {
        dj_fmt(err, errlen, "bad time of day '%s' (write e.g. 20:00)",
                text ? text : "");
        return -1;
    }
    *minutes = h * 60 + m;
    return 0;
}

/* ---- text: times ------------------------------------------------------------ */

void dj_time_format(const dj_zone *zone, int64_t t, dj_buf *out)
{
    dj_local_time lt;
    dj_zone_to_local(zone, t, &lt);
    dj_buf_printf(out, "%s %02d %s %04d %02d:%02d ", WDAY_NAMES[lt.wday],
                  lt.c.day, MONTH_NAMES[lt.c.month - 1], lt.c.year, lt.c.hour,
                  lt.c.minute);
    if (lt.abbr[0])
        dj_buf_append(out, lt.abbr);
    else
        dj_buf_printf(out, "%c%02d%02d", lt.utoff < 0 ? '-' : '+',
                      abs(lt.utoff) / 3600, abs(lt.utoff) / 60 % 60);
}

void dj_time_format_iso(const dj_zone *zone, int64_t t, dj_buf *out)
{
    dj_local_time lt;
    dj_zone_to_local(zone, t, &lt);
    dj_buf_printf(out, "%04d-%02d-%02d %02d:%02d", lt.c.year, lt.c.month,
                  lt.c.day, lt.c.hour, lt.c.minute);
}

static const char *skip_spaces(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* A run of letters at *s (at most n-1 kept, lower-cased); advances it. */
static size_t take_word(const char **s, char *word, size_t n)
{
    const char *p = *s;
    size_t k = 0;
    while (isalpha((unsigned char)*p)) {
        if (k + 1 < n)
            word[k++] = (char)tolower((unsigned char)*p);
        p++;
    }
    word[k] = '\0';
    size_t len = (size_t)(p - *s);
    *s = p;
    return len;
}

static bool take_int(const char **s, int maxdigits, int *out)
{
    const char *p = *s;
    int v = 0, nd = 0;
    while (isdigit((unsigned char)*p) && nd < maxdigits)
        v = v * 10 + (*p++ - '0'), nd++;
    if (nd == 0 || isdigit((unsigned char)*p))
        return false;
    *out = v;
    *s = p;
    return true;
}

static bool date_ok(const dj_civil *c)
{
    return c->year >= YEAR_MIN && c->year <= YEAR_MAX && c->month >= 1 &&
           c->month <= 12 && c->day >= 1 &&
           c->day <= dj_days_in_month(c->year, c->month);
}

static int month_of(const char *word)
{
    static const char *const names[12] = {
        "january", "february", "march",     "april",   "may",      "june",
        "july",    "august",   "september", "october", "november", "december"};
    size_t n = strlen(word);
    for (int m = 0; m < 12; m++)
        if ((n == 3 || n == strlen(names[m])) && strncmp(names[m], word, n) == 0)
            return m + 1;
    return 0;
}

static int weekday_of_word(const char *word)
{
    for (int d = 0; d < 7; d++) {
        size_t n = strlen(word);
        if (n >= 3 && strncmp(WDAY_LONG[d], word, n) == 0)
            return d;
    }
    return -1;
}

/* "2027-01-09" at *s. */
static bool parse_iso_date(const char **s, dj_civil *c)
{
    const char *p = *s;
    if (!take_int(&p, 4, &c->year) || *p++ != '-' || !take_int(&p, 2, &c->month) ||
        *p++ != '-' || !take_int(&p, 2, &c->day))
        return false;
    *s = p;
    return true;
}

/* "[Sat] 09 Jan 2027" at *s; wday gets the weekday written or -1. */
static bool parse_text_date(const char **s, dj_civil *c, int *wday)
{
    const char *p = *s;
    char word[16];
    *wday = -1;
    if (isalpha((unsigned char)*p)) {
        take_word(&p, word, sizeof word);
        if ((*wday = weekday_of_word(word)) < 0)
            return false;
        if (*p == ',')
            p++;
        p = skip_spaces(p);
    }
    if (!take_int(&p, 2, &c->day))
        return false;
    p = skip_spaces(p);
    take_word(&p, word, sizeof word);
    if ((c->month = month_of(word)) == 0)
        return false;
    p = skip_spaces(p);
    if (!take_int(&p, 4, &c->year))
        return false;
    *s = p;
    return true;
}

/* Resolve a wall time written with a zone abbreviation. */
static int64_t with_abbr(const dj_zone *z, int64_t wall, const char *abbr)
{
    if (strcmp(abbr, "UTC") == 0 || strcmp(abbr, "GMT") == 0 ||
        strcmp(abbr, "Z") == 0)
        return wall;
    int64_t t;
    if (dj_zone_earliest_reading(z, wall, abbr, &t))
        return t;
    /* The abbreviation is not in force then: take its offset literally. */
    if (z->has_rule && strcmp(z->rule.dst.abbr, abbr) == 0 && z->rule.has_dst)
        return wall - z->rule.dst.utoff;
    if (z->has_rule && strcmp(z->rule.std.abbr, abbr) == 0)
        return wall - z->rule.std.utoff;
    for (int i = z->ntypes - 1; i >= 0; i--)
        if (strcmp(z->types[i].abbr, abbr) == 0)
            return wall - z->types[i].utoff;
    return INT64_MIN;
}

static bool zone_knows_abbr(const dj_zone *z, const char *abbr)
{
    if (!strcmp(abbr, "UTC") || !strcmp(abbr, "GMT") || !strcmp(abbr, "Z"))
        return true;
    return with_abbr(z, 0, abbr) != INT64_MIN;
}

/* "+2d", "+36h", "+1d12h": days and weeks by the local calendar. */
static int parse_relative(const dj_zone *z, const char *text, int64_t now,
                          int64_t *out, char *err, size_t errlen)
{
    int64_t amount[4];
    if (!parse_units(skip_spaces(text + 1), amount)) {
        dj_fmt(err, errlen,
                "bad relative time '%s' (write e.g. +2d, +36h or +1d12h)", text);
        return -1;
    }
    int days = (int)(amount[0] * 7 + amount[1]);
    if (days > 3660) {
        dj_fmt(err, errlen, "relative time '%s' is too far ahead", text);
        return -1;
    }
    int64_t t = days ? add_local_days(z, now, days) : now;
    *out = t + amount[2] * 3600 + amount[3] * 60;
    return 0;
}

/* The optional " HH:MM[:SS] [ABBR]" after a date, then the end. */
static int parse_time_tail(const dj_zone *z, const char *p, dj_civil *c,
                           int64_t *out)
{
    char abbr[DJ_ZONE_ABBR_MAX] = "";
    if (*p == 'T' || *p == 't')
        p++;
    p = skip_spaces(p);
    if (*p && !parse_hm(&p, &c->hour, &c->minute, &c->second))
        return -1;
    p = skip_spaces(p);
    if (*p == '<' || isalpha((unsigned char)*p) || *p == '+' || *p == '-') {
        const char *q = p;
        while (*q && *q != ' ' && *q != '\t')
            q++;
        dj_zone_copy_abbr(abbr, p, (size_t)(q - p));
        p = skip_spaces(q);
    }
    if (*p)
        return -1;
    int64_t wall = dj_civil_to_utc(c);
    if (abbr[0] == '\0') {
        *out = dj_zone_from_local(z, c);
        return 0;
    }
    if (!zone_knows_abbr(z, abbr))
        return -2;
    *out = with_abbr(z, wall, abbr);
    return 0;
}

int dj_time_parse(const dj_zone *zone, const char *text, int64_t now,
                  int64_t *out, char *err, size_t errlen)
{
    const char *p = skip_spaces(text ? text : "");
    if (strcmp(p, "now") == 0) {
        *out = now;
        return 0;
    }
    if (*p == '+')
        return parse_relative(zone, p, now, out, err, errlen);
    dj_civil c = {0, 0, 0, 0, 0, 0};
    int wday = -1;
    bool ok = isdigit((unsigned char)p[0]) && isdigit((unsigned char)p[1]) &&
                      isdigit((unsigned char)p[2])
                  ? parse_iso_date(&p, &c)
                  : parse_text_date(&p, &c, &wday);
    if (!ok || !date_ok(&c)) {
        dj_fmt(err, errlen,
                "bad time '%s' (write e.g. 2027-01-09 20:00, +2d or +36h)",
                text ? text : "");
        return -1;
    }
    if (wday >= 0 && wday != dj_weekday(c.year, c.month, c.day)) {
        dj_fmt(err, errlen, "bad time '%s': %04d-%02d-%02d is a %s", text,
                c.year, c.month, c.day,
                WDAY_LONG[dj_weekday(c.year, c.month, c.day)]);
        return -1;
    }
    int rc = parse_time_tail(zone, p, &c, out);
    if (rc == -2)
        dj_fmt(err, errlen, "bad time '%s': unknown zone abbreviation for %s",
                text, zone->name);
    else if (rc < 0)
        dj_fmt(err, errlen, "bad time '%s': expected HH:MM after the date",
                text);
    return rc < 0 ? -1 : 0;
}
