/* SPDX-License-Identifier: MIT */
/*
 * interpret.h — the best-effort reader for orders as players write them
 * (DATC 4.E.2, choice d).
 *
 * One power's lines for the current phase go in; for every order found in
 * them one dj_reading comes out, saying either
 *
 *   OK         what was understood: the order and its canonical text
 *              ("A PAR - BUR"), with notes on anything corrected
 *              ("'pariz' read as Paris");
 *   ERROR      why nothing could be made of it ("unknown location 'xyz'");
 *   AMBIGUOUS  the readings it could have ("A BUR - PAR", "A BUR - PIC"),
 *              none of which is chosen: the unit holds.
 *
 * What is accepted: any case and spacing, every name the map knows and
 * small misspellings of them, unit words or none, the usual verbs and
 * their abbreviations, nationality words, coasts in every common notation,
 * convoy routes, several orders on one line (',' or ';'), a power name in
 * front ("France: A par-bur"), numbered lists; blank lines are skipped.
 *
 * How a choice is made between readings of a poorly written order, in
 * this order: only readings that are possible orders in the position (the
 * unit stands there, belongs to the power, can reach the place); not a
 * unit the power already ordered on another line; the closest spelling;
 * a reading that matches the power's other orders (a support names the
 * move it supports); the unit type and nationality written.  Readings
 * left tied are reported as ambiguous.  Exact but impossible orders are
 * never changed into possible ones: they are read as written and, under
 * 4.E.1 d (the default), refused with the reason (another power's unit,
 * no unit there, a place no route reaches, builds beyond those due); under
 * the other 4.E.1 choices they are accepted with a note and the
 * adjudicator rules them illegal.  Letters with accents are read without
 * them; a line none of whose pieces is an order is one error.  Other
 * powers' orders are never looked at: only this power's lines are given.
 *
 * The rule options of DATC chapter 4 that concern reading are applied:
 * 4.A.6 (convoy routes), 4.B.2/4.B.3 (a coast filled in or replaced),
 * 4.B.5/4.B.6 (a wrong or unknown coast), 4.C.1/4.C.2 (unit type),
 * 4.C.5/4.C.6 (nationality) and 4.D.3 (several orders for one unit).
 * Everything else is left to the adjudicator.
 */
#ifndef DJ_READER_INTERPRET_H
#define DJ_READER_INTERPRET_H

#include "engine/map.h"
#include "engine/order.h"
#include "engine/position.h"
#include "engine/rules.h"

#define DJ_READ_TEXT_MAX 96      /* canonical text of one order */
#define DJ_READ_MSG_MAX 320      /* reason, notes or question */
#define DJ_READ_MAX_CANDIDATES 6 /* readings listed for an ambiguous order */
#define DJ_READ_LINE_MAX 1024    /* longest line read (bytes, with NUL) */
#define DJ_READ_MAX_ORDERS 1024  /* orders read in one call; more: ERROR */

/* PROSE: a line with nothing that could be part of an order (a greeting,
 * a sign-off, a disclaimer): not read, and no error. */
typedef enum {
    DJ_READ_OK = 0,
    DJ_READ_ERROR,
    DJ_READ_AMBIGUOUS,
    DJ_READ_PROSE
} dj_read_kind;

typedef struct dj_reading {
    int line; /* index of the input line it came from */
    dj_read_kind kind;
    dj_order order;              /* OK: the order understood */
    char text[DJ_READ_TEXT_MAX]; /* OK: its canonical text */
    /*
     * OK: notes for the player, "; "-separated, or "" when the order was
     * read exactly as written.  ERROR: the reason.  AMBIGUOUS: the question
     * ("'pir' could be Paris or Picardy").
     */
    char message[DJ_READ_MSG_MAX];
    int ncandidates; /* AMBIGUOUS: the readings, canonical */
    char candidates[DJ_READ_MAX_CANDIDATES][DJ_READ_TEXT_MAX];
    /*
     * ERROR under rule 4.D.3 c (several orders for one unit: none is
     * used): true, and `order` and `text` are what the unit does instead,
     * its hold (in a retreat phase, its disband), which replaces any
     * earlier order on file for it.  False otherwise.
     */
    bool stands_instead;
} dj_reading;

/*
 * Read `nlines` lines of orders for `power` in the phase of `pos`.  Fills
 * out[0..] with one reading per order found, lines in order and orders of
 * one line in order, at most max_out of them; returns how many there are
 * (which may exceed max_out, as with snprintf), or -1 when an argument is
 * missing or out of range.  Never fails on any text.
 */
int dj_interpret_lines(const dj_map *map, const dj_position *pos, int power,
                       const dj_rules *rules, const char *const *lines,
                       int nlines, dj_reading *out, int max_out);

/*
 * Is the line prose: nothing in it could belong to an order on this map
 * (a greeting, a sign-off, a disclaimer)?  The test dj_interpret_lines
 * makes before reading a line (a DJ_READ_PROSE reading), for lines from
 * someone with no power to order for (a game master who has not BECOME
 * one), so they are treated as a player's are.
 */
bool dj_interpret_line_is_prose(const dj_map *map, const char *line);

/* "OK", "ERROR", "AMBIGUOUS". */
const char *dj_read_kind_name(dj_read_kind kind);

/*
 * One line for a report: "OK A PAR - BUR", "ERROR unknown location 'xyz'",
 * "AMBIGUOUS A BUR - PAR | A BUR - PIC".  Returns the length written
 * (truncated to len-1 like snprintf).
 */
int dj_reading_format(const dj_reading *r, char *buf, size_t len);

#endif
