/* SPDX-License-Identifier: MIT */
/*
 * svg_board.c — the SVG picture's board and names, written as compact
 * SVG around what cairo's SVG surface draws (units, orders, title,
 * legend).
 *
 * cairo writes every path as absolute coordinates with six decimals and
 * a style attribute of its own, the land's outlines twice (filled, then
 * stroked), and every letter of a name as a glyph reference, nine times
 * for a name with its halo: half a megabyte for the standard board,
 * more than a megabyte for Youngstown.  Here the board's areas are one
 * path per colour (the sea's borders, the unowned land, each owner's
 * land, neutral and impassable land), each point once per area in
 * relative steps of a tenth of a point (finer than a pixel of a 960-px
 * board), filled and stroked by classes of one <style> block, and each
 * name is a <text> with its halo as a stroke painted under its fill.
 * The names are placed by labels.c exactly as in the PNG; a viewer
 * writes them in its own sans-serif, centred on the same places.
 *
 * cairo's document is kept whole: the style and the board go right after
 * its opening <svg> tag (under everything cairo draws), the names right
 * before its closing tag (over everything, as in the other formats).
 */
#define _POSIX_C_SOURCE 200809L
#include "render/svg_board.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/draw.h"
#include "render/palette.h"

/* A colour as #rrggbb. */
static void put_colour(FILE *m, const double rgb[3])
{
    fprintf(m, "#%02x%02x%02x", (unsigned)lround(rgb[0] * 255),
            (unsigned)lround(rgb[1] * 255), (unsigned)lround(rgb[2] * 255));
}

/* A number given in tenths, as short as SVG allows: "12", "1.5", "-.5";
 * a space before it unless its minus sign separates it. */
static void put_tenths(FILE *m, long v)
{
    if (v < 0)
        fputc('-', m);
    else
        fputc(' ', m);
    long a = labs(v);
    if (a % 10 == 0)
        fprintf(m, "%ld", a / 10);
    else if (a < 10)
        fprintf(m, ".%ld", a % 10);
    else
        fprintf(m, "%ld.%ld", a / 10, a % 10);
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

/*
 * cairo's SVG, tightened: every decimal number to two places at most
 * (a hundredth of a point), and the style properties that say what SVG
 * assumes anyway (an opacity of 1) left out.
 */
static void put_tightened(FILE *m, const char *start, const char *end)
{
    const char *s = start;
    static const char *const defaults[] = {"fill-opacity:1;",
                                           "stroke-opacity:1;"};
    while (s < end) {
        bool skipped = false;
        for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
            size_t n = strlen(defaults[i]);
            if ((size_t)(end - s) >= n && memcmp(s, defaults[i], n) == 0) {
                s += n;
                skipped = true;
            }
        }
        if (skipped)
            continue;
        /* A number with decimals: digits, a point, digits. */
        const char *p = s;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
        if (p > s && p + 1 < end && *p == '.' && p[1] >= '0' && p[1] <= '9' &&
            !(s > start && (s[-1] == '.' || (s[-1] >= '0' && s[-1] <= '9')))) {
            const char *q = p + 1;
            while (q < end && *q >= '0' && *q <= '9')
                q++;
            char number[64], out[64];
            size_t n = (size_t)(q - s);
            if (n < sizeof number) {
                memcpy(number, s, n);
                number[n] = '\0';
                snprintf(out, sizeof out, "%.2f", strtod(number, NULL));
                size_t k = strlen(out);
                while (out[k - 1] == '0')
                    out[--k] = '\0';
                if (out[k - 1] == '.')
                    out[--k] = '\0';
                fputs(out, m);
                s = q;
                continue;
            }
        }
        fputc(*s++, m);
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
    put_colour(m, palette_sea);
    fputs("}.sb{fill:none;stroke-width:.8;stroke-linejoin:bevel;stroke:", m);
    put_colour(m, palette_sea_border);
    fputs("}.a{stroke-width:1.1;stroke-linejoin:bevel;fill-rule:evenodd;"
          "stroke:", m);
    put_colour(m, palette_border);
    fputs("}.l{fill:", m);
    put_colour(m, palette_land);
    fputs("}.n{fill:", m);
    put_colour(m, palette_neutral);
    fputs("}.i{fill:", m);
    put_colour(m, palette_impassable);
    fputs("}.h{fill:url(#hatch);stroke:none}.hl{stroke:", m);
    put_colour(m, palette_hatch);
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
            put_colour(m, rgb);
            fputs("}", m);
        }
    fprintf(m, ".t text{font-family:sans-serif;font-size:%gpx;"
               "text-anchor:middle;dominant-baseline:central;"
               "stroke-width:2px;stroke-linejoin:round;paint-order:stroke}",
            LABEL_FONT_SIZE);
    for (int k = 0; k < 4; k++) {
        fprintf(m, ".t%d{fill:", k);
        put_colour(m, ink[k]);
        fputs(";stroke:", m);
        put_colour(m, halo[k]);
        fputs(k >= 2 ? ";font-weight:bold" : "", m);
        fputs(k == 2 ? ";font-style:italic}" : "}", m);
    }
    fputs("</style>\n", m);
}

