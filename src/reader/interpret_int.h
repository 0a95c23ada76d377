/* SPDX-License-Identifier: MIT */
/*
 * interpret_int.h — the inside of the best-effort reader (interpret.h).
 *
 * Reading goes through three stages, one file each:
 *
 *   interpret_parse.c   text -> skeleton: what kind of order, which unit
 *                       words were written, and for every place in it a
 *                       *slot* listing the locations the words could mean
 *                       (one when the name is exact, several for a
 *                       misspelling) with the distance of each;
 *   interpret_read.c    skeleton -> readings: every combination of the
 *                       slots' candidates made into a dj_order against the
 *                       position (real unit types, coasts), with whether it
 *                       is a possible order and why not;
 *   interpret_choose.c  readings of all orders -> one choice per order, or
 *                       none: the rules-based choice of DATC 4.E.2 d, then
 *                       several orders for one unit (4.D.3);
 *   interpret_refuse.c  orders that cannot be orders refused (4.E.1 d);
 *   interpret_prose.c   prose lines, comments and polite words around
 *                       orders;
 *   interpret_text.c    what they all use: a line normalised and split
 *                       into orders, bounded copies, notes.
 *
 * interpret.c holds the public entry point and the output.  Not part of
 * the public API: only src/reader/ includes this file.
 */
#ifndef DJ_READER_INTERPRET_INT_H
#define DJ_READER_INTERPRET_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "reader/interpret.h"

#define IR_SLOT_CANDS 8     /* candidate locations kept for one place */
#define IR_COAST_MAX 8      /* a coast as written, normalised ("nc", "xyz") */
#define IR_SHOW_MAX 32      /* words quoted back to the player */
#define IR_PATH_MAX 8       /* places of a convoy route written out */
#define IR_NOTE_MAX 160     /* notes gathered while parsing */
#define IR_MAX_READINGS 512 /* combinations tried for one order */

/* One location a place in the order could mean. */
typedef struct ir_cand {
    int16_t prov;             /* base location of the province */
    uint8_t cost;             /* edit distance from what was written */
    char coast[IR_COAST_MAX]; /* coast written with it ("nc"), or "" */
} ir_cand;

/* A place in the order, as written, with what it could mean. */
typedef struct ir_slot {
    int ncand;
    ir_cand cand[IR_SLOT_CANDS];
    char written[IR_SHOW_MAX]; /* the words, for "'pir' read as ..." */
} ir_slot;

/* An order as parsed, before the position is consulted. */
typedef struct ir_skel {
    dj_order_kind kind;       /* movement kinds already mapped to phase */
    dj_unit_type unit_type;   /* as written; DJ_NO_UNIT if none */
    int unit_nation;          /* power written before the unit, or -1 */
    dj_unit_type target_type; /* support/convoy: type written, or none */
    int target_nation;        /* nationality written for it, or -1 */
    bool via;                 /* "via convoy" / "by convoy" */
    bool has_unit, has_target, has_dest;
    int npath;
    ir_slot unit, target, dest;
    ir_slot path[IR_PATH_MAX];
    char notes[IR_NOTE_MAX]; /* words corrected while parsing */
} ir_skel;

/* What every stage needs to know. */
typedef struct ir_ctx {
    const dj_map *map;
    const dj_position *pos;
    const dj_rules *rules;
    int power;
    dj_phase_type phase;
} ir_ctx;

/* Reasons a rule option makes a reading void, checked at 4.D.3 time. */
enum {
    IRF_TYPE_MISSING = 1 << 0,   /* 4.C.1: no unit type written */
    IRF_TYPE_WRONG = 1 << 1,     /* 4.C.2: the other type written */
    IRF_NATION_MISSING = 1 << 2, /* 4.C.5: foreign unit, no nationality */
    IRF_NATION_WRONG = 1 << 3,   /* 4.C.6: wrong nationality */
};

/* One way of reading an order. */
typedef struct ir_reading {
    dj_order order;
    uint8_t pick[3];     /* candidate used in the unit, target, dest slots */
    uint8_t cost;        /* summed edit distances */
    uint8_t mismatch;    /* unit types / nationalities that do not fit */
    uint8_t flags;       /* IRF_* */
    bool possible;       /* a legal order in this position (4.E.1 d) */
    const char *why;     /* when not possible: why, in a few words */
    const char *invalid; /* a rule option voids it: the reason, else NULL */
    char text[DJ_READ_TEXT_MAX]; /* canonical text */
} ir_reading;

