/* SPDX-License-Identifier: MIT */
/*
 * zone_rule.c — POSIX TZ rules ("CET-1CEST,M3.5.0,M10.5.0/3"), the string
 * at the end of a TZif file that covers every date past its last listed
 * transition (a zone of a rule alone is dj_zone_parse_posix, in tzif.c):
 * parsing it and working out which side of its two changes an instant is.
 * See zone_rule.h.
 */
#include "time/zone_rule.h"

#include <ctype.h>
#include <string.h>

#include "time/civil.h"

void dj_zone_copy_abbr(char *dst, const char *src, size_t n)
{
    if (n >= DJ_ZONE_ABBR_MAX)
        n = DJ_ZONE_ABBR_MAX - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* A zone name: "CET" (letters) or "<+0330>" (quoted); advances *s. */
static bool posix_name(const char **s, char *abbr)
{
    const char *p = *s;
    if (*p == '<') {
        const char *q = ++p;
        while (isalnum((unsigned char)*q) || *q == '+' || *q == '-')
            q++;
        if (*q != '>' || q - p < 3)
            return false;
        dj_zone_copy_abbr(abbr, p, (size_t)(q - p));
        *s = q + 1;
        return true;
    }
    const char *q = p;
    while (isalpha((unsigned char)*q))
        q++;
    if (q - p < 3)
        return false;
    dj_zone_copy_abbr(abbr, p, (size_t)(q - p));
    *s = q;
    return true;
}

/* [+-]hh[:mm[:ss]] with hours up to 167 (TZif v3); advances *s. */
static bool posix_hms(const char **s, int32_t *out)
{
    const char *p = *s;
    int sign = 1;
    if (*p == '+' || *p == '-')
        sign = *p++ == '-' ? -1 : 1;
    int part[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        if (i > 0) {
            if (*p != ':')
                break;
            p++;
        }
        if (!isdigit((unsigned char)*p))
            return false;
        int v = 0, nd = 0;
        while (isdigit((unsigned char)*p) && nd < 3) {
            v = v * 10 + (*p++ - '0');
            nd++;
        }
        part[i] = v;
    }
    if (part[0] > 167 || part[1] > 59 || part[2] > 59)
        return false;
    *out = sign * (part[0] * 3600 + part[1] * 60 + part[2]);
    *s = p;
    return true;
}

static bool posix_number(const char **s, int lo, int hi, int *out)
{
    const char *p = *s;
    int v = 0, nd = 0;
    while (isdigit((unsigned char)*p) && nd < 4) {
        v = v * 10 + (*p++ - '0');
        nd++;
    }
    if (nd == 0 || v < lo || v > hi)
        return false;
    *out = v;
    *s = p;
    return true;
}

/* ",Jn[/time]" / ",n[/time]" / ",Mm.w.d[/time]"; advances *s. */
static bool posix_date(const char **s, dj_zone_rule_date *d)
{
    const char *p = *s;
    if (*p++ != ',')
        return false;
    memset(d, 0, sizeof *d);
    if (*p == 'J') {
        p++;
        d->kind = 'J';
        if (!posix_number(&p, 1, 365, &d->day))
            return false;
    } else if (*p == 'M') {
        p++;
        d->kind = 'M';
        if (!posix_number(&p, 1, 12, &d->month) || *p++ != '.' ||
            !posix_number(&p, 1, 5, &d->week) || *p++ != '.' ||
            !posix_number(&p, 0, 6, &d->day))
            return false;
    } else {
        d->kind = 'N';
        if (!posix_number(&p, 0, 365, &d->day))
            return false;
    }
    d->time = 2 * 3600;
    if (*p == '/') {
        p++;
        if (!posix_hms(&p, &d->time))
            return false;
    }
    *s = p;
    return true;
}

/* The US rule POSIX implementations assume when a TZ names no dates. */
static void default_dates(dj_zone_rule *r)
{
    r->start = (dj_zone_rule_date){'M', 3, 2, 0, 2 * 3600};
    r->end = (dj_zone_rule_date){'M', 11, 1, 0, 2 * 3600};
}

bool dj_zone_rule_parse(const char *tz, dj_zone_rule *r)
{
    const char *p = tz;
    int32_t off;
    memset(r, 0, sizeof *r);
    if (!posix_name(&p, r->std.abbr) || !posix_hms(&p, &off))
        return false;
    r->std.utoff = -off; /* POSIX offsets count west of Greenwich */
    if (*p == '\0')
        return true;
    if (!posix_name(&p, r->dst.abbr))
        return false;
    r->has_dst = true;
    r->dst.isdst = true;
    r->dst.utoff = r->std.utoff + 3600;
    if (*p && *p != ',') {
        if (!posix_hms(&p, &off))
            return false;
        r->dst.utoff = -off;
    }
    if (*p == '\0') {
        default_dates(r);
        return true;
    }
    return posix_date(&p, &r->start) && posix_date(&p, &r->end) && *p == '\0';
}

/* Day of the year (0-based) a rule date falls on in year y. */
static int rule_yday(const dj_zone_rule_date *d, int64_t y)
{
    if (d->kind == 'J')
        return d->day - 1 + (dj_is_leap(y) && d->day >= 60);
    if (d->kind == 'N')
        return d->day;
    int first = dj_weekday_of_days(dj_days_from_date(y, d->month, 1));
    int mday = 1 + (d->day - first + 7) % 7 + 7 * (d->week - 1);
    while (mday > dj_days_in_month(y, d->month))
        mday -= 7;
    return dj_days_before_month(y, d->month) + mday - 1;
}

/* UTC instant of a rule change in year y, the local clock reading `off`. */
static int64_t rule_instant(const dj_zone_rule_date *d, int64_t y,
                            int32_t off)
{
    int64_t days = dj_days_from_date(y, 1, 1) + rule_yday(d, y);
    return days * SECS_PER_DAY + d->time - off;
}

/*
 * Which of the rule's two times holds at t: the last change at or before t
 * among those of the years around t's.  Changes of a later year sort after
 * an earlier year's at the same instant, so "all year summer time" rules
 * (0/0,J365/25) come out as summer time.
 */
const dj_zone_type *dj_zone_rule_type(const dj_zone_rule *r, int64_t t)
{
    if (!r->has_dst)
        return &r->std;
    dj_civil c;
    dj_utc_to_civil(t, &c);
    bool dst = false;
    int64_t best = INT64_MIN, best_year = INT64_MIN;
    for (int64_t y = c.year - 1; y <= c.year + 1; y++) {
        int64_t change[2] = {rule_instant(&r->start, y, r->std.utoff),
                             rule_instant(&r->end, y, r->dst.utoff)};
        for (int k = 0; k < 2; k++) {
            int64_t when = change[k];
            if (when > t || when < best || (when == best && y < best_year))
                continue;
            best = when;
            best_year = y;
            dst = k == 0;
        }
    }
    return dst ? &r->dst : &r->std;
}
