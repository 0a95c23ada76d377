/* SPDX-License-Identifier: MIT */
/*
 * png_write.c — PNG encoding for pictures of the board.
 *
 * A map is large areas of a few flat colours with thin antialiased edges
 * and text.  Written as 24-bit RGB it weighs about 170 KB (the standard
 * board with a phase's orders, its names with halos); written as a
 * palette of 256 colours, unfiltered, it weighs under half of that and
 * looks the same: the palette is the image's own colours when it has no
 * more than 256, else its 256 commonest (every flat colour of the board,
 * the powers', the text's) with each rarer colour — a few pixels of an
 * antialiased edge each — drawn in the nearest of them.
 *
 * Made for speed, since a picture is drawn for every phase of every game:
 * the image is read once, as runs of one colour (a board's rows are long
 * runs), and the rows written from the runs; the palette's 256 are picked
 * from the thousands of edge colours without sorting them all; the rows
 * are left unfiltered (filters find nothing to gain on a palette image)
 * and deflated at zlib's level 1, which takes half the time of level 4
 * for a file a tenth larger (the standard board about 72 KB, Youngstown
 * about 148 KB).  cairo's own writer (cairo_surface_write_to_png_stream)
 * would write RGB with adaptive filters: several times slower and twice
 * the size.
 *
 * libpng reports errors by longjmp: everything touched after setjmp() is
 * either volatile or allocated before it, and freed on both paths.
 */
#include "render/png_write.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PNG_ZLIB_LEVEL 1
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

/* A run of pixels of one colour within a row: its slot and its length. */
typedef struct colour_run {
    uint32_t slot, len;
} colour_run;

typedef struct image_runs {
    colour_run *run;
    size_t n, cap;
} image_runs;

/* The slot of a colour (made when new), or -1 when the table is full. */
static int32_t find_slot(colour_table *t, uint32_t rgb)
{
    uint32_t key = (rgb & 0xffffff) + 1;
    uint32_t i = (key * 2654435761u) >> (32 - TABLE_BITS);
    while (t->slot[i].rgb1 && t->slot[i].rgb1 != key)
        i = (i + 1) & t->mask;
    if (!t->slot[i].rgb1) {
        if (t->used >= (int)(t->mask / 2))
            return -1; /* too many colours for the table */
        t->slot[i].rgb1 = key;
        t->slot[i].index = -1;
        t->used++;
    }
    return (int32_t)i;
}

static bool add_run(image_runs *r, uint32_t slot, uint32_t len)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 65536;
        colour_run *grown = realloc(r->run, cap * sizeof *grown);
        if (!grown)
            return false;
        r->run = grown;
        r->cap = cap;
    }
    r->run[r->n++] = (colour_run){slot, len};
    return true;
}

/* The image read as runs of one colour, each colour counted; false when
 * it has too many colours for the table (then it is written as RGB). */
static bool read_runs(const unsigned char *pixels, int width, int height,
                      int stride, colour_table *t, image_runs *r)
{
    for (int y = 0; y < height; y++) {
        /* cairo's RGB24: a native-endian uint32 per pixel, xRGB; the top
         * byte is unused, not colour. */
        const uint32_t *px = (const uint32_t *)(pixels + (size_t)y * stride);
        int x = 0;
        while (x < width) {
            uint32_t rgb = px[x] & 0xffffff;
            int end = x + 1;
            /* Two pixels at a time while both are this colour. */
            const uint64_t two = (uint64_t)rgb << 32 | rgb,
                           colour_bits = 0x00ffffff00ffffffull;
            for (uint64_t pair; end + 1 < width; end += 2) {
                memcpy(&pair, px + end, sizeof pair);
                if ((pair & colour_bits) != two)
                    break;
            }
            while (end < width && (px[end] & 0xffffff) == rgb)
                end++;
            int32_t slot = find_slot(t, rgb);
            if (slot < 0 || !add_run(r, (uint32_t)slot, (uint32_t)(end - x)))
                return false;
            t->slot[slot].count += (uint32_t)(end - x);
            x = end;
        }
    }
    return true;
}

/* Is colour a commoner than b (ties: the lower value first, so the choice
 * is the same every time)? */
static bool commoner(const colour_slot *a, const colour_slot *b)
{
    return a->count != b->count ? a->count > b->count : a->rgb1 < b->rgb1;
}

static int by_count(const void *a, const void *b)
{
    const colour_slot *x = *(colour_slot *const *)a;
    const colour_slot *y = *(colour_slot *const *)b;
    return commoner(x, y) ? -1 : commoner(y, x);
}

/* heap[0..n-1] a heap with its rarest colour on top: move the top down to
 * its place. */
