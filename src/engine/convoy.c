/* SPDX-License-Identifier: MIT */
/*
 * convoy.c — the paradox rule that decides convoys (disruption itself is
 * convoy_routes.c's mv_convoy_broken).
 *
 * Paradoxes.  DPjudge decides each convoy in steps 4 and 5, before the
 * battles that may dislodge its fleets, by predicting those battles.  That
 * prediction can be wrong (6.F.17, 6.F.18) and cannot see a convoy that has
 * two consistent outcomes (6.F.14, 6.F.22, 6.F.23) or none (6.F.16, 6.F.24).
 * So mv_resolve_with_paradox_rule() adds one pass: for the convoys whose
 * fleets are attacked at all (usually none), it runs the marked passes under
 * each combination of convoy outcomes, keeps those whose outcome agrees with
 * the dislodgements they produce, and applies the paradox rule of 4.A.2 when
 * there is not exactly one such combination.  The passes themselves are
 * untouched: the search only fixes what steps 4 and 5 conclude.
 */
#include "movement.h"

#include <string.h>

/* ---- the paradox search ------------------------------------------------- */

typedef mv_search px_search;
#define MAX_DOUBTFUL MV_MAX_DOUBTFUL

/* Is any fleet that could carry army a under attack by some move? */
static bool convoy_in_doubt(const mv_ctx *c, int a)
{
    for (int k = 0; k < c->board.nsea; k++) {
        int f = c->board.sea[k];
        if (!mv_sea_carrier(c, f, a, c->u[a].dest_prov, true, -1))
            continue;
        for (int m = 0; m < c->nunits; m++)
            if (c->u[m].kind == MV_MOVE && c->u[m].dest_prov == c->u[f].prov &&
                c->u[m].mark != MK_NO_CONVOY)
                return true;
    }
    return false;
}

/* Did the convoy really work, given who was dislodged? */
static bool convoy_survived(const mv_ctx *c, int a)
{
    bool broken[DJ_MAX_UNITS];
    for (int f = 0; f < c->nunits; f++)
        broken[f] = c->u[f].dislodged;
    return !mv_convoy_broken(c, a, broken);
}

/* Run the passes with the doubtful convoys forced by the bits of `mask`. */
static void run_forced(mv_ctx *c, const px_search *s, unsigned mask,
                       unsigned fail_mask)
{
    memcpy(c->u, s->saved, sizeof(mv_unit) * (size_t)c->nunits);
    for (int i = 0; i < s->n; i++) {
        mv_unit *a = &c->u[s->army[i]];
        a->force = (fail_mask >> i & 1u) ? CV_FAIL
                   : (mask >> i & 1u)    ? CV_SUCCEED
                                         : CV_FAIL;
    }
    mv_run_passes(c);
}

/* Does every doubtful convoy outside `ignore` agree with the battle? */
static bool consistent(const mv_ctx *c, const px_search *s, unsigned ignore)
{
    for (int i = 0; i < s->n; i++) {
        if (ignore >> i & 1u)
            continue;
        bool succeeded = c->u[s->army[i]].force == CV_SUCCEED;
        if (succeeded != convoy_survived(c, s->army[i]))
            return false;
    }
    return true;
}

/*
 * With the armies of `fail_mask` forced to fail, how many combinations of
 * the other doubtful convoys are consistent?  The last one found is stored.
 */
static int count_consistent(mv_ctx *c, const px_search *s, unsigned fail_mask,
                            unsigned *found, unsigned *differ)
{
    unsigned full = (1u << s->n) - 1u;
    int count = 0;
    *differ = 0;
    for (unsigned mask = 0; mask <= full; mask++) {
        if (mask & fail_mask)
            continue;
        run_forced(c, s, mask, fail_mask);
        if (!consistent(c, s, fail_mask))
            continue;
        if (count > 0)
            *differ |= mask ^ *found;
        *found = mask;
        count++;
    }
    return count;
}

