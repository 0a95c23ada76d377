/* SPDX-License-Identifier: MIT */
/*
 * handler.c — one request: its route, its session, the checks every
 * request passes, then the page or action; and the state worker threads
 * share (the sign-in counts per client).
 *
 * Design.  Whatever a visitor may not see answers 404, exactly as a page
 * that does not exist, so nobody learns which games or phases exist by
 * asking.  Every response carries the same security headers (server.c
 * writes them): a Content-Security-Policy without any script, the
 * stylesheet and pictures from this site only.
 *
 * Pictures are the game room's: dj_game_picture() keeps each one drawn
 * in the picture cache on disk, for mail and the web alike (pages.c).
 *
 * Sign-in counts per client address are kept here as well as in the
 * database's failure table (which the mail door shares, per client and
 * game and per target): a client failing signin_limit times within the
 * window, whatever games it tries, is refused until the window passes.
 * An attempt counts as a failure from its start (web_signin_begin), in
 * the same locked step as the check, and is taken back when it succeeds:
 * worker threads answering one client at once cannot each pass the check
 * before any of them has counted.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "game/game.h"
#include "game/websession.h"
#include "util/random.h"
#include "web/form.h"
#include "web/html.h"
#include "web/web_int.h"

#define CLIENT_SLOTS 1024

typedef struct client_slot {
    char client[64];
    int64_t window_start;
    int failures;
} client_slot;

struct dj_web_shared {
    dj_web_options opt;
    char judge_name[64];
    char judge_address[256];
    pthread_mutex_t lock; /* for clients */
    client_slot clients[CLIENT_SLOTS];
};

dj_web_shared *dj_web_shared_new(const dj_web_options *opt)
{
    dj_web_shared *sh = calloc(1, sizeof *sh);
    if (!sh)
        return NULL;
    sh->opt = *opt;
    snprintf(sh->judge_name, sizeof sh->judge_name, "%s",
             opt->judge_name ? opt->judge_name : "dipjudge");
    snprintf(sh->judge_address, sizeof sh->judge_address, "%s",
             opt->judge_address ? opt->judge_address : "");
    sh->opt.judge_name = sh->judge_name;
    sh->opt.judge_address = sh->judge_address;
    pthread_mutex_init(&sh->lock, NULL);
    return sh;
}

void dj_web_shared_free(dj_web_shared *sh)
{
    if (!sh)
        return;
    pthread_mutex_destroy(&sh->lock);
    free(sh);
}

void dj_web_response_init(dj_web_response *rs)
{
    memset(rs, 0, sizeof *rs);
    dj_buf_init(&rs->body);
}

void dj_web_response_free(dj_web_response *rs)
{
    dj_buf_free(&rs->body);
}

/* ---- sign-in counts per client ------------------------------------------------- */

static client_slot *client_find(dj_web_shared *sh, const char *client,
                                int64_t now, bool make)
{
    client_slot *oldest = &sh->clients[0];
    for (int i = 0; i < CLIENT_SLOTS; i++) {
        client_slot *s = &sh->clients[i];
        if (s->client[0] && strcmp(s->client, client) == 0) {
            if (now - s->window_start >= sh->opt.signin_window) {
                s->window_start = now;
                s->failures = 0;
            }
            return s;
        }
        if (s->window_start < oldest->window_start)
            oldest = s;
    }
    if (!make)
        return NULL;
    snprintf(oldest->client, sizeof oldest->client, "%s", client);
    oldest->window_start = now;
    oldest->failures = 0;
    return oldest;
}

bool web_signin_begin(web_ctx *c)
{
    pthread_mutex_lock(&c->sh->lock);
    client_slot *s = client_find(c->sh, c->rq->client, c->rq->now, true);
    bool ok = s->failures < c->opt->signin_limit;
    if (ok)
        s->failures++; /* until web_signin_succeeded says otherwise */
    pthread_mutex_unlock(&c->sh->lock);
    return ok;
}

void web_signin_succeeded(web_ctx *c)
{
    pthread_mutex_lock(&c->sh->lock);
    client_slot *s = client_find(c->sh, c->rq->client, c->rq->now, false);
    if (s && s->failures > 0)
        s->failures--;
    pthread_mutex_unlock(&c->sh->lock);
}

/* ---- responses ------------------------------------------------------------------ */

void web_utc(int64_t t, dj_buf *out)
{
    time_t tt = (time_t)t;
    struct tm tm;
    char s[64];
    if (!gmtime_r(&tt, &tm) ||
        strftime(s, sizeof s, "%a %d %b %Y %H:%M UTC", &tm) == 0)
        snprintf(s, sizeof s, "%lld", (long long)t);
    dj_buf_append(out, s);
}

void web_html_page(web_ctx *c)
{
    c->rs->status = 200;
    c->rs->content_type = "text/html; charset=utf-8";
}

