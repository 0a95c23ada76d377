/* SPDX-License-Identifier: MIT */
/*
 * test_calendar.c — deadline arithmetic: civil dates, the TZif and POSIX
 * rule readers (checked against hand-worked instants and, where the C
 * library has the same zone, against localtime_r), wall times that do not
 * exist or exist twice, schedules (time of day, weekday masks, absences and
 * their cap) across daylight-saving changes in Europe/Amsterdam and
 * America/New_York, and every text form both ways.
 *
 * Expectations are mostly written as the local text a player would read
 * ("Mon 29 Mar 2027 20:00 CEST"), so a failure says what went wrong.
 * Needs the system's tzdata (/usr/share/zoneinfo).
 */
#define _POSIX_C_SOURCE 200809L  /* setenv, tzset, localtime_r */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "time/calendar.h"
#include "testlib.h"

/* A UTC instant from its fields. */
static int64_t U(int y, int mo, int d, int h, int mi)
{
    dj_civil c = {y, mo, d, h, mi, 0};
    return dj_civil_to_utc(&c);
}

/* Local text of t, in a buffer owned by the caller. */
static const char *fmt(const dj_zone *z, int64_t t, char *out, size_t n)
{
    dj_buf b;
    dj_buf_init(&b);
    dj_time_format(z, t, &b);
    snprintf(out, n, "%s", b.data);
    dj_buf_free(&b);
    return out;
}

#define CHECK_TIME(z, t, want)                                               \
    do {                                                                     \
        char s_[64];                                                         \
        CHECK_STR(fmt((z), (t), s_, sizeof s_), (want));                     \
    } while (0)

static void load(const char *name, dj_zone *z)
{
    char err[300] = "";
    int rc = dj_zone_load(name, z, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "cannot load %s: %s\n", name, err);
    CHECK(rc == 0);
}

/* ---- civil dates ---------------------------------------------------------- */

static void test_civil(void)
{
    CHECK(U(1970, 1, 1, 0, 0) == 0);
    CHECK(U(2027, 1, 9, 20, 0) == 1799524800);
    CHECK(U(2000, 3, 1, 0, 0) - U(2000, 2, 28, 0, 0) == 2 * 86400);
    CHECK(U(1900, 3, 1, 0, 0) - U(1900, 2, 28, 0, 0) == 86400);
    CHECK(U(1969, 12, 31, 23, 59) == -60);
    CHECK(U(2027, 1, 32, 0, 0) == U(2027, 2, 1, 0, 0));   /* normalised */
    CHECK(U(2027, 13, 1, 0, 0) == U(2028, 1, 1, 0, 0));
    CHECK(dj_weekday(2027, 1, 9) == 6);
    CHECK(dj_weekday(1970, 1, 1) == 4);
    CHECK(dj_weekday(1969, 12, 28) == 0);
    CHECK(dj_weekday(2000, 2, 29) == 2);

    /* Round trip, every 7 hours and a bit over 1960-2100. */
    int bad = 0;
    for (int64_t t = U(1960, 1, 1, 0, 0); t < U(2100, 1, 1, 0, 0);
         t += 7 * 3600 + 13) {
        dj_civil c;
        dj_utc_to_civil(t, &c);
        if (dj_civil_to_utc(&c) != t)
            bad++;
    }
    CHECK(bad == 0);
    dj_civil c;
    dj_utc_to_civil(U(2024, 2, 29, 23, 59) + 59, &c);
    CHECK(c.year == 2024 && c.month == 2 && c.day == 29 && c.hour == 23 &&
          c.minute == 59 && c.second == 59);
}

/* ---- zones ---------------------------------------------------------------- */

static void test_zone_offsets(void)
{
    dj_zone ams, ny;
    load("Europe/Amsterdam", &ams);
    load("America/New_York", &ny);
    dj_local_time lt;

    dj_zone_to_local(&ams, U(2027, 1, 9, 19, 0), &lt);
    CHECK(lt.utoff == 3600 && !lt.isdst && lt.c.hour == 20 && lt.wday == 6);
    CHECK_STR(lt.abbr, "CET");
    dj_zone_to_local(&ams, U(2027, 7, 1, 12, 0), &lt);
    CHECK(lt.utoff == 7200 && lt.isdst);
    CHECK_STR(lt.abbr, "CEST");
    /* EU changes at 01:00 UTC on the last Sundays of March and October. */
    dj_zone_to_local(&ams, U(2027, 3, 28, 0, 59), &lt);
    CHECK(lt.utoff == 3600 && lt.c.hour == 1 && lt.c.minute == 59);
    dj_zone_to_local(&ams, U(2027, 3, 28, 1, 0), &lt);
    CHECK(lt.utoff == 7200 && lt.c.hour == 3 && lt.c.minute == 0);
    dj_zone_to_local(&ams, U(2027, 10, 31, 0, 59), &lt);
    CHECK(lt.utoff == 7200 && lt.c.hour == 2);
    dj_zone_to_local(&ams, U(2027, 10, 31, 1, 0), &lt);
    CHECK(lt.utoff == 3600 && lt.c.hour == 2);
    /* Far past the file's table: the footer rule. */
    dj_zone_to_local(&ams, U(2100, 7, 1, 12, 0), &lt);
    CHECK(lt.utoff == 7200);
    dj_zone_to_local(&ams, U(2100, 12, 1, 12, 0), &lt);
    CHECK(lt.utoff == 3600);
    /* History: Amsterdam kept +00:19:32 before 1937 ("AMT"). */
    dj_zone_to_local(&ams, U(1930, 1, 1, 12, 0), &lt);
    CHECK(lt.utoff == 1172);

    /* US: second Sunday of March, first of November, 02:00 local. */
    dj_zone_to_local(&ny, U(2027, 3, 14, 6, 59), &lt);
    CHECK(lt.utoff == -5 * 3600 && lt.c.hour == 1);
    CHECK_STR(lt.abbr, "EST");
    dj_zone_to_local(&ny, U(2027, 3, 14, 7, 0), &lt);
    CHECK(lt.utoff == -4 * 3600 && lt.c.hour == 3);
    CHECK_STR(lt.abbr, "EDT");
    dj_zone_to_local(&ny, U(2027, 11, 7, 5, 59), &lt);
    CHECK(lt.utoff == -4 * 3600 && lt.c.hour == 1);
    dj_zone_to_local(&ny, U(2027, 11, 7, 6, 0), &lt);
    CHECK(lt.utoff == -5 * 3600 && lt.c.hour == 1);
    dj_zone_to_local(&ny, U(2090, 7, 4, 12, 0), &lt);
    CHECK(lt.utoff == -4 * 3600);
}

