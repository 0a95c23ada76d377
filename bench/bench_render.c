/* SPDX-License-Identifier: MIT */
/*
 * bench_render.c — how long a picture of the board takes and how much it
 * weighs, per board and format (issue 25: a PNG under 150 KB, drawn once
 * per phase).  The standard board draws a Spring 1901 with an order for
 * each of its 22 units (moves, supports, holds, bounces); every other
 * board with a geometry file its own opening with a full set of made-up
 * orders (bench/full_orders.h; a board that starts with builds, its
 * builds).  Each is adjudicated and drawn, as the results mail shows it
 * (the board after, the orders over it), N times in each format.  Prints
 * per board and format the mean and best CPU milliseconds (this process's
 * CPU time, so other work on the machine does not count) and the bytes,
 * the first drawing apart (a geometry's first PNG makes its layer,
 * render/board_layer.c), and the names' placement alone (labels.c, laid
 * out without drawing).
 *
 * usage: bench_render MAPDIR [N [FORMAT [OUTDIR]]]   (FORMAT: png, svg, pdf;
 * "all" or none: every one; OUTDIR: each board's picture is written there
 * as BOARD.FORMAT, to be looked at)
 */
#define _POSIX_C_SOURCE 200809L
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/adjudicate.h"
#include "engine/map.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "full_orders.h"
#include "reader/notation.h"
#include "render/geo.h"
#include "render/render.h"

static const char *const ORDERS[] = {
    "Austria: A vie-gal", "Austria: A bud-ser", "Austria: F tri-alb",
    "England: F lon-nth", "England: F edi-nwg", "England: A lvp-yor",
    "France: F bre-mao", "France: A par-bur", "France: A mar S A par-bur",
    "Germany: F kie-den", "Germany: A ber-kie", "Germany: A mun-bur",
    "Italy: F nap-ion", "Italy: A rom-apu", "Italy: A ven H",
    "Russia: A mos-ukr", "Russia: A war-gal", "Russia: F sev-bla",
    "Russia: F stp/sc-bot", "Turkey: F ank-bla", "Turkey: A con-bul",
    "Turkey: A smy-arm",
};
#define NORDERS (int)(sizeof ORDERS / sizeof ORDERS[0])

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The standard board's opening orders; -1 on a bad line. */
static int standard_orders(const dj_map *map, dj_order *o)
{
    char err[256];
    for (int i = 0; i < NORDERS; i++) {
        char power[16];
        const char *colon = strchr(ORDERS[i], ':');
        snprintf(power, sizeof power, "%.*s", (int)(colon - ORDERS[i]),
                 ORDERS[i]);
        int p = dj_map_find_power(map, power);
        if (p < 0 || dj_notation_parse(map, p, DJ_MOVEMENT, colon + 2, &o[i],
                                       err, sizeof err) < 0) {
            fprintf(stderr, "%s: %s\n", ORDERS[i], err);
            return -1;
        }
    }
    return NORDERS;
}

/* The picture written as outdir/BOARD.FORMAT; -1 when it cannot be. */
static int write_picture(const char *outdir, const char *board,
                         dj_picture_format f, const dj_picture *pic)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s.%s", outdir, board,
             dj_picture_format_name(f));
    FILE *out = fopen(path, "wb");
    if (!out || fwrite(pic->data, 1, pic->len, out) != pic->len) {
        fprintf(stderr, "%s: cannot write\n", path);
        if (out)
            fclose(out);
        return -1;
    }
    return fclose(out) == 0 ? 0 : -1;
}

