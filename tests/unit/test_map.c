/* SPDX-License-Identifier: MIT */
/*
 * test_map.c — the map loader, map lookups, positions and order text.
 *
 * Loads maps/standard.map from the source directory (argv[1], else $srcdir,
 * else ".") and checks it against facts of the standard board: counts,
 * symmetry of every passage, a table of adjacencies for both unit types
 * (coasts and army-only passages included), and every way of naming a
 * location; every board in maps/ has two-way borders between the places
 * where fleets convoy.  Then it feeds the loader broken maps, from files under
 * tests/maps/ and from text built here, expecting each to be refused with
 * "file:line: message"; and it mutates the standard map at random to make
 * sure no input crashes the loader (run it under valgrind for leaks).
 */
#include "engine/map.h"
#include "engine/order.h"
#include "engine/position.h"
#include "testlib.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static char srcdir_path[512];

static void path_in_src(char *buf, size_t len, const char *rel)
{
    snprintf(buf, len, "%s/%s", srcdir_path, rel);
}

static int loc(const dj_map *m, const char *name)
{
    int l = dj_map_find_location(m, name);
    if (l < 0)
        fprintf(stderr, "no location '%s'\n", name);
    return l;
}

/* ---- counts -------------------------------------------------------------- */

static void test_counts(const dj_map *m)
{
    int provinces = 0, playable = 0, coasts = 0;
    for (int i = 0; i < m->nlocs; i++) {
        const dj_location *l = &m->locs[i];
        if (l->is_coast) {
            coasts++;
            continue;
        }
        CHECK(l->province == i);
        provinces++;
        if (l->terrain != DJ_SHUT)
            playable++;
    }
    /* 75 playable provinces plus impassable Switzerland; 6 coasts. */
    CHECK(provinces == 76);
    CHECK(playable == 75);
    CHECK(coasts == 6);
    CHECK(m->nlocs == 82);
    CHECK(m->nsc == 34);
    CHECK(m->npowers == 7);
    CHECK(m->nstart == 22);
    CHECK(m->victory == 18);
    CHECK(m->start_year == 1901);
    CHECK_STR(m->name, "standard");
    CHECK(m->nrules == 0);
}

/* Every passage works both ways, and only between places a unit can stand. */
static void test_symmetry(const dj_map *m)
{
    int asym = 0, misplaced = 0, army_pairs = 0, fleet_pairs = 0;
    for (int a = 0; a < m->nlocs; a++)
        for (int b = 0; b < m->nlocs; b++) {
            bool army = dj_map_adjacent(m, a, b, DJ_ARMY);
            bool fleet = dj_map_adjacent(m, a, b, DJ_FLEET);
            if (army != dj_map_adjacent(m, b, a, DJ_ARMY) ||
                fleet != dj_map_adjacent(m, b, a, DJ_FLEET)) {
                asym++;
                fprintf(stderr, "asymmetric: %s %s\n", m->locs[a].abbr,
                        m->locs[b].abbr);
            }
            if (fleet && (!m->locs[a].fleet_ok || !m->locs[b].fleet_ok))
                misplaced++;
            if (army && !m->locs[a].is_coast && !m->locs[b].is_coast) {
                army_pairs++;
                if (!m->locs[a].army_ok || !m->locs[b].army_ok)
                    misplaced++;
            }
            fleet_pairs += fleet;
        }
    CHECK(asym == 0);
    CHECK(misplaced == 0);
    CHECK(army_pairs > 0 && army_pairs % 2 == 0);
    CHECK(fleet_pairs > 0 && fleet_pairs % 2 == 0);
    for (int a = 0; a < m->nlocs; a++) {
        const dj_location *l = &m->locs[a];
        for (int i = 1; i < l->nadj; i++)
            CHECK(l->adj[i - 1].to < l->adj[i].to);
    }
}

typedef struct adj_fact {
    char unit;
    const char *from, *to;
    bool adjacent;
} adj_fact;

