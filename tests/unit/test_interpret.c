/* SPDX-License-Identifier: MIT */
/*
 * test_interpret.c — the best-effort order reader (reader/interpret.h) and
 * its fuzzy matching (reader/fuzzy.h), against maps/standard.map.
 *
 * Positions are built here unit by unit, so each check shows exactly which
 * units the reader could see.  Readings are compared through
 * dj_reading_format ("OK A PAR - BUR", "AMBIGUOUS ... | ..."), the notes
 * and reasons by the words they must contain.  The corpus of players'
 * lines lives in tests/orders/ and runs through judgectl; this file covers
 * the API itself: distances and bounds, ties, the rules-based choices of
 * DATC 4.E.2, the rule options, limits and bad arguments.
 *
 * Usage: test_interpret [SRCDIR]   (default: $srcdir, else ".")
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/map.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "reader/fuzzy.h"
#include "reader/interpret.h"
#include "testlib.h"

#define PATH_LEN 1024
#define MAX_OUT 16
#define LINE_LEN 1024

/* ---- helpers ------------------------------------------------------------- */

static int power_of(const dj_map *map, const char *name)
{
    int p = dj_map_find_power(map, name);
    if (p < 0)
        fprintf(stderr, "no power %s\n", name);
    return p;
}

/* "France A bur" -> one unit on the board (or dislodged, with retreats). */
static void put(const dj_map *map, dj_position *pos, const char *power,
                dj_unit_type type, const char *where)
{
    dj_unit u = {(int16_t)power_of(map, power),
                 (int16_t)dj_map_find_location(map, where), type};
    if (u.loc >= 0 && pos->nunits < DJ_MAX_UNITS)
        pos->units[pos->nunits++] = u;
}

static void empty_board(const dj_map *map, dj_position *pos, dj_phase_type t)
{
    dj_phase ph = {t == DJ_ADJUSTMENT ? DJ_WINTER : DJ_SPRING, 1901, t};
    dj_position_empty(map, ph, pos);
}

/* Read `text` (lines separated by '\n') and return the readings, formatted
 * and joined by " || ", in buf. */
static int read_text(const dj_map *map, const dj_position *pos,
                     const char *power, const dj_rules *rules, const char *text,
                     dj_reading *out, char *buf, size_t len)
{
    char copy[4096];
    const char *lines[64];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", text);
    for (char *s = copy, *nl; n < 64; s = nl + 1) {
        lines[n++] = s;
        if (!(nl = strchr(s, '\n')))
            break;
        *nl = '\0';
    }
    int got = dj_interpret_lines(map, pos, power_of(map, power), rules, lines,
                                 n, out, MAX_OUT);
    buf[0] = '\0';
    for (int i = 0; i < got && i < MAX_OUT; i++) {
        char one[1024];
        dj_reading_format(&out[i], one, sizeof one);
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? " || " : "", one);
    }
    return got;
}

typedef struct fixture {
    const dj_map *map;
    dj_position *pos;
    dj_rules rules;
    dj_reading out[MAX_OUT];
    char buf[8192];
} fixture;

/* Check that reading `text` for `power` prints `want`. */
#define EXPECT(f, power, text, want)                                           \
    do {                                                                       \
        read_text((f)->map, (f)->pos, power, &(f)->rules, text, (f)->out,      \
                  (f)->buf, sizeof(f)->buf);                                   \
        CHECK_STR((f)->buf, want);                                             \
    } while (0)

/* The message of reading i contains `part`. */
#define EXPECT_MSG(f, i, part)                                                 \
    do {                                                                       \
        const char *m_ = (f)->out[i].message;                                  \
        if (strstr(m_, part)) {                                                \
            test_passed++;                                                     \
        } else {                                                               \
            test_failed++;                                                     \
            fprintf(stderr, "%s:%d: message \"%s\" lacks \"%s\"\n", __FILE__,  \
                    __LINE__, m_, part);                                       \
        }                                                                      \
    } while (0)

/* ---- edit distance ------------------------------------------------------- */

