/* SPDX-License-Identifier: MIT */
/*
 * cmd_rules.c — `judgectl rules`: the disputable rules of DATC chapter 4.
 *
 * Lists every rule option with its DATC issue, its choices, the DATC's
 * preferred choice (the default) and the value in force.  With --map the
 * map's RULE lines are applied on top of the defaults, with --rule the
 * overrides on top of those, exactly as a game builds its rules
 * (engine/rules_map.h); every bad line or override is reported, not just
 * the first.
 *
 * Output, one block per option (the format is documented in judgectl(8)
 * and kept stable for scripts):
 *
 *   4.A.2  convoy_paradox=e          map       issue, name=value, source
 *       How are convoy disruption ...          the option's summary
 *       engines: dpjudge, kruijswijk           the engines implementing it
 *         d  Szykman: ... [default]            mark, letter, text, and a tag
 *       * e  All Hold: ... [map]               for each layer choosing it
 *   (blank line)
 *
 * The source is default, map or override; the mark '*' is the choice in
 * force.  --brief prints the header lines only.
 */
#define _POSIX_C_SOURCE 200809L /* stat() */

#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/mapdir.h"
#include "engine/adjudicate.h"
#include "engine/map.h"
#include "engine/rules.h"
#include "engine/rules_map.h"


enum { RULES_OK = 0, RULES_USAGE = 2 };

#define RULES_MAX_ARGS 128 /* --rule options, or option names, at once */
#define RULES_PATH_MAX 1024
#define RULES_ERR_MAX 512

static const char RULES_SYNOPSIS[] =
    "usage: judgectl rules [--brief] [--maps DIR] [--map MAP]"
    " [--rule NAME=VALUE]... [OPTION...]\n";

typedef struct rules_options {
    bool brief;
    const char *maps; /* --maps DIR */
    const char *map;  /* --map MAP */
    int nrules;
    const char *rules[RULES_MAX_ARGS]; /* --rule NAME=VALUE, in order */
    int nnames;
    const char *names[RULES_MAX_ARGS]; /* options to show; none: all */
} rules_options;

/* What each layer chose for each option ('\0': that layer did not). */
typedef struct rules_layers {
    dj_rules value; /* the result */
    dj_rule_source from[DJ_RULE_COUNT];
    char map_choice[DJ_RULE_COUNT];
    char override_choice[DJ_RULE_COUNT];
} rules_layers;

static int rules_usage(const char *message, const char *arg)
{
    if (arg)
        fprintf(stderr, "judgectl rules: %s '%s'\n", message, arg);
    else
        fprintf(stderr, "judgectl rules: %s\n", message);
    fputs(RULES_SYNOPSIS, stderr);
    return -1;
}

/* 0, CLI_ARGS_DONE (--help printed) or CLI_ARGS_BAD (usage printed). */
static int parse_rules_args(int argc, char **argv, rules_options *opt)
{
    memset(opt, 0, sizeof *opt);
    cli_args *a = malloc(sizeof *a);
    if (!a)
        return rules_usage("out of memory", NULL);
    int rc = cli_parse(argc, argv, "--map --rule", "--brief|-b",
                       RULES_SYNOPSIS + strlen("usage: judgectl rules "), a);
    if (rc == 0) {
        opt->brief = cli_flag(a, "--brief");
        opt->maps = cli_globals()->maps;
        opt->map = cli_value(a, "--map");
        int from = 0;
        const char *v;
        while (rc == 0 && (v = cli_next_value(a, "--rule", &from))) {
            if (opt->nrules == RULES_MAX_ARGS)
                rc = rules_usage("too many --rule options", NULL);
            else
                opt->rules[opt->nrules++] = v;
        }
        for (int i = 0; rc == 0 && i < a->npos; i++) {
            if (opt->nnames == RULES_MAX_ARGS)
                rc = rules_usage("too many option names", NULL);
            else
                opt->names[opt->nnames++] = a->pos[i];
        }
    }
    free(a);
    return rc;
}

/* ---- finding and loading the map ----------------------------------------- */

/*
 * MAP is a file if one of that name exists or it has a '/'; otherwise a
 * map name, "Standard" meaning standard.map in the maps directory.
 */
static bool map_path(const char *map, const char *maps, char *path, size_t len)
{
    if (cli_is_file(map) || strchr(map, '/')) {
        int n = snprintf(path, len, "%s", map);
        return n >= 0 && (size_t)n < len;
    }
    char lower[DJ_NAME_MAX];
    size_t i = 0;
    for (; map[i] && i + 1 < sizeof lower; i++)
        lower[i] = (char)tolower((unsigned char)map[i]);
    lower[i] = '\0';
    if (map[i])
        return false;
    size_t ext = strlen(lower);
    bool has_ext = ext > 4 && strcmp(lower + ext - 4, ".map") == 0;
    int n = snprintf(path, len, "%s/%s%s", cli_maps_directory(maps, NULL), lower,
                     has_ext ? "" : ".map");
    return n >= 0 && (size_t)n < len;
}

/* ---- building the rules, reporting every bad line ------------------------ */

