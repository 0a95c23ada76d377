/* SPDX-License-Identifier: MIT */
/*
 * buf.c — see buf.h.  Growth doubles the capacity; the buffer keeps a
 * terminating NUL at all times so data can be handed to C string APIs.
 */
#include "buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char empty[1];

void dj_buf_init(dj_buf *b)
{
    b->data = empty;
    b->len = b->cap = 0;
    b->failed = false;
}

void dj_buf_free(dj_buf *b)
{
    if (b->cap)
        free(b->data);
    dj_buf_init(b);
}

void dj_buf_reset(dj_buf *b)
{
    b->len = 0;
    if (b->cap)
        b->data[0] = '\0';
    b->failed = false;
}

static bool grow(dj_buf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) {
        if (cap > ((size_t)-1) / 2) {
            b->failed = true;
            return false;
        }
        cap *= 2;
    }
    char *p = b->cap ? realloc(b->data, cap) : malloc(cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    if (!b->cap)
        p[0] = '\0';
    b->data = p;
    b->cap = cap;
    return true;
}

void dj_buf_append_n(dj_buf *b, const char *s, size_t n)
{
    if (!grow(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void dj_buf_append(dj_buf *b, const char *s)
{
    dj_buf_append_n(b, s, strlen(s));
}

void dj_buf_vprintf(dj_buf *b, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0 || !grow(b, (size_t)n))
        return;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void dj_buf_printf(dj_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

bool dj_buf_ok(const dj_buf *b)
{
    return !b->failed;
}
