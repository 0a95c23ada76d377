/* SPDX-License-Identifier: MIT */
/*
 * position.h — the state of a game between two phases.
 *
 * A position is a plain value (no pointers) so it can be copied, compared,
 * stored and restored freely: the game layer snapshots one per phase and
 * never updates a stored one in place.
 */
#ifndef DJ_ENGINE_POSITION_H
#define DJ_ENGINE_POSITION_H

#include "map.h"

#define DJ_MAX_RETREATS DJ_MAX_ADJ

typedef enum { DJ_SPRING = 0, DJ_FALL = 1, DJ_WINTER = 2 } dj_season;
typedef enum { DJ_MOVEMENT = 0, DJ_RETREAT = 1, DJ_ADJUSTMENT = 2 } dj_phase_type;

typedef struct dj_phase {
    dj_season season;
    int year;
    dj_phase_type type;
} dj_phase;

typedef struct dj_unit {
    int16_t power;
    int16_t loc;        /* a location, coast included for fleets */
    dj_unit_type type;
} dj_unit;

typedef struct dj_dislodged {
    dj_unit unit;
    int16_t attacker_from;  /* province the dislodging unit came from */
    bool by_convoy;         /* the dislodging army came by convoy (4.A.5) */
    int nretreats;
    int16_t retreats[DJ_MAX_RETREATS];  /* legal retreat locations */
} dj_dislodged;

typedef struct dj_position {
    dj_phase phase;
    int nunits;
    dj_unit units[DJ_MAX_UNITS];
    int ndislodged;
    dj_dislodged dislodged[DJ_MAX_UNITS];
    int16_t owner[DJ_MAX_LOCS];  /* per base location: owning power or -1 */
    dj_power_set civil_disorder; /* bit p: power p is in civil disorder (4.D.9) */
} dj_position;

/* The map's opening position: its start year, Spring Movement. */
void dj_position_initial(const dj_map *map, dj_position *pos);

/* An empty board in the given phase with the map's initial ownership. */
void dj_position_empty(const dj_map *map, dj_phase phase, dj_position *pos);

/* Index into pos->units of the unit in province `prov`, or -1. */
int dj_position_unit_at(const dj_map *map, const dj_position *pos, int prov);

/* Index into pos->dislodged of the dislodged unit of province `prov`, or -1. */
int dj_position_dislodged_at(const dj_map *map, const dj_position *pos, int prov);

/* Centres owned by a power, and its units on the board. */
int dj_position_centres(const dj_map *map, const dj_position *pos, int power);
int dj_position_units(const dj_position *pos, int power);

/*
 * Fill in the legal retreats of every dislodged unit: adjacent locations the
 * unit could move to, except occupied provinces, provinces in `contested`
 * (a standoff left them empty), and the attacker's province unless the
 * attacker came by convoy and `convoy_attacker_retreat` allows it (4.A.5 b).
 */
void dj_position_compute_retreats(const dj_map *map, dj_position *pos,
                                  const bool *contested,
                                  bool convoy_attacker_retreat);

/* "Spring 1901 Movement" / "S1901M". */
const char *dj_season_name(dj_season s);
const char *dj_phase_type_name(dj_phase_type t);
void dj_phase_format(dj_phase ph, char *buf, size_t len);       /* "Spring 1901 Movement" */
void dj_phase_format_short(dj_phase ph, char *buf, size_t len); /* "S1901M" */

#endif
