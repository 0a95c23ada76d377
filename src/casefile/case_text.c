/* SPDX-License-Identifier: MIT */
/*
 * case_text.c — the small text helpers both halves of the case-file
 * reader use (casefile_int.h): a "file:line: message" error, and ASCII
 * words compared in any case.  Apart from casefile.c so that casefile.c
 * (lines, keywords, CASE to END) uses case_lines.c (a section's lines,
 * END) and neither is used back.
 */
#include "casefile/casefile_int.h"

#include <stdarg.h>

#include "util/fmt.h"

bool cf_equal_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (cf_lower(*a) != cf_lower(*b))
            return false;
    return *a == *b;
}

bool cf_prefix_nocase(const char *prefix, const char *s)
{
    for (; *prefix; prefix++, s++)
        if (cf_lower(*prefix) != cf_lower(*s))
            return false;
    return true;
}

void cf_errorf(const dj_casefile *cf, int line, char *err, size_t errlen,
               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt_at(err, errlen, cf->path, line, fmt, ap);
    va_end(ap);
}
