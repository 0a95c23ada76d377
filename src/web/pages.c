/* SPDX-License-Identifier: MIT */
/*
 * pages.c — the pages a visitor reads: the judge's games, the stylesheet,
 * a game now, a phase, the press archive, the game as JSON, and the
 * pictures; each a row of the route table (route_table.c).
 *
 * Every text comes from the game room (the same words a player gets by
 * mail: LIST, HISTORY, the order status) and reaches the page through
 * dj_html_text.  A game or phase that does not exist, or that the visitor
 * may not see, is web_not_found: the same 404 as any unknown path.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/blind.h"
#include "game/game.h"
#include "game/orders.h"
#include "game/pictures.h"
#include "game/press.h"
#include "game/reading.h"
#include "game/signon.h"
#include "render/render.h"
#include "store/press.h"
#include "web/html.h"
#include "web/pad.h"
#include "web/web_int.h"

static dj_buf *body(web_ctx *c)
{
    return &c->rs->body;
}

/* <a href="/game/NAME[/REST]">TEXT</a> */
static void game_link(dj_buf *b, const char *game, const char *rest,
                      const char *text)
{
    dj_buf_append(b, "<a href=\"/game/");
    dj_html_url_segment(b, game);
    if (rest) {
        dj_buf_append(b, "/");
        dj_html_url_segment(b, rest);
    }
    dj_buf_append(b, "\">");
    dj_html_text(b, text);
    dj_buf_append(b, "</a> ");
}

static void signin_fields(web_ctx *c, dj_buf *b);

static void pre(dj_buf *b, const char *text)
{
    dj_buf_append(b, "<pre>");
    dj_html_text(b, text);
    dj_buf_append(b, "</pre>\n");
}

/* The game named by the route, as a visitor may see it: 0, or not (a 404
 * written). */
static int load_game(web_ctx *c, dj_game_overview *o)
{
    /* a blind game: every read of this page shows what its reader sees */
    dj_game_read_as(c->j, web_signed_in_here(c) ? &c->id : NULL);
    int rc = dj_game_overview_get(c->j, c->route.game, o);
    /* a private game's pages are its participants' only */
    if (rc == 0 && o->private_game && !web_signed_in_here(c))
        rc = 1;
    if (rc == 0)
        return 0;
    if (rc < 0)
        web_fail(c, 500, dj_judge_error(c->j));
    else
        web_not_found(c);
    return -1;
}

/* The route's game as load_game gives it, and its phases in order (*ph
 * malloc'd): 0, or -1 with the page written (404 or 500). */
static int load_game_phases(web_ctx *c, dj_game_overview *o,
                            dj_phase_ref **ph, int *nph)
{
    *ph = NULL;
    *nph = 0;
    if (load_game(c, o) < 0)
        return -1;
    if (dj_game_phases(c->j, o->name, ph, nph) < 0) {
        web_fail(c, 500, dj_judge_error(c->j));
        return -1;
    }
    return 0;
}

/* The index of the route's phase among ph, or -1. */
static int route_phase(const web_ctx *c, const dj_phase_ref *ph, int nph)
{
    int at = -1;
    for (int i = 0; i < nph; i++)
        if (strcasecmp(ph[i].name, c->route.phase) == 0)
            at = i;
    return at;
}

/* ---- /style.css --------------------------------------------------------------- */

void web_page_style(web_ctx *c)
{
    c->rs->status = 200;
    c->rs->content_type = "text/css; charset=utf-8";
    c->rs->cache = "public, max-age=3600";
    dj_buf_append(body(c), dj_html_style);
}

/* ---- / ---------------------------------------------------------------------- */

