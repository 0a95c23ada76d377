/* SPDX-License-Identifier: MIT */
/*
 * test_listing.c — the front page's pages of games (store/listing.h) on a
 * real database: 50 a page in name order, next and back through all of
 * them once, each filter's games and only them, unlisted and private
 * games never; and every filter's page read from a games_list_* index
 * (EXPLAIN QUERY PLAN), never by sorting all the games, so a page costs
 * the same at 100,000 games (bench-web measures it).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "store/games.h"
#include "store/listing.h"
#include "store/settings_table.h"
#include "store/store.h"
#include "testlib.h"

#define NGAMES 260

static const char *const STATES[] = {"forming", "active", "paused",
                                     "finished"};
static const char *const MAPS[] = {"standard", "ancmed", "modern"};
static const char *const PRESS[] = {"white", "none", "grey", "white+grey"};
static const int DELAYS[] = {720, 4320, 10080};

static const char *speed_of(int d)
{
    return d < 1440 ? "fast" : d <= 4320 ? "normal" : "slow";
}

/* The games of game i's making (see fill). */
static void game_of(int i, dj_game_rec *g)
{
    memset(g, 0, sizeof *g);
    dj_settings_default(g);
    /* names out of insertion order, mixed case: the order is NOCASE */
    snprintf(g->name, sizeof g->name, "%s%03d", i % 2 ? "G" : "g",
             (i * 37) % NGAMES);
    snprintf(g->map, sizeof g->map, "%s", MAPS[i % 3]);
    snprintf(g->state, sizeof g->state, "%s", STATES[i % 4]);
    snprintf(g->press, sizeof g->press, "%s", PRESS[i % 4 == 0 ? 0 : i % 5 % 4]);
    snprintf(g->zone, sizeof g->zone, "UTC");
    snprintf(g->nmr, sizeof g->nmr, "cd");
    snprintf(g->assignment, sizeof g->assignment, "choice");
    g->move_delay = DELAYS[i % 7 % 3];
    g->retreat_delay = g->adjust_delay = 1440;
    g->time_of_day = -1;
    g->days = 127;
    g->grace = 1440;
    g->early_delay = -1;
    g->unlisted = i % 11 == 0;
    if (i % 13 == 0)
        snprintf(g->join_password, sizeof g->join_password, "secret");
    g->created_at = 1000;
}

static bool listed(const dj_game_rec *g)
{
    return !g->unlisted && !g->join_password[0];
}

static const char *list_state(const char *state)
{
    return strcmp(state, "active") == 0 || strcmp(state, "paused") == 0
               ? "play"
               : state;
}

static int cmp_name(const void *a, const void *b)
{
    return strcasecmp(*(const char *const *)a, *(const char *const *)b);
}

static dj_game_rec games[NGAMES];

/* The names the filter should give, in order: *n of them (malloc'd). */
static const char **expected(const dj_listing_filter *f, int *n)
{
    const char **names = calloc(NGAMES, sizeof *names);
    *n = 0;
    for (int i = 0; i < NGAMES; i++) {
        const dj_game_rec *g = &games[i];
        if (!listed(g) || strcmp(list_state(g->state), f->state) != 0 ||
            (f->map && strcmp(g->map, f->map) != 0) ||
            (f->press && strcmp(g->press, f->press) != 0) ||
            (f->speed && strcmp(speed_of(g->move_delay), f->speed) != 0))
            continue;
        names[(*n)++] = g->name;
    }
    qsort(names, (size_t)*n, sizeof *names, cmp_name);
    return names;
}

/* Every page forward, then every page back: all the games once each, in
 * order, 50 a page (the last one the rest). */
