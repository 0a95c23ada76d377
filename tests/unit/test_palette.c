/* SPDX-License-Identifier: MIT */
/*
 * test_palette.c — no two powers on any board confusable (issue 25): the
 * colours of every pair of powers of each shipped map, and of each power
 * against the land and the sea, are compared in CIELAB with CIEDE2000 as
 * seen with normal vision and with deuteranopia and protanopia simulated
 * (Machado, Oliveira and Fernandes 2009, severity 1, applied to linear
 * sRGB); the smallest of the three must reach the minimum.  A board of
 * up to ten powers gets the wide margins, Chaos (34 powers, each unit
 * also carrying its power's letter) the narrower ones its count allows.
 * The CIEDE2000 code is first held to Sharma, Wu and Dalal's published
 * test pairs.  Run as `test_palette SRCDIR`.
 */
#define _DEFAULT_SOURCE /* M_PI */
#define _POSIX_C_SOURCE 200809L
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "testlib.h"

#define PAIR_MIN_FEW 14.0   /* up to ten powers: every pair */
#define GROUND_MIN_FEW 18.0 /* up to ten powers: against land and sea */
#define PAIR_MIN_MANY 6.0   /* any board */
#define GROUND_MIN_MANY 8.0

typedef struct lab {
    double l, a, b;
} lab;

