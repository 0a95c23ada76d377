/* SPDX-License-Identifier: MIT */
/*
 * snapshot.h — a position as text, for the phases table.
 *
 * Design.  The snapshot is plain text a person can read in the database
 * and diff between phases, written with the map's own names so that it
 * does not depend on the order of anything in memory:
 *
 *   phase S1901M
 *   disorder Italy
 *   unit England F lon
 *   unit Russia F stp/sc
 *   dislodged Turkey A bul from ser convoy 0 retreats rum sev
 *   owner Austria bud
 *
 * Lines come in that order (units and dislodged units in the position's
 * own order, which the report's unit numbering relies on; owners by
 * location).  A power name with spaces is written with '_' for each one.
 * dj_snapshot_read(dj_snapshot_write(p)) gives back p exactly.
 */
#ifndef DJ_GAME_SNAPSHOT_H
#define DJ_GAME_SNAPSHOT_H

#include <stddef.h>

#include "engine/map.h"
#include "engine/order.h"
#include "engine/position.h"
#include "util/buf.h"

/* Append the snapshot of `pos` to out. */
void dj_snapshot_write(const dj_map *map, const dj_position *pos,
                       dj_buf *out);

/* Parse a snapshot.  Returns 0, or -1 with "line N: message" in err. */
int dj_snapshot_read(const dj_map *map, const char *text, dj_position *pos,
                     char *err, size_t errlen);

/* "S1901M" -> phase; returns 0 or -1. */
int dj_phase_parse_short(const char *text, dj_phase *ph);

/* Power by name as written in a snapshot ('_' for spaces), or -1. */
int dj_snapshot_power(const dj_map *map, const char *word);

/* The power's name as a snapshot writes it. */
void dj_snapshot_power_name(const dj_map *map, int power, char *buf,
                            size_t len);

#endif