static void walk(dj_store *s, dj_listing_filter f)
{
    int nwant;
    const char **want = expected(&f, &nwant);
    char after[64] = "";
    int seen = 0, pages = 0;
    bool more = true, in_order = true, full_pages = true;
    while (more && pages < 20) {
        dj_listing_rec *rows;
        int n;
        f.after = after[0] ? after : NULL;
        f.before = NULL;
        CHECK(dj_store_listing(s, &f, DJ_LISTING_PAGE, &rows, &n, &more) ==
              0);
        pages++;
        if (more && n != DJ_LISTING_PAGE)
            full_pages = false;
        for (int i = 0; i < n; i++, seen++)
            if (seen >= nwant || strcmp(rows[i].o.name, want[seen]) != 0)
                in_order = false;
        if (n)
            snprintf(after, sizeof after, "%s", rows[n - 1].o.name);
        free(rows);
    }
    CHECK(in_order);
    CHECK(full_pages);
    CHECK(seen == nwant);
    CHECK(pages == (nwant + DJ_LISTING_PAGE - 1) / DJ_LISTING_PAGE ||
          (nwant == 0 && pages == 1));
    /* back from past the end: the last 50, in order */
    if (nwant > DJ_LISTING_PAGE) {
        dj_listing_rec *rows;
        int n;
        f.after = NULL;
        f.before = want[nwant - 1];
        CHECK(dj_store_listing(s, &f, DJ_LISTING_PAGE, &rows, &n, &more) ==
              0);
        CHECK(n == DJ_LISTING_PAGE && more == (nwant - 1 > DJ_LISTING_PAGE));
        bool ok = n == DJ_LISTING_PAGE;
        for (int i = 0; ok && i < n; i++)
            ok = strcmp(rows[i].o.name, want[nwant - 1 - n + i]) == 0;
        CHECK(ok);
        free(rows);
    }
    /* the page read from the filter's index, no sort of every game */
    char plan[2048];
    f.after = f.before = NULL;
    CHECK(dj_store_listing_plan(s, &f, plan, sizeof plan) == 0);
    bool indexed = strstr(plan, "USING INDEX games_list_") != NULL ||
                   strstr(plan, "USING COVERING INDEX games_list_") != NULL;
    if (!indexed || strstr(plan, "SCAN games"))
        fprintf(stderr, "plan (state %s map %s press %s speed %s): %s\n",
                f.state, f.map ? f.map : "-", f.press ? f.press : "-",
                f.speed ? f.speed : "-", plan);
    CHECK(indexed);
    CHECK(strstr(plan, "SCAN games") == NULL);
    free(want);
}

int main(void)
{
    char dir[] = "/tmp/dj-listing-XXXXXX", path[256], err[512];
    if (!mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s/judge.db", dir);
    dj_store *s = dj_store_open(path, err, sizeof err);
    CHECK(s != NULL);
    if (!s) {
        fprintf(stderr, "open: %s\n", err);
        return test_summary();
    }
    CHECK(dj_store_begin(s) == 0);
    for (int i = 0; i < NGAMES; i++) {
        game_of(i, &games[i]);
        CHECK(dj_store_game_insert(s, &games[i]) == 0);
    }
    CHECK(dj_store_commit(s) == 0);
    static const char *const lists[] = {"play", "forming", "finished"};
    for (int k = 0; k < 3; k++) {
        dj_listing_filter f = {lists[k], NULL, NULL, NULL, NULL, NULL};
        walk(s, f);
        f.map = "ancmed";
        walk(s, f);
        f.map = NULL;
        f.press = "grey";
        walk(s, f);
        f.press = NULL;
        f.speed = "slow";
        walk(s, f);
        f.map = "standard";
        f.press = "none";
        walk(s, f);
    }
    /* a board nobody plays: nothing, and no more */
    dj_listing_rec *rows;
    int n;
    bool more;
    dj_listing_filter none = {"play", "nowhere", NULL, NULL, NULL, NULL};
    CHECK(dj_store_listing(s, &none, DJ_LISTING_PAGE, &rows, &n, &more) == 0);
    CHECK(n == 0 && !more);
    free(rows);
    CHECK(dj_store_listing_speed_ok("fast") && !dj_store_listing_speed_ok("x"));
    dj_store_close(s);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return test_summary();
}
