/* SPDX-License-Identifier: MIT */
/*
 * interpret_choose.c — one reading per order, chosen with the whole set of
 * the power's orders in view (DATC 4.E.2 choice d), then 4.D.3.
 *
 * Design.  Every order keeps the set of its readings still in the
 * running ("alive").  A round recomputes each set from all of its
 * readings through a fixed sieve, each step applied only when it leaves
 * something:
 *
 *   1. possible orders only (the unit is there and can do it);
 *   2. not a unit that another order certainly names: a unit already
 *      ordered on another line is not the one meant (4.E.2 example 7);
 *   3. the closest spelling;
 *   4. readings matching an order already settled: a support settles the
 *      move it supports and the other way round (4.E.2 example 8);
 *   5. the unit types and nationality written.
 *
 * What one order settles can settle another, so rounds repeat until
 * nothing changes (bounded by the number of orders).  An order left with
 * readings that differ is ambiguous; nothing is guessed.
 *
 * Only this power's orders are ever looked at: the caller gives one power.
 */
#include "reader/interpret_int.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * What the other orders say, recomputed each round, with indexes by
 * province so that every test of a reading costs about as much as the
 * orders it concerns, not the whole set.
 */
typedef struct context {
    int *certain_unit; /* per item: province every alive reading orders, -1 */
    int *settled;      /* per item: the one reading left, -1 */
    int *claims;       /* per province: items certainly ordering its unit */
    int *by_unit;      /* per province: first settled item ordering it, -1 */
    int *by_target;    /* per province: first settled item naming it, -1 */
    int *next_unit;    /* per item: next settled item in its by_unit list */
    int *next_target;  /* per item: next one in its by_target list */
} context;

static int prov_of(const ir_ctx *c, int loc)
{
    return loc >= 0 && loc < c->map->nlocs ? dj_province(c->map, loc) : -1;
}

static bool orders_a_unit(const dj_order *o)
{
    return o->kind != DJ_ORDER_BUILD && o->kind != DJ_ORDER_WAIVE &&
           o->loc >= 0;
}

/* The first alive reading, or -1. */
static int first_alive(const ir_item *it)
{
    for (int i = 0; i < it->nreadings; i++)
        if (it->alive[i])
            return i;
    return -1;
}

/* Do all alive readings read the same order? */
static bool one_text(const ir_item *it)
{
    int f = first_alive(it);
    if (f < 0)
        return false;
    for (int i = f + 1; i < it->nreadings; i++)
        if (it->alive[i] &&
            strcmp(it->readings[i].text, it->readings[f].text) != 0)
            return false;
    return true;
}

static int certain_unit(const ir_ctx *c, const ir_item *it)
{
    int prov = -1;
    for (int i = 0; i < it->nreadings; i++) {
        if (!it->alive[i])
            continue;
        const dj_order *o = &it->readings[i].order;
        int p = orders_a_unit(o) ? prov_of(c, o->loc) : -1;
        if (p < 0 || (prov >= 0 && p != prov))
            return -1;
        prov = p;
    }
    return prov;
}

static bool context_alloc(context *ctx, int nitems, int nprov)
{
    size_t ni = (size_t)(nitems > 0 ? nitems : 1), np = (size_t)nprov;
    ctx->certain_unit = malloc(ni * sizeof(int));
    ctx->settled = malloc(ni * sizeof(int));
    ctx->next_unit = malloc(ni * sizeof(int));
    ctx->next_target = malloc(ni * sizeof(int));
    ctx->claims = malloc(np * sizeof(int));
    ctx->by_unit = malloc(np * sizeof(int));
    ctx->by_target = malloc(np * sizeof(int));
    return ctx->certain_unit && ctx->settled && ctx->next_unit &&
           ctx->next_target && ctx->claims && ctx->by_unit && ctx->by_target;
}

