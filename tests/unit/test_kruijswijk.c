/*
 * test_kruijswijk.c — the Kruijswijk engine on every case file of the
 * test suites, and against the DPjudge engine on the same cases.
 *
 * Usage: test_kruijswijk SRCDIR [FILE...]
 *
 * Without files, every *.txt of SRCDIR/tests/datc, tests/datc-extra and
 * tests/datc-alt is read.  Each case is adjudicated by the Kruijswijk
 * engine and checked against its expected position (as `judgectl check`
 * does for the DPjudge engine); the DPjudge engine adjudicates it too and
 * the two results must agree (dj_result_diff).  One line per folder gives
 * "kruijswijk FOLDER: N/M passed, K disagreements".
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casefile/casefile.h"
#include "casefile/check.h"
#include "testlib.h"

static dj_checker *checker;
static dj_result *other;
static dj_case *one;
static char mapdir[4096];

typedef struct tally {
    int cases, passed, disagree;
} tally;

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_file(const char *path, tally *t)
{
    char err[DJ_CASE_ERR_MAX];
    dj_casefile *cf = dj_casefile_open(path, mapdir, err, sizeof err);
    if (!cf) {
        fprintf(stderr, "%s\n", err);
        CHECK(cf != NULL);
        return;
    }
    dj_case_status st;
    while ((st = dj_casefile_next(cf, one, err, sizeof err)) != DJ_CASE_EOF) {
        if (st == DJ_CASE_ERROR) {
            fprintf(stderr, "%s\n", err);
            continue;
        }
        const dj_map *map = dj_casefile_map(cf);
        t->cases++;
        dj_check_verdict v = dj_check_case_with(checker, DJ_ENGINE_KRUIJSWIJK,
                                                map, one, getenv("KJ_VERBOSE") != NULL, stdout);
        CHECK(v == DJ_CHECK_PASS);
        t->passed += v == DJ_CHECK_PASS;
        dj_order orders[DJ_CASE_MAX_ORDERS];
        for (int i = 0; i < one->norders; i++)
            orders[i] = one->orders[i].order;
        int rc = dj_adjudicate_with(DJ_ENGINE_DPJUDGE, map, &one->pre, orders,
                                    one->norders, &one->rules, other);
        char why[256];
        if (rc == 0 && dj_result_diff(map, dj_checker_result(checker), other,
                                      why, sizeof why) != 0) {
            printf("DISAGREE %s: %s\n", one->name, why);
            t->disagree++;
        }
    }
    dj_casefile_close(cf);
}

static void run_folder(const char *srcdir, const char *folder)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/%s", srcdir, folder);
    DIR *d = opendir(dir);
    if (!d)
        return;
    char *names[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".txt") == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, compare_names);
    tally t = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        run_file(path, &t);
        free(names[i]);
    }
    CHECK(t.disagree == 0);
    printf("kruijswijk %s: %d/%d passed, %d disagreements with dpjudge\n",
           folder, t.passed, t.cases, t.disagree);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_kruijswijk SRCDIR [FILE...]\n");
        return 2;
    }
    snprintf(mapdir, sizeof mapdir, "%s/maps", argv[1]);
    checker = dj_checker_new();
    other = malloc(sizeof *other);
    one = malloc(sizeof *one);
    if (!checker || !other || !one)
        return 2;
    if (argc > 2) {
        tally t = {0, 0, 0};
        for (int i = 2; i < argc; i++)
            run_file(argv[i], &t);
        printf("kruijswijk: %d/%d passed, %d disagreements with dpjudge\n",
               t.passed, t.cases, t.disagree);
    } else {
        run_folder(argv[1], "datc");
        run_folder(argv[1], "datc-extra");
        run_folder(argv[1], "datc-alt");
    }
    dj_checker_free(checker);
    free(other);
    free(one);
    return test_summary();
}
