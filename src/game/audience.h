/* SPDX-License-Identifier: MIT */
/*
 * audience.h — who may see what of a game, one answer for the mail
 * commands and the web alike: listed or private, described to whom,
 * admitted with which password, whose identities shown (audience.c).
 * Part of the game room's door; the session they all take is game.h's.
 */
#ifndef DJ_GAME_AUDIENCE_H
#define DJ_GAME_AUDIENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "game/signon.h"

/* ---- who may see what (audience.c, press_archive.c) -------------------------
 * One answer for the mail commands and the web alike. */

/* In LIST by mail and the web's lists?  Neither an unlisted game (reached
 * by its name only) nor a private one. */
bool dj_game_listed(const dj_game_rec *g);

/* May the viewer (NULL, or whoever is signed on, to any game) be told of
 * the game (LIST GAME, SUMMARY, PRESS ARCHIVE)?  0 yes (or there is no
 * such game); -1 with "game 'X' does not exist" in j->err when it is
 * private and the viewer is not signed on to it. */
int dj_game_described_to(dj_judge *j, const char *game,
                         const dj_signon *viewer);

/* Private: JOIN and OBSERVE must give the game's join password. */
bool dj_game_is_private(const dj_game_rec *g);

/* In the web's lists?  As dj_game_listed: a private game's pages are its
 * participants' only (dj_game_overviews). */
bool dj_game_listed_on_web(const dj_game_rec *g);
bool dj_game_join_password_ok(const dj_game_rec *g, const char *given);

/* May one JOIN or OBSERVE the game with this join password (NULL: none)?
 * 0, or -1 with the reason (no such game; private and no or a wrong join
 * password). */
int dj_game_check_admission(dj_judge *j, const char *game,
                            const char *join_password);

/* May the viewer (NULL: someone not signed on to the game) see who plays
 * which power (the setting `identities`)? */
bool dj_game_identities_visible(const dj_game_rec *g,
                                const dj_signon *viewer);

/* How a power's player `pl` is named to `viewer` (NULL: anyone, and every
 * mail that goes to all the game's players): by the name the player gave
 * when dj_game_identities_visible lets the viewer know who plays, else
 * `hidden`.  Never by address: a player without a name is "(no name
 * given)".  Every page, picture, JSON and mail that names players to
 * anyone but the master or the administrator names them through this. */
struct dj_participant_rec;
const char *dj_game_player_shown(const dj_game_rec *g,
                                 const dj_signon *viewer,
                                 const struct dj_participant_rec *pl,
                                 const char *hidden);

#endif
