/* SPDX-License-Identifier: MIT */
/*
 * layout.h — what a picture has drawn where (render room only): the
 * boxes of units, the marks and lines of orders, and the names placed
 * among them.  draw.c notes each thing as it draws it; labels.c then
 * places every name where none of them covers it.  The same record is
 * what dj_render_layout() hands the tests, so what is checked is what
 * was drawn.
 */
#ifndef DJ_RENDER_LAYOUT_H
#define DJ_RENDER_LAYOUT_H

#include <cairo.h>

#include "render/render.h"

#define LAYOUT_MAX_MARKS 4096
#define LAYOUT_MAX_SEGMENTS 8192
#define LAYOUT_MAX_NOTES 64
#define LAYOUT_NOTE_MAX 96

/* A dislodged unit's retreats to write beside it ("→ CON, SMY", "no
 * retreat"): placed after the names, among everything, or left out. */
typedef struct layout_note {
    char text[LAYOUT_NOTE_MAX];
    dj_geo_point at; /* the dislodged unit's place */
} layout_note;

typedef struct layout_segment {
    dj_geo_point a, b;
    double width;
} layout_segment;

typedef struct layout {
    dj_render_layout pub;    /* units and labels (what the tests check) */
    int nmarks;              /* centre markers, hold and convoy rings... */
    dj_render_box marks[LAYOUT_MAX_MARKS];
    int nsegments;           /* arrows, supports, retreat options */
    layout_segment segments[LAYOUT_MAX_SEGMENTS];
    /* per name: 0 land, 1 sea, 2 coast, 3 impassable, 4 a note (how it is
     * written) */
    unsigned char label_style[DJ_RENDER_MAX_BOXES];
    int nnotes; /* the notes to place */
    layout_note notes[LAYOUT_MAX_NOTES];
    /* per placed note (style 4) in label order: its note's index */
    int label_note[DJ_RENDER_MAX_BOXES];
} layout;

/* No units, names, marks or lines yet: the counts set to zero, not the
 * lists (over 600 KB, written only as far as a picture fills them). */
void layout_clear(layout *l);
void layout_unit(layout *l, double x0, double y0, double x1, double y1);
void layout_mark(layout *l, double x, double y, double radius);
void layout_segment_add(layout *l, dj_geo_point a, dj_geo_point b,
                        double width);
void layout_note_add(layout *l, dj_geo_point at, const char *text);

/* The font every province name is written in (labels.c and the legend). */
#define LABEL_FONT_SIZE 10.0
/* A note's style and font size (smaller than the names, bold, dark red
 * as the dislodged unit's ring). */
#define LABEL_STYLE_RETREATS 4
#define NOTE_FONT_SIZE 9.0

/*
 * Place and draw every name of the board (provinces, coasts, impassable
 * areas) where no unit and no other name covers it, and as few marks and
 * lines as can be: the geometry's place first, then places around the
 * province's unit and around the first place, the best kept.  For an SVG
 * (ink.h's writer on cr) they are placed only: svg_board.c writes them as
 * text.  Then each note, only beside its unit and only where it covers
 * nothing at all (no unit, name, mark or line): left out otherwise.
 */
void labels_place_and_draw(cairo_t *cr, const dj_map *map, const dj_geo *geo,
                           layout *l);

#endif
