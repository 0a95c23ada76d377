/* SPDX-License-Identifier: MIT */
/*
 * desk.c — the master's desk: GET /game/NAME/desk, a page of forms for
 * the game's master, and POST /game/NAME/desk, which they all send.
 *
 * Design.  Each form is a command the master would mail: process now
 * (PROCESS), PAUSE, RESUME, move the deadline (SET DEADLINE), a setting
 * (SET key value), EJECT, REPLACE, ROLLBACK and ROLLFORWARD.  The form's
 * fields become that one line, which the command table must place at the
 * desk's door (dj_command_web_form: DJ_WEB_FORM_DESK; EJECT and REPLACE,
 * which change who holds a power, at the account door, so they ask the
 * master's password again like the account form), and it runs exactly as
 * the account and order forms run theirs (actions.c): as the signed-in
 * master, in one transaction, recorded in the mail log, answered with the
 * reply a mail would get.  The answer comes back on the desk after a 303
 * (flash.c); a refused form keeps its fields.  Only the game's master
 * sees the desk: a player or observer signed in to the game gets 403,
 * anyone else the 404 of every page they may not see.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "command/command.h"
#include "game/game.h"
#include "game/reading.h"
#include "web/form.h"
#include "web/html.h"
#include "web/web_int.h"

#define DESK_FIELD_MAX 200

static bool is_master(const web_ctx *c)
{
    return strcmp(c->id.role, "master") == 0;
}

static void desk_path(web_ctx *c)
{
    snprintf(c->answer_path, sizeof c->answer_path, "/game/%s/desk",
             c->route.game);
}

/* One form of the desk: its heading, the hidden "do", the fields, the
 * button. */
static void form_open(web_ctx *c, dj_buf *b, const char *game,
                      const char *heading, const char *what)
{
    dj_buf_append(b, "<h2>");
    dj_html_text(b, heading);
    dj_buf_append(b, "</h2>\n<form method=\"post\" action=\"/game/");
    dj_html_url_segment(b, game);
    dj_buf_append(b, "/desk\">\n");
    web_csrf_field(c, b, true);
    dj_buf_append(b, "<input type=\"hidden\" name=\"do\" value=\"");
    dj_html_text(b, what);
    dj_buf_append(b, "\">\n");
}

static void form_close(dj_buf *b, const char *button)
{
    dj_buf_append(b, "<p><button type=\"submit\">");
    dj_html_text(b, button);
    dj_buf_append(b, "</button></p>\n</form>\n");
}

/* A text input, refilled with what a refused form had in it. */
static void field(web_ctx *c, dj_buf *b, const char *label,
                  const char *name, const char *type, const char *hint,
                  bool required)
{
    dj_buf_append(b, "<p><label>");
    dj_html_text(b, label);
    dj_buf_append(b, " <input name=\"");
    dj_html_text(b, name);
    dj_buf_append(b, "\" type=\"");
    dj_html_text(b, type);
    dj_buf_append(b, "\"");
    if (strcmp(type, "password") == 0)
        dj_buf_append(b, " autocomplete=\"current-password\"");
    else {
        dj_buf_append(b, " value=\"");
        dj_html_text(b, web_flash_field(c, name));
        dj_buf_append(b, "\"");
    }
    if (hint) {
        dj_buf_append(b, " placeholder=\"");
        dj_html_text(b, hint);
        dj_buf_append(b, "\"");
    }
    if (required)
        dj_buf_append(b, " required");
    dj_buf_append(b, "></label></p>\n");
}

static void desk_page(web_ctx *c)
{
    if (!is_master(c)) {
        web_fail(c, 403, "The desk is the game master's: sign in as "
                         "master.");
        return;
    }
    web_flash_take(c);
    dj_game_overview o;
    if (dj_game_overview_get(c->j, c->route.game, &o) != 0) {
        web_not_found(c);
        return;
    }
    dj_buf *b = &c->rs->body;
    char title[96];
    snprintf(title, sizeof title, "The master's desk: %s", o.name);
    dj_html_begin(b, c->opt->judge_name, title);
    dj_buf_append(b, "<h1>");
    dj_html_text(b, title);
    dj_buf_append(b, "</h1>\n<nav><a href=\"/game/");
    dj_html_url_segment(b, o.name);
    dj_buf_append(b, "\">The game now</a> <a href=\"/game/");
    dj_html_url_segment(b, o.name);
    dj_buf_append(b, "/press\">Press</a></nav>\n");
    if (web_flash_notice(c)) {
        dj_buf_append(b, "<div class=\"notice\"><pre>");
        dj_html_text(b, web_flash_notice(c));
        dj_buf_append(b, "</pre></div>\n");
    }
    dj_buf_append(b, "<p>");
    dj_html_textf(b, "Board %s; %s", o.map, o.state);
    if (o.phase[0])
        dj_html_textf(b, "; phase %s", o.phase);
    if (o.deadline_local[0])
        dj_html_textf(b, "; deadline %s", o.deadline_local);
    dj_buf_append(b, ".</p>\n<p>Each form sends the command a master would "
                     "mail, and shows the judge's reply.</p>\n");
    form_open(c, b, o.name, "Process now", "process");
    form_close(b, "Process the phase now");
    form_open(c, b, o.name, "Pause", "pause");
    form_close(b, "Pause the game");
    form_open(c, b, o.name, "Resume", "resume");
    form_close(b, "Resume the game");
    form_open(c, b, o.name, "Move the deadline", "deadline");
    field(c, b, "New deadline", "deadline", "text", "2027-01-09 20:00, or +2d",
          true);
    form_close(b, "Set the deadline");
    form_open(c, b, o.name, "Change a setting", "set");
    field(c, b, "Setting", "key", "text", "press", true);
    field(c, b, "Value", "value", "text", "grey", true);
    form_close(b, "Set");
    form_open(c, b, o.name, "Eject a player", "eject");
    field(c, b, "Power", "power", "text", "France", true);
    field(c, b, "Your password, again", "password", "password", NULL, true);
    form_close(b, "Eject");
    form_open(c, b, o.name, "Replace a player", "replace");
    field(c, b, "Power", "power", "text", "France", true);
    field(c, b, "The new player's address", "address", "email", NULL, true);
    field(c, b, "Your password, again", "password", "password", NULL, true);
    form_close(b, "Replace");
    form_open(c, b, o.name, "Roll back", "rollback");
    field(c, b, "To the phase (by default the one before)", "phase", "text",
          "S1901M", false);
    form_close(b, "Roll back");
    form_open(c, b, o.name, "Roll forward", "rollforward");
    form_close(b, "Undo the latest rollback");
    dj_html_end(b);
    web_html_page(c);
}

