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
 * PNG drawn with a geometry draws the board with every province unowned
 * (sea, sea borders, land, hatching), the land borders, and each playable
 * province's coverage (its fill's 8-bit mask), and keeps what a picture
 * needs of them:
 *
 *  - the finished board: every province unowned, the borders over it;
 *  - per province, the runs of pixels it covers alone and wholly, away
 *    from any border: an owned province's runs are its owner's colour;
 *  - every other pixel some province covers (its edges, shared with a
 *    neighbour, and the borders over them): the unowned board's pixel,
 *    the border's, and the coverage of each province, in the geometry's
 *    order.
 *
 * A picture is then a copy of the finished board, each owned province's
 * runs filled, and each edge pixel of an owned province composed again as
 * cairo composes it (each owned province's colour through its coverage,
 * then the border, with pixman's rounding): the same pixels as cairo
 * composing the kept images (and as drawing the paths, within an edge
 * pixel's rounding), the work beyond the copy being the owned provinces'
 * pixels alone.  The vector formats (SVG, PDF) draw the paths.
 *
 * The layer also keeps small drawings that recur on a board's pictures
 * (unit symbols, centre markers, hold rings, standoff stars, names'
 * halos: draw.c and labels.c make them), in a table by key, and the
 * canvas a PNG is drawn on.
 */
#include "render/board_layer.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/palette.h"

#define SEA_BORDER_WIDTH 0.8
#define LAND_BORDER_WIDTH 1.1

/* A run of one province's pixels on one row of the board: [x0, x1). */
typedef struct pixel_run {
    int y, x0, x1;
} pixel_run;

/* A pixel composed again when a province covering it is owned. */
typedef struct edge_pixel {
    uint16_t x, y;        /* on the board */
    uint32_t unowned;     /* the board's pixel, every province unowned */
    uint32_t border;      /* the borders' pixel, premultiplied ARGB */
    uint32_t first_cover; /* its covers in the layer's covers[] */
    uint32_t ncovers;
} edge_pixel;

/* A small drawing kept, by key (NULL surface: a free slot). */
typedef struct kept_sprite {
    board_sprite_key key;
    cairo_surface_t *surface;
} kept_sprite;

/* A cover: area index << 8 | coverage (1-255). */
typedef uint32_t area_cover;

#define NFACES 3

/* The most drawings a layer keeps (a few megabytes): a board's unit
 * places, powers and names make far fewer; past it, drawings are made
 * and dropped each time. */
#define SPRITES_MAX 2048

struct board_layer {
    cairo_font_face_t *faces[NFACES]; /* the text's faces, held */
    bool tried; /* made once: ready, or failed for good */
    bool ready;
    cairo_surface_t *finished; /* RGB24: unowned, the borders over it */
    int nareas;
    /* per area: its runs in runs[], its edge pixels in edges[] */
    int *first_run, *nruns, *first_edge, *nedges_of;
    pixel_run *runs;
    edge_pixel *edges;
    area_cover *covers;         /* per edge pixel: its covers */
    uint32_t *colour;           /* per area, per picture: 0 unowned */
    unsigned char *canvas;      /* the pixels of the last raster picture */
    size_t canvas_size;
    int nsprites, sprite_slots; /* kept drawings: a table by key */
    struct kept_sprite *sprites;
    const dj_map *sprites_map;  /* the map they were drawn for */
};

struct board_layer *board_layer_new(void)
{
    return calloc(1, sizeof(struct board_layer));
}

static void release(struct board_layer *layer)
{
    if (layer->finished)
        cairo_surface_destroy(layer->finished);
    layer->finished = NULL;
    free(layer->first_run);
    free(layer->nruns);
    free(layer->runs);
    free(layer->edges);
    free(layer->covers);
    free(layer->first_edge);
    free(layer->nedges_of);
    free(layer->colour);
    layer->first_run = layer->nruns = NULL;
    layer->runs = NULL;
    layer->edges = NULL;
    layer->covers = NULL;
    layer->first_edge = layer->nedges_of = NULL;
    layer->colour = NULL;
    layer->nareas = 0;
}

/* Every kept drawing let go. */
static void drop_sprites(struct board_layer *layer)
{
    for (int i = 0; i < layer->sprite_slots; i++)
        if (layer->sprites[i].surface)
            cairo_surface_destroy(layer->sprites[i].surface);
    free(layer->sprites);
    layer->sprites = NULL;
    layer->nsprites = layer->sprite_slots = 0;
}

void board_layer_free(struct board_layer *layer)
{
    if (!layer)
        return;
    release(layer);
    free(layer->canvas);
    drop_sprites(layer);
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

/* ---- kept drawings ------------------------------------------------------- */

static unsigned sprite_hash(const board_sprite_key *k)
{
    const int v[5] = {k->kind, k->power, k->scale, k->phase_x, k->phase_y};
    unsigned h = 2166136261u;
    for (int i = 0; i < 5; i++)
        h = (h ^ (unsigned)v[i]) * 16777619u;
    return h;
}

static bool same_key(const board_sprite_key *a, const board_sprite_key *b)
{
    return a->kind == b->kind && a->power == b->power && a->scale == b->scale &&
           a->phase_x == b->phase_x && a->phase_y == b->phase_y;
}

/* The slot of a key in the table: its own, or the free one it would take. */
static kept_sprite *sprite_slot(kept_sprite *table, int slots,
                                const board_sprite_key *key)
{
    unsigned mask = (unsigned)slots - 1, i = sprite_hash(key) & mask;
    while (table[i].surface && !same_key(&table[i].key, key))
        i = (i + 1) & mask;
    return &table[i];
}

cairo_surface_t *board_layer_sprite(const dj_geo *geo, const dj_map *map,
                                    const board_sprite_key *key)
{
    struct board_layer *layer = geo->layer;
    if (!layer || !layer->sprites || layer->sprites_map != map)
        return NULL;
    return sprite_slot(layer->sprites, layer->sprite_slots, key)->surface;
}

bool board_layer_keep_sprite(const dj_geo *geo, const dj_map *map,
                             const board_sprite_key *key,
                             cairo_surface_t *sprite)
{
    struct board_layer *layer = geo->layer;
    if (!layer)
        return false;
    if (layer->sprites_map != map) {
        drop_sprites(layer);
        layer->sprites_map = map;
    }
    if (layer->nsprites >= SPRITES_MAX)
        return false;
    if (2 * (layer->nsprites + 1) > layer->sprite_slots) {
        /* Twice the room, every kept drawing moved over. */
        int slots = layer->sprite_slots ? 2 * layer->sprite_slots : 64;
        kept_sprite *table = calloc((size_t)slots, sizeof *table);
        if (!table)
            return false;
        for (int i = 0; i < layer->sprite_slots; i++)
            if (layer->sprites[i].surface)
                *sprite_slot(table, slots, &layer->sprites[i].key) =
                    layer->sprites[i];
        free(layer->sprites);
        layer->sprites = table;
        layer->sprite_slots = slots;
    }
    kept_sprite *slot = sprite_slot(layer->sprites, layer->sprite_slots, key);
    if (slot->surface)
        return false; /* kept already */
    *slot = (kept_sprite){*key, sprite};
    layer->nsprites++;
    return true;
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

/* One playable province's coverage: its mask and where it goes. */
typedef struct area_mask {
    cairo_surface_t *mask; /* A8, NULL when the area is not playable land */
    int x, y;
} area_mask;

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
    if (!drawn_ok(cr))
        return false;
    cairo_surface_flush(out->mask);
    return true;
}

/* ---- pixels composed as pixman composes them ----------------------------- */

/*
 * Two channels of a pixel at a time (bits 0-7 and 16-23), as pixman
 * computes them: times a coverage over 255, rounded; and added, held at
 * 255.
 */
#define PAIR_MASK 0x00ff00ffu

static inline uint32_t pair_times(uint32_t pair, uint32_t coverage)
{
    uint32_t t = pair * coverage + 0x00800080u;
    return ((t + ((t >> 8) & PAIR_MASK)) >> 8) & PAIR_MASK;
}

static inline uint32_t pair_add(uint32_t a, uint32_t b)
{
    uint32_t t = a + b;
    t |= 0x10000100u - ((t >> 8) & PAIR_MASK);
    return t & PAIR_MASK;
}

/* Each channel of a pixel times a coverage. */
static inline uint32_t pixel_in(uint32_t pixel, uint32_t coverage)
{
    return pair_times(pixel & PAIR_MASK, coverage) |
           pair_times((pixel >> 8) & PAIR_MASK, coverage) << 8;
}

/* A premultiplied pixel over another (cairo's OVER). */
static inline uint32_t pixel_over(uint32_t src, uint32_t dst)
{
    uint32_t rest = 255 - (src >> 24);
    return pair_add(pair_times(dst & PAIR_MASK, rest), src & PAIR_MASK) |
           pair_add(pair_times((dst >> 8) & PAIR_MASK, rest),
                    (src >> 8) & PAIR_MASK)
               << 8;
}

/* An opaque colour as cairo hands it to pixman: 16 bits a channel, then
 * the top 8. */
static uint32_t pixel_of(const double rgb[3])
{
    uint32_t out = 0xff000000u;
    for (int i = 0; i < 3; i++) {
        double c = rgb[i] < 0 ? 0 : rgb[i] > 1 ? 1 : rgb[i];
        out |= ((uint32_t)(uint16_t)(c * 65535.0 + 0.5) >> 8) << (16 - 8 * i);
    }
    return out;
}

/* Row y of a 32-bit image's pixels. */
static const uint32_t *row_of(cairo_surface_t *s, int y)
{
    size_t stride = (size_t)cairo_image_surface_get_stride(s);
    return (const void *)(cairo_image_surface_get_data(s) + (size_t)y * stride);
}

/* ---- the layer made ------------------------------------------------------ */

/* What making the layer needs of every pixel of the board. */
typedef struct builder {
    struct board_layer *layer;
    const dj_geo *geo;
    cairo_surface_t *unowned, *borders;
    uint32_t *count; /* per pixel: provinces covering it, then its edge */
    unsigned char *partial; /* per pixel: 1 when some cover is partial */
    edge_pixel *edges;      /* the edge pixels in the board's order */
    uint32_t nedges;
    uint32_t *area_edges; /* per area: its edge pixels' places in edges */
    int maxruns;
} builder;

#define NOT_EDGE UINT32_MAX

/* A run of the area's own pixels, [x0, x1) on row y. */
static bool add_run(builder *b, int area, int y, int x0, int x1)
{
    struct board_layer *l = b->layer;
    int n = l->first_run[area] + l->nruns[area];
    if (n == b->maxruns) {
        int more = b->maxruns ? 2 * b->maxruns : 4096;
        pixel_run *runs = realloc(l->runs, sizeof *runs * (size_t)more);
        if (!runs)
            return false;
        l->runs = runs;
        b->maxruns = more;
    }
    l->runs[n] = (pixel_run){y, x0, x1};
    l->nruns[area]++;
    return true;
}

/*
 * One pass over a province's mask.  Pass 0 counts the provinces covering
 * each pixel; pass 1 (the edges laid out) notes each of the province's
 * covers: in its edge pixel's covers, or in a run of its own.
 */
static bool cover_pass(builder *b, int area, const area_mask *m, int pass)
{
    const unsigned char *data = cairo_image_surface_get_data(m->mask);
    int stride = cairo_image_surface_get_stride(m->mask);
    int w = cairo_image_surface_get_width(m->mask);
    int h = cairo_image_surface_get_height(m->mask);
    struct board_layer *l = b->layer;
    int width = b->geo->width;
    /* the mask's columns on the board */
    int from = m->x < 0 ? -m->x : 0;
    int to = m->x + w > width ? width - m->x : w;
    for (int my = 0; my < h; my++) {
        int y = m->y + my;
        if (y < 0 || y >= b->geo->height)
            continue;
        const unsigned char *row = data + (size_t)my * (size_t)stride;
        size_t base = (size_t)y * (size_t)width + (size_t)m->x;
        int run = -1; /* where the run being gathered began, or -1 */
        for (int mx = from; mx < to; mx++) {
            unsigned c = row[mx];
            size_t at = base + (size_t)mx;
            bool own = false;
            if (c == 0) {
            } else if (pass == 0) {
                b->count[at]++;
                b->partial[at] |= c < 255;
            } else if (b->count[at] != NOT_EDGE) {
                edge_pixel *e = &b->edges[b->count[at]];
                l->covers[e->first_cover + e->ncovers++] =
                    (area_cover)area << 8 | c;
                b->area_edges[l->first_edge[area] + l->nedges_of[area]++] =
                    b->count[at];
            } else {
                own = true;
            }
            if (own && run < 0)
                run = mx;
            if (!own && run >= 0) {
                if (!add_run(b, area, y, m->x + run, m->x + mx))
                    return false;
                run = -1;
            }
        }
        if (run >= 0 && !add_run(b, area, y, m->x + run, m->x + to))
            return false;
    }
    return true;
}

/*
 * The edge pixels: every pixel that a province covers in part, or that
 * more than one covers, or that a border crosses; each given its place in
 * edges[] (in count[]) and room for its covers.
 */
static bool lay_out_edges(builder *b)
{
    struct board_layer *l = b->layer;
    int width = b->geo->width, height = b->geo->height;
    size_t nedges = 0, ncovers = 0;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t first = 0;
        for (int y = 0; y < height; y++) {
            const uint32_t *border = row_of(b->borders, y);
            const uint32_t *unowned = row_of(b->unowned, y);
            uint32_t *count = &b->count[(size_t)y * (size_t)width];
            const unsigned char *partial =
                &b->partial[(size_t)y * (size_t)width];
            for (int x = 0; x < width; x++) {
                bool edge = count[x] > 1 ||
                            (count[x] == 1 && (partial[x] || border[x] >> 24));
                if (pass == 0) {
                    nedges += edge;
                    ncovers += edge ? count[x] : 0;
                } else if (edge) {
                    b->edges[b->nedges] =
                        (edge_pixel){(uint16_t)x, (uint16_t)y, unowned[x],
                                     border[x],   first,       0};
                    first += count[x];
                    count[x] = b->nedges++;
                } else {
                    count[x] = NOT_EDGE;
                }
            }
        }
        if (pass == 0) {
            /* an edge pixel per cover, in each area's list */
            b->edges = malloc(sizeof *b->edges * (nedges ? nedges : 1));
            b->area_edges =
                malloc(sizeof *b->area_edges * (ncovers ? ncovers : 1));
            l->edges = malloc(sizeof *l->edges * (ncovers ? ncovers : 1));
            l->covers = malloc(sizeof *l->covers * (ncovers ? ncovers : 1));
            if (!b->edges || !b->area_edges || !l->edges || !l->covers ||
                nedges >= NOT_EDGE)
                return false;
        }
    }
    return true;
}

static bool lay_out(builder *b, const area_mask *masks)
{
    struct board_layer *l = b->layer;
    int n = l->nareas;
    for (int i = 0; i < n; i++)
        if (masks[i].mask)
            cover_pass(b, i, &masks[i], 0);
    if (!lay_out_edges(b))
        return false;
    for (int i = 0; i < n; i++) {
        if (i > 0) {
            l->first_run[i] = l->first_run[i - 1] + l->nruns[i - 1];
            l->first_edge[i] = l->first_edge[i - 1] + l->nedges_of[i - 1];
        }
        if (masks[i].mask && !cover_pass(b, i, &masks[i], 1))
            return false;
    }
    /* Each area's edge pixels laid in its own list, covers counted, so a
     * picture reads them in order. */
    for (int i = 0; i < n; i++)
        for (int k = 0; k < l->nedges_of[i]; k++)
            l->edges[l->first_edge[i] + k] =
                b->edges[b->area_edges[l->first_edge[i] + k]];
    return true;
}

/* The land borders alone, on a transparent sheet. */
static cairo_surface_t *draw_borders(const dj_geo *geo)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32,
                                                    geo->width, geo->height);
    cairo_t *cr = cairo_create(s);
    stroke_style(cr);
    land_outlines(cr, geo);
    set_rgb(cr, palette_border);
    cairo_set_line_width(cr, LAND_BORDER_WIDTH);
    cairo_stroke(cr);
    if (!drawn_ok(cr)) {
        cairo_surface_destroy(s);
        return NULL;
    }
    cairo_surface_flush(s);
    return s;
}