void web_page_home(web_ctx *c)
{
    web_flash_take(c); /* the answer of a form sent from here (flash.c) */
    dj_buf *b = body(c);
    /* the lists first: a bad filter is a 400 before any of the page */
    dj_buf lists;
    dj_buf_init(&lists);
    if (web_front_games(c, &lists) < 0) {
        dj_buf_free(&lists);
        return;
    }
    dj_html_begin(b, c->opt->judge_name, "Games");
    dj_buf_append(b, "<h1>Games on ");
    dj_html_text(b, c->opt->judge_name);
    dj_buf_append(b, "</h1>\n");
    if (web_flash_notice(c)) {
        dj_buf_append(b, "<div class=\"notice\">");
        pre(b, web_flash_notice(c));
        dj_buf_append(b, "</div>\n");
    }
    dj_buf_append_n(b, lists.data ? lists.data : "", lists.len);
    dj_buf_free(&lists);
    web_sessions_list(c, b);
    dj_buf_append(b, "<h2>Sign in to a game</h2>\n<p>For any game, "
                     "private ones too: your power (or <code>master</code>,"
                     " <code>observer</code>) and your password.</p>\n"
                     "<form method=\"post\" action=\"/signin\">\n");
    dj_buf_append(b, "<p><label>Game <input name=\"game\" required>"
                     "</label></p>\n");
    signin_fields(c, b);
    dj_buf_append(b, "<h2>Joining a game</h2>\n<p>Games are joined by mail "
                     "(or by the forms below, which mail you the same code): "
                     "send <code>JOIN game PASSWORD</code> (or <code>OBSERVE"
                     " game PASSWORD</code>) to <code>");
    dj_html_text(b, c->opt->judge_address);
    dj_buf_append(b, "</code>, and answer the confirmation it mails back. "
                     "<code>HELP</code> by mail lists every command. Once in "
                     "a game, sign in on its page with your power and the "
                     "same password to give orders here.</p>\n");
    web_join_forms(c, b, NULL);
    dj_html_end(b);
    web_html_page(c);
}

/* ---- /game/NAME ----------------------------------------------------------------- */

static void board_picture(dj_buf *b, const char *game, const char *phase,
                          const char *file, const char *alt)
{
    dj_buf_append(b, "<p><img class=\"board\" src=\"/game/");
    dj_html_url_segment(b, game);
    dj_buf_append(b, "/");
    dj_html_url_segment(b, phase);
    dj_buf_append(b, "/");
    dj_buf_append(b, file);
    dj_buf_append(b, "\" alt=\"");
    dj_html_text(b, alt);
    /* on a phone the names are small: the picture alone, to zoom */
    dj_buf_append(b, "\"><br><a href=\"/game/");
    dj_html_url_segment(b, game);
    dj_buf_append(b, "/");
    dj_html_url_segment(b, phase);
    dj_buf_append(b, "/");
    dj_buf_append(b, file);
    dj_buf_append(b, "\">The picture at full size</a></p>\n");
}

static void game_nav(dj_buf *b, const char *game)
{
    dj_buf_append(b, "<nav>");
    game_link(b, game, NULL, "The game now");
    game_link(b, game, "press", "Press");
    dj_buf_append(b, "<a href=\"/game/");
    dj_html_url_segment(b, game);
    dj_buf_append(b, ".json\">JSON</a></nav>\n");
}

static void phase_list(dj_buf *b, const char *game, const dj_phase_ref *ph,
                       int n)
{
    if (n == 0)
        return;
    dj_buf_append(b, "<h2>Phases</h2>\n<p>");
    for (int i = 0; i < n; i++) {
        if (i)
            dj_buf_append(b, " ");
        game_link(b, game, ph[i].name, ph[i].name);
    }
    dj_buf_append(b, "</p>\n");
}

static void form_start(dj_buf *b, const char *game, const char *action)
{
    dj_buf_append(b, "<form method=\"post\" action=\"/game/");
    dj_html_url_segment(b, game);
    dj_buf_printf(b, "/%s\">\n", action);
}

/* The sign-in form's fields, its token and its button, then </form>. */
static void signin_fields(web_ctx *c, dj_buf *b)
{
    web_csrf_field(c, b, false);
    dj_buf_append(b, "<p><label>Power <input name=\"power\" required "
                     "autocomplete=\"username\"></label></p>\n"
                     "<p><label>Address (observers only) <input name=\""
                     "address\" type=\"email\" autocomplete=\"email\">"
                     "</label></p>\n"
                     "<p><label>Password <input name=\"password\" "
                     "type=\"password\" required autocomplete=\""
                     "current-password\"></label></p>\n"
                     "<p><button type=\"submit\">Sign in</button></p>\n"
                     "</form>\n");
}

