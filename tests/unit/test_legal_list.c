/* SPDX-License-Identifier: MIT */
/*
 * test_legal_list.c — the engine's list of the orders a power may give
 * (engine/legal_list.h, what judgeweb's order pad offers): on the
 * standard board the opening's moves, supports and no convoy from port;
 * a fleet at sea's convoys and the army's move by convoy; a dislodged
 * unit's retreats and disband; builds on each empty owned home centre
 * (each coast of St Petersburg) and removals.  Every text is read back by
 * the order reader (reader/notation.h) to the same order, and every order
 * listed is one the adjudicator takes as legal (no DJ_RF_ILLEGAL; a build
 * listed is made).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/adjudicate.h"
#include "engine/legal_list.h"
#include "reader/notation.h"
#include "testlib.h"

static const dj_map *map;
static dj_legal_set *set;
static dj_result *res;
static dj_rules rules;

static int power(const char *name)
{
    return dj_map_find_power(map, name);
}

static int loc(const char *name)
{
    return dj_map_find_location(map, name);
}

static void put(dj_position *pos, const char *pw, dj_unit_type t,
                const char *at)
{
    dj_unit *u = &pos->units[pos->nunits++];
    u->power = (int16_t)power(pw);
    u->type = t;
    u->loc = (int16_t)loc(at);
}

/* Is `text` among the set's orders? */
static bool listed(const char *text)
{
    char buf[128];
    for (int i = 0; i < set->n; i++) {
        dj_legal_text(map, &set->o[i].order, buf, sizeof buf);
        if (strcmp(buf, text) == 0)
            return true;
    }
    return false;
}

static bool convoy_move(const char *text)
{
    char buf[128];
    for (int i = 0; i < set->n; i++) {
        dj_legal_text(map, &set->o[i].order, buf, sizeof buf);
        if (strcmp(buf, text) == 0)
            return set->o[i].by_convoy;
    }
    return false;
}

/* Every order's text reads back as itself, and the adjudicator takes
 * each alone as legal. */
static void each_reads_back_and_is_legal(const dj_position *pos, int pw)
{
    for (int i = 0; i < set->n; i++) {
        const dj_order *o = &set->o[i].order;
        char text[128], err[128];
        dj_legal_text(map, o, text, sizeof text);
        dj_order back;
        int rc = dj_notation_parse(map, pw, pos->phase.type, text, &back, err,
                                   sizeof err);
        if (rc != 0 || !dj_order_equal(&back, o)) {
            fprintf(stderr, "'%s' does not read back: %s\n", text,
                    rc ? err : "another order");
            CHECK(0);
        }
        CHECK(dj_adjudicate(map, pos, o, 1, &rules, res) == 0);
        if (res->orders[0].flags & DJ_RF_ILLEGAL) {
            fprintf(stderr, "'%s' listed but illegal: %s\n", text,
                    dj_why_text(res->orders[0].why));
            CHECK(0);
        }
        if (o->kind == DJ_ORDER_BUILD && !res->orders[0].success) {
            fprintf(stderr, "'%s' listed but not made\n", text);
            CHECK(0);
        }
    }
}

static void test_opening(void)
{
    dj_position pos;
    dj_position_initial(map, &pos);
    CHECK(dj_legal_orders(map, &pos, &rules, power("France"), set) == 0);
    CHECK(!set->truncated);
    CHECK(listed("A PAR H"));
    CHECK(listed("A PAR - BUR"));
    CHECK(listed("A PAR - PIC"));
    CHECK(listed("A PAR - GAS"));
    CHECK(!listed("A PAR - MUN"));
    CHECK(!listed("A PAR - ENG"));
    CHECK(listed("F BRE - MAO"));
    CHECK(listed("F BRE - ENG"));
    CHECK(!listed("F BRE - PAR"));
    CHECK(listed("A PAR S A MAR - BUR"));
    CHECK(listed("A MAR S A PAR - BUR"));
    CHECK(listed("A PAR S F BRE"));
    CHECK(listed("F BRE S A PAR - PIC"));
    CHECK(listed("A MAR S F BRE - GAS")); /* a foreign or own move, alike */
    CHECK(!listed("A PAR S A MAR - SPA")); /* Paris cannot reach Spain */
    CHECK(listed("A MAR - SPA"));
    CHECK(listed("A MAR S A VEN - PIE")); /* an Italian move supported */
    CHECK(!listed("A PAR - PAR"));
    /* a fleet in port does not convoy, and nothing of Germany's is listed */
    for (int i = 0; i < set->n; i++) {
        CHECK(set->o[i].order.kind != DJ_ORDER_CONVOY);
        CHECK(set->o[i].order.power == power("France"));
        CHECK(pos.units[set->o[i].unit].power == power("France"));
    }
    /* a fleet of Russia's on the south coast of St Petersburg */
    CHECK(dj_legal_orders(map, &pos, &rules, power("Russia"), set) == 0);
    CHECK(listed("F STP/SC - BOT"));
    CHECK(listed("F STP/SC - FIN"));
    CHECK(!listed("F STP/SC - BAR"));
    CHECK(listed("F SEV - RUM"));
    each_reads_back_and_is_legal(&pos, power("Russia"));
    CHECK(dj_legal_orders(map, &pos, &rules, power("France"), set) == 0);
    each_reads_back_and_is_legal(&pos, power("France"));
    /* a power out of range */
    CHECK(dj_legal_orders(map, &pos, &rules, -1, set) == -1);
    CHECK(set->n == 0);
}

