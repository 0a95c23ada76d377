/* SPDX-License-Identifier: MIT */
/*
 * test_render.c — the pictures: the geometry loader's errors, and every
 * phase of the scripted full game (tests/games/full) drawn and checked by
 * probing pixels: a centre's province is filled with its owner's colour,
 * each unit's symbol stands at its place in its power's colour, a failed
 * move is drawn dashed where a successful one is solid.  The SVG of each
 * phase must be valid XML (xmllint) and compact, and the PDF must open
 * (pdfinfo).  The board a PNG copies from the geometry's layer (its
 * provinces' runs and edge pixels composed again) has the pixels of the
 * areas drawn as paths, within an edge pixel's rounding.
 * Run as `test_render SRCDIR`; DJ_RENDER_DUMP=DIR keeps each phase's PNG.
 */
#define _POSIX_C_SOURCE 200809L
#include <cairo.h>
#include <glob.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/adjudicate.h"
#include "reader/notation.h"
#include "render/board_layer.h"
#include "render/png_write.h"
#include "render/render.h"
#include "testlib.h"

#include <cairo.h>

static const dj_map *map;
static const dj_geo *geo;
static char tmpdir[] = "/tmp/test_render.XXXXXX";

/* ---- the geometry loader ------------------------------------------------ */

static void expect_geo_error(const char *text, const char *want)
{
    char err[512] = "";
    dj_geo *g = dj_geo_parse(text, "t.geo", map, err, sizeof err);
    CHECK(g == NULL);
    if (!strstr(err, want))
        fprintf(stderr, "error was \"%s\", want \"%s\"\n", err, want);
    CHECK(strstr(err, want) != NULL);
    dj_geo_free(g);
}

