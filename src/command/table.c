/* SPDX-License-Identifier: MIT */
/*
 * table.c — the one table of mail commands, the lookup of a line's row,
 * and HELP printed from the rows.  See table.h.
 *
 * The rows are in the order HELP lists them, grouped by who may use them.
 * A row's spellings are the words that give it, '|' between them; a line
 * takes the row whose spelling matches the most of its first words, so
 * "SET NO WAIT" is SET NOWAIT and "SET PRESS grey" falls to the plain
 * SET of a game setting.
 */
#define _POSIX_C_SOURCE 200809L

#include "command/table.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "command/command.h"
#include "command/session.h"

const cmd_spec cmd_table[] = {
    /* ---- anyone -------------------------------------------------------- */
    {CMD_HELP, "HELP", NULL, CMD_ANYONE, true, cmd_parse_anything, cmd_run_help,
     "HELP", "this text"},
    {CMD_LIST, "LIST", NULL, CMD_ANYONE, true, cmd_parse_game_optional,
     cmd_run_list, "LIST [game]",
     "the games on this judge; with a game: its\n"
     "phase, deadline and powers"},
    {CMD_HISTORY, "HISTORY", NULL, CMD_ANYONE, true, cmd_parse_history,
     cmd_run_history, "HISTORY game [from [to]]",
     "past results (S1901M, or years); for\n"
     "the game's players, observers and\n"
     "master, after SIGNON"},
    {CMD_SUMMARY, "SUMMARY", NULL, CMD_ANYONE, true, cmd_parse_game,
     cmd_run_summary, "SUMMARY game", "supply centres, year by year"},
    {CMD_MAP, "MAP", NULL, CMD_ANYONE, true, cmd_parse_map, cmd_run_map,
     "MAP game [phase]",
     "the map, attached (a past phase with its\n"
     "orders and results); for the game's\n"
     "players, observers and master, after\n"
     "SIGNON"},
    {CMD_JOIN, "JOIN", NULL, CMD_ANYONE, true, cmd_parse_game_password,
     cmd_run_join, "JOIN [power@]game password",
     "join a forming game (a power is dealt\n"
     "at the start, or choose one)"},
    {CMD_OBSERVE, "OBSERVE", NULL, CMD_ANYONE, true, cmd_parse_game_password,
     cmd_run_join, "OBSERVE game password", "receive the game's results"},
    {CMD_CONFIRM, "CONFIRM", NULL, CMD_ANYONE, true, cmd_parse_one_word,
     cmd_run_confirm, "CONFIRM code",
     "JOIN, OBSERVE, CREATE and TAKEOVER happen\n"
     "when the code the judge mails back\n"
     "returns from your address (SET ADDRESS,\n"
     "SET MASTER: from the new address)"},
    {CMD_TAKEOVER, "TAKEOVER", NULL, CMD_ANYONE, false, cmd_parse_game_password,
     cmd_run_takeover, "TAKEOVER power@game password",
     "play a power in civil disorder, if the\ngame allows it (confirmed by "
     "code)"},
    {CMD_CREATE, "CREATE", NULL, CMD_ANYONE, true, cmd_parse_game_password,
     cmd_run_create, "CREATE game password [key=value...]",
     "a new game, if the judge allows it; you\nare its master"},
    {CMD_SIGNON, "SIGNON", NULL, CMD_ANYONE, true, cmd_parse_signon, cmd_run_signon,
     "SIGNON Xgame password", "sign on as a power (its letter, or\n"
                              "power@game), Mgame or master@game for the\n"
                              "master, Ogame for an observer,\n"
                              "?game for a player dealt a power at\n"
                              "the start"},
    {CMD_PRESS_ARCHIVE, "PRESS ARCHIVE", NULL, CMD_ANYONE, true,
     cmd_parse_history, cmd_run_press_archive, "PRESS ARCHIVE game [from [to]]",
     "the press you may read (broadcasts once\n"
     "the game is over, if you are not in it)"},
    {CMD_SIGNOFF, "SIGNOFF", NULL, CMD_ANYONE, false, cmd_parse_anything,
     cmd_run_signoff, "SIGNOFF", "ends the message: nothing after it is read"},
    {CMD_VERSION, "VERSION", NULL, CMD_ANYONE, true, cmd_parse_alone,
     cmd_run_version, "VERSION", "the judge's program and version"},
    {CMD_GET, "GET", NULL, CMD_ANYONE, true, cmd_parse_get, cmd_run_get,
     "GET [file]",
     "njudge's help files: this judge answers\n"
     "with HELP"},

    /* ---- anyone signed on ------------------------------------------- */
    {CMD_STATUS, "STATUS", NULL, CMD_SIGNED_ON, false, cmd_parse_nothing,
     cmd_run_status, "STATUS", "your orders, flags and deadline"},
    {CMD_PASSWORD, "SET PASSWORD", NULL, CMD_SIGNED_ON, false,
     cmd_parse_password, cmd_run_password, "SET PASSWORD new",
     "a new password (the master after BECOME:\nthat power's)"},
    {CMD_ADDRESS, "SET ADDRESS", NULL, CMD_SIGNED_ON, false, cmd_parse_one_word,
     cmd_run_address, "SET ADDRESS you@example.org",
     "the judge writes to this address once it\nconfirms by code (a "
     "power: one more, up\nto 3; a@x,b@y adds each; -a@x removes one)"},
    {CMD_MAPFORMAT, "SET MAP", NULL, CMD_SIGNED_ON, false, cmd_parse_one_word,
     cmd_run_mapformat, "SET MAP PNG|PDF|SVG|NONE",
     "the map attached to your results"},
    {CMD_STATS, "SET STATS", NULL, CMD_SIGNED_ON, false, cmd_parse_one_word,
     cmd_run_stats, "SET STATS PUBLIC|PRIVATE",
     "your reliability figures in LIST too, or\nonly for game masters"},
    {CMD_OWN_ZONE, "SET ZONE", NULL, CMD_SIGNED_ON, false, cmd_parse_one_word,
     cmd_run_own_zone, "SET ZONE Europe/Paris",
     "deadlines in the mail to you shown in\n"
     "that zone too (GAME: the game's only);\n"
     "the master without BECOME: the game's\n"
     "zone"},
    {CMD_REMINDER, "SET REMINDER", NULL, CMD_SIGNED_ON, false,
     cmd_parse_one_word, cmd_run_reminder, "SET REMINDER 6h|NONE|DEFAULT",
     "your reminder that long before each\n"
     "deadline (or none, or the judge's)"},
    {CMD_CALENDAR, "SET CALENDAR", NULL, CMD_SIGNED_ON, false,
     cmd_parse_one_word, cmd_run_calendar, "SET CALENDAR ON|OFF",
     "the next deadline as a calendar entry\n"
     "(.ics) with start and results mail"},
    {CMD_PREFERENCE, "SET PREFERENCE", NULL, CMD_SIGNED_ON, false,
     cmd_parse_rest, cmd_run_preference, "SET PREFERENCE EFG|NONE",
     "while the game forms (assignment =\n"
     "preference): the powers you want, best\n"
     "first, by letter or name (England,\n"
     "France, *: * is the rest, any order)"},
    {CMD_TOKEN, "SET TOKEN", NULL, CMD_SIGNED_ON, false, cmd_parse_one_word,
     cmd_run_token, "SET TOKEN NEW",
     "a new reply address: answers to the\n"
     "judge's older mail no longer sign you on"},
    {CMD_PRESS, "PRESS", "PRESS|BROADCAST", CMD_SIGNED_ON, false,
     cmd_parse_press, cmd_run_press, "PRESS TO powers [options]",
     "press to some powers: the text follows,\n"
     "then ENDPRESS; options GREY or WHITE,\n"
     "FAKE BROADCAST or FAKE TO powers;\n"
     "BROADCAST [GREY|WHITE] writes to everyone"},
    {CMD_ENDPRESS, "ENDPRESS", "ENDPRESS|ENDBROADCAST", CMD_SIGNED_ON, false,
     cmd_parse_anything, cmd_run_endpress, "ENDPRESS",
     "ends a press message (or ENDBROADCAST)"},
    {CMD_RESIGN, "RESIGN", NULL, CMD_SIGNED_ON, false, cmd_parse_nothing,
     cmd_run_resign, "RESIGN", "leave the game"},
    {CMD_DIARY, "DIARY", NULL, CMD_SIGNED_ON, false, cmd_parse_diary,
     cmd_run_diary, "DIARY [READ]",
     "your diary for this phase, up to ENDDIARY:\n"
     "private until the game ends; DIARY READ\n"
     "mails you your entries"},
    {CMD_ENDDIARY, "ENDDIARY", NULL, CMD_SIGNED_ON, false, cmd_parse_alone,
     cmd_run_diary, "ENDDIARY", "ends a DIARY"},
    {CMD_POSTAL, "POSTAL PRESS", NULL, CMD_SIGNED_ON, false, cmd_parse_postal,
     cmd_run_postal, "POSTAL PRESS",
     "press sent with the results: not\n"
     "supported (refused; use PRESS)"},

    /* ---- a power's player (or the master after BECOME) ---------------- */
    {CMD_CLEAR, "CLEAR", NULL, CMD_PLAYER, false, cmd_parse_nothing,
     cmd_run_clear, "CLEAR", "withdraw all your orders"},
    {CMD_READY, "READY", NULL, CMD_PLAYER, false, cmd_parse_nothing,
     cmd_run_flag, "READY", "ready for early processing"},
    {CMD_NOT_READY, "NOT READY", "NOT READY|NOTREADY|UNREADY", CMD_PLAYER,
     false, cmd_parse_nothing, cmd_run_flag, "NOT READY",
     "not ready after all"},
    {CMD_WAIT, "SET WAIT", NULL, CMD_PLAYER, false, cmd_parse_nothing,
     cmd_run_flag, "SET WAIT", "ask the judge to wait for the deadline"},
    {CMD_NOWAIT, "SET NOWAIT", "SET NOWAIT|SET NO WAIT", CMD_PLAYER, false,
     cmd_parse_nothing, cmd_run_flag, "SET NOWAIT", "no need to wait"},
    {CMD_DRAW, "SET DRAW", NULL, CMD_PLAYER, false, cmd_parse_draw,
     cmd_run_vote, "SET DRAW [powers]",
     "your (secret) draw vote; with powers,\n"
     "for a draw among them"},
    {CMD_NODRAW, "SET NODRAW", "SET NODRAW|SET NO DRAW", CMD_PLAYER, false,
     cmd_parse_nothing, cmd_run_vote, "SET NODRAW", "withdraw your draw vote"},
    {CMD_CONCEDE, "SET CONCEDE", NULL, CMD_PLAYER, false, cmd_parse_power,
     cmd_run_vote, "SET CONCEDE power", "concede the game to that power"},
    {CMD_NOCONCEDE, "SET NOCONCEDE", "SET NOCONCEDE|SET NO CONCEDE", CMD_PLAYER,
     false, cmd_parse_nothing, cmd_run_vote, "SET NOCONCEDE",
     "withdraw your concession"},
    {CMD_EXTEND, "EXTEND", "EXTEND|SET EXTEND", CMD_PLAYER, false,
     cmd_parse_nothing, cmd_run_vote, "EXTEND",
     "vote to extend the deadline (if the game\n"
     "has an extension): it moves when every\n"
     "surviving power votes, once a phase"},
    {CMD_PHASE, "PHASE", NULL, CMD_PLAYER, false, cmd_parse_phase,
     cmd_run_phase, "PHASE S1902M",
     "the orders after it are for that phase\n"
     "(or Spring 1902 Movement): the current\n"
     "one's are read; a later one's are kept\n"
     "and read when it comes; a past one's\n"
     "are refused, not read"},
    {CMD_IF, "IF", NULL, CMD_PLAYER, false, cmd_parse_if, cmd_run_if,
     "IF order ... ENDIF",
     "njudge's conditional orders: not\n"
     "supported (refused; nothing up to\n"
     "ENDIF is read)"},
    {CMD_ELSE, "ELSE", NULL, CMD_PLAYER, false, cmd_parse_alone, cmd_run_if,
     "ELSE", "part of IF ... ENDIF"},
    {CMD_ENDIF, "ENDIF", NULL, CMD_PLAYER, false, cmd_parse_alone, cmd_run_if,
     "ENDIF", "ends IF"},
    {CMD_ABSENCE, "SET ABSENCE", NULL, CMD_PLAYER, false, cmd_parse_absence,
     cmd_run_absence, "SET ABSENCE from [TO to]",
     "you will be away: no deadline then"},
    {CMD_NOABSENCE, "SET NOABSENCE", "SET NOABSENCE|SET NO ABSENCE", CMD_PLAYER,
     false, cmd_parse_nothing, cmd_run_absence, "SET NOABSENCE",
     "forget your absences"},

    /* ---- the master ---------------------------------------------------- */
    {CMD_PROCESS, "PROCESS", NULL, CMD_MASTER, false, cmd_parse_nothing,
     cmd_run_process, "PROCESS", "process the phase now"},
    {CMD_PREVIEW, "PREVIEW", NULL, CMD_SIGNED_ON, false, cmd_parse_nothing,
     cmd_run_preview, "PREVIEW", "the results processing would give now;\n"
                             "a player: your orders on file against\n"
                             "holds of every other unit (nothing\n"
                             "saved, nobody else told)"},
    {CMD_ROLLBACK, "ROLLBACK", NULL, CMD_MASTER, false, cmd_parse_rollback,
     cmd_run_rollback, "ROLLBACK [phase]",
     "back to that phase (by default the one\nbefore)"},
    {CMD_ROLLFORWARD, "ROLLFORWARD", NULL, CMD_MASTER, false, cmd_parse_nothing,
     cmd_run_rollforward, "ROLLFORWARD", "undo the latest rollback"},
    {CMD_PAUSE, "PAUSE", NULL, CMD_MASTER, false, cmd_parse_nothing,
     cmd_run_pause, "PAUSE", "stop the game's clock"},
    {CMD_RESUME, "RESUME", NULL, CMD_MASTER, false, cmd_parse_nothing,
     cmd_run_resume, "RESUME", "restart the game's clock"},
    {CMD_START, "START", NULL, CMD_MASTER, false, cmd_parse_nothing,
     cmd_run_start, "START", "start the forming game now"},
    {CMD_BECOME, "BECOME", NULL, CMD_MASTER, false, cmd_parse_power,
     cmd_run_become, "BECOME power",
     "act for a power: its orders, flags, votes"},
    {CMD_EJECT, "EJECT", NULL, CMD_MASTER, false, cmd_parse_power,
     cmd_run_eject, "EJECT power", "take a power from its player"},
    {CMD_REPLACE, "REPLACE", NULL, CMD_MASTER, false, cmd_parse_replace,
     cmd_run_replace, "REPLACE power address",
     "a new player (password mailed)"},
    {CMD_REVEAL, "REVEAL", NULL, CMD_MASTER, false, cmd_parse_nothing,
     cmd_run_reveal, "REVEAL", "show everyone who plays which power"},
    {CMD_SETMASTER, "SET MASTER", NULL, CMD_MASTER, false, cmd_parse_one_word,
     cmd_run_set_master, "SET MASTER address",
     "hand the game to another master, once\n"
     "that address confirms by code"},
    {CMD_TERMINATE, "TERMINATE", NULL, CMD_MASTER, false, cmd_parse_rest,
     cmd_run_terminate, "TERMINATE [reason]", "end the game"},
    {CMD_OFFICIAL, "OFFICIAL", NULL, CMD_MASTER, false, cmd_parse_official,
     cmd_run_official, "OFFICIAL [text]",
     "a notice to everyone in the game: the\n"
     "text on the line, or up to ENDPRESS"},
    {CMD_PROMOTE, "PROMOTE", NULL, CMD_MASTER, false, cmd_parse_rest,
     cmd_run_promote, "PROMOTE address",
     "make that address (or observer) a\n"
     "co-master, once it confirms by code"},
    {CMD_UNSTART, "UNSTART", NULL, CMD_MASTER, false, cmd_parse_alone,
     cmd_run_unstart, "UNSTART",
     "not supported (refused): ROLLBACK or\n"
     "TERMINATE instead"},
    {CMD_DEADLINE, "SET DEADLINE", NULL, CMD_MASTER, false, cmd_parse_deadline,
     cmd_run_setting, "SET DEADLINE time", "2027-01-09 20:00, or +2d"},
    {CMD_SETTING, "SET", NULL, CMD_MASTER, false, cmd_parse_setting,
     cmd_run_setting, "SET key value",
     "a game setting, as judgectl set: SET\n"
     "PRESS grey, SET MOVEMENT_DELAY 48h"},
};

