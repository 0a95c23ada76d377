/* SPDX-License-Identifier: MIT */
/*
 * civil.c — proleptic Gregorian arithmetic on int64 seconds, done by
 * counting whole years and a month table (no libc time): the ground the
 * POSIX rules, the TZif reader and the deadline calendar stand on. See
 * civil.h (the room's own helpers) and calendar.h (dj_civil_to_utc,
 * dj_utc_to_civil, dj_weekday).
 */
#include "time/civil.h"

/* Days before each month in a common year. */
static const int MONTH_START[12] = {0,   31,  59,  90,  120, 151,
                                    181, 212, 243, 273, 304, 334};

int64_t dj_floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

bool dj_is_leap(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int dj_days_in_month(int64_t y, int m)
{
    static const int len[12] = {31, 28, 31, 30, 31, 30,
                                31, 31, 30, 31, 30, 31};
    return len[m - 1] + (m == 2 && dj_is_leap(y));
}

/* Days from 1 January of year 1 to 1 January of year y. */
static int64_t days_before_year(int64_t y)
{
    int64_t p = y - 1;
    return 365 * p + dj_floor_div(p, 4) - dj_floor_div(p, 100) + dj_floor_div(p, 400);
}

/* Days since 1970-01-01 of a date; month and day may be out of range. */
int64_t dj_days_from_date(int64_t y, int64_t m, int64_t d)
{
    y += dj_floor_div(m - 1, 12);
    m = m - 1 - 12 * dj_floor_div(m - 1, 12) + 1;
    int64_t days = days_before_year(y) - days_before_year(1970);
    days += MONTH_START[m - 1] + (m > 2 && dj_is_leap(y));
    return days + d - 1;
}

int dj_days_before_month(int64_t y, int m)
{
    return MONTH_START[m - 1] + (m > 2 && dj_is_leap(y));
}

int64_t dj_civil_to_utc(const dj_civil *c)
{
    int64_t days = dj_days_from_date(c->year, c->month, c->day);
    return days * SECS_PER_DAY + (int64_t)c->hour * 3600 +
           (int64_t)c->minute * 60 + c->second;
}

void dj_date_from_days(int64_t days, dj_civil *out)
{
    /* Estimate the year, then correct it by whole years. */
    int64_t y = 1970 + dj_floor_div(days * 400, 146097);
    int64_t base = days_before_year(1970);
    while (days_before_year(y) - base > days)
        y--;
    while (days_before_year(y + 1) - base <= days)
        y++;
    int yday = (int)(days - (days_before_year(y) - base));
    int m = 12;
    while (m > 1 && MONTH_START[m - 1] + (m > 2 && dj_is_leap(y)) > yday)
        m--;
    out->year = (int)y;
    out->month = m;
    out->day = yday - MONTH_START[m - 1] - (m > 2 && dj_is_leap(y)) + 1;
}

void dj_utc_to_civil(int64_t t, dj_civil *out)
{
    int64_t days = dj_floor_div(t, SECS_PER_DAY);
    int64_t secs = t - days * SECS_PER_DAY;
    dj_date_from_days(days, out);
    out->hour = (int)(secs / 3600);
    out->minute = (int)(secs / 60 % 60);
    out->second = (int)(secs % 60);
}

int dj_weekday_of_days(int64_t days)
{
    return (int)(days - 7 * dj_floor_div(days + 4, 7) + 4); /* 1970-01-01: Thu */
}

int dj_weekday(int year, int month, int day)
{
    return dj_weekday_of_days(dj_days_from_date(year, month, day));
}