/* The C library reading the same zone files must agree with us. */
static void cross_check_libc(const char *name)
{
    dj_zone z;
    load(name, &z);
    setenv("TZ", name, 1);
    tzset();
    int bad = 0;
    for (int64_t t = U(1975, 1, 1, 0, 0); t < U(2080, 1, 1, 0, 0);
         t += 5 * 3600 + 1234) {
        time_t tt = (time_t)t;
        struct tm tm;
        if (!localtime_r(&tt, &tm))
            continue;
        dj_local_time lt;
        dj_zone_to_local(&z, t, &lt);
        if (lt.c.year != tm.tm_year + 1900 || lt.c.month != tm.tm_mon + 1 ||
            lt.c.day != tm.tm_mday || lt.c.hour != tm.tm_hour ||
            lt.c.minute != tm.tm_min || lt.wday != tm.tm_wday ||
            lt.isdst != (tm.tm_isdst > 0)) {
            if (bad++ < 3)
                fprintf(stderr, "%s: %lld differs from libc\n", name,
                        (long long)t);
        }
    }
    CHECK(bad == 0);
    unsetenv("TZ");
    tzset();
}

static void test_libc_agrees(void)
{
    cross_check_libc("Europe/Amsterdam");
    cross_check_libc("America/New_York");
    cross_check_libc("Australia/Sydney");   /* summer time across new year */
    cross_check_libc("Asia/Kolkata");       /* half-hour offset, no DST */
    cross_check_libc("Australia/Lord_Howe");/* a half-hour DST change */
}

static void test_posix_rules(void)
{
    dj_zone file, rule;
    char err[200];
    load("America/New_York", &file);
    CHECK(dj_zone_parse_posix("EST5EDT,M3.2.0,M11.1.0", &rule, err, sizeof err) == 0);
    int bad = 0;
    for (int64_t t = U(2010, 1, 1, 0, 0); t < U(2040, 1, 1, 0, 0); t += 3 * 3600 + 7) {
        dj_local_time a, b;
        dj_zone_to_local(&file, t, &a);
        dj_zone_to_local(&rule, t, &b);
        bad += a.utoff != b.utoff || strcmp(a.abbr, b.abbr) != 0;
    }
    CHECK(bad == 0);

    /* Southern hemisphere: summer time spans the new year. */
    load("Australia/Sydney", &file);
    CHECK(dj_zone_parse_posix("AEST-10AEDT,M10.1.0,M4.1.0/3", &rule, err,
                              sizeof err) == 0);
    bad = 0;
    for (int64_t t = U(2010, 1, 1, 0, 0); t < U(2040, 1, 1, 0, 0); t += 3 * 3600 + 7) {
        dj_local_time a, b;
        dj_zone_to_local(&file, t, &a);
        dj_zone_to_local(&rule, t, &b);
        bad += a.utoff != b.utoff;
    }
    CHECK(bad == 0);

    dj_local_time lt;
    CHECK(dj_zone_parse_posix("<+0330>-3:30", &rule, err, sizeof err) == 0);
    dj_zone_to_local(&rule, U(2027, 6, 1, 0, 0), &lt);
    CHECK(lt.utoff == 3 * 3600 + 1800);
    CHECK_STR(lt.abbr, "+0330");
    /* All-year summer time. */
    CHECK(dj_zone_parse_posix("EST5EDT,0/0,J365/25", &rule, err, sizeof err) == 0);
    dj_zone_to_local(&rule, U(2027, 1, 1, 5, 0), &lt);
    CHECK(lt.isdst && lt.utoff == -4 * 3600);
    dj_zone_to_local(&rule, U(2027, 12, 31, 23, 0), &lt);
    CHECK(lt.isdst);
    /* Julian day rule without Feb 29: J60 is 1 March, leap year or not. */
    CHECK(dj_zone_parse_posix("XST0XDT,J60/0,J300/0", &rule, err, sizeof err) == 0);
    dj_zone_to_local(&rule, U(2028, 2, 29, 12, 0), &lt);
    CHECK(!lt.isdst);
    dj_zone_to_local(&rule, U(2028, 3, 1, 0, 30), &lt);
    CHECK(lt.isdst);

    const char *bad_rules[] = {"", "E5", "EST", "EST5EDT,M3.2.0", "EST5EDT,M13.1.0,M11.1.0",
                               "EST5EDT,M3.2.0,M11.1.0,", "<AB>5", "EST500", "EST5EDT,J0,J5"};
    for (size_t i = 0; i < sizeof bad_rules / sizeof bad_rules[0]; i++) {
        err[0] = '\0';
        CHECK(dj_zone_parse_posix(bad_rules[i], &rule, err, sizeof err) == -1);
        CHECK(strstr(err, "bad POSIX TZ rule") != NULL);
        CHECK_STR(rule.name, "UTC");
    }
}

