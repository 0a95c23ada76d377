/* SPDX-License-Identifier: MIT */
/*
 * parse_args.c — each mail command's argument parser, as named by the
 * command table (table.c).  A command whose arguments are wrong is still
 * that command (CMD_BAD with the reason), never an order line: "SIGNON"
 * without a password must not end up in front of the order reader, and
 * its echo must still be masked.  Press lines have their own file
 * (parse_press.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "command/table.h"

/* Commands that take nothing after their words. */
void cmd_parse_nothing(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    if (ws->n > arg)
        cmd_bad(c, "%s takes nothing more", c->name);
    else
        c->kind = kind;
}

/* Commands whose further words do not matter (HELP, SIGNOFF, ENDPRESS). */
void cmd_parse_anything(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    (void)ws;
    (void)arg;
    c->kind = kind;
}

/* Commands taking the rest of the line as it was written (TERMINATE). */
void cmd_parse_rest(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    cmd_words_rest(ws, arg, c->arg, sizeof c->arg);
    c->kind = kind;
}

/* "demo", or the game part of "france@demo" / "Fdemo" for SIGNON. */
static bool game_word(cmd *c, const char *w)
{
    if (!cmd_word_copy(c->game, sizeof c->game, w) || !*w) {
        cmd_bad(c, "the game name '%.60s' is too long", w);
        return false;
    }
    return true;
}

/* GAME [A1 [A2]]: between min and max words, the first the game. */
static void game_args(const words *ws, int arg, cmd_kind kind, cmd *c,
                      int min, int max)
{
    int n = ws->n - arg;
    if (n < min || n > max) {
        cmd_bad(c, n < min ? "%s needs the game" : "%s: too many words",
                c->name);
        return;
    }
    if (n > 0 && !game_word(c, ws->w[arg]))
        return;
    if ((n > 1 && !cmd_word_copy(c->arg, sizeof c->arg, ws->w[arg + 1])) ||
        (n > 2 && !cmd_word_copy(c->arg2, sizeof c->arg2, ws->w[arg + 2]))) {
        cmd_bad(c, "%s", "the phase is too long");
        return;
    }
    c->kind = kind;
}

/* LIST [GAME] */
void cmd_parse_game_optional(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    game_args(ws, arg, kind, c, 0, 1);
}

/* SUMMARY GAME, REVEAL-like commands naming one game */
void cmd_parse_game(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    game_args(ws, arg, kind, c, 1, 1);
}

/* HISTORY GAME [FROM [TO]] */
void cmd_parse_history(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    game_args(ws, arg, kind, c, 1, 3);
}

/* "S1901M", "f1905r", "W1910A": a phase as the judge writes it. */
static bool phase_shaped(const char *w)
{
    return strlen(w) == 6 && strchr("SFWsfw", w[0]) &&
           isdigit((unsigned char)w[1]) && isdigit((unsigned char)w[2]) &&
           isdigit((unsigned char)w[3]) && isdigit((unsigned char)w[4]) &&
           strchr("MRAmra", w[5]);
}

/* MAP [GAME] [PHASE]: a lone phase-shaped word is the phase (the game is
 * then the one signed on to). */
void cmd_parse_map(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    int n = ws->n - arg;
    if (n > 2) {
        cmd_bad(c, "%s", "MAP takes at most the game and a phase: MAP demo "
                         "F1901M");
        return;
    }
    int i = arg;
    if (n > 0 && !(n == 1 && phase_shaped(ws->w[arg]))) {
        if (!game_word(c, ws->w[arg]))
            return;
        i = arg + 1;
    }
    if (i < ws->n) {
        if (!phase_shaped(ws->w[i]) ||
            !cmd_word_copy(c->arg, sizeof c->arg, ws->w[i])) {
            cmd_bad(c, "'%.20s' is not a phase like S1901M", ws->w[i]);
            return;
        }
    }
    c->kind = kind;
}

/* JOIN [POWER@]GAME PASSWORD [JOIN-PASSWORD], OBSERVE GAME PASSWORD
 * [JOIN-PASSWORD] (a private game's), TAKEOVER POWER@GAME PASSWORD,
 * CREATE GAME PASSWORD [SETTINGS...]. */