static void check_distance(void)
{
    CHECK(dj_edit_distance("paris", "paris", 3) == 0);
    CHECK(dj_edit_distance("pariz", "paris", 3) == 1);     /* substitution */
    CHECK(dj_edit_distance("bohmeia", "bohemia", 3) == 1); /* swap */
    CHECK(dj_edit_distance("pars", "paris", 3) == 1);      /* insertion */
    CHECK(dj_edit_distance("parris", "paris", 3) == 1);    /* deletion */
    CHECK(dj_edit_distance("kitten", "sitting", 5) == 3);
    CHECK(dj_edit_distance("", "abc", 5) == 3);
    CHECK(dj_edit_distance("abc", "", 5) == 3);
    /* bounded: anything beyond the bound reads as bound + 1 */
    CHECK(dj_edit_distance("kitten", "sitting", 2) == 3);
    CHECK(dj_edit_distance("a", "abcdefgh", 1) == 2);
    CHECK(dj_edit_distance("abc", "xyz", 0) == 1);
    CHECK(dj_edit_distance(NULL, "x", 1) == 2);
    char longer[100];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    CHECK(dj_edit_distance(longer, longer, 3) == 4); /* too long to compare */

    CHECK(dj_fuzzy_bound(1) == 0);
    CHECK(dj_fuzzy_bound(2) == 1);
    CHECK(dj_fuzzy_bound(4) == 1);
    CHECK(dj_fuzzy_bound(5) == 2);
    CHECK(dj_fuzzy_bound(8) == 2);
    CHECK(dj_fuzzy_bound(9) == 3);
}

/* Is location `abbr` among the matches, at distance d? */
static bool has_match(const dj_map *map, const dj_loc_match *m, int n,
                      const char *abbr, int d)
{
    int loc = dj_map_find_location(map, abbr);
    for (int i = 0; i < n; i++)
        if (m[i].loc == loc && m[i].dist == d)
            return true;
    return false;
}

static void check_fuzzy_locations(const dj_map *map)
{
    dj_loc_match m[16];
    int n = dj_fuzzy_locations(map, "pir", m, 16);
    CHECK(has_match(map, m, n, "par", 1));
    CHECK(has_match(map, m, n, "pic", 1));
    CHECK(has_match(map, m, n, "pie", 1));
    CHECK(!has_match(map, m, n, "bur", 1));
    for (int i = 1; i < n; i++)
        CHECK(m[i - 1].dist <= m[i].dist); /* closest first */

    n = dj_fuzzy_locations(map, "pariz", m, 16);
    CHECK(n >= 1 && m[0].loc == dj_map_find_location(map, "par") &&
          m[0].dist == 1);
    n = dj_fuzzy_locations(map, "tyrrh", m, 16); /* a shortened name */
    CHECK(has_match(map, m, n, "tys", 1));
    n = dj_fuzzy_locations(map, "english chanel", m, 16);
    CHECK(n >= 1 && m[0].loc == dj_map_find_location(map, "eng"));
    CHECK(dj_fuzzy_locations(map, "qqqqqq", m, 16) == 0);
    CHECK(dj_fuzzy_locations(map, "x", m, 16) == 0);  /* too short */
    CHECK(dj_fuzzy_locations(map, "pir", m, 1) == 1); /* max respected */
    CHECK(dj_fuzzy_locations(NULL, "pir", m, 16) == 0);
}

/* ---- DATC 4.E.2 ---------------------------------------------------------- */

