/* SPDX-License-Identifier: MIT */
/*
 * ink.h — the last step of every drawing (render room only): a shape
 * filled or stroked, a word written, a drawn thing opened and closed.
 * On a cairo context as it is these are cairo's own calls (the PNG and
 * the PDF); on one an SVG writer is attached to (ink_svg_attach) they
 * are written as SVG elements instead, each drawn thing a <g> carrying
 * what it shows (data-place, data-order...).  One description of the
 * picture (draw.c), two writers: see ink.c.
 */
#ifndef DJ_RENDER_INK_H
#define DJ_RENDER_INK_H

#include <cairo.h>
#include <stdbool.h>
#include <stdio.h>

/* From now on the drawing on cr is written as SVG elements to out (and
 * nothing is drawn on cr's surface).  false when out of memory. */
bool ink_svg_attach(cairo_t *cr, FILE *out);
/* What is still held written out; the writer gone. */
void ink_svg_detach(cairo_t *cr);

/* The SVG stream of cr, everything held written out first; NULL when cr
 * draws on its surface. */
FILE *ink_svg(cairo_t *cr);

void ink_fill(cairo_t *cr);
void ink_fill_preserve(cairo_t *cr);
void ink_stroke(cairo_t *cr);
/* cairo_show_text at the current point. */
void ink_show_text(cairo_t *cr, const char *text);
/* Text centred on (x, y): true when written as SVG (the caller places
 * and shows it on cairo otherwise). */
bool ink_svg_centred_text(cairo_t *cr, double x, double y, const char *text);

/* Text as SVG character data or an attribute's value: & < > " ' escaped,
 * control characters left out. */
void ink_escape(FILE *m, const char *text);
/* A colour as #rrggbb. */
void ink_colour(FILE *m, const double rgb[3]);
/* A number to a tenth, as short as SVG allows ("12", "1.5", "-.5"). */
void ink_number(FILE *m, double v);
/* The same of a number counted in tenths (12 is "1.2"). */
void ink_tenths(FILE *m, long tenths);

#endif
