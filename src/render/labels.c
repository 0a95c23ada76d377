/* SPDX-License-Identifier: MIT */
/*
 * labels.c — where each name of the board is written, and writing it.
 *
 * Names are placed last, once every unit, centre marker and order has
 * been drawn and noted (layout.h): for each name a list of candidate
 * places is scored — covering a unit or a name already placed is ruled
 * out, covering a mark or a line costs much, leaving its own province or
 * the board costs too, and so does every point away from the place the
 * geometry file gives — and the cheapest is used.  The candidates are
 * the geometry's place, places beside the province's unit, then rings
 * round the first place, so a crowded province still finds room.  Names
 * are written at LABEL_FONT_SIZE with a pale halo, so a border or a line
 * under a letter does not hide it.  Last come the notes (a dislodged
 * unit's retreats, layout.h): beside their unit where they cover nothing
 * at all, or not written.
 */
#define _DEFAULT_SOURCE /* M_PI */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/board_layer.h"
#include "render/ink.h"
#include "render/layout.h"
#include "render/palette.h"

#define COST_BLOCKED 1e6   /* a unit or a name under it */
#define COST_MARK 400.0    /* a centre marker, a hold ring... */
#define COST_LINE 250.0    /* an arrow or a support line */
#define COST_OUTSIDE 120.0 /* its middle outside its province */
#define COST_CORNER 12.0   /* each corner outside its province */
#define LABEL_MARGIN 1.0

void layout_clear(layout *l)
{
    l->pub.nunits = l->pub.nlabels = 0;
    l->nmarks = l->nsegments = l->nnotes = 0;
}

void layout_unit(layout *l, double x0, double y0, double x1, double y1)
{
    if (l && l->pub.nunits < DJ_RENDER_MAX_BOXES)
        l->pub.units[l->pub.nunits++] = (dj_render_box){x0, y0, x1, y1};
}

void layout_mark(layout *l, double x, double y, double r)
{
    if (l && l->nmarks < LAYOUT_MAX_MARKS)
        l->marks[l->nmarks++] = (dj_render_box){x - r, y - r, x + r, y + r};
}

void layout_segment_add(layout *l, dj_geo_point a, dj_geo_point b,
                        double width)
{
    if (l && l->nsegments < LAYOUT_MAX_SEGMENTS)
        l->segments[l->nsegments++] = (layout_segment){a, b, width};
}

void layout_note_add(layout *l, dj_geo_point at, const char *text)
{
    if (l && l->nnotes < LAYOUT_MAX_NOTES) {
        layout_note *n = &l->notes[l->nnotes++];
        snprintf(n->text, sizeof n->text, "%s", text);
        n->at = at;
    }
}

static bool boxes_meet(const dj_render_box *a, const dj_render_box *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* Does the segment, `pad` wide on each side, cross the box?  (The box
 * grown by pad against the segment's line: Liang and Barsky's clip.) */
static bool segment_meets(const layout_segment *s, const dj_render_box *b)
{
    double pad = s->width / 2;
    double x0 = b->x0 - pad, y0 = b->y0 - pad, x1 = b->x1 + pad,
           y1 = b->y1 + pad;
    double dx = s->b.x - s->a.x, dy = s->b.y - s->a.y;
    double p[4] = {-dx, dx, -dy, dy};
    double q[4] = {s->a.x - x0, x1 - s->a.x, s->a.y - y0, y1 - s->a.y};
    double t0 = 0, t1 = 1;
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return false;
            continue;
        }
        double t = q[i] / p[i];
        if (p[i] < 0) {
            if (t > t1)
                return false;
            if (t > t0)
                t0 = t;
        } else {
            if (t < t0)
                return false;
            if (t < t1)
                t1 = t;
        }
    }
    return true;
}

/* Even-odd: is the point inside the area's rings? */
static bool inside_area(const dj_geo_area *a, double x, double y)
{
    bool in = false;
    for (int k = 0; k < a->nrings; k++) {
        const dj_geo_ring *r = &a->rings[k];
        for (int i = 0, j = r->npoints - 1; i < r->npoints; j = i++) {
            const dj_geo_point *p = &r->points[i], *q = &r->points[j];
            if ((p->y > y) != (q->y > y) &&
                x < (q->x - p->x) * (y - p->y) / (q->y - p->y) + p->x)
                in = !in;
        }
    }
    return in;
}

