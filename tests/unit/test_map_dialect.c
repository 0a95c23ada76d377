/* SPDX-License-Identifier: MIT */
/*
 * test_map_dialect.c — every keyword of DPjudge's map dialect, as the map
 * loader reads, passes over or refuses it.
 *
 * DPjudge's variants are map files; a map must load whole or not at all,
 * so each keyword is either read (its effect checked here), passed over
 * because it only steers DPjudge's web pages (FLAG, FLAGS, TEXTONLY,
 * NOTIFY), or refused with the reason (checked here, one by one: a map
 * that needs a phase flow, a changing board or teams must say so, not
 * half-load).  Small boards are written here or under tests/maps/dialect/.
 */
#include "engine/adjudicate.h"
#include "engine/adjustment.h"
#include "engine/map.h"
#include "engine/position.h"
#include "engine/rules_map.h"
#include "reader/notation.h"
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

static char srcdir_path[512];

/* Two powers on three provinces and a sea. */
static const char board[] =
    "Alpha = aaa\n"
    "Beta = bbb\n"
    "Gamma = ggg\n"
    "Delta Sea = ddd\n"
    "COAST AAA ABUTS BBB GGG DDD\n"
    "COAST BBB ABUTS AAA GGG DDD\n"
    "LAND GGG ABUTS AAA BBB\n"
    "WATER DDD ABUTS AAA BBB\n";

/* The board, the given politics, parsed; NULL with err filled on error. */
static dj_map *parse_with(const char *politics, char *err, size_t errlen)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s", board, politics);
    return dj_map_parse(text, "dialect.map", err, errlen);
}

static void expect_refused(const char *politics, const char *what)
{
    char err[512] = "";
    dj_map *m = parse_with(politics, err, sizeof err);
    bool ok = m == NULL && strstr(err, "dialect.map:") && strstr(err, what);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  \"%s\": error was \"%s\", wanted \"%s\"\n",
                politics, err, what);
    dj_map_free(m);
}

static dj_map *expect_loaded(const char *politics)
{
    char err[512] = "";
    dj_map *m = parse_with(politics, err, sizeof err);
    CHECK(m != NULL);
    if (!m)
        fprintf(stderr, "  \"%s\": %s\n", politics, err);
    return m;
}

static int power(const dj_map *m, const char *name)
{
    return dj_map_find_power(m, name);
}

static int prov(const dj_map *m, const char *name)
{
    return dj_map_find_location(m, name);
}

/* "RED (REDDISH:7) AAA": the power's letter; taken letters refused. */
static void test_power_letters(void)
{
    dj_map *m = expect_loaded("RED (REDDISH:7) AAA\nBLUE (BLUISH:r) BBB\n");
    if (m) {
        CHECK(m->powers[0].letter == '7' && m->powers[1].letter == 'R');
        CHECK_STR(m->powers[0].adjective, "Reddish");
        dj_map_free(m);
    }
    expect_refused("RED (REDDISH:R) AAA\nBLUE (BLUISH:R) BBB\n",
                   "letter R is already Red's");
    expect_refused("RED (REDDISH:RR) AAA\n", "must be one letter or digit");
}

/* Names in DPjudge's title case: '+' a space, a word begun after a space
 * or a hyphen (Renaissance's POLAND-LITHUANIA, HOLY+ROMAN+EMPIRE). */
static void test_power_title_case(void)
{
    dj_map *m = expect_loaded("POLAND-LITHUANIA (POLISH:P) AAA\n"
                              "HOLY+ROMAN+EMPIRE (IMPERIAL:H) BBB\n");
    if (m) {
        CHECK_STR(m->powers[0].name, "Poland-Lithuania");
        CHECK_STR(m->powers[1].name, "Holy Roman Empire");
        CHECK_STR(m->powers[1].adjective, "Imperial");
        dj_map_free(m);
    }
}

/* BEGIN: the phase a new game starts in, and its position. */
static void test_begin(void)
{
    dj_map *m = expect_loaded("RED (REDDISH) AAA\nBEGIN WINTER 1900 "
                              "ADJUSTMENTS\n");
    if (m) {
        CHECK(m->start_year == 1900 && m->start_season == DJ_WINTER &&
              m->start_type == DJ_ADJUSTMENT);
        static dj_position pos;
        dj_position_initial(m, &pos);
        CHECK(pos.phase.season == DJ_WINTER && pos.phase.year == 1900 &&
              pos.phase.type == DJ_ADJUSTMENT && pos.nunits == 0);
        CHECK(pos.owner[prov(m, "aaa")] == 0);
        dj_map_free(m);
    }
    m = expect_loaded("RED (REDDISH) AAA\nBEGIN fall 1455 movement\n");
    if (m) {
        CHECK(m->start_year == 1455 && m->start_season == DJ_FALL);
        dj_map_free(m);
    }
    expect_refused("RED (REDDISH) AAA\nBEGIN SPRING 1901 RETREATS\n",
                   "BEGIN needs a season, a year and a phase");
    expect_refused("RED (REDDISH) AAA\nBEGIN A.D. 1425 MOVEMENT\n",
                   "BEGIN: unknown season 'A.D.' (no FLOW line names it)");
}

/* PORT: a coast where fleets convoy (Baleares); a Title-case neighbour
 * ("Ppp") is for fleets only, a lower-case one for armies only. */
