/*
 * test_notation.c — the strict order reader and the case-file reader,
 * against maps/standard.map.
 *
 * Orders are checked through their canonical text: parse, format with
 * dj_order_format, compare.  That covers the kind, unit type, locations
 * and coasts in one readable line per case; the few fields the text does
 * not show (dest of a hold support, the convoy route, DJ_NO_UNIT) are
 * checked directly.  Case files under tests/casefile/ check that errors
 * come out as "file:line: message" and that reading goes on after them.
 *
 * Usage: test_notation [SRCDIR]   (default: $srcdir, else ".")
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "casefile/casefile.h"
#include "casefile/casewrite.h"
#include "casefile/check.h"
#include "reader/notation.h"
#include "testlib.h"

#define PATH_LEN 1024

typedef struct order_case {
    const char *power;
    dj_phase_type phase;
    const char *text;
    const char *want;  /* canonical text */
} order_case;

static const order_case ORDERS[] = {
    /* moves and their separators */
    {"Austria", DJ_MOVEMENT, "A bud-ser", "A BUD - SER"},
    {"Austria", DJ_MOVEMENT, "A bud - ser", "A BUD - SER"},
    {"Austria", DJ_MOVEMENT, "A bud -> ser", "A BUD - SER"},
    {"Austria", DJ_MOVEMENT, "A bud->ser", "A BUD - SER"},
    {"Austria", DJ_MOVEMENT, "A bud to ser", "A BUD - SER"},
    {"Austria", DJ_MOVEMENT, "A bud moves to ser", "A BUD - SER"},
    {"Austria", DJ_MOVEMENT, "A bud move ser", "A BUD - SER"},
    {"Austria", DJ_MOVEMENT, "A bud m ser", "A BUD - SER"},
    {"Austria", DJ_MOVEMENT, "army budapest moves to serbia", "A BUD - SER"},
    {"Austria", DJ_MOVEMENT, "ARMY BUDAPEST - SERBIA", "A BUD - SER"},
    {"Austria", DJ_MOVEMENT, "  a   Bud-Ser  ", "A BUD - SER"},
    {"England", DJ_MOVEMENT, "F nth-pic", "F NTH - PIC"},
    {"England", DJ_MOVEMENT, "fleet north sea - picardy", "F NTH - PIC"},
    {"England", DJ_MOVEMENT, "F North Sea to Norwegian Sea", "F NTH - NWG"},
    {"England", DJ_MOVEMENT, "F eng-iri", "F ENG - IRI"},
    {"England", DJ_MOVEMENT, "A lvp-edi", "A LVP - EDI"},
    {"Russia", DJ_MOVEMENT, "A st petersburg - moscow", "A STP - MOS"},
    {"Russia", DJ_MOVEMENT, "A St. Petersburg-Livonia", "A STP - LVN"},
    {"Russia", DJ_MOVEMENT, "F stp/sc-bot", "F STP/SC - BOT"},
    {"Russia", DJ_MOVEMENT, "F gulf of bothnia - stp/sc", "F BOT - STP/SC"},
    {"Turkey", DJ_MOVEMENT, "F bul/ec - bla", "F BUL/EC - BLA"},
    {"Turkey", DJ_MOVEMENT, "F bul ec - bla", "F BUL/EC - BLA"},
    {"Turkey", DJ_MOVEMENT, "F con - bul(sc)", "F CON - BUL/SC"},
    /* coasts in every notation */
    {"France", DJ_MOVEMENT, "F mao-spa(nc)", "F MAO - SPA/NC"},
    {"France", DJ_MOVEMENT, "F mao - spa/nc", "F MAO - SPA/NC"},
    {"France", DJ_MOVEMENT, "F mao-spa nc", "F MAO - SPA/NC"},
    {"France", DJ_MOVEMENT, "F mao - spa (nc)", "F MAO - SPA/NC"},
    {"France", DJ_MOVEMENT, "F mao - spa (north coast)", "F MAO - SPA/NC"},
    {"France", DJ_MOVEMENT, "F mid-atlantic ocean - spain (north coast)",
     "F MAO - SPA/NC"},
    {"France", DJ_MOVEMENT, "F mid-atlantic - spa/sc", "F MAO - SPA/SC"},
    {"France", DJ_MOVEMENT, "F gulf of lyon - spain (south coast)",
     "F LYO - SPA/SC"},
    {"France", DJ_MOVEMENT, "F mao-spa", "F MAO - SPA"},
    /* holds */
    {"France", DJ_MOVEMENT, "A par H", "A PAR H"},
    {"France", DJ_MOVEMENT, "A par hold", "A PAR H"},
    {"France", DJ_MOVEMENT, "A par holds", "A PAR H"},
    {"France", DJ_MOVEMENT, "A par stand", "A PAR H"},
    {"France", DJ_MOVEMENT, "army paris holds", "A PAR H"},
    /* supports */
    {"France", DJ_MOVEMENT, "A mar S A par-bur", "A MAR S A PAR - BUR"},
    {"France", DJ_MOVEMENT, "A mar S A par - bur", "A MAR S A PAR - BUR"},
    {"France", DJ_MOVEMENT, "A mar supports A par-bur", "A MAR S A PAR - BUR"},
    {"France", DJ_MOVEMENT, "army marseilles supports army paris to burgundy",
     "A MAR S A PAR - BUR"},
    {"France", DJ_MOVEMENT, "A mar support A par -> bur",
     "A MAR S A PAR - BUR"},
    {"France", DJ_MOVEMENT, "A mar S A par", "A MAR S A PAR"},
    {"France", DJ_MOVEMENT, "A mar S A par H", "A MAR S A PAR"},
    {"France", DJ_MOVEMENT, "A mar supports A par holds", "A MAR S A PAR"},
    {"Austria", DJ_MOVEMENT, "F tri S F tri", "F TRI S F TRI"},
    {"France", DJ_MOVEMENT, "F mao S F eng - bre", "F MAO S F ENG - BRE"},
    {"France", DJ_MOVEMENT, "F gas S F mao-spa(nc)", "F GAS S F MAO - SPA/NC"},
    /* convoys */
    {"England", DJ_MOVEMENT, "F nth C A lon-bel", "F NTH C A LON - BEL"},
    {"England", DJ_MOVEMENT, "F nth C A lon - bel", "F NTH C A LON - BEL"},
    {"England", DJ_MOVEMENT, "F nth convoys A lon to bel",
     "F NTH C A LON - BEL"},
    {"England", DJ_MOVEMENT, "fleet north sea convoys army london to belgium",
     "F NTH C A LON - BEL"},
    {"England", DJ_MOVEMENT, "F nth convoy A lon-bel", "F NTH C A LON - BEL"},
    {"England", DJ_MOVEMENT, "A lon-bel via convoy", "A LON - BEL VIA"},
    {"England", DJ_MOVEMENT, "A lon - bel by convoy", "A LON - BEL VIA"},
    {"England", DJ_MOVEMENT, "A lon-bel via", "A LON - BEL VIA"},
    {"England", DJ_MOVEMENT, "A LON - BEL VIA", "A LON - BEL VIA"},
    {"England", DJ_MOVEMENT, "A lon-nth-bel", "A LON - NTH - BEL"},
    {"England", DJ_MOVEMENT, "A lon - eng - mao - spa",
     "A LON - ENG - MAO - SPA"},
    {"England", DJ_MOVEMENT, "A london to north sea to belgium",
     "A LON - NTH - BEL"},
    /* the unit type left out */
    {"Austria", DJ_MOVEMENT, "bud-ser", "BUD - SER"},
    {"France", DJ_MOVEMENT, "mar S par-bur", "MAR S PAR - BUR"},
    {"France", DJ_ADJUSTMENT, "build par", "PAR B"},
    /* things only the adjudicator may refuse */
    {"Austria", DJ_MOVEMENT, "A bud-bud", "A BUD - BUD"},
    {"Austria", DJ_MOVEMENT, "A bud S A bud", "A BUD S A BUD"},
    {"France", DJ_MOVEMENT, "A par - sev", "A PAR - SEV"},
    {"England", DJ_MOVEMENT, "A nth - par", "A NTH - PAR"},
    {"France", DJ_MOVEMENT, "F par - bur", "F PAR - BUR"},
    {"France", DJ_MOVEMENT, "A par S A par-bur", "A PAR S A PAR - BUR"},
    {"France", DJ_MOVEMENT, "Disband A par", "A PAR D"},
    /* retreats */
    {"England", DJ_RETREAT, "A lvp-yor", "A LVP R YOR"},
    {"England", DJ_RETREAT, "A lvp - yor", "A LVP R YOR"},
    {"England", DJ_RETREAT, "A lvp R yor", "A LVP R YOR"},
    {"England", DJ_RETREAT, "A lvp r yor", "A LVP R YOR"},
    {"England", DJ_RETREAT, "A lvp retreats to yor", "A LVP R YOR"},
    {"England", DJ_RETREAT, "retreat A lvp to yor", "A LVP R YOR"},
    {"England", DJ_RETREAT, "Retreat A lvp yor", "A LVP R YOR"},
    {"England", DJ_RETREAT, "army liverpool retreats to yorkshire",
     "A LVP R YOR"},
    {"Russia", DJ_RETREAT, "F stp/nc - bar", "F STP/NC R BAR"},
    {"England", DJ_RETREAT, "Disband A lvp", "A LVP D"},
    {"England", DJ_RETREAT, "A lvp D", "A LVP D"},
    {"England", DJ_RETREAT, "A lvp disband", "A LVP D"},
    {"England", DJ_RETREAT, "disband army liverpool", "A LVP D"},
    /* adjustments */
    {"France", DJ_ADJUSTMENT, "Build A par", "A PAR B"},
    {"France", DJ_ADJUSTMENT, "A par B", "A PAR B"},
    {"France", DJ_ADJUSTMENT, "A par build", "A PAR B"},
    {"France", DJ_ADJUSTMENT, "build army paris", "A PAR B"},
    {"France", DJ_ADJUSTMENT, "build F par", "F PAR B"},
    {"Russia", DJ_ADJUSTMENT, "Build F stp/sc", "F STP/SC B"},
    {"Russia", DJ_ADJUSTMENT, "Build F stp sc", "F STP/SC B"},
    {"Russia", DJ_ADJUSTMENT, "build fleet st petersburg (south coast)",
     "F STP/SC B"},
    {"Russia", DJ_ADJUSTMENT, "F stp(nc) B", "F STP/NC B"},
    {"France", DJ_ADJUSTMENT, "Remove F bre", "F BRE D"},
    {"France", DJ_ADJUSTMENT, "F bre D", "F BRE D"},
    {"France", DJ_ADJUSTMENT, "Disband F bre", "F BRE D"},
    {"France", DJ_ADJUSTMENT, "remove fleet brest", "F BRE D"},
    {"France", DJ_ADJUSTMENT, "F bre remove", "F BRE D"},
    {"France", DJ_ADJUSTMENT, "Waive", "WAIVE"},
    {"France", DJ_ADJUSTMENT, "WAIVE", "WAIVE"},
};

