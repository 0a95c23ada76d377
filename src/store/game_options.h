/* SPDX-License-Identifier: MIT */
/*
 * game_options.h — the stored state of the game options of issue 37
 * (schema version 18): EXTEND votes, a phase's extension and its
 * grace-ended notice (each at most once per phase), and the missed phases
 * excused to each power.  The settings themselves are columns of the games
 * table (settings_table.h); this is only what playing them leaves behind.
 */
#ifndef DJ_STORE_GAME_OPTIONS_H
#define DJ_STORE_GAME_OPTIONS_H

#include <stdint.h>

#include "store/store.h"

/* Power `power` votes EXTEND in the phase (kept beside READY and WAIT). */
int dj_store_extend_vote(dj_store *s, int64_t phase_id, int power);
/* The powers that voted EXTEND in the phase, a bit each. */
int dj_store_extend_votes(dj_store *s, int64_t phase_id, uint64_t *mask);

/* Mark the phase extended at `at`: 0, or DJ_STORE_NOTFOUND when it was
 * already (an extension is granted once per phase). */
int dj_store_phase_claim_extension(dj_store *s, int64_t phase_id, int64_t at);
/* Was the phase extended?  *extended 0 or 1. */
int dj_store_phase_extended(dj_store *s, int64_t phase_id, int *extended);
/* Mark the grace-ended notice of the phase sent: 0, or DJ_STORE_NOTFOUND
 * when it was already. */
int dj_store_phase_claim_grace_told(dj_store *s, int64_t phase_id,
                                    int64_t at);

/* The missed phases excused to `power` in the game, over all its players. */
int dj_store_power_excused(dj_store *s, int64_t game_id, int power, int *n);
/* One more excused missed phase for the participant playing a power. */
int dj_store_participant_excuse(dj_store *s, int64_t participant_id);

#endif
