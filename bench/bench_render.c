/*
 * bench_render.c — how long a picture of the board takes and how much it
 * weighs (issue 11's targets: a PNG of the standard board with a full
 * phase of orders in under 20 ms on one core, under 150 KB).  The phase is
 * a Spring 1901 with an order for each of the 22 units (moves, supports,
 * a convoy, holds, bounces), adjudicated, then drawn N times in each
 * format.  Prints per format: mean and best milliseconds, and bytes.
 *
 * usage: bench_render MAPFILE GEOFILE [N]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/adjudicate.h"
#include "engine/map.h"
#include "engine/position.h"
#include "engine/rules.h"
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

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s MAPFILE GEOFILE [N]\n", argv[0]);
        return 2;
    }
    int n = argc > 3 ? atoi(argv[3]) : 100;
    if (n < 1)
        n = 1;
    char err[512];
    dj_map *map = dj_map_load(argv[1], err, sizeof err);
    if (!map) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    dj_geo *geo = dj_geo_load(argv[2], map, err, sizeof err);
    dj_position *pos = malloc(sizeof *pos);
    dj_result *res = malloc(sizeof *res);
    dj_order orders[NORDERS];
    if (!geo || !pos || !res) {
        fprintf(stderr, "%s\n", geo ? "out of memory" : err);
        return 1;
    }
    dj_position_initial(map, pos);
    for (int i = 0; i < NORDERS; i++) {
        char power[16];
        const char *colon = strchr(ORDERS[i], ':');
        snprintf(power, sizeof power, "%.*s", (int)(colon - ORDERS[i]),
                 ORDERS[i]);
        int p = dj_map_find_power(map, power);
        if (p < 0 || dj_notation_parse(map, p, DJ_MOVEMENT, colon + 2,
                                       &orders[i], err, sizeof err) < 0) {
            fprintf(stderr, "%s: %s\n", ORDERS[i], err);
            return 1;
        }
    }
    dj_rules rules;
    dj_rules_default(&rules);
    if (dj_adjudicate_with(DJ_ENGINE_DPJUDGE, map, pos, orders, NORDERS,
                           &rules, res) < 0) {
        fprintf(stderr, "the bench phase does not adjudicate\n");
        return 1;
    }
    dj_picture_request rq = {map, geo, pos, orders, NORDERS, res,
                             "Game bench: Spring 1901 Movement, orders and "
                             "results", &res->next};
    printf("picture of the standard board, 22 orders drawn, %d times each:\n",
           n);
    for (int f = 0; f < DJ_PICTURE_NONE; f++) {
        double total = 0, best = 1e9;
        size_t bytes = 0;
        for (int i = 0; i < n; i++) {
            dj_picture pic;
            double t0 = now_ms();
            if (dj_render_picture(&rq, (dj_picture_format)f, &pic, err,
                                  sizeof err) < 0) {
                fprintf(stderr, "%s\n", err);
                return 1;
            }
            double t = now_ms() - t0;
            total += t;
            best = t < best ? t : best;
            bytes = pic.len;
            dj_picture_free(&pic);
        }
        printf("  %-3s  mean %6.2f ms  best %6.2f ms  %7zu bytes (%.0f KB)\n",
               dj_picture_format_name((dj_picture_format)f), total / n, best,
               bytes, (double)bytes / 1024);
    }
    dj_geo_free(geo);
    free(pos);
    free(res);
    dj_map_free(map);
    return 0;
}
