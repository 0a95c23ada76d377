/* SPDX-License-Identifier: MIT */
/*
 * session.c — the helpers every command's runner shares: failing with a
 * reason, masking passwords, writing the reply, and deciding who may run
 * what (the table's `who`, checked once for every command).  See
 * session.h.
 *
 * Passwords never reach the reply: echoed lines are masked by the parser,
 * and as a last safety net every password given in the message is masked
 * wherever it appears as a word in the reply, and in press and other text
 * the message sends on.
 */
#define _POSIX_C_SOURCE 200809L

#include "command/session.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "game/game.h"
#include "game/reading.h"
#include "game/signon.h"
#include "util/fmt.h"

int cmd_session_fail(session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    return RUN_FAILED;
}

int cmd_game_rc(session *s, int rc)
{
    if (rc < 0)
        return cmd_session_fail(s, "%s", dj_judge_error(s->j));
    return RUN_OK;
}

dj_store *cmd_session_store(session *s)
{
    return dj_judge_store(s->j);
}

/* ---- passwords -------------------------------------------------------------- */

void cmd_remember_secret(session *s, const char *password)
{
    if (!*password || strlen(password) < 3)
        return; /* masking "ab" as a word would mangle ordinary text */
    for (int i = 0; i < s->nsecrets; i++)
        if (strcmp(s->secrets[i], password) == 0)
            return;
    if (s->nsecrets < MAX_SECRETS)
        snprintf(s->secrets[s->nsecrets++], CMD_WORD_MAX, "%s", password);
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || (unsigned char)c >= 0x80;
}

/* Replace every whole-word occurrence of a secret in text (in place). */
void cmd_mask_in(const session *s, char *text)
{
    for (int i = 0; i < s->nsecrets; i++) {
        const char *secret = s->secrets[i];
        size_t n = strlen(secret);
        for (char *p = strstr(text, secret); p; p = strstr(p, secret)) {
            bool starts = p == text || !word_char(p[-1]);
            bool ends = !word_char(p[n]);
            if (!starts || !ends) {
                p++;
                continue;
            }
            /* "****" is never longer than a secret of 4+ bytes; for a
             * 3-byte one, "***" keeps the length. */
            size_t m = n < 4 ? n : 4;
            memset(p, '*', m);
            memmove(p + m, p + n, strlen(p + n) + 1);
            p += m;
        }
    }
}

/*
 * A sign-on with its command word forgotten or garbled beyond the
 * parser's near misses ("Edemo pw-1-secret", "france@demo secret",
 * "demo secret"): when the line's first word names an existing game (as
 * a letter and the game, power@game or the game alone) and one or two
 * words follow, they are a password: masked in the echo.  The parser
 * cannot know which games exist; this, run on every line the reply
 * shows unread or refused, can.
 */
void cmd_mask_signon_words(session *s, char *shown)
{
    char w[3][CMD_WORD_MAX];
    int n = 0;
    const char *p = shown;
    while (*p && n < 4) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t k = strcspn(p, " ");
        if (n < 3)
            snprintf(w[n], sizeof w[n], "%.*s", (int)(k < CMD_WORD_MAX - 1
                                                          ? k
                                                          : CMD_WORD_MAX - 1),
                     p);
        n++;
        p += k;
    }
    if (n < 2 || n > 3)
        return;
    const char *games[3] = {w[0], w[0] + 1, strchr(w[0], '@')};
    if (games[2])
        games[2]++;
    bool game = false;
    for (int i = 0; i < 3 && !game; i++) {
        char name[CMD_GAME_MAX], phase[16];
        game = games[i] && games[i][0] &&
               dj_game_phase(s->j, games[i], name, sizeof name, phase,
                             sizeof phase) == 0;
    }
    if (!game)
        return;
    size_t keep = strcspn(shown, " ");
    snprintf(shown + keep, CMD_LINE_MAX - keep, " %s", CMD_MASK);
}

void cmd_mask_buf(const session *s, dj_buf *b)
{
    cmd_mask_in(s, b->data);
    b->len = strlen(b->data);
}

/* ---- the reply ------------------------------------------------------------------ */

dj_buf *cmd_say(session *s)
{
    return &s->reply->body;
}

void cmd_echo(session *s, const cmd *c)
{
    char shown[CMD_LINE_MAX];
    snprintf(shown, sizeof shown, "%s", c->echo);
    cmd_mask_in(s, shown);
    if (c->kind == CMD_TEXT)
        cmd_mask_signon_words(s, shown);
    dj_buf_printf(cmd_say(s), "> %s%s\n", shown,
                  c->cut ? " [line cut: too long]" : "");
}

