/* SPDX-License-Identifier: MIT */
/*
 * run_player.c — the runners of the commands of someone signed on: a
 * player's flags, votes, settings, press and resignation (the table's
 * CMD_SIGNED_ON and CMD_PLAYER rows).  The table has already checked that
 * the sender may give the command (session.c, may_run).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "command/session.h"
#include "game/blind.h"
#include "game/forming.h"
#include "game/orders.h"
#include "game/pictures.h"
#include "game/press.h"
#include "game/reading.h"
#include "game/signon.h"
#include "game/player_options.h"

CMD_RUNNER(cmd_run_clear)
{
    (void)c;
    (void)press;
    s->status_due = true;
    return cmd_game_rc(s, dj_game_clear_orders(s->j, s->game, s->power,
                                               cmd_order_source(s), res));
}

CMD_RUNNER(cmd_run_status)
{
    (void)c;
    (void)press;
    if (s->power[0]) {
        s->status_due = true;
        /* a player sees its own addresses (the master: in its STATUS) */
        if (!cmd_is_master(s) &&
            dj_game_own_addresses(s->j, &s->id, res) < 0)
            return cmd_game_rc(s, -1);
        dj_buf_append(res, "(the status of your orders ends this reply)\n");
        return RUN_OK;
    }
    if (cmd_is_master(s))
        return cmd_game_rc(s, dj_game_show(s->j, s->game, res));
    dj_game_read_as(s->j, &s->id); /* a blind game: the sender's view */
    int rc = dj_game_show_public(s->j, s->game, res);
    dj_game_read_all(s->j);
    if (rc < 0)
        return cmd_game_rc(s, -1);
    /* a player waiting for a power: their preference list too */
    return cmd_game_rc(s, dj_game_preference_show(s->j, &s->id, res));
}

/* READY, NOT READY, SET WAIT, SET NOWAIT: the power's flags. */
CMD_RUNNER(cmd_run_flag)
{
    (void)press;
    const char *flag = c->kind == CMD_READY       ? "ready"
                       : c->kind == CMD_NOT_READY ? "not-ready"
                       : c->kind == CMD_WAIT      ? "wait"
                                                  : "no-wait";
    return cmd_game_rc(s, dj_game_flag(s->j, s->game, s->power, flag, res));
}

/* SET DRAW [powers], SET NODRAW, SET CONCEDE power, SET NOCONCEDE. */
CMD_RUNNER(cmd_run_vote)
{
    (void)press;
    char vote[CMD_LINE_MAX + 16];
    if (c->kind == CMD_DRAW)
        snprintf(vote, sizeof vote, "draw%s%s", c->arg[0] ? " " : "",
                 c->arg);
    else if (c->kind == CMD_CONCEDE)
        snprintf(vote, sizeof vote, "concede %s", c->who);
    else if (c->kind == CMD_EXTEND)
        snprintf(vote, sizeof vote, "%s", "extend");
    else
        snprintf(vote, sizeof vote, "%s", "none");
    return cmd_game_rc(s, dj_game_vote(s->j, s->game, s->power, vote, res));
}

CMD_RUNNER(cmd_run_password)
{
    (void)press;
    if (cmd_check_new_password(s, c->password) < 0)
        return RUN_FAILED;
    if (cmd_is_master(s) && s->power[0]) /* after BECOME: that power's */
        return cmd_game_rc(s, dj_game_set_power_password(
                                  s->j, s->game, s->power, c->password, res));
    return cmd_game_rc(s, dj_game_set_password(s->j, &s->id, c->password, res));
}

/* SET ADDRESS a@x[,b@y]: a player's address added when it sends back the
 * code mailed to it, -a@x removed (game/addresses.c); a master's or an
 * observer's replaced.  The master after BECOME: that power's. */
CMD_RUNNER(cmd_run_address)
{
    (void)press;
    return cmd_game_rc(s, dj_game_change_addresses(
                              s->j, &s->id,
                              cmd_is_master(s) && s->power[0] ? s->power
                                                              : NULL,
                              c->arg, res));
}

/* SET ABSENCE from [TO to], SET NOABSENCE. */
CMD_RUNNER(cmd_run_absence)
{
    (void)press;
    if (c->kind == CMD_NOABSENCE)
        return cmd_game_rc(
            s, dj_game_absence(s->j, s->game, s->power, "clear", NULL, res));
    return cmd_game_rc(s, dj_game_absence(s->j, s->game, s->power, c->arg,
                                          c->arg2[0] ? c->arg2 : NULL, res));
}

