/* SPDX-License-Identifier: MIT */
/*
 * tzif.c — a game's time zone (tzif.h): UTC, a POSIX rule alone, or the
 * IANA zone files read by the judge itself (TZif versions 1-3: the header,
 * the 64-bit data block of version 2+ files or the 32-bit one of version 1,
 * the footer's POSIX rule), zone names looked up safely under the zoneinfo
 * folder; and the conversions a loaded zone gives: UTC -> local by binary
 * search over its transitions or by its rule, local -> UTC by trying every
 * offset the zone knows.
 *
 * No function allocates except the zone loader, which holds the file in a
 * heap buffer of at most DJ_TZIF_MAX bytes while parsing it.
 */
#include "time/tzif.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "time/civil.h"
#include "time/zone_rule.h"
#include "util/fmt.h"

#define DJ_TZIF_MAX (256 * 1024)  /* real zone files are a few KiB */

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
    if (!tz || !dj_zone_rule_parse(tz, &r)) {
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
        dj_zone_copy_abbr(ty->abbr, a, (size_t)(nul - a));
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
    if (!dj_zone_rule_parse(tz, &z->rule)) {
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
        return z->has_rule ? dj_zone_rule_type(&z->rule, t) : &z->types[z->first_type];
    if (t < z->trans[0])
        return &z->types[z->first_type];
    if (t >= z->trans[z->ntrans - 1] && z->has_rule)
        return dj_zone_rule_type(&z->rule, t);
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
    out->wday = dj_weekday_of_days(dj_floor_div(local, SECS_PER_DAY));
    out->utoff = ty->utoff;
    out->isdst = ty->isdst;
    memcpy(out->abbr, ty->abbr, sizeof out->abbr);
}

bool dj_zone_earliest_reading(const dj_zone *z, int64_t wall, const char *abbr,
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
    if (dj_zone_earliest_reading(zone, wall, NULL, &t))
        return t;
    /*
     * A gap: read the wall time with the offset in force before it (a day
     * earlier is before any gap that could contain this wall time), which
     * lands past the change by exactly the gap's length.
     */
    return wall - type_at(zone, wall - SECS_PER_DAY)->utoff;
}