static int bench_board(const char *map_path, int n, int only,
                       const char *outdir)
{
    char err[512], geo_path[1200];
    if (dj_geo_find(map_path, geo_path, sizeof geo_path) < 0)
        return 0;
    dj_map *map = dj_map_load(map_path, err, sizeof err);
    dj_geo *geo = map ? dj_geo_load(geo_path, map, err, sizeof err) : NULL;
    dj_position *pos = malloc(sizeof *pos);
    dj_result *res = malloc(sizeof *res);
    dj_order *o = malloc(sizeof *o * DJ_MAX_ORDERS);
    dj_render_layout *lay = malloc(sizeof *lay);
    int rc = -1;
    if (!map || !geo || !pos || !res || !o || !lay) {
        fprintf(stderr, "%s: %s\n", map_path, map && geo ? "out of memory" : err);
        goto done;
    }
    dj_position_initial(map, pos);
    int norders = strcmp(map->name, "standard") == 0
                      ? standard_orders(map, o)
                      : pos->phase.type == DJ_MOVEMENT
                            ? full_movement_orders(map, pos, o)
                            : full_build_orders(map, pos, o);
    dj_rules rules;
    dj_rules_default(&rules);
    if (norders < 0 || dj_adjudicate_with(DJ_ENGINE_DPJUDGE, map, pos, o,
                                          norders, &rules, res) < 0) {
        fprintf(stderr, "%s: the bench phase does not adjudicate\n", map_path);
        goto done;
    }
    dj_picture_request rq = {map, geo, pos, o, norders, res,
                             "Game bench: the first phase, orders and "
                             "results, the board after", &res->next};
    int width, height;
    dj_render_size(geo, map, &width, &height);
    printf("%s: %d x %d, %d orders, %d times each:\n", map->name, width,
           height, norders, n);
    for (int f = 0; f <= DJ_PICTURE_NONE; f++) {
        if (only >= 0 && f != only)
            continue;
        double total = 0, best = 1e9, first = 0;
        size_t bytes = 0;
        for (int i = 0; i < n; i++) {
            dj_picture pic = {NULL, 0};
            double t0 = cpu_ms();
            int drawn = f < DJ_PICTURE_NONE
                            ? dj_render_picture(&rq, (dj_picture_format)f,
                                                &pic, err, sizeof err)
                            : dj_render_layout_of(&rq, lay, err, sizeof err);
            double t = cpu_ms() - t0;
            if (drawn < 0) {
                fprintf(stderr, "%s\n", err);
                goto done;
            }
            total += t;
            best = t < best ? t : best;
            if (i == 0)
                first = t;
            bytes = pic.len;
            if (outdir && i == n - 1 && f < DJ_PICTURE_NONE &&
                write_picture(outdir, map->name, (dj_picture_format)f, &pic) < 0)
                goto done;
            dj_picture_free(&pic);
        }
        if (f < DJ_PICTURE_NONE)
            printf("  %-7s mean %7.2f ms  best %7.2f ms  %7zu bytes (%.0f KB)"
                   "  first %.1f ms\n",
                   dj_picture_format_name((dj_picture_format)f), total / n,
                   best, bytes, (double)bytes / 1024, first);
        else
            printf("  %-7s mean %7.2f ms  best %7.2f ms  (%d names placed)\n",
                   "layout", total / n, best, lay->nlabels);
    }
    rc = 0;
done:
    free(lay);
    free(o);
    free(res);
    free(pos);
    dj_geo_free(geo);
    dj_map_free(map);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s MAPDIR [N [FORMAT [OUTDIR]]]\n", argv[0]);
        return 2;
    }
    int n = argc > 2 ? atoi(argv[2]) : 20;
    if (n < 1)
        n = 1;
    int only = argc > 3 ? dj_picture_format_from_name(argv[3]) : -1;
    const char *outdir = argc > 4 ? argv[4] : NULL;
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "%s/*.map", argv[1]);
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0) {
        fprintf(stderr, "%s: no maps\n", argv[1]);
        return 1;
    }
    int rc = 0;
    for (size_t i = 0; i < g.gl_pathc; i++)
        if (bench_board(g.gl_pathv[i], n, only, outdir) < 0)
            rc = 1;
    globfree(&g);
    return rc;
}
