/* SPDX-License-Identifier: MIT */
/*
 * draw.c — draws a picture of the board: the areas coloured (sea, land,
 * impassable, owned centres), names, supply-centre markers, units as
 * army and fleet symbols in their power's colour carrying its initial,
 * and, when asked, the phase's orders as a player reads them: moves as
 * arrows (solid when they succeeded, dashed and crossed when they failed),
 * supports as thin lines to the supported move or unit, convoys along
 * their route, holds as rings, dislodged units set off with their retreat
 * options (written beside them too, where there is room), standoffs,
 * builds and removals; then a title and a legend of
 * each power's centres and units.  A phase played is drawn as the board it
 * left (render.h: `after`) with its orders over it: units where they went,
 * centres with their new owners, removed units as crossed ghosts.  Every
 * shape carries more than its colour, so a colour-blind player reads it as
 * well.  What is drawn is noted (layout.h) and the names are placed last,
 * among it (labels.c).  Each shape ends through ink.h: drawn by cairo on
 * a PNG or a PDF, written as SVG elements for an SVG, each unit and each
 * order of the SVG saying what it is (ink.c says why).
 */
#define _DEFAULT_SOURCE /* M_PI */
#include "render/draw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/board_layer.h"
#include "render/ink.h"
#include "render/layout.h"
#include "render/palette.h"

#define UNIT_RADIUS 9.0
#define DISLODGED_OFFSET 13.0

typedef struct scene {
    cairo_t *cr;
    const dj_picture_request *req;
    const dj_map *map;
    const dj_geo *geo;
    const dj_position *pos;   /* the position the orders were given in */
    const dj_position *board; /* the units and owners drawn */
    bool after;               /* board is the position the phase left */
    bool dislodged_now[DJ_MAX_LOCS]; /* per province: its unit is dislodged */
    layout *lay;
} scene;

static void set_rgb(cairo_t *cr, const double rgb[3])
{
    cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
}

/* Where a unit at this location stands (its coast's place, else its
 * province's), moved aside when it is dislodged. */
static dj_geo_point place_of(const scene *s, int loc, bool dislodged)
{
    dj_geo_point p = {0, 0};
    if (loc < 0 || loc >= s->map->nlocs)
        return p;
    if (s->geo->unit[loc].set)
        p = s->geo->unit[loc].at;
    else
        p = s->geo->unit[dj_province(s->map, loc)].at;
    if (dislodged) {
        p.x += DISLODGED_OFFSET;
        p.y += DISLODGED_OFFSET * 0.8;
    }
    return p;
}

/* The areas: from the geometry's layer on a raster picture, as paths on
 * a PDF; none on the recording surface that only lays names out or that
 * the SVG is drawn on (svg_board.c writes them). */
static void draw_areas(scene *s)
{
    cairo_surface_type_t type = cairo_surface_get_type(cairo_get_target(s->cr));
    if (type == CAIRO_SURFACE_TYPE_RECORDING)
        return;
    if (type == CAIRO_SURFACE_TYPE_IMAGE &&
        board_layer_paint(s->cr, s->geo, s->map, s->board))
        return;
    board_areas_draw(s->cr, s->geo, s->map, s->board, true, true);
}

static void centred_text(cairo_t *cr, double x, double y, const char *text)
{
    cairo_new_path(cr);
    if (ink_svg_centred_text(cr, x, y, text))
        return;
    cairo_text_extents_t e;
    cairo_text_extents(cr, text, &e);
    cairo_move_to(cr, x - e.width / 2 - e.x_bearing,
                  y - e.height / 2 - e.y_bearing);
    ink_show_text(cr, text);
    cairo_new_path(cr);
}

/* An army is a round token, a fleet a hull; both carry the initial. */
static void draw_unit_symbol(cairo_t *cr, const dj_map *map, int power,
                             dj_unit_type type, double x, double y,
                             double scale)
{
    double rgb[3];
    dj_render_power_colour(map, power, rgb);
    double r = UNIT_RADIUS * scale;
    if (type == DJ_FLEET) {
        cairo_move_to(cr, x - 1.45 * r, y - 0.55 * r);
        cairo_line_to(cr, x + 1.45 * r, y - 0.55 * r);
        cairo_line_to(cr, x + 0.95 * r, y + 0.75 * r);
        cairo_line_to(cr, x - 0.95 * r, y + 0.75 * r);
        cairo_close_path(cr);
        /* The mast and sail. */
        cairo_move_to(cr, x - 0.1 * r, y - 0.55 * r);
        cairo_line_to(cr, x - 0.1 * r, y - 1.35 * r);
        cairo_line_to(cr, x + 0.75 * r, y - 0.55 * r);
        cairo_close_path(cr);
    } else {
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, r, 0, 2 * M_PI);
    }
    set_rgb(cr, rgb);
    ink_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1.3);
    ink_stroke(cr);
    char letter[2] = {power >= 0 && power < map->npowers
                          ? map->powers[power].letter
                          : '?',
                      '\0'};
    if (palette_is_dark(rgb))
        cairo_set_source_rgb(cr, 1, 1, 1);
    else
        cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_select_font_face(cr, BOARD_FONT, CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 10.5 * scale);
    centred_text(cr, x, y + (type == DJ_FLEET ? 0.1 * r : 0), letter);
}

