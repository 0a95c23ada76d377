/* SPDX-License-Identifier: MIT */
/*
 * map_flow.h — DPjudge's FLOW lines (the order of a game's phases and how
 * its years advance) compiled into dipjudge's year: a first and a second
 * movement turn (Spring, Fall; each with its retreats), then adjustments
 * (Winter), captures at the end of the second.
 *
 * DPjudge writes a year as a list of entries, walked round and round:
 * "SEASON:PHASE,PHASE" (MOVEMENT, RETREATS, ADJUSTMENTS), "NEWYEAR[:n]"
 * (the year advances by n, 1 by default) and "IFYEARDIV:d[=m]" (what
 * follows happens only when year % d == m).  Hundred's
 *     NEWYEAR:5  A.D.:MOVEMENT,RETREATS  IFYEARDIV:10  A.D.:ADJUSTMENTS
 * plays 1425 movement, 1430 movement and adjustments, 1435 movement, ...:
 * Spring 1425, Fall 1430, Winter 1430, Spring 1435, Fall 1440, ...
 *
 * The compiler walks the flow as DPjudge does, from the game's first
 * phase, for several rounds; a flow whose phases do not settle into that
 * two-movements-then-adjustments shape with steady year steps (three
 * movement turns a year, adjustments every third turn, a movement phase
 * with no retreats) is refused with the reason.
 *
 * Pure: no I/O, no globals.
 */
#ifndef DJ_ENGINE_MAP_FLOW_H
#define DJ_ENGINE_MAP_FLOW_H

#include <stdbool.h>
#include <stddef.h>

#define DJ_FLOW_MAX 32       /* entries in a flow */
#define DJ_FLOW_WORD_MAX 24  /* longest season word */

typedef struct dj_flow_entry {
    enum { FLOW_PHASE, FLOW_NEWYEAR, FLOW_IFYEARDIV } kind;
    char season[DJ_FLOW_WORD_MAX]; /* FLOW_PHASE: as written, upper case */
    char type;                     /* FLOW_PHASE: 'M', 'R' or 'A' */
    int n, mod;                    /* NEWYEAR: years; IFYEARDIV: d and m */
} dj_flow_entry;

typedef struct dj_flow {
    dj_flow_entry e[DJ_FLOW_MAX];
    int n;
} dj_flow;

/* What the loader keeps. */
typedef struct dj_flow_year {
    int start_season;     /* dj_season of the first phase */
    int start_type;       /* dj_phase_type of the first phase */
    int start_year;
    int years_to_fall;    /* Spring's year + this = the Fall's */
    int years_to_spring;  /* the Fall's (and Winter's) + this = next Spring */
    char season[3][DJ_FLOW_WORD_MAX]; /* the flow's names for Spring, Fall
                                         and Winter, as written */
} dj_flow_year;

/*
 * Add one FLOW line's argument ("A.D.:MOVEMENT,RETREATS", "NEWYEAR:5",
 * "IFYEARDIV:10").  false with the reason in err.
 */
bool dj_flow_add(dj_flow *f, const char *arg, char *err, size_t errlen);

/*
 * Compile f (entries added) for a game beginning in phase SEASON YEAR TYPE
 * (as BEGIN writes it: "A.D.", 1425, "MOVEMENT").  false with the reason
 * in err.
 */
bool dj_flow_compile(const dj_flow *f, const char *season, int year,
                     const char *type, dj_flow_year *out, char *err,
                     size_t errlen);

#endif
