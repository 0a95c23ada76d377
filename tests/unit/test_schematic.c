/* SPDX-License-Identifier: MIT */
/*
 * test_schematic.c — the picture of a board without geography
 * (src/render/schematic.c): a board with no .geo gets the schematic, one
 * with its own .geo keeps it; the schematic is a geometry the .geo loader
 * itself accepts for the map (written out as .geo text and read back);
 * the same map gives the same picture; every unit stands inside its
 * province; most neighbours share a border; and the one drawing code
 * draws it, units, orders and names, as PNG and SVG.
 *
 * DJ_SCHEMATIC_DUMP=DIR keeps the pictures (doc/pictures/schematic-*.png
 * were drawn so).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/adjudicate.h"
#include "reader/notation.h"
#include "render/geo.h"
#include "render/render.h"
#include "testlib.h"

/* The geometry as .geo text (maps/README.md's format). */
static char *geo_text(const dj_geo *g, const dj_map *m)
{
    size_t cap = 1 << 20, len = 0;
    char *t = malloc(cap);
    if (!t)
        return NULL;
#define OUT(...)                                                            \
    do {                                                                    \
        if (len + 512 > cap) {                                              \
            char *n = realloc(t, cap *= 2);                                 \
            if (!n) {                                                       \
                free(t);                                                    \
                return NULL;                                                \
            }                                                               \
            t = n;                                                          \
        }                                                                   \
        len += (size_t)snprintf(t + len, cap - len, __VA_ARGS__);           \
    } while (0)
    static const char *const kinds[] = {"sea", "land", "impassable",
                                        "neutral"};
    OUT("board %d %d\n", g->width, g->height);
    for (int i = 0; i < g->nareas; i++) {
        const dj_geo_area *a = &g->areas[i];
        OUT("area %s %s\n", a->name, kinds[a->kind]);
        for (int r = 0; r < a->nrings; r++) {
            OUT("ring %s", a->name);
            for (int k = 0; k < a->rings[r].npoints; k++)
                OUT(" %.3f %.3f", a->rings[r].points[k].x,
                    a->rings[r].points[k].y);
            OUT("\n");
        }
    }
    for (int l = 0; l < m->nlocs; l++) {
        if (g->unit[l].set)
            OUT("unit %s %.3f %.3f\n", m->locs[l].abbr, g->unit[l].at.x,
                g->unit[l].at.y);
        if (g->label[l].set)
            OUT("label %s %.3f %.3f\n", m->locs[l].abbr, g->label[l].at.x,
                g->label[l].at.y);
        if (g->centre[l].set && m->locs[l].province == l &&
            (m->locs[l].army_ok || m->locs[l].fleet_ok))
            OUT("centre %s %.3f %.3f\n", m->locs[l].abbr, g->centre[l].at.x,
                g->centre[l].at.y);
    }
#undef OUT
    return t;
}

/* Even-odd point in polygon. */
static bool inside(const dj_geo_ring *r, double x, double y)
{
    bool in = false;
    for (int i = 0, j = r->npoints - 1; i < r->npoints; j = i++) {
        const dj_geo_point *a = &r->points[i], *b = &r->points[j];
        if ((a->y > y) != (b->y > y) &&
            x < (b->x - a->x) * (y - a->y) / (b->y - a->y) + a->x)
            in = !in;
    }
    return in;
}

/* Distance from q to the segment a-b. */
static double seg_dist(dj_geo_point q, dj_geo_point a, dj_geo_point b)
{
    double dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy;
    double t = l2 > 0 ? ((q.x - a.x) * dx + (q.y - a.y) * dy) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return hypot(q.x - (a.x + t * dx), q.y - (a.y + t * dy));
}

/* Do two rings share a border: an edge of one, 2 points long or more,
 * whose middle lies on an edge of the other? */
static bool touch(const dj_geo_ring *a, const dj_geo_ring *b)
{
    for (int i = 0; i < a->npoints; i++) {
        dj_geo_point p = a->points[i], q = a->points[(i + 1) % a->npoints];
        if (hypot(q.x - p.x, q.y - p.y) < 2)
            continue;
        dj_geo_point mid = {(p.x + q.x) / 2, (p.y + q.y) / 2};
        for (int k = 0; k < b->npoints; k++)
            if (seg_dist(mid, b->points[k], b->points[(k + 1) % b->npoints]) <
                0.05)
                return true;
    }
    return false;
}

