/* SPDX-License-Identifier: MIT */
/*
 * section.c — one mail, several games: each SIGNON after the first starts
 * a new part (a section) of the message, as UKDP's judge allows.
 *
 * Why a file of its own: before, a second SIGNON was refused ("one
 * sign-on per message") and the session kept the first one, so the
 * orders after it went silently into the first game, replacing that
 * game's orders.  Now a section is everything from a SIGNON to the next
 * one (or the end); it acts as its own sign-on on its own game only.
 * When a section begins, the one before it has been closed by the
 * message (its order lines read, its power's orders listed:
 * message.c), and the identity is forgotten here, so
 * nothing of one section can reach another game.  A section whose
 * sign-on is refused is skipped, line by line, saying so.
 *
 * The message as a whole keeps what it must: the passwords to mask, the
 * counts for its summary, the prose it did not read.  A message from the
 * web door is signed on before its first line (command.h) and stays one
 * game: a SIGNON in it is refused as before.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>

#include "command/session.h"
#include "game/game.h"
#include "game/orders.h"

bool cmd_section_starts(const session *s, const cmd *c)
{
    return c->kind == CMD_SIGNON && !s->msg->signed_on &&
           (s->signon_tried || s->game[0]);
}

/* What the section ending leaves to the message's summary. */
static void section_account(session *s)
{
    if (s->signed_on)
        s->any_signed_on = true;
    if (s->signon_refused && !s->signed_on)
        s->sections_refused++;
    if (s->game[0] && s->section_game[0] &&
        !cmd_same_game(s->game, s->section_game))
        s->several_games = true;
    if (s->game[0])
        snprintf(s->section_game, sizeof s->section_game, "%s", s->game);
}

void cmd_section_begin(session *s)
{
    section_account(s);
    s->signed_on = s->signon_tried = s->signon_refused = false;
    memset(&s->id, 0, sizeof s->id);
    s->power[0] = s->game[0] = '\0';
    s->status_due = s->all_ordered = false;
    cmd_block_skip_end(s);
    s->section++;
    dj_buf_printf(cmd_say(s),
                  "\n---- part %d of the message: what follows is "
                  "for the game of this SIGNON only ----\n",
                  s->section + 1);
}

bool cmd_section_skipped(session *s, const cmd *c)
{
    if (s->section == 0 || !s->signon_refused || s->signed_on ||
        c->kind == CMD_SIGNON)
        return false;
    cmd_echo(s, c);
    dj_buf_printf(cmd_say(s), INDENT "(not read: this part's sign-on was "
                                     "refused, so nothing in it is done)\n");
    return true;
}

void cmd_section_end_of_message(session *s)
{
    section_account(s);
}

/* ---- blocks of lines not read --------------------------------------------
 *
 * After a PHASE naming a later phase (njudge's orders for later), each
 * order line is stored for that phase (game/orders.c reads it when the
 * phase opens) and never read now; the next command ends those lines.
 * After a PHASE refused (a past phase, no phase), and inside IF ... ENDIF
 * (conditional orders, not supported), lines are not read at all, so
 * that none of them can be filed as an order for the current phase.  The
 * refusal itself is the command's ERROR; each line after it says it was
 * not read.  A SIGNON ends the block (a new section), and so does the
 * next PHASE (which is then run) or the ENDIF.
 */
void cmd_block_skip_begin(session *s, cmd_kind kind, const char *what)
{
    s->skip = kind;
    s->skip_depth = 0;
    snprintf(s->skip_what, sizeof s->skip_what, "%s", what);
}

void cmd_block_skip_end(session *s)
{
    s->skip = CMD_TEXT;
    s->skip_depth = 0;
    s->skip_what[0] = '\0';
    s->skip_store = false;
}

bool cmd_block_skipped(session *s, const cmd *c)
{
    if (s->skip == CMD_TEXT || c->kind == CMD_SIGNON ||
        c->kind == CMD_SIGNOFF || (s->skip == CMD_PHASE && c->kind == CMD_PHASE))
        return false;
    if (s->skip_store && c->kind != CMD_TEXT) {
        cmd_block_skip_end(s); /* a command ends the stored lines: it is run */
        return false;
    }
    cmd_echo(s, c);
    if (s->skip_store) {
        if (dj_game_later_line(s->j, s->game, s->power, s->skip_what,
                               c->text) < 0) {
            dj_buf_printf(cmd_say(s), INDENT "ERROR: %s; not stored\n",
                          dj_judge_error(s->j));
            s->reply->failed++;
        } else {
            dj_buf_printf(cmd_say(s),
                          INDENT "(stored for %s, read when that "
                                 "phase comes)\n",
                          s->skip_what);
        }
        s->reply->commands++;
        return true;
    }
    if (s->skip == CMD_IF) {
        if (c->kind == CMD_IF)
            s->skip_depth++;
        if (c->kind == CMD_ENDIF && s->skip_depth-- == 0) {
            cmd_block_skip_end(s);
            dj_buf_append(cmd_say(s), INDENT "(the end of the IF: the lines "
                                             "after it are read again)\n");
            return true;
        }
        dj_buf_append(cmd_say(s), INDENT "(not read: inside IF ... ENDIF)\n");
        return true;
    }
    dj_buf_printf(cmd_say(s),
                  INDENT "(not read: for %s, not the current "
                         "phase)\n",
                  s->skip_what);
    return true;
}
