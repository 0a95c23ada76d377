/* SPDX-License-Identifier: MIT */
/*
 * casefile_int.h — what the two halves of the case-file reader share
 * (casefile room only): casefile.c reads lines and keywords and runs the
 * cases from CASE to END; case_lines.c reads the lines inside a section
 * and completes a case at its END; case_text.c holds the helpers both
 * use (messages, comparisons), so that casefile.c uses case_lines.c and
 * not the other way round.
 */
#ifndef DJ_CASEFILE_CASEFILE_INT_H
#define DJ_CASEFILE_CASEFILE_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "casefile/casefile.h"

/* The few functions every line of a case file goes through, inlined
 * whatever the compiler guesses: GCC takes their calls for cold (each
 * sits behind a few tests of the line) and keeps them out of line, which
 * cost the whole `judgectl check` 7% of its instructions (bench/README.md). */
#if defined(__GNUC__) || defined(__clang__)
#define CF_EVERY_LINE static inline __attribute__((always_inline))
#else
#define CF_EVERY_LINE static inline
#endif

#define LINE_MAX_LEN 1024   /* longest line accepted */
#define QUOTE_MAX 40        /* longest text quoted back in a message */
#define POWER_HEAD_BYTES 8  /* a line's first bytes compared at once */

/* A line's keyword: the sections of a case and the lines around them. */
typedef enum {
    KW_NONE,  /* not a keyword: a "Power: ..." line */
    KW_UNKNOWN,
    KW_VARIANT,
    KW_CASE,
    KW_END,
    KW_RULE,
    KW_SETPHASE,
    KW_SC_OWNERS,
    KW_PRESTATE,
    KW_PRE_DISLODGED,
    KW_PRE_RESULTS,
    KW_ORDERS,
    KW_RESULTS,
    KW_POSTSTATE,
    KW_POST_DISLODGED,
    KW_POST_SAME
} keyword;

/* One line of PRESTATE_RESULTS: a movement order and whether it worked. */
typedef struct prev_result {
    dj_order order;
    bool success;
} prev_result;

/* The unit lists of a case, for dj_casefile.occupied. */
enum { LIST_PRESTATE, LIST_POSTSTATE, LIST_POST_DISLODGED, LIST_DISLODGED,
       LIST_COUNT };

/* A RESULTS line kept as text until END, when the orders are read. */
typedef struct result_line {
    int line;
    bool success;
    int power;
    char text[DJ_CASE_TEXT_MAX];
} result_line;

struct dj_casefile {
    FILE *fp;
    char *path;
    char *mapdir;
    dj_map *map;                /* the current variant's, in loaded[] */
    dj_rules map_rules;         /* defaults with the map's RULE lines */
    /* Every map loaded, kept until the file is closed: a case's map stays
     * valid while later cases are read, and a variant named again is not
     * loaded again.  At most one per map file of the directory. */
    struct loaded_map {
        char variant[DJ_NAME_MAX];
        dj_map *map;
        dj_rules rules;
    } *loaded;
    int nloaded, loaded_cap;
    /* By a line's first byte: the first power of the current map whose
     * name starts so, -1 for none (cf_line_power's first look). */
    signed char power_by_first[256];
    size_t power_len[DJ_MAX_POWERS];  /* each power's name's length */
    /* A name of fewer than POWER_HEAD_BYTES letters with its colon
     * ("England:"), NUL-padded, and a mask of the bytes it has: a line's
     * first POWER_HEAD_BYTES bytes are compared with it at once, whatever
     * the name's length (a loop over the name would end at a different
     * place from line to line, which a processor guesses wrong). */
    uint64_t power_head[DJ_MAX_POWERS];
    uint64_t power_mask[DJ_MAX_POWERS];
    bool done;                  /* end of file, or the map failed */
    int lineno;
    bool pushed_back;           /* hand out the current line again */
    bool too_long;              /* the current line was cut short */
    char rbuf[65536];           /* read from fp: rlen bytes, the first
                                   rpos of them taken */
    size_t rpos, rlen;
    char *hash;                 /* the next '#' in rbuf, NULL: not known */
    char gathered[LINE_MAX_LEN]; /* a line that crosses rbuf's end */
    char *raw;                  /* the line read, in rbuf or gathered */
    size_t rawlen;
    char *cur;                  /* in raw: trimmed, comment cut off */
    char *cur_end;              /* its NUL */

    /* State of the case being read. */
    keyword section;            /* the open section, KW_NONE before one */
    bool owners_seen;
    int nresults;
    prev_result results[DJ_CASE_MAX_ORDERS];   /* PRESTATE_RESULTS */
    int nexpected;
    result_line expected[DJ_CASE_MAX_ORDERS];  /* RESULTS' orders */
    /* Which provinces each unit list of the case holds (one unit per
     * province): province p is in list k when occupied[k][p] == case_seq,
     * so a new case clears them all by counting on. */
    unsigned case_seq;
    unsigned occupied[LIST_COUNT][DJ_MAX_LOCS];
};

/* ---- case_text.c: what both halves use --------------------------------- */

/* An ASCII letter in lower case (any other byte as it is). */
static inline char cf_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c + ('a' - 'A')) : c;
}

/* "file:line: message" into err. */
void cf_errorf(const dj_casefile *cf, int line, char *err, size_t errlen,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Case-insensitive comparisons of ASCII words. */
bool cf_equal_nocase(const char *a, const char *b);
bool cf_prefix_nocase(const char *prefix, const char *s);

/* ---- case_lines.c -------------------------------------------------------- */

/* "Spring 1901, Movement" or "Spring 1901 (Movement)". */
bool cf_parse_phase(const char *text, dj_phase *ph, char *msg, size_t len);

/* A "Power: ..." line of the open section (cf->cur, cut in place);
 * `power` is the line's (line_power in casefile.c), or -1 to look the
 * power up. */
bool cf_section_line(dj_casefile *cf, dj_case *c, int power, char *msg,
                     size_t len);

/* At END: the orders read in the case's phase, the expectations matched
 * with them, the dislodged units' retreats worked out. */
bool cf_finish_case(dj_casefile *cf, dj_case *c, char *err, size_t errlen);

#endif
