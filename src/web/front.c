/* SPDX-License-Identifier: MIT */
/*
 * front.c — the front page's games (issue 38): in play, forming and
 * finished, filtered by board, press and speed, 50 a page, as judgeweb(8)
 * FRONT PAGE says.  Without `state` the page shows the three lists, the
 * first 50 of each with a link to the rest; with it, one list paged by
 * name (after=NAME, before=NAME).  Each list is one indexed query
 * (store/listing.h), so the page costs the same at 10 games or 100,000.
 *
 * Parameters are checked before anything is written: a value the page
 * does not take is a 400 that says which values it takes; a parameter it
 * does not know is left alone (links from elsewhere may carry some).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/reading.h"
#include "store/listing.h"
#include "web/form.h"
#include "web/html.h"
#include "web/web_int.h"

static const struct {
    const char *word, *heading, *all, *none;
} STATES[] = {
    {"play", "Games in play", "All games in play", "No game is being played."},
    {"forming", "Games forming", "All games forming", "No game is forming."},
    {"finished", "Finished games", "All finished games",
     "No game has finished."},
};
#define NSTATES (sizeof STATES / sizeof STATES[0])

static const char *const PRESS[] = {"none", "white", "grey", "white+grey"};
static const char *const SPEEDS[] = {"fast", "normal", "slow"};

/* A board's or game's name as the front page takes it. */
static bool name_ok(const char *s)
{
    size_t n = strlen(s);
    return n > 0 && n < 64 &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                     "0123456789-_") == n;
}

static bool one_of(const char *s, const char *const *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, words[i]) == 0)
            return true;
    return false;
}

/* "" and absent alike: no filter. */
static const char *param(const dj_form *q, const char *name)
{
    const char *v = dj_form_get(q, name);
    return v && *v ? v : NULL;
}

/* The filter from the query; 0, or -1 with the reason in why. */
static int read_query(const dj_form *q, dj_listing_filter *f, char *why,
                      size_t len)
{
    memset(f, 0, sizeof *f);
    f->state = param(q, "state");
    f->map = param(q, "board");
    f->press = param(q, "press");
    f->speed = param(q, "speed");
    f->after = param(q, "after");
    f->before = param(q, "before");
    if (f->state && strcmp(f->state, "all") == 0)
        f->state = NULL;
    bool state_ok = !f->state;
    for (size_t i = 0; i < NSTATES && !state_ok; i++)
        state_ok = strcmp(f->state, STATES[i].word) == 0;
    /* '+' in a query is a space: "white grey" is white+grey */
    if (f->press && strcmp(f->press, "white grey") == 0)
        f->press = "white+grey";
    if (!state_ok)
        snprintf(why, len, "state takes play, forming, finished or all.");
    else if (f->map && !name_ok(f->map))
        snprintf(why, len, "board takes a board's name (letters, digits, "
                           "'-' and '_').");
    else if (f->press && !one_of(f->press, PRESS, 4))
        snprintf(why, len, "press takes none, white, grey or white+grey.");
    else if (f->speed && !one_of(f->speed, SPEEDS, 3))
        snprintf(why, len, "speed takes fast (movement deadlines under a "
                           "day), normal (one to three days) or slow "
                           "(more).");
    else if ((f->after && !name_ok(f->after)) ||
             (f->before && !name_ok(f->before)))
        snprintf(why, len, "after and before take a game's name.");
    else if ((f->after || f->before) && !f->state)
        snprintf(why, len, "after and before page one list: give state "
                           "too.");
    else if (f->after && f->before)
        snprintf(why, len, "give after or before, not both.");
    else
        return 0;
    return -1;
}

/* href="/?state=...&board=...&after=NAME": the filters kept. */
static void href(dj_buf *b, const dj_listing_filter *f, const char *state,
                 const char *after, const char *before)
{
    dj_buf_append(b, "/");
    const char *keys[] = {"state", "board", "press", "speed", "after",
                          "before"};
    const char *vals[] = {state, f->map, f->press, f->speed, after, before};
    int k = 0;
    for (size_t i = 0; i < 6; i++) {
        if (!vals[i])
            continue;
        dj_buf_append(b, k++ ? "&amp;" : "?");
        dj_buf_append(b, keys[i]);
        dj_buf_append(b, "=");
        dj_html_url_segment(b, vals[i]);
    }
}

