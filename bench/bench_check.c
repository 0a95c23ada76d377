/* SPDX-License-Identifier: MIT */
/*
 * bench_check.c — cases for the throughput of `judgectl check`.
 *
 *   bench/bench_check MAP CASEFILE [N]
 *
 * writes N (default 1,000) random movement phases of the shared corpus
 * (bench/corpus.c) as cases into CASEFILE, each expecting what the DPjudge
 * engine gives, with src/casefile/casewrite.c — the format judgectl check
 * reads.  `make bench` writes 100,000 and times whole `judgectl check`
 * processes on them (bench_whole.c): start-up is spread over them, so the
 * figure is what a user of check feels.
 */
#include <stdio.h>
#include <stdlib.h>

#include "casefile/casewrite.h"
#include "corpus.h"
#include "engine/map.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_check MAP CASEFILE [N]\n");
        return 2;
    }
    long n = argc > 3 ? atol(argv[3]) : 1000;
    char err[512];
    dj_map *map = dj_map_load(argv[1], err, sizeof err);
    if (!map) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    FILE *f = fopen(argv[2], "w");
    if (!f) {
        perror(argv[2]);
        return 1;
    }
    corpus_gen *g = corpus_xcalloc(1, sizeof *g);
    corpus_init(g, map, 0x5eed5eedu);
    corpus_phase *cp = corpus_xcalloc(1, sizeof *cp);
    dj_position *pos = corpus_xcalloc(1, sizeof *pos);
    dj_result *res = corpus_xcalloc(1, sizeof *res);
    dj_rules rules;
    dj_rules_default(&rules);
    dj_case_write_variant(f, map);
    for (long i = 0; i < n; i++) {
        corpus_generate(g, cp);
        dj_position_empty(map, cp->phase, pos);
        pos->nunits = cp->nunits;
        for (int k = 0; k < cp->nunits; k++)
            pos->units[k] = cp->units[k];
        if (dj_adjudicate(map, pos, cp->orders, cp->nunits, &rules, res) < 0)
            continue;
        char name[32];
        snprintf(name, sizeof name, "bench %ld", i + 1);
        dj_case_write(f, map, name, NULL, pos, cp->orders, cp->nunits,
                      &rules, res);
    }
    fclose(f);
    free(res);
    free(pos);
    free(cp);
    corpus_free(g);
    free(g);
    dj_map_free(map);
    return 0;
}
