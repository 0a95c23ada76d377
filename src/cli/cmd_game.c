/* SPDX-License-Identifier: MIT */
/*
 * cmd_game.c — the judgectl subcommands that run games: argument parsing
 * and wiring only; the work is in src/game/game.h.
 *
 * Every subcommand opens a session the same way (open_judge):
 *
 *   configuration  --config FILE, else $DIPJUDGE_CONF, else the installed
 *                  judge.conf when it exists, else the embedded defaults;
 *   database       --db FILE, else $DIPJUDGE_DB, else the configuration's;
 *   maps           cli_maps_directory (mapdir.h): --maps, then
 *                  $DIPJUDGE_MAPDIR, the configuration's maps_dir, ./maps,
 *                  the installed maps, the source tree's;
 *   clock          the system clock (the test copies' hooks, in
 *                  test_hooks.h, may set it).
 *
 * The global options (-c/--config, --db, --maps) come before or after the
 * command name (args.h keeps them: cli_globals).
 *
 * Output goes to stdout; errors are one line on stderr, "judgectl CMD:
 * message".  Exit status: 0 done, 1 the operation failed (unknown game,
 * a state that does not allow it, a database error), 2 bad usage.
 */
#define _POSIX_C_SOURCE 200809L

#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/mapdir.h"
#include "cli/run_as.h"
#include "cli/test_hooks.h"
#include "command/command.h"
#include "conf/judge_conf.h"
#include "game/forming.h"
#include "game/orders.h"
#include "game/pictures.h"
#include "game/process.h"
#include "game/reading.h"
#include "game/signon.h"
#include "time/calendar.h"
#include "game/game.h"
#include "render/render.h"
#include "store/health.h"
#include "util/json.h"

enum {
    EXIT_OK = 0,
    EXIT_FAILED = 1,
    EXIT_USAGE = 2,
    EXIT_MISSING = 1, /* no database: it says how to make one */
    EXIT_CONFIG = 78  /* sysexits' EX_CONFIG: the admin must act */
};

#define NO_DATABASE_HELP                                                    \
    "\n  (judgectl init makes one, as the user the judge runs as:"           \
    " sudo -u dipjudge judgectl init;\n  --db FILE or judge.conf's "          \
    "database names another)"

#define MAX_STDIN (1 << 20)  /* orders read from stdin, at most */
#define MAX_SETTINGS 64

/* ---- the session -------------------------------------------------------- */

/*
 * Open the session.  Only `create` (judgectl create and init) makes a
 * missing database: every other command, reading or writing a game that
 * would have to be in it, says where it looked and how to make one, and
 * leaves nothing behind.  NULL after a message on stderr, with the exit
 * status in *status: EXIT_CONFIG when only the admin can fix it (a
 * database of another user, a newer schema), else EXIT_FAILED.
 */
dj_judge *cli_open_judge(const char *cmd, bool create, int *status)
{
    *status = EXIT_FAILED;
    dj_config cfg;
    char err[1024];
    const cli_global_options *g = cli_globals();
    if (dj_config_read(g->config, g->db, &cfg, err, sizeof err) < 0) {
        fprintf(stderr, "judgectl %s: %s\n", cmd, err);
        return NULL;
    }
    const char *maps = cli_maps_directory(g->maps, cfg.maps_dir);
    char user[64];
    if (cli_run_as_state_owner(&cfg, user, sizeof user, err, sizeof err) < 0) {
        fprintf(stderr, "judgectl %s: %s\n", cmd, err);
        return NULL;
    }

    dj_test_hooks hooks;
    if (dj_test_hooks_read(&hooks, "judgectl", false, err, sizeof err) < 0) {
        fprintf(stderr, "judgectl %s: %s\n", cmd, err);
        return NULL;
    }
    dj_store_open_failure failure;
    dj_judge *j =
        dj_judge_open_as(&cfg, maps, create, &failure, err, sizeof err);
    if (!j) {
        fprintf(stderr, "judgectl %s: %s%s\n", cmd, err,
                failure == DJ_STORE_OPEN_MISSING ? NO_DATABASE_HELP : "");
        *status = failure == DJ_STORE_OPEN_MISSING ? EXIT_MISSING
                  : failure == DJ_STORE_OPEN_DENIED ||
                          failure == DJ_STORE_OPEN_NEWER
                      ? EXIT_CONFIG
                      : EXIT_FAILED;
        return NULL;
    }
    if (dj_store_notice(dj_judge_store(j))[0])
        fprintf(stderr, "judgectl %s: %s\n", cmd,
                dj_store_notice(dj_judge_store(j)));
    dj_judge_set_now(j, dj_test_hooks_now(&hooks));
    dj_judge_set_actor(j, "judgectl");
    dj_test_hooks_judge(&hooks, j);
    return j;
}

