/* SPDX-License-Identifier: MIT */
/*
 * run_anyone.c — the runners of the commands anyone may send, signed on
 * or not (the table's CMD_ANYONE rows): LIST, HISTORY, SUMMARY,
 * MAP, JOIN, OBSERVE, CONFIRM, CREATE, TAKEOVER, SIGNON, SIGNOFF, PRESS
 * ARCHIVE.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>

#include "command/session.h"
#include "game/audience.h"
#include "game/forming.h"
#include "game/blind.h"
#include "game/game.h"
#include "game/pictures.h"
#include "game/press.h"
#include "game/reading.h"
#include "game/signon.h"

/* A private game is described to its participants only (audience.c);
 * to anyone else it answers as a game that does not exist. */
static int described(session *s, const char *game)
{
    return cmd_game_rc(
        s, dj_game_described_to(s->j, game, s->signed_on ? &s->id : NULL));
}

/* A blind game's reads show what the sender sees: their own view when
 * signed on to that game, else nothing (game/blind.h); `rc` passed on
 * once the session reads everything again. */
static void read_as_sender(session *s, const char *game)
{
    dj_game_read_as(s->j, s->signed_on && cmd_same_game(s->id.game, game)
                              ? &s->id
                              : NULL);
}

static int read_done(session *s, int rc)
{
    dj_game_read_all(s->j);
    return rc;
}

CMD_RUNNER(cmd_run_list)
{
    (void)press;
    if (!c->game[0])
        return cmd_game_rc(s, dj_game_list_public(s->j, res));
    if (described(s, c->game) < 0)
        return RUN_FAILED;
    read_as_sender(s, c->game);
    if (read_done(s, dj_game_show_public(s->j, c->game, res)) < 0)
        return cmd_game_rc(s, -1);
    /* signed on to it, a player waiting for a power: their list too */
    if (s->signed_on && cmd_same_game(s->id.game, c->game))
        return cmd_game_rc(s, dj_game_preference_show(s->j, &s->id, res));
    return RUN_OK;
}

/*
 * MAP and HISTORY draw large replies (a picture, a game's whole history)
 * from a short mail: they answer only a participant of the game who has
 * signed on, so a forged From: line cannot aim them at anyone.
 */
static int need_member(session *s, const char *game, const char *what)
{
    if (s->signed_on && cmd_same_game(s->id.game, game))
        return RUN_OK;
    return cmd_session_fail(
        s,
        "%s answers only the players, observers and master of "
        "game '%s', signed on: SIGNON first",
        what, game);
}

CMD_RUNNER(cmd_run_history)
{
    (void)press;
    if (cmd_check_game(s, c->game) < 0 ||
        need_member(s, c->game, "HISTORY") < 0)
        return RUN_FAILED;
    read_as_sender(s, c->game);
    return cmd_game_rc(
        s, read_done(s, dj_game_history(s->j, c->game,
                                        c->arg[0] ? c->arg : NULL,
                                        c->arg2[0] ? c->arg2 : NULL, res)));
}

CMD_RUNNER(cmd_run_summary)
{
    (void)press;
    if (described(s, c->game) < 0)
        return RUN_FAILED;
    read_as_sender(s, c->game);
    return cmd_game_rc(s,
                       read_done(s, dj_game_summary(s->j, c->game, res)));
}

/* MAP [GAME] [PHASE]: the picture, attached to the reply (one a message). */
CMD_RUNNER(cmd_run_map)
{
    (void)press;
    const char *game = c->game[0] ? c->game : s->game[0] ? s->game : NULL;
    if (!game)
        return cmd_session_fail(
            s, "MAP needs the game (MAP demo), or SIGNON first");
    if (cmd_check_game(s, game) < 0 || need_member(s, game, "MAP") < 0)
        return RUN_FAILED;
    if (s->reply->picture.phase_id)
        return cmd_session_fail(s,
                                "one map a message: send another message for "
                                "another map");
    return cmd_game_rc(
        s, dj_game_map_for_mail(s->j, game, c->arg[0] ? c->arg : NULL, &s->id,
                                &s->reply->picture, res));
}

/* TAKEOVER power@game password: a volunteer for a power in disorder. */
CMD_RUNNER(cmd_run_takeover)
{
    (void)press;
    if (cmd_check_game(s, c->game) < 0 ||
        cmd_check_new_password(s, c->password) < 0)
        return RUN_FAILED;
    /* Not yet: the address must show it receives mail (CONFIRM). */
    if (dj_game_request_confirmation(s->j, "takeover", c->game, c->who,
                                     s->msg->from, c->password, NULL,
                                     res) < 0)
        return cmd_game_rc(s, -1);
    snprintf(s->game, sizeof s->game, "%s", c->game);
    return RUN_OK;
}

/* JOIN and OBSERVE: asked for now, done when the code comes back. */
CMD_RUNNER(cmd_run_join)
{
    (void)press;
    if (cmd_check_game(s, c->game) < 0 ||
        cmd_check_new_password(s, c->password) < 0)
        return RUN_FAILED;
    cmd_remember_secret(s, c->arg2); /* a private game's join password */
    if (dj_game_check_admission(s->j, c->game, c->arg2) < 0)
        return cmd_game_rc(s, -1);
    /* Not yet: the address must show it receives mail (CONFIRM). */
    if (dj_game_request_confirmation(s->j,
                                     c->kind == CMD_OBSERVE ? "observe"
                                                            : "join",
                                     c->game, c->who[0] ? c->who : NULL,
                                     s->msg->from, c->password, NULL,
                                     res) < 0)
        return cmd_game_rc(s, -1);
    snprintf(s->game, sizeof s->game, "%s", c->game);
    return RUN_OK;
}