static void test_zone_errors(void)
{
    dj_zone z;
    char err[300] = "";
    CHECK(dj_zone_load("Mars/Olympus_Mons", &z, err, sizeof err) == -1);
    CHECK(strstr(err, "unknown time zone 'Mars/Olympus_Mons'") != NULL);
    /* Every caller refuses the zone: the message does not say it is used. */
    CHECK(strstr(err, "using UTC") == NULL);
    CHECK_STR(z.name, "UTC");
    dj_local_time lt;
    dj_zone_to_local(&z, U(2027, 7, 1, 12, 0), &lt);
    CHECK(lt.utoff == 0 && lt.c.hour == 12);

    const char *unsafe[] = {"../../etc/passwd", "/etc/passwd", "Europe/../../etc",
                            "Europe//Paris", "Europe/Paris/", "Eu rope", "a\nb"};
    for (size_t i = 0; i < sizeof unsafe / sizeof unsafe[0]; i++) {
        err[0] = '\0';
        CHECK(dj_zone_load(unsafe[i], &z, err, sizeof err) == -1);
        CHECK(strstr(err, "unknown time zone") != NULL);
    }
    /* A directory is not a zone. */
    CHECK(dj_zone_load("Europe", &z, err, sizeof err) == -1);
    /* UTC needs no file. */
    CHECK(dj_zone_load_dir("/nonexistent", "UTC", &z, err, sizeof err) == 0);
    CHECK(dj_zone_load_dir("/nonexistent", "Europe/Amsterdam", &z, err,
                           sizeof err) == -1);
    CHECK(dj_zone_parse_tzif((const unsigned char *)"TZif", 4, "x", &z, err,
                             sizeof err) == -1);
    CHECK(dj_zone_parse_tzif((const unsigned char *)"NOTTZIF", 7, "x", &z, err,
                             sizeof err) == -1);
    CHECK(strstr(err, "not a TZif") != NULL);

    /* Every truncation of a real file is refused or read, never overread. */
    FILE *f = fopen(DJ_ZONEINFO_DIR "/Europe/Amsterdam", "rb");
    CHECK(f != NULL);
    if (!f)
        return;
    static unsigned char data[65536];
    size_t n = fread(data, 1, sizeof data, f);
    fclose(f);
    CHECK(dj_zone_parse_tzif(data, n, "Europe/Amsterdam", &z, err, sizeof err) == 0);
    int accepted = 0;
    for (size_t len = 0; len < n; len++) {
        unsigned char *copy = malloc(len ? len : 1);
        memcpy(copy, data, len);
        accepted += dj_zone_parse_tzif(copy, len, "cut", &z, err, sizeof err) == 0;
        free(copy);
    }
    /* Only cuts inside the footer's last line or right before it may pass. */
    CHECK(accepted <= 2);
    /* Corrupt bytes one at a time: no crash whatever the result. */
    for (size_t i = 0; i < n; i += 7) {
        unsigned char saved = data[i];
        data[i] ^= 0xa5;
        (void)dj_zone_parse_tzif(data, n, "bent", &z, err, sizeof err);
        data[i] = saved;
    }
    CHECK(1);
}

/* ---- local -> UTC: gaps and overlaps --------------------------------------- */

static int64_t L(const dj_zone *z, int y, int mo, int d, int h, int mi)
{
    dj_civil c = {y, mo, d, h, mi, 0};
    return dj_zone_from_local(z, &c);
}