typedef struct label_item {
    char text[DJ_ABBR_MAX];
    dj_geo_point at;          /* the geometry's place */
    const dj_geo_point *unit; /* the province's unit place, or NULL */
    const dj_geo_area *area;  /* to stay inside, or NULL (a coast's name) */
    int style;                /* 0 land, 1 sea, 2 coast, 3 impassable */
} label_item;

/*
 * What a name's candidate places may meet: the units, names, marks and
 * lines of the layout near enough to meet one of them (indices into the
 * layout, in its order, so each cost adds up as it would over all).
 */
typedef struct nearby {
    int nunits, nlabels, nmarks, nsegments;
    int *units, *labels, *marks, *segments;
} nearby;

/* What covering this box costs; once it reaches `enough` (the best place
 * found so far can no longer be beaten) the rest is not counted. */
static double cost_at(const layout *l, const nearby *near, const dj_geo *geo,
                      const label_item *it, const dj_render_box *b,
                      double enough)
{
    double cost = 0;
    if (b->x0 < 0 || b->y0 < 0 || b->x1 > geo->width || b->y1 > geo->height)
        cost += COST_BLOCKED;
    for (int i = 0; i < near->nunits && cost < enough; i++)
        if (boxes_meet(b, &l->pub.units[near->units[i]]))
            cost += COST_BLOCKED;
    for (int i = 0; i < near->nlabels && cost < enough; i++)
        if (boxes_meet(b, &l->pub.labels[near->labels[i]]))
            cost += COST_BLOCKED;
    for (int i = 0; i < near->nmarks && cost < enough; i++)
        if (boxes_meet(b, &l->marks[near->marks[i]]))
            cost += COST_MARK;
    for (int i = 0; i < near->nsegments && cost < enough; i++)
        if (segment_meets(&l->segments[near->segments[i]], b))
            cost += COST_LINE;
    if (it->area && cost < enough) {
        double mx = (b->x0 + b->x1) / 2, my = (b->y0 + b->y1) / 2;
        if (!inside_area(it->area, mx, my))
            cost += COST_OUTSIDE;
        double xs[2] = {b->x0, b->x1}, ys[2] = {b->y0, b->y1};
        for (int i = 0; i < 4; i++)
            if (!inside_area(it->area, xs[i & 1], ys[i >> 1]))
                cost += COST_CORNER;
    }
    return cost;
}

/* The units, names, marks and lines that meet `reach` (a box round every
 * candidate place), noted in *near. */
static void gather_nearby(const layout *l, const dj_render_box *reach,
                          nearby *near)
{
    near->nunits = near->nlabels = near->nmarks = near->nsegments = 0;
    for (int i = 0; i < l->pub.nunits; i++)
        if (boxes_meet(reach, &l->pub.units[i]))
            near->units[near->nunits++] = i;
    for (int i = 0; i < l->pub.nlabels; i++)
        if (boxes_meet(reach, &l->pub.labels[i]))
            near->labels[near->nlabels++] = i;
    for (int i = 0; i < l->nmarks; i++)
        if (boxes_meet(reach, &l->marks[i]))
            near->marks[near->nmarks++] = i;
    for (int i = 0; i < l->nsegments; i++)
        if (segment_meets(&l->segments[i], reach))
            near->segments[near->nsegments++] = i;
}

static dj_render_box box_at(double cx, double cy, double w, double h)
{
    return (dj_render_box){cx - w / 2 - LABEL_MARGIN, cy - h / 2 - LABEL_MARGIN,
                           cx + w / 2 + LABEL_MARGIN, cy + h / 2 + LABEL_MARGIN};
}

/* The rings of candidate places round a name's own place: radii, and the
 * directions' cosines and sines (worked out once a picture). */
static const double rings[] = {5, 10, 16, 23, 31, 40, 50, 62};
#define RING_STEPS 16