static const adj_fact adj_facts[] = {
    /* armies, per province */
    {'A', "gas", "spa", true},     {'A', "gas", "spa/nc", true},
    {'A', "mar", "spa", true},     {'A', "por", "spa", true},
    {'A', "spa", "gas", true},     {'A', "gas", "mar", true},
    {'A', "pie", "ven", true},     {'A', "tus", "ven", true},
    {'A', "apu", "rom", true},     {'A', "rom", "ven", true},
    {'A', "lvp", "edi", true},     {'A', "lvp", "yor", true},
    {'A', "wal", "yor", true},     {'A', "ank", "smy", true},
    {'A', "arm", "smy", true},     {'A', "arm", "syr", true},
    {'A', "fin", "nwy", true},     {'A', "fin", "stp", true},
    {'A', "mos", "stp", true},     {'A', "nwy", "stp", true},
    {'A', "lvn", "stp", true},     {'A', "con", "bul", true},
    {'A', "rum", "bul", true},     {'A', "ser", "bul", true},
    {'A', "gre", "bul", true},     {'A', "den", "swe", true},
    {'A', "den", "kie", true},     {'A', "boh", "tyr", true},
    {'A', "ukr", "rum", true},     {'A', "tri", "ven", true},
    {'A', "par", "mar", false},    {'A', "mun", "swi", false},
    {'A', "bur", "swi", false},    {'A', "bre", "mao", false},
    {'A', "lon", "bel", false},    {'A', "nap", "tun", false},
    {'A', "hol", "den", false},    {'A', "spa", "naf", false},
    {'A', "bul", "ank", false},    {'A', "stp", "bar", false},
    {'A', "sev", "bul", false},    {'A', "kie", "swe", false},
    /* fleets, per coast */
    {'F', "mao", "spa/nc", true},  {'F', "mao", "spa/sc", true},
    {'F', "gas", "spa/nc", true},  {'F', "mar", "spa/sc", true},
    {'F', "por", "spa/nc", true},  {'F', "por", "spa/sc", true},
    {'F', "lyo", "spa/sc", true},  {'F', "wes", "spa/sc", true},
    {'F', "bar", "stp/nc", true},  {'F', "nwy", "stp/nc", true},
    {'F', "bot", "stp/sc", true},  {'F', "fin", "stp/sc", true},
    {'F', "lvn", "stp/sc", true},  {'F', "bla", "bul/ec", true},
    {'F', "rum", "bul/ec", true},  {'F', "con", "bul/ec", true},
    {'F', "con", "bul/sc", true},  {'F', "aeg", "bul/sc", true},
    {'F', "gre", "bul/sc", true},  {'F', "kie", "bal", true},
    {'F', "kie", "hel", true},     {'F', "con", "aeg", true},
    {'F', "con", "bla", true},     {'F', "den", "ska", true},
    {'F', "den", "bal", true},     {'F', "den", "hel", true},
    {'F', "den", "nth", true},     {'F', "ank", "arm", true},
    {'F', "smy", "syr", true},     {'F', "naf", "tun", true},
    {'F', "alb", "tri", true},     {'F', "apu", "ven", true},
    {'F', "swe", "fin", true},     {'F', "ber", "kie", true},
    {'F', "pru", "lvn", true},     {'F', "eng", "iri", true},
    {'F', "nao", "nwg", true},     {'F', "eas", "syr", true},
    {'F', "gas", "mar", false},    {'F', "pie", "ven", false},
    {'F', "tus", "ven", false},    {'F', "apu", "rom", false},
    {'F', "rom", "ven", false},    {'F', "lvp", "edi", false},
    {'F', "lvp", "yor", false},    {'F', "wal", "yor", false},
    {'F', "ank", "smy", false},    {'F', "arm", "smy", false},
    {'F', "arm", "syr", false},    {'F', "fin", "nwy", false},
    {'F', "gas", "spa/sc", false}, {'F', "mar", "spa/nc", false},
    {'F', "lyo", "spa/nc", false}, {'F', "mao", "spa", false},
    {'F', "bul/ec", "aeg", false}, {'F', "bul/sc", "bla", false},
    {'F', "bul/ec", "gre", false}, {'F', "bul/sc", "rum", false},
    {'F', "stp/nc", "bot", false}, {'F', "stp/sc", "bar", false},
    {'F', "stp/nc", "fin", false}, {'F', "stp/sc", "nwy", false},
    {'F', "kie", "ska", false},    {'F', "bal", "nth", false},
    {'F', "aeg", "bla", false},    {'F', "mos", "stp/sc", false},
    {'F', "bur", "mar", false},    {'F', "spa/nc", "spa/sc", false},
    {'F', "bel", "ruh", false},    {'F', "nth", "ska", true},
};

static void test_adjacency_facts(const dj_map *m)
{
    for (size_t i = 0; i < sizeof adj_facts / sizeof adj_facts[0]; i++) {
        const adj_fact *f = &adj_facts[i];
        dj_unit_type t = f->unit == 'A' ? DJ_ARMY : DJ_FLEET;
        int a = loc(m, f->from), b = loc(m, f->to);
        bool got = dj_map_adjacent(m, a, b, t);
        if (got != f->adjacent)
            fprintf(stderr, "adjacency %c %s-%s: got %d\n", f->unit, f->from,
                    f->to, got);
        CHECK(a >= 0 && b >= 0 && got == f->adjacent);
    }
    /* Bad indices and types are simply not adjacent. */
    CHECK(!dj_map_adjacent(m, -1, 0, DJ_ARMY));
    CHECK(!dj_map_adjacent(m, 0, m->nlocs, DJ_FLEET));
    CHECK(!dj_map_adjacent(m, loc(m, "par"), loc(m, "bur"), DJ_NO_UNIT));
}

static void test_reaches(const dj_map *m)
{
    int spa = loc(m, "spa"), bul = loc(m, "bul"), stp = loc(m, "stp");
    CHECK(dj_map_reaches_province(m, loc(m, "mao"), spa, DJ_FLEET));
    CHECK(dj_map_reaches_province(m, loc(m, "gas"), spa, DJ_FLEET));
    CHECK(dj_map_reaches_province(m, loc(m, "wes"), spa, DJ_FLEET));
    CHECK(dj_map_reaches_province(m, loc(m, "aeg"), bul, DJ_FLEET));
    CHECK(dj_map_reaches_province(m, loc(m, "bla"), loc(m, "bul/sc"),
                                  DJ_FLEET));
    CHECK(!dj_map_reaches_province(m, loc(m, "ser"), bul, DJ_FLEET));
    CHECK(!dj_map_reaches_province(m, loc(m, "mos"), stp, DJ_FLEET));
    CHECK(dj_map_reaches_province(m, loc(m, "mos"), stp, DJ_ARMY));
    CHECK(!dj_map_reaches_province(m, loc(m, "naf"), spa, DJ_ARMY));
    CHECK(dj_map_reaches_province(m, loc(m, "bla"), loc(m, "con"), DJ_FLEET));
    CHECK(!dj_map_reaches_province(m, 0, -5, DJ_ARMY));
    CHECK(dj_map_ncoasts(m, spa) == 2);
    CHECK(dj_map_ncoasts(m, loc(m, "spa/sc")) == 2);
    CHECK(dj_map_ncoasts(m, loc(m, "par")) == 0);
    CHECK(dj_map_ncoasts(m, -1) == 0);
    CHECK(dj_map_coast(m, bul, 0) == loc(m, "bul/ec"));
    CHECK(dj_map_coast(m, bul, 1) == loc(m, "bul/sc"));
    CHECK(dj_map_coast(m, bul, 2) == -1);
    CHECK(dj_map_coast(m, loc(m, "par"), 0) == -1);
    CHECK(dj_province(m, loc(m, "stp/nc")) == stp);
}

/* ---- names --------------------------------------------------------------- */

typedef struct name_fact {
    const char *text;
    const char *abbr; /* NULL: must not resolve */
} name_fact;

