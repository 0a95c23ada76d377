/* SPDX-License-Identifier: MIT */
/*
 * run_master.c — the runners of the game master's commands (the table's
 * CMD_MASTER rows): processing, rollback, the clock, the powers and the
 * game's settings.  The table has already checked that the sender signed
 * on as the master (session.c, may_run).
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "command/session.h"
#include "game/forming.h"
#include "game/orders.h"
#include "game/process.h"
#include "game/signon.h"
#include "game/player_options.h"

CMD_RUNNER(cmd_run_process)
{
    (void)c;
    (void)press;
    return cmd_game_rc(s, dj_game_process(s->j, s->game, res));
}

/* PREVIEW: the master's (without BECOME) of the whole phase; a player's
 * (or the master's after BECOME) of the power's own orders against holds
 * (game/player_options.h). */
CMD_RUNNER(cmd_run_preview)
{
    (void)c;
    (void)press;
    if (cmd_is_master(s) && !s->power[0])
        return cmd_game_rc(s, dj_game_preview(s->j, s->game, res));
    if (!s->power[0])
        return cmd_session_fail(s, "PREVIEW is for a power's player (or the "
                               "master): you have no power in game '%s'",
                            s->id.game);
    dj_signon me = s->id;
    if (cmd_is_master(s)) { /* after BECOME: that power's orders */
        me.power = -1;
        snprintf(me.power_name, sizeof me.power_name, "%.47s", s->power);
    }
    return cmd_game_rc(s, dj_game_preview_own(s->j, &me, res));
}

CMD_RUNNER(cmd_run_rollback)
{
    (void)press;
    return cmd_game_rc(
        s, dj_game_rollback(s->j, s->game, c->arg[0] ? c->arg : NULL, res));
}

CMD_RUNNER(cmd_run_rollforward)
{
    (void)c;
    (void)press;
    return cmd_game_rc(s, dj_game_rollforward(s->j, s->game, res));
}

CMD_RUNNER(cmd_run_pause)
{
    (void)c;
    (void)press;
    return cmd_game_rc(s, dj_game_pause(s->j, s->game, res));
}

CMD_RUNNER(cmd_run_resume)
{
    (void)c;
    (void)press;
    return cmd_game_rc(s, dj_game_resume(s->j, s->game, res));
}

CMD_RUNNER(cmd_run_start)
{
    (void)c;
    (void)press;
    return cmd_game_rc(s, dj_game_start(s->j, s->game, true, res));
}

CMD_RUNNER(cmd_run_become)
{
    (void)press;
    /* The status both checks the power and shows the master its orders. */
    if (dj_game_order_status(s->j, s->game, c->who, res) < 0)
        return cmd_game_rc(s, -1);
    snprintf(s->power, sizeof s->power, "%s", c->who);
    return RUN_OK;
}

CMD_RUNNER(cmd_run_eject)
{
    (void)press;
    return cmd_game_rc(s, dj_game_eject(s->j, s->game, c->who, res));
}

CMD_RUNNER(cmd_run_replace)
{
    (void)press;
    return cmd_game_rc(
        s, dj_game_replace(s->j, s->game, c->who, c->arg, NULL, NULL, res));
}

CMD_RUNNER(cmd_run_terminate)
{
    (void)press;
    char reason[CMD_LINE_MAX];
    snprintf(reason, sizeof reason, "%s", c->arg);
    cmd_mask_in(s, reason);
    return cmd_game_rc(s, dj_game_terminate(s->j, s->game, reason, res));
}

/* Keys are lower case; values too, except those that are names or
 * times ("zone=Europe/Paris", "deadline=2027-01-09 20:00"). */
static void normalise_setting(char *kv)
{
    char *eq = strchr(kv, '=');
    for (char *p = kv; *p && p != eq; p++)
        *p = (char)tolower((unsigned char)*p);
    if (!eq || strncmp(kv, "zone=", 5) == 0 ||
        strncmp(kv, "private=", 8) == 0)
        return;
    for (char *p = eq + 1; *p; p++)
        *p = (char)tolower((unsigned char)*p);
}

/* SET KEY VALUE, SET DEADLINE TIME: the game's settings. */
CMD_RUNNER(cmd_run_setting)
{
    (void)press;
    char kv[CMD_LINE_MAX];
    snprintf(kv, sizeof kv, "%s", c->arg);
    normalise_setting(kv);
    const char *one[1] = {kv};
    return cmd_game_rc(s, dj_game_set(s->j, s->game, one, 1, res));
}

/* REVEAL: who plays which power, shown to everyone from now on. */
CMD_RUNNER(cmd_run_reveal)
{
    (void)c;
    (void)press;
    const char *one[1] = {"identities=public"};
    if (dj_game_set(s->j, s->game, one, 1, res) < 0)
        return cmd_game_rc(s, -1);
    dj_buf_append(res, "Who plays which power is now shown to everyone.\n");
    return RUN_OK;
}

/* SET MASTER address: the game passes to that address when it sends back
 * the code mailed to it (the old master and everyone are told then). */
CMD_RUNNER(cmd_run_set_master)
{
    (void)press;
    return cmd_game_rc(
        s, dj_game_request_change(s->j, "master", &s->id, c->arg, res));
}