static const char *speed_word(int move_delay)
{
    return move_delay < 1440 ? "fast" : move_delay <= 4320 ? "normal" : "slow";
}

static void game_row(web_ctx *c, dj_buf *b, const dj_game_overview *g,
                     const char *state)
{
    bool finished = strcmp(state, "finished") == 0;
    bool forming = strcmp(state, "forming") == 0;
    dj_buf_append(b, "<tr><td><a href=\"/game/");
    dj_html_url_segment(b, g->name);
    dj_buf_append(b, "\">");
    dj_html_text(b, g->name);
    dj_buf_append(b, "</a></td><td>");
    dj_html_text(b, g->map);
    dj_buf_append(b, "</td>");
    if (!forming) {
        dj_buf_append(b, "<td>");
        dj_html_text(b, g->phase[0] ? g->phase : "-");
        dj_buf_append(b, "</td>");
    }
    dj_buf_append(b, "<td>");
    if (finished) {
        dj_html_text(b, g->ending[0] ? g->ending : "-");
    } else if (forming) {
        dj_html_textf(b, "%d", g->wanted);
    } else if (g->deadline) {
        dj_buf left;
        dj_buf_init(&left);
        web_remaining(g->deadline, c->rq->now, &left);
        dj_html_text(b, dj_buf_ok(&left) ? left.data : "");
        dj_buf_free(&left);
    } else {
        dj_html_text(b, strcmp(g->state, "paused") == 0 ? "paused" : "-");
    }
    dj_buf_append(b, "</td><td>");
    dj_html_text(b, g->press);
    dj_buf_append(b, "</td><td>");
    dj_html_text(b, speed_word(g->move_delay));
    dj_buf_append(b, "</td></tr>\n");
}

/* One list: its heading, a page of its games, its links. */
static int one_list(web_ctx *c, dj_buf *b, const dj_listing_filter *asked,
                    size_t si, bool paged)
{
    dj_listing_filter f = *asked;
    f.state = STATES[si].word;
    if (!paged)
        f.after = f.before = NULL;
    dj_game_overview *games = calloc(DJ_LISTING_PAGE, sizeof *games);
    int n = 0;
    bool more = false;
    if (!games || dj_game_listing(c->j, &f, games, &n, &more) < 0) {
        free(games);
        return -1;
    }
    dj_buf_append(b, "<section class=\"games\" id=\"");
    dj_buf_append(b, f.state);
    dj_buf_append(b, "\">\n<h2>");
    dj_html_text(b, STATES[si].heading);
    dj_buf_append(b, "</h2>\n");
    if (n == 0) {
        dj_buf_append(b, "<p>");
        dj_html_text(b, f.after || f.before ? "No more games."
                        : asked->map || asked->press || asked->speed
                            ? "No game of this list matches the filter."
                            : STATES[si].none);
        dj_buf_append(b, "</p>\n");
    } else {
        bool forming = si == 1, finished = si == 2;
        dj_buf_append(b, "<div class=\"scroll\"><table class=\"list\">\n"
                         "<thead><tr><th scope=\"col\">Game</th>"
                         "<th scope=\"col\">Board</th>");
        if (!forming)
            dj_buf_append(b, "<th scope=\"col\">Phase</th>");
        dj_buf_append(b, finished ? "<th scope=\"col\">How it ended</th>"
                         : forming ? "<th scope=\"col\">Players wanted</th>"
                                   : "<th scope=\"col\">Deadline</th>");
        dj_buf_append(b, "<th scope=\"col\">Press</th><th scope=\"col\">"
                         "Speed</th></tr></thead>\n<tbody>\n");
        for (int i = 0; i < n; i++)
            game_row(c, b, &games[i], f.state);
        dj_buf_append(b, "</tbody>\n</table></div>\n");
    }
    /* the links: previous and next in the paged list, else "all" */
    bool back = !f.after && f.before;
    bool has_prev = paged && (back ? more : f.after != NULL);
    bool has_next = back || (more && n > 0);
    if (n > 0 && (has_prev || has_next)) {
        dj_buf_append(b, "<nav class=\"pages\">");
        if (!paged) {
            dj_buf_append(b, "<a href=\"");
            href(b, asked, f.state, NULL, NULL);
            dj_buf_append(b, "\">");
            dj_html_text(b, STATES[si].all);
            dj_buf_append(b, " &#8594;</a>");
        } else {
            if (has_prev) {
                dj_buf_append(b, "<a rel=\"prev\" href=\"");
                href(b, asked, f.state, NULL, games[0].name);
                dj_buf_append(b, "\">&#8592; Previous 50</a>");
            }
            if (has_next) {
                dj_buf_append(b, "<a rel=\"next\" href=\"");
                href(b, asked, f.state, games[n - 1].name, NULL);
                dj_buf_append(b, "\">Next 50 &#8594;</a>");
            }
        }
        dj_buf_append(b, "</nav>\n");
    }
    dj_buf_append(b, "</section>\n");
    free(games);
    return 0;
}