static void test_geo_errors(void)
{
    expect_geo_error("area lon land\n", "t.geo:1: the first line must be");
    expect_geo_error("", "t.geo: empty: no 'board' line");
    expect_geo_error("board 0 10\n", "t.geo:1: 'board' takes a width");
    expect_geo_error("board 10 10\nboard 10 10\n", "t.geo:2: 'board' given twice");
    expect_geo_error("board 100 100\n# c\narea xyz land\n",
                     "t.geo:3: 'xyz' is not a province of map");
    expect_geo_error("board 100 100\narea lon land\narea lon land\n",
                     "t.geo:3: area 'lon' given twice");
    expect_geo_error("board 100 100\narea lon swamp\n",
                     "t.geo:2: area kind 'swamp'");
    expect_geo_error("board 100 100\nring lon 1 1 2 2 3 3\n",
                     "t.geo:2: 'ring' needs an area");
    expect_geo_error("board 100 100\narea lon land\nring lon 1 1 2 2\n",
                     "t.geo:3: ring of 'lon': fewer than 3 points");
    expect_geo_error("board 100 100\narea lon land\nring lon 1 1 2 2 3\n",
                     "t.geo:3: ring of 'lon': an x without its y");
    expect_geo_error("board 100 100\narea lon land\nring lon 1 1 2 2 nan 3\n",
                     "t.geo:3: ring of 'lon', point 3");
    expect_geo_error("board 100 100\nunit lon 500 5\n",
                     "t.geo:2: '500 5' is not a point on the board");
    expect_geo_error("board 100 100\nunit atlantis 5 5\n",
                     "t.geo:2: 'atlantis' is not a place of map");
    expect_geo_error("board 100 100\nunit lon 5 5\nunit lon 6 6\n",
                     "t.geo:3: unit of 'lon' given twice");
    expect_geo_error("board 100 100\ncentre spa/nc 5 5\n",
                     "t.geo:2: 'spa/nc' is a coast");
    expect_geo_error("board 100 100\nsquare lon\n",
                     "t.geo:2: unknown keyword 'square'");
    expect_geo_error("board 100 100\narea _x neutral\nring _x 1 1 2 2 3 3\n",
                     "t.geo: province 'adr' has no outline");
    /* Everything but one unit place: the file names what is missing. */
    char path[1024];
    snprintf(path, sizeof path, "%s", "maps/standard.geo");
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    static char text[4 << 20], cut[4 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *line = strstr(text, "\nunit spa/sc ");
    CHECK(line != NULL);
    if (line) {
        char *end = strchr(line + 1, '\n');
        snprintf(cut, sizeof cut, "%.*s%s", (int)(line - text), text, end);
        expect_geo_error(cut, "t.geo: no 'unit' place for 'spa/sc'");
    }
    char err[256];
    dj_geo *whole = dj_geo_parse(text, "t.geo", map, err, sizeof err);
    CHECK(whole != NULL);
    dj_geo_free(whole);
}

/* ---- probing pixels ---------------------------------------------------- */

typedef struct image {
    cairo_surface_t *s;
    unsigned char *data;
    int width, height, stride;
} image;

typedef struct reader_state {
    const unsigned char *p;
    size_t left;
} reader_state;

static cairo_status_t read_bytes(void *c, unsigned char *out, unsigned int n)
{
    reader_state *r = c;
    if (n > r->left)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(out, r->p, n);
    r->p += n;
    r->left -= n;
    return CAIRO_STATUS_SUCCESS;
}

static bool decode(const dj_picture *pic, image *im)
{
    reader_state r = {pic->data, pic->len};
    im->s = cairo_image_surface_create_from_png_stream(read_bytes, &r);
    if (cairo_surface_status(im->s) != CAIRO_STATUS_SUCCESS)
        return false;
    cairo_surface_flush(im->s);
    im->data = cairo_image_surface_get_data(im->s);
    im->width = cairo_image_surface_get_width(im->s);
    im->height = cairo_image_surface_get_height(im->s);
    im->stride = cairo_image_surface_get_stride(im->s);
    return true;
}

/* ---- the PNG writer on images made to test it -------------------------- */

typedef struct bytes_out {
    unsigned char *data;
    size_t len;
} bytes_out;

static cairo_status_t append_bytes(void *c, const unsigned char *data,
                                   unsigned int n)
{
    bytes_out *o = c;
    unsigned char *grown = realloc(o->data, o->len + n);
    if (!grown)
        return CAIRO_STATUS_NO_MEMORY;
    memcpy(grown + o->len, data, n);
    o->data = grown;
    o->len += n;
    return CAIRO_STATUS_SUCCESS;
}

/*
 * png_write.c, the judge's PNG writer (a palette image through libpng):
 * images of every shape a board's picture can take — one pixel, one row,
 * one column, long rows, runs as long as cairo allows, stripes, a copy of
 * the row above, noise of 200 colours and of thousands (the palette's
 * nearest colour, and then RGB) — written, read back with cairo (libpng
 * and zlib check every CRC and the Adler-32 sum), and compared pixel for
 * pixel where the image has no more than 256 colours.
 */
static void test_png_writer(void)
{
    static const int sizes[][3] = {/* width, height, kind */
                                   {1, 1, 0},    {7, 3, 1},    {1, 300, 2},
                                   {5000, 2, 1}, {32000, 3, 0}, {300, 300, 3},
                                   {2000, 40, 2}, {640, 480, 4}, {259, 259, 2}};
    unsigned seed = 12345;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int w = sizes[k][0], h = sizes[k][1], kind = sizes[k][2];
        cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
        unsigned char *d = cairo_image_surface_get_data(s);
        int stride = cairo_image_surface_get_stride(s);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                uint32_t v;
                seed = seed * 1103515245u + 12345u;
                if (kind == 0)
                    v = 0x336699;
                else if (kind == 1)
                    v = (uint32_t)((x / 3 + y) % 5) * 0x203040u;
                else if (kind == 2) /* every other row the row above */
                    v = (uint32_t)(((y / 2) * 7 + x / 11) % 9) * 0x1c0e07u;
                else if (kind == 3)
                    v = (seed >> 8) % 200 * 0x010101u;
                else
                    v = (seed >> 8) & 0xffffff;
                memcpy(d + (size_t)y * stride + 4 * (size_t)x, &v, 4);
            }
        cairo_surface_mark_dirty(s);
        bytes_out o = {NULL, 0};
        CHECK(png_write_surface(s, append_bytes, &o));
        dj_picture pic = {o.data, o.len};
        image im;
        bool read = decode(&pic, &im);
        CHECK(read);
        if (read && kind != 4) {
            CHECK(im.width == w && im.height == h);
            int wrong = 0;
            for (int y = 0; y < h && im.width == w && im.height == h; y++)
                for (int x = 0; x < w; x++) {
                    uint32_t a, b;
                    memcpy(&a, d + (size_t)y * stride + 4 * (size_t)x, 4);
                    memcpy(&b, im.data + (size_t)y * im.stride + 4 * (size_t)x, 4);
                    wrong += (a & 0xffffff) != (b & 0xffffff);
                }
            if (wrong)
                fprintf(stderr, "png %dx%d kind %d: %d pixels wrong\n", w, h,
                        kind, wrong);
            CHECK(wrong == 0);
        }
        if (read)
            cairo_surface_destroy(im.s);
        free(o.data);
        cairo_surface_destroy(s);
    }
}