/* A supply-centre marker: a ring in its owner's colour (white when none)
 * round a black dot. */
static void centre_marker(cairo_t *cr, const dj_map *map, int owner, double x,
                          double y)
{
    double rgb[3] = {1, 1, 1};
    if (owner >= 0)
        dj_render_power_colour(map, owner, rgb);
    cairo_new_path(cr);
    cairo_arc(cr, x, y, 4.5, 0, 2 * M_PI);
    set_rgb(cr, rgb);
    ink_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1.2);
    ink_stroke(cr);
    cairo_arc(cr, x, y, 1.4, 0, 2 * M_PI);
    ink_fill(cr);
}

/* ---- drawings kept per geometry ------------------------------------------ */

/* Room round a kept drawing's point: a fleet at full scale or a hold's
 * ring, and the pixel its fraction may move it by. */
#define SPRITE_MARGIN 16

/* A hold: an octagon round the unit. */
static void hold_ring(cairo_t *cr, double x, double y)
{
    cairo_new_sub_path(cr);
    for (int k = 0; k < 8; k++) {
        double t = M_PI / 8 + k * M_PI / 4;
        cairo_line_to(cr, x + 14 * cos(t), y + 14 * sin(t));
    }
    cairo_close_path(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1.8);
    ink_stroke(cr);
}

/* A standoff: a white star edged in black. */
static void standoff_star(cairo_t *cr, double x, double y)
{
    cairo_new_sub_path(cr);
    for (int k = 0; k < 16; k++) {
        double t = k * M_PI / 8, rad = (k % 2) ? 3.2 : 7.5;
        cairo_line_to(cr, x + rad * cos(t), y + rad * sin(t));
    }
    cairo_close_path(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    ink_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1.4);
    ink_stroke(cr);
}

static void draw_sprite_shape(cairo_t *cr, const dj_map *map, int kind,
                              int power, double x, double y, double scale)
{
    if (kind == BOARD_SPRITE_CENTRE)
        centre_marker(cr, map, power, x, y);
    else if (kind == BOARD_SPRITE_HOLD)
        hold_ring(cr, x, y);
    else if (kind == BOARD_SPRITE_STANDOFF)
        standoff_star(cr, x, y);
    else
        draw_unit_symbol(cr, map, power,
                         kind == BOARD_SPRITE_FLEET ? DJ_FLEET : DJ_ARMY, x, y,
                         scale);
}

/* The drawing on a transparent image, its point at (x, y) in it, with the
 * picture's drawing settings. */
static cairo_surface_t *make_sprite(cairo_t *picture, const dj_map *map,
                                    int kind, int power, double x, double y,
                                    double scale)
{
    int side = 2 * SPRITE_MARGIN + 2;
    cairo_surface_t *sprite =
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, side, side);
    cairo_t *cr = cairo_create(sprite);
    cairo_set_tolerance(cr, cairo_get_tolerance(picture));
    cairo_set_antialias(cr, cairo_get_antialias(picture));
    cairo_set_fill_rule(cr, cairo_get_fill_rule(picture));
    cairo_set_line_join(cr, cairo_get_line_join(picture));
    cairo_set_line_cap(cr, cairo_get_line_cap(picture));
    cairo_set_miter_limit(cr, cairo_get_miter_limit(picture));
    draw_sprite_shape(cr, map, kind, power, x, y, scale);
    bool ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS;
    cairo_destroy(cr);
    if (!ok || cairo_surface_status(sprite) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(sprite);
        return NULL;
    }
    return sprite;
}

/*
 * A unit's symbol, a centre marker, a hold's ring or a standoff's star on
 * a raster picture: drawn once per geometry on a transparent image, at
 * the same fraction of a pixel as here, kept (board_layer.h), and laid
 * here at whole pixels: the pixels of drawing it here, within an edge
 * pixel's rounding, for a fraction of the time.  false (nothing drawn) on
 * any other surface or transform: the caller draws it.
 */