static void signin_form(web_ctx *c, dj_buf *b, const char *game)
{
    dj_buf_append(b, "<h2>Sign in</h2>\n<p>Players sign in with their power "
                     "and the password they use by mail (a game master with "
                     "<code>master</code>; an observer with <code>observer"
                     "</code> and the address it observes from).</p>\n");
    form_start(b, game, "signin");
    signin_fields(c, b);
}

static void press_form(web_ctx *c, dj_buf *b, const dj_game_overview *o)
{
    dj_buf_append(b, "<h2>Send press</h2>\n");
    form_start(b, o->name, "press");
    web_csrf_field(c, b, true);
    dj_buf_append(b, "<p><label>To <input name=\"to\" placeholder=\"");
    if (strcmp(o->press, "none") == 0)
        dj_buf_append(b, "master\" value=\"master");
    else if (!o->partial_press)
        dj_buf_append(b, "all\" value=\"all");
    else
        dj_buf_append(b, "England, or all");
    dj_buf_append(b, "\" required></label> ");
    dj_html_textf(b, "(this game's press: %s%s)", o->press,
                  strcmp(o->press, "none") == 0 ? ", to the master only"
                  : o->partial_press          ? ""
                                              : ", broadcasts only");
    dj_buf_append(b, "</p>\n");
    if (o->grey_choice)
        dj_buf_append(b, "<p><label><input type=\"checkbox\" name=\"grey\" "
                         "value=\"1\"> grey (anonymous)</label></p>\n");
    dj_buf_append(b, "<p><label>Message<br><textarea name=\"text\" rows=\"6\" "
                     "required>");
    dj_html_text(b, web_flash_field(c, "text")); /* a refused press's */
    dj_buf_append(b, "</textarea></label></p>\n<p><button "
                     "type=\"submit\">Send</button></p>\n</form>\n");
}

static void player_forms(web_ctx *c, dj_buf *b, const dj_game_overview *o)
{
    const dj_signon *id = &c->id;
    dj_buf_append(b, "<h2>Signed in as ");
    dj_html_text(b, id->power_name[0] ? id->power_name : id->role);
    dj_buf_append(b, "</h2>\n");
    if (id->power_name[0]) {
        dj_buf st;
        dj_buf_init(&st);
        if (dj_game_order_status(c->j, o->name, id->power_name, &st) == 0) {
            web_drop_deadline_lines(&st); /* the page gives it once */
            pre(b, st.data);
        }
        dj_buf_free(&st);
        form_start(b, o->name, "orders");
        web_csrf_field(c, b, true);
        dj_buf_append(b, "<p><label>Orders, one a line, as by mail<br>"
                         "<textarea name=\"orders\" rows=\"8\" required>");
        dj_html_text(b, web_flash_field(c, "orders")); /* refused ones */
        dj_buf_append(b, "</textarea></label></p>\n<p><button type=\"submit"
                         "\">Send orders</button></p>\n</form>\n");
        form_start(b, o->name, "ready");
        web_csrf_field(c, b, true);
        dj_buf_append(b, "<p><button type=\"submit\" name=\"flag\" value=\""
                         "ready\">Ready</button> <button type=\"submit\" "
                         "name=\"flag\" value=\"not-ready\">Not ready</button>"
                         " <button type=\"submit\" name=\"flag\" value=\"wait"
                         "\">Wait</button> <button type=\"submit\" name=\"flag"
                         "\" value=\"no-wait\">No wait</button></p>\n"
                         "</form>\n");
        web_vote_form(c, b, o->name); /* votes.c */
    }
    if (strcmp(id->role, "master") == 0) {
        dj_buf_append(b, "<p>");
        game_link(b, o->name, "desk", "The master's desk");
        dj_buf_append(b, "</p>\n");
    }
    press_form(c, b, o);
    /* what changes who holds the power goes here, with the password
     * (dj_command_web_form): never by the order box on a session alone */
    dj_buf_append(b, "<h2>Your account</h2>\n");
    form_start(b, o->name, "account");
    web_csrf_field(c, b, true);
    dj_buf_append(b, "<p><label>Command, as by mail (RESIGN, SET PASSWORD "
                     "new, SET ADDRESS new-address, SET CONCEDE power, "
                     "SET DRAW, SET MASTER address, TAKEOVER) "
                     "<input name=\"command\" required></label>"
                     "</p>\n<p><label>Your password, again <input name=\""
                     "password\" type=\"password\" required autocomplete=\""
                     "current-password\"></label></p>\n<p><button type=\""
                     "submit\">Send</button></p>\n</form>\n");
    dj_buf_append(b, "<form method=\"post\" action=\"/signout\">\n");
    web_csrf_field(c, b, true);
    dj_buf_append(b, "<p><button type=\"submit\">Sign out</button></p>\n"
                     "</form>\n");
    form_start(b, o->name, "signout"); /* this game only (sessions.c) */
    web_csrf_field(c, b, true);
    dj_buf_append(b, "<p><button type=\"submit\">Sign out of this game "
                     "only</button></p>\n</form>\n");
}