static const name_fact name_facts[] = {
    {"spa/nc", "spa/nc"},
    {"SPA(NC)", "spa/nc"},
    {"spa (nc)", "spa/nc"},
    {"spa nc", "spa/nc"},
    {"Spa North Coast", "spa/nc"},
    {"Spain (north coast)", "spa/nc"},
    {"spain/nc", "spa/nc"},
    {"Spain  North   Coast", "spa/nc"},
    {"spain/north coast", "spa/nc"},
    {"spa/n", "spa/nc"},
    {"spa.sc", "spa/sc"},
    {"St. Petersburg (south coast)", "stp/sc"},
    {"StP/sC", "stp/sc"},
    {"stp sc", "stp/sc"},
    {"st petersburg south coast", "stp/sc"},
    {"stp(nc)", "stp/nc"},
    {"bul ec", "bul/ec"},
    {"Bulgaria/south", "bul/sc"},
    {"mid-atlantic", "mao"},
    {"mid", "mao"},
    {"MAO", "mao"},
    {"Mid-Atlantic Ocean", "mao"},
    {"mid atlantic ocean", "mao"},
    {"nat", "nao"},
    {"gol", "lyo"},
    {"Gulf of Lyon", "lyo"},
    {"channel", "eng"},
    {"English Channel", "eng"},
    {"norwegian", "nwg"},
    {"stpete", "stp"},
    {"st petersburg", "stp"},
    {"St. Petersburg", "stp"},
    {"S.T.P.", "stp"},
    {"  paris  ", "par"},
    {"NTH", "nth"},
    {"North Sea", "nth"},
    {"switzerland", "swi"},
    {"romania", "rum"},
    {"", NULL},
    {"   ", NULL},
    {"xyz", NULL},
    {"spa/xc", NULL},
    {"par/nc", NULL},
    {"par nc", NULL},
    {"north", NULL},
    {"spa/", NULL},
    {"(nc)", NULL},
    {"bul/nc", NULL},
    {"a name far too long to be any location on this or any other board", NULL},
};

static void test_names(const dj_map *m)
{
    for (size_t i = 0; i < sizeof name_facts / sizeof name_facts[0]; i++) {
        const name_fact *f = &name_facts[i];
        int l = dj_map_find_location(m, f->text);
        const char *got = l >= 0 ? m->locs[l].abbr : NULL;
        if (f->abbr)
            CHECK_STR(got, f->abbr);
        else
            CHECK(got == NULL);
        if ((f->abbr == NULL) != (got == NULL))
            fprintf(stderr, "lookup '%s' gave %s\n", f->text,
                    got ? got : "nothing");
    }
    CHECK(dj_map_find_location(m, NULL) == -1);
    CHECK(dj_map_find_location(NULL, "par") == -1);
    CHECK_STR(m->locs[loc(m, "spa/nc")].name, "Spain (north coast)");
    CHECK_STR(m->locs[loc(m, "stp")].name, "St. Petersburg");
    CHECK(m->locs[loc(m, "spa")].army_ok && !m->locs[loc(m, "spa")].fleet_ok);
    CHECK(!m->locs[loc(m, "spa/nc")].army_ok);
    CHECK(m->locs[loc(m, "spa/nc")].fleet_ok);
    CHECK(m->locs[loc(m, "spa/nc")].is_coast);
    CHECK(m->locs[loc(m, "swi")].terrain == DJ_SHUT);
    CHECK(!m->locs[loc(m, "swi")].army_ok && !m->locs[loc(m, "swi")].fleet_ok);
    CHECK(m->locs[loc(m, "mao")].terrain == DJ_WATER);
    CHECK(!m->locs[loc(m, "mao")].army_ok);
    CHECK(m->locs[loc(m, "bur")].terrain == DJ_LAND);
    CHECK(!m->locs[loc(m, "bur")].fleet_ok);

    /* The words names are made of (the order reader stops a run of words
     * at one that is in no name): abbreviations, words of full names and
     * aliases cut at spaces, hyphens and parentheses, coast words; case
     * and dots ignored; a token without a letter or digit is let through. */
    const char *in_names[] = {"par", "North", "SEA", "mid", "atlantic",
                              "st.", "petersburg", "spa/nc", "nc", "coast",
                              "s", "/"};
    for (size_t i = 0; i < sizeof in_names / sizeof in_names[0]; i++) {
        CHECK(dj_map_may_name(m, in_names[i], strlen(in_names[i])));
        if (!dj_map_may_name(m, in_names[i], strlen(in_names[i])))
            fprintf(stderr, "'%s' is in no name?\n", in_names[i]);
    }
    const char *not_names[] = {"a", "supports", "xyzzy", "pa"};
    for (size_t i = 0; i < sizeof not_names / sizeof not_names[0]; i++)
        CHECK(!dj_map_may_name(m, not_names[i], strlen(not_names[i])));
    CHECK(dj_map_may_name(m, "parx", 3)); /* only n bytes are read */
}

static void test_powers(const dj_map *m)
{
    static const char *const names[] = {"Austria", "England", "France",
                                        "Germany", "Italy",   "Russia",
                                        "Turkey"};
    static const char letters[] = "AEFGIRT";
    for (int i = 0; i < 7 && i < m->npowers; i++) {
        CHECK_STR(m->powers[i].name, names[i]);
        CHECK(m->powers[i].letter == letters[i]);
    }
    int france = dj_map_find_power(m, "France");
    CHECK(france == 2);
    CHECK_STR(m->powers[2].adjective, "French");
    CHECK(dj_map_find_power(m, "FRENCH") == france);
    CHECK(dj_map_find_power(m, "f") == france);
    CHECK(dj_map_find_power(m, " turkey ") == 6);
    CHECK(dj_map_find_power(m, "T") == 6);
    CHECK(dj_map_find_power(m, "austrian") == 0);
    CHECK(dj_map_find_power(m, "x") == -1);
    CHECK(dj_map_find_power(m, "") == -1);
    CHECK(dj_map_find_power(m, "Prussia") == -1);
    CHECK(dj_map_find_power(m, NULL) == -1);

    int par = loc(m, "par"), bel = loc(m, "bel"), stp = loc(m, "stp");
    CHECK(m->is_sc[par] && m->home_of[par] == DJ_POWER_BIT(france));
    CHECK(m->initial_owner[par] == france);
    CHECK(m->is_sc[bel] && m->home_of[bel] == 0 && m->initial_owner[bel] == -1);
    CHECK(m->is_sc[stp] && m->initial_owner[stp] == 5);
    CHECK(m->is_sc[loc(m, "spa")] && !m->is_sc[loc(m, "bur")]);
    int homes = 0;
    for (int i = 0; i < m->nlocs; i++)
        homes += m->home_of[i] != 0;
    CHECK(homes == 22);
}