const size_t cmd_table_len = sizeof cmd_table / sizeof cmd_table[0];

const cmd_spec *cmd_spec_of(cmd_kind kind)
{
    for (size_t i = 0; i < cmd_table_len; i++)
        if (cmd_table[i].kind == kind)
            return &cmd_table[i];
    return NULL;
}

/* How many of the line's first words one spelling ("SET NO WAIT") is;
 * 0 when they do not match. */
static int spelling_matches(const words *ws, const char *spelling,
                            size_t len)
{
    int n = 0;
    const char *p = spelling, *end = spelling + len;
    while (p < end) {
        const char *sp = memchr(p, ' ', (size_t)(end - p));
        size_t wl = sp ? (size_t)(sp - p) : (size_t)(end - p);
        if (n >= ws->n || strlen(ws->w[n]) != wl ||
            strncasecmp(ws->w[n], p, wl) != 0)
            return 0;
        n++;
        p += wl + (sp != NULL);
    }
    return n;
}

const cmd_spec *cmd_spec_match(const words *ws, int *nwords)
{
    const cmd_spec *best = NULL;
    int most = 0;
    for (size_t i = 0; i < cmd_table_len; i++) {
        const char *s = cmd_table[i].spellings ? cmd_table[i].spellings
                                               : cmd_table[i].name;
        while (*s) {
            size_t len = strcspn(s, "|");
            int n = spelling_matches(ws, s, len);
            if (n > most) {
                most = n;
                best = &cmd_table[i];
            }
            s += len + (s[len] == '|');
        }
    }
    *nwords = most;
    return best;
}

