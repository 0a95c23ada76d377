/* SPDX-License-Identifier: MIT */
/*
 * tzif.h — a game's time zone: loaded from the IANA zone files by the
 * judge's own TZif reader, or made from a POSIX rule alone, and the
 * conversions between UTC instants and local wall times it gives
 * (tzif.c). How gaps and overlaps are resolved is said atop calendar.h,
 * which includes this; other rooms include calendar.h.
 */
#ifndef DJ_TIME_TZIF_H
#define DJ_TIME_TZIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "time/civil.h"
#include "time/zone_rule.h"

/* Bounds of a loaded zone: a zone file exceeding one is refused. */
#define DJ_ZONE_NAME_MAX 64   /* "America/Argentina/ComodRivadavia" */
#define DJ_ZONE_MAX_TRANS 2000
#define DJ_ZONE_MAX_TYPES 64

/* The directory zone names are looked up in by dj_zone_load(). */
#define DJ_ZONEINFO_DIR "/usr/share/zoneinfo"

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

/* ---- the time room's own ------------------------------------------------ */

/*
 * The earliest instant whose local reading is `wall` with one of the zone's
 * offsets, among those whose type satisfies `abbr` (NULL: any); false if
 * none.
 */
bool dj_zone_earliest_reading(const dj_zone *z, int64_t wall, const char *abbr,
                              int64_t *out);

#endif