static bool make(struct board_layer *layer, const dj_geo *geo,
                 const dj_map *map, const dj_position *board)
{
    builder b = {.layer = layer, .geo = geo};
    area_mask *masks = calloc((size_t)geo->nareas + 1, sizeof *masks);
    size_t npixels = (size_t)geo->width * (size_t)geo->height;
    b.count = calloc(npixels + 1, sizeof *b.count);
    b.partial = calloc(npixels + 1, 1);
    layer->nareas = geo->nareas;
    layer->first_run = calloc((size_t)geo->nareas + 1, sizeof(int));
    layer->nruns = calloc((size_t)geo->nareas + 1, sizeof(int));
    layer->first_edge = calloc((size_t)geo->nareas + 1, sizeof(int));
    layer->nedges_of = calloc((size_t)geo->nareas + 1, sizeof(int));
    layer->colour = calloc((size_t)geo->nareas + 1, sizeof(uint32_t));
    bool ok = geo->width <= UINT16_MAX && geo->height <= UINT16_MAX && masks &&
              b.count && b.partial && layer->first_run && layer->nruns &&
              layer->first_edge && layer->nedges_of && layer->colour;
    if (ok) {
        b.unowned = cairo_image_surface_create(CAIRO_FORMAT_RGB24, geo->width,
                                               geo->height);
        cairo_t *cr = cairo_create(b.unowned);
        board_areas_draw(cr, geo, map, board, false, false);
        ok = drawn_ok(cr);
        cairo_surface_flush(b.unowned);
    }
    if (ok)
        ok = (b.borders = draw_borders(geo)) != NULL;
    for (int i = 0; ok && i < geo->nareas; i++)
        if (geo->areas[i].kind == DJ_GEO_LAND && geo->areas[i].province >= 0)
            ok = make_mask(&geo->areas[i], &masks[i]);
    if (ok)
        ok = lay_out(&b, masks);
    if (ok) {
        /* The finished board: the unowned one with the borders over it. */
        cairo_t *cr = cairo_create(b.unowned);
        cairo_set_source_surface(cr, b.borders, 0, 0);
        cairo_paint(cr);
        ok = drawn_ok(cr);
        cairo_surface_flush(b.unowned);
        layer->finished = b.unowned;
        b.unowned = NULL;
    }
    for (int i = 0; masks && i < geo->nareas; i++)
        if (masks[i].mask)
            cairo_surface_destroy(masks[i].mask);
    free(masks);
    free(b.count);
    free(b.partial);
    free(b.edges);
    free(b.area_edges);
    if (b.unowned)
        cairo_surface_destroy(b.unowned);
    if (b.borders)
        cairo_surface_destroy(b.borders);
    return ok;
}

