/* SPDX-License-Identifier: MIT */
/*
 * actions.c — what a browser's forms do: sign in, sign out, and the
 * messages (orders, READY and WAIT, press).
 *
 * Design.  A message from the web is a mail without the mail: the form's
 * fields become the lines a player would write (the orders as typed;
 * "READY"; "PRESS TO England" ... "ENDPRESS"), run by dj_command_run as
 * the signed-in participant in one transaction, recorded in the mail log
 * under a Message-ID of its own ("<web.RANDOM@judgeweb>"), and answered
 * with the reply a mail would get, echo and all.  No reply is queued: the
 * page is the reply.  The actor in the game's log is "web CLIENT".
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "command/command.h"
#include "game/game.h"
#include "game/signon.h"
#include "game/websession.h"
#include "util/random.h"
#include "web/form.h"
#include "web/html.h"
#include "web/web_int.h"

static void client_name(const web_ctx *c, char *out, size_t len)
{
    snprintf(out, len, "web %s", c->rq->client ? c->rq->client : "?");
}

void web_act_signin(web_ctx *c)
{
    dj_form f;
    if (dj_form_parse(c->rq->body, c->rq->body_len, &f) < 0) {
        web_fail(c, 400, "The form could not be read.");
        return;
    }
    if (!c->route.game[0]) { /* POST /signin: the game is in the form */
        const char *game = dj_form_get(&f, "game");
        if (!game || !dj_route_game_name(game, strlen(game))) {
            dj_form_free(&f);
            web_fail(c, 400, "Sign in with a game's name, a power and a "
                             "password.");
            return;
        }
        snprintf(c->route.game, sizeof c->route.game, "%s", game);
    }
    const char *power = dj_form_get(&f, "power");
    const char *password = dj_form_get(&f, "password");
    char client[96];
    client_name(c, client, sizeof client);
    if (!power || !password || !*power || strlen(power) > 40 ||
        strlen(password) > 200) {
        dj_form_free(&f);
        web_page_game_notice(c, "Sign in with a power and a password.");
        return;
    }
    if (!web_signin_begin(c)) {
        dj_form_free(&f);
        web_fail(c, 403, "Too many failed sign-ins from your address: try "
                         "again later.");
        return;
    }
    char token[DJ_WEB_TOKEN_LEN + 1], csrf[DJ_WEB_TOKEN_LEN + 1];
    char device[DJ_WEB_TOKEN_LEN + 1], new_device[DJ_WEB_TOKEN_LEN + 1];
    dj_signon id;
    memset(&id, 0, sizeof id);
    const char *address = dj_form_get(&f, "address");
    if (address && strlen(address) > 250)
        address = NULL;
    if (!dj_cookie_get(c->rq->cookie, "djd", device, sizeof device))
        device[0] = '\0';
    int rc = dj_game_web_signin(c->j, c->route.game, power, password, address,
                                client, device, c->opt->session_lifetime,
                                token, csrf, new_device, &id);
    dj_form_free(&f);
    if (rc != DJ_SIGNON_REFUSED || id.refused_unread)
        web_signin_succeeded(c); /* or the judge's error, not the client's,
                                    or no guess made */
    if (rc < 0) {
        web_fail(c, 500, dj_judge_error(c->j));
        return;
    }
    if (rc == DJ_SIGNON_REFUSED) {
        /* counted by web_signin_begin; the same words whether the game exists or not */
        /* the reason (a wrong password, a wait, the power's day used up)
         * reads the same whether the game and power exist or not */
        char why[600];
        snprintf(why, sizeof why, "Sign-in refused: %s.",
                 dj_judge_error(c->j));
        web_fail(c, 403, why);
        return;
    }
    /* beside the browser's sessions of other games (sessions.c) */
    web_sessions_cookie(c, id.game, token);
    if (new_device[0]) /* known to this participant from now on */
        web_set_cookie(c, "djd", new_device, DJ_WEB_DEVICE_DAYS * 86400);
    c->rs->status = 303;
    dj_buf loc;
    dj_buf_init(&loc);
    dj_buf_append(&loc, "/game/");
    dj_html_url_segment(&loc, id.game);
    snprintf(c->rs->location, sizeof c->rs->location, "%s",
             dj_buf_ok(&loc) ? loc.data : "/");
    dj_buf_free(&loc);
    c->rs->content_type = "text/plain; charset=utf-8";
    dj_buf_append(&c->rs->body, "Signed in.\n");
}

void web_act_signout(web_ctx *c)
{
    /* every game's session of the browser ends (one game's alone:
     * POST /game/NAME/signout, sessions.c) */
    for (int i = 0; i < c->nsessions; i++)
        if (dj_game_web_signout(c->j, c->sessions[i].token) < 0) {
            web_fail(c, 500, dj_judge_error(c->j));
            return;
        }
    /* both cookies expire now */
    c->rs->ncookies = 0;
    web_set_cookie(c, "djs", "x", 0);
    c->rs->status = 303;
    snprintf(c->rs->location, sizeof c->rs->location, "/");
    c->rs->content_type = "text/plain; charset=utf-8";
    dj_buf_append(&c->rs->body, "Signed out.\n");
}

