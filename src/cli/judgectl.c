/* SPDX-License-Identifier: MIT */
/*
 * judgectl.c — the judge's command-line front end.
 *
 * Design.  main() only dispatches: after the global options (args.h) the
 * first argument names a subcommand, looked up in a table of {name,
 * synopsis, summary, function}.  Each subcommand is one function taking
 * its own argc/argv, parsing its options with cli_parse (args.h: the
 * global options are accepted there too) and returning the exit status;
 * new subcommands are a table row and a function.  Argument parsing lives
 * in src/cli and nowhere else: the libraries below take plain values.
 *
 * Exit status, for every subcommand: 0 success, 1 a check failed, 2 bad
 * usage or bad input.
 */
#define _POSIX_C_SOURCE 200809L  /* stat() */

#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/mapdir.h"
#include "game/setting_value.h"

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

typedef struct command {
    const char *name;
    const char *synopsis;  /* arguments, for usage lines */
    const char *summary;   /* one line for `judgectl help` */
    int (*run)(int argc, char **argv);  /* argv[0] is the command name */
    const char *details;   /* more for `judgectl help COMMAND`, or NULL */
} command;

/* create's and set's details: this line, every setting of the one table
 * (store/settings_table.h, printed by dj_settings_help), then the words
 * that act on the game rather than set it. */
static const char SETTINGS_HELP[] =
    "settings, KEY=VALUE (create takes them too):\n";
static const char SETTINGS_ACTIONS[] =
    "  map              the map (forming games only)\n"
    "  rule             NAME=VALUE, a DATC option (judgectl rules);\n"
    "                   NAME=default drops it, none drops all\n"
    "  deadline         the current phase's: \"2027-01-09 20:00\", +2d, "
    "now\n";

#define TICK_HELP                                                            \
    "By hand: a running judge does this itself (judged run, or judged once\n" \
    "from its timer; judged(8)).\n"

static int cmd_help(int argc, char **argv);

