/*
 * png_write.c — PNG encoding for pictures of the board.
 *
 * cairo_surface_write_to_png_stream() uses libpng's defaults: adaptive
 * filtering and zlib level 6.  On a map (large areas of flat colour, thin
 * antialiased borders) that spends 22 ms of a 28 ms picture choosing
 * filters that do not help: unfiltered rows at zlib level 3 encode the
 * standard board in about 5 ms and come out smaller (bench/bench_render:
 * 107 KB against 119 KB).  So this writes the RGB24 image itself, row by
 * row, with libpng.
 *
 * libpng reports errors by longjmp: everything touched after setjmp() is
 * either volatile or allocated before it, and freed on both paths.
 */
#include "render/png_write.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>

#define PNG_ZLIB_LEVEL 3

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
    unsigned char *row = malloc((size_t)width * 3);
    png_structp png = row ? png_create_write_struct(PNG_LIBPNG_VER_STRING,
                                                    NULL, NULL, NULL)
                          : NULL;
    png_infop info = png ? png_create_info_struct(png) : NULL;
    sink_ctx sink = {write, closure, false};
    volatile bool ok = false;
    if (info && setjmp(png_jmpbuf(png)) == 0) {
        png_set_write_fn(png, &sink, on_write, on_flush);
        png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                     PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_set_compression_level(png, PNG_ZLIB_LEVEL);
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
        png_write_info(png, info);
        for (int y = 0; y < height; y++) {
            /* cairo's RGB24: a native-endian uint32 per pixel, xRGB. */
            const uint32_t *px = (const uint32_t *)(pixels + (size_t)y * stride);
            for (int x = 0; x < width; x++) {
                row[3 * x] = (unsigned char)(px[x] >> 16);
                row[3 * x + 1] = (unsigned char)(px[x] >> 8);
                row[3 * x + 2] = (unsigned char)px[x];
            }
            png_write_row(png, row);
        }
        png_write_end(png, info);
        ok = !sink.failed;
    }
    if (png)
        png_destroy_write_struct(&png, info ? &info : NULL);
    free(row);
    return ok;
}