/* ---- positions ----------------------------------------------------------- */

static void test_initial_position(const dj_map *m, dj_position *pos)
{
    dj_position_initial(m, pos);
    CHECK(pos->nunits == 22 && pos->ndislodged == 0);
    CHECK(pos->phase.season == DJ_SPRING && pos->phase.year == 1901 &&
          pos->phase.type == DJ_MOVEMENT);
    int u = dj_position_unit_at(m, pos, loc(m, "stp/nc"));
    CHECK(u >= 0 && pos->units[u].loc == loc(m, "stp/sc") &&
          pos->units[u].type == DJ_FLEET && pos->units[u].power == 5);
    u = dj_position_unit_at(m, pos, loc(m, "par"));
    CHECK(u >= 0 && pos->units[u].type == DJ_ARMY && pos->units[u].power == 2);
    CHECK(dj_position_unit_at(m, pos, loc(m, "bur")) == -1);
    CHECK(dj_position_unit_at(m, pos, -3) == -1);
    CHECK(dj_position_centres(m, pos, 5) == 4);
    CHECK(dj_position_centres(m, pos, 2) == 3);
    CHECK(dj_position_centres(m, pos, -1) == 12);
    CHECK(dj_position_units(pos, 5) == 4);
    CHECK(dj_position_units(pos, 0) == 3);
    CHECK(pos->owner[loc(m, "bel")] == -1);
    CHECK(pos->owner[loc(m, "vie")] == 0);
}

static bool has_retreat(const dj_dislodged *d, int l)
{
    for (int i = 0; i < d->nretreats; i++)
        if (d->retreats[i] == l)
            return true;
    return false;
}

static void add_unit(dj_position *pos, int power, dj_unit_type t, int l)
{
    pos->units[pos->nunits++] = (dj_unit){(int16_t)power, (int16_t)l, t};
}

static void test_retreats(const dj_map *m, dj_position *pos)
{
    dj_phase fall = {DJ_FALL, 1901, DJ_RETREAT};
    dj_position_empty(m, fall, pos);
    CHECK(pos->nunits == 0 && pos->phase.season == DJ_FALL);
    CHECK(pos->owner[loc(m, "mos")] == 5);

    /* Army in Serbia, beaten from Budapest; Bulgaria held, Greece bounced. */
    add_unit(pos, 3, DJ_ARMY, loc(m, "bul"));
    add_unit(pos, 0, DJ_ARMY, loc(m, "ser")); /* the victor, now in ser */
    dj_dislodged *a = &pos->dislodged[pos->ndislodged++];
    *a = (dj_dislodged){.unit = {6, (int16_t)loc(m, "ser"), DJ_ARMY},
                        .attacker_from = (int16_t)loc(m, "bud")};
    /* Fleet in MAO, beaten from Brest; Spain held by an army, Portugal by a
     * fleet, North Africa bounced. */
    add_unit(pos, 1, DJ_ARMY, loc(m, "spa"));
    add_unit(pos, 1, DJ_FLEET, loc(m, "por"));
    add_unit(pos, 2, DJ_FLEET, loc(m, "mao"));
    dj_dislodged *f = &pos->dislodged[pos->ndislodged++];
    *f = (dj_dislodged){.unit = {4, (int16_t)loc(m, "mao"), DJ_FLEET},
                        .attacker_from = (int16_t)loc(m, "bre")};
    CHECK(dj_position_dislodged_at(m, pos, loc(m, "mao")) == 1);
    CHECK(dj_position_dislodged_at(m, pos, loc(m, "par")) == -1);

    bool contested[DJ_MAX_LOCS] = {false};
    contested[loc(m, "gre")] = true;
    contested[loc(m, "naf")] = true;
    dj_position_compute_retreats(m, pos, contested, false);
    CHECK(a->nretreats == 3);
    CHECK(has_retreat(a, loc(m, "alb")) && has_retreat(a, loc(m, "rum")) &&
          has_retreat(a, loc(m, "tri")));
    CHECK(!has_retreat(a, loc(m, "bud")) && !has_retreat(a, loc(m, "gre")));
    CHECK(f->nretreats == 5);
    CHECK(has_retreat(f, loc(m, "eng")) && has_retreat(f, loc(m, "gas")) &&
          has_retreat(f, loc(m, "iri")) && has_retreat(f, loc(m, "nao")) &&
          has_retreat(f, loc(m, "wes")));

    /* A convoyed attacker leaves its own province open only if allowed. */
    a->by_convoy = true;
    dj_position_compute_retreats(m, pos, contested, false);
    CHECK(a->nretreats == 3);
    dj_position_compute_retreats(m, pos, contested, true);
    CHECK(a->nretreats == 4 && has_retreat(a, loc(m, "bud")));
    dj_position_compute_retreats(m, pos, NULL, true);
    CHECK(a->nretreats == 5 && has_retreat(a, loc(m, "gre")));
    CHECK(f->nretreats == 6 && has_retreat(f, loc(m, "naf")));
}

static void test_phases(void)
{
    char buf[64];
    dj_phase s = {DJ_SPRING, 1901, DJ_MOVEMENT};
    dj_phase f = {DJ_FALL, 1901, DJ_RETREAT};
    dj_phase w = {DJ_WINTER, 1905, DJ_ADJUSTMENT};
    dj_phase_format(s, buf, sizeof buf);
    CHECK_STR(buf, "Spring 1901 Movement");
    dj_phase_format_short(s, buf, sizeof buf);
    CHECK_STR(buf, "S1901M");
    dj_phase_format(f, buf, sizeof buf);
    CHECK_STR(buf, "Fall 1901 Retreat");
    dj_phase_format_short(f, buf, sizeof buf);
    CHECK_STR(buf, "F1901R");
    dj_phase_format(w, buf, sizeof buf);
    CHECK_STR(buf, "Winter 1905 Adjustment");
    dj_phase_format_short(w, buf, sizeof buf);
    CHECK_STR(buf, "W1905A");
    dj_phase_format(s, buf, 7);
    CHECK_STR(buf, "Spring");
    CHECK_STR(dj_season_name(DJ_FALL), "Fall");
    CHECK_STR(dj_phase_type_name(DJ_ADJUSTMENT), "Adjustment");
}