/* A line of its own that would end the press or start a command of the
 * language inside it: refused rather than sent on. */
static bool ends_press(const char *text)
{
    for (const char *l = text; *l;) {
        size_t n = strcspn(l, "\n");
        while (n > 0 && (l[n - 1] == ' ' || l[n - 1] == '\t'))
            n--;
        const char *w = l;
        while (*w == ' ' || *w == '\t')
            w++;
        size_t wn = n - (size_t)(w - l);
        if ((wn == 8 && strncasecmp(w, "ENDPRESS", 8) == 0) ||
            (wn == 12 && strncasecmp(w, "ENDBROADCAST", 12) == 0))
            return true;
        l += strcspn(l, "\n");
        if (*l)
            l++;
    }
    return false;
}

/* The three forms that are messages, each a row of the route table. */
typedef enum { MSG_ORDERS, MSG_READY, MSG_PRESS } message_form;

/* The message a form stands for, as a player would mail it; -1 with a
 * reason for the page when the form is not one. */
static int message_of(message_form kind, const dj_form *f, dj_buf *msg,
                      const char **why)
{
    switch (kind) {
    case MSG_ORDERS: {
        const char *orders = dj_form_get(f, "orders");
        if (!orders || !*orders)
            return *why = "No orders were given.", -1;
        dj_buf_append(msg, orders);
        dj_buf_append(msg, "\n");
        return 0;
    }
    case MSG_READY: {
        static const char *const flags[][2] = {{"ready", "READY"},
                                               {"not-ready", "NOT READY"},
                                               {"wait", "SET WAIT"},
                                               {"no-wait", "SET NOWAIT"}};
        const char *flag = dj_form_get(f, "flag");
        for (size_t i = 0; flag && i < sizeof flags / sizeof flags[0]; i++)
            if (strcmp(flag, flags[i][0]) == 0) {
                dj_buf_printf(msg, "%s\n", flags[i][1]);
                return 0;
            }
        return *why = "Ready, not ready, wait or no wait?", -1;
    }
    case MSG_PRESS: {
        const char *to = dj_form_get(f, "to");
        const char *text = dj_form_get(f, "text");
        bool grey = dj_form_get(f, "grey") != NULL;
        if (!text || !*text)
            return *why = "The press has no text.", -1;
        if (ends_press(text))
            return *why = "A line of the press says ENDPRESS: take it out.",
                   -1;
        if (!to || !*to || strcasecmp(to, "all") == 0 ||
            strcasecmp(to, "everyone") == 0)
            dj_buf_append(msg, grey ? "BROADCAST GREY\n" : "BROADCAST\n");
        else if (strpbrk(to, "\r\n"))
            return *why = "Recipients go on one line.", -1;
        else
            dj_buf_printf(msg, "PRESS TO %s%s\n", to, grey ? " GREY" : "");
        dj_buf_append(msg, text);
        dj_buf_append(msg, "\nENDPRESS\n");
        return 0;
    }
    default:
        return *why = "No such action.", -1;
    }
}

/* Run the text as a message of the signed-in participant; the reply is
 * the page.  0, or -1 with a 500 written. */
static int run_message(web_ctx *c, const char *text, dj_command_reply *reply)
{
    char client[96], message_id[96], nonce[33];
    client_name(c, client, sizeof client);
    if (dj_random_hex(nonce, 16) < 0) {
        web_fail(c, 500, "no random bytes");
        return -1;
    }
    snprintf(message_id, sizeof message_id, "<web.%s@judgeweb>", nonce);
    dj_command_msg msg = {client, NULL, text, c->rq->now, &c->id, NULL};
    int rc = dj_command_run(c->j, &msg, message_id, false, reply);
    if (rc < 0) {
        web_fail(c, 500, reply->error[0] ? reply->error : "the judge failed");
        return -1;
    }
    return 0;
}