typedef struct error_case {
    dj_phase_type phase;
    const char *text;
    const char *want;  /* the message */
} error_case;

static const error_case ERRORS[] = {
    {DJ_MOVEMENT, "", "empty order"},
    {DJ_MOVEMENT, "   ", "empty order"},
    {DJ_MOVEMENT, "A xyz-ser", "unknown location 'xyz'"},
    {DJ_MOVEMENT, "A bud-xyz", "unknown location 'xyz'"},
    {DJ_MOVEMENT, "A bud-", "expected a destination after '-'"},
    {DJ_MOVEMENT, "A bud ->", "expected a destination after '->'"},
    {DJ_MOVEMENT, "A bud to", "expected a destination after 'to'"},
    {DJ_MOVEMENT, "A bud - - ser", "expected a destination after '-'"},
    {DJ_MOVEMENT, "A bud",
     "incomplete order: expected what the unit does after 'bud'"},
    {DJ_MOVEMENT, "A bud ser", "expected an order after 'bud', got 'ser'"},
    {DJ_MOVEMENT, "A", "expected a unit after 'a'"},
    {DJ_MOVEMENT, "F nth C A lon",
     "expected '-' and a destination after 'lon'"},
    {DJ_MOVEMENT, "F nth C", "expected a unit to convoy after 'c'"},
    {DJ_MOVEMENT, "A mar S", "expected a unit to support after 's'"},
    {DJ_MOVEMENT, "A mar S A par-", "expected a destination after '-'"},
    {DJ_MOVEMENT, "A bud-ser foo", "unexpected 'foo' after the order"},
    {DJ_MOVEMENT, "A bud-ser!", "unexpected character '!'"},
    {DJ_MOVEMENT, "A bud-ser H", "unexpected 'h' after the order"},
    {DJ_MOVEMENT, "A par H H", "unexpected 'h' after the order"},
    {DJ_ADJUSTMENT, "Build", "expected a unit after 'build'"},
    {DJ_ADJUSTMENT, "Waive now", "unexpected 'now' after the order"},
    {DJ_RETREAT, "retreat A lvp", "expected a destination after 'lvp'"},
    {DJ_MOVEMENT, "A bud-ser\x01", "unexpected character (byte 0x01)"},
};

