/* SPDX-License-Identifier: MIT */
/*
 * respond.c — the pieces of a response that the handler, the pages and
 * the actions all write: the plain pages (404 and the other failures,
 * each a short page with a way back), an HTML page's status and type,
 * cookies, the CSRF field every form carries, a time in UTC, and whether
 * the request is signed in to its game.  Kept apart from the pages and
 * the actions so that they and the handler all use it and none of them
 * uses the others back.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "web/html.h"
#include "web/web_int.h"

void dj_web_response_init(dj_web_response *rs)
{
    memset(rs, 0, sizeof *rs);
    dj_buf_init(&rs->body);
}

void dj_web_response_free(dj_web_response *rs)
{
    dj_buf_free(&rs->body);
}

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