static void test_gaps_and_overlaps(void)
{
    dj_zone ams, ny;
    load("Europe/Amsterdam", &ams);
    load("America/New_York", &ny);
    /* Ordinary times. */
    CHECK(L(&ams, 2027, 1, 9, 20, 0) == U(2027, 1, 9, 19, 0));
    CHECK(L(&ams, 2027, 7, 9, 20, 0) == U(2027, 7, 9, 18, 0));
    CHECK(L(&ny, 2027, 1, 9, 20, 0) == U(2027, 1, 10, 1, 0));
    /* Gap: 02:30 does not exist; read as 03:30 summer time. */
    CHECK(L(&ams, 2027, 3, 28, 2, 30) == U(2027, 3, 28, 1, 30));
    CHECK_TIME(&ams, L(&ams, 2027, 3, 28, 2, 30), "Sun 28 Mar 2027 03:30 CEST");
    CHECK(L(&ams, 2027, 3, 28, 2, 0) == U(2027, 3, 28, 1, 0));
    CHECK(L(&ny, 2027, 3, 14, 2, 30) == U(2027, 3, 14, 7, 30));
    CHECK_TIME(&ny, L(&ny, 2027, 3, 14, 2, 30), "Sun 14 Mar 2027 03:30 EDT");
    /* Overlap: the earlier instant, still summer time. */
    CHECK(L(&ams, 2027, 10, 31, 2, 30) == U(2027, 10, 31, 0, 30));
    CHECK_TIME(&ams, L(&ams, 2027, 10, 31, 2, 30), "Sun 31 Oct 2027 02:30 CEST");
    CHECK(L(&ny, 2027, 11, 7, 1, 30) == U(2027, 11, 7, 5, 30));
    CHECK_TIME(&ny, L(&ny, 2027, 11, 7, 1, 30), "Sun 07 Nov 2027 01:30 EDT");
    /* Right after each change. */
    CHECK(L(&ams, 2027, 3, 28, 3, 0) == U(2027, 3, 28, 1, 0));
    CHECK(L(&ams, 2027, 10, 31, 3, 0) == U(2027, 10, 31, 2, 0));
    /* Every real local reading maps back to itself or the earlier twin. */
    int bad = 0;
    for (int64_t t = U(2027, 1, 1, 0, 0); t < U(2028, 1, 1, 0, 0); t += 900) {
        dj_local_time lt;
        dj_zone_to_local(&ams, t, &lt);
        int64_t back = dj_zone_from_local(&ams, &lt.c);
        bad += !(back == t || (back == t - 3600 && !lt.isdst));
    }
    CHECK(bad == 0);
}

/* ---- schedules -------------------------------------------------------------- */

static void sched(dj_schedule *s, const char *zone, int tod, const char *days)
{
    char err[100];
    dj_schedule_default(s);
    snprintf(s->zone, sizeof s->zone, "%s", zone);
    s->time_of_day = tod;
    CHECK(dj_days_parse(days, &s->days, err, sizeof err) == 0);
}

static void test_defaults(void)
{
    dj_schedule s;
    dj_schedule_default(&s);
    CHECK(s.delay[DJ_MOVEMENT] == 4320 && s.delay[DJ_RETREAT] == 1440 &&
          s.delay[DJ_ADJUSTMENT] == 1440);
    CHECK(s.time_of_day == -1 && s.days == DJ_DAYS_ALL && s.grace == 1440 &&
          s.absence_limit == 14);
    CHECK_STR(s.zone, "UTC");
    CHECK(dj_grace_expiry(&s, 1000) == 1000 + 86400);
    s.grace = 0;
    CHECK(dj_grace_expiry(&s, 1000) == 1000);
}

static void test_snapping(void)
{
    dj_zone ams;
    dj_schedule s;
    load("Europe/Amsterdam", &ams);
    sched(&s, "Europe/Amsterdam", 20 * 60, "SMTWTFS");
    /* Fri 12:00 + 72 h = Mon 13:00 (summer time by now) -> Mon 20:00. */
    int64_t start = L(&ams, 2027, 3, 26, 12, 0);
    int64_t d = dj_deadline_next(&s, &ams, DJ_MOVEMENT, start, NULL, 0);
    CHECK_TIME(&ams, d, "Mon 29 Mar 2027 20:00 CEST");
    /* Already past 20:00: the next day's. */
    d = dj_deadline_next(&s, &ams, DJ_RETREAT, L(&ams, 2027, 1, 8, 20, 1), NULL, 0);
    CHECK_TIME(&ams, d, "Sun 10 Jan 2027 20:00 CET");
    /* Exactly 20:00 stays. */
    d = dj_deadline_next(&s, &ams, DJ_RETREAT, L(&ams, 2027, 1, 8, 20, 0), NULL, 0);
    CHECK_TIME(&ams, d, "Sat 09 Jan 2027 20:00 CET");
    /* No time of day: just the delay. */
    s.time_of_day = -1;
    d = dj_deadline_next(&s, &ams, DJ_ADJUSTMENT, L(&ams, 2027, 1, 8, 9, 17), NULL, 0);
    CHECK_TIME(&ams, d, "Sat 09 Jan 2027 09:17 CET");
    /* Whole days are calendar days: 1 day across the spring change is 23 h. */
    d = dj_deadline_next(&s, &ams, DJ_RETREAT, L(&ams, 2027, 3, 27, 10, 0), NULL, 0);
    CHECK_TIME(&ams, d, "Sun 28 Mar 2027 10:00 CEST");
    /* Minutes beyond whole days are elapsed time: 25 h is 1 day + 1 h. */
    s.delay[DJ_RETREAT] = 25 * 60;
    d = dj_deadline_next(&s, &ams, DJ_RETREAT, L(&ams, 2027, 3, 27, 10, 0), NULL, 0);
    CHECK_TIME(&ams, d, "Sun 28 Mar 2027 11:00 CEST");
    s.delay[DJ_RETREAT] = 1440;
    /* A bad phase type adds nothing rather than reading out of bounds. */
    CHECK(dj_deadline_next(&s, &ams, (dj_phase_type)7, start, NULL, 0) == start);
}