static int popcount(unsigned x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/*
 * The doubtful armies whose convoy survives, or fails, whatever the other
 * convoys do: they are outside any paradox (their fleets' fate depends on
 * no convoy), however much their outcome matters to it.
 */
static unsigned independent_convoys(mv_ctx *c, const px_search *s)
{
    unsigned full = (1u << s->n) - 1u, seen_ok = 0, seen_broken = 0;
    for (unsigned mask = 0; mask <= full; mask++) {
        run_forced(c, s, mask, 0);
        for (int i = 0; i < s->n; i++) {
            if (convoy_survived(c, s->army[i]))
                seen_ok |= 1u << i;
            else
                seen_broken |= 1u << i;
        }
    }
    return full & ~(seen_ok & seen_broken);
}

/*
 * The armies at the core of a paradox without resolution: the union of the
 * smallest sets whose failure leaves the other convoys one consistent
 * outcome, leaving out the independent convoys (failing one of those may
 * also break the cycle, by changing what its army cuts, but it is not in
 * the paradox: crosscheck case 106809).
 */
static unsigned paradox_core(mv_ctx *c, const px_search *s)
{
    unsigned full = (1u << s->n) - 1u, core = 0;
    unsigned candidates = full & ~independent_convoys(c, s);
    for (int size = 1; size < s->n && !core; size++) {
        for (unsigned set = 1; set <= full; set++) {
            unsigned found, differ;
            if (popcount(set) == size && (set & ~candidates) == 0 &&
count_consistent(c, s, set, &found, &differ) == 1)
                core |= set;
        }
    }
    return core ? core : candidates ? candidates : full;
}

/* 'All Hold' (4.A.2 e): the moves against the core's fleets fail too. */
static void fail_attacks_on_core(mv_ctx *c, px_search *s, unsigned core)
{
    for (int i = 0; i < s->n; i++) {
        if (!(core >> i & 1u))
            continue;
        int a = s->army[i];
        for (int f = 0; f < c->nunits; f++) {
            if (!mv_carrier(c, f, a, s->saved[a].dest_prov, true, -1))
                continue;
            for (int m = 0; m < c->nunits; m++)
                if (s->saved[m].kind == MV_MOVE &&
                    s->saved[m].dest_prov == s->saved[f].prov)
                    s->saved[m].forced_bounce = true;
        }
    }
}

/* Tell the report which armies the paradox rule stopped. */
static void mark_core(mv_ctx *c, const px_search *s, unsigned core)
{
    for (int i = 0; i < s->n; i++)
        if (core >> i & 1u)
            c->u[s->army[i]].in_paradox = true;
}

/* Final run: the core fails; under All Hold the attacks on `hold` too. */
static void core_fail_with_attacks(mv_ctx *c, px_search *s, unsigned keep,
                                   unsigned core, unsigned hold)
{
    if (hold)
        fail_attacks_on_core(c, s, hold);
    run_forced(c, s, keep, core);
    mark_core(c, s, core);
}

/*
 * The provinces army a's paradox plays out in: where it starts and goes,
 * where its fleets are, and where the unit at its destination gives
 * support.  Two paradoxes that share none are independent.
 */
static void paradox_zone(const mv_ctx *c, const px_search *s, int a,
                         bool *zone)
{
    const mv_unit *u = &s->saved[a];
    zone[u->prov] = zone[u->dest_prov] = true;
    for (int f = 0; f < c->nunits; f++)
        if (mv_carrier(c, f, a, u->dest_prov, true, -1))
            zone[s->saved[f].prov] = true;
    int d = c->board.at[u->dest_prov];
    if (d >= 0 && s->saved[d].kind == MV_SUPPORT) {
        int t = s->saved[d].target_dest >= 0 ? s->saved[d].target_dest
                                             : s->saved[s->saved[d].target].prov;
        zone[t] = true;
    }
}

/* The armies of `core` linked, through shared zones, to the first in `left`. */
static unsigned paradox_group(const mv_ctx *c, const px_search *s,
                              unsigned core, unsigned left)
{
    bool zone[MV_MAX_DOUBTFUL][DJ_MAX_LOCS];
    for (int i = 0; i < s->n; i++) {
        memset(zone[i], 0, sizeof(bool) * (size_t)c->map->nlocs);
        if (core >> i & 1u)
            paradox_zone(c, s, s->army[i], zone[i]);
    }
    unsigned group = left & -left, grew = 1;
    while (grew) {
        grew = 0;
        for (int i = 0; i < s->n; i++) {
            if (!(core >> i & 1u) || (group >> i & 1u))
                continue;
            for (int j = 0; j < s->n && !(grew >> i & 1u); j++) {
                if (!(group >> j & 1u))
                    continue;
                for (int p = 0; p < c->map->nlocs; p++)
                    if (zone[i][p] && zone[j][p]) {
                        grew |= 1u << i;
                        break;
                    }
            }
        }
        group |= grew;
    }
    return group;
}

/* The assignment of convoy outcomes the paradox rule settles on. */
static void settle_paradox(mv_ctx *c, px_search *s, unsigned found,
                           unsigned differ, int count)
{
    char rule = dj_rule(c->rules, DJ_RULE_CONVOY_PARADOX);
    unsigned core = differ, keep = found & ~differ;
    if (count == 0) {
        /* The convoys outside the core keep the outcome that is consistent
         * once the core fails; any still undecided join the core. */
        unsigned rest_found = 0, rest_differ = 0;
        core = paradox_core(c, s);
        int rest = count_consistent(c, s, core, &rest_found, &rest_differ);
        core |= rest_differ;
        keep = rest > 0 ? rest_found & ~core : 0;
    }

    if (rule == 'f') {
        /* DPTG: a paradox whose convoys all failing is consistent is settled
         * that way; any other falls back to All Hold.  Independent paradoxes
         * are judged one by one. */
        unsigned full = (1u << s->n) - 1u, hold = 0;
        run_forced(c, s, keep, core);
        for (unsigned left = core; left;) {
            unsigned group = paradox_group(c, s, core, left);
            if (!consistent(c, s, full & ~group))
                hold |= group;
            left &= ~group;
        }
        core_fail_with_attacks(c, s, keep, core, hold);
        return;
    }
    core_fail_with_attacks(c, s, keep, core, rule == 'e' ? core : 0);
}

void mv_resolve_with_paradox_rule(mv_ctx *c)
{
    px_search *s = &c->search;

    s->n = 0;
    for (int i = 0; i < c->nconvoyed; i++) {
        int a = c->convoyed[i];
        if (c->u[a].mark != MK_NO_CONVOY && convoy_in_doubt(c, a)) {
            if (s->n == MAX_DOUBTFUL) {
                s->n = 0; /* too many to search: DPjudge's steps decide */
                break;
            }
            s->army[s->n++] = (int16_t)a;
        }
    }
    if (s->n == 0) {
        mv_run_passes(c);
        return;
    }
    memcpy(s->saved, c->u, sizeof(mv_unit) * (size_t)c->nunits);
    unsigned found = 0, differ = 0;
    int count = count_consistent(c, s, 0, &found, &differ);
    if (count == 1) {
        run_forced(c, s, found, 0);
        return;
    }
    settle_paradox(c, s, found, differ, count);
}
