/* SPDX-License-Identifier: MIT */
/*
 * cmd_orders.c — `judgectl orders`: read one power's orders as a player
 * would mail them and say what the judge understands.
 *
 *   judgectl orders --map MAP --position CASEFILE --power POWER
 *                   [--phase PHASE] [--rule NAME=VALUE]... [--maps DIR]
 *                   [--explain]
 *
 * The position is the PRESTATE of the first case in CASEFILE (a case file
 * as `judgectl check` reads them, with its phase, dislodged units and
 * rules); --phase replaces its phase, --rule adds rule overrides.  Order
 * lines come on standard input; for each order one line goes out:
 *
 *   OK A PAR - BUR                          (several orders on a line: one
 *   ERROR unknown place 'xyz'                each, in order; blank lines:
 *   AMBIGUOUS A BUR - PAR | A BUR - PIC      nothing)
 *
 * --explain adds, under an OK or AMBIGUOUS line, "  # " and the notes or
 * the question.  Exit status: 0 every order understood, 1 some were not,
 * 2 bad usage or an unreadable position.
 *
 * Options come first: `judgectl orders GAME POWER`, the form for stored
 * games, is dispatched elsewhere (cmd_game.c) and comes here only when the
 * first argument is an option.  Positional arguments after the options
 * are refused with a message.
 */
#define _POSIX_C_SOURCE 200809L /* stat() */

#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casefile/casefile.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/mapdir.h"
#include "engine/map.h"
#include "engine/rules_map.h"
#include "reader/interpret.h"

enum { ORDERS_OK = 0, ORDERS_UNREAD = 1, ORDERS_USAGE = 2 };

#define ORDERS_MAX_RULES 128 /* --rule options */
#define ORDERS_PATH_MAX 1024
#define ORDERS_ERR_MAX 512
#define ORDERS_MAX_LINES 100000 /* input lines kept */

static const char ORDERS_SYNOPSIS[] =
    "usage: judgectl orders --map MAP --position CASEFILE --power POWER\n"
    "                       [--phase PHASE] [--rule NAME=VALUE]..."
    " [--maps DIR] [--explain]\n";

typedef struct orders_options {
    const char *map;      /* --map */
    const char *maps;     /* --maps */
    const char *position; /* --position */
    const char *power;    /* --power */
    const char *phase;    /* --phase */
    bool explain;
    int nrules;
    const char *rules[ORDERS_MAX_RULES];
} orders_options;

static int orders_usage(const char *message, const char *arg)
{
    if (arg)
        fprintf(stderr, "judgectl orders: %s '%s'\n", message, arg);
    else
        fprintf(stderr, "judgectl orders: %s\n", message);
    fputs(ORDERS_SYNOPSIS, stderr);
    return -1;
}

/* 0, CLI_ARGS_DONE (--help printed) or CLI_ARGS_BAD (usage printed). */
static int parse_orders_args(int argc, char **argv, orders_options *opt)
{
    memset(opt, 0, sizeof *opt);
    cli_args *a = malloc(sizeof *a);
    if (!a)
        return orders_usage("out of memory", NULL);
    int rc = cli_parse(argc, argv, "--map --position --power --phase --rule",
                       "--explain|-e",
                       ORDERS_SYNOPSIS + strlen("usage: judgectl orders "), a);
    if (rc == 0) {
        opt->map = cli_value(a, "--map");
        opt->maps = cli_globals()->maps;
        opt->position = cli_value(a, "--position");
        opt->power = cli_value(a, "--power");
        opt->phase = cli_value(a, "--phase");
        opt->explain = cli_flag(a, "--explain");
        int from = 0;
        const char *v;
        while (rc == 0 && (v = cli_next_value(a, "--rule", &from))) {
            if (opt->nrules == ORDERS_MAX_RULES)
                rc = orders_usage("too many --rule options", NULL);
            else
                opt->rules[opt->nrules++] = v;
        }
        if (rc == 0 && a->npos > 0)
            rc = orders_usage("no GAME or POWER argument with --map (for a "
                              "stored game: judgectl orders GAME POWER), not",
                              a->pos[0]);
        else if (rc == 0 && (!opt->map || !opt->position || !opt->power))
            rc = orders_usage("--map, --position and --power are required",
                              NULL);
    }
    free(a);
    return rc;
}