static void context_free(context *ctx)
{
    free(ctx->certain_unit);
    free(ctx->settled);
    free(ctx->next_unit);
    free(ctx->next_target);
    free(ctx->claims);
    free(ctx->by_unit);
    free(ctx->by_target);
}

/* Put settled item i in the per-province lists of its unit and target. */
static void index_settled(const ir_ctx *c, const dj_order *o, int i,
                          context *ctx)
{
    int unit = prov_of(c, o->loc), target = prov_of(c, o->target);
    if (unit >= 0) {
        ctx->next_unit[i] = ctx->by_unit[unit];
        ctx->by_unit[unit] = i;
    }
    if (target >= 0) {
        ctx->next_target[i] = ctx->by_target[target];
        ctx->by_target[target] = i;
    }
}

static void compute_context(const ir_ctx *c, const ir_item *items, int n,
                            context *ctx)
{
    for (int p = 0; p < c->map->nlocs; p++)
        ctx->claims[p] = 0, ctx->by_unit[p] = ctx->by_target[p] = -1;
    for (int i = 0; i < n; i++) {
        const ir_item *it = &items[i];
        ctx->certain_unit[i] = ctx->settled[i] = -1;
        ctx->next_unit[i] = ctx->next_target[i] = -1;
        if (it->failed || it->nreadings == 0)
            continue;
        ctx->certain_unit[i] = certain_unit(c, it);
        if (ctx->certain_unit[i] >= 0)
            ctx->claims[ctx->certain_unit[i]]++;
        if (one_text(it)) {
            int f = first_alive(it);
            if (!it->readings[f].invalid) {
                ctx->settled[i] = f;
                index_settled(c, &it->readings[f].order, i, ctx);
            }
        }
    }
}

/* ---- the sieve ----------------------------------------------------------- */

typedef bool (*keep_fn)(const ir_ctx *c, const ir_item *items, int n,
                        const context *ctx, int self, const ir_reading *r);

/* Keep the readings `keep` accepts, unless that would keep none. */
static void sieve(const ir_ctx *c, const ir_item *items, int n,
                  const context *ctx, int self, bool *alive, keep_fn keep)
{
    const ir_item *it = &items[self];
    int kept = 0;
    for (int i = 0; i < it->nreadings; i++)
        kept += alive[i] && keep(c, items, n, ctx, self, &it->readings[i]);
    if (kept == 0)
        return;
    for (int i = 0; i < it->nreadings; i++)
        alive[i] = alive[i] && keep(c, items, n, ctx, self, &it->readings[i]);
}

static bool keep_possible(const ir_ctx *c, const ir_item *items, int n,
                          const context *ctx, int self, const ir_reading *r)
{
    (void)c, (void)items, (void)n, (void)ctx, (void)self;
    return r->possible;
}

static bool keep_unclaimed(const ir_ctx *c, const ir_item *items, int n,
                           const context *ctx, int self, const ir_reading *r)
{
    (void)items, (void)n;
    if (!orders_a_unit(&r->order))
        return true;
    int prov = prov_of(c, r->order.loc);
    int others = ctx->claims[prov] - (ctx->certain_unit[self] == prov);
    return others == 0;
}

/* Does reading order r agree with the settled order o of the same power? */
static bool agrees(const ir_ctx *c, const dj_order *r, const dj_order *o)
{
    switch (r->kind) {
    case DJ_ORDER_MOVE:
        return (o->kind == DJ_ORDER_SUPPORT || o->kind == DJ_ORDER_CONVOY) &&
               o->dest >= 0 && prov_of(c, o->target) == prov_of(c, r->loc) &&
               prov_of(c, o->dest) == prov_of(c, r->dest);
    case DJ_ORDER_SUPPORT:
        if (prov_of(c, o->loc) != prov_of(c, r->target))
            return false;
        if (r->dest < 0)
            return o->kind != DJ_ORDER_MOVE;
        return o->kind == DJ_ORDER_MOVE &&
               prov_of(c, o->dest) == prov_of(c, r->dest);
    case DJ_ORDER_CONVOY:
        return o->kind == DJ_ORDER_MOVE &&
               prov_of(c, o->loc) == prov_of(c, r->target) &&
               prov_of(c, o->dest) == prov_of(c, r->dest);
    default:
        return false;
    }
}

