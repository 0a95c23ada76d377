/* SPDX-License-Identifier: MIT */
/*
 * geo.c — reads a board's geometry file (format in maps/README.md) and
 * checks it against the map: an outline for every province, a place for
 * every unit, centre and name.  The file is input like any other: every
 * line is checked, every number bounded, and a mistake is reported as
 * "file:line: what is wrong" without drawing anything.
 */
#define _POSIX_C_SOURCE 200809L
#include "render/geo.h"

#include "render/board_layer.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/fmt.h"

#define GEO_MAX_FILE (16 * 1024 * 1024)
#define GEO_MAX_SIDE 20000
#define GEO_MAX_AREAS 4096
#define GEO_MAX_POINTS 100000

typedef struct reader {
    const char *filename;
    int line;
    char *err;
    size_t errlen;
} reader;

static void *fail(reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void *fail(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt_at(r->err, r->errlen, r->filename, r->line, fmt, ap);
    va_end(ap);
    return NULL;
}

void dj_geo_free(dj_geo *geo)
{
    if (!geo)
        return;
    for (int i = 0; i < geo->nareas; i++) {
        for (int k = 0; k < geo->areas[i].nrings; k++)
            free(geo->areas[i].rings[k].points);
        free(geo->areas[i].rings);
    }
    free(geo->areas);
    free(geo->area_of);
    free(geo->unit);
    free(geo->label);
    free(geo->centre);
    board_layer_free(geo->layer);
    free(geo);
}

/* The location with exactly this abbreviation (any case), or -1. */
static int location_named(const dj_map *map, const char *word)
{
    for (int i = 0; i < map->nlocs; i++)
        if (strcasecmp(map->locs[i].abbr, word) == 0)
            return i;
    return -1;
}

static int area_named(const dj_geo *geo, const char *word)
{
    for (int i = 0; i < geo->nareas; i++)
        if (strcmp(geo->areas[i].name, word) == 0)
            return i;
    return -1;
}

/* A number that is a finite coordinate near the board. */
static bool read_coordinate(const char *word, double limit, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(word, &end);
    if (end == word || *end || errno || !isfinite(v))
        return false;
    if (v < -limit || v > 2 * limit)
        return false;
    *out = v;
    return true;
}

static bool read_int(const char *word, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(word, &end, 10);
    if (end == word || *end || errno || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

static bool add_area(reader *r, dj_geo *geo, const dj_map *map, char **w,
                     int nw)
{
    static const char *const kinds[] = {"sea", "land", "impassable",
                                        "neutral"};
    if (nw != 3)
        return fail(r, "'area' takes a name and a kind"), false;
    if (strlen(w[1]) >= DJ_ABBR_MAX)
        return fail(r, "area name '%.40s' too long", w[1]), false;
    if (area_named(geo, w[1]) >= 0)
        return fail(r, "area '%s' given twice", w[1]), false;
    if (geo->nareas >= GEO_MAX_AREAS)
        return fail(r, "more than %d areas", GEO_MAX_AREAS), false;
    int kind = -1;
    for (int k = 0; k < 4; k++)
        if (strcmp(w[2], kinds[k]) == 0)
            kind = k;
    if (kind < 0)
        return fail(r, "area kind '%.40s' is not sea, land, impassable or "
                       "neutral", w[2]), false;
    int prov = -1;
    if (w[1][0] != '_') {
        prov = location_named(map, w[1]);
        if (prov < 0 || map->locs[prov].province != prov)
            return fail(r, "'%s' is not a province of map %s (names of "
                           "areas off the board start with _)",
                        w[1], map->name), false;
        if (geo->area_of[prov] >= 0)
            return fail(r, "province '%s' has two areas", w[1]), false;
        if (kind == DJ_GEO_NEUTRAL)
            return fail(r, "province '%s' cannot be neutral land", w[1]),
                   false;
    }
    dj_geo_area *grown =
        realloc(geo->areas, (size_t)(geo->nareas + 1) * sizeof *grown);
    if (!grown)
        return fail(r, "out of memory"), false;
    geo->areas = grown;
    dj_geo_area *a = &geo->areas[geo->nareas];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", w[1]);
    a->province = prov;
    a->kind = (dj_geo_kind)kind;
    if (prov >= 0)
        geo->area_of[prov] = geo->nareas;
    geo->nareas++;
    return true;
}

static bool add_ring(reader *r, dj_geo *geo, char **w, int nw)
{
    int ai = nw > 1 ? area_named(geo, w[1]) : -1;
    if (ai < 0)
        return fail(r, "'ring' needs an area declared before it by 'area'"),
               false;
    int ncoords = nw - 2;
    if (ncoords % 2)
        return fail(r, "ring of '%s': an x without its y", w[1]), false;
    if (ncoords / 2 < 3)
        return fail(r, "ring of '%s': fewer than 3 points", w[1]), false;
    if (ncoords / 2 > GEO_MAX_POINTS)
        return fail(r, "ring of '%s': more than %d points", w[1],
                    GEO_MAX_POINTS), false;
    dj_geo_area *a = &geo->areas[ai];
    dj_geo_ring *rings = realloc(a->rings, (size_t)(a->nrings + 1) * sizeof *rings);
    if (!rings)
        return fail(r, "out of memory"), false;
    a->rings = rings;
    dj_geo_ring *ring = &a->rings[a->nrings];
    ring->npoints = ncoords / 2;
    ring->points = malloc((size_t)ring->npoints * sizeof *ring->points);
    if (!ring->points)
        return fail(r, "out of memory"), false;
    a->nrings++;
    for (int i = 0; i < ring->npoints; i++) {
        dj_geo_point *p = &ring->points[i];
        if (!read_coordinate(w[2 + 2 * i], geo->width, &p->x) ||
            !read_coordinate(w[3 + 2 * i], geo->height, &p->y))
            return fail(r, "ring of '%s', point %d: '%.20s %.20s' is not a "
                           "point on the board", w[1], i + 1,
                        w[2 + 2 * i], w[3 + 2 * i]), false;
    }
    return true;
}

static bool add_place(reader *r, dj_geo *geo, const dj_map *map, char **w,
                      int nw)
{
    if (nw != 4)
        return fail(r, "'%s' takes a place and x y", w[0]), false;
    dj_geo_point at;
    if (!read_coordinate(w[2], geo->width, &at.x) ||
        !read_coordinate(w[3], geo->height, &at.y) || at.x < 0 ||
        at.y < 0 || at.x > geo->width || at.y > geo->height)
        return fail(r, "'%.20s %.20s' is not a point on the board", w[2],
                    w[3]), false;
    if (strcmp(w[0], "label") == 0 && w[1][0] == '_') {
        int ai = area_named(geo, w[1]);
        if (ai < 0)
            return fail(r, "no area '%.40s' declared before its label", w[1]),
                   false;
        geo->areas[ai].label = at;
        geo->areas[ai].has_label = true;
        return true;
    }
    int loc = location_named(map, w[1]);
    if (loc < 0)
        return fail(r, "'%.40s' is not a place of map %s", w[1], map->name),
               false;
    dj_geo_place *table = strcmp(w[0], "unit") == 0    ? geo->unit
                          : strcmp(w[0], "label") == 0 ? geo->label
                                                       : geo->centre;
    /* A centre may stand in any province: variants on the same board
     * make other provinces centres. */
    if (table == geo->centre && map->locs[loc].province != loc)
        return fail(r, "'%s' is a coast, not a province", w[1]), false;
    if (table[loc].set)
        return fail(r, "%s of '%s' given twice", w[0], w[1]), false;
    table[loc].set = true;
    table[loc].at = at;
    if (table == geo->label && geo->area_of[map->locs[loc].province] >= 0 &&
        map->locs[loc].province == loc) {
        dj_geo_area *a = &geo->areas[geo->area_of[loc]];
        a->label = at;
        a->has_label = true;
    }
    return true;
}

/* Split a line into words in place; returns how many (at most max). */
static int split_words(char *line, char **w, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r", &save); t;
         t = strtok_r(NULL, " \t\r", &save)) {
        if (n == max)
            return -1;
        w[n++] = t;
    }
    return n;
}

/* After the last line: is everything the renderer needs there? */
static bool complete(reader *r, const dj_geo *geo, const dj_map *map)
{
    r->line = 0;
    for (int i = 0; i < map->nlocs; i++) {
        const dj_location *l = &map->locs[i];
        if (l->province == i &&
            (geo->area_of[i] < 0 || geo->areas[geo->area_of[i]].nrings == 0))
            return fail(r, "province '%s' has no outline ('area' and 'ring' "
                           "lines)", l->abbr), false;
        if ((l->army_ok || l->fleet_ok) && !geo->unit[i].set)
            return fail(r, "no 'unit' place for '%s'", l->abbr), false;
        if (l->province == i && map->is_sc[i] && !geo->centre[i].set)
            return fail(r, "no 'centre' place for supply centre '%s'",
                        l->abbr), false;
    }
    return true;
}

dj_geo *dj_geo_parse(const char *text, const char *filename,
                     const dj_map *map, char *err, size_t errlen)
{
    reader r = {filename, 0, err, errlen};
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    dj_geo *geo = calloc(1, sizeof *geo);
    enum { MAX_WORDS = 2 * GEO_MAX_POINTS + 2 };
    char **w = malloc(MAX_WORDS * sizeof *w);
    if (geo) {
        geo->nlocs = map->nlocs;
        geo->area_of = malloc((size_t)map->nlocs * sizeof *geo->area_of);
        geo->unit = calloc((size_t)map->nlocs, sizeof *geo->unit);
        geo->label = calloc((size_t)map->nlocs, sizeof *geo->label);
        geo->centre = calloc((size_t)map->nlocs, sizeof *geo->centre);
        geo->layer = board_layer_new(); /* NULL: pictures draw the paths */
    }
    if (!copy || !geo || !w || !geo->area_of || !geo->unit || !geo->label ||
        !geo->centre) {
        fail(&r, "out of memory");
        goto bad;
    }
    for (int i = 0; i < map->nlocs; i++)
        geo->area_of[i] = -1;
    memcpy(copy, text, len + 1);

    char *line = copy;
    bool have_board = false;
    while (line) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        r.line++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        int nw = split_words(line, w, MAX_WORDS);
        if (nw < 0) {
            fail(&r, "line too long");
            goto bad;
        }
        line = next;
        if (nw == 0)
            continue;
        if (strcmp(w[0], "board") == 0) {
            if (have_board) {
                fail(&r, "'board' given twice");
                goto bad;
            }
            if (nw != 3 || !read_int(w[1], 1, GEO_MAX_SIDE, &geo->width) ||
                !read_int(w[2], 1, GEO_MAX_SIDE, &geo->height)) {
                fail(&r, "'board' takes a width and a height, 1 to %d",
                     GEO_MAX_SIDE);
                goto bad;
            }
            have_board = true;
            continue;
        }
        if (!have_board) {
            fail(&r, "the first line must be 'board WIDTH HEIGHT'");
            goto bad;
        }
        bool ok;
        if (strcmp(w[0], "area") == 0)
            ok = add_area(&r, geo, map, w, nw);
        else if (strcmp(w[0], "ring") == 0)
            ok = add_ring(&r, geo, w, nw);
        else if (strcmp(w[0], "unit") == 0 || strcmp(w[0], "label") == 0 ||
                 strcmp(w[0], "centre") == 0)
            ok = add_place(&r, geo, map, w, nw);
        else {
            fail(&r, "unknown keyword '%.40s' (board, area, ring, unit, "
                     "centre, label)", w[0]);
            ok = false;
        }
        if (!ok)
            goto bad;
    }
    if (!have_board) {
        r.line = 0;
        fail(&r, "empty: no 'board' line");
        goto bad;
    }
    if (!complete(&r, geo, map))
        goto bad;
    free(copy);
    free(w);
    return geo;
bad:
    free(copy);
    free(w);
    dj_geo_free(geo);
    return NULL;
}

dj_geo *dj_geo_load(const char *path, const dj_map *map, char *err,
                    size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    char *text = malloc(GEO_MAX_FILE + 1);
    size_t n = text ? fread(text, 1, GEO_MAX_FILE + 1, f) : 0;
    bool bad = ferror(f);
    fclose(f);
    if (!text || bad || n > GEO_MAX_FILE) {
        snprintf(err, errlen, "%s: %s", path,
                 !text ? "out of memory"
                 : bad ? "read error"
                       : "larger than 16 MiB");
        free(text);
        return NULL;
    }
    text[n] = '\0';
    if (memchr(text, '\0', n)) {
        snprintf(err, errlen, "%s: a NUL byte: not a text file", path);
        free(text);
        return NULL;
    }
    dj_geo *geo = dj_geo_parse(text, path, map, err, errlen);
    free(text);
    return geo;
}

/* Does dir/stem.geo exist?  Then it is the answer. */
static int try_geo(const char *dir, const char *name, char *out, size_t outlen)
{
    char stem[256];
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    snprintf(stem, sizeof stem, "%s", base);
    char *dot = strrchr(stem, '.');
    if (dot)
        *dot = '\0';
    if (!stem[0])
        return -1;
    int n = snprintf(out, outlen, "%s%s.geo", dir, stem);
    if (n < 0 || (size_t)n >= outlen)
        return -1;
    FILE *f = fopen(out, "r");
    if (!f)
        return -1;
    fclose(f);
    return 0;
}

int dj_geo_find(const char *map_path, char *out, size_t outlen)
{
    char dir[1024] = "";
    const char *slash = strrchr(map_path, '/');
    if (slash) {
        size_t n = (size_t)(slash - map_path) + 1;
        if (n >= sizeof dir)
            return -1;
        memcpy(dir, map_path, n);
        dir[n] = '\0';
    }
    if (try_geo(dir, map_path, out, outlen) == 0)
        return 0;
    /* The boards this map builds on: MAP name, USE file. */
    FILE *f = fopen(map_path, "r");
    if (!f)
        return -1;
    char line[512];
    int found = -1;
    while (found < 0 && fgets(line, sizeof line, f)) {
        char word[16], name[256];
        if (sscanf(line, " %15s %255s", word, name) == 2 &&
            (strcasecmp(word, "MAP") == 0 || strcasecmp(word, "USE") == 0))
            found = try_geo(dir, name, out, outlen);
    }
    fclose(f);
    return found;
}