/* One order found in the input, through every stage. */
typedef struct ir_item {
    int line;
    bool failed; /* parse error: message holds the reason */
    bool prose;  /* the whole line is text, not orders (failed too) */
    char message[DJ_READ_MSG_MAX];
    ir_skel *skel; /* owned; NULL when failed */
    int nreadings;
    ir_reading *readings; /* owned */
    bool *alive;          /* readings still in the running */
    int chosen;           /* the reading used, or -1 */
    dj_read_kind kind;    /* outcome */
    bool stands_instead;  /* ERROR under 4.D.3 c: the unit holds (in a
                             retreat, disbands) instead of every order */
    bool none_possible;   /* ERROR: several readings, none a possible
                             order ("A lvp-pir"): no ambiguity offered */
} ir_item;

/* ---- interpret_text.c --------------------------------------------------- */

/* A byte ir_split_line could not read as text (not a letter we know). */
#define IR_BAD_BYTE '\x7f'

/*
 * Normalise one input line into `out` (lower-case ASCII, dashes and arrows
 * in their ASCII forms, other bytes as DEL) and split it into orders at ','
 * and ';'.  Writes the start of each piece into pieces[] (pointing into
 * out, NUL-terminated); returns how many, at most max.
 */
int ir_split_line(const char *line, char *out, size_t outlen, char **pieces,
                  int max);

/* Copy src into dst, cut to fit (always NUL-terminated). */
void ir_copy(char *dst, size_t len, const char *src);

/* The same, in lower case. */
void ir_lower(char *dst, size_t len, const char *src);

/* Append "; text" (or text, when empty) to a bounded note buffer. */
void ir_note(char *notes, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Display name of a location's province for notes: "Picardy". */
const char *ir_place_name(const dj_map *map, int loc);

/* ---- interpret_parse.c --------------------------------------------------- */

/*
 * Parse one piece.  Returns 1 with *skel filled, 0 when the piece holds no
 * order (blank, a lone power name), -1 with a reason in msg.
 */
int ir_parse_piece(const ir_ctx *c, const char *piece, ir_skel *skel, char *msg,
                   size_t msglen);

/* ---- interpret_read.c ---------------------------------------------------- */

/*
 * Every reading of a parsed order (at most max), each checked against the
 * position.  Returns how many.
 */
int ir_expand(const ir_ctx *c, const ir_skel *s, ir_reading *out, int max);

/* How many readings ir_expand will make. */
int ir_count_readings(const ir_skel *s);

/*
 * Rebuild one reading with the notes a player should see appended to
 * notes ("; "-separated): corrections, coasts, unit types, failures.
 */
void ir_explain(const ir_ctx *c, const ir_skel *s, const ir_reading *r,
                char *notes, size_t len);

/* ---- interpret_choose.c -------------------------------------------------- */

/* Choose a reading for every item, using the whole set (4.E.2 d). */
void ir_choose(const ir_ctx *c, ir_item *items, int nitems);

/* Several orders for one unit among the chosen readings (4.C.*, 4.D.3). */
void ir_settle_duplicates(const ir_ctx *c, ir_item *items, int nitems);

/* ---- interpret_prose.c --------------------------------------------------- */

/* Is a line prose (nothing in it could belong to an order)? */
bool ir_line_is_prose(const ir_ctx *c, const char *line);

/* A polite word dropped from an order ("please", "thanks", "i'd")? */
bool ir_polite_word(const char *w);

/*
 * Take comments and polite phrases out of one normalised piece (in
 * place); what was taken out, quoted and comma-separated, into dropped.
 */
void ir_strip_extras(const ir_ctx *c, char *piece, char *dropped,
                     size_t len);

/* ---- interpret_refuse.c -------------------------------------------------- */

/*
 * Under 4.E.1 d, chosen orders that cannot be valid in the position, and
 * builds or removals beyond those due (4.D.4-4.D.6 b), become errors.
 */
void ir_refuse_impossible(const ir_ctx *c, ir_item *items, int nitems);

#endif
