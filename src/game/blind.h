/* SPDX-License-Identifier: MIT */
/*
 * blind.h — blind (fog-of-war) games, `blind = yes`: what one power sees
 * of a position and of a phase's results.  The rule (dipjudge(7), "BLIND
 * GAMES"; DPjudge's BLIND is the model) is decided here and only here:
 * every output that shows a blind game to somebody (the results mail and
 * its picture, the web pages, board.svg, the JSON) first asks for that
 * reader's view and then renders it as it renders any game.
 *
 * A power's *sight* is every province where it has a unit (dislodged
 * ones included) or owns a supply centre, and every province adjacent to
 * one of those (for an army or a fleet, any coast).  In a view:
 *   - a unit is kept when it is the power's own or stands in its sight;
 *   - a centre's owner is kept when the centre is in its sight (or the
 *     power owns it), else it reads DJ_BLIND_UNSEEN (neither owned nor
 *     unowned: reports and pictures leave it out / draw it neutral);
 *   - of a phase's results, an order (with its result) is kept when it is
 *     the power's own or a province it names (the unit's, the supported or
 *     convoyed unit's, the destination) is in the power's sight before the
 *     phase or after it; the units of the position before are those of
 *     the view before plus every unit a kept order is given to; the
 *     position after is the view of it.
 * The viewer DJ_BLIND_ALL (the master; everyone once the game is over;
 * games that are not blind) sees everything, DJ_BLIND_NONE (observers,
 * the public, a player without a power) nothing: no units, no centres.
 */
#ifndef DJ_GAME_BLIND_H
#define DJ_GAME_BLIND_H

#include <stdbool.h>

#include "engine/adjudicate.h"
#include "engine/map.h"
#include "engine/order.h"
#include "engine/position.h"

#define DJ_BLIND_ALL (-1)    /* a viewer who sees everything */
#define DJ_BLIND_NONE (-2)   /* a viewer who sees nothing */
#define DJ_BLIND_UNSEEN (-2) /* owner[] of a centre the viewer cannot see */

/*
 * The provinces (base locations) `viewer` sees in `pos`: seen[prov] set
 * for each, every other entry of seen[0..nlocs) cleared.  DJ_BLIND_ALL
 * sees every province, DJ_BLIND_NONE none.
 */
void dj_blind_sight(const dj_map *map, const dj_position *pos, int viewer,
                    bool *seen);

/* What `viewer` sees of `pos`, into *out (out may be pos). */
void dj_blind_position(const dj_map *map, const dj_position *pos, int viewer,
                       dj_position *out);

/* What a viewer sees of a phase's results. */
typedef struct dj_blind_view {
    dj_position before;             /* the position the phase was played in */
    dj_order orders[DJ_MAX_ORDERS]; /* the orders shown, in their order */
    int norders;
    dj_result res;                  /* parallel to orders; next filtered */
} dj_blind_view;

/*
 * What `viewer` sees of the phase of `before` played with `orders` into
 * `res`, into *out (large: allocate it).  Unit indices in the results are
 * renumbered to out->before.  DJ_BLIND_ALL copies everything.
 */
void dj_blind_results(const dj_map *map, const dj_position *before,
                      const dj_order *orders, int norders,
                      const dj_result *res, int viewer, dj_blind_view *out);

/* Is a unit of this power at location loc seen by viewer in `seen`? */
bool dj_blind_sees(const dj_map *map, const bool *seen, int viewer,
                   int power, int loc);

/*
 * The reads that show a game to somebody (LIST and HISTORY by mail, the
 * web's pages, pictures and JSON: dj_game_show_public, dj_game_history,
 * dj_game_summary, dj_game_centre_history, dj_game_export_public,
 * dj_game_picture) show a blind game from now on as this participant sees
 * it (id NULL: an anonymous reader, who sees nothing); dj_game_read_all
 * goes back to everything, the session's default (judgectl, the master).
 */
struct dj_judge;
struct dj_signon;
void dj_game_read_as(struct dj_judge *j, const struct dj_signon *id);
void dj_game_read_all(struct dj_judge *j);

#endif
