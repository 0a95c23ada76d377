/* SPDX-License-Identifier: MIT */
/*
 * png_write.h — a cairo image surface written as PNG, tuned for maps
 * (render room only).  See png_write.c for why not cairo's own writer.
 */
#ifndef DJ_RENDER_PNG_WRITE_H
#define DJ_RENDER_PNG_WRITE_H

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>

/* Append the PNG bytes through write(closure, data, len); false on error. */
typedef cairo_status_t (*png_write_fn)(void *closure,
                                       const unsigned char *data,
                                       unsigned int len);
bool png_write_surface(cairo_surface_t *image, png_write_fn write,
                       void *closure);

#endif