/* CONFIRM code: a request waiting for this address happens now (the
 * game tells whom it concerns; the masters learn of a new player or
 * observer here, with the player's reliability figures). */
CMD_RUNNER(cmd_run_confirm)
{
    (void)press;
    dj_confirmed done;
    if (dj_game_confirm(s->j, s->msg->from, c->arg, &done, res) < 0)
        return cmd_game_rc(s, -1);
    if (cmd_check_game(s, done.game) < 0)
        return RUN_FAILED;
    snprintf(s->game, sizeof s->game, "%s", done.game);
    if (strcmp(done.action, "join") != 0 &&
        strcmp(done.action, "observe") != 0)
        return RUN_OK;
    bool observer = strcmp(done.action, "observe") == 0;
    /* the master sees the new player's reliability figures */
    dj_buf notice;
    dj_buf_init(&notice);
    dj_buf_append(&notice, res->data);
    if (!observer) {
        dj_buf_append(&notice, "\nReliability figures of ");
        if (dj_game_player_stats(s->j, s->msg->from, NULL, false,
                                 &notice) < 0) {
            dj_buf_free(&notice);
            return cmd_game_rc(s, -1);
        }
    }
    int rc = dj_game_notify_masters(s->j, done.game,
                                    observer ? "New observer" : "New player",
                                    notice.data);
    dj_buf_free(&notice);
    return cmd_game_rc(s, rc);
}

/* CREATE GAME PASSWORD [KEY=VALUE...]: the sender becomes the master. */
CMD_RUNNER(cmd_run_create)
{
    (void)press;
    if (!dj_judge_config(s->j)->allow_create)
        return cmd_session_fail(
            s, "this judge does not create games by mail; ask its "
               "administrator");
    if (cmd_check_game(s, c->game) < 0 ||
        cmd_check_new_password(s, c->password) < 0)
        return RUN_FAILED;
    if (dj_game_request_confirmation(s->j, "create", c->game, NULL,
                                     s->msg->from, c->password, c->arg,
                                     res) < 0)
        return cmd_game_rc(s, -1);
    snprintf(s->game, sizeof s->game, "%s", c->game);
    return RUN_OK;
}

CMD_RUNNER(cmd_run_signon)
{
    (void)press;
    if (s->signon_tried)
        return cmd_session_fail(
            s, "one sign-on per message: send another message to "
               "sign on again");
    cmd_drop_token_identity(s);
    if (cmd_check_game(s, c->game) < 0)
        return RUN_FAILED;
    s->signon_tried = true;
    int rc = dj_game_signon(s->j, c->game, c->who, c->password,
                            s->msg->from, &s->id);
    if (rc < 0)
        return cmd_game_rc(s, -1);
    if (rc == DJ_SIGNON_REFUSED) {
        s->signon_refused = true;
        cmd_session_fail(s, "%s", dj_judge_error(s->j));
        return RUN_REFUSED_KEEP;
    }
    s->signed_on = true;
    snprintf(s->game, sizeof s->game, "%s", s->id.game);
    if (strcmp(s->id.role, "player") == 0) {
        snprintf(s->power, sizeof s->power, "%s", s->id.power_name);
        s->status_due = s->power[0] != '\0';
        if (s->power[0])
            dj_buf_printf(res, "Signed on as %s in game '%s'.\n", s->power,
                          s->id.game);
        else
            dj_buf_printf(res, "Signed on as a player of game '%s' (your "
                          "power is dealt when it starts).\n",
                          s->id.game);
    } else {
        dj_buf_printf(res, "Signed on as %s of game '%s'.\n",
                      strcmp(s->id.role, "master") == 0 ? "the master"
                                                         : "an observer",
                      s->id.game);
    }
    if (s->id.short_password)
        dj_buf_printf(res, "Your password is shorter than %d characters: "
                      "please choose a longer one with SET PASSWORD.\n",
                      DJ_PASSWORD_MIN);
    return RUN_OK;
}

CMD_RUNNER(cmd_run_signoff)
{
    (void)s;
    (void)c;
    (void)press;
    dj_buf_append(res, "Signed off: nothing after this line is read.\n");
    return RUN_OK;
}

CMD_RUNNER(cmd_run_endpress)
{
    (void)c;
    (void)press;
    (void)res;
    return cmd_session_fail(s, "ENDPRESS without a PRESS before it");
}

/* PRESS ARCHIVE game [from [to]]: the press this sender may read, within
 * what is left of the reply's size budget. */
CMD_RUNNER(cmd_run_press_archive)
{
    (void)press;
    bool mine = s->signed_on && cmd_same_game(s->id.game, c->game);
    if (described(s, c->game) < 0)
        return RUN_FAILED;
    size_t room = cmd_reply_room(s) * 3 / 4; /* the reply indents each line */
    return cmd_game_rc(
        s, dj_game_press_archive(
               s->j, c->game, mine ? &s->id : NULL, c->arg[0] ? c->arg : NULL,
               c->arg2[0] ? c->arg2 : NULL, room > 512 ? room - 512 : 0, res));
}