/* ---- orders -------------------------------------------------------------- */

static void check_order(const dj_map *m, const dj_order *o, const char *want)
{
    char buf[128];
    int n = dj_order_format(m, o, buf, sizeof buf);
    CHECK_STR(buf, want);
    CHECK(n == (int)strlen(want));
}

static dj_order order_to(const dj_map *m, dj_order_kind k, dj_unit_type t,
                         const char *at, const char *dest)
{
    dj_order o = dj_order_make(k, 0, t, loc(m, at));
    if (dest)
        o.dest = (int16_t)loc(m, dest);
    return o;
}

static dj_order order_on(const dj_map *m, dj_order_kind k, dj_unit_type t,
                         const char *at, dj_unit_type tt, const char *target,
                         const char *dest)
{
    dj_order o = order_to(m, k, t, at, dest);
    o.target_type = tt;
    o.target = (int16_t)loc(m, target);
    return o;
}

static void test_orders(const dj_map *m)
{
    dj_order o = dj_order_make(DJ_ORDER_MOVE, 2, DJ_ARMY, 5);
    CHECK(o.kind == DJ_ORDER_MOVE && o.power == 2 && o.loc == 5);
    CHECK(o.target == -1 && o.dest == -1 && o.npath == 0 && o.path[0] == -1);
    CHECK(!o.via_convoy && o.target_type == DJ_NO_UNIT);
    CHECK_STR(dj_unit_letter(DJ_ARMY), "A");
    CHECK_STR(dj_unit_letter(DJ_FLEET), "F");
    CHECK_STR(dj_unit_letter(DJ_NO_UNIT), "");

    o = order_to(m, DJ_ORDER_MOVE, DJ_ARMY, "par", "bur");
    check_order(m, &o, "A PAR - BUR");
    o.unit_type = DJ_NO_UNIT;
    check_order(m, &o, "PAR - BUR");
    o = order_on(m, DJ_ORDER_SUPPORT, DJ_ARMY, "mar", DJ_ARMY, "par", "bur");
    check_order(m, &o, "A MAR S A PAR - BUR");
    o.target_type = DJ_NO_UNIT;
    check_order(m, &o, "A MAR S PAR - BUR");
    o = order_on(m, DJ_ORDER_SUPPORT, DJ_ARMY, "mar", DJ_ARMY, "par", NULL);
    check_order(m, &o, "A MAR S A PAR");
    o = order_on(m, DJ_ORDER_CONVOY, DJ_FLEET, "nth", DJ_ARMY, "lon", "bel");
    check_order(m, &o, "F NTH C A LON - BEL");
    o = order_to(m, DJ_ORDER_HOLD, DJ_ARMY, "par", NULL);
    check_order(m, &o, "A PAR H");
    o = order_to(m, DJ_ORDER_MOVE, DJ_FLEET, "mao", "spa/nc");
    check_order(m, &o, "F MAO - SPA/NC");
    o = order_to(m, DJ_ORDER_MOVE, DJ_ARMY, "lon", "bel");
    o.via_convoy = true;
    check_order(m, &o, "A LON - BEL VIA");
    o.npath = 1;
    o.path[0] = (int16_t)loc(m, "nth");
    check_order(m, &o, "A LON - NTH - BEL");
    o = order_to(m, DJ_ORDER_RETREAT, DJ_ARMY, "par", "bur");
    check_order(m, &o, "A PAR R BUR");
    o = order_to(m, DJ_ORDER_DISBAND, DJ_ARMY, "par", NULL);
    check_order(m, &o, "A PAR D");
    o = order_to(m, DJ_ORDER_BUILD, DJ_ARMY, "par", NULL);
    check_order(m, &o, "A PAR B");
    o = order_to(m, DJ_ORDER_BUILD, DJ_FLEET, "stp/sc", NULL);
    check_order(m, &o, "F STP/SC B");
    o = order_to(m, DJ_ORDER_REMOVE, DJ_FLEET, "bre", NULL);
    check_order(m, &o, "F BRE D");
    o = dj_order_make(DJ_ORDER_WAIVE, 0, DJ_NO_UNIT, -1);
    check_order(m, &o, "WAIVE");
    o = dj_order_make(DJ_ORDER_HOLD, 0, DJ_ARMY, 9999);
    check_order(m, &o, "A ? H");

    char small[5];
    o = order_to(m, DJ_ORDER_MOVE, DJ_ARMY, "par", "bur");
    CHECK(dj_order_format(m, &o, small, sizeof small) == 4);
    CHECK_STR(small, "A PA");
    CHECK(dj_order_format(m, &o, small, 0) == 0);
}

/* ---- malformed maps ------------------------------------------------------ */

static void expect_error(dj_map *m, const char *err, const char *where,
                         const char *what)
{
    bool ok = m == NULL && strstr(err, where) && strstr(err, what);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  error was \"%s\", wanted \"%s\" ... \"%s\"\n", err,
                where, what);
    dj_map_free(m);
}

static void expect_file_error(const char *file, const char *where,
                              const char *what)
{
    char path[1024], err[512] = "";
    snprintf(path, sizeof path, "%s/tests/maps/%s", srcdir_path, file);
    expect_error(dj_map_load(path, err, sizeof err), err, where, what);
}

static void test_bad_files(void)
{
    expect_file_error("bad-keyword.map", "bad-keyword.map:7: ",
                      "unknown keyword 'VICTROY'");
    expect_file_error("bad-abuts.map", "bad-abuts.map:5: ",
                      "undeclared location 'zzz'");
    expect_file_error("bad-unit.map", "bad-unit.map:9: ",
                      "a fleet cannot stand in 'AAA'");
    expect_file_error("bad-duplicate.map", "bad-duplicate.map:3: ",
                      "name 'al' already stands for 'aaa'");
    expect_file_error("bad-equals.map", "bad-equals.map:3: ", "missing '='");
    expect_file_error("bad-number.map", "bad-number.map:7: ",
                      "YEAR needs one number");
    expect_file_error("bad-long-name.map", "bad-long-name.map:3: ",
                      "full name longer than");
    expect_file_error("use-cycle-a.map", "use-cycle-b.map:3: ", "USE cycle");
    expect_file_error("use-missing.map", "use-missing.map:2: ",
                      "cannot open");
    expect_file_error("no-such-map.map", "no-such-map.map", "cannot open");
    char err[64];
    CHECK(dj_map_load(NULL, err, sizeof err) == NULL);
    CHECK(dj_map_load("/nonexistent/x.map", NULL, 0) == NULL);
}