/* The colour at a point of the board (0..255 each). */
static void pixel(const image *im, double bx, double by, int rgb[3])
{
    double ox, oy;
    dj_render_board_origin(&ox, &oy);
    int x = (int)floor(bx + ox), y = (int)floor(by + oy);
    if (x < 0 || y < 0 || x >= im->width || y >= im->height) {
        rgb[0] = rgb[1] = rgb[2] = -1000;
        return;
    }
    uint32_t v = *(uint32_t *)(im->data + y * im->stride + 4 * x);
    rgb[0] = (v >> 16) & 255;
    rgb[1] = (v >> 8) & 255;
    rgb[2] = v & 255;
}

static bool near_colour(const int got[3], const double want[3], int tol)
{
    for (int i = 0; i < 3; i++)
        if (abs(got[i] - (int)lround(want[i] * 255)) > tol)
            return false;
    return true;
}

/* Is the point inside the area, at least `margin` from its edges? */
static bool inside_area(const dj_geo_area *a, double x, double y, double margin)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
    cairo_t *cr = cairo_create(s);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
    for (int k = 0; k < a->nrings; k++) {
        cairo_move_to(cr, a->rings[k].points[0].x, a->rings[k].points[0].y);
        for (int i = 1; i < a->rings[k].npoints; i++)
            cairo_line_to(cr, a->rings[k].points[i].x, a->rings[k].points[i].y);
        cairo_close_path(cr);
    }
    bool in = cairo_in_fill(cr, x, y) && cairo_in_fill(cr, x - margin, y) &&
              cairo_in_fill(cr, x + margin, y) &&
              cairo_in_fill(cr, x, y - margin) && cairo_in_fill(cr, x, y + margin);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    return in;
}

/* A point of the province's fill that nothing is drawn over. */
/* Is the point clear of the names and units the picture laid out? */
static bool clear_of(const dj_render_layout *lay, double x, double y)
{
    for (int i = 0; i < lay->nlabels; i++) {
        const dj_render_box *b = &lay->labels[i];
        if (x > b->x0 - 2 && x < b->x1 + 2 && y > b->y0 - 2 && y < b->y1 + 2)
            return false;
    }
    for (int i = 0; i < lay->nunits; i++) {
        const dj_render_box *b = &lay->units[i];
        if (x > b->x0 - 2 && x < b->x1 + 2 && y > b->y0 - 2 && y < b->y1 + 2)
            return false;
    }
    return true;
}

static bool fill_probe(const dj_render_layout *lay, int prov, double *px,
                       double *py)
{
    const dj_geo_area *a = &geo->areas[geo->area_of[prov]];
    double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
    for (int k = 0; k < a->nrings; k++)
        for (int i = 0; i < a->rings[k].npoints; i++) {
            dj_geo_point p = a->rings[k].points[i];
            x0 = fmin(x0, p.x), x1 = fmax(x1, p.x);
            y0 = fmin(y0, p.y), y1 = fmax(y1, p.y);
        }
    for (double y = y0 + 0.5; y < y1; y += 2)
        for (double x = x0 + 0.5; x < x1; x += 2) {
            bool clear = true;
            for (int loc = 0; loc < map->nlocs && clear; loc++)
                if (geo->centre[loc].set &&
                    hypot(geo->centre[loc].at.x - x,
                          geo->centre[loc].at.y - y) < 8)
                    clear = false;
            if (clear && clear_of(lay, x, y) && inside_area(a, x, y, 2)) {
                *px = x, *py = y;
                return true;
            }
        }
    return false;
}