static bool draw_kept(cairo_t *cr, const dj_map *map, const dj_geo *geo,
                      int kind, int power, double x, double y, double scale)
{
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    if (cairo_surface_get_type(cairo_get_target(cr)) !=
            CAIRO_SURFACE_TYPE_IMAGE ||
        m.xx != 1 || m.yy != 1 || m.xy != 0 || m.yx != 0 ||
        m.x0 != floor(m.x0) || m.y0 != floor(m.y0) || !geo->layer)
        return false;
    double left = floor(x), top = floor(y);
    board_sprite_key key = {kind, power, (int)lround(scale * 1000),
                            (int)lround((x - left) * 1000),
                            (int)lround((y - top) * 1000)};
    cairo_surface_t *sprite = board_layer_sprite(geo, map, &key);
    bool kept = sprite != NULL;
    if (!sprite) {
        sprite = make_sprite(cr, map, kind, power, x - left + SPRITE_MARGIN,
                             y - top + SPRITE_MARGIN, scale);
        if (!sprite)
            return false;
        kept = board_layer_keep_sprite(geo, map, &key, sprite);
    }
    cairo_set_source_surface(cr, sprite, left - SPRITE_MARGIN,
                             top - SPRITE_MARGIN);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    if (!kept)
        cairo_surface_destroy(sprite);
    return true;
}

static void draw_centres(scene *s)
{
    for (int loc = 0; loc < s->map->nlocs; loc++) {
        if (!s->geo->centre[loc].set || !s->map->is_sc[loc])
            continue;
        dj_geo_point p = s->geo->centre[loc].at;
        int owner = s->board->owner[loc];
        layout_mark(s->lay, p.x, p.y, 5.5);
        if (!draw_kept(s->cr, s->map, s->geo, BOARD_SPRITE_CENTRE, owner, p.x,
                       p.y, 1.0))
            centre_marker(s->cr, s->map, owner, p.x, p.y);
    }
}

/* A unit of the board drawn, and its box noted. */
static void board_unit(scene *s, int power, dj_unit_type type, double x,
                       double y, double scale)
{
    if (!draw_kept(s->cr, s->map, s->geo,
                   type == DJ_FLEET ? BOARD_SPRITE_FLEET : BOARD_SPRITE_ARMY,
                   power, x, y, scale))
        draw_unit_symbol(s->cr, s->map, power, type, x, y, scale);
    double r = UNIT_RADIUS * scale;
    if (type == DJ_FLEET)
        layout_unit(s->lay, x - 1.45 * r - 1, y - 1.35 * r - 1,
                    x + 1.45 * r + 1, y + 0.75 * r + 1);
    else
        layout_unit(s->lay, x - r - 1, y - r - 1, x + r + 1, y + r + 1);
}

/* ---- what the SVG says it shows (ink.h; nothing on a PNG or a PDF) ------- */

/* A unit drawn next: <g data-power="England" data-unit="A"
 * data-place="nwy"> with its <title>, "English army in Norway"; a
 * dislodged one (d) data-dislodged="yes", its title saying where it may
 * retreat ("Turkish army in Bulgaria, dislodged, may retreat to
 * Constantinople"). */
static void unit_open(scene *s, const dj_unit *u, const dj_dislodged *d)
{
    bool dislodged = d != NULL;
    FILE *m = ink_svg(s->cr);
    if (!m)
        return;
    bool known = u->power >= 0 && u->power < s->map->npowers;
    const dj_power *pw = known ? &s->map->powers[u->power] : NULL;
    const char *place = u->loc >= 0 && u->loc < s->map->nlocs
                            ? s->map->locs[u->loc].abbr
                            : "";
    const char *name = u->loc >= 0 && u->loc < s->map->nlocs
                           ? s->map->locs[u->loc].name
                           : "";
    fputs("<g data-power=\"", m);
    ink_escape(m, pw ? pw->name : "");
    fprintf(m, "\" data-unit=\"%s\" data-place=\"", dj_unit_letter(u->type));
    ink_escape(m, place);
    fputs(dislodged ? "\" data-dislodged=\"yes\"><title>"
                    : "\"><title>", m);
    ink_escape(m, pw ? (pw->adjective[0] ? pw->adjective : pw->name) : "");
    fputs(u->type == DJ_FLEET ? " fleet in " : " army in ", m);
    ink_escape(m, name);
    if (dislodged) {
        fputs(", dislodged", m);
        for (int k = 0; k < d->nretreats; k++) {
            int r = d->retreats[k];
            fputs(k == 0                   ? ", may retreat to "
                  : k + 1 == d->nretreats ? " or "
                                          : ", ",
                  m);
            ink_escape(m, r >= 0 && r < s->map->nlocs ? s->map->locs[r].name
                                                      : "");
        }
        if (d->nretreats == 0)
            fputs(", with no retreat", m);
    }
    fputs("</title>\n", m);
}

/* An order drawn next: <g data-order="A YOR - NWY"
 * data-result="succeeds"> (the result once adjudicated), its text the
 * canonical one the results' detail keeps (dj_order_format). */
static void order_open(scene *s, const dj_order *o, int result)
{
    FILE *m = ink_svg(s->cr);
    if (!m)
        return;
    char text[128];
    dj_order_format(s->map, o, text, sizeof text);
    fputs("<g data-order=\"", m);
    ink_escape(m, text);
    fputc('"', m);
    if (result >= 0)
        fprintf(m, " data-result=\"%s\"", result ? "succeeds" : "fails");
    fputs(">\n", m);
}