static void test_port(void)
{
    char err[512] = "";
    static const char text[] =
        "Alpha = aaa\nBeta = bbb\nPort = ppp\nDelta Sea = ddd\n"
        "COAST AAA ABUTS DDD Ppp bbb\n"
        "COAST BBB ABUTS DDD Ppp aaa\n"
        "PORT PPP ABUTS DDD Aaa Bbb\n"
        "WATER DDD ABUTS AAA BBB PPP\n"
        "RED (REDDISH) AAA\n";
    dj_map *m = dj_map_parse(text, "port.map", err, sizeof err);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "  port.map: %s\n", err);
        return;
    }
    int a = prov(m, "aaa"), b = prov(m, "bbb"), pp = prov(m, "ppp"),
        d = prov(m, "ddd");
    CHECK(m->locs[pp].convoys && m->locs[d].convoys);
    CHECK(!m->locs[a].convoys);
    CHECK(m->locs[pp].terrain == DJ_COAST && m->locs[pp].army_ok &&
          m->locs[pp].fleet_ok);
    CHECK(dj_map_adjacent(m, a, pp, DJ_FLEET));
    CHECK(!dj_map_adjacent(m, a, pp, DJ_ARMY)); /* Title case: fleets only */
    CHECK(!dj_map_adjacent(m, pp, a, DJ_ARMY));
    CHECK(dj_map_adjacent(m, a, b, DJ_ARMY));  /* lower case: armies only */
    CHECK(!dj_map_adjacent(m, a, b, DJ_FLEET));
    CHECK(dj_map_adjacent(m, pp, d, DJ_FLEET));
    dj_map_free(m);
}

/* "*NEI": DPjudge's half-strength border, from this place to NEI only;
 * a lower-case or Title-case word after the sign keeps its meaning. */
static void test_half_border(void)
{
    char err[512] = "";
    static const char text[] =
        "Alpha = aaa\nBeta = bbb\nGamma = ggg\nDelta Sea = ddd\n"
        "Spain = spa\n"
        "COAST AAA ABUTS *BBB GGG *DDD spa\n"
        "COAST BBB ABUTS AAA GGG DDD\n"
        "LAND GGG ABUTS AAA *bbb\n"
        "WATER DDD ABUTS AAA BBB *SPA/NC SPA/SC\n"
        "COAST spa ABUTS *aaa\n"
        "COAST SPA/NC ABUTS DDD\nCOAST SPA/SC ABUTS DDD\n"
        "RED (REDDISH) AAA\n";
    dj_map *m = dj_map_parse(text, "half.map", err, sizeof err);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "  half.map: %s\n", err);
        return;
    }
    int a = prov(m, "aaa"), b = prov(m, "bbb"), g = prov(m, "ggg"),
        d = prov(m, "ddd"), sp = prov(m, "spa"), nc = prov(m, "spa/nc"),
        sc = prov(m, "spa/sc");
    CHECK(m->half_borders);
    /* one way: AAA to BBB is half, BBB to AAA is not */
    CHECK(dj_map_adjacent(m, a, b, DJ_ARMY) && dj_map_adjacent(m, a, b, DJ_FLEET));
    CHECK(dj_map_half_border(m, a, b, DJ_ARMY));
    CHECK(dj_map_half_border(m, a, b, DJ_FLEET));
    CHECK(!dj_map_half_border(m, b, a, DJ_ARMY));
    CHECK(!dj_map_half_border(m, b, a, DJ_FLEET));
    CHECK(!dj_map_half_border(m, a, g, DJ_ARMY));
    CHECK(dj_map_half_border(m, a, d, DJ_FLEET));
    CHECK(dj_map_half_border(m, g, b, DJ_ARMY)); /* "*bbb": armies only */
    CHECK(!dj_map_adjacent(m, g, b, DJ_FLEET));
    CHECK(dj_map_half_border(m, sp, a, DJ_ARMY));
    /* no border, no half border */
    CHECK(!dj_map_half_border(m, g, d, DJ_ARMY));
    /* a province reached across an ordinary border: Spain by its south
     * coast from the Delta Sea, though its north coast's border is half */
    CHECK(dj_map_half_border(m, d, nc, DJ_FLEET));
    CHECK(!dj_map_half_border(m, d, sc, DJ_FLEET));
    CHECK(dj_map_reaches_province_whole(m, d, sp, DJ_FLEET));
    CHECK(!dj_map_reaches_province_whole(m, a, b, DJ_ARMY));
    CHECK(!dj_map_reaches_province_whole(m, a, b, DJ_FLEET));
    CHECK(dj_map_reaches_province(m, a, b, DJ_ARMY));
    CHECK(dj_map_reaches_province_whole(m, b, a, DJ_ARMY));
    CHECK(!dj_map_reaches_province_whole(m, g, b, DJ_ARMY));
    /* the same answers without the table */
    uint8_t *reach = m->reach;
    m->reach = NULL;
    CHECK(dj_map_half_border(m, a, b, DJ_ARMY));
    CHECK(!dj_map_half_border(m, b, a, DJ_FLEET));
    CHECK(dj_map_half_border(m, d, nc, DJ_FLEET));
    CHECK(!dj_map_half_border(m, d, sc, DJ_FLEET));
    CHECK(dj_map_reaches_province_whole(m, d, sp, DJ_FLEET));
    CHECK(!dj_map_reaches_province_whole(m, a, b, DJ_ARMY));
    CHECK(!dj_map_reaches_province_whole(m, a, b, DJ_FLEET));
    CHECK(dj_map_reaches_province_whole(m, b, a, DJ_ARMY));
    m->reach = reach;
    dj_map_free(m);
    /* the board without a *: no half border anywhere */
    m = expect_loaded("RED (REDDISH) AAA\n");
    if (m) {
        CHECK(!m->half_borders);
        CHECK(!dj_map_half_border(m, prov(m, "aaa"), prov(m, "bbb"), DJ_ARMY));
        dj_map_free(m);
    }
    /* the other signs stay refused */
    expect_refused("RED (REDDISH) AAA\nAMEND GGG ABUTS AAA~\n",
                   "DPjudge's strait (~");
    expect_refused("RED (REDDISH) AAA\nAMEND GGG ABUTS *R:AAA\n",
                   "DPjudge's border only one power may cross");
}

/* Retreats across half-strength borders (shared by every engine): of the
 * units retreating to one place, those crossing a `*` are disbanded and
 * the others contest it; two crossers alone are both disbanded. */