static void simple_page(web_ctx *c, int status, const char *title,
                        const char *text)
{
    dj_buf_reset(&c->rs->body);
    dj_html_begin(&c->rs->body, c->opt->judge_name, title);
    dj_buf_append(&c->rs->body, "<h1>");
    dj_html_text(&c->rs->body, title);
    dj_buf_append(&c->rs->body, "</h1>\n<p>");
    dj_html_text(&c->rs->body, text);
    dj_buf_append(&c->rs->body, "</p>\n<p><a href=\"/\">The judge's "
                                "games</a></p>\n");
    dj_html_end(&c->rs->body);
    c->rs->status = status;
    c->rs->content_type = "text/html; charset=utf-8";
}

void web_not_found(web_ctx *c)
{
    simple_page(c, 404, "Not found", "There is no such page here.");
}

void web_fail(web_ctx *c, int status, const char *why)
{
    simple_page(c, status,
                status == 403   ? "Refused"
                : status == 413 ? "Too large"
                : status == 405 ? "Method not allowed"
                : status >= 500 ? "Server error"
                                : "Bad request",
                why);
}

void web_set_cookie(web_ctx *c, const char *name, const char *value,
                    int max_age)
{
    dj_web_response *rs = c->rs;
    if (rs->ncookies == (int)(sizeof rs->cookies / sizeof rs->cookies[0]))
        return;
    snprintf(rs->cookies[rs->ncookies++], sizeof rs->cookies[0],
             "%s=%s; Path=/; Max-Age=%d; HttpOnly; SameSite=Strict%s", name,
             value, max_age, c->opt->secure_cookies ? "; Secure" : "");
}

bool web_signed_in_here(const web_ctx *c)
{
    return c->signed_in && strcasecmp(c->id.game, c->route.game) == 0;
}

void web_csrf_field(const web_ctx *c, dj_buf *out, bool signed_in_form)
{
    dj_buf_append(out, "<input type=\"hidden\" name=\"csrf\" value=\"");
    dj_html_text(out, signed_in_form ? c->csrf : c->visitor_csrf);
    dj_buf_append(out, "\">\n");
}

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

static void find_session(web_ctx *c)
{
    if (!dj_cookie_get(c->rq->cookie, "djs", c->token, sizeof c->token) ||
        !token_shape(c->token)) {
        c->token[0] = '\0';
        return;
    }
    int rc = dj_game_web_session(c->j, c->token, &c->id, c->csrf);
    c->signed_in = rc == 0;
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
    dj_form_free(&f);
    if (!ok)
        web_fail(c, 403, "This form has expired or did not come from this "
                         "site: go back, reload the page and send it again.");
    return ok;
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
    c->opt = &sh->opt;
    c->j = j;
    c->rq = rq;
    c->rs = rs;
    rs->cache = "no-store";
    rs->csp = "default-src 'self'; script-src 'none'; object-src 'none'; "
              "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    dj_judge_set_now(j, rq->now);
    dj_judge_set_actor(j, "judgeweb");
    dj_route_kind k = dj_route_parse(rq->method, rq->path,
                                     rq->path ? strlen(rq->path) : 0,
                                     &c->route);
    if (k == DJ_ROUTE_NOT_FOUND) {
        web_not_found(c);
        goto done;
    }
    if (k == DJ_ROUTE_METHOD) {
        rs->allow = c->route.allow;
        web_fail(c, 405, "This page does not take that method.");
        goto done;
    }
    if (k == DJ_ROUTE_STYLE) {
        rs->status = 200;
        rs->content_type = "text/css; charset=utf-8";
        rs->cache = "public, max-age=3600";
        dj_buf_append(&rs->body, dj_html_style);
        goto done;
    }
    find_session(c);
    visitor_csrf(c);
    bool post = strcmp(rq->method, "POST") == 0;
    if (post && k != DJ_ROUTE_SIGNIN && !c->signed_in) {
        web_not_found(c); /* nothing here for a visitor */
        goto done;
    }
    if (post && k != DJ_ROUTE_SIGNIN && k != DJ_ROUTE_SIGNOUT &&
        !web_signed_in_here(c)) {
        web_not_found(c);
        goto done;
    }
    if (post && !post_allowed(c, k == DJ_ROUTE_SIGNIN))
        goto done;
    switch (k) {
    case DJ_ROUTE_HOME: web_page_home(c); break;
    case DJ_ROUTE_GAME: web_page_game(c, NULL); break;
    case DJ_ROUTE_GAME_JSON: web_page_json(c); break;
    case DJ_ROUTE_PRESS: web_page_press(c); break;
    case DJ_ROUTE_PHASE: web_page_phase(c); break;
    case DJ_ROUTE_BOARD_SVG: web_page_picture(c, false); break;
    case DJ_ROUTE_ORDERS_SVG: web_page_picture(c, true); break;
    case DJ_ROUTE_SIGNIN: web_act_signin(c); break;
    case DJ_ROUTE_SIGNOUT: web_act_signout(c); break;
    case DJ_ROUTE_ORDERS:
    case DJ_ROUTE_READY:
    case DJ_ROUTE_SEND_PRESS: web_act_message(c); break;
    case DJ_ROUTE_ACCOUNT: web_act_account(c); break;
    default: web_not_found(c); break;
    }
done:
    if (!dj_buf_ok(&rs->body)) {
        dj_buf_reset(&rs->body);
        rs->status = 500;
        rs->content_type = "text/plain";
    }
    free(c);
}
