/* SPDX-License-Identifier: MIT */
/*
 * board_layer.c — the board's areas: drawn as paths (sea, land in its
 * owners' colours, hatching, borders), and, for raster pictures, drawn
 * once per geometry and kept.
 *
 * Rasterising the outlines is most of what a PNG costs: thousands of
 * points filled and then stroked twice (sea borders, land borders), and
 * the strokes, with their joins, are the dearest part.  All of it but the
 * owners' colours is the same in every picture of a board, so the first
 * PNG drawn with a geometry keeps three things in it: the board with
 * every province unowned (sea, sea borders, land, hatching), the land
 * borders alone on a transparent sheet, and each playable province's
 * coverage (an 8-bit mask of its bounding box, as its fill would cover
 * it).  A picture is then a copy of the first, each owned province's mask
 * filled with its owner's colour, and the borders laid over: the same
 * pixels as drawing the paths, within an edge pixel's rounding, for a
 * fraction of the time.  The vector formats (SVG, PDF) draw the paths.
 */
#include "render/board_layer.h"

#include <stdlib.h>
#include <string.h>

#include "render/palette.h"

#define SEA_BORDER_WIDTH 0.8
#define LAND_BORDER_WIDTH 1.1

/* One playable province's coverage: its mask and where it goes. */
typedef struct area_mask {
    cairo_surface_t *mask; /* A8, NULL when the area is not playable land */
    int x, y;
} area_mask;

#define NFACES 3

struct board_layer {
    cairo_font_face_t *faces[NFACES]; /* the text's faces, held */
    bool tried;               /* made once: ready, or failed for good */
    bool ready;
    cairo_surface_t *base;    /* RGB24: the board, every province unowned */
    cairo_surface_t *borders; /* ARGB32: the land borders alone */
    int nareas;
    area_mask *areas;         /* per area of the geometry */
    unsigned char *canvas;    /* the pixels of the last raster picture */
    size_t canvas_size;
};

struct board_layer *board_layer_new(void)
{
    return calloc(1, sizeof(struct board_layer));
}

static void release(struct board_layer *layer)
{
    if (layer->base)
        cairo_surface_destroy(layer->base);
    if (layer->borders)
        cairo_surface_destroy(layer->borders);
    for (int i = 0; i < layer->nareas; i++)
        if (layer->areas[i].mask)
            cairo_surface_destroy(layer->areas[i].mask);
    free(layer->areas);
    layer->base = layer->borders = NULL;
    layer->areas = NULL;
    layer->nareas = 0;
}

void board_layer_free(struct board_layer *layer)
{
    if (!layer)
        return;
    release(layer);
    free(layer->canvas);
    for (int i = 0; i < NFACES; i++)
        if (layer->faces[i])
            cairo_font_face_destroy(layer->faces[i]);
    free(layer);
}

/*
 * cairo keeps a font face only while something holds it, and the picture's
 * context is its only holder: without this, every picture would find its
 * faces anew through fontconfig, a fifth of its drawing time.  The
 * geometry holds them instead, as long as it lives.
 */
void board_layer_hold_fonts(const dj_geo *geo)
{
    static const struct {
        cairo_font_slant_t slant;
        cairo_font_weight_t weight;
    } used[NFACES] = {
        {CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL},
        {CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD},
        {CAIRO_FONT_SLANT_ITALIC, CAIRO_FONT_WEIGHT_BOLD},
    };
    struct board_layer *layer = geo->layer;
    if (!layer || layer->faces[0])
        return;
    for (int i = 0; i < NFACES; i++)
        layer->faces[i] = cairo_toy_font_face_create(BOARD_FONT, used[i].slant,
                                                     used[i].weight);
}

cairo_surface_t *board_layer_canvas(const dj_geo *geo, int width, int height)
{
    struct board_layer *layer = geo->layer;
    int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, width);
    size_t size = (size_t)stride * (size_t)height;
    if (layer && stride > 0 && size > layer->canvas_size) {
        free(layer->canvas);
        layer->canvas = malloc(size);
        layer->canvas_size = layer->canvas ? size : 0;
    }
    if (!layer || stride <= 0 || !layer->canvas)
        return cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    return cairo_image_surface_create_for_data(
        layer->canvas, CAIRO_FORMAT_RGB24, width, height, stride);
}

static void set_rgb(cairo_t *cr, const double rgb[3])
{
    cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
}

static void ring_path(cairo_t *cr, const dj_geo_area *a)
{
    for (int k = 0; k < a->nrings; k++) {
        const dj_geo_ring *r = &a->rings[k];
        cairo_move_to(cr, r->points[0].x, r->points[0].y);
        for (int i = 1; i < r->npoints; i++)
            cairo_line_to(cr, r->points[i].x, r->points[i].y);
        cairo_close_path(cr);
    }
}

