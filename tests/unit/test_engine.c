/* SPDX-License-Identifier: MIT */
/*
 * test_engine.c — the engine's contract beyond the DATC's positions: what
 * each order result says (flags and reasons the reports will print), how
 * the calendar advances, centre capture, victory, the retreat and
 * adjustment phases, and refusal of malformed input.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/adjudicate.h"
#include "reader/notation.h"
#include "testlib.h"

static const dj_map *map;
static dj_result *res;

static int power(const char *name)
{
    return dj_map_find_power(map, name);
}

static int loc(const char *name)
{
    return dj_map_find_location(map, name);
}

static void put(dj_position *pos, const char *pw, dj_unit_type t, const char *at)
{
    dj_unit *u = &pos->units[pos->nunits++];
    u->power = (int16_t)power(pw);
    u->type = t;
    u->loc = (int16_t)loc(at);
}

/* Parse "Power: order" lines into orders; returns the count. */
static int orders_of(const char *const *lines, dj_phase_type ph, dj_order *out)
{
    int n = 0;
    for (; *lines; lines++) {
        char err[128];
        const char *colon = strchr(*lines, ':');
        char pw[32];
        size_t len = (size_t)(colon - *lines);
        memcpy(pw, *lines, len);
        pw[len] = '\0';
        if (dj_notation_parse(map, power(pw), ph, colon + 1, &out[n], err,
                              sizeof err) != 0) {
            fprintf(stderr, "cannot parse '%s': %s\n", *lines, err);
            CHECK(0);
            continue;
        }
        n++;
    }
    return n;
}

static int run(const dj_position *pos, const char *const *lines)
{
    dj_order orders[64];
    dj_rules rules;
    dj_rules_default(&rules);
    int n = orders_of(lines, pos->phase.type, orders);
    CHECK(dj_adjudicate(map, pos, orders, n, &rules, res) == 0);
    return n;
}

static dj_phase phase(dj_season s, int year, dj_phase_type t)
{
    dj_phase ph = {s, year, t};
    return ph;
}

static bool has_unit(const dj_position *pos, const char *pw, const char *at)
{
    int prov = dj_province(map, loc(at));
    int u = dj_position_unit_at(map, pos, prov);
    return u >= 0 && pos->units[u].power == power(pw);
}

static void test_opening_holds(void)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_position_initial(map, pos);
    CHECK(pos->nunits == 22);
    CHECK(pos->phase.season == DJ_SPRING && pos->phase.year == 1901 &&
          pos->phase.type == DJ_MOVEMENT);
    static const char *const none[] = {NULL};
    run(pos, none);
    CHECK(res->next.nunits == 22);
    CHECK(res->next.ndislodged == 0);
    CHECK(res->next.phase.season == DJ_FALL);
    CHECK(res->next.phase.type == DJ_MOVEMENT); /* no retreat phase */
    CHECK(res->winner == -1);
    free(pos);
}

static void test_result_flags(void)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_position_initial(map, pos);
    static const char *const lines[] = {
        "Austria: A vie-gal", "Russia: A war-gal", /* standoff */
        "Germany: F kie-mun",                       /* fleet inland */
        "Germany: A ber-par",                       /* not adjacent */
        "France: F lon-nth",                        /* not France's */
        "Italy: A tus-pie",                         /* no unit */
        "Turkey: A smy S A con-ank",                /* void: con holds */
        "England: F lon H",
        NULL};
    run(pos, lines);
    dj_order_result *r = res->orders;
    CHECK(!r[0].success && (r[0].flags & DJ_RF_BOUNCE));
    CHECK(!r[1].success && (r[1].flags & DJ_RF_BOUNCE));
    CHECK(res->contested[loc("gal")]);
    CHECK((r[2].flags & DJ_RF_ILLEGAL) && r[2].why == DJ_WHY_BAD_TERRAIN);
    CHECK((r[3].flags & DJ_RF_ILLEGAL) && r[3].why == DJ_WHY_NOT_ADJACENT);
    CHECK((r[4].flags & DJ_RF_ILLEGAL) && r[4].why == DJ_WHY_NOT_OWNER);
    CHECK((r[5].flags & DJ_RF_ILLEGAL) && r[5].why == DJ_WHY_NO_UNIT);
    CHECK((r[6].flags & DJ_RF_VOID) && !r[6].success);
    CHECK(r[7].success);
    CHECK(strlen(dj_why_text(DJ_WHY_NOT_ADJACENT)) > 0);
    free(pos);
}