/* ---- orders -------------------------------------------------------------- */

static void check_order(const dj_map *map, const order_case *t)
{
    char err[128], got[160];
    dj_order o;
    int power = dj_map_find_power(map, t->power);
    if (dj_notation_parse(map, power, t->phase, t->text, &o, err,
                          sizeof err) < 0) {
        snprintf(got, sizeof got, "error: %s", err);
    } else {
        dj_order_format(map, &o, got, sizeof got);
        CHECK(o.power == power);
    }
    if (strcmp(got, t->want) != 0)
        fprintf(stderr, "  order \"%s\":\n", t->text);
    CHECK_STR(got, t->want);
}

static void check_error(const dj_map *map, const error_case *t)
{
    char err[128];
    dj_order o;
    int rc = dj_notation_parse(map, 0, t->phase, t->text, &o, err, sizeof err);
    if (rc == 0)
        snprintf(err, sizeof err, "(parsed)");
    if (strcmp(err, t->want) != 0)
        fprintf(stderr, "  order \"%s\":\n", t->text);
    CHECK(rc < 0);
    CHECK_STR(err, t->want);
}

/* Fields the canonical text does not show. */
static void check_fields(const dj_map *map)
{
    dj_order o;
    char err[128];
    int lon = dj_map_find_location(map, "lon");

    CHECK(dj_notation_parse(map, 0, DJ_MOVEMENT, "A mar S A par", &o, err,
                            sizeof err) == 0);
    CHECK(o.kind == DJ_ORDER_SUPPORT && o.dest == -1);
    CHECK(o.target == dj_map_find_location(map, "par"));
    CHECK(o.target_type == DJ_ARMY);

    CHECK(dj_notation_parse(map, 0, DJ_MOVEMENT, "bud-ser", &o, err,
                            sizeof err) == 0);
    CHECK(o.kind == DJ_ORDER_MOVE && o.unit_type == DJ_NO_UNIT);

    CHECK(dj_notation_parse(map, 0, DJ_MOVEMENT, "A mar S par-bur", &o, err,
                            sizeof err) == 0);
    CHECK(o.target_type == DJ_NO_UNIT);

    CHECK(dj_notation_parse(map, 1, DJ_MOVEMENT, "A lon-nth-eng-bre", &o, err,
                            sizeof err) == 0);
    CHECK(o.kind == DJ_ORDER_MOVE && o.loc == lon && o.npath == 2);
    CHECK(o.path[0] == dj_map_find_location(map, "nth"));
    CHECK(o.path[1] == dj_map_find_location(map, "eng"));
    CHECK(o.dest == dj_map_find_location(map, "bre"));
    CHECK(!o.via_convoy);

    CHECK(dj_notation_parse(map, 1, DJ_MOVEMENT, "A lon-bel via convoy", &o,
                            err, sizeof err) == 0);
    CHECK(o.via_convoy && o.npath == 0);

    CHECK(dj_notation_parse(map, 1, DJ_ADJUSTMENT, "Waive", &o, err,
                            sizeof err) == 0);
    CHECK(o.kind == DJ_ORDER_WAIVE && o.power == 1);

    CHECK(dj_notation_parse(map, 1, DJ_ADJUSTMENT, "Build par", &o, err,
                            sizeof err) == 0);
    CHECK(o.kind == DJ_ORDER_BUILD && o.unit_type == DJ_NO_UNIT);

    CHECK(dj_notation_parse(map, 1, DJ_RETREAT, "A lvp D", &o, err,
                            sizeof err) == 0);
    CHECK(o.kind == DJ_ORDER_DISBAND);
    CHECK(dj_notation_parse(map, 1, DJ_ADJUSTMENT, "A lvp D", &o, err,
                            sizeof err) == 0);
    CHECK(o.kind == DJ_ORDER_REMOVE);
}