static void check_board(const dj_position *pos, const char *phase)
{
    dj_picture_request rq = {map, geo, pos, NULL, 0, NULL, phase, NULL};
    dj_picture pic;
    char err[256];
    image im;
    CHECK(dj_render_picture(&rq, DJ_PICTURE_PNG, &pic, err, sizeof err) == 0);
    CHECK(decode(&pic, &im));
    static dj_render_layout lay;
    CHECK(dj_render_layout_of(&rq, &lay, err, sizeof err) == 0);
    /* Each owned centre's province is filled with its owner's colour. */
    for (int prov = 0; prov < map->nlocs; prov++) {
        if (dj_province(map, prov) != prov || !map->is_sc[prov] ||
            pos->owner[prov] < 0)
            continue;
        double x, y, want[3];
        int got[3];
        bool found = fill_probe(&lay, prov, &x, &y);
        if (!found)
            fprintf(stderr, "%s: no clear point in %s\n", phase,
                    map->locs[prov].abbr);
        CHECK(found);
        if (!found)
            continue;
        pixel(&im, x, y, got);
        dj_render_owned_fill(map, pos->owner[prov], want);
        bool ok = near_colour(got, want, 3);
        if (!ok)
            fprintf(stderr, "%s: %s at %.0f,%.0f is %d,%d,%d\n", phase,
                    map->locs[prov].abbr, x, y, got[0], got[1], got[2]);
        CHECK(ok);
    }
    /* Each unit's symbol stands at its place, in its power's colour. */
    for (int i = 0; i < pos->nunits; i++) {
        const dj_unit *u = &pos->units[i];
        dj_geo_point p = geo->unit[u->loc].set ? geo->unit[u->loc].at
                         : geo->unit[dj_province(map, u->loc)].at;
        double want[3];
        int got[3];
        dj_render_power_colour(map, u->power, want);
        pixel(&im, p.x + (u->type == DJ_FLEET ? -8 : -6), p.y + 2, got);
        bool ok = near_colour(got, want, 3);
        if (!ok)
            fprintf(stderr, "%s: unit at %s: %d,%d,%d\n", phase,
                    map->locs[u->loc].abbr, got[0], got[1], got[2]);
        CHECK(ok);
    }
    cairo_surface_destroy(im.s);
    dj_picture_free(&pic);
}

/* Of points along the middle of a move's arrow, how many show its colour? */
static double arrow_coverage(const dj_position *pos, const dj_order *o,
                             const dj_result *res, int i)
{
    static dj_result one;
    one = *res;
    one.norders = 1;
    one.orders[0] = res->orders[i];
    one.next.ndislodged = 0;
    memset(one.contested, 0, sizeof one.contested);
    dj_picture_request rq = {map, geo, pos, o, 1, &one, "arrow", NULL};
    dj_picture pic;
    char err[256];
    image im;
    if (dj_render_picture(&rq, DJ_PICTURE_PNG, &pic, err, sizeof err) ||
        !decode(&pic, &im))
        return -1;
    dj_geo_point a = geo->unit[o->loc].set ? geo->unit[o->loc].at
                     : geo->unit[dj_province(map, o->loc)].at;
    dj_geo_point b = geo->unit[o->dest].set ? geo->unit[o->dest].at
                     : geo->unit[dj_province(map, o->dest)].at;
    double want[3];
    dj_render_power_colour(map, o->power, want);
    int hits = 0, samples = 0;
    /* The shaft only: after the unit, before the head. */
    double len = hypot(b.x - a.x, b.y - a.y);
    double t0 = 12 / len, t1 = (len - 9 - 11 - 3) / len;
    for (double t = t0; len > 3 * 9 && t1 - t0 > 14 / len && t <= t1;
         t += 1 / len) {
        int got[3];
        pixel(&im, a.x + t * (b.x - a.x), a.y + t * (b.y - a.y), got);
        samples++;
        hits += near_colour(got, want, 40);
    }
    cairo_surface_destroy(im.s);
    dj_picture_free(&pic);
    return samples ? (double)hits / samples : -1;
}

static int solid_checked, dashed_checked;
static double min_solid = 1, max_dashed = 0;

