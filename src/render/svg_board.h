/* SPDX-License-Identifier: MIT */
/*
 * svg_board.h — the SVG picture's document, written by the judge
 * (render room only).  See svg_board.c and ink.c.
 */
#ifndef DJ_RENDER_SVG_BOARD_H
#define DJ_RENDER_SVG_BOARD_H

#include <stdbool.h>
#include <stddef.h>

#include "render/layout.h"
#include "render/render.h"

/*
 * The whole SVG picture in *doc (malloc'd, *len bytes): its style, the
 * board's areas (one path a province, with data-place and a title), what
 * draw.c drew through ink.c's SVG writer (`drawn`, drawnlen bytes: units,
 * orders, title, legend) and the names placed in *lay over it.  false
 * when memory runs out.
 */
bool svg_board_write(const dj_picture_request *req, const layout *lay,
                     const char *drawn, size_t drawnlen, int width,
                     int height, unsigned char **doc, size_t *len);

#endif
