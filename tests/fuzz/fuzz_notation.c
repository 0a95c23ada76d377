/*
 * fuzz_notation.c — the strict order notation (dj_notation_parse): first
 * byte the power, second the phase type, the rest the order text.  An
 * order read names locations of the map.
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
    if (dj_notation_parse(map, power, type, text, &o, err, sizeof err) == 0) {
        if (o.loc < -1 || o.loc >= map->nlocs)
            abort();
    }
    free(text);
    return 0;
}