/* ---- HELP --------------------------------------------------------------------- */

#define HELP_COLUMN 31

static void help_row(dj_buf *out, const cmd_spec *spec)
{
    size_t ul = strlen(spec->usage);
    if (ul + 2 >= HELP_COLUMN - 1)
        dj_buf_printf(out, "  %s\n%*s", spec->usage, HELP_COLUMN, "");
    else
        dj_buf_printf(out, "  %-*s", HELP_COLUMN - 2, spec->usage);
    for (const char *l = spec->help; *l;) {
        size_t n = strcspn(l, "\n");
        dj_buf_printf(out, "%.*s\n", (int)n, l);
        l += n;
        if (*l == '\n' && *++l)
            dj_buf_printf(out, "%*s", HELP_COLUMN, "");
    }
}

void dj_command_help(dj_buf *out)
{
    static const struct {
        cmd_who who;
        const char *heading;
    } sections[] = {
        {CMD_ANYONE, "Without signing on (HISTORY and MAP: signed on):\n"},
        {CMD_SIGNED_ON, "Signed on (a player, an observer or the master):\n"},
        {CMD_PLAYER,
         "Signed on as a power (the master: after BECOME power):\n"
         "  any line that is no command is an order: A par-bur, F nth C\n"
         "    A lon-bel, Build A par...  Each replaces the unit's earlier\n"
         "    order; the reply lists all your orders and what is missing\n"},
        {CMD_MASTER, "The master (SIGNON Mgame password):\n"},
    };
    dj_buf_append(out,
                  "Commands, one per line; case does not matter; SIGNOFF "
                  "ends the\nmessage.  The players' guide is dipjudge(7).\n");
    for (size_t k = 0; k < sizeof sections / sizeof sections[0]; k++) {
        dj_buf_printf(out, "\n%s", sections[k].heading);
        for (size_t i = 0; i < cmd_table_len; i++)
            if (cmd_table[i].who == sections[k].who)
                help_row(out, &cmd_table[i]);
    }
}