/* ---- the map and the position -------------------------------------------- */

/*
 * MAP is a file when one of that name exists or it has a '/' (its folder
 * is then where the case file's map is looked up); otherwise a name in
 * the maps folder, "Standard" meaning standard.map.
 */
static bool locate_map(const orders_options *opt, char *path, char *dir,
                       size_t len)
{
    const char *map = opt->map;
    if (cli_is_file(map) || strchr(map, '/')) {
        const char *slash = strrchr(map, '/');
        int n = snprintf(path, len, "%s", map);
        int m = slash ? snprintf(dir, len, "%.*s", (int)(slash - map), map)
                      : snprintf(dir, len, ".");
        return n >= 0 && (size_t)n < len && m >= 0 && (size_t)m < len;
    }
    char lower[ORDERS_PATH_MAX];
    size_t i = 0;
    for (; map[i] && i + 1 < sizeof lower; i++)
        lower[i] = (char)tolower((unsigned char)map[i]);
    lower[i] = '\0';
    bool ext = i > 4 && strcmp(lower + i - 4, ".map") == 0;
    const char *mapdir = cli_maps_directory(opt->maps, NULL);
    int n = snprintf(path, len, "%s/%s%s", mapdir, lower, ext ? "" : ".map");
    int m = snprintf(dir, len, "%s", mapdir);
    return n >= 0 && (size_t)n < len && m >= 0 && (size_t)m < len;
}

