/* SPDX-License-Identifier: MIT */
/*
 * cmd_check.c — `judgectl check`: run adjudicator test cases (case files
 * in the jDip/godip DATC format) and compare each outcome with the one the
 * case expects.
 *
 * With --engine NAME the cases go through that movement engine; with
 * --engine all through every engine, and each case is also a comparison:
 * the engines' results are held side by side (dj_result_diff) and every
 * pair that disagrees is reported, so a bug in one engine shows even where
 * the case file has no expectation for it.  The closing "N passed, N
 * failed" line counts the judge's two trusted engines, DPjudge and
 * Kruijswijk (and their disagreements as failures); the Haplomacy engine's
 * score is printed above it for information: it is known to get some cases
 * wrong (doc/engine.md).
 *
 * --timing splits the time into reading (case files and maps) and
 * adjudicating (the engines and the comparison), measured with the
 * monotonic clock.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "casefile/casefile.h"
#include "casefile/check.h"
#include "cli/args.h"
#include "cli/check_render.h"
#include "cli/commands.h"
#include "cli/mapdir.h"

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

#define ALL_ENGINES (-1)

typedef struct check_options {
    bool verbose;
    bool timing;
    int engine;        /* a dj_engine, or ALL_ENGINES */
    const char *maps;  /* --maps DIR, or NULL */
    const char *render; /* --render DIR, or NULL */
    int nfiles;
    char **files;
} check_options;

typedef struct check_run {
    check_options opt;
    const char *mapdir;
    dj_checker *ck[DJ_ENGINE_COUNT];
    int passed[DJ_ENGINE_COUNT], failed[DJ_ENGINE_COUNT];
    int disagree[DJ_ENGINE_COUNT][DJ_ENGINE_COUNT];
    int errors;
    double read_s, adjudicate_s;
    check_render *render; /* --render: the pictures */
} check_run;

static int check_usage(const char *message, const char *arg)
{
    if (arg)
        fprintf(stderr, "judgectl check: %s '%s'\n", message, arg);
    else
        fprintf(stderr, "judgectl check: %s\n", message);
    fprintf(stderr, "usage: judgectl check %s\n", SYN_CHECK);
    return -1;
}

static int parse_engine(const char *name, check_options *opt)
{
    if (strcmp(name, "all") == 0) {
        opt->engine = ALL_ENGINES;
        return 0;
    }
    int e = dj_engine_lookup(name);
    if (e < 0)
        return check_usage("unknown engine (dpjudge, kruijswijk, haplomacy "
                           "or all)", name);
    opt->engine = e;
    return 0;
}