/* The target's pixels where the board goes, when the context draws on an
 * RGB24 image at whole pixels; else NULL. */
static unsigned char *board_pixels(cairo_t *cr, const dj_geo *geo, int *stride)
{
    cairo_surface_t *target = cairo_get_target(cr);
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    double dx, dy;
    cairo_surface_get_device_offset(target, &dx, &dy);
    int x = (int)m.x0, y = (int)m.y0;
    if (cairo_image_surface_get_format(target) != CAIRO_FORMAT_RGB24 ||
        m.xx != 1 || m.yy != 1 || m.xy != 0 || m.yx != 0 || dx != 0 ||
        dy != 0 || x != m.x0 || y != m.y0 || x < 0 || y < 0 ||
        x + geo->width > cairo_image_surface_get_width(target) ||
        y + geo->height > cairo_image_surface_get_height(target))
        return NULL;
    cairo_surface_flush(target);
    *stride = cairo_image_surface_get_stride(target);
    return cairo_image_surface_get_data(target) + (size_t)y * (size_t)*stride +
           4 * (size_t)x;
}

/* The owner's colour of each owned province, per area (0: unowned). */
static void note_colours(struct board_layer *layer, const dj_geo *geo,
                         const dj_map *map, const dj_position *board)
{
    for (int i = 0; i < layer->nareas; i++) {
        const dj_geo_area *a = &geo->areas[i];
        layer->colour[i] = 0;
        if (a->kind != DJ_GEO_LAND || a->province < 0 ||
            board->owner[a->province] < 0)
            continue;
        double fill[3];
        dj_render_owned_fill(map, board->owner[a->province], fill);
        layer->colour[i] = pixel_of(fill);
    }
}