/* Does a settled order in the list starting at j (other than self) agree? */
static bool list_agrees(const ir_ctx *c, const ir_item *items,
                        const context *ctx, int self, const ir_reading *r,
                        int j, const int *next)
{
    for (; j >= 0; j = next[j])
        if (j != self &&
            agrees(c, &r->order, &items[j].readings[ctx->settled[j]].order))
            return true;
    return false;
}

/* A move is matched by orders naming its unit as their target; a support
 * or convoy by the order of the unit it names. */
static bool keep_matching(const ir_ctx *c, const ir_item *items, int n,
                          const context *ctx, int self, const ir_reading *r)
{
    (void)n;
    const dj_order *o = &r->order;
    if (o->kind == DJ_ORDER_MOVE && prov_of(c, o->loc) >= 0)
        return list_agrees(c, items, ctx, self, r,
                           ctx->by_target[prov_of(c, o->loc)],
                           ctx->next_target);
    if ((o->kind == DJ_ORDER_SUPPORT || o->kind == DJ_ORDER_CONVOY) &&
        prov_of(c, o->target) >= 0)
        return list_agrees(c, items, ctx, self, r,
                           ctx->by_unit[prov_of(c, o->target)], ctx->next_unit);
    return false;
}

/* Keep the readings with the least value of a field. */
static void keep_least(const ir_item *it, bool *alive, bool by_cost)
{
    int best = 1 << 30;
    for (int i = 0; i < it->nreadings; i++) {
        int v = by_cost ? it->readings[i].cost : it->readings[i].mismatch;
        if (alive[i] && v < best)
            best = v;
    }
    for (int i = 0; i < it->nreadings; i++) {
        int v = by_cost ? it->readings[i].cost : it->readings[i].mismatch;
        alive[i] = alive[i] && v == best;
    }
}

/* One item's sieve, from all of its readings; true if its set changed. */
static bool narrow(const ir_ctx *c, ir_item *items, int n, const context *ctx,
                   int self, bool *scratch)
{
    ir_item *it = &items[self];
    for (int i = 0; i < it->nreadings; i++)
        scratch[i] = true;
    sieve(c, items, n, ctx, self, scratch, keep_possible);
    sieve(c, items, n, ctx, self, scratch, keep_unclaimed);
    keep_least(it, scratch, true);
    sieve(c, items, n, ctx, self, scratch, keep_matching);
    keep_least(it, scratch, false);
    bool changed = memcmp(scratch, it->alive, (size_t)it->nreadings) != 0;
    memcpy(it->alive, scratch, (size_t)it->nreadings);
    return changed;
}

static void decide(ir_item *it)
{
    if (it->failed || it->nreadings == 0) {
        it->kind = DJ_READ_ERROR;
        return;
    }
    if (!one_text(it)) {
        /* readings none of which the unit could be given are no choice
         * to offer ("A lvp-pir": Paris, Picardy... none adjacent) */
        bool any = false;
        for (int i = 0; i < it->nreadings; i++)
            any |= it->alive[i] && it->readings[i].possible;
        it->kind = any ? DJ_READ_AMBIGUOUS : DJ_READ_ERROR;
        it->none_possible = !any;
        return;
    }
    it->chosen = first_alive(it);
    /* one_text: some reading is alive */
    assert(it->chosen >= 0 && it->chosen < it->nreadings);
    const ir_reading *r = &it->readings[it->chosen];
    if (r->invalid) {
        it->kind = DJ_READ_ERROR;
        snprintf(it->message, sizeof it->message, "%s", r->invalid);
        return;
    }
    it->kind = DJ_READ_OK;
}

