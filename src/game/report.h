/* SPDX-License-Identifier: MIT */
/*
 * report.h — the text players receive: phase results, positions and the
 * supply-centre summary, written as email judges (DPjudge, njudge) write
 * them so that players and their mapping tools read them without surprise.
 *
 * Design.  Every function is a pure renderer: plain engine values in, text
 * appended to a dj_buf out, no I/O and no state.  The caller (the game
 * layer, `judgectl show/history/summary`, the demo) decides what to send
 * and to whom; the deadline arrives already formatted (calendar.h) so this
 * module knows nothing about zones.
 *
 * A results report reads, in order:
 *   :: Judge: J  Game: G  Variant: V
 *   :: Deadline: F1901M Sat 09 Jan 2027 20:00 CET      (or ":: Game over")
 *   title ("Movement results for Spring of 1901.")
 *   per power in map order, one line per order with its outcome marks,
 *     unordered units as holding, judge-made orders with a note
 *   dislodged units and their retreats, or that they were destroyed
 *   after the Fall: centre ownership and the centres/units/builds table
 *   the winner, if any; the next phase and its deadline, or the game's end.
 */
#ifndef DJ_GAME_REPORT_H
#define DJ_GAME_REPORT_H

#include <stdint.h>

#include "engine/adjudicate.h"
#include "engine/map.h"
#include "engine/order.h"
#include "engine/position.h"
#include "util/buf.h"

/* What the report says besides the adjudication; NULL strings are omitted. */
typedef struct dj_report_info {
    const char *judge;     /* the judge's name: "dipjudge" */
    const char *game;      /* "alpha" */
    const char *variant;   /* "standard" (defaults to the map's name) */
    const char *deadline;  /* next phase's deadline, formatted; NULL: none set */
    bool game_over;        /* the game ended with this phase */
    const char *ending;    /* how it ended, when not by victory:
                              "Draw declared by England, France, Russia." */
} dj_report_info;

/*
 * The results of the phase of `before` adjudicated as `res` from `orders`
 * (norders of them; each order carries its power).  The phase played is
 * before->phase, the next one res->next.phase; a winner in res->winner ends
 * the game even when info->game_over is false.  Returns 0, or -1 when the
 * buffer ran out of memory.
 */
int dj_report_results(const dj_map *map, const dj_position *before,
                      const dj_order *orders, int norders,
                      const dj_result *res, const dj_report_info *info,
                      dj_buf *out);

/* Just the two ":: " header lines (for other mail about the game). */
void dj_report_header(const dj_map *map, const dj_phase *next,
                      const dj_report_info *info, dj_buf *out);

/*
 * A position: its phase, then per power its units ("Army Paris"), dislodged
 * units with their retreats and its supply centres (full names, wrapped).
 * Powers with nothing left are listed as eliminated.
 */
void dj_report_position(const dj_map *map, const dj_position *pos,
                        dj_buf *out);

/* The same for a blind game's view (game/blind.h): seer -1 is
 * dj_report_position; else only the powers with something in the view
 * and the seer's own (-2: nobody's own) are listed, none "eliminated" for
 * want of what the view hides. */
void dj_report_position_seen(const dj_map *map, const dj_position *pos,
                             int seer, dj_buf *out);

/* Supply-centre ownership and the centres/units/builds table of `pos`. */
void dj_report_centres(const dj_map *map, const dj_position *pos,
                       dj_buf *out);

/* One year of the summary: the centre owners after its Fall. */
typedef struct dj_summary_year {
    int year;
    const int16_t *owner;  /* per base location, as dj_position.owner */
} dj_summary_year;

/*
 * The supply-centre history (njudge's SUMMARY): one row per year, one
 * column per power (its initial), the count of centres it owned, then the
 * unowned count; a final line names the powers.
 */
void dj_report_summary(const dj_map *map, const dj_summary_year *years,
                       int nyears, dj_buf *out);

/* "Army Paris", "Fleet Spain (north coast)"; appended. */
void dj_report_unit(const dj_map *map, dj_unit_type type, int loc,
                    dj_buf *out);

/* An order in words: "Army Burgundy SUPPORT Army Paris -> Picardy". */
void dj_report_order(const dj_map *map, const dj_order *o, dj_buf *out);

#endif
