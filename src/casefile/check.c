/* SPDX-License-Identifier: MIT */
/*
 * check.c — adjudicate one case and compare the outcome with what the
 * case expects.
 *
 * Design.  A case states the board afterwards (POSTSTATE), each order's
 * result (RESULTS), or both; whatever it states is compared.  Units are
 * compared as sets of (power, type, location), coast included: every
 * expected unit must be on the board afterwards and nothing else may be.
 * After a movement phase the dislodged units that can retreat are
 * compared the same way against POSTSTATE_DISLODGED (units with no
 * retreat are destroyed at once and so appear in neither list); RESULTS'
 * DISLODGED lines name every dislodged unit, destroyed ones too, each
 * with exactly where it may retreat.  The differences are printed one a
 * line, "missing" for expected units not found, "unexpected" for units
 * found but not expected, "result:" for an order whose success differs,
 * so a failing case reads like a small diff.
 */
#include "casefile/check.h"

#include <stdlib.h>
#include <string.h>

struct dj_checker {
    dj_result result;                     /* big: allocated once */
    dj_order orders[DJ_CASE_MAX_ORDERS];  /* the case's orders, contiguous */
};

dj_checker *dj_checker_new(void)
{
    return calloc(1, sizeof(dj_checker));
}

void dj_checker_free(dj_checker *ck)
{
    free(ck);
}

const dj_result *dj_checker_result(const dj_checker *ck)
{
    return &ck->result;
}

/* ---- printing ------------------------------------------------------------ */

static const char *power_name(const dj_map *map, int power)
{
    if (power >= 0 && power < map->npowers)
        return map->powers[power].name;
    return "?";
}

static const char *loc_abbr(const dj_map *map, int loc)
{
    if (loc >= 0 && loc < map->nlocs)
        return map->locs[loc].abbr;
    return "?";
}

/* "  missing: France: F spa/sc" (nothing if out is NULL) */
static void print_unit(FILE *out, const dj_map *map, const char *what,
                       const char *label, const dj_unit *u)
{
    if (!out)
        return;
    const char *letter = dj_unit_letter(u->type);
    fprintf(out, "  %s%s: %s: %s %s\n", what, label, power_name(map, u->power),
            *letter ? letter : "?", loc_abbr(map, u->loc));
}

/* Result flags in words, e.g. "bounce, dislodged". */
static void describe_flags(unsigned flags, char *buf, size_t len)
{
    static const char *const names[] = {
        "bounce", "cut",       "void",      "no convoy", "dislodged",
        "illegal", "paradox", "disrupted", "destroyed", "ignored"};
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(flags & (1u << i)))
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
                         names[i]);
        if (n < 0 || (size_t)n >= len - used)
            return;
        used += (size_t)n;
    }
}

/* "  England: F NTH - PIC   fails [illegal] (not adjacent)" */
static void print_order(FILE *out, const dj_map *map, const dj_order *o,
                        const dj_order_result *r)
{
    char text[128], flags[128];
    dj_order_format(map, o, text, sizeof text);
    describe_flags(r->flags, flags, sizeof flags);
    fprintf(out, "  %s: %-24s %s", power_name(map, o->power), text,
            r->success ? "succeeds" : "fails");
    if (flags[0])
        fprintf(out, " [%s]", flags);
    if (r->why != DJ_WHY_NONE)
        fprintf(out, " (%s)", dj_why_text(r->why));
    fputc('\n', out);
}

static void print_orders(FILE *out, const dj_map *map, const dj_order *orders,
                         int norders, const dj_result *res)
{
    for (int i = 0; i < norders && i < res->norders; i++)
        print_order(out, map, &orders[i], &res->orders[i]);
    for (int i = 0; i < res->nauto; i++) {
        char text[128];
        const dj_auto_order *a = &res->autos[i];
        dj_order_format(map, &a->order, text, sizeof text);
        fprintf(out, "  %s: %-24s by the judge", power_name(map, a->order.power),
                text);
        if (a->why != DJ_WHY_NONE)
            fprintf(out, " (%s)", dj_why_text(a->why));
        fputc('\n', out);
    }
}

/* ---- comparing ----------------------------------------------------------- */

static bool same_unit(const dj_unit *a, const dj_unit *b)
{
    return a->power == b->power && a->type == b->type && a->loc == b->loc;
}

/* Is *u in the list?  Entry `hint` is tried first: two lists of the same
 * board usually come in the same order (a case written by judgectl lists
 * the units as the engine does), which makes a whole comparison one pass
 * instead of a search per unit. */