static void dump(const char *name, const dj_picture *pic)
{
    const char *dir = getenv("DJ_SCHEMATIC_DUMP");
    if (!dir)
        return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(pic->data, 1, pic->len, f);
        fclose(f);
    }
}

/* The schematic of map m checked whole; `orders` drawn (one per line,
 * "Power: order") after adjudication. */
static void check_schematic(const char *map_path, const char *orders,
                            const char *dump_name, double touching_at_least)
{
    char err[512] = "";
    dj_map *m = dj_map_load(map_path, err, sizeof err);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "  %s: %s\n", map_path, err);
        return;
    }
    dj_geo *g = dj_geo_schematic(m, err, sizeof err);
    dj_geo *again = dj_geo_schematic(m, err, sizeof err);
    CHECK(g != NULL && again != NULL);
    if (!g || !again) {
        dj_geo_free(g);
        dj_geo_free(again);
        dj_map_free(m);
        return;
    }
    /* the same map, the same picture */
    bool same = g->width == again->width && g->height == again->height &&
                g->nareas == again->nareas;
    for (int i = 0; same && i < g->nareas; i++)
        same = g->areas[i].rings[0].npoints == again->areas[i].rings[0].npoints &&
               memcmp(g->areas[i].rings[0].points, again->areas[i].rings[0].points,
                      (size_t)g->areas[i].rings[0].npoints *
                          sizeof(dj_geo_point)) == 0;
    same = same && memcmp(g->unit, again->unit,
                          (size_t)m->nlocs * sizeof *g->unit) == 0;
    CHECK(same);
    /* a geometry the .geo loader accepts for this map */
    char *text = geo_text(g, m);
    CHECK(text != NULL);
    dj_geo *read = text ? dj_geo_parse(text, "schematic.geo", m, err, sizeof err)
                        : NULL;
    CHECK(read != NULL);
    if (!read)
        fprintf(stderr, "  %s: the schematic as .geo: %s\n", map_path, err);
    dj_geo_free(read);
    free(text);
    /* every unit inside its province, on the board */
    int outside = 0;
    for (int l = 0; l < m->nlocs; l++) {
        const dj_geo_area *a = &g->areas[g->area_of[m->locs[l].province]];
        if (!inside(&a->rings[0], g->unit[l].at.x, g->unit[l].at.y) ||
            g->unit[l].at.x < 0 || g->unit[l].at.y < 0 ||
            g->unit[l].at.x > g->width || g->unit[l].at.y > g->height) {
            fprintf(stderr, "  %s: the unit at %s stands outside it\n",
                    m->name, m->locs[l].abbr);
            outside++;
        }
    }
    CHECK(outside == 0);
    /* neighbours drawn as neighbours */
    int pairs = 0, touching = 0;
    for (int l = 0; l < m->nlocs; l++) {
        if (m->locs[l].province != l)
            continue;
        for (int e = 0; e < m->locs[l].nadj; e++) {
            int o = m->locs[m->locs[l].adj[e].to].province;
            if (o <= l)
                continue;
            pairs++;
            touching += touch(&g->areas[g->area_of[l]].rings[0],
                              &g->areas[g->area_of[o]].rings[0]);
        }
    }
    printf("%s: %d provinces on %dx%d, %d of %d neighbouring pairs share a "
           "border\n",
           m->name, g->nareas, g->width, g->height, touching, pairs);
    CHECK(pairs > 0 && touching >= touching_at_least * pairs);
    /* drawn by the one drawing code, with orders and results */
    static dj_position pos;
    static dj_order ord[DJ_MAX_ORDERS];
    static dj_result res;
    dj_position_initial(m, &pos);
    int n = 0;
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", orders ? orders : "");
    for (char *line = strtok(buf, "\n"); line && n < DJ_MAX_ORDERS;
         line = strtok(NULL, "\n")) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        *colon = '\0';
        int power = dj_map_find_power(m, line);
        CHECK(power >= 0 && dj_notation_parse(m, power, pos.phase.type,
                                              colon + 1, &ord[n], err,
                                              sizeof err) == 0);
        n++;
    }
    dj_rules rules;
    dj_rules_default(&rules);
    CHECK(dj_adjudicate(m, &pos, ord, n, &rules, &res) == 0);
    char title[128];
    snprintf(title, sizeof title, "%s (schematic): Spring movement", m->name);
    dj_picture_request rq = {m, g, &pos, ord, n, &res, title, NULL};
    dj_picture pic;
    CHECK(dj_render_picture(&rq, DJ_PICTURE_PNG, &pic, err, sizeof err) == 0);
    CHECK(pic.len > 1000 && memcmp(pic.data, "\x89PNG", 4) == 0);
    dump(dump_name, &pic);
    dj_picture_free(&pic);
    CHECK(dj_render_picture(&rq, DJ_PICTURE_SVG, &pic, err, sizeof err) == 0);
    CHECK(pic.len > 1000 && memmem(pic.data, pic.len, "<svg", 4) != NULL);
    dj_picture_free(&pic);
    dj_geo_free(g);
    dj_geo_free(again);
    dj_map_free(m);
}