static int half_retreat(const dj_map *m, dj_engine e, const char *froms,
                        const char *to, char *moved_from, size_t len)
{
    static dj_position pos;
    dj_phase ph = {DJ_SPRING, 1901, DJ_RETREAT};
    dj_position_empty(m, ph, &pos);
    dj_order orders[4];
    int n = 0;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", froms);
    for (char *w = strtok(buf, ","); w; w = strtok(NULL, ",")) {
        dj_dislodged *d = &pos.dislodged[pos.ndislodged++];
        memset(d, 0, sizeof *d);
        d->unit = (dj_unit){(int16_t)(pos.ndislodged - 1), (int16_t)prov(m, w),
                            DJ_ARMY};
        d->attacker_from = (int16_t)prov(m, "zzz");
        d->nretreats = 1;
        d->retreats[0] = (int16_t)prov(m, to);
        orders[n++] = (dj_order){.kind = DJ_ORDER_RETREAT,
                                 .power = (int16_t)(pos.ndislodged - 1),
                                 .unit_type = DJ_ARMY,
                                 .loc = (int16_t)prov(m, w),
                                 .dest = (int16_t)prov(m, to),
                                 .target = -1};
    }
    static dj_result res;
    dj_rules rules;
    dj_rules_default(&rules);
    CHECK(dj_adjudicate_with(e, m, &pos, orders, n, &rules, &res) == 0);
    moved_from[0] = '\0';
    int at = dj_position_unit_at(m, &res.next, prov(m, to));
    if (at >= 0)
        snprintf(moved_from, len, "%s",
                 m->locs[pos.dislodged[res.next.units[at].power].unit.loc].abbr);
    return res.next.nunits;
}

static void test_half_retreats(void)
{
    char err[512] = "";
    static const char text[] =
        "Ex = xxx\nAy = aaa\nBe = bbb\nCe = ccc\nZed = zzz\n"
        "LAND XXX ABUTS AAA BBB CCC ZZZ\n"
        "LAND AAA ABUTS *XXX ZZZ\nLAND BBB ABUTS *XXX ZZZ\n"
        "LAND CCC ABUTS XXX ZZZ\nLAND ZZZ ABUTS XXX AAA BBB CCC\n"
        "RED (REDDISH) AAA\nBLUE (BLUISH) BBB\nGREEN (GREENISH) CCC\n";
    dj_map *m = dj_map_parse(text, "retreat.map", err, sizeof err);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "  retreat.map: %s\n", err);
        return;
    }
    for (int e = 0; e < DJ_ENGINE_COUNT; e++) {
        char from[DJ_ABBR_MAX];
        /* two crossers alone: both disbanded */
        CHECK(half_retreat(m, (dj_engine)e, "aaa,bbb", "xxx", from,
                           sizeof from) == 0);
        /* a crosser and one that is not: the other goes in */
        CHECK(half_retreat(m, (dj_engine)e, "aaa,ccc", "xxx", from,
                           sizeof from) == 1);
        CHECK_STR(from, "ccc");
        /* the same with two crossers */
        CHECK(half_retreat(m, (dj_engine)e, "aaa,bbb,ccc", "xxx", from,
                          sizeof from) == 1);
        CHECK_STR(from, "ccc");
        /* a crosser alone goes in */
        CHECK(half_retreat(m, (dj_engine)e, "bbb", "xxx", from,
                           sizeof from) == 1);
        CHECK_STR(from, "bbb");
    }
    dj_map_free(m);
}

/* A phase on the port board, played by each engine: where does the army
 * that started in `from` end up?  The orders are Red's, "|"-separated, then
 * Blue's. */
static const char port_board[] =
    "West = www\nEast = eee\nPort = ppp\nSouth Sea = sss\nThird Sea = ttt\n"
    "COAST WWW ABUTS SSS Ppp\n"
    "COAST EEE ABUTS SSS Ppp\n"
    "PORT PPP ABUTS SSS TTT Www Eee\n"
    "WATER SSS ABUTS WWW EEE PPP TTT\n"
    "WATER TTT ABUTS SSS PPP\n"
    "RED (REDDISH) WWW\nBLUE (BLUISH) EEE\n";

static void port_phase(const dj_map *m, int engines, const char *units,
                       const char *red, const char *blue,
                       const char *army_from, const char *army_to,
                       const char *what)
{
    static dj_position pos;
    dj_phase ph = {DJ_SPRING, 1901, DJ_MOVEMENT};
    dj_position_empty(m, ph, &pos);
    char buf[256], err[200];
    snprintf(buf, sizeof buf, "%s", units);
    for (char *u = strtok(buf, ","); u; u = strtok(NULL, ",")) {
        /* "R A www": power letter, type, place */
        dj_unit *x = &pos.units[pos.nunits++];
        x->power = (int16_t)(u[0] == 'R' ? 0 : 1);
        x->type = u[2] == 'A' ? DJ_ARMY : DJ_FLEET;
        x->loc = (int16_t)prov(m, u + 4);
    }
    dj_order orders[8];
    int n = 0;
    const char *lists[2] = {red, blue};
    for (int power = 0; power < 2; power++) {
        snprintf(buf, sizeof buf, "%s", lists[power]);
        for (char *o = strtok(buf, "|"); o; o = strtok(NULL, "|")) {
            int r = dj_notation_parse(m, power, DJ_MOVEMENT, o, &orders[n],
                                      err, sizeof err);
            CHECK(r == 0);
            if (r == 0)
                n++;
            else
                fprintf(stderr, "  %s: '%s': %s\n", what, o, err);
        }
    }
    for (int e = 0; e < engines; e++) {
        static dj_result res;
        dj_rules rules;
        dj_rules_default(&rules);
        CHECK(dj_adjudicate_with((dj_engine)e, m, &pos, orders, n, &rules,
                                 &res) == 0);
        int at = dj_position_unit_at(m, &res.next, prov(m, army_to));
        bool ok = at >= 0 && res.next.units[at].type == DJ_ARMY;
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  %s (%s engine): the army from %s is not in %s\n",
                    what, dj_engine_name((dj_engine)e), army_from, army_to);
    }
}

