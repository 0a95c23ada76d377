/* SPDX-License-Identifier: MIT */
/*
 * png_write.c — PNG encoding for pictures of the board.
 *
 * A map is large areas of a few flat colours with thin antialiased edges
 * and text.  Written as 24-bit RGB it weighs about 170 KB (the standard
 * board with a phase's orders, its names with halos); written as a
 * palette of 256 colours, unfiltered, it weighs about a third of that and
 * looks the same: the palette is the image's own colours when it has no
 * more than 256, else its 256 commonest (every flat colour of the board,
 * the powers', the text's) with each rarer colour — a few pixels of an
 * antialiased edge each — drawn in the nearest of them.  Unfiltered rows
 * at zlib level 6: filters choose nothing that helps on a palette image.
 * cairo's own writer (cairo_surface_write_to_png_stream) would write RGB
 * with adaptive filters, slower and twice the size.
 *
 * libpng reports errors by longjmp: everything touched after setjmp() is
 * either volatile or allocated before it, and freed on both paths.
 */
#include "render/png_write.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>

#define PNG_ZLIB_LEVEL 4
#define PALETTE_SIZE 256
#define TABLE_BITS 16 /* colour table slots: twice what a board has colours */

/* One colour of the image: its xRGB value (+1, so 0 is an empty slot),
 * how many pixels have it, its palette index once chosen. */
typedef struct colour_slot {
    uint32_t rgb1;
    uint32_t count;
    int index;
} colour_slot;

typedef struct colour_table {
    colour_slot *slot;
    uint32_t mask;
    int used;
} colour_table;

static colour_slot *find_slot(colour_table *t, uint32_t rgb)
{
    uint32_t key = (rgb & 0xffffff) + 1;
    uint32_t i = (key * 2654435761u) >> (32 - TABLE_BITS);
    while (t->slot[i].rgb1 && t->slot[i].rgb1 != key)
        i = (i + 1) & t->mask;
    if (!t->slot[i].rgb1) {
        if (t->used >= (int)(t->mask / 2))
            return NULL; /* too many colours for the table */
        t->slot[i].rgb1 = key;
        t->slot[i].index = -1;
        t->used++;
    }
    return &t->slot[i];
}

static int by_count(const void *a, const void *b)
{
    const colour_slot *x = *(colour_slot *const *)a;
    const colour_slot *y = *(colour_slot *const *)b;
    return x->count < y->count ? 1 : x->count > y->count ? -1
           : x->rgb1 < y->rgb1 ? -1 : x->rgb1 > y->rgb1;
}

static int distance(uint32_t a, uint32_t b)
{
    int dr = (int)(a >> 16 & 255) - (int)(b >> 16 & 255);
    int dg = (int)(a >> 8 & 255) - (int)(b >> 8 & 255);
    int db = (int)(a & 255) - (int)(b & 255);
    return 3 * dr * dr + 4 * dg * dg + 2 * db * db;
}

/*
 * The palette (in pal, *npal entries) and each colour's index in it.
 * false when the image has too many colours for the table (then it is
 * written as RGB).
 */
static bool choose_palette(const unsigned char *pixels, int width, int height,
                           int stride, colour_table *t, png_color *pal,
                           int *npal)
{
    for (int y = 0; y < height; y++) {
        const uint32_t *px = (const uint32_t *)(pixels + (size_t)y * stride);
        uint32_t last = 0;
        colour_slot *c = NULL;
        for (int x = 0; x < width; x++) {
            /* The top byte of cairo's RGB24 is unused: not colour. */
            if (!c || (px[x] & 0xffffff) != last) {
                last = px[x] & 0xffffff;
                if (!(c = find_slot(t, last)))
                    return false;
            }
            c->count++;
        }
    }
    colour_slot **all = malloc(sizeof *all * (size_t)t->used);
    if (!all)
        return false;
    int n = 0;
    for (uint32_t i = 0; i <= t->mask; i++)
        if (t->slot[i].rgb1)
            all[n++] = &t->slot[i];
    qsort(all, (size_t)n, sizeof *all, by_count);
    *npal = n < PALETTE_SIZE ? n : PALETTE_SIZE;
    for (int i = 0; i < *npal; i++) {
        uint32_t rgb = all[i]->rgb1 - 1;
        all[i]->index = i;
        pal[i].red = (png_byte)(rgb >> 16);
        pal[i].green = (png_byte)(rgb >> 8);
        pal[i].blue = (png_byte)rgb;
    }
    /* The rarer colours: the palette's nearest, searched once per cell of
     * a 32 x 32 x 32 grid (an edge's blends fall in few cells). */
    int16_t *near = malloc(sizeof *near * 32768);
    if (!near) {
        free(all);
        return false;
    }
    for (int i = 0; i < 32768; i++)
        near[i] = -1;
    for (int i = *npal; i < n; i++) {
        uint32_t rgb = all[i]->rgb1 - 1;
        int cell = (int)((rgb >> 9 & 0x7c00) | (rgb >> 6 & 0x3e0) |
                         (rgb >> 3 & 0x1f));
        if (near[cell] < 0) {
            int best = 0, bestd = 1 << 30;
            for (int k = 0; k < *npal; k++) {
                int d = distance(rgb, all[k]->rgb1 - 1);
                if (d < bestd)
                    bestd = d, best = k;
            }
            near[cell] = (int16_t)best;
        }
        all[i]->index = near[cell];
    }
    free(near);
    free(all);
    return true;
}