/* Long, odd and hostile input: an error, never a crash. */
static void check_limits(const dj_map *map)
{
    char text[2048], err[128];
    dj_order o;

    memset(text, 'x', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    CHECK(dj_notation_parse(map, 0, DJ_MOVEMENT, text, &o, err, sizeof err) <
          0);
    CHECK_STR(err, "order too long");

    text[0] = '\0';
    for (int i = 0; i < 100; i++)
        strcat(text, "- ");
    CHECK(dj_notation_parse(map, 0, DJ_MOVEMENT, text, &o, err, sizeof err) <
          0);
    CHECK_STR(err, "order too long");

    snprintf(text, sizeof text, "A lon");
    for (int i = 0; i < DJ_MAX_PATH + 1; i++)
        strcat(text, i % 2 ? "-eng" : "-nth");
    strcat(text, "-bel");
    CHECK(dj_notation_parse(map, 0, DJ_MOVEMENT, text, &o, err, sizeof err) <
          0);
    CHECK_STR(err, "convoy route too long (at most 16 provinces)");

    /* A tiny message buffer is filled, not overrun. */
    char small[8];
    CHECK(dj_notation_parse(map, 0, DJ_MOVEMENT, "A xyz", &o, small,
                            sizeof small) < 0);
    CHECK(strlen(small) == sizeof small - 1);
}

/* ---- case files ---------------------------------------------------------- */

typedef struct expect {
    dj_case_status status;
    const char *text;  /* case name, or the error after "file:" */
} expect;

/* Read a case file and compare each result in turn with `want`. */
static void check_casefile(const char *srcdir, const char *name,
                           const expect *want, int nwant)
{
    char path[PATH_LEN], mapdir[PATH_LEN], err[DJ_CASE_ERR_MAX];
    snprintf(path, sizeof path, "%s/tests/casefile/%s", srcdir, name);
    snprintf(mapdir, sizeof mapdir, "%s/maps", srcdir);
    dj_casefile *cf = dj_casefile_open(path, mapdir, err, sizeof err);
    CHECK(cf != NULL);
    if (!cf)
        return;
    dj_case *c = malloc(sizeof *c);
    for (int i = 0; i <= nwant; i++) {
        dj_case_status st = dj_casefile_next(cf, c, err, sizeof err);
        if (i == nwant) {
            CHECK(st == DJ_CASE_EOF);
            break;
        }
        CHECK(st == want[i].status);
        if (st == DJ_CASE_OK) {
            CHECK_STR(c->name, want[i].text);
        } else if (st == DJ_CASE_ERROR) {
            char full[DJ_CASE_ERR_MAX + PATH_LEN];
            snprintf(full, sizeof full, "%s:%s", path, want[i].text);
            CHECK_STR(err, full);
        }
    }
    CHECK(dj_casefile_next(cf, c, err, sizeof err) == DJ_CASE_EOF);
    free(c);
    dj_casefile_close(cf);
}

static void check_bad_file(const char *srcdir)
{
    static const expect want[] = {
        {DJ_CASE_ERROR, "7: unknown keyword 'ORDERZ'"},
        {DJ_CASE_OK, "ok.1"},
        {DJ_CASE_ERROR, "22: unknown power 'Engerland'"},
        {DJ_CASE_ERROR,
         "27: bad phase 'Summer 1901, Movement' (expected e.g. 'Spring "
         "1901, Movement')"},
        {DJ_CASE_ERROR, "37: bad order 'F nth-xyz': unknown location 'xyz'"},
        {DJ_CASE_ERROR,
         "45: missing END for case 'bad.5 missing END' (started at line 41)"},
        {DJ_CASE_OK, "ok.2 after a missing END"},
    };
    check_casefile(srcdir, "bad.txt", want, sizeof want / sizeof want[0]);
}

static void check_noend_file(const char *srcdir)
{
    static const expect want[] = {
        {DJ_CASE_OK, "ok.1"},
        {DJ_CASE_ERROR, "11: missing END for case 'bad.1 no END before the "
                        "end of the file' (started at line 8)"},
    };
    check_casefile(srcdir, "noend.txt", want, sizeof want / sizeof want[0]);
}

static const dj_case *next_case(dj_casefile *cf, dj_case *c)
{
    char err[DJ_CASE_ERR_MAX];
    dj_case_status st = dj_casefile_next(cf, c, err, sizeof err);
    if (st == DJ_CASE_ERROR)
        fprintf(stderr, "  %s\n", err);
    CHECK(st == DJ_CASE_OK);
    return st == DJ_CASE_OK ? c : NULL;
}

/* The contents of good.txt's cases, field by field. */
static void check_good_file(const char *srcdir)
{
    char path[PATH_LEN], mapdir[PATH_LEN], err[DJ_CASE_ERR_MAX];
    snprintf(path, sizeof path, "%s/tests/casefile/good.txt", srcdir);
    snprintf(mapdir, sizeof mapdir, "%s/maps", srcdir);
    dj_casefile *cf = dj_casefile_open(path, mapdir, err, sizeof err);
    CHECK(cf != NULL);
    if (!cf)
        return;
    dj_case *c = malloc(sizeof *c);
    const dj_map *map;

    if (next_case(cf, c)) { /* good.1 */
        map = dj_casefile_map(cf);
        CHECK(c->line == 5 && c->pre.phase.season == DJ_SPRING);
        CHECK(c->pre.phase.year == 1901 && c->pre.phase.type == DJ_MOVEMENT);
        CHECK(c->pre.nunits == 1 && c->norders == 1 && c->npost == 1);
        CHECK(c->orders[0].line == 10);
        CHECK_STR(c->orders[0].text, "F nth-pic");
        CHECK(c->orders[0].order.kind == DJ_ORDER_MOVE);
        CHECK(c->orders[0].order.power == dj_map_find_power(map, "england"));
    }
    if (next_case(cf, c)) /* good.2 */
        CHECK(c->post_same && c->npost == 0);
    if (next_case(cf, c)) { /* good.3 */
        map = dj_casefile_map(cf);
        CHECK(c->pre.phase.season == DJ_FALL);
        CHECK(dj_rule(&c->rules, DJ_RULE_CONVOY_PARADOX) == 'd');
        CHECK(c->norders == 3 && c->npost == 2 && c->npost_dislodged == 1);
        CHECK(c->orders[1].order.kind == DJ_ORDER_SUPPORT);
    }
    if (next_case(cf, c)) { /* good.4 */
        map = dj_casefile_map(cf);
        int bud = dj_map_find_location(map, "bud");
        int ukr = dj_map_find_location(map, "ukr");
        CHECK(c->pre.phase.type == DJ_RETREAT && c->pre.ndislodged == 1);
        const dj_dislodged *d = &c->pre.dislodged[0];
        CHECK(d->attacker_from == bud && !d->by_convoy);
        bool can_ukr = false, can_bud = false;
        for (int i = 0; i < d->nretreats; i++) {
            can_ukr |= d->retreats[i] == ukr;
            can_bud |= d->retreats[i] == bud;
        }
        CHECK(can_ukr && !can_bud);
        CHECK(c->orders[0].order.kind == DJ_ORDER_RETREAT);
    }
    next_case(cf, c); /* good.5 */
    if (next_case(cf, c)) { /* good.6 */
        map = dj_casefile_map(cf);
        CHECK(c->pre.phase.season == DJ_WINTER);
        CHECK(c->pre.phase.type == DJ_ADJUSTMENT);
        int france = dj_map_find_power(map, "france");
        CHECK(c->pre.owner[dj_map_find_location(map, "spa")] == france);
        CHECK(c->pre.owner[dj_map_find_location(map, "lon")] == -1);
        CHECK(c->orders[2].order.kind == DJ_ORDER_BUILD);
    }
    CHECK(dj_casefile_next(cf, c, err, sizeof err) == DJ_CASE_EOF);
    free(c);
    dj_casefile_close(cf);
}

/* jDip's own way of writing cases (tests/casefile/jdip.txt). */
static void check_jdip_file(const char *srcdir)
{
    char path[PATH_LEN], mapdir[PATH_LEN], err[DJ_CASE_ERR_MAX];
    snprintf(path, sizeof path, "%s/tests/casefile/jdip.txt", srcdir);
    snprintf(mapdir, sizeof mapdir, "%s/maps", srcdir);
    dj_casefile *cf = dj_casefile_open(path, mapdir, err, sizeof err);
    CHECK(cf != NULL);
    if (!cf)
        return;
    dj_case *c = malloc(sizeof *c);
    if (next_case(cf, c)) { /* "Spring 1901 (Retreat)", "FAILURE: A war" */
        CHECK(c->pre.phase.season == DJ_SPRING &&
              c->pre.phase.type == DJ_RETREAT && c->pre.ndislodged == 1);
    }
    for (int standoff = 0; standoff <= 1; standoff++) {
        if (!next_case(cf, c))
            continue;
        const dj_map *map = dj_casefile_map(cf);
        int sil = dj_map_find_location(map, "sil");
        const dj_dislodged *d = &c->pre.dislodged[0];
        bool can_sil = false;
        for (int i = 0; i < d->nretreats; i++)
            can_sil |= d->retreats[i] == sil;
        CHECK(can_sil == !standoff);
    }
    CHECK(dj_casefile_next(cf, c, err, sizeof err) == DJ_CASE_EOF);
    free(c);
    dj_casefile_close(cf);
}

/* A phase written by dj_case_write reads back and passes judgectl check. */
static void check_case_roundtrip(const char *srcdir, const dj_map *map)
{
    static dj_position pos;
    static dj_result res;
    dj_phase spring = {DJ_FALL, 1902, DJ_MOVEMENT};
    dj_position_empty(map, spring, &pos);
    static const struct {
        const char *power, *unit, *order;
    } setup[] = {
        {"England", "F nth", "F nth C A lon-bel"},
        {"England", "A lon", "A lon-bel"},
        {"France", "A bur", "A bur-mun"},
        {"France", "A ruh", "A ruh S A bur-mun"},
        {"Germany", "A mun", "A mun H"},
    };
    dj_order orders[8];
    int n = 0;
    char err[256];
    for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++) {
        int p = dj_map_find_power(map, setup[i].power);
        dj_unit *u = &pos.units[pos.nunits++];
        u->power = (int16_t)p;
        u->type = setup[i].unit[0] == 'F' ? DJ_FLEET : DJ_ARMY;
        u->loc = (int16_t)dj_map_find_location(map, setup[i].unit + 2);
        CHECK(dj_notation_parse(map, p, DJ_MOVEMENT, setup[i].order,
                                &orders[n++], err, sizeof err) == 0);
    }
    pos.owner[dj_map_find_location(map, "mun")] =
        (int16_t)dj_map_find_power(map, "france");
    dj_rules rules;
    dj_rules_default(&rules);
    rules.choice[DJ_RULE_CONVOY_PARADOX] = 'e';
    CHECK(dj_adjudicate(map, &pos, orders, n, &rules, &res) == 0);

    char path[PATH_LEN];
    snprintf(path, sizeof path, "casewrite-%d.txt", (int)getpid());
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    dj_case_write_variant(f, map);
    dj_case_write(f, map, "written", "two lines\nof comment", &pos, orders,
                  n, &rules, &res);
    fclose(f);

    char mapdir[PATH_LEN];
    snprintf(mapdir, sizeof mapdir, "%s/maps", srcdir);
    dj_casefile *cf = dj_casefile_open(path, mapdir, err, sizeof err);
    CHECK(cf != NULL);
    dj_case *c = malloc(sizeof *c);
    dj_checker *ck = dj_checker_new();
    if (cf && c && ck && next_case(cf, c)) {
        CHECK_STR(c->name, "written");
        CHECK(dj_rule(&c->rules, DJ_RULE_CONVOY_PARADOX) == 'e');
        CHECK(c->pre.phase.season == DJ_FALL && c->pre.phase.year == 1902);
        CHECK(c->pre.owner[dj_map_find_location(map, "mun")] ==
              dj_map_find_power(map, "france"));
        FILE *devnull = fopen("/dev/null", "w");
        CHECK(dj_check_case(ck, dj_casefile_map(cf), c, false,
                            devnull ? devnull : stdout) == DJ_CHECK_PASS);
        if (devnull)
            fclose(devnull);
    }
    dj_checker_free(ck);
    free(c);
    if (cf)
        dj_casefile_close(cf);
    remove(path);
}