/* Every engine convoys through a PORT's fleet, and the convoy fails when
 * that fleet is dislodged; the fleet-only border is no road for armies. */
static void test_port_engines(void)
{
    char err[512] = "";
    dj_map *m = dj_map_parse(port_board, "portboard.map", err, sizeof err);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "  portboard.map: %s\n", err);
        return;
    }
    port_phase(m, DJ_ENGINE_COUNT, "R A www,R F ppp",
               "A www-eee via convoy|F ppp C A www-eee", "", "www", "eee",
               "convoyed through the port");
    /* Not Haplomacy: its disputes may settle the army before the fleet is
     * dislodged, in ports as at sea (doc/engine.md, 6.F.6 to 6.F.8). */
    port_phase(m, DJ_ENGINE_HAPLOMACY, "R A www,R F ppp,B F sss,B F ttt",
               "A www-eee via convoy|F ppp C A www-eee",
               "F sss-ppp|F ttt S F sss-ppp", "www", "www",
               "the port's fleet dislodged");
    port_phase(m, DJ_ENGINE_COUNT, "R A www", "A www-ppp", "", "www", "www",
               "an army over a fleet-only border");
    dj_map_free(m);
}

/* FLOW: DPjudge's order of phases, compiled into Spring, Fall, Winter with
 * the years it gives (Hundred's: a turn every 5 years, adjustments in the
 * years divisible by 10). */
static void test_flow(void)
{
    static const char hundred[] =
        "RED (REDDISH) AAA\nRED\nA AAA\nBEGIN A.D. 1425 MOVEMENT\n"
        "FLOW NEWYEAR:5\nFLOW A.D.:MOVEMENT,RETREATS\nFLOW IFYEARDIV:10\n"
        "FLOW A.D.:ADJUSTMENTS\n";
    dj_map *m = expect_loaded(hundred);
    if (m) {
        CHECK(m->start_year == 1425 && m->start_season == DJ_SPRING &&
              m->start_type == DJ_MOVEMENT);
        CHECK(m->years_to_fall == 5 && m->years_to_spring == 5);
        CHECK_STR(dj_map_season_name(m, DJ_SPRING), "A.D.");
        CHECK_STR(dj_map_season_name(m, DJ_WINTER), "A.D.");
        char name[64];
        dj_map_phase_format(m, DJ_FALL, 1430, DJ_MOVEMENT, name, sizeof name);
        CHECK_STR(name, "A.D. 1430 Movement");
        static dj_position pos;
        dj_position_initial(m, &pos);
        dj_phase ph = dj_next_phase(m, &pos);
        CHECK(ph.season == DJ_FALL && ph.year == 1430 &&
              ph.type == DJ_MOVEMENT);
        pos.phase = ph;
        ph = dj_next_phase(m, &pos); /* nothing to adjust: on to 1435 */
        CHECK(ph.season == DJ_SPRING && ph.year == 1435);
        dj_map_free(m);
    }
    /* Beginning with the turn before the adjustments is the Fall. */
    m = expect_loaded("RED (REDDISH) AAA\nBEGIN A.D. 1430 MOVEMENT\n"
                      "FLOW NEWYEAR:5\nFLOW A.D.:MOVEMENT,RETREATS\n"
                      "FLOW IFYEARDIV:10\nFLOW A.D.:ADJUSTMENTS\n");
    if (m) {
        CHECK(m->start_season == DJ_FALL && m->start_year == 1430);
        dj_map_free(m);
    }
    /* The standard year written out, several entries on one line. */
    m = expect_loaded("RED (REDDISH) AAA\nFLOW SPRING:MOVEMENT,RETREATS "
                      "FALL:MOVEMENT,RETREATS WINTER:ADJUSTMENTS\n");
    if (m) {
        CHECK(m->start_year == 1901 && m->start_season == DJ_SPRING &&
              m->years_to_fall == 0 && m->years_to_spring == 1);
        CHECK_STR(dj_map_season_name(m, DJ_FALL), "Fall");
        dj_map_free(m);
    }
    expect_refused("RED (REDDISH) AAA\nFLOW SPRING:MOVEMENT,RETREATS "
                   "SUMMER:MOVEMENT,RETREATS FALL:MOVEMENT,RETREATS "
                   "WINTER:ADJUSTMENTS\n",
                   "only flows of two movement turns then adjustments");
    expect_refused("RED (REDDISH) AAA\nFLOW SPRING:MOVEMENT "
                   "FALL:MOVEMENT,RETREATS WINTER:ADJUSTMENTS\n",
                   "every MOVEMENT must be followed by its RETREATS");
    expect_refused("RED (REDDISH) AAA\nFLOW SPRING:MOVEMENT,RETREATS "
                   "FALL:MOVEMENT,RETREATS\n",
                   "only flows of two movement turns then adjustments");
    expect_refused("RED (REDDISH) AAA\nFLOW SPRING:MOVEMENT,RETREATS "
                   "FALL:MOVEMENT,RETREATS IFYEARDIV:3 WINTER:ADJUSTMENTS\n",
                   "steady year steps");
    /* IFYEARDIV sends the walk back before any NEWYEAR: it circles on
     * retreats for ever (a fuzz finding: the loader hung) */
    expect_refused("RED (REDDISH) AAA\nBEGIN SPRING 1900 MOVEMENT\n"
                   "FLOW E:RETREATS IFYEARDIV:4=1 NEWYEAR:1 "
                   "SPRING:MOVEMENT,RETREATS\n",
                   "the flow never comes back to a phase");
    expect_refused("RED (REDDISH) AAA\nFLOW SPRING:MARCHING\n",
                   "phases are MOVEMENT, RETREATS or ADJUSTMENTS");
    expect_refused("RED (REDDISH) AAA\nFLOW NEWYEAR:0\n",
                   "NEWYEAR takes a number of years");
    expect_refused("RED (REDDISH) AAA\nFLOW IFYEARDIV:10=10\n",
                   "remainder below the divisor");
    expect_refused("RED (REDDISH) AAA\nFLOW SPRING:MOVEMENT:RETREATS\n",
                   "more than one ':'");
    expect_refused("RED (REDDISH) AAA\nFLOW SPRING:MOVEMENT,MOVEMENT\n",
                   "a phase in the flow twice");
    expect_refused("RED (REDDISH) AAA\nBEGIN SUMMER 1901 MOVEMENT\n"
                   "FLOW SPRING:MOVEMENT,RETREATS FALL:MOVEMENT,RETREATS "
                   "WINTER:ADJUSTMENTS\n",
                   "no such movement or adjustment phase in the FLOW");
}