static bool same_text(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

/* The first case of the position file, read with its own map. */
static int load_position(const orders_options *opt, dj_casefile **cf,
                         dj_case *c)
{
    char path[ORDERS_PATH_MAX], dir[ORDERS_PATH_MAX], err[ORDERS_ERR_MAX];
    if (!locate_map(opt, path, dir, sizeof path))
        return orders_usage("map path too long", opt->map);
    dj_map *map = dj_map_load(path, err, sizeof err);
    if (!map) {
        fprintf(stderr, "judgectl orders: %s\n", err);
        return -1;
    }
    *cf = dj_casefile_open(opt->position, dir, err, sizeof err);
    dj_case_status st =
        *cf ? dj_casefile_next(*cf, c, err, sizeof err) : DJ_CASE_ERROR;
    if (st != DJ_CASE_OK) {
        fprintf(stderr, "judgectl orders: %s\n",
                st == DJ_CASE_EOF ? "no case in the position file" : err);
        dj_map_free(map);
        return -1;
    }
    bool same = same_text(map->name, dj_casefile_map(*cf)->name);
    if (!same)
        fprintf(stderr,
                "judgectl orders: the position is on map '%s', "
                "not '%s'\n",
                dj_casefile_map(*cf)->name, map->name);
    dj_map_free(map);
    return same ? 0 : -1;
}

/* "Fall 1901 Movement", "fall 1901, retreat", "W1901A". */
static bool parse_phase(const char *text, dj_phase *ph)
{
    static const char SEASONS[] = "sfw", TYPES[] = "mra";
    char season[16], type[16];
    int year;
    if (sscanf(text, "%15[A-Za-z] %d%*[ ,]%15[A-Za-z]", season, &year, type) !=
            3 &&
        sscanf(text, "%1[SFWsfw]%d%1[MRAmra]", season, &year, type) != 3)
        return false;
    const char *s = strchr(SEASONS, tolower((unsigned char)season[0]));
    const char *t = strchr(TYPES, tolower((unsigned char)type[0]));
    if (!s || !t || year < 0)
        return false;
    ph->season = (dj_season)(s - SEASONS);
    ph->type = (dj_phase_type)(t - TYPES);
    ph->year = year;
    if (ph->type == DJ_ADJUSTMENT)
        ph->season = DJ_WINTER; /* adjustments always belong to the winter */
    return ph->season != DJ_WINTER || ph->type == DJ_ADJUSTMENT;
}

/* Overrides on top of the case's rules. */
static int apply_rules(const orders_options *opt, dj_rules *rules)
{
    char err[ORDERS_ERR_MAX];
    for (int i = 0; i < opt->nrules; i++)
        if (dj_rule_assign(rules, opt->rules[i], err, sizeof err) < 0) {
            fprintf(stderr, "judgectl orders: --rule %s: %s\n", opt->rules[i],
                    err);
            return -1;
        }
    return 0;
}

/* ---- input and output ---------------------------------------------------- */

typedef struct line_list {
    char **v;
    int n, cap;
} line_list;

/* One line of stdin (without its newline), cut at DJ_READ_LINE_MAX + 1
 * bytes so the reader can say it is too long; NULL at the end. */
static char *read_input_line(FILE *in)
{
    char buf[DJ_READ_LINE_MAX + 1];
    size_t n = 0;
    int ch;
    while ((ch = getc(in)) != EOF && ch != '\n')
        if (n + 1 < sizeof buf)
            buf[n++] = (char)(ch ? ch : ' ');
    if (ch == EOF && n == 0)
        return NULL;
    buf[n] = '\0';
    char *copy = malloc(n + 1);
    if (copy)
        memcpy(copy, buf, n + 1);
    return copy;
}

static bool read_lines(FILE *in, line_list *l)
{
    char *line;
    while (l->n < ORDERS_MAX_LINES && (line = read_input_line(in))) {
        if (l->n == l->cap) {
            int cap = l->cap ? 2 * l->cap : 64;
            char **v = realloc(l->v, (size_t)cap * sizeof *v);
            if (!v) {
                free(line);
                return false;
            }
            l->v = v;
            l->cap = cap;
        }
        l->v[l->n++] = line;
    }
    return true;
}

static void free_lines(line_list *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

/* Print the readings; returns how many were not understood. */
static int print_readings(const dj_reading *r, int n, bool explain)
{
    char
        text[DJ_READ_TEXT_MAX * (DJ_READ_MAX_CANDIDATES + 1) + DJ_READ_MSG_MAX];
    int unread = 0;
    for (int i = 0; i < n; i++) {
        dj_reading_format(&r[i], text, sizeof text);
        printf("%s\n", text);
        unread += r[i].kind != DJ_READ_OK;
        if (explain && r[i].kind != DJ_READ_ERROR && r[i].message[0])
            printf("  # %s\n", r[i].message);
    }
    return unread;
}

static int interpret_stdin(const dj_map *map, const dj_position *pos, int power,
                           const dj_rules *rules, bool explain)
{
    line_list lines = {NULL, 0, 0};
    int max = DJ_READ_MAX_ORDERS + 1;
    dj_reading *out = malloc((size_t)max * sizeof *out);
    if (!out || !read_lines(stdin, &lines)) {
        fprintf(stderr, "judgectl orders: out of memory\n");
        free(out);
        free_lines(&lines);
        return ORDERS_USAGE;
    }
    int n = dj_interpret_lines(map, pos, power, rules,
                               (const char *const *)lines.v, lines.n, out, max);
    int unread = print_readings(out, n < max ? n : max, explain);
    free(out);
    free_lines(&lines);
    return n < 0 ? ORDERS_USAGE : unread ? ORDERS_UNREAD : ORDERS_OK;
}

int cmd_orders(int argc, char **argv)
{
    orders_options opt;
    int parsed = parse_orders_args(argc, argv, &opt);
    if (parsed != 0)
        return parsed == CLI_ARGS_DONE ? ORDERS_OK : ORDERS_USAGE;
    dj_case *c = malloc(sizeof *c);
    if (!c) {
        fprintf(stderr, "judgectl orders: out of memory\n");
        return ORDERS_USAGE;
    }
    dj_casefile *cf = NULL;
    int status = ORDERS_USAGE;
    if (load_position(&opt, &cf, c) == 0 && apply_rules(&opt, &c->rules) == 0) {
        const dj_map *map = dj_casefile_map(cf);
        int power = dj_casefile_find_power(map, opt.power);
        if (power < 0)
            orders_usage("unknown power", opt.power);
        else if (opt.phase && !parse_phase(opt.phase, &c->pre.phase))
            orders_usage("cannot read the phase", opt.phase);
        else
            status =
                interpret_stdin(map, &c->pre, power, &c->rules, opt.explain);
    }
    if (cf)
        dj_casefile_close(cf);
    free(c);
    return status;
}