/* An owned province: its runs in its owner's colour, its edge pixels
 * composed again (an edge two owned provinces share is composed twice,
 * to the same pixel). */
static void paint_owned(const struct board_layer *layer, int area,
                        unsigned char *pixels, int stride)
{
    uint32_t colour = layer->colour[area];
    const pixel_run *r = &layer->runs[layer->first_run[area]];
    for (int k = 0; k < layer->nruns[area]; k++, r++) {
        uint32_t *restrict at =
            (uint32_t *)(void *)(pixels + (size_t)r->y * (size_t)stride +
                                 4 * (size_t)r->x0);
        for (int n = r->x1 - r->x0; n > 0; n--)
            *at++ = colour;
    }
    const edge_pixel *e = &layer->edges[layer->first_edge[area]];
    for (int k = 0; k < layer->nedges_of[area]; k++, e++) {
        const area_cover *c = &layer->covers[e->first_cover];
        uint32_t pixel = e->unowned;
        for (uint32_t j = 0; j < e->ncovers; j++)
            if (layer->colour[c[j] >> 8])
                pixel = pixel_over(
                    pixel_in(layer->colour[c[j] >> 8], c[j] & 0xff), pixel);
        pixel = pixel_over(e->border, pixel);
        uint32_t *row =
            (uint32_t *)(void *)(pixels + (size_t)e->y * (size_t)stride);
        row[e->x] = pixel;
    }
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
    int stride = 0;
    unsigned char *pixels =
        layer->ready ? board_pixels(cr, geo, &stride) : NULL;
    if (!pixels)
        return false;
    const unsigned char *finished =
        cairo_image_surface_get_data(layer->finished);
    int from = cairo_image_surface_get_stride(layer->finished);
    for (int y = 0; y < geo->height; y++)
        memcpy(pixels + (size_t)y * (size_t)stride,
               finished + (size_t)y * (size_t)from, 4 * (size_t)geo->width);
    note_colours(layer, geo, map, board);
    for (int i = 0; i < layer->nareas; i++)
        if (layer->colour[i])
            paint_owned(layer, i, pixels, stride);
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    cairo_surface_mark_dirty_rectangle(cairo_get_target(cr), (int)m.x0,
                                       (int)m.y0, geo->width, geo->height);
    stroke_style(cr);
    return true;
}