static void test_weekdays(void)
{
    dj_zone ams;
    dj_schedule s;
    load("Europe/Amsterdam", &ams);
    sched(&s, "Europe/Amsterdam", 20 * 60, "-MTWTF-");
    /* Thu 21:00 + 24 h -> Fri 21:00 -> Sat 20:00 -> no weekends -> Mon. */
    int64_t d = dj_deadline_next(&s, &ams, DJ_RETREAT, L(&ams, 2027, 1, 7, 21, 0), NULL, 0);
    CHECK_TIME(&ams, d, "Mon 11 Jan 2027 20:00 CET");
    /* Thu 12:00 + 24 h -> Fri 20:00 is allowed. */
    d = dj_deadline_next(&s, &ams, DJ_RETREAT, L(&ams, 2027, 1, 7, 12, 0), NULL, 0);
    CHECK_TIME(&ams, d, "Fri 08 Jan 2027 20:00 CET");
    /* Only Sundays. */
    sched(&s, "Europe/Amsterdam", 20 * 60, "S------");
    d = dj_deadline_next(&s, &ams, DJ_RETREAT, L(&ams, 2027, 1, 11, 12, 0), NULL, 0);
    CHECK_TIME(&ams, d, "Sun 17 Jan 2027 20:00 CET");
    /* No time of day: the same wall time on the next allowed day. */
    sched(&s, "Europe/Amsterdam", -1, "-MTWTF-");
    d = dj_deadline_next(&s, &ams, DJ_RETREAT, L(&ams, 2027, 1, 8, 9, 30), NULL, 0);
    CHECK_TIME(&ams, d, "Mon 11 Jan 2027 09:30 CET");
    /* A zero mask is read as every day. */
    s.days = 0;
    d = dj_deadline_next(&s, &ams, DJ_RETREAT, L(&ams, 2027, 1, 8, 9, 30), NULL, 0);
    CHECK_TIME(&ams, d, "Sat 09 Jan 2027 09:30 CET");
}

static void test_dst_deadlines(void)
{
    dj_zone ams, ny;
    dj_schedule s;
    load("Europe/Amsterdam", &ams);
    load("America/New_York", &ny);
    sched(&s, "Europe/Amsterdam", 20 * 60, "SMTWTFS");
    /* Daily 20:00 deadlines through both changes: always 20:00 local. */
    int64_t t = L(&ams, 2027, 3, 25, 20, 0);
    const char *want[] = {"Fri 26 Mar 2027 20:00 CET", "Sat 27 Mar 2027 20:00 CET",
                          "Sun 28 Mar 2027 20:00 CEST", "Mon 29 Mar 2027 20:00 CEST"};
    for (int i = 0; i < 4; i++) {
        t = dj_deadline_next(&s, &ams, DJ_RETREAT, t, NULL, 0);
        CHECK_TIME(&ams, t, want[i]);
    }
    CHECK(L(&ams, 2027, 3, 28, 20, 0) - L(&ams, 2027, 3, 27, 20, 0) == 23 * 3600);
    t = L(&ams, 2027, 10, 30, 20, 0);
    t = dj_deadline_next(&s, &ams, DJ_RETREAT, t, NULL, 0);
    CHECK_TIME(&ams, t, "Sun 31 Oct 2027 20:00 CET");
    CHECK(t == U(2027, 10, 31, 19, 0));

    sched(&s, "America/New_York", 20 * 60, "SMTWTFS");
    t = dj_deadline_next(&s, &ny, DJ_MOVEMENT, L(&ny, 2027, 11, 5, 20, 0), NULL, 0);
    CHECK_TIME(&ny, t, "Mon 08 Nov 2027 20:00 EST");
    CHECK(t == U(2027, 11, 9, 1, 0));
    t = dj_deadline_next(&s, &ny, DJ_MOVEMENT, L(&ny, 2027, 3, 12, 20, 0), NULL, 0);
    CHECK_TIME(&ny, t, "Mon 15 Mar 2027 20:00 EDT");
    CHECK(t == U(2027, 3, 16, 0, 0));

    /* A time of day inside the gap: 02:30 that night is 03:30. */
    sched(&s, "America/New_York", 2 * 60 + 30, "SMTWTFS");
    t = dj_deadline_next(&s, &ny, DJ_RETREAT, L(&ny, 2027, 3, 13, 3, 0), NULL, 0);
    CHECK_TIME(&ny, t, "Sun 14 Mar 2027 03:30 EDT");
    /* From 03:30 a day later is Monday 03:30, past 02:30: Tuesday's. */
    t = dj_deadline_next(&s, &ny, DJ_RETREAT, t, NULL, 0);
    CHECK_TIME(&ny, t, "Tue 16 Mar 2027 02:30 EDT");
    /* A time of day inside the overlap: the first 01:30. */
    sched(&s, "America/New_York", 90, "SMTWTFS");
    t = dj_deadline_next(&s, &ny, DJ_RETREAT, L(&ny, 2027, 11, 6, 1, 30), NULL, 0);
    CHECK_TIME(&ny, t, "Sun 07 Nov 2027 01:30 EDT");
    /* Without a time of day, a start in the second 01:30 keeps it. */
    s.time_of_day = -1;
    s.delay[DJ_RETREAT] = 0;
    t = dj_deadline_next(&s, &ny, DJ_RETREAT, U(2027, 11, 7, 6, 30), NULL, 0);
    CHECK_TIME(&ny, t, "Sun 07 Nov 2027 01:30 EST");
}

