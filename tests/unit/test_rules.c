/* SPDX-License-Identifier: MIT */
/*
 * test_rules.c — the table of chapter-4 rule options and how a game's rules
 * are built from it.
 *
 * Checks the table itself (every row well formed, names and issue numbers
 * unique, defaults equal to the DATC's preferred choices), looking options
 * up, reading "name=value" assignments (letters, capitals, aliases, white
 * space, and the messages for bad ones), and the layering of
 * engine/rules_map.h: defaults, then a map's RULE lines (from text in memory
 * and from tests/maps/), then overrides, and a case file whose map sets
 * rules (tests/casefile/maprules.txt).  argv[1] is the source directory.
 */
#include "casefile/casefile.h"
#include "engine/map.h"
#include "engine/rules.h"
#include "engine/rules_map.h"
#include "testlib.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>

/* ---- the table ----------------------------------------------------------- */

/* The DATC's preferred choice of each issue, from chapter 4 of the DATC. */
static const struct {
    const char *issue;
    char preferred;
} datc_preferred[] = {
    {"4.A.1", 'b'}, {"4.A.2", 'd'}, {"4.A.3", 'd'}, {"4.A.4", 'a'},
    {"4.A.5", 'b'}, {"4.A.6", 'a'}, {"4.A.7", 'b'}, {"4.B.1", 'a'},
    {"4.B.2", 'a'}, {"4.B.3", 'b'}, {"4.B.4", 'd'}, {"4.B.5", 'b'},
    {"4.B.6", 'b'}, {"4.B.7", 'a'}, {"4.C.1", 'b'}, {"4.C.2", 'b'},
    {"4.C.3", 'c'}, {"4.C.4", 'a'}, {"4.C.5", 'b'}, {"4.C.6", 'b'},
    {"4.D.3", 'c'}, {"4.D.4", 'b'}, {"4.D.5", 'b'}, {"4.D.6", 'b'},
    {"4.D.7", 'a'}, {"4.D.8", 'd'}, {"4.D.9", 'b'}, {"4.E.1", 'd'},
    {"4.E.3", 'b'},
    /* Rules of variants: the standard game's rule is the default. */
    {"V.1", 'a'},
};
#define NPREFERRED (int)(sizeof datc_preferred / sizeof datc_preferred[0])

/* "4.X.n": the chapter, a section letter A to E, a number; or "V.n", a
 * rule of variants. */
static bool issue_well_formed(const char *s)
{
    if (s[0] == 'V')
        return s[1] == '.' && isdigit((unsigned char)s[2]) && s[3] == '\0';
    return s[0] == '4' && s[1] == '.' && s[2] >= 'A' && s[2] <= 'E' &&
           s[3] == '.' && isdigit((unsigned char)s[4]) && s[5] == '\0';
}

static void test_rows(void)
{
    const dj_rule_info *t = dj_rule_table();
    CHECK(t != NULL);
    for (int i = 0; i < DJ_RULE_COUNT; i++) {
        const dj_rule_info *r = &t[i];
        CHECK((int)r->id == i);
        CHECK(r->name && r->name[0] && r->summary && r->summary[0]);
        CHECK(r->issue && issue_well_formed(r->issue));
        /* Choices are the letters a, b, c, ... in order, at least two. */
        size_t n = strlen(r->choices);
        CHECK(n >= 2);
        for (size_t k = 0; k < n; k++)
            CHECK(r->choices[k] == (char)('a' + k));
        CHECK(r->preferred && strchr(r->choices, r->preferred));
        /* One text per choice, no more. */
        size_t ntext = 0;
        while (r->choice_text && r->choice_text[ntext])
            CHECK(r->choice_text[ntext++][0] != '\0');
        CHECK(ntext == n);
        /* Option names are lower case words joined by '_'. */
        for (const char *p = r->name; *p; p++)
            CHECK(islower((unsigned char)*p) || *p == '_');
        for (int j = 0; j < i; j++) {
            CHECK(strcmp(t[j].name, r->name) != 0);
            CHECK(strcmp(t[j].issue, r->issue) != 0);
        }
    }
}