/* RULE with DPjudge's rule words. */
static void test_rule_words(void)
{
    dj_map *m = expect_loaded("RED (REDDISH) AAA\nRULE BUILD_ANY\n");
    if (m) {
        CHECK(m->nrules == 1);
        CHECK_STR(m->rules[0], "build_sites=any");
        dj_rules rules;
        char err[256];
        CHECK(dj_rules_from_map(m, &rules, err, sizeof err) == 0);
        CHECK(dj_rule(&rules, DJ_RULE_BUILD_SITES) == 'b');
        dj_map_free(m);
    }
    m = expect_loaded("RED (REDDISH) AAA\nRULES HOME_BUILDS\n");
    if (m) {
        CHECK_STR(m->rules[0], "build_sites=homes");
        dj_map_free(m);
    }
    m = expect_loaded("RED (REDDISH) AAA\nRED\nA AAA\nRULE MOBILIZE\n");
    if (m) { /* MOBILIZE: the Winter before the first movement phase */
        CHECK(m->mobilize && m->start_season == DJ_WINTER &&
              m->start_year == 1900 && m->start_type == DJ_ADJUSTMENT);
        dj_map_free(m);
    }
    expect_refused("RED (REDDISH) AAA\nRULE BLANK_BOARD\n",
                   "RULE BLANK_BOARD: starting on an empty board");
    expect_refused("RED (REDDISH) AAA\nRULE NO_SUCH_RULE\n",
                   "RULE NO_SUCH_RULE: not a rule dipjudge knows");
    expect_refused("RED (REDDISH) AAA\nRULE\n", "RULE needs name=value");
}

/* OWNS/CENTERS: ownership at the start; HOME/HOMES/INHABITS: home centres. */
static void test_centres(void)
{
    dj_map *m = expect_loaded("RED (REDDISH) AAA\nBLUE (BLUISH) BBB\n"
                              "UNOWNED GGG\nRED\nOWNS GGG\n");
    if (m) {
        int g = prov(m, "ggg");
        CHECK(m->initial_owner[g] == power(m, "red"));
        CHECK(m->home_of[g] == 0); /* owned, not a home centre */
        CHECK(m->initial_owner[prov(m, "aaa")] == power(m, "red"));
        dj_map_free(m);
    }
    m = expect_loaded("RED (REDDISH) AAA\nBLUE (BLUISH) BBB\n"
                      "UNOWNED GGG\nRED\nCENTERS GGG\n");
    if (m) { /* CENTERS: exactly these */
        CHECK(m->initial_owner[prov(m, "ggg")] == power(m, "red"));
        CHECK(m->initial_owner[prov(m, "aaa")] == -1);
        dj_map_free(m);
    }
    m = expect_loaded("RED (REDDISH) AAA\nBLUE (BLUISH) BBB\n"
                      "UNOWNED GGG\nRED\nHOME GGG\nINHABITS BBB\n");
    if (m) { /* the first HOME line replaces, the next adds */
        dj_power_set red = DJ_POWER_BIT(power(m, "red")),
                     blue = DJ_POWER_BIT(power(m, "blue"));
        CHECK(m->home_of[prov(m, "ggg")] == red);
        CHECK(m->home_of[prov(m, "bbb")] == (red | blue));
        CHECK(m->home_of[prov(m, "aaa")] == 0);
        dj_map_free(m);
    }
    expect_refused("UNOWNED GGG\nOWNS GGG\nRED (REDDISH) AAA\n",
                   "OWNS does not follow a power");
    expect_refused("RED (REDDISH) AAA\nHOME DDD\n",
                   "HOME: 'DDD' is not a supply centre");
    expect_refused("RED (REDDISH) AAA\nHOME ZZZ\n",
                   "HOME: unknown location 'ZZZ'");
    expect_refused("UNOWNED BBB\nRED (REDDISH) AAA\nHOME *BBB\n",
                   "HOME *BBB: DPjudge's partisan site (*: a place, not a "
                   "centre, where the power may build while it holds some "
                   "but not all of its home centres");
    expect_refused("UNOWNED BBB\nRED (REDDISH) AAA\nHOME +BBB\n",
                   "marked home centres");
}

/* DUMMY: powers nobody plays start in civil disorder. */
static void test_dummies(void)
{
    const char *powers = "RED (REDDISH) AAA\nBLUE (BLUISH) BBB\n"
                         "GREEN (GREENISH) GGG\n";
    char text[1024];
    snprintf(text, sizeof text, "%sBLUE\nDUMMY\n", powers);
    dj_map *m = expect_loaded(text);
    if (m) {
        CHECK(m->dummies == DJ_POWER_BIT(power(m, "blue")));
        static dj_position pos;
        dj_position_initial(m, &pos);
        CHECK(pos.civil_disorder == m->dummies);
        dj_map_free(m);
    }
    snprintf(text, sizeof text, "%sDUMMIES ALL EXCEPT RED\n", powers);
    m = expect_loaded(text);
    if (m) {
        CHECK(m->dummies ==
              ((DJ_POWER_BIT(power(m, "blue"))) | (DJ_POWER_BIT(power(m, "green")))));
        dj_map_free(m);
    }
    snprintf(text, sizeof text, "%sDUMMIES RED GREEN\n", powers);
    m = expect_loaded(text);
    if (m) {
        CHECK(m->dummies ==
              ((DJ_POWER_BIT(power(m, "red"))) | (DJ_POWER_BIT(power(m, "green")))));
        dj_map_free(m);
    }
    snprintf(text, sizeof text, "%sDUMMIES PURPLE\n", powers);
    expect_refused(text, "DUMMIES: unknown power 'PURPLE'");
    snprintf(text, sizeof text, "%sDUMMIES ALL BUT RED\n", powers);
    expect_refused(text, "may only be followed by EXCEPT");
}