void cmd_parse_game_password(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    const char *name = c->name;
    cmd_mask_words(ws, arg, -1, c);
    int n = ws->n - arg;
    bool keyed = kind == CMD_JOIN || kind == CMD_OBSERVE;
    if (n < 2 || (kind != CMD_CREATE && n > (keyed ? 3 : 2))) {
        cmd_bad(c, n < 2 ? "%s needs the game and a password"
                   : keyed ? "%s takes the game, a password and, for a "
                             "private game, its join password"
                           : "%s takes the game and a password only",
                name);
        return;
    }
    if (n == 3 && keyed &&
        !cmd_word_copy(c->arg2, sizeof c->arg2, ws->w[arg + 2])) {
        cmd_bad(c, "%s", "the join password is too long");
        return;
    }
    const char *g = ws->w[arg],
               *at = kind == CMD_JOIN || kind == CMD_TAKEOVER ? strchr(g, '@')
                                                              : NULL;
    if (kind == CMD_TAKEOVER && !at) {
        cmd_bad(c, "%s", "TAKEOVER power@game password: which power?");
        return;
    }
    if (at) {
        size_t len = (size_t)(at - g);
        if (len == 0 || len >= sizeof c->who) {
            cmd_bad(c, "%s power@game: the power is missing or too long",
                    name);
            return;
        }
        memcpy(c->who, g, len);
        c->who[len] = '\0';
        g = at + 1;
    }
    if (!game_word(c, g))
        return;
    if (!*c->game) {
        cmd_bad(c, "%s: the game is missing", name);
        return;
    }
    if (!cmd_word_copy(c->password, sizeof c->password, ws->w[arg + 1])) {
        cmd_bad(c, "%s", "the password is too long");
        return;
    }
    cmd_mask_words(ws, arg + 1, keyed ? -1 : arg + 2, c);
    if (kind == CMD_CREATE)
        cmd_words_rest(ws, arg + 2, c->arg, sizeof c->arg);
    c->kind = kind;
}

/* SIGNON ID PASSWORD; ID is POWER@GAME, MASTER@GAME, a letter + game, or
 * ?GAME (PLAYER@GAME): the sender's own place as a player. */
void cmd_parse_signon(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    cmd_mask_words(ws, arg, -1, c);
    if (ws->n - arg != 2) {
        cmd_bad(c, "%s",
                ws->n - arg < 2 ? "SIGNON needs who and the game, then the "
                                  "password: SIGNON Fdemo PASSWORD or SIGNON "
                                  "france@demo PASSWORD"
                                : "SIGNON takes two words: who@game and the "
                                  "password");
        return;
    }
    const char *id = ws->w[arg], *at = strchr(id, '@');
    if (at) {
        size_t n = (size_t)(at - id);
        if (n == 0 || n >= sizeof c->who) {
            cmd_bad(c, "%s", "SIGNON who@game: who is missing or too long");
            return;
        }
        memcpy(c->who, id, n);
        c->who[n] = '\0';
        if (!game_word(c, at + 1))
            return;
    } else if (id[0] == '?') {
        /* njudge's "any power": the player who joined without one,
         * found by the sender's address (access.c) */
        snprintf(c->who, sizeof c->who, "%s", "player");
        if (!game_word(c, id + 1))
            return;
    } else {
        if (strlen(id) < 2 || !isalpha((unsigned char)id[0])) {
            cmd_bad(c, "%s", "SIGNON needs the power's letter and the game "
                             "(Fdemo) or power@game");
            return;
        }
        c->who[0] = (char)toupper((unsigned char)id[0]);
        c->who[1] = '\0';
        if (!game_word(c, id + 1))
            return;
    }
    if (!*c->game) {
        cmd_bad(c, "%s", "SIGNON: the game is missing");
        return;
    }
    if (!cmd_word_copy(c->password, sizeof c->password, ws->w[arg + 1])) {
        cmd_bad(c, "%s", "the password is too long");
        return;
    }
    cmd_mask_words(ws, arg + 1, -1, c);
    c->kind = kind;
}

/* Commands taking one word into arg (CONFIRM code, SET MAP format, SET
 * ADDRESS address). */
void cmd_parse_one_word(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    if (ws->n - arg != 1 || !cmd_word_copy(c->arg, sizeof c->arg, ws->w[arg]))
        cmd_bad(c, "%s takes one word: %s", c->name,
                c->usage);
    else
        c->kind = kind;
}

/* Commands that take one power (BECOME, EJECT, SET CONCEDE). */
void cmd_parse_power(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    if (ws->n - arg != 1 || !cmd_word_copy(c->who, sizeof c->who, ws->w[arg]))
        cmd_bad(c, "%s needs one power", c->name);
    else
        c->kind = kind;
}

/* REPLACE power address: the master gives a power to a new player. */
void cmd_parse_replace(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    if (ws->n - arg != 2 || !cmd_word_copy(c->who, sizeof c->who, ws->w[arg]) ||
        !cmd_word_copy(c->arg, sizeof c->arg, ws->w[arg + 1]))
        cmd_bad(c, "%s", "REPLACE needs a power and the new player's address");
    else
        c->kind = kind;
}