/* The end of a unit or an order. */
static void thing_close(scene *s)
{
    FILE *m = ink_svg(s->cr);
    if (m)
        fputs("</g>\n", m);
}

/* A dislodged unit's retreats to write beside it at p: "→ CON, SMY", or
 * "no retreat" (it is destroyed); labels.c places it if there is room. */
static void retreats_note(scene *s, dj_geo_point p, const dj_dislodged *d)
{
    char text[LAYOUT_NOTE_MAX];
    size_t len = 0;
    if (!d || d->nretreats == 0)
        len = (size_t)snprintf(text, sizeof text, "no retreat");
    else
        len = (size_t)snprintf(text, sizeof text, "\xe2\x86\x92 ");
    for (int k = 0; d && k < d->nretreats && len < sizeof text; k++) {
        int r = d->retreats[k];
        if (r < 0 || r >= s->map->nlocs)
            continue;
        size_t start = len;
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s",
                                k ? ", " : "", s->map->locs[r].abbr);
        for (size_t c = start; c < len && c < sizeof text; c++)
            if (text[c] >= 'a' && text[c] <= 'z')
                text[c] = (char)(text[c] - 32);
    }
    if (len >= sizeof text)
        return; /* too many to write */
    layout_note_add(s->lay, p, text);
}

/* A dislodged unit: set off, smaller, in a dark red ring, its retreats
 * written beside it. */
static void dislodged_unit(scene *s, const dj_unit *u, const dj_dislodged *d)
{
    unit_open(s, u, d);
    dj_geo_point p = place_of(s, u->loc, true);
    board_unit(s, u->power, u->type, p.x, p.y, 0.85);
    cairo_new_sub_path(s->cr);
    cairo_arc(s->cr, p.x, p.y, UNIT_RADIUS + 3, 0, 2 * M_PI);
    cairo_set_source_rgb(s->cr, 0.55, 0.0, 0.0);
    cairo_set_line_width(s->cr, 2.0);
    ink_stroke(s->cr);
    layout_unit(s->lay, p.x - UNIT_RADIUS - 4, p.y - UNIT_RADIUS - 4,
                p.x + UNIT_RADIUS + 4, p.y + UNIT_RADIUS + 4);
    retreats_note(s, p, d);
    thing_close(s);
}

/* The dislodgement of a unit about to be dislodged, on the board before
 * the phase: the results' (none found: no retreats known). */
static const dj_dislodged *dislodgement(const scene *s, const dj_unit *u)
{
    static const dj_dislodged none = {{0}, -1, false, 0, {0}};
    const dj_result *r = s->req->result;
    for (int i = 0; r && i < r->next.ndislodged; i++)
        if (dj_province(s->map, r->next.dislodged[i].unit.loc) ==
            dj_province(s->map, u->loc))
            return &r->next.dislodged[i];
    return &none;
}

static void draw_units(scene *s)
{
    const dj_position *b = s->board;
    for (int i = 0; i < b->nunits; i++) {
        const dj_unit *u = &b->units[i];
        /* Before the phase, a unit about to be dislodged is set off; on
         * the board after it, the dislodged units are its own list. */
        if (!s->after && s->dislodged_now[dj_province(s->map, u->loc)]) {
            dislodged_unit(s, u, dislodgement(s, u));
            continue;
        }
        dj_geo_point p = place_of(s, u->loc, false);
        unit_open(s, u, NULL);
        board_unit(s, u->power, u->type, p.x, p.y, 1.0);
        thing_close(s);
    }
    /* Units waiting to retreat, set off likewise. */
    for (int i = 0; i < b->ndislodged; i++)
        dislodged_unit(s, &b->dislodged[i].unit, &b->dislodged[i]);
}

/* ---- orders ------------------------------------------------------------- */

static void cross(cairo_t *cr, double x, double y, double size)
{
    cairo_new_path(cr);
    for (int pass = 0; pass < 2; pass++) {
        cairo_move_to(cr, x - size, y - size);
        cairo_line_to(cr, x + size, y + size);
        cairo_move_to(cr, x - size, y + size);
        cairo_line_to(cr, x + size, y - size);
        if (pass == 0) {
            cairo_set_source_rgb(cr, 1, 1, 1);
            cairo_set_line_width(cr, 4.5);
        } else {
            cairo_set_source_rgb(cr, 0.1, 0.0, 0.0);
            cairo_set_line_width(cr, 2.2);
        }
        ink_stroke(cr);
    }
}

/*
 * An arrow along points[0..n-1], starting at the edge of the unit and
 * stopping short of the place it goes to.  Failed: dashed, with a cross
 * where it stops.  The line is the power's colour edged in black.
 */
