/* SPDX-License-Identifier: MIT */
/*
 * args.c — judgectl's command lines with getopt_long.  See args.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli/args.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

/* The session's global options: set while parsing, read by the commands. */
static cli_global_options globals;

const cli_global_options *cli_globals(void)
{
    return &globals;
}

static const char GLOBAL_WITH_VALUE[] = "--config|-c --db --maps";
static const char GLOBAL_FLAGS[] = "--help|-h --version";

/* A getopt_long table built from the lists of names. */
typedef struct spec {
    struct option longs[CLI_MAX_OPTIONS + 1];
    int nlong;
    char shorts[3 * CLI_MAX_OPTIONS + 4];
    size_t nshort;
    const char *names[CLI_MAX_OPTIONS]; /* by index: the name kept */
    bool valued[CLI_MAX_OPTIONS];
    int n;
    int short_index[128];
    char store[2048]; /* the names, each NUL-terminated */
    size_t used;
} spec;

static bool spec_has(const spec *sp, const char *name, size_t len)
{
    for (int i = 0; i < sp->n; i++)
        if (strlen(sp->names[i]) == len && strncmp(sp->names[i], name, len) == 0)
            return true;
    return false;
}

/* One "--long|-x" token; false when the table is full. */
static bool spec_add(spec *sp, const char *token, size_t len, bool valued)
{
    if (sp->n == CLI_MAX_OPTIONS || sp->used + len + 1 > sizeof sp->store)
        return false;
    char *copy = sp->store + sp->used;
    memcpy(copy, token, len);
    copy[len] = '\0';
    sp->used += len + 1;
    int idx = sp->n++;
    sp->valued[idx] = valued;
    sp->names[idx] = copy;
    for (char *alt = copy; alt;) {
        char *bar = strchr(alt, '|');
        if (bar)
            *bar = '\0';
        if (alt[0] == '-' && alt[1] == '-') {
            sp->longs[sp->nlong++] = (struct option){
                alt + 2, valued ? required_argument : no_argument, NULL,
                256 + idx};
        } else if (alt[0] == '-' && alt[1] && !alt[2] &&
                   (unsigned char)alt[1] < 128) {
            sp->shorts[sp->nshort++] = alt[1];
            if (valued)
                sp->shorts[sp->nshort++] = ':';
            sp->short_index[(unsigned char)alt[1]] = idx;
        }
        alt = bar ? bar + 1 : NULL;
    }
    return true;
}

/* Every token of a space-separated list, unless already named. */
static bool spec_add_list(spec *sp, const char *list, bool valued)
{
    for (const char *p = list; p && *p;) {
        size_t len = strcspn(p, " ");
        size_t first = strcspn(p, " |");
        if (len && !spec_has(sp, p, first) && !spec_add(sp, p, len, valued))
            return false;
        p += len;
        while (*p == ' ')
            p++;
    }
    return true;
}

static bool spec_build(spec *sp, const char *prefix, const char *with_value,
                       const char *flags, bool globals_too)
{
    memset(sp, 0, sizeof *sp);
    for (int i = 0; i < 128; i++)
        sp->short_index[i] = -1;
    sp->nshort = strlen(prefix);
    memcpy(sp->shorts, prefix, sp->nshort);
    bool ok = spec_add_list(sp, with_value, true) &&
              spec_add_list(sp, flags, false);
    if (globals_too)
        ok = ok && spec_add_list(sp, GLOBAL_WITH_VALUE, true) &&
             spec_add_list(sp, GLOBAL_FLAGS, false);
    sp->shorts[sp->nshort] = '\0';
    return ok;
}

int cli_usage(const char *cmd, const char *synopsis, const char *why,
              const char *arg)
{
    const char *sep = cmd && *cmd ? " " : "";
    if (!cmd)
        cmd = "";
    if (arg)
        fprintf(stderr, "judgectl%s%s: %s '%s'\n", sep, cmd, why, arg);
    else
        fprintf(stderr, "judgectl%s%s: %s\n", sep, cmd, why);
    if (synopsis)
        fprintf(stderr, "usage: judgectl %s%s%s\n", cmd,
                *synopsis ? " " : "", synopsis);
    return CLI_ARGS_BAD;
}