static void check_moves(const dj_position *pos, const dj_order *orders, int n,
                        const dj_result *res)
{
    for (int i = 0; i < n; i++) {
        const dj_order *o = &orders[i];
        if (o->kind != DJ_ORDER_MOVE || o->dest < 0 ||
            !dj_map_adjacent(map, o->loc, o->dest, o->unit_type ? o->unit_type : DJ_ARMY) ||
            (res->orders[i].flags & DJ_RF_DISLODGED))
            continue;
        double c = arrow_coverage(pos, o, res, i);
        if (c < 0)
            continue;
        if (res->orders[i].success) {
            solid_checked++;
            if (c < min_solid)
                min_solid = c;
            if (c < 0.9)
                fprintf(stderr, "solid arrow %s-%s: %.2f\n",
                        map->locs[o->loc].abbr, map->locs[o->dest].abbr, c);
            CHECK(c >= 0.9);
        } else {
            dashed_checked++;
            if (c > max_dashed)
                max_dashed = c;
            if (c > 0.75)
                fprintf(stderr, "dashed arrow %s-%s: %.2f\n",
                        map->locs[o->loc].abbr, map->locs[o->dest].abbr, c);
            CHECK(c <= 0.75);
        }
    }
}

static bool run_tool(const char *cmd)
{
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "failed (%d): %s\n", rc, cmd);
    return rc == 0;
}

/* How many times needle occurs in the picture's bytes. */
static int occurrences(const dj_picture *pic, const char *needle)
{
    size_t n = strlen(needle);
    int count = 0;
    for (size_t i = 0; i + n <= pic->len; i++)
        count += memcmp(pic->data + i, needle, n) == 0;
    return count;
}

/*
 * The SVG is compact (issue 25) and written by the judge (issue 31): one
 * style block, each area of the board one path (with its data-place),
 * every name a <text> (as many as the layout places), no glyph of
 * cairo's, and all of it under 100 KB (cairo alone wrote half a
 * megabyte, cairo and the compact board 127 KB).
 */
static void check_svg_compact(const dj_picture_request *rq,
                              const dj_picture *pic)
{
    dj_render_layout *lay = malloc(sizeof *lay);
    char err[256];
    CHECK(lay && dj_render_layout_of(rq, lay, err, sizeof err) == 0);
    CHECK(occurrences(pic, "<style>") == 1);
    CHECK(occurrences(pic, "<path class=\"a ") +
              occurrences(pic, "<path class=\"s sb\"") ==
          rq->geo->nareas);
    if (lay)
        CHECK(occurrences(pic, "<text class=\"t") == lay->nlabels);
    CHECK(occurrences(pic, "<use") == 0 && occurrences(pic, "glyph") == 0);
    CHECK(pic->len < 100 * 1024);
    free(lay);
}

/*
 * The SVG says what it shows (issue 31): each unit of the board drawn as
 * <g data-power="England" data-unit="A" data-place="nwy"> with its
 * title (data-dislodged="yes" when dislodged), each drawn order with its
 * canonical text and result, each province's area its data-place and
 * name.
 */
