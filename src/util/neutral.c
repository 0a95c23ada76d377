/* SPDX-License-Identifier: MIT */
/*
 * neutral.c — press text made safe to show (see neutral.h): one pass
 * over the lines, decoding UTF-8 only to find the code points to name.
 */
#include "util/neutral.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

/* The code point at p (n bytes left) and its length; 0 length when the
 * bytes are not a well-formed sequence. */
static size_t decode(const unsigned char *p, size_t n, uint32_t *cp)
{
    if (p[0] < 0x80) {
        *cp = p[0];
        return 1;
    }
    size_t len = p[0] >= 0xf0 && p[0] < 0xf5   ? 4
                 : p[0] >= 0xe0 && p[0] < 0xf0 ? 3
                 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2
                                               : 0;
    if (!len || len > n)
        return 0;
    uint32_t v = p[0] & (0x7f >> len);
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (p[i] & 0x3f);
    }
    if ((len == 3 && v < 0x800) || (len == 4 && (v < 0x10000 || v > 0x10ffff)))
        return 0;
    *cp = v;
    return len;
}

static bool hidden(uint32_t c)
{
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f ||
           (c >= 0x80 && c < 0xa0) || c == 0x61c || c == 0x180e ||
           (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) ||
           (c >= 0x2060 && c <= 0x2064) || (c >= 0x2066 && c <= 0x2069) ||
           c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb) ||
           (c >= 0xe0000 && c <= 0xe007f);
}

/* Would the line (its start, after white space) pass for the judge's? */
static bool judge_like(const char *l, size_t n)
{
    while (n && (*l == ' ' || *l == '\t'))
        l++, n--;
    static const char *const starts[] = {
        "game '",   "---",   "from:",     "to:",
        "subject:", "date:", "reply-to:", "sender:"};
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        size_t k = strlen(starts[i]);
        if (n >= k && strncasecmp(l, starts[i], k) == 0)
            return true;
    }
    return false;
}

void dj_text_neutralise(const char *text, dj_buf *out)
{
    const char *p = text ? text : "";
    while (*p) {
        size_t n = strcspn(p, "\n");
        /* judge the line as it will look, format characters named */
        dj_buf line;
        dj_buf_init(&line);
        const unsigned char *u = (const unsigned char *)p;
        for (size_t i = 0; i < n;) {
            uint32_t cp = 0;
            size_t len = decode(u + i, n - i, &cp);
            if (!len) { /* not UTF-8: as it is */
                dj_buf_append_n(&line, (const char *)u + i, 1);
                i++;
                continue;
            }
            if (hidden(cp))
                dj_buf_printf(&line, "[U+%04X]", (unsigned)cp);
            else
                dj_buf_append_n(&line, (const char *)u + i, len);
            i += len;
        }
        if (line.len && judge_like(line.data, line.len))
            dj_buf_append(out, "> ");
        if (line.len)
            dj_buf_append_n(out, line.data, line.len);
        dj_buf_free(&line);
        p += n;
        if (*p == '\n') {
            dj_buf_append(out, "\n");
            p++;
        }
    }
}