/* The web's form for each command: its door (table.h), next to the table
 * whose kinds it names; a kind not here goes by mail only. */
static const struct {
    cmd_kind kind;
    cmd_door door;
} cmd_doors[] = {
    {CMD_PRESS, CMD_DOOR_ORDERS},      {CMD_ENDPRESS, CMD_DOOR_ORDERS},
    {CMD_CLEAR, CMD_DOOR_ORDERS},      {CMD_READY, CMD_DOOR_ORDERS},
    {CMD_NOT_READY, CMD_DOOR_ORDERS},  {CMD_WAIT, CMD_DOOR_ORDERS},
    {CMD_NOWAIT, CMD_DOOR_ORDERS},     {CMD_RESIGN, CMD_DOOR_ACCOUNT},
    {CMD_PASSWORD, CMD_DOOR_ACCOUNT},  {CMD_ADDRESS, CMD_DOOR_ACCOUNT},
    {CMD_SETMASTER, CMD_DOOR_ACCOUNT}, {CMD_TAKEOVER, CMD_DOOR_ACCOUNT},
    {CMD_CONCEDE, CMD_DOOR_ACCOUNT},   {CMD_NOCONCEDE, CMD_DOOR_ACCOUNT},
    {CMD_DRAW, CMD_DOOR_ACCOUNT},      {CMD_NODRAW, CMD_DOOR_ACCOUNT},
    {CMD_EXTEND, CMD_DOOR_ORDERS},
    {CMD_PREFERENCE, CMD_DOOR_ACCOUNT},
    /* the master's desk (src/web/desk.c): what runs the game's clock and
     * its settings; EJECT and REPLACE change who holds a power, so they
     * ask the password again as the account form does */
    {CMD_PROCESS, CMD_DOOR_DESK},      {CMD_PAUSE, CMD_DOOR_DESK},
    {CMD_RESUME, CMD_DOOR_DESK},       {CMD_DEADLINE, CMD_DOOR_DESK},
    {CMD_SETTING, CMD_DOOR_DESK},      {CMD_ROLLBACK, CMD_DOOR_DESK},
    {CMD_ROLLFORWARD, CMD_DOOR_DESK},  {CMD_EJECT, CMD_DOOR_ACCOUNT},
    {CMD_REPLACE, CMD_DOOR_ACCOUNT},
};

