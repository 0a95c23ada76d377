/* SPDX-License-Identifier: MIT */
/*
 * commands.h — judgectl subcommands that live in their own source files.
 *
 * Each takes its own argc/argv (argv[0] is the command name) and returns
 * the exit status: 0 success, 1 a check failed, 2 bad usage or bad input.
 * judgectl.c lists them in its command table.
 */
#ifndef DJ_CLI_COMMANDS_H
#define DJ_CLI_COMMANDS_H

#include <stdbool.h>

/* judgectl rules: the chapter-4 rule options and their values. */
int cmd_rules(int argc, char **argv);

/* judgectl check: adjudicator test cases, through one engine or all. */
#define SYN_CHECK                                                           \
    "[--verbose] [--timing]"                                                \
    " [--engine dpjudge|kruijswijk|haplomacy|all]"                          \
    " [--maps DIR] [--render DIR] FILE..."
int cmd_check(int argc, char **argv);

/* judgectl maps: the boards in the maps directory. */
int cmd_maps(int argc, char **argv);

/* judgectl orders: read one power's orders as a player writes them. */
int cmd_orders(int argc, char **argv);

/*
 * Games (cmd_game.c): one function per subcommand, and their synopses,
 * shared by the usage messages there and the command table.
 */
#define SYN_NONE ""
#define SYN_LIST "[--json]"
#define SYN_SHOW "GAME [--json]"
#define SYN_GAME "GAME"
#define SYN_PROCESS "GAME [--engine dpjudge|kruijswijk|haplomacy]"
#define SYN_CREATE "GAME [--map MAP] [--master EMAIL [--password PW]] [KEY=VALUE]..."
#define SYN_JOIN                                                            \
    "GAME EMAIL [--power POWER] [--name NAME] [--password PASSWORD]"        \
    " [--observer | --master]"
#define SYN_ADD_PLAYER "GAME POWER EMAIL [--name NAME] [--password PASSWORD]"
#define SYN_START "GAME [--force]"
#define SYN_SET "GAME KEY=VALUE..."
#define SYN_ORDERS                                                          \
    "GAME POWER [--json | --set [--ready] [--source SOURCE]]\n"             \
    "       judgectl orders --map MAP --position CASEFILE --power POWER ..."
#define SYN_READY "GAME POWER [ready | not-ready | wait | no-wait]"
#define SYN_VOTE "GAME POWER draw [POWER...] | concede POWER | extend | none"
#define SYN_ABSENCE "GAME POWER FROM TO | GAME POWER clear"
#define SYN_ROLLBACK "GAME [PHASE]"
#define SYN_TERMINATE "GAME [REASON...]"
#define SYN_REPLACE "GAME POWER EMAIL [--name NAME] [--password PW]"
#define SYN_EJECT "GAME POWER"
#define SYN_HISTORY "GAME [FROM [TO]]"
#define SYN_MAP "GAME [PHASE] [--orders | --no-orders] -o FILE.png|.svg|.pdf"
#define SYN_OUTBOX "[GAME] [--json] | --retry ID | --hold ID | --delete ID"
#define SYN_MAILLOG "[GAME] [--last N]"
#define SYN_PENDING "[GAME] [--from ADDRESS|@DOMAIN] [--clear]"
#define SYN_ADDRESSES "GAME POWER [--remove ADDRESS]"
#define SYN_PLAYER "ADDRESS"
#define SYN_TICK "[--quiet]"
#define SYN_COMMAND                                                         \
    "--from ADDRESS [--subject SUBJECT] [--message-id ID] [--queue-reply]" \
    " < BODY"


/*
 * The session every game command opens (cmd_game.c): judge.conf, the
 * database, the maps, the clock.  A missing database is made only with
 * `create`.  NULL after a message, with the exit status in *status (78,
 * EX_CONFIG, when only the admin can fix it).
 */
typedef struct dj_judge dj_judge;
dj_judge *cli_open_judge(const char *cmd, bool create, int *status);

/* Administration (cmd_admin.c). */
#define SYN_BACKUP "FILE"
#define SYN_STATUS "[--json]"
int cmd_init(int argc, char **argv);
int cmd_backup(int argc, char **argv);
int cmd_status(int argc, char **argv);

int cmd_create(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_join(int argc, char **argv);
int cmd_add_player(int argc, char **argv);
int cmd_start(int argc, char **argv);
int cmd_set(int argc, char **argv);
/* `orders GAME POWER`, or cmd_orders when the first argument is an option. */
int cmd_game_orders(int argc, char **argv);
int cmd_ready(int argc, char **argv);
int cmd_vote(int argc, char **argv);
int cmd_absence(int argc, char **argv);
/* judgectl addresses: a power's addresses (issue 37), one removed. */
int cmd_addresses(int argc, char **argv);
int cmd_process(int argc, char **argv);
int cmd_preview(int argc, char **argv);
int cmd_rollback(int argc, char **argv);
int cmd_rollforward(int argc, char **argv);
int cmd_pause(int argc, char **argv);
int cmd_resume(int argc, char **argv);
int cmd_terminate(int argc, char **argv);
int cmd_replace(int argc, char **argv);
int cmd_eject(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_outbox(int argc, char **argv);
int cmd_maillog(int argc, char **argv);
int cmd_pending(int argc, char **argv);
int cmd_player(int argc, char **argv);
int cmd_tick(int argc, char **argv);
/* Run a mail message's commands (src/command) and print the reply. */
int cmd_command(int argc, char **argv);

#endif
