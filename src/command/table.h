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
 * res; returns RUN_OK, RUN_FAILED (the reason set by session_fail()) or
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
void parse_nothing(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_anything(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_rest(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_game_optional(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_game(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_history(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_map(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_game_password(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_signon(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_one_word(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_power(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_replace(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_rollback(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_password(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_draw(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_absence(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_deadline(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_setting(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_press(const words *ws, int arg, cmd_kind kind, cmd *c);
/* the older judges' commands (parse_old.c) */
void parse_alone(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_get(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_phase(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_if(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_diary(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_official(const words *ws, int arg, cmd_kind kind, cmd *c);
void parse_postal(const words *ws, int arg, cmd_kind kind, cmd *c);

/* ---- the runners the table names (run_*.c) ---- */
#define CMD_RUNNER(name)                                                    \
    int name(struct session *s, const cmd *c, dj_buf *press, dj_buf *res)
CMD_RUNNER(run_help);
CMD_RUNNER(run_list);
CMD_RUNNER(run_history);
CMD_RUNNER(run_summary);
CMD_RUNNER(run_map);
CMD_RUNNER(run_join);
CMD_RUNNER(run_confirm);
CMD_RUNNER(run_create);
CMD_RUNNER(run_takeover);
CMD_RUNNER(run_signon);
CMD_RUNNER(run_signoff);
CMD_RUNNER(run_endpress);
CMD_RUNNER(run_clear);
CMD_RUNNER(run_status);
CMD_RUNNER(run_flag);
CMD_RUNNER(run_vote);
CMD_RUNNER(run_password);
CMD_RUNNER(run_address);
CMD_RUNNER(run_absence);
CMD_RUNNER(run_mapformat);
CMD_RUNNER(run_press);
CMD_RUNNER(run_resign);
CMD_RUNNER(run_process);
CMD_RUNNER(run_preview);
CMD_RUNNER(cmd_run_own_zone);
CMD_RUNNER(cmd_run_reminder);
CMD_RUNNER(cmd_run_calendar);
CMD_RUNNER(run_rollback);
CMD_RUNNER(run_rollforward);
CMD_RUNNER(run_pause);
CMD_RUNNER(run_resume);
CMD_RUNNER(run_start);
CMD_RUNNER(run_become);
CMD_RUNNER(run_eject);
CMD_RUNNER(run_replace);
CMD_RUNNER(run_terminate);
CMD_RUNNER(run_setting);
CMD_RUNNER(run_press_archive);
CMD_RUNNER(run_reveal);
CMD_RUNNER(run_set_master);
CMD_RUNNER(run_stats);
CMD_RUNNER(run_token);
/* the older judges' commands (run_old.c) */
CMD_RUNNER(run_phase);
CMD_RUNNER(run_if);
CMD_RUNNER(run_diary);
CMD_RUNNER(run_postal);
CMD_RUNNER(run_official);
CMD_RUNNER(run_promote);
CMD_RUNNER(run_unstart);
CMD_RUNNER(run_version);
CMD_RUNNER(run_get);

#endif
