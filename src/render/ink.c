/* SPDX-License-Identifier: MIT */
/*
 * ink.c — one description of a picture, two writers (issue 31).
 *
 * draw.c describes a picture once, as cairo paths and words; what is
 * done with each shape at the end (filled, stroked, a word shown) goes
 * through here.  On a PNG's or a PDF's context these are cairo's own
 * calls, made exactly as draw.c made them before, so those pictures are
 * the same to the byte.  On the SVG's context an ink_svg writer is
 * attached (cairo user data) and each shape is written as an SVG element
 * instead: the path cairo holds (cairo_copy_path, arcs as its Béziers),
 * in the board's points to a tenth, with the source colour, line width
 * and dashes of the moment; a fill followed by a stroke of the same path
 * is one element; a word is a real <text>.  draw.c opens a <g> round each
 * unit and each order with what it shows (data-power, data-unit,
 * data-place, data-dislodged, data-order, data-result, a <title>), and
 * svg_board.c writes the document round it: the board's areas one path a
 * province with its data-place and title, the names as <text>.
 *
 * Why not cairo's SVG surface, which the SVG came from until now: it
 * writes no attributes of ours and no text (every letter a glyph
 * reference), so the things drawn could not be told apart nor found by a
 * test, a screen reader or the web's map order entry; finding them again
 * in its output would mean guessing from coordinates.  Why not a second
 * drawing code for SVG: the two pictures would drift apart.  Here the
 * SVG is drawn by the same code as the PNG, every shape at the same
 * place in the same colour, and only the last step differs.  The context
 * the SVG is drawn on is a recording surface that receives nothing (the
 * text extents and the names' placing need a context with fonts).
 */
#define _POSIX_C_SOURCE 200809L
#include "render/ink.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ink_writer {
    FILE *out;
    /* A fill whose path is kept for a stroke that may follow. */
    char *pending;    /* its path data, malloc'd; NULL when none */
    double fill[4];   /* its colour */
} ink_writer;

static const cairo_user_data_key_t writer_key;

static ink_writer *writer_of(cairo_t *cr)
{
    return cairo_get_user_data(cr, &writer_key);
}

void ink_number(FILE *m, double v)
{
    ink_tenths(m, lround(v * 10));
}

void ink_tenths(FILE *m, long t)
{
    if (t < 0)
        fputc('-', m);
    long a = labs(t);
    if (a % 10 == 0)
        fprintf(m, "%ld", a / 10);
    else if (a < 10)
        fprintf(m, ".%ld", a % 10);
    else
        fprintf(m, "%ld.%ld", a / 10, a % 10);
}

void ink_colour(FILE *m, const double rgb[3])
{
    fprintf(m, "#%02x%02x%02x", (unsigned)lround(rgb[0] * 255),
            (unsigned)lround(rgb[1] * 255), (unsigned)lround(rgb[2] * 255));
}

void ink_escape(FILE *m, const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        switch (*c) {
        case '&': fputs("&amp;", m); break;
        case '<': fputs("&lt;", m); break;
        case '>': fputs("&gt;", m); break;
        case '"': fputs("&quot;", m); break;
        case '\'': fputs("&#39;", m); break;
        default:
            if (*c >= 0x20 && *c != 0x7f)
                fputc(*c, m);
        }
}

static void writer_free(void *data)
{
    ink_writer *w = data;
    if (w)
        free(w->pending);
    free(w);
}

bool ink_svg_attach(cairo_t *cr, FILE *out)
{
    ink_writer *w = calloc(1, sizeof *w);
    if (!w)
        return false;
    w->out = out;
    if (cairo_set_user_data(cr, &writer_key, w, writer_free) !=
        CAIRO_STATUS_SUCCESS) {
        free(w);
        return false;
    }
    return true;
}

/* The source's colour (black when it is not a plain colour). */
static void source_rgba(cairo_t *cr, double rgba[4])
{
    rgba[0] = rgba[1] = rgba[2] = 0;
    rgba[3] = 1;
    cairo_pattern_t *p = cairo_get_source(cr);
    if (cairo_pattern_get_type(p) == CAIRO_PATTERN_TYPE_SOLID)
        cairo_pattern_get_rgba(p, &rgba[0], &rgba[1], &rgba[2], &rgba[3]);
}

static void put_paint(FILE *m, const char *what, const double rgba[4])
{
    fprintf(m, " %s=\"", what);
    ink_colour(m, rgba);
    fputc('"', m);
    if (rgba[3] < 1) {
        fprintf(m, " %s-opacity=\"", what);
        ink_number(m, rgba[3]);
        fputc('"', m);
    }
}

static void put_point(FILE *m, cairo_t *cr, const cairo_path_data_t *d)
{
    double x = d->point.x, y = d->point.y;
    cairo_user_to_device(cr, &x, &y);
    ink_number(m, x);
    fputc(' ', m);
    ink_number(m, y);
}

/* The current path as SVG path data in the picture's points, malloc'd
 * (NULL when empty or out of memory). */
static char *path_data(cairo_t *cr)
{
    cairo_path_t *p = cairo_copy_path(cr);
    char *text = NULL;
    size_t len = 0;
    FILE *m = p && p->status == CAIRO_STATUS_SUCCESS
                  ? open_memstream(&text, &len)
                  : NULL;
    for (int i = 0; m && i < p->num_data; i += p->data[i].header.length) {
        const cairo_path_data_t *d = &p->data[i];
        switch (d->header.type) {
        case CAIRO_PATH_MOVE_TO:
            fputc('M', m);
            put_point(m, cr, &d[1]);
            break;
        case CAIRO_PATH_LINE_TO:
            fputc('L', m);
            put_point(m, cr, &d[1]);
            break;
        case CAIRO_PATH_CURVE_TO:
            for (int k = 1; k <= 3; k++) {
                fputc(k == 1 ? 'C' : ' ', m);
                put_point(m, cr, &d[k]);
            }
            break;
        case CAIRO_PATH_CLOSE_PATH:
            fputc('Z', m);
            break;
        }
    }
    cairo_path_destroy(p);
    if (m && fclose(m) != 0) {
        free(text);
        return NULL;
    }
    if (text && !text[0]) {
        free(text);
        return NULL;
    }
    return text;
}

