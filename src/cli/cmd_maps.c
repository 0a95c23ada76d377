/* SPDX-License-Identifier: MIT */
/*
 * cmd_maps.c — `judgectl maps`: the boards a game can be played on.
 *
 * Every *.map file of the maps directory is loaded as a game would load it
 * (USE and root maps included), and listed in name order with its powers,
 * supply centres, the centres needed to win, the first phase and the rules
 * it sets.  A map that does not load is reported with its file:line error
 * and makes the exit status 1, so an admin who drops in a broken variant
 * hears of it here rather than from a game master.
 *
 * Output (documented in judgectl(8)):
 *
 *   standard: 7 powers, 34 centres, 18 to win, starts S1901M
 *     Austria (A) Bud Tri Vie
 *     ...
 *
 * `judgectl maps --check DIR` reads a directory of map files (DPjudge's
 * own, say) the same way and says of each, one line a file, whether it
 * loads or the first reason it does not:
 *
 *   pure.map: loaded: 7 powers, 7 centres, 4 to win
 *   zeus.map: refused: zeus.map:288: keyword 'IN' is not supported: ...
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/mapdir.h"
#include "engine/map.h"
#include "engine/position.h"

enum { MAPS_MAX = 512, MAPS_NAME_MAX = 256 };

static int cmp_names(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* The *.map names (without ".map") in dir, sorted; -1 if it cannot be read. */
static int map_names(const char *dir, char (*names)[MAPS_NAME_MAX], int max)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < max) {
        size_t len = strlen(e->d_name);
        if (len <= 4 || len - 4 >= MAPS_NAME_MAX || e->d_name[0] == '.' ||
            strcmp(e->d_name + len - 4, ".map") != 0)
            continue;
        memcpy(names[n], e->d_name, len - 4);
        names[n][len - 4] = '\0';
        n++;
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_names);
    return n;
}

static void print_map(const dj_map *m)
{
    dj_position *pos = malloc(sizeof *pos);
    char first[16] = "?";
    if (pos) {
        dj_position_initial(m, pos);
        dj_phase_format_short(pos->phase, first, sizeof first);
        free(pos);
    }
    printf("%s: %d powers, %d centres, %d to win, starts %s\n", m->name,
           m->npowers, m->nsc, m->victory, first);
    for (int p = 0; p < m->npowers; p++) {
        printf("  %s (%c)", m->powers[p].name, m->powers[p].letter);
        for (int l = 0; l < m->nlocs; l++)
            if (m->is_sc[l] && (m->home_of[l] & DJ_POWER_BIT(p)))
                printf(" %c%s", m->locs[l].abbr[0] - ('a' - 'A'),
                       m->locs[l].abbr + 1);
        printf("%s\n", (m->dummies >> p & 1u) ? "  (dummy: nobody plays it)"
                                              : "");
    }
    if (m->mobilize)
        printf("  MOBILIZE: no units at the start, one build each in any "
               "home centre\n");
    for (int i = 0; i < m->nrules; i++)
        printf("  RULE %s\n", m->rules[i]);
}

/* `judgectl maps --check DIR`: each map file loaded or its first reason.
 * Exit 0 when every file loads, 1 when one does not, 2 for no directory. */
static int check_directory(const char *dir)
{
    static char names[MAPS_MAX][MAPS_NAME_MAX];
    int n = map_names(dir, names, MAPS_MAX);
    if (n < 0) {
        fprintf(stderr, "judgectl maps: cannot read %s\n", dir);
        return 2;
    }
    if (strlen(dir) >= 4096) {
        fprintf(stderr, "judgectl maps: directory name too long\n");
        return 2;
    }
    int loaded = 0;
    for (int i = 0; i < n; i++) {
        char path[4096 + MAPS_NAME_MAX + 8], err[512] = "";
        snprintf(path, sizeof path, "%.4095s/%.255s.map", dir, names[i]);
        dj_map *m = dj_map_load(path, err, sizeof err);
        if (!m) {
            /* the error names the file by its path: by its name here */
            const char *why = err;
            size_t dl = strlen(dir);
            if (strncmp(why, dir, dl) == 0 && why[dl] == '/')
                why += dl + 1;
            printf("%s.map: refused: %s\n", names[i], why);
            continue;
        }
        loaded++;
        printf("%s.map: loaded: %d powers, %d centres, %d to win\n",
               names[i], m->npowers, m->nsc, m->victory);
        dj_map_free(m);
    }
    printf("%d of %d map files load\n", loaded, n);
    return loaded == n ? 0 : 1;
}

int cmd_maps(int argc, char **argv)
{
    cli_args a;
    int parsed =
        cli_parse(argc, argv, "--check", "", "[--maps DIR] [--check DIR]", &a);
    if (parsed != 0)
        return parsed == CLI_ARGS_DONE ? 0 : 2;
    if (a.npos > 0) {
        cli_usage(argv[0], "[--maps DIR] [--check DIR]", "unexpected argument",
                  a.pos[0]);
        return 2;
    }
    if (cli_value(&a, "--check"))
        return check_directory(cli_value(&a, "--check"));
    const char *dir = cli_maps_directory(cli_globals()->maps, NULL);
    static char names[MAPS_MAX][MAPS_NAME_MAX];
    int n = map_names(dir, names, MAPS_MAX);
    if (n < 0) {
        fprintf(stderr, "judgectl maps: cannot read %s\n", dir);
        return 2;
    }
    if (n == 0)
        printf("no maps in %s\n", dir);
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char path[4096 + MAPS_NAME_MAX + 8], err[512];
        if (strlen(dir) >= 4096) {
            fprintf(stderr, "judgectl maps: directory name too long\n");
            return 2;
        }
        snprintf(path, sizeof path, "%.4095s/%.255s.map", dir, names[i]);
        dj_map *m = dj_map_load(path, err, sizeof err);
        if (!m) {
            fprintf(stderr, "judgectl maps: %s\n", err);
            rc = 1;
            continue;
        }
        print_map(m);
        dj_map_free(m);
    }
    return rc;
}