/* Apply one assignment as layer `src`; false (message printed) if bad. */
static bool apply_one(rules_layers *L, const char *text, dj_rule_source src,
                      const char *where)
{
    char err[RULES_ERR_MAX];
    int id = dj_rule_assign(&L->value, text, err, sizeof err);
    if (id < 0) {
        if (src == DJ_RULE_FROM_MAP)
            fprintf(stderr, "judgectl rules: %s: RULE '%s': %s\n", where, text,
                    err);
        else
            fprintf(stderr, "judgectl rules: --rule '%s': %s\n", text, err);
        return false;
    }
    L->from[id] = src;
    if (src == DJ_RULE_FROM_MAP)
        L->map_choice[id] = L->value.choice[id];
    else
        L->override_choice[id] = L->value.choice[id];
    return true;
}

static bool build_layers(const dj_map *map, const char *where,
                         const rules_options *opt, rules_layers *L)
{
    memset(L, 0, sizeof *L);
    dj_rules_default(&L->value);
    for (int i = 0; i < DJ_RULE_COUNT; i++)
        L->from[i] = DJ_RULE_FROM_DEFAULT;
    bool ok = true;
    for (int i = 0; map && i < map->nrules && i < DJ_MAX_RULES; i++)
        ok &= apply_one(L, map->rules[i], DJ_RULE_FROM_MAP, where);
    for (int i = 0; i < opt->nrules; i++)
        ok &= apply_one(L, opt->rules[i], DJ_RULE_FROM_OVERRIDE, NULL);
    return ok;
}

/* ---- output -------------------------------------------------------------- */

static const char *source_word(dj_rule_source s)
{
    switch (s) {
    case DJ_RULE_FROM_MAP:
        return "map";
    case DJ_RULE_FROM_OVERRIDE:
        return "override";
    default:
        return "default";
    }
}

/* Width of the longest "name=x", to line the sources up. */
static int setting_width(void)
{
    const dj_rule_info *t = dj_rule_table();
    size_t w = 0;
    for (int i = 0; i < DJ_RULE_COUNT; i++)
        if (strlen(t[i].name) + 2 > w)
            w = strlen(t[i].name) + 2;
    return (int)w;
}

static void print_rule(FILE *out, const dj_rule_info *r, const rules_layers *L,
                       bool brief)
{
    char value = dj_rule(&L->value, r->id);
    char setting[DJ_NAME_MAX + 4];
    snprintf(setting, sizeof setting, "%s=%c", r->name, value);
    fprintf(out, "%s  %-*s  %s\n", r->issue, setting_width(), setting,
            source_word(L->from[r->id]));
    if (brief)
        return;
    fprintf(out, "    %s\n    engines:", r->summary);
    for (int e = 0, n = 0; e < DJ_ENGINE_COUNT; e++)
        if (dj_engine_implements((dj_engine)e, r->id))
            fprintf(out, "%s %s", n++ ? "," : "", dj_engine_name((dj_engine)e));
    fputc('\n', out);
    for (size_t k = 0; r->choices[k]; k++) {
        char c = r->choices[k];
        const char *text = r->choice_text ? r->choice_text[k] : NULL;
        fprintf(out, "    %c %c  %s", c == value ? '*' : ' ', c,
                text ? text : "");
        if (c == r->preferred)
            fputs(" [default]", out);
        if (c == L->map_choice[r->id])
            fputs(" [map]", out);
        if (c == L->override_choice[r->id])
            fputs(" [override]", out);
        fputc('\n', out);
    }
    fputc('\n', out);
}

/* The rules named on the command line, or all; false if one is unknown. */
static bool select_rules(const rules_options *opt, bool show[DJ_RULE_COUNT])
{
    bool ok = true;
    for (int i = 0; i < DJ_RULE_COUNT; i++)
        show[i] = opt->nnames == 0;
    for (int i = 0; i < opt->nnames; i++) {
        const dj_rule_info *r = dj_rule_find(opt->names[i]);
        if (r) {
            show[r->id] = true;
        } else {
            fprintf(stderr, "judgectl rules: unknown rule option '%s'\n",
                    opt->names[i]);
            ok = false;
        }
    }
    return ok;
}

int cmd_rules(int argc, char **argv)
{
    rules_options *opt = malloc(sizeof *opt);
    if (!opt) {
        fprintf(stderr, "judgectl: out of memory\n");
        return RULES_USAGE;
    }
    int status = RULES_USAGE;
    dj_map *map = NULL;
    int parsed = parse_rules_args(argc, argv, opt);
    if (parsed != 0) {
        if (parsed == CLI_ARGS_DONE)
            status = RULES_OK;
        goto done;
    }

    bool show[DJ_RULE_COUNT];
    if (!select_rules(opt, show))
        goto done;

    char path[RULES_PATH_MAX];
    if (opt->map) {
        char err[RULES_ERR_MAX];
        if (!map_path(opt->map, opt->maps, path, sizeof path)) {
            fprintf(stderr, "judgectl rules: map name too long '%s'\n",
                    opt->map);
            goto done;
        }
        map = dj_map_load(path, err, sizeof err);
        if (!map) {
            fprintf(stderr, "judgectl rules: %s\n", err);
            goto done;
        }
    }

    rules_layers layers;
    if (!build_layers(map, opt->map ? path : NULL, opt, &layers))
        goto done;

    const dj_rule_info *table = dj_rule_table();
    for (int i = 0; i < DJ_RULE_COUNT; i++)
        if (show[i])
            print_rule(stdout, &table[i], &layers, opt->brief);
    status = RULES_OK;
done:
    dj_map_free(map);
    free(opt);
    return status;
}
