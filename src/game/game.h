/*
 * game.h — games: their lifecycle, orders, processing at deadlines, and
 * everything a game master does.  The one door front ends (judgectl, the
 * mail command language) use to change or read a game.
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
#include <stdint.h>

#include "game/config.h"
#include "store/store.h"
#include "util/buf.h"

typedef struct dj_judge dj_judge;

/*
 * Open the database named by cfg->database (migrating it) and start a
 * session; maps are read from `maps_dir`.  NULL with a message on error.
 */
dj_judge *dj_judge_open(const dj_config *cfg, const char *maps_dir,
                        char *err, size_t errlen);
void dj_judge_close(dj_judge *j);

const char *dj_judge_error(const dj_judge *j);
dj_store *dj_judge_store(dj_judge *j);

/* The current time (UTC seconds) for everything the session does. */
void dj_judge_set_now(dj_judge *j, int64_t now);
/* Who acts, for the game log ("judgectl", an address). */
void dj_judge_set_actor(dj_judge *j, const char *actor);

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
 *   (none|white|grey|white+grey), assignment (choice|random),
 *   rule (NAME=VALUE, a DATC option; NAME=default drops it; "none" drops
 *   all), deadline (of the current phase: "2027-01-09 20:00", "+2d").
 */
int dj_game_set(dj_judge *j, const char *game, const char *const *settings,
                int nsettings, dj_buf *out);

/* ---- orders and players' flags ----------------------------------------- */

/*
 * Enter a power's orders for the current phase (replacing any before),
 * read best-effort from `text`; with `ready`, mark the power READY.
 * Orders that cannot be read refuse the whole set (message in error).
 */
int dj_game_set_orders(dj_judge *j, const char *game, const char *power,
                       const char *text, const char *source, bool ready,
                       dj_buf *out);

/* The power's orders on file for the current phase, canonical, a line each. */
int dj_game_get_orders(dj_judge *j, const char *game, const char *power,
                       dj_buf *out);

/* flag: "ready", "not-ready", "wait", "no-wait". */
int dj_game_flag(dj_judge *j, const char *game, const char *power,
                 const char *flag, dj_buf *out);

/*
 * A power's vote: "draw", "concede POWER" (concede the game to POWER) or
 * "none".  The game ends when every surviving power with a player votes
 * draw, or all but one concede to that one.
 */
int dj_game_vote(dj_judge *j, const char *game, const char *power,
                 const char *vote, dj_buf *out);

/*
 * A player's absence: no deadline falls in [from, to) (times as
 * dj_time_parse reads them, in the game's zone).  from "clear" drops
 * every absence of the power.
 */
int dj_game_absence(dj_judge *j, const char *game, const char *power,
                    const char *from, const char *to, dj_buf *out);

/* ---- the master's actions ------------------------------------------------ */

/* Adjudicate the current phase now, with the orders in hand. */
int dj_game_process(dj_judge *j, const char *game, dj_buf *out);

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

/* A new player takes over a power; the old one is kept as "replaced". */
int dj_game_replace(dj_judge *j, const char *game, const char *power,
                    const char *email, const char *name, dj_buf *out);
/* The power's player leaves; a civil-disorder dummy plays it. */
int dj_game_eject(dj_judge *j, const char *game, const char *power,
                  dj_buf *out);

/* ---- reading --------------------------------------------------------------- */

int dj_game_list(dj_judge *j, dj_buf *out);
/* Position, participants, who has ordered, deadlines. */
int dj_game_show(dj_judge *j, const char *game, dj_buf *out);
/* Results of the phases from..to (phase names or years; NULL: all). */
int dj_game_history(dj_judge *j, const char *game, const char *from,
                    const char *to, dj_buf *out);
/* The supply-centre history, one row per year. */
int dj_game_summary(dj_judge *j, const char *game, dj_buf *out);
/* The whole game as JSON. */
int dj_game_export(dj_judge *j, const char *game, dj_buf *out);
/* The mail queued for a game (NULL: every game). */
int dj_game_outbox(dj_judge *j, const char *game, dj_buf *out);

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
