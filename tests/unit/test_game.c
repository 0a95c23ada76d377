/* SPDX-License-Identifier: MIT */
/*
 * test_game.c — the game layer: position snapshots, phase names, judge.conf,
 * password hashes, and a game driven through game.h on a real database in
 * a temporary directory (joining, the automatic start, orders, processing
 * exactly once, NMR and civil disorder, votes, rollback and rollforward,
 * the tick).  Run as `test_game SRCDIR`.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/adjudicate.h"
#include "engine/map.h"
#include "conf/judge_conf.h"
#include "game/forming.h"
#include "game/game.h"
#include "game/orders.h"
#include "game/password.h"
#include "game/pictures.h"
#include "game/process.h"
#include "game/reading.h"
#include "game/snapshot.h"
#include "store/phases.h"
#include "testlib.h"

static const char *srcdir = ".";
static char dir[256];
static dj_map *map;

/* ---- snapshots ----------------------------------------------------------- */

static void roundtrip(const dj_position *pos, const char *what)
{
    dj_buf a, b;
    dj_buf_init(&a);
    dj_buf_init(&b);
    dj_snapshot_write(map, pos, &a);
    dj_position *back = malloc(sizeof *back);
    char err[256];
    int rc = dj_snapshot_read(map, a.data, back, err, sizeof err);
    CHECK(rc == 0);
    if (rc < 0)
        fprintf(stderr, "%s: %s\n", what, err);
    dj_snapshot_write(map, back, &b);
    CHECK_STR(b.data, a.data);
    CHECK(back->nunits == pos->nunits && back->ndislodged == pos->ndislodged);
    CHECK(back->civil_disorder == pos->civil_disorder);
    for (int i = 0; i < pos->nunits; i++)
        CHECK(back->units[i].loc == pos->units[i].loc &&
              back->units[i].power == pos->units[i].power &&
              back->units[i].type == pos->units[i].type);
    for (int l = 0; l < map->nlocs; l++)
        if (back->owner[l] != pos->owner[l]) {
            CHECK(back->owner[l] == pos->owner[l]);
            break;
        }
    free(back);
    dj_buf_free(&a);
    dj_buf_free(&b);
}

static void test_snapshot(void)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_position_initial(map, pos);
    roundtrip(pos, "initial");

    dj_buf text;
    dj_buf_init(&text);
    dj_snapshot_write(map, pos, &text);
    CHECK(strncmp(text.data, "phase S1901M\nunit ", 18) == 0);
    CHECK(strstr(text.data, "unit Russia F stp/sc\n") != NULL);
    CHECK(strstr(text.data, "owner Austria bud\n") != NULL);
    dj_buf_free(&text);

    /* A retreat phase: dislodged units with retreats, civil disorder. */
    pos->phase.season = DJ_FALL;
    pos->phase.type = DJ_RETREAT;
    pos->civil_disorder = DJ_POWER_BIT(4) | DJ_POWER_BIT(0);
    dj_dislodged *d = &pos->dislodged[pos->ndislodged++];
    memset(d, 0, sizeof *d);
    d->unit.power = 1;
    d->unit.type = DJ_FLEET;
    d->unit.loc = (int16_t)dj_map_find_location(map, "nth");
    d->attacker_from = (int16_t)dj_map_find_location(map, "hel");
    d->by_convoy = true;
    d->retreats[d->nretreats++] = (int16_t)dj_map_find_location(map, "nwg");
    d->retreats[d->nretreats++] = (int16_t)dj_map_find_location(map, "spa/nc");
    roundtrip(pos, "retreat");
    dj_snapshot_write(map, pos, &text);
    CHECK(strstr(text.data, "disorder Austria Italy\n") != NULL);
    CHECK(strstr(text.data, "dislodged England F nth from hel convoy 1 "
                            "retreats nwg spa/nc\n") != NULL);
    dj_buf_free(&text);

    char err[256];
    CHECK(dj_snapshot_read(map, "phase S1901M\nunit Narnia A par\n", pos, err,
                           sizeof err) < 0);
    CHECK_STR(err, "snapshot line 2: unknown power 'Narnia'");
    CHECK(dj_snapshot_read(map, "phase S1901M\nunit France A xyz\n", pos, err,
                           sizeof err) < 0);
    CHECK_STR(err, "snapshot line 2: unknown location 'xyz'");
    CHECK(dj_snapshot_read(map, "unit France A par\n", pos, err, sizeof err) <
          0);
    CHECK_STR(err, "snapshot has no phase line");
    CHECK(dj_snapshot_read(map, "phase S1901M\nfleet x\n", pos, err,
                           sizeof err) < 0);
    CHECK(dj_snapshot_read(map, "phase S1901M\nowner France par extra\n", pos,
                           err, sizeof err) < 0);
    free(pos);

    dj_phase ph;
    CHECK(dj_phase_parse_short("F1907R", &ph) == 0 && ph.season == DJ_FALL &&
          ph.year == 1907 && ph.type == DJ_RETREAT);
    CHECK(dj_phase_parse_short("w1901a", &ph) == 0 &&
          ph.season == DJ_WINTER && ph.type == DJ_ADJUSTMENT);
    CHECK(dj_phase_parse_short("X1901M", &ph) < 0);
    CHECK(dj_phase_parse_short("S1901Q", &ph) < 0);
    CHECK(dj_phase_parse_short("S1901MM", &ph) < 0);
    CHECK(dj_phase_parse_short("S", &ph) < 0);
}

