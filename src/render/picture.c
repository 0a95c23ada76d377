/* SPDX-License-Identifier: MIT */
/*
 * picture.c — chooses where a picture is drawn for a format (cairo's
 * image surface written as PNG, its PDF surface writing to memory, or
 * for an SVG ink.c's writer, the judge writing the document itself) and
 * runs the one drawing code path (draw.c) on it; the bytes come back in
 * memory for a file, a mail attachment or the outbox.
 */
#define _POSIX_C_SOURCE 200809L
#include <cairo-pdf.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "render/board_layer.h"
#include "render/bytes.h"
#include "render/draw.h"
#include "render/ink.h"
#include "render/layout.h"
#include "render/png_write.h"
#include "render/render.h"
#include "render/svg_board.h"

#define PICTURE_MAX (64 * 1024 * 1024)

typedef struct sink {
    bytes b;
    bool failed;
} sink;

static cairo_status_t sink_write(void *closure, const unsigned char *data,
                                 unsigned int length)
{
    sink *k = closure;
    if (k->failed || k->b.len + length > PICTURE_MAX) {
        k->failed = true;
        return CAIRO_STATUS_WRITE_ERROR;
    }
    if (!bytes_append(&k->b, data, length)) {
        k->failed = true;
        return CAIRO_STATUS_NO_MEMORY;
    }
    return CAIRO_STATUS_SUCCESS;
}

void dj_render_board_origin(double *x, double *y)
{
    *x = 0;
    *y = DRAW_TITLE_BAND;
}

void dj_render_size(const dj_geo *geo, const dj_map *map, int *width,
                    int *height)
{
    int per_row = (int)(geo->width / draw_legend_entry(map));
    if (per_row < 1)
        per_row = 1;
    int rows = (map->npowers + per_row - 1) / per_row;
    *width = geo->width;
    *height = (int)(DRAW_TITLE_BAND + geo->height + rows * DRAW_LEGEND_ROW + 8);
}

/*
 * cairo and fontconfig (which cairo loads to draw text) keep process-wide
 * caches that are never freed unless asked: a program that drew a picture
 * would end with them in LeakSanitizer's and valgrind's reports.  So the
 * first picture a process draws registers their release at exit — the one
 * piece of process-wide state in this room (a pthread_once flag), and it
 * belongs to the libraries, not to us.
 */
static void release_libraries(void)
{
    cairo_debug_reset_static_data();
    FcFini();
}

static void register_release(void)
{
    atexit(release_libraries);
}

/* Once per process, whichever thread draws first (judgeweb's workers may
 * draw their first pictures at the same moment). */
static void release_at_exit(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, register_release);
}

/* The libraries ready and the request whole: 0, or -1 with err. */
static int check_request(const dj_picture_request *req, char *err,
                         size_t errlen)
{
    release_at_exit();
    if (!req->map || !req->geo || !req->pos || req->geo->nlocs != req->map->nlocs) {
        snprintf(err, errlen, "no map, geometry or position to draw");
        return -1;
    }
    if (req->norders < 0 || req->norders > DJ_MAX_ORDERS ||
        (req->norders > 0 && !req->orders)) {
        snprintf(err, errlen, "bad order list");
        return -1;
    }
    return 0;
}

int dj_render_layout_of(const dj_picture_request *req, dj_render_layout *out,
                        char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (check_request(req, err, errlen) < 0)
        return -1;
    int width, height;
    dj_render_size(req->geo, req->map, &width, &height);
    layout *lay = calloc(1, sizeof *lay);
    if (!lay) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    cairo_rectangle_t extent = {0, 0, width, height};
    cairo_surface_t *surface =
        cairo_recording_surface_create(CAIRO_CONTENT_COLOR, &extent);
    cairo_t *cr = cairo_create(surface);
    draw_picture(cr, req, width, height, lay);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    *out = lay->pub;
    free(lay);
    return 0;
}

/*
 * An SVG: draw.c's drawing written by ink.c's SVG writer (on a recording
 * surface that receives nothing: the text's extents and the names'
 * placing need a context), in the document svg_board.c writes round it.
 */
