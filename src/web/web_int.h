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

/* Sessions of several games in one browser (the djs cookie holds up to
 * this many tokens, '.' between them; handler.c, sessions.c). */
#define WEB_SESSIONS_MAX 8
typedef struct web_session_one {
    char token[DJ_WEB_TOKEN_LEN + 1];
    char csrf[DJ_WEB_TOKEN_LEN + 1];
    dj_signon id;
} web_session_one;

struct web_flash;

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
    /* every live session of the browser's cookie; the one above is the
     * path's game's (else the first) */
    int nsessions;
    web_session_one sessions[WEB_SESSIONS_MAX];
    /* a POST's answer (flash.c): keep the typed fields for one view (a
     * refused form), and the page to go to ("" the game's page) */
    bool keep_fields;
    char answer_path[128];
    /* a GET's result of an earlier POST, taken from the flash store */
    struct web_flash *flash;
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
/* The order pad's pages (pad.c), each a row's run. */
void web_page_pad_js(web_ctx *c);
void web_page_legal_json(web_ctx *c);
void web_page_mine_svg(web_ctx *c);
/* The game's page with a notice atop it: an action's answer. */
void web_page_game_notice(web_ctx *c, const char *notice);

/* Actions (actions.c), each a row's run. */
void web_act_signin(web_ctx *c);
void web_act_signout(web_ctx *c);
void web_act_orders(web_ctx *c);
void web_act_ready(web_ctx *c);        /* READY, NOT READY, WAIT, NO WAIT */
void web_act_press(web_ctx *c);
void web_act_account(web_ctx *c);      /* account commands, password again */

/* The master's desk (desk.c). */
void web_desk(web_ctx *c); /* GET: the page; POST: a form's command */
/* Votes, joining, observing (votes.c). */
void web_act_vote(web_ctx *c);
void web_act_join(web_ctx *c);         /* JOIN and OBSERVE: a code mailed */
void web_act_confirm(web_ctx *c);      /* the code typed back */
/* The vote form, and the JOIN/OBSERVE and code forms, for the pages. */
void web_vote_form(web_ctx *c, dj_buf *b, const char *game);
void web_join_forms(web_ctx *c, dj_buf *b, const char *game);
/* The account form's run (actions.c): the password again, then the one
 * account command `line`; the answer page written. */
void web_account_run(web_ctx *c, const char *line, const char *password);
/* The signed-in participant's message run and answered (actions.c). */
void web_message_run(web_ctx *c, const char *text);

/* Sessions of several games (sessions.c). */
/* The djs cookie rewritten: the live sessions but the one of drop_game
 * (NULL: none dropped), and add_token (NULL: none) last. */
void web_sessions_cookie(web_ctx *c, const char *drop_game,
                         const char *add_token);
/* POST /game/NAME/signout: this game's session ends, the others stay. */
void web_act_signout_game(web_ctx *c);
/* Links to the games this browser is signed in to. */
void web_sessions_list(web_ctx *c, dj_buf *b);

/* Post/redirect/get (flash.c): a POST's answer kept server-side for the
 * browser's next view of the page it is sent to (303). */
void web_flash_redirect(web_ctx *c, const char *notice);
/* A GET: this page's kept answer, if any, into c->flash. */
void web_flash_take(web_ctx *c);
/* Its notice, or NULL; a kept field's text, or "" (never NULL). */
const char *web_flash_notice(const web_ctx *c);
const char *web_flash_field(const web_ctx *c, const char *name);
/* Free c->flash (the handler, at the end of every request). */
void web_flash_done(web_ctx *c);
/* The shared store of kept answers (shared.c makes and frees it). */
struct web_flash_store;
struct web_flash_store *web_flash_store_new(void);
void web_flash_store_free(struct web_flash_store *fs);
struct web_flash_store *web_shared_flash(dj_web_shared *sh);

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