static void test_defaults(void)
{
    dj_rules rules;
    memset(&rules, 0, sizeof rules);
    dj_rules_default(&rules);
    const dj_rule_info *t = dj_rule_table();
    for (int i = 0; i < DJ_RULE_COUNT; i++)
        CHECK(dj_rule(&rules, (dj_rule_id)i) == t[i].preferred);
    /* Every option is in the DATC's list (or a variant rule), with its
     * preferred choice. */
    CHECK(NPREFERRED == DJ_RULE_COUNT);
    for (int k = 0; k < NPREFERRED; k++) {
        const dj_rule_info *r = dj_rule_find(datc_preferred[k].issue);
        CHECK(r != NULL);
        if (r && r->preferred != datc_preferred[k].preferred)
            fprintf(stderr, "  %s %s: default '%c', the DATC prefers '%c'\n",
                    r->issue, r->name, r->preferred,
                    datc_preferred[k].preferred);
        CHECK(r && r->preferred == datc_preferred[k].preferred);
    }
}

static void test_find(void)
{
    const dj_rule_info *t = dj_rule_table();
    for (int i = 0; i < DJ_RULE_COUNT; i++) {
        CHECK(dj_rule_find(t[i].name) == &t[i]);
        CHECK(dj_rule_find(t[i].issue) == &t[i]);
    }
    const dj_rule_info *cp = &t[DJ_RULE_CONVOY_PARADOX];
    CHECK_STR(cp->name, "convoy_paradox");
    CHECK_STR(cp->issue, "4.A.2");
    CHECK(dj_rule_find("4.A.2") == cp);
    CHECK(dj_rule_find("4.a.2") == cp);
    CHECK(dj_rule_find("CONVOY_PARADOX") == cp);
    CHECK(dj_rule_find("Convoy-Paradox") == cp);
    CHECK(dj_rule_find("4.E.3") == &t[DJ_RULE_IMPLICIT_ORDERS]);
    CHECK(dj_rule_find("4.D.8") == &t[DJ_RULE_CIVIL_DISORDER_REMOVAL]);
    CHECK(dj_rule_find("") == NULL);
    CHECK(dj_rule_find("convoy") == NULL);
    CHECK(dj_rule_find("convoy_paradoxes") == NULL);
    CHECK(dj_rule_find("4.A") == NULL);
    CHECK(dj_rule_find("4.A.2.") == NULL);
    CHECK(dj_rule_find("4.D.1") == NULL); /* an issue with no option */
    CHECK(dj_rule_find("4.E.2") == NULL);
}

/* ---- reading assignments ------------------------------------------------- */

/* dj_rules_set must accept `text` and set `id` to `want`. */
static void expect_set(const char *text, dj_rule_id id, char want)
{
    dj_rules rules;
    char err[256] = "untouched";
    dj_rules_default(&rules);
    bool ok = dj_rules_set(&rules, text, err, sizeof err);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  '%s' refused: %s\n", text, err);
    CHECK(dj_rule(&rules, id) == want);
    /* Nothing else moved. */
    dj_rules def;
    dj_rules_default(&def);
    for (int i = 0; i < DJ_RULE_COUNT; i++)
        if (i != (int)id)
            CHECK(rules.choice[i] == def.choice[i]);
}

/* dj_rules_set must refuse `text` with exactly `want`, changing nothing. */
static void expect_refused(const char *text, const char *want)
{
    dj_rules rules, def;
    char err[256] = "";
    dj_rules_default(&rules);
    dj_rules_default(&def);
    CHECK(!dj_rules_set(&rules, text, err, sizeof err));
    CHECK_STR(err, want);
    CHECK(memcmp(&rules, &def, sizeof rules) == 0);
}