/* The cheapest place for one name, its box in *best. */
static void place_one(const layout *l, nearby *near, const dj_geo *geo,
                      const label_item *it, double w, double h,
                      const double (*dir)[2], dj_render_box *best)
{
    double best_cost = INFINITY;
    dj_geo_point cand[160];
    int n = 0;
    cand[n++] = it->at;
    if (it->unit) {
        /* Beside the unit: above, below, right, left, the corners. */
        double ux = it->unit->x, uy = it->unit->y, gx = 13 + w / 2,
               gy = 11 + h / 2;
        const double around[8][2] = {{0, -1}, {0, 1},  {1, 0},  {-1, 0},
                                     {1, -1}, {-1, -1}, {1, 1}, {-1, 1}};
        for (int k = 0; k < 8; k++)
            cand[n++] = (dj_geo_point){ux + around[k][0] * gx,
                                       uy + around[k][1] * gy};
    }
    for (size_t r = 0; r < sizeof rings / sizeof rings[0]; r++)
        for (int k = 0;
             k < RING_STEPS && n < (int)(sizeof cand / sizeof cand[0]); k++)
            cand[n++] = (dj_geo_point){it->at.x + rings[r] * 1.3 * dir[k][0],
                                       it->at.y + rings[r] * dir[k][1]};
    /* Only what lies near the candidates can cost (a pixel more round
     * them, against rounding). */
    double x0 = cand[0].x, y0 = cand[0].y, x1 = x0, y1 = y0;
    for (int i = 1; i < n; i++) {
        x0 = cand[i].x < x0 ? cand[i].x : x0;
        y0 = cand[i].y < y0 ? cand[i].y : y0;
        x1 = cand[i].x > x1 ? cand[i].x : x1;
        y1 = cand[i].y > y1 ? cand[i].y : y1;
    }
    dj_render_box reach = box_at(x0, y0, w, h), far = box_at(x1, y1, w, h);
    reach.x0 -= 1, reach.y0 -= 1;
    reach.x1 = far.x1 + 1, reach.y1 = far.y1 + 1;
    gather_nearby(l, &reach, near);
    for (int i = 0; i < n; i++) {
        dj_render_box b = box_at(cand[i].x, cand[i].y, w, h);
        double dx = cand[i].x - it->at.x, dy = cand[i].y - it->at.y;
        double dist = sqrt(dx * dx + dy * dy);
        double cost = dist;
        if (cost >= best_cost)
            continue;
        cost += cost_at(l, near, geo, it, &b, best_cost - cost);
        if (cost < best_cost) {
            best_cost = cost;
            *best = b;
        }
        if (best_cost < 1)
            break; /* its own place is free */
    }
}

static void upper(char *text)
{
    for (char *c = text; *c; c++)
        *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
}

/* The names to place: provinces and coasts of the map, then impassable
 * areas (a province of the map or land off it). */
static int collect(const dj_map *map, const dj_geo *geo, label_item *items,
                   int max)
{
    int n = 0;
    for (int loc = 0; loc < map->nlocs && n < max; loc++) {
        if (!geo->label[loc].set)
            continue;
        const dj_location *l = &map->locs[loc];
        label_item *it = &items[n];
        memset(it, 0, sizeof *it);
        const char *slash = strchr(l->abbr, '/');
        snprintf(it->text, sizeof it->text, "%s", slash ? slash + 1 : l->abbr);
        upper(it->text);
        it->at = geo->label[loc].at;
        int prov = dj_province(map, loc);
        int area = geo->area_of[prov];
        if (slash) {
            it->style = 2;
        } else {
            it->style = l->terrain == DJ_WATER ? 1 : 0;
            it->area = area >= 0 ? &geo->areas[area] : NULL;
            if (geo->unit[loc].set)
                it->unit = &geo->unit[loc].at;
            if (it->area && it->area->kind == DJ_GEO_IMPASSABLE)
                it->style = 3;
        }
        n++;
    }
    for (int i = 0; i < geo->nareas && n < max; i++) {
        const dj_geo_area *a = &geo->areas[i];
        if (a->kind != DJ_GEO_IMPASSABLE || !a->has_label)
            continue;
        bool listed = false;
        for (int k = 0; k < n; k++)
            listed |= items[k].area == a;
        if (listed)
            continue;
        label_item *it = &items[n++];
        memset(it, 0, sizeof *it);
        snprintf(it->text, sizeof it->text, "%s",
                 a->name[0] == '_' ? a->name + 1 : a->name);
        upper(it->text);
        it->at = a->label;
        it->area = a;
        it->style = 3;
    }
    return n;
}

