/* SPDX-License-Identifier: MIT */
/*
 * draw.h — the one drawing code path (render room only): everything a
 * picture shows, drawn on any cairo context; picture.c chooses the surface.
 */
#ifndef DJ_RENDER_DRAW_H
#define DJ_RENDER_DRAW_H

#include <cairo.h>

#include "render/layout.h"
#include "render/render.h"

#define DRAW_TITLE_BAND 34.0
#define DRAW_LEGEND_ROW 22.0
#define DRAW_LEGEND_ENTRY 190.0 /* the least width of a legend entry */

/* The width of one legend entry on this map: room for its longest power's
 * name beside "NN centres, NN units". */
double draw_legend_entry(const dj_map *map);

/* Draw it all; what went where is noted in *lay (never NULL). */
void draw_picture(cairo_t *cr, const dj_picture_request *req, int width,
                  int height, layout *lay);

#endif
