/* SPDX-License-Identifier: MIT */
/*
 * route.h — which page or action a request names: the method and the path
 * in, a route with its game and phase out.  Pure (no I/O), so the whole
 * of it is fuzzed (tests/fuzz/fuzz_webroute.c).
 *
 *   GET  /                          the judge: games, how to join
 *   GET  /style.css                 the stylesheet
 *   GET  /game/NAME                 the game now (and forms when signed in)
 *   GET  /game/NAME.json            the game in the export format
 *   GET  /game/NAME/press           the press archive
 *   GET  /game/NAME/PHASE           a phase: boards, orders and results
 *   GET  /game/NAME/PHASE/board.svg the position at the phase's start
 *   GET  /game/NAME/PHASE/orders.svg with the phase's orders (once played)
 *   POST /game/NAME/signin          sign in (power, password)
 *   POST /signin                    sign in, the game in the form (the
 *                                   front page's form: private games)
 *   POST /game/NAME/orders          orders, as the lines of a mail
 *   POST /game/NAME/ready           READY, NOT READY, WAIT, NO WAIT
 *   POST /game/NAME/press           press or a broadcast
 *   POST /game/NAME/account         RESIGN, SET PASSWORD, SET ADDRESS and
 *                                   the other account commands, with the
 *                                   password again
 *   POST /signout                   sign out
 *
 * Game names are letters, digits, '-' and '_' (1 to 32); phases are a
 * season letter, a year and a type letter ("S1901M", any case).  Anything
 * else is not found; a known path with another method is DJ_ROUTE_METHOD.
 * HEAD is answered as GET.
 */
#ifndef DJ_WEB_ROUTE_H
#define DJ_WEB_ROUTE_H

#include <stddef.h>

typedef enum dj_route_kind {
    DJ_ROUTE_NOT_FOUND = 0,
    DJ_ROUTE_METHOD,         /* the path exists, not with this method */
    DJ_ROUTE_HOME,
    DJ_ROUTE_STYLE,
    DJ_ROUTE_GAME,
    DJ_ROUTE_GAME_JSON,
    DJ_ROUTE_PRESS,
    DJ_ROUTE_PHASE,
    DJ_ROUTE_BOARD_SVG,
    DJ_ROUTE_ORDERS_SVG,
    DJ_ROUTE_SIGNIN,
    DJ_ROUTE_ORDERS,
    DJ_ROUTE_READY,
    DJ_ROUTE_SEND_PRESS,
    DJ_ROUTE_SIGNOUT,
    DJ_ROUTE_ACCOUNT,
} dj_route_kind;

#define DJ_ROUTE_GAME_MAX 33
#define DJ_ROUTE_PHASE_MAX 16

typedef struct dj_route {
    dj_route_kind kind;
    const char *allow;                /* DJ_ROUTE_METHOD: "GET, HEAD" ... */
    char game[DJ_ROUTE_GAME_MAX];
    char phase[DJ_ROUTE_PHASE_MAX];   /* upper case */
} dj_route;

/* Route `path` (len bytes, not NUL-terminated needed) for `method`. */
dj_route_kind dj_route_parse(const char *method, const char *path, size_t len,
                             dj_route *r);

#endif
