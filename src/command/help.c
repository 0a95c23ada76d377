/*
 * help.c — the HELP reply: every command in one screenful, pointing to
 * the players' guide for the rest.  Kept in step with dipjudge(7).
 */
#include "command/command.h"

void dj_command_help(dj_buf *out)
{
    dj_buf_append(
        out,
        "Commands, one per line; case does not matter; SIGNOFF ends the\n"
        "message.  The players' guide is dipjudge(7).\n"
        "\n"
        "Without signing on:\n"
        "  HELP                         this text\n"
        "  LIST                         the games on this judge\n"
        "  LIST game                    one game: phase, deadline, powers\n"
        "  HISTORY game [from [to]]     past results (S1901M, or years)\n"
        "  SUMMARY game                 supply centres, year by year\n"
        "  MAP game [phase]             the map, attached (a past phase\n"
        "                               with its orders and results)\n"
        "  JOIN game password           join a forming game (a power is\n"
        "  JOIN power@game password       dealt at the start, or choose)\n"
        "  OBSERVE game password        receive the game's results\n"
        "  TAKEOVER power@game password  play a power in civil disorder,\n"
        "                               if the game allows it\n"
        "  CREATE game password [key=value...]  a new game, if the judge\n"
        "                               allows it; you are its master\n"
        "  SIGNON Fgame password        sign on as a power (its letter\n"
        "  SIGNON france@game password    or name), Mgame/master@game for\n"
        "                                 the master, Ogame for observers\n"
        "\n"
        "Signed on as a power:\n"
        "  any line that is no command is an order: A par-bur, F nth C\n"
        "    A lon-bel, Build A par...  Each replaces the unit's earlier\n"
        "    order; the reply lists all your orders and what is missing\n"
        "  CLEAR                        withdraw all your orders\n"
        "  STATUS                       your orders, flags and deadline\n"
        "  READY / NOT READY            ready for early processing\n"
        "  SET WAIT / SET NOWAIT        ask the judge to wait for the\n"
        "                               deadline\n"
        "  SET DRAW / SET NODRAW        your (secret) draw vote\n"
        "  SET CONCEDE power / SET NOCONCEDE\n"
        "  SET ABSENCE from [TO to] / SET NOABSENCE\n"
        "  SET PASSWORD new             SET ADDRESS you@example.org\n"
        "  SET MAP PNG|PDF|SVG|NONE     the map attached to your results\n"
        "  PRESS TO powers [GREY|WHITE] [FAKE BROADCAST|FAKE TO powers]\n"
        "  BROADCAST [GREY|WHITE]       ... text ..., then ENDPRESS\n"
        "  RESIGN                       leave the game\n"
        "\n"
        "The master (SIGNON Mgame password):\n"
        "  PROCESS  PREVIEW  ROLLBACK [phase]  ROLLFORWARD  PAUSE  RESUME\n"
        "  START  BECOME power  EJECT power  TERMINATE [reason]\n"
        "  REPLACE power address        a new player (password mailed)\n"
        "  SET DEADLINE 2027-01-09 20:00    SET key value (game settings,\n"
        "  as judgectl set: SET PRESS grey, SET MOVEMENT_DELAY 48h)\n");
}
