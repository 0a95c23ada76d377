/* SPDX-License-Identifier: MIT */
/*
 * test_report.c — the reports players receive, against golden files.
 *
 * One scripted little game on the standard map is adjudicated phase by
 * phase with the real engine, each phase following from the last:
 *   Spring 1901 movement  a convoy, a bounce, a cut support, dislodged units
 *                         (one with retreats, one destroyed), a disrupted
 *                         convoy, void and illegal orders, a unit with no
 *                         order, an order for another power's unit;
 *   Spring 1901 retreats  a retreat, an illegal one, a unit left unordered;
 *   Fall 1901 movement    captures (London by a retreated French fleet,
 *                         Trieste, Sevastopol, Rumania), centre table;
 *   Winter 1901           builds, an illegal and a surplus build, an
 *                         ordered removal, a civil-disorder removal, an
 *                         unused build;
 * then a victory, positions and the supply-centre summary.  Each rendered
 * text is compared with tests/golden/NAME.txt; DJ_UPDATE_GOLDEN=1 rewrites
 * the files instead (inspect the diff before committing them).
 */
#define _POSIX_C_SOURCE 200809L  /* strdup */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/adjudicate.h"
#include "game/report.h"
#include "reader/notation.h"
#include "testlib.h"

typedef struct fixture {
    const dj_map *map;
    const char *srcdir;
    bool update;
    dj_result *res;
} fixture;

static int power(const fixture *f, const char *name)
{
    return dj_map_find_power(f->map, name);
}

static void put(const fixture *f, dj_position *pos, const char *pw,
                dj_unit_type t, const char *at)
{
    dj_unit *u = &pos->units[pos->nunits++];
    u->power = (int16_t)power(f, pw);
    u->type = t;
    u->loc = (int16_t)dj_map_find_location(f->map, at);
    CHECK(u->power >= 0 && u->loc >= 0);
}

/* "Power: order" lines to orders; returns the count. */
static int orders_of(const fixture *f, const char *const *lines,
                     dj_phase_type ph, dj_order *out)
{
    int n = 0;
    for (; *lines; lines++) {
        char err[128], pw[32];
        const char *colon = strchr(*lines, ':');
        size_t len = colon ? (size_t)(colon - *lines) : 0;
        if (!colon || len >= sizeof pw) {
            CHECK(0);
            continue;
        }
        memcpy(pw, *lines, len);
        pw[len] = '\0';
        if (dj_notation_parse(f->map, power(f, pw), ph, colon + 1, &out[n],
                              err, sizeof err) != 0) {
            fprintf(stderr, "cannot parse '%s': %s\n", *lines, err);
            CHECK(0);
            continue;
        }
        n++;
    }
    return n;
}

static char *read_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    dj_buf b;
    dj_buf_init(&b);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
        dj_buf_append_n(&b, chunk, n);
    fclose(fp);
    char *copy = strdup(b.data);
    dj_buf_free(&b);
    return copy;
}

/* Say where two texts first differ, line by line. */
static void show_difference(const char *name, const char *got, const char *want)
{
    int line = 1;
    while (*got && *got == *want) {
        line += *got == '\n';
        got++;
        want++;
    }
    while (line > 1 && got[-1] != '\n')
        got--, want--;
    int glen = (int)strcspn(got, "\n"), wlen = (int)strcspn(want, "\n");
    fprintf(stderr, "%s: line %d differs\n  got:  %.*s\n  want: %.*s\n", name,
            line, glen, got, wlen, want);
}

static void golden(const fixture *f, const char *name, const dj_buf *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/golden/%s.txt", f->srcdir, name);
    CHECK(dj_buf_ok(text));
    if (f->update) {
        FILE *fp = fopen(path, "wb");
        CHECK(fp != NULL);
        if (fp) {
            fputs(text->data, fp);
            fclose(fp);
            fprintf(stderr, "updated %s\n", path);
        }
        return;
    }
    char *want = read_file(path);
    if (!want) {
        fprintf(stderr, "%s: missing (run with DJ_UPDATE_GOLDEN=1)\n", path);
        CHECK(0);
        return;
    }
    bool same = strcmp(text->data, want) == 0;
    if (!same)
        show_difference(name, text->data, want);
    CHECK(same);
    free(want);
}