static void check_powers(const dj_map *map)
{
    int eng = dj_map_find_power(map, "England");
    CHECK(eng >= 0);
    CHECK(dj_casefile_find_power(map, "England") == eng);
    CHECK(dj_casefile_find_power(map, "eng") == eng);
    CHECK(dj_casefile_find_power(map, "ENGLISH") == eng);
    CHECK(dj_casefile_find_power(map, "Engl") == eng);
    CHECK(dj_casefile_find_power(map, "Engerland") == -1);
    CHECK(dj_casefile_find_power(map, "") == -1);
    CHECK(dj_casefile_find_power(map, "Aus") == dj_map_find_power(map, "A"));
    CHECK(dj_casefile_find_power(map, "xyz") == -1);
}

/* A missing file is an error message, not a crash. */
static void check_missing_file(void)
{
    char err[DJ_CASE_ERR_MAX];
    CHECK(dj_casefile_open("/nonexistent/cases.txt", ".", err, sizeof err) ==
          NULL);
    CHECK(strstr(err, "/nonexistent/cases.txt: cannot open") == err);
}

int main(int argc, char **argv)
{
    const char *srcdir = test_srcdir(argc, argv);
    if (!srcdir)
        srcdir = ".";
    char path[PATH_LEN], err[512];
    snprintf(path, sizeof path, "%s/maps/standard.map", srcdir);
    dj_map *map = dj_map_load(path, err, sizeof err);
    if (!map) {
        fprintf(stderr, "%s\n", err);
        CHECK(map != NULL);
        return test_summary();
    }

    for (size_t i = 0; i < sizeof ORDERS / sizeof ORDERS[0]; i++)
        check_order(map, &ORDERS[i]);
    for (size_t i = 0; i < sizeof ERRORS / sizeof ERRORS[0]; i++)
        check_error(map, &ERRORS[i]);
    check_fields(map);
    check_limits(map);
    check_powers(map);

    check_good_file(srcdir);
    check_jdip_file(srcdir);
    check_case_roundtrip(srcdir, map);
    check_bad_file(srcdir);
    check_noend_file(srcdir);
    check_missing_file();

    dj_map_free(map);
    return test_summary();
}