void web_page_game_notice(web_ctx *c, const char *notice)
{
    /* a POST's answer waits for the page it redirects to (flash.c) */
    if (strcmp(c->rq->method, "POST") == 0) {
        web_flash_redirect(c, notice);
        return;
    }
    web_flash_take(c);
    if (!notice)
        notice = web_flash_notice(c);
    dj_game_overview o;
    dj_phase_ref *ph;
    int nph;
    if (load_game_phases(c, &o, &ph, &nph) < 0)
        return;
    dj_buf *b = body(c);
    dj_buf_reset(b);
    char title[64];
    snprintf(title, sizeof title, "Game %s", o.name);
    dj_html_begin(b, c->opt->judge_name, title);
    dj_buf_append(b, "<h1>");
    dj_html_text(b, title);
    dj_buf_append(b, "</h1>\n");
    game_nav(b, o.name);
    if (notice) {
        dj_buf_append(b, "<div class=\"notice\">");
        pre(b, notice);
        dj_buf_append(b, "</div>\n");
    }
    dj_buf_append(b, "<p>");
    dj_html_textf(b, "Board %s; %s", o.map, o.state);
    if (o.phase[0])
        dj_html_textf(b, "; phase %s", o.phase);
    dj_buf_append(b, ".</p>\n");
    /* the deadline once (a countdown, the viewer's zone, the game's, UTC)
     * and the powers as a table (game_table.c) */
    web_power_table(c, b, &o);
    if (nph > 0 && !web_pad_board(c, b, &o, &ph[nph - 1]))
        board_picture(b, o.name, ph[nph - 1].name, "board.svg",
                      "The board now");
    if (web_signed_in_here(c))
        player_forms(c, b, &o);
    dj_buf text;
    dj_buf_init(&text);
    if (dj_game_show_public(c->j, o.name, &text) == 0) {
        /* the settings and the rest of LIST GAME, folded away */
        dj_buf_append(b, "<details><summary>The game as LIST gives it by "
                         "mail (settings, position)</summary>\n");
        pre(b, text.data);
        dj_buf_append(b, "</details>\n");
    }
    const dj_phase_ref *last = NULL;
    for (int i = 0; i < nph; i++)
        if (ph[i].played)
            last = &ph[i];
    if (last) {
        dj_buf_reset(&text);
        dj_buf_append(b, "<h2>Last results: ");
        game_link(b, o.name, last->name, last->name);
        dj_buf_append(b, "</h2>\n");
        board_picture(b, o.name, last->name, "orders.svg",
                      "The board after the last phase, with its orders and "
                      "their results");
        /* the results as mailed, folded: they end with the deadline
         * the table above already gives */
        if (dj_game_history(c->j, o.name, last->name, last->name, &text) ==
            0) {
            dj_buf_append(b, "<details><summary>The results as mailed"
                             "</summary>\n");
            pre(b, text.data);
            dj_buf_append(b, "</details>\n");
        }
    }
    dj_buf_free(&text);
    phase_list(b, o.name, ph, nph);
    if (!web_signed_in_here(c)) {
        signin_form(c, b, o.name);
        web_join_forms(c, b, o.name); /* votes.c */
    }
    dj_html_end(b);
    free(ph);
    web_html_page(c);
}

