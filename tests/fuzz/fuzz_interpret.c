/* SPDX-License-Identifier: MIT */
/*
 * fuzz_interpret.c — libFuzzer target for the best-effort order reader.
 *
 * The input is arbitrary bytes.  The first three, when present, choose the
 * power, the phase (movement, retreat, adjustment) and the rule options
 * (0: the defaults, else a letter for every option drawn from that seed);
 * everything after is the text of the orders, cut into lines at '\n' and
 * NUL.  The orders are read against the standard map and its
 * opening position, and every reading is formatted, so the whole path a
 * mail takes through the reader is exercised; each line is also asked
 * whether it is prose alone (as a master's are).  The reader must never
 * crash, leak or read out of bounds, whatever it is given.
 *
 * The map is loaded once, on the first input, and kept: libFuzzer hands
 * the target no context, so a function-level static is the one way to
 * avoid reparsing the map for every input.  It is the only state kept.
 * The map file is DJ_FUZZ_MAP (set by tests/fuzz/fuzz.sh at build time),
 * or $DJ_FUZZ_MAP at run time.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/map.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "reader/interpret.h"

#ifndef DJ_FUZZ_MAP
#define DJ_FUZZ_MAP "maps/standard.map"
#endif

#define MAX_LINES 256
#define MAX_READINGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const dj_map *fuzz_map(void)
{
    static dj_map *map;
    if (!map) {
        const char *path = getenv("DJ_FUZZ_MAP");
        char err[512];
        map = dj_map_load(path && *path ? path : DJ_FUZZ_MAP, err, sizeof err);
        if (!map) {
            fprintf(stderr, "fuzz_interpret: %s\n", err);
            abort();
        }
    }
    return map;
}

/* Rule letters from one input byte: 0 keeps the defaults, any other value
 * seeds a small generator that picks a letter for every option. */
static void pick_rules(uint8_t seed, dj_rules *rules)
{
    dj_rules_default(rules);
    if (seed == 0)
        return;
    const dj_rule_info *table = dj_rule_table();
    uint32_t x = seed;
    for (int i = 0; i < DJ_RULE_COUNT; i++) {
        size_t n = strlen(table[i].choices);
        x = x * 1103515245u + 12345u;
        if (n > 0)
            rules->choice[i] = table[i].choices[(x >> 16) % n];
    }
}

/*
 * Make the phase worth reading in: in a retreat phase the power's first
 * unit is dislodged with every neighbour open; in an adjustment phase the
 * power's units leave the board when `builds` is set, so it has builds.
 */
static void shape_position(const dj_map *map, dj_position *pos, int power,
                           bool builds)
{
    if (pos->phase.type == DJ_RETREAT) {
        for (int i = 0; i < pos->nunits; i++) {
            if (pos->units[i].power != power)
                continue;
            dj_dislodged *d = &pos->dislodged[pos->ndislodged++];
            memset(d, 0, sizeof *d);
            d->unit = pos->units[i];
            d->attacker_from = -1;
            const dj_location *l = &map->locs[d->unit.loc];
            for (int a = 0; a < l->nadj && d->nretreats < DJ_MAX_RETREATS; a++)
                d->retreats[d->nretreats++] = l->adj[a].to;
            pos->units[i] = pos->units[--pos->nunits];
            break;
        }
    } else if (pos->phase.type == DJ_ADJUSTMENT && builds) {
        int kept = 0;
        for (int i = 0; i < pos->nunits; i++)
            if (pos->units[i].power != power)
                pos->units[kept++] = pos->units[i];
        pos->nunits = kept;
    }
}

/* Cut the text into NUL-terminated lines in place; returns how many. */
static int cut_lines(char *text, size_t len, const char **lines)
{
    int n = 0;
    lines[n++] = text;
    for (size_t i = 0; i < len && n < MAX_LINES; i++)
        if (text[i] == '\n' || text[i] == '\0') {
            text[i] = '\0';
            lines[n++] = text + i + 1;
        }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const dj_map *map = fuzz_map();
    static const dj_phase_type PHASES[] = {DJ_MOVEMENT, DJ_RETREAT,
                                           DJ_ADJUSTMENT};
    int power = size > 0 ? data[0] % map->npowers : 0;
    dj_phase_type phase = size > 1 ? PHASES[data[1] % 3] : DJ_MOVEMENT;
    dj_rules rules;
    pick_rules(size > 2 ? data[2] : 0, &rules);
    size_t skip = size > 3 ? 3 : size;

    dj_position *pos = malloc(sizeof *pos);
    char *text = malloc(size - skip + 1);
    const char *lines[MAX_LINES];
    dj_reading *out = malloc(MAX_READINGS * sizeof *out);
    if (!pos || !text || !out)
        abort();
    dj_position_initial(map, pos);
    pos->phase.type = phase;
    if (phase == DJ_ADJUSTMENT)
        pos->phase.season = DJ_WINTER;
    shape_position(map, pos, power, size > 0 && (data[0] & 0x80));
    memcpy(text, data + skip, size - skip);
    text[size - skip] = '\0';
    int nlines = cut_lines(text, size - skip, lines);

    int n = dj_interpret_lines(map, pos, power, &rules, lines, nlines, out,
                               MAX_READINGS);
    if (n < 0)
        abort(); /* the arguments are valid: -1 is a bug */
    char buf[4096];
    for (int i = 0; i < n && i < MAX_READINGS; i++) {
        dj_reading_format(&out[i], buf, sizeof buf);
        if (out[i].line < 0 || out[i].line >= nlines)
            abort();
        if (out[i].kind == DJ_READ_OK && !out[i].text[0])
            abort(); /* an order understood has a text */
        /* 4.D.3 c's hold (disband) in place of a unit's orders: only on a
         * refused order, for a unit of this power, with its text */
        if (out[i].stands_instead &&
            (out[i].kind != DJ_READ_ERROR || !out[i].text[0] ||
             out[i].order.power != power || out[i].order.loc < 0 ||
             (out[i].order.kind != DJ_ORDER_HOLD &&
              out[i].order.kind != DJ_ORDER_DISBAND)))
            abort();
    }
    /* each line alone, as a master's line is asked whether it is prose */
    for (int i = 0; i < nlines; i++)
        (void)dj_interpret_line_is_prose(map, lines[i]);
    free(out);
    free(text);
    free(pos);
    return 0;
}
