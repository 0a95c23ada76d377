/* SPDX-License-Identifier: MIT */
/*
 * vote_forms.c — the forms of votes.c's actions, for the pages: a power's
 * votes (on its signed-in game page), and JOIN/OBSERVE with the code's
 * form (on the front page and the game pages).  Apart from votes.c, whose
 * actions answer with the game's page (pages.c), so that the pages and
 * the actions do not stand on each other.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>

#include "web/html.h"
#include "web/web_int.h"

static void post_form(dj_buf *b, const char *game, const char *action)
{
    dj_buf_append(b, "<form method=\"post\" action=\"");
    if (game) {
        dj_buf_append(b, "/game/");
        dj_html_url_segment(b, game);
    }
    dj_buf_printf(b, "/%s\">\n", action);
}

void web_vote_form(web_ctx *c, dj_buf *b, const char *game)
{
    dj_buf_append(b, "<h3>Votes</h3>\n");
    post_form(b, game, "vote");
    web_csrf_field(c, b, true);
    dj_buf_append(b, "<p><button type=\"submit\" name=\"vote\" value=\""
                     "extend\">Vote to extend the deadline</button></p>\n"
                     "</form>\n");
    post_form(b, game, "vote");
    web_csrf_field(c, b, true);
    dj_buf_append(b, "<p>Draw and concession votes are secret and end the "
                     "game when the game's rules are met: they ask your "
                     "password again.</p>\n<p><label>Concede to (a power) "
                     "<input name=\"to\" value=\"");
    dj_html_text(b, web_flash_field(c, "to"));
    dj_buf_append(b, "\"></label></p>\n<p><label>Your password, again "
                     "<input name=\"password\" type=\"password\" required "
                     "autocomplete=\"current-password\"></label></p>\n"
                     "<p><button type=\"submit\" name=\"vote\" value=\"draw"
                     "\">Vote for a draw</button> <button type=\"submit\" "
                     "name=\"vote\" value=\"nodraw\">Withdraw the draw vote"
                     "</button> <button type=\"submit\" name=\"vote\" "
                     "value=\"concede\">Concede</button> <button type=\""
                     "submit\" name=\"vote\" value=\"noconcede\">Withdraw "
                     "the concession</button></p>\n</form>\n");
}

void web_join_forms(web_ctx *c, dj_buf *b, const char *game)
{
    dj_buf_append(b, "<h2>Join or observe from here</h2>\n<p>The judge mails "
                     "a code to the address you give: type it in the second"
                     " form (or answer the mail with <code>CONFIRM code"
                     "</code>).</p>\n");
    post_form(b, game, "join");
    web_csrf_field(c, b, false);
    if (!game) {
        dj_buf_append(b, "<p><label>Game <input name=\"game\" required "
                         "value=\"");
        dj_html_text(b, web_flash_field(c, "game"));
        dj_buf_append(b, "\"></label></p>\n");
    }
    dj_buf_append(b, "<p><label>Your address <input name=\"address\" "
                     "type=\"email\" required autocomplete=\"email\" "
                     "value=\"");
    dj_html_text(b, web_flash_field(c, "address"));
    dj_buf_append(b, "\"></label></p>\n<p><label>Power wanted (JOIN only; "
                     "may be left out) <input name=\"power\" value=\"");
    dj_html_text(b, web_flash_field(c, "power"));
    dj_buf_append(b, "\"></label></p>\n<p><label>A new password for the game"
                     " <input name=\"password\" type=\"password\" required "
                     "autocomplete=\"new-password\"></label></p>\n<p><button"
                     " type=\"submit\" name=\"action\" value=\"join\">Join"
                     "</button> <button type=\"submit\" name=\"action\" "
                     "value=\"observe\">Observe</button></p>\n</form>\n");
    post_form(b, game, "confirm");
    web_csrf_field(c, b, false);
    dj_buf_append(b, "<p><label>The address the code went to <input name=\""
                     "address\" type=\"email\" required value=\"");
    dj_html_text(b, web_flash_field(c, "address"));
    dj_buf_append(b, "\"></label></p>\n<p><label>Code <input name=\"code\" "
                     "required autocomplete=\"one-time-code\"></label></p>\n"
                     "<p><button type=\"submit\">Confirm</button></p>\n"
                     "</form>\n");
}
