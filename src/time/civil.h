/* SPDX-License-Identifier: MIT */
/*
 * civil.h — calendar dates without a zone: proleptic Gregorian arithmetic
 * on int64 UTC seconds (civil.c), the ground floor of the time room. The
 * first part is public (calendar.h includes it); the second is the time
 * room's own, shared by the POSIX rules (zone_rule.c), the TZif reader's
 * conversions (tzif.c) and the deadline calendar (calendar.c).
 */
#ifndef DJ_TIME_CIVIL_H
#define DJ_TIME_CIVIL_H

#include <stdbool.h>
#include <stdint.h>

/* Calendar fields of a local (or UTC) time. */
typedef struct dj_civil {
    int year, month, day;     /* month 1-12, day 1-31 */
    int hour, minute, second;
} dj_civil;

/* Civil UTC <-> seconds, and the weekday (0 Sunday) of a date. */
int64_t dj_civil_to_utc(const dj_civil *c);
void dj_utc_to_civil(int64_t t, dj_civil *out);
int dj_weekday(int year, int month, int day);

/* ---- the time room's own ------------------------------------------------ */

#define SECS_PER_DAY 86400

/* a / b rounded towards minus infinity. */
int64_t dj_floor_div(int64_t a, int64_t b);
bool dj_is_leap(int64_t y);
/* Days in month m (1-12) of year y. */
int dj_days_in_month(int64_t y, int m);
/* Days of year y before the first of month m (1-12). */
int dj_days_before_month(int64_t y, int m);
/* Days since 1970-01-01 of a date; month and day may be out of range. */
int64_t dj_days_from_date(int64_t y, int64_t m, int64_t d);
/* The date (year, month, day only) of a count of days since 1970-01-01. */
void dj_date_from_days(int64_t days, dj_civil *out);
/* Weekday (0 = Sunday) of a count of days since 1970-01-01. */
int dj_weekday_of_days(int64_t days);

#endif
