/* SPDX-License-Identifier: MIT */
/*
 * fmt.h — printf into a fixed, bounded buffer: the one formatter of the
 * error messages and notes every room fills into a caller's `err, errlen`
 * (or a struct's char array).
 *
 * Each function writes at most `cap` bytes, NUL included, cutting the
 * text to fit; a NULL buffer or a `cap` of 0 is left alone, so callers
 * that do not want the message pass NULL, 0.
 */
#ifndef DJ_UTIL_FMT_H
#define DJ_UTIL_FMT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* out = fmt...; true when the whole text fitted. */
bool dj_fmt(char *out, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool dj_vfmt(char *out, size_t cap, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* out = "FILE:LINE: fmt..." ("FILE: fmt..." when line <= 0, just fmt...
 * when file is NULL): the one shape of a message about a line of a file. */
void dj_fmt_at(char *out, size_t cap, const char *file, int line,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void dj_vfmt_at(char *out, size_t cap, const char *file, int line,
                const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

/* fmt... appended to the notes already in out, "; " between them; a note
 * is dropped when not even its first byte would fit after the "; ". */
void dj_fmt_note(char *out, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void dj_vfmt_note(char *out, size_t cap, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