static const command COMMANDS[] = {
    {"absence", SYN_ABSENCE,
     "declare a player's absence: no deadline falls inside it", cmd_absence,
     NULL},
    {"add-player", SYN_ADD_PLAYER,
     "add a player for a power to a forming game (as the master)",
     cmd_add_player, NULL},
    {"addresses", SYN_ADDRESSES,
     "list a power's addresses (up to three), or --remove one (never the "
     "last)",
     cmd_addresses, NULL},
    {"backup", SYN_BACKUP,
     "copy the database to a new FILE, consistently, while the judge runs",
     cmd_backup,
     "Restore by stopping judged and the timer, then copying FILE over the\n"
     "database as its owner (judged(8), BACKUP AND RESTORE).\n"},
    {"check", SYN_CHECK,
     "run adjudicator test cases and compare with their expected outcome",
     cmd_check, NULL},
    {"command", SYN_COMMAND,
     "run a mail message's commands (body on stdin) and print the reply",
     cmd_command,
     "The message runs as the mail judge runs it: one transaction, the\n"
     "commands of dipjudge(7), side-effect mail (press, notices, results)\n"
     "queued in the outbox.  --message-id records it in the mail log (a\n"
     "message seen before is not run again); --queue-reply queues the\n"
     "reply to the sender too.\n"},
    {"create", SYN_CREATE, "create a game; players then join it", cmd_create,
     SETTINGS_HELP},
    {"eject", SYN_EJECT,
     "remove a power's player; the power goes into civil disorder",
     cmd_eject, NULL},
    {"export", SYN_GAME, "write the whole game as JSON", cmd_export, NULL},
    {"help", "[COMMAND]", "show the commands, or how to use one", cmd_help,
     NULL},
    {"history", SYN_HISTORY,
     "print the results of past phases (phases like S1901M, or years)",
     cmd_history, NULL},
    {"init", SYN_NONE,
     "create the database (or bring an old one up to date)", cmd_init,
     "Run it as the user the judge runs as (sudo -u dipjudge judgectl "
     "init).\nOnly init and create make a database; every other command "
     "says\nwhere it looked when there is none.\n"},
    {"join", SYN_JOIN,
     "join a forming game (a power, or one dealt at start), or observe",
     cmd_join, NULL},
    {"list", SYN_LIST, "list the games with their phase and deadline",
     cmd_list, NULL},
    {"maillog", SYN_MAILLOG,
     "list the mail received: sender, game, the mail system's verdict "
     "(authenticated, forged, unknown) and what was done",
     cmd_maillog, NULL},
    {"map", SYN_MAP,
     "draw a phase of a game as a picture (format from the file name)",
     cmd_map,
     "PHASE is like S1901M (default: the current phase).  A processed\n"
     "phase is drawn with its orders and their results (--no-orders: the\n"
     "board alone); the current phase without orders (--orders draws the\n"
     "orders on file, which players cannot see yet).\n"},
    {"maps", "[--maps DIR] [--check DIR]",
     "list the boards (variants) with their powers and centres", cmd_maps,
     "--check DIR reads every .map file of DIR (DPjudge's map directory,\n"
     "say) and prints, one line a file, \"loaded\" or the first reason it\n"
     "does not load (exit 1 when one does not).\n"},
    {"orders", SYN_ORDERS,
     "print a power's orders on file; --set enters them from stdin",
     cmd_game_orders,
     "With --map (the scripting form), read a power's orders as players\n"
     "write them against a case file's position and say what is understood:\n"
     "  judgectl orders --map MAP --position CASEFILE --power POWER\n"
     "    [--phase PHASE] [--rule NAME=VALUE]... [--maps DIR] [--explain]\n"},
    {"outbox", SYN_OUTBOX, "the mail queued: state, attempts, last error; retry, hold or delete one", cmd_outbox,
     NULL},
    {"pause", SYN_GAME, "stop a game's clock", cmd_pause, NULL},
    {"pending", SYN_PENDING,
     "list (or --clear) the JOIN, OBSERVE and CREATE requests waiting for "
     "their codes",
     cmd_pending, NULL},
    {"player", SYN_PLAYER,
     "an address's reliability figures across every game", cmd_player,
     NULL},
    {"preview", SYN_GAME,
     "show the results the current phase would have now, saving nothing",
     cmd_preview, NULL},
    {"process", SYN_PROCESS,
     "adjudicate the current phase now with the orders in hand",
     cmd_process, NULL},
    {"ready", SYN_READY, "set a power's READY or WAIT flag", cmd_ready, NULL},
    {"replace", SYN_REPLACE, "give a power to a new player", cmd_replace,
     NULL},
    {"resume", SYN_GAME, "restart a paused game's clock", cmd_resume, NULL},
    {"rollback", SYN_ROLLBACK,
     "go back to an earlier phase (default: the previous one)", cmd_rollback,
     NULL},
    {"rollforward", SYN_GAME, "undo the latest rollback", cmd_rollforward,
     NULL},
    {"rules",
     "[--brief] [--maps DIR] [--map MAP] [--rule NAME=VALUE]... [OPTION...]",
     "list the DATC chapter-4 rule options and the values in force",
     cmd_rules, NULL},
    {"set", SYN_SET, "change a game's settings, schedule or deadline",
     cmd_set, SETTINGS_HELP},
    {"show", SYN_SHOW,
     "show a game: position, players, who has ordered, deadline", cmd_show,
     NULL},
    {"start", SYN_START,
     "start a forming game (--force: dummies for the missing players)",
     cmd_start, NULL},
    {"status", SYN_STATUS,
     "the judge's health: OK, WARNING or CRITICAL (exit 0, 1, 2)",
     cmd_status,
     "Reports the last tick's age, games overdue, mail waiting and failed,\n"
     "quarantined mail, pending confirmations and the database's size;\n"
     "thresholds in judge.conf's status { }.  --json: one JSON object\n"
     "(judgectl(8)).\n"},
    {"summary", SYN_GAME, "print the supply-centre history, one row a year",
     cmd_summary, NULL},
    {"terminate", SYN_TERMINATE, "end a game", cmd_terminate, NULL},
    {"tick", SYN_TICK,
     "process every game whose deadline (or early processing) is due",
     cmd_tick, TICK_HELP},
    {"vote", SYN_VOTE, "record a power's draw or concession vote", cmd_vote,
     NULL},
};

