/* SPDX-License-Identifier: MIT */
/*
 * typography.c — invisible and typographic characters normalised in one
 * place for every command and order.  See typography.h for the table.
 */
#include "util/typography.h"

#include <stdint.h>
#include <string.h>

/* A valid UTF-8 sequence of 2 to 4 bytes at s: its code point and
 * length; 0 when s holds none. */
static size_t decode(const unsigned char *s, uint32_t *cp)
{
    size_t n;
    uint32_t v;
    if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        n = 2;
        v = s[0] & 0x1Fu;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        n = 3;
        v = s[0] & 0x0Fu;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        n = 4;
        v = s[0] & 0x07u;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3Fu);
    }
    if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10FFFF)) ||
        (v >= 0xD800 && v <= 0xDFFF))
        return 0; /* overlong, out of range, a surrogate */
    *cp = v;
    return n;
}

static bool in(uint32_t cp, uint32_t lo, uint32_t hi)
{
    return cp >= lo && cp <= hi;
}

/* Nothing at all: marks no one meant to type. */
static bool invisible(uint32_t cp)
{
    return cp == 0xFEFF || cp == 0x00AD || cp == 0x034F || cp == 0x061C ||
           cp == 0x180E || in(cp, 0x200B, 0x200F) ||
           in(cp, 0x202A, 0x202E) || in(cp, 0x2060, 0x2064) ||
           in(cp, 0x2066, 0x206F) || in(cp, 0xFE00, 0xFE0F) ||
           in(cp, 0x0080, 0x009F) || in(cp, 0xE0100, 0xE01EF);
}

static bool space(uint32_t cp)
{
    return cp == 0x00A0 || cp == 0x1680 || in(cp, 0x2000, 0x200A) ||
           cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F ||
           cp == 0x3000;
}

static bool bullet(uint32_t cp)
{
    static const uint32_t shapes[] = {
        0x00B7, 0x2022, 0x2023, 0x2043, 0x2219, 0x25A0, 0x25A1, 0x25AA,
        0x25AB, 0x25B6, 0x25B8, 0x25BA, 0x25C6, 0x25C7, 0x25CB, 0x25CF,
        0x25E6, 0x2605, 0x2606, 0x2611, 0x2666, 0x2713, 0x2714, 0x2756,
        0x27A2, 0x27A4, 0x29BE, 0x29BF, 0xF0A7, 0xF0B7, 0xF0D8, 0xF0FC,
        0x30FB, 0xFF65};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (cp == shapes[i])
            return true;
    return false;
}

static const char *stand_in(uint32_t cp)
{
    if (in(cp, 0x2018, 0x201B) || cp == 0x2032 || cp == 0x2035 ||
        cp == 0x00B4 || cp == 0x2039 || cp == 0x203A || cp == 0x02BC)
        return "'";
    if (in(cp, 0x201C, 0x201F) || cp == 0x00AB || cp == 0x00BB ||
        cp == 0x2033 || cp == 0x2036 || cp == 0x301D || cp == 0x301E)
        return "\"";
    if (in(cp, 0x2010, 0x2015) || cp == 0x2212 || cp == 0xFE58 ||
        cp == 0xFE63 || cp == 0xFF0D || cp == 0x2E3A || cp == 0x2E3B)
        return "-";
    if (cp == 0x2192 || cp == 0x21D2 || cp == 0x2794 || cp == 0x279C ||
        cp == 0x27A1 || cp == 0x27F6 || cp == 0x27F9 || cp == 0x21E8)
        return "->";
    if (cp == 0x2026)
        return "...";
    if (cp == 0x2044 || cp == 0x2215)
        return "/";
    return NULL;
}

size_t dj_typography_char(const char *s, char out[4], bool *is_bullet)
{
    uint32_t cp;
    size_t n = decode((const unsigned char *)s, &cp);
    *is_bullet = false;
    out[0] = '\0';
    if (n == 0)
        return 0;
    if (invisible(cp))
        return n;
    if (space(cp)) {
        memcpy(out, " ", 2);
        return n;
    }
    if (bullet(cp)) {
        *is_bullet = true;
        memcpy(out, " ", 2);
        return n;
    }
    if (in(cp, 0xFF01, 0xFF5E)) { /* full-width ASCII */
        out[0] = (char)(cp - 0xFEE0);
        out[1] = '\0';
        return n;
    }
    const char *r = stand_in(cp);
    if (!r)
        return 0;
    memcpy(out, r, strlen(r) + 1);
    return n;
}

static bool blank(char c)
{
    return c == ' ';
}

/* The list marker at the start of a (cleaned) line: its length with
 * the spaces after it, or 0.  "-", "*", "+", "1.", "12)", "(1)", "[1]",
 * "a)", "(a)"; a marker must be followed by a space (or end the line). */
static size_t marker(const char *l)
{
    size_t i = 0;
    if (l[0] == '-' || l[0] == '*' || l[0] == '+') {
        i = 1;
        if (l[i] == l[0]) /* "--" is a sign-off, not a marker */
            return 0;
    } else if (l[0] == '(' || l[0] == '[') {
        char close = l[0] == '(' ? ')' : ']';
        size_t k = 1;
        if (l[k] >= '0' && l[k] <= '9') {
            while (k < 3 && l[k] >= '0' && l[k] <= '9')
                k++;
        } else if (l[k] >= 'a' && l[k] <= 'z' && l[0] == '(') {
            k++;
        } else {
            return 0;
        }
        if (l[k] != close)
            return 0;
        i = k + 1;
    } else if (l[0] >= '0' && l[0] <= '9') {
        size_t k = 1;
        if (l[k] >= '0' && l[k] <= '9')
            k++;
        if (l[k] != '.' && l[k] != ')')
            return 0;
        i = k + 1;
    } else if (l[0] >= 'a' && l[0] <= 'z' && l[1] == ')') {
        i = 2;
    } else {
        return 0;
    }
    if (l[i] && !blank(l[i]))
        return 0;
    while (blank(l[i]))
        i++;
    return i;
}

void dj_typography_line(char *line)
{
    char *w = line;
    bool at_start = true; /* only spaces and bullets written so far */
    for (const char *r = line; *r;) {
        unsigned char b = (unsigned char)*r;
        if (b < 0x80) {
            char c = (b < 0x20 || b == 0x7F) ? ' ' : (char)b;
            if (!(at_start && c == ' '))
                *w++ = c;
            at_start &= c == ' ';
            r++;
            continue;
        }
        char out[4];
        bool is_bullet;
        size_t n = dj_typography_char(r, out, &is_bullet);
        if (n == 0) {
            *w++ = *r++; /* any other character: as written */
            at_start = false;
            continue;
        }
        r += n;
        if (at_start && (is_bullet || out[0] == ' ' || !out[0]))
            continue; /* a bullet or space before the text: gone */
        size_t k = strlen(out);
        memcpy(w, out, k); /* never longer than the n bytes it replaces */
        w += k;
        at_start = false;
    }
    *w = '\0';
    /* ASCII list markers: "1. • A par-bur" has two */
    for (int round = 0; round < 2; round++) {
        size_t m = marker(line);
        if (!m)
            break;
        memmove(line, line + m, strlen(line + m) + 1);
    }
    size_t len = strlen(line);
    while (len && line[len - 1] == ' ')
        line[--len] = '\0';
}
