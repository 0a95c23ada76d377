/* SPDX-License-Identifier: MIT */
/*
 * fuzz_notation.c — the strict order notation (dj_notation_parse): first
 * byte the power, second the phase type, the rest the order text.  An
 * order read names locations of the map, and the general reader alone
 * (dj_notation_parse_general) gives the same answer as the quick reader
 * in front of it.
 */
#include "fuzzlib.h"

#include "reader/notation.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const dj_map *map = fuzz_standard_map();
    int power = data[0] % map->npowers;
    dj_phase_type type = (dj_phase_type)(data[1] % 3);
    char *text = fuzz_string(data + 2, size - 2);
    dj_order o;
    char err[256];
    int r = dj_notation_parse(map, power, type, text, &o, err, sizeof err);
    if (r == 0 && (o.loc < -1 || o.loc >= map->nlocs))
        abort();
    dj_order g;
    char gerr[256];
    int rg = dj_notation_parse_general(map, power, type, text, &g, gerr,
                                       sizeof gerr);
    if (rg != r || (r == 0 ? !dj_order_equal(&o, &g) : strcmp(err, gerr) != 0))
        abort(); /* the quick reader differs from the general one */
    free(text);
    return 0;
}