/* SET MAP PNG|PDF|SVG|NONE: the picture attached to one's results. */
CMD_RUNNER(cmd_run_mapformat)
{
    (void)press;
    return cmd_game_rc(s, dj_game_set_map_format(s->j, &s->id, c->arg, res));
}

CMD_RUNNER(cmd_run_press)
{
    dj_buf *body = press;
    cmd_mask_buf(s, body);
    dj_press_request req;
    req.to = c->has_to ? c->to : NULL;
    req.fake = c->fake;
    req.fake_to = c->fake_has_to ? c->fake_to : NULL;
    req.fake_from = c->fake_from[0] ? c->fake_from : NULL;
    req.grey = c->grey;
    req.body = body->data;
    if (dj_game_press(s->j, &s->id, &req, res) < 0)
        return cmd_game_rc(s, -1);
    dj_buf_printf(res, "(%d line%s%s)\n", c->press_lines,
                  c->press_lines == 1 ? "" : "s",
                  c->press_ended ? ""
                                 : "; ended by the end of the message: end "
                                   "press with ENDPRESS");
    return RUN_OK;
}

CMD_RUNNER(cmd_run_resign)
{
    (void)c;
    (void)press;
    if (dj_game_resign(s->j, &s->id, res) < 0)
        return cmd_game_rc(s, -1);
    s->power[0] = '\0';
    s->status_due = false;
    return cmd_game_rc(
        s, dj_game_notify_masters(s->j, s->game, "Resigned", res->data));
}

/* SET TOKEN NEW: the reply token (game.h) made anew, the old one dead. */
CMD_RUNNER(cmd_run_token)
{
    (void)press;
    if (strcasecmp(c->arg, "NEW") != 0)
        return cmd_session_fail(s, "SET TOKEN takes NEW");
    return cmd_game_rc(s, dj_game_token_new(s->j, &s->id, res));
}

/* SET STATS PUBLIC|PRIVATE: the sender's figures in LIST, or not. */
CMD_RUNNER(cmd_run_stats)
{
    (void)press;
    bool public = strcasecmp(c->arg, "PUBLIC") == 0;
    if (!public && strcasecmp(c->arg, "PRIVATE") != 0)
        return cmd_session_fail(s, "SET STATS takes PUBLIC or PRIVATE");
    return cmd_game_rc(
        s, dj_game_set_stats_public(s->j, s->msg->from, public, res));
}

/* SET ZONE zone: the participant's own zone; the master (without BECOME)
 * sets the game's, as SET ZONE always did for masters. */
CMD_RUNNER(cmd_run_own_zone)
{
    (void)press;
    if (cmd_is_master(s) && !s->power[0]) {
        char kv[CMD_LINE_MAX + 8];
        snprintf(kv, sizeof kv, "zone=%s", c->arg);
        const char *one[1] = {kv};
        return cmd_game_rc(s, dj_game_set(s->j, s->game, one, 1, res));
    }
    return cmd_game_rc(s, dj_game_set_own_zone(s->j, &s->id, c->arg, res));
}

/* SET REMINDER 6h|NONE|DEFAULT: the participant's own reminder lead. */
CMD_RUNNER(cmd_run_reminder)
{
    (void)press;
    return cmd_game_rc(s, dj_game_set_own_reminder(s->j, &s->id, c->arg, res));
}

/* SET CALENDAR ON|OFF: the deadline's .ics with start and results mail. */
CMD_RUNNER(cmd_run_calendar)
{
    (void)press;
    bool on = strcasecmp(c->arg, "ON") == 0 || strcasecmp(c->arg, "YES") == 0;
    if (!on && strcasecmp(c->arg, "OFF") != 0 &&
        strcasecmp(c->arg, "NO") != 0)
        return cmd_session_fail(s, "SET CALENDAR takes ON or OFF");
    return cmd_game_rc(s, dj_game_set_own_calendar(s->j, &s->id, on, res));
}

/* SET PREFERENCE list|NONE: the powers a player waiting for one wants. */
CMD_RUNNER(cmd_run_preference)
{
    (void)press;
    if (!c->arg[0])
        return cmd_session_fail(s, "SET PREFERENCE needs the powers you "
                                   "want, best first: SET PREFERENCE EFG, "
                                   "or England, France, * (NONE: no list)");
    return cmd_game_rc(s, dj_game_set_preference(s->j, &s->id, c->arg, res));
}
