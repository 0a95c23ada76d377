/* SPDX-License-Identifier: MIT */
/*
 * form.c — decoding form bodies and cookies.  See form.h.
 */
#include "web/form.h"
#include "util/hex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Decode s[0..n) into out (at least n bytes); returns the length, or -1
 * on a bad escape or a NUL byte.  CR LF becomes LF. */
static long decode(const char *s, size_t n, char *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '+') {
            c = ' ';
        } else if (c == '%') {
            if (i + 2 >= n)
                return -1;
            int b = dj_hex_pair(s + i + 1);
            if (b < 0)
                return -1;
            c = (char)b;
            i += 2;
        }
        if (c == '\0')
            return -1;
        if (c == '\n' && k > 0 && out[k - 1] == '\r')
            k--;
        out[k++] = c;
    }
    return (long)k;
}

bool dj_form_utf8_ok(const char *text, size_t len)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        unsigned char c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        int more;
        uint32_t cp, min;
        if ((c & 0xE0) == 0xC0) {
            more = 1, cp = c & 0x1F, min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            more = 2, cp = c & 0x0F, min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            more = 3, cp = c & 0x07, min = 0x10000;
        } else {
            return false;
        }
        if (len - i <= (size_t)more)
            return false;
        for (int k = 1; k <= more; k++) {
            if ((p[i + k] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (p[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += (size_t)more + 1;
    }
    return true;
}

int dj_form_parse(const char *body, size_t len, dj_form *f)
{
    memset(f, 0, sizeof *f);
    if (!body)
        len = 0;
    f->store = malloc(len + 1);
    if (!f->store)
        return -1;
    size_t used = 0;
    size_t i = 0;
    while (i < len) {
        size_t start = i;
        while (i < len && body[i] != '&')
            i++;
        size_t end = i++;
        if (end == start)
            continue; /* "a=1&&b=2" */
        if (f->n == DJ_FORM_MAX_FIELDS)
            goto refuse;
        const char *eq = memchr(body + start, '=', end - start);
        size_t nlen = eq ? (size_t)(eq - (body + start)) : end - start;
        char name[DJ_FORM_NAME_MAX * 3];
        if (nlen >= sizeof name)
            goto refuse;
        long dn = decode(body + start, nlen, name);
        if (dn < 0 || dn >= DJ_FORM_NAME_MAX)
            goto refuse;
        memcpy(f->name[f->n], name, (size_t)dn);
        f->name[f->n][dn] = '\0';
        const char *v = eq ? eq + 1 : body + end;
        size_t vlen = (size_t)(body + end - v);
        long dv = decode(v, vlen, f->store + used);
        if (dv < 0 || !dj_form_utf8_ok(f->store + used, (size_t)dv) ||
            !dj_form_utf8_ok(f->name[f->n], (size_t)dn))
            goto refuse;
        f->store[used + (size_t)dv] = '\0';
        f->value[f->n] = f->store + used;
        /* a value's decoded length never exceeds its encoded length, and
         * each field gave at least one byte ('&' or the name) for its NUL */
        used += (size_t)dv + 1;
        f->n++;
    }
    return 0;
refuse:
    dj_form_free(f);
    return -1;
}

void dj_form_free(dj_form *f)
{
    free(f->store);
    memset(f, 0, sizeof *f);
}

const char *dj_form_get(const dj_form *f, const char *name)
{
    for (int i = 0; i < f->n; i++)
        if (strcmp(f->name[i], name) == 0)
            return f->value[i];
    return NULL;
}

bool dj_cookie_get(const char *header, const char *name, char *out,
                   size_t outlen)
{
    if (!header || !name || outlen == 0)
        return false;
    size_t nlen = strlen(name);
    const char *p = header;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ';')
            p++;
        const char *start = p;
        while (*p && *p != ';')
            p++;
        const char *eq = memchr(start, '=', (size_t)(p - start));
        if (eq && (size_t)(eq - start) == nlen &&
            memcmp(start, name, nlen) == 0) {
            const char *v = eq + 1;
            size_t vlen = (size_t)(p - v);
            while (vlen > 0 && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
                vlen--;
            if (vlen >= outlen)
                return false;
            memcpy(out, v, vlen);
            out[vlen] = '\0';
            return true;
        }
    }
    return false;
}