/* Print the output, or the error; close; the exit status. */
static int finish(dj_judge *j, const char *cmd, int rc, dj_buf *out)
{
    fputs(out->data, stdout);
    if (rc < 0)
        fprintf(stderr, "judgectl %s: %s\n", cmd, dj_judge_error(j));
    dj_buf_free(out);
    dj_judge_close(j);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "judgectl %s: cannot write the output\n", cmd);
        return EXIT_FAILED;
    }
    return rc < 0 ? EXIT_FAILED : EXIT_OK;
}

/* ---- argument parsing ------------------------------------------------------ */

static int usage(const char *cmd, const char *synopsis, const char *why,
                 const char *arg)
{
    cli_usage(cmd, synopsis, why, arg);
    return EXIT_USAGE;
}

/* Parse (args.h: `with_value` lists the options that take a value, `flags`
 * those that do not); check the positional count; on error, or after
 * --help, return from the caller. */
#define PARSE(with_value, flags, synopsis, min, max)                        \
    cli_args a;                                                             \
    do {                                                                    \
        int parsed_ = cli_parse(argc, argv, with_value, flags, synopsis, &a); \
        if (parsed_ != 0)                                                   \
            return parsed_ == CLI_ARGS_DONE ? EXIT_OK : EXIT_USAGE;         \
        if (a.npos < (min))                                                 \
            return usage(argv[0], synopsis, "missing arguments", NULL);     \
        if (a.npos > (max))                                                 \
            return usage(argv[0], synopsis, "unexpected argument",          \
                         a.pos[max]);                                       \
    } while (0)

/* Open the session (the database must be there) and start an output
 * buffer; return on failure. */
#define OPEN() OPEN_AS(false)
#define OPEN_AS(create)                                                     \
    int open_status_;                                                       \
    dj_judge *j = cli_open_judge(argv[0], (create), &open_status_);        \
    if (!j)                                                                 \
        return open_status_;                                                \
    dj_buf out;                                                             \
    dj_buf_init(&out)

/* ---- forming ---------------------------------------------------------------- */

/* The admin may give a short password; it is taken, with a warning. */
static void warn_short_password(const char *password)
{
    if (password && strlen(password) < DJ_PASSWORD_MIN)
        fprintf(stderr, "warning: the password is shorter than %d "
                        "characters (players choosing one by mail need "
                        "%d); taken all the same\n",
                DJ_PASSWORD_MIN, DJ_PASSWORD_MIN);
}

int cmd_create(int argc, char **argv)
{
    PARSE("--map --master --password", "", SYN_CREATE, 1, MAX_SETTINGS + 1);
    const char *master = cli_value(&a, "--master");
    const char *password = cli_value(&a, "--password");
    if (password && !master)
        return usage(argv[0], SYN_CREATE, "--password is the master's: give "
                                          "--master too", NULL);
    warn_short_password(password);
    OPEN_AS(true);
    int rc = dj_game_create(j, a.pos[0], cli_value(&a, "--map"), master,
                            (const char *const *)a.pos + 1, a.npos - 1, &out);
    if (rc == 0 && password) {
        /* the master's password in the same step (one participant row) */
        dj_join_request req = {master, NULL, NULL, password, "master", NULL};
        rc = dj_game_join(j, a.pos[0], &req, &out);
    }
    return finish(j, argv[0], rc, &out);
}