static void test_dislodge_and_retreat(void)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_position_empty(map, phase(DJ_SPRING, 1901, DJ_MOVEMENT), pos);
    put(pos, "Germany", DJ_ARMY, "mun");
    put(pos, "Germany", DJ_ARMY, "ruh");
    put(pos, "France", DJ_ARMY, "bur");
    put(pos, "France", DJ_ARMY, "pic");
    static const char *const lines[] = {
        "Germany: A mun-bur", "Germany: A ruh S A mun-bur",
        "France: A bur H", "France: A pic S A bur", /* cut? no: pic not attacked */
        NULL};
    run(pos, lines);
    /* 2 against 2: the attack bounces, nothing is dislodged. */
    CHECK(res->orders[0].flags & DJ_RF_BOUNCE);
    CHECK(res->next.ndislodged == 0);

    static const char *const lines2[] = {
        "Germany: A mun-bur", "Germany: A ruh S A mun-bur", "France: A bur H",
        "France: A pic-bel", NULL};
    run(pos, lines2);
    CHECK(res->orders[0].success);
    CHECK(res->orders[2].flags & DJ_RF_DISLODGED);
    CHECK(res->orders[2].dislodged_by == dj_province(map, loc("mun")));
    CHECK(res->next.phase.type == DJ_RETREAT);
    CHECK(res->next.ndislodged == 1);
    const dj_dislodged *d = &res->next.dislodged[0];
    CHECK(d->attacker_from == loc("mun"));
    bool to_mun = false, to_gas = false;
    for (int i = 0; i < d->nretreats; i++) {
        to_mun |= d->retreats[i] == loc("mun");
        to_gas |= d->retreats[i] == loc("gas");
    }
    CHECK(!to_mun && to_gas);

    /* The retreat phase: into Gascony. */
    dj_position *after = malloc(sizeof *after);
    *after = res->next;
    static const char *const retreat[] = {"France: A bur-gas", NULL};
    run(after, retreat);
    CHECK(res->orders[0].success);
    CHECK(has_unit(&res->next, "France", "gas"));
    CHECK(res->next.phase.season == DJ_FALL &&
          res->next.phase.type == DJ_MOVEMENT);

    /* Unordered: disbanded, and the judge says so. */
    static const char *const nothing[] = {NULL};
    run(after, nothing);
    CHECK(res->nauto == 1 && res->autos[0].order.kind == DJ_ORDER_DISBAND);
    CHECK(res->next.nunits == after->nunits);
    free(after);
    free(pos);
}

static void test_retreat_clash(void)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_position_empty(map, phase(DJ_FALL, 1901, DJ_RETREAT), pos);
    put(pos, "Germany", DJ_ARMY, "bur");
    dj_dislodged *a = &pos->dislodged[pos->ndislodged++];
    a->unit = (dj_unit){(int16_t)power("France"), (int16_t)loc("par"), DJ_ARMY};
    a->attacker_from = (int16_t)loc("bur");
    a->nretreats = 1;
    a->retreats[0] = (int16_t)loc("gas");
    dj_dislodged *b = &pos->dislodged[pos->ndislodged++];
    b->unit = (dj_unit){(int16_t)power("Italy"), (int16_t)loc("mar"), DJ_ARMY};
    b->attacker_from = (int16_t)loc("pie");
    b->nretreats = 1;
    b->retreats[0] = (int16_t)loc("gas");
    static const char *const lines[] = {"France: A par-gas", "Italy: A mar-gas",
                                        NULL};
    run(pos, lines);
    CHECK(res->orders[0].flags & DJ_RF_BOUNCE);
    CHECK(res->orders[1].flags & DJ_RF_BOUNCE);
    CHECK(res->next.nunits == 1);
    CHECK(res->nauto == 2);
    /* After the Fall retreats: Germany takes nothing (bur is no centre). */
    CHECK(res->next.phase.season == DJ_WINTER ||
          res->next.phase.season == DJ_SPRING);
    free(pos);
}