static void check_datc_examples(fixture *f)
{
    const dj_map *map = f->map;
    empty_board(map, f->pos, DJ_MOVEMENT);
    put(map, f->pos, "France", DJ_ARMY, "bur");
    put(map, f->pos, "France", DJ_ARMY, "par");
    put(map, f->pos, "France", DJ_ARMY, "pic");
    put(map, f->pos, "Russia", DJ_FLEET, "rum");
    put(map, f->pos, "Russia", DJ_ARMY, "ser");
    put(map, f->pos, "Russia", DJ_ARMY, "gre");

    /* example 1: Paris or Picardy? (Piedmont is not next to Burgundy) */
    EXPECT(f, "France", "A Bur - Pir", "AMBIGUOUS A BUR - PAR | A BUR - PIC");
    EXPECT_MSG(f, 0, "'pir' could be Paris or Picardy");
    CHECK(f->out[0].ncandidates == 2);
    /* example 2: a small misspelling, reported */
    EXPECT(f, "France", "A Burgundy - Pariz", "OK A BUR - PAR");
    EXPECT_MSG(f, 0, "'pariz' read as Paris");
    /* example 5: only Bulgaria's east coast is possible for the fleet */
    EXPECT(f, "Russia", "F Rum - Bu.", "OK F RUM - BUL/EC");
    /* example 6: Greece can support into Bulgaria only */
    EXPECT(f, "Russia", "A Gre S A Ser - Bu.", "OK A GRE S A SER - BUL");
    /* alone, Serbia's move is ambiguous ... */
    EXPECT(f, "Russia", "A Ser - Bu", "AMBIGUOUS A SER - BUD | A SER - BUL");
    /* ... example 8: the support settles it */
    EXPECT(f, "Russia", "A Ser - Bu\nA Gre S A Ser - Bu",
           "OK A SER - BUL || OK A GRE S A SER - BUL");
    /* and in the other order */
    EXPECT(f, "Russia", "A Gre S A Ser - Bu\nA Ser - Bu",
           "OK A GRE S A SER - BUL || OK A SER - BUL");
    /* example 7: Paris already has an order, so 'Pir' is Picardy */
    EXPECT(f, "France", "A Par S F Pir - Bre\nA Pir - Bre",
           "OK A PAR S A PIC - BRE || OK A PIC - BRE");
    EXPECT_MSG(f, 0, "the unit in Picardy is an army");
    /* a unit ordered on another line is not the one meant */
    EXPECT(f, "France", "A Par - Gas\nA Pir - Bel",
           "OK A PAR - GAS || OK A PIC - BEL");
    /* example 3 analogue: an exact name is never changed */
    EXPECT(f, "France", "A Bur - Mar", "OK A BUR - MAR");
    /* 4.E.1 d: an order no route could make is refused ... */
    EXPECT(f, "France", "A Bur - Tyr", "ERROR A BUR - TYR: not adjacent");
    /* ... under the other choices it is read as written, and fails */
    CHECK(dj_rules_set(&f->rules, "illegal_orders=c", NULL, 0));
    EXPECT(f, "France", "A Bur - Tyr", "OK A BUR - TYR");
    EXPECT_MSG(f, 0, "will fail");
    dj_rules_default(&f->rules);
}

/* Orders are never read with another power's units as "theirs". */
static void check_own_units_only(fixture *f)
{
    const dj_map *map = f->map;
    empty_board(map, f->pos, DJ_MOVEMENT);
    put(map, f->pos, "France", DJ_ARMY, "par");
    put(map, f->pos, "Germany", DJ_ARMY, "pic");
    /* only Paris is France's: 'pir' must be Paris */
    EXPECT(f, "France", "A Pir - Bur", "OK A PAR - BUR");
    EXPECT(f, "France", "Germany: A pic - bur",
           "ERROR this order is for Germany, not France");
    EXPECT(f, "France", "German A pic - bur",
           "ERROR this order is for Germany, not France");
    EXPECT(f, "France", "A German pic - bur",
           "ERROR cannot order a German unit");
}