typedef struct sink_ctx {
    png_write_fn write;
    void *closure;
    bool failed;
} sink_ctx;

static void on_write(png_structp png, png_bytep data, size_t len)
{
    sink_ctx *s = png_get_io_ptr(png);
    if (s->failed)
        return;
    if (len > UINT32_MAX ||
        s->write(s->closure, data, (unsigned int)len) != CAIRO_STATUS_SUCCESS) {
        s->failed = true;
        png_error(png, "cannot write the picture");
    }
}

static void on_flush(png_structp png)
{
    (void)png;
}

bool png_write_surface(cairo_surface_t *image, png_write_fn write,
                       void *closure)
{
    cairo_surface_flush(image);
    if (cairo_image_surface_get_format(image) != CAIRO_FORMAT_RGB24)
        return false;
    int width = cairo_image_surface_get_width(image);
    int height = cairo_image_surface_get_height(image);
    int stride = cairo_image_surface_get_stride(image);
    const unsigned char *pixels = cairo_image_surface_get_data(image);
    if (!pixels || width <= 0 || height <= 0)
        return false;
    colour_table table = {calloc((size_t)1 << TABLE_BITS, sizeof(colour_slot)),
                          ((uint32_t)1 << TABLE_BITS) - 1, 0};
    png_color pal[PALETTE_SIZE];
    int npal = 0;
    bool indexed = table.slot && choose_palette(pixels, width, height, stride,
                                                &table, pal, &npal);
    unsigned char *row = table.slot ? malloc((size_t)width * 3) : NULL;
    png_structp png = row ? png_create_write_struct(PNG_LIBPNG_VER_STRING,
                                                    NULL, NULL, NULL)
                          : NULL;
    png_infop info = png ? png_create_info_struct(png) : NULL;
    sink_ctx sink = {write, closure, false};
    volatile bool ok = false;
    if (info && setjmp(png_jmpbuf(png)) == 0) {
        png_set_write_fn(png, &sink, on_write, on_flush);
        png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                     indexed ? PNG_COLOR_TYPE_PALETTE : PNG_COLOR_TYPE_RGB,
                     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                     PNG_FILTER_TYPE_DEFAULT);
        if (indexed)
            png_set_PLTE(png, info, pal, npal);
        png_set_compression_level(png, PNG_ZLIB_LEVEL);
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
        png_write_info(png, info);
        for (int y = 0; y < height; y++) {
            /* cairo's RGB24: a native-endian uint32 per pixel, xRGB. */
            const uint32_t *px = (const uint32_t *)(pixels + (size_t)y * stride);
            uint32_t last = 0;
            int index = -1;
            for (int x = 0; x < width; x++) {
                if (!indexed) {
                    row[3 * x] = (unsigned char)(px[x] >> 16);
                    row[3 * x + 1] = (unsigned char)(px[x] >> 8);
                    row[3 * x + 2] = (unsigned char)px[x];
                    continue;
                }
                if (index < 0 || (px[x] & 0xffffff) != last) {
                    last = px[x] & 0xffffff;
                    index = find_slot(&table, last)->index;
                }
                row[x] = (unsigned char)index;
            }
            png_write_row(png, row);
        }
        png_write_end(png, info);
        ok = !sink.failed;
    }
    if (png)
        png_destroy_write_struct(&png, info ? &info : NULL);
    free(row);
    free(table.slot);
    return ok;
}