#define NCOMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(COMMANDS[i].name, name) == 0)
            return &COMMANDS[i];
    return NULL;
}

/* ---- help ---------------------------------------------------------------- */

static void print_usage(FILE *out)
{
    fprintf(out, "usage: judgectl [-c FILE] [--db FILE] [--maps DIR]"
                 " COMMAND [ARGUMENTS]\n"
                 "       judgectl --help | --version\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-12s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fprintf(out,
            "\nglobal options (before or after the command):\n"
            "  -c, --config FILE  configuration (else $DIPJUDGE_CONF, else "
            "the installed\n"
            "                     judge.conf if any, else built-in "
            "defaults)\n"
            "  --db FILE          the database (else $DIPJUDGE_DB, else "
            "the configuration's)\n"
            "  --maps DIR         the maps (else $DIPJUDGE_MAPDIR, the "
            "configuration's, ./maps)\n"
            "  -h, --help         this list, or a command's usage\n"
            "  --version          the version\n"
            "\n'judgectl help COMMAND' shows one command; "
            "see judgectl(8) for details.\n");
}

static void print_command_usage(FILE *out, const command *cmd)
{
    fprintf(out, "usage: judgectl %s%s%s\n  %s\n", cmd->name,
            *cmd->synopsis ? " " : "", cmd->synopsis, cmd->summary);
    if (cmd->details)
        fprintf(out, "\n%s", cmd->details);
    if (cmd->details == SETTINGS_HELP) {
        dj_buf list;
        dj_buf_init(&list);
        dj_settings_help(&list);
        fprintf(out, "%s%s", dj_buf_ok(&list) ? list.data : "",
                SETTINGS_ACTIONS);
        dj_buf_free(&list);
    }
}

static int cmd_help(int argc, char **argv)
{
    cli_args a;
    int parsed = cli_parse(argc, argv, "", "", "[COMMAND]", &a);
    if (parsed != 0)
        return parsed == CLI_ARGS_DONE ? EXIT_OK : EXIT_USAGE;
    if (a.npos == 0) {
        print_usage(stdout);
        return EXIT_OK;
    }
    const command *cmd = find_command(a.pos[0]);
    if (!cmd) {
        fprintf(stderr, "judgectl: unknown command '%s'\n", a.pos[0]);
        return EXIT_USAGE;
    }
    print_command_usage(stdout, cmd);
    return EXIT_OK;
}

static int print_version(void)
{
    printf("judgectl (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
    return EXIT_OK;
}

/* ---- dispatch ------------------------------------------------------------ */

/* --help or --version, given instead of the command (cmd: its usage),
 * printed here, where the command table is. */
static int print_asked(const command *cmd)
{
    if (cli_globals()->version)
        return print_version();
    if (cmd)
        print_command_usage(stdout, cmd);
    else
        print_usage(stdout);
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    int first = cli_parse_global(argc, argv);
    if (first == 0)
        return print_asked(NULL);
    if (first < 0)
        return EXIT_USAGE;
    if (first >= argc) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[first];
    const command *cmd = find_command(name);
    if (!cmd) {
        fprintf(stderr, "judgectl: unknown command '%s' "
                        "(try 'judgectl help')\n", name);
        return EXIT_USAGE;
    }
    int rc = cmd->run(argc - first, argv + first);
    const cli_global_options *g = cli_globals();
    return g->help || g->version ? print_asked(cmd) : rc;
}
