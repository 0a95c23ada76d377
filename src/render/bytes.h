/* SPDX-License-Identifier: MIT */
/*
 * bytes.h — a growing array of bytes (render room only): where a
 * picture's bytes are gathered as its writers make them.
 */
#ifndef DJ_RENDER_BYTES_H
#define DJ_RENDER_BYTES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct bytes {
    unsigned char *data; /* malloc'd; free() it */
    size_t len, cap;
} bytes;

/* Room for `more` bytes after len; false when out of memory. */
bool bytes_reserve(bytes *b, size_t more);
/* n bytes appended; false (nothing appended) when out of memory. */
bool bytes_append(bytes *b, const void *data, size_t n);

#endif
