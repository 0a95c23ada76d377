/* SPDX-License-Identifier: MIT */
/*
 * web_int.h — private to src/web: one request being answered, and what
 * the handler, the route table, the pages and the actions share.
 */
#ifndef DJ_WEB_WEB_INT_H
#define DJ_WEB_WEB_INT_H

#include "game/game.h"
#include "game/signon.h"
#include "game/websession.h"
#include "web/route.h"
#include "web/web.h"

typedef struct web_ctx {
    dj_web_shared *sh;
    const dj_web_options *opt;
    dj_judge *j;
    const dj_web_request *rq;
    dj_web_response *rs;
    dj_route route;
    /* the session cookie's sign-in, when it is live */
    bool signed_in;
    dj_signon id;
    char token[DJ_WEB_TOKEN_LEN + 1];
    char csrf[DJ_WEB_TOKEN_LEN + 1];
    /* the visitor's CSRF cookie (for the sign-in form) */
    char visitor_csrf[DJ_WEB_TOKEN_LEN + 1];
    /* the query after '?' in the path ("" when none), percent-encoded */
    const char *query;
} web_ctx;

/* Signed in to this request's game? */
bool web_signed_in_here(const web_ctx *c);

/* The route table (route_table.c): every page and action, one a row. */
extern const dj_route_row web_routes[];
extern const size_t web_routes_len;

/* Responses (respond.c). */
void web_not_found(web_ctx *c);
void web_fail(web_ctx *c, int status, const char *why);
void web_html_page(web_ctx *c);        /* status 200, text/html */
/* A hidden input with the CSRF token every form carries. */
void web_csrf_field(const web_ctx *c, dj_buf *out, bool signed_in_form);
void web_set_cookie(web_ctx *c, const char *name, const char *value,
                    int max_age);
/* "Sat 09 Jan 2027 20:00 UTC" */
void web_utc(int64_t t, dj_buf *out);

/* Pages (pages.c), each a row's run. */
void web_page_home(web_ctx *c);
void web_page_style(web_ctx *c);
void web_page_game(web_ctx *c);
void web_page_phase(web_ctx *c);
void web_page_press(web_ctx *c);
void web_page_json(web_ctx *c);
void web_page_board_svg(web_ctx *c);
void web_page_orders_svg(web_ctx *c);
/* The game's page with a notice atop it: an action's answer. */
void web_page_game_notice(web_ctx *c, const char *notice);

/* Actions (actions.c), each a row's run. */
void web_act_signin(web_ctx *c);
void web_act_signout(web_ctx *c);
void web_act_orders(web_ctx *c);
void web_act_ready(web_ctx *c);        /* READY, NOT READY, WAIT, NO WAIT */
void web_act_press(web_ctx *c);
void web_act_account(web_ctx *c);      /* account commands, password again */

/* Shared state (shared.c). */
/* The options every worker reads. */
const dj_web_options *web_shared_options(const dj_web_shared *sh);
/* May the client try to sign in?  If so the try counts as a failure
 * until web_signin_succeeded (or an error of the judge's) takes it back. */
bool web_signin_begin(web_ctx *c);
void web_signin_succeeded(web_ctx *c);

/* The game page's table of powers and its deadline (game_table.c). */
struct dj_game_overview;
void web_power_table(web_ctx *c, dj_buf *b,
                     const struct dj_game_overview *o);
/* <time class="countdown" datetime="ISO-8601 UTC">in 1 day 3 hours</time> */
void web_countdown(dj_buf *b, int64_t deadline, int64_t now);
/* Take out of a STATUS text its "Deadline..." lines (the page's
 * deadline block says it once). */
void web_drop_deadline_lines(dj_buf *text);
/* "in 1 day 3 hours", "in 5 minutes", "passed" */
void web_remaining(int64_t deadline, int64_t now, dj_buf *out);

/* The front page's lists of games with their filter form (front.c):
 * 0, or -1 with the page written (400 for a bad parameter, 500). */
int web_front_games(web_ctx *c, dj_buf *b);

#endif