/* Words other than places: keywords and nationalities misspelt, "con". */
static void check_words(fixture *f)
{
    const dj_map *map = f->map;
    empty_board(map, f->pos, DJ_MOVEMENT);
    put(map, f->pos, "Turkey", DJ_FLEET, "aeg");
    put(map, f->pos, "Turkey", DJ_ARMY, "smy");
    put(map, f->pos, "Turkey", DJ_ARMY, "bul");
    put(map, f->pos, "Russia", DJ_ARMY, "gre");
    EXPECT(f, "Turkey", "A bul suport A smy - con", "OK A BUL S A SMY - CON");
    EXPECT_MSG(f, 0, "'suport' read as 'support'");
    EXPECT(f, "Turkey", "F aeg S Rusian A gre", "OK F AEG S A GRE");
    EXPECT_MSG(f, 0, "'rusian' read as Russian");
    /* "con": a convoy after the unit's place, else Constantinople */
    EXPECT(f, "Turkey", "F aeg con A smy - gre", "OK F AEG C A SMY - GRE");
    EXPECT(f, "Turkey", "A smy con", "OK A SMY - CON");
    EXPECT(f, "Turkey", "A con - smy", "ERROR no unit in Constantinople");
    EXPECT(f, "Turkey", "A bul S A smy con", "OK A BUL S A SMY - CON");
}

/* ---- rule options -------------------------------------------------------- */

static void check_unit_type_rules(fixture *f)
{
    const dj_map *map = f->map;
    empty_board(map, f->pos, DJ_MOVEMENT);
    put(map, f->pos, "France", DJ_ARMY, "par");
    put(map, f->pos, "France", DJ_FLEET, "bre");
    dj_rules_default(&f->rules);
    EXPECT(f, "France", "par - bur", "OK A PAR - BUR");   /* 4.C.1 b */
    EXPECT(f, "France", "F par - bur", "OK A PAR - BUR"); /* 4.C.2 b */
    EXPECT_MSG(f, 0, "the unit in Paris is an army");
    char err[128];
    CHECK(dj_rules_set(&f->rules, "unit_missing=a", err, sizeof err));
    CHECK(dj_rules_set(&f->rules, "unit_wrong=a", err, sizeof err));
    EXPECT(f, "France", "par - bur",
           "ERROR no unit type written (rule 4.C.1 a)");
    EXPECT(f, "France", "F par - bur", "ERROR wrong unit type (rule 4.C.2 a)");
    CHECK(dj_rules_set(&f->rules, "unit_missing=c", err, sizeof err));
    CHECK(dj_rules_set(&f->rules, "unit_wrong=c", err, sizeof err));
    EXPECT(f, "France", "par - bur", "OK A PAR - BUR");
    /* 4.C.1 c: the order naming the type wins; without one, none is lost */
    EXPECT(f, "France", "par - bur\nA par - pic",
           "ERROR ignored: the order for A PAR on line 2 names its unit type "
           "(rule 4.C.1/4.C.2 c) || OK A PAR - PIC");
    EXPECT(f, "France", "F par - bur\nA par - pic",
           "ERROR ignored: the order for A PAR on line 2 names its unit type "
           "(rule 4.C.1/4.C.2 c) || OK A PAR - PIC");
    dj_rules_default(&f->rules);
}

static void check_nationality_rules(fixture *f)
{
    const dj_map *map = f->map;
    char err[128];
    empty_board(map, f->pos, DJ_MOVEMENT);
    put(map, f->pos, "France", DJ_ARMY, "bur");
    put(map, f->pos, "Germany", DJ_ARMY, "mun");
    dj_rules_default(&f->rules);
    EXPECT(f, "France", "A bur S A mun", "OK A BUR S A MUN");
    EXPECT(f, "France", "A bur S German A mun", "OK A BUR S A MUN");
    EXPECT(f, "France", "A bur S Italian A mun", "OK A BUR S A MUN");
    EXPECT_MSG(f, 0, "the unit in Munich is German, not Italian");
    CHECK(dj_rules_set(&f->rules, "4.C.5=a", err, sizeof err));
    CHECK(dj_rules_set(&f->rules, "4.C.6=a", err, sizeof err));
    EXPECT(f, "France", "A bur S A mun",
           "ERROR foreign unit without its nationality (rule 4.C.5 a)");
    EXPECT(f, "France", "A bur S Italian A mun",
           "ERROR wrong nationality (rule 4.C.6 a)");
    EXPECT(f, "France", "A bur S German A mun", "OK A BUR S A MUN");
    dj_rules_default(&f->rules);
}

