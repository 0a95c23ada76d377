/* SPDX-License-Identifier: MIT */
/*
 * buf.h — a growable, always NUL-terminated string buffer.
 *
 * Every text the judge produces (reports, replies, exports) is built in a
 * dj_buf: appends never overflow; an allocation failure is remembered and
 * reported once by dj_buf_ok(), so callers check at the end, not per call.
 */
#ifndef DJ_UTIL_BUF_H
#define DJ_UTIL_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct dj_buf {
    char *data;   /* NUL-terminated; "" when empty (never NULL after init) */
    size_t len;
    size_t cap;
    bool failed;  /* an allocation failed: contents are truncated */
} dj_buf;

void dj_buf_init(dj_buf *b);
void dj_buf_free(dj_buf *b);
void dj_buf_reset(dj_buf *b);
void dj_buf_append(dj_buf *b, const char *s);
void dj_buf_append_n(dj_buf *b, const char *s, size_t n);
void dj_buf_printf(dj_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void dj_buf_vprintf(dj_buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
bool dj_buf_ok(const dj_buf *b);

#endif