static bool unit_in(const dj_unit *u, const dj_unit *list, int n, int hint)
{
    if (hint < n && same_unit(u, &list[hint]))
        return true;
    for (int i = 0; i < n; i++)
        if (same_unit(u, &list[i]))
            return true;
    return false;
}

/*
 * Print what is in `want` but not `got` and the reverse (nothing if `out`
 * is NULL); the number of differences is returned.  `what` prefixes the
 * labels ("dislodged ").
 */
static int diff_units(FILE *out, const dj_map *map, const char *what,
                      const dj_unit *want, int nwant, const dj_unit *got,
                      int ngot)
{
    if (nwant == ngot) { /* the same units in the same order: one pass */
        int same = 0;
        while (same < nwant && same_unit(&want[same], &got[same]))
            same++;
        if (same == nwant)
            return 0;
    }
    int ndiff = 0;
    for (int i = 0; i < nwant; i++) {
        if (!unit_in(&want[i], got, ngot, i)) {
            print_unit(out, map, what, "missing", &want[i]);
            ndiff++;
        }
    }
    for (int i = 0; i < ngot; i++) {
        if (!unit_in(&got[i], want, nwant, i)) {
            print_unit(out, map, what, "unexpected", &got[i]);
            ndiff++;
        }
    }
    return ndiff;
}

/* Dislodged units of `pos` that have somewhere to retreat to. */
static int retreating_units(const dj_position *pos, dj_unit *units)
{
    int n = 0;
    for (int i = 0; i < pos->ndislodged && i < DJ_MAX_UNITS; i++)
        if (pos->dislodged[i].nretreats > 0)
            units[n++] = pos->dislodged[i].unit;
    return n;
}

/* The board afterwards against POSTSTATE (or POSTSTATE_SAME) and
 * POSTSTATE_DISLODGED. */
static int compare_position(FILE *out, const dj_map *map, const dj_case *c,
                            const dj_result *res)
{
    const dj_position *next = &res->next;
    const dj_unit *want = c->post_same ? c->pre.units : c->post;
    int nwant = c->post_same ? c->pre.nunits : c->npost;
    int ndiff = diff_units(out, map, "", want, nwant, next->units,
                           next->nunits);
    if (c->pre.phase.type != DJ_MOVEMENT)
        return ndiff;

    dj_unit retreating[DJ_MAX_UNITS];
    int nret = retreating_units(next, retreating);
    int nwant_dis = c->post_same ? 0 : c->npost_dislodged;
    return ndiff + diff_units(out, map, "dislodged ", c->post_dislodged,
                              nwant_dis, retreating, nret);
}

/* "  result: England: A LVP - YOR succeeds, RESULTS line 12 says FAILURE" */
static int compare_orders(FILE *out, const dj_map *map, const dj_case *c,
                          const dj_result *res)
{
    int ndiff = 0;
    for (int i = 0; i < c->norders && i < res->norders; i++) {
        const dj_case_order *o = &c->orders[i];
        if (o->expect == DJ_EXPECT_NONE ||
            res->orders[i].success == (o->expect == DJ_EXPECT_SUCCESS))
            continue;
        ndiff++;
        if (!out)
            continue;
        char text[128];
        dj_order_format(map, &o->order, text, sizeof text);
        fprintf(out, "  result: %s: %s %s, line %d says %s\n",
                power_name(map, o->order.power), text,
                res->orders[i].success ? "succeeds" : "fails", o->expect_line,
                o->expect == DJ_EXPECT_SUCCESS ? "SUCCESS" : "FAILURE");
    }
    return ndiff;
}

/* Are the two sets of retreats (locations) the same? */
static bool same_retreats(const int16_t *a, int na, const int16_t *b, int nb)
{
    if (na != nb)
        return false;
    for (int i = 0; i < na; i++) {
        int k = 0;
        while (k < nb && b[k] != a[i])
            k++;
        if (k == nb)
            return false;
    }
    return true;
}

/* "alb, adr", or "none". */
static void list_retreats(const dj_map *map, const int16_t *r, int n,
                          char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (n == 0)
        snprintf(buf, len, "none");
    for (int i = 0; i < n && used < len; i++) {
        int k = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                         loc_abbr(map, r[i]));
        if (k < 0)
            return;
        used += (size_t)k;
    }
}

/* Every unit a movement phase dislodged: those that may retreat (in the
 * next position, with their retreats) and those destroyed at once for
 * want of a retreat (the judge's disbands, with none).  Returns how many. */
