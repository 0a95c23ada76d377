/* SPDX-License-Identifier: MIT */
/*
 * test_blind.c — the visibility rule of blind games (game/blind.c) on
 * fixed positions of the standard map: the worked cases of dipjudge(7)'s
 * BLIND GAMES section, each checked for what every power, the master and
 * an observer see.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/adjudicate.h"
#include "game/blind.h"
#include "reader/notation.h"
#include "testlib.h"

static const dj_map *M;

static int pw(const char *name) { return dj_map_find_power(M, name); }
static int at(const char *loc) { return dj_map_find_location(M, loc); }

/* Does the position hold a unit of that power at loc? */
static bool has_unit(const dj_position *pos, const char *power,
                     const char *loc)
{
    for (int i = 0; i < pos->nunits; i++)
        if (pos->units[i].power == pw(power) && pos->units[i].loc == at(loc))
            return true;
    return false;
}

static int units_of_others(const dj_position *pos, int viewer)
{
    int n = 0;
    for (int i = 0; i < pos->nunits; i++)
        n += pos->units[i].power != viewer;
    return n;
}

/* Is there a shown order of that power for the unit at loc? */
static bool has_order(const dj_blind_view *v, const char *power,
                      const char *loc)
{
    for (int k = 0; k < v->norders; k++)
        if (v->orders[k].power == pw(power) && v->orders[k].loc == at(loc))
            return true;
    return false;
}

/* Case 1: the opening position. */
static void test_opening(void)
{
    dj_position pos, view;
    dj_position_initial(M, &pos);
    bool seen[DJ_MAX_LOCS];
    dj_blind_sight(M, &pos, pw("England"), seen);
    CHECK(seen[at("lon")] && seen[at("eng")] && seen[at("nth")] &&
          seen[at("iri")] && seen[at("nao")] && seen[at("wal")]);
    CHECK(!seen[at("bre")] && !seen[at("hol")] && !seen[at("bel")]);
    /* each power sees only its own units, but Austria and Italy see
       each other's A Venice and F Trieste */
    for (int p = 0; p < M->npowers; p++) {
        dj_blind_position(M, &pos, p, &view);
        int others = units_of_others(&view, p);
        if (p == pw("Austria")) {
            CHECK(others == 1 && has_unit(&view, "Italy", "ven"));
        } else if (p == pw("Italy")) {
            CHECK(others == 1 && has_unit(&view, "Austria", "tri"));
        } else {
            CHECK(others == 0);
        }
        CHECK(view.nunits - others == dj_position_units(&pos, p));
    }
    /* centres: England sees its own three; Brest is not in its sight */
    dj_blind_position(M, &pos, pw("England"), &view);
    CHECK(view.owner[at("lon")] == pw("England"));
    CHECK(view.owner[at("bre")] == DJ_BLIND_UNSEEN);
    CHECK(view.owner[at("bel")] == DJ_BLIND_UNSEEN);
    /* Italy sees Trieste's owner, Austria Venice's */
    dj_blind_position(M, &pos, pw("Italy"), &view);
    CHECK(view.owner[at("tri")] == pw("Austria"));
    CHECK(view.owner[at("vie")] == DJ_BLIND_UNSEEN); /* not next to Venice */
    /* the master sees all, an observer nothing */
    dj_blind_position(M, &pos, DJ_BLIND_ALL, &view);
    CHECK(view.nunits == pos.nunits && view.owner[at("bre")] == pw("France"));
    dj_blind_position(M, &pos, DJ_BLIND_NONE, &view);
    CHECK(view.nunits == 0 && view.owner[at("lon")] == DJ_BLIND_UNSEEN);
}

static int parse(const char *power, const char *text, dj_order *o)
{
    char err[128];
    int rc = dj_notation_parse(M, pw(power), DJ_MOVEMENT, text, o, err,
                               sizeof err);
    if (rc != 0)
        fprintf(stderr, "cannot parse '%s': %s\n", text, err);
    CHECK(rc == 0);
    return rc == 0;
}