/* An impassable area hatched, so it reads as "no entry" without colour. */
static void hatch(cairo_t *cr, const dj_geo *geo, const dj_geo_area *a)
{
    cairo_save(cr);
    ring_path(cr, a);
    cairo_clip(cr);
    set_rgb(cr, palette_hatch);
    cairo_set_line_width(cr, 1.0);
    for (int x = -geo->height; x < geo->width; x += 6) {
        cairo_move_to(cr, x, geo->height);
        cairo_line_to(cr, x + geo->height, 0);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* Every land outline (land, neutral, impassable) as one path. */
static void land_outlines(cairo_t *cr, const dj_geo *geo)
{
    cairo_new_path(cr);
    for (int i = 0; i < geo->nareas; i++)
        if (geo->areas[i].kind != DJ_GEO_SEA)
            ring_path(cr, &geo->areas[i]);
}

static void stroke_style(cairo_t *cr)
{
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
    /* smooth outlines: round joins cost and show nothing */
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL);
}

void board_areas_draw(cairo_t *cr, const dj_geo *geo, const dj_map *map,
                      const dj_position *board, bool owned, bool land_borders)
{
    stroke_style(cr);
    /* The sea first, as one sheet with the sea borders stroked in one
     * path; then each land area filled, and every land outline stroked
     * in one path, so coastlines are the land's edges. */
    set_rgb(cr, palette_sea);
    cairo_rectangle(cr, 0, 0, geo->width, geo->height);
    cairo_fill(cr);
    cairo_new_path(cr);
    for (int i = 0; i < geo->nareas; i++)
        if (geo->areas[i].kind == DJ_GEO_SEA)
            ring_path(cr, &geo->areas[i]);
    set_rgb(cr, palette_sea_border);
    cairo_set_line_width(cr, SEA_BORDER_WIDTH);
    cairo_stroke(cr);
    for (int i = 0; i < geo->nareas; i++) {
        const dj_geo_area *a = &geo->areas[i];
        if (a->kind == DJ_GEO_SEA)
            continue;
        double fill[3];
        if (a->kind == DJ_GEO_NEUTRAL)
            memcpy(fill, palette_neutral, sizeof fill);
        else if (a->kind == DJ_GEO_IMPASSABLE)
            memcpy(fill, palette_impassable, sizeof fill);
        else if (owned && a->province >= 0 && board->owner[a->province] >= 0)
            dj_render_owned_fill(map, board->owner[a->province], fill);
        else
            memcpy(fill, palette_land, sizeof fill);
        ring_path(cr, a);
        set_rgb(cr, fill);
        cairo_fill(cr);
        if (a->kind == DJ_GEO_IMPASSABLE)
            hatch(cr, geo, a);
    }
    if (land_borders) {
        land_outlines(cr, geo);
        set_rgb(cr, palette_border);
        cairo_set_line_width(cr, LAND_BORDER_WIDTH);
        cairo_stroke(cr);
    }
}

/* Done drawing on a context: did it all go well? */
static bool drawn_ok(cairo_t *cr)
{
    bool ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS;
    cairo_destroy(cr);
    return ok;
}

/* The mask of one playable province: its fill's coverage over its box. */
static bool make_mask(const dj_geo_area *a, area_mask *out)
{
    double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
    for (int k = 0; k < a->nrings; k++)
        for (int i = 0; i < a->rings[k].npoints; i++) {
            const dj_geo_point *p = &a->rings[k].points[i];
            x0 = p->x < x0 ? p->x : x0;
            y0 = p->y < y0 ? p->y : y0;
            x1 = p->x > x1 ? p->x : x1;
            y1 = p->y > y1 ? p->y : y1;
        }
    if (x1 < x0)
        return true; /* no points: nothing to fill */
    out->x = (int)x0 - 1;
    out->y = (int)y0 - 1;
    int w = (int)x1 + 2 - out->x, h = (int)y1 + 2 - out->y;
    out->mask = cairo_image_surface_create(CAIRO_FORMAT_A8, w, h);
    cairo_t *cr = cairo_create(out->mask);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
    cairo_translate(cr, -out->x, -out->y);
    ring_path(cr, a);
    cairo_fill(cr);
    return drawn_ok(cr);
}

static bool make(struct board_layer *layer, const dj_geo *geo,
                 const dj_map *map, const dj_position *board)
{
    layer->base = cairo_image_surface_create(CAIRO_FORMAT_RGB24, geo->width,
                                             geo->height);
    cairo_t *cr = cairo_create(layer->base);
    board_areas_draw(cr, geo, map, board, false, false);
    if (!drawn_ok(cr))
        return false;
    layer->borders = cairo_image_surface_create(CAIRO_FORMAT_ARGB32,
                                                geo->width, geo->height);
    cr = cairo_create(layer->borders);
    stroke_style(cr);
    land_outlines(cr, geo);
    set_rgb(cr, palette_border);
    cairo_set_line_width(cr, LAND_BORDER_WIDTH);
    cairo_stroke(cr);
    if (!drawn_ok(cr))
        return false;
    layer->areas = calloc((size_t)geo->nareas, sizeof *layer->areas);
    if (!layer->areas)
        return false;
    layer->nareas = geo->nareas;
    for (int i = 0; i < geo->nareas; i++)
        if (geo->areas[i].kind == DJ_GEO_LAND && geo->areas[i].province >= 0 &&
            !make_mask(&geo->areas[i], &layer->areas[i]))
            return false;
    return true;
}

bool board_layer_paint(cairo_t *cr, const dj_geo *geo, const dj_map *map,
                       const dj_position *board)
{
    struct board_layer *layer = geo->layer;
    if (!layer)
        return false;
    if (!layer->tried) {
        layer->tried = true;
        layer->ready = make(layer, geo, map, board);
        if (!layer->ready)
            release(layer);
    }
    if (!layer->ready)
        return false;
    cairo_save(cr);
    cairo_set_source_surface(cr, layer->base, 0, 0);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
    for (int i = 0; i < layer->nareas; i++) {
        const dj_geo_area *a = &geo->areas[i];
        if (!layer->areas[i].mask || board->owner[a->province] < 0)
            continue;
        double fill[3];
        dj_render_owned_fill(map, board->owner[a->province], fill);
        set_rgb(cr, fill);
        cairo_mask_surface(cr, layer->areas[i].mask, layer->areas[i].x,
                           layer->areas[i].y);
    }
    cairo_set_source_surface(cr, layer->borders, 0, 0);
    cairo_paint(cr);
    cairo_restore(cr);
    stroke_style(cr);
    return true;
}