static void sift_down(colour_slot **heap, int n, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, least = i;
        if (l < n && commoner(heap[least], heap[l]))
            least = l;
        if (r < n && commoner(heap[least], heap[r]))
            least = r;
        if (least == i)
            return;
        colour_slot *t = heap[i];
        heap[i] = heap[least];
        heap[least] = t;
        i = least;
    }
}

/*
 * The `keep` commonest colours of all[0..n-1] moved to its front, in
 * order, commonest first: a heap of the best so far, so each of the many
 * rare colours (an edge's blends) costs one comparison, not a sort.
 */
static void commonest_first(colour_slot **all, int n, int keep)
{
    if (n > keep) {
        for (int i = keep / 2 - 1; i >= 0; i--)
            sift_down(all, keep, i);
        for (int i = keep; i < n; i++)
            if (commoner(all[i], all[0])) {
                colour_slot *t = all[0];
                all[0] = all[i];
                all[i] = t;
                sift_down(all, keep, 0);
            }
    }
    qsort(all, (size_t)(n < keep ? n : keep), sizeof *all, by_count);
}

/*
 * The palette as three arrays of components, padded to PALETTE_SIZE with
 * colours no pixel is near: the distances to all of them are then one
 * loop the compiler turns into vector instructions.
 */
typedef struct palette_parts {
    int32_t r[PALETTE_SIZE], g[PALETTE_SIZE], b[PALETTE_SIZE];
} palette_parts;

/* The palette entry nearest to rgb, weighing green most, blue least. */
static int nearest(const palette_parts *p, uint32_t rgb)
{
    int32_t r = (int32_t)(rgb >> 16 & 255), g = (int32_t)(rgb >> 8 & 255),
            b = (int32_t)(rgb & 255);
    int32_t d[PALETTE_SIZE];
    for (int k = 0; k < PALETTE_SIZE; k++)
        d[k] = 3 * (r - p->r[k]) * (r - p->r[k]) +
               4 * (g - p->g[k]) * (g - p->g[k]) +
               2 * (b - p->b[k]) * (b - p->b[k]);
    int best = 0;
    for (int k = 1; k < PALETTE_SIZE; k++)
        if (d[k] < d[best])
            best = k;
    return best;
}

/* The palette (in pal, *npal entries) and each colour's index in it. */
static bool choose_palette(colour_table *t, png_color *pal, int *npal)
{
    colour_slot **all = malloc(sizeof *all * (size_t)t->used);
    if (!all)
        return false;
    int n = 0;
    for (uint32_t i = 0; i <= t->mask; i++)
        if (t->slot[i].rgb1)
            all[n++] = &t->slot[i];
    commonest_first(all, n, PALETTE_SIZE);
    *npal = n < PALETTE_SIZE ? n : PALETTE_SIZE;
    palette_parts parts;
    for (int i = 0; i < PALETTE_SIZE; i++) {
        uint32_t rgb = i < *npal ? all[i]->rgb1 - 1 : 0;
        parts.r[i] = i < *npal ? (int32_t)(rgb >> 16) : 10000;
        parts.g[i] = i < *npal ? (int32_t)(rgb >> 8 & 255) : 10000;
        parts.b[i] = i < *npal ? (int32_t)(rgb & 255) : 10000;
        if (i >= *npal)
            continue;
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
        if (near[cell] < 0)
            near[cell] = (int16_t)nearest(&parts, rgb);
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
    image_runs runs = {NULL, 0, 0};
    png_color pal[PALETTE_SIZE];
    int npal = 0;
    bool indexed = table.slot &&
                   read_runs(pixels, width, height, stride, &table, &runs) &&
                   choose_palette(&table, pal, &npal);
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
        size_t next = 0; /* the next run */
        for (int y = 0; y < height; y++) {
            if (indexed) {
                /* The row's runs, each its colour's index. */
                for (int x = 0; x < width; next++) {
                    const colour_run *r = &runs.run[next];
                    memset(row + x, table.slot[r->slot].index, r->len);
                    x += (int)r->len;
                }
            } else {
                const uint32_t *px =
                    (const uint32_t *)(pixels + (size_t)y * stride);
                for (int x = 0; x < width; x++) {
                    row[3 * x] = (unsigned char)(px[x] >> 16);
                    row[3 * x + 1] = (unsigned char)(px[x] >> 8);
                    row[3 * x + 2] = (unsigned char)px[x];
                }
            }
            png_write_row(png, row);
        }
        png_write_end(png, info);
        ok = !sink.failed;
    }
    if (png)
        png_destroy_write_struct(&png, info ? &info : NULL);
    free(row);
    free(runs.run);
    free(table.slot);
    return ok;
}