/* Adjudicate `pos` with the lines, render the report, compare it. */
static void play(fixture *f, const dj_position *pos, const char *const *lines,
                 const dj_report_info *info, const char *name)
{
    dj_order *orders = calloc(DJ_MAX_ORDERS, sizeof *orders);
    dj_rules rules;
    dj_rules_default(&rules);
    int n = orders_of(f, lines, pos->phase.type, orders);
    CHECK(dj_adjudicate(f->map, pos, orders, n, &rules, f->res) == 0);
    dj_buf out;
    dj_buf_init(&out);
    CHECK(dj_report_results(f->map, pos, orders, n, f->res, info, &out) == 0);
    golden(f, name, &out);
    dj_buf_free(&out);
    free(orders);
}

static const dj_report_info INFO = {"dipjudge", "alpha", NULL,
                                    "Sat 09 Jan 2027 20:00 CET", false, NULL};

static void spring_position(const fixture *f, dj_position *pos)
{
    dj_phase ph = {DJ_SPRING, 1901, DJ_MOVEMENT};
    dj_position_empty(f->map, ph, pos);
    static const struct { const char *pw; dj_unit_type t; const char *at; } U[] = {
        {"Austria", DJ_ARMY, "ser"},  {"Austria", DJ_ARMY, "bud"},
        {"Austria", DJ_ARMY, "vie"},  {"Austria", DJ_FLEET, "alb"},
        {"England", DJ_FLEET, "nth"}, {"England", DJ_ARMY, "lon"},
        {"England", DJ_FLEET, "wal"}, {"England", DJ_FLEET, "iri"},
        {"France", DJ_ARMY, "bur"},   {"France", DJ_ARMY, "par"},
        {"France", DJ_FLEET, "eng"},  {"France", DJ_ARMY, "bre"},
        {"Germany", DJ_ARMY, "ruh"},  {"Germany", DJ_ARMY, "kie"},
        {"Italy", DJ_FLEET, "nap"},   {"Italy", DJ_ARMY, "rom"},
        {"Italy", DJ_ARMY, "ven"},    {"Italy", DJ_ARMY, "apu"},
        {"Russia", DJ_FLEET, "sev"},  {"Russia", DJ_ARMY, "ukr"},
        {"Russia", DJ_ARMY, "war"},   {"Russia", DJ_ARMY, "mos"},
        {"Turkey", DJ_ARMY, "bul"},   {"Turkey", DJ_ARMY, "gre"},
        {"Turkey", DJ_ARMY, "arm"},   {"Turkey", DJ_FLEET, "bla"},
    };
    for (size_t i = 0; i < sizeof U / sizeof U[0]; i++)
        put(f, pos, U[i].pw, U[i].t, U[i].at);
}

