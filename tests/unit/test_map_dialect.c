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
#include "engine/map.h"
#include "engine/position.h"
#include "engine/rules_map.h"
#include "testlib.h"

#include <stdlib.h>

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
                   "BEGIN needs a season, a year and a phase");
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
    expect_refused("RED (REDDISH) AAA\nUNOWNED BBB\nHOME *BBB\n",
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
        {"FLOW A.D.:MOVEMENT,RETREATS", "phase orders other than"},
        {"IN F1905M: AMEND AAA ABUTS -BBB", "changes during the game"},
        {"FROM S1905M", "changes during the game"},
        {"ROTATE CONTROL", "rotating control"},
        {"NEWHOMES 1905", "chosen during the game"},
        {"TEAM RED-BLUE", "teams of powers"},
        {"TEAMS RED-BLUE", "teams of powers"},
        {"LEAGUE NORTH", "leagues of powers"},
        {"CONTROL RED", "controlled by other powers"},
        {"RESERVES 2", "reserve units"},
        {"MILITIA 1", "militia units"},
        {"DROP GGG", "dropping places"},
        {"AMEND AAA ABUTS -GGG", "amending an inherited place"},
        {"PORT EEE ABUTS DDD", "convoying from a coastal port"},
        {"UNPLAYED RED", "use DUMMY"},
        {"STANDARD DIRECTIVES", "directive blocks"},
        {"Alpha -> Alphaville = aav", "renaming a place"},
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

int main(int argc, char **argv)
{
    const char *dir = test_srcdir(argc, argv);
    snprintf(srcdir_path, sizeof srcdir_path, "%s", dir ? dir : ".");
    test_power_letters();
    test_begin();
    test_rule_words();
    test_centres();
    test_dummies();
    test_ignored();
    test_refused();
    test_root_map();
    test_variants();
    return test_summary();
}