/* Passed over: they only steer DPjudge's web pages. */
static void test_ignored(void)
{
    dj_map *m = expect_loaded("RED (REDDISH) AAA\nFLAG ENGLAND\nFLAGS std\n"
                              "TEXTONLY\nNOTIFY gm@example.org\nRED\nA AAA\n");
    if (m) {
        CHECK(m->nstart == 1); /* FLAG did not close Red's unit list */
        dj_map_free(m);
    }
}

/* Refused, each with its reason. */
static void test_refused(void)
{
    static const struct {
        const char *line, *why;
    } refused[] = {
        {"IN F1905M: AMEND AAA ABUTS -BBB",
         "DPjudge's changing maps (IN/FROM"},
        {"FROM S1905M", "DPjudge's changing maps (IN/FROM"},
        {"PAYOLA DIRECTIVES", "the Payola variant"},
        {"RULE CD_BUILDS", "building at random"},
        {"RULE NO_DRAW", "cannot end in a draw"},
        {"RED -> CRIMSON (CRIMSON)", "renaming a power"},
        {"RED *BBB", "RED *BBB: DPjudge's partisan site (*: a place, not "
                     "a centre, where the power may build while it holds "
                     "some but not all of its home centres, and then keeps "
                     "one unit more than its centres for each such site; "
                     "RULE NO_PARTISANS turns it off) is not supported"},
        {"RED +BBB", "marked home centres"},
        {"ROTATE CONTROL", "rotating control"},
        {"NEWHOMES 1905", "chosen during the game"},
        {"TEAM RED-BLUE", "teams of powers"},
        {"TEAMS RED-BLUE", "teams of powers"},
        {"LEAGUE NORTH", "DPjudge's leagues (LEAGUE"},
        {"CONTROL RED", "controlled by other powers"},
        {"RESERVES 2", "reserve units"},
        {"MILITIA 1", "militia units"},
        {"DROP QQQ", "DROP: no place 'QQQ'"},
        {"AMEND QQQ ABUTS AAA", "AMEND: no place 'QQQ'"},
        {"UNPLAYED GREEN", "UNPLAYED: unknown power 'GREEN'"},
        {"STANDARD DIRECTIVES", "directive blocks"},
        {"QQQ -> Alphaville = aav", "rename: no place 'QQQ'"},
        {"AAA -> Beta = bbb", "rename: 'bbb' is already a place"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "RED (REDDISH) AAA\n%s\n", refused[i].line);
        expect_refused(text, refused[i].why);
    }
}

static dj_map *load_file(const char *name, char *err, size_t errlen)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/maps/dialect/%s", srcdir_path, name);
    return dj_map_load(path, err, errlen);
}

static bool starts_with(const dj_map *m, const char *power_name, int type,
                        const char *where)
{
    for (int i = 0; i < m->nstart; i++)
        if (m->start_units[i].power == dj_map_find_power(m, power_name) &&
            m->start_units[i].type == (dj_unit_type)type &&
            m->start_units[i].loc == dj_map_find_location(m, where))
            return true;
    return false;
}

/* "MAP base": a variant built on another map, its units replaced. */
static void test_root_map(void)
{
    char err[512] = "";
    dj_map *m = load_file("root.map", err, sizeof err);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "  root.map: %s\n", err);
        return;
    }
    CHECK_STR(m->name, "root"); /* base.map's own MAP line names only it */
    CHECK(m->npowers == 2 && m->nstart == 3);
    CHECK(starts_with(m, "blue", DJ_ARMY, "bbb"));
    CHECK(!starts_with(m, "blue", DJ_FLEET, "bbb"));
    CHECK(starts_with(m, "red", DJ_ARMY, "aaa"));
    CHECK(starts_with(m, "red", DJ_FLEET, "ddd"));
    dj_map_free(m);

    m = load_file("root-units.map", err, sizeof err);
    CHECK(m != NULL);
    if (m) {
        CHECK(m->nstart == 1 && starts_with(m, "blue", DJ_ARMY, "ggg"));
        dj_map_free(m);
    }
    m = load_file("root-twice.map", err, sizeof err);
    CHECK(m == NULL && strstr(err, "root-twice.map:5: two units start in"));
    m = load_file("base.map", err, sizeof err); /* names itself: no cycle */
    CHECK(m != NULL);
    if (m) {
        CHECK_STR(m->name, "base");
        dj_map_free(m);
    }
}

