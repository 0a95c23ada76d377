/* SPDX-License-Identifier: MIT */
/*
 * test_haplomacy.c — the Haplomacy engine never crashes, never loops and
 * always leaves a board that makes sense, whatever it is given.
 *
 * Its results are not compared with the other engines' (it is known to
 * differ on 35 DATC cases: doc/engine.md), only checked for sense over
 * random hard phases (bench/hard.c, the generators of the differential
 * harness) under random rule choices: every unit ends up exactly once, on
 * the board or dislodged; no two units share a province; a dislodged unit
 * was attacked, and retreats only to empty, uncontested provinces it can
 * reach; the same phase gives the same result twice.  HAPLOMACY_PHASES
 * sets how many phases (default 10,000); `make check` runs the default
 * under the sanitizers and valgrind too.
 */
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "engine/adjudicate.h"
#include "engine/map.h"
#include "hard.h"
#include "testlib.h"

static const dj_map *map;

static void check_phase(const hard_phase *in, const dj_rules *rules,
                        dj_result *a, dj_result *b)
{
    int rc = dj_adjudicate_with(DJ_ENGINE_HAPLOMACY, map, &in->pos,
                                in->orders, in->norders, rules, a);
    CHECK(rc == 0);
    if (rc != 0)
        return;
    const dj_position *n = &a->next;
    /* Units with nowhere to go are destroyed at once (the dispatcher). */
    int destroyed = 0;
    for (int k = 0; k < a->nauto; k++)
        destroyed += a->autos[k].order.kind == DJ_ORDER_DISBAND;
    CHECK(n->nunits + n->ndislodged + destroyed == in->pos.nunits);
    bool taken[DJ_MAX_LOCS] = {false};
    bool twice = false;
    for (int i = 0; i < n->nunits; i++) {
        int p = dj_province(map, n->units[i].loc);
        twice |= taken[p];
        taken[p] = true;
    }
    CHECK(!twice);
    for (int i = 0; i < n->ndislodged; i++) {
        const dj_dislodged *d = &n->dislodged[i];
        CHECK(d->attacker_from >= 0);
        for (int k = 0; k < d->nretreats; k++) {
            int p = dj_province(map, d->retreats[k]);
            CHECK(!taken[p] && !a->contested[p]);
            CHECK(dj_map_adjacent(map, d->unit.loc, d->retreats[k],
                                  d->unit.type));
        }
    }
    CHECK(dj_adjudicate_with(DJ_ENGINE_HAPLOMACY, map, &in->pos, in->orders,
                             in->norders, rules, b) == 0);
    CHECK(dj_result_diff(map, a, b, NULL, 0) == 0);
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
    const char *env = getenv("HAPLOMACY_PHASES");
    long phases = env ? atol(env) : 10000;
    corpus_gen *gen = corpus_xcalloc(1, sizeof *gen);
    corpus_init(gen, m, 0x4a50u);
    corpus_phase *cp = corpus_xcalloc(2, sizeof *cp);
    hard_phase *in = corpus_xcalloc(1, sizeof *in);
    dj_result *a = corpus_xcalloc(2, sizeof *a);
    hard_gen hg = {m, &gen->r, -1, -1};
    for (long i = 0; i < phases; i++) {
        corpus_generate(gen, &cp[0]);
        hard_load(&hg, &cp[0], in);
        switch (i % 8) {
        case 0: corpus_generate(gen, &cp[1]); hard_merge(&hg, in, &cp[1]); break;
        case 1: hard_chaos(&hg, in); break;
        case 2: hard_sea_battle(&hg, &cp[0], in); break;
        case 3: hard_plant_paradox(&hg, in); break;
        case 4: hard_circle(&hg, in); break;
        case 5: hard_head_to_head(&hg, in); break;
        case 6: hard_own_target(&hg, in); break;
        default: hard_coasts(&hg, in); hard_noise(&hg, in); break;
        }
        dj_rules rules;
        dj_rules_default(&rules);
        if (i % 4 == 0) {
            const dj_rule_info *t = dj_rule_table();
            for (int r = 0; r < DJ_RULE_COUNT; r++)
                rules.choice[r] = t[r].choices[corpus_rng_below(
                    &gen->r, (int)strlen(t[r].choices))];
        }
        check_phase(in, &rules, &a[0], &a[1]);
    }
    free(a);
    free(in);
    free(cp);
    corpus_free(gen);
    free(gen);
    dj_map_free(m);
    return test_summary();
}