static void test_convoys(void)
{
    dj_position pos;
    dj_position_empty(map, (dj_phase){DJ_SPRING, 1901, DJ_MOVEMENT}, &pos);
    put(&pos, "England", DJ_ARMY, "lon");
    put(&pos, "England", DJ_FLEET, "nth");
    put(&pos, "France", DJ_ARMY, "bel");
    CHECK(dj_legal_orders(map, &pos, &rules, power("England"), set) == 0);
    CHECK(listed("F NTH C A LON - NWY"));
    CHECK(listed("F NTH C A LON - BEL"));
    CHECK(listed("F NTH C A BEL - YOR")); /* a French army convoyed */
    CHECK(!listed("F NTH C A LON - BRE")); /* the North Sea is not on a route */
    CHECK(listed("A LON - NWY"));
    CHECK(convoy_move("A LON - NWY"));
    CHECK(listed("A LON - YOR"));
    CHECK(!convoy_move("A LON - YOR"));
    CHECK(!listed("A LON - BRE"));     /* no route of fleets */
    CHECK(listed("A LON S A BEL - NTH") == false); /* an army into the sea */
    CHECK(listed("F NTH S A BEL - HOL"));
    each_reads_back_and_is_legal(&pos, power("England"));
}

static void test_retreats(void)
{
    dj_position pos;
    dj_position_empty(map, (dj_phase){DJ_SPRING, 1901, DJ_MOVEMENT}, &pos);
    put(&pos, "Germany", DJ_ARMY, "mun");
    put(&pos, "Austria", DJ_ARMY, "tyr");
    put(&pos, "Austria", DJ_ARMY, "boh");
    dj_order o[2];
    char err[128];
    CHECK(dj_notation_parse(map, power("Austria"), DJ_MOVEMENT, "A tyr-mun",
                            &o[0], err, sizeof err) == 0);
    CHECK(dj_notation_parse(map, power("Austria"), DJ_MOVEMENT,
                            "A boh S A tyr-mun", &o[1], err,
                            sizeof err) == 0);
    CHECK(dj_adjudicate(map, &pos, o, 2, &rules, res) == 0);
    dj_position after = res->next;
    CHECK(after.phase.type == DJ_RETREAT);
    CHECK(dj_legal_orders(map, &after, &rules, power("Germany"), set) == 0);
    CHECK(listed("A MUN R BUR"));
    CHECK(listed("A MUN R KIE"));
    CHECK(!listed("A MUN R TYR")); /* where the attacker came from */
    CHECK(listed("DISBAND A MUN"));
    CHECK(set->o[0].unit == 0);
    each_reads_back_and_is_legal(&after, power("Germany"));
    CHECK(dj_legal_orders(map, &after, &rules, power("Austria"), set) == 0);
    CHECK(set->n == 0);
}

static void test_adjustments(void)
{
    dj_position pos;
    dj_position_initial(map, &pos);
    pos.phase = (dj_phase){DJ_WINTER, 1901, DJ_ADJUSTMENT};
    /* Russia: its four homes empty but Moscow, and Sweden owned */
    pos.nunits = 0;
    put(&pos, "Russia", DJ_ARMY, "mos");
    put(&pos, "France", DJ_ARMY, "par");
    put(&pos, "France", DJ_ARMY, "bur");
    pos.owner[loc("swe")] = (int16_t)power("Russia");
    pos.owner[loc("bre")] = -1;
    pos.owner[loc("mar")] = -1;
    CHECK(dj_legal_orders(map, &pos, &rules, power("Russia"), set) == 0);
    CHECK(set->due == 4);
    CHECK(listed("BUILD A STP"));
    CHECK(listed("BUILD F STP/NC"));
    CHECK(listed("BUILD F STP/SC"));
    CHECK(listed("BUILD A WAR"));
    CHECK(!listed("BUILD F WAR"));
    CHECK(listed("BUILD F SEV"));
    CHECK(!listed("BUILD A MOS"));   /* occupied */
    CHECK(!listed("BUILD A SWE"));   /* not a home centre */
    each_reads_back_and_is_legal(&pos, power("Russia"));
    /* France: one centre, two units: one removal of either */
    CHECK(dj_legal_orders(map, &pos, &rules, power("France"), set) == 0);
    CHECK(set->due == -1);
    CHECK(set->n == 2);
    CHECK(listed("REMOVE A PAR"));
    CHECK(listed("REMOVE A BUR"));
    each_reads_back_and_is_legal(&pos, power("France"));
    /* Italy, without centres or units: nothing due */
    pos.owner[loc("rom")] = pos.owner[loc("nap")] = pos.owner[loc("ven")] = -1;
    CHECK(dj_legal_orders(map, &pos, &rules, power("Italy"), set) == 0);
    CHECK(set->due == 0 && set->n == 0);
}

int main(int argc, char **argv)
{
    const char *srcdir = test_srcdir(argc, argv);
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/maps/standard.map",
             srcdir ? srcdir : ".");
    dj_map *m = dj_map_load(path, err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    map = m;
    dj_rules_default(&rules);
    set = malloc(sizeof *set);
    res = malloc(sizeof *res);
    test_opening();
    test_convoys();
    test_retreats();
    test_adjustments();
    free(set);
    free(res);
    dj_map_free(m);
    return test_summary();
}