/* The shipped variants load, with what makes each of them. */
static void test_variants(void)
{
    char path[1024], err[512] = "";
    snprintf(path, sizeof path, "%s/maps/fleetrome.map", srcdir_path);
    dj_map *m = dj_map_load(path, err, sizeof err);
    CHECK(m != NULL);
    if (m) {
        CHECK(m->npowers == 7 && m->nsc == 34 && m->nstart == 22);
        CHECK(starts_with(m, "italy", DJ_FLEET, "rom"));
        CHECK(!starts_with(m, "italy", DJ_ARMY, "rom"));
        dj_map_free(m);
    } else {
        fprintf(stderr, "  fleetrome: %s\n", err);
    }
    snprintf(path, sizeof path, "%s/maps/chaos.map", srcdir_path);
    m = dj_map_load(path, err, sizeof err);
    CHECK(m != NULL);
    if (m) {
        CHECK(m->npowers == 34 && m->nsc == 34 && m->victory == 18 &&
              m->nstart == 0);
        CHECK(m->start_year == 1900 && m->start_season == DJ_WINTER &&
              m->start_type == DJ_ADJUSTMENT);
        /* One home centre each, every centre someone's home. */
        for (int l = 0; l < m->nlocs; l++)
            if (m->is_sc[l])
                CHECK(m->home_of[l] != 0 &&
                      (m->home_of[l] & (m->home_of[l] - 1)) == 0);
        int warsaw = dj_map_find_power(m, "Warsaw");
        CHECK(warsaw == 33 && m->powers[warsaw].letter == '7');
        CHECK(m->nrules == 1);
        CHECK_STR(m->rules[0], "build_sites=any");
        static dj_position pos;
        dj_position_initial(m, &pos);
        CHECK(pos.nunits == 0 && dj_position_centres(m, &pos, warsaw) == 1);
        dj_map_free(m);
    } else {
        fprintf(stderr, "  chaos: %s\n", err);
    }
    snprintf(path, sizeof path, "%s/maps/1898.map", srcdir_path);
    m = dj_map_load(path, err, sizeof err);
    CHECK(m != NULL);
    if (m) {
        CHECK(m->mobilize && m->npowers == 7 && m->nsc == 34);
        static dj_position pos;
        static dj_result res;
        dj_position_initial(m, &pos);
        CHECK(pos.phase.season == DJ_WINTER && pos.phase.year == 1898 &&
              pos.phase.type == DJ_ADJUSTMENT && pos.nunits == 0);
        int russia = dj_map_find_power(m, "russia");
        int war = dj_map_find_location(m, "war");
        CHECK(pos.owner[war] == -1 && dj_mobilizing(m, &pos));
        CHECK(dj_adjustment_due(m, &pos, russia) == 1);
        dj_order build = dj_order_make(DJ_ORDER_BUILD, russia, DJ_ARMY, war);
        dj_rules rules;
        dj_rules_default(&rules);
        CHECK(dj_adjudicate(m, &pos, &build, 1, &rules, &res) == 0);
        CHECK(res.orders[0].success && res.next.nunits == 1);
        CHECK(res.next.owner[war] == russia); /* it owns where it built */
        CHECK(res.next.owner[dj_map_find_location(m, "mos")] == -1);
        CHECK(res.next.phase.season == DJ_SPRING &&
              res.next.phase.year == 1899);
        CHECK(!dj_mobilizing(m, &res.next));
        dj_map_free(m);
    } else {
        fprintf(stderr, "  1898: %s\n", err);
    }
    snprintf(path, sizeof path, "%s/maps/pure.map", srcdir_path);
    m = dj_map_load(path, err, sizeof err);
    CHECK(m != NULL);
    if (m) {
        CHECK(m->npowers == 7 && m->nsc == 7 && m->victory == 4 &&
              m->nlocs == 7 && m->nstart == 7);
        for (int a = 0; a < m->nlocs; a++)
            for (int b = 0; b < m->nlocs; b++)
                CHECK(dj_map_adjacent(m, a, b, DJ_ARMY) == (a != b));
        dj_map_free(m);
    } else {
        fprintf(stderr, "  pure: %s\n", err);
    }
}


static bool abuts(const dj_map *m, const char *a, const char *b,
                  dj_unit_type t)
{
    int x = prov(m, a), y = prov(m, b);
    return x >= 0 && y >= 0 && dj_map_adjacent(m, x, y, t);
}

static bool unit_of(const dj_map *m, const char *power_name, dj_unit_type t,
                    const char *where)
{
    int pw = power(m, power_name), loc = prov(m, where);
    for (int i = 0; i < m->nstart; i++)
        if (m->start_units[i].power == pw && m->start_units[i].type == t &&
            m->start_units[i].loc == loc)
            return true;
    return false;
}

static bool home_of(const dj_map *m, const char *power_name,
                    const char *where)
{
    int pw = power(m, power_name), p = prov(m, where);
    return pw >= 0 && p >= 0 && m->is_sc[p] &&
           (m->home_of[p] & DJ_POWER_BIT(pw));
}

/* DPjudge's meaning: a power's units follow its line whatever comes
 * between (a blank line, VICTORY), until an UNOWNED line. */
static void test_units_follow(void)
{
    dj_map *m = expect_loaded("RED (REDDISH) AAA\n\nVICTORY 2\nA AAA\n"
                              "BLUE BBB\nRULE BUILD_ANY\n\nF BBB\n");
    if (m) {
        CHECK(m->nstart == 2);
        CHECK(unit_of(m, "Red", DJ_ARMY, "aaa") &&
              unit_of(m, "Blue", DJ_FLEET, "bbb"));
        dj_map_free(m);
    }
    expect_refused("RED (REDDISH) AAA\nUNOWNED GGG\nA AAA\n",
                   "does not follow a power");
}

/* dp-base.map: DPjudge's plain syntax, each form with its meaning. */
static void test_dpjudge_plain(void)
{
    char err[512] = "";
    dj_map *m = load_file("dp-base.map", err, sizeof err);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "  dp-base.map: %s\n", err);
        return;
    }
    CHECK(m->npowers == 3);
    /* units on the lines after the power's own line */
    CHECK(unit_of(m, "Red", DJ_ARMY, "nor") && unit_of(m, "Red", DJ_FLEET, "eas"));
    CHECK(unit_of(m, "Blue", DJ_FLEET, "sou") && unit_of(m, "Blue", DJ_ARMY, "wes"));
    /* a power without an adjective is its own */
    CHECK_STR(m->powers[power(m, "Blue")].adjective, "Blue");
    CHECK(home_of(m, "Blue", "sou") && home_of(m, "Blue", "wes"));
    /* named before its power line: a power; the later line completes it */
    int green = power(m, "Green");
    CHECK(green >= 0 && m->powers[green].letter == 'V');
    CHECK_STR(m->powers[green].adjective, "Greenish");
    CHECK(unit_of(m, "Green", DJ_ARMY, "mid"));
    /* a centre named twice: the unowned centre became Green's home */
    CHECK(home_of(m, "Green", "spu") &&
          m->initial_owner[prov(m, "spu")] == green);
    /* the second terrain line: the Isle opened, its neighbours kept */
    CHECK(m->locs[prov(m, "isl")].terrain == DJ_COAST);
    CHECK(abuts(m, "isl", "grs", DJ_FLEET) && abuts(m, "grs", "isl", DJ_FLEET));
    CHECK(m->is_sc[prov(m, "isl")] && m->initial_owner[prov(m, "isl")] < 0);
    /* a place abutting itself: nothing */
    CHECK(!abuts(m, "mid", "mid", DJ_ARMY) && abuts(m, "mid", "nor", DJ_ARMY));
    CHECK(m->nsc == 6 && m->victory == 4);
    dj_map_free(m);
}

