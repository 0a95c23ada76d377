/* SPDX-License-Identifier: MIT */
/*
 * map_flow.c — see map_flow.h.
 */
#include "map_flow.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WALK_PHASES 48 /* phases walked to see the shape settle */

static bool same_word(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (toupper((unsigned char)*a) != toupper((unsigned char)*b))
            return false;
    return *a == *b;
}

/* A whole decimal number within [lo, hi]. */
static bool number(const char *s, size_t len, int lo, int hi, int *out)
{
    long v = 0;
    if (len == 0 || len > 6)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        v = v * 10 + (s[i] - '0');
    }
    if (v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

/* MOVEMENT, RETREATS, ADJUSTMENTS (and their usual spellings) -> letter. */
static char phase_letter(const char *w, size_t len)
{
    static const struct {
        const char *word;
        char letter;
    } words[] = {{"MOVEMENT", 'M'},   {"MOVEMENTS", 'M'}, {"RETREATS", 'R'},
                 {"RETREAT", 'R'},    {"ADJUSTMENTS", 'A'},
                 {"ADJUSTMENT", 'A'}, {"BUILDS", 'A'}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        const char *k = words[i].word;
        if (strlen(k) != len)
            continue;
        size_t j = 0;
        while (j < len && toupper((unsigned char)w[j]) == k[j])
            j++;
        if (j == len)
            return words[i].letter;
    }
    return 0;
}

static bool flow_fail(char *err, size_t errlen, const char *what,
                      const char *arg)
{
    if (err && errlen)
        snprintf(err, errlen, "FLOW %s: %s", arg, what);
    return false;
}

static dj_flow_entry *new_entry(dj_flow *f)
{
    if (f->n == DJ_FLOW_MAX)
        return NULL;
    dj_flow_entry *e = &f->e[f->n++];
    memset(e, 0, sizeof *e);
    return e;
}

bool dj_flow_add(dj_flow *f, const char *arg, char *err, size_t errlen)
{
    const char *colon = strchr(arg, ':');
    size_t head = colon ? (size_t)(colon - arg) : strlen(arg);
    const char *rest = colon ? colon + 1 : "";
    if (colon && strchr(rest, ':'))
        return flow_fail(err, errlen, "more than one ':'", arg);
    if (head == 7 && strncmp(arg, "NEWYEAR", 7) == 0) {
        int years = 1;
        if (colon && !number(rest, strlen(rest), 1, 1000, &years))
            return flow_fail(err, errlen,
                             "NEWYEAR takes a number of years from 1 to 1000",
                             arg);
        dj_flow_entry *e = new_entry(f);
        if (!e)
            return flow_fail(err, errlen, "too many FLOW entries", arg);
        e->kind = FLOW_NEWYEAR;
        e->n = years;
        return true;
    }
    if (!colon)
        return flow_fail(err, errlen, "needs SEASON:PHASE,... (a ':')", arg);
    if (head == 9 && strncmp(arg, "IFYEARDIV", 9) == 0) {
        const char *eq = strchr(rest, '=');
        int d, m = 0;
        size_t dlen = eq ? (size_t)(eq - rest) : strlen(rest);
        if (!number(rest, dlen, 1, 100000, &d) ||
            (eq && !number(eq + 1, strlen(eq + 1), 0, d - 1, &m)))
            return flow_fail(err, errlen,
                             "IFYEARDIV takes a divisor, or DIVISOR=REMAINDER "
                             "with the remainder below the divisor",
                             arg);
        dj_flow_entry *e = new_entry(f);
        if (!e)
            return flow_fail(err, errlen, "too many FLOW entries", arg);
        e->kind = FLOW_IFYEARDIV;
        e->n = d;
        e->mod = m;
        return true;
    }
    if (head == 0 || head >= DJ_FLOW_WORD_MAX)
        return flow_fail(err, errlen,
                         "a season needs a name of 1 to 23 characters", arg);
    for (const char *p = rest; *p || p == rest;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char letter = phase_letter(p, len);
        if (!letter)
            return flow_fail(err, errlen,
                             "phases are MOVEMENT, RETREATS or ADJUSTMENTS",
                             arg);
        for (int i = 0; i < f->n; i++)
            if (f->e[i].kind == FLOW_PHASE && f->e[i].type == letter &&
                strlen(f->e[i].season) == head &&
                strncmp(f->e[i].season, arg, head) == 0)
                return flow_fail(err, errlen, "a phase in the flow twice", arg);
        dj_flow_entry *e = new_entry(f);
        if (!e)
            return flow_fail(err, errlen, "too many FLOW entries", arg);
        e->kind = FLOW_PHASE;
        memcpy(e->season, arg, head);
        e->season[head] = '\0';
        e->type = letter;
        if (!comma)
            break;
        p = comma + 1;
    }
    return true;
}

/* The flow as DPjudge walks it: NEWYEAR first when it names none. */
static void effective(const dj_flow *f, dj_flow *out)
{
    bool has_newyear = false;
    for (int i = 0; i < f->n; i++)
        has_newyear = has_newyear || f->e[i].kind == FLOW_NEWYEAR;
    out->n = 0;
    if (!has_newyear) {
        dj_flow_entry *e = &out->e[out->n++];
        memset(e, 0, sizeof *e);
        e->kind = FLOW_NEWYEAR;
        e->n = 1;
    }
    for (int i = 0; i < f->n && out->n < DJ_FLOW_MAX; i++)
        out->e[out->n++] = f->e[i];
}

/* From entry *at in year *year, the next phase entry (DPjudge's walk);
 * false when the flow has none to reach. */
static bool next_phase(const dj_flow *f, int *at, int *year)
{
    int which = (*at + 1) % f->n;
    for (int steps = 0; steps < 4 * f->n + 4; steps++) {
        const dj_flow_entry *e = &f->e[which];
        if (e->kind == FLOW_IFYEARDIV) {
            if (*year % e->n != e->mod)
                which = -1;
        } else if (e->kind == FLOW_NEWYEAR) {
            if (*year > 1000000)
                return false;
            *year += e->n;
        } else {
            *at = which;
            return true;
        }
        which = (which + 1) % f->n;
    }
    return false;
}

typedef struct walked {
    char type; /* 'M' or 'A' */
    int year;
    const char *season; /* the flow's word for it */
} walked;

bool dj_flow_compile(const dj_flow *given, const char *season, int year,
                     const char *type, dj_flow_year *out, char *err,
                     size_t errlen)
{
    dj_flow f;
    effective(given, &f);
    char letter = phase_letter(type, strlen(type));
    int at = -1;
    for (int i = 0; i < f.n && at < 0; i++)
        if (f.e[i].kind == FLOW_PHASE && f.e[i].type == letter &&
            same_word(f.e[i].season, season))
            at = i;
    if (at < 0 || letter == 'R') {
        if (err && errlen)
            snprintf(err, errlen,
                     "BEGIN %s %d %s: no such movement or adjustment phase "
                     "in the FLOW",
                     season, year, type);
        return false;
    }

    /* Walk, keeping movement and adjustment phases; each movement must be
     * followed by its retreats. */
    walked w[WALK_PHASES];
    int nw = 0, y = year;
    char prev = 0;
    w[nw++] = (walked){letter, y, f.e[at].season};
    prev = letter;
    int retreats_in_a_row = 0; /* a flow may circle on RETREATS alone */
    while (nw < WALK_PHASES) {
        if (!next_phase(&f, &at, &y) || retreats_in_a_row > f.n) {
            if (err && errlen)
                snprintf(err, errlen, "FLOW: the flow never comes back to a "
                                      "phase");
            return false;
        }
        char t = f.e[at].type;
        if (prev == 'M' && t != 'R') {
            if (err && errlen)
                snprintf(err, errlen, "FLOW: every MOVEMENT must be followed "
                                      "by its RETREATS");
            return false;
        }
        prev = t;
        retreats_in_a_row = t == 'R' ? retreats_in_a_row + 1 : 0;
        if (t != 'R')
            w[nw++] = (walked){t, y, f.e[at].season};
    }

    /* The shape: (Spring M, Fall M, Winter A) over and over. */
    int first = w[0].type == 'A'   ? 2
                : w[1].type == 'A' ? 1
                                   : 0;
    int to_fall = -1, to_spring = -1;
    bool ok = true;
    for (int i = 0; ok && i < nw; i++) {
        int slot = (first + i) % 3;
        ok = w[i].type == (slot == 2 ? 'A' : 'M');
        if (!ok || i == 0)
            continue;
        int d = w[i].year - w[i - 1].year;
        if (slot == 1) { /* Spring -> Fall */
            ok = d >= 0 && (to_fall < 0 || d == to_fall);
            to_fall = d;
        } else if (slot == 2) { /* Fall -> Winter: the same year */
            ok = d == 0;
        } else { /* Winter -> Spring */
            ok = d >= 1 && (to_spring < 0 || d == to_spring);
            to_spring = d;
        }
    }
    if (!ok || to_fall < 0 || to_spring < 0) {
        if (err && errlen)
            snprintf(err, errlen,
                     "FLOW: only flows of two movement turns then "
                     "adjustments, with steady year steps, are played (the "
                     "phases of this one go %c%d %c%d %c%d %c%d ...)",
                     w[0].type, w[0].year, w[1].type, w[1].year, w[2].type,
                     w[2].year, w[3].type, w[3].year);
        return false;
    }
    for (int i = 0; i < 3; i++) /* the first full round names them */
        snprintf(out->season[(first + i) % 3], sizeof out->season[0], "%s",
                 w[i].season);
    out->start_season = first;
    out->start_type = letter == 'A' ? 2 : 0;
    out->start_year = year;
    out->years_to_fall = to_fall;
    out->years_to_spring = to_spring;
    return true;
}
