/*
 * commands.h — judgectl subcommands that live in their own source files.
 *
 * Each takes its own argc/argv (argv[0] is the command name) and returns
 * the exit status: 0 success, 1 a check failed, 2 bad usage or bad input.
 * judgectl.c lists them in its command table.
 */
#ifndef DJ_CLI_COMMANDS_H
#define DJ_CLI_COMMANDS_H

/* judgectl rules: the chapter-4 rule options and their values. */
int cmd_rules(int argc, char **argv);

/* judgectl orders: read one power's orders as a player writes them. */
int cmd_orders(int argc, char **argv);

#endif
