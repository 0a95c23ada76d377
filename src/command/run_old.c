/* SPDX-License-Identifier: MIT */
/*
 * run_old.c — the runners of the older judges' commands (njudge's and
 * DPjudge's) that players still type.  Each is done, or refused with an
 * ERROR that says what this judge does instead; none is ever filed as
 * prose, and the lines that belong to one (a later phase's orders after
 * PHASE, stored for it; a past phase's, refused; the orders inside IF
 * ... ENDIF, a diary's or postal press's body) are never read as orders
 * for now (section.c's skipped blocks, parse.c's bodies).  Parsers: parse_old.c; the players'
 * view: dipjudge(7).
 */
#define _POSIX_C_SOURCE 200809L

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "command/session.h"
#include "game/game.h"
#include "game/orders.h"
#include "game/press.h"
#include "game/process.h"
#include "game/reading.h"
#include "game/signon.h"

/* PHASE S1902M: the current phase's orders follow, or a later phase's,
 * which are stored for it (section.c) and read when it opens; a past
 * phase or no phase is refused and its lines are not read. */
CMD_RUNNER(cmd_run_phase)
{
    (void)press;
    char name[CMD_GAME_MAX], phase[16];
    if (dj_game_phase(s->j, s->game, name, sizeof name, phase,
                      sizeof phase) < 0)
        return cmd_game_rc(s, -1);
    cmd_block_skip_end(s);
    if (strcasecmp(phase, c->arg) == 0) {
        dj_buf_printf(res, "The orders that follow are for %s, the current "
                           "phase.\n",
                      phase);
        return RUN_OK;
    }
    if (!s->power[0]) {
        cmd_block_skip_begin(s, CMD_PHASE, c->arg);
        return cmd_session_fail(s,
                                "orders for %s need a power signed on: the "
                                "lines after this, up to the next PHASE or "
                                "SIGNON, are not read",
                                c->arg);
    }
    int rc = dj_game_later_begin(s->j, s->game, s->power, c->arg);
    if (rc == 0) {
        dj_buf_printf(res, "The orders that follow are for %s, the current "
                           "phase.\n",
                      phase);
        return RUN_OK;
    }
    cmd_block_skip_begin(s, CMD_PHASE, c->arg);
    if (rc < 0)
        return cmd_session_fail(
            s,
            "%s: the lines after this, up to the next PHASE "
            "or SIGNON, are not read and nothing is filed",
            dj_judge_error(s->j));
    s->skip_store = true;
    dj_buf_printf(res, "The order lines that follow are stored for %s, read "
                       "when that phase comes, never as orders for %s; they "
                       "replace any sent before for %s.\n",
                  c->arg, phase, c->arg);
    return RUN_OK;
}

/* IF ... ELSE ... ENDIF: njudge's conditional orders, not supported. */
CMD_RUNNER(cmd_run_if)
{
    (void)press;
    (void)res;
    if (c->kind == CMD_IF) {
        cmd_block_skip_begin(s, CMD_IF, "IF");
        return cmd_session_fail(s, "conditional orders (IF ... ELSE ... ENDIF) "
                                   "are not supported: nothing up to ENDIF is "
                                   "read; give each unit one plain order");
    }
    return cmd_session_fail(s,
                            "%s without IF: conditional orders are not "
                            "supported; give each unit one plain order",
                            c->name);
}

/* DIARY ... ENDDIARY: an entry in the player's diary for this phase,
 * never read as orders; DIARY READ: one's own entries. */
CMD_RUNNER(cmd_run_diary)
{
    if (c->kind == CMD_ENDDIARY)
        return cmd_session_fail(s, "ENDDIARY without DIARY: nothing to end");
    if (!c->opens_diary)
        return cmd_game_rc(s, dj_game_diary_read(s->j, &s->id, res));
    dj_buf body;
    dj_buf_init(&body);
    if (c->arg[0]) {
        dj_buf_append(&body, c->arg);
        dj_buf_append(&body, "\n");
    }
    if (press && press->data)
        dj_buf_append(&body, press->data);
    cmd_mask_buf(s, &body);
    int rc = dj_buf_ok(&body)
                 ? dj_game_diary_add(s->j, &s->id, body.data ? body.data : "",
                                     res)
                 : -1;
    dj_buf_free(&body);
    if (rc < 0)
        return cmd_game_rc(s, -1);
    int lines = c->press_lines + (c->arg[0] != '\0');
    dj_buf_printf(res, "(%d line%s%s)\n", lines, lines == 1 ? "" : "s",
                  c->press_ended ? ""
                                 : "; ended by the end of the message: end "
                                   "a diary entry with ENDDIARY");
    return RUN_OK;
}

/* POSTAL PRESS ... ENDPRESS: press sent with the results; not here. */
CMD_RUNNER(cmd_run_postal)
{
    (void)press;
    (void)res;
    (void)c;
    return cmd_session_fail(s, "postal press (press sent out with the next "
                               "results) is not supported: nothing was sent; "
                               "write PRESS TO powers or BROADCAST, the text, "
                               "then ENDPRESS");
}

/* OFFICIAL text, or OFFICIAL with the text up to ENDPRESS: the master's
 * notice to everyone in the game, without a press header. */
CMD_RUNNER(cmd_run_official)
{
    dj_buf text;
    dj_buf_init(&text);
    dj_buf_append(&text, c->arg[0] ? c->arg : press->data);
    cmd_mask_buf(s, &text);
    size_t n = text.len;
    while (n && (text.data[n - 1] == '\n' || text.data[n - 1] == ' '))
        n--;
    int rc;
    if (n == 0)
        rc =
            cmd_session_fail(s, "OFFICIAL needs its text: on the line "
                                "(OFFICIAL the text) or on the lines after it, "
                                "up to ENDPRESS");
    else
        rc = cmd_game_rc(s, dj_game_official(s->j, s->game, text.data, res));
    dj_buf_free(&text);
    return rc;
}

/* PROMOTE address: that address (or observer) becomes a second master
 * when it sends back the code mailed to it (confirm.c); the master who
 * asked stays one. */
CMD_RUNNER(cmd_run_promote)
{
    (void)press;
    if (!c->arg[0])
        return cmd_session_fail(s, "PROMOTE needs the address of the new "
                                   "co-master: PROMOTE address");
    return cmd_game_rc(
        s, dj_game_request_change(s->j, "promote", &s->id, c->arg, res));
}

CMD_RUNNER(cmd_run_unstart)
{
    (void)press;
    (void)res;
    (void)c;
    return cmd_session_fail(s, "a started game cannot go back to forming on "
                               "this judge: ROLLBACK to its first phase, or "
                               "TERMINATE it");
}

CMD_RUNNER(cmd_run_version)
{
    (void)press;
    (void)c;
    (void)s;
    dj_buf_printf(res, "%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
    return RUN_OK;
}