static void act_message(web_ctx *c, message_form kind)
{
    dj_form f;
    if (dj_form_parse(c->rq->body, c->rq->body_len, &f) < 0) {
        web_fail(c, 400, "The form could not be read.");
        return;
    }
    dj_buf text;
    dj_buf_init(&text);
    const char *why = NULL;
    if (message_of(kind, &f, &text, &why) < 0) {
        dj_form_free(&f);
        dj_buf_free(&text);
        c->keep_fields = true; /* refused: the text comes back (flash.c) */
        web_page_game_notice(c, why);
        return;
    }
    dj_form_free(&f);
    if (!dj_buf_ok(&text)) {
        dj_buf_free(&text);
        web_fail(c, 500, "out of memory");
        return;
    }
    /* The order box takes orders, READY/WAIT, CLEAR and press only: what
     * could take the power over asks for the password (the account form),
     * the rest goes by mail (the command table's doors). */
    char what[64];
    dj_web_form form = dj_command_web_form(text.data, what, sizeof what);
    if (kind == MSG_ORDERS && form != DJ_WEB_FORM_ORDERS) {
        char notice[400];
        snprintf(notice, sizeof notice,
                 "Nothing was done: %s is not for the order box.  Account "
                 "commands (RESIGN, SET PASSWORD, SET ADDRESS, SET CONCEDE "
                 "...) go by the account form below, which asks for your "
                 "password again; others by mail.",
                 what[0] ? what : "a command");
        dj_buf_free(&text);
        c->keep_fields = true;
        web_page_game_notice(c, notice);
        return;
    }
    dj_command_reply reply;
    dj_command_reply_init(&reply);
    if (run_message(c, text.data, &reply) == 0) {
        c->keep_fields = reply.failed > 0; /* refused: typed text kept */
        web_page_game_notice(c, reply.body.data);
    }
    dj_buf_free(&text);
    dj_command_reply_free(&reply);
}

void web_message_run(web_ctx *c, const char *text)
{
    dj_command_reply reply;
    dj_command_reply_init(&reply);
    if (run_message(c, text, &reply) == 0) {
        c->keep_fields = reply.failed > 0;
        web_page_game_notice(c, reply.body.data);
    }
    dj_command_reply_free(&reply);
}

void web_act_orders(web_ctx *c)
{
    act_message(c, MSG_ORDERS);
}

void web_act_ready(web_ctx *c)
{
    act_message(c, MSG_READY);
}

void web_act_press(web_ctx *c)
{
    act_message(c, MSG_PRESS);
}

void web_act_account(web_ctx *c)
{
    dj_form f;
    if (dj_form_parse(c->rq->body, c->rq->body_len, &f) < 0) {
        web_fail(c, 400, "The form could not be read.");
        return;
    }
    const char *line = dj_form_get(&f, "command");
    const char *password = dj_form_get(&f, "password");
    char what[64];
    if (!line || !*line || strlen(line) > 500 || strpbrk(line, "\r\n") ||
        !password || strlen(password) > 200 ||
        dj_command_web_form(line, what, sizeof what) != DJ_WEB_FORM_ACCOUNT) {
        dj_form_free(&f);
        web_page_game_notice(c, "Nothing was done: the account form takes one "
                         "account command (RESIGN, SET PASSWORD, SET "
                         "ADDRESS, SET MASTER, TAKEOVER, SET CONCEDE, SET "
                         "DRAW ...).");
        return;
    }
    web_account_run(c, line, password);
    dj_form_free(&f);
}

void web_account_run(web_ctx *c, const char *line, const char *password)
{
    char text[600];
    snprintf(text, sizeof text, "%s\n", line);
    char client[96], device[DJ_WEB_TOKEN_LEN + 1];
    client_name(c, client, sizeof client);
    if (!dj_cookie_get(c->rq->cookie, "djd", device, sizeof device))
        device[0] = '\0';
    /* the password again, counted and limited as a sign-in's */
    if (!web_signin_begin(c)) {
        web_fail(c, 403, "Too many failed sign-ins from your address: try "
                         "again later.");
        return;
    }
    int rc = dj_game_web_reauth(c->j, &c->id, password, client, device);
    if (rc != DJ_SIGNON_REFUSED)
        web_signin_succeeded(c);
    if (rc < 0) {
        web_fail(c, 500, dj_judge_error(c->j));
        return;
    }
    if (rc == DJ_SIGNON_REFUSED) {
        char why[600];
        snprintf(why, sizeof why, "Nothing was done: %s.",
                 dj_judge_error(c->j));
        web_fail(c, 403, why);
        return;
    }
    dj_command_reply reply;
    dj_command_reply_init(&reply);
    if (run_message(c, text, &reply) < 0) {
        dj_command_reply_free(&reply);
        return;
    }
    /* A new password or address ended every session of the participant
     * (game/access.c): this browser, which made the change, stays in. */
    dj_signon now;
    char csrf[DJ_WEB_TOKEN_LEN + 1], token[DJ_WEB_TOKEN_LEN + 1];
    if (dj_game_web_session(c->j, c->token, &now, csrf) == 1 &&
        dj_game_web_renew(c->j, c->id.participant_id, client,
                          c->opt->session_lifetime, token, csrf) == 0) {
        web_sessions_cookie(c, c->id.game, token);
        snprintf(c->token, sizeof c->token, "%s", token);
        snprintf(c->csrf, sizeof c->csrf, "%s", csrf);
    }
    c->keep_fields = reply.failed > 0;
    web_page_game_notice(c, reply.body.data);
    dj_command_reply_free(&reply);
}