static void test_capture_and_builds(void)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_position_initial(map, pos);
    pos->phase = phase(DJ_FALL, 1901, DJ_MOVEMENT);
    static const char *const lines[] = {"France: A par-bur", "France: A mar-spa",
                                        "France: F bre-mao", NULL};
    run(pos, lines);
    CHECK(res->next.owner[loc("spa")] == power("France"));
    CHECK(res->next.phase.season == DJ_WINTER &&
          res->next.phase.type == DJ_ADJUSTMENT);
    CHECK(dj_adjustment_due(map, &res->next, power("France")) == 1);

    dj_position *winter = malloc(sizeof *winter);
    *winter = res->next;
    static const char *const builds[] = {"France: Build A par", "France: Build F bre",
                                         "France: Build A mun", NULL};
    run(winter, builds);
    CHECK(res->orders[0].success);
    CHECK(!res->orders[1].success && (res->orders[1].flags & DJ_RF_IGNORED) &&
          res->orders[1].why == DJ_WHY_BUILD_NO_ROOM);
    CHECK((res->orders[2].flags & DJ_RF_ILLEGAL) &&
          res->orders[2].why == DJ_WHY_BUILD_NOT_HOME);
    CHECK(has_unit(&res->next, "France", "par"));
    CHECK(res->next.phase.season == DJ_SPRING && res->next.phase.year == 1902);
    free(winter);
    free(pos);
}

static void test_civil_disorder_removal(void)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_position_empty(map, phase(DJ_WINTER, 1905, DJ_ADJUSTMENT), pos);
    for (int i = 0; i < DJ_MAX_LOCS; i++)
        pos->owner[i] = -1;
    pos->owner[loc("par")] = (int16_t)power("France");
    put(pos, "France", DJ_ARMY, "par");
    put(pos, "France", DJ_ARMY, "mos");
    static const char *const none[] = {NULL};
    run(pos, none);
    CHECK(res->nauto == 1);
    CHECK(res->autos[0].order.kind == DJ_ORDER_REMOVE &&
          res->autos[0].order.loc == loc("mos"));
    CHECK(res->next.nunits == 1 && has_unit(&res->next, "France", "par"));
    CHECK(res->autos[0].why == DJ_WHY_NO_ORDER);
    /* An order that could not stand is an order: the judge's removal says
     * too few were ordered, not that none was (issue 31). */
    static const char *const wrong[] = {"France: remove A bur", NULL};
    run(pos, wrong);
    CHECK(res->nauto == 1 && res->autos[0].why == DJ_WHY_TOO_FEW_REMOVALS);
    free(pos);
}

static void test_victory(void)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_position_empty(map, phase(DJ_FALL, 1910, DJ_MOVEMENT), pos);
    int fr = power("France"), n = 0;
    for (int l = 0; l < map->nlocs; l++)
        if (map->is_sc[l] && l != loc("mun") && n < 17) {
            pos->owner[l] = (int16_t)fr;
            n++;
        }
    CHECK(n == 17);
    put(pos, "France", DJ_ARMY, "bur");
    static const char *const lines[] = {"France: A bur-mun", NULL};
    run(pos, lines);
    CHECK(res->winner == fr);
    free(pos);
}

static void test_malformed_input(void)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_rules rules;
    dj_rules_default(&rules);
    dj_position_initial(map, pos);
    pos->units[0].loc = (int16_t)(map->nlocs + 5);
    CHECK(dj_adjudicate(map, pos, NULL, 0, &rules, res) == -1);
    dj_position_initial(map, pos);
    dj_order bad = dj_order_make(DJ_ORDER_HOLD, 99, DJ_ARMY, loc("par"));
    CHECK(dj_adjudicate(map, pos, &bad, 1, &rules, res) == -1);
    /* Out-of-range locations inside an order are just illegal. */
    dj_order odd = dj_order_make(DJ_ORDER_MOVE, power("France"), DJ_ARMY, loc("par"));
    odd.dest = 30000;
    CHECK(dj_adjudicate(map, pos, &odd, 1, &rules, res) == 0);
    CHECK(res->orders[0].flags & DJ_RF_ILLEGAL);
    free(pos);
}

static void test_rules(void)
{
    dj_rules r;
    char err[160];
    dj_rules_default(&r);
    CHECK(dj_rule(&r, DJ_RULE_CONVOY_PARADOX) == 'd');
    CHECK(dj_rules_set(&r, "4.A.2=b", err, sizeof err));
    CHECK(dj_rule(&r, DJ_RULE_CONVOY_PARADOX) == 'b');
    CHECK(dj_rules_set(&r, "convoy_paradox = Szykman", err, sizeof err));
    CHECK(dj_rule(&r, DJ_RULE_CONVOY_PARADOX) == 'd');
    CHECK(!dj_rules_set(&r, "convoy_paradox=z", err, sizeof err));
    CHECK(strstr(err, "abcdef") != NULL);
    CHECK(!dj_rules_set(&r, "no_such_rule=a", err, sizeof err));
    CHECK(!dj_rules_set(&r, "missing equals", err, sizeof err));
}