static void test_set(void)
{
    /* Letters, either case, by name or by issue number. */
    expect_set("convoy_paradox=a", DJ_RULE_CONVOY_PARADOX, 'a');
    expect_set("convoy_paradox=F", DJ_RULE_CONVOY_PARADOX, 'f');
    expect_set("4.A.2=c", DJ_RULE_CONVOY_PARADOX, 'c');
    expect_set("4.a.3=E", DJ_RULE_ADJACENT_CONVOY, 'e');
    expect_set("WAIVE=b", DJ_RULE_WAIVE, 'b');
    expect_set("implicit_orders=a", DJ_RULE_IMPLICIT_ORDERS, 'a');
    /* Aliases, in any case, '-' for '_'. */
    expect_set("convoy_paradox=1971", DJ_RULE_CONVOY_PARADOX, 'a');
    expect_set("convoy_paradox=1982", DJ_RULE_CONVOY_PARADOX, 'b');
    expect_set("convoy_paradox=2000", DJ_RULE_CONVOY_PARADOX, 'c');
    expect_set("convoy_paradox=szykman", DJ_RULE_CONVOY_PARADOX, 'd');
    expect_set("4.A.2=Szykman", DJ_RULE_CONVOY_PARADOX, 'd');
    expect_set("convoy_paradox=all_hold", DJ_RULE_CONVOY_PARADOX, 'e');
    expect_set("convoy_paradox=All-Hold", DJ_RULE_CONVOY_PARADOX, 'e');
    expect_set("convoy_paradox=allhold", DJ_RULE_CONVOY_PARADOX, 'e');
    expect_set("convoy_paradox=dptg", DJ_RULE_CONVOY_PARADOX, 'f');
    expect_set("convoy_paradox=DPTG", DJ_RULE_CONVOY_PARADOX, 'f');
    /* White space around the name, the '=' and the value. */
    expect_set("  convoy_paradox = b  ", DJ_RULE_CONVOY_PARADOX, 'b');
    expect_set("\t4.A.5\t=\ta\n", DJ_RULE_CONVOY_RETREAT, 'a');
    expect_set("convoy_paradox= szykman ", DJ_RULE_CONVOY_PARADOX, 'd');

    /* Bad names. */
    expect_refused("nonesuch=a",
                   "unknown rule 'nonesuch' (see 'judgectl rules')");
    expect_refused(" 4.Z.1 = a", "unknown rule '4.Z.1' (see 'judgectl rules')");
    expect_refused("=a", "unknown rule '' (see 'judgectl rules')");
    expect_refused("convoy_paradox",
                   "expected name=choice, got 'convoy_paradox'");
    expect_refused("", "expected name=choice, got ''");
    /* Bad choices: letters out of range, aliases of another option. */
    expect_refused(
        "convoy_paradox=g",
        "rule convoy_paradox (4.A.2) takes one of 'abcdef', not 'g'");
    expect_refused("waive=c", "rule waive (4.D.7) takes one of 'ab', not 'c'");
    expect_refused("4.A.1=szykman", "rule multi_route_disruption (4.A.1) "
                                    "takes one of 'ab', not 'szykman'");
    expect_refused("convoy_paradox=", "rule convoy_paradox (4.A.2) takes one "
                                      "of 'abcdef', not ''");
    expect_refused("convoy_paradox=ab", "rule convoy_paradox (4.A.2) takes one "
                                        "of 'abcdef', not 'ab'");
    expect_refused("convoy_paradox=1", "rule convoy_paradox (4.A.2) takes one "
                                       "of 'abcdef', not '1'");
    expect_refused("convoy_paradox=all hold", "rule convoy_paradox (4.A.2) "
                                              "takes one of 'abcdef', not "
                                              "'all hold'");

    /* A short error buffer is cut, never overrun. */
    dj_rules rules;
    dj_rules_default(&rules);
    char small[8];
    memset(small, 'x', sizeof small);
    CHECK(!dj_rules_set(&rules, "nonesuch=a", small, sizeof small));
    CHECK(memchr(small, '\0', sizeof small) != NULL);
    CHECK(strncmp(small, "unknown", 7) == 0);
}

