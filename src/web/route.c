/* SPDX-License-Identifier: MIT */
/*
 * route.c — request paths to rows of the route table.  See route.h for
 * the patterns, route_table.c for the table.
 *
 * The path is read segment by segment with explicit lengths, beside the
 * pattern's; nothing is copied before it has been checked against the
 * segment's shape, so no length or byte of a hostile path can overrun
 * anything.  The table is an argument, not a name known here: the
 * matcher stays pure (the fuzz target and the tests walk the real table
 * with it) and knows no page.
 */
#include "web/route.h"

#include <ctype.h>
#include <string.h>

bool dj_route_game_name(const char *s, size_t n)
{
    if (n == 0 || n >= DJ_ROUTE_GAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
            return false;
    return true;
}

/* S1901M: a season letter, 1 to 5 digits of year, a type letter. */
static bool phase_name(const char *s, size_t n)
{
    if (n < 3 || n > 7 || !strchr("SsFfWwUu", s[0]) || s[0] == '\0' ||
        !strchr("MmRrAaBb", s[n - 1]) || s[n - 1] == '\0')
        return false;
    for (size_t i = 1; i + 1 < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    return true;
}

static void copy(char *dst, size_t size, const char *s, size_t n, bool upper)
{
    if (n >= size)
        n = size - 1;
    for (size_t i = 0; i < n; i++)
        dst[i] = upper ? (char)toupper((unsigned char)s[i]) : s[i];
    dst[n] = '\0';
}

/* Does the pattern's segment p (pn bytes) begin with the placeholder? */
static bool holder(const char *p, size_t pn, const char *word)
{
    size_t wn = strlen(word);
    return pn >= wn && memcmp(p, word, wn) == 0;
}

/* Does the path's segment s (sn bytes) match the pattern's p (pn bytes)?
 * A placeholder's text goes into r. */
static bool segment(const char *p, size_t pn, const char *s, size_t sn,
                    dj_route *r)
{
    bool game = holder(p, pn, "NAME"), phase = holder(p, pn, "PHASE");
    if (!game && !phase)
        return pn == sn && memcmp(p, s, pn) == 0;
    size_t head = game ? 4 : 5, tail = pn - head;
    if (sn <= tail || memcmp(s + sn - tail, p + head, tail) != 0)
        return false;
    sn -= tail;
    if (game ? !dj_route_game_name(s, sn) : !phase_name(s, sn))
        return false;
    if (game)
        copy(r->game, sizeof r->game, s, sn, false);
    else
        copy(r->phase, sizeof r->phase, s, sn, true);
    return true;
}

/* Does the whole path match the pattern (both start with '/')? */
static bool match(const char *pattern, const char *path, size_t len,
                  dj_route *r)
{
    const char *p = pattern + 1;
    size_t i = 1;
    for (;;) {
        size_t pn = strcspn(p, "/"), start = i;
        while (i < len && path[i] != '/')
            i++;
        if (!segment(p, pn, path + start, i - start, r))
            return false;
        bool pattern_end = p[pn] == '\0', path_end = i >= len;
        if (pattern_end || path_end)
            return pattern_end && path_end;
        p += pn + 1;
        i++;
    }
}

static unsigned method_of(const char *method)
{
    if (method && (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0))
        return DJ_ROUTE_GET;
    if (method && strcmp(method, "POST") == 0)
        return DJ_ROUTE_POST;
    return 0;
}

dj_route_result dj_route_match(const dj_route_row *rows, size_t n,
                               const char *method, const char *path,
                               size_t len, dj_route *r)
{
    memset(r, 0, sizeof *r);
    if (!path || len == 0 || path[0] != '/')
        return DJ_ROUTE_NOT_FOUND;
    unsigned m = method_of(method), allowed = 0;
    for (size_t k = 0; k < n; k++) {
        dj_route here;
        memset(&here, 0, sizeof here);
        if (!match(rows[k].pattern, path, len, &here))
            continue;
        if (allowed == 0) /* the path's NAME and PHASE, whatever the method */
            *r = here;
        if (rows[k].methods & m) {
            *r = here;
            r->row = &rows[k];
            return DJ_ROUTE_FOUND;
        }
        allowed |= rows[k].methods;
    }
    if (allowed == 0)
        return DJ_ROUTE_NOT_FOUND;
    r->allow = allowed == DJ_ROUTE_GET    ? "GET, HEAD"
               : allowed == DJ_ROUTE_POST ? "POST"
                                          : "GET, HEAD, POST";
    return DJ_ROUTE_METHOD;
}

static bool word_byte(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
           ch == '.' || ch == '-' || ch == '_';
}

bool dj_route_pattern_ok(const char *pattern)
{
    if (!pattern || pattern[0] != '/')
        return false;
    if (pattern[1] == '\0')
        return true; /* "/" */
    for (const char *p = pattern + 1;;) {
        size_t pn = strcspn(p, "/");
        size_t head = holder(p, pn, "NAME") ? 4 : holder(p, pn, "PHASE") ? 5 : 0;
        if (pn == 0)
            return false;
        for (size_t i = head; i < pn; i++)
            if (!word_byte(p[i]))
                return false;
        if (p[pn] == '\0')
            return true;
        p += pn + 1;
    }
}