void web_page_game(web_ctx *c)
{
    web_page_game_notice(c, NULL);
}

/* ---- /game/NAME/PHASE ---------------------------------------------------------------- */

static void centre_table(dj_buf *b, const dj_centre_history *t)
{
    if (t->nyears == 0)
        return;
    dj_buf_append(b, "<h2>Supply centres</h2>\n<div class=\"scroll\"><table>"
                     "\n<tr><th>Year</th>");
    for (int p = 0; p < t->npowers; p++) {
        dj_buf_append(b, "<th>");
        dj_html_text(b, t->power[p]);
        dj_buf_append(b, "</th>");
    }
    dj_buf_append(b, "</tr>\n");
    for (int y = 0; y < t->nyears; y++) {
        dj_buf_append(b, "<tr><td>");
        if (y == 0 && t->start)
            dj_html_text(b, "start");
        else
            dj_html_textf(b, "%d", t->year[y]);
        dj_buf_append(b, "</td>");
        for (int p = 0; p < t->npowers; p++) {
            dj_buf_append(b, "<td>");
            dj_html_textf(b, "%d", t->count[y][p]);
            dj_buf_append(b, "</td>");
        }
        dj_buf_append(b, "</tr>\n");
    }
    dj_buf_append(b, "</table></div>\n");
    /* The chart: the last year's centres as bars, widths in the markup's
     * own units (no style attribute: the CSP allows none). */
    int y = t->nyears - 1;
    dj_buf_append(b, "<h3>");
    dj_html_textf(b, "Centres after %d", t->year[y]);
    dj_buf_append(b, "</h3>\n<table>\n");
    for (int p = 0; p < t->npowers; p++) {
        dj_buf_append(b, "<tr><td>");
        dj_html_text(b, t->power[p]);
        dj_buf_append(b, "</td><td><meter min=\"0\" max=\"18\" value=\"");
        dj_html_textf(b, "%d", t->count[y][p]);
        dj_buf_append(b, "\">");
        dj_html_textf(b, "%d", t->count[y][p]);
        dj_buf_append(b, "</meter> ");
        dj_html_textf(b, "%d", t->count[y][p]);
        dj_buf_append(b, "</td></tr>\n");
    }
    dj_buf_append(b, "</table>\n");
}

void web_page_phase(web_ctx *c)
{
    dj_game_overview o;
    dj_phase_ref *ph;
    int nph;
    if (load_game_phases(c, &o, &ph, &nph) < 0)
        return;
    int at = route_phase(c, ph, nph);
    if (at < 0) {
        free(ph);
        web_not_found(c);
        return;
    }
    dj_buf *b = body(c);
    char title[64];
    snprintf(title, sizeof title, "%s: %s", o.name, ph[at].name);
    dj_html_begin(b, c->opt->judge_name, title);
    dj_buf_append(b, "<h1>");
    dj_html_text(b, title);
    dj_buf_append(b, "</h1>\n");
    game_nav(b, o.name);
    dj_buf_append(b, "<nav>");
    if (at > 0)
        game_link(b, o.name, ph[at - 1].name, "Previous phase");
    if (at + 1 < nph)
        game_link(b, o.name, ph[at + 1].name, "Next phase");
    dj_buf_append(b, "</nav>\n");
    if (ph[at].played) {
        /* The captions say what each picture draws: the played phase's
         * picture is the board after it with its orders and results
         * (game/picture.c titles it so); the next phase's is the board
         * that phase starts from. */
        dj_buf_append(b, "<h2>The orders and their results, on the board "
                         "after the phase</h2>\n");
        board_picture(b, o.name, ph[at].name, "orders.svg",
                      "The board after the phase, with its orders and "
                      "their results");
        if (at + 1 < nph) {
            char next[96];
            snprintf(next, sizeof next, "The board %s starts from",
                     ph[at + 1].name);
            dj_buf_append(b, "<h2>");
            dj_html_text(b, next);
            dj_buf_append(b, "</h2>\n");
            board_picture(b, o.name, ph[at + 1].name, "board.svg", next);
        }
        dj_buf text;
        dj_buf_init(&text);
        if (dj_game_history(c->j, o.name, ph[at].name, ph[at].name, &text) ==
            0) {
            dj_buf_append(b, "<h2>Orders and results</h2>\n");
            pre(b, text.data);
        }
        dj_buf_free(&text);
    } else {
        dj_buf_append(b, "<p>This phase is being played: its orders are "
                         "secret until it is adjudicated.</p>\n");
        board_picture(b, o.name, ph[at].name, "board.svg", "The board now");
    }
    dj_centre_history *t = malloc(sizeof *t);
    if (t && dj_game_centre_history(c->j, o.name, t) == 0)
        centre_table(b, t);
    free(t);
    dj_html_end(b);
    free(ph);
    web_html_page(c);
}

