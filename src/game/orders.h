/* SPDX-License-Identifier: MIT */
/*
 * orders.h — a power's orders and its flags: set and read as the master or
 * judgectl gives them, by mail line by line (read best-effort, conditional
 * ones for later phases), cleared, their status; ready, wait, draw and
 * concession votes, absences (orders.c, lifecycle.c).
 * Part of the game room's door; the session they all take is game.h's.
 */
#ifndef DJ_GAME_ORDERS_H
#define DJ_GAME_ORDERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

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
 * dj_time_parse reads them, in the game's zone; to NULL: one day from
 * `from`).  from "clear" drops every absence of the power.
 */
int dj_game_absence(dj_judge *j, const char *game, const char *power,
                    const char *from, const char *to, dj_buf *out);

/*
 * A power's orders by mail.  `lines` are read best-effort for the power
 * (reader/interpret.h); one reading per order found goes to
 * reads[0..*nreads) (at most max_reads; *nreads may say more, as
 * dj_interpret_lines) for the caller to echo.  Every order read goes on
 * file, replacing the power's earlier order for the same unit, except in
 * an adjustment phase, where the orders read replace the whole set; a line
 * that could not be read (an error, an ambiguity) changes nothing.  The
 * READY flag is left as it was.  Fails only when the game cannot take
 * orders from the power now (finished, forming, nothing to order).
 */
/*
 * njudge's PHASE: orders for a later phase.  dj_game_later_begin returns
 * 1 when `phase` ("F1902M") is later than the game's current phase (the
 * power's stored text for it is begun afresh, replacing any earlier
 * one), 0 when it is the current phase (nothing stored: the lines are
 * read now), -1 with the judge's error when it is past or no phase.
 * dj_game_later_line adds one line to the stored text.  The text is read
 * as the power's orders when that phase opens (dj_game_process), and the
 * player is mailed what was read.
 */
int dj_game_later_begin(dj_judge *j, const char *game, const char *power,
                        const char *phase);
int dj_game_later_line(dj_judge *j, const char *game, const char *power,
                       const char *phase, const char *line);

int dj_game_submit_orders(dj_judge *j, const char *game, const char *power,
                          const char *const *lines, int nlines,
                          const char *source, dj_reading *reads,
                          int max_reads, int *nreads);

/* Withdraw all the power's orders for the current phase: its units hold. */
int dj_game_clear_orders(dj_judge *j, const char *game, const char *power,
                         const char *source, dj_buf *out);

/*
 * The power's situation in the current phase, for its player: the orders
 * on file (canonical), the units still without an order or the builds or
 * removals still due, its READY and WAIT flags, and the deadline.
 */
int dj_game_order_status(dj_judge *j, const char *game, const char *power,
                         dj_buf *out);

/*
 * The same, and in *complete (when not NULL) whether the power has
 * orders for everything it must decide: every unit (every dislodged unit
 * that can retreat) has an order, or every build or removal due is
 * given; false when it has nothing to order.  Decided from the orders on
 * file and the position, by gv_orders_complete() (game_int.h).
 */
int dj_game_order_status_full(dj_judge *j, const char *game,
                              const char *power, dj_buf *out,
                              bool *complete);

/*
 * Is a line of a mail prose in this game (nothing in it could belong to
 * an order on the game's map: a greeting, a sign-off), as the order
 * reader decides for a player's lines (dj_interpret_line_is_prose)?  For
 * the lines of someone with no power to order for, such as a master who
 * has not BECOME one.  *prose false on any failure.
 */
int dj_game_line_is_prose(dj_judge *j, const char *game, const char *line,
                          bool *prose);

/* ---- the web's order pad (order_pad.c) ---------------------------------- */

/* One order the power may give now (engine/legal_list.h's). */
typedef struct dj_pad_order {
    char kind[12];   /* hold move support convoy retreat disband build remove */
    char text[80];   /* as a player mails it: "A PAR - BUR", "BUILD F STP/SC" */
    char unit[32];   /* the unit ordered, "A PAR" ("" for a build) */
    char type[2];    /* "A" or "F" */
    char place[16];  /* its place as the pictures' data-place: "stp/sc" */
    char target[16]; /* support, convoy: the other unit's place, else "" */
    char to[16];     /* move, retreat, support to move, convoy: where */
    bool by_convoy;  /* a move that needs a convoy */
} dj_pad_order;

typedef struct dj_pad_list {
    char game[64], phase[16], power[64];
    char phase_type[12]; /* "movement", "retreat", "adjustment" */
    int due;             /* adjustment: builds (> 0) or removals (< 0) */
    bool truncated;      /* more orders than the engine lists */
    int n;
    dj_pad_order *o;     /* malloc'd: dj_pad_list_free */
} dj_pad_list;

/* Every order the power may give in the phase taking orders, unit by
 * unit (dj_legal_orders on the game's position and rules).  0, or -1
 * with the judge's error (no such game or power, no phase taking
 * orders). */
int dj_game_pad_orders(dj_judge *j, const char *game, const char *power,
                       dj_pad_list *out);
void dj_pad_list_free(dj_pad_list *l);

#endif