static int join_common(int argc, char **argv, bool add_player)
{
    const char *syn = add_player ? SYN_ADD_PLAYER : SYN_JOIN;
    PARSE("--power --name --password", "--observer --master", syn,
          add_player ? 3 : 2, add_player ? 3 : 2);
    dj_join_request req = {0};
    req.email = a.pos[add_player ? 2 : 1];
    req.power = add_player ? a.pos[1] : cli_value(&a, "--power");
    req.name = cli_value(&a, "--name");
    req.password = cli_value(&a, "--password");
    if (cli_flag(&a, "--observer") && cli_flag(&a, "--master"))
        return usage(argv[0], syn, "--observer or --master, not both", NULL);
    req.role = cli_flag(&a, "--observer") ? "observer"
               : cli_flag(&a, "--master") ? "master"
                                          : "player";
    warn_short_password(req.password);
    OPEN();
    int rc = dj_game_join(j, a.pos[0], &req, &out);
    return finish(j, argv[0], rc, &out);
}

int cmd_join(int argc, char **argv)
{
    return join_common(argc, argv, false);
}

int cmd_add_player(int argc, char **argv)
{
    return join_common(argc, argv, true);
}

int cmd_start(int argc, char **argv)
{
    PARSE("", "--force", SYN_START, 1, 1);
    OPEN();
    int rc = dj_game_start(j, a.pos[0], cli_flag(&a, "--force"), &out);
    return finish(j, argv[0], rc, &out);
}

int cmd_set(int argc, char **argv)
{
    PARSE("", "", SYN_SET, 2, MAX_SETTINGS + 1);
    OPEN();
    int rc = dj_game_set(j, a.pos[0], (const char *const *)a.pos + 1,
                         a.npos - 1, &out);
    return finish(j, argv[0], rc, &out);
}

/* ---- orders and flags ---------------------------------------------------------- */

/* All of stdin, bounded; NULL on error (message printed). */
static char *read_stdin(const char *cmd)
{
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    while (text) {
        if (len + 1 == cap) {
            if (cap >= MAX_STDIN) {
                fprintf(stderr, "judgectl %s: more than %d bytes of orders\n",
                        cmd, MAX_STDIN);
                free(text);
                return NULL;
            }
            char *grown = realloc(text, cap * 2);
            if (!grown)
                break;
            text = grown;
            cap *= 2;
        }
        size_t n = fread(text + len, 1, cap - len - 1, stdin);
        len += n;
        if (n == 0) {
            if (ferror(stdin)) {
                fprintf(stderr, "judgectl %s: cannot read stdin\n", cmd);
                free(text);
                return NULL;
            }
            text[len] = '\0';
            if (memchr(text, '\0', len)) {
                fprintf(stderr, "judgectl %s: NUL byte in the orders\n", cmd);
                free(text);
                return NULL;
            }
            return text;
        }
    }
    free(text);
    fprintf(stderr, "judgectl %s: out of memory\n", cmd);
    return NULL;
}

/* judgectl orders --json: the lines printed, as a JSON object. */
#define ORDERS_JSON_VERSION 1
static void orders_json(const char *game, const char *power, dj_buf *out)
{
    dj_buf json;
    dj_buf_init(&json);
    dj_buf_printf(&json, "{\"format\": \"dipjudge-orders\", \"version\": "
                         "%d, ",
                  ORDERS_JSON_VERSION);
    dj_json_kv_str(&json, "game", game, true);
    dj_json_kv_str(&json, "power", power, true);
    dj_json_key(&json, "orders");
    dj_buf_append(&json, "[");
    int n = 0;
    for (char *line = out->data; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (*line) {
            dj_buf_append(&json, n++ ? ", " : "");
            dj_json_string(&json, line);
        }
        line = nl ? nl + 1 : NULL;
    }
    dj_buf_append(&json, "]}\n");
    dj_buf_free(out);
    *out = json;
}

