/* SPDX-License-Identifier: MIT */
/*
 * rules.h — the disputable rules of DATC chapter 4, as per-game options.
 *
 * Each option is a small letter choice, exactly as lettered in the DATC
 * ('a', 'b', ...).  A few options are rules of variants rather than DATC
 * issues; their "issue" is V.1, V.2, ... and their default is the
 * standard game's rule.  dj_rules_default() gives the DATC's preferred choice of
 * each; rules.c holds the table of names, choices and one-line explanations
 * that `judgectl rules` prints.
 */
#ifndef DJ_ENGINE_RULES_H
#define DJ_ENGINE_RULES_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    DJ_RULE_MULTI_ROUTE_DISRUPTION, /* 4.A.1 */
    DJ_RULE_CONVOY_PARADOX,         /* 4.A.2 */
    DJ_RULE_ADJACENT_CONVOY,        /* 4.A.3 */
    DJ_RULE_CONVOY_SELF_CUT,        /* 4.A.4 */
    DJ_RULE_CONVOY_RETREAT,         /* 4.A.5 */
    DJ_RULE_CONVOY_PATH,            /* 4.A.6 */
    DJ_RULE_DISLODGED_BOUNCE,       /* 4.A.7 */
    DJ_RULE_COAST_TWO_OMITTED,      /* 4.B.1 */
    DJ_RULE_COAST_ONE_OMITTED,      /* 4.B.2 */
    DJ_RULE_COAST_IMPOSSIBLE,       /* 4.B.3 */
    DJ_RULE_COAST_IN_SUPPORT,       /* 4.B.4 */
    DJ_RULE_COAST_WRONG_UNIT,       /* 4.B.5 */
    DJ_RULE_COAST_UNKNOWN,          /* 4.B.6 */
    DJ_RULE_COAST_IN_BUILD,         /* 4.B.7 */
    DJ_RULE_UNIT_MISSING,           /* 4.C.1 */
    DJ_RULE_UNIT_WRONG,             /* 4.C.2 */
    DJ_RULE_BUILD_UNIT_MISSING,     /* 4.C.3 */
    DJ_RULE_BUILD_FLEET_LAND,       /* 4.C.4 */
    DJ_RULE_NATIONALITY_MISSING,    /* 4.C.5 */
    DJ_RULE_NATIONALITY_WRONG,      /* 4.C.6 */
    DJ_RULE_MULTIPLE_ORDERS,        /* 4.D.3 */
    DJ_RULE_TOO_MANY_BUILDS,        /* 4.D.4 */
    DJ_RULE_BUILD_SAME_AREA,        /* 4.D.5 */
    DJ_RULE_TOO_MANY_DISBANDS,      /* 4.D.6 */
    DJ_RULE_WAIVE,                  /* 4.D.7 */
    DJ_RULE_CIVIL_DISORDER_REMOVAL, /* 4.D.8 */
    DJ_RULE_CIVIL_DISORDER_SUPPORT, /* 4.D.9 */
    DJ_RULE_ILLEGAL_ORDERS,         /* 4.E.1 */
    DJ_RULE_IMPLICIT_ORDERS,        /* 4.E.3 */
    /* Rules of variants (issue "V.n"), not disputes of the DATC. */
    DJ_RULE_BUILD_SITES,            /* V.1: DPjudge BUILD_ANY, HOME_BUILDS */
    DJ_RULE_COUNT
} dj_rule_id;

typedef struct dj_rules {
    char choice[DJ_RULE_COUNT]; /* 'a', 'b', ... */
} dj_rules;

typedef struct dj_rule_info {
    dj_rule_id id;
    const char *name;     /* option name used in RULE lines: "convoy_paradox" */
    const char *issue;    /* "4.A.2" */
    const char *choices;  /* valid letters: "abcdef" */
    char preferred;       /* the DATC's preferred choice */
    const char *summary;  /* one line for `judgectl rules` */
    const char *const *choice_text; /* one short line per choice */
} dj_rule_info;

void dj_rules_default(dj_rules *rules);

/* The table, indexed by dj_rule_id. */
const dj_rule_info *dj_rule_table(void);

/* Find a rule by name or by DATC issue number ("4.A.2"); NULL if none. */
const dj_rule_info *dj_rule_find(const char *name);

/*
 * Apply "name=value" (value a choice letter, or a choice alias such as
 * "szykman").  Returns false and writes a message on error.
 */
bool dj_rules_set(dj_rules *rules, const char *assignment, char *err,
                  size_t errlen);

static inline char dj_rule(const dj_rules *rules, dj_rule_id id)
{
    return rules->choice[id];
}

#endif