/* Case 2: Spring 1901 results. */
static void test_results(void)
{
    static const struct { const char *power, *text; } in[] = {
        {"France", "A Par - Bur"},   {"Germany", "A Mun - Bur"},
        {"England", "F Lon - Eng"},  {"France", "F Bre - Mao"},
        {"Austria", "F Tri - Alb"},  {"Turkey", "A Con - Bul"},
        {"Russia", "A War - Gal"},   {"Austria", "A Vie - Gal"},
    };
    int n = 0;
    dj_order orders[16];
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        n += parse(in[i].power, in[i].text, &orders[n]);
    dj_position pos;
    dj_position_initial(M, &pos);
    dj_rules rules;
    dj_rules_default(&rules);
    dj_result *res = calloc(1, sizeof *res);
    dj_blind_view *v = malloc(sizeof *v);
    CHECK(dj_adjudicate(M, &pos, orders, n, &rules, res) == 0);

    /* France: its own orders, Germany's move to Burgundy (in its sight),
       England's fleet into the Channel (next to Brest) */
    dj_blind_results(M, &pos, orders, n, res, pw("France"), v);
    CHECK(has_order(v, "France", "par") && has_order(v, "France", "bre"));
    CHECK(has_order(v, "Germany", "mun") && has_order(v, "England", "lon"));
    CHECK(!has_order(v, "Turkey", "con") && !has_order(v, "Austria", "tri"));
    CHECK(has_unit(&v->before, "Germany", "mun"));
    CHECK(has_unit(&v->before, "England", "lon"));
    CHECK(!has_unit(&v->before, "Germany", "kie"));
    CHECK(v->res.norders == v->norders);
    /* the unit indices point into the filtered position */
    for (int k = 0; k < v->norders; k++) {
        int u = v->res.orders[k].unit;
        CHECK(u >= 0 && u < v->before.nunits &&
              v->before.units[u].loc == v->orders[k].loc);
    }
    /* after the phase: the English fleet in the Channel is seen */
    CHECK(has_unit(&v->res.next, "England", "eng"));
    CHECK(!has_unit(&v->res.next, "Turkey", "bul"));

    /* England: its own and France's fleet Brest -> Mid-Atlantic (Brest is
       next to the Channel, where England now stands) */
    dj_blind_results(M, &pos, orders, n, res, pw("England"), v);
    CHECK(has_order(v, "England", "lon") && has_order(v, "France", "bre"));
    CHECK(!has_order(v, "France", "par") && !has_order(v, "Germany", "mun"));

    /* Italy: Austria's fleet leaving Trieste; Austria and Russia: each
       other's bounce in Galicia */
    dj_blind_results(M, &pos, orders, n, res, pw("Italy"), v);
    CHECK(has_order(v, "Austria", "tri") && !has_order(v, "Austria", "vie"));
    dj_blind_results(M, &pos, orders, n, res, pw("Russia"), v);
    CHECK(has_order(v, "Austria", "vie") && !has_order(v, "Turkey", "con"));
    CHECK(!has_order(v, "Austria", "tri"));
    dj_blind_results(M, &pos, orders, n, res, pw("Austria"), v);
    CHECK(has_order(v, "Russia", "war") && !has_order(v, "Russia", "mos"));

    /* Russia does not see Turkey take Bulgaria; nobody but Turkey and the
       master sees the order */
    for (int p = 0; p < M->npowers; p++) {
        dj_blind_results(M, &pos, orders, n, res, p, v);
        CHECK(has_order(v, "Turkey", "con") == (p == pw("Turkey")));
    }
    dj_blind_results(M, &pos, orders, n, res, DJ_BLIND_ALL, v);
    CHECK(v->norders == n && v->before.nunits == pos.nunits);
    dj_blind_results(M, &pos, orders, n, res, DJ_BLIND_NONE, v);
    CHECK(v->norders == 0 && v->before.nunits == 0 &&
          v->res.next.nunits == 0 && v->res.nauto == 0);
    free(v);
    free(res);
}

/* Case 3: centres seen by units, not by distance. */
static void test_centres(void)
{
    dj_position pos, view;
    dj_position_initial(M, &pos);
    /* Turkey owns Bulgaria; a Russian army in Rumania sees it */
    pos.owner[at("bul")] = (int16_t)pw("Turkey");
    for (int i = 0; i < pos.nunits; i++)
        if (pos.units[i].loc == at("sev"))
            pos.units[i].loc = (int16_t)at("rum");
    dj_blind_position(M, &pos, pw("Russia"), &view);
    CHECK(view.owner[at("bul")] == pw("Turkey"));
    CHECK(view.owner[at("ank")] == DJ_BLIND_UNSEEN);
    CHECK(has_unit(&view, "Russia", "rum"));
    /* England does not */
    dj_blind_position(M, &pos, pw("England"), &view);
    CHECK(view.owner[at("bul")] == DJ_BLIND_UNSEEN);
    /* Russia's own Sevastopol, empty now, is still in its sight */
    dj_blind_position(M, &pos, pw("Russia"), &view);
    CHECK(view.owner[at("sev")] == pw("Russia"));
}

int main(int argc, char **argv)
{
    const char *srcdir = test_srcdir(argc, argv);
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/maps/standard.map", srcdir);
    dj_map *m = dj_map_load(path, err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    M = m;
    test_opening();
    test_results();
    test_centres();
    dj_map_free(m);
    return test_summary();
}
