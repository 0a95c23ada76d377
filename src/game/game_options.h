/* SPDX-License-Identifier: MIT */
/*
 * game_options.h — the game room's part of the game options of issue 37
 * (their settings are rows of store/settings_table.h):
 *
 *   victory = N      the centres a power needs to win (0: the map's);
 *   end_year = YYYY  after that year's adjustments the game ends in a
 *                    draw among the surviving powers;
 *   draw_proposals   standing (votes stand until withdrawn) or phase
 *                    (they lapse at the end of the phase they were cast
 *                    in, and the results say so);
 *   extension = 2d   EXTEND votes: when every surviving power with a
 *                    player has voted EXTEND before the deadline, it moves
 *                    by the extension, once per phase;
 *   excuses = N      a power's first N phases without orders are excused
 *                    (no civil disorder) before nmr applies; under nmr =
 *                    wait the master and the late players are told when
 *                    the grace has ended;
 *   hide_late = yes  the late notice names only the reader's own power
 *                    (the master's names every late power).
 *
 * Private to src/game (it uses game_int.h's game_view).
 */
#ifndef DJ_GAME_GAME_OPTIONS_H
#define DJ_GAME_GAME_OPTIONS_H

#include "game/game_int.h"

/* Are victory, end_year, extension and excuses possible on `map` (the
 * game at year `year` of its current phase, 0 while forming)?  0, or -1
 * with the reason set. */
int gv_check_options(dj_judge *j, const dj_game_rec *g, const dj_map *map,
                     int year);

/* Does the game end by its end_year with the position `next`? */
bool gv_year_limit_reached(const game_view *v, const dj_position *next);
/* "Draw among France, Germany and Italy: ..." into ending. */
void gv_year_limit_ending(const game_view *v, const dj_position *next,
                          char *ending, size_t len);

/* draw_proposals = phase, as a phase is processed: clear the votes on
 * file and say so in the results text. */
int gv_lapse_votes(dj_judge *j, game_view *v, dj_buf *report);

/* Of the powers `missed` (orders due, none sent), those with an excuse
 * left (excuses = N). */
int gv_excusable(dj_judge *j, const game_view *v, dj_power_set missed,
                 dj_power_set *excused);
/* Spend one excuse of each power in `excused`, and say so in the results
 * text (which every player reads). */
int gv_excuse(dj_judge *j, game_view *v, dj_power_set excused,
              dj_buf *report);
/* The excuses used by power p, for the master's view; -1 on error. */
int gv_excuses_used(dj_judge *j, const game_view *v, int p);

/* nmr = wait: the grace has ended with `waiting` still late: tell the
 * master and those powers' players, once per phase. */
int gv_grace_ended(dj_judge *j, game_view *v, dj_power_set waiting,
                   dj_buf *out);

/* hide_late = yes: the late notice, `head` (its header) then the text
 * naming the late powers (`before` names, `after`), to each late power
 * naming only itself, and to the master naming all. */
int gv_late_notice_hidden(dj_judge *j, game_view *v, dj_power_set late,
                          const char *subject, const char *head,
                          const char *tail);

#endif