static void check_svg_says(const dj_picture_request *rq, const dj_picture *pic)
{
    const dj_position *b = rq->after ? rq->after : rq->pos;
    char want[512], text[128];
    int units = 0;
    for (int i = 0; i < b->nunits + b->ndislodged; i++) {
        bool off = i >= b->nunits;
        const dj_unit *u = off ? &b->dislodged[i - b->nunits].unit
                               : &b->units[i];
        bool before_dislodged = false; /* drawn set off before the phase */
        for (int k = 0; !rq->after && rq->result && k < rq->norders &&
                        k < rq->result->norders;
             k++)
            if ((rq->result->orders[k].flags & DJ_RF_DISLODGED) &&
                dj_province(map, rq->orders[k].loc) == dj_province(map, u->loc))
                before_dislodged = true;
        const dj_power *pw = &map->powers[u->power];
        snprintf(want, sizeof want,
                 "<g data-power=\"%s\" data-unit=\"%s\" data-place=\"%s\"%s>"
                 "<title>%s %s in %s%s",
                 pw->name, dj_unit_letter(u->type), map->locs[u->loc].abbr,
                 off || before_dislodged ? " data-dislodged=\"yes\"" : "",
                 pw->adjective, u->type == DJ_FLEET ? "fleet" : "army",
                 map->locs[u->loc].name,
                 off || before_dislodged ? ", dislodged, " : "</title>");
        bool found = occurrences(pic, want) >= 1;
        if (!found)
            fprintf(stderr, "no %s in the SVG\n", want);
        CHECK(found);
        units++;
    }
    CHECK(occurrences(pic, " data-unit=\"") == units);
    for (int i = 0; i < rq->norders; i++) {
        const dj_order *o = &rq->orders[i];
        bool drawn = (o->kind == DJ_ORDER_MOVE || o->kind == DJ_ORDER_RETREAT)
                         ? o->dest >= 0
                     : o->kind == DJ_ORDER_BUILD
                         ? !(rq->result && i < rq->result->norders &&
                             !rq->result->orders[i].success)
                         : o->kind != DJ_ORDER_WAIVE;
        if (!drawn)
            continue;
        dj_order_format(map, o, text, sizeof text);
        if (rq->result && i < rq->result->norders)
            snprintf(want, sizeof want, "<g data-order=\"%s\" data-result=\"%s\">",
                     text, rq->result->orders[i].success ? "succeeds" : "fails");
        else
            snprintf(want, sizeof want, "<g data-order=\"%s\">", text);
        bool found = occurrences(pic, want) >= 1;
        if (!found)
            fprintf(stderr, "no %s in the SVG\n", want);
        CHECK(found);
    }
    for (int i = 0; i < rq->geo->nareas; i++) {
        const dj_geo_area *a = &rq->geo->areas[i];
        if (a->province < 0)
            continue;
        snprintf(want, sizeof want, " data-place=\"%s\" d=\"",
                 map->locs[a->province].abbr);
        CHECK(occurrences(pic, want) >= 1);
        snprintf(want, sizeof want, "\"><title>%s</title></path>",
                 map->locs[a->province].name);
        CHECK(occurrences(pic, want) >= 1);
    }
}

static void check_formats(const dj_picture_request *rq, int phase_no)
{
    char err[256], path[512], cmd[1200];
    for (int fmt = DJ_PICTURE_SVG; fmt <= DJ_PICTURE_PDF; fmt++) {
        dj_picture pic;
        CHECK(dj_render_picture(rq, (dj_picture_format)fmt, &pic, err, sizeof err) == 0);
        snprintf(path, sizeof path, "%s/%02d.%s", tmpdir, phase_no,
                 dj_picture_format_name((dj_picture_format)fmt));
        FILE *f = fopen(path, "wb");
        CHECK(f && fwrite(pic.data, 1, pic.len, f) == pic.len);
        if (f)
            fclose(f);
        if (fmt == DJ_PICTURE_SVG) {
            check_svg_compact(rq, &pic);
            check_svg_says(rq, &pic);
        }
        dj_picture_free(&pic);
        if (fmt == DJ_PICTURE_SVG)
            snprintf(cmd, sizeof cmd, "xmllint --noout '%s'", path);
        else
            snprintf(cmd, sizeof cmd, "pdfinfo '%s' >/dev/null", path);
        CHECK(run_tool(cmd));
        unlink(path);
    }
}

static int read_orders(const char *path, const dj_position *pos,
                       dj_order *orders)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f) && n < DJ_MAX_ORDERS) {
        line[strcspn(line, "\r\n")] = '\0';
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        *colon = '\0';
        int power = dj_map_find_power(map, line);
        char err[256];
        if (power < 0 ||
            dj_notation_parse(map, power, pos->phase.type, colon + 1,
                              &orders[n], err, sizeof err) != 0) {
            fprintf(stderr, "%s: cannot read '%s'\n", path, colon + 1);
            continue;
        }
        n++;
    }
    fclose(f);
    return n;
}