/* dp-variant.map: DROP, AMEND, a rename, UNPLAYED, "-CENTRE", a minor
 * power on a freed centre and REMOTE_BUILDS, on the board found by name. */
static void test_dpjudge_variant(void)
{
    char err[512] = "";
    dj_map *m = load_file("dp-variant.map", err, sizeof err);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "  dp-variant.map: %s\n", err);
        return;
    }
    CHECK_STR(m->name, "dp-variant");
    /* UNPLAYED: Green gone with its unit; Spur stays an unowned centre
     * (dp-base lists it UNOWNED) */
    CHECK(m->npowers == 3 && power(m, "Green") < 0);
    CHECK(power(m, "Yellow") == 2);
    CHECK(m->is_sc[prov(m, "spu")] && m->home_of[prov(m, "spu")] == 0 &&
          m->initial_owner[prov(m, "spu")] < 0);
    CHECK(m->nstart == 4 && !unit_of(m, "Red", DJ_ARMY, "mid"));
    /* DROP: the Isle gone, with its names and borders */
    CHECK(prov(m, "isl") < 0 && prov(m, "isle") < 0);
    CHECK(prov(m, "gulls") >= 0 && abuts(m, "gul", "grs", DJ_FLEET) &&
          abuts(m, "grs", "gul", DJ_FLEET));
    /* AMEND ... -SPU: Blue Bay and Spur's south coast apart */
    int bby = prov(m, "bby"), spusc = prov(m, "spu/sc");
    CHECK(bby >= 0 && spusc >= 0 && !dj_map_adjacent(m, bby, spusc, DJ_FLEET) &&
          !dj_map_adjacent(m, spusc, bby, DJ_FLEET));
    CHECK(abuts(m, "bby", "gul", DJ_FLEET));
    /* the rename: Westholm is Westhaven, its home and unit with it */
    int whv = prov(m, "westhaven");
    CHECK(whv >= 0 && whv == prov(m, "wes") && whv == prov(m, "whv"));
    CHECK_STR(m->locs[whv].abbr, "whv");
    CHECK(home_of(m, "Blue", "whv") && unit_of(m, "Blue", DJ_ARMY, "whv"));
    CHECK(abuts(m, "nor", "whv", DJ_ARMY) && abuts(m, "whv", "sou", DJ_FLEET));
    /* RED -EAS, then Yellow's home: Eastmark and its fleet are Yellow's */
    CHECK(!home_of(m, "Red", "eas") && home_of(m, "Yellow", "eas"));
    CHECK(m->initial_owner[prov(m, "eas")] == power(m, "Yellow"));
    CHECK(unit_of(m, "Yellow", DJ_FLEET, "eas") && !unit_of(m, "Red", DJ_FLEET, "eas"));
    CHECK(m->nsc == 5);
    CHECK(m->nrules == 1);
    CHECK_STR(m->rules[0], "build_sites=remote");
    dj_map_free(m);
}

/* REMOTE_BUILDS: any owned centre, while the power owns a home of its
 * own (DPjudge's meaning). */
static void test_remote_builds(void)
{
    char err[512] = "";
    dj_map *m = load_file("dp-variant.map", err, sizeof err);
    CHECK(m != NULL);
    if (!m)
        return;
    dj_rules rules;
    CHECK(dj_rules_from_map(m, &rules, err, sizeof err) == 0);
    CHECK(dj_rule(&rules, DJ_RULE_BUILD_SITES) == 'd');
    dj_position *pos = calloc(1, sizeof *pos);
    if (!pos) {
        dj_map_free(m);
        return;
    }
    dj_position_initial(m, pos);
    pos->nunits = 0;
    int red = power(m, "Red"), nor = prov(m, "nor"), spu = prov(m, "spu");
    pos->owner[spu] = (int16_t)red;
    CHECK(dj_build_site_why(m, pos, &rules, red, spu) == DJ_WHY_NONE);
    CHECK(dj_build_site_why(m, pos, &rules, red, nor) == DJ_WHY_NONE);
    pos->owner[nor] = -1; /* no home of its own left: no builds */
    CHECK(dj_build_site_why(m, pos, &rules, red, spu) != DJ_WHY_NONE);
    /* the standard rule: only its own homes */
    pos->owner[nor] = (int16_t)red;
    CHECK(dj_rules_set(&rules, "build_sites=home", err, sizeof err));
    CHECK(dj_build_site_why(m, pos, &rules, red, spu) != DJ_WHY_NONE);
    free(pos);
    dj_map_free(m);
}

int main(int argc, char **argv)
{
    const char *dir = test_srcdir(argc, argv);
    snprintf(srcdir_path, sizeof srcdir_path, "%s", dir ? dir : ".");
    test_power_letters();
    test_power_title_case();
    test_begin();
    test_flow();
    test_port();
    test_port_engines();
    test_half_border();
    test_half_retreats();
    test_rule_words();
    test_centres();
    test_dummies();
    test_ignored();
    test_refused();
    test_root_map();
    test_variants();
    test_units_follow();
    test_dpjudge_plain();
    test_dpjudge_variant();
    test_remote_builds();
    return test_summary();
}