static int game_orders(int argc, char **argv)
{
    PARSE("--source", "--set --ready --json", SYN_ORDERS, 2, 2);
    if ((cli_flag(&a, "--ready") || cli_value(&a, "--source")) &&
        !cli_flag(&a, "--set"))
        return usage(argv[0], SYN_ORDERS, "--ready and --source go with --set",
                     NULL);
    if (!cli_flag(&a, "--set")) {
        OPEN();
        int rc = dj_game_get_orders(j, a.pos[0], a.pos[1], &out);
        if (rc == 0 && cli_flag(&a, "--json"))
            orders_json(a.pos[0], a.pos[1], &out);
        return finish(j, argv[0], rc, &out);
    }
    char *text = read_stdin(argv[0]);
    if (!text)
        return EXIT_USAGE;
    int status;
    dj_judge *j = cli_open_judge(argv[0], false, &status);
    if (!j) {
        free(text);
        return status;
    }
    dj_buf out;
    dj_buf_init(&out);
    const char *source = cli_value(&a, "--source");
    int rc = dj_game_set_orders(j, a.pos[0], a.pos[1], text,
                                source ? source : "judgectl",
                                cli_flag(&a, "--ready"), &out);
    free(text);
    return finish(j, argv[0], rc, &out);
}

int cmd_game_orders(int argc, char **argv)
{
    /* `judgectl orders --map ...` is the order reader's scripting form. */
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--map") == 0 || strncmp(argv[i], "--map=", 6) == 0)
            return cmd_orders(argc, argv);
    return game_orders(argc, argv);
}

int cmd_ready(int argc, char **argv)
{
    PARSE("", "", SYN_READY, 2, 3);
    OPEN();
    int rc = dj_game_flag(j, a.pos[0], a.pos[1],
                          a.npos > 2 ? a.pos[2] : "ready", &out);
    return finish(j, argv[0], rc, &out);
}

int cmd_vote(int argc, char **argv)
{
    PARSE("", "", SYN_VOTE, 3, 3 + DJ_MAX_POWERS);
    char vote[1024];
    if (strcmp(a.pos[2], "draw") == 0 && a.npos > 3) {
        /* a named draw: draw France Germany ... */
        size_t used = (size_t)snprintf(vote, sizeof vote, "draw");
        for (int i = 3; i < a.npos && used < sizeof vote; i++)
            used += (size_t)snprintf(vote + used, sizeof vote - used, " %s",
                                     a.pos[i]);
    } else if (a.npos > 4) {
        return usage(argv[0], SYN_VOTE, "unexpected argument", a.pos[4]);
    } else if (a.npos == 4) {
        if (strcmp(a.pos[2], "concede") != 0)
            return usage(argv[0], SYN_VOTE, "unexpected argument", a.pos[3]);
        snprintf(vote, sizeof vote, "concede %s", a.pos[3]);
    } else {
        if (strcmp(a.pos[2], "concede") == 0)
            return usage(argv[0], SYN_VOTE, "concede to which power?", NULL);
        snprintf(vote, sizeof vote, "%s", a.pos[2]);
    }
    OPEN();
    int rc = dj_game_vote(j, a.pos[0], a.pos[1], vote, &out);
    return finish(j, argv[0], rc, &out);
}

int cmd_absence(int argc, char **argv)
{
    PARSE("", "", SYN_ABSENCE, 3, 4);
    if (a.npos == 3 && strcmp(a.pos[2], "clear") != 0)
        return usage(argv[0], SYN_ABSENCE, "an absence needs FROM and TO",
                     NULL);
    OPEN();
    int rc = dj_game_absence(j, a.pos[0], a.pos[1], a.pos[2],
                             a.npos > 3 ? a.pos[3] : NULL, &out);
    return finish(j, argv[0], rc, &out);
}

/* A power's addresses (its player's, up to three), or one removed. */
int cmd_addresses(int argc, char **argv)
{
    PARSE("--remove", "", SYN_ADDRESSES, 2, 2);
    OPEN();
    int rc = dj_game_addresses(j, a.pos[0], a.pos[1], cli_value(&a, "--remove"),
                               &out);
    return finish(j, argv[0], rc, &out);
}