static const double halo_offsets[8][2] = {{-1, 0},  {1, 0}, {0, -1}, {0, 1},
                                          {-1, -1}, {1, 1}, {-1, 1}, {1, -1}};

/* The most glyphs a kept halo's key can say the places of. */
#define HALO_MAX_GLYPHS 5
#define HALO_MARGIN 4

/*
 * A name's halo from the geometry's kept drawings, on a raster picture.
 * cairo lays glyphs at whole device pixels and adds their coverages into
 * one mask (pixman_composite_glyphs), then lays the colour through it; so
 * the mask, made once per name and glyph spacing (the key: the name's
 * number, its style and each glyph's pixel offset from the first) and
 * kept, gives the same pixels.  false (nothing drawn) when it cannot be
 * kept: the caller draws the glyphs.
 */
static bool kept_halo(cairo_t *cr, const dj_map *map, const dj_geo *geo,
                      int number, int style, const cairo_glyph_t *glyphs,
                      int n, const cairo_text_extents_t *e)
{
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    if (n < 1 || n > HALO_MAX_GLYPHS || !geo->layer ||
        cairo_surface_get_type(cairo_get_target(cr)) !=
            CAIRO_SURFACE_TYPE_IMAGE ||
        m.xx != 1 || m.yy != 1 || m.xy != 0 || m.yx != 0 ||
        m.x0 != floor(m.x0) || m.y0 != floor(m.y0))
        return false;
    /* Each glyph's device pixel, as cairo rounds it. */
    int px[HALO_MAX_GLYPHS], py[HALO_MAX_GLYPHS];
    for (int i = 0; i < n; i++) {
        px[i] = (int)floor(glyphs[i].x + m.x0 + 0.5);
        py[i] = (int)floor(glyphs[i].y + m.y0 + 0.5);
    }
    board_sprite_key key = {BOARD_SPRITE_HALO, number, style, 0, 0};
    for (int i = 1; i < n; i++) {
        int dx = px[i] - px[0], dy = py[i] - py[0];
        if (dx < -127 || dx > 127 || dy < -127 || dy > 127)
            return false;
        key.phase_x = key.phase_x << 8 | (dx & 0xff);
        key.phase_y = key.phase_y << 8 | (dy & 0xff);
    }
    /* The first glyph's place in the mask, room for the ink and halo. */
    int ox = HALO_MARGIN + (int)ceil(-e->x_bearing),
        oy = HALO_MARGIN + (int)ceil(-e->y_bearing);
    cairo_surface_t *mask = board_layer_sprite(geo, map, &key);
    bool kept = mask != NULL;
    if (!mask) {
        int w = (int)ceil(e->x_advance > e->width ? e->x_advance : e->width) +
                (int)ceil(-e->x_bearing > 0 ? -e->x_bearing : 0) +
                2 * HALO_MARGIN + 2;
        int h = (int)ceil(e->height) + 2 * HALO_MARGIN + 2;
        mask = cairo_image_surface_create(CAIRO_FORMAT_A8, w, h);
        cairo_t *mc = cairo_create(mask);
        cairo_set_scaled_font(mc, cairo_get_scaled_font(cr));
        cairo_set_operator(mc, CAIRO_OPERATOR_ADD);
        cairo_glyph_t halo[8 * HALO_MAX_GLYPHS];
        int nhalo = 0;
        for (int k = 0; k < 8; k++)
            for (int i = 0; i < n; i++)
                halo[nhalo++] = (cairo_glyph_t){
                    glyphs[i].index, ox + px[i] - px[0] + halo_offsets[k][0],
                    oy + py[i] - py[0] + halo_offsets[k][1]};
        cairo_show_glyphs(mc, halo, nhalo);
        bool ok = cairo_status(mc) == CAIRO_STATUS_SUCCESS;
        cairo_destroy(mc);
        if (!ok) {
            cairo_surface_destroy(mask);
            return false;
        }
        kept = board_layer_keep_sprite(geo, map, &key, mask);
    }
    const double(*halo)[3] = palette_label_halo;
    cairo_set_source_rgb(cr, halo[style][0], halo[style][1], halo[style][2]);
    cairo_mask_surface(cr, mask, px[0] - ox - m.x0, py[0] - oy - m.y0);
    if (!kept)
        cairo_surface_destroy(mask);
    return true;
}

