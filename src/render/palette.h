/* SPDX-License-Identifier: MIT */
/*
 * palette.h — the board's own colours and a helper for text on a colour
 * (render room only; the powers' colours are in render.h).
 */
#ifndef DJ_RENDER_PALETTE_H
#define DJ_RENDER_PALETTE_H

#include <stdbool.h>

extern const double palette_sea[3], palette_land[3], palette_neutral[3],
    palette_impassable[3], palette_border[3], palette_sea_border[3],
    palette_hatch[3], palette_background[3];
/* The ink and halo of names, by style: land, sea, coast, impassable, and
 * a dislodged unit's retreats (LABEL_STYLE_RETREATS, layout.h). */
extern const double palette_label_ink[5][3], palette_label_halo[5][3];

/* Dark enough that text on it should be white. */
bool palette_is_dark(const double rgb[3]);

#endif
