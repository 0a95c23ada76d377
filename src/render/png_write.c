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
 * runs), and the rows laid out from the runs; the palette's 256 are
 * picked from the thousands of edge colours without sorting them all; the
 * rows are left unfiltered (filters find nothing to gain on a palette
 * image: on Youngstown's board every filter makes it a fifth larger) and
 * compressed by zlib at level 1 with its strategy for runs, Z_RLE (the
 * standard board 100 KB, in a tenth less time than zlib's default
 * strategy, which makes it 98 KB).  A PNG over the 150 KB a mail's
 * picture may weigh that way (Youngstown's board, 1584 px wide: 184 KB)
 * is compressed again at level 8 with the default strategy (143 KB, 50 ms
 * more; level 6 leaves it a few hundred bytes over), and should it still
 * be over, at level 9 (140 KB, 120 ms more: zlib's longest searches, kept
 * for the rare picture that needs them).  An image of more colours than
 * the table holds is written as RGB.  cairo's own writer
 * (cairo_surface_write_to_png_stream) would write RGB with adaptive
 * filters: several times slower and twice the size.  A deflate of our own
 * (matches of the row above and runs only) took 17% less time for the
 * standard board's whole PNG than zlib's default strategy, about 8% less
 * than Z_RLE, and was not kept: one encoder, the one every PNG reader is
 * tested against.
 *
 * libpng reports errors by longjmp: everything touched after setjmp() is
 * either volatile or allocated before it, and freed on both paths.
 */
#include "render/png_write.h"

#include "render/bytes.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define PNG_ZLIB_LEVEL 1 /* with the strategy for runs */
/* zlib's levels, tried in turn while the PNG is larger than PNG_MAX (a
 * board of Youngstown's size). */
static const int png_levels[] = {PNG_ZLIB_LEVEL, 8, 9};
#define PNG_MAX 150000 /* bytes: what a mail's picture may weigh */
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
    uint16_t *order; /* the used slots, in the order met (no scan of all) */
} colour_table;

/* A run of pixels of one colour within a row: its slot and its length. */
typedef struct colour_run {
    uint16_t slot, len; /* TABLE_BITS and a board's 20000 px fit */
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
        t->order[t->used++] = (uint16_t)i;
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
    r->run[r->n++] = (colour_run){(uint16_t)slot, (uint16_t)len};
    return true;
}

/* The image read as runs of one colour, each colour counted; false when
 * it has too many colours for the table (then it is written as RGB). */
static bool read_runs(const unsigned char *pixels, int width, int height,
                      int stride, colour_table *t, image_runs *r)
{
    /* The slots of colours met lately, by a hash of the colour: most runs
     * are of a few colours (the sea, the land, the borders, an edge's
     * blends), found here without probing the big table. */
    enum { RECENT_BITS = 12 };
    uint32_t recent_rgb1[1 << RECENT_BITS] = {0};
    int32_t recent_slot[1 << RECENT_BITS];
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
            if (end - x > UINT16_MAX)
                end = x + UINT16_MAX;
            unsigned h = (rgb * 2654435761u) >> (32 - RECENT_BITS);
            int32_t slot = recent_rgb1[h] == rgb + 1 ? recent_slot[h]
                                                     : find_slot(t, rgb);
            recent_rgb1[h] = rgb + 1;
            recent_slot[h] = slot;
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

/* The palette in order of green, the component weighed most, so the
 * search for a colour's nearest can stop as soon as green alone is
 * farther than the best found. */
typedef struct palette_parts {
    int n;
    int32_t r[PALETTE_SIZE], g[PALETTE_SIZE], b[PALETTE_SIZE];
    int entry[PALETTE_SIZE]; /* the palette index of each */
} palette_parts;

static void palette_parts_make(palette_parts *p, const png_color *pal, int n)
{
    p->n = 0;
    for (int i = 0; i < n; i++) { /* insertion by green, then index */
        int k = p->n++;
        while (k > 0 && p->g[k - 1] > pal[i].green) {
            p->r[k] = p->r[k - 1];
            p->g[k] = p->g[k - 1];
            p->b[k] = p->b[k - 1];
            p->entry[k] = p->entry[k - 1];
            k--;
        }
        p->r[k] = pal[i].red;
        p->g[k] = pal[i].green;
        p->b[k] = pal[i].blue;
        p->entry[k] = i;
    }
}

/* The palette entry nearest to rgb, weighing green most, blue least (of
 * equally near ones, the first). */
static int nearest(const palette_parts *p, uint32_t rgb)
{
    int32_t r = (int32_t)(rgb >> 16 & 255), g = (int32_t)(rgb >> 8 & 255),
            b = (int32_t)(rgb & 255);
    int lo = 0, hi = p->n;
    while (lo < hi) { /* the first entry with green >= g */
        int mid = (lo + hi) / 2;
        if (p->g[mid] < g)
            lo = mid + 1;
        else
            hi = mid;
    }
    int32_t best = INT32_MAX;
    int best_entry = 0;
    bool up = true, down = true;
    for (int step = 0; up || down; step++) {
        int k = step % 2 ? lo - 1 - step / 2 : lo + step / 2;
        bool *side = step % 2 ? &down : &up;
        if (!*side)
            continue;
        if (k < 0 || k >= p->n || 4 * (p->g[k] - g) * (p->g[k] - g) > best) {
            *side = false; /* every entry beyond is farther in green */
            continue;
        }
        int32_t d = 3 * (r - p->r[k]) * (r - p->r[k]) +
                    4 * (g - p->g[k]) * (g - p->g[k]) +
                    2 * (b - p->b[k]) * (b - p->b[k]);
        if (d < best || (d == best && p->entry[k] < best_entry)) {
            best = d;
            best_entry = p->entry[k];
        }
    }
    return best_entry;
}

/* The palette (in pal, *npal entries) and each colour's index in it. */
static bool choose_palette(colour_table *t, png_color *pal, int *npal)
{
    colour_slot **all = malloc(sizeof *all * (size_t)t->used);
    if (!all)
        return false;
    int n = 0;
    for (int i = 0; i < t->used; i++)
        all[n++] = &t->slot[t->order[i]];
    commonest_first(all, n, PALETTE_SIZE);
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
    palette_parts parts;
    palette_parts_make(&parts, pal, *npal);
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

/* The PNG's bytes, in memory until its size is known. */
/* The PNG's bytes gather in memory until its size is known. */
typedef bytes sink_ctx;

static bool sink_put(sink_ctx *s, const unsigned char *data, size_t len)
{
    return bytes_append(s, data, len);
}

static void on_write(png_structp png, png_bytep data, size_t len)
{
    if (!sink_put(png_get_io_ptr(png), data, len))
        png_error(png, "out of memory");
}

static void on_flush(png_structp png)
{
    (void)png;
}

/* The PNG written: a palette image from the runs when index_of is not
 * NULL, else RGB from the pixels.  Alone in its function, so that
 * setjmp() has only its own locals to care for. */
static bool write_png(const unsigned char *pixels, int width, int height,
                      int stride, const image_runs *runs,
                      const unsigned char *index_of, const png_color *pal,
                      int npal, int level, sink_ctx *sink)
{
    unsigned char *row = malloc((size_t)width * 3);
    png_structp png = row ? png_create_write_struct(PNG_LIBPNG_VER_STRING,
                                                    NULL, NULL, NULL)
                          : NULL;
    png_infop info = png ? png_create_info_struct(png) : NULL;
    volatile bool ok = false;
    if (info && setjmp(png_jmpbuf(png)) == 0) {
        png_set_write_fn(png, sink, on_write, on_flush);
        png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                     index_of ? PNG_COLOR_TYPE_PALETTE : PNG_COLOR_TYPE_RGB,
                     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                     PNG_FILTER_TYPE_DEFAULT);
        if (index_of)
            png_set_PLTE(png, info, pal, npal);
        png_set_compression_level(png, level);
        if (level == PNG_ZLIB_LEVEL) /* runs only: a map's rows are runs */
            png_set_compression_strategy(png, Z_RLE);
        else /* zlib's largest tables: 1% smaller at the same speed */
            png_set_compression_mem_level(png, 9);
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
        png_write_info(png, info);
        size_t next = 0; /* the next run */
        for (int y = 0; y < height; y++) {
            if (index_of) {
                /* The row's runs, each its colour's index. */
                for (int x = 0; x < width; next++) {
                    const colour_run *r = &runs->run[next];
                    unsigned char index = index_of[r->slot];
                    if (r->len <= 8) /* an edge's: shorter than a call */
                        for (int k = 0; k < r->len; k++)
                            row[x + k] = index;
                    else
                        memset(row + x, index, r->len);
                    x += r->len;
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
        ok = true;
    }
    if (png)
        png_destroy_write_struct(&png, info ? &info : NULL);
    free(row);
    return ok;
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
                          ((uint32_t)1 << TABLE_BITS) - 1, 0,
                          malloc(sizeof(uint16_t) << (TABLE_BITS - 1))};
    if (!table.order) {
        free(table.slot);
        table.slot = NULL; /* RGB, through libpng */
    }
    image_runs runs = {NULL, 0, 0};
    png_color pal[PALETTE_SIZE];
    int npal = 0;
    bool indexed = table.slot &&
                   read_runs(pixels, width, height, stride, &table, &runs) &&
                   choose_palette(&table, pal, &npal);
    /* Each slot's palette index in a table small enough to stay in the
     * processor's cache while the rows are written. */
    unsigned char *index_of = indexed ? malloc((size_t)1 << TABLE_BITS) : NULL;
    if (index_of)
        for (int i = 0; i < table.used; i++)
            index_of[table.order[i]] =
                (unsigned char)table.slot[table.order[i]].index;
    free(table.slot);
    free(table.order);
    sink_ctx sink = {NULL, 0, 0};
    bool ok = true;
    for (size_t i = 0; ok && i < sizeof png_levels / sizeof png_levels[0] &&
                       (i == 0 || sink.len > PNG_MAX);
         i++) {
        sink.len = 0;
        ok = write_png(pixels, width, height, stride, &runs, index_of, pal,
                       npal, png_levels[i], &sink);
    }
    for (size_t at = 0; ok && at < sink.len;) {
        size_t n = sink.len - at < (1u << 30) ? sink.len - at : (1u << 30);
        ok = write(closure, sink.data + at, (unsigned int)n) ==
             CAIRO_STATUS_SUCCESS;
        at += n;
    }
    free(sink.data);
    free(index_of);
    free(runs.run);
    return ok;
}
