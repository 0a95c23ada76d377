/* SPDX-License-Identifier: MIT */
/*
 * interpret_text.c — the text helpers every stage of the reader uses
 * (interpret_int.h): a line normalised and split into orders, bounded
 * copies, notes appended to a bounded buffer, a place's name for them.
 * Apart from the stages so that each uses these and none uses another
 * stage back: parse, prose and read all lean on them.
 */
#include "reader/interpret_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/fmt.h"
#include "util/typography.h"

/* ---- notes --------------------------------------------------------------- */

void ir_note(char *notes, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt_note(notes, len, fmt, ap);
    va_end(ap);
}

void ir_copy(char *dst, size_t len, const char *src)
{
    if (!dst || len == 0)
        return;
    size_t n = strlen(src);
    if (n >= len)
        n = len - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void ir_lower(char *dst, size_t len, const char *src)
{
    ir_copy(dst, len, src);
    for (; *dst; dst++)
        *dst = (char)tolower((unsigned char)*dst);
}

/* ---- line preparation ---------------------------------------------------- */

/*
 * Latin letters with accents (U+00C0-U+00FF, UTF-8 0xC3 0x80-0xBF) folded
 * to their plain letter, as players write "Piémont" or "München"; 0 for
 * the signs of that block that are not letters.  U+00DF (sharp s) is
 * handled by the caller: it becomes two letters.
 */
static const char LATIN1_FOLD[65] = "AAAAAAACEEEEIIIIDNOOOOO\0OUUUUY\0\0"
                                    "aaaaaaaceeeeiiiidnooooo\0ouuuuy\0y";

/*
 * Latin Extended-A (U+0100-U+017F: Polish, Czech, Turkish, Hungarian,
 * Romanian letters), folded the same way: "Varşova", "Łódź", "İzmir".
 */
static const char LATIN_A_FOLD[129] = "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIiIiJjKkkLlLlLlLlLlNnNnNnnNnOoOoOoOoRrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs";

/* Length of a known UTF-8 sequence at s (its stand-in in *c), or 0.
 * Typography (spaces, quotes, dashes, bullets, invisible marks) is the
 * one table of util/typography.h, as the command reader uses it; an
 * arrow's "->" is read as its '>' and a bullet as a space. */
static size_t known_utf8(const char *s, char *c)
{
    unsigned char b1 = (unsigned char)s[1];
    if ((unsigned char)s[0] == 0xc3 && b1 >= 0x80 && b1 <= 0xbf &&
        LATIN1_FOLD[b1 - 0x80]) {
        *c = (char)tolower((unsigned char)LATIN1_FOLD[b1 - 0x80]);
        return 2;
    }
    if (((unsigned char)s[0] == 0xc4 || (unsigned char)s[0] == 0xc5) &&
        b1 >= 0x80 && b1 <= 0xbf) {
        int cp = (((unsigned char)s[0] & 0x1f) << 6) | (b1 & 0x3f);
        *c = (char)tolower((unsigned char)LATIN_A_FOLD[cp - 0x100]);
        return 2;
    }
    char out[4];
    bool bullet;
    size_t n = dj_typography_char(s, out, &bullet);
    if (n == 0)
        return 0;
    size_t k = strlen(out);
    /* an invisible mark is nothing ('\0': dropped), "..." a space */
    *c = k == 0 ? '\0' : k == 3 ? ' ' : out[k - 1];
    return n;
}

int ir_split_line(const char *line, char *out, size_t outlen, char **pieces,
                  int max)
{
    if (!line || !out || outlen == 0 || max <= 0)
        return 0;
    size_t n = 0;
    int np = 0;
    pieces[np++] = out;
    for (const char *s = line; *s && n + 1 < outlen;) {
        unsigned char b = (unsigned char)*s;
        char c;
        size_t len = b >= 0x80 ? known_utf8(s, &c) : 0;
        if (b == 0xc3 && (unsigned char)s[1] == 0x9f && n + 2 < outlen) {
            out[n++] = 's'; /* sharp s: "ss" */
            c = 's';
            len = 2;
        } else if (b >= 0x80 && len == 0) {
            c = IR_BAD_BYTE;
            len = 1;
        } else if (b < 0x80) {
            c = isprint(b) ? (char)tolower(b) : ' ';
            len = 1;
        }
        s += len;
        if (c == '\0')
            continue; /* an invisible mark: nothing */
        if (c == ',' || c == ';') {
            out[n++] = '\0';
            if (np < max)
                pieces[np++] = out + n;
            else
                out[n - 1] = ' '; /* no room for another piece: keep going */
            continue;
        }
        out[n++] = c;
    }
    out[n] = '\0';
    return np;
}

const char *ir_place_name(const dj_map *map, int loc)
{
    if (!map || loc < 0 || loc >= map->nlocs)
        return "?";
    return map->locs[loc].name;
}