/* ---- /game/NAME/press ---------------------------------------------------------------- */

/* The press grouped by correspondents (issue 38): who wrote to whom as
 * the reader may know it (a grey sender as the game room names it, fake
 * press with the recipients it claimed), each pair's messages together in
 * the order they were sent, the pairs in the order they first wrote. */
#define PRESS_GROUPS 64
typedef struct press_group {
    char from[128], to[256];
    dj_buf html;
    int count;
} press_group;

typedef struct press_page {
    press_group *g; /* PRESS_GROUPS, the last one for the rest */
    int ngroups;
    int shown;
} press_page;

static press_group *press_group_of(press_page *pp, const dj_press_item *it)
{
    for (int i = 0; i < pp->ngroups; i++)
        if (strcmp(pp->g[i].from, it->from) == 0 &&
            strcmp(pp->g[i].to, it->to) == 0)
            return &pp->g[i];
    if (pp->ngroups == PRESS_GROUPS) /* the rest together, said so */
        return &pp->g[PRESS_GROUPS - 1];
    press_group *g = &pp->g[pp->ngroups++];
    snprintf(g->from, sizeof g->from, "%s", it->from);
    snprintf(g->to, sizeof g->to, "%s", it->to);
    if (pp->ngroups == PRESS_GROUPS)
        snprintf(g->to, sizeof g->to, "%s", "others (and more)");
    return g;
}

static int press_one(void *arg, const dj_press_item *it)
{
    press_page *pp = arg;
    press_group *g = press_group_of(pp, it);
    dj_buf *b = &g->html;
    dj_buf_append(b, "<article>\n<h3>");
    dj_html_textf(b, "From %s to %s", it->from, it->to);
    dj_buf_append(b, "</h3>\n<p>");
    dj_buf tm;
    dj_buf_init(&tm);
    web_utc(it->rec->sent_at, &tm);
    dj_html_text(b, tm.data);
    dj_buf_free(&tm);
    if (it->phase && it->phase[0])
        dj_html_textf(b, ", %s", it->phase);
    dj_buf_append(b, "</p>\n");
    pre(b, it->body ? it->body : "");
    dj_buf_append(b, "</article>\n");
    g->count++;
    pp->shown++;
    return 0;
}

static void press_groups_write(dj_buf *b, const press_page *pp)
{
    if (pp->ngroups == 0)
        return;
    dj_buf_append(b, "<h2>Correspondents</h2>\n<ul class=\"correspondents"
                     "\">\n");
    for (int i = 0; i < pp->ngroups; i++) {
        dj_buf_printf(b, "<li><a href=\"#with-%d\">", i + 1);
        dj_html_textf(b, "%s to %s", pp->g[i].from, pp->g[i].to);
        dj_buf_append(b, "</a> ");
        dj_html_textf(b, "(%d)", pp->g[i].count);
        dj_buf_append(b, "</li>\n");
    }
    dj_buf_append(b, "</ul>\n");
    for (int i = 0; i < pp->ngroups; i++) {
        dj_buf_printf(b, "<section class=\"press\" id=\"with-%d\">\n<h2>",
                      i + 1);
        dj_html_textf(b, "%s to %s", pp->g[i].from, pp->g[i].to);
        dj_buf_append(b, "</h2>\n");
        dj_buf_append_n(b, pp->g[i].html.data, pp->g[i].html.len);
        dj_buf_append(b, "</section>\n");
    }
}