static void test_game(fixture *f)
{
    dj_position *pos = malloc(sizeof *pos);
    spring_position(f, pos);

    dj_buf text;
    dj_buf_init(&text);
    dj_report_position(f->map, pos, &text);
    golden(f, "position-s1901", &text);
    dj_buf_free(&text);

    static const char *const spring[] = {
        "Austria: A ser H", "Austria: A bud-rum", "Austria: A vie-gal",
        "Austria: F alb-adr",
        "England: F nth C A lon-bel", "England: A lon-bel",
        "England: F wal-eng", "England: F iri S F wal-eng",
        "France: A bur S A par-pic", "France: A par-pic",
        "France: F eng C A bre-lon", "France: A bre-lon",
        "Germany: A ruh-bur", "Germany: A par H",
        "Italy: F nap S A rom-apu", "Italy: A rom H", "Italy: A ven-mun",
        "Italy: A apu-tun",
        "Russia: F sev H", "Russia: A ukr-rum", "Russia: A war-gal",
        "Russia: A mos H",
        "Turkey: A bul-ser", "Turkey: A gre S A bul-ser", "Turkey: A arm-sev",
        "Turkey: F bla S A arm-sev", NULL};
    play(f, pos, spring, &INFO, "s1901m");
    CHECK(f->res->next.phase.type == DJ_RETREAT);
    CHECK(f->res->next.ndislodged == 2);
    *pos = f->res->next;

    dj_buf_init(&text);
    dj_report_position(f->map, pos, &text);
    golden(f, "position-s1901r", &text);
    dj_buf_free(&text);

    static const char *const retreats[] = {
        "Austria: A ser-bud", "France: F eng-lon", "Turkey: A gre-alb", NULL};
    play(f, pos, retreats, &INFO, "s1901r");
    CHECK(f->res->next.phase.season == DJ_FALL);
    *pos = f->res->next;

    static const char *const fall[] = {
        "Turkey: A ser-tri", "Turkey: A gre H", "Turkey: A sev H",
        "Russia: A ukr-rum", "England: A bel H", "France: A pic-bel",
        "France: F lon H", "Austria: A bud H", NULL};
    play(f, pos, fall, &INFO, "f1901m");
    CHECK(f->res->next.phase.type == DJ_ADJUSTMENT);
    *pos = f->res->next;
    int16_t after1901[DJ_MAX_LOCS];
    memcpy(after1901, pos->owner, sizeof after1901);

    static const char *const winter[] = {
        "Turkey: Build A con", "Turkey: Build F ank", "Turkey: Build A smy",
        "Turkey: Build A ser", "Germany: Build F kie", "Germany: Build A ber",
        "England: Remove F iri", "Italy: Remove A apu", "France: Build A par",
        NULL};
    dj_report_info next_year = INFO;
    next_year.deadline = "Mon 11 Jan 2027 20:00 CET";
    play(f, pos, winter, &next_year, "w1901a");
    CHECK(f->res->next.phase.season == DJ_SPRING && f->res->next.phase.year == 1902);
    *pos = f->res->next;

    dj_buf_init(&text);
    dj_report_position(f->map, pos, &text);
    golden(f, "position-s1902", &text);
    dj_buf_free(&text);

    dj_position *initial = malloc(sizeof *initial);
    dj_position_initial(f->map, initial);
    dj_summary_year years[3] = {{1900, initial->owner}, {1901, after1901},
                                {1902, pos->owner}};
    dj_buf_init(&text);
    dj_report_summary(f->map, years, 3, &text);
    golden(f, "summary", &text);
    dj_buf_free(&text);
    free(initial);
    free(pos);
}

static void test_victory(fixture *f)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_phase ph = {DJ_FALL, 1910, DJ_MOVEMENT};
    dj_position_empty(f->map, ph, pos);
    int fr = power(f, "France"), n = 0;
    int mun = dj_map_find_location(f->map, "mun");
    for (int l = 0; l < f->map->nlocs; l++)
        if (f->map->is_sc[l] && l != mun && n < 17) {
            pos->owner[l] = (int16_t)fr;
            n++;
        }
    put(f, pos, "France", DJ_ARMY, "bur");
    put(f, pos, "France", DJ_ARMY, "ruh");
    put(f, pos, "Germany", DJ_ARMY, "kie");
    static const char *const lines[] = {"France: A bur-mun",
                                        "France: A ruh S A bur-mun",
                                        "Germany: A kie-mun", NULL};
    play(f, pos, lines, &INFO, "victory");
    CHECK(f->res->winner == fr);
    free(pos);
}

