/* SPDX-License-Identifier: MIT */
/*
 * rules.c — the table of chapter-4 rule options.
 *
 * One row per disputable issue of DATC chapter 4 that a program must
 * decide: its option name, its DATC number, the letters of its choices with
 * a line each, and the DATC's preferred letter, which is the default.
 * Choices may also be named by a few words people actually use ("szykman",
 * "1982"); those aliases live beside the table.
 */
#include "rules.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define CHOICES(...) ((const char *const[]){__VA_ARGS__, NULL})

static const dj_rule_info table[DJ_RULE_COUNT] = {
    {DJ_RULE_MULTI_ROUTE_DISRUPTION, "multi_route_disruption", "4.A.1", "ab", 'b',
     "When is a convoy with several routes disrupted?",
     CHOICES("when any route is disrupted (1971, DPTG)",
             "only when every route is disrupted (1982, 2000)")},
    {DJ_RULE_CONVOY_PARADOX, "convoy_paradox", "4.A.2", "abcdef", 'd',
     "How are convoy disruption paradoxes resolved?",
     CHOICES("1971: a convoyed army does not cut a support for an attack on its convoy",
             "1982: a convoyed army does not cut supports for or against a convoying fleet",
             "2000: a convoyed army does not cut a support for an attack on a fleet it needs",
             "Szykman: the armies convoyed in a paradox fail and have no effect",
             "All Hold: every move in the paradox fails",
             "DPTG: all convoys of the paradox fail if that is consistent, else All Hold")},
    {DJ_RULE_ADJACENT_CONVOY, "adjacent_convoy", "4.A.3", "abcde", 'd',
     "Does an army ordered next door go over land or by convoy?",
     CHOICES("by convoy whenever a convoy route is ordered (1971)",
             "over land unless the other unit moves the opposite way",
             "over land unless the other unit moves the opposite way and a convoy route holds",
             "by convoy when 'via convoy' is written or its own fleet convoys it (2000)",
             "by convoy only when 'via convoy' is written (DPTG)")},
    {DJ_RULE_CONVOY_SELF_CUT, "convoy_self_cut", "4.A.4", "ab", 'a',
     "Does an army convoyed from X cut a support for an attack on X?",
     CHOICES("no: the army comes from its own province", "yes (DPTG)")},
    {DJ_RULE_CONVOY_RETREAT, "convoy_retreat", "4.A.5", "ab", 'b',
     "May a unit dislodged by a convoyed army retreat to the army's province?",
     CHOICES("no", "yes: the attacker did not cross that border (DPTG)")},
    {DJ_RULE_CONVOY_PATH, "convoy_path", "4.A.6", "abc", 'a',
     "Is a convoy route written in the army's order used?",
     CHOICES("no: a written route is ignored", "a route may be written and is then used",
             "a route must be written")},
    {DJ_RULE_DISLODGED_BOUNCE, "dislodged_bounce", "4.A.7", "ab", 'b',
     "Can a dislodged unit still bounce a third unit where its attacker came from?",
     CHOICES("never", "yes, unless it lost a head-to-head battle (DPTG)")},
    {DJ_RULE_COAST_TWO_OMITTED, "coast_two_omitted", "4.B.1", "ab", 'a',
     "Fleet move without a coast when two coasts can be reached",
     CHOICES("the move fails", "the map's default coast is used")},
    {DJ_RULE_COAST_ONE_OMITTED, "coast_one_omitted", "4.B.2", "abc", 'a',
     "Fleet move without a coast when one coast can be reached",
     CHOICES("that coast is used", "the map's default coast is used", "the move fails")},
    {DJ_RULE_COAST_IMPOSSIBLE, "coast_impossible", "4.B.3", "ab", 'b',
     "Fleet move to a coast it cannot reach, while another can be reached",
     CHOICES("the other coast is used", "the move fails")},
    {DJ_RULE_COAST_IN_SUPPORT, "coast_in_support", "4.B.4", "abcde", 'd',
     "Coasts in a support of a fleet's move",
     CHOICES("required and must match", "required; the default coast when missing",
             "required; a missing coast is read as a poorly written order",
             "optional, but must match when written", "ignored")},
    {DJ_RULE_COAST_WRONG_UNIT, "coast_wrong_unit", "4.B.5", "ab", 'b',
     "An order naming the wrong coast of the unit's own province",
     CHOICES("the order fails", "the coast is ignored")},
    {DJ_RULE_COAST_UNKNOWN, "coast_unknown", "4.B.6", "ab", 'b',
     "A coast written for a province that has none",
     CHOICES("the order fails", "the coast is ignored")},
    {DJ_RULE_COAST_IN_BUILD, "coast_in_build", "4.B.7", "ab", 'a',
     "Building a fleet in a multi-coast province without a coast",
     CHOICES("the build fails", "the map's default coast is used")},
    {DJ_RULE_UNIT_MISSING, "unit_missing", "4.C.1", "abc", 'b',
     "An order without a unit type",
     CHOICES("invalid: the unit holds", "valid",
             "valid unless the unit has another order naming its type")},
    {DJ_RULE_UNIT_WRONG, "unit_wrong", "4.C.2", "abc", 'b',
     "An order naming the wrong unit type",
     CHOICES("invalid: the unit holds", "valid: the type is ignored",
             "valid unless the unit has another order naming its type")},
    {DJ_RULE_BUILD_UNIT_MISSING, "build_unit_missing", "4.C.3", "abc", 'c',
     "A build without a unit type",
     CHOICES("the build fails", "an army inland; fails on a coast",
             "an army inland; a fleet on a written coast; else fails")},
    {DJ_RULE_BUILD_FLEET_LAND, "build_fleet_land", "4.C.4", "ab", 'a',
     "Building a fleet inland",
     CHOICES("the build fails", "an army is built")},
    {DJ_RULE_NATIONALITY_MISSING, "nationality_missing", "4.C.5", "abc", 'b',
     "A support or convoy that does not name the other unit's power",
     CHOICES("invalid", "valid", "valid unless another order names it")},
    {DJ_RULE_NATIONALITY_WRONG, "nationality_wrong", "4.C.6", "abc", 'b',
     "A support or convoy naming the wrong power",
     CHOICES("invalid", "valid: the nationality is ignored",
             "valid unless another order names it correctly")},
    {DJ_RULE_MULTIPLE_ORDERS, "multiple_orders", "4.D.3", "abc", 'c',
     "Several different orders for one unit",
     CHOICES("the first is used", "the last is used",
             "none is used: the unit holds and may be supported")},
    {DJ_RULE_TOO_MANY_BUILDS, "too_many_builds", "4.D.4", "abc", 'b',
     "More builds than allowed",
     CHOICES("all builds fail", "the first legal builds are used",
             "the last legal builds are used")},
    {DJ_RULE_BUILD_SAME_AREA, "build_same_area", "4.D.5", "abc", 'b',
     "Two builds in one province",
     CHOICES("both fail", "the first is used", "the last is used")},
    {DJ_RULE_TOO_MANY_DISBANDS, "too_many_disbands", "4.D.6", "abc", 'b',
     "More removals than required",
     CHOICES("all removals fail (civil disorder rule)", "the first legal removals are used",
             "the last legal removals are used")},
    {DJ_RULE_WAIVE, "waive", "4.D.7", "ab", 'a',
     "May builds be waived explicitly?",
     CHOICES("yes", "no: a waive order is ignored")},
    {DJ_RULE_CIVIL_DISORDER_REMOVAL, "civil_disorder_removal", "4.D.8", "abcde", 'd',
     "How distance from home is counted when the judge removes units",
     CHOICES("regular moves; a convoy counts one move, no fleet needed",
             "regular moves; a convoy counts one move through the power's own fleets",
             "regular moves; a convoy counts one move through any fleets",
             "fleets by regular moves; armies may also cross water (DPTG)",
             "armies and fleets both cross land and water")},
    {DJ_RULE_CIVIL_DISORDER_SUPPORT, "civil_disorder_support", "4.D.9", "ab", 'b',
     "May a power in civil disorder receive hold support?",
     CHOICES("no", "yes")},
    {DJ_RULE_ILLEGAL_ORDERS, "illegal_orders", "4.E.1", "abcd", 'd',
     "Which orders are legal (an illegal order leaves the unit holding)?",
     CHOICES("every order in the right format", "orders naming real places",
             "orders that could be valid on this map",
             "orders that could be valid in the current position")},
    {DJ_RULE_IMPLICIT_ORDERS, "implicit_orders", "4.E.3", "ab", 'b',
     "Are implicit orders (a support implying the supported move) allowed?",
     CHOICES("yes", "no")},
    {DJ_RULE_BUILD_SITES, "build_sites", "V.1", "abcd", 'a',
     "Where may a power build new units?",
     CHOICES("in its own home centres that it owns (standard)",
             "in any supply centre it owns (DPjudge BUILD_ANY: Chaos)",
             "in any centre it owns that is some power's home centre "
             "(DPjudge HOME_BUILDS)",
             "in any supply centre it owns, while it owns one of its own "
             "home centres (DPjudge REMOTE_BUILDS)")},
};