static int render_svg(const dj_picture_request *req, int width, int height,
                      dj_picture *out, char *err, size_t errlen)
{
    layout *lay = malloc(sizeof *lay);
    char *drawn = NULL;
    size_t drawnlen = 0;
    FILE *m = lay ? open_memstream(&drawn, &drawnlen) : NULL;
    if (!m) {
        free(lay);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    layout_clear(lay);
    cairo_rectangle_t extent = {0, 0, width, height};
    cairo_surface_t *surface =
        cairo_recording_surface_create(CAIRO_CONTENT_COLOR, &extent);
    cairo_t *cr = cairo_create(surface);
    bool ok = ink_svg_attach(cr, m);
    if (ok) {
        draw_picture(cr, req, width, height, lay);
        ink_svg_detach(cr);
    }
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    ok = fclose(m) == 0 && ok;
    if (ok && st == CAIRO_STATUS_SUCCESS)
        ok = svg_board_write(req, lay, drawn, drawnlen, width, height,
                             &out->data, &out->len);
    free(drawn);
    free(lay);
    if (!ok || st != CAIRO_STATUS_SUCCESS) {
        snprintf(err, errlen, "drawing failed: %s",
                 st != CAIRO_STATUS_SUCCESS ? cairo_status_to_string(st)
                                            : "out of memory");
        return -1;
    }
    if (out->len > PICTURE_MAX) {
        dj_picture_free(out);
        snprintf(err, errlen, "drawing failed: the picture is too big");
        return -1;
    }
    return 0;
}

int dj_render_picture(const dj_picture_request *req, dj_picture_format fmt,
                      dj_picture *out, char *err, size_t errlen)
{
    out->data = NULL;
    out->len = 0;
    if (check_request(req, err, errlen) < 0)
        return -1;
    int width, height;
    dj_render_size(req->geo, req->map, &width, &height);
    if (fmt == DJ_PICTURE_SVG)
        return render_svg(req, width, height, out, err, errlen);
    sink k = {0};
    cairo_surface_t *surface;
    switch (fmt) {
    case DJ_PICTURE_PNG:
        surface = board_layer_canvas(req->geo, width, height);
        break;
    case DJ_PICTURE_PDF:
        surface = cairo_pdf_surface_create_for_stream(sink_write, &k, width,
                                                      height);
        break;
    default:
        snprintf(err, errlen, "no such picture format");
        return -1;
    }
    layout *lay = malloc(sizeof *lay);
    if (!lay) {
        cairo_surface_destroy(surface);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    layout_clear(lay);
    cairo_t *cr = cairo_create(surface);
    /* A raster picture's shapes are filled with cairo's faster coverage (a
     * few levels of an edge pixel, not 256): at a map's scale it looks the
     * same, in about a twelfth less time.  Text keeps its own. */
    if (fmt == DJ_PICTURE_PNG)
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST);
    draw_picture(cr, req, width, height, lay);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS && fmt == DJ_PICTURE_PNG &&
        !png_write_surface(surface, sink_write, &k) && !k.failed)
        st = CAIRO_STATUS_WRITE_ERROR;
    cairo_surface_finish(surface);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    free(lay);
    if (st != CAIRO_STATUS_SUCCESS || k.failed) {
        snprintf(err, errlen, "drawing failed: %s",
                 k.failed ? "out of memory" : cairo_status_to_string(st));
        free(k.b.data);
        return -1;
    }
    out->data = k.b.data;
    out->len = k.b.len;
    return 0;
}

void dj_picture_free(dj_picture *pic)
{
    free(pic->data);
    pic->data = NULL;
    pic->len = 0;
}

static const char *const names[] = {"png", "svg", "pdf", "none"};

int dj_picture_format_from_name(const char *name)
{
    if (!name)
        return -1;
    const char *dot = strrchr(name, '.');
    const char *word = dot ? dot + 1 : name;
    for (int i = 0; i < 4; i++)
        if (strcasecmp(word, names[i]) == 0 && !(dot && i == DJ_PICTURE_NONE))
            return i;
    return -1;
}

const char *dj_picture_format_name(dj_picture_format fmt)
{
    return (unsigned)fmt < 4 ? names[fmt] : "none";
}

const char *dj_picture_mime_type(dj_picture_format fmt)
{
    switch (fmt) {
    case DJ_PICTURE_PNG: return "image/png";
    case DJ_PICTURE_SVG: return "image/svg+xml";
    case DJ_PICTURE_PDF: return "application/pdf";
    default: return "application/octet-stream";
    }
}