static void test_absences(void)
{
    dj_zone ams;
    dj_schedule s;
    load("Europe/Amsterdam", &ams);
    sched(&s, "Europe/Amsterdam", 20 * 60, "-MTWTF-");
    int64_t start = L(&ams, 2027, 1, 4, 12, 0); /* Mon; + 72 h -> Thu 20:00 */
    CHECK_TIME(&ams, dj_deadline_next(&s, &ams, DJ_MOVEMENT, start, NULL, 0),
               "Thu 07 Jan 2027 20:00 CET");

    /* Single absence covering Thursday until Fri 09:00: Friday 20:00. */
    dj_absence a1 = {L(&ams, 2027, 1, 6, 0, 0), L(&ams, 2027, 1, 8, 9, 0)};
    CHECK_TIME(&ams, dj_deadline_next(&s, &ams, DJ_MOVEMENT, start, &a1, 1),
               "Fri 08 Jan 2027 20:00 CET");
    /* Ending after Friday's 20:00: skips the weekend to Monday. */
    a1.end = L(&ams, 2027, 1, 8, 21, 0);
    CHECK_TIME(&ams, dj_deadline_next(&s, &ams, DJ_MOVEMENT, start, &a1, 1),
               "Mon 11 Jan 2027 20:00 CET");
    /* The end is exclusive: ending at 20:00 sharp allows 20:00. */
    a1.end = L(&ams, 2027, 1, 8, 20, 0);
    CHECK_TIME(&ams, dj_deadline_next(&s, &ams, DJ_MOVEMENT, start, &a1, 1),
               "Fri 08 Jan 2027 20:00 CET");
    /* An absence that does not cover the deadline changes nothing. */
    dj_absence later = {L(&ams, 2027, 1, 7, 20, 1), L(&ams, 2027, 1, 9, 0, 0)};
    CHECK_TIME(&ams, dj_deadline_next(&s, &ams, DJ_MOVEMENT, start, &later, 1),
               "Thu 07 Jan 2027 20:00 CET");
    dj_absence before = {L(&ams, 2027, 1, 1, 0, 0), L(&ams, 2027, 1, 7, 19, 59)};
    CHECK_TIME(&ams, dj_deadline_next(&s, &ams, DJ_MOVEMENT, start, &before, 1),
               "Thu 07 Jan 2027 20:00 CET");

    /* Overlapping and chained absences (listed in any order). */
    dj_absence chain[3] = {
        {L(&ams, 2027, 1, 12, 0, 0), L(&ams, 2027, 1, 13, 22, 0)},  /* third */
        {L(&ams, 2027, 1, 6, 0, 0), L(&ams, 2027, 1, 9, 0, 0)},     /* first */
        {L(&ams, 2027, 1, 8, 12, 0), L(&ams, 2027, 1, 12, 10, 0)},  /* overlaps */
    };
    CHECK_TIME(&ams, dj_deadline_next(&s, &ams, DJ_MOVEMENT, start, chain, 3),
               "Thu 14 Jan 2027 20:00 CET");

    /* Over the limit: capped at 3 days after Thursday's deadline. */
    s.absence_limit = 3;
    dj_absence long_one = {L(&ams, 2027, 1, 5, 0, 0), L(&ams, 2027, 1, 25, 0, 0)};
    CHECK_TIME(&ams, dj_deadline_next(&s, &ams, DJ_MOVEMENT, start, &long_one, 1),
               "Fri 08 Jan 2027 20:00 CET"); /* Sun 10th is no deadline day */
    s.absence_limit = 4;
    CHECK_TIME(&ams, dj_deadline_next(&s, &ams, DJ_MOVEMENT, start, &long_one, 1),
               "Mon 11 Jan 2027 20:00 CET");
    s.absence_limit = 0; /* no cap */
    CHECK_TIME(&ams, dj_deadline_next(&s, &ams, DJ_MOVEMENT, start, &long_one, 1),
               "Mon 25 Jan 2027 20:00 CET");
    /* Within the limit the absence is honoured in full. */
    s.absence_limit = 14;
    CHECK_TIME(&ams, dj_deadline_next(&s, &ams, DJ_MOVEMENT, start, chain, 3),
               "Thu 14 Jan 2027 20:00 CET");
    /* The cap counts local days across a DST change: still 20:00. */
    s.absence_limit = 2;
    int64_t spring = L(&ams, 2027, 3, 22, 12, 0); /* Mon -> Thu 25th 20:00 */
    dj_absence easter = {L(&ams, 2027, 3, 24, 0, 0), L(&ams, 2027, 4, 10, 0, 0)};
    s.days = DJ_DAYS_ALL;
    CHECK_TIME(&ams, dj_deadline_next(&s, &ams, DJ_MOVEMENT, spring, &easter, 1),
               "Sat 27 Mar 2027 20:00 CET");
    s.absence_limit = 3;
    CHECK_TIME(&ams, dj_deadline_next(&s, &ams, DJ_MOVEMENT, spring, &easter, 1),
               "Sun 28 Mar 2027 20:00 CEST");
}