/* A field fit for one line of a command: present (unless optional),
 * bounded, on one line.  "" for an optional field left out. */
static const char *line_field(const dj_form *f, const char *name,
                              bool optional)
{
    const char *v = dj_form_get(f, name);
    if (!v || !*v)
        return optional ? "" : NULL;
    if (strlen(v) > DESK_FIELD_MAX || strpbrk(v, "\r\n"))
        return NULL;
    return v;
}

/* One word: no blank in it (a power, a setting's key, a phase). */
static const char *word_field(const dj_form *f, const char *name,
                              bool optional)
{
    const char *v = line_field(f, name, optional);
    return v && !strpbrk(v, " \t") ? v : NULL;
}

static void desk_act(web_ctx *c)
{
    desk_path(c);
    if (!is_master(c)) {
        web_fail(c, 403, "The desk is the game master's: sign in as "
                         "master.");
        return;
    }
    dj_form f;
    if (dj_form_parse(c->rq->body, c->rq->body_len, &f) < 0) {
        web_fail(c, 400, "The form could not be read.");
        return;
    }
    const char *what = dj_form_get(&f, "do");
    char line[3 * DESK_FIELD_MAX + 64] = "";
    bool password = false; /* the account door's */
    const char *a, *b;
    if (!what) {
        /* nothing: refused below */
    } else if (strcmp(what, "process") == 0) {
        snprintf(line, sizeof line, "PROCESS");
    } else if (strcmp(what, "pause") == 0) {
        snprintf(line, sizeof line, "PAUSE");
    } else if (strcmp(what, "resume") == 0) {
        snprintf(line, sizeof line, "RESUME");
    } else if (strcmp(what, "rollforward") == 0) {
        snprintf(line, sizeof line, "ROLLFORWARD");
    } else if (strcmp(what, "deadline") == 0) {
        if ((a = line_field(&f, "deadline", false)))
            snprintf(line, sizeof line, "SET DEADLINE %s", a);
    } else if (strcmp(what, "set") == 0) {
        if ((a = word_field(&f, "key", false)) &&
            (b = line_field(&f, "value", false)))
            snprintf(line, sizeof line, "SET %s %s", a, b);
    } else if (strcmp(what, "rollback") == 0) {
        if ((a = word_field(&f, "phase", true)))
            snprintf(line, sizeof line, "ROLLBACK%s%s", *a ? " " : "", a);
    } else if (strcmp(what, "eject") == 0) {
        password = true;
        if ((a = word_field(&f, "power", false)))
            snprintf(line, sizeof line, "EJECT %s", a);
    } else if (strcmp(what, "replace") == 0) {
        password = true;
        if ((a = word_field(&f, "power", false)) &&
            (b = word_field(&f, "address", false)))
            snprintf(line, sizeof line, "REPLACE %s %s", a, b);
    }
    /* the line must be the one command the desk's form stands for: the
     * command table's door says so (a SET of a key that is an account
     * command, SET PASSWORD, is not the desk's) */
    char which[64];
    dj_web_form door =
        line[0] ? dj_command_web_form(line, which, sizeof which)
                : DJ_WEB_FORM_MAIL;
    const char *pw = dj_form_get(&f, "password");
    if (!line[0] ||
        door != (password ? DJ_WEB_FORM_ACCOUNT : DJ_WEB_FORM_DESK) ||
        (password && (!pw || !*pw || strlen(pw) > 200))) {
        dj_form_free(&f);
        c->keep_fields = true;
        web_flash_redirect(c, "Nothing was done: fill in the form (one line "
                              "each field; a power, a key and a phase one "
                              "word), and the password where it asks.");
        return;
    }
    char text[sizeof line + 2];
    snprintf(text, sizeof text, "%s\n", line);
    if (password)
        web_account_run(c, line, pw);
    else
        web_message_run(c, text);
    dj_form_free(&f);
}

void web_desk(web_ctx *c)
{
    if (strcmp(c->rq->method, "POST") == 0)
        desk_act(c);
    else
        desk_page(c);
}
