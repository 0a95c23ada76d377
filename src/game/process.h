/* SPDX-License-Identifier: MIT */
/*
 * process.h — a game's course: a phase processed (by the master, or the
 * tick at a deadline), previewed, rolled back and forward, the game
 * paused, resumed, ended, powers replaced or ejected, the master's
 * notices; and the clock, dj_judge_tick (process.c, rollback.c,
 * lifecycle.c).
 * Part of the game room's door; the session they all take is game.h's.
 */
#ifndef DJ_GAME_PROCESS_H
#define DJ_GAME_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

/* ---- the master's actions ------------------------------------------------ */

/*
 * Adjudicate the current phase now, with the orders in hand: with the
 * game's engine, checked by its verifying engine (dj_game_verifier).  If
 * the two disagree nothing is stored or mailed to the players: the game is
 * paused and its master and the judge's admin get one mail with both
 * results and the phase as a case for `judgectl check`.
 */
int dj_game_process(dj_judge *j, const char *game, dj_buf *out);

/*
 * The master's decision after a disagreement: adjudicate the current phase
 * with `engine` alone (no verification), and resume the game if it was
 * paused.
 */
int dj_game_process_with(dj_judge *j, const char *game, dj_engine engine,
                         dj_buf *out);

/* The game's movement engine, and the one that checks it (-1: none). */
dj_engine dj_game_engine(const dj_game_rec *g);
int dj_game_verifier(const dj_game_rec *g);

/* The results the current phase would have now, saving nothing. */
int dj_game_preview(dj_judge *j, const char *game, dj_buf *out);

/*
 * Go back to an earlier phase ("S1903M"; NULL: the one before the
 * current), reopening it with the orders it had; rollforward undoes the
 * latest rollback while nothing has been processed since.
 */
int dj_game_rollback(dj_judge *j, const char *game, const char *phase,
                     dj_buf *out);
int dj_game_rollforward(dj_judge *j, const char *game, dj_buf *out);

int dj_game_pause(dj_judge *j, const char *game, dj_buf *out);
int dj_game_resume(dj_judge *j, const char *game, dj_buf *out);
int dj_game_terminate(dj_judge *j, const char *game, const char *reason,
                      dj_buf *out);
/* The master's notice (DPjudge's OFFICIAL) to everyone in the game, as
 * the judge's own notices go: "dipjudge:GAME - PHASE Official notice",
 * no press header. */
int dj_game_official(dj_judge *j, const char *game, const char *text,
                     dj_buf *out);

/*
 * A new player takes over a power; the old one is kept as "replaced".
 * The new player's password is `password`, or one generated when NULL;
 * either way it is mailed to them with how to sign on, and everyone is
 * told the power has a new player.
 */
int dj_game_replace(dj_judge *j, const char *game, const char *power,
                    const char *email, const char *name, const char *password,
                    dj_buf *out);
/* The power's player leaves; a civil-disorder dummy plays it. */
int dj_game_eject(dj_judge *j, const char *game, const char *power,
                  dj_buf *out);

/* ---- the clock ------------------------------------------------------------- */

/*
 * Process every active game that is due at the session's time: deadline
 * passed with every power's orders in (or grace expired, per the game's
 * NMR policy), or everyone ready early.  Announces lateness once per
 * phase.  Each game is its own transaction; one failing game does not stop
 * the others.  *processed counts the phases adjudicated.  Returns 0, or -1
 * when any game failed (the last error in dj_judge_error()).
 */
int dj_judge_tick(dj_judge *j, dj_buf *out, int *processed);

#endif