/* Append text with every line cmd_indented (empty lines stay empty). */
void cmd_indented(session *s, const char *text)
{
    for (const char *l = text; *l;) {
        size_t n = strcspn(l, "\n");
        dj_buf_printf(cmd_say(s), "%s%.*s\n", n ? INDENT : "", (int)n, l);
        l += n + (l[n] == '\n');
    }
}

/* ---- who may do what --------------------------------------------------------------- */

bool cmd_same_game(const char *a, const char *b)
{
    return strcasecmp(a, b) == 0;
}

/* A message's part (from one SIGNON to the next, section.c) acts on one
 * game: refuse another. */
int cmd_check_game(session *s, const char *game)
{
    if (s->game[0] && !cmd_same_game(s->game, game))
        return cmd_session_fail(
            s,
            "this part of the message is about game '%s'; "
            "for game '%s', SIGNON to it first (each SIGNON "
            "starts a new part) or send another message",
            s->game, game);
    return RUN_OK;
}

bool cmd_is_master(const session *s)
{
    return s->signed_on && strcmp(s->id.role, "master") == 0;
}

const char *cmd_order_source(const session *s)
{
    return cmd_is_master(s) ? "master" : s->msg->signed_on ? "web" : "mail";
}

int cmd_check_new_password(session *s, const char *password)
{
    if (strlen(password) < DJ_PASSWORD_MIN)
        return cmd_session_fail(s, "a password needs at least %d characters",
                                DJ_PASSWORD_MIN);
    return RUN_OK;
}

static int need_signon(session *s)
{
    if (!s->signed_on)
        return cmd_session_fail(s, "%s",
                                s->signon_refused
                                    ? "not signed on: the sign-on was refused"
                                    : "SIGNON first (SIGNON Fgame PASSWORD)");
    return RUN_OK;
}

int cmd_may_run(session *s, cmd_who who)
{
    switch (who) {
    case CMD_ANYONE:
        return RUN_OK;
    case CMD_SIGNED_ON:
        return need_signon(s);
    case CMD_MASTER:
        if (need_signon(s) < 0)
            return RUN_FAILED;
        if (!cmd_is_master(s))
            return cmd_session_fail(s, "only the game master may do that");
        return RUN_OK;
    case CMD_PLAYER:
        /* The power the command acts for: the player's own or the
         * BECOME one. */
        if (need_signon(s) < 0)
            return RUN_FAILED;
        if (s->power[0])
            return RUN_OK;
        if (cmd_is_master(s))
            return cmd_session_fail(
                s, "BECOME a power first: the master acts for a "
                   "power only after BECOME POWER");
        if (strcmp(s->id.role, "observer") == 0)
            return cmd_session_fail(s, "observers have no power to act for");
        return cmd_session_fail(s, "you have no power in game '%s'",
                                s->id.game);
    }
    return cmd_session_fail(s, "%s", "not allowed");
}

/* ---- the reply's budget -------------------------------------------------------- */

/*
 * No amplification: until the message has signed on, its reply is at
 * most the larger of REPLY_FLOOR and twice the message's own text (its
 * subject and body), so a forged From: line draws no more than it sends;
 * a signed-on message (it carried the password) has the whole budget.
 */
#define REPLY_FLOOR 16384

size_t cmd_reply_budget(const session *s)
{
    const dj_config *cfg = dj_judge_config(s->j);
    int n = cfg ? cfg->mail.max_reply_size : 0;
    size_t budget = n > 0 ? (size_t)n : (size_t)1 << 20;
    if (s->signed_on)
        return budget;
    size_t text = (s->msg->body ? strlen(s->msg->body) : 0) +
                  (s->msg->subject ? strlen(s->msg->subject) : 0);
    size_t cap = 2 * text > REPLY_FLOOR ? 2 * text : REPLY_FLOOR;
    return cap < budget ? cap : budget;
}

size_t cmd_reply_room(const session *s)
{
    size_t used = s->reply->body.len, budget = cmd_reply_budget(s);
    return used < budget ? budget - used : 0;
}

void cmd_drop_token_identity(session *s)
{
    if (!s->by_token)
        return;
    s->by_token = s->signed_on = s->status_due = false;
    memset(&s->id, 0, sizeof s->id);
    s->power[0] = s->game[0] = '\0';
}
