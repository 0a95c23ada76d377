/* SPDX-License-Identifier: MIT */
/*
 * bench_tick.c — a tick through many games, as issue 25 measures it:
 *
 *   - the tick's CPU per game-phase processed (this process's CPU time:
 *     adjudicating, reports, the results mail queued; no picture is drawn
 *     in the tick, they are drawn as the mail goes out);
 *   - the picture of a phase: drawn once (a cache miss) and read again (a
 *     hit), CPU milliseconds and bytes, so "tick with pictures" is the sum
 *     of the tick's share and one drawing (the first drawing of a process
 *     makes the geometry's layer, render/board_layer.c: its extra time is
 *     shared by the game-phases of the tick, as in judged);
 *   - the database's growth per game-phase (page count after a checkpoint,
 *     before and after the tick: positions, orders, results, mail queued);
 *   - how long a mail waits for the database while the tick runs: a second
 *     process enters orders (one transaction, as a mail does) every 50 ms
 *     during the tick and reports its longest and mean wait.
 *
 * The games are standard ones with seven players, each power's opening
 * orders from tests/games/full entered, all due at once.  The database
 * and the picture cache live in a fresh folder under /dev/shm (or /tmp).
 *
 * usage: bench_tick SRCDIR [GAMES]      (default 1000 games)
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game/config.h"
#include "game/forming.h"
#include "game/game.h"
#include "game/orders.h"
#include "game/pictures.h"
#include "game/process.h"
#include "render/render.h"

#define T0 1800000000 /* as tests/games/play.sh: Fri 15 Jan 2027 08:00 UTC */
#define MAIL_EVERY_MS 50

static const char *const POWERS[] = {"Austria", "England", "France",
                                     "Germany", "Italy",   "Russia",
                                     "Turkey"};

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int fail(dj_judge *j, const char *what)
{
    fprintf(stderr, "bench_tick: %s: %s\n", what, j ? dj_judge_error(j) : "");
    return 1;
}

/* Bytes in the database file once its write-ahead log is folded in. */
static long long db_bytes(const char *path)
{
    sqlite3 *db = NULL;
    long long bytes = -1;
    if (sqlite3_open(path, &db) == SQLITE_OK &&
        sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL,
                     NULL) == SQLITE_OK) {
        struct stat st;
        if (stat(path, &st) == 0)
            bytes = (long long)st.st_size;
    }
    sqlite3_close(db);
    return bytes;
}

/* One power's orders of a phase file ("Austria: A BUD H" lines). */
static void orders_of(const char *file_text, const char *power, char *out,
                      size_t len)
{
    size_t n = 0, plen = strlen(power);
    out[0] = '\0';
    for (const char *l = file_text; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t ll = nl ? (size_t)(nl - l) : strlen(l);
        if (ll > plen + 2 && strncmp(l, power, plen) == 0 && l[plen] == ':' &&
            n + ll < len) {
            n += (size_t)snprintf(out + n, len - n, "%.*s\n",
                                  (int)(ll - plen - 2), l + plen + 2);
        }
        l = nl ? nl + 1 : NULL;
    }
}

/*
 * The mailer: until told to stop (its stdin closes), enter orders for
 * its own game every MAIL_EVERY_MS and time each; print "max mean n".
 */
static void mailer(const dj_config *cfg, const char *maps, int stop_fd)
{
    char err[512];
    dj_judge *j = dj_judge_open(cfg, maps, err, sizeof err);
    if (!j)
        _exit(1);
    dj_judge_set_now(j, T0 + 3600);
    double most = 0, sum = 0;
    int n = 0;
    struct timespec nap = {0, MAIL_EVERY_MS * 1000000L};
    for (;;) {
        fd_set set;
        FD_ZERO(&set);
        FD_SET(stop_fd, &set);
        struct timeval none = {0, 0};
        if (select(stop_fd + 1, &set, NULL, NULL, &none) > 0)
            break;
        dj_buf out;
        dj_buf_init(&out);
        double t0 = clock_ms(CLOCK_MONOTONIC);
        int rc = dj_game_set_orders(j, "mailgame", "France", "A PAR H\n",
                                    "mail", false, &out);
        double waited = clock_ms(CLOCK_MONOTONIC) - t0;
        dj_buf_free(&out);
        if (rc < 0)
            _exit(2);
        most = waited > most ? waited : most;
        sum += waited;
        n++;
        nanosleep(&nap, NULL);
    }
    printf("%.1f %.1f %d\n", most, n ? sum / n : 0, n);
    fflush(stdout);
    dj_judge_close(j);
    _exit(0);
}