/* ---- text ---------------------------------------------------------------------- */

static void test_days_text(void)
{
    uint8_t m;
    char err[200], out[8];
    CHECK(dj_days_parse("-MTWTF-", &m, err, sizeof err) == 0 && m == 0x3e);
    CHECK(dj_days_parse("smtwtfs", &m, err, sizeof err) == 0 && m == 0x7f);
    CHECK(dj_days_parse("S.....S", &m, err, sizeof err) == 0 && m == 0x41);
    CHECK(dj_days_parse("all", &m, err, sizeof err) == 0 && m == 0x7f);
    CHECK(dj_days_parse("", &m, err, sizeof err) == 0 && m == 0x7f);
    CHECK(dj_days_parse("-MTWTF", &m, err, sizeof err) == -1);
    CHECK(strstr(err, "7 characters") != NULL);
    CHECK(dj_days_parse("-MXWTF-", &m, err, sizeof err) == -1);
    CHECK(strstr(err, "character 3 should be 'T'") != NULL);
    CHECK(dj_days_parse("MTWTFSS", &m, err, sizeof err) == -1);
    CHECK(dj_days_parse("-------", &m, err, sizeof err) == -1);
    CHECK(strstr(err, "no day") != NULL);
    dj_days_format(0x3e, out);
    CHECK_STR(out, "-MTWTF-");
    dj_days_format(0, out);
    CHECK_STR(out, "SMTWTFS");
    int bad = 0;
    for (unsigned mask = 1; mask < 128; mask++) {
        dj_days_format((uint8_t)mask, out);
        bad += dj_days_parse(out, &m, err, sizeof err) != 0 || m != mask;
    }
    CHECK(bad == 0);
}

static void test_duration_text(void)
{
    int m;
    char err[200];
    struct { const char *in; int want; } ok[] = {
        {"90m", 90}, {"36h", 2160}, {"3d", 4320}, {"1w", 10080},
        {"1d12h", 2160}, {"1d 12h", 2160}, {"2H30M", 150}, {"0m", 0}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        m = -5;
        CHECK(dj_duration_parse(ok[i].in, &m, err, sizeof err) == 0);
        CHECK(m == ok[i].want);
    }
    const char *bad[] = {"", "90", "h", "1h1d", "1d1d", "3x", "-3d", "1000000d", "53w", NULL};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(dj_duration_parse(bad[i], &m, err, sizeof err) == -1);
    dj_buf b;
    dj_buf_init(&b);
    int samples[] = {0, 1, 59, 60, 90, 1440, 2160, 4320, 10080, 1441};
    const char *want[] = {"0m", "1m", "59m", "1h", "1h30m", "1d", "1d12h", "3d", "7d", "1d1m"};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        dj_buf_reset(&b);
        dj_duration_format(samples[i], &b);
        CHECK_STR(b.data, want[i]);
        CHECK(dj_duration_parse(b.data, &m, err, sizeof err) == 0 && m == samples[i]);
    }
    dj_buf_free(&b);

    CHECK(dj_clock_parse("20:00", &m, err, sizeof err) == 0 && m == 1200);
    CHECK(dj_clock_parse("8:30", &m, err, sizeof err) == 0 && m == 510);
    CHECK(dj_clock_parse("00:00", &m, err, sizeof err) == 0 && m == 0);
    CHECK(dj_clock_parse("none", &m, err, sizeof err) == 0 && m == -1);
    const char *badclock[] = {"24:00", "20:0", "20", "20:60", "20:00:00x", "x", "", NULL};
    for (size_t i = 0; i < sizeof badclock / sizeof badclock[0]; i++)
        CHECK(dj_clock_parse(badclock[i], &m, err, sizeof err) == -1);
}

static int64_t P(const dj_zone *z, const char *text, int64_t now)
{
    int64_t t = INT64_MIN;
    char err[200];
    if (dj_time_parse(z, text, now, &t, err, sizeof err) != 0)
        fprintf(stderr, "parse '%s': %s\n", text, err);
    return t;
}

