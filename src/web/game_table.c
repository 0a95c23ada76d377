/* SPDX-License-Identifier: MIT */
/*
 * game_table.c — the game page's powers as a table and its deadline
 * (issue 38): one row a power (player as identities allows, centres,
 * units, orders in, READY), and the deadline written once, as a
 * <time class="countdown"> whose text the server writes ("in 1 day 3
 * hours") and /pad.js may tick each second, with the deadline in the
 * viewer's own zone (SET ZONE), the game's and UTC.
 *
 * What a viewer may see is the game room's (dj_game_power_table); this
 * file lays it out, every text through dj_html_text.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/reading.h"
#include "web/html.h"
#include "web/web_int.h"

void web_remaining(int64_t deadline, int64_t now, dj_buf *out)
{
    int64_t left = deadline - now;
    if (left <= 0) {
        dj_buf_append(out, "passed");
        return;
    }
    static const struct {
        int64_t secs;
        const char *word;
    } units[] = {{86400, "day"}, {3600, "hour"}, {60, "minute"}};
    int shown = 0;
    dj_buf_append(out, "in");
    for (size_t i = 0; i < sizeof units / sizeof units[0] && shown < 2;
         i++) {
        int64_t n = left / units[i].secs;
        if (n == 0 && shown == 0)
            continue;
        left -= n * units[i].secs;
        if (n == 0) /* "in 2 days", not "in 2 days 0 hours" */
            break;
        dj_buf_printf(out, " %lld %s%s", (long long)n, units[i].word,
                      n == 1 ? "" : "s");
        shown++;
    }
    if (shown == 0)
        dj_buf_append(out, " less than a minute");
}

void web_countdown(dj_buf *b, int64_t deadline, int64_t now)
{
    time_t t = (time_t)deadline;
    struct tm tm;
    char iso[32] = "";
    if (gmtime_r(&t, &tm))
        strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", &tm);
    dj_buf_append(b, "<time class=\"countdown\" datetime=\"");
    dj_html_text(b, iso);
    dj_buf_append(b, "\">");
    dj_buf left;
    dj_buf_init(&left);
    web_remaining(deadline, now, &left);
    dj_html_text(b, dj_buf_ok(&left) ? left.data : "");
    dj_buf_free(&left);
    dj_buf_append(b, "</time>");
}

static void deadline_block(web_ctx *c, dj_buf *b, const dj_power_table *t)
{
    if (!t->deadline)
        return;
    dj_buf_append(b, "<p class=\"deadline\"><strong>Deadline</strong> ");
    web_countdown(b, t->deadline, c->rq->now);
    if (t->late)
        dj_buf_append(b, " <span class=\"late\">(late: in grace)</span>");
    dj_buf_append(b, "<br>");
    if (t->own_zone[0]) {
        dj_buf_append(b, "<span class=\"zone own\">");
        dj_html_textf(b, "Your zone (%s): %s", t->own_zone, t->deadline_own);
        dj_buf_append(b, "</span><br>");
    }
    dj_buf_append(b, "<span class=\"zone\">");
    dj_html_textf(b, "The game's zone (%s): %s", t->zone, t->deadline_game);
    dj_buf_append(b, "</span>");
    if (strcmp(t->zone, "UTC") != 0) {
        dj_buf_append(b, "<br><span class=\"zone\">");
        dj_buf tm;
        dj_buf_init(&tm);
        web_utc(t->deadline, &tm);
        dj_html_text(b, dj_buf_ok(&tm) ? tm.data : "");
        dj_buf_free(&tm);
        dj_buf_append(b, "</span>");
    }
    dj_buf_append(b, "</p>\n");
}

static const char *orders_words(const dj_power_row *r)
{
    switch (r->orders) {
    case DJ_POWER_ORDERS_NONE_NEEDED: return "none needed";
    case DJ_POWER_ORDERS_AWAITED: return "awaited";
    case DJ_POWER_ORDERS_IN: return "in";
    case DJ_POWER_ORDERS_JUDGE: return "the judge orders";
    case DJ_POWER_ORDERS_HIDDEN: break;
    }
    return "-";
}

