/* SPDX-License-Identifier: MIT */
/*
 * handler.c — one request: its row of the route table (route_table.c),
 * its session, the checks every request passes (who may use the row, a
 * POST's form and CSRF token), then the row's page or action.
 *
 * Design.  Whatever a visitor may not see answers 404, exactly as a page
 * that does not exist, so nobody learns which games or phases exist by
 * asking.  Every response carries the same security headers (server.c
 * writes them): a Content-Security-Policy with script from this site
 * only (/pad.js, the one script: pad.c) and none inline, the stylesheet
 * and pictures from this site only.
 *
 * Pictures are the game room's: dj_game_picture() keeps each one drawn
 * in the picture cache on disk, for mail and the web alike (pages.c).
 * What worker threads share (the sign-in counts per client) is shared.c's.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/blind.h"
#include "game/game.h"
#include "game/websession.h"
#include "util/random.h"
#include "web/form.h"
#include "web/web_int.h"

/* Compare two tokens in time independent of where they differ. */
static bool same_token(const char *a, const char *b)
{
    size_t n = strlen(a);
    if (n != DJ_WEB_TOKEN_LEN || strlen(b) != n)
        return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

static bool token_shape(const char *t)
{
    return strlen(t) == DJ_WEB_TOKEN_LEN &&
           strspn(t, "0123456789abcdef") == DJ_WEB_TOKEN_LEN;
}

/* ---- the request ------------------------------------------------------------------ */

/* The browser's sessions: the djs cookie holds up to WEB_SESSIONS_MAX
 * tokens, '.' between them, one a game (sessions.c writes it).  Each live
 * one is kept; the path's game's is the request's session (else the
 * first, for the pages without a game). */
static void find_session(web_ctx *c)
{
    char all[WEB_SESSIONS_MAX * (DJ_WEB_TOKEN_LEN + 1) + 1];
    c->token[0] = '\0';
    if (!dj_cookie_get(c->rq->cookie, "djs", all, sizeof all))
        return;
    for (char *t = all; *t && c->nsessions < WEB_SESSIONS_MAX;) {
        size_t n = strcspn(t, ".");
        bool last = t[n] == '\0';
        t[n] = '\0';
        web_session_one *one = &c->sessions[c->nsessions];
        if (token_shape(t) &&
            dj_game_web_session(c->j, t, &one->id, one->csrf) == 0) {
            snprintf(one->token, sizeof one->token, "%s", t);
            c->nsessions++;
        }
        if (last)
            break;
        t += n + 1;
    }
    int pick = -1;
    for (int i = 0; i < c->nsessions; i++)
        if (c->route.game[0] &&
            strcasecmp(c->sessions[i].id.game, c->route.game) == 0)
            pick = i;
    if (pick < 0 && c->nsessions > 0)
        pick = 0;
    if (pick < 0)
        return;
    c->signed_in = true;
    c->id = c->sessions[pick].id;
    snprintf(c->token, sizeof c->token, "%s", c->sessions[pick].token);
    snprintf(c->csrf, sizeof c->csrf, "%s", c->sessions[pick].csrf);
}

/* The visitor's CSRF cookie: kept when well formed, else a new one. */
static void visitor_csrf(web_ctx *c)
{
    if (dj_cookie_get(c->rq->cookie, "djc", c->visitor_csrf,
                      sizeof c->visitor_csrf) &&
        token_shape(c->visitor_csrf))
        return;
    if (dj_random_hex(c->visitor_csrf, DJ_WEB_TOKEN_LEN / 2) < 0) {
        c->visitor_csrf[0] = '\0';
        return;
    }
    web_set_cookie(c, "djc", c->visitor_csrf, 86400);
}

/* A POST's form and its CSRF token: the session's for a signed-in action,
 * the visitor cookie's for signing in.  false: refused (403 written). */
static bool post_allowed(web_ctx *c, bool signin)
{
    const char *ct = c->rq->content_type;
    if (!ct || strncasecmp(ct, "application/x-www-form-urlencoded", 33) != 0) {
        web_fail(c, 400, "This form must be sent as a web form.");
        return false;
    }
    dj_form f;
    if (dj_form_parse(c->rq->body, c->rq->body_len, &f) < 0) {
        web_fail(c, 400, "The form could not be read.");
        return false;
    }
    const char *sent = dj_form_get(&f, "csrf");
    bool ok = sent && (signin ? same_token(sent, c->visitor_csrf)
                              : same_token(sent, c->csrf));
    /* a page without a game (/signout) takes any of the browser's
     * sessions' tokens */
    for (int i = 0; sent && !signin && !c->route.game[0] && i < c->nsessions;
         i++)
        ok |= same_token(sent, c->sessions[i].csrf);
    dj_form_free(&f);
    if (!ok)
        web_fail(c, 403, "This form has expired or did not come from this "
                         "site: go back, reload the page and send it again.");
    return ok;
}

/* May this request use the row?  A session of any game for
 * DJ_WHO_SIGNED_IN, of the path's game for DJ_WHO_IN_GAME. */
static bool who_allowed(const web_ctx *c, dj_route_who who)
{
    switch (who) {
    case DJ_WHO_STATIC:
    case DJ_WHO_ANYONE: return true;
    case DJ_WHO_SIGNED_IN: return c->signed_in;
    case DJ_WHO_IN_GAME: return web_signed_in_here(c);
    }
    return false;
}

void dj_web_handle(dj_web_shared *sh, dj_judge *j, const dj_web_request *rq,
                   dj_web_response *rs)
{
    web_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        rs->status = 500;
        rs->content_type = "text/plain";
        dj_buf_append(&rs->body, "out of memory\n");
        return;
    }
    c->sh = sh;
    c->opt = web_shared_options(sh);
    c->j = j;
    c->rq = rq;
    c->rs = rs;
    rs->cache = "no-store";
    rs->csp = "default-src 'self'; script-src 'self'; object-src 'none'; "
              "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    dj_judge_set_now(j, rq->now);
    dj_judge_set_actor(j, "judgeweb");
    dj_game_read_as(j, NULL); /* blind games: a visitor sees nothing */
    /* "/?state=play": the route is the path before '?', the rest the
     * query a page may read (web_query) */
    size_t path_len = rq->path ? strcspn(rq->path, "?") : 0;
    c->query = rq->path && rq->path[path_len] == '?' ? rq->path + path_len + 1
                                                     : "";
    dj_route_result found = dj_route_match(web_routes, web_routes_len,
                                           rq->method, rq->path, path_len,
                                           &c->route);
    if (found == DJ_ROUTE_NOT_FOUND) {
        web_not_found(c);
        goto done;
    }
    if (found == DJ_ROUTE_METHOD) {
        rs->allow = c->route.allow;
        web_fail(c, 405, "This page does not take that method.");
        goto done;
    }
    const dj_route_row *row = c->route.row;
    if (row->who != DJ_WHO_STATIC) {
        find_session(c);
        visitor_csrf(c);
    }
    if (!who_allowed(c, row->who)) {
        web_not_found(c); /* nothing here for a visitor */
        goto done;
    }
    if (strcmp(rq->method, "POST") == 0 &&
        !post_allowed(c, row->who == DJ_WHO_ANYONE))
        goto done;
    row->run(c);
done:
    web_flash_done(c);
    if (!dj_buf_ok(&rs->body)) {
        dj_buf_reset(&rs->body);
        rs->status = 500;
        rs->content_type = "text/plain";
    }
    free(c);
}
