/* SPDX-License-Identifier: MIT */
/*
 * test_labels.c — every name legible on every board (issue 25): each
 * shipped map with a geometry is given a full set of orders (every unit
 * moves, holds or supports; a board with no units builds in every home
 * centre), adjudicated, and laid out as the results picture draws it —
 * the position before with the orders, the board after with the orders,
 * and, when units were dislodged, the retreats that follow — and no
 * name's box may meet a unit's box or another name's box.  The names'
 * font is held to at least 9 px on the standard board's 960 px.
 * Run as `test_labels SRCDIR`; DJ_RENDER_DUMP=DIR keeps each picture.
 */
#define _POSIX_C_SOURCE 200809L
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/adjudicate.h"
#include "render/layout.h"
#include "render/render.h"
#include "full_orders.h"
#include "testlib.h"

static bool meet(const dj_render_box *a, const dj_render_box *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

static int checked_layouts;

/* DJ_RENDER_DUMP=DIR: each picture checked kept as DIR/BOARD-N.png. */
static void dump(const char *board, const dj_picture_request *rq)
{
    const char *dir = getenv("DJ_RENDER_DUMP");
    if (!dir)
        return;
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/%s-%d.png", dir, board, checked_layouts);
    dj_picture pic;
    if (dj_render_picture(rq, DJ_PICTURE_PNG, &pic, err, sizeof err) < 0)
        return;
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(pic.data, 1, pic.len, f);
        fclose(f);
    }
    dj_picture_free(&pic);
}

/* Lay out one picture and hold its names to the rule. */
static void check_layout(const char *board, const char *what,
                         const dj_picture_request *rq)
{
    static dj_render_layout lay;
    char err[256];
    CHECK(dj_render_layout_of(rq, &lay, err, sizeof err) == 0);
    CHECK(lay.nlabels > 0);
    dump(board, rq);
    checked_layouts++;
    for (int i = 0; i < lay.nlabels; i++) {
        const dj_render_box *b = &lay.labels[i];
        bool clear = true;
        for (int k = 0; k < lay.nunits; k++)
            if (meet(b, &lay.units[k])) {
                fprintf(stderr, "%s, %s: the name %s is under a unit\n", board,
                        what, lay.label_text[i]);
                clear = false;
            }
        for (int k = 0; k < i; k++)
            if (meet(b, &lay.labels[k])) {
                fprintf(stderr, "%s, %s: the names %s and %s overlap\n", board,
                        what, lay.label_text[i], lay.label_text[k]);
                clear = false;
            }
        CHECK(clear);
    }
}

static void check_board(const char *map_path)
{
    char err[512], geo_path[1200];
    if (dj_geo_find(map_path, geo_path, sizeof geo_path) < 0)
        return; /* a board without pictures */
    dj_map *map = dj_map_load(map_path, err, sizeof err);
    CHECK(map != NULL);
    if (!map)
        return;
    dj_geo *geo = dj_geo_load(geo_path, map, err, sizeof err);
    CHECK(geo != NULL);
    dj_position *pos = malloc(sizeof *pos);
    dj_result *res = malloc(sizeof *res), *res2 = malloc(sizeof *res2);
    dj_order *o = malloc(sizeof *o * DJ_MAX_ORDERS);
    if (!geo || !pos || !res || !res2 || !o) {
        fprintf(stderr, "%s: %s\n", map_path, geo ? "out of memory" : err);
        test_failed++;
        goto done;
    }
    dj_rules rules;
    dj_rules_default(&rules);
    dj_position_initial(map, pos);
    const char *board = strrchr(map_path, '/') + 1;
    int n = pos->phase.type == DJ_MOVEMENT ? full_movement_orders(map, pos, o)
                                           : full_build_orders(map, pos, o);
    CHECK(dj_adjudicate(map, pos, o, n, &rules, res) == 0);
    dj_picture_request before = {map, geo, pos, o, n, res, "t", NULL};
    check_layout(board, "before, with orders", &before);
    dj_picture_request after = {map, geo, pos, o, n, res, "t", &res->next};
    check_layout(board, "after, with orders", &after);
    dj_picture_request plain = {map, geo, &res->next, NULL, 0, NULL, "t", NULL};
    check_layout(board, "the next phase", &plain);
    if (res->next.phase.type == DJ_MOVEMENT &&
        pos->phase.type != DJ_MOVEMENT) {
        /* Built: now move them all. */
        *pos = res->next;
        n = full_movement_orders(map, pos, o);
        CHECK(dj_adjudicate(map, pos, o, n, &rules, res) == 0);
        dj_picture_request moved = {map, geo, pos, o, n, res, "t", &res->next};
        check_layout(board, "the first moves", &moved);
    }
    if (res->next.ndislodged > 0) {
        *pos = res->next;
        n = full_retreat_orders(pos, o);
        CHECK(dj_adjudicate(map, pos, o, n, &rules, res2) == 0);
        dj_picture_request r = {map, geo, pos, o, n, res2, "t", &res2->next};
        check_layout(board, "retreats", &r);
    }
done:
    free(pos);
    free(res);
    free(res2);
    free(o);
    dj_geo_free(geo);
    dj_map_free(map);
}

int main(int argc, char **argv)
{
    const char *srcdir = test_srcdir(argc, argv);
    /* 9 px on the standard board's 960 px at the least. */
    CHECK(LABEL_FONT_SIZE >= 9.0);
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "%s/maps/*.map", srcdir);
    glob_t g;
    CHECK(glob(pattern, 0, NULL, &g) == 0);
    for (size_t i = 0; i < g.gl_pathc; i++)
        check_board(g.gl_pathv[i]);
    globfree(&g);
    /* Every shipped board with pictures: 8 maps, Pure and Chaos included. */
    CHECK(checked_layouts >= 8 * 3);
    return test_summary();
}