/* Which boards get it: one without geography, a variant whose inherited
 * geography does not fit, not one with its own. */
static void test_chosen(void)
{
    char err[512] = "";
    static const struct {
        const char *map;
        bool schematic;
    } cases[] = {
        {"tests/maps/dialect/dp-base.map", true},
        {"tests/maps/dialect/dp-variant.map", true},
        {"maps/standard.map", false},
        {"maps/chaos.map", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dj_map *m = dj_map_load(cases[i].map, err, sizeof err);
        CHECK(m != NULL);
        if (!m)
            continue;
        bool schematic = !cases[i].schematic;
        dj_geo *g = dj_geo_for_map(cases[i].map, m, &schematic, err, sizeof err);
        CHECK(g != NULL && schematic == cases[i].schematic);
        dj_geo_free(g);
        dj_map_free(m);
    }
    /* a variant of the standard board with a place dropped: standard.geo
     * no longer fits it, the schematic does */
    char dir[] = "/tmp/test_schematic.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256], cwd[1024];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    snprintf(path, sizeof path, "%s/small.map", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "USE %s/maps/standard.map\nDROP BEL\n", cwd);
        fclose(f);
    }
    char geo[512];
    snprintf(geo, sizeof geo, "%s/standard.geo", dir);
    char cmd[2200];
    snprintf(cmd, sizeof cmd, "cp '%s/maps/standard.geo' '%s'", cwd, geo);
    CHECK(system(cmd) == 0);
    snprintf(path, sizeof path, "%s/small.map", dir);
    /* small.map USEs standard.map by its full path: standard.geo found */
    dj_map *m = dj_map_load(path, err, sizeof err);
    CHECK(m != NULL && m->nsc == 33);
    if (m) {
        bool schematic = false;
        dj_geo *g = dj_geo_for_map(path, m, &schematic, err, sizeof err);
        CHECK(g != NULL && schematic);
        dj_geo_free(g);
        dj_map_free(m);
    }
    unlink(path);
    unlink(geo);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    const char *srcdir = test_srcdir(argc, argv);
    if (chdir(srcdir) != 0) {
        perror(srcdir);
        return 1;
    }
    test_chosen();
    check_schematic("tests/maps/dialect/dp-base.map",
                    "Red: A NOR - WES\nRed: F EAS - GRS\n"
                    "Blue: A WES S F SOU\nBlue: F SOU - SPU/SC\n"
                    "Green: A MID - SPU\n",
                    "schematic-small.png", 0.6);
    check_schematic("maps/standard.map",
                    "Austria: A VIE - GAL\nAustria: A BUD - SER\n"
                    "Austria: F TRI - ALB\nEngland: F LON - NTH\n"
                    "England: F EDI - NWG\nEngland: A LVP - YOR\n"
                    "France: A PAR - BUR\nFrance: A MAR S A PAR - BUR\n"
                    "France: F BRE - MAO\nGermany: A BER - KIE\n"
                    "Germany: A MUN - BUR\nGermany: F KIE - DEN\n"
                    "Italy: A VEN H\nItaly: A ROM - APU\n"
                    "Italy: F NAP - ION\nRussia: A MOS - UKR\n"
                    "Russia: A WAR - GAL\nRussia: F SEV - BLA\n"
                    "Russia: F STP/SC - BOT\nTurkey: A CON - BUL\n"
                    "Turkey: A SMY - ARM\nTurkey: F ANK - BLA\n",
                    "schematic-standard.png", 0.6);
    return test_summary();
}
