/* SPDX-License-Identifier: MIT */
/*
 * sessions.c — one browser signed in to several games at once.
 *
 * Design.  Each sign-in is still its own session (websession.c: a random
 * token, its SHA-256 in the database, one participant of one game), so
 * nothing of the game room changes: the browser's djs cookie simply holds
 * up to WEB_SESSIONS_MAX tokens, '.' between them.  The handler looks each
 * up (handler.c's find_session) and the path's game picks the one a page
 * or action runs as; a form carries that session's own CSRF token.  A new
 * sign-in to a game replaces the browser's earlier session of that game;
 * past WEB_SESSIONS_MAX the oldest is dropped from the cookie.  Tokens of
 * sessions that ended (expired, signed out, the participant gone) drop
 * out at the next rewrite.  The cookie keeps its attributes (HttpOnly,
 * SameSite=Strict, Secure behind https: respond.c's web_set_cookie).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "game/websession.h"
#include "web/html.h"
#include "web/web_int.h"

void web_sessions_cookie(web_ctx *c, const char *drop_game,
                         const char *add_token)
{
    const char *keep[WEB_SESSIONS_MAX + 1];
    int n = 0;
    for (int i = 0; i < c->nsessions; i++) {
        if (!drop_game || strcasecmp(c->sessions[i].id.game, drop_game) != 0)
            keep[n++] = c->sessions[i].token;
        else if (strcmp(c->sessions[i].token, c->token) != 0 ||
                 (add_token && *add_token))
            /* the browser's earlier session of the game ends too (its
             * row would else live on, unreachable, until it expires) */
            (void)dj_game_web_signout(c->j, c->sessions[i].token);
    }
    if (add_token && *add_token)
        keep[n++] = add_token;
    int from = n > WEB_SESSIONS_MAX ? n - WEB_SESSIONS_MAX : 0;
    char value[WEB_SESSIONS_MAX * (DJ_WEB_TOKEN_LEN + 1) + 1] = "";
    size_t used = 0;
    for (int i = from; i < n; i++)
        used += (size_t)snprintf(value + used, sizeof value - used, "%s%s",
                                 used ? "." : "", keep[i]);
    if (used == 0)
        web_set_cookie(c, "djs", "x", 0); /* none left: it expires now */
    else
        web_set_cookie(c, "djs", value, c->opt->session_lifetime);
}

void web_act_signout_game(web_ctx *c)
{
    if (dj_game_web_signout(c->j, c->token) < 0) {
        web_fail(c, 500, dj_judge_error(c->j));
        return;
    }
    web_sessions_cookie(c, c->id.game, NULL);
    c->signed_in = false;
    web_flash_redirect(c, "Signed out of this game.");
}

void web_sessions_list(web_ctx *c, dj_buf *b)
{
    if (c->nsessions == 0)
        return;
    dj_buf_append(b, "<h2>Signed in</h2>\n<ul>\n");
    for (int i = 0; i < c->nsessions; i++) {
        const dj_signon *id = &c->sessions[i].id;
        dj_buf_append(b, "<li><a href=\"/game/");
        dj_html_url_segment(b, id->game);
        dj_buf_append(b, "\">");
        dj_html_text(b, id->game);
        dj_buf_append(b, "</a>: ");
        dj_html_text(b, id->power_name[0] ? id->power_name : id->role);
        if (strcmp(id->role, "master") == 0) {
            dj_buf_append(b, " (<a href=\"/game/");
            dj_html_url_segment(b, id->game);
            dj_buf_append(b, "/desk\">the master's desk</a>)");
        }
        dj_buf_append(b, "</li>\n");
    }
    dj_buf_append(b, "</ul>\n");
}