static void test_time_text(void)
{
    dj_zone ams, ny, utc;
    load("Europe/Amsterdam", &ams);
    load("America/New_York", &ny);
    dj_zone_utc(&utc);
    int64_t now = L(&ams, 2027, 1, 9, 12, 0);

    CHECK_TIME(&ams, U(2027, 1, 9, 19, 0), "Sat 09 Jan 2027 20:00 CET");
    CHECK_TIME(&utc, U(2027, 1, 9, 19, 0), "Sat 09 Jan 2027 19:00 UTC");
    dj_buf b;
    dj_buf_init(&b);
    dj_time_format_iso(&ams, U(2027, 1, 9, 19, 0), &b);
    CHECK_STR(b.data, "2027-01-09 20:00");
    dj_buf_free(&b);

    CHECK(P(&ams, "2027-01-09 20:00", now) == U(2027, 1, 9, 19, 0));
    CHECK(P(&ams, "2027-01-09T20:00", now) == U(2027, 1, 9, 19, 0));
    CHECK(P(&ams, " 2027-01-09 20:00:30 ", now) == U(2027, 1, 9, 19, 0) + 30);
    CHECK(P(&ams, "2027-01-09", now) == U(2027, 1, 8, 23, 0));
    CHECK(P(&ams, "2027-07-09 20:00", now) == U(2027, 7, 9, 18, 0));
    CHECK(P(&ams, "Sat 09 Jan 2027 20:00 CET", now) == U(2027, 1, 9, 19, 0));
    CHECK(P(&ams, "saturday, 9 january 2027 20:00", now) == U(2027, 1, 9, 19, 0));
    CHECK(P(&ams, "09 Jan 2027 20:00", now) == U(2027, 1, 9, 19, 0));
    CHECK(P(&ams, "2027-01-09 20:00 UTC", now) == U(2027, 1, 9, 20, 0));
    CHECK(P(&ny, "2027-01-09 20:00", now) == U(2027, 1, 10, 1, 0));
    /* Overlap: the abbreviation picks the reading. */
    CHECK(P(&ams, "2027-10-31 02:30", now) == U(2027, 10, 31, 0, 30));
    CHECK(P(&ams, "2027-10-31 02:30 CEST", now) == U(2027, 10, 31, 0, 30));
    CHECK(P(&ams, "2027-10-31 02:30 CET", now) == U(2027, 10, 31, 1, 30));
    /* An abbreviation not in force then is taken at its offset. */
    CHECK(P(&ams, "2027-07-09 20:00 CET", now) == U(2027, 7, 9, 19, 0));
    /* Gap: moved forward. */
    CHECK(P(&ams, "2027-03-28 02:30", now) == U(2027, 3, 28, 1, 30));

    /* Relative: hours exact, days by the calendar. */
    CHECK(P(&ams, "now", now) == now);
    CHECK(P(&ams, "+36h", now) == now + 36 * 3600);
    CHECK(P(&ams, "+90m", now) == now + 90 * 60);
    CHECK(P(&ams, "+2d", now) == now + 2 * 86400);
    CHECK(P(&ams, "+1d12h", now) == now + 36 * 3600);
    CHECK(P(&ams, "+1w", now) == now + 7 * 86400);
    int64_t sat = L(&ams, 2027, 3, 27, 20, 0);
    CHECK_TIME(&ams, P(&ams, "+1d", sat), "Sun 28 Mar 2027 20:00 CEST");
    CHECK(P(&ams, "+1d", sat) - sat == 23 * 3600);
    CHECK(P(&ams, "+24h", sat) - sat == 24 * 3600);

    /* Round trips: format then parse gives the same minute, DST or not,
       numeric abbreviations ("+04") and half-hour changes included. */
    dj_zone dubai, howe;
    load("Asia/Dubai", &dubai);
    load("Australia/Lord_Howe", &howe);
    int bad = 0, bad_iso = 0;
    for (int64_t t = U(2026, 12, 1, 0, 0); t < U(2029, 1, 1, 0, 0); t += 60 * 47) {
        const dj_zone *zs[4] = {&ams, &ny, &dubai, &howe};
        for (int k = 0; k < 4; k++) {
            char s[64];
            fmt(zs[k], t, s, sizeof s);
            int64_t back = P(zs[k], s, now);
            bad += back != t;
            dj_buf_init(&b);
            dj_time_format_iso(zs[k], t, &b);
            int64_t iso = P(zs[k], b.data, now);
            dj_buf_free(&b);
            /* Without the abbreviation only the second of twin hours moves
               (by the size of the change: an hour, or half at Lord Howe). */
            dj_local_time lt;
            dj_zone_to_local(zs[k], t, &lt);
            int64_t step = k == 3 ? 1800 : 3600;
            bad_iso += !(iso == t || (iso == t - step && !lt.isdst));
        }
    }
    CHECK(bad == 0);
    CHECK(bad_iso == 0);

    /* Bad input: clear errors, nothing written. */
    const char *badtext[] = {"", "tomorrow", "2027-02-30", "2027-13-01 10:00",
                             "2027-01-09 25:00", "2027-01-09 20:61", "2027-01-09 20",
                             "2027-01-09 20:00 XYZ", "Fri 09 Jan 2027 20:00",
                             "09 Foo 2027", "+2x", "+", "+d", "1799-01-01",
                             "2027-01-09 20:00 CET extra", "20:00", "+99999w",
                             "2027-1-9x", NULL};
    for (size_t i = 0; i < sizeof badtext / sizeof badtext[0]; i++) {
        int64_t t = 42;
        char err[200] = "";
        CHECK(dj_time_parse(&ams, badtext[i], now, &t, err, sizeof err) == -1);
        CHECK(t == 42);
        CHECK(strncmp(err, "bad time", 8) == 0 || strncmp(err, "bad relative", 12) == 0 ||
              strstr(err, "too far") != NULL);
    }
    char err[200];
    int64_t t;
    CHECK(dj_time_parse(&ams, "Fri 09 Jan 2027 20:00", now, &t, err, sizeof err) == -1);
    CHECK(strstr(err, "is a saturday") != NULL);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    test_civil();
    test_zone_offsets();
    test_libc_agrees();
    test_posix_rules();
    test_zone_errors();
    test_gaps_and_overlaps();
    test_defaults();
    test_snapping();
    test_weekdays();
    test_dst_deadlines();
    test_absences();
    test_days_text();
    test_duration_text();
    test_time_text();
    return test_summary();
}
