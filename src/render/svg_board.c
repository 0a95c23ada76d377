/* SPDX-License-Identifier: MIT */
/*
 * svg_board.c — the SVG picture's document: the board and the names
 * written here, everything else (units, orders, title, legend) as draw.c
 * drew it through the SVG writer of ink.c, which says why the judge
 * writes its SVG itself rather than through cairo's SVG surface.
 *
 * Compact (issue 25): each area of the board is one path with each point
 * once in relative steps of a tenth of a point (finer than a pixel of a
 * 960-px board), filled and stroked by classes of one <style> block, and
 * each name is a <text> with its halo as a stroke painted under its fill.
 * Saying what it shows (issue 31): each province's path carries
 * data-place (the map's abbreviation, lower case) and a <title> with its
 * name.  The names are placed by labels.c exactly as in the PNG; a viewer
 * writes them in its own sans-serif, centred on the same places.
 *
 * The order is the other formats': the board, then what draw.c drew
 * (centres, units, orders, title and legend), the names over all of it.
 */
#define _POSIX_C_SOURCE 200809L
#include "render/svg_board.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/board_layer.h"
#include "render/draw.h"
#include "render/ink.h"
#include "render/palette.h"

/* A number given in tenths, as short as SVG allows: "12", "1.5", "-.5";
 * a space before it unless its minus sign separates it. */
static void put_tenths(FILE *m, long v)
{
    if (v >= 0)
        fputc(' ', m); /* a minus sign separates by itself */
    ink_tenths(m, v);
}

/* An area's rings as path data: each ring's first point, then relative
 * steps between its points rounded to tenths (so the steps add up
 * exactly), points along a straight line (the frame's edge) left out. */
static void put_rings(FILE *m, const dj_geo_area *a)
{
    for (int k = 0; k < a->nrings; k++) {
        const dj_geo_ring *r = &a->rings[k];
        long x = lround(r->points[0].x * 10), y = lround(r->points[0].y * 10);
        fputc('M', m);
        put_tenths(m, x);
        put_tenths(m, y);
        long dx = 0, dy = 0; /* the step not yet written, from (x, y) */
        bool stepped = false;
        for (int i = 1; i <= r->npoints; i++) {
            long sx = 0, sy = 0; /* the next step, from (x + dx, y + dy) */
            if (i < r->npoints) {
                sx = lround(r->points[i].x * 10) - x - dx;
                sy = lround(r->points[i].y * 10) - y - dy;
                if (sx == 0 && sy == 0)
                    continue;
                if ((dx || dy) && sx * dy == sy * dx && sx * dx + sy * dy > 0) {
                    dx += sx; /* straight on */
                    dy += sy;
                    continue;
                }
            }
            if (dx || dy) {
                if (!stepped)
                    fputc('l', m);
                stepped = true;
                put_tenths(m, dx);
                put_tenths(m, dy);
                x += dx;
                y += dy;
            }
            dx = sx;
            dy = sy;
        }
        fputc('z', m);
    }
}

/* The classes of the board's areas: what fills an area. */
enum { FILL_LAND = -1, FILL_NEUTRAL = -2, FILL_IMPASSABLE = -3 };

static int fill_of(const dj_geo_area *a, const dj_position *board,
                   const dj_map *map)
{
    if (a->kind == DJ_GEO_NEUTRAL)
        return FILL_NEUTRAL;
    if (a->kind == DJ_GEO_IMPASSABLE)
        return FILL_IMPASSABLE;
    int owner = a->province >= 0 ? board->owner[a->province] : -1;
    return owner >= 0 && owner < map->npowers ? owner : FILL_LAND;
}

static void put_style(FILE *m, const dj_picture_request *req,
                      const dj_position *board)
{
    const double(*ink)[3] = palette_label_ink, (*halo)[3] = palette_label_halo;
    fputs("<style>.s{fill:", m);
    ink_colour(m, palette_sea);
    fputs("}.sb{stroke-width:.8;stroke-linejoin:bevel;stroke:", m);
    ink_colour(m, palette_sea_border);
    fputs("}.a{stroke-width:1.1;stroke-linejoin:bevel;fill-rule:evenodd;"
          "stroke:", m);
    ink_colour(m, palette_border);
    fputs("}.l{fill:", m);
    ink_colour(m, palette_land);
    fputs("}.n{fill:", m);
    ink_colour(m, palette_neutral);
    fputs("}.i{fill:", m);
    ink_colour(m, palette_impassable);
    fputs("}.h{fill:url(#hatch);stroke:none}.hl{stroke:", m);
    ink_colour(m, palette_hatch);
    fputs("}", m);
    bool owns[DJ_MAX_POWERS] = {false};
    for (int i = 0; i < req->geo->nareas; i++) {
        int f = fill_of(&req->geo->areas[i], board, req->map);
        if (f >= 0 && f < DJ_MAX_POWERS)
            owns[f] = true;
    }
    for (int p = 0; p < req->map->npowers && p < DJ_MAX_POWERS; p++)
        if (owns[p]) {
            double rgb[3];
            dj_render_owned_fill(req->map, p, rgb);
            fprintf(m, ".o%d{fill:", p);
            ink_colour(m, rgb);
            fputs("}", m);
        }
    fprintf(m, "text{font-family:%s}.t text{font-size:%gpx;"
               "text-anchor:middle;dominant-baseline:central;"
               "stroke-width:2px;stroke-linejoin:round;paint-order:stroke}",
            BOARD_FONT, LABEL_FONT_SIZE);
    for (int k = 0; k <= LABEL_STYLE_RETREATS; k++) {
        fprintf(m, ".t%d{fill:", k);
        ink_colour(m, ink[k]);
        fputs(";stroke:", m);
        ink_colour(m, halo[k]);
        fputs(k >= 2 ? ";font-weight:bold" : "", m);
        fputs(k == 2 ? ";font-style:italic}" : "}", m);
    }
    fprintf(m, ".t .t%d{font-size:%gpx}",
            LABEL_STYLE_RETREATS, NOTE_FONT_SIZE);
    fputs("</style>\n", m);
}

