/* SPDX-License-Identifier: MIT */
/*
 * svg_board.h — the SVG picture's board and names in compact SVG, put
 * into cairo's document (render room only).  See svg_board.c.
 */
#ifndef DJ_RENDER_SVG_BOARD_H
#define DJ_RENDER_SVG_BOARD_H

#include <stdbool.h>
#include <stddef.h>

#include "render/layout.h"
#include "render/render.h"

/*
 * *doc (malloc'd, *len bytes) is cairo's SVG of the picture drawn without
 * its areas and names (draw.c and labels.c leave them to this on an SVG
 * surface); it becomes the whole picture: a style block and the board's
 * areas under cairo's drawing, the names placed in *lay over it.  false
 * (the document untouched) when it is not an SVG document or memory runs
 * out.
 */
bool svg_board_compose(const dj_picture_request *req, const layout *lay,
                       unsigned char **doc, size_t *len);

#endif