static void test_full_game(const char *srcdir)
{
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "%s/tests/games/full/[0-9]*-*.txt", srcdir);
    glob_t g;
    CHECK(glob(pattern, 0, NULL, &g) == 0);
    static dj_position pos;
    static dj_result res;
    static dj_order orders[DJ_MAX_ORDERS];
    dj_rules rules;
    dj_rules_default(&rules);
    dj_position_initial(map, &pos);
    int phases = 0;
    for (size_t k = 0; k < g.gl_pathc; k++) {
        const char *name = strrchr(g.gl_pathv[k], '-') + 1;
        char want[16], have[16];
        snprintf(want, sizeof want, "%.*s", (int)strcspn(name, "."), name);
        /* Phases with nothing to order have no file: play them empty. */
        for (int guard = 0; guard < 4; guard++) {
            dj_phase_format_short(pos.phase, have, sizeof have);
            if (strcmp(have, want) == 0)
                break;
            check_board(&pos, have);
            CHECK(dj_adjudicate(map, &pos, NULL, 0, &rules, &res) == 0);
            pos = res.next;
        }
        dj_phase_format_short(pos.phase, have, sizeof have);
        CHECK_STR(have, want);
        int n = read_orders(g.gl_pathv[k], &pos, orders);
        CHECK(n >= 0);
        CHECK(dj_adjudicate(map, &pos, orders, n, &rules, &res) == 0);
        check_board(&pos, have);
        check_moves(&pos, orders, n, &res);
        dj_picture_request rq = {map, geo, &pos, orders, n, &res, have, NULL};
        dj_picture pic;
        char err[256];
        CHECK(dj_render_picture(&rq, DJ_PICTURE_PNG, &pic, err, sizeof err) == 0);
        CHECK(pic.len > 1000 && memcmp(pic.data, "\x89PNG", 4) == 0);
        /* DJ_RENDER_DUMP=DIR keeps the pictures to look at. */
        const char *dump = getenv("DJ_RENDER_DUMP");
        if (dump) {
            char out[1024];
            snprintf(out, sizeof out, "%s/%02d-%s.png", dump, (int)k + 1, have);
            FILE *f = fopen(out, "wb");
            if (f) {
                fwrite(pic.data, 1, pic.len, f);
                fclose(f);
            }
        }
        dj_picture_free(&pic);
        check_formats(&rq, (int)k);
        /* As a game draws it: the board the phase left. */
        rq.after = &res.next;
        check_formats(&rq, (int)k);
        pos = res.next;
        phases++;
    }
    globfree(&g);
    printf("%d phases drawn; %d successful and %d failed moves probed "
           "(coverage: solid %.2f at least, dashed %.2f at most)\n",
           phases, solid_checked, dashed_checked, min_solid, max_dashed);
    CHECK(phases > 20);
    CHECK(solid_checked > 20 && dashed_checked > 5);
}

static void test_formats_named(void)
{
    CHECK(dj_picture_format_from_name("x/map.PNG") == DJ_PICTURE_PNG);
    CHECK(dj_picture_format_from_name("map.svg") == DJ_PICTURE_SVG);
    CHECK(dj_picture_format_from_name("pdf") == DJ_PICTURE_PDF);
    CHECK(dj_picture_format_from_name("NONE") == DJ_PICTURE_NONE);
    CHECK(dj_picture_format_from_name("map.gif") == -1);
    CHECK(dj_picture_format_from_name("map.none") == -1);
    CHECK_STR(dj_picture_mime_type(DJ_PICTURE_PNG), "image/png");
}

/*
 * The board's areas as a PNG paints them (the geometry's layer: runs and
 * edge pixels composed again, board_layer.c) against the areas drawn as
 * paths, every province owned in turn by each power and none: each
 * channel of each pixel within an edge pixel's rounding (the paths
 * antialias each fill and stroke in turn, the layer composes kept
 * coverages), and the layer used.
 */
static void check_layer_matches_paths(const char *board)
{
    static dj_position pos;
    dj_position_initial(map, &pos);
    for (int loc = 0; loc < map->nlocs; loc++)
        pos.owner[loc] = loc % (map->npowers + 1) - 1;
    cairo_surface_t *s[2];
    for (int i = 0; i < 2; i++) {
        s[i] = cairo_image_surface_create(CAIRO_FORMAT_RGB24, geo->width,
                                          geo->height);
        cairo_t *cr = cairo_create(s[i]);
        if (i == 0)
            CHECK(board_layer_paint(cr, geo, map, &pos));
        else
            board_areas_draw(cr, geo, map, &pos, true, true);
        cairo_destroy(cr);
        cairo_surface_flush(s[i]);
    }
    int worst = 0;
    for (int y = 0; y < geo->height; y++) {
        const unsigned char *a = cairo_image_surface_get_data(s[0]) +
                                 y * cairo_image_surface_get_stride(s[0]);
        const unsigned char *b = cairo_image_surface_get_data(s[1]) +
                                 y * cairo_image_surface_get_stride(s[1]);
        for (int x = 0; x < 4 * geo->width; x++)
            if (x % 4 != 3 && abs(a[x] - b[x]) > worst)
                worst = abs(a[x] - b[x]);
    }
    if (worst > 16)
        fprintf(stderr, "%s: the layer's board is %d levels off the paths'\n",
                board, worst);
    CHECK(worst <= 16);
    cairo_surface_destroy(s[0]);
    cairo_surface_destroy(s[1]);
}