static int make_game(dj_judge *j, const char *name, const char *s1901)
{
    static const char *const settings[] = {"movement_delay=72h",
                                           "retreat_delay=24h",
                                           "adjustment_delay=24h", "grace=24h",
                                           "nmr=cd"};
    dj_buf out;
    dj_buf_init(&out);
    int rc = dj_game_create(j, name, "standard", "gm@bench.example", settings,
                            5, &out);
    for (int p = 0; p < 7 && rc == 0; p++) {
        char email[64];
        snprintf(email, sizeof email, "p%d@%s.example", p, name);
        dj_join_request rq = {email, NULL, POWERS[p], NULL, "player", NULL};
        rc = dj_game_join(j, name, &rq, &out);
    }
    for (int p = 0; p < 7 && rc == 0 && s1901; p++) {
        char orders[512];
        orders_of(s1901, POWERS[p], orders, sizeof orders);
        rc = dj_game_set_orders(j, name, POWERS[p], orders, "bench", false,
                                &out);
    }
    dj_buf_free(&out);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s SRCDIR [GAMES]\n", argv[0]);
        return 2;
    }
    int games = argc > 2 ? atoi(argv[2]) : 1000;
    if (games < 1)
        games = 1;
    char maps[1024], full[1100], s1901[8192];
    snprintf(maps, sizeof maps, "%s/maps", argv[1]);
    snprintf(full, sizeof full, "%s/tests/games/full/01-S1901M.txt", argv[1]);
    FILE *f = fopen(full, "r");
    size_t got = f ? fread(s1901, 1, sizeof s1901 - 1, f) : 0;
    if (f)
        fclose(f);
    s1901[got] = '\0';
    if (!got) {
        fprintf(stderr, "bench_tick: cannot read %s\n", full);
        return 1;
    }
    char dir[] = "/dev/shm/bench_tick.XXXXXX", dir2[] = "/tmp/bench_tick.XXXXXX";
    const char *where = mkdtemp(dir) ? dir : mkdtemp(dir2);
    if (!where) {
        perror("mkdtemp");
        return 1;
    }
    dj_config cfg;
    dj_config_defaults(&cfg);
    snprintf(cfg.database, sizeof cfg.database, "%s/judge.db", where);
    snprintf(cfg.picture_cache, sizeof cfg.picture_cache, "%s/pictures",
             where);
    char err[512];
    dj_judge *j = dj_judge_open(&cfg, maps, err, sizeof err);
    if (!j) {
        fprintf(stderr, "bench_tick: %s\n", err);
        return 1;
    }
    dj_judge_set_now(j, T0);
    printf("bench_tick: %d standard games, S1901M due at once (%s)\n", games,
           where);
    double setup = clock_ms(CLOCK_MONOTONIC);
    for (int g = 0; g < games; g++) {
        char name[32];
        snprintf(name, sizeof name, "b%04d", g);
        if (make_game(j, name, s1901) < 0)
            return fail(j, name);
    }
    dj_judge_set_now(j, T0 + 3600);
    if (make_game(j, "mailgame", NULL) < 0)
        return fail(j, "mailgame");
    {
        /* The mail's game is not due during the tick. */
        const char *later[] = {"deadline=+30d"};
        dj_buf out;
        dj_buf_init(&out);
        if (dj_game_set(j, "mailgame", later, 1, &out) < 0)
            return fail(j, "mailgame deadline");
        dj_buf_free(&out);
    }
    printf("  set up in %.1f s\n", (clock_ms(CLOCK_MONOTONIC) - setup) / 1e3);
    long long before = db_bytes(cfg.database);

    int stop[2], report[2];
    if (pipe(stop) < 0 || pipe(report) < 0) {
        perror("pipe");
        return 1;
    }
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        close(stop[1]);
        dup2(report[1], STDOUT_FILENO);
        mailer(&cfg, maps, stop[0]);
    }
    close(stop[0]);
    close(report[1]);
    struct timespec settle = {0, 200 * 1000000L};
    nanosleep(&settle, NULL); /* the mailer open and waiting */

    dj_judge_set_now(j, T0 + 5 * 86400);
    dj_buf out;
    dj_buf_init(&out);
    int processed = 0;
    double cpu0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    double wall0 = clock_ms(CLOCK_MONOTONIC);
    int rc = dj_judge_tick(j, &out, &processed);
    double wall = clock_ms(CLOCK_MONOTONIC) - wall0;
    double cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    dj_buf_free(&out);
    close(stop[1]);
    char line[128] = "";
    FILE *rf = fdopen(report[0], "r");
    if (!rf || !fgets(line, sizeof line, rf))
        line[0] = '\0';
    if (rf)
        fclose(rf);
    int status = 0;
    waitpid(child, &status, 0);
    if (rc < 0)
        return fail(j, "tick");
    long long after = db_bytes(cfg.database);
    double most = 0, mean = 0;
    int mails = 0;
    sscanf(line, "%lf %lf %d", &most, &mean, &mails);
    printf("  tick: %d game-phases processed in %.2f s, CPU %.2f ms per "
           "game-phase\n",
           processed, wall / 1e3, processed ? cpu / processed : 0);
    printf("  database: %+lld bytes, %.1f KB per game-phase\n",
           after - before,
           processed ? (double)(after - before) / processed / 1024 : 0);
    printf("  a mail during the tick: waited %.1f ms at most, %.1f ms on "
           "average (%d mails)\n",
           most, mean, mails);

    /* The pictures: each of a few phases drawn (a miss), then read again. */
    int sample = games < 20 ? games : 20;
    double draw = 0, hit = 0, first = 0;
    size_t bytes = 0;
    for (int g = 0; g < sample; g++) {
        char game[32];
        snprintf(game, sizeof game, "b%04d", g);
        dj_picture pic;
        for (int pass = 0; pass < 2; pass++) {
            double t0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
            if (dj_game_picture(j, game, "S1901M", -1, DJ_PICTURE_PNG, &pic) < 0)
                return fail(j, "picture");
            double t = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - t0;
            if (pass == 1)
                hit += t;
            else if (g == 0)
                first = t; /* makes the geometry's layer, once a process */
            else
                draw += t;
            bytes = pic.len;
            dj_picture_free(&pic);
        }
    }
    double each = sample > 1 ? draw / (sample - 1) : first;
    printf("  results picture (PNG, drawn once per phase): %.1f ms CPU to "
           "draw (the first %.1f ms: it makes the geometry's layer, once a "
           "process), %.2f ms from the cache, %zu bytes\n",
           each, first, hit / sample, bytes);
    printf("  tick with its picture: %.1f ms CPU per game-phase (the "
           "first picture's extra shared by the %d)\n",
           (processed ? cpu / processed + (first - each) / processed : 0) +
               each,
           processed);
    dj_judge_close(j);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", where);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_tick: could not remove %s\n", where);
    return status == 0 ? 0 : 1;
}
