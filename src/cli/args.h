/* SPDX-License-Identifier: MIT */
/*
 * args.h — judgectl's command lines, read one way (getopt_long) by every
 * subcommand.
 *
 * Design.  A subcommand names its options in two space-separated lists,
 * those taking a value and the flags; a name is "--long", "-x" or
 * "--long|-x" (both spellings, kept under the first).  Values are written
 * "--map X", "--map=X" or "-o X".  Options and positional arguments may be
 * mixed in any order; "--" ends the options.
 *
 * The global options are accepted by every subcommand, wherever they are
 * placed, as well as before the command name: -c/--config FILE, --db FILE,
 * --maps DIR (kept here for the session, cli_globals), -h/--help (the
 * command's usage) and --version.
 */
#ifndef DJ_CLI_ARGS_H
#define DJ_CLI_ARGS_H

#include <stdbool.h>

#define CLI_MAX_OPTIONS 64

/* The global options, as given (NULL: not given); help or version asked
 * for instead of the command (judgectl.c prints them). */
typedef struct cli_global_options {
    const char *config, *db, *maps;
    bool help, version;
} cli_global_options;

const cli_global_options *cli_globals(void);

/* What a subcommand was given. */
typedef struct cli_args {
    int npos;
    char **pos;   /* the positional arguments, in their order */
    int nopt;
    struct {
        const char *name; /* as listed: "--map", "--verbose", "-o" */
        char *value;      /* NULL for a flag */
    } opt[CLI_MAX_OPTIONS];
} cli_args;

/* cli_parse's results besides 0 (parsed): */
enum {
    CLI_ARGS_BAD = -1, /* bad usage: the message and usage line printed */
    CLI_ARGS_DONE = 1  /* --help or --version (cli_globals): exit 0 */
};

/*
 * Parse argv (argv[0] is the command name; the array is reordered, as
 * getopt_long does).  `synopsis` is the command's usage line.
 */
int cli_parse(int argc, char **argv, const char *with_value,
              const char *flags, const char *synopsis, cli_args *a);

/* The option's last value (NULL: not given), whether a flag was given, and
 * every value of a repeated option in turn (*from starts at 0). */
const char *cli_value(const cli_args *a, const char *name);
bool cli_flag(const cli_args *a, const char *name);
const char *cli_next_value(const cli_args *a, const char *name, int *from);

/*
 * The options before the command name (getopt_long, stopping at the
 * first argument that is not an option).  Returns the index of the
 * command name in argv (argc when there is none), 0 when -h/--help (the
 * general usage) or --version was printed, or CLI_ARGS_BAD.
 */
int cli_parse_global(int argc, char **argv);

/* Usage messages: "judgectl CMD: WHY 'ARG'" and the usage line; returns
 * CLI_ARGS_BAD. */
int cli_usage(const char *cmd, const char *synopsis, const char *why,
              const char *arg);

#endif