void web_power_table(web_ctx *c, dj_buf *b, const dj_game_overview *o)
{
    dj_power_table *t = malloc(sizeof *t);
    if (!t)
        return;
    const dj_signon *viewer = web_signed_in_here(c) ? &c->id : NULL;
    if (dj_game_power_table(c->j, o->name, viewer, t) < 0) {
        free(t);
        return;
    }
    deadline_block(c, b, t);
    bool ready_col = false;
    for (int p = 0; p < t->npowers; p++)
        ready_col |= t->row[p].ready >= 0;
    dj_buf_append(b, "<h2>Powers</h2>\n");
    if (t->phase_long[0]) {
        dj_buf_append(b, "<p>");
        dj_html_text(b, t->phase_long);
        dj_buf_append(b, "</p>\n");
    }
    dj_buf_append(b, "<div class=\"scroll\"><table class=\"powers\">\n"
                     "<thead><tr><th scope=\"col\">Power</th>"
                     "<th scope=\"col\">Player</th>"
                     "<th scope=\"col\" class=\"num\">Centres</th>"
                     "<th scope=\"col\" class=\"num\">Units</th>");
    if (t->current)
        dj_buf_append(b, "<th scope=\"col\">Orders</th>");
    if (ready_col)
        dj_buf_append(b, "<th scope=\"col\">Ready</th>");
    dj_buf_append(b, "</tr></thead>\n<tbody>\n");
    for (int p = 0; p < t->npowers; p++) {
        const dj_power_row *r = &t->row[p];
        dj_buf_append(b, r->own ? "<tr class=\"own\">" : "<tr>");
        dj_buf_append(b, "<th scope=\"row\">");
        dj_html_text(b, r->power);
        dj_buf_append(b, "</th><td>");
        dj_html_text(b, r->player);
        if (strcmp(r->status, "playing") != 0 &&
            strcmp(r->status, "-") != 0) {
            char status[sizeof r->status];
            snprintf(status, sizeof status, "%s", r->status);
            for (char *q = status; *q; q++)
                if (*q == '-')
                    *q = ' '; /* "civil disorder": it may wrap */
            dj_buf_append(b, " <span class=\"status\">");
            dj_html_text(b, status);
            dj_buf_append(b, "</span>");
        }
        dj_buf_append(b, "</td><td class=\"num\">");
        dj_html_textf(b, "%d", r->centres);
        dj_buf_append(b, "</td><td class=\"num\">");
        dj_html_textf(b, "%d", r->units);
        dj_buf_append(b, "</td>");
        if (t->current) {
            dj_buf_append(b, "<td class=\"orders-");
            dj_buf_append(b, r->orders == DJ_POWER_ORDERS_IN        ? "in"
                             : r->orders == DJ_POWER_ORDERS_AWAITED ? "awaited"
                                                                    : "other");
            dj_buf_append(b, "\">");
            dj_html_text(b, orders_words(r));
            if (r->given >= 0)
                dj_html_textf(b, " (%d/%d)", r->given, r->needed);
            dj_buf_append(b, "</td>");
        }
        if (ready_col) {
            dj_buf_append(b, "<td>");
            dj_html_text(b, r->ready < 0 ? "" : r->ready ? "ready" : "no");
            dj_buf_append(b, "</td>");
        }
        dj_buf_append(b, "</tr>\n");
    }
    dj_buf_append(b, "</tbody>\n</table></div>\n");
    free(t);
}

void web_drop_deadline_lines(dj_buf *text)
{
    char *w = text->data;
    const char *r = text->data;
    while (r && *r) {
        const char *end = strchr(r, '\n');
        size_t n = end ? (size_t)(end - r) + 1 : strlen(r);
        if (strncmp(r, "Deadline", 8) != 0) {
            memmove(w, r, n);
            w += n;
        }
        r += n;
    }
    if (w) {
        *w = '\0';
        text->len = (size_t)(w - text->data);
    }
}
