/* SPDX-License-Identifier: MIT */
/*
 * calendar.c — see calendar.h.
 *
 * Layout of this file, bottom-up:
 *   civil dates    proleptic Gregorian arithmetic on int64 seconds, done by
 *                  counting whole years and a month table (no libc time);
 *   POSIX rules    the TZ string at the end of a TZif file: parsing it and
 *                  working out which side of its two changes an instant is;
 *   TZif           the binary zone file: header, the 64-bit data block of
 *                  version 2+ files (the 32-bit one of version 1), footer;
 *   conversions    UTC -> local by binary search or the rule, local -> UTC
 *                  by trying every offset the zone knows;
 *   schedules      snapping, weekdays, absences, the absence cap;
 *   text           weekday masks, durations, clock times, formatting and
 *                  parsing of times.
 *
 * Every error message is written with snprintf into the caller's bounded
 * buffer; no function allocates except the zone loader, which holds the
 * file in a heap buffer of at most DJ_TZIF_MAX bytes while parsing it.
 */
#include "time/calendar.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fmt.h"

#define SECS_PER_DAY 86400
#define DJ_TZIF_MAX (256 * 1024)  /* real zone files are a few KiB */
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
/* Days before each month in a common year. */
static const int MONTH_START[12] = {0,   31,  59,  90,  120, 151,
                                    181, 212, 243, 273, 304, 334};

/* ---- civil dates -------------------------------------------------------- */

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static bool is_leap(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int64_t y, int m)
{
    static const int len[12] = {31, 28, 31, 30, 31, 30,
                                31, 31, 30, 31, 30, 31};
    return len[m - 1] + (m == 2 && is_leap(y));
}

/* Days from 1 January of year 1 to 1 January of year y. */
static int64_t days_before_year(int64_t y)
{
    int64_t p = y - 1;
    return 365 * p + floor_div(p, 4) - floor_div(p, 100) + floor_div(p, 400);
}

/* Days since 1970-01-01 of a date; month and day may be out of range. */
static int64_t days_from_date(int64_t y, int64_t m, int64_t d)
{
    y += floor_div(m - 1, 12);
    m = m - 1 - 12 * floor_div(m - 1, 12) + 1;
    int64_t days = days_before_year(y) - days_before_year(1970);
    days += MONTH_START[m - 1] + (m > 2 && is_leap(y));
    return days + d - 1;
}

int64_t dj_civil_to_utc(const dj_civil *c)
{
    int64_t days = days_from_date(c->year, c->month, c->day);
    return days * SECS_PER_DAY + (int64_t)c->hour * 3600 +
           (int64_t)c->minute * 60 + c->second;
}

static void date_from_days(int64_t days, dj_civil *out)
{
    /* Estimate the year, then correct it by whole years. */
    int64_t y = 1970 + floor_div(days * 400, 146097);
    int64_t base = days_before_year(1970);
    while (days_before_year(y) - base > days)
        y--;
    while (days_before_year(y + 1) - base <= days)
        y++;
    int yday = (int)(days - (days_before_year(y) - base));
    int m = 12;
    while (m > 1 && MONTH_START[m - 1] + (m > 2 && is_leap(y)) > yday)
        m--;
    out->year = (int)y;
    out->month = m;
    out->day = yday - MONTH_START[m - 1] - (m > 2 && is_leap(y)) + 1;
}

void dj_utc_to_civil(int64_t t, dj_civil *out)
{
    int64_t days = floor_div(t, SECS_PER_DAY);
    int64_t secs = t - days * SECS_PER_DAY;
    date_from_days(days, out);
    out->hour = (int)(secs / 3600);
    out->minute = (int)(secs / 60 % 60);
    out->second = (int)(secs % 60);
}

static int weekday_of_days(int64_t days)
{
    return (int)(days - 7 * floor_div(days + 4, 7) + 4); /* 1970-01-01: Thu */
}

int dj_weekday(int year, int month, int day)
{
    return weekday_of_days(days_from_date(year, month, day));
}

/* ---- POSIX TZ rules ----------------------------------------------------- */

static void copy_abbr(char *dst, const char *src, size_t n)
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
        copy_abbr(abbr, p, (size_t)(q - p));
        *s = q + 1;
        return true;
    }
    const char *q = p;
    while (isalpha((unsigned char)*q))
        q++;
    if (q - p < 3)
        return false;
    copy_abbr(abbr, p, (size_t)(q - p));
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

