/* SPDX-License-Identifier: MIT */
/*
 * route.h — which row of the route table (route_table.c, the one list of
 * judgeweb's pages and actions) a request names: the method and the path
 * in, the row with the path's game and phase out, or "not found", or "not
 * with this method" with the methods the path takes.  Pure (no I/O, no
 * handler called), so the whole of it is fuzzed (tests/fuzz/fuzz_webroute.c).
 *
 * A row's pattern is written as judgeweb(8) writes the path: segments
 * after '/', each a lower-case word ("press", "board.svg") matched exactly,
 * or a placeholder with an optional word after it ("NAME", "NAME.json",
 * "PHASE"):
 *
 *   NAME   a game's name: letters, digits, '-' and '_' (1 to 32);
 *   PHASE  a phase: a season letter, 1 to 5 digits of year and a type
 *          letter ("S1901M", any case; upper-cased in the route).
 *
 * Anything else is not found: an empty segment ("//", a trailing '/'), a
 * segment too many.  HEAD is answered as GET.
 */
#ifndef DJ_WEB_ROUTE_H
#define DJ_WEB_ROUTE_H

#include <stdbool.h>
#include <stddef.h>

#define DJ_ROUTE_GAME_MAX 33
#define DJ_ROUTE_PHASE_MAX 16

/* The methods a row takes (a set). */
enum {
    DJ_ROUTE_GET = 1 << 0, /* GET, and HEAD answered as GET */
    DJ_ROUTE_POST = 1 << 1,
};

/* Who may use a row; anyone else gets 404, as for a path that does not
 * exist (nobody learns what there is by asking). */
typedef enum dj_route_who {
    DJ_WHO_STATIC,    /* anyone, and nothing of theirs is read: no
                         session looked up, no cookie given (a file) */
    DJ_WHO_ANYONE,    /* anyone; a POST carries the visitor's CSRF token */
    DJ_WHO_SIGNED_IN, /* a live session, of any game */
    DJ_WHO_IN_GAME,   /* a live session of the path's game (a player, an
                         observer or its master) */
} dj_route_who;

struct web_ctx;

/* One row of the table: a page or an action. */
typedef struct dj_route_row {
    const char *pattern; /* "/game/NAME/PHASE/board.svg" */
    unsigned methods;    /* DJ_ROUTE_GET, DJ_ROUTE_POST */
    dj_route_who who;
    void (*run)(struct web_ctx *c); /* writes the response */
} dj_route_row;

typedef enum dj_route_result {
    DJ_ROUTE_NOT_FOUND = 0,
    DJ_ROUTE_FOUND,
    DJ_ROUTE_METHOD, /* the path exists, not with this method */
} dj_route_result;

typedef struct dj_route {
    const dj_route_row *row;          /* DJ_ROUTE_FOUND: the row */
    const char *allow;                /* DJ_ROUTE_METHOD: "GET, HEAD" ... */
    char game[DJ_ROUTE_GAME_MAX];     /* NAME, or "" */
    char phase[DJ_ROUTE_PHASE_MAX];   /* PHASE upper-cased, or "" */
} dj_route;

/* Route `path` (len bytes, NUL not needed) for `method` against the n
 * rows of `rows`: the first row whose pattern and method match. */
dj_route_result dj_route_match(const dj_route_row *rows, size_t n,
                               const char *method, const char *path,
                               size_t len, dj_route *r);

/* Is s (n bytes) a game's name as NAME matches it? */
bool dj_route_game_name(const char *s, size_t n);

/* Is `pattern` one this matcher reads (starts with '/', each segment a
 * lower-case word or a placeholder)?  For the table's test. */
bool dj_route_pattern_ok(const char *pattern);

#endif