/* ROLLBACK [PHASE]: the phase ("S1903M") or none, the one before. */
void cmd_parse_rollback(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    if (ws->n - arg > 1 ||
        (ws->n - arg == 1 && !cmd_word_copy(c->arg, sizeof c->arg, ws->w[arg])))
        cmd_bad(c, "%s", "ROLLBACK takes at most a phase (S1903M)");
    else
        c->kind = kind;
}

/* SET PASSWORD NEW */
void cmd_parse_password(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    cmd_mask_words(ws, arg, -1, c);
    if (ws->n - arg != 1)
        cmd_bad(c, "%s", "SET PASSWORD needs one word, the new password");
    else if (!cmd_word_copy(c->password, sizeof c->password, ws->w[arg]))
        cmd_bad(c, "%s", "the password is too long");
    else
        c->kind = kind;
}

/* SET DRAW [POWER...]: a vote, or a named draw; SET DRAW NAMED|DIAS is
 * the master's game setting (draw=named). */
void cmd_parse_draw(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    if (ws->n - arg == 1 &&
        (cmd_word_is(ws->w[arg], "DIAS") || cmd_word_is(ws->w[arg], "NAMED"))) {
        cmd_parse_setting(ws, arg - 1, CMD_SETTING, c);
        return;
    }
    cmd_words_rest(ws, arg, c->arg, sizeof c->arg);
    c->kind = kind;
}

/* SET ABSENCE FROM [TO TO], SET ABSENCE CLEAR. */
void cmd_parse_absence(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    if (ws->n <= arg) {
        cmd_bad(c, "%s", "SET ABSENCE needs a date: SET ABSENCE 2027-01-09 "
                         "[TO 2027-01-12]");
        return;
    }
    if (ws->n == arg + 1 && cmd_word_is(ws->w[arg], "CLEAR")) {
        c->kind = CMD_NOABSENCE;
        return;
    }
    int to = -1;
    for (int i = arg + 1; i < ws->n && to < 0; i++)
        if (cmd_word_is(ws->w[i], "TO"))
            to = i;
    char all[CMD_LINE_MAX];
    cmd_words_rest(ws, arg, all, sizeof all);
    if (to < 0) {
        snprintf(c->arg, sizeof c->arg, "%s", all);
    } else {
        size_t n = (size_t)(ws->at[to] - ws->at[arg]);
        snprintf(c->arg, sizeof c->arg, "%.*s", (int)n, ws->at[arg]);
        size_t k = strlen(c->arg);
        while (k && (c->arg[k - 1] == ' ' || c->arg[k - 1] == '\t'))
            c->arg[--k] = '\0';
        cmd_words_rest(ws, to + 1, c->arg2, sizeof c->arg2);
        if (!*c->arg2) {
            cmd_bad(c, "%s", "SET ABSENCE ... TO needs the end date");
            return;
        }
    }
    c->kind = kind;
}

/* SET DEADLINE TIME: the master's deadline, as the setting deadline=. */
void cmd_parse_deadline(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    char value[CMD_LINE_MAX];
    cmd_words_rest(ws, arg, value, sizeof value);
    if (!*value)
        cmd_bad(c, "%s", "SET DEADLINE needs a time: 2027-01-09 20:00, +2d");
    else if (snprintf(c->arg, sizeof c->arg, "deadline=%s", value) >=
             (int)sizeof c->arg)
        cmd_bad(c, "%s", "the deadline is too long");
    else
        c->kind = kind;
}

/* SET KEY VALUE / SET KEY=VALUE: the master's game settings. */
void cmd_parse_setting(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    if (ws->n <= arg) {
        cmd_bad(c, "%s", "SET what?");
        return;
    }
    const char *key = ws->w[arg];
    char value[CMD_LINE_MAX];
    if (strchr(key, '=')) {
        /* "SET deadline=2027-01-09 20:00": the value may have spaces */
        cmd_words_rest(ws, arg, c->arg, sizeof c->arg);
        c->kind = kind;
        return;
    }
    cmd_words_rest(ws, arg + 1, value, sizeof value);
    if (!*value) {
        cmd_bad(c, "SET %.60s needs a value", key);
        return;
    }
    size_t kl = strlen(key), vl = strlen(value);
    if (kl + vl + 2 > sizeof c->arg) {
        cmd_bad(c, "%s", "the setting is too long");
        return;
    }
    memcpy(c->arg, key, kl);
    c->arg[kl] = '=';
    memcpy(c->arg + kl + 1, value, vl + 1);
    c->kind = kind;
}