void ir_choose(const ir_ctx *c, ir_item *items, int nitems)
{
    context ctx;
    bool ok = context_alloc(&ctx, nitems, c->map->nlocs);
    bool *scratch = malloc(IR_MAX_READINGS * sizeof(bool));
    if (ok && scratch) {
        /* each round can only settle more; the bound is a safety net */
        for (int round = 0; round <= nitems + 1; round++) {
            compute_context(c, items, nitems, &ctx);
            bool changed = false;
            for (int i = 0; i < nitems; i++)
                if (!items[i].failed && items[i].nreadings > 0)
                    changed |= narrow(c, items, nitems, &ctx, i, scratch);
            if (!changed)
                break;
        }
    }
    context_free(&ctx);
    free(scratch);
    for (int i = 0; i < nitems; i++)
        decide(&items[i]);
}

/* ---- several orders for one unit ----------------------------------------- */

static const ir_reading *chosen_reading(const ir_item *it)
{
    return it->kind == DJ_READ_OK && it->chosen >= 0 ? &it->readings[it->chosen]
                                                     : NULL;
}

/* Items ordering the unit of province prov, OK and with an order. */
static int unit_items(const ir_ctx *c, const ir_item *items, int n, int prov,
                      int *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        const ir_reading *r = chosen_reading(&items[i]);
        if (r && orders_a_unit(&r->order) && prov_of(c, r->order.loc) == prov)
            out[k++] = i;
    }
    return k;
}

static void reject(ir_item *it, const char *message)
{
    it->kind = DJ_READ_ERROR;
    snprintf(it->message, sizeof it->message, "%s", message);
}

/* Did this order name the unit's type as it is? */
static bool type_right(const ir_item *it)
{
    return it->skel->unit_type != DJ_NO_UNIT &&
           it->skel->unit_type == chosen_reading(it)->order.unit_type;
}

/* Did it name the other unit's nationality as it is (or need none)? */
static bool nation_right(const ir_item *it)
{
    return !(chosen_reading(it)->flags &
             (IRF_NATION_MISSING | IRF_NATION_WRONG));
}

/* First item of the group passing the test, or -1. */
static int first_right(const ir_item *items, const int *group, int k,
                       bool (*right)(const ir_item *))
{
    for (int i = 0; i < k; i++)
        if (right(&items[group[i]]))
            return group[i];
    return -1;
}

/* 4.C.1 c, 4.C.2 c, 4.C.5 c, 4.C.6 c: an order naming it right wins. */
static void drop_misnamed(ir_item *items, const int *group, int k,
                          const char *unit)
{
    int by_type = first_right(items, group, k, type_right);
    int by_nation = first_right(items, group, k, nation_right);
    char msg[DJ_READ_MSG_MAX];
    for (int i = 0; i < k; i++) {
        ir_item *it = &items[group[i]];
        uint8_t f = chosen_reading(it)->flags;
        if (by_type >= 0 && (f & (IRF_TYPE_MISSING | IRF_TYPE_WRONG))) {
            snprintf(msg, sizeof msg,
                     "ignored: the order for %s on line %d "
                     "names its unit type (rule 4.C.1/4.C.2 c)",
                     unit, items[by_type].line + 1);
            reject(it, msg);
        } else if (by_nation >= 0 &&
                   (f & (IRF_NATION_MISSING | IRF_NATION_WRONG))) {
            snprintf(msg, sizeof msg,
                     "ignored: the order for %s on line %d "
                     "names the nationality (rule 4.C.5/4.C.6 c)",
                     unit, items[by_nation].line + 1);
            reject(it, msg);
        }
    }
}

/* The possible orders of a group, after drop_misnamed. */
static int possible_members(const ir_item *items, const int *group, int k,
                            int *out)
{
    int m = 0;
    for (int i = 0; i < k; i++) {
        const ir_reading *r = chosen_reading(&items[group[i]]);
        if (r && r->possible)
            out[m++] = group[i];
    }
    return m;
}

