/* SPDX-License-Identifier: MIT */
/*
 * bench_ingest.c — the judge and the mail of `make bench-ingest` (issue
 * 32's figures; bench/bench_ingest.sh runs judged on them and measures).
 *
 * Makes a judge of GAMES standard games (default 1000), seven players
 * each, every game started.  The players of the first PLAYED games
 * (default 50: 350 powers) have passwords, "pw-GAME-POWER", and addresses
 * pN@GAME.example; the others have none (a password costs 20 ms of
 * yescrypt to store: 6,650 of them would make the set-up, not the run,
 * the benchmark).  Then writes the order mails, one file each, named in
 * the order to deliver them: each of those 350 powers mails its opening
 * orders (tests/games/full/01-S1901M.txt) twice, all first mails before
 * all second ones, into OUTDIR/password signed on by a SIGNON line with
 * the password, and into OUTDIR/token sent to the power's reply address
 * (judge+TOKEN@localhost: the judge's reply key DATABASE.reply-key is
 * made), no SIGNON line.
 *
 * usage: bench_ingest SRCDIR DATABASE OUTDIR [GAMES [PLAYED]]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/config.h"
#include "game/forming.h"
#include "game/game.h"
#include "game/signon.h"
#include "store/games.h"

#define T0 1800000000 /* as tests/games/play.sh */

static const char *const POWERS[] = {"Austria", "England", "France",
                                     "Germany", "Italy",   "Russia",
                                     "Turkey"};

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
            n + ll < len)
            n += (size_t)snprintf(out + n, len - n, "%.*s\n",
                                  (int)(ll - plen - 2), l + plen + 2);
        l = nl ? nl + 1 : NULL;
    }
}

static int fail(dj_judge *j, const char *what)
{
    fprintf(stderr, "bench_ingest: %s: %s\n", what,
            j ? dj_judge_error(j) : "");
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr,
                "usage: %s SRCDIR DATABASE OUTDIR [GAMES [PLAYED]]\n",
                argv[0]);
        return 2;
    }
    int games = argc > 4 ? atoi(argv[4]) : 1000;
    int played = argc > 5 ? atoi(argv[5]) : 50;
    if (games < 1)
        games = 1;
    if (played < 1 || played > games)
        played = games < 50 ? games : 50;
    char maps[1024], full[1100], s1901[8192];
    snprintf(maps, sizeof maps, "%s/maps", argv[1]);
    snprintf(full, sizeof full, "%s/tests/games/full/01-S1901M.txt", argv[1]);
    FILE *f = fopen(full, "r");
    size_t got = f ? fread(s1901, 1, sizeof s1901 - 1, f) : 0;
    if (f)
        fclose(f);
    s1901[got] = '\0';
    if (!got) {
        fprintf(stderr, "bench_ingest: cannot read %s\n", full);
        return 1;
    }
    dj_config cfg;
    dj_config_defaults(&cfg);
    snprintf(cfg.database, sizeof cfg.database, "%s", argv[2]);
    char err[512];
    dj_judge *j = dj_judge_open(&cfg, maps, err, sizeof err);
    if (!j) {
        fprintf(stderr, "bench_ingest: %s\n", err);
        return 1;
    }
    dj_judge_set_now(j, T0);
    static const char *const settings[] = {
        "movement_delay=72h", "retreat_delay=24h", "adjustment_delay=24h",
        "grace=24h", "nmr=cd"};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    dj_buf out;
    dj_buf_init(&out);
    for (int g = 0; g < games; g++) {
        char name[16];
        snprintf(name, sizeof name, "g%04d", g);
        if (dj_game_create(j, name, "standard", "gm@bench.example", settings,
                           5, &out) < 0)
            return fail(j, name);
        for (int p = 0; p < 7; p++) {
            char email[64], pw[64];
            snprintf(email, sizeof email, "p%d@%s.example", p, name);
            snprintf(pw, sizeof pw, "pw-%s-%s", name, POWERS[p]);
            dj_join_request rq = {email, NULL, POWERS[p],
                                  g < played ? pw : NULL, "player", NULL};
            if (dj_game_join(j, name, &rq, &out) < 0)
                return fail(j, name);
        }
        dj_buf_reset(&out);
    }
    dj_buf_free(&out);
    clock_gettime(CLOCK_MONOTONIC, &t1);

    char keypath[1100];
    snprintf(keypath, sizeof keypath, "%s.reply-key", argv[2]);
    if (dj_judge_load_reply_key(j, keypath, err, sizeof err) < 0) {
        fprintf(stderr, "bench_ingest: %s\n", err);
        return 1;
    }
    int n = 0;
    for (int round = 0; round < 2; round++)
        for (int g = 0; g < played; g++) {
            char name[16];
            snprintf(name, sizeof name, "g%04d", g);
            dj_game_rec rec;
            if (dj_store_game_get(dj_judge_store(j), name, &rec) < 0)
                return fail(j, name);
            for (int p = 0; p < 7; p++, n++) {
                char orders[512], email[64], token[DJ_REPLY_TOKEN_LEN + 1];
                orders_of(s1901, POWERS[p], orders, sizeof orders);
                snprintf(email, sizeof email, "p%d@%s.example", p, name);
                if (dj_game_reply_token(j, rec.id, email, token) != 0)
                    return fail(j, "no reply token");
                for (int mode = 0; mode < 2; mode++) {
                    char path[1200];
                    snprintf(path, sizeof path, "%s/%s/%04d.eml", argv[3],
                             mode ? "token" : "password", n);
                    FILE *m = fopen(path, "w");
                    if (!m) {
                        perror(path);
                        return 1;
                    }
                    fprintf(m,
                            "From: Player %d <%s>\n"
                            "To: judge%s%s@localhost\n"
                            "Subject: orders\n"
                            "Date: Fri, 15 Jan 2027 09:00:00 +0000\n"
                            "Message-ID: <bench-%d-%d-%s-%d@%s.example>\n"
                            "\n",
                            p, email, mode ? "+" : "", mode ? token : "",
                            mode, round, name, p, name);
                    if (!mode)
                        fprintf(m, "SIGNON %c%s pw-%s-%s\n", POWERS[p][0],
                                name, name, POWERS[p]);
                    fputs(orders, m);
                    fclose(m);
                }
            }
        }
    dj_judge_close(j);
    printf("bench_ingest: %d games (%d with passwords), %d mails, set up "
           "in %.1f s\n",
           games, played, n,
           (double)(t1.tv_sec - t0.tv_sec) +
               (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    return 0;
}
