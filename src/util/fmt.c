/* SPDX-License-Identifier: MIT */
/*
 * fmt.c — printf into fixed, bounded buffers (error messages, notes).
 * See fmt.h.
 */
#define _POSIX_C_SOURCE 200809L /* strnlen */

#include "util/fmt.h"

#include <stdio.h>
#include <string.h>

bool dj_vfmt(char *out, size_t cap, const char *fmt, va_list ap)
{
    if (!out || cap == 0)
        return false;
    int n = vsnprintf(out, cap, fmt, ap);
    if (n < 0) {
        out[0] = '\0';
        return false;
    }
    return (size_t)n < cap;
}

bool dj_fmt(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bool fitted = dj_vfmt(out, cap, fmt, ap);
    va_end(ap);
    return fitted;
}

void dj_vfmt_at(char *out, size_t cap, const char *file, int line,
                const char *fmt, va_list ap)
{
    if (!out || cap == 0)
        return;
    int n = 0;
    if (file)
        n = line > 0 ? snprintf(out, cap, "%s:%d: ", file, line)
                     : snprintf(out, cap, "%s: ", file);
    if (n < 0)
        n = 0;
    if ((size_t)n >= cap)
        return; /* the prefix alone filled it */
    dj_vfmt(out + n, cap - (size_t)n, fmt, ap);
}

void dj_fmt_at(char *out, size_t cap, const char *file, int line,
               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt_at(out, cap, file, line, fmt, ap);
    va_end(ap);
}

void dj_vfmt_note(char *out, size_t cap, const char *fmt, va_list ap)
{
    if (!out || cap == 0)
        return;
    size_t n = strnlen(out, cap - 1);
    if (n > 0) {
        if (n + 3 >= cap)
            return; /* no room for another note */
        memcpy(out + n, "; ", 3);
        n += 2;
    }
    dj_vfmt(out + n, cap - n, fmt, ap);
}

void dj_fmt_note(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt_note(out, cap, fmt, ap);
    va_end(ap);
}