bool cmd_read_only(cmd_kind kind)
{
    static const cmd_kind reads[] = {CMD_HELP,    CMD_LIST,   CMD_HISTORY,
                                     CMD_SUMMARY, CMD_MAP,    CMD_STATUS,
                                     CMD_PRESS_ARCHIVE};
    for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++)
        if (reads[i] == kind)
            return true;
    return false;
}

cmd_door cmd_door_of(cmd_kind kind)
{
    if (kind == CMD_TEXT)
        return CMD_DOOR_ORDERS; /* an order line */
    for (size_t i = 0; i < sizeof cmd_doors / sizeof cmd_doors[0]; i++)
        if (cmd_doors[i].kind == kind)
            return cmd_doors[i].door;
    return CMD_DOOR_MAIL;
}

/* ---- the runners that print the table ---------------------------------------
 * HELP's (and njudge's GET, answered by HELP) live with the table they
 * print: every other runner is reached from the table and never reaches
 * back into it. */

/* HELP: the commands, from the table. */
CMD_RUNNER(cmd_run_help)
{
    (void)s;
    (void)c;
    (void)press;
    dj_command_help(res);
    return RUN_OK;
}

/* GET file: njudge's help files; this judge's help is HELP. */
CMD_RUNNER(cmd_run_get)
{
    (void)press;
    char name[CMD_WORD_MAX + 4] = "";
    if (c->arg[0])
        snprintf(name, sizeof name, " ('%.*s')", 60, c->arg);
    dj_buf_printf(res, "This judge keeps no files to GET%s: its help is "
                       "HELP, which follows, and the players' guide is the "
                       "manual page dipjudge(7).\n\n",
                  name);
    s->help_given = true;
    dj_command_help(res);
    return RUN_OK;
}