/* ---- the master's actions ------------------------------------------------------ */

typedef int (*game_fn)(dj_judge *j, const char *game, dj_buf *out);

static int simple(int argc, char **argv, const char *synopsis, game_fn fn)
{
    PARSE("", "", synopsis, 1, 1);
    OPEN();
    int rc = fn(j, a.pos[0], &out);
    return finish(j, argv[0], rc, &out);
}

/* `process GAME [--engine NAME]`: with an engine, the master's decision
 * after the engines disagreed (no verification; a paused game resumes). */
int cmd_process(int argc, char **argv)
{
    PARSE("--engine", "", SYN_PROCESS, 1, 1);
    const char *name = cli_value(&a, "--engine");
    int engine = name ? dj_engine_lookup(name) : -1;
    if (name && engine < 0)
        return usage(argv[0], SYN_PROCESS,
                     "unknown engine (dpjudge, kruijswijk or haplomacy)",
                     name);
    OPEN();
    int rc = name ? dj_game_process_with(j, a.pos[0], (dj_engine)engine, &out)
                  : dj_game_process(j, a.pos[0], &out);
    return finish(j, argv[0], rc, &out);
}

int cmd_preview(int argc, char **argv)
{
    return simple(argc, argv, SYN_GAME, dj_game_preview);
}

int cmd_rollforward(int argc, char **argv)
{
    return simple(argc, argv, SYN_GAME, dj_game_rollforward);
}

int cmd_pause(int argc, char **argv)
{
    return simple(argc, argv, SYN_GAME, dj_game_pause);
}

int cmd_resume(int argc, char **argv)
{
    return simple(argc, argv, SYN_GAME, dj_game_resume);
}

int cmd_show(int argc, char **argv)
{
    PARSE("", "--json", SYN_SHOW, 1, 1);
    OPEN();
    /* --json: the game as the export writes it (one shape, versioned) */
    int rc = cli_flag(&a, "--json") ? dj_game_export(j, a.pos[0], &out)
                                    : dj_game_show(j, a.pos[0], &out);
    return finish(j, argv[0], rc, &out);
}

int cmd_summary(int argc, char **argv)
{
    return simple(argc, argv, SYN_GAME, dj_game_summary);
}

int cmd_export(int argc, char **argv)
{
    return simple(argc, argv, SYN_GAME, dj_game_export);
}

int cmd_rollback(int argc, char **argv)
{
    PARSE("", "", SYN_ROLLBACK, 1, 2);
    OPEN();
    int rc = dj_game_rollback(j, a.pos[0], a.npos > 1 ? a.pos[1] : NULL, &out);
    return finish(j, argv[0], rc, &out);
}

int cmd_terminate(int argc, char **argv)
{
    PARSE("", "", SYN_TERMINATE, 1, MAX_SETTINGS);
    char reason[512] = "";
    for (int i = 1; i < a.npos; i++) {
        size_t used = strlen(reason);
        snprintf(reason + used, sizeof reason - used, "%s%s", i > 1 ? " " : "",
                 a.pos[i]);
    }
    OPEN();
    int rc = dj_game_terminate(j, a.pos[0], reason, &out);
    return finish(j, argv[0], rc, &out);
}

int cmd_replace(int argc, char **argv)
{
    PARSE("--name --password", "", SYN_REPLACE, 3, 3);
    warn_short_password(cli_value(&a, "--password"));
    OPEN();
    int rc = dj_game_replace(j, a.pos[0], a.pos[1], a.pos[2],
                             cli_value(&a, "--name"),
                             cli_value(&a, "--password"), &out);
    return finish(j, argv[0], rc, &out);
}

int cmd_eject(int argc, char **argv)
{
    PARSE("", "", SYN_EJECT, 2, 2);
    OPEN();
    int rc = dj_game_eject(j, a.pos[0], a.pos[1], &out);
    return finish(j, argv[0], rc, &out);
}

/* ---- reading ------------------------------------------------------------------------ */