static void check_multiple_orders(fixture *f)
{
    const dj_map *map = f->map;
    char err[128];
    empty_board(map, f->pos, DJ_MOVEMENT);
    put(map, f->pos, "France", DJ_ARMY, "par");
    dj_rules_default(&f->rules); /* 4.D.3 c: none is used */
    EXPECT(f, "France", "A par - bur\nA par - pic",
           "ERROR A PAR has several orders (lines 1 and 2): none is used and "
           "the unit holds (rule 4.D.3 c) || ERROR A PAR has several orders "
           "(lines 1 and 2): none is used and the unit holds (rule 4.D.3 c)");
    /* the same order twice is just that order */
    EXPECT(f, "France", "A par - bur\nA par-bur",
           "OK A PAR - BUR || OK A PAR - BUR");
    EXPECT_MSG(f, 1, "repeats the order on line 1");
    /* an impossible order is no second order (4.D.3 with 4.E.1) */
    EXPECT(f, "France", "A par - bur\nA par - mun",
           "OK A PAR - BUR || ERROR A PAR - MUN: not adjacent");
    CHECK(dj_rules_set(&f->rules, "multiple_orders=a", err, sizeof err));
    EXPECT(f, "France", "A par - bur\nA par - pic",
           "OK A PAR - BUR || ERROR dropped: A PAR already has an order "
           "(line 1), and the first is kept (rule 4.D.3 a)");
    CHECK(dj_rules_set(&f->rules, "multiple_orders=b", err, sizeof err));
    EXPECT(f, "France", "A par - bur\nA par - pic",
           "ERROR dropped: A PAR has a later order (line 2), and the last is "
           "kept (rule 4.D.3 b) || OK A PAR - PIC");
    dj_rules_default(&f->rules);
}

static void check_coast_rules(fixture *f)
{
    const dj_map *map = f->map;
    char err[128];
    empty_board(map, f->pos, DJ_MOVEMENT);
    put(map, f->pos, "France", DJ_FLEET, "mao");
    put(map, f->pos, "France", DJ_FLEET, "gas");
    put(map, f->pos, "France", DJ_FLEET, "spa/nc");
    dj_rules_default(&f->rules);
    EXPECT(f, "France", "F gas - spa", "OK F GAS - SPA/NC"); /* 4.B.2 a */
    EXPECT(f, "France", "F mao - spa", /* 4.B.1 a */
           "ERROR F MAO - SPA: which coast? both can be reached");
    EXPECT(f, "France", "F gas - spa/sc", /* 4.B.3 b */
           "ERROR F GAS - SPA/SC: that coast cannot be reached");
    EXPECT(f, "France", "F spa/sc - por", "OK F SPA/NC - POR"); /* 4.B.5 b */
    EXPECT_MSG(f, 0, "coast ignored");
    EXPECT(f, "France", "F mao - spa/wc", /* 4.B.6 b, then 4.B.1 a */
           "ERROR F MAO - SPA: which coast? both can be reached");
    CHECK(dj_rules_set(&f->rules, "4.B.3=a", err, sizeof err));
    CHECK(dj_rules_set(&f->rules, "4.B.5=a", err, sizeof err));
    CHECK(dj_rules_set(&f->rules, "4.B.6=a", err, sizeof err));
    EXPECT(f, "France", "F gas - spa/sc", "OK F GAS - SPA/NC");
    EXPECT(f, "France", "F spa/sc - por", "OK F SPA/SC - POR");
    EXPECT(f, "France", "F mao - spa/wc",
           "ERROR a coast that does not exist (rule 4.B.6 a)");
    CHECK(dj_rules_set(&f->rules, "4.B.2=c", err, sizeof err));
    EXPECT(f, "France", "F gas - spa", "ERROR F GAS - SPA: no coast given");
    dj_rules_default(&f->rules);
}