/* The areas: the sea, its borders, then the land one path per fill. */
static void put_board(FILE *m, const dj_picture_request *req,
                      const dj_position *board)
{
    const dj_geo *geo = req->geo;
    fprintf(m, "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
               "patternUnits=\"userSpaceOnUse\"><path class=\"hl\" "
               "d=\"M0 6L6 0M-1 1L1-1M5 7L7 5\"/></pattern></defs>\n"
               "<g transform=\"translate(0 %g)\">\n"
               "<rect class=\"s\" width=\"%d\" height=\"%d\"/>\n"
               "<path class=\"sb\" d=\"",
            DRAW_TITLE_BAND, geo->width, geo->height);
    for (int i = 0; i < geo->nareas; i++)
        if (geo->areas[i].kind == DJ_GEO_SEA)
            put_rings(m, &geo->areas[i]);
    fputs("\"/>\n", m);
    /* Each fill in turn: the unowned land, the neutral, each power's,
     * the impassable (hatched over). */
    for (int f = FILL_IMPASSABLE; f < req->map->npowers; f++) {
        bool any = false;
        for (int i = 0; i < geo->nareas; i++) {
            const dj_geo_area *a = &geo->areas[i];
            if (a->kind == DJ_GEO_SEA || fill_of(a, board, req->map) != f)
                continue;
            if (!any) {
                if (f >= 0)
                    fprintf(m, "<path class=\"a o%d\" d=\"", f);
                else
                    fprintf(m, "<path class=\"a %s\" d=\"",
                            f == FILL_LAND      ? "l"
                            : f == FILL_NEUTRAL ? "n"
                                                : "i");
            }
            any = true;
            put_rings(m, a);
        }
        if (!any)
            continue;
        fputs("\"/>\n", m);
        if (f == FILL_IMPASSABLE) { /* the hatching, then the outline again */
            fputs("<path class=\"h\" d=\"", m);
            for (int i = 0; i < geo->nareas; i++)
                if (geo->areas[i].kind == DJ_GEO_IMPASSABLE)
                    put_rings(m, &geo->areas[i]);
            fputs("\"/>\n", m);
        }
    }
    fputs("</g>\n", m);
}

static void put_text(FILE *m, const char *text)
{
    for (const char *c = text; *c; c++)
        switch (*c) {
        case '&': fputs("&amp;", m); break;
        case '<': fputs("&lt;", m); break;
        case '>': fputs("&gt;", m); break;
        default: fputc(*c, m);
        }
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
        put_text(m, lay->pub.label_text[i]);
        fputs("</text>\n", m);
    }
    fputs("</g>\n", m);
}

/* Where text ends in a document of len bytes: its last occurrence. */
static const char *last_of(const char *doc, size_t len, const char *text)
{
    size_t n = strlen(text);
    for (size_t i = len >= n ? len - n + 1 : 0; i-- > 0;)
        if (memcmp(doc + i, text, n) == 0)
            return doc + i;
    return NULL;
}

bool svg_board_compose(const dj_picture_request *req, const layout *lay,
                       unsigned char **doc, size_t *len)
{
    const char *text = (const char *)*doc;
    const char *open = *len ? memchr(text, '<', *len) : NULL;
    while (open && strncmp(open, "<svg", 4) != 0)
        open = memchr(open + 1, '<', *len - (size_t)(open + 1 - text));
    const char *after_open =
        open ? memchr(open, '>', *len - (size_t)(open - text)) : NULL;
    const char *close = last_of(text, *len, "</svg>");
    if (!after_open || !close || close < after_open)
        return false;
    after_open++;
    const dj_position *board = req->after ? req->after : req->pos;
    char *out = NULL;
    size_t outlen = 0;
    FILE *m = open_memstream(&out, &outlen);
    if (!m)
        return false;
    fwrite(text, 1, (size_t)(after_open - text), m);
    fputc('\n', m);
    put_style(m, req, board);
    put_board(m, req, board);
    put_tightened(m, after_open, close);
    put_names(m, lay);
    fwrite(close, 1, *len - (size_t)(close - text), m);
    if (fclose(m) != 0) {
        free(out);
        return false;
    }
    free(*doc);
    *doc = (unsigned char *)out;
    *len = outlen;
    return true;
}
