/* SPDX-License-Identifier: MIT */
/*
 * board_layer.h — a board's areas drawn once per geometry for raster
 * pictures (render room only).  See board_layer.c.
 */
#ifndef DJ_RENDER_BOARD_LAYER_H
#define DJ_RENDER_BOARD_LAYER_H

#include <cairo.h>
#include <stdbool.h>

#include "render/render.h"

struct board_layer;

/* The family of every text of the picture. */
#define BOARD_FONT "sans-serif"

/* The text's font faces kept with the geometry (see board_layer.c). */
void board_layer_hold_fonts(const dj_geo *geo);

/* An empty layer for a geometry (dj_geo_parse makes it), and freeing one. */
struct board_layer *board_layer_new(void);
void board_layer_free(struct board_layer *layer);

/*
 * Paint the board's areas on a context drawing on an RGB24 image, whose
 * origin is the board's top left corner at a whole pixel: the board kept
 * in the geometry's layer (made at its first use), each owned province in
 * its owner's colour, the borders over them.  false (nothing painted)
 * when the layer cannot be made or the context is not such: the caller
 * draws the areas as paths then.
 */
bool board_layer_paint(cairo_t *cr, const dj_geo *geo, const dj_map *map,
                       const dj_position *board);

/*
 * The image a PNG is drawn on: pixels kept in the geometry's layer and
 * used again by its next picture (a fresh image is zeroed and, at a few
 * megabytes, mapped anew by the system each time); the picture paints
 * every pixel.  Destroy it before drawing another picture with the
 * geometry.
 */
cairo_surface_t *board_layer_canvas(const dj_geo *geo, int width, int height);

/*
 * Small drawings kept per geometry for raster pictures (a unit's symbol,
 * a centre marker...), drawn once on a transparent image and then laid
 * on each picture whole.  A key says what is drawn, to whom, at what
 * scale and at which fraction of a pixel (so the kept image has the same
 * pixels as drawing it there); the drawings are the map's (its powers'
 * colours, its names): a geometry drawn with another map starts afresh.
 */
typedef struct board_sprite_key {
    int kind, power, scale, phase_x, phase_y;
} board_sprite_key;

/* What a kept drawing is (its key's kind). */
enum board_sprite_kind {
    BOARD_SPRITE_ARMY,
    BOARD_SPRITE_FLEET,
    BOARD_SPRITE_CENTRE,
    BOARD_SPRITE_HOLD,
    BOARD_SPRITE_STANDOFF,
    BOARD_SPRITE_HALO /* a name's halo, a coverage mask (labels.c) */
};

/* The drawing kept for a key, or NULL. */
cairo_surface_t *board_layer_sprite(const dj_geo *geo, const dj_map *map,
                                    const board_sprite_key *key);

/* Keep a drawing for a key (the layer holds it from then on); false when
 * it cannot be kept (the caller still holds it). */
bool board_layer_keep_sprite(const dj_geo *geo, const dj_map *map,
                             const board_sprite_key *key,
                             cairo_surface_t *sprite);

/* The areas as paths, on any context (the vector formats, and the layer
 * itself): sea, land in its owners' colours, hatching, borders.  `owned`
 * false draws every province unowned. */
void board_areas_draw(cairo_t *cr, const dj_geo *geo, const dj_map *map,
                      const dj_position *board, bool owned,
                      bool land_borders);

#endif