static void check_convoy_path_rule(fixture *f)
{
    const dj_map *map = f->map;
    char err[128];
    empty_board(map, f->pos, DJ_MOVEMENT);
    put(map, f->pos, "England", DJ_ARMY, "lon");
    put(map, f->pos, "England", DJ_FLEET, "nth");
    dj_rules_default(&f->rules);
    EXPECT(f, "England", "A lon-nth-nwy", "OK A LON - NWY");
    EXPECT_MSG(f, 0, "convoy route ignored");
    CHECK(dj_rules_set(&f->rules, "convoy_path=b", err, sizeof err));
    EXPECT(f, "England", "A lon-nth-nwy", "OK A LON - NTH - NWY");
    CHECK(f->out[0].order.npath == 1);
    dj_rules_default(&f->rules);
}

/* ---- phases -------------------------------------------------------------- */

static void check_phases(fixture *f)
{
    const dj_map *map = f->map;
    empty_board(map, f->pos, DJ_RETREAT);
    put(map, f->pos, "France", DJ_ARMY, "bur");
    dj_dislodged *d = &f->pos->dislodged[f->pos->ndislodged++];
    memset(d, 0, sizeof *d);
    d->unit = (dj_unit){(int16_t)power_of(map, "Germany"),
                        (int16_t)dj_map_find_location(map, "mun"), DJ_ARMY};
    d->attacker_from = (int16_t)dj_map_find_location(map, "bur");
    d->retreats[d->nretreats++] = (int16_t)dj_map_find_location(map, "boh");
    d->retreats[d->nretreats++] = (int16_t)dj_map_find_location(map, "sil");
    EXPECT(f, "Germany", "A mun - bo", "OK A MUN R BOH");
    EXPECT(f, "Germany", "A mun - si", "OK A MUN R SIL");
    EXPECT(f, "Germany", "disband A mun", "OK A MUN D");
    EXPECT(f, "Germany", "A mun S A bur",
           "ERROR in a retreat phase a dislodged unit can only retreat or "
           "disband");

    empty_board(map, f->pos, DJ_ADJUSTMENT);
    f->pos->owner[dj_map_find_location(map, "bel")] =
        (int16_t)power_of(map, "France");
    EXPECT(f, "France", "build A pari, Build F bre; waive",
           "OK A PAR B || OK F BRE B || OK WAIVE");
    EXPECT_MSG(f, 0, "'pari' read as Paris");
    CHECK(f->out[1].line == 0 && f->out[2].line == 0);
    EXPECT(f, "France", "A par - bur",
           "ERROR in an adjustment phase units are built or removed");

    empty_board(map, f->pos, DJ_MOVEMENT);
    EXPECT(f, "France", "build A par",
           "ERROR builds and disbands are ordered in the adjustment phase");
}

/* ---- limits and odd input ------------------------------------------------ */