static void test_assign(void)
{
    dj_rules rules, def;
    char err[256] = "";
    dj_rules_default(&rules);
    dj_rules_default(&def);
    CHECK(dj_rule_assign(&rules, "4.D.9=a", err, sizeof err) ==
          DJ_RULE_CIVIL_DISORDER_SUPPORT);
    CHECK(dj_rule(&rules, DJ_RULE_CIVIL_DISORDER_SUPPORT) == 'a');
    CHECK_STR(err, "");
    /* Setting the default still names the option. */
    CHECK(dj_rule_assign(&rules, "waive=a", err, sizeof err) == DJ_RULE_WAIVE);
    CHECK(dj_rule_assign(&rules, "waive=q", err, sizeof err) == -1);
    CHECK_STR(err, "rule waive (4.D.7) takes one of 'ab', not 'q'");
    CHECK(dj_rule(&rules, DJ_RULE_WAIVE) == 'a');
    CHECK(dj_rule_assign(&rules, NULL, err, sizeof err) == -1);
    CHECK(dj_rule_assign(&rules, "bogus", NULL, 0) == -1);
    rules.choice[DJ_RULE_CIVIL_DISORDER_SUPPORT] = 'b';
    CHECK(memcmp(&rules, &def, sizeof rules) == 0);
}

/* ---- rules from a map ---------------------------------------------------- */

/* A small board (as in test_map.c), then whatever RULE lines are added. */
static const char tiny[] = "Alpha = aaa\n"
                           "Beta Sea = bbb\n"
                           "COAST AAA ABUTS BBB\n"
                           "WATER BBB ABUTS AAA\n"
                           "red (reddish) AAA\n"
                           "RED\n"
                           "A AAA\n";

static dj_map *tiny_with(const char *rules)
{
    char text[2048], err[256] = "";
    snprintf(text, sizeof text, "%s%s", tiny, rules);
    dj_map *m = dj_map_parse(text, "tiny.map", err, sizeof err);
    CHECK(m != NULL);
    if (!m)
        fprintf(stderr, "  tiny map refused: %s\n", err);
    return m;
}

