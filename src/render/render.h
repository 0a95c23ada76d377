/* SPDX-License-Identifier: MIT */
/*
 * render.h — pictures of the board: one drawing code path, written as
 * PNG or PDF through cairo's surfaces and as SVG by the judge itself
 * (ink.c), an SVG saying what it shows in data attributes: each
 * province's area data-place="nwy" (a coast "stp/nc"), each unit
 * data-power, data-unit, data-place (and data-dislodged="yes"), each
 * order data-order="A YOR - NWY" and data-result, a <title> on each unit
 * and province.
 *
 * The renderer room is the only one that draws.  It knows the engine's
 * types (map, position, orders, results) and a board's geometry (geo.h),
 * nothing of games, storage or mail: callers hand it a position, and
 * optionally the phase's orders and how they went, and get bytes back.
 */
#ifndef DJ_RENDER_RENDER_H
#define DJ_RENDER_RENDER_H

#include <stddef.h>

#include "engine/adjudicate.h"
#include "render/geo.h"

typedef enum {
    DJ_PICTURE_PNG = 0,
    DJ_PICTURE_SVG,
    DJ_PICTURE_PDF,
    DJ_PICTURE_NONE /* a setting's "none": no picture */
} dj_picture_format;

/*
 * What a picture shows.  A phase before it is played: `pos` alone (units,
 * owners, dislodged units waiting to retreat).  A phase played: `pos` the
 * position the orders were given in, `orders` and `result` how they went,
 * and `after` (normally &result->next) the board the phase left: its units,
 * its owners and its dislodged units are drawn, the orders and their
 * results over it — the picture a results mail carries, agreeing with the
 * text about every centre.
 */
typedef struct dj_picture_request {
    const dj_map *map;
    const dj_geo *geo;
    const dj_position *pos;   /* the position the orders were given in */
    const dj_order *orders;   /* the phase's orders, NULL for none drawn */
    int norders;
    const dj_result *result;  /* how they went (success, dislodged,
                                 standoffs), NULL when not adjudicated */
    const char *title;        /* "Game demo: Spring 1901 Movement" */
    const dj_position *after; /* the board drawn when not NULL */
} dj_picture_request;

typedef struct dj_picture {
    unsigned char *data;
    size_t len;
} dj_picture;

/* Draw; 0 with the bytes in *out (free with dj_picture_free), -1 with err. */
int dj_render_picture(const dj_picture_request *req, dj_picture_format fmt,
                      dj_picture *out, char *err, size_t errlen);
void dj_picture_free(dj_picture *pic);

/*
 * Where a picture put its units and names, in the board's coordinates
 * (points from its top left corner, the title band not counted): what the
 * tests hold to "no name under a unit or another name".
 */
#define DJ_RENDER_MAX_BOXES 2048
typedef struct dj_render_box {
    double x0, y0, x1, y1;
} dj_render_box;

typedef struct dj_render_layout {
    int nunits, nlabels;
    dj_render_box units[DJ_RENDER_MAX_BOXES];
    dj_render_box labels[DJ_RENDER_MAX_BOXES];
    char label_text[DJ_RENDER_MAX_BOXES][DJ_ABBR_MAX];
} dj_render_layout;

/* Lay the picture out as dj_render_picture() draws it; 0, or -1 with err. */
int dj_render_layout_of(const dj_picture_request *req, dj_render_layout *out,
                        char *err, size_t errlen);

/* "png", "svg", "pdf", "none" (any case) or a file name ending in
 * .png/.svg/.pdf; -1 when it is none of these. */
int dj_picture_format_from_name(const char *name);
const char *dj_picture_format_name(dj_picture_format fmt);   /* "png" */
const char *dj_picture_mime_type(dj_picture_format fmt);     /* "image/png" */

/* The size of the picture drawn for this geometry and map (its legend). */
void dj_render_size(const dj_geo *geo, const dj_map *map, int *width,
                    int *height);
/* Where the board starts inside the picture (the title band above it). */
void dj_render_board_origin(double *x, double *y);

/*
 * A power's colour on this map (0..1 each), told apart from every other
 * power's by colour-blind players too (palette.c says how); a power keeps
 * its usual colour (France blue) on every board that has it.  The fill of
 * a province it owns is its colour lightened.
 */
void dj_render_power_colour(const dj_map *map, int power, double rgb[3]);
void dj_render_owned_fill(const dj_map *map, int power, double rgb[3]);
/* The land's and the sea's colours, which the powers' must stand out on. */
void dj_render_board_colours(double land[3], double sea[3]);

#endif
