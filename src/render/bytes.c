/* SPDX-License-Identifier: MIT */
/*
 * bytes.c — see bytes.h: the array doubles as it fills, from 64 KB (a
 * picture's bytes are tens of kilobytes at least).
 */
#include "render/bytes.h"

#include <stdlib.h>
#include <string.h>

bool bytes_reserve(bytes *b, size_t more)
{
    if (more <= b->cap - b->len)
        return true;
    size_t cap = b->cap ? b->cap : 65536;
    while (cap - b->len < more) {
        if (cap > (size_t)-1 / 2)
            return false;
        cap *= 2;
    }
    unsigned char *grown = realloc(b->data, cap);
    if (!grown)
        return false;
    b->data = grown;
    b->cap = cap;
    return true;
}

bool bytes_append(bytes *b, const void *data, size_t n)
{
    if (!bytes_reserve(b, n))
        return false;
    if (n)
        memcpy(b->data + b->len, data, n);
    b->len += n;
    return true;
}