static void test_from_map(void)
{
    char err[512] = "";
    dj_rules rules, def;
    dj_rules_default(&def);

    /* No map, or a map without RULE lines: the defaults. */
    memset(&rules, 'x', sizeof rules);
    CHECK(dj_rules_from_map(NULL, &rules, err, sizeof err) == 0);
    CHECK(memcmp(&rules, &def, sizeof rules) == 0);
    dj_map *m = tiny_with("");
    if (m) {
        memset(&rules, 'x', sizeof rules);
        CHECK(dj_rules_from_map(m, &rules, err, sizeof err) == 0);
        CHECK(memcmp(&rules, &def, sizeof rules) == 0);
        dj_map_free(m);
    }

    /* RULE lines in every spelling; a later line wins. */
    m = tiny_with("RULE convoy_paradox = szykman\n"
                  "RULE 4.B.4=E\n"
                  "RULE waive=b\n"
                  "RULE 4.D.7 = a\n"
                  "RULE convoy_paradox=All_Hold\n");
    if (!m)
        return;
    CHECK(m->nrules == 5);
    CHECK(dj_rules_from_map(m, &rules, err, sizeof err) == 0);
    CHECK_STR(err, "");
    CHECK(dj_rule(&rules, DJ_RULE_CONVOY_PARADOX) == 'e');
    CHECK(dj_rule(&rules, DJ_RULE_COAST_IN_SUPPORT) == 'e');
    CHECK(dj_rule(&rules, DJ_RULE_WAIVE) == 'a');
    CHECK(dj_rule(&rules, DJ_RULE_ADJACENT_CONVOY) ==
          def.choice[DJ_RULE_ADJACENT_CONVOY]);

    /* The whole build: overrides come last; sources are recorded. */
    dj_rule_source from[DJ_RULE_COUNT];
    const char *const over[] = {"convoy_paradox=b", "4.A.3 = e"};
    CHECK(dj_rules_build(m, over, 2, &rules, from, err, sizeof err) == 0);
    CHECK(dj_rule(&rules, DJ_RULE_CONVOY_PARADOX) == 'b');
    CHECK(dj_rule(&rules, DJ_RULE_ADJACENT_CONVOY) == 'e');
    CHECK(dj_rule(&rules, DJ_RULE_COAST_IN_SUPPORT) == 'e');
    CHECK(from[DJ_RULE_CONVOY_PARADOX] == DJ_RULE_FROM_OVERRIDE);
    CHECK(from[DJ_RULE_ADJACENT_CONVOY] == DJ_RULE_FROM_OVERRIDE);
    CHECK(from[DJ_RULE_COAST_IN_SUPPORT] == DJ_RULE_FROM_MAP);
    CHECK(from[DJ_RULE_WAIVE] == DJ_RULE_FROM_MAP);
    CHECK(from[DJ_RULE_IMPLICIT_ORDERS] == DJ_RULE_FROM_DEFAULT);
    CHECK(dj_rules_build(NULL, NULL, 0, &rules, from, err, sizeof err) == 0);
    CHECK(memcmp(&rules, &def, sizeof rules) == 0);
    CHECK(from[DJ_RULE_WAIVE] == DJ_RULE_FROM_DEFAULT);

    /* A bad override: refused by name, nothing changed. */
    dj_rules before = rules;
    const char *const bad[] = {"waive=b", "waive=z"};
    CHECK(dj_rules_build(m, bad, 2, &rules, NULL, err, sizeof err) == -1);
    CHECK_STR(err, "override 'waive=z': rule waive (4.D.7) takes one of "
                   "'ab', not 'z'");
    CHECK(memcmp(&rules, &before, sizeof rules) == 0);
    dj_map_free(m);

    /* Bad RULE lines: refused with the line and the map, nothing changed. */
    m = tiny_with("RULE waive=b\nRULE convoy_paradox=z\n");
    if (m) {
        memset(&rules, 'x', sizeof rules);
        before = rules;
        CHECK(dj_rules_from_map(m, &rules, err, sizeof err) == -1);
        CHECK_STR(err, "RULE 'convoy_paradox=z' of map 'tiny': rule "
                       "convoy_paradox (4.A.2) takes one of 'abcdef', not "
                       "'z'");
        CHECK(memcmp(&rules, &before, sizeof rules) == 0);
        for (int i = 0; i < DJ_RULE_COUNT; i++)
            from[i] = DJ_RULE_FROM_DEFAULT;
        dj_rules_default(&rules);
        CHECK(dj_rules_apply_map(m, &rules, from, err, sizeof err) == -1);
        CHECK(from[DJ_RULE_WAIVE] == DJ_RULE_FROM_DEFAULT);
        CHECK(dj_rule(&rules, DJ_RULE_WAIVE) == 'a');
        CHECK(dj_rules_from_map(m, &rules, NULL, 0) == -1);
        dj_map_free(m);
    }
    m = tiny_with("RULE no_such_rule=a\n");
    if (m) {
        CHECK(dj_rules_from_map(m, &rules, err, sizeof err) == -1);
        CHECK_STR(err, "RULE 'no_such_rule=a' of map 'tiny': unknown rule "
                       "'no_such_rule' (see 'judgectl rules')");
        dj_map_free(m);
    }
}

static char srcdir[512];