static const struct {
    const char *word;
    dj_rule_id id;
    char choice;
} aliases[] = {
    {"1971", DJ_RULE_CONVOY_PARADOX, 'a'},    {"1982", DJ_RULE_CONVOY_PARADOX, 'b'},
    {"2000", DJ_RULE_CONVOY_PARADOX, 'c'},    {"szykman", DJ_RULE_CONVOY_PARADOX, 'd'},
    {"all_hold", DJ_RULE_CONVOY_PARADOX, 'e'}, {"allhold", DJ_RULE_CONVOY_PARADOX, 'e'},
    {"dptg", DJ_RULE_CONVOY_PARADOX, 'f'},
    {"home", DJ_RULE_BUILD_SITES, 'a'},       {"any", DJ_RULE_BUILD_SITES, 'b'},
    {"homes", DJ_RULE_BUILD_SITES, 'c'},      {"remote", DJ_RULE_BUILD_SITES, 'd'},
};

void dj_rules_default(dj_rules *rules)
{
    for (int i = 0; i < DJ_RULE_COUNT; i++)
        rules->choice[i] = table[i].preferred;
}

const dj_rule_info *dj_rule_table(void)
{
    return table;
}

static bool same_word(const char *a, const char *b, size_t blen)
{
    size_t i = 0;
    for (; i < blen && a[i]; i++) {
        char x = (char)tolower((unsigned char)a[i]);
        char y = (char)tolower((unsigned char)b[i]);
        if (x == '-')
            x = '_';
        if (y == '-')
            y = '_';
        if (x != y)
            return false;
    }
    return i == blen && a[i] == '\0';
}