static void arrow(scene *s, int power, const dj_geo_point *pts, int n,
                  bool failed, double width)
{
    cairo_t *cr = s->cr;
    if (n < 2)
        return;
    dj_geo_point a = pts[0], b = pts[n - 1], before = pts[n - 2];
    double dx = pts[1].x - a.x, dy = pts[1].y - a.y;
    double len = hypot(dx, dy);
    if (len > 2 * UNIT_RADIUS) {
        a.x += dx / len * UNIT_RADIUS;
        a.y += dy / len * UNIT_RADIUS;
    }
    dx = b.x - before.x, dy = b.y - before.y;
    len = hypot(dx, dy);
    if (len < 1)
        return;
    double ux = dx / len, uy = dy / len;
    double stop = len > 3 * UNIT_RADIUS ? UNIT_RADIUS * 0.9 : 0;
    b.x -= ux * stop;
    b.y -= uy * stop;
    double head = 4 * width;
    dj_geo_point shaft_end = {b.x - ux * head * 0.8, b.y - uy * head * 0.8};
    for (int i = 0; i + 1 < n; i++)
        layout_segment_add(s->lay, i ? pts[i] : a, i + 2 < n ? pts[i + 1] : b,
                           width + 2.0);
    double rgb[3];
    dj_render_power_colour(s->map, power, rgb);
    double dashes[2] = {6, 6};
    for (int pass = 0; pass < 2; pass++) {
        cairo_move_to(cr, a.x, a.y);
        for (int i = 1; i < n - 1; i++)
            cairo_line_to(cr, pts[i].x, pts[i].y);
        cairo_line_to(cr, shaft_end.x, shaft_end.y);
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
        if (failed)
            cairo_set_dash(cr, dashes, 2, 0);
        if (pass == 0) {
            cairo_set_source_rgb(cr, 0, 0, 0);
            cairo_set_line_width(cr, width + 2.0);
        } else {
            set_rgb(cr, rgb);
            cairo_set_line_width(cr, width);
        }
        ink_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    cairo_move_to(cr, b.x, b.y);
    cairo_line_to(cr, b.x - ux * head - uy * head * 0.55,
                  b.y - uy * head + ux * head * 0.55);
    cairo_line_to(cr, b.x - ux * head + uy * head * 0.55,
                  b.y - uy * head - ux * head * 0.55);
    cairo_close_path(cr);
    set_rgb(cr, rgb);
    ink_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1.0);
    ink_stroke(cr);
    if (failed) {
        cross(cr, b.x - ux * head * 1.6, b.y - uy * head * 1.6, 4.0);
        layout_mark(s->lay, b.x - ux * head * 1.6, b.y - uy * head * 1.6, 5);
    }
}