/* Every engine's movement result leads to the same next phase: a
 * dislodgement to the retreat phase, with the centres and the retreats. */
static void test_every_engine_retreats(void)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_position_empty(map, phase(DJ_FALL, 1901, DJ_MOVEMENT), pos);
    pos->owner[loc("sev")] = (int16_t)power("Russia");
    put(pos, "Russia", DJ_FLEET, "rum");
    put(pos, "Turkey", DJ_ARMY, "bul");
    put(pos, "Turkey", DJ_FLEET, "bla");
    static const char *const lines[] = {"Turkey: A bul-rum",
                                        "Turkey: F bla S A bul-rum", NULL};
    dj_order orders[4];
    int n = orders_of(lines, DJ_MOVEMENT, orders);
    dj_rules rules;
    dj_rules_default(&rules);
    for (int e = 0; e < DJ_ENGINE_COUNT; e++) {
        CHECK(dj_adjudicate_with((dj_engine)e, map, pos, orders, n, &rules,
                                 res) == 0);
        CHECK(res->next.phase.season == DJ_FALL && res->next.phase.year == 1901 &&
              res->next.phase.type == DJ_RETREAT);
        CHECK(res->next.ndislodged == 1 && res->next.nunits == 2);
        CHECK(res->next.owner[loc("sev")] == power("Russia"));
        bool to_sev = false;
        for (int i = 0; i < res->next.dislodged[0].nretreats; i++)
            to_sev |= res->next.dislodged[0].retreats[i] == loc("sev");
        CHECK(to_sev);
    }
    free(pos);
}

/* The table of which engine implements which rule option. */
static void test_engines_and_rules(void)
{
    for (int r = 0; r < DJ_RULE_COUNT; r++) {
        CHECK(dj_engine_implements(DJ_ENGINE_DPJUDGE, (dj_rule_id)r));
        CHECK(dj_engine_implements(DJ_ENGINE_KRUIJSWIJK, (dj_rule_id)r));
    }
    CHECK(dj_engine_implements(DJ_ENGINE_HAPLOMACY, DJ_RULE_CONVOY_RETREAT));
    CHECK(dj_engine_implements(DJ_ENGINE_HAPLOMACY, DJ_RULE_BUILD_SITES));
    CHECK(!dj_engine_implements(DJ_ENGINE_HAPLOMACY,
                                DJ_RULE_MULTI_ROUTE_DISRUPTION));
    CHECK(!dj_engine_implements(DJ_ENGINE_HAPLOMACY, DJ_RULE_MULTIPLE_ORDERS));
    CHECK(!dj_engine_implements(DJ_ENGINE_COUNT, DJ_RULE_WAIVE));
    dj_rules r;
    char why[256] = "";
    dj_rules_default(&r);
    CHECK(dj_engine_check_rules(DJ_ENGINE_HAPLOMACY, &r, why, sizeof why) == 0);
    CHECK(dj_rules_set(&r, "convoy_retreat=a", why, sizeof why));
    CHECK(dj_engine_check_rules(DJ_ENGINE_HAPLOMACY, &r, why, sizeof why) == 0);
    CHECK(dj_rules_set(&r, "multiple_orders=a", why, sizeof why));
    CHECK(dj_engine_check_rules(DJ_ENGINE_DPJUDGE, &r, why, sizeof why) == 0);
    CHECK(dj_engine_check_rules(DJ_ENGINE_HAPLOMACY, &r, why, sizeof why) < 0);
    CHECK_STR(why, "the haplomacy engine does not implement rule option "
                   "multiple_orders (4.D.3) = a; engines that do: dpjudge, "
                   "kruijswijk");
}

/* Each engine's reasons say what happened (issue 31): a convoy the army
 * ordered but on none of its routes is not "the other unit did not order
 * that"; a unit destroyed for want of a retreat, one whose retreat order
 * could not stand, one whose retreat bounced and one given no order are
 * each told so. */