int cmd_list(int argc, char **argv)
{
    PARSE("", "--json", SYN_LIST, 0, 0);
    OPEN();
    int rc = cli_flag(&a, "--json") ? dj_game_list_json(j, &out)
                                    : dj_game_list(j, &out);
    return finish(j, argv[0], rc, &out);
}

int cmd_history(int argc, char **argv)
{
    PARSE("", "", SYN_HISTORY, 1, 3);
    OPEN();
    int rc = dj_game_history(j, a.pos[0], a.npos > 1 ? a.pos[1] : NULL,
                             a.npos > 2 ? a.pos[2] : NULL, &out);
    return finish(j, argv[0], rc, &out);
}

int cmd_outbox(int argc, char **argv)
{
    PARSE("--retry --hold --delete", "--json", SYN_OUTBOX, 0, 1);
    static const char *const ACTS[] = {"--retry", "--hold", "--delete"};
    int acts = 0;
    dj_outbox_action act = DJ_OUTBOX_ACT_RETRY;
    const char *id_text = NULL;
    for (int k = 0; k < 3; k++)
        if (cli_value(&a, ACTS[k])) {
            acts++;
            act = (dj_outbox_action)k;
            id_text = cli_value(&a, ACTS[k]);
        }
    char *end = NULL;
    long long id = id_text ? strtoll(id_text, &end, 10) : 0;
    if (acts > 1 || (acts && (a.npos || cli_flag(&a, "--json"))))
        return usage(argv[0], SYN_OUTBOX, "one of --retry, --hold, --delete "
                     "at a time, alone", NULL);
    if (acts && (!*id_text || *end || id <= 0))
        return usage(argv[0], SYN_OUTBOX, "not a mail's ID (the first "
                     "column of judgectl outbox)", id_text);
    if (acts) {
        OPEN();
        int rc = dj_game_outbox_act(j, (int64_t)id, act, &out);
        return finish(j, argv[0], rc, &out);
    }
    OPEN();
    const char *game = a.npos ? a.pos[0] : NULL;
    int rc = cli_flag(&a, "--json") ? dj_game_outbox_json(j, game, &out)
                                    : dj_game_outbox(j, game, &out);
    return finish(j, argv[0], rc, &out);
}

/* The mail log: the latest mails received, with the mail system's
 * verdict on each sender. */
int cmd_maillog(int argc, char **argv)
{
    PARSE("--last", "", SYN_MAILLOG, 0, 1);
    const char *last = cli_value(&a, "--last");
    char *end = NULL;
    long n = last ? strtol(last, &end, 10) : 50;
    if (last && (!*last || *end || n < 1 || n > 1000000))
        return usage(argv[0], SYN_MAILLOG, "--last takes a number of mails",
                     NULL);
    OPEN();
    int rc = dj_game_maillog(j, a.npos ? a.pos[0] : NULL, (int)n, &out);
    return finish(j, argv[0], rc, &out);
}

int cmd_pending(int argc, char **argv)
{
    PARSE("--from", "--clear", SYN_PENDING, 0, 1);
    OPEN();
    int rc = dj_game_pending(j, a.npos ? a.pos[0] : NULL,
                             cli_value(&a, "--from"), cli_flag(&a, "--clear"),
                             &out);
    return finish(j, argv[0], rc, &out);
}

/* An address's reliability figures across every game on the judge. */
int cmd_player(int argc, char **argv)
{
    PARSE("", "", SYN_PLAYER, 1, 1);
    OPEN();
    int rc = dj_game_player_stats(j, a.pos[0], NULL, false, &out);
    return finish(j, argv[0], rc, &out);
}

/* ---- the clock ------------------------------------------------------------------------- */

int cmd_tick(int argc, char **argv)
{
    PARSE("", "--quiet", SYN_TICK, 0, 0);
    OPEN();
    int processed = 0;
    int rc = dj_judge_tick(j, &out, &processed);
    if (rc == 0 && dj_store_tick_record(dj_judge_store(j), dj_judge_now(j)) < 0)
        fprintf(stderr, "judgectl tick: the tick's time not recorded "
                        "(judgectl status): %s\n",
                dj_store_error(dj_judge_store(j)));
    if (!cli_flag(&a, "--quiet"))
        dj_buf_printf(&out, "%d phase%s processed\n", processed,
                      processed == 1 ? "" : "s");
    return finish(j, argv[0], rc, &out);
}

