/* SPDX-License-Identifier: MIT */
/*
 * votes.c — the web's votes, and joining and observing from the web.
 *
 * Votes.  A signed-in power's draw and concession votes (SET DRAW, SET
 * NODRAW, SET CONCEDE power, SET NOCONCEDE) are account commands: they
 * end the game for the power, so the form asks the password again and
 * runs them as the account form does (actions.c's web_account_run).  The
 * EXTEND vote is the order box's kind (a session alone may give it).
 * Each is the line a player would mail; the game's settings decide what
 * the judge accepts, and its reply says so.
 *
 * Joining.  JOIN and OBSERVE still prove the address receives mail: the
 * form's address, game and new password become the mail command ("JOIN
 * power@game password") run as a message FROM that address, whose reply
 * — the confirmation code — is queued to that address like any mail
 * reply, and never shown on the page.  The second form takes the code
 * (and the address it was mailed to) and runs "CONFIRM code" from that
 * address: the code is the proof.  Each JOIN counts as a failed sign-in
 * of the client (shared.c), so a client cannot make the judge mail
 * strangers without bound; a wrong code counts too (a right one is
 * taken back), so codes cannot be guessed faster than passwords.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "command/command.h"
#include "game/signon.h"
#include "util/random.h"
#include "web/form.h"
#include "web/html.h"
#include "web/web_int.h"

#define VOTE_FIELD_MAX 200

void web_act_vote(web_ctx *c)
{
    dj_form f;
    if (dj_form_parse(c->rq->body, c->rq->body_len, &f) < 0) {
        web_fail(c, 400, "The form could not be read.");
        return;
    }
    const char *vote = dj_form_get(&f, "vote");
    const char *to = dj_form_get(&f, "to");
    const char *password = dj_form_get(&f, "password");
    char line[VOTE_FIELD_MAX + 32] = "";
    if (!vote)
        ;
    else if (strcmp(vote, "extend") == 0)
        snprintf(line, sizeof line, "EXTEND");
    else if (strcmp(vote, "draw") == 0)
        snprintf(line, sizeof line, "SET DRAW");
    else if (strcmp(vote, "nodraw") == 0)
        snprintf(line, sizeof line, "SET NODRAW");
    else if (strcmp(vote, "noconcede") == 0)
        snprintf(line, sizeof line, "SET NOCONCEDE");
    else if (strcmp(vote, "concede") == 0 && to && *to &&
             strlen(to) <= VOTE_FIELD_MAX && !strpbrk(to, " \t\r\n"))
        snprintf(line, sizeof line, "SET CONCEDE %s", to);
    bool extend = strcmp(line, "EXTEND") == 0;
    if (!line[0] || !c->id.power_name[0] ||
        (!extend && (!password || !*password || strlen(password) > 200))) {
        dj_form_free(&f);
        c->keep_fields = true;
        web_page_game_notice(c, "Nothing was done: choose a vote (to "
                                "concede, name the power), and give your "
                                "password for a draw or concession vote.");
        return;
    }
    if (extend) {
        web_message_run(c, "EXTEND\n");
    } else {
        web_account_run(c, line, password);
    }
    dj_form_free(&f);
}

/* ---- JOIN, OBSERVE, CONFIRM ------------------------------------------------ */

/* A message from `from` (not signed in), run as mail would run it; the
 * reply queued to that address when `mail_reply`.  0, or -1 (500
 * written). */
static int run_from(web_ctx *c, const char *from, const char *text,
                    bool mail_reply, dj_command_reply *reply)
{
    char message_id[96], nonce[33];
    if (dj_random_hex(nonce, 16) < 0) {
        web_fail(c, 500, "no random bytes");
        return -1;
    }
    snprintf(message_id, sizeof message_id, "<web.%s@judgeweb>", nonce);
    dj_command_msg msg = {from, NULL, text, c->rq->now, NULL, NULL};
    if (dj_command_run(c->j, &msg, message_id, mail_reply, reply) < 0) {
        web_fail(c, 500, reply->error[0] ? reply->error : "the judge failed");
        return -1;
    }
    return 0;
}

static bool one_word(const char *s, size_t max)
{
    return s && *s && strlen(s) <= max && !strpbrk(s, " \t\r\n");
}

void web_act_join(web_ctx *c)
{
    dj_form f;
    if (dj_form_parse(c->rq->body, c->rq->body_len, &f) < 0) {
        web_fail(c, 400, "The form could not be read.");
        return;
    }
    c->keep_fields = true; /* the address for the code's form */
    const char *game = c->route.game[0] ? c->route.game
                                        : dj_form_get(&f, "game");
    const char *action = dj_form_get(&f, "action");
    const char *address = dj_form_get(&f, "address");
    const char *power = dj_form_get(&f, "power");
    const char *password = dj_form_get(&f, "password");
    bool observe = action && strcmp(action, "observe") == 0;
    if (!game || !dj_route_game_name(game, strlen(game)) || !address ||
        strlen(address) > 250 || !dj_address_ok(address) ||
        !one_word(password, 200) ||
        (power && *power && (observe || !one_word(power, 40)))) {
        dj_form_free(&f);
        web_flash_redirect(c, "Nothing was done: give the game, your mail "
                              "address and a new password (one word); a "
                              "power only to JOIN.");
        return;
    }
    /* every code mailed counts as a failed sign-in of this client */
    if (!web_signin_begin(c)) {
        dj_form_free(&f);
        web_fail(c, 403, "Too many requests from your address: try again "
                         "later.");
        return;
    }
    char text[400];
    snprintf(text, sizeof text, "%s %s%s%s %s\n", observe ? "OBSERVE" : "JOIN",
             power && *power ? power : "", power && *power ? "@" : "", game,
             password);
    dj_command_reply reply;
    dj_command_reply_init(&reply);
    if (run_from(c, address, text, true, &reply) == 0) {
        char notice[600];
        if (reply.failed == 0)
            snprintf(notice, sizeof notice,
                     "The judge has mailed a code to %s.  Type it in the "
                     "form below (or answer that mail with CONFIRM and the "
                     "code): nothing happens until then.",
                     address);
        else /* refused: the judge's words, which hold no code */
            snprintf(notice, sizeof notice, "%.590s", reply.body.data);
        web_flash_redirect(c, notice);
    }
    dj_command_reply_free(&reply);
    dj_form_free(&f);
}

void web_act_confirm(web_ctx *c)
{
    dj_form f;
    if (dj_form_parse(c->rq->body, c->rq->body_len, &f) < 0) {
        web_fail(c, 400, "The form could not be read.");
        return;
    }
    c->keep_fields = true;
    const char *address = dj_form_get(&f, "address");
    const char *code = dj_form_get(&f, "code");
    if (!address || strlen(address) > 250 || !dj_address_ok(address) ||
        !one_word(code, 64)) {
        dj_form_free(&f);
        web_flash_redirect(c, "Nothing was done: give the address the code "
                              "was mailed to, and the code.");
        return;
    }
    if (!web_signin_begin(c)) {
        dj_form_free(&f);
        web_fail(c, 403, "Too many failed tries from your address: try "
                         "again later.");
        return;
    }
    char text[128];
    snprintf(text, sizeof text, "CONFIRM %s\n", code);
    dj_command_reply reply;
    dj_command_reply_init(&reply);
    if (run_from(c, address, text, false, &reply) == 0) {
        if (reply.failed == 0)
            web_signin_succeeded(c); /* the right code: no guess counted */
        web_flash_redirect(c, reply.body.data);
    }
    dj_command_reply_free(&reply);
    dj_form_free(&f);
}