/* The held fill written as a fill alone. */
static void flush(ink_writer *w)
{
    if (!w->pending)
        return;
    fputs("<path", w->out);
    put_paint(w->out, "fill", w->fill);
    fprintf(w->out, " d=\"%s\"/>\n", w->pending);
    free(w->pending);
    w->pending = NULL;
}

void ink_svg_detach(cairo_t *cr)
{
    ink_writer *w = writer_of(cr);
    if (w)
        flush(w);
    cairo_set_user_data(cr, &writer_key, NULL, NULL);
}

FILE *ink_svg(cairo_t *cr)
{
    ink_writer *w = writer_of(cr);
    if (!w)
        return NULL;
    flush(w);
    return w->out;
}

void ink_fill_preserve(cairo_t *cr)
{
    ink_writer *w = writer_of(cr);
    if (!w) {
        cairo_fill_preserve(cr);
        return;
    }
    flush(w);
    w->pending = path_data(cr);
    source_rgba(cr, w->fill);
}

void ink_fill(cairo_t *cr)
{
    ink_writer *w = writer_of(cr);
    if (!w) {
        cairo_fill(cr);
        return;
    }
    ink_fill_preserve(cr);
    flush(w);
    cairo_new_path(cr);
}

void ink_stroke(cairo_t *cr)
{
    ink_writer *w = writer_of(cr);
    if (!w) {
        cairo_stroke(cr);
        return;
    }
    char *d = path_data(cr);
    cairo_new_path(cr);
    if (!d) {
        flush(w);
        return;
    }
    FILE *m = w->out;
    bool filled = w->pending && strcmp(w->pending, d) == 0;
    if (!filled)
        flush(w);
    fputs("<path", m);
    if (filled)
        put_paint(m, "fill", w->fill);
    else
        fputs(" fill=\"none\"", m);
    double rgba[4];
    source_rgba(cr, rgba);
    put_paint(m, "stroke", rgba);
    fputs(" stroke-width=\"", m);
    ink_number(m, cairo_get_line_width(cr));
    fputc('"', m);
    int ndash = cairo_get_dash_count(cr);
    if (ndash > 0 && ndash <= 16) {
        double dash[16], offset;
        cairo_get_dash(cr, dash, &offset);
        fputs(" stroke-dasharray=\"", m);
        for (int k = 0; k < ndash; k++) {
            if (k)
                fputc(' ', m);
            ink_number(m, dash[k]);
        }
        fputc('"', m);
    }
    if (cairo_get_line_cap(cr) == CAIRO_LINE_CAP_ROUND)
        fputs(" stroke-linecap=\"round\"", m);
    else if (cairo_get_line_cap(cr) == CAIRO_LINE_CAP_SQUARE)
        fputs(" stroke-linecap=\"square\"", m);
    if (cairo_get_line_join(cr) == CAIRO_LINE_JOIN_ROUND)
        fputs(" stroke-linejoin=\"round\"", m);
    else if (cairo_get_line_join(cr) == CAIRO_LINE_JOIN_BEVEL)
        fputs(" stroke-linejoin=\"bevel\"", m);
    fprintf(m, " d=\"%s\"/>\n", d);
    free(d);
    if (filled) {
        free(w->pending);
        w->pending = NULL;
    }
}

/* A <text> at (x, y) of the picture in cr's font and colour. */
static void put_text(cairo_t *cr, FILE *m, double x, double y, bool centred,
                     const char *text)
{
    cairo_user_to_device(cr, &x, &y);
    cairo_matrix_t fm;
    cairo_get_font_matrix(cr, &fm);
    cairo_font_face_t *face = cairo_get_font_face(cr);
    bool bold = cairo_font_face_get_type(face) == CAIRO_FONT_TYPE_TOY &&
                cairo_toy_font_face_get_weight(face) == CAIRO_FONT_WEIGHT_BOLD;
    double rgba[4];
    source_rgba(cr, rgba);
    fputs("<text x=\"", m);
    ink_number(m, x);
    fputs("\" y=\"", m);
    ink_number(m, y);
    fputs("\" font-size=\"", m);
    ink_number(m, fm.yy);
    fputc('"', m);
    if (bold)
        fputs(" font-weight=\"bold\"", m);
    if (centred)
        fputs(" text-anchor=\"middle\" dominant-baseline=\"central\"", m);
    put_paint(m, "fill", rgba);
    fputc('>', m);
    ink_escape(m, text);
    fputs("</text>\n", m);
}

void ink_show_text(cairo_t *cr, const char *text)
{
    FILE *m = ink_svg(cr);
    if (!m) {
        cairo_show_text(cr, text);
        return;
    }
    double x = 0, y = 0;
    if (cairo_has_current_point(cr))
        cairo_get_current_point(cr, &x, &y);
    put_text(cr, m, x, y, false, text);
    cairo_new_path(cr);
}

bool ink_svg_centred_text(cairo_t *cr, double x, double y, const char *text)
{
    FILE *m = ink_svg(cr);
    if (!m)
        return false;
    put_text(cr, m, x, y, true, text);
    return true;
}