/* A name (number its index, its halo kept) or a note (number -1) written
 * centred in its box, over a pale halo. */
static void write_label(cairo_t *cr, const dj_map *map, const dj_geo *geo,
                        int number, int style, const char *text,
                        const cairo_text_extents_t *e, const dj_render_box *b)
{
    const double(*ink)[3] = palette_label_ink, (*halo)[3] = palette_label_halo;
    double x = (b->x0 + b->x1) / 2 - e->width / 2 - e->x_bearing;
    double y = (b->y0 + b->y1) / 2 - e->height / 2 - e->y_bearing;
    /* The halo: the name in the pale colour a pixel off each way (glyphs
     * from the font cache: much cheaper than stroking their outlines),
     * its eight copies drawn as one run of glyphs, or its mask kept. */
    cairo_glyph_t *glyphs = NULL;
    int n = 0;
    if (cairo_scaled_font_text_to_glyphs(cairo_get_scaled_font(cr), x, y,
                                         text, -1, &glyphs, &n, NULL, NULL,
                                         NULL) != CAIRO_STATUS_SUCCESS)
        return;
    if (number < 0 || !kept_halo(cr, map, geo, number, style, glyphs, n, e)) {
        cairo_glyph_t halo_glyphs[8 * LAYOUT_NOTE_MAX];
        int nhalo = 0;
        for (int k = 0; k < 8; k++)
            for (int i = 0; i < n && nhalo < 8 * LAYOUT_NOTE_MAX; i++)
                halo_glyphs[nhalo++] = (cairo_glyph_t){
                    glyphs[i].index, glyphs[i].x + halo_offsets[k][0],
                    glyphs[i].y + halo_offsets[k][1]};
        cairo_set_source_rgb(cr, halo[style][0], halo[style][1],
                             halo[style][2]);
        cairo_show_glyphs(cr, halo_glyphs, nhalo);
    }
    cairo_set_source_rgb(cr, ink[style][0], ink[style][1], ink[style][2]);
    cairo_show_glyphs(cr, glyphs, n);
    cairo_glyph_free(glyphs);
    cairo_new_path(cr);
}

/*
 * Where a note goes: the first place beside its unit (right, left,
 * below, above, the corners, then a little further out) where it covers
 * nothing; false when there is none (the note is left out).
 */
static bool place_note(const layout *l, nearby *near, const dj_geo *geo,
                       const layout_note *note, double w, double h,
                       dj_render_box *out)
{
    static const double around[8][2] = {{1, 0},  {-1, 0}, {0, 1},  {0, -1},
                                        {1, 1},  {1, -1}, {-1, 1}, {-1, -1}};
    static const double further[] = {0, 4, 9, 15};
    const label_item none = {{0}, {0, 0}, NULL, NULL, LABEL_STYLE_RETREATS};
    /* The unit's ring reaches 13 from its place: a gap of 2 beyond. */
    double gx = 15 + w / 2, gy = 15 + h / 2;
    dj_geo_point cand[8 * 4];
    int n = 0;
    for (size_t f = 0; f < sizeof further / sizeof further[0]; f++)
        for (int k = 0; k < 8; k++)
            cand[n++] = (dj_geo_point){
                note->at.x + around[k][0] * (gx + further[f]),
                note->at.y + around[k][1] * (gy + further[f])};
    double r = gx + further[3] + w, rh = gy + further[3] + h;
    dj_render_box reach = {note->at.x - r, note->at.y - rh, note->at.x + r,
                           note->at.y + rh};
    gather_nearby(l, &reach, near);
    for (int i = 0; i < n; i++) {
        dj_render_box b = box_at(cand[i].x, cand[i].y, w, h);
        if (cost_at(l, near, geo, &none, &b, 1) == 0) {
            *out = b;
            return true;
        }
    }
    return false;
}

