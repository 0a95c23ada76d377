/* SPDX-License-Identifier: MIT */
/*
 * route_table.c — the one table of judgeweb's routes: every page and
 * action, one row each, with its path as judgeweb(8)'s PAGES writes it,
 * the methods it takes, who may use it and the function that answers it.
 * The handler (handler.c) walks this table and nothing else: a path not
 * in it is 404, a path in it with another method 405 with its Allow.
 * tests/unit/test_web_routes holds it to judgeweb(8): every row's path
 * and method is there, and every path there is a row.
 *
 * A new page is a row here and its function (pages.c or actions.c); the
 * row cannot be without one (the test fails on a row whose run is NULL).
 */
#include "web/web_int.h"

const dj_route_row web_routes[] = {
    /* pages */
    {"/", DJ_ROUTE_GET, DJ_WHO_ANYONE, web_page_home},
    {"/style.css", DJ_ROUTE_GET, DJ_WHO_STATIC, web_page_style},
    {"/game/NAME", DJ_ROUTE_GET, DJ_WHO_ANYONE, web_page_game},
    {"/game/NAME.json", DJ_ROUTE_GET, DJ_WHO_ANYONE, web_page_json},
    {"/game/NAME/press", DJ_ROUTE_GET, DJ_WHO_ANYONE, web_page_press},
    {"/game/NAME/PHASE", DJ_ROUTE_GET, DJ_WHO_ANYONE, web_page_phase},
    {"/game/NAME/PHASE/board.svg", DJ_ROUTE_GET, DJ_WHO_ANYONE,
     web_page_board_svg},
    {"/game/NAME/PHASE/orders.svg", DJ_ROUTE_GET, DJ_WHO_ANYONE,
     web_page_orders_svg},
    /* the order pad (pad.c) */
    {"/pad.js", DJ_ROUTE_GET, DJ_WHO_STATIC, web_page_pad_js},
    {"/game/NAME/legal.json", DJ_ROUTE_GET, DJ_WHO_IN_GAME,
     web_page_legal_json},
    {"/game/NAME/mine.svg", DJ_ROUTE_GET, DJ_WHO_IN_GAME, web_page_mine_svg},
    /* actions: a form's POST */
    {"/signin", DJ_ROUTE_POST, DJ_WHO_ANYONE, web_act_signin},
    {"/game/NAME/signin", DJ_ROUTE_POST, DJ_WHO_ANYONE, web_act_signin},
    {"/signout", DJ_ROUTE_POST, DJ_WHO_SIGNED_IN, web_act_signout},
    {"/game/NAME/orders", DJ_ROUTE_POST, DJ_WHO_IN_GAME, web_act_orders},
    {"/game/NAME/ready", DJ_ROUTE_POST, DJ_WHO_IN_GAME, web_act_ready},
    {"/game/NAME/press", DJ_ROUTE_POST, DJ_WHO_IN_GAME, web_act_press},
    {"/game/NAME/account", DJ_ROUTE_POST, DJ_WHO_IN_GAME, web_act_account},
    /* the master's desk (desk.c); votes, joining, one game's sign-out
     * (votes.c, sessions.c) */
    {"/game/NAME/desk", DJ_ROUTE_GET | DJ_ROUTE_POST, DJ_WHO_IN_GAME,
     web_desk},
    {"/game/NAME/vote", DJ_ROUTE_POST, DJ_WHO_IN_GAME, web_act_vote},
    {"/game/NAME/signout", DJ_ROUTE_POST, DJ_WHO_IN_GAME,
     web_act_signout_game},
    {"/join", DJ_ROUTE_POST, DJ_WHO_ANYONE, web_act_join},
    {"/game/NAME/join", DJ_ROUTE_POST, DJ_WHO_ANYONE, web_act_join},
    {"/confirm", DJ_ROUTE_POST, DJ_WHO_ANYONE, web_act_confirm},
    {"/game/NAME/confirm", DJ_ROUTE_POST, DJ_WHO_ANYONE, web_act_confirm},
};

const size_t web_routes_len = sizeof web_routes / sizeof web_routes[0];