/* The drawings a geometry keeps are its map's: drawn with another map,
 * none of them is found, and keeping one for it lets the first map's go. */
static void test_kept_drawings_per_map(void)
{
    char err[512];
    dj_map *other = dj_map_load("maps/chaos.map", err, sizeof err);
    CHECK(other != NULL);
    if (!other)
        return;
    board_sprite_key key = {BOARD_SPRITE_ARMY, 0, 1000, 123, 456};
    cairo_surface_t *a = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 4, 4);
    cairo_surface_t *b = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 4, 4);
    CHECK(board_layer_sprite(geo, map, &key) == NULL);
    CHECK(board_layer_keep_sprite(geo, map, &key, a));
    CHECK(board_layer_sprite(geo, map, &key) == a);
    CHECK(board_layer_sprite(geo, other, &key) == NULL);
    CHECK(board_layer_keep_sprite(geo, other, &key, b));
    CHECK(board_layer_sprite(geo, other, &key) == b);
    CHECK(board_layer_sprite(geo, map, &key) == NULL);
    dj_map_free(other);
}

/* A variant's start position, drawn with its own geometry, probed as the
 * standard board's positions are: centres in their owners' colours, units
 * in their powers' colours where the geometry puts them. */
static void test_variant_start(const char *variant)
{
    char path[256], geo_path[1024], err[512];
    snprintf(path, sizeof path, "maps/%s.map", variant);
    dj_map *m = dj_map_load(path, err, sizeof err);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    bool found = dj_geo_find(path, geo_path, sizeof geo_path) == 0;
    CHECK(found);
    dj_geo *g = found ? dj_geo_load(geo_path, m, err, sizeof err) : NULL;
    CHECK(g != NULL);
    if (!g) {
        fprintf(stderr, "%s: %s\n", variant, found ? err : "no geometry");
        dj_map_free(m);
        return;
    }
    const dj_map *saved_map = map;
    const dj_geo *saved_geo = geo;
    map = m;
    geo = g;
    static dj_position pos;
    dj_position_initial(m, &pos);
    char phase[64];
    snprintf(phase, sizeof phase, "%s start", variant);
    check_board(&pos, phase);
    check_layer_matches_paths(variant);
    map = saved_map;
    geo = saved_geo;
    dj_geo_free(g);
    dj_map_free(m);
}

int main(int argc, char **argv)
{
    const char *srcdir = test_srcdir(argc, argv);
    if (chdir(srcdir) != 0 || !mkdtemp(tmpdir)) {
        perror(srcdir);
        return 1;
    }
    char err[512], path[1024];
    dj_map *m = dj_map_load("maps/standard.map", err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    map = m;
    CHECK(dj_geo_find("maps/standard.map", path, sizeof path) == 0);
    CHECK_STR(path, "maps/standard.geo");
    CHECK(dj_geo_find("maps/chaos.map", path, sizeof path) == 0);
    CHECK_STR(path, "maps/standard.geo");
    dj_geo *g = dj_geo_load("maps/standard.geo", map, err, sizeof err);
    if (!g) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    geo = g;
    test_formats_named();
    test_png_writer();
    test_geo_errors();
    test_full_game(".");
    check_layer_matches_paths("standard");
    test_kept_drawings_per_map();
    test_variant_start("pure");
    test_variant_start("hundred");
    test_variant_start("ancmed");
    test_variant_start("youngstown");
    test_variant_start("britain");
    test_variant_start("canton");
    test_variant_start("milan");
    test_variant_start("modern");
    test_variant_start("fiveman");
    test_variant_start("sailho");
    test_variant_start("renaissance");
    test_variant_start("brazilian");
    test_variant_start("v8");
    test_variant_start("modern-up");
    test_variant_start("slovenia");
    test_variant_start("1900");
    rmdir(tmpdir);
    dj_geo_free(g);
    dj_map_free(m);
    /* Cairo's font caches and fontconfig's configuration live for the
     * process: the render room frees them at exit (render/picture.c). */
    return test_summary();
}