void labels_place_and_draw(cairo_t *cr, const dj_map *map, const dj_geo *geo,
                           layout *l)
{
    label_item *items = malloc(sizeof *items * DJ_RENDER_MAX_BOXES);
    nearby near;
    int *scratch =
        malloc(sizeof *scratch * (size_t)(l->pub.nunits + DJ_RENDER_MAX_BOXES +
                                          l->nmarks + l->nsegments + 1));
    if (!items || !scratch) {
        free(items);
        free(scratch);
        return; /* the picture goes without names */
    }
    near.units = scratch;
    near.labels = near.units + l->pub.nunits;
    near.marks = near.labels + DJ_RENDER_MAX_BOXES;
    near.segments = near.marks + l->nmarks;
    double dir[RING_STEPS][2];
    for (int k = 0; k < RING_STEPS; k++) {
        double t = k * M_PI / 8;
        dir[k][0] = cos(t);
        dir[k][1] = sin(t);
    }
    int n = collect(map, geo, items, DJ_RENDER_MAX_BOXES);
    bool svg = ink_svg(cr) != NULL; /* svg_board.c writes them */
    cairo_set_font_size(cr, LABEL_FONT_SIZE);
    for (int i = 0; i < n && l->pub.nlabels < DJ_RENDER_MAX_BOXES; i++) {
        const label_item *it = &items[i];
        cairo_select_font_face(cr, BOARD_FONT,
                               it->style == 2 ? CAIRO_FONT_SLANT_ITALIC
                                              : CAIRO_FONT_SLANT_NORMAL,
                               it->style >= 2 ? CAIRO_FONT_WEIGHT_BOLD
                                              : CAIRO_FONT_WEIGHT_NORMAL);
        cairo_text_extents_t e;
        cairo_text_extents(cr, it->text, &e);
        dj_render_box b;
        place_one(l, &near, geo, it, e.width, e.height, (const double(*)[2])dir,
                  &b);
        if (!svg)
            write_label(cr, map, geo, i, it->style, it->text, &e, &b);
        l->label_style[l->pub.nlabels] = (unsigned char)it->style;
        snprintf(l->pub.label_text[l->pub.nlabels], DJ_ABBR_MAX, "%s", it->text);
        l->pub.labels[l->pub.nlabels++] = b;
    }
    /* The notes, among the names. */
    cairo_select_font_face(cr, BOARD_FONT, CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, NOTE_FONT_SIZE);
    for (int i = 0; i < l->nnotes && l->pub.nlabels < DJ_RENDER_MAX_BOXES;
         i++) {
        const layout_note *note = &l->notes[i];
        cairo_text_extents_t e;
        cairo_text_extents(cr, note->text, &e);
        dj_render_box b;
        if (!place_note(l, &near, geo, note, e.width, e.height, &b))
            continue; /* no room */
        if (!svg)
            write_label(cr, map, geo, -1, LABEL_STYLE_RETREATS, note->text,
                        &e, &b);
        int k = l->pub.nlabels++;
        l->label_style[k] = LABEL_STYLE_RETREATS;
        l->label_note[k] = i;
        /* The tests' record: as much of it as fits, whole characters. */
        size_t len = strlen(note->text);
        if (len > DJ_ABBR_MAX - 1) {
            len = DJ_ABBR_MAX - 1;
            while (len > 0 && (note->text[len] & 0xC0) == 0x80)
                len--;
        }
        memcpy(l->pub.label_text[k], note->text, len);
        l->pub.label_text[k][len] = '\0';
        l->pub.labels[k] = b;
    }
    free(scratch);
    free(items);
}
