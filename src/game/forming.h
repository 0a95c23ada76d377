/* SPDX-License-Identifier: MIT */
/*
 * forming.h — a game before it starts: created, joined, its settings set,
 * started (lifecycle.c, settings.c).
 * Part of the game room's door; the session they all take is game.h's.
 */
#ifndef DJ_GAME_FORMING_H
#define DJ_GAME_FORMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

/* ---- forming --------------------------------------------------------- */

/*
 * A new game, forming.  `settings` are "key=value" as for dj_game_set
 * (applied over the configuration's defaults); master may be NULL.
 */
int dj_game_create(dj_judge *j, const char *name, const char *map,
                   const char *master, const char *const *settings,
                   int nsettings, dj_buf *out);

typedef struct dj_join_request {
    const char *email;     /* required for players and masters */
    const char *name;      /* the person's name, may be NULL */
    const char *power;     /* a power's name, or NULL: assigned at start */
    const char *password;  /* stored hashed; may be NULL */
    const char *role;      /* "player" (default), "observer", "master" */
    const char *password_hash; /* already hashed (a confirmed mail request):
                                  used when password is NULL */
} dj_join_request;

/*
 * Add a participant.  Players join forming games; the game starts by
 * itself when every power has a player.  Observers and masters may join
 * at any time.
 */
int dj_game_join(dj_judge *j, const char *game, const dj_join_request *req,
                 dj_buf *out);

/*
 * Start a forming game: players without a power get one at random among
 * those left.  Without `force` every power needs a player; with it, the
 * powers nobody took are played by civil-disorder dummies.
 */
int dj_game_start(dj_judge *j, const char *game, bool force, dj_buf *out);

/*
 * Change settings, "key=value" each, all or none:
 *   map (forming only), zone, movement_delay, retreat_delay,
 *   adjustment_delay, grace, early_delay (durations "48h", "none"),
 *   time_of_day ("20:00", "none"), days ("-MTWTF-"), absence_limit
 *   (days), nmr (cd|wait), early (yes|no), press
 *   (none|white|grey|white+grey), assignment (choice|random|preference),
 *   rule (NAME=VALUE, a DATC option; NAME=default drops it; "none" drops
 *   all), deadline (of the current phase: "2027-01-09 20:00", "+2d").
 */
int dj_game_set(dj_judge *j, const char *game, const char *const *settings,
                int nsettings, dj_buf *out);
/*
 * SET PREFERENCE (assignment = preference, preference.c): a player
 * waiting for a power sends the powers in the order they prefer them
 * ("EFG", "England, France, *"; deal.h reads them), NONE for no list.
 * A new list replaces the old.  Refused outside a preference game, after
 * the start, and for observers, masters and players with a power.
 */
struct dj_signon;
int dj_game_set_preference(dj_judge *j, const struct dj_signon *id,
                           const char *text, dj_buf *out);
/* The signed-on player's own list, as SET PREFERENCE shows it (nothing
 * outside a forming preference game). */
int dj_game_preference_show(dj_judge *j, const struct dj_signon *id,
                            dj_buf *out);

/* Is key ("press", "map", "rule", "deadline") a game setting at all? */
bool dj_game_setting_known(const char *key);

#endif
