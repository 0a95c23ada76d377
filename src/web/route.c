/* SPDX-License-Identifier: MIT */
/*
 * route.c — request paths to routes.  See route.h for the table.
 *
 * The path is read segment by segment with explicit lengths; nothing is
 * copied before it has been checked against the few shapes a route may
 * have, so no length or byte of a hostile path can overrun anything.
 */
#include "web/route.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

static bool seg_is(const char *s, size_t n, const char *word)
{
    return strlen(word) == n && memcmp(s, word, n) == 0;
}

static bool game_name(const char *s, size_t n)
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

typedef enum { GET, POST, OTHER } method_kind;

static dj_route_kind want(method_kind m, method_kind needed, dj_route_kind k,
                          dj_route *r)
{
    r->kind = m == needed ? k : DJ_ROUTE_METHOD;
    r->allow = needed == GET ? "GET, HEAD" : "POST";
    return r->kind;
}

dj_route_kind dj_route_parse(const char *method, const char *path, size_t len,
                             dj_route *r)
{
    memset(r, 0, sizeof *r);
    method_kind m = OTHER;
    if (method && (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0))
        m = GET;
    else if (method && strcmp(method, "POST") == 0)
        m = POST;
    if (!path || len == 0 || path[0] != '/')
        return r->kind = DJ_ROUTE_NOT_FOUND;
    /* split into at most 4 segments after the leading '/' */
    const char *seg[4];
    size_t seglen[4];
    int nseg = 0;
    size_t i = 1;
    while (i <= len) {
        size_t start = i;
        while (i < len && path[i] != '/')
            i++;
        if (nseg == 4)
            return r->kind = DJ_ROUTE_NOT_FOUND;
        seg[nseg] = path + start;
        seglen[nseg] = i - start;
        nseg++;
        i++;
    }
    if (nseg == 1 && seglen[0] == 0)
        return want(m, GET, DJ_ROUTE_HOME, r);
    for (int k = 0; k < nseg; k++)
        if (seglen[k] == 0)
            return r->kind = DJ_ROUTE_NOT_FOUND; /* "//", a trailing '/' */
    if (nseg == 1 && seg_is(seg[0], seglen[0], "style.css"))
        return want(m, GET, DJ_ROUTE_STYLE, r);
    if (nseg == 1 && seg_is(seg[0], seglen[0], "signout"))
        return want(m, POST, DJ_ROUTE_SIGNOUT, r);
    if (nseg == 1 && seg_is(seg[0], seglen[0], "signin"))
        return want(m, POST, DJ_ROUTE_SIGNIN, r); /* the game in the form */
    if (nseg < 2 || !seg_is(seg[0], seglen[0], "game"))
        return r->kind = DJ_ROUTE_NOT_FOUND;
    const char *g = seg[1];
    size_t gn = seglen[1];
    if (nseg == 2) {
        if (gn > 5 && memcmp(g + gn - 5, ".json", 5) == 0 &&
            game_name(g, gn - 5)) {
            copy(r->game, sizeof r->game, g, gn - 5, false);
            return want(m, GET, DJ_ROUTE_GAME_JSON, r);
        }
        if (!game_name(g, gn))
            return r->kind = DJ_ROUTE_NOT_FOUND;
        copy(r->game, sizeof r->game, g, gn, false);
        return want(m, GET, DJ_ROUTE_GAME, r);
    }
    if (!game_name(g, gn))
        return r->kind = DJ_ROUTE_NOT_FOUND;
    copy(r->game, sizeof r->game, g, gn, false);
    const char *a = seg[2];
    size_t an = seglen[2];
    if (nseg == 3) {
        if (seg_is(a, an, "press")) {
            want(m, m == POST ? POST : GET,
                 m == POST ? DJ_ROUTE_SEND_PRESS : DJ_ROUTE_PRESS, r);
            r->allow = "GET, HEAD, POST";
            return r->kind;
        }
        if (seg_is(a, an, "signin"))
            return want(m, POST, DJ_ROUTE_SIGNIN, r);
        if (seg_is(a, an, "orders"))
            return want(m, POST, DJ_ROUTE_ORDERS, r);
        if (seg_is(a, an, "ready"))
            return want(m, POST, DJ_ROUTE_READY, r);
        if (seg_is(a, an, "account"))
            return want(m, POST, DJ_ROUTE_ACCOUNT, r);
        if (phase_name(a, an)) {
            copy(r->phase, sizeof r->phase, a, an, true);
            return want(m, GET, DJ_ROUTE_PHASE, r);
        }
        return r->kind = DJ_ROUTE_NOT_FOUND;
    }
    /* nseg == 4: /game/NAME/PHASE/board.svg or orders.svg */
    if (!phase_name(a, an))
        return r->kind = DJ_ROUTE_NOT_FOUND;
    copy(r->phase, sizeof r->phase, a, an, true);
    if (seg_is(seg[3], seglen[3], "board.svg"))
        return want(m, GET, DJ_ROUTE_BOARD_SVG, r);
    if (seg_is(seg[3], seglen[3], "orders.svg"))
        return want(m, GET, DJ_ROUTE_ORDERS_SVG, r);
    return r->kind = DJ_ROUTE_NOT_FOUND;
}