static void test_reasons_say_what_happened(void)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_position_empty(map, phase(DJ_SPRING, 1901, DJ_MOVEMENT), pos);
    put(pos, "England", DJ_ARMY, "yor");
    put(pos, "England", DJ_FLEET, "nth");
    put(pos, "England", DJ_FLEET, "nao");
    put(pos, "England", DJ_FLEET, "hel");
    static const char *const convoy[] = {
        "England: A yor-nwy", "England: F nth C A yor-nwy",
        "England: F nao C A yor-nwy", /* ordered, but off every route */
        "England: F hel C A yor-hol", /* the army ordered no such move */
        NULL};
    dj_order orders[8];
    int n = orders_of(convoy, DJ_MOVEMENT, orders);
    dj_rules rules;
    dj_rules_default(&rules);
    for (int e = 0; e < DJ_ENGINE_COUNT; e++) {
        if (e == DJ_ENGINE_HAPLOMACY)
            continue; /* one order a power: not this test's rules */
        CHECK(dj_adjudicate_with((dj_engine)e, map, pos, orders, n, &rules,
                                 res) == 0);
        CHECK(res->orders[0].success && res->orders[1].success);
        CHECK(!res->orders[2].success && (res->orders[2].flags & DJ_RF_VOID));
        CHECK(res->orders[2].why == DJ_WHY_CONVOY_OFF_ROUTE);
        CHECK(!res->orders[3].success && (res->orders[3].flags & DJ_RF_VOID));
        CHECK(res->orders[3].why == DJ_WHY_UNMATCHED);
    }
    CHECK(strstr(dj_why_text(DJ_WHY_CONVOY_OFF_ROUTE), "ordered that move"));

    /* 4.D.9 a: a hold support for a power in civil disorder is void for
     * that reason, not because "the other unit did not order that". */
    dj_position_empty(map, phase(DJ_SPRING, 1901, DJ_MOVEMENT), pos);
    put(pos, "France", DJ_ARMY, "bur");
    put(pos, "Germany", DJ_ARMY, "mun");
    put(pos, "Germany", DJ_ARMY, "ruh");
    put(pos, "Italy", DJ_ARMY, "pie");
    pos->civil_disorder = DJ_POWER_BIT(power("Germany"));
    static const char *const disorder[] = {"France: A bur S A mun",
                                           "Italy: A pie S A mun-tyr", NULL};
    n = orders_of(disorder, DJ_MOVEMENT, orders);
    char err[128];
    CHECK(dj_rules_set(&rules, "civil_disorder_support=a", err, sizeof err));
    for (int e = 0; e < DJ_ENGINE_COUNT; e++) {
        if (e == DJ_ENGINE_HAPLOMACY)
            continue;
        CHECK(dj_adjudicate_with((dj_engine)e, map, pos, orders, n, &rules,
                                 res) == 0);
        CHECK((res->orders[0].flags & DJ_RF_VOID) &&
              res->orders[0].why == DJ_WHY_DISORDER_SUPPORT);
        CHECK((res->orders[1].flags & DJ_RF_VOID) &&
              res->orders[1].why == DJ_WHY_UNMATCHED);
    }
    dj_rules_default(&rules);

    /* Naples dislodged from Apulia, Rome held: nowhere to go. */
    dj_position_empty(map, phase(DJ_SPRING, 1901, DJ_MOVEMENT), pos);
    put(pos, "Austria", DJ_ARMY, "apu");
    put(pos, "Austria", DJ_ARMY, "rom");
    put(pos, "Italy", DJ_ARMY, "nap");
    static const char *const trap[] = {"Austria: A apu-nap",
                                       "Austria: A rom S A apu-nap", NULL};
    run(pos, trap);
    CHECK(res->orders[0].success);
    CHECK(res->nauto == 1 && res->autos[0].order.kind == DJ_ORDER_DISBAND);
    CHECK(res->autos[0].why == DJ_WHY_NO_RETREAT);
    CHECK(strstr(dj_why_text(res->autos[0].why), "nowhere to retreat"));
    CHECK(!strstr(dj_why_text(res->autos[0].why), "not a place"));

    /* The retreat phase: Burgundy may go to Gascony only. */
    dj_position_empty(map, phase(DJ_SPRING, 1901, DJ_RETREAT), pos);
    dj_dislodged *d = &pos->dislodged[pos->ndislodged++];
    memset(d, 0, sizeof *d);
    d->unit = (dj_unit){(int16_t)power("France"), (int16_t)loc("bur"), DJ_ARMY};
    d->attacker_from = (int16_t)loc("mun");
    d->nretreats = 1;
    d->retreats[0] = (int16_t)loc("gas");
    static const char *const refused[] = {"France: A bur-par", NULL};
    run(pos, refused);
    CHECK(res->orders[0].flags & DJ_RF_ILLEGAL);
    CHECK(res->orders[0].why == DJ_WHY_RETREAT_BLOCKED);
    CHECK(res->nauto == 1 && res->autos[0].why == DJ_WHY_RETREAT_REFUSED);
    static const char *const foreign[] = {"Germany: A bur-gas", NULL};
    run(pos, foreign); /* another power's order is no order of France's */
    CHECK(res->nauto == 1 && res->autos[0].why == DJ_WHY_NO_ORDER);
    static const char *const none[] = {NULL};
    run(pos, none);
    CHECK(res->nauto == 1 && res->autos[0].why == DJ_WHY_NO_ORDER);
    dj_dislodged *e2 = &pos->dislodged[pos->ndislodged++];
    memset(e2, 0, sizeof *e2);
    e2->unit = (dj_unit){(int16_t)power("Italy"), (int16_t)loc("mar"), DJ_ARMY};
    e2->attacker_from = (int16_t)loc("pie");
    e2->nretreats = 1;
    e2->retreats[0] = (int16_t)loc("gas");
    static const char *const clash[] = {"France: A bur-gas", "Italy: A mar-gas",
                                        NULL};
    run(pos, clash);
    CHECK(res->nauto == 2 && res->autos[0].why == DJ_WHY_RETREAT_FAILED &&
          res->autos[1].why == DJ_WHY_RETREAT_FAILED);
    free(pos);
}

