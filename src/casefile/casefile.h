/* SPDX-License-Identifier: MIT */
/*
 * casefile.h — reading adjudicator test-case files (jDip/godip DATC style).
 *
 * A case file holds any number of cases, each from CASE to END; the full
 * format is in judgectl(8).  A dj_casefile is a reader that yields one case
 * at a time into a caller-owned dj_case, so a file of hundreds of cases
 * needs memory for only one.  A syntax error spoils only its own case: the
 * reader reports "file:line: message", skips to the next CASE or END and
 * carries on.
 *
 * Everything a case needs to run is resolved while reading: the rules
 * (defaults, then the map's RULE lines, then the case's), the position
 * before the phase (dislodged units with their attackers and legal retreats
 * worked out from PRESTATE_RESULTS), the orders (parsed, with their source
 * text), and what the case expects: the units afterwards, each order's
 * result, or both.
 */
#ifndef DJ_CASEFILE_CASEFILE_H
#define DJ_CASEFILE_CASEFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/map.h"
#include "engine/order.h"
#include "engine/position.h"
#include "engine/rules.h"

#define DJ_CASE_NAME_MAX 128   /* case name, including the NUL */
#define DJ_CASE_TEXT_MAX 128   /* one order line as written */
#define DJ_CASE_MAX_ORDERS 256 /* orders in one case */
#define DJ_CASE_ERR_MAX 512    /* room for a "file:line: message" */

/* What a case's RESULTS section says of an order. */
typedef enum {
    DJ_EXPECT_NONE = 0,  /* nothing stated */
    DJ_EXPECT_SUCCESS,   /* SUCCESS: the order does what it says */
    DJ_EXPECT_FAILURE    /* FAILURE */
} dj_expect;

/* One order of a case, with what was written and where. */
typedef struct dj_case_order {
    dj_order order;
    int line;                     /* line in the case file */
    char text[DJ_CASE_TEXT_MAX];  /* "F nth-pic", without the power */
    dj_expect expect;             /* its result, as RESULTS states it */
    int expect_line;              /* the RESULTS line, 0 if none */
} dj_case_order;

/* A RESULTS line "DISLODGED: Power: A loc RETREATS ...": a unit the case
 * expects dislodged, and every place it may retreat to (none: it is
 * destroyed). */
typedef struct dj_case_dislodged {
    dj_unit unit;
    int line;
    int nretreats;
    int16_t retreats[DJ_MAX_RETREATS];  /* locations */
} dj_case_dislodged;

/* One case, ready to adjudicate and check. */
typedef struct dj_case {
    char name[DJ_CASE_NAME_MAX];  /* "6.A.1 Moving to an area that is not..." */
    const char *file;             /* the reader's path; valid while it lives */
    int line;                     /* line of the CASE keyword */
    dj_rules rules;               /* defaults, map's, then case's RULEs */
    dj_position pre;              /* the position the orders are given in */
    int norders;
    dj_case_order orders[DJ_CASE_MAX_ORDERS];
    bool post_same;               /* POSTSTATE_SAME: expect pre's units */
    int npost;
    dj_unit post[DJ_MAX_UNITS];   /* POSTSTATE: every unit afterwards */
    int npost_dislodged;
    dj_unit post_dislodged[DJ_MAX_UNITS];  /* POSTSTATE_DISLODGED */
    bool has_post;                /* POSTSTATE given */
    bool has_results;             /* RESULTS given: every order has its
                                     expect, and the dislodged units are
                                     exactly expect_dislodged */
    int nexpect_dislodged;
    dj_case_dislodged expect_dislodged[DJ_MAX_UNITS];
} dj_case;

typedef struct dj_casefile dj_casefile;

typedef enum {
    DJ_CASE_EOF = 0,    /* no more cases */
    DJ_CASE_OK = 1,     /* a case was read */
    DJ_CASE_ERROR = -1  /* a syntax error; the message says where */
} dj_case_status;

/*
 * Open a case file.  Maps named by VARIANT_ALL ("Standard" -> standard.map)
 * are loaded from `mapdir`.  Returns NULL with a message if the file cannot
 * be opened.
 */
dj_casefile *dj_casefile_open(const char *path, const char *mapdir, char *err,
                              size_t errlen);

void dj_casefile_close(dj_casefile *cf);

/*
 * Read the next case into *c.  On DJ_CASE_ERROR, err holds
 * "file:line: message" and the next call resumes after the bad case.
 * A file whose map cannot be loaded gives one error, then DJ_CASE_EOF.
 */
dj_case_status dj_casefile_next(dj_casefile *cf, dj_case *c, char *err,
                                size_t errlen);

/* The map of the case read last (NULL before the first case).  Every map
 * a reader loads stays valid until dj_casefile_close(): cases read with
 * one map can still be adjudicated after a VARIANT_ALL line has brought
 * another. */
const dj_map *dj_casefile_map(const dj_casefile *cf);

/*
 * Find a power by name, adjective or letter, or failing that by a prefix
 * of one name or adjective that fits only one power; -1 if none.
 */
int dj_casefile_find_power(const dj_map *map, const char *text);

#endif
