/* SPDX-License-Identifier: MIT */
/*
 * pad.c — orders on the map (issue 38): the pages of the order pad, each
 * a row of the route table.
 *
 *   /pad.js                  the one script of judgeweb (src/web/pad.js,
 *                            embedded at build): the pad, and the ticker
 *                            of every <time class="countdown">;
 *   /game/NAME/legal.json    the orders the signed-in power may give now,
 *                            unit by unit (the game room's
 *                            dj_game_pad_orders, the engine's
 *                            dj_legal_orders), as the text a player mails;
 *   /game/NAME/mine.svg      the board with that power's own orders on
 *                            file, for it alone (never cached).
 *
 * Design.  Progressive enhancement: the page works as before without
 * script (the orders' textarea); the script only writes order lines into
 * that textarea, which the player sends with the same form.  The pad's
 * markup carries where its JSON is in a data attribute, no inline script
 * (the CSP allows script from this site only).  Both pages are a power's
 * own: anyone else (another power, the master, an observer, a visitor,
 * another game's session) gets the 404 of a page that does not exist.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>

#include "game/orders.h"
#include "game/pictures.h"
#include "render/render.h"
#include "util/json.h"
#include "web/html.h"
#include "web/pad.h"
#include "web/web_int.h"

/* The signed-in power of this request's game, or NULL. */
static const char *own_power(const web_ctx *c)
{
    if (!web_signed_in_here(c) || !c->id.power_name[0])
        return NULL;
    return c->id.power_name;
}

void web_page_pad_js(web_ctx *c)
{
    c->rs->status = 200;
    c->rs->content_type = "text/javascript; charset=utf-8";
    c->rs->cache = "public, max-age=3600";
    dj_buf_append_n(&c->rs->body, (const char *)web_pad_js, web_pad_js_len);
}

bool web_pad_board(web_ctx *c, dj_buf *b, const dj_game_overview *o,
                   const dj_phase_ref *now)
{
    if (!own_power(c) || now->played ||
        (strcmp(o->state, "active") != 0 && strcmp(o->state, "paused") != 0))
        return false;
    dj_buf url;
    dj_buf_init(&url);
    dj_buf_append(&url, "/game/");
    dj_html_url_segment(&url, o->name);
    if (!dj_buf_ok(&url)) {
        dj_buf_free(&url);
        return false;
    }
    dj_buf_append(b, "<div class=\"pad\" id=\"pad\" data-legal=\"");
    dj_html_text(b, url.data);
    dj_buf_append(b, "/legal.json\">\n<div class=\"board-wrap\"><img "
                     "class=\"board\" id=\"pad-board\" src=\"");
    dj_html_text(b, url.data);
    dj_buf_append(b, "/mine.svg\" alt=\"The board now, with your orders "
                     "on file\"></div>\n<p><a href=\"");
    dj_html_text(b, url.data);
    dj_buf_append(b, "/mine.svg\">The board at full size</a> (your orders "
                     "on file are drawn on it; nobody else sees them)</p>\n"
                     "</div>\n");
    dj_buf_free(&url);
    return true;
}

/* ---- /game/NAME/legal.json ------------------------------------------------ */

static void json_order(dj_buf *b, const dj_pad_order *e, bool with_unit)
{
    dj_buf_append(b, "{");
    dj_json_kv_str(b, "kind", e->kind, true);
    if (with_unit) {
        dj_json_kv_str(b, "type", e->type, true);
        dj_json_kv_str(b, "place", e->place, true);
    }
    if (e->target[0])
        dj_json_kv_str(b, "target", e->target, true);
    if (e->to[0])
        dj_json_kv_str(b, "to", e->to, true);
    if (e->by_convoy)
        dj_buf_append(b, "\"convoy\": true, ");
    dj_json_kv_str(b, "text", e->text, false);
    dj_buf_append(b, "}");
}

void web_page_legal_json(web_ctx *c)
{
    const char *power = own_power(c);
    if (!power) {
        web_not_found(c);
        return;
    }
    dj_pad_list l;
    if (dj_game_pad_orders(c->j, c->route.game, power, &l) < 0) {
        dj_pad_list_free(&l);
        web_not_found(c); /* no phase taking orders */
        return;
    }
    dj_buf *b = &c->rs->body;
    dj_buf_append(b, "{");
    dj_json_kv_str(b, "game", l.game, true);
    dj_json_kv_str(b, "phase", l.phase, true);
    dj_json_kv_str(b, "type", l.phase_type, true);
    dj_json_kv_str(b, "power", l.power, true);
    dj_json_kv_int(b, "due", l.due, true);
    dj_buf_printf(b, "\"truncated\": %s,\n",
                  l.truncated ? "true" : "false");
    /* the units, each with its orders (the engine lists them unit by
     * unit), then the builds */
    dj_buf_append(b, "\"units\": [");
    int units = 0;
    for (int i = 0; i < l.n;) {
        const dj_pad_order *u = &l.o[i];
        if (!u->unit[0]) {
            i++;
            continue;
        }
        dj_buf_append(b, units++ ? ",\n{" : "\n{");
        dj_json_kv_str(b, "unit", u->unit, true);
        dj_json_kv_str(b, "type", u->type, true);
        dj_json_kv_str(b, "place", u->place, true);
        dj_buf_append(b, "\"orders\": [");
        int k = i;
        for (; k < l.n && strcmp(l.o[k].unit, u->unit) == 0; k++) {
            if (k > i)
                dj_buf_append(b, ", ");
            json_order(b, &l.o[k], false);
        }
        dj_buf_append(b, "]}");
        i = k;
    }
    dj_buf_append(b, "],\n\"builds\": [");
    int builds = 0;
    for (int i = 0; i < l.n; i++) {
        if (l.o[i].unit[0])
            continue;
        if (builds++)
            dj_buf_append(b, ",\n");
        json_order(b, &l.o[i], true);
    }
    dj_buf_append(b, "]}\n");
    dj_pad_list_free(&l);
    c->rs->status = 200;
    c->rs->content_type = "application/json";
    c->rs->cache = "private, no-store";
}

/* ---- /game/NAME/mine.svg -------------------------------------------------- */

void web_page_mine_svg(web_ctx *c)
{
    const char *power = own_power(c);
    dj_picture pic = {NULL, 0};
    if (!power || dj_game_own_orders_picture(c->j, c->route.game, power,
                                             DJ_PICTURE_SVG, &pic) < 0) {
        web_not_found(c);
        return;
    }
    dj_buf_append_n(&c->rs->body, (const char *)pic.data, pic.len);
    dj_picture_free(&pic);
    c->rs->status = 200;
    c->rs->content_type = "image/svg+xml";
    c->rs->cache = "private, no-store";
    /* as the other pictures: their styles inline, nothing else loads */
    c->rs->csp = "default-src 'none'; style-src 'unsafe-inline'; "
                 "img-src data:";
}