/* dj_result_diff: two results of one phase agree or say how they differ. */
static void test_result_diff(void)
{
    dj_position *pos = malloc(sizeof *pos);
    dj_result *other = malloc(sizeof *other);
    dj_position_empty(map, phase(DJ_SPRING, 1901, DJ_MOVEMENT), pos);
    put(pos, "Germany", DJ_ARMY, "mun");
    put(pos, "Germany", DJ_ARMY, "ruh");
    put(pos, "France", DJ_ARMY, "bur");
    static const char *const lines[] = {
        "Germany: A mun-bur", "Germany: A ruh S A mun-bur", "France: A bur H",
        NULL};
    run(pos, lines);
    *other = *res;
    char why[256] = "x";
    CHECK(dj_result_diff(map, res, other, why, sizeof why) == 0);
    CHECK_STR(why, "");

    /* Units in another order are the same board. */
    dj_unit first = other->next.units[0];
    other->next.units[0] = other->next.units[other->next.nunits - 1];
    other->next.units[other->next.nunits - 1] = first;
    CHECK(dj_result_diff(map, res, other, why, sizeof why) == 0);

    /* A mark that only explains a failure is not an outcome. */
    *other = *res;
    other->orders[2].flags ^= DJ_RF_BOUNCE;
    CHECK(dj_result_diff(map, res, other, why, sizeof why) == 0);

    *other = *res;
    other->orders[0].success = false;
    CHECK(dj_result_diff(map, res, other, why, sizeof why) == 1);
    CHECK(strstr(why, "order 1 succeeds after engine A, fails after B"));

    *other = *res;
    other->next.units[0].loc = (int16_t)loc("kie");
    CHECK(dj_result_diff(map, res, other, why, sizeof why) == 1);
    CHECK(strstr(why, "stands after engine"));

    *other = *res;
    other->next.dislodged[0].nretreats = 0;
    CHECK(dj_result_diff(map, res, other, why, sizeof why) == 1);
    CHECK(strstr(why, "other retreats"));

    *other = *res;
    other->winner = 0;
    CHECK(dj_result_diff(map, res, other, NULL, 0) == 1);
    free(other);
    free(pos);
}

int main(int argc, char **argv)
{
    const char *srcdir = test_srcdir(argc, argv);
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/maps/standard.map", srcdir ? srcdir : ".");
    dj_map *m = dj_map_load(path, err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    map = m;
    res = malloc(sizeof *res);
    test_opening_holds();
    test_result_flags();
    test_dislodge_and_retreat();
    test_retreat_clash();
    test_capture_and_builds();
    test_civil_disorder_removal();
    test_victory();
    test_malformed_input();
    test_rules();
    test_result_diff();
    test_every_engine_retreats();
    test_engines_and_rules();
    test_reasons_say_what_happened();
    free(res);
    dj_map_free(m);
    return test_summary();
}