static void test_map_files(void)
{
    char path[1024], err[512] = "";
    dj_rules rules;
    snprintf(path, sizeof path, "%s/tests/maps/rules-standard.map", srcdir);
    dj_map *m = dj_map_load(path, err, sizeof err);
    CHECK(m != NULL);
    if (m) {
        CHECK(dj_rules_from_map(m, &rules, err, sizeof err) == 0);
        CHECK(dj_rule(&rules, DJ_RULE_CONVOY_PARADOX) == 'e');
        CHECK(dj_rule(&rules, DJ_RULE_CONVOY_RETREAT) == 'a');
        CHECK(dj_rule(&rules, DJ_RULE_ADJACENT_CONVOY) == 'e');
        CHECK(dj_rule(&rules, DJ_RULE_WAIVE) == 'a');
        dj_map_free(m);
    } else {
        fprintf(stderr, "  %s\n", err);
    }

    /* A bad RULE line is refused, when loading or when building rules. */
    snprintf(path, sizeof path, "%s/tests/maps/bad-rule.map", srcdir);
    m = dj_map_load(path, err, sizeof err);
    if (m) {
        CHECK(dj_rules_from_map(m, &rules, err, sizeof err) == -1);
        dj_map_free(m);
    }
    CHECK(strstr(err, "convoy_paradox") != NULL);
    CHECK(strstr(err, "not 'z'") != NULL);
}

/* The map's RULE lines come before each case's own. */
static void test_casefile(void)
{
    char path[1024], maps[1024], err[DJ_CASE_ERR_MAX] = "";
    snprintf(path, sizeof path, "%s/tests/casefile/maprules.txt", srcdir);
    snprintf(maps, sizeof maps, "%s/tests/maps", srcdir);
    dj_case *c = malloc(sizeof *c);
    if (!c)
        return;
    dj_casefile *cf = dj_casefile_open(path, maps, err, sizeof err);
    CHECK(cf != NULL);
    if (cf) {
        CHECK(dj_casefile_next(cf, c, err, sizeof err) == DJ_CASE_OK);
        CHECK(dj_rule(&c->rules, DJ_RULE_CONVOY_PARADOX) == 'e');
        CHECK(dj_rule(&c->rules, DJ_RULE_CONVOY_RETREAT) == 'a');
        CHECK(dj_rule(&c->rules, DJ_RULE_ADJACENT_CONVOY) == 'e');
        CHECK(dj_rule(&c->rules, DJ_RULE_WAIVE) == 'a');
        CHECK(dj_casefile_next(cf, c, err, sizeof err) == DJ_CASE_OK);
        CHECK(dj_rule(&c->rules, DJ_RULE_CONVOY_PARADOX) == 'd');
        CHECK(dj_rule(&c->rules, DJ_RULE_CONVOY_RETREAT) == 'b');
        CHECK(dj_rule(&c->rules, DJ_RULE_ADJACENT_CONVOY) == 'e');
        CHECK(dj_casefile_next(cf, c, err, sizeof err) == DJ_CASE_EOF);
        dj_casefile_close(cf);
    }

    /* A map with a bad RULE line: one error with file:line, then the end. */
    snprintf(path, sizeof path, "%s/tests/casefile/badmaprule.txt", srcdir);
    cf = dj_casefile_open(path, maps, err, sizeof err);
    CHECK(cf != NULL);
    if (cf) {
        CHECK(dj_casefile_next(cf, c, err, sizeof err) == DJ_CASE_ERROR);
        CHECK(strstr(err, "badmaprule.txt:") != NULL);
        CHECK(strstr(err, "convoy_paradox") != NULL);
        CHECK(strstr(err, "not 'z'") != NULL);
        CHECK(dj_casefile_next(cf, c, err, sizeof err) == DJ_CASE_EOF);
        dj_casefile_close(cf);
    }
    free(c);
}

int main(int argc, char **argv)
{
    const char *dir = test_srcdir(argc, argv);
    snprintf(srcdir, sizeof srcdir, "%s", dir ? dir : ".");
    test_rows();
    test_defaults();
    test_find();
    test_set();
    test_assign();
    test_from_map();
    test_map_files();
    test_casefile();
    return test_summary();
}