static double linear(double c)
{
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double encoded(double v)
{
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055;
}

static const double DEUTERANOPIA[3][3] = {{0.367322, 0.860646, -0.227968},
                                          {0.280085, 0.672501, 0.047413},
                                          {-0.011820, 0.042940, 0.968881}};
static const double PROTANOPIA[3][3] = {{0.152286, 1.052583, -0.204868},
                                        {0.114503, 0.786281, 0.099216},
                                        {-0.003882, -0.048116, 1.051998}};

/* sRGB (0..1) as seen through a simulation matrix (NULL: normal vision). */
static void simulate(const double rgb[3], const double (*m)[3], double out[3])
{
    double l[3] = {linear(rgb[0]), linear(rgb[1]), linear(rgb[2])};
    for (int i = 0; i < 3; i++)
        out[i] = m ? encoded(m[i][0] * l[0] + m[i][1] * l[1] + m[i][2] * l[2])
                   : rgb[i];
}

static double lab_f(double t)
{
    return t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116;
}

static lab to_lab(const double rgb[3])
{
    double r = linear(rgb[0]), g = linear(rgb[1]), b = linear(rgb[2]);
    double x = 0.4124 * r + 0.3576 * g + 0.1805 * b;
    double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    double z = 0.0193 * r + 0.1192 * g + 0.9505 * b;
    double fx = lab_f(x / 0.95047), fy = lab_f(y), fz = lab_f(z / 1.08883);
    return (lab){116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

static double rad(double deg)
{
    return deg * M_PI / 180;
}

/* CIEDE2000 (Sharma, Wu and Dalal's formulation). */
static double ciede2000(lab p, lab q)
{
    double c1 = hypot(p.a, p.b), c2 = hypot(q.a, q.b), cb = (c1 + c2) / 2;
    double g = 0.5 * (1 - sqrt(pow(cb, 7) / (pow(cb, 7) + pow(25, 7))));
    double a1 = (1 + g) * p.a, a2 = (1 + g) * q.a;
    double c1p = hypot(a1, p.b), c2p = hypot(a2, q.b);
    double h1 = c1p == 0 ? 0 : fmod(atan2(p.b, a1) * 180 / M_PI + 360, 360);
    double h2 = c2p == 0 ? 0 : fmod(atan2(q.b, a2) * 180 / M_PI + 360, 360);
    double dl = q.l - p.l, dc = c2p - c1p, dh = 0;
    if (c1p * c2p != 0) {
        dh = h2 - h1;
        if (dh > 180)
            dh -= 360;
        else if (dh < -180)
            dh += 360;
    }
    double dhh = 2 * sqrt(c1p * c2p) * sin(rad(dh / 2));
    double lbp = (p.l + q.l) / 2, cbp = (c1p + c2p) / 2, hbp = h1 + h2;
    if (c1p * c2p != 0) {
        if (fabs(h1 - h2) <= 180)
            hbp = (h1 + h2) / 2;
        else
            hbp = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2;
    }
    double t = 1 - 0.17 * cos(rad(hbp - 30)) + 0.24 * cos(rad(2 * hbp)) +
               0.32 * cos(rad(3 * hbp + 6)) - 0.20 * cos(rad(4 * hbp - 63));
    double dth = 30 * exp(-pow((hbp - 275) / 25, 2));
    double rc = 2 * sqrt(pow(cbp, 7) / (pow(cbp, 7) + pow(25, 7)));
    double sl = 1 + 0.015 * pow(lbp - 50, 2) / sqrt(20 + pow(lbp - 50, 2));
    double sc = 1 + 0.045 * cbp, sh = 1 + 0.015 * cbp * t;
    double rt = -sin(rad(2 * dth)) * rc;
    return sqrt(pow(dl / sl, 2) + pow(dc / sc, 2) + pow(dhh / sh, 2) +
                rt * (dc / sc) * (dhh / sh));
}

static void test_ciede2000(void)
{
    static const struct {
        lab p, q;
        double want;
    } pairs[] = {
        {{50, 2.6772, -79.7751}, {50, 0, -82.7485}, 2.0425},
        {{50, -1.3802, -84.2814}, {50, 0, -82.7485}, 1.0000},
        {{50, 2.5, 0}, {73, 25, -18}, 27.1492},
        {{50, 2.5, 0}, {50, 3.1736, 0.5854}, 1.0000},
        {{60.2574, -34.0099, 36.2677}, {60.4626, -34.1751, 39.4387}, 1.2644},
        {{22.7233, 20.0904, -46.6940}, {23.0331, 14.9730, -42.5619}, 2.0373},
        {{2.0776, 0.0795, -1.1350}, {0.9033, -0.0636, -0.5514}, 0.9082},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        double got = ciede2000(pairs[i].p, pairs[i].q);
        if (fabs(got - pairs[i].want) > 1e-4)
            fprintf(stderr, "CIEDE2000 pair %zu: %.4f, want %.4f\n", i + 1,
                    got, pairs[i].want);
        CHECK(fabs(got - pairs[i].want) <= 1e-4);
    }
}

/* The smallest CIEDE2000 of two colours over the three visions. */
static double apart(const double x[3], const double y[3])
{
    const double (*m[3])[3] = {NULL, DEUTERANOPIA, PROTANOPIA};
    double least = INFINITY;
    for (int k = 0; k < 3; k++) {
        double sx[3], sy[3];
        simulate(x, m[k], sx);
        simulate(y, m[k], sy);
        least = fmin(least, ciede2000(to_lab(sx), to_lab(sy)));
    }
    return least;
}

static void check_map(const char *path)
{
    char err[512];
    dj_map *map = dj_map_load(path, err, sizeof err);
    CHECK(map != NULL);
    if (!map)
        return;
    bool few = map->npowers <= 10;
    double pair_min = few ? PAIR_MIN_FEW : PAIR_MIN_MANY;
    double ground_min = few ? GROUND_MIN_FEW : GROUND_MIN_MANY;
    double land[3], sea[3], least_pair = INFINITY, least_ground = INFINITY;
    dj_render_board_colours(land, sea);
    for (int p = 0; p < map->npowers; p++) {
        double cp[3];
        dj_render_power_colour(map, p, cp);
        double g = fmin(apart(cp, land), apart(cp, sea));
        least_ground = fmin(least_ground, g);
        if (g < ground_min)
            fprintf(stderr, "%s: %s is %.1f from the land or sea\n", path,
                    map->powers[p].name, g);
        CHECK(g >= ground_min);
        for (int q = 0; q < p; q++) {
            double cq[3];
            dj_render_power_colour(map, q, cq);
            double d = apart(cp, cq);
            least_pair = fmin(least_pair, d);
            if (d < pair_min)
                fprintf(stderr, "%s: %s and %s are %.1f apart\n", path,
                        map->powers[p].name, map->powers[q].name, d);
            CHECK(d >= pair_min);
        }
    }
    printf("%s: %d powers, closest pair %.1f, closest to land or sea %.1f\n",
           map->name, map->npowers, least_pair, least_ground);
    dj_map_free(map);
}

/* The colour of the power NAME on the map at PATH. */
static bool colour_of(const char *path, const char *name, double rgb[3])
{
    char err[512];
    dj_map *map = dj_map_load(path, err, sizeof err);
    if (!map)
        return false;
    bool found = false;
    for (int p = 0; p < map->npowers && !found; p++)
        if (strcmp(map->powers[p].name, name) == 0) {
            dj_render_power_colour(map, p, rgb);
            found = true;
        }
    dj_map_free(map);
    return found;
}

/* Chromatic's powers named after colours wear them: Blue France's blue,
 * Red Austria's red, Dark Germany's grey, Yellow Turkey's yellow. */
static void test_colour_names(const char *srcdir)
{
    static const char *const pairs[][2] = {{"Blue", "France"},
                                           {"Red", "Austria"},
                                           {"Dark", "Germany"},
                                           {"Yellow", "Turkey"}};
    char chromatic[1024], standard[1024];
    snprintf(chromatic, sizeof chromatic, "%s/maps/chromatic.map", srcdir);
    snprintf(standard, sizeof standard, "%s/maps/standard.map", srcdir);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        double a[3], b[3];
        CHECK(colour_of(chromatic, pairs[i][0], a));
        CHECK(colour_of(standard, pairs[i][1], b));
        CHECK(a[0] == b[0] && a[1] == b[1] && a[2] == b[2]);
    }
}

int main(int argc, char **argv)
{
    test_ciede2000();
    test_colour_names(test_srcdir(argc, argv));
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "%s/maps/*.map", test_srcdir(argc, argv));
    glob_t g;
    CHECK(glob(pattern, 0, NULL, &g) == 0);
    CHECK(g.gl_pathc >= 8);
    for (size_t i = 0; i < g.gl_pathc; i++)
        check_map(g.gl_pathv[i]);
    globfree(&g);
    return test_summary();
}
