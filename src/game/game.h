/* SPDX-License-Identifier: MIT */
/*
 * game.h — games: the session every call of the game room takes (a
 * dj_judge: opened, closed, its clock, its store, its actor, its error).
 * The game room is the one door front ends (judgectl, the mail command
 * language, the web) use to change or read a game; its calls are in the
 * topic headers beside this one: forming.h (before the start), orders.h
 * (a power's orders and flags), process.h (a phase processed, the
 * master's actions on a game's course, the tick), reading.h (listings,
 * reports, exports), signon.h (who a visitor is: sign-ons, tokens,
 * passwords, addresses, confirmations), audience.h (who may see what),
 * press.h (press and diaries) and pictures.h (pictures and a game's
 * mail).
 *
 * Design.  A dj_judge is a session: the open database, the configuration,
 * the maps loaded so far and the clock.  The clock is a value given by the
 * caller (dj_judge_set_now), never read here, so tests run any calendar
 * they like.  Every operation that changes a game is one database
 * transaction (BEGIN IMMEDIATE ... COMMIT): it happens entirely or not at
 * all, and two processes never act on the same state.  Processing a phase
 * writes the results, the next phase and the mail announcing them in that
 * one transaction, and a phase can hold one result only (the results
 * table's key), so a phase is adjudicated exactly once however many
 * processes try and wherever one of them is killed.
 *
 * Game names, power names and settings come as the user wrote them;
 * errors are one line in dj_judge_error() ("game 'x' does not exist").
 * Text for the user (reports, listings, JSON) is appended to a dj_buf.
 *
 * Lifecycle: forming (players join) -> active (phases are played) <->
 * paused -> finished (victory, draw, concession or terminated).
 * See judgectl(8) for each operation as the master sees it.
 */
#ifndef DJ_GAME_GAME_H
#define DJ_GAME_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/adjudicate.h"
#include "game/config.h"
#include "reader/interpret.h"
#include "store/games.h"
#include "store/mail.h"
#include "store/store.h"
#include "util/buf.h"

typedef struct dj_judge dj_judge;

/*
 * Open the database named by cfg->database (migrating it) and start a
 * session; maps are read from `maps_dir`.  NULL with a message on error.
 */
dj_judge *dj_judge_open(const dj_config *cfg, const char *maps_dir,
                        char *err, size_t errlen);
/* The same, creating a missing database only when `create`; on failure
 * *failure says why (store.h: missing, denied, a newer schema...). */
dj_judge *dj_judge_open_as(const dj_config *cfg, const char *maps_dir,
                           bool create, dj_store_open_failure *failure,
                           char *err, size_t errlen);
void dj_judge_close(dj_judge *j);

const char *dj_judge_error(const dj_judge *j);
dj_store *dj_judge_store(dj_judge *j);

/* The current time (UTC seconds) for everything the session does. */
void dj_judge_set_now(dj_judge *j, int64_t now);
int64_t dj_judge_now(const dj_judge *j);
/* Who acts, for the game log ("judgectl", an address). */
void dj_judge_set_actor(dj_judge *j, const char *actor);
/* Tests only (src/cli/test_hooks.h): called on the verifying engine's
 * result before it is compared with the game engine's, so that the tests
 * can reach the disagreement path no real phase reaches.  Never set by
 * the installed programs. */
typedef void (*dj_verifier_hook)(dj_result *verifier_result);
void dj_judge_set_verifier_hook(dj_judge *j, dj_verifier_hook hook);

/* The session's actor (see dj_judge_set_actor) and configuration. */
const char *dj_judge_actor(const dj_judge *j);
const dj_config *dj_judge_config(const dj_judge *j);

#endif