/* ---- configuration ----------------------------------------------------------- */

static const char *write_file(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

static void test_config(void)
{
    dj_config c;
    char err[512];
    dj_config_defaults(&c);
    CHECK_STR(c.database, "dipjudge.db");
    CHECK_STR(c.judge_name, "dipjudge");
    CHECK(c.game.move_delay == 72 * 60 && c.game.grace == 24 * 60);
    CHECK(c.game.early && c.game.early_delay == -1);

    const char *good = write_file(
        "good.conf",
        "# every setting\n"
        "database = \"/var/lib/dipjudge/judge.db\";\n"
        "maps_dir = \"/usr/share/dipjudge/maps\";\n"
        "judge_name = \"USIN\";\n"
        "judge_address = \"judge@example.org\";\n"
        "zone = \"Europe/Paris\";\n"
        "games: {\n"
        "  map = \"standard\"; movement_delay = \"48h\";\n"
        "  retreat_delay = \"12h\"; adjustment_delay = \"1d\";\n"
        "  time_of_day = \"20:00\"; days = \"-MTWTF-\"; grace = \"6h\";\n"
        "  absence_limit = 7; nmr = \"wait\"; early = false;\n"
        "  early_delay = \"2h\"; press = \"grey\"; assignment = \"random\";\n"
        "};\n");
    CHECK(dj_config_load(good, &c, err, sizeof err) == 0);
    CHECK_STR(c.judge_name, "USIN");
    CHECK_STR(c.database, "/var/lib/dipjudge/judge.db");
    CHECK_STR(c.zone, "Europe/Paris");
    CHECK(c.game.move_delay == 48 * 60 && c.game.retreat_delay == 12 * 60);
    CHECK(c.game.adjust_delay == 24 * 60 && c.game.time_of_day == 20 * 60);
    CHECK(c.game.days == 0x3e && c.game.grace == 360);
    CHECK(c.game.absence_limit == 7 && !c.game.early);
    CHECK(c.game.early_delay == 120);
    CHECK_STR(c.game.nmr, "wait");
    CHECK_STR(c.game.press, "grey");
    CHECK_STR(c.game.assignment, "random");

    const char *bad = write_file("bad.conf", "judge_name = \"x\";\n"
                                             "colour = \"red\";\n");
    CHECK(dj_config_load(bad, &c, err, sizeof err) < 0);
    CHECK(strstr(err, "bad.conf:2: unknown setting 'colour'") != NULL);
    CHECK_STR(c.judge_name, "dipjudge"); /* defaults kept */
    bad = write_file("bad2.conf", "games: { grace = \"soon\"; };\n");
    CHECK(dj_config_load(bad, &c, err, sizeof err) < 0);
    CHECK(strstr(err, "bad2.conf:1:") != NULL);
    bad = write_file("bad3.conf", "games: { nmr = \"never\"; };\n");
    CHECK(dj_config_load(bad, &c, err, sizeof err) < 0);
    bad = write_file("bad4.conf", "zone = \"Mars/Olympus\";\n");
    CHECK(dj_config_load(bad, &c, err, sizeof err) < 0);
    bad = write_file("bad5.conf", "judge_name = ;\n");
    CHECK(dj_config_load(bad, &c, err, sizeof err) < 0);
    CHECK(strstr(err, "bad5.conf:1:") != NULL);
    CHECK(dj_config_load("/nonexistent/judge.conf", &c, err, sizeof err) < 0);
    CHECK(strstr(err, "cannot read") != NULL);

    CHECK_STR(dj_config_find("x.conf", NULL), "x.conf");
    setenv("DIPJUDGE_CONF", "env.conf", 1);
    CHECK_STR(dj_config_find(NULL, NULL), "env.conf");
    unsetenv("DIPJUDGE_CONF");
    CHECK(dj_config_find(NULL, "/nonexistent/judge.conf") == NULL);
    CHECK_STR(dj_config_find(NULL, good), good);
}

static void test_password(void)
{
    char hash[160];
    CHECK(dj_password_hash("correct horse", hash, sizeof hash) == 0);
    CHECK(hash[0] == '$');
    CHECK(strstr(hash, "correct") == NULL);
    CHECK(dj_password_check("correct horse", hash));
    CHECK(!dj_password_check("correct horse!", hash));
    CHECK(!dj_password_check("", ""));
    char other[160];
    dj_password_hash("correct horse", other, sizeof other);
    CHECK(strcmp(hash, other) != 0); /* salted */
}

/* Generated passwords and codes: from the system's random bytes, in the
 * alphabet that reads off a mail (util/random.h). */
static void test_password_generate(void)
{
    char a[DJ_PASSWORD_GENERATED + 1], b[DJ_PASSWORD_GENERATED + 1];
    CHECK(dj_password_generate(a, sizeof a) == 0);
    CHECK(dj_password_generate(b, sizeof b) == 0);
    CHECK(strlen(a) == DJ_PASSWORD_GENERATED);
    CHECK(strspn(a, "abcdefghijkmnpqrstuvwxyz23456789") == strlen(a));
    CHECK(strcmp(a, b) != 0);
    CHECK(dj_password_generate(a, DJ_PASSWORD_GENERATED) == -1); /* no room */
}

/* The one shape of the judge's subjects. */
static void test_mail_subject(void)
{
    static const struct {
        const char *judge, *game, *phase, *what, *want;
    } cases[] = {
        {"dipjudge", "alpha", "S1901M", "Results",
         "dipjudge:alpha - S1901M Results"},
        {"dipjudge", "alpha", "-", "Started", "dipjudge:alpha - Started"},
        {"dipjudge", "alpha", "", "Reply", "dipjudge:alpha - Reply"},
        {"judge", NULL, NULL, "Message refused", "judge - Message refused"},
        {"judge", "", "S1901M", "Reply", "judge - S1901M Reply"},
        {NULL, NULL, NULL, "Undeliverable mail",
         "dipjudge - Undeliverable mail"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dj_buf b;
        dj_buf_init(&b);
        dj_game_mail_subject(&b, cases[i].judge, cases[i].game,
                             cases[i].phase, cases[i].what);
        CHECK_STR(b.data, cases[i].want);
        dj_buf_free(&b);
    }
}

/* ---- a game through the API ---------------------------------------------------- */

static const char *const POWERS[] = {"Austria", "England", "France",
                                     "Germany", "Italy",   "Russia",
                                     "Turkey"};

static bool contains(const dj_buf *b, const char *text)
{
    return strstr(b->data, text) != NULL;
}

static void test_game(void)
{
    dj_config cfg;
    dj_config_defaults(&cfg);
    snprintf(cfg.database, sizeof cfg.database, "%s/judge.db", dir);
    char maps[512], err[512];
    snprintf(maps, sizeof maps, "%s/maps", srcdir);
    dj_judge *j = dj_judge_open(&cfg, maps, err, sizeof err);
    CHECK(j != NULL);
    if (!j) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    int64_t now = 1800000000;
    dj_judge_set_now(j, now);
    dj_buf out;
    dj_buf_init(&out);
    const char *settings[] = {"grace=0m", "movement_delay=1d"};
    CHECK(dj_game_create(j, "api", NULL, "gm@x", settings, 2, &out) == 0);
    CHECK(dj_game_create(j, "API", NULL, NULL, NULL, 0, &out) < 0);
    CHECK_STR(dj_judge_error(j), "game 'api' already exists");
    for (int p = 0; p < 7; p++) {
        char email[64];
        snprintf(email, sizeof email, "%s@x", POWERS[p]);
        dj_join_request req = {email, NULL, POWERS[p], "pw", NULL, NULL};
        CHECK(dj_game_join(j, "api", &req, &out) == 0);
    }
    CHECK(contains(&out, "api: started; S1901M deadline Sat 16 Jan 2027"));

    /* Nothing due yet. */
    int processed = -1;
    dj_buf_reset(&out);
    CHECK(dj_judge_tick(j, &out, &processed) == 0 && processed == 0);

    CHECK(dj_game_set_orders(j, "api", "France", "A par-bur\nA mar-spa\n"
                             "F bre-mao\n", "test", false, &out) == 0);
    CHECK(dj_game_set_orders(j, "api", "Germany", "A mun-bur\n", "test",
                             false, &out) == 0);
    CHECK(dj_game_set_orders(j, "api", "Narnia", "A x-y\n", "test", false,
                             &out) < 0);
    CHECK_STR(dj_judge_error(j), "no power 'Narnia' on map 'standard'");
    dj_buf_reset(&out);
    CHECK(dj_game_get_orders(j, "api", "france", &out) == 0);
    CHECK_STR(out.data, "A PAR - BUR\nA MAR - SPA\nF BRE - MAO\n");

    /* At the deadline (grace 0): processed once, silent powers in CD. */
    dj_judge_set_now(j, now + 86400);
    dj_buf_reset(&out);
    CHECK(dj_judge_tick(j, &out, &processed) == 0 && processed == 1);
    CHECK(contains(&out, "api: S1901M processed; next F1901M"));
    CHECK(dj_judge_tick(j, &out, &processed) == 0 && processed == 0);
    dj_buf_reset(&out);
    CHECK(dj_game_history(j, "api", "S1901M", NULL, &out) == 0);
    CHECK(contains(&out, ":: Judge: dipjudge  Game: api  Variant: standard"));
    CHECK(contains(&out, "Army Paris -> Burgundy.  (*bounce*)"));
    dj_buf_reset(&out);
    CHECK(dj_game_show(j, "api", &out) == 0);
    CHECK(contains(&out, "Phase: F1901M (Fall 1901 Movement)"));
    CHECK(contains(&out, "civil-disorder"));

    /* The store refuses a second result for the processed phase. */
    dj_store *s = dj_judge_store(j);
    dj_phase_rec *list;
    int n;
    CHECK(dj_store_phase_list(s, 1, &list, &n) == 0 && n == 2);
    dj_result_rec again = {n ? list[0].id : 0, now, (char *)"x", (char *)"",
                           (char *)""};
    CHECK(dj_store_result_insert(s, &again) < 0);
    dj_phase_recs_free(list, n);

    /* A master's process, then rollback and rollforward. */
    CHECK(dj_game_process(j, "api", &out) == 0);
    dj_buf_reset(&out);
    CHECK(dj_game_rollback(j, "api", NULL, &out) == 0);
    CHECK(contains(&out, "rolled back to F1901M"));
    CHECK(dj_game_rollforward(j, "api", &out) == 0);
    CHECK(dj_game_rollforward(j, "api", &out) < 0);
    CHECK(dj_game_rollback(j, "api", "S1901M", &out) == 0);
    dj_buf_reset(&out);
    CHECK(dj_game_get_orders(j, "api", "France", &out) == 0);
    CHECK_STR(out.data, "A PAR - BUR\nA MAR - SPA\nF BRE - MAO\n");

    /* Votes end the game. */
    for (int p = 0; p < 7; p++)
        CHECK(dj_game_vote(j, "api", POWERS[p], "draw", &out) == 0);
    CHECK(contains(&out, "Draw declared by Austria, England, France, Germany, "
                         "Italy, Russia and Turkey."));
    CHECK(dj_game_process(j, "api", &out) < 0);
    CHECK_STR(dj_judge_error(j), "game 'api' is finished");
    dj_buf_reset(&out);
    CHECK(dj_game_export(j, "api", &out) == 0);
    CHECK(contains(&out, "\"state\": \"finished\""));
    CHECK(contains(&out, "\"status\": \"undone\""));
    CHECK(!contains(&out, "password"));

    dj_buf_free(&out);
    dj_judge_close(j);
}

int main(int argc, char **argv)
{
    srcdir = test_srcdir(argc, argv);
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/test_game.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/maps/standard.map", srcdir);
    map = dj_map_load(path, err, sizeof err);
    if (!map) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    test_snapshot();
    test_config();
    test_password();
    test_password_generate();
    test_mail_subject();
    test_game();
    dj_map_free(map);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return test_summary();
}