static void test_use(void)
{
    char path[1024], err[512] = "";
    path_in_src(path, sizeof path, "tests/maps/use-standard.map");
    dj_map *m = dj_map_load(path, err, sizeof err);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    CHECK(m->nlocs == 82 && m->nsc == 34 && m->victory == 20);
    CHECK_STR(m->name, "long-standard");
    CHECK(m->nrules == 1);
    CHECK_STR(m->rules[0], "convoy_paradox=b");
    dj_map_free(m);
}

/* A tiny board: a coastal land, a sea, and a province with one coast. */
static const char tiny[] =
    "# tiny test board\n"
    "Alpha = aaa al\n"
    "Beta Sea = bbb\n"
    "Gamma = ccc\n"
    "Gamma (north coast) = ccc/nc\n"
    "COAST AAA ABUTS BBB ccc CCC/NC\n"
    "WATER BBB ABUTS AAA CCC/NC\n"
    "COAST ccc ABUTS aaa\n"
    "COAST CCC/NC ABUTS AAA BBB\n"
    "red (reddish) AAA\n"
    "UNOWNED CCC\n"
    "RULE foo = bar\n"
    "\n"
    "RED\n"
    "# a comment does not end the list\n"
    "A AAA\n";

static void test_parse_tiny(void)
{
    char err[256] = "x";
    dj_map *m = dj_map_parse(tiny, "tiny.map", err, sizeof err);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    CHECK_STR(err, "");
    CHECK_STR(m->name, "tiny");
    CHECK(m->nlocs == 4 && m->nsc == 2 && m->victory == 2);
    CHECK(m->npowers == 1 && m->powers[0].letter == 'R');
    CHECK_STR(m->powers[0].name, "Red");
    CHECK_STR(m->powers[0].adjective, "Reddish");
    CHECK(m->nrules == 1);
    CHECK_STR(m->rules[0], "foo = bar");
    CHECK(m->nstart == 1 && m->start_units[0].type == DJ_ARMY);
    int aaa = dj_map_find_location(m, "al");
    int ccc = dj_map_find_location(m, "gamma");
    int cnc = dj_map_find_location(m, "gamma (nc)");
    int bbb = dj_map_find_location(m, "beta sea");
    CHECK(aaa >= 0 && ccc >= 0 && bbb >= 0 && cnc == ccc + 1);
    CHECK(dj_map_ncoasts(m, ccc) == 1 && dj_map_coast(m, ccc, 0) == cnc);
    CHECK(dj_map_adjacent(m, aaa, ccc, DJ_ARMY));
    CHECK(dj_map_adjacent(m, ccc, aaa, DJ_ARMY));
    CHECK(dj_map_adjacent(m, aaa, cnc, DJ_FLEET));
    CHECK(dj_map_adjacent(m, bbb, cnc, DJ_FLEET));
    CHECK(!dj_map_adjacent(m, aaa, ccc, DJ_FLEET));
    CHECK(!dj_map_adjacent(m, bbb, aaa, DJ_ARMY));
    dj_map_free(m);
}

/* The tiny board with one line appended. */
static void expect_tiny_error(const char *extra, const char *where,
                              const char *what)
{
    char text[4096], err[512] = "";
    snprintf(text, sizeof text, "%s%s", tiny, extra);
    expect_error(dj_map_parse(text, "tiny.map", err, sizeof err), err, where,
                 what);
}

static void test_parse_errors(void)
{
    char err[256] = "";
    expect_tiny_error("USE other.map\n", "tiny.map:17: ", "USE is not allowed");
    expect_tiny_error("A al\n", "tiny.map:17: ", "two units start in 'al'");
    expect_tiny_error("F CCC\n", "tiny.map:17: ",
                      "a fleet cannot stand in 'CCC'");
    expect_tiny_error("A BBB\n", "tiny.map:17: ",
                      "an army cannot stand in 'BBB'");
    expect_tiny_error("A QQQ\n", "tiny.map:17: ", "unknown location 'QQQ'");
    expect_tiny_error("UNOWNED BBB\nA CCC\n", "tiny.map:18: ",
                      "does not follow a power");
    expect_tiny_error("Alpha Two = aaa\n", "tiny.map:17: ", "named twice");
    expect_tiny_error("Delta = ddd\n", "tiny.map:17: ", "no terrain line");
    expect_tiny_error("COAST EEE/NC\n", "tiny.map:17: ",
                      "coast 'eee/nc' of undeclared province 'eee'");
    /* "*AAA" is read (test_map_dialect.c); a * anywhere else is not */
    expect_tiny_error("LAND DDD ABUTS AAA*\n", "tiny.map:17: ",
                      "half-strength border written other than *PLACE");
    expect_tiny_error("LAND DDD ABUTS **AAA\n", "tiny.map:17: ",
                      "half-strength border written other than *PLACE");
    expect_tiny_error("LAND DDD ABUTS *\n", "tiny.map:17: ",
                      "half-strength border written other than *PLACE");
    expect_tiny_error("LAND DDD ABUTS *AAA~\n", "tiny.map:17: ",
                      "strait (~");
    expect_tiny_error("LAND DDD ABUTS AAA~\n", "tiny.map:17: ",
                      "strait (~");
    expect_tiny_error("LAND DDD ABUTS AAA~\n", "tiny.map:17: ",
                      "has strength 0 plus its supports; no unit supports "
                      "across it, to hold or to move; an unsupported move "
                      "across it cuts no support");
    expect_tiny_error("LAND DDD NEXT AAA\n", "tiny.map:17: ", "expected ABUTS");
    expect_tiny_error("BLUE (BLUISH) AAA\n", "tiny.map:17: ",
                      "'AAA' is already a home centre of Red");
    expect_tiny_error("BLUE BLUISH AAA\n", "tiny.map:17: ",
                      "unknown keyword 'BLUE' (or, read as a power, unknown "
                      "home centre 'BLUISH')");
    expect_tiny_error("VICTROY\n", "tiny.map: ",
                      "power 'Victroy' has no home centre, centre or unit");
    expect_tiny_error("BLUE (BLUISH AAA\n", "tiny.map:17: ", "adjective");
    expect_tiny_error("VICTORY 3\n", "tiny.map:17: ", "more than the 2");
    expect_tiny_error("VICTORY 99999999999\n", "tiny.map:17: ",
                      "VICTORY needs one number");
    expect_tiny_error("RULE nothing\n", "tiny.map:17: ", "name=value");
    expect_tiny_error("Epsilon = eee an+alias+that+goes+on+and+on+well+past+the+limit\n"
                      "LAND EEE\n",
                      "tiny.map:17: ", "alias");
    expect_tiny_error("LAND ABCDEFGHIJKLMNOPQ\n", "tiny.map:17: ",
                      "longer than 15");
    /* lookups drop '.' and read '+' as a space (a fuzz finding) */
    expect_tiny_error("LAND A.RA\n", "tiny.map:17: ", "may not contain '.'");
    expect_tiny_error("Eta = e+t\n", "tiny.map:17: ", "may not contain '.'");
    /* a name lookups reduce to nothing could never be found (a fuzz
     * finding) */
    expect_tiny_error("Eta = eee +\nLAND EEE\n", "tiny.map:17: ",
                      "alias '+' has nothing but dots and '+'");
    expect_tiny_error("... = eee\nLAND EEE\n", "tiny.map:17: ",
                      "full name '...' has nothing but dots and '+'");
    expect_tiny_error("Zeta =\n", "tiny.map:17: ", "no abbreviation");
    expect_tiny_error("= zzz\n", "tiny.map:17: ", "no full name");

    expect_error(dj_map_parse("", "empty.map", err, sizeof err), err,
                 "empty.map: ", "no locations");
    expect_error(dj_map_parse("LAND AAA\n", "np.map", err, sizeof err), err,
                 "np.map: ", "no powers");
    expect_error(dj_map_parse(NULL, "null.map", err, sizeof err), err,
                 "null.map", "no map text");
    CHECK(dj_map_parse("junk here", NULL, NULL, 0) == NULL);
}