void web_page_press(web_ctx *c)
{
    dj_game_overview o;
    if (load_game(c, &o) < 0)
        return;
    dj_buf *b = body(c);
    char title[64];
    snprintf(title, sizeof title, "Press of %s", o.name);
    dj_html_begin(b, c->opt->judge_name, title);
    dj_buf_append(b, "<h1>");
    dj_html_text(b, title);
    dj_buf_append(b, "</h1>\n");
    game_nav(b, o.name);
    bool mine = web_signed_in_here(c);
    if (!mine)
        dj_buf_append(b, "<p>Sign in on the game's page to read the press "
                         "you may read as a player or observer.</p>\n");
    press_page pp = {calloc(PRESS_GROUPS, sizeof(press_group)), 0, 0};
    if (!pp.g) {
        web_fail(c, 500, "out of memory");
        return;
    }
    for (int i = 0; i < PRESS_GROUPS; i++)
        dj_buf_init(&pp.g[i].html);
    int rc = dj_game_press_each(c->j, o.name, mine ? &c->id : NULL, NULL,
                                NULL, press_one, &pp);
    if (rc == 0)
        press_groups_write(b, &pp);
    for (int i = 0; i < PRESS_GROUPS; i++)
        dj_buf_free(&pp.g[i].html);
    free(pp.g);
    if (rc < 0) {
        web_fail(c, 500, dj_judge_error(c->j));
        return;
    }
    if (pp.shown == 0)
        dj_buf_append(b, "<p>No press to show.</p>\n");
    dj_html_end(b);
    web_html_page(c);
}

/* ---- /game/NAME.json and the pictures ---------------------------------------------------- */

void web_page_json(web_ctx *c)
{
    dj_game_overview o;
    if (load_game(c, &o) < 0)
        return;
    if (dj_game_export_public(c->j, o.name, body(c)) < 0) {
        web_fail(c, 500, dj_judge_error(c->j));
        return;
    }
    c->rs->status = 200;
    c->rs->content_type = "application/json";
}

static void picture(web_ctx *c, bool orders)
{
    dj_game_overview o;
    dj_phase_ref *ph;
    int nph;
    if (load_game_phases(c, &o, &ph, &nph) < 0)
        return;
    int at = route_phase(c, ph, nph);
    /* A phase's orders are shown once it is played, never before. */
    bool shown = at >= 0 && (!orders || ph[at].played);
    /* Drawn once, then read from the game room's picture cache: with
     * orders, the phase as players see it once played; else the board
     * alone. */
    dj_picture pic = {NULL, 0};
    if (!shown || dj_game_picture(c->j, o.name, ph[at].name, orders ? -1 : 0,
                                  DJ_PICTURE_SVG, &pic) < 0) {
        free(ph);
        web_not_found(c); /* or a board without a geometry file */
        return;
    }
    free(ph);
    dj_buf_append_n(body(c), (const char *)pic.data, pic.len);
    dj_picture_free(&pic);
    c->rs->status = 200;
    c->rs->content_type = "image/svg+xml";
    /* a private game's pictures are its participants' only: no shared
     * cache (a proxy's) may keep one for the next visitor */
    c->rs->cache = o.private_game ? "private, max-age=300"
                   : web_signed_in_here(c)
                       ? "private, max-age=300" /* a blind game's: one
                                                   player's view */
                       : "public, max-age=300";
    /* cairo writes the picture's styles inline; nothing else may load */
    c->rs->csp = "default-src 'none'; style-src 'unsafe-inline'; "
                 "img-src data:";
}

void web_page_board_svg(web_ctx *c)
{
    picture(c, false);
}

void web_page_orders_svg(web_ctx *c)
{
    picture(c, true);
}
