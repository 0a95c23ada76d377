/* SPDX-License-Identifier: MIT */
/*
 * table.h — private to src/command: the one table of mail commands.
 *
 * Every command the judge understands by mail is one row of cmd_table
 * (table.c): its name as HELP, dipjudge(7) and the replies write it, the
 * words that give it, who may use it, its argument parser, its runner and
 * its line of HELP.  The reader (parse.c) finds a line's row by its first
 * words, the runner (message.c) checks the row's `who` before it calls the
 * row's runner, and HELP is printed from the rows.  Adding a command is
 * one row here, its two functions, and its entry in dipjudge(7)
 * (tests/unit/test_command.c checks that every row has both).
 */
#ifndef DJ_COMMAND_TABLE_H
#define DJ_COMMAND_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "command/parse.h"
#include "command/words.h"
#include "util/buf.h"

/* Who may use a command. */
typedef enum cmd_who {
    CMD_ANYONE,    /* no sign-on needed */
    CMD_SIGNED_ON, /* anyone signed on: a player, an observer, the master */
    CMD_PLAYER,    /* signed on with a power (or the master after BECOME) */
    CMD_MASTER,    /* the game's master */
} cmd_who;

struct session;

/*
 * A command's argument parser: ws is the whole line, ws->w[arg] the first
 * word after the command's own words.  On success it sets c->kind = kind
 * (or another row's kind it stands for, as SET ABSENCE CLEAR does); on
 * failure cmd_bad() with the reason.  It masks the passwords it reads.
 */
typedef void (*cmd_parse_fn)(const words *ws, int arg, cmd_kind kind,
                             cmd *c);

/*
 * A command's runner, inside the command's savepoint: the reply text in
 * res; returns RUN_OK, RUN_FAILED (the reason set by cmd_session_fail()) or
 * RUN_REFUSED_KEEP (session.h).  press is the press body, if any.
 */
typedef int (*cmd_run_fn)(struct session *s, const cmd *c, dj_buf *press,
                          dj_buf *res);

/* Which of the web's forms may carry a command (dj_command_web_form).  A
 * session alone must not take a power over: the order box carries only
 * what a stolen session could do in a phase anyway; what changes who
 * holds the power, or ends the game for it, goes by the account form,
 * which asks for the password again; the rest goes by mail only. */
typedef enum cmd_door {
    CMD_DOOR_MAIL = 0, /* by mail only */
    CMD_DOOR_ORDERS,   /* the order box (orders themselves are no row) */
    CMD_DOOR_ACCOUNT,  /* the account form, with the password */
    CMD_DOOR_DESK,     /* the master's desk, on the master's session */
} cmd_door;

typedef struct cmd_spec {
    cmd_kind kind;
    const char *name;      /* "SET WAIT": HELP, dipjudge(7), replies */
    const char *spellings; /* the words giving it, '|' between spellings;
                              NULL: the name itself */
    cmd_who who;
    bool subject;          /* may be given as the subject line */
    cmd_parse_fn parse;
    cmd_run_fn run;
    const char *usage;     /* HELP's left column */
    const char *help;      /* HELP's right column, '\n' between lines */
} cmd_spec;

/* Only reads (HELP, LIST, HISTORY, SUMMARY, MAP, STATUS, PRESS ARCHIVE):
 * the same one asked again in a message is answered once. */
bool cmd_read_only(cmd_kind kind);

/* The web's form for a command (table.c's cmd_doors, beside the table);
 * an order line (CMD_TEXT) is the order box's. */
cmd_door cmd_door_of(cmd_kind kind);

extern const cmd_spec cmd_table[];
extern const size_t cmd_table_len;

/* The row of a kind, or NULL (CMD_TEXT, CMD_BAD). */
const cmd_spec *cmd_spec_of(cmd_kind kind);

/* The row whose spelling matches most of the line's first words, and how
 * many words it took; NULL when none does. */
const cmd_spec *cmd_spec_match(const words *ws, int *nwords);

/* ---- the parsers the table names (parse_args.c, parse_press.c) ---- */
void cmd_parse_nothing(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_anything(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_rest(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_game_optional(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_game(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_history(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_map(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_game_password(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_signon(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_one_word(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_power(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_replace(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_rollback(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_password(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_draw(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_absence(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_deadline(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_setting(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_press(const words *ws, int arg, cmd_kind kind, cmd *c);
/* the older judges' commands (parse_old.c) */
void cmd_parse_alone(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_get(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_phase(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_if(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_diary(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_official(const words *ws, int arg, cmd_kind kind, cmd *c);
void cmd_parse_postal(const words *ws, int arg, cmd_kind kind, cmd *c);

/* ---- the runners the table names (run_*.c) ---- */
#define CMD_RUNNER(name)                                                    \
    int name(struct session *s, const cmd *c, dj_buf *press, dj_buf *res)
CMD_RUNNER(cmd_run_help);
CMD_RUNNER(cmd_run_list);
CMD_RUNNER(cmd_run_history);
CMD_RUNNER(cmd_run_summary);
CMD_RUNNER(cmd_run_map);
CMD_RUNNER(cmd_run_join);
CMD_RUNNER(cmd_run_confirm);
CMD_RUNNER(cmd_run_create);
CMD_RUNNER(cmd_run_takeover);
CMD_RUNNER(cmd_run_signon);
CMD_RUNNER(cmd_run_signoff);
CMD_RUNNER(cmd_run_endpress);
CMD_RUNNER(cmd_run_clear);
CMD_RUNNER(cmd_run_status);
CMD_RUNNER(cmd_run_flag);
CMD_RUNNER(cmd_run_vote);
CMD_RUNNER(cmd_run_password);
CMD_RUNNER(cmd_run_address);
CMD_RUNNER(cmd_run_absence);
CMD_RUNNER(cmd_run_mapformat);
CMD_RUNNER(cmd_run_press);
CMD_RUNNER(cmd_run_resign);
CMD_RUNNER(cmd_run_process);
CMD_RUNNER(cmd_run_preview);
CMD_RUNNER(cmd_run_own_zone);
CMD_RUNNER(cmd_run_reminder);
CMD_RUNNER(cmd_run_calendar);
CMD_RUNNER(cmd_run_preference);
CMD_RUNNER(cmd_run_rollback);
CMD_RUNNER(cmd_run_rollforward);
CMD_RUNNER(cmd_run_pause);
CMD_RUNNER(cmd_run_resume);
CMD_RUNNER(cmd_run_start);
CMD_RUNNER(cmd_run_become);
CMD_RUNNER(cmd_run_eject);
CMD_RUNNER(cmd_run_replace);
CMD_RUNNER(cmd_run_terminate);
CMD_RUNNER(cmd_run_setting);
CMD_RUNNER(cmd_run_press_archive);
CMD_RUNNER(cmd_run_reveal);
CMD_RUNNER(cmd_run_set_master);
CMD_RUNNER(cmd_run_stats);
CMD_RUNNER(cmd_run_token);
/* the older judges' commands (run_old.c) */
CMD_RUNNER(cmd_run_phase);
CMD_RUNNER(cmd_run_if);
CMD_RUNNER(cmd_run_diary);
CMD_RUNNER(cmd_run_postal);
CMD_RUNNER(cmd_run_official);
CMD_RUNNER(cmd_run_promote);
CMD_RUNNER(cmd_run_unstart);
CMD_RUNNER(cmd_run_version);
CMD_RUNNER(cmd_run_get);

#endif