/* ---- the mail command language ------------------------------------------------------- */

/*
 * judgectl command --from ADDR [--subject S] [--message-id ID]
 * [--queue-reply] < BODY: run a message as judged would (one transaction)
 * and print the reply, "Subject: ..." then the body.
 */
int cmd_command(int argc, char **argv)
{
    PARSE("--from --subject --message-id", "--queue-reply", SYN_COMMAND, 0,
          0);
    const char *from = cli_value(&a, "--from");
    if (!from || !*from)
        return usage(argv[0], SYN_COMMAND, "--from ADDRESS is needed", NULL);
    char *text = read_stdin(argv[0]);
    if (!text)
        return EXIT_USAGE;
    int status;
    dj_judge *j = cli_open_judge(argv[0], false, &status);
    if (!j) {
        free(text);
        return status;
    }
    dj_command_msg msg = {from, cli_value(&a, "--subject"), text,
                          dj_judge_now(j), NULL, NULL};
    dj_command_reply reply;
    dj_command_reply_init(&reply);
    int rc = dj_command_run(j, &msg, cli_value(&a, "--message-id"),
                            cli_flag(&a, "--queue-reply"), &reply);
    if (rc == 0)
        printf("Subject: %s\n\n%s", reply.subject.data, reply.body.data);
    else if (rc == 1)
        fprintf(stderr, "judgectl %s: message %s was seen before: not run "
                        "again\n",
                argv[0], cli_value(&a, "--message-id"));
    else
        fprintf(stderr, "judgectl %s: %s\n", argv[0], reply.error);
    dj_command_reply_free(&reply);
    free(text);
    dj_judge_close(j);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "judgectl %s: cannot write the output\n", argv[0]);
        return EXIT_FAILED;
    }
    return rc == 0 ? EXIT_OK : EXIT_FAILED;
}

/* ---- pictures --------------------------------------------------------------- */

/* Write the bytes to PATH through a temporary file, so a reader never sees
 * half a picture. */
static int write_file(const char *path, const unsigned char *data, size_t len)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return -1;
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return -1;
    bool ok = fwrite(data, 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

int cmd_map(int argc, char **argv)
{
    PARSE("-o --output", "--orders --no-orders", SYN_MAP, 1, 2);
    const char *file = cli_value(&a, "-o");
    if (!file)
        file = cli_value(&a, "--output");
    if (!file)
        return usage(argv[0], SYN_MAP, "-o FILE is needed", NULL);
    int format = dj_picture_format_from_name(file);
    if (format < 0 || format == DJ_PICTURE_NONE || !strchr(file, '.'))
        return usage(argv[0], SYN_MAP,
                     "the file name must end in .png, .svg or .pdf", file);
    if (cli_flag(&a, "--orders") && cli_flag(&a, "--no-orders"))
        return usage(argv[0], SYN_MAP, "--orders or --no-orders, not both",
                     NULL);
    int orders = cli_flag(&a, "--orders") ? 1 : cli_flag(&a, "--no-orders") ? 0 : -1;
    OPEN();
    dj_picture pic;
    int rc = dj_game_picture(j, a.pos[0], a.npos > 1 ? a.pos[1] : NULL,
                             orders, format, &pic);
    if (rc == 0) {
        if (write_file(file, pic.data, pic.len) < 0) {
            fprintf(stderr, "judgectl %s: cannot write %s\n", argv[0], file);
            dj_picture_free(&pic);
            dj_buf_free(&out);
            dj_judge_close(j);
            return EXIT_FAILED;
        }
        dj_buf_printf(&out, "%s: %zu bytes\n", file, pic.len);
        dj_picture_free(&pic);
    }
    return finish(j, argv[0], rc, &out);
}