static void option(dj_buf *b, const char *value, const char *label,
                   const char *chosen)
{
    dj_buf_append(b, "<option value=\"");
    dj_html_text(b, value);
    dj_buf_append(b, "\"");
    if (strcmp(chosen ? chosen : "", value) == 0)
        dj_buf_append(b, " selected");
    dj_buf_append(b, ">");
    dj_html_text(b, label);
    dj_buf_append(b, "</option>");
}

static void filter_form(dj_buf *b, const dj_listing_filter *f)
{
    dj_buf_append(b, "<form method=\"get\" action=\"/\" class=\"filter\">\n"
                     "<label>Games <select name=\"state\">");
    const char *state = f->state ? f->state : "all";
    option(b, "all", "all", state);
    option(b, "play", "in play", state);
    option(b, "forming", "forming", state);
    option(b, "finished", "finished", state);
    dj_buf_append(b, "</select></label>\n<label>Board <input name=\"board\" "
                     "size=\"10\" pattern=\"[A-Za-z0-9_\\-]+\" value=\"");
    dj_html_text(b, f->map ? f->map : "");
    dj_buf_append(b, "\"></label>\n<label>Press <select name=\"press\">");
    option(b, "", "any", f->press ? f->press : "");
    for (size_t i = 0; i < 4; i++)
        option(b, PRESS[i], PRESS[i], f->press);
    dj_buf_append(b, "</select></label>\n<label>Speed <select name=\""
                     "speed\">");
    option(b, "", "any", f->speed ? f->speed : "");
    option(b, "fast", "fast (under a day)", f->speed);
    option(b, "normal", "normal (1-3 days)", f->speed);
    option(b, "slow", "slow (over 3 days)", f->speed);
    dj_buf_append(b, "</select></label>\n<button type=\"submit\">Show"
                     "</button>\n</form>\n");
}

int web_front_games(web_ctx *c, dj_buf *b)
{
    dj_form q;
    const char *query = c->query ? c->query : "";
    if (dj_form_parse(query, strlen(query), &q) < 0) {
        web_fail(c, 400, "The address's query could not be read.");
        return -1;
    }
    dj_listing_filter f;
    char why[200];
    if (read_query(&q, &f, why, sizeof why) < 0) {
        char text[300];
        snprintf(text, sizeof text, "The front page does not take that: %s",
                 why);
        web_fail(c, 400, text);
        dj_form_free(&q);
        return -1;
    }
    filter_form(b, &f);
    int rc = 0;
    for (size_t i = 0; i < NSTATES && rc == 0; i++)
        if (!f.state || strcmp(f.state, STATES[i].word) == 0)
            rc = one_list(c, b, &f, i, f.state != NULL);
    dj_form_free(&q);
    if (rc < 0)
        web_fail(c, 500, dj_judge_error(c->j));
    return rc;
}
