/* SPDX-License-Identifier: MIT */
/*
 * casewrite.c — see casewrite.h.
 *
 * Everything is written in the notation the reader reads back: units as
 * "Power: A loc", orders in the engine's canonical text ("A PAR - BUR",
 * "F NTH C A LON - BEL"), rules by name.  The unit lists are the engine's
 * own, in its order; the reader compares them as sets.
 */
#include "casefile/casewrite.h"

#include <string.h>

void dj_case_write_variant(FILE *out, const dj_map *map)
{
    fprintf(out, "VARIANT_ALL %s\n", map->name);
}

static void put_unit(FILE *out, const dj_map *map, const dj_unit *u)
{
    fprintf(out, "%s: %s %s\n", map->powers[u->power].name,
            dj_unit_letter(u->type), map->locs[u->loc].abbr);
}

static void put_comment(FILE *out, const char *comment)
{
    while (comment && *comment) {
        size_t n = strcspn(comment, "\n");
        fprintf(out, "# %.*s\n", (int)n, comment);
        comment += n + (comment[n] == '\n');
    }
}

static void put_rules(FILE *out, const dj_rules *rules)
{
    dj_rules def;
    dj_rules_default(&def);
    const dj_rule_info *t = dj_rule_table();
    for (int i = 0; i < DJ_RULE_COUNT; i++)
        if (rules->choice[i] != def.choice[i])
            fprintf(out, "RULE %s=%c\n", t[i].name, rules->choice[i]);
}

static void put_owners(FILE *out, const dj_map *map, const dj_position *pos)
{
    fprintf(out, "PRESTATE_SUPPLYCENTER_OWNERS\n");
    for (int l = 0; l < map->nlocs; l++)
        if (map->is_sc[l] && pos->owner[l] >= 0 &&
            pos->owner[l] < map->npowers)
            fprintf(out, "%s: A %s\n", map->powers[pos->owner[l]].name,
                    map->locs[l].abbr);
}

void dj_case_write(FILE *out, const dj_map *map, const char *name,
                   const char *comment, const dj_position *pos,
                   const dj_order *orders, int norders, const dj_rules *rules,
                   const dj_result *res)
{
    fprintf(out, "\nCASE %s\n", name);
    put_comment(out, comment);
    if (rules)
        put_rules(out, rules);
    fprintf(out, "PRESTATE_SETPHASE %s %d, %s\n",
            dj_season_name(pos->phase.season), pos->phase.year,
            dj_phase_type_name(pos->phase.type));
    put_owners(out, map, pos);
    fprintf(out, "PRESTATE\n");
    for (int i = 0; i < pos->nunits; i++)
        put_unit(out, map, &pos->units[i]);
    if (pos->ndislodged > 0) {
        fprintf(out, "PRESTATE_DISLODGED\n");
        for (int i = 0; i < pos->ndislodged; i++)
            put_unit(out, map, &pos->dislodged[i].unit);
    }
    fprintf(out, "ORDERS\n");
    for (int i = 0; i < norders; i++) {
        char text[160];
        dj_order_format(map, &orders[i], text, sizeof text);
        fprintf(out, "%s: %s\n", map->powers[orders[i].power].name, text);
    }
    if (res) {
        fprintf(out, "POSTSTATE\n");
        for (int i = 0; i < res->next.nunits; i++)
            put_unit(out, map, &res->next.units[i]);
        if (res->next.ndislodged > 0) {
            fprintf(out, "POSTSTATE_DISLODGED\n");
            for (int i = 0; i < res->next.ndislodged; i++)
                put_unit(out, map, &res->next.dislodged[i].unit);
        }
    }
    fprintf(out, "END\n");
}