static bool parse_posix_rule(const char *tz, dj_zone_rule *r)
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
        return d->day - 1 + (is_leap(y) && d->day >= 60);
    if (d->kind == 'N')
        return d->day;
    int first = weekday_of_days(days_from_date(y, d->month, 1));
    int mday = 1 + (d->day - first + 7) % 7 + 7 * (d->week - 1);
    while (mday > days_in_month(y, d->month))
        mday -= 7;
    return MONTH_START[d->month - 1] + (d->month > 2 && is_leap(y)) + mday - 1;
}

/* UTC instant of a rule change in year y, the local clock reading `off`. */
static int64_t rule_instant(const dj_zone_rule_date *d, int64_t y,
                            int32_t off)
{
    int64_t days = days_from_date(y, 1, 1) + rule_yday(d, y);
    return days * SECS_PER_DAY + d->time - off;
}

/*
 * Which of the rule's two times holds at t: the last change at or before t
 * among those of the years around t's.  Changes of a later year sort after
 * an earlier year's at the same instant, so "all year summer time" rules
 * (0/0,J365/25) come out as summer time.
 */
static const dj_zone_type *rule_type(const dj_zone_rule *r, int64_t t)
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

/* ---- zones -------------------------------------------------------------- */

void dj_zone_utc(dj_zone *zone)
{
    memset(zone, 0, sizeof *zone);
    snprintf(zone->name, sizeof zone->name, "UTC");
    zone->ntypes = 1;
    snprintf(zone->types[0].abbr, DJ_ZONE_ABBR_MAX, "UTC");
}

int dj_zone_parse_posix(const char *tz, dj_zone *zone, char *err,
                        size_t errlen)
{
    dj_zone_utc(zone);
    dj_zone_rule r;
    if (!tz || !parse_posix_rule(tz, &r)) {
        dj_fmt(err, errlen, "bad POSIX TZ rule '%s'", tz ? tz : "");
        return -1;
    }
    snprintf(zone->name, sizeof zone->name, "%s", tz);
    zone->rule = r;
    zone->has_rule = true;
    zone->types[0] = r.std;
    zone->ntypes = 1;
    if (r.has_dst)
        zone->types[zone->ntypes++] = r.dst;
    return 0;
}

/* ---- TZif ----------------------------------------------------------------- */

typedef struct tzif_counts {
    uint32_t isut, isstd, leap, time, type, chars;
} tzif_counts;

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           p[3];
}