/* An area: one path, with the province it draws (data-place, <title>). */
static void put_area(FILE *m, const dj_map *map, const dj_geo_area *a,
                     const char *classes)
{
    bool named = a->province >= 0 && a->province < map->nlocs;
    fprintf(m, "<path class=\"%s\"", classes);
    if (named) {
        fputs(" data-place=\"", m);
        ink_escape(m, map->locs[a->province].abbr);
        fputc('"', m);
    }
    fputs(" d=\"", m);
    put_rings(m, a);
    if (!named) {
        fputs("\"/>\n", m);
        return;
    }
    fputs("\"><title>", m);
    ink_escape(m, map->locs[a->province].name);
    fputs("</title></path>\n", m);
}

/* The areas: the sea, each sea with its border, then each land area in
 * its fill, the impassable hatched over. */
static void put_board(FILE *m, const dj_picture_request *req,
                      const dj_position *board)
{
    const dj_geo *geo = req->geo;
    fprintf(m, "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
               "patternUnits=\"userSpaceOnUse\"><path class=\"hl\" "
               "d=\"M0 6L6 0M-1 1L1-1M5 7L7 5\"/></pattern></defs>\n"
               "<g transform=\"translate(0 %g)\">\n"
               "<rect class=\"s\" width=\"%d\" height=\"%d\"/>\n",
            DRAW_TITLE_BAND, geo->width, geo->height);
    for (int i = 0; i < geo->nareas; i++)
        if (geo->areas[i].kind == DJ_GEO_SEA)
            put_area(m, req->map, &geo->areas[i], "s sb");
    bool hatched = false;
    for (int i = 0; i < geo->nareas; i++) {
        const dj_geo_area *a = &geo->areas[i];
        if (a->kind == DJ_GEO_SEA)
            continue;
        int f = fill_of(a, board, req->map);
        char classes[16];
        if (f >= 0)
            snprintf(classes, sizeof classes, "a o%d", f);
        else
            snprintf(classes, sizeof classes, "a %s",
                     f == FILL_LAND ? "l" : f == FILL_NEUTRAL ? "n" : "i");
        put_area(m, req->map, a, classes);
        hatched = hatched || f == FILL_IMPASSABLE;
    }
    if (hatched) { /* the hatching over the impassable */
        fputs("<path class=\"h\" d=\"", m);
        for (int i = 0; i < geo->nareas; i++)
            if (geo->areas[i].kind == DJ_GEO_IMPASSABLE)
                put_rings(m, &geo->areas[i]);
        fputs("\"/>\n", m);
    }
    fputs("</g>\n", m);
}

/* The names where labels.c placed them. */
static void put_names(FILE *m, const layout *lay)
{
    fprintf(m, "<g class=\"t\" transform=\"translate(0 %g)\">\n",
            DRAW_TITLE_BAND);
    for (int i = 0; i < lay->pub.nlabels; i++) {
        const dj_render_box *b = &lay->pub.labels[i];
        fprintf(m, "<text class=\"t%d\" x=\"%.1f\" y=\"%.1f\">",
                lay->label_style[i], (b->x0 + b->x1) / 2,
                (b->y0 + b->y1) / 2);
        ink_escape(m, lay->label_style[i] == LABEL_STYLE_RETREATS
                          ? lay->notes[lay->label_note[i]].text
                          : lay->pub.label_text[i]);
        fputs("</text>\n", m);
    }
    fputs("</g>\n", m);
}

bool svg_board_write(const dj_picture_request *req, const layout *lay,
                     const char *drawn, size_t drawnlen, int width,
                     int height, unsigned char **doc, size_t *len)
{
    const dj_position *board = req->after ? req->after : req->pos;
    char *out = NULL;
    size_t outlen = 0;
    FILE *m = open_memstream(&out, &outlen);
    if (!m)
        return false;
    fprintf(m, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
               "height=\"%d\" viewBox=\"0 0 %d %d\">\n",
            width, height, width, height);
    if (req->title) {
        fputs("<title>", m);
        ink_escape(m, req->title);
        fputs("</title>\n", m);
    }
    put_style(m, req, board);
    put_board(m, req, board);
    fwrite(drawn, 1, drawnlen, m);
    put_names(m, lay);
    fputs("</svg>\n", m);
    if (fclose(m) != 0) {
        free(out);
        return false;
    }
    *doc = (unsigned char *)out;
    *len = outlen;
    return true;
}