/* Errors that need big generated maps. */
static void test_limits(void)
{
    size_t cap = 64 * 1024;
    char *text = malloc(cap), err[256] = "";
    if (!text)
        return;

    /* 33 neighbours on line 1. */
    size_t n = (size_t)snprintf(text, cap, "LAND L00 ABUTS");
    for (int i = 1; i <= 33; i++)
        n += (size_t)snprintf(text + n, cap - n, " L%02d", i);
    n += (size_t)snprintf(text + n, cap - n, "\n");
    for (int i = 1; i <= 33; i++)
        n += (size_t)snprintf(text + n, cap - n, "LAND L%02d ABUTS L00\n", i);
    expect_error(dj_map_parse(text, "adj.map", err, sizeof err), err,
                 "adj.map:1: ", "more than 32 neighbours");

    /* 1025 locations. */
    n = 0;
    for (int i = 0; i <= DJ_MAX_LOCS; i++)
        n += (size_t)snprintf(text + n, cap - n, "LAND X%04d\n", i);
    expect_error(dj_map_parse(text, "locs.map", err, sizeof err), err,
                 "locs.map:1025: ", "more than 1024 locations");

    /* An overlong line. */
    memset(text, 'x', 2000);
    memcpy(text + 2000, "\n", 2);
    expect_error(dj_map_parse(text, "long.map", err, sizeof err), err,
                 "long.map:1: ", "line longer than");
    free(text);
}

/* Append a file's text to buf (of size cap, holding *n bytes), leaving out
 * USE lines: map text in memory may not include files. */
static bool append_without_use(char *buf, size_t cap, size_t *n,
                               const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char line[2048];
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        if (strncmp(line, "USE ", 4) == 0)
            continue;
        if (*n + len + 1 > cap)
            break;
        memcpy(buf + *n, line, len);
        *n += len;
    }
    fclose(f);
    buf[*n] = '\0';
    return true;
}

/* Random damage to the standard map (its geography, politics and units
 * as one text) must be refused or accepted, never crash or leak. */
static void test_mutations(void)
{
    static char orig[64 * 1024];
    char path[1024];
    size_t n = 0;
    path_in_src(path, sizeof path, "maps/standard.geography");
    CHECK(append_without_use(orig, sizeof orig, &n, path));
    path_in_src(path, sizeof path, "maps/standard.politics");
    CHECK(append_without_use(orig, sizeof orig, &n, path));
    path_in_src(path, sizeof path, "maps/standard.map");
    CHECK(append_without_use(orig, sizeof orig, &n, path));
    if (n == 0)
        return;
    char err[256];
    dj_map *whole = dj_map_parse(orig, "whole.map", err, sizeof err);
    CHECK(whole != NULL); /* undamaged, the text loads */
    dj_map_free(whole);
    char *text = malloc(n + 1);
    if (!text)
        return;
    unsigned seed = 12345;
    int loaded = 0, refused = 0;
    for (int round = 0; round < 300; round++) {
        memcpy(text, orig, n + 1);
        for (int k = 0; k < 1 + round % 5; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % n;
            static const char junk[] = "=()/#\n \tAaZz+-9ABUTS";
            text[at] = junk[(seed >> 20) % (sizeof junk - 1)];
        }
        dj_map *m = dj_map_parse(text, "mutant.map", err, sizeof err);
        if (m)
            loaded++;
        else
            refused++;
        if (!m)
            CHECK(strncmp(err, "mutant.map:", 11) == 0);
        dj_map_free(m);
    }
    CHECK(loaded + refused == 300);
    CHECK(loaded > 0); /* some damage is harmless: the text was really read */
    free(text);
}

/* The adjacency table built at load (map.c: tabulate_reach) answers as the
 * adjacency lists do, for every pair of locations and both unit types. */