/* 4.D.3 among the possible orders `g` (in line order) of one unit. */
static void apply_multiple(const ir_ctx *c, ir_item *items, const int *g, int m,
                           const char *unit)
{
    bool same = true;
    for (int i = 1; i < m; i++)
        same &= strcmp(chosen_reading(&items[g[i]])->text,
                       chosen_reading(&items[g[0]])->text) == 0;
    if (same) {
        for (int i = 1; i < m; i++)
            ir_note(items[g[i]].message, sizeof items[g[i]].message,
                    "repeats the order on line %d", items[g[0]].line + 1);
        return;
    }
    char choice = dj_rule(c->rules, DJ_RULE_MULTIPLE_ORDERS);
    int keep = choice == 'a' ? 0 : choice == 'b' ? m - 1 : -1;
    const char *instead = c->phase == DJ_RETREAT ? "disbands" : "holds";
    char msg[DJ_READ_MSG_MAX];
    for (int i = 0; i < m; i++) {
        if (i == keep)
            continue;
        if (choice == 'a')
            snprintf(msg, sizeof msg,
                     "dropped: %s already has an order (line %d), and the "
                     "first is kept (rule 4.D.3 a)",
                     unit, items[g[keep]].line + 1);
        else if (choice == 'b')
            snprintf(msg, sizeof msg,
                     "dropped: %s has a later order (line %d), and the "
                     "last is kept (rule 4.D.3 b)",
                     unit, items[g[keep]].line + 1);
        else if (items[g[0]].line == items[g[m - 1]].line)
            snprintf(msg, sizeof msg,
                     "%s has several orders (line %d): none "
                     "is used and the unit %s (rule 4.D.3 c)",
                     unit, items[g[0]].line + 1, instead);
        else
            snprintf(msg, sizeof msg,
                     "%s has several orders (lines %d and "
                     "%d): none is used and the unit %s (rule 4.D.3 c)",
                     unit, items[g[0]].line + 1, items[g[m - 1]].line + 1,
                     instead);
        reject(&items[g[i]], msg);
        items[g[i]].stands_instead = keep < 0;
    }
    if (keep >= 0) /* the one kept says so too, naming what was dropped */
        ir_note(items[g[keep]].message, sizeof items[g[keep]].message,
                "kept: the other order for %s (line %d) is dropped (rule "
                "4.D.3 %c)",
                unit, items[g[keep == 0 ? 1 : 0]].line + 1, choice);
}

void ir_settle_duplicates(const ir_ctx *c, ir_item *items, int nitems)
{
    if (c->phase == DJ_ADJUSTMENT || nitems < 2)
        return;
    int *group = malloc((size_t)nitems * sizeof(int));
    int *live = malloc((size_t)nitems * sizeof(int));
    bool *done = calloc((size_t)c->map->nlocs, sizeof(bool));
    for (int i = 0; group && live && done && i < nitems; i++) {
        const ir_reading *r = chosen_reading(&items[i]);
        if (!r || !orders_a_unit(&r->order))
            continue;
        int prov = prov_of(c, r->order.loc);
        if (prov < 0 || done[prov])
            continue;
        done[prov] = true;
        int k = unit_items(c, items, nitems, prov, group);
        if (k < 2)
            continue;
        char unit[DJ_READ_TEXT_MAX];
        snprintf(unit, sizeof unit, "%s %s", dj_unit_letter(r->order.unit_type),
                 c->map->locs[r->order.loc].abbr);
        for (char *u = unit; *u; u++)
            *u = (char)(*u >= 'a' && *u <= 'z' ? *u - 'a' + 'A' : *u);
        drop_misnamed(items, group, k, unit);
        int m = possible_members(items, group, k, live);
        if (m >= 2)
            apply_multiple(c, items, live, m, unit);
    }
    free(group);
    free(live);
    free(done);
}