static void check_limits(fixture *f)
{
    const dj_map *map = f->map;
    empty_board(map, f->pos, DJ_MOVEMENT);
    put(map, f->pos, "France", DJ_ARMY, "par");
    int fr = power_of(map, "France");

    /* bad arguments */
    const char *one[] = {"A par H"};
    CHECK(dj_interpret_lines(NULL, f->pos, fr, &f->rules, one, 1, f->out,
                             MAX_OUT) == -1);
    CHECK(dj_interpret_lines(map, NULL, fr, &f->rules, one, 1, f->out,
                             MAX_OUT) == -1);
    CHECK(dj_interpret_lines(map, f->pos, 99, &f->rules, one, 1, f->out,
                             MAX_OUT) == -1);
    CHECK(dj_interpret_lines(map, f->pos, fr, NULL, one, 1, f->out, MAX_OUT) ==
          -1);
    CHECK(dj_interpret_lines(map, f->pos, fr, &f->rules, NULL, 1, f->out,
                             MAX_OUT) == -1);
    /* counting only, as with snprintf */
    CHECK(dj_interpret_lines(map, f->pos, fr, &f->rules, one, 1, NULL, 0) == 1);
    const char *three[] = {"A par H, A par H; A par H"};
    CHECK(dj_interpret_lines(map, f->pos, fr, &f->rules, three, 1, f->out, 1) ==
          3);
    /* blank lines and NULL lines give nothing */
    const char *blank[] = {"", "   ", NULL, "France:", ",,;"};
    CHECK(dj_interpret_lines(map, f->pos, fr, &f->rules, blank, 5, f->out,
                             MAX_OUT) == 0);

    /* a line too long */
    char *lng = malloc(DJ_READ_LINE_MAX + 10);
    memset(lng, 'a', DJ_READ_LINE_MAX + 9);
    lng[DJ_READ_LINE_MAX + 9] = '\0';
    const char *lines[] = {lng};
    CHECK(dj_interpret_lines(map, f->pos, fr, &f->rules, lines, 1, f->out,
                             MAX_OUT) == 1);
    CHECK_STR(f->out[0].message, "line too long");
    free(lng);

    /* too many orders: the rest is reported, once */
    int n = DJ_READ_MAX_ORDERS + 50;
    const char **many = malloc((size_t)n * sizeof *many);
    for (int i = 0; i < n; i++)
        many[i] = "A par H";
    int got = dj_interpret_lines(map, f->pos, fr, &f->rules, many, n, NULL, 0);
    CHECK(got == DJ_READ_MAX_ORDERS + 1);
    free(many);

    /* every order with many readings: the budget refuses the excess */
    const char **wide = malloc(600 * sizeof *wide);
    for (int i = 0; i < 600; i++) /* 64 readings each */
        wide[i] = "A pir S A pir - pir";
    dj_reading *outs = malloc(600 * sizeof *outs);
    got = dj_interpret_lines(map, f->pos, fr, &f->rules, wide, 600, outs, 600);
    CHECK(got == 600);
    /* read within the budget: its readings, none of them possible */
    CHECK(outs[0].kind == DJ_READ_ERROR &&
          strstr(outs[0].message, "could be") &&
          strstr(outs[0].message, "none of those orders"));
    CHECK(outs[599].kind == DJ_READ_ERROR &&
          strstr(outs[599].message, "too many ways to read"));
    free(outs);
    free(wide);

    /* an ambiguity offers only orders the unit could be given:
     * "A lvp-pir" reaches none of Paris, Picardy, Piedmont, Portugal */
    {
        const char *lvp[] = {"A lvp-pir"};
        dj_reading r1;
        dj_position *saved = malloc(sizeof *saved);
        *saved = *f->pos;
        empty_board(map, f->pos, DJ_MOVEMENT);
        put(map, f->pos, "England", DJ_ARMY, "lvp");
        int en = power_of(map, "England");
        CHECK(dj_interpret_lines(map, f->pos, en, &f->rules, lvp, 1, &r1,
                                 1) == 1);
        CHECK(r1.kind == DJ_READ_ERROR && r1.ncandidates == 0);
        CHECK(strstr(r1.message, "'pir' could be Paris or Picardy") != NULL);
        CHECK(strstr(r1.message, "none of those orders (not adjacent)") !=
              NULL);
        *f->pos = *saved;
        free(saved);
    }

    /* odd characters */
    EXPECT(f, "France", "A par \xe2\x80\x93 bur", "OK A PAR - BUR");
    EXPECT(f, "France", "A par - b\xc3\xbcr", "OK A PAR - BUR");
    EXPECT(f, "France", "A par - b\xe2\x82\xacr",
           "ERROR cannot read a character that is not plain text");
    EXPECT(f, "France", "A par - xyz", "ERROR unknown place 'xyz'");
    EXPECT(f, "France", "A par",
           "ERROR incomplete order: what should 'par' do?");
    EXPECT(f, "France", "A par - bur bur bur bur bur bur bur bur bur bur bur",
           "ERROR cannot read 'bur bur bur bur bur bur bur bur bur bur bur' "
           "as a destination");
    EXPECT(f, "France",
           "A par - bur bur bur bur bur bur bur bur bur bur bur "
           "bur bur bur",
           "ERROR too many words in a place name near 'bur'");
}

