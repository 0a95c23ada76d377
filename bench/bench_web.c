/* SPDX-License-Identifier: MIT */
/*
 * bench_web.c — judgeweb's server time, without HTTP: dj_web_handle
 * called directly on a real database, as a worker thread calls it.
 *
 *   bench_web MAPS DB [GAMES [LISTED]]
 *
 * builds DB with GAMES games on the standard board (1,000 by default):
 * every other one started (seven players), every fourth with its Spring
 * 1901 played; then times each page: the game page of a started game with
 * a played phase (the target: p50 <= 5 ms), and every page of a sample of
 * games, the front page listing all of them (the target: none slower than
 * 20 ms, each page's time the median of 5 requests, so that a picture's
 * first drawing, once per phase, and a loaded machine's pauses are not
 * taken for the page's time; the single slowest request is printed too).  The HTTP side is bench/bench_web.sh (ab against judgeweb).
 *
 * Then (issue 38) the database is filled up to LISTED games (100,000 by
 * default) by one INSERT ... SELECT in one transaction, copies of a
 * forming game spread over states, boards, press and speeds, and the
 * front page is timed in microseconds a request (the median of 200):
 * its first page (three lists), a page filtered by board, one by press
 * and speed together, a deep page (keyset: after a name near the end),
 * then the game page and the order pad's /game/NAME/legal.json, for
 * France of g0000 signed in (the route is a player's alone; a 404 says
 * the sign-in or the route failed).  Target: the front
 * page <= 5 ms at 100,000 games.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "game/config.h"
#include "game/forming.h"
#include "game/game.h"
#include "game/orders.h"
#include "game/process.h"
#include "game/websession.h"
#include "web/web.h"

#include <sqlite3.h>

#define BENCH_PASSWORD "bench-france-password"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int build(dj_judge *j, int games)
{
    static const char *const powers[] = {"Austria", "England", "France",
                                         "Germany", "Italy",   "Russia",
                                         "Turkey"};
    dj_buf out;
    dj_buf_init(&out);
    for (int g = 0; g < games; g++) {
        char name[32];
        snprintf(name, sizeof name, "g%04d", g);
        dj_buf_reset(&out);
        if (dj_game_create(j, name, "standard", "gm@bench.example", NULL, 0,
                           &out) < 0) {
            fprintf(stderr, "create %s: %s\n", name, dj_judge_error(j));
            return -1;
        }
        if (g % 2)
            continue;
        for (int p = 0; p < 7; p++) {
            char email[64];
            snprintf(email, sizeof email, "p%d@%s.example", p, name);
            /* one password only (a hash is slow on purpose): France of
             * g0000 signs in for the order pad's JSON */
            dj_join_request rq = {email, NULL, powers[p],
                                  g == 0 && p == 2 ? BENCH_PASSWORD : NULL,
                                  "player", NULL};
            dj_buf_reset(&out);
            if (dj_game_join(j, name, &rq, &out) < 0) {
                fprintf(stderr, "join %s: %s\n", name, dj_judge_error(j));
                return -1;
            }
        }
        if (g % 4 == 0) {
            dj_buf_reset(&out);
            if (dj_game_set_orders(j, name, "France",
                                   "A par-bur\nA mar s a par-bur\nF bre-mao",
                                   "bench", false, &out) < 0 ||
                dj_game_process(j, name, &out) < 0) {
                fprintf(stderr, "play %s: %s\n", name, dj_judge_error(j));
                return -1;
            }
        }
    }
    dj_buf_free(&out);
    return 0;
}

/* Time `n` requests for `path`; p50 and max in ms; the status checked. */
static int time_page(dj_web_shared *sh, dj_judge *j, const char *path, int n,
                     double *p50, double *max)
{
    double *t = malloc(sizeof *t * (size_t)n);
    if (!t)
        return -1;
    for (int i = 0; i < n; i++) {
        dj_web_request rq = {"GET", path, NULL, NULL, "", 0, "127.0.0.1",
                             (int64_t)time(NULL)};
        dj_web_response rs;
        dj_web_response_init(&rs);
        double t0 = now_ms();
        dj_web_handle(sh, j, &rq, &rs);
        t[i] = now_ms() - t0;
        int status = rs.status;
        dj_web_response_free(&rs);
        if (status != 200) {
            fprintf(stderr, "%s: status %d\n", path, status);
            free(t);
            return -1;
        }
    }
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    *p50 = t[n / 2];
    *max = t[n - 1];
    free(t);
    return 0;
}

/* Copies of the forming game g0001 until the database holds `total`
 * games, in one transaction: names x000000..., states, boards, press and
 * speeds in turn.  0 or -1. */