/* The option getopt_long stopped on, for a message. */
static const char *culprit(const spec *sp, char **argv, char *buf,
                           size_t len)
{
    if (optopt >= 256 && optopt - 256 < sp->n)
        return sp->names[optopt - 256];
    if (optopt > 0 && optopt < 256) {
        snprintf(buf, len, "-%c", optopt);
        return buf;
    }
    return argv[optind - 1];
}

enum { GLOBAL_TAKEN = 2 }; /* besides 0 (not a global), CLI_ARGS_DONE */

/*
 * A global option: GLOBAL_TAKEN (kept in globals), CLI_ARGS_DONE (help or
 * version asked for: kept in globals too), or 0 (not a global).
 */
static int take_global(const char *name, char *value)
{
    if (strcmp(name, "--config") == 0)
        globals.config = value;
    else if (strcmp(name, "--db") == 0)
        globals.db = value;
    else if (strcmp(name, "--maps") == 0)
        globals.maps = value;
    else if (strcmp(name, "--help") == 0) {
        globals.help = true;
        return CLI_ARGS_DONE;
    } else if (strcmp(name, "--version") == 0) {
        globals.version = true;
        return CLI_ARGS_DONE;
    } else
        return 0;
    return GLOBAL_TAKEN;
}

/* getopt_long over argv with table sp; options into a (or globals). */
static int run_getopt(spec *sp, int argc, char **argv, const char *command,
                      const char *synopsis, cli_args *a)
{
    optind = 0; /* glibc: start afresh (argv may be another array) */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, sp->shorts, sp->longs, NULL)) != -1) {
        char buf[8];
        if (c == '?')
            return cli_usage(command, synopsis, "unknown option",
                             culprit(sp, argv, buf, sizeof buf));
        if (c == ':')
            return cli_usage(command, synopsis, "a value is needed after",
                             culprit(sp, argv, buf, sizeof buf));
        int idx = c >= 256 ? c - 256 : sp->short_index[c & 127];
        if (idx < 0 || idx >= sp->n)
            return cli_usage(command, synopsis, "unknown option", argv[optind - 1]);
        const char *name = sp->names[idx]; /* its first spelling */
        int g = take_global(name, optarg);
        if (g == CLI_ARGS_DONE)
            return CLI_ARGS_DONE;
        if (g)
            continue;
        if (!a)
            continue;
        if (a->nopt == CLI_MAX_OPTIONS)
            return cli_usage(command, synopsis, "too many options", NULL);
        a->opt[a->nopt].name = sp->names[idx];
        a->opt[a->nopt++].value = sp->valued[idx] ? optarg : NULL;
    }
    return 0;
}

int cli_parse(int argc, char **argv, const char *with_value,
              const char *flags, const char *synopsis, cli_args *a)
{
    memset(a, 0, sizeof *a);
    static spec sp; /* 4 KB: kept off the stack */
    if (!spec_build(&sp, ":", with_value, flags, true))
        return cli_usage(argv[0], NULL, "too many options declared", NULL);
    int rc = run_getopt(&sp, argc, argv, argv[0], synopsis, a);
    if (rc != 0)
        return rc;
    a->pos = argv + optind;
    a->npos = argc - optind;
    return 0;
}

int cli_parse_global(int argc, char **argv)
{
    static spec sp;
    spec_build(&sp, "+:", "", "", true);
    int rc = run_getopt(&sp, argc, argv, NULL, NULL, NULL);
    if (rc == CLI_ARGS_DONE)
        return 0;
    if (rc != 0) {
        fprintf(stderr, "usage: judgectl [OPTION...] COMMAND "
                        "[ARGUMENTS] (judgectl --help)\n");
        return CLI_ARGS_BAD;
    }
    return optind;
}

const char *cli_value(const cli_args *a, const char *name)
{
    const char *v = NULL;
    for (int i = 0; i < a->nopt; i++)
        if (strcmp(a->opt[i].name, name) == 0)
            v = a->opt[i].value;
    return v;
}

bool cli_flag(const cli_args *a, const char *name)
{
    for (int i = 0; i < a->nopt; i++)
        if (strcmp(a->opt[i].name, name) == 0)
            return true;
    return false;
}

const char *cli_next_value(const cli_args *a, const char *name, int *from)
{
    for (; *from < a->nopt; (*from)++)
        if (strcmp(a->opt[*from].name, name) == 0)
            return a->opt[(*from)++].value;
    return NULL;
}