static void check_format(void)
{
    dj_reading r;
    memset(&r, 0, sizeof r);
    char buf[64];
    r.kind = DJ_READ_AMBIGUOUS;
    r.ncandidates = 2;
    strcpy(r.candidates[0], "A BUR - PAR");
    strcpy(r.candidates[1], "A BUR - PIC");
    CHECK(dj_reading_format(&r, buf, sizeof buf) == 35);
    CHECK_STR(buf, "AMBIGUOUS A BUR - PAR | A BUR - PIC");
    CHECK(dj_reading_format(&r, buf, 10) == 9); /* truncated */
    CHECK_STR(buf, "AMBIGUOUS");
    CHECK(dj_reading_format(NULL, buf, sizeof buf) == 0);
    CHECK_STR(dj_read_kind_name(DJ_READ_ERROR), "ERROR");
}

/*
 * The names in players' languages (maps/standard.names.*): each a place
 * of the standard map, none a common English word, none a word that
 * would turn a line of prose into an order; misspelt, still read.
 */
static void check_language_names(const dj_map *map, const char *srcdir)
{
    static const char *const LANGS[] = {"de", "fr", "it", "es", "tr"};
    /* English words a player writes in prose that no name may be */
    static const char *const ENGLISH[] = {
        "see", "nord", "mer", "mar", "gales", "land", "sea", "north",
        "golf", "bay", "gulf", "west", "east", "black", "middle"};
    int names = 0;
    for (size_t l = 0; l < sizeof LANGS / sizeof LANGS[0]; l++) {
        char path[PATH_LEN], line[1024];
        snprintf(path, sizeof path, "%s/maps/standard.names.%s", srcdir,
                 LANGS[l]);
        FILE *fp = fopen(path, "r");
        CHECK(fp != NULL);
        if (!fp)
            continue;
        while (fgets(line, sizeof line, fp)) {
            char *save = NULL, *w = strtok_r(line, " \n", &save);
            if (!w || strcmp(w, "NAMES") != 0)
                continue;
            char *abbr = strtok_r(NULL, " \n", &save);
            int loc = dj_map_find_location(map, abbr);
            CHECK(loc >= 0);
            for (char *n = strtok_r(NULL, " \n", &save); n;
                 n = strtok_r(NULL, " \n", &save)) {
                char name[128];
                snprintf(name, sizeof name, "%s", n);
                for (char *p = name; *p; p++)
                    if (*p == '+')
                        *p = ' ';
                names++;
                if (dj_map_find_location(map, name) != loc) {
                    fprintf(stderr, "%s: '%s' is not %s\n", path, name,
                            abbr);
                    CHECK(0);
                }
                if (!strchr(name, ' ') && dj_fuzzy_common_word(name)) {
                    fprintf(stderr, "%s: '%s' is a common word\n", path,
                            name);
                    CHECK(0);
                }
                for (size_t k = 0; k < sizeof ENGLISH / sizeof ENGLISH[0];
                     k++)
                    if (strcmp(name, ENGLISH[k]) == 0) {
                        fprintf(stderr, "%s: '%s' is English\n", path, name);
                        CHECK(0);
                    }
            }
        }
        fclose(fp);
    }
    CHECK(names > 250);
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
    fixture *f = calloc(1, sizeof *f);
    f->map = map;
    f->pos = calloc(1, sizeof *f->pos);
    dj_rules_default(&f->rules);

    check_distance();
    check_fuzzy_locations(map);
    check_datc_examples(f);
    check_own_units_only(f);
    check_words(f);
    check_unit_type_rules(f);
    check_nationality_rules(f);
    check_multiple_orders(f);
    check_coast_rules(f);
    check_convoy_path_rule(f);
    check_phases(f);
    check_limits(f);
    check_format();
    check_language_names(map, srcdir);

    free(f->pos);
    free(f);
    dj_map_free(map);
    return test_summary();
}