static int dislodged_units(const dj_result *res, dj_dislodged *out)
{
    int n = 0;
    for (int i = 0; i < res->next.ndislodged && n < DJ_MAX_UNITS; i++)
        out[n++] = res->next.dislodged[i];
    for (int i = 0; i < res->nauto && n < DJ_MAX_UNITS; i++) {
        const dj_auto_order *a = &res->autos[i];
        if (a->order.kind != DJ_ORDER_DISBAND ||
            a->why != DJ_WHY_NO_RETREAT)
            continue;
        memset(&out[n], 0, sizeof out[n]);
        out[n].unit = (dj_unit){.power = a->order.power,
                                .loc = a->order.loc,
                                .type = a->order.unit_type};
        n++;
    }
    return n;
}

/* The dislodged units after a movement phase, each with where it may
 * retreat, against RESULTS' DISLODGED lines. */
static int compare_dislodged(FILE *out, const dj_map *map, const dj_case *c,
                             const dj_result *res)
{
    dj_dislodged got[DJ_MAX_UNITS];
    int ngot = dislodged_units(res, got);
    int ndiff = 0;
    char want[256], have[256];
    for (int i = 0; i < c->nexpect_dislodged; i++) {
        const dj_case_dislodged *e = &c->expect_dislodged[i];
        int k = 0;
        while (k < ngot && !same_unit(&got[k].unit, &e->unit))
            k++;
        if (k < ngot && same_retreats(e->retreats, e->nretreats,
                                      got[k].retreats, got[k].nretreats))
            continue;
        ndiff++;
        if (!out)
            continue;
        if (k == ngot) {
            print_unit(out, map, "dislodged ", "missing", &e->unit);
            continue;
        }
        list_retreats(map, e->retreats, e->nretreats, want, sizeof want);
        list_retreats(map, got[k].retreats, got[k].nretreats, have,
                      sizeof have);
        fprintf(out, "  retreats: %s: %s %s may retreat to %s, line %d says "
                     "%s\n", power_name(map, e->unit.power),
                dj_unit_letter(e->unit.type), loc_abbr(map, e->unit.loc),
                have, e->line, want);
    }
    for (int k = 0; k < ngot; k++) {
        int i = 0;
        while (i < c->nexpect_dislodged &&
               !same_unit(&c->expect_dislodged[i].unit, &got[k].unit))
            i++;
        if (i < c->nexpect_dislodged)
            continue;
        ndiff++;
        print_unit(out, map, "dislodged ", "unexpected", &got[k].unit);
    }
    return ndiff;
}

/*
 * Compare the outcome with every expectation the case states (the board
 * afterwards, each order's result, the dislodged units), printing the
 * differences unless `out` is NULL; the number of differences is returned.
 */
static int compare(FILE *out, const dj_map *map, const dj_case *c,
                   const dj_result *res)
{
    int ndiff = 0;
    if (c->has_post || c->post_same)
        ndiff += compare_position(out, map, c, res);
    if (c->has_results) {
        ndiff += compare_orders(out, map, c, res);
        if (c->pre.phase.type == DJ_MOVEMENT)
            ndiff += compare_dislodged(out, map, c, res);
    }
    return ndiff;
}

/* ---- the check ----------------------------------------------------------- */

dj_check_verdict dj_check_case(dj_checker *ck, const dj_map *map,
                               const dj_case *c, bool verbose, FILE *out)
{
    return dj_check_case_with(ck, DJ_ENGINE_DPJUDGE, map, c, verbose, out);
}

dj_check_verdict dj_check_case_with(dj_checker *ck, dj_engine engine,
                                    const dj_map *map, const dj_case *c,
                                    bool verbose, FILE *out)
{
    for (int i = 0; i < c->norders; i++)
        ck->orders[i] = c->orders[i].order;
    int rc = dj_adjudicate_with(engine, map, &c->pre, ck->orders, c->norders,
                                &c->rules, &ck->result);
    if (rc < 0) {
        fprintf(out, "FAIL %s\n  the adjudicator rejected the position or "
                     "an order\n", c->name);
        return DJ_CHECK_FAIL;
    }

    /* Count first, print second: the verdict line comes before the diff. */
    int ndiff = compare(NULL, map, c, &ck->result);
    fputs(ndiff ? "FAIL " : "PASS ", out); /* once a case: no format */
    fputs(c->name, out);
    fputc('\n', out);
    if (ndiff)
        compare(out, map, c, &ck->result);
    if (verbose)
        print_orders(out, map, ck->orders, c->norders, &ck->result);
    return ndiff ? DJ_CHECK_FAIL : DJ_CHECK_PASS;
}
