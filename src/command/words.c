/* SPDX-License-Identifier: MIT */
/*
 * words.c — splitting a command line into words, and the helpers the
 * argument parsers share.  See words.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "command/words.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/fmt.h"

bool cmd_words_is_space(const char *s)
{
    return *s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' ||
           *s == '\v' || ((unsigned char)s[0] == 0xC2 &&
                          (unsigned char)s[1] == 0xA0);
}

size_t cmd_words_space_len(const char *s)
{
    return (unsigned char)*s == 0xC2 ? 2 : 1;
}

void cmd_words_split(const char *line, words *ws)
{
    ws->n = 0;
    snprintf(ws->buf, sizeof ws->buf, "%s", line);
    char *p = ws->buf;
    while (*p) {
        while (*p && cmd_words_is_space(p)) {
            size_t k = cmd_words_space_len(p);
            memset(p, '\0', k);
            p += k;
        }
        if (!*p)
            break;
        if (ws->n == WORDS_MAX)
            break;
        ws->at[ws->n] = line + (p - ws->buf);
        ws->w[ws->n++] = p;
        while (*p && !cmd_words_is_space(p))
            p++;
    }
}

void cmd_words_rest(const words *ws, int i, char *out, size_t len)
{
    if (i >= ws->n) {
        snprintf(out, len, "%s", "");
        return;
    }
    snprintf(out, len, "%s", ws->at[i]);
    size_t n = strlen(out);
    while (n && cmd_words_is_space(out + n - 1))
        out[--n] = '\0';
    /* a trailing no-break space leaves its first byte */
    while (n && (unsigned char)out[n - 1] == 0xC2)
        out[--n] = '\0';
}

bool cmd_word_is(const char *w, const char *name)
{
    return strcasecmp(w, name) == 0;
}

bool cmd_word_copy(char *out, size_t len, const char *w)
{
    if (strlen(w) >= len)
        return false;
    memcpy(out, w, strlen(w) + 1);
    return true;
}

void cmd_bad(cmd *c, const char *fmt, ...)
{
    c->kind = CMD_BAD;
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt(c->error, sizeof c->error, fmt, ap);
    va_end(ap);
}

void cmd_mask_words(const words *ws, int from, int to, cmd *c)
{
    c->echo[0] = '\0';
    size_t used = 0;
    for (int i = 0; i < ws->n; i++) {
        bool hide = i >= from && (to < 0 || i < to);
        int k = snprintf(c->echo + used, sizeof c->echo - used, "%s%s",
                         i ? " " : "", hide ? CMD_MASK : ws->w[i]);
        if (k < 0 || (size_t)k >= sizeof c->echo - used)
            break;
        used += (size_t)k;
    }
}