/* A thin line for a support or a retreat option. */
static void thin_line(scene *s, dj_geo_point a, dj_geo_point b,
                      const double rgb[3], bool dotted)
{
    cairo_t *cr = s->cr;
    double dx = b.x - a.x, dy = b.y - a.y, len = hypot(dx, dy);
    if (len < 1)
        return;
    a.x += dx / len * UNIT_RADIUS;
    a.y += dy / len * UNIT_RADIUS;
    layout_segment_add(s->lay, a, b, 3.0);
    double dash[2] = {2, 3};
    for (int pass = 0; pass < 2; pass++) {
        cairo_move_to(cr, a.x, a.y);
        cairo_line_to(cr, b.x, b.y);
        if (dotted)
            cairo_set_dash(cr, dash, 2, 0);
        if (pass == 0) {
            cairo_set_source_rgb(cr, 0, 0, 0);
            cairo_set_line_width(cr, 3.0);
        } else {
            set_rgb(cr, rgb);
            cairo_set_line_width(cr, 1.5);
        }
        ink_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
}

static bool order_failed(const scene *s, int i)
{
    const dj_result *r = s->req->result;
    if (!r || i >= r->norders)
        return false;
    return !r->orders[i].success;
}

/* How order i went: 1 succeeded, 0 failed, -1 not adjudicated. */
static int order_result(const scene *s, int i)
{
    const dj_result *r = s->req->result;
    if (!r || i >= r->norders)
        return -1;
    return r->orders[i].success ? 1 : 0;
}

/* The convoy route of an army's move: the army, the fleets convoying it to
 * that place in order of nearness along the way, the destination. */
static int convoy_route(const scene *s, const dj_order *move,
                        dj_geo_point *pts, int max)
{
    const dj_order *o = s->req->orders;
    bool used[DJ_MAX_ORDERS] = {false};
    int n = 0;
    pts[n++] = place_of(s, move->loc, false);
    dj_geo_point last = pts[0];
    while (n < max - 1) {
        int best = -1;
        double bestd = 1e18;
        for (int i = 0; i < s->req->norders; i++) {
            if (used[i] || o[i].kind != DJ_ORDER_CONVOY ||
                dj_province(s->map, o[i].target) !=
                    dj_province(s->map, move->loc) ||
                dj_province(s->map, o[i].dest) !=
                    dj_province(s->map, move->dest))
                continue;
            dj_geo_point p = place_of(s, o[i].loc, false);
            double d = hypot(p.x - last.x, p.y - last.y);
            if (d < bestd)
                bestd = d, best = i;
        }
        if (best < 0)
            break;
        used[best] = true;
        last = pts[n++] = place_of(s, o[best].loc, false);
    }
    pts[n++] = place_of(s, move->dest, false);
    return n;
}

static bool convoyed(const scene *s, const dj_order *move)
{
    if (move->via_convoy)
        return true;
    if (dj_map_adjacent(s->map, move->loc, move->dest, DJ_ARMY))
        return false;
    for (int i = 0; i < s->req->norders; i++) {
        const dj_order *c = &s->req->orders[i];
        if (c->kind == DJ_ORDER_CONVOY &&
            dj_province(s->map, c->target) == dj_province(s->map, move->loc))
            return true;
    }
    return false;
}

/* Where a support points: along the supported unit's move when it moves
 * there, else the supported unit itself. */
static dj_geo_point support_point(const scene *s, const dj_order *o)
{
    dj_geo_point from = place_of(s, o->target, false);
    if (o->dest < 0)
        return from;
    dj_geo_point to = place_of(s, o->dest, false);
    dj_geo_point p = {from.x + 0.6 * (to.x - from.x),
                      from.y + 0.6 * (to.y - from.y)};
    return p;
}

/*
 * A unit disbanded or removed: a cross over it; on the board after the
 * phase, where it no longer stands, over a faded ghost of it.
 */
static void removed(scene *s, const dj_order *o)
{
    bool off = o->kind == DJ_ORDER_DISBAND;
    dj_geo_point p = place_of(s, o->loc, off);
    if (s->after) {
        FILE *m = ink_svg(s->cr);
        if (m) {
            fputs("<g opacity=\".4\">\n", m);
            draw_unit_symbol(s->cr, s->map, o->power, o->unit_type, p.x, p.y,
                             off ? 0.85 : 1.0);
            fputs("</g>\n", ink_svg(s->cr));
        } else {
            cairo_push_group(s->cr);
            draw_unit_symbol(s->cr, s->map, o->power, o->unit_type, p.x, p.y,
                             off ? 0.85 : 1.0);
            cairo_pop_group_to_source(s->cr);
            cairo_paint_with_alpha(s->cr, 0.4);
        }
        double r = UNIT_RADIUS * (o->unit_type == DJ_FLEET ? 1.45 : 1.0);
        layout_unit(s->lay, p.x - r - 1, p.y - r - 1, p.x + r + 1,
                    p.y + r + 1);
    }
    cross(s->cr, p.x, p.y, 8.0);
    layout_mark(s->lay, p.x, p.y, 10);
}

static void draw_orders(scene *s)
{
    cairo_t *cr = s->cr;
    const dj_order *o = s->req->orders;
    /* Supports and convoy marks under the arrows. */
    for (int i = 0; i < s->req->norders; i++) {
        double rgb[3];
        dj_render_power_colour(s->map, o[i].power, rgb);
        if (o[i].kind == DJ_ORDER_SUPPORT) {
            order_open(s, &o[i], order_result(s, i));
            bool off = s->dislodged_now[dj_province(s->map, o[i].loc)];
            dj_geo_point a = place_of(s, o[i].loc, off);
            dj_geo_point b = support_point(s, &o[i]);
            thin_line(s, a, b, rgb, false);
            layout_mark(s->lay, b.x, b.y, 3.5);
            cairo_new_sub_path(cr);
            cairo_arc(cr, b.x, b.y, 3.0, 0, 2 * M_PI);
            set_rgb(cr, rgb);
            ink_fill_preserve(cr);
            cairo_set_source_rgb(cr, 0, 0, 0);
            cairo_set_line_width(cr, 1.0);
            ink_stroke(cr);
            if (order_failed(s, i)) {
                cross(cr, (a.x + b.x) / 2, (a.y + b.y) / 2, 3.5);
                layout_mark(s->lay, (a.x + b.x) / 2, (a.y + b.y) / 2, 4.5);
            }
            thing_close(s);
        } else if (o[i].kind == DJ_ORDER_CONVOY) {
            order_open(s, &o[i], order_result(s, i));
            dj_geo_point p = place_of(s, o[i].loc, false);
            double dash[2] = {3, 2};
            cairo_new_sub_path(cr);
            cairo_arc(cr, p.x, p.y, UNIT_RADIUS + 6, 0, 2 * M_PI);
            layout_mark(s->lay, p.x, p.y, UNIT_RADIUS + 7);
            cairo_set_dash(cr, dash, 2, 0);
            set_rgb(cr, rgb);
            cairo_set_line_width(cr, 2.0);
            ink_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
            if (order_failed(s, i))
                cross(cr, p.x + UNIT_RADIUS, p.y - UNIT_RADIUS, 3.5);
            thing_close(s);
        } else if (o[i].kind == DJ_ORDER_HOLD) {
            order_open(s, &o[i], order_result(s, i));
            bool off = s->dislodged_now[dj_province(s->map, o[i].loc)];
            dj_geo_point p = place_of(s, o[i].loc, off);
            if (!draw_kept(cr, s->map, s->geo, BOARD_SPRITE_HOLD, -1, p.x, p.y,
                           1.0))
                hold_ring(cr, p.x, p.y);
            layout_mark(s->lay, p.x, p.y, 15);
            thing_close(s);
        }
    }
    for (int i = 0; i < s->req->norders; i++) {
        bool failed = order_failed(s, i);
        if (o[i].kind == DJ_ORDER_MOVE && o[i].dest >= 0) {
            order_open(s, &o[i], order_result(s, i));
            bool off = s->dislodged_now[dj_province(s->map, o[i].loc)];
            dj_geo_point pts[DJ_MAX_PATH + 2];
            int n;
            if (o[i].unit_type != DJ_FLEET && convoyed(s, &o[i])) {
                n = convoy_route(s, &o[i], pts, DJ_MAX_PATH + 2);
            } else {
                pts[0] = place_of(s, o[i].loc, off);
                pts[1] = place_of(s, o[i].dest, false);
                n = 2;
            }
            arrow(s, o[i].power, pts, n, failed, 2.6);
            thing_close(s);
        } else if (o[i].kind == DJ_ORDER_RETREAT && o[i].dest >= 0) {
            order_open(s, &o[i], order_result(s, i));
            dj_geo_point pts[2] = {place_of(s, o[i].loc, true),
                                   place_of(s, o[i].dest, false)};
            arrow(s, o[i].power, pts, 2, failed, 2.2);
            thing_close(s);
        } else if (o[i].kind == DJ_ORDER_DISBAND ||
                   o[i].kind == DJ_ORDER_REMOVE) {
            order_open(s, &o[i], order_result(s, i));
            removed(s, &o[i]);
            thing_close(s);
        } else if (o[i].kind == DJ_ORDER_BUILD && !failed) {
            order_open(s, &o[i], order_result(s, i));
            dj_geo_point p = place_of(s, o[i].loc, false);
            if (!s->after)
                board_unit(s, o[i].power, o[i].unit_type, p.x, p.y, 1.0);
            layout_mark(s->lay, p.x, p.y, UNIT_RADIUS + 8);
            for (int pass = 0; pass < 2; pass++) {
                cairo_new_sub_path(cr);
                cairo_arc(cr, p.x, p.y, UNIT_RADIUS + 4 + 2.5 * pass, 0,
                          2 * M_PI);
                cairo_set_source_rgb(cr, pass ? 0 : 1, pass ? 0 : 1,
                                     pass ? 0 : 1);
                cairo_set_line_width(cr, 1.6);
                ink_stroke(cr);
            }
            thing_close(s);
        }
    }
}

/* Adjudicated: standoffs, and the retreat options of dislodged units. */
static void draw_outcome(scene *s)
{
    const dj_result *r = s->req->result;
    cairo_t *cr = s->cr;
    if (!r)
        return;
    for (int prov = 0; prov < s->map->nlocs; prov++) {
        if (!r->contested[prov] || dj_province(s->map, prov) != prov)
            continue;
        dj_geo_point p = place_of(s, prov, false);
        p.x -= 11;
        p.y -= 11;
        if (!draw_kept(cr, s->map, s->geo, BOARD_SPRITE_STANDOFF, -1, p.x,
                       p.y, 1.0))
            standoff_star(cr, p.x, p.y);
        layout_mark(s->lay, p.x, p.y, 8);
    }
    for (int i = 0; i < r->nauto; i++)
        if (r->autos[i].order.kind == DJ_ORDER_DISBAND ||
            r->autos[i].order.kind == DJ_ORDER_REMOVE) {
            order_open(s, &r->autos[i].order, 1);
            removed(s, &r->autos[i].order);
            /* Dislodged with nowhere to go: said beside its ghost (before
             * the phase the dislodged unit itself says it). */
            if (s->after && r->autos[i].why == DJ_WHY_NO_RETREAT)
                retreats_note(s, place_of(s, r->autos[i].order.loc, true),
                              NULL);
            thing_close(s);
        }
    for (int i = 0; i < r->next.ndislodged; i++) {
        const dj_dislodged *d = &r->next.dislodged[i];
        dj_geo_point from = place_of(s, d->unit.loc, true);
        double rgb[3];
        dj_render_power_colour(s->map, d->unit.power, rgb);
        for (int k = 0; k < d->nretreats; k++)
            thin_line(s, from, place_of(s, d->retreats[k], false), rgb, true);
    }
}

/* ---- title and legend --------------------------------------------------- */

static void draw_title(scene *s, int width)
{
    cairo_t *cr = s->cr;
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.18);
    cairo_rectangle(cr, 0, 0, width, DRAW_TITLE_BAND);
    ink_fill(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_select_font_face(cr, BOARD_FONT, CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 17);
    cairo_move_to(cr, 12, 23);
    ink_show_text(cr, s->req->title ? s->req->title : "");
}

double draw_legend_entry(const dj_map *map)
{
    size_t longest = 0;
    for (int p = 0; p < map->npowers; p++) {
        size_t n = strlen(map->powers[p].name);
        longest = n > longest ? n : longest;
    }
    double w = 135 + 8.0 * (double)longest;
    return w > DRAW_LEGEND_ENTRY ? w : DRAW_LEGEND_ENTRY;
}

/* Each power: its token, its name, its centres and units on the board. */
static void draw_legend(scene *s, int width, double top)
{
    cairo_t *cr = s->cr;
    double entry = draw_legend_entry(s->map);
    int per_row = (int)(width / entry);
    if (per_row < 1)
        per_row = 1;
    int centres[DJ_MAX_POWERS] = {0}, units[DJ_MAX_POWERS] = {0};
    for (int loc = 0; loc < s->map->nlocs; loc++)
        if (dj_province(s->map, loc) == loc && s->map->is_sc[loc] &&
            s->board->owner[loc] >= 0 && s->board->owner[loc] < DJ_MAX_POWERS)
            centres[s->board->owner[loc]]++;
    for (int i = 0; i < s->board->nunits; i++)
        if (s->board->units[i].power >= 0 &&
            s->board->units[i].power < DJ_MAX_POWERS)
            units[s->board->units[i].power]++;
    for (int p = 0; p < s->map->npowers; p++) {
        double x = 10 + (p % per_row) * entry;
        double y = top + 14 + (p / per_row) * DRAW_LEGEND_ROW;
        if (!draw_kept(cr, s->map, s->geo, BOARD_SPRITE_ARMY, p, x + 8, y, 0.8))
            draw_unit_symbol(cr, s->map, p, DJ_ARMY, x + 8, y, 0.8);
        char name[DJ_NAME_MAX + 4], counts[48];
        snprintf(name, sizeof name, "%s", s->map->powers[p].name);
        snprintf(counts, sizeof counts, "%d centre%s, %d unit%s", centres[p],
                 centres[p] == 1 ? "" : "s", units[p],
                 units[p] == 1 ? "" : "s");
        cairo_select_font_face(cr, BOARD_FONT, CAIRO_FONT_SLANT_NORMAL,
                               CAIRO_FONT_WEIGHT_BOLD);
        cairo_set_font_size(cr, 11.5);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        cairo_text_extents_t e;
        cairo_text_extents(cr, name, &e);
        cairo_move_to(cr, x + 20, y + 4);
        ink_show_text(cr, name);
        cairo_select_font_face(cr, BOARD_FONT, CAIRO_FONT_SLANT_NORMAL,
                               CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(cr, 10.5);
        cairo_move_to(cr, x + 24 + e.x_advance, y + 4);
        ink_show_text(cr, counts);
    }
}

void draw_picture(cairo_t *cr, const dj_picture_request *req, int width,
                  int height, layout *lay)
{
    scene s = {cr, req, req->map, req->geo, req->pos,
               req->after ? req->after : req->pos, req->after != NULL,
               {false}, lay};
    if (req->orders && req->result)
        for (int i = 0; i < req->norders && i < req->result->norders; i++)
            if ((req->result->orders[i].flags & DJ_RF_DISLODGED) &&
                req->orders[i].loc >= 0 && req->orders[i].loc < req->map->nlocs)
                s.dislodged_now[dj_province(req->map, req->orders[i].loc)] = true;
    if (req->result)
        for (int i = 0; i < req->result->next.ndislodged; i++) {
            int loc = req->result->next.dislodged[i].unit.loc;
            if (loc >= 0 && loc < req->map->nlocs)
                s.dislodged_now[dj_province(req->map, loc)] = true;
        }
    board_layer_hold_fonts(req->geo);
    /* Arcs flattened to within a quarter of a pixel rather than cairo's
     * tenth: a unit's circle in half the segments, the same on screen. */
    cairo_set_tolerance(cr, 0.25);
    /* The background under the legend (the title band and the board
     * cover the rest). */
    cairo_set_source_rgb(cr, palette_background[0], palette_background[1],
                         palette_background[2]);
    cairo_rectangle(cr, 0, DRAW_TITLE_BAND + req->geo->height, width,
                    height - DRAW_TITLE_BAND - req->geo->height);
    ink_fill(cr);
    draw_title(&s, width);
    cairo_save(cr);
    cairo_translate(cr, 0, DRAW_TITLE_BAND);
    cairo_rectangle(cr, 0, 0, req->geo->width, req->geo->height);
    cairo_clip(cr);
    draw_areas(&s);
    draw_centres(&s);
    draw_units(&s);
    if (req->orders) {
        draw_orders(&s);
        draw_outcome(&s);
    }
    labels_place_and_draw(cr, req->map, req->geo, lay);
    cairo_restore(cr);
    draw_legend(&s, width, DRAW_TITLE_BAND + req->geo->height);
}
