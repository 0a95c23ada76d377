/* SPDX-License-Identifier: MIT */
/*
 * array.c — growing an array by doubling.  See array.h.
 */
#include "util/array.h"

#include <stdint.h>
#include <stdlib.h>

void *dj_array_grow(void *v, size_t *cap, size_t n, size_t size, size_t first)
{
    if (n < *cap)
        return v;
    size_t ncap = *cap ? *cap * 2 : first;
    if (ncap <= n || ncap > SIZE_MAX / size)
        return NULL;
    void *p = realloc(v, ncap * size);
    if (p)
        *cap = ncap;
    return p;
}