/* Things golden files would not show clearly, checked one by one. */
static void test_pieces(fixture *f)
{
    const dj_map *m = f->map;
    dj_buf b;
    dj_buf_init(&b);
    dj_order o = dj_order_make(DJ_ORDER_SUPPORT, power(f, "France"), DJ_ARMY,
                               dj_map_find_location(m, "bur"));
    o.target = (int16_t)dj_map_find_location(m, "par");
    o.target_type = DJ_ARMY;
    o.dest = (int16_t)dj_map_find_location(m, "pic");
    dj_report_order(m, &o, &b);
    CHECK_STR(b.data, "Army Burgundy SUPPORT Army Paris -> Picardy");
    dj_buf_reset(&b);
    o = dj_order_make(DJ_ORDER_BUILD, 0, DJ_FLEET, dj_map_find_location(m, "stp/sc"));
    dj_report_order(m, &o, &b);
    CHECK_STR(b.data, "Build Fleet St. Petersburg (south coast)");
    dj_buf_reset(&b);
    o = dj_order_make(DJ_ORDER_MOVE, 0, DJ_ARMY, dj_map_find_location(m, "lon"));
    o.dest = (int16_t)dj_map_find_location(m, "bel");
    o.via_convoy = true;
    dj_report_order(m, &o, &b);
    CHECK_STR(b.data, "Army London -> Belgium VIA CONVOY");
    dj_buf_reset(&b);
    o.npath = 1;
    o.path[0] = (int16_t)dj_map_find_location(m, "nth");
    dj_report_order(m, &o, &b);
    CHECK_STR(b.data, "Army London -> North Sea -> Belgium");
    dj_buf_reset(&b);
    o = dj_order_make(DJ_ORDER_HOLD, 0, DJ_NO_UNIT, dj_map_find_location(m, "vie"));
    dj_report_order(m, &o, &b);
    CHECK_STR(b.data, "Vienna HOLD");
    dj_buf_reset(&b);
    o = dj_order_make(DJ_ORDER_WAIVE, 0, DJ_NO_UNIT, -1);
    dj_report_order(m, &o, &b);
    CHECK_STR(b.data, "Waive");
    dj_buf_reset(&b);

    /* Header lines: running, no deadline yet, over; variant defaults. */
    dj_phase next = {DJ_FALL, 1901, DJ_MOVEMENT};
    dj_report_info info = {"dipjudge", "alpha", "standard", "Sat 09 Jan 2027 20:00 CET",
                           false, NULL};
    dj_report_header(m, &next, &info, &b);
    CHECK_STR(b.data, ":: Judge: dipjudge  Game: alpha  Variant: standard\n"
                      ":: Deadline: F1901M Sat 09 Jan 2027 20:00 CET\n");
    dj_buf_reset(&b);
    info.deadline = NULL;
    info.variant = NULL;
    dj_report_header(m, &next, &info, &b);
    CHECK_STR(b.data, ":: Judge: dipjudge  Game: alpha  Variant: standard\n"
                      ":: Deadline: F1901M\n");
    dj_buf_reset(&b);
    info.game_over = true;
    dj_report_header(m, &next, &info, &b);
    CHECK_STR(b.data, ":: Judge: dipjudge  Game: alpha  Variant: standard\n"
                      ":: Game over\n");
    dj_buf_reset(&b);

    /* A game ended by a draw: no deadline, the ending told. */
    dj_position *pos = malloc(sizeof *pos);
    dj_position_initial(m, pos);
    dj_rules rules;
    dj_rules_default(&rules);
    CHECK(dj_adjudicate(m, pos, NULL, 0, &rules, f->res) == 0);
    info.ending = "Draw declared by Austria, England, France, Germany, Italy, "
                  "Russia and Turkey.";
    CHECK(dj_report_results(m, pos, NULL, 0, f->res, &info, &b) == 0);
    CHECK(strstr(b.data, ":: Game over\n") != NULL);
    CHECK(strstr(b.data, "Draw declared by Austria") != NULL);
    CHECK(strstr(b.data, "The game 'alpha' is over.\n") != NULL);
    CHECK(strstr(b.data, "next phase") == NULL);
    /* Every unit held without an order. */
    CHECK(strstr(b.data, "Austria: Army Budapest HOLD.  (*no order*)\n") != NULL);
    CHECK(strstr(b.data, "Turkey:  Fleet Ankara HOLD.  (*no order*)\n") != NULL);
    dj_buf_reset(&b);
    /* No info at all still renders. */
    CHECK(dj_report_results(m, pos, NULL, 0, f->res, NULL, &b) == 0);
    CHECK(strncmp(b.data, ":: Judge:   Game:   Variant: standard\n", 38) == 0);
    dj_buf_reset(&b);

    /* Positions: a power in civil disorder, one eliminated. */
    dj_position_initial(m, pos);
    int italy = power(f, "Italy");
    int kept = 0;
    for (int i = 0; i < pos->nunits; i++)
        if (pos->units[i].power != italy)
            pos->units[kept++] = pos->units[i];
    pos->nunits = kept;
    for (int l = 0; l < m->nlocs; l++)
        if (pos->owner[l] == italy)
            pos->owner[l] = -1;
    pos->civil_disorder = DJ_POWER_BIT(power(f, "Russia"));
    dj_report_position(m, pos, &b);
    CHECK(strstr(b.data, "Status of the Movement phase for Spring of 1901.\n") != NULL);
    CHECK(strstr(b.data, "\nItaly:   eliminated.\n") != NULL);
    CHECK(strstr(b.data, "\nRussia:  4 supply centers, 4 units, in civil disorder.\n") != NULL);
    CHECK(strstr(b.data, "         Fleet St. Petersburg (south coast).\n") != NULL);
    CHECK(strstr(b.data, "Unowned: Belgium, Bulgaria, Denmark, Greece, Holland, Naples, Norway,\n"
                         "         Portugal, Rome, Rumania, Serbia, Spain, Sweden, Tunis, Venice.\n") != NULL);
    dj_buf_reset(&b);

    /* Two retreats to one place: both bounce and both units go. */
    dj_phase rph = {DJ_SPRING, 1902, DJ_RETREAT};
    dj_position_empty(m, rph, pos);
    pos->ndislodged = 2;
    const char *from[2] = {"ser", "bul"};
    const char *pw[2] = {"Austria", "Turkey"};
    for (int i = 0; i < 2; i++) {
        dj_dislodged *d = &pos->dislodged[i];
        memset(d, 0, sizeof *d);
        d->unit = (dj_unit){(int16_t)power(f, pw[i]),
                            (int16_t)dj_map_find_location(m, from[i]), DJ_ARMY};
        d->attacker_from = -1;
        d->nretreats = 1;
        d->retreats[0] = (int16_t)dj_map_find_location(m, "rum");
    }
    dj_order ro[2];
    char err[100];
    CHECK(dj_notation_parse(m, power(f, "Austria"), DJ_RETREAT, "A ser-rum", &ro[0],
                            err, sizeof err) == 0);
    CHECK(dj_notation_parse(m, power(f, "Turkey"), DJ_RETREAT, "A bul-rum", &ro[1],
                            err, sizeof err) == 0);
    CHECK(dj_adjudicate(m, pos, ro, 2, &rules, f->res) == 0);
    info.game_over = false;
    info.ending = NULL;
    info.deadline = "Sat 09 Jan 2027 20:00 CET";
    CHECK(dj_report_results(m, pos, ro, 2, f->res, &info, &b) == 0);
    CHECK(strstr(b.data, ":: Deadline: F1902M Sat 09 Jan 2027 20:00 CET\n") != NULL);
    CHECK(strstr(b.data, "Retreat results for Spring of 1902.\n") != NULL);
    CHECK(strstr(b.data, "Austria: Army Serbia -> Rumania.  (*bounce*)\n"
                         "Austria: Army Serbia DISBAND.  (*disbanded*: its retreat failed)\n") != NULL);
    CHECK(strstr(b.data, "Turkey:  Army Bulgaria -> Rumania.  (*bounce*)\n") != NULL);
    CHECK(strstr(b.data, "The next phase of 'alpha' will be Movement for Fall of 1902.\n") != NULL);
    dj_buf_free(&b);
    free(pos);
}

int main(int argc, char **argv)
{
    const char *srcdir = test_srcdir(argc, argv);
    fixture f = {NULL, srcdir ? srcdir : ".", false, NULL};
    const char *upd = getenv("DJ_UPDATE_GOLDEN");
    f.update = upd && strcmp(upd, "1") == 0;
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/maps/standard.map", f.srcdir);
    dj_map *m = dj_map_load(path, err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    f.map = m;
    /* Zeroed: the engine's movement phase leaves next.civil_disorder
       unset (reported), which would make position reports differ. */
    f.res = calloc(1, sizeof *f.res);
    test_game(&f);
    test_victory(&f);
    test_pieces(&f);
    free(f.res);
    dj_map_free(m);
    return test_summary();
}