static int64_t be64(const unsigned char *p)
{
    return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

static bool tzif_header(const unsigned char *p, size_t len, tzif_counts *c,
                        int *version)
{
    if (len < 44 || memcmp(p, "TZif", 4) != 0)
        return false;
    *version = p[4] == 0 ? 1 : p[4] - '0';
    if (*version < 1 || *version > 9)
        return false;
    c->isut = be32(p + 20);
    c->isstd = be32(p + 24);
    c->leap = be32(p + 28);
    c->time = be32(p + 32);
    c->type = be32(p + 36);
    c->chars = be32(p + 40);
    return true;
}

/* Bytes of a data block whose times are `tsize` bytes wide. */
static size_t tzif_block_size(const tzif_counts *c, size_t tsize)
{
    return (size_t)c->time * (tsize + 1) + (size_t)c->type * 6 + c->chars +
           (size_t)c->leap * (tsize + 4) + c->isstd + c->isut;
}

static int tzif_check_counts(const tzif_counts *c, char *err, size_t errlen)
{
    if (c->type == 0 || c->type > DJ_ZONE_MAX_TYPES || c->time > DJ_ZONE_MAX_TRANS ||
        c->chars == 0 || c->chars > 4096 || (c->isstd && c->isstd != c->type) ||
        (c->isut && c->isut != c->type)) {
        dj_fmt(err, errlen, "zone file counts out of bounds");
        return -1;
    }
    if (c->leap) {
        dj_fmt(err, errlen, "leap-second zone files are not supported");
        return -1;
    }
    return 0;
}

/* Read one data block (times `tsize` bytes wide) into the zone. */
static int tzif_block(const unsigned char *p, const tzif_counts *c,
                      size_t tsize, dj_zone *z, char *err, size_t errlen)
{
    const unsigned char *times = p, *idx = p + (size_t)c->time * tsize;
    const unsigned char *info = idx + c->time;
    const char *chars = (const char *)(info + (size_t)c->type * 6);
    for (uint32_t i = 0; i < c->type; i++) {
        const unsigned char *ti = info + 6 * i;
        dj_zone_type *ty = &z->types[i];
        ty->utoff = (int32_t)be32(ti);
        ty->isdst = ti[4] != 0;
        if (ti[5] >= c->chars || ty->utoff < -25 * 3600 || ty->utoff > 26 * 3600) {
            dj_fmt(err, errlen, "zone file has a bad local time type");
            return -1;
        }
        const char *a = chars + ti[5];
        const char *nul = memchr(a, '\0', c->chars - ti[5]);
        if (!nul) {
            dj_fmt(err, errlen, "zone file has an unterminated abbreviation");
            return -1;
        }
        copy_abbr(ty->abbr, a, (size_t)(nul - a));
    }
    for (uint32_t i = 0; i < c->time; i++) {
        z->trans[i] = tsize == 8 ? be64(times + 8 * i)
                                 : (int64_t)(int32_t)be32(times + 4 * i);
        z->trans_type[i] = idx[i];
        if (idx[i] >= c->type || (i > 0 && z->trans[i] <= z->trans[i - 1])) {
            dj_fmt(err, errlen, "zone file has bad transitions");
            return -1;
        }
    }
    z->ntypes = (int)c->type;
    z->ntrans = (int)c->time;
    z->first_type = 0; /* RFC 8536: type 0 holds before the first change */
    return 0;
}

/* The "\nTZ\n" footer of version 2+ files; empty means none. */
static int tzif_footer(const unsigned char *p, size_t len, dj_zone *z,
                       char *err, size_t errlen)
{
    if (len == 0)
        return 0; /* tolerated: a file cut right after its data */
    if (len < 2 || p[0] != '\n') {
        dj_fmt(err, errlen, "zone file has no footer");
        return -1;
    }
    const unsigned char *nl = memchr(p + 1, '\n', len - 1);
    if (!nl || nl - p - 1 >= 128) {
        dj_fmt(err, errlen, "zone file footer is malformed");
        return -1;
    }
    char tz[128];
    memcpy(tz, p + 1, (size_t)(nl - p - 1));
    tz[nl - p - 1] = '\0';
    if (tz[0] == '\0')
        return 0;
    if (!parse_posix_rule(tz, &z->rule)) {
        dj_fmt(err, errlen, "zone file footer '%s' is not a TZ rule", tz);
        return -1;
    }
    z->has_rule = true;
    return 0;
}

static int tzif_parse(const unsigned char *data, size_t len, dj_zone *z,
                      char *err, size_t errlen)
{
    tzif_counts c;
    int version;
    if (!tzif_header(data, len, &c, &version)) {
        dj_fmt(err, errlen, "not a TZif zone file");
        return -1;
    }
    size_t off = 44, tsize = 4;
    if (version >= 2) {
        /* Skip the 32-bit block: the 64-bit one repeats and extends it. */
        size_t v1 = tzif_block_size(&c, 4);
        if (v1 > len - off || !tzif_header(data + off + v1, len - off - v1, &c,
                                           &version)) {
            dj_fmt(err, errlen, "zone file is truncated");
            return -1;
        }
        off += v1 + 44;
        tsize = 8;
    }
    if (tzif_check_counts(&c, err, errlen) < 0)
        return -1;
    size_t block = tzif_block_size(&c, tsize);
    if (block > len - off) {
        dj_fmt(err, errlen, "zone file is truncated");
        return -1;
    }
    if (tzif_block(data + off, &c, tsize, z, err, errlen) < 0)
        return -1;
    off += block;
    if (version >= 2)
        return tzif_footer(data + off, len - off, z, err, errlen);
    return 0;
}

int dj_zone_parse_tzif(const unsigned char *data, size_t len,
                       const char *name, dj_zone *zone, char *err,
                       size_t errlen)
{
    dj_zone_utc(zone);
    if (!data || tzif_parse(data, len, zone, err, errlen) < 0) {
        if (!data)
            dj_fmt(err, errlen, "no zone data");
        dj_zone_utc(zone);
        return -1;
    }
    snprintf(zone->name, sizeof zone->name, "%s", name ? name : "");
    return 0;
}

static bool is_utc_name(const char *name)
{
    static const char *const names[] = {"", "UTC", "GMT", "Etc/UTC",
                                        "Etc/GMT", "Z", "Zulu", "Etc/Zulu"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* Zone names come from game masters: nothing that could leave the dir. */
static bool zone_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= DJ_ZONE_NAME_MAX || name[0] == '/' || name[n - 1] == '/')
        return false;
    for (size_t i = 0; i < n; i++) {
        char ch = name[i];
        if (!isalnum((unsigned char)ch) && !strchr("_-+/", ch))
            return false;
        if (ch == '/' && name[i + 1] == '/')
            return false;
    }
    return true;
}

/* The whole file into a heap buffer of at most DJ_TZIF_MAX bytes. */
static unsigned char *read_small_file(const char *path, size_t *len,
                                      char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        dj_fmt(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    unsigned char *data = malloc(DJ_TZIF_MAX);
    size_t n = data ? fread(data, 1, DJ_TZIF_MAX, f) : 0;
    bool too_big = data && n == DJ_TZIF_MAX && fgetc(f) != EOF;
    bool bad = !data || ferror(f) || too_big;
    fclose(f);
    if (bad) {
        dj_fmt(err, errlen, "%s: %s", path,
                too_big ? "too large for a zone file" : "cannot read");
        free(data);
        return NULL;
    }
    *len = n;
    return data;
}

int dj_zone_load_dir(const char *dir, const char *name, dj_zone *zone,
                     char *err, size_t errlen)
{
    dj_zone_utc(zone);
    if (!name || is_utc_name(name))
        return 0;
    if (!zone_name_ok(name)) {
        dj_fmt(err, errlen, "unknown time zone '%s' (a name of the time "
               "zone database, as \"Europe/Paris\")", name);
        return -1;
    }
    char path[512];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
        dj_fmt(err, errlen, "zoneinfo path too long");
        return -1;
    }
    size_t len = 0;
    char why[300];
    unsigned char *data = read_small_file(path, &len, why, sizeof why);
    int rc = data ? dj_zone_parse_tzif(data, len, name, zone, why, sizeof why) : -1;
    free(data);
    if (rc < 0)
        dj_fmt(err, errlen, "unknown time zone '%s' (%s)", name, why);
    return rc;
}

int dj_zone_load(const char *name, dj_zone *zone, char *err, size_t errlen)
{
    /* $TZDIR first, as the C library's own zone loading honours it */
    const char *dir = getenv("TZDIR");
    return dj_zone_load_dir(dir && *dir ? dir : DJ_ZONEINFO_DIR, name, zone,
                            err, errlen);
}

/* ---- conversions -------------------------------------------------------- */

static const dj_zone_type *type_at(const dj_zone *z, int64_t t)
{
    if (z->ntrans == 0)
        return z->has_rule ? rule_type(&z->rule, t) : &z->types[z->first_type];
    if (t < z->trans[0])
        return &z->types[z->first_type];
    if (t >= z->trans[z->ntrans - 1] && z->has_rule)
        return rule_type(&z->rule, t);
    int lo = 0, hi = z->ntrans - 1; /* trans[lo] <= t */
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (z->trans[mid] <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return &z->types[z->trans_type[lo]];
}

void dj_zone_to_local(const dj_zone *zone, int64_t t, dj_local_time *out)
{
    const dj_zone_type *ty = type_at(zone, t);
    int64_t local = t + ty->utoff;
    dj_utc_to_civil(local, &out->c);
    out->wday = weekday_of_days(floor_div(local, SECS_PER_DAY));
    out->utoff = ty->utoff;
    out->isdst = ty->isdst;
    memcpy(out->abbr, ty->abbr, sizeof out->abbr);
}

/*
 * The earliest instant whose local reading is `wall` with one of the zone's
 * offsets, among those whose type satisfies `abbr` (NULL: any); false if
 * none.
 */
static bool earliest_reading(const dj_zone *z, int64_t wall, const char *abbr,
                             int64_t *out)
{
    bool found = false;
    int nrule = z->has_rule ? 2 : 0;
    for (int i = 0; i < z->ntypes + nrule; i++) {
        const dj_zone_type *cand = i < z->ntypes ? &z->types[i]
                                   : i == z->ntypes ? &z->rule.std
                                                    : &z->rule.dst;
        int64_t t = wall - cand->utoff;
        const dj_zone_type *real = type_at(z, t);
        if (real->utoff != cand->utoff)
            continue;
        if (abbr && strcmp(real->abbr, abbr) != 0)
            continue;
        if (!found || t < *out)
            *out = t;
        found = true;
    }
    return found;
}

int64_t dj_zone_from_local(const dj_zone *zone, const dj_civil *local)
{
    int64_t wall = dj_civil_to_utc(local);
    int64_t t;
    if (earliest_reading(zone, wall, NULL, &t))
        return t;
    /*
     * A gap: read the wall time with the offset in force before it (a day
     * earlier is before any gap that could contain this wall time), which
     * lands past the change by exactly the gap's length.
     */
    return wall - type_at(zone, wall - SECS_PER_DAY)->utoff;
}

/* ---- schedules ---------------------------------------------------------- */

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
        date_from_days(days_from_date(day.year, day.month, day.day), &norm);
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
        date_from_days(days_from_date(day.year, day.month, day.day), &norm);
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
           c->day <= days_in_month(c->year, c->month);
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
    if (earliest_reading(z, wall, abbr, &t))
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
        copy_abbr(abbr, p, (size_t)(q - p));
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