static void test_reach_table(dj_map *m, const char *board)
{
    int wrong = 0, yes = 0;
    uint8_t *table = m->reach;
    CHECK(table != NULL);
    for (int from = 0; from < m->nlocs; from++)
        for (int to = 0; to < m->nlocs; to++)
            for (int type = DJ_ARMY; type <= DJ_FLEET; type++) {
                m->reach = table;
                bool adj = dj_map_adjacent(m, from, to, (dj_unit_type)type);
                bool reaches = dj_map_reaches_province(m, from, to,
                                                       (dj_unit_type)type);
                m->reach = NULL; /* the lists themselves */
                bool adj_l = dj_map_adjacent(m, from, to, (dj_unit_type)type);
                bool reaches_l = dj_map_reaches_province(m, from, to,
                                                         (dj_unit_type)type);
                yes += adj + reaches;
                if ((adj != adj_l || reaches != reaches_l) && wrong++ == 0)
                    fprintf(stderr, "%s: %s -> %s (%s): table %d %d, "
                            "lists %d %d\n", board, m->locs[from].abbr,
                            m->locs[to].abbr, type == DJ_ARMY ? "A" : "F",
                            adj, reaches, adj_l, reaches_l);
            }
    m->reach = table;
    CHECK(wrong == 0);
    CHECK(yes > 0);
}

/*
 * Three letters are looked up in a table (map.c: dj_map.three_letter), any
 * other text by hash after normalising it.  The table must give what the
 * normalised lookup gives, for every three letters in every case, on every
 * shipped board: " abc" (a leading space) always takes the normalised path.
 */
/* The boards of maps/ (every NAME.map), at most max of them; how many. */
static int shipped_boards(char names[][64], int max)
{
    char dir[1024];
    path_in_src(dir, sizeof dir, "maps");
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d)
        return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < max;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && len - 4 < 64 &&
            strcmp(e->d_name + len - 4, ".map") == 0)
            snprintf(names[n++], 64, "%.*s", (int)(len - 4), e->d_name);
    }
    closedir(d);
    return n;
}

static void test_three_letter_table(void)
{
    char boards[64][64];
    int nboards = shipped_boards(boards, 64);
    CHECK(nboards >= 8);
    for (int b = 0; b < nboards; b++) {
        const char *board = boards[b];
        char rel[96], path[1024], err[512] = "";
        snprintf(rel, sizeof rel, "maps/%s.map", board);
        path_in_src(path, sizeof path, rel);
        dj_map *m = dj_map_load(path, err, sizeof err);
        CHECK(m != NULL);
        if (!m)
            continue;
        int wrong = 0, found = 0;
        for (int i = 0; i < 26 * 26 * 26 * 3; i++) {
            int k = i % (26 * 26 * 26), casing = i / (26 * 26 * 26);
            char w[8] = {' ', (char)('a' + k / 676), (char)('a' + k / 26 % 26),
                         (char)('a' + k % 26), '\0', 'x', '\0'};
            if (casing == 1)
                for (int j = 1; j <= 3; j++)
                    w[j] = (char)(w[j] - 'a' + 'A');
            if (casing == 2)
                w[2] = (char)(w[2] - 'a' + 'A');
            int want = dj_map_find_location(m, w); /* normalised */
            found += want >= 0;
            int got[3] = {dj_map_find_location_n(m, w + 1, 3),
                          dj_map_find_location(m, w + 1),
                          dj_map_find_location_n(m, w + 1, 5)};
            for (int g = 0; g < 3; g++)
                if (got[g] != want && wrong++ == 0)
                    fprintf(stderr, "%s: '%s' (way %d): %d, want %d\n",
                            board, w + 1, g, got[g], want);
            w[4] = 'e'; /* four letters: not a three-letter name */
            if (dj_map_find_location(m, w + 1) != dj_map_find_location(m, w) &&
                wrong++ == 0)
                fprintf(stderr, "%s: '%s' is not looked up as itself\n",
                        board, w + 1);
        }
        CHECK(wrong == 0);
        CHECK(found > 0);
        test_reach_table(m, board);
        dj_map_free(m);
    }
}

/* ---- every shipped board ------------------------------------------------- */

/*
 * The engines' convoy route searches read a border between two places
 * where fleets convoy as two-way: every board in maps/ lists them so.
 */
static void test_convoy_borders_two_way(void)
{
    char dir[1024], path[1400], err[512];
    path_in_src(dir, sizeof dir, "maps");
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d)
        return;
    int boards = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".map") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        dj_map *m = dj_map_load(path, err, sizeof err);
        CHECK(m != NULL);
        if (!m)
            continue;
        boards++;
        int one_way = 0;
        for (int a = 0; a < m->nlocs; a++)
            for (int b = 0; b < m->nlocs; b++)
                if (m->locs[a].convoys && m->locs[b].convoys &&
                    dj_map_adjacent(m, a, b, DJ_FLEET) !=
                        dj_map_adjacent(m, b, a, DJ_FLEET)) {
                    one_way++;
                    fprintf(stderr, "%s: one-way border %s %s\n",
                            e->d_name, m->locs[a].abbr, m->locs[b].abbr);
                }
        CHECK(one_way == 0);
        dj_map_free(m);
    }
    closedir(d);
    CHECK(boards >= 8);
}

int main(int argc, char **argv)
{
    const char *dir = test_srcdir(argc, argv);
    snprintf(srcdir_path, sizeof srcdir_path, "%s", dir ? dir : ".");
    char path[1024], err[512] = "";
    path_in_src(path, sizeof path, "maps/standard.map");
    dj_map *m = dj_map_load(path, err, sizeof err);
    CHECK(m != NULL);
    if (!m) {
        fprintf(stderr, "cannot load %s: %s\n", path, err);
        return test_summary();
    }
    static dj_position pos;
    test_counts(m);
    test_symmetry(m);
    test_adjacency_facts(m);
    test_reaches(m);
    test_names(m);
    test_powers(m);
    test_initial_position(m, &pos);
    test_retreats(m, &pos);
    test_phases();
    test_orders(m);
    dj_map_free(m);

    test_three_letter_table();
    test_bad_files();
    test_use();
    test_parse_tiny();
    test_parse_errors();
    test_limits();
    test_mutations();
    test_convoy_borders_two_way();
    return test_summary();
}