static int bulk_fill(const char *db, int have, int total)
{
    sqlite3 *h = NULL;
    if (sqlite3_open(db, &h) != SQLITE_OK) {
        fprintf(stderr, "bench_web: open %s: %s\n", db, sqlite3_errmsg(h));
        sqlite3_close(h);
        return -1;
    }
    sqlite3_busy_timeout(h, 10000);
    /* the games columns but those set here */
    char cols[4096] = "";
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h,
                           "SELECT group_concat(name, ', ') FROM "
                           "pragma_table_info('games') WHERE name NOT IN "
                           "('id', 'name', 'state', 'map', 'press', "
                           "'move_delay', 'ending')",
                           -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW) {
        fprintf(stderr, "bench_web: %s\n", sqlite3_errmsg(h));
        sqlite3_finalize(st);
        sqlite3_close(h);
        return -1;
    }
    snprintf(cols, sizeof cols, "%s", sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    char sql[12288];
    snprintf(sql, sizeof sql,
             "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n"
             " WHERE i + 1 < ?1)"
             " INSERT INTO games (name, state, map, press, move_delay,"
             " ending, %s)"
             " SELECT printf('x%%06d', n.i),"
             "  CASE n.i %% 10 WHEN 0 THEN 'forming' WHEN 1 THEN 'paused'"
             "   WHEN 2 THEN 'finished' WHEN 3 THEN 'finished' ELSE"
             "   'active' END,"
             "  CASE n.i %% 5 WHEN 0 THEN 'ancmed' WHEN 1 THEN '1898'"
             "   WHEN 2 THEN 'modern' ELSE 'standard' END,"
             "  CASE n.i %% 4 WHEN 0 THEN 'none' WHEN 1 THEN 'grey'"
             "   WHEN 2 THEN 'white+grey' ELSE 'white' END,"
             "  CASE n.i %% 3 WHEN 0 THEN 720 WHEN 1 THEN 4320 ELSE 10080"
             "   END,"
             "  CASE WHEN n.i %% 10 IN (2, 3) THEN 'a draw' ELSE '' END,"
             "  %s FROM n, (SELECT * FROM games WHERE name = 'g0001') AS t",
             cols, cols);
    int rc = -1;
    if (sqlite3_exec(h, "BEGIN", NULL, NULL, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_bind_int(st, 1, total - have) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_DONE)
        rc = 0;
    if (rc < 0)
        fprintf(stderr, "bench_web: fill: %s\n", sqlite3_errmsg(h));
    sqlite3_finalize(st);
    sqlite3_exec(h, rc == 0 ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(h);
    return rc;
}

/* Time `n` requests for `path`: the median in microseconds, or -1 (the
 * status, when not 200, in *status). */
static double time_us(dj_web_shared *sh, dj_judge *j, const char *path,
                      const char *cookie, int n, int *status)
{
    double *t = malloc(sizeof *t * (size_t)n);
    if (!t)
        return -1;
    *status = 200;
    for (int i = 0; i < n && *status == 200; i++) {
        dj_web_request rq = {"GET", path, cookie, NULL, "", 0, "127.0.0.1",
                             (int64_t)time(NULL)};
        dj_web_response rs;
        dj_web_response_init(&rs);
        double t0 = now_ms();
        dj_web_handle(sh, j, &rq, &rs);
        t[i] = (now_ms() - t0) * 1e3;
        *status = rs.status;
        dj_web_response_free(&rs);
    }
    double p50 = -1;
    if (*status == 200) {
        qsort(t, (size_t)n, sizeof *t, cmp_double);
        p50 = t[n / 2];
    }
    free(t);
    return p50;
}

static int front_pages(dj_web_shared *sh, dj_judge *j, int total)
{
    /* France of g0000 signed in: the order pad's JSON is hers alone */
    char token[DJ_WEB_TOKEN_LEN + 1], csrf[DJ_WEB_TOKEN_LEN + 1],
        device[DJ_WEB_TOKEN_LEN + 1], cookie[DJ_WEB_TOKEN_LEN + 8];
    dj_signon id;
    cookie[0] = '\0';
    dj_judge_set_now(j, (int64_t)time(NULL));
    if (dj_game_web_signin(j, "g0000", "France", BENCH_PASSWORD, NULL,
                           "127.0.0.1", NULL, 3600, token, csrf, device,
                           &id) == 0)
        snprintf(cookie, sizeof cookie, "djs=%s", token);
    static const struct {
        const char *what, *path;
    } pages[] = {
        {"front page, first page (three lists)", "/"},
        {"front page, in play on one board", "/?state=play&board=ancmed"},
        {"front page, finished, grey press, slow",
         "/?state=finished&press=grey&speed=slow"},
        {"front page, a deep page (after x098000)",
         "/?state=play&after=x098000"},
        {"front page, a page back (before x050000)",
         "/?state=forming&before=x050000"},
        {"game page (a played game)", "/game/g0000"},
        {"order pad JSON /game/NAME/legal.json", "/game/g0000/legal.json"},
    };
    printf("judgeweb server time at %d games, median of 200 requests:\n",
           total);
    double front_worst = 0;
    for (size_t k = 0; k < sizeof pages / sizeof pages[0]; k++) {
        int status = 0;
        bool pad = strstr(pages[k].path, "legal.json") != NULL;
        double us = time_us(sh, j, pages[k].path, pad ? cookie : NULL, 200,
                            &status);
        if (us < 0 && status == 404 && strstr(pages[k].path, "legal.json")) {
            printf("  %-42s 404: not signed in, or no such route\n", pages[k].what);
            continue;
        }
        if (us < 0) {
            fprintf(stderr, "%s: status %d\n", pages[k].path, status);
            return -1;
        }
        printf("  %-42s %8.0f us  %s\n", pages[k].what, us, pages[k].path);
        if (pages[k].path[1] == '?' || pages[k].path[1] == '\0')
            front_worst = us > front_worst ? us : front_worst;
    }
    printf("  slowest front page %.0f us (target <= 5000 us): %s\n",
           front_worst, front_worst <= 5000 ? "MET" : "NOT MET");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_web MAPS DB [GAMES]\n");
        return 2;
    }
    int games = argc > 3 ? atoi(argv[3]) : 1000;
    if (games < 4)
        games = 4;
    int listed = argc > 4 ? atoi(argv[4]) : 100000;
    static dj_config cfg;
    dj_config_defaults(&cfg);
    snprintf(cfg.database, sizeof cfg.database, "%s", argv[2]);
    unlink(argv[2]);
    char err[512];
    dj_judge *j = dj_judge_open(&cfg, argv[1], err, sizeof err);
    if (!j) {
        fprintf(stderr, "bench_web: %s\n", err);
        return 1;
    }
    dj_judge_set_now(j, (int64_t)time(NULL));
    dj_judge_set_actor(j, "bench");
    double t0 = now_ms();
    if (build(j, games) < 0)
        return 1;
    printf("judgeweb server time (dj_web_handle, no HTTP), a database of "
           "%d games built in %.1f s\n",
           games, (now_ms() - t0) / 1e3);
    dj_web_options opt = {"dipjudge", "judge@bench.example", false, 3600,
                          20, 3600};
    dj_web_shared *sh = dj_web_shared_new(&opt);
    /* the pictures drawn once, as a browser's first visit does */
    double p50, max, worst = 0;
    char worst_page[64] = "";
    if (time_page(sh, j, "/game/g0000/F1901M/board.svg", 1, &p50, &max) <
            0 ||
        time_page(sh, j, "/game/g0000/S1901M/orders.svg", 1, &p50, &max) < 0)
        return 1;
    printf("  first drawing of a board (SVG): %.2f ms\n", max);
    if (time_page(sh, j, "/game/g0000", 500, &p50, &max) < 0)
        return 1;
    printf("  game page, standard board, 500 requests: p50 %.2f ms, max "
           "%.2f ms (target p50 <= 5 ms): %s\n",
           p50, max, p50 <= 5 ? "MET" : "NOT MET");
    /* each page: a prefix and a suffix around the game's name */
    static const char *const pages[][2] = {
        {"/game/", ""},           {"/game/", "/press"},
        {"/game/", ".json"},      {"/game/", "/S1901M"},
        {"/game/", "/S1901M/board.svg"}, {"/game/", "/S1901M/orders.svg"}};
    char path[128];
    if (time_page(sh, j, "/", 20, &p50, &max) < 0)
        return 1;
    printf("  front page (first 50 of each list) at %d games: p50 %.2f ms, "
           "max %.2f ms\n",
           games, p50, max);
    worst = p50;
    snprintf(worst_page, sizeof worst_page, "/");
    for (size_t k = 0; k < sizeof pages / sizeof pages[0]; k++) {
        double sum50 = 0, kmax = 0, worst50 = 0;
        int sampled = 0;
        for (int g = 0; g < games; g += games / 25) {
            bool played = g % 4 == 0;
            if (k >= 3 && !played)
                continue;
            char name[32];
            snprintf(name, sizeof name, "g%04d", g);
            snprintf(path, sizeof path, "%s%s%s", pages[k][0], name,
                     pages[k][1]);
            if (time_page(sh, j, path, 5, &p50, &max) < 0)
                return 1;
            sum50 += p50;
            if (max > kmax)
                kmax = max;
            if (p50 > worst50)
                worst50 = p50;
            sampled++;
        }
        char shape[64];
        snprintf(shape, sizeof shape, "%sNAME%s", pages[k][0], pages[k][1]);
        printf("  %-28s %2d games: p50 mean %.2f ms, worst %.2f ms; one "
               "request's max %.2f ms\n",
               shape, sampled, sampled ? sum50 / sampled : 0, worst50, kmax);
        if (worst50 > worst) {
            worst = worst50;
            snprintf(worst_page, sizeof worst_page, "%s", shape);
        }
    }
    printf("  slowest page of the %d-game database (a game's median of 5 "
           "requests: the first drawing of a picture, once per phase, and a "
           "busy machine's pauses aside): %.2f ms (%s; target <= 20 ms): "
           "%s\n",
           games, worst, worst_page, worst <= 20 ? "MET" : "NOT MET");
    if (listed > games) {
        t0 = now_ms();
        if (bulk_fill(argv[2], games, listed) < 0)
            return 1;
        printf("filled to %d games in one transaction in %.1f s\n", listed,
               (now_ms() - t0) / 1e3);
        if (front_pages(sh, j, listed) < 0)
            return 1;
    }
    dj_web_shared_free(sh);
    dj_judge_close(j);
    return 0;
}
