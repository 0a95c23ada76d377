/* SPDX-License-Identifier: MIT */
/*
 * zone_rule.h — POSIX TZ rules ("CET-1CEST,M3.5.0,M10.5.0/3"), the string
 * at the end of a TZif file that covers every date past its last listed
 * transition: the kinds of local time a zone has, the rule, and what the
 * TZif reader (tzif.c) and the calendar's time parser (calendar.c) take
 * from zone_rule.c. Other rooms include calendar.h, which includes this.
 */
#ifndef DJ_TIME_ZONE_RULE_H
#define DJ_TIME_ZONE_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DJ_ZONE_ABBR_MAX 16   /* "CEST", "+0530" */

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

/* ---- the time room's own ------------------------------------------------ */

/* n bytes of src as a zone abbreviation, cut to DJ_ZONE_ABBR_MAX - 1. */
void dj_zone_copy_abbr(char *dst, const char *src, size_t n);
/* A POSIX TZ rule into *r; false if it is not one. */
bool dj_zone_rule_parse(const char *tz, dj_zone_rule *r);
/* Which of the rule's two local times holds at the UTC instant t. */
const dj_zone_type *dj_zone_rule_type(const dj_zone_rule *r, int64_t t);

#endif
