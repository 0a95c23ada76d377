/* SPDX-License-Identifier: MIT */
/*
 * position.c — building, querying and describing positions.
 *
 * A position is a plain value, so everything here either fills one in from
 * the map or reads it.  Occupancy is reckoned per province: a unit on
 * "spa/nc" occupies Spain, and every query takes any location of the
 * province it asks about.  Out-of-range locations read as empty rather than
 * crash, since positions can come from stored files.
 */
#include "position.h"

#include <stdio.h>
#include <string.h>

static bool valid_loc(const dj_map *map, int loc)
{
    return map && loc >= 0 && loc < map->nlocs;
}

/* Province of a location, or -1 for an index outside the map. */
static int province_of(const dj_map *map, int loc)
{
    return valid_loc(map, loc) ? map->locs[loc].province : -1;
}

/* Only the counts and the owners are set: entries past nunits and
 * ndislodged are never read, and clearing the whole structure (some 75 KB)
 * cost more than reading a whole DATC case. */
void dj_position_empty(const dj_map *map, dj_phase phase, dj_position *pos)
{
    pos->phase = phase;
    pos->nunits = 0;
    pos->ndislodged = 0;
    pos->civil_disorder = 0;
    size_t n = map->nlocs < DJ_MAX_LOCS ? (size_t)map->nlocs : DJ_MAX_LOCS;
    memcpy(pos->owner, map->initial_owner, n * sizeof pos->owner[0]);
    if (n < DJ_MAX_LOCS) /* the rest unowned: every byte 0xff is -1 */
        memset(pos->owner + n, 0xff, (DJ_MAX_LOCS - n) * sizeof pos->owner[0]);
}

void dj_position_initial(const dj_map *map, dj_position *pos)
{
    dj_phase first = {(dj_season)map->start_season, map->start_year,
                      (dj_phase_type)map->start_type};
    dj_position_empty(map, first, pos);
    pos->civil_disorder = map->dummies;
    if (map->mobilize) { /* nothing on the board, nothing owned */
        for (int l = 0; l < map->nlocs; l++)
            pos->owner[l] = -1;
        return;
    }
    for (int i = 0; i < map->nstart && pos->nunits < DJ_MAX_UNITS; i++) {
        const dj_start_unit *s = &map->start_units[i];
        pos->units[pos->nunits++] =
            (dj_unit){(int16_t)s->power, (int16_t)s->loc, s->type};
    }
}

int dj_position_unit_at(const dj_map *map, const dj_position *pos, int prov)
{
    int want = province_of(map, prov);
    if (want < 0)
        return -1;
    for (int i = 0; i < pos->nunits; i++)
        if (province_of(map, pos->units[i].loc) == want)
            return i;
    return -1;
}

int dj_position_dislodged_at(const dj_map *map, const dj_position *pos,
                             int prov)
{
    int want = province_of(map, prov);
    if (want < 0)
        return -1;
    for (int i = 0; i < pos->ndislodged; i++)
        if (province_of(map, pos->dislodged[i].unit.loc) == want)
            return i;
    return -1;
}

int dj_position_centres(const dj_map *map, const dj_position *pos, int power)
{
    int n = 0;
    for (int i = 0; i < map->nlocs && i < DJ_MAX_LOCS; i++)
        if (map->is_sc[i] && pos->owner[i] == power)
            n++;
    return n;
}

int dj_position_units(const dj_position *pos, int power)
{
    int n = 0;
    for (int i = 0; i < pos->nunits; i++)
        if (pos->units[i].power == power)
            n++;
    return n;
}

/* May a dislodged unit retreat into this province? */
static bool retreat_open(const dj_map *map, const dj_position *pos,
                         const dj_dislodged *d, int prov, const bool *contested,
                         bool convoy_attacker_retreat)
{
    if (dj_position_unit_at(map, pos, prov) >= 0)
        return false;
    if (contested && contested[prov])
        return false;
    bool attacker_excused = d->by_convoy && convoy_attacker_retreat;
    return attacker_excused || province_of(map, d->attacker_from) != prov;
}

static void compute_one(const dj_map *map, dj_position *pos, dj_dislodged *d,
                        const bool *contested, bool convoy_attacker_retreat)
{
    d->nretreats = 0;
    int from = d->unit.loc;
    if (!valid_loc(map, from) ||
        (d->unit.type != DJ_ARMY && d->unit.type != DJ_FLEET))
        return;
    /* Army entries are kept on the base location and name bases. */
    if (d->unit.type == DJ_ARMY)
        from = map->locs[from].province;
    const dj_location *l = &map->locs[from];
    uint8_t bit = DJ_TYPE_BIT(d->unit.type);
    for (int i = 0; i < l->nadj && d->nretreats < DJ_MAX_RETREATS; i++) {
        int to = l->adj[i].to;
        if (!(l->adj[i].types & bit) || !valid_loc(map, to))
            continue;
        if (retreat_open(map, pos, d, map->locs[to].province, contested,
                         convoy_attacker_retreat))
            d->retreats[d->nretreats++] = (int16_t)to;
    }
}

void dj_position_compute_retreats(const dj_map *map, dj_position *pos,
                                  const bool *contested,
                                  bool convoy_attacker_retreat)
{
    for (int i = 0; i < pos->ndislodged && i < DJ_MAX_UNITS; i++)
        compute_one(map, pos, &pos->dislodged[i], contested,
                    convoy_attacker_retreat);
}

const char *dj_season_name(dj_season s)
{
    switch (s) {
    case DJ_SPRING:
        return "Spring";
    case DJ_FALL:
        return "Fall";
    case DJ_WINTER:
        return "Winter";
    }
    return "?";
}

const char *dj_phase_type_name(dj_phase_type t)
{
    switch (t) {
    case DJ_MOVEMENT:
        return "Movement";
    case DJ_RETREAT:
        return "Retreat";
    case DJ_ADJUSTMENT:
        return "Adjustment";
    }
    return "?";
}

const char *dj_map_season_name(const dj_map *map, int season)
{
    if (map && season >= 0 && season < 3 && map->season_names[season][0])
        return map->season_names[season];
    return dj_season_name((dj_season)season);
}

void dj_map_phase_format(const dj_map *map, int season, int year, int type,
                         char *buf, size_t len)
{
    if (buf && len)
        snprintf(buf, len, "%s %d %s", dj_map_season_name(map, season), year,
                 dj_phase_type_name((dj_phase_type)type));
}

void dj_phase_format(dj_phase ph, char *buf, size_t len)
{
    if (!buf || len == 0)
        return;
    snprintf(buf, len, "%s %d %s", dj_season_name(ph.season), ph.year,
             dj_phase_type_name(ph.type));
}

void dj_phase_format_short(dj_phase ph, char *buf, size_t len)
{
    if (!buf || len == 0)
        return;
    snprintf(buf, len, "%c%d%c", dj_season_name(ph.season)[0], ph.year,
             dj_phase_type_name(ph.type)[0]);
}