static const dj_rule_info *find_rule(const char *name, size_t len)
{
    for (int i = 0; i < DJ_RULE_COUNT; i++)
        if (same_word(table[i].name, name, len) ||
            same_word(table[i].issue, name, len))
            return &table[i];
    return NULL;
}

const dj_rule_info *dj_rule_find(const char *name)
{
    return find_rule(name, strlen(name));
}

static void trim(const char **s, size_t *len)
{
    while (*len && isspace((unsigned char)**s)) {
        (*s)++;
        (*len)--;
    }
    while (*len && isspace((unsigned char)(*s)[*len - 1]))
        (*len)--;
}

bool dj_rules_set(dj_rules *rules, const char *assignment, char *err,
                  size_t errlen)
{
    const char *eq = strchr(assignment, '=');
    if (!eq) {
        snprintf(err, errlen, "expected name=choice, got '%s'", assignment);
        return false;
    }
    const char *name = assignment, *value = eq + 1;
    size_t nlen = (size_t)(eq - assignment), vlen = strlen(value);
    trim(&name, &nlen);
    trim(&value, &vlen);
    const dj_rule_info *r = find_rule(name, nlen);
    if (!r) {
        snprintf(err, errlen, "unknown rule '%.*s' (see 'judgectl rules')",
                 (int)nlen, name);
        return false;
    }
    if (vlen == 1) {
        char ch = (char)tolower((unsigned char)value[0]);
        if (strchr(r->choices, ch)) {
            rules->choice[r->id] = ch;
            return true;
        }
    }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        if (aliases[i].id == r->id && same_word(aliases[i].word, value, vlen)) {
            rules->choice[r->id] = aliases[i].choice;
            return true;
        }
    }
    snprintf(err, errlen, "rule %s (%s) takes one of '%s', not '%.*s'", r->name,
             r->issue, r->choices, (int)vlen, value);
    return false;
}