/* 0, CLI_ARGS_DONE (--help printed) or CLI_ARGS_BAD (usage printed). */
static int parse_check_args(int argc, char **argv, check_options *opt)
{
    *opt = (check_options){.engine = DJ_ENGINE_DPJUDGE};
    cli_args a;
    int rc = cli_parse(argc, argv, "--engine --render",
                       "--verbose|-v --timing", SYN_CHECK, &a);
    if (rc != 0)
        return rc;
    opt->verbose = cli_flag(&a, "--verbose");
    opt->timing = cli_flag(&a, "--timing");
    opt->render = cli_value(&a, "--render");
    opt->maps = cli_globals()->maps;
    const char *engine = cli_value(&a, "--engine");
    if (engine && parse_engine(engine, opt) < 0)
        return CLI_ARGS_BAD;
    if (a.npos == 0)
        return check_usage("no case files given", NULL);
    opt->nfiles = a.npos;
    opt->files = a.pos;
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One engine, its verdict printed as ever. */
static void check_one(check_run *r, const dj_map *map, const dj_case *c)
{
    int e = r->opt.engine;
    if (dj_check_case_with(r->ck[e], (dj_engine)e, map, c, r->opt.verbose,
                           stdout) == DJ_CHECK_PASS)
        r->passed[e]++;
    else
        r->failed[e]++;
}

/* Under a DISAGREE line: every order whose result differs between the
 * two engines, "    Germany: A BER - KIE: succeeds (A), fails (B)". */
static void print_order_differences(const dj_map *map, const dj_case *c,
                                    const dj_result *a, const dj_result *b)
{
    for (int i = 0; i < c->norders && i < a->norders && i < b->norders; i++) {
        if (a->orders[i].success == b->orders[i].success)
            continue;
        char text[128];
        dj_order_format(map, &c->orders[i].order, text, sizeof text);
        printf("    %s: %s: %s (A), %s (B)\n",
               map->powers[c->orders[i].order.power].name, text,
               a->orders[i].success ? "succeeds" : "fails",
               b->orders[i].success ? "succeeds" : "fails");
    }
}

/*
 * Every engine.  The case passes when DPjudge and Kruijswijk both pass and
 * agree; each engine's verdict and differences are printed only when it
 * failed (or with --verbose), then every disagreement between two engines.
 */
static void check_all(check_run *r, const dj_map *map, const dj_case *c)
{
    dj_check_verdict v[DJ_ENGINE_COUNT];
    char *text[DJ_ENGINE_COUNT] = {NULL};
    size_t len[DJ_ENGINE_COUNT] = {0};
    for (int e = 0; e < DJ_ENGINE_COUNT; e++) {
        FILE *mem = open_memstream(&text[e], &len[e]);
        v[e] = dj_check_case_with(r->ck[e], (dj_engine)e, map, c,
                                  r->opt.verbose, mem ? mem : stdout);
        if (mem)
            fclose(mem);
        if (v[e] == DJ_CHECK_PASS)
            r->passed[e]++;
        else
            r->failed[e]++;
    }
    char why[256];
    bool trusted_agree =
        dj_result_diff(map, dj_checker_result(r->ck[DJ_ENGINE_DPJUDGE]),
                       dj_checker_result(r->ck[DJ_ENGINE_KRUIJSWIJK]), why,
                       sizeof why) == 0;
    bool pass = v[DJ_ENGINE_DPJUDGE] == DJ_CHECK_PASS &&
                v[DJ_ENGINE_KRUIJSWIJK] == DJ_CHECK_PASS && trusted_agree;
    printf("%s %s\n", pass ? "PASS" : "FAIL", c->name);
    for (int e = 0; e < DJ_ENGINE_COUNT; e++) {
        if ((v[e] != DJ_CHECK_PASS || r->opt.verbose) && text[e]) {
            /* The engine's own lines, after its name. */
            printf("  %s: %s", dj_engine_name((dj_engine)e), text[e]);
        }
        free(text[e]);
    }
    for (int a = 0; a < DJ_ENGINE_COUNT; a++)
        for (int b = a + 1; b < DJ_ENGINE_COUNT; b++) {
            if (dj_result_diff(map, dj_checker_result(r->ck[a]),
                               dj_checker_result(r->ck[b]), why,
                               sizeof why) == 0)
                continue;
            r->disagree[a][b]++;
            printf("  DISAGREE %s (A) and %s (B): %s\n",
                   dj_engine_name((dj_engine)a), dj_engine_name((dj_engine)b),
                   why);
            print_order_differences(map, c, dj_checker_result(r->ck[a]),
                                    dj_checker_result(r->ck[b]));
        }
}

/* One case file, a case at a time. */
static void check_file(check_run *r, dj_case *c, const char *path)
{
    char err[DJ_CASE_ERR_MAX];
    double t0 = now_s();
    dj_casefile *cf = dj_casefile_open(path, r->mapdir, err, sizeof err);
    if (!cf) {
        r->read_s += now_s() - t0;
        printf("%s\n", err);
        r->errors++;
        return;
    }
    for (;;) {
        dj_case_status st = dj_casefile_next(cf, c, err, sizeof err);
        double t1 = now_s();
        r->read_s += t1 - t0;
        if (st == DJ_CASE_EOF)
            break;
        if (st == DJ_CASE_ERROR) {
            printf("%s\n", err);
            r->errors++;
            t0 = now_s();
            continue;
        }
        const dj_map *map = dj_casefile_map(cf);
        if (r->opt.engine == ALL_ENGINES)
            check_all(r, map, c);
        else
            check_one(r, map, c);
        t0 = now_s();
        r->adjudicate_s += t0 - t1;
        if (r->render) {
            int e = r->opt.engine == ALL_ENGINES ? DJ_ENGINE_DPJUDGE
                                                 : r->opt.engine;
            check_render_case(r->render, r->mapdir, map, c,
                              dj_checker_result(r->ck[e]));
            t0 = now_s();
        }
    }
    dj_casefile_close(cf);
}

/* The closing lines; returns the exit status. */
static int report(const check_run *r)
{
    int passed, failed;
    if (r->opt.engine == ALL_ENGINES) {
        for (int e = 0; e < DJ_ENGINE_COUNT; e++)
            printf("%s: %d passed, %d failed%s\n", dj_engine_name((dj_engine)e),
                   r->passed[e], r->failed[e],
                   e == DJ_ENGINE_HAPLOMACY ? " (its score: not counted below)"
                                            : "");
        printf("disagreements:");
        for (int a = 0; a < DJ_ENGINE_COUNT; a++)
            for (int b = a + 1; b < DJ_ENGINE_COUNT; b++)
                printf("%s %s/%s %d", a + b == 1 ? "" : ",",
                       dj_engine_name((dj_engine)a),
                       dj_engine_name((dj_engine)b), r->disagree[a][b]);
        printf("\n");
        int dk = r->disagree[DJ_ENGINE_DPJUDGE][DJ_ENGINE_KRUIJSWIJK];
        passed = r->passed[DJ_ENGINE_DPJUDGE] + r->passed[DJ_ENGINE_KRUIJSWIJK];
        failed = r->failed[DJ_ENGINE_DPJUDGE] +
                 r->failed[DJ_ENGINE_KRUIJSWIJK] + dk;
    } else {
        passed = r->passed[r->opt.engine];
        failed = r->failed[r->opt.engine];
    }
    if (r->errors)
        printf("%d error%s\n", r->errors, r->errors == 1 ? "" : "s");
    if (r->opt.timing)
        printf("timing: reading %.1f ms (case files and maps), adjudicating "
               "%.1f ms\n", r->read_s * 1e3, r->adjudicate_s * 1e3);
    printf("%d passed, %d failed\n", passed, failed + r->errors);
    if (r->errors)
        return EXIT_USAGE;
    return failed ? EXIT_FAILED : EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
    static check_run run;
    check_run *r = &run;
    memset(r, 0, sizeof *r);
    int parsed = parse_check_args(argc, argv, &r->opt);
    if (parsed != 0)
        return parsed == CLI_ARGS_DONE ? EXIT_OK : EXIT_USAGE;
    r->mapdir = cli_maps_directory(r->opt.maps, NULL);
    dj_case *c = malloc(sizeof *c); /* large: one, reused for every case */
    bool ok = c != NULL;
    for (int e = 0; e < DJ_ENGINE_COUNT; e++)
        ok = (r->ck[e] = dj_checker_new()) != NULL && ok;
    int rc = EXIT_USAGE;
    if (!ok) {
        fprintf(stderr, "judgectl: out of memory\n");
    } else if (r->opt.render &&
               !(r->render = check_render_new(r->opt.render))) {
        rc = EXIT_FAILED;
    } else {
        for (int i = 0; i < r->opt.nfiles; i++)
            check_file(r, c, r->opt.files[i]);
        if (r->render)
            printf("rendered %d pictures into %s\n",
                   check_render_count(r->render), r->opt.render);
        rc = report(r);
        check_render_free(r->render);
    }
    for (int e = 0; e < DJ_ENGINE_COUNT; e++)
        dj_checker_free(r->ck[e]);
    free(c);
    return rc;
}
