/* SPDX-License-Identifier: MIT */
/*
 * test_engine_random.c — the engine against random phases: invariants that
 * must hold whatever the orders, independence from the order in which units
 * and orders are listed, from the powers' numbers, and locality.
 *
 * Usage: test_engine_random SRCDIR                 (`make check`)
 *        test_engine_random SRCDIR --case FILE...  (check the pre-states of
 *                                                   case files the same way)
 *
 * Movement phases come from the benchmark's generator (bench/corpus.c, a
 * different seed); some are made harder: denser (a second corpus phase
 * merged in), "chaos" (more supports, moves into occupied provinces,
 * convoys along chains of fleets), sea battles (fleets on most seas),
 * convoy paradoxes planted (DATC 6.F.14-like), order noise (repeated and
 * conflicting orders, wrong power, unit type missing or wrong, coast
 * missing, orders for empty provinces), a power in civil disorder, and a
 * quarter of the phases under random choices of the chapter-4 rules.  For
 * each movement phase:
 *   - dj_adjudicate returns 0, twice, and the two results are the same field
 *     for field (the result buffers are filled with different garbage first,
 *     so a field the engine forgets to set shows up);
 *   - units are conserved: units + dislodged + destroyed = units before;
 *   - the board agrees with the order results: a unit is where its
 *     successful move took it, or where it stood, or dislodged there;
 *   - no province holds two units; every unit stands where its type may;
 *   - every moved unit went somewhere adjacent, or (an army) was convoyed;
 *   - every dislodged unit's province now holds its dislodger, of another
 *     power, which came from attacker_from by a successful move with more
 *     strength than the defence; by_convoy only for armies, and always for
 *     an army that could not walk there;
 *   - retreat options are exactly the adjacent locations that are empty,
 *     not contested and not the attacker's province (unless by convoy,
 *     4.A.5 b); a destroyed unit really had none;
 *   - contested provinces are empty and saw a standoff, and (preferred
 *     rules) every empty province a legal move bounced from is contested;
 *   - (preferred rules) a support attacked from elsewhere by another power
 *     is cut, and an unopposed move into an empty province succeeds;
 *   - the calendar and centre ownership advance correctly;
 *   - ORDER INDEPENDENCE: the units and the orders are shuffled (NPERMS
 *     times) and the phase adjudicated again: the next position (as a set of
 *     units, dislodged units with their retreats, owners), the contested
 *     provinces, the judge's own orders and every order's result (mapped
 *     back) must be the same;
 *   - the same with the powers renumbered, and in the other season (but for
 *     calendar and centres);
 *   - LOCALITY: units whose orders never come near each other are split
 *     into groups, each adjudicated alone; the pieces must make the whole.
 * A movement result with dislodged units then gives a retreat phase, with
 * random retreats (including clashes, illegal ones, duplicates and orders
 * from the wrong power) and disbands, checked against a model of the rules
 * and for independence from the order of units, dislodged units and orders
 * and from the powers' numbers.  Each movement phase's units also give an
 * adjustment phase: centres change hands at random so that powers build or
 * remove, with random legal and illegal builds, removals and waives
 * (sometimes none); builds only on owned vacant home centres, unit counts
 * as the rules say, the first legal orders used, order independence
 * (orders of one power keep their relative order, since it matters).
 *
 * A phase that fails is printed (the first MAX_DUMPS of them) as a case
 * file (tests/datc format) so it can be reproduced with `judgectl check
 * --verbose`; for an order-dependence failure two cases, one per ordering,
 * each expecting what the OTHER ordering gave, so both fail and show the
 * difference; for a locality failure the whole phase expecting what the
 * groups gave apart.
 *
 * Environment:
 *   DJ_RANDOM_PHASES   movement phases to generate (default 3000)
 *   DJ_RANDOM_SEED     generator seed (default below), decimal or 0x hex
 *   DJ_RANDOM_PERMS    shuffled listings per phase (default 3)
 *   DJ_RANDOM_RULES    percent of phases under random rule choices (25)
 *   DJ_RANDOM_PLAIN    1: corpus phases only, nothing made harder
 *   DJ_RANDOM_CASEDIR  also write failing phases to DIR/<kind>-<n>.txt (up
 *                      to MAX_FILES_PER_CHECK per failing check)
 *   DJ_RANDOM_DUMP     write every phase (passing too) there: a test of the
 *                      case-file writer itself
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/corpus.h"
#include "../../bench/hard.h"
#include "casefile/casefile.h"
#include "engine/adjudicate.h"
#include "testlib.h"

#define DEFAULT_PHASES 3000
#define SEED UINT64_C(0x7e57ab1e0f1901)
#define NPERMS 3
#define CASE_NPERMS 50 /* permutations per case in --case mode */
#define MAX_DUMPS 10   /* failing phases printed in full on stderr */
#define MAX_MESSAGES 400
#define MAX_FILES_PER_CHECK 20 /* phases written to DJ_RANDOM_CASEDIR */
#define MAX_PER_CHECK 3 /* messages and dumps printed per failing check */

static const dj_map *map;
static dj_rules rules;
static bool default_rules = true;
static corpus_rng rng; /* the test's own draws: orders, permutations */
static const char *casedir;
static bool dump_all;
static int nperms = NPERMS;

/* A phase to adjudicate: a position and its orders. */
typedef hard_phase phase_input;

/* The movement phase a retreat phase came from (for PRESTATE_RESULTS). */
typedef struct movement_origin {
    const phase_input *in;
    const dj_result *res;
} movement_origin;

/* The phase being checked. */
static struct {
    const char *kind; /* "movement", "retreat", "adjustment" */
    long number;
    bool failed;
    int nlines, lines[16]; /* the checks that failed (source lines) */
    char notes[8192];
    size_t nnotes;
} cur;

static long nmessages, nfailed_phases, ndumped;
static long count_movement, count_retreat, count_adjustment;
static long count_dislodged, count_destroyed, count_retreats_ok;
static long count_builds, count_removals, count_autoremovals;
static long count_split;    /* movement phases checked for locality */
static long count_flag[10]; /* movement order results per DJ_RF_ bit */

/* ---- failures ------------------------------------------------------------ */

/* Messages printed per check (source line): the same failure in every
 * phase would drown the others. */
static int line_count[4096];

static void note_at(int line, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void note_at(int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int *seen = &line_count[line & 4095];
    bool known = false;
    for (int i = 0; i < cur.nlines; i++)
        known |= cur.lines[i] == line;
    if (!known && cur.nlines < 16)
        cur.lines[cur.nlines++] = line;
    if (nmessages < MAX_MESSAGES && (*seen)++ < MAX_PER_CHECK) {
        nmessages++;
        fprintf(stderr, "%s phase %ld: %s\n", cur.kind, cur.number, msg);
        if (*seen == MAX_PER_CHECK)
            fprintf(stderr, "(no more messages from line %d)\n", line);
    }
    size_t room = sizeof cur.notes - cur.nnotes;
    if (room > 1) {
        int n = snprintf(cur.notes + cur.nnotes, room, "# %s\n", msg);
        if (n > 0)
            cur.nnotes += (size_t)n < room ? (size_t)n : room - 1;
    }
}

#define EXPECT(cond, ...)                                                      \
    do {                                                                       \
        if (cond) {                                                            \
            test_passed++;                                                     \
        } else {                                                               \
            test_failed++;                                                     \
            cur.failed = true;                                                 \
            note_at(__LINE__, __VA_ARGS__);                                    \
        }                                                                      \
    } while (0)

static void begin_phase(const char *kind, long number)
{
    cur.kind = kind;
    cur.number = number;
    cur.failed = false;
    cur.nlines = 0;
    cur.nnotes = 0;
    cur.notes[0] = '\0';
}

/* ---- text ---------------------------------------------------------------- */

static const char *loc_name(int loc)
{
    return loc >= 0 && loc < map->nlocs ? map->locs[loc].abbr : "?";
}

static const char *power_name(int p)
{
    return p >= 0 && p < map->npowers ? map->powers[p].name : "?";
}

static const char *letter(dj_unit_type t)
{
    return t == DJ_ARMY ? "A" : t == DJ_FLEET ? "F" : "";
}

static void unit_text(const dj_unit *u, char *buf, size_t len)
{
    snprintf(buf, len, "%s: %s %s", power_name(u->power), letter(u->type),
             loc_name(u->loc));
}

/* An order in our case-file notation, without the power. */
static void order_text(const dj_order *o, char *buf, size_t len)
{
    const char *t = letter(o->unit_type);
    const char *sp = *t ? " " : "";
    switch (o->kind) {
    case DJ_ORDER_HOLD:
        snprintf(buf, len, "%s%s%s H", t, sp, loc_name(o->loc));
        break;
    case DJ_ORDER_MOVE:
    case DJ_ORDER_RETREAT:
        snprintf(buf, len, "%s%s%s-%s%s", t, sp, loc_name(o->loc),
                 loc_name(o->dest), o->via_convoy ? " via convoy" : "");
        break;
    case DJ_ORDER_SUPPORT: {
        const char *tt = letter(o->target_type);
        if (o->dest >= 0)
            snprintf(buf, len, "%s%s%s S %s%s%s-%s", t, sp, loc_name(o->loc),
                     tt, *tt ? " " : "", loc_name(o->target),
                     loc_name(o->dest));
        else
            snprintf(buf, len, "%s%s%s S %s%s%s", t, sp, loc_name(o->loc), tt,
                     *tt ? " " : "", loc_name(o->target));
        break;
    }
    case DJ_ORDER_CONVOY:
        snprintf(buf, len, "%s%s%s C %s %s-%s", t, sp, loc_name(o->loc),
                 letter(o->target_type), loc_name(o->target),
                 loc_name(o->dest));
        break;
    case DJ_ORDER_DISBAND:
        snprintf(buf, len, "Disband %s%s%s", t, sp, loc_name(o->loc));
        break;
    case DJ_ORDER_BUILD:
        snprintf(buf, len, "Build %s%s%s", t, sp, loc_name(o->loc));
        break;
    case DJ_ORDER_REMOVE:
        snprintf(buf, len, "Remove %s%s%s", t, sp, loc_name(o->loc));
        break;
    case DJ_ORDER_WAIVE:
        snprintf(buf, len, "Waive");
        break;
    default:
        snprintf(buf, len, "?");
        break;
    }
}

static void order_line(const dj_order *o, char *buf, size_t len)
{
    char text[128];
    order_text(o, text, sizeof text);
    snprintf(buf, len, "%s: %s", power_name(o->power), text);
}

static void flags_text(const dj_order_result *r, char *buf, size_t len)
{
    static const char *const names[] = {
        "bounce",  "cut",     "void",      "no-convoy", "dislodged",
        "illegal", "paradox", "disrupted", "destroyed", "ignored"};
    size_t n = 0;
    buf[0] = '\0';
    n += (size_t)snprintf(buf, len, "%s", r->success ? "success" : "failure");
    for (int b = 0; b < 10 && n < len; b++)
        if (r->flags & (1u << b))
            n += (size_t)snprintf(buf + n, len - n, " %s", names[b]);
    if (r->why != DJ_WHY_NONE && n < len)
        snprintf(buf + n, len - n, " (%s)", dj_why_text(r->why));
}

/* ---- case files ---------------------------------------------------------- */

static void put_unit(FILE *f, const dj_unit *u)
{
    char buf[96];
    unit_text(u, buf, sizeof buf);
    fprintf(f, "%s\n", buf);
}

static void put_rules(FILE *f)
{
    if (default_rules)
        return;
    dj_rules def;
    dj_rules_default(&def);
    const dj_rule_info *t = dj_rule_table();
    for (int i = 0; i < DJ_RULE_COUNT; i++)
        if (rules.choice[i] != def.choice[i])
            fprintf(f, "RULE %s=%c\n", t[i].issue, rules.choice[i]);
}

/* A movement order of the phase before, written for PRESTATE_RESULTS. */
static void put_result_line(FILE *f, const dj_order *o, bool success)
{
    char buf[160];
    order_line(o, buf, sizeof buf);
    fprintf(f, "%s: %s\n", success ? "SUCCESS" : "FAILURE", buf);
}

/* PRESTATE_RESULTS for a retreat phase: the moves that dislodged, and one
 * failed move into each contested province. */
static void put_results(FILE *f, const phase_input *in,
                        const movement_origin *origin)
{
    const dj_position *pos = &in->pos;
    fprintf(f, "PRESTATE_RESULTS\n");
    for (int d = 0; d < pos->ndislodged; d++) {
        const dj_dislodged *dd = &pos->dislodged[d];
        int prov = dj_province(map, dd->unit.loc);
        bool done = false;
        if (origin) {
            for (int k = 0; k < origin->in->norders && !done; k++) {
                const dj_order *o = &origin->in->orders[k];
                if (o->kind == DJ_ORDER_MOVE &&
                    origin->res->orders[k].success &&
                    dj_province(map, o->loc) == dd->attacker_from &&
                    dj_province(map, o->dest) == prov) {
                    put_result_line(f, o, true);
                    done = true;
                }
            }
        }
        if (!done) {
            int a = dj_position_unit_at(map, pos, prov);
            if (a < 0 || dd->attacker_from < 0)
                continue;
            dj_order o = dj_order_make(DJ_ORDER_MOVE, pos->units[a].power,
                                       pos->units[a].type, dd->attacker_from);
            o.dest = (int16_t)prov;
            o.via_convoy = dd->by_convoy;
            put_result_line(f, &o, true);
        }
    }
    if (!origin)
        return;
    for (int p = 0; p < map->nlocs; p++) {
        if (!origin->res->contested[p])
            continue;
        for (int k = 0; k < origin->in->norders; k++) {
            const dj_order *o = &origin->in->orders[k];
            if (o->kind == DJ_ORDER_MOVE && !origin->res->orders[k].success &&
                o->dest >= 0 && dj_province(map, o->dest) == p) {
                put_result_line(f, o, false);
                break;
            }
        }
    }
}

static bool is_centre(int prov)
{
    return map->is_sc[prov];
}

/* One case: `in` as the pre-state, `post` as the expected result. */
static void put_case(FILE *f, const char *name, const char *comment,
                     const phase_input *in, const dj_result *post,
                     const movement_origin *origin)
{
    const dj_position *pos = &in->pos;
    fprintf(f, "\nCASE %s\n", name);
    if (comment)
        fputs(comment, f);
    if (pos->civil_disorder) {
        fprintf(f, "# NOT IN THIS FILE (the format cannot say it): in civil "
                   "disorder:");
        for (int p = 0; p < map->npowers; p++)
            if (pos->civil_disorder >> p & 1u)
                fprintf(f, " %s", power_name(p));
        fprintf(f, "\n");
    }
    put_rules(f);
    dj_phase shown = pos->phase;
    fprintf(f, "PRESTATE_SETPHASE %s %d, %s\n",
            shown.season == DJ_SPRING ? "Spring"
            : shown.season == DJ_FALL ? "Fall"
                                      : "Winter",
            shown.year, dj_phase_type_name(shown.type));
    if (pos->phase.type == DJ_ADJUSTMENT) {
        fprintf(f, "PRESTATE_SUPPLYCENTER_OWNERS\n");
        for (int p = 0; p < map->nlocs; p++)
            if (dj_province(map, p) == p && is_centre(p) && pos->owner[p] >= 0)
                fprintf(f, "%s: %s %s\n", power_name(pos->owner[p]),
                        map->locs[p].army_ok ? "A" : "F", map->locs[p].abbr);
    }
    fprintf(f, "PRESTATE\n");
    for (int i = 0; i < pos->nunits; i++)
        put_unit(f, &pos->units[i]);
    if (pos->phase.type == DJ_RETREAT) {
        fprintf(f, "PRESTATE_DISLODGED\n");
        for (int i = 0; i < pos->ndislodged; i++)
            put_unit(f, &pos->dislodged[i].unit);
        put_results(f, in, origin);
    }
    fprintf(f, "ORDERS\n");
    for (int k = 0; k < in->norders; k++) {
        char buf[160];
        order_line(&in->orders[k], buf, sizeof buf);
        fprintf(f, "%s\n", buf);
    }
    fprintf(f, "POSTSTATE\n");
    for (int i = 0; i < post->next.nunits; i++)
        put_unit(f, &post->next.units[i]);
    if (pos->phase.type == DJ_MOVEMENT && post->next.ndislodged > 0) {
        fprintf(f, "POSTSTATE_DISLODGED\n");
        for (int i = 0; i < post->next.ndislodged; i++)
            put_unit(f, &post->next.dislodged[i].unit);
    }
    fprintf(f, "END\n");
}

/*
 * Write a failing phase: one case, or (b given) two, one per ordering, each
 * expecting what the other ordering gave.
 */
/* Replaces the POSTSTATE comment of a single-case dump. */
static const char *dump_comment;

static void dump_phase(const phase_input *a, const dj_result *ra,
                       const phase_input *b, const dj_result *rb,
                       const movement_origin *origin)
{
    FILE *outs[2] = {NULL, NULL};
    char path[1024];
    /* Only phases that fail a check not already shown many times. */
    static int shown[4096], written[4096];
    bool show = false, write = false;
    for (int i = 0; i < cur.nlines; i++) {
        int l = cur.lines[i] & 4095;
        show |= shown[l] < MAX_PER_CHECK;
        write |= written[l] < MAX_FILES_PER_CHECK;
    }
    for (int i = 0; i < cur.nlines; i++) {
        shown[cur.lines[i] & 4095] += show;
        written[cur.lines[i] & 4095] += write;
    }
    if (show && ndumped < MAX_DUMPS) {
        ndumped++;
        outs[0] = stderr;
    }
    if (casedir && write) {
        snprintf(path, sizeof path, "%s/%s-%ld%s.txt", casedir, cur.kind,
                 cur.number, b ? "-order" : "");
        outs[1] = fopen(path, "w");
        if (!outs[1])
            fprintf(stderr, "cannot write %s\n", path);
    }
    for (int k = 0; k < 2; k++) {
        FILE *f = outs[k];
        if (!f)
            continue;
        if (f == stderr)
            fprintf(f, "---- %s phase %ld as a case file ----\n", cur.kind,
                    cur.number);
        fprintf(f, "VARIANT_ALL Standard\n");
        fprintf(f, "# test_engine_random: %s phase %ld\n", cur.kind,
                cur.number);
        fputs(cur.notes, f);
        char name[128];
        if (b) {
            fprintf(f, "# The same phase listed in two orders: each case "
                       "expects the POSTSTATE the OTHER\n# ordering gave, so "
                       "both fail and show how the outcomes differ.\n");
            snprintf(name, sizeof name, "random %s %ld, ordering 1", cur.kind,
                     cur.number);
            put_case(f, name, "# POSTSTATE: what ordering 2 gave\n", a, rb,
                     origin);
            snprintf(name, sizeof name, "random %s %ld, ordering 2", cur.kind,
                     cur.number);
            put_case(f, name, "# POSTSTATE: what ordering 1 gave\n", b, ra,
                     origin);
        } else {
            snprintf(name, sizeof name, "random %s %ld", cur.kind, cur.number);
            put_case(f, name,
                     dump_comment ? dump_comment
                                  : "# POSTSTATE: what the engine gave\n",
                     a, ra, origin);
        }
        if (f == stderr)
            fprintf(f, "---- end ----\n");
        else
            fclose(f);
    }
}

/* DJ_RANDOM_DUMP: every phase, to check the case-file writer. */
static void dump_passing(const phase_input *in, const dj_result *r,
                         const movement_origin *origin)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/ok-%s-%ld.txt", casedir, cur.kind,
             cur.number);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "VARIANT_ALL Standard\n");
    char name[128];
    snprintf(name, sizeof name, "random %s %ld", cur.kind, cur.number);
    put_case(f, name, NULL, in, r, origin);
    fclose(f);
}

/* ---- small helpers ------------------------------------------------------- */

static int prov_of(int loc)
{
    return loc >= 0 && loc < map->nlocs ? dj_province(map, loc) : -1;
}

static int unit_key(const dj_unit *u)
{
    return (u->power << 16) | ((int)u->type << 12) | u->loc;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static bool same_unit(const dj_unit *a, const dj_unit *b)
{
    return a->power == b->power && a->type == b->type && a->loc == b->loc;
}

static bool may_stand(const dj_unit *u)
{
    if (u->loc < 0 || u->loc >= map->nlocs)
        return false;
    const dj_location *l = &map->locs[u->loc];
    return u->type == DJ_ARMY ? l->army_ok && !l->is_coast
                              : u->type == DJ_FLEET && l->fleet_ok;
}

/* Provinces holding more than one unit of the list; 0 if none. */
static int doubly_occupied(const dj_unit *units, int n, int *which)
{
    static int seen[DJ_MAX_LOCS];
    static int stamp;
    if (++stamp == 0) {
        memset(seen, 0, sizeof seen);
        stamp = 1;
    }
    for (int i = 0; i < n; i++) {
        int p = prov_of(units[i].loc);
        if (p < 0)
            continue;
        if (seen[p] == stamp) {
            *which = p;
            return 1;
        }
        seen[p] = stamp;
    }
    return 0;
}

/* Check that a list of units has one unit per province. */
static void expect_no_double(const dj_unit *units, int n, const char *what)
{
    int p = -1;
    EXPECT(!doubly_occupied(units, n, &p), "two %s in %s", what, loc_name(p));
}

/* Keys of a unit list, sorted. */
static void sorted_keys(const dj_unit *units, int n, int *keys)
{
    for (int i = 0; i < n; i++)
        keys[i] = unit_key(&units[i]);
    qsort(keys, (size_t)n, sizeof *keys, cmp_int);
}

/* Compare two unit multisets; describe the difference. */
static bool same_units(const dj_unit *a, int na, const dj_unit *b, int nb,
                       char *diff, size_t len)
{
    static int ka[DJ_MAX_UNITS], kb[DJ_MAX_UNITS];
    sorted_keys(a, na, ka);
    sorted_keys(b, nb, kb);
    size_t n = 0;
    diff[0] = '\0';
    int i = 0, j = 0;
    bool same = true;
    while (i < na || j < nb) {
        if (j >= nb || (i < na && ka[i] < kb[j])) {
            dj_unit u = {(int16_t)(ka[i] >> 16), (int16_t)(ka[i] & 0xfff),
                         (dj_unit_type)((ka[i] >> 12) & 0xf)};
            char t[96];
            unit_text(&u, t, sizeof t);
            if (n < len)
                n += (size_t)snprintf(diff + n, len - n, " only-first[%s]", t);
            i++;
            same = false;
        } else if (i >= na || kb[j] < ka[i]) {
            dj_unit u = {(int16_t)(kb[j] >> 16), (int16_t)(kb[j] & 0xfff),
                         (dj_unit_type)((kb[j] >> 12) & 0xf)};
            char t[96];
            unit_text(&u, t, sizeof t);
            if (n < len)
                n += (size_t)snprintf(diff + n, len - n, " only-second[%s]", t);
            j++;
            same = false;
        } else {
            i++;
            j++;
        }
    }
    return same;
}

/* ---- permutations -------------------------------------------------------- */

static void random_perm(int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = corpus_rng_below(&rng, i + 1);
        int t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

/* Within each group (group[original index]), keep the original order:
 * the slots a group occupies are kept, its members put back in order. */
static void keep_group_order(int *perm, int n, const int *group)
{
    static bool done[DJ_MAX_ORDERS];
    memset(done, 0, sizeof(bool) * (size_t)n);
    for (int s = 0; s < n; s++) {
        int g = group[perm[s]];
        if (done[s] || g < 0)
            continue;
        int slots[DJ_MAX_ORDERS], members[DJ_MAX_ORDERS], m = 0;
        for (int t = s; t < n; t++)
            if (!done[t] && group[perm[t]] == g) {
                slots[m] = t;
                members[m] = perm[t];
                m++;
            }
        qsort(members, (size_t)m, sizeof *members, cmp_int);
        for (int k = 0; k < m; k++) {
            perm[slots[k]] = members[k];
            done[slots[k]] = true;
        }
    }
}

typedef struct perm_set {
    int units[DJ_MAX_UNITS]; /* permuted[j] = original[units[j]] */
    int dislodged[DJ_MAX_UNITS];
    int orders[DJ_MAX_ORDERS];
    int order_inv[DJ_MAX_ORDERS]; /* original k -> permuted index */
} perm_set;

/* Group of an order for keep_group_order: the phase's rule of sequence. */
static void order_groups(const phase_input *in, int *group)
{
    for (int k = 0; k < in->norders; k++) {
        const dj_order *o = &in->orders[k];
        if (in->pos.phase.type == DJ_ADJUSTMENT)
            group[k] = o->power;
        else
            group[k] = prov_of(o->loc) >= 0 ? prov_of(o->loc) : DJ_MAX_LOCS + k;
    }
}

static void make_permuted(const phase_input *in, phase_input *out, perm_set *ps)
{
    static int group[DJ_MAX_ORDERS];
    random_perm(ps->units, in->pos.nunits);
    random_perm(ps->dislodged, in->pos.ndislodged);
    random_perm(ps->orders, in->norders);
    order_groups(in, group);
    keep_group_order(ps->orders, in->norders, group);
    for (int j = 0; j < in->norders; j++)
        ps->order_inv[ps->orders[j]] = j;

    out->pos = in->pos;
    for (int j = 0; j < in->pos.nunits; j++)
        out->pos.units[j] = in->pos.units[ps->units[j]];
    for (int j = 0; j < in->pos.ndislodged; j++)
        out->pos.dislodged[j] = in->pos.dislodged[ps->dislodged[j]];
    out->norders = in->norders;
    for (int j = 0; j < in->norders; j++)
        out->orders[j] = in->orders[ps->orders[j]];
}

/* ---- running ------------------------------------------------------------- */

static int run(const phase_input *in, dj_result *out, int fill)
{
    memset(out, fill, sizeof *out);
    return dj_adjudicate(map, &in->pos, in->orders, in->norders, &rules, out);
}

/* ---- determinism: the same input twice, field for field ------------------ */

static bool same_order(const dj_order *a, const dj_order *b)
{
    if (a->kind != b->kind || a->power != b->power ||
        a->unit_type != b->unit_type || a->loc != b->loc ||
        a->target_type != b->target_type || a->target != b->target ||
        a->dest != b->dest || a->via_convoy != b->via_convoy ||
        a->npath != b->npath)
        return false;
    for (int i = 0; i < a->npath && i < DJ_MAX_PATH; i++)
        if (a->path[i] != b->path[i])
            return false;
    return true;
}

static void check_deterministic(const phase_input *in, const dj_result *a,
                                const dj_result *b)
{
    const dj_position *x = &a->next, *y = &b->next;
    EXPECT(x->phase.season == y->phase.season &&
               x->phase.year == y->phase.year && x->phase.type == y->phase.type,
           "determinism: next phase differs");
    EXPECT(x->nunits == y->nunits, "determinism: nunits %d vs %d", x->nunits,
           y->nunits);
    EXPECT(x->ndislodged == y->ndislodged, "determinism: ndislodged %d vs %d",
           x->ndislodged, y->ndislodged);
    bool units = x->nunits == y->nunits;
    for (int i = 0; units && i < x->nunits; i++)
        units = same_unit(&x->units[i], &y->units[i]);
    EXPECT(units, "determinism: next units differ");
    bool dis = x->ndislodged == y->ndislodged;
    for (int i = 0; dis && i < x->ndislodged; i++) {
        const dj_dislodged *p = &x->dislodged[i], *q = &y->dislodged[i];
        dis = same_unit(&p->unit, &q->unit) &&
              p->attacker_from == q->attacker_from &&
              p->by_convoy == q->by_convoy && p->nretreats == q->nretreats;
        for (int k = 0; dis && k < p->nretreats && k < DJ_MAX_RETREATS; k++)
            dis = p->retreats[k] == q->retreats[k];
    }
    EXPECT(dis, "determinism: next dislodged units differ");
    int owner_diff = -1;
    for (int p = 0; p < map->nlocs; p++)
        if (x->owner[p] != y->owner[p])
            owner_diff = p;
    EXPECT(owner_diff < 0, "determinism: owner of %s differs (%d vs %d)",
           loc_name(owner_diff), owner_diff >= 0 ? x->owner[owner_diff] : 0,
           owner_diff >= 0 ? y->owner[owner_diff] : 0);
    EXPECT(x->civil_disorder == y->civil_disorder,
           "determinism: next.civil_disorder %#llx vs %#llx (input %#llx): "
           "not set by the engine?",
           (unsigned long long)x->civil_disorder,
           (unsigned long long)y->civil_disorder,
           (unsigned long long)in->pos.civil_disorder);
    int odiff = -1;
    for (int k = 0; k < in->norders; k++) {
        const dj_order_result *p = &a->orders[k], *q = &b->orders[k];
        if (p->flags != q->flags || p->success != q->success ||
            p->why != q->why || p->unit != q->unit ||
            p->dislodged_by != q->dislodged_by)
            odiff = k;
    }
    EXPECT(a->norders == b->norders && odiff < 0,
           "determinism: result of order %d differs", odiff);
    bool autos = a->nauto == b->nauto;
    for (int i = 0; autos && i < a->nauto; i++)
        autos = same_order(&a->autos[i].order, &b->autos[i].order) &&
                a->autos[i].why == b->autos[i].why;
    EXPECT(autos, "determinism: judge's own orders differ");
    int cdiff = -1;
    for (int p = 0; p < map->nlocs; p++)
        if (a->contested[p] != b->contested[p])
            cdiff = p;
    EXPECT(cdiff < 0, "determinism: contested[%s] differs", loc_name(cdiff));
    EXPECT(a->winner == b->winner, "determinism: winner %d vs %d", a->winner,
           b->winner);
}

/* ---- order independence -------------------------------------------------- */

typedef struct dis_key {
    int unit;
    int attacker_from;
    int by_convoy;
    int nretreats;
    int retreats[DJ_MAX_RETREATS];
} dis_key;

static int cmp_dis(const void *a, const void *b)
{
    return memcmp(a, b, sizeof(dis_key));
}

static void dislodged_keys(const dj_position *pos, dis_key *keys)
{
    for (int i = 0; i < pos->ndislodged; i++) {
        const dj_dislodged *d = &pos->dislodged[i];
        dis_key *k = &keys[i];
        memset(k, 0, sizeof *k);
        k->unit = unit_key(&d->unit);
        k->attacker_from = d->attacker_from;
        k->by_convoy = d->by_convoy;
        k->nretreats = d->nretreats;
        for (int r = 0; r < d->nretreats && r < DJ_MAX_RETREATS; r++)
            k->retreats[r] = d->retreats[r];
        qsort(k->retreats, (size_t)k->nretreats, sizeof(int), cmp_int);
    }
    qsort(keys, (size_t)pos->ndislodged, sizeof *keys, cmp_dis);
}

typedef struct auto_key {
    int kind, power, type, loc, why;
} auto_key;

static int cmp_auto(const void *a, const void *b)
{
    return memcmp(a, b, sizeof(auto_key));
}

static void auto_keys(const dj_result *r, auto_key *keys)
{
    for (int i = 0; i < r->nauto; i++) {
        const dj_order *o = &r->autos[i].order;
        keys[i] = (auto_key){o->kind, o->power, o->unit_type, o->loc,
                             r->autos[i].why};
    }
    qsort(keys, (size_t)r->nauto, sizeof *keys, cmp_auto);
}

static const char *label(int perm)
{
    static char buf[32];
    if (perm == -1)
        return "powers renumbered";
    if (perm == -2)
        return "other season";
    if (perm == -3)
        return "groups apart";
    snprintf(buf, sizeof buf, "ordering %d", perm);
    return buf;
}

/*
 * Same outcome for the original (a) and permuted (b) listing?  `ps` maps
 * the permuted listing back.  Notes every difference; returns true if none.
 */
static bool same_outcome(const phase_input *in, const dj_result *a,
                         const dj_result *b, const perm_set *ps, int perm)
{
    bool same = true;
    char diff[1024];
    const dj_position *x = &a->next, *y = &b->next;

    if (x->phase.season != y->phase.season || x->phase.year != y->phase.year ||
        x->phase.type != y->phase.type) {
        note_at(__LINE__, "%s: next phase differs", label(perm));
        same = false;
    }
    if (!same_units(x->units, x->nunits, y->units, y->nunits, diff,
                    sizeof diff)) {
        note_at(__LINE__, "%s: units after differ:%s", label(perm), diff);
        same = false;
    }
    static dis_key ka[DJ_MAX_UNITS], kb[DJ_MAX_UNITS];
    if (x->ndislodged != y->ndislodged) {
        note_at(__LINE__, "%s: %d vs %d dislodged units", label(perm),
                x->ndislodged, y->ndislodged);
        same = false;
    } else {
        dislodged_keys(x, ka);
        dislodged_keys(y, kb);
        for (int i = 0; i < x->ndislodged; i++)
            if (memcmp(&ka[i], &kb[i], sizeof ka[i]) != 0) {
                note_at(__LINE__,
                        "%s: dislodged units or their retreats differ",
                        label(perm));
                same = false;
                break;
            }
    }
    for (int p = 0; p < map->nlocs; p++)
        if (x->owner[p] != y->owner[p]) {
            note_at(__LINE__, "%s: owner of %s differs", label(perm),
                    loc_name(p));
            same = false;
        }
    for (int p = 0; p < map->nlocs; p++)
        if (a->contested[p] != b->contested[p]) {
            note_at(__LINE__, "%s: contested[%s] %d vs %d", label(perm),
                    loc_name(p), a->contested[p], b->contested[p]);
            same = false;
        }
    if (a->winner != b->winner) {
        note_at(__LINE__, "%s: winner %d vs %d", label(perm), a->winner,
                b->winner);
        same = false;
    }
    static auto_key aa[DJ_MAX_UNITS], ab[DJ_MAX_UNITS];
    if (a->nauto != b->nauto) {
        note_at(__LINE__, "%s: %d vs %d orders made by the judge", label(perm),
                a->nauto, b->nauto);
        same = false;
    } else {
        auto_keys(a, aa);
        auto_keys(b, ab);
        if (a->nauto && memcmp(aa, ab, sizeof aa[0] * (size_t)a->nauto)) {
            note_at(__LINE__, "%s: the judge's own orders differ", label(perm));
            same = false;
        }
    }
    bool retreat = in->pos.phase.type == DJ_RETREAT;
    const int *umap = retreat ? ps->dislodged : ps->units;
    for (int k = 0; k < in->norders; k++) {
        const dj_order_result *p = &a->orders[k];
        const dj_order_result *q = &b->orders[ps->order_inv[k]];
        int qunit = q->unit >= 0 ? umap[q->unit] : -1;
        if (p->success != q->success || p->flags != q->flags ||
            p->why != q->why || p->dislodged_by != q->dislodged_by ||
            p->unit != qunit) {
            char line[160], fa[160], fb[160];
            order_line(&in->orders[k], line, sizeof line);
            flags_text(p, fa, sizeof fa);
            flags_text(q, fb, sizeof fb);
            note_at(__LINE__,
                    "%s: '%s': %s (by %s, unit %d) vs %s (by %s, unit "
                    "%d)",
                    label(perm), line, fa, loc_name(p->dislodged_by), p->unit,
                    fb, loc_name(q->dislodged_by), qunit);
            same = false;
        }
    }
    return same;
}

/* ---- shared phase checks ------------------------------------------------- */

/* Centres after a Fall phase: captured by whoever stands on them. */
static void expect_capture(const dj_position *before, const dj_position *after)
{
    int16_t want[DJ_MAX_LOCS];
    memcpy(want, before->owner, sizeof want);
    for (int i = 0; i < after->nunits; i++) {
        int p = prov_of(after->units[i].loc);
        if (p >= 0 && map->is_sc[p])
            want[p] = after->units[i].power;
    }
    int bad = -1;
    for (int p = 0; p < map->nlocs; p++)
        if (want[p] != after->owner[p])
            bad = p;
    EXPECT(bad < 0, "owner of %s is %d, want %d after the Fall", loc_name(bad),
           bad >= 0 ? after->owner[bad] : 0, bad >= 0 ? want[bad] : 0);
}

static void expect_owner_unchanged(const dj_position *before,
                                   const dj_position *after)
{
    int bad = -1;
    for (int p = 0; p < map->nlocs; p++)
        if (before->owner[p] != after->owner[p])
            bad = p;
    EXPECT(bad < 0, "owner of %s changed outside a Fall", loc_name(bad));
}

/*
 * The winner by the rule, computed from the position itself and not the
 * engine's way (a running maximum with a tie flag): count each power's
 * supply centres from the owner table, then the winner is the one power
 * with at least the victory count and more than every other power.
 */
static int expected_winner(const dj_position *pos)
{
    int count[DJ_MAX_POWERS] = {0};
    for (int l = 0; l < map->nlocs; l++)
        if (map->is_sc[l] && dj_province(map, l) == l && pos->owner[l] >= 0 &&
            pos->owner[l] < map->npowers)
            count[pos->owner[l]]++;
    for (int p = 0; p < map->npowers; p++) {
        if (count[p] < map->victory)
            continue;
        bool ahead = true;
        for (int q = 0; q < map->npowers; q++)
            ahead = ahead && (q == p || count[q] < count[p]);
        if (ahead)
            return p;
    }
    return -1;
}

/* The calendar after a movement or retreat phase that has ended. */
static void expect_phase_end(const dj_position *before, const dj_result *r)
{
    const dj_phase *ph = &before->phase, *nx = &r->next.phase;
    if (ph->season == DJ_SPRING) {
        EXPECT(nx->season == DJ_FALL && nx->year == ph->year &&
                   nx->type == DJ_MOVEMENT,
               "after Spring: next phase %d/%d/%d", nx->season, nx->year,
               nx->type);
        expect_owner_unchanged(before, &r->next);
        EXPECT(r->winner == -1, "winner %d after a Spring", r->winner);
        return;
    }
    expect_capture(before, &r->next);
    int winner = expected_winner(&r->next);
    EXPECT(r->winner == winner, "winner %d, want %d", r->winner, winner);
    bool adjust = false;
    for (int p = 0; p < map->npowers; p++)
        if (dj_adjustment_due(map, &r->next, p) != 0)
            adjust = true;
    if (winner < 0 && adjust)
        EXPECT(nx->season == DJ_WINTER && nx->year == ph->year &&
                   nx->type == DJ_ADJUSTMENT,
               "after Fall with adjustments due: next phase %d/%d/%d",
               nx->season, nx->year, nx->type);
    else
        EXPECT(nx->season == DJ_SPRING && nx->year == ph->year + 1 &&
                   nx->type == DJ_MOVEMENT,
               "after Fall, nothing to adjust: next phase %d/%d/%d", nx->season,
               nx->year, nx->type);
}

/*
 * The retreats a dislodged unit should have: adjacent locations its type
 * can reach whose province is empty in `next`, not contested, and not the
 * attacker's (unless it came by convoy and 4.A.5 b).  Returns the count.
 */
static int expected_retreats(const dj_unit *u, int attacker_from,
                             bool by_convoy, const dj_position *next,
                             const bool *contested, int *out)
{
    int from = u->type == DJ_ARMY ? dj_province(map, u->loc) : u->loc;
    const dj_location *l = &map->locs[from];
    bool excused = by_convoy && dj_rule(&rules, DJ_RULE_CONVOY_RETREAT) == 'b';
    int n = 0;
    for (int i = 0; i < l->nadj; i++) {
        if (!(l->adj[i].types & DJ_TYPE_BIT(u->type)))
            continue;
        int to = l->adj[i].to;
        int p = dj_province(map, to);
        if (dj_position_unit_at(map, next, p) >= 0 || contested[p])
            continue;
        if (p == attacker_from && !excused)
            continue;
        out[n++] = to;
    }
    qsort(out, (size_t)n, sizeof *out, cmp_int);
    return n;
}

/* ---- movement ------------------------------------------------------------ */

static bool land_adjacent(int from, int prov)
{
    return dj_map_reaches_province(map, from, prov, DJ_ARMY);
}

static void check_movement(const phase_input *in, const dj_result *r)
{
    const dj_position *pos = &in->pos, *next = &r->next;
    int n = pos->nunits;
    static bool dislodged[DJ_MAX_UNITS], moved[DJ_MAX_UNITS];
    static int dest[DJ_MAX_UNITS], move_order[DJ_MAX_UNITS];

    /* Order results: the unit they name, and what they say. */
    for (int i = 0; i < n; i++) {
        dislodged[i] = moved[i] = false;
        dest[i] = move_order[i] = -1;
    }
    for (int k = 0; k < in->norders; k++) {
        const dj_order *o = &in->orders[k];
        const dj_order_result *res = &r->orders[k];
        char line[160], fl[160];
        order_line(o, line, sizeof line);
        flags_text(res, fl, sizeof fl);
        int u = res->unit;
        EXPECT(u >= -1 && u < n, "'%s': result names unit %d", line, u);
        if (u < 0 || u >= n)
            continue;
        EXPECT(prov_of(pos->units[u].loc) == prov_of(o->loc),
               "'%s': result names the unit in %s", line,
               loc_name(pos->units[u].loc));
        /* A support spared by 4.A.2 a-c succeeds although its unit is
         * dislodged (notes/engine-bugs/04, 8a5435f). */
        uint16_t spared = o->kind == DJ_ORDER_SUPPORT &&
                                  dj_rule(&rules, DJ_RULE_CONVOY_PARADOX) <= 'c'
                              ? DJ_RF_DISLODGED | DJ_RF_DESTROYED
                              : 0;
        EXPECT(!res->success ||
                   !(res->flags & ~spared &
                     (DJ_RF_BOUNCE | DJ_RF_CUT | DJ_RF_VOID | DJ_RF_NO_CONVOY |
                      DJ_RF_DISLODGED | DJ_RF_ILLEGAL | DJ_RF_DISRUPTED |
                      DJ_RF_DESTROYED | DJ_RF_IGNORED)),
               "'%s': %s: success with a failure flag", line, fl);
        EXPECT(!(res->flags & DJ_RF_DESTROYED) ||
                   (res->flags & DJ_RF_DISLODGED),
               "'%s': %s: destroyed but not dislodged", line, fl);
        EXPECT(!(res->flags & DJ_RF_DISLODGED) == (res->dislodged_by < 0),
               "'%s': %s: dislodged_by %d", line, fl, res->dislodged_by);
        if (res->flags & DJ_RF_DISLODGED)
            dislodged[u] = true;
        if (o->kind == DJ_ORDER_MOVE && res->success) {
            EXPECT(!moved[u] || prov_of(dest[u]) == prov_of(o->dest),
                   "'%s': a second successful move elsewhere", line);
            moved[u] = true;
            dest[u] = o->dest;
            move_order[u] = k;
        }
    }

    /* Conservation. */
    int ndestroyed = 0;
    for (int a = 0; a < r->nauto; a++) {
        EXPECT(r->autos[a].order.kind == DJ_ORDER_DISBAND &&
                   r->autos[a].why == DJ_WHY_NO_RETREAT,
               "judge's order %d in a movement phase is not a disband of a "
               "trapped unit",
               a);
        ndestroyed++;
    }
    EXPECT(next->nunits + next->ndislodged + ndestroyed == n,
           "units not conserved: %d after + %d dislodged + %d destroyed != %d "
           "before",
           next->nunits, next->ndislodged, ndestroyed, n);
    count_dislodged += next->ndislodged + ndestroyed;
    for (int k = 0; k < in->norders; k++)
        for (int b = 0; b < 10; b++)
            if (r->orders[k].flags & (1u << b))
                count_flag[b]++;
    count_destroyed += ndestroyed;

    /* The board agrees with the results: compare per (power, type, province)
     * and, for dislodged units, exact locations. */
    static dj_unit want[DJ_MAX_UNITS], got[DJ_MAX_UNITS];
    static dj_unit want_dis[DJ_MAX_UNITS], got_dis[DJ_MAX_UNITS];
    int nwant = 0, nwant_dis = 0, ngot = 0, ngot_dis = 0;
    for (int i = 0; i < n; i++) {
        dj_unit u = pos->units[i];
        EXPECT(!(dislodged[i] && moved[i]), "unit %d both moved and dislodged",
               i);
        if (dislodged[i]) {
            want_dis[nwant_dis++] = u;
            continue;
        }
        if (moved[i])
            u.loc = (int16_t)prov_of(dest[i]);
        else
            u.loc = (int16_t)prov_of(u.loc);
        want[nwant++] = u;
    }
    for (int i = 0; i < next->nunits && i < DJ_MAX_UNITS; i++) {
        got[ngot] = next->units[i];
        got[ngot].loc = (int16_t)prov_of(got[ngot].loc);
        ngot++;
        EXPECT(may_stand(&next->units[i]),
               "unit stands where it may not: %s %s",
               letter(next->units[i].type), loc_name(next->units[i].loc));
    }
    for (int i = 0; i < next->ndislodged && i < DJ_MAX_UNITS; i++)
        got_dis[ngot_dis++] = next->dislodged[i].unit;
    for (int a = 0; a < r->nauto && ngot_dis < DJ_MAX_UNITS; a++) {
        const dj_order *o = &r->autos[a].order;
        got_dis[ngot_dis++] = (dj_unit){o->power, o->loc, o->unit_type};
    }
    char diff[1024];
    /* 4.E.3 a: a support may imply a move the unit was not given. */
    bool implicit = dj_rule(&rules, DJ_RULE_IMPLICIT_ORDERS) == 'a';
    EXPECT(implicit || same_units(want, nwant, got, ngot, diff, sizeof diff),
           "board does not match the order results (want vs got):%s", diff);
    EXPECT(
        same_units(want_dis, nwant_dis, got_dis, ngot_dis, diff, sizeof diff),
        "dislodged units do not match the results (want vs got):%s", diff);

    /* Moved fleets stand on the coast they were sent to. */
    for (int i = 0; i < n; i++) {
        if (!moved[i])
            continue;
        const dj_unit *u = &pos->units[i];
        int at = dj_position_unit_at(map, next, prov_of(dest[i]));
        if (at < 0)
            continue;
        const dj_unit *v = &next->units[at];
        /* (4.B.3 a would correct a wrong coast.) */
        if (u->type == DJ_FLEET && map->locs[dest[i]].fleet_ok &&
            dj_rule(&rules, DJ_RULE_COAST_IMPOSSIBLE) == 'b')
            EXPECT(v->loc == dest[i], "fleet %s sent to %s stands on %s",
                   loc_name(u->loc), loc_name(dest[i]), loc_name(v->loc));
        /* Adjacent, or an army convoyed by a fleet whose order worked. */
        bool ok = dj_map_adjacent(map, u->loc, v->loc, u->type);
        if (!ok && u->type == DJ_ARMY)
            for (int k = 0; k < in->norders && !ok; k++) {
                const dj_order *c = &in->orders[k];
                ok = c->kind == DJ_ORDER_CONVOY && r->orders[k].success &&
                     prov_of(c->target) == prov_of(u->loc) &&
                     prov_of(c->dest) == prov_of(v->loc);
            }
        EXPECT(ok, "%s %s moved to %s: not adjacent and not convoyed",
               letter(u->type), loc_name(u->loc), loc_name(v->loc));
    }

    expect_no_double(next->units, next->nunits, "units");
    expect_no_double(got_dis, ngot_dis, "dislodged units");

    /* Dislodged units: the dislodger, the attacker's province, retreats. */
    for (int d = 0; d < next->ndislodged + r->nauto; d++) {
        bool destroyed = d >= next->ndislodged;
        dj_unit du;
        int attacker_from = -1;
        bool by_convoy = false;
        const dj_dislodged *dd = NULL;
        if (destroyed) {
            const dj_order *o = &r->autos[d - next->ndislodged].order;
            du = (dj_unit){o->power, o->loc, o->unit_type};
        } else {
            dd = &next->dislodged[d];
            du = dd->unit;
            attacker_from = dd->attacker_from;
            by_convoy = dd->by_convoy;
        }
        char ut[96];
        unit_text(&du, ut, sizeof ut);
        int prov = prov_of(du.loc);
        int was = dj_position_unit_at(map, pos, prov);
        EXPECT(was >= 0 && same_unit(&pos->units[was], &du),
               "dislodged %s was not there", ut);
        /* What the results said about it. */
        int by = -2;
        for (int k = 0; k < in->norders; k++)
            if (r->orders[k].unit == was && was >= 0 &&
                (r->orders[k].flags & DJ_RF_DISLODGED)) {
                by = r->orders[k].dislodged_by;
                EXPECT(!(r->orders[k].flags & DJ_RF_DESTROYED) == !destroyed,
                       "%s: destroyed flag %d but destroyed %d", ut,
                       !!(r->orders[k].flags & DJ_RF_DESTROYED), destroyed);
            }
        if (destroyed)
            attacker_from = by >= 0 ? by : -1;
        else if (by != -2)
            EXPECT(by == attacker_from,
                   "%s: order result says dislodged from %s, position says %s",
                   ut, loc_name(by), loc_name(attacker_from));
        int at = dj_position_unit_at(map, next, prov);
        EXPECT(at >= 0, "%s dislodged but its province is empty", ut);
        if (at < 0)
            continue;
        const dj_unit *win = &next->units[at];
        EXPECT(win->power != du.power,
               "%s dislodged by a unit of its own power", ut);
        if (attacker_from < 0) {
            EXPECT(destroyed, "%s: no attacker_from", ut);
            continue;
        }
        EXPECT(prov_of(attacker_from) == attacker_from,
               "%s: attacker_from %s is not a province", ut,
               loc_name(attacker_from));
        int j = dj_position_unit_at(map, pos, attacker_from);
        bool came = false;
        if (j >= 0 && (moved[j] ? prov_of(dest[j]) == prov : implicit) &&
            pos->units[j].power == win->power &&
            pos->units[j].type == win->type)
            came = true;
        EXPECT(came, "%s: the unit now there did not come from %s", ut,
               loc_name(attacker_from));
        if (!came)
            continue;
        if (!destroyed) {
            EXPECT(!by_convoy || win->type == DJ_ARMY,
                   "%s: by_convoy set for a fleet attacker", ut);
            if (win->type == DJ_ARMY && !land_adjacent(pos->units[j].loc, prov))
                EXPECT(by_convoy,
                       "%s: attacker from %s cannot walk there, by_convoy not "
                       "set",
                       ut, loc_name(attacker_from));
            const dj_order *mo =
                &in->orders[move_order[j] >= 0 ? move_order[j] : 0];
            /* 4.A.3 d: by convoy next door only when written or when a
             * fleet of its own power convoys it. */
            bool own_convoy = false;
            for (int k = 0; k < in->norders; k++) {
                const dj_order *c = &in->orders[k];
                int cu = r->orders[k].unit;
                if (c->kind == DJ_ORDER_CONVOY && cu >= 0 &&
                    pos->units[cu].power == win->power &&
                    prov_of(c->target) == attacker_from &&
                    prov_of(c->dest) == prov)
                    own_convoy = true;
            }
            if (default_rules && move_order[j] >= 0 && by_convoy &&
                win->type == DJ_ARMY && !mo->via_convoy && !own_convoy &&
                land_adjacent(pos->units[j].loc, prov))
                EXPECT(false,
                       "%s: by_convoy set for a land move not ordered via "
                       "convoy",
                       ut);
        }

        /* Retreat options: exactly the ones the rules give. */
        int want_r[DJ_MAX_ADJ];
        int nw = expected_retreats(&du, attacker_from, by_convoy, next,
                                   r->contested, want_r);
        if (destroyed) {
            EXPECT(nw == 0, "%s destroyed but could retreat to %s", ut,
                   loc_name(want_r[0]));
            continue;
        }
        EXPECT(dd->nretreats > 0, "%s kept with no retreats", ut);
        int got_r[DJ_MAX_RETREATS];
        int ng = dd->nretreats;
        for (int i = 0; i < ng && i < DJ_MAX_RETREATS; i++) {
            int to = dd->retreats[i];
            got_r[i] = to;
            int p = prov_of(to);
            EXPECT(p >= 0 && dj_position_unit_at(map, next, p) < 0,
                   "%s may retreat to occupied %s", ut, loc_name(to));
            EXPECT(p >= 0 && !r->contested[p], "%s may retreat to contested %s",
                   ut, loc_name(to));
            EXPECT(dj_map_adjacent(map, du.loc, to, du.type),
                   "%s may retreat to non-adjacent %s", ut, loc_name(to));
            EXPECT(p != attacker_from ||
                       (by_convoy &&
                        dj_rule(&rules, DJ_RULE_CONVOY_RETREAT) == 'b'),
                   "%s may retreat to the attacker's province %s", ut,
                   loc_name(to));
        }
        qsort(got_r, (size_t)ng, sizeof *got_r, cmp_int);
        bool same = ng == nw;
        for (int i = 0; same && i < ng; i++)
            same = got_r[i] == want_r[i];
        EXPECT(same, "%s: %d retreat options, %d expected", ut, ng, nw);
    }

    /* Strengths.  A dislodgement needs an attack (1 + supports given by
     * powers other than the defender's) stronger than the defence (1 +
     * supports given to hold). */
    for (int d = 0; d < next->ndislodged; d++) {
        const dj_dislodged *dd = &next->dislodged[d];
        int prov = prov_of(dd->unit.loc);
        int j = dj_position_unit_at(map, pos, dd->attacker_from);
        if (j < 0 || !moved[j])
            continue;
        int att = 1, hold = 1;
        static bool counted[DJ_MAX_UNITS]; /* repeated orders count once */
        memset(counted, 0, sizeof(bool) * (size_t)n);
        for (int k = 0; k < in->norders; k++) {
            const dj_order *o = &in->orders[k];
            const dj_order_result *res = &r->orders[k];
            /* Given: succeeded, or (4.A.2 a-c spare it from the army that
             * dislodges the supporter: notes/engine-bugs/04) dislodged but
             * not cut. */
            bool given = res->success ||
                         ((res->flags & DJ_RF_DISLODGED) &&
                          !(res->flags & (DJ_RF_CUT | DJ_RF_VOID |
                                          DJ_RF_ILLEGAL | DJ_RF_IGNORED)));
            if (o->kind != DJ_ORDER_SUPPORT || !given || res->unit < 0 ||
                res->unit >= n || counted[res->unit])
                continue;
            counted[res->unit] = true;
            int sp = pos->units[res->unit].power;
            if (o->dest < 0 && prov_of(o->target) == prov)
                hold++;
            else if (o->dest >= 0 && prov_of(o->dest) == prov &&
                     prov_of(o->target) == dd->attacker_from &&
                     sp != dd->unit.power)
                att++;
        }
        char ut[96];
        unit_text(&dd->unit, ut, sizeof ut);
        EXPECT(att > hold,
               "%s dislodged from %s with attack %d against defence %d", ut,
               loc_name(dd->attacker_from), att, hold);
    }

    /* Under the preferred rules, two plain facts about single moves: an
     * attack by another power on a supporting unit, from anywhere but the
     * province the support goes into, cuts the support; and a move into an
     * empty province nobody else tries to enter succeeds. */
    for (int k = 0; default_rules && k < in->norders; k++) {
        const dj_order *m = &in->orders[k];
        const dj_order_result *mr = &r->orders[k];
        if (m->kind != DJ_ORDER_MOVE || mr->unit < 0 ||
            (mr->flags & (DJ_RF_ILLEGAL | DJ_RF_NO_CONVOY | DJ_RF_IGNORED)) ||
            m->via_convoy || m->unit_type != pos->units[mr->unit].type ||
            m->power != pos->units[mr->unit].power)
            continue;
        const dj_unit *mu = &pos->units[mr->unit];
        if (mu->loc != m->loc ||
            !dj_map_adjacent(map, m->loc, m->dest, mu->type))
            continue;
        int to = prov_of(m->dest);
        char line[160];
        order_line(m, line, sizeof line);
        int others = 0;
        for (int k2 = 0; k2 < in->norders; k2++)
            if (k2 != k && in->orders[k2].kind == DJ_ORDER_MOVE &&
                prov_of(in->orders[k2].dest) == to)
                others++;
        if (others == 0 && dj_position_unit_at(map, pos, to) < 0)
            EXPECT(mr->success,
                   "'%s' into an empty province, unopposed, "
                   "failed",
                   line);
        for (int s = 0; s < in->norders; s++) {
            const dj_order *so = &in->orders[s];
            const dj_order_result *sr = &r->orders[s];
            if (so->kind != DJ_ORDER_SUPPORT || sr->unit < 0 ||
                prov_of(so->loc) != to || !sr->success)
                continue;
            const dj_unit *su = &pos->units[sr->unit];
            if (su->power == mu->power ||
                (so->dest >= 0 && prov_of(so->dest) == prov_of(m->loc)))
                continue;
            char sl[160];
            order_line(so, sl, sizeof sl);
            EXPECT(false, "'%s' succeeded although '%s' attacks it", sl, line);
        }
    }

    /* Contested provinces: empty, and some move into them failed. */
    for (int p = 0; p < map->nlocs; p++) {
        if (!r->contested[p])
            continue;
        EXPECT(prov_of(p) == p, "contested %s is not a province", loc_name(p));
        EXPECT(dj_position_unit_at(map, next, p) < 0,
               "contested %s is occupied", loc_name(p));
        int failed = 0;
        for (int k = 0; k < in->norders; k++)
            if (in->orders[k].kind == DJ_ORDER_MOVE && !r->orders[k].success &&
                prov_of(in->orders[k].dest) == p)
                failed++;
        /* 4.E.3 a: a move implied by a support is not in the orders. */
        EXPECT(failed >= (implicit ? 0 : 2),
               "contested %s: %d failed moves into it", loc_name(p), failed);
    }
    /* Under the preferred rules (4.A.7 b) a province left empty where a
     * legal move bounced, by a unit not beaten head to head by one from
     * there, saw a standoff. */
    for (int k = 0; default_rules && k < in->norders; k++) {
        const dj_order *m = &in->orders[k];
        const dj_order_result *mr = &r->orders[k];
        if (m->kind != DJ_ORDER_MOVE || mr->success || mr->unit < 0 ||
            !(mr->flags & DJ_RF_BOUNCE) ||
            (mr->flags & (DJ_RF_ILLEGAL | DJ_RF_NO_CONVOY | DJ_RF_IGNORED)))
            continue;
        int p = prov_of(m->dest);
        if (p < 0 || dj_position_unit_at(map, next, p) >= 0 ||
            mr->dislodged_by == p)
            continue;
        char line[160];
        order_line(m, line, sizeof line);
        EXPECT(r->contested[p], "'%s' bounced, %s is empty, not contested",
               line, loc_name(p));
    }

    /* The calendar. */
    if (next->ndislodged > 0) {
        EXPECT(next->phase.season == pos->phase.season &&
                   next->phase.year == pos->phase.year &&
                   next->phase.type == DJ_RETREAT,
               "dislodged units but the next phase is not a retreat");
        expect_owner_unchanged(pos, next);
    } else {
        expect_phase_end(pos, r);
    }
}

/* ---- retreats ------------------------------------------------------------ */

/* The retreat location `dest` names among d's options, or -1. */
static int retreat_target(const dj_dislodged *d, int dest)
{
    if (dest < 0 || dest >= map->nlocs)
        return -1;
    int prov = prov_of(dest), match = -1, count = 0;
    for (int i = 0; i < d->nretreats; i++) {
        int loc = d->retreats[i];
        if (prov_of(loc) != prov)
            continue;
        if (loc == dest || d->unit.type == DJ_ARMY)
            return loc;
        match = loc;
        count++;
    }
    return count == 1 && !map->locs[dest].is_coast ? match : -1;
}

static void check_retreat(const phase_input *in, const dj_result *r)
{
    const dj_position *pos = &in->pos, *next = &r->next;
    int nd = pos->ndislodged;
    char multiple = dj_rule(&rules, DJ_RULE_MULTIPLE_ORDERS);

    EXPECT(next->ndislodged == 0, "%d dislodged units after a retreat phase",
           next->ndislodged);

    /* The model: which order each dislodged unit obeys, and where to. */
    static int target[DJ_MAX_UNITS]; /* location, -1 disband, -2 nothing */
    static int into[DJ_MAX_LOCS];
    memset(into, 0, sizeof(int) * (size_t)map->nlocs);
    for (int d = 0; d < nd; d++) {
        const dj_dislodged *dd = &pos->dislodged[d];
        int prov = prov_of(dd->unit.loc);
        int first = -3, last = -3, distinct = 0;
        for (int k = 0; k < in->norders; k++) {
            const dj_order *o = &in->orders[k];
            bool retreat =
                o->kind == DJ_ORDER_RETREAT || o->kind == DJ_ORDER_MOVE;
            if ((!retreat && o->kind != DJ_ORDER_DISBAND) ||
                prov_of(o->loc) != prov || o->power != dd->unit.power)
                continue;
            int t = -1;
            if (retreat) {
                t = retreat_target(dd, o->dest);
                if (t < 0)
                    continue; /* illegal: as if not given */
            }
            if (first == -3)
                first = t;
            else if (t != last)
                distinct++;
            last = t;
        }
        if (first == -3)
            target[d] = -2;
        else if (distinct == 0)
            target[d] = first;
        else
            target[d] = multiple == 'a' ? first : multiple == 'b' ? last : -2;
        if (target[d] >= 0)
            into[prov_of(target[d])]++;
    }
    /* What happened to each dislodged unit: exactly one fate. */
    int retreated = 0, disbanded = 0;
    for (int d = 0; d < nd; d++) {
        const dj_dislodged *dd = &pos->dislodged[d];
        char ut[96];
        unit_text(&dd->unit, ut, sizeof ut);
        int fates = 0, went = -1;
        bool by_order = false;
        for (int k = 0; k < in->norders; k++) {
            const dj_order_result *res = &r->orders[k];
            if (res->unit != d || !res->success)
                continue;
            const dj_order *o = &in->orders[k];
            if (o->kind == DJ_ORDER_DISBAND) {
                by_order = true;
            } else {
                went = o->dest;
            }
            fates++;
        }
        for (int a = 0; a < r->nauto; a++)
            if (prov_of(r->autos[a].order.loc) == prov_of(dd->unit.loc) &&
                r->autos[a].order.kind == DJ_ORDER_DISBAND)
                fates++;
        EXPECT(fates == 1,
               "%s: %d fates (successful orders + judge's "
               "disbands)",
               ut, fates);
        if (went >= 0) {
            retreated++;
            int at = dj_position_unit_at(map, next, prov_of(went));
            EXPECT(at >= 0 && next->units[at].power == dd->unit.power &&
                       next->units[at].type == dd->unit.type,
                   "%s retreated to %s but is not there", ut, loc_name(went));
            bool listed = false;
            for (int i = 0; at >= 0 && i < dd->nretreats; i++)
                listed |= dd->retreats[i] == next->units[at].loc;
            EXPECT(listed, "%s retreated to %s, not one of its options", ut,
                   loc_name(at >= 0 ? next->units[at].loc : went));
        } else if (by_order) {
            disbanded++;
        }
        {
            int want = target[d] >= 0 && into[prov_of(target[d])] == 1
                           ? target[d]
                           : -1;
            int at =
                want >= 0 ? dj_position_unit_at(map, next, prov_of(want)) : -1;
            if (want >= 0)
                EXPECT(went >= 0 && at >= 0 && next->units[at].loc == want,
                       "%s should have retreated to %s", ut, loc_name(want));
            else
                EXPECT(went < 0, "%s should not have retreated (to %s)", ut,
                       loc_name(went));
            EXPECT(by_order == (target[d] == -1),
                   "%s: disbanded by its order %d, model says %d", ut, by_order,
                   target[d] == -1);
        }
    }
    count_retreats_ok += retreated;
    EXPECT(next->nunits == pos->nunits + retreated,
           "%d units after, %d before + %d retreats", next->nunits, pos->nunits,
           retreated);
    EXPECT(nd == retreated + disbanded + r->nauto,
           "%d dislodged != %d retreated + %d disbanded + %d by the judge", nd,
           retreated, disbanded, r->nauto);

    /* Units that were not dislodged are untouched. */
    static dj_unit stay[DJ_MAX_UNITS];
    int nstay = 0;
    for (int i = 0; i < next->nunits; i++) {
        bool came = false;
        for (int d = 0; d < nd && !came; d++)
            for (int k = 0; k < in->norders && !came; k++)
                if (r->orders[k].unit == d && r->orders[k].success &&
                    in->orders[k].kind != DJ_ORDER_DISBAND &&
                    prov_of(in->orders[k].dest) == prov_of(next->units[i].loc))
                    came = true;
        if (!came)
            stay[nstay++] = next->units[i];
    }
    char diff[1024];
    EXPECT(same_units(pos->units, pos->nunits, stay, nstay, diff, sizeof diff),
           "units not dislodged changed:%s", diff);
    expect_no_double(next->units, next->nunits, "units");
    for (int i = 0; i < next->nunits; i++)
        EXPECT(may_stand(&next->units[i]), "unit stands where it may not: %s",
               loc_name(next->units[i].loc));
    expect_phase_end(pos, r);
}

/* ---- adjustments --------------------------------------------------------- */

static bool is_home(int prov, int power)
{
    return map->is_sc[prov] && (map->home_of[prov] & DJ_POWER_BIT(power));
}

/* May the power build in this centre, if it owns it?  Rule V.1: its home
 * centres (a), any centre (b), any power's home centre (c). */
static bool build_site(const dj_position *pos, int prov, int power)
{
    switch (dj_rule(&rules, DJ_RULE_BUILD_SITES)) {
    case 'b':
        return map->is_sc[prov];
    case 'd': /* any centre, while it holds one of its own homes */
        for (int l = 0; l < map->nlocs; l++)
            if (is_home(l, power) && pos->owner[l] == power)
                return map->is_sc[prov];
        return false;
    case 'c':
        return map->is_sc[prov] && map->home_of[prov] != 0;
    default:
        return is_home(prov, power);
    }
}

/* Could this build order stand under the preferred rules (4.B.7 a, 4.C.4 a,
 * unit type always written)?  Fills the unit it makes. */
static bool build_legal(const dj_position *pos, const dj_order *o, dj_unit *u)
{
    if (o->loc < 0 || o->loc >= map->nlocs)
        return false;
    int prov = prov_of(o->loc);
    if (!build_site(pos, prov, o->power) || pos->owner[prov] != o->power ||
        dj_position_unit_at(map, pos, prov) >= 0)
        return false;
    int loc = o->loc;
    if (o->unit_type == DJ_ARMY) {
        loc = prov;
        if (!map->locs[prov].army_ok)
            return false;
    } else if (o->unit_type == DJ_FLEET) {
        if (dj_map_ncoasts(map, prov) > 0 && !map->locs[loc].is_coast)
            return false;
        if (!map->locs[loc].fleet_ok)
            return false;
    } else {
        return false;
    }
    *u = (dj_unit){o->power, (int16_t)loc, o->unit_type};
    return true;
}

static void check_adjustment(const phase_input *in, const dj_result *r)
{
    const dj_position *pos = &in->pos, *next = &r->next;

    EXPECT(next->phase.season == DJ_SPRING &&
               next->phase.year == pos->phase.year + 1 &&
               next->phase.type == DJ_MOVEMENT,
           "after adjustments: next phase %d/%d/%d", next->phase.season,
           next->phase.year, next->phase.type);
    EXPECT(next->ndislodged == 0, "dislodged units after adjustments");
    expect_owner_unchanged(pos, next);
    expect_no_double(next->units, next->nunits, "units");

    /* New units: builds on owned vacant home centres only. */
    static dj_unit built[DJ_MAX_UNITS], kept[DJ_MAX_UNITS];
    int nbuilt = 0, nkept = 0;
    for (int i = 0; i < next->nunits; i++) {
        const dj_unit *u = &next->units[i];
        bool old = false;
        for (int j = 0; j < pos->nunits && !old; j++)
            old = same_unit(u, &pos->units[j]);
        if (old) {
            kept[nkept++] = *u;
            continue;
        }
        built[nbuilt++] = *u;
        char ut[96];
        unit_text(u, ut, sizeof ut);
        int prov = prov_of(u->loc);
        EXPECT(prov >= 0 && build_site(pos, prov, u->power),
               "built %s: not a centre it may build in", ut);
        EXPECT(prov >= 0 && pos->owner[prov] == u->power,
               "built %s: centre not owned", ut);
        EXPECT(prov >= 0 && dj_position_unit_at(map, pos, prov) < 0,
               "built %s: centre occupied", ut);
        EXPECT(may_stand(u), "built %s: type cannot stand there", ut);
        EXPECT(dj_adjustment_due(map, pos, u->power) > 0,
               "built %s: no builds due", ut);
    }
    count_builds += nbuilt;
    count_removals += pos->nunits - nkept;
    for (int a = 0; a < r->nauto; a++) {
        const dj_order *o = &r->autos[a].order;
        EXPECT(o->kind == DJ_ORDER_REMOVE &&
                   dj_adjustment_due(map, pos, o->power) < 0,
               "judge's order %d is not a removal by a power that owes one", a);
        count_autoremovals++;
    }

    for (int p = 0; p < map->npowers; p++) {
        int due = dj_adjustment_due(map, pos, p);
        int centres = dj_position_centres(map, pos, p);
        int before = dj_position_units(pos, p);
        int after = dj_position_units(next, p);
        int nb = 0;
        for (int i = 0; i < nbuilt; i++)
            nb += built[i].power == p;
        int succeeded = 0;
        for (int k = 0; k < in->norders; k++)
            if (in->orders[k].power == p && r->orders[k].success)
                succeeded++;
        const char *pn = power_name(p);
        if (due == 0) {
            EXPECT(after == before && nb == 0, "%s owes nothing: %d -> %d", pn,
                   before, after);
            EXPECT(succeeded == 0, "%s owes nothing: %d orders succeeded", pn,
                   succeeded);
            continue;
        }
        if (due < 0) {
            EXPECT(after == centres && nb == 0,
                   "%s: %d centres, %d units, %d after removals", pn, centres,
                   before, after);
            if (dj_rule(&rules, DJ_RULE_TOO_MANY_DISBANDS) != 'b')
                continue;
            /* Every legal removal ordered, up to the count, is made. */
            int taken = 0;
            static bool gone[DJ_MAX_UNITS];
            memset(gone, 0, sizeof(bool) * (size_t)pos->nunits);
            for (int k = 0; k < in->norders && taken < -due; k++) {
                const dj_order *o = &in->orders[k];
                if (o->power != p ||
                    (o->kind != DJ_ORDER_REMOVE && o->kind != DJ_ORDER_DISBAND))
                    continue;
                int u = dj_position_unit_at(map, pos, prov_of(o->loc));
                if (u < 0 || pos->units[u].power != p || gone[u])
                    continue;
                gone[u] = true;
                taken++;
                bool still = false;
                for (int i = 0; i < nkept; i++)
                    still |= same_unit(&kept[i], &pos->units[u]);
                char ut[96];
                unit_text(&pos->units[u], ut, sizeof ut);
                EXPECT(!still, "%s: ordered removal of %s not made", pn, ut);
                EXPECT(r->orders[k].success, "%s: removal of %s not a success",
                       pn, ut);
            }
            continue;
        }
        /* Builds: the first legal ones, up to the number due. */
        EXPECT(after - before == nb && nb <= due,
               "%s: %d builds due, %d units before, %d after, %d built", pn,
               due, before, after, nb);
        if (!default_rules)
            continue;
        static dj_unit want[DJ_MAX_UNITS];
        int nwant = 0, used = 0;
        bool site[DJ_MAX_LOCS] = {false};
        for (int k = 0; k < in->norders && used < due; k++) {
            const dj_order *o = &in->orders[k];
            if (o->power != p)
                continue;
            if (o->kind == DJ_ORDER_WAIVE) {
                used++;
                continue;
            }
            dj_unit u;
            if (o->kind != DJ_ORDER_BUILD || !build_legal(pos, o, &u) ||
                site[prov_of(u.loc)])
                continue;
            site[prov_of(u.loc)] = true;
            want[nwant++] = u;
            used++;
        }
        static dj_unit mine[DJ_MAX_UNITS];
        int nmine = 0;
        for (int i = 0; i < nbuilt; i++)
            if (built[i].power == p)
                mine[nmine++] = built[i];
        char diff[1024];
        EXPECT(same_units(want, nwant, mine, nmine, diff, sizeof diff),
               "%s: builds differ from the first legal orders (want vs "
               "got):%s",
               pn, diff);
    }
}

static dj_result *res_a, *res_b, *res_p;
static phase_input *perm_in;
static perm_set *perms;

/* ---- other powers, other season ------------------------------------------ */

/*
 * Powers are only names: give every power another index (a random
 * bijection) and the movement or retreat phase must come out the same,
 * renamed.  And a movement phase comes out the same in Spring and in Fall
 * but for the calendar and the centres.
 */

static int map_power(int p, const int *pi)
{
    return p >= 0 && p < map->npowers ? pi[p] : p;
}

static dj_power_set map_mask(dj_power_set m, const int *pi)
{
    dj_power_set out = 0;
    for (int p = 0; p < map->npowers; p++)
        if (m >> p & 1u)
            out |= DJ_POWER_BIT(pi[p]);
    return out;
}

static void relabel_position(dj_position *pos, const int *pi)
{
    for (int i = 0; i < pos->nunits; i++)
        pos->units[i].power = (int16_t)map_power(pos->units[i].power, pi);
    for (int i = 0; i < pos->ndislodged; i++)
        pos->dislodged[i].unit.power =
            (int16_t)map_power(pos->dislodged[i].unit.power, pi);
    for (int l = 0; l < map->nlocs; l++)
        pos->owner[l] = (int16_t)map_power(pos->owner[l], pi);
    pos->civil_disorder = map_mask(pos->civil_disorder, pi);
}

static void relabel_input(const phase_input *in, phase_input *out,
                          const int *pi)
{
    out->pos = in->pos;
    relabel_position(&out->pos, pi);
    out->norders = in->norders;
    for (int k = 0; k < in->norders; k++) {
        out->orders[k] = in->orders[k];
        out->orders[k].power = (int16_t)map_power(in->orders[k].power, pi);
    }
}

static void relabel_result(const dj_result *r, dj_result *out, const int *pi)
{
    memcpy(out, r, sizeof *out);
    relabel_position(&out->next, pi);
    for (int a = 0; a < r->nauto; a++)
        out->autos[a].order.power =
            (int16_t)map_power(r->autos[a].order.power, pi);
    out->winner = map_power(r->winner, pi);
}

static dj_result *res_q, *res_r;
static phase_input *other_in;

static void identity_perms(perm_set *ps, const phase_input *in)
{
    for (int i = 0; i < in->pos.nunits; i++)
        ps->units[i] = i;
    for (int i = 0; i < in->pos.ndislodged; i++)
        ps->dislodged[i] = i;
    for (int k = 0; k < in->norders; k++)
        ps->orders[k] = ps->order_inv[k] = k;
}

static void check_relabelled(const phase_input *in, const dj_result *ra,
                             const movement_origin *origin)
{
    int pi[DJ_MAX_POWERS], inv[DJ_MAX_POWERS];
    random_perm(pi, map->npowers);
    for (int p = 0; p < map->npowers; p++)
        inv[pi[p]] = p;
    relabel_input(in, other_in, pi);
    if (run(other_in, res_p, 0x3c) != 0) {
        EXPECT(false, "powers renamed: dj_adjudicate failed");
        return;
    }
    relabel_result(res_p, res_q, inv);
    identity_perms(perms, in);
    bool same = same_outcome(in, ra, res_q, perms, -1);
    EXPECT(same, "outcome changes when the powers are renumbered");
    if (!same) {
        relabel_result(ra, res_r, pi);
        dump_phase(in, res_r, other_in, res_q, origin);
    }
}

static void check_other_season(const phase_input *in, const dj_result *ra)
{
    other_in->pos = in->pos;
    other_in->pos.phase.season =
        in->pos.phase.season == DJ_SPRING ? DJ_FALL : DJ_SPRING;
    other_in->norders = in->norders;
    memcpy(other_in->orders, in->orders,
           sizeof(dj_order) * (size_t)in->norders);
    if (run(other_in, res_p, 0x3c) != 0) {
        EXPECT(false, "other season: dj_adjudicate failed");
        return;
    }
    /* The calendar and the centres differ, the rest may not. */
    memcpy(res_q, res_p, sizeof *res_q);
    res_q->next.phase = ra->next.phase;
    memcpy(res_q->next.owner, ra->next.owner, sizeof ra->next.owner);
    res_q->winner = ra->winner;
    identity_perms(perms, in);
    bool same = same_outcome(in, ra, res_q, perms, -2);
    EXPECT(same, "outcome changes between Spring and Fall");
    if (!same)
        dump_phase(in, ra, other_in, res_p, NULL);
}

/* ---- locality ------------------------------------------------------------ */

/*
 * Adjudication is local: units whose orders never come near each other do
 * not affect each other.  Units (with their orders) are joined when the
 * provinces they stand on or name are the same or adjacent (a convoy route
 * is a chain of adjacent fleets, so it stays in one group).  When that
 * leaves several groups, each is adjudicated alone and
 * the pieces must make up the whole: the same units after, the same
 * dislodged units and retreats, the same order results and standoffs.
 */

static bool *prov_near; /* nlocs x nlocs: provinces equal or adjacent */

static void init_prov_near(void)
{
    size_t n = (size_t)map->nlocs;
    prov_near = calloc(n * n, sizeof *prov_near);
    if (!prov_near)
        return;
    for (int l = 0; l < map->nlocs; l++) {
        int p = prov_of(l);
        prov_near[(size_t)p * n + (size_t)p] = true;
        for (int i = 0; i < map->locs[l].nadj; i++) {
            int q = prov_of(map->locs[l].adj[i].to);
            prov_near[(size_t)p * n + (size_t)q] = true;
            prov_near[(size_t)q * n + (size_t)p] = true;
        }
    }
}

static bool near(int p, int q)
{
    return p >= 0 && q >= 0 &&
           prov_near[(size_t)p * (size_t)map->nlocs + (size_t)q];
}

static int uf_find(int *parent, int x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

static void uf_join(int *parent, int a, int b)
{
    a = uf_find(parent, a);
    b = uf_find(parent, b);
    if (a != b)
        parent[a] = b;
}

#define MAX_TOUCH 24

/* Provinces an order names. */
static int order_touches(const dj_order *o, int *t, int n)
{
    int cand[4 + DJ_MAX_PATH], k = 0;
    cand[k++] = prov_of(o->loc);
    cand[k++] = prov_of(o->dest);
    cand[k++] = prov_of(o->target);
    for (int i = 0; i < o->npath && i < DJ_MAX_PATH; i++)
        cand[k++] = prov_of(o->path[i]);
    for (int i = 0; i < k && n < MAX_TOUCH; i++)
        if (cand[i] >= 0)
            t[n++] = cand[i];
    return n;
}

static phase_input *part_in;
static dj_result *part_res, *union_res;

static void check_locality(const phase_input *in, const dj_result *ra)
{
    if (!prov_near)
        return;
    const dj_position *pos = &in->pos;
    int nu = pos->nunits, no = in->norders;
    /* Nodes: units 0..nu-1, then orders for no unit nu..nu+no-1. */
    static int parent[DJ_MAX_UNITS + DJ_MAX_ORDERS];
    static int touch[DJ_MAX_UNITS + DJ_MAX_ORDERS][MAX_TOUCH];
    static int ntouch[DJ_MAX_UNITS + DJ_MAX_ORDERS];
    static int node_of_order[DJ_MAX_ORDERS];
    int nn = nu + no;
    for (int i = 0; i < nn; i++) {
        parent[i] = i;
        ntouch[i] = 0;
    }
    static bool used[DJ_MAX_UNITS + DJ_MAX_ORDERS];
    for (int i = 0; i < nn; i++)
        used[i] = i < nu;
    for (int i = 0; i < nu; i++)
        touch[i][ntouch[i]++] = prov_of(pos->units[i].loc);
    for (int k = 0; k < no; k++) {
        const dj_order *o = &in->orders[k];
        int u = dj_position_unit_at(map, pos, prov_of(o->loc));
        int node = u >= 0 ? u : nu + k;
        node_of_order[k] = node;
        used[node] = true;
        ntouch[node] = order_touches(o, touch[node], ntouch[node]);
    }
    for (int i = 0; i < nn; i++)
        for (int j = i + 1; j < nn; j++) {
            if (!used[i] || !used[j] ||
                uf_find(parent, i) == uf_find(parent, j))
                continue;
            bool joined = false;
            for (int a = 0; a < ntouch[i] && !joined; a++)
                for (int b = 0; b < ntouch[j] && !joined; b++)
                    joined = near(touch[i][a], touch[j][b]);
            if (joined)
                uf_join(parent, i, j);
        }
    int groups = 0;
    for (int i = 0; i < nn; i++)
        groups += used[i] && uf_find(parent, i) == i;
    if (groups < 2)
        return;
    count_split++;

    /* Adjudicate each group alone and put the pieces together. */
    memcpy(union_res, ra, sizeof *union_res);
    union_res->next.nunits = union_res->next.ndislodged = 0;
    union_res->nauto = 0;
    memset(union_res->contested, 0, sizeof union_res->contested);
    static int unit_index[DJ_MAX_UNITS], order_index[DJ_MAX_ORDERS];
    for (int root = 0; root < nn; root++) {
        if (!used[root] || uf_find(parent, root) != root)
            continue;
        part_in->pos = *pos;
        part_in->pos.nunits = 0;
        part_in->norders = 0;
        for (int i = 0; i < nu; i++)
            if (uf_find(parent, i) == root) {
                unit_index[part_in->pos.nunits] = i;
                part_in->pos.units[part_in->pos.nunits++] = pos->units[i];
            }
        for (int k = 0; k < no; k++)
            if (uf_find(parent, node_of_order[k]) == root) {
                order_index[part_in->norders] = k;
                part_in->orders[part_in->norders++] = in->orders[k];
            }
        if (run(part_in, part_res, 0x00) != 0) {
            EXPECT(false, "locality: dj_adjudicate failed on a group");
            return;
        }
        dj_position *un = &union_res->next;
        for (int i = 0; i < part_res->next.nunits; i++)
            un->units[un->nunits++] = part_res->next.units[i];
        for (int i = 0; i < part_res->next.ndislodged; i++)
            un->dislodged[un->ndislodged++] = part_res->next.dislodged[i];
        for (int a = 0; a < part_res->nauto; a++)
            union_res->autos[union_res->nauto++] = part_res->autos[a];
        for (int p = 0; p < map->nlocs; p++)
            union_res->contested[p] |= part_res->contested[p];
        for (int k = 0; k < part_in->norders; k++) {
            dj_order_result r = part_res->orders[k];
            if (r.unit >= 0)
                r.unit = (int16_t)unit_index[r.unit];
            union_res->orders[order_index[k]] = r;
        }
    }
    identity_perms(perms, in);
    /* The calendar and the centres are the whole board's business. */
    union_res->next.phase = ra->next.phase;
    memcpy(union_res->next.owner, ra->next.owner, sizeof ra->next.owner);
    union_res->winner = ra->winner;
    bool same = same_outcome(in, ra, union_res, perms, -3);
    EXPECT(same,
           "locality: %d independent groups adjudicated apart give "
           "another outcome",
           groups);
    if (!same) {
        dump_comment = "# POSTSTATE: what the independent groups gave, "
                       "each adjudicated alone\n";
        dump_phase(in, union_res, NULL, NULL, NULL);
        dump_comment = NULL;
    }
}

/* ---- one phase, all checks ----------------------------------------------- */

/* Adjudicate `in`, check it, return false if it did not run. */
static bool check_phase(const phase_input *in, const movement_origin *origin,
                        dj_result *keep)
{
    dj_result *ra = keep ? keep : res_a;
    int rca = run(in, ra, 0x00);
    int rcb = run(in, res_b, 0xa5);
    EXPECT(rca == 0 && rcb == 0, "dj_adjudicate returned %d, %d", rca, rcb);
    if (rca != 0 || rcb != 0) {
        dump_phase(in, ra, NULL, NULL, origin);
        return false;
    }
    check_deterministic(in, ra, res_b);
    switch (in->pos.phase.type) {
    case DJ_MOVEMENT:
        check_movement(in, ra);
        break;
    case DJ_RETREAT:
        check_retreat(in, ra);
        break;
    case DJ_ADJUSTMENT:
        check_adjustment(in, ra);
        break;
    }
    bool invariants_failed = cur.failed;
    if (invariants_failed)
        dump_phase(in, ra, NULL, NULL, origin);

    for (int k = 0; k < nperms; k++) {
        make_permuted(in, perm_in, perms);
        if (run(perm_in, res_p, 0x5a) != 0) {
            EXPECT(false, "ordering %d: dj_adjudicate failed", k + 1);
            continue;
        }
        bool same = same_outcome(in, ra, res_p, perms, k + 1);
        EXPECT(same, "ordering %d: outcome depends on the listing order",
               k + 1);
        if (!same) {
            dump_phase(in, ra, perm_in, res_p, origin);
            break;
        }
    }
    if (in->pos.phase.type != DJ_ADJUSTMENT)
        check_relabelled(in, ra, origin);
    if (in->pos.phase.type == DJ_MOVEMENT) {
        check_other_season(in, ra);
        check_locality(in, ra);
    }
    if (cur.failed)
        nfailed_phases++;
    if (dump_all && casedir)
        dump_passing(in, ra, origin);
    return true;
}

/* ---- generating retreat and adjustment phases ---------------------------- */

static int random_retreat_elsewhere(const dj_dislodged *d)
{
    /* An adjacent place that is not an option, or anywhere. */
    const dj_location *l = &map->locs[d->unit.loc];
    for (int tries = 0; tries < 8; tries++) {
        if (l->nadj > 0 && corpus_rng_below(&rng, 3)) {
            int to = l->adj[corpus_rng_below(&rng, l->nadj)].to;
            if (d->unit.type == DJ_ARMY)
                to = prov_of(to);
            bool option = false;
            for (int i = 0; i < d->nretreats; i++)
                option |= prov_of(d->retreats[i]) == prov_of(to);
            if (!option)
                return to;
        } else {
            return corpus_rng_below(&rng, map->nlocs);
        }
    }
    return d->attacker_from >= 0 ? d->attacker_from : d->unit.loc;
}

static void add_order(phase_input *in, dj_order o)
{
    if (in->norders < DJ_MAX_ORDERS)
        in->orders[in->norders++] = o;
}

static int option_dest(const dj_dislodged *d, int i)
{
    int to = d->retreats[i];
    return d->unit.type == DJ_ARMY ? prov_of(to) : to;
}

/* A retreat phase from a movement result with dislodged units. */
static void make_retreat_phase(const dj_result *mv, phase_input *in)
{
    in->pos = mv->next;
    in->pos.civil_disorder = 0;
    in->norders = 0;
    dj_position *pos = &in->pos;
    for (int d = 0; d < pos->ndislodged; d++) {
        const dj_dislodged *dd = &pos->dislodged[d];
        const dj_unit *u = &dd->unit;
        int roll = corpus_rng_below(&rng, 100);
        dj_order o = dj_order_make(DJ_ORDER_RETREAT, u->power, u->type, u->loc);
        if (roll < 45 && dd->nretreats > 0) {
            o.dest =
                (int16_t)option_dest(dd, corpus_rng_below(&rng, dd->nretreats));
        } else if (roll < 60) {
            /* Clash: another dislodged unit sharing an option, both go. */
            bool done = false;
            for (int e = 0; e < pos->ndislodged && !done; e++) {
                const dj_dislodged *de = &pos->dislodged[e];
                if (e == d)
                    continue;
                for (int i = 0; i < dd->nretreats && !done; i++)
                    for (int j = 0; j < de->nretreats && !done; j++)
                        if (prov_of(dd->retreats[i]) ==
                            prov_of(de->retreats[j])) {
                            o.dest = (int16_t)option_dest(dd, i);
                            dj_order oe =
                                dj_order_make(DJ_ORDER_RETREAT, de->unit.power,
                                              de->unit.type, de->unit.loc);
                            oe.dest = (int16_t)option_dest(de, j);
                            add_order(in, oe);
                            done = true;
                        }
            }
            if (!done)
                o.dest = (int16_t)random_retreat_elsewhere(dd);
        } else if (roll < 70) {
            o.dest = (int16_t)random_retreat_elsewhere(dd);
        } else if (roll < 82) {
            o = dj_order_make(DJ_ORDER_DISBAND, u->power, u->type, u->loc);
        } else if (roll < 94) {
            continue; /* no order */
        } else if (roll < 97) {
            o.power = (int16_t)((u->power + 1 +
                                 corpus_rng_below(&rng, map->npowers - 1)) %
                                map->npowers);
            o.dest = dd->nretreats > 0 ? (int16_t)option_dest(dd, 0)
                                       : (int16_t)random_retreat_elsewhere(dd);
        } else {
            /* Two different orders for one unit (4.D.3). */
            dj_order dis =
                dj_order_make(DJ_ORDER_DISBAND, u->power, u->type, u->loc);
            add_order(in, dis);
            o.dest = dd->nretreats > 0 ? (int16_t)option_dest(dd, 0)
                                       : (int16_t)random_retreat_elsewhere(dd);
        }
        add_order(in, o);
        if (corpus_rng_below(&rng, 20) == 0)
            add_order(in, o); /* the same order twice */
    }
    /* Now and then an order for a unit that was not dislodged, or a hold. */
    if (pos->nunits > 0 && corpus_rng_below(&rng, 10) == 0) {
        const dj_unit *u = &pos->units[corpus_rng_below(&rng, pos->nunits)];
        dj_order o = dj_order_make(corpus_rng_below(&rng, 2) ? DJ_ORDER_DISBAND
                                                             : DJ_ORDER_HOLD,
                                   u->power, u->type, u->loc);
        add_order(in, o);
    }
    /* Shuffle so that clashing pairs and duplicates are not always adjacent
     * (keeping each unit's orders in sequence does not matter here: the
     * model reads them in the final order). */
    for (int i = in->norders - 1; i > 0; i--) {
        int j = corpus_rng_below(&rng, i + 1);
        dj_order t = in->orders[i];
        in->orders[i] = in->orders[j];
        in->orders[j] = t;
    }
}

/* Home centres of power p. */
static int homes_of(int p, int *out)
{
    int n = 0;
    for (int l = 0; l < map->nlocs; l++)
        if (prov_of(l) == l && is_home(l, p))
            out[n++] = l;
    return n;
}

static dj_order random_build(int p)
{
    int homes[DJ_MAX_LOCS];
    int nh = homes_of(p, homes);
    int roll = corpus_rng_below(&rng, 100);
    int prov;
    if (roll < 75 && nh > 0)
        prov = homes[corpus_rng_below(&rng, nh)];
    else
        prov = corpus_rng_below(&rng, map->nlocs);
    prov = prov_of(prov);
    dj_unit_type t = corpus_rng_below(&rng, 2) ? DJ_ARMY : DJ_FLEET;
    int loc = prov;
    int nc = dj_map_ncoasts(map, prov);
    if (t == DJ_FLEET && nc > 0 && corpus_rng_below(&rng, 4))
        loc = dj_map_coast(map, prov, corpus_rng_below(&rng, nc));
    return dj_order_make(DJ_ORDER_BUILD, p, t, loc);
}

static dj_order random_remove(const dj_position *pos, int p)
{
    int roll = corpus_rng_below(&rng, 100);
    int mine[DJ_MAX_UNITS], n = 0;
    for (int i = 0; i < pos->nunits; i++)
        if (pos->units[i].power == p)
            mine[n++] = i;
    const dj_unit *u = NULL;
    if (roll < 75 && n > 0)
        u = &pos->units[mine[corpus_rng_below(&rng, n)]];
    else if (roll < 90 && pos->nunits > 0)
        u = &pos->units[corpus_rng_below(&rng, pos->nunits)];
    if (u)
        return dj_order_make(DJ_ORDER_REMOVE, p, u->type, u->loc);
    int loc = prov_of(corpus_rng_below(&rng, map->nlocs));
    return dj_order_make(DJ_ORDER_REMOVE, p, DJ_ARMY, loc);
}

/*
 * A Fall where a power is at the edge of victory: it owns all but 0 to 2
 * of the centres it needs (and sometimes a second power as many), so the
 * capture at the Fall's end makes a winner, a tie or nobody, and
 * expected_winner has something to judge.
 */
static void near_victory(dj_position *pos)
{
    pos->phase.season = DJ_FALL;
    int lead = corpus_rng_below(&rng, map->npowers);
    int rival = corpus_rng_below(&rng, 3) == 0
                    ? corpus_rng_below(&rng, map->npowers) : -1;
    int want = map->victory - corpus_rng_below(&rng, 3), got = 0, rgot = 0;
    for (int l = 0; l < map->nlocs; l++) {
        if (prov_of(l) != l || !map->is_sc[l])
            continue;
        if (got < want) {
            pos->owner[l] = (int16_t)lead;
            got++;
        } else if (rival >= 0 && rival != lead && rgot < want) {
            pos->owner[l] = (int16_t)rival;
            rgot++;
        }
    }
}

/* An adjustment phase on the units of a movement phase. */
static void make_adjustment_phase(const corpus_phase *cp, phase_input *in)
{
    dj_phase ph = {DJ_WINTER, cp->phase.year, DJ_ADJUSTMENT};
    dj_position *pos = &in->pos;
    dj_position_empty(map, ph, pos);
    pos->nunits = cp->nunits;
    memcpy(pos->units, cp->units, sizeof(dj_unit) * (size_t)cp->nunits);
    /* Centres change hands. */
    for (int l = 0; l < map->nlocs; l++) {
        if (prov_of(l) != l || !map->is_sc[l])
            continue;
        int roll = corpus_rng_below(&rng, 100);
        int at = dj_position_unit_at(map, pos, l);
        if (roll < 45)
            continue; /* as at the start */
        else if (roll < 70 && at >= 0)
            pos->owner[l] = pos->units[at].power;
        else if (roll < 90)
            pos->owner[l] = (int16_t)corpus_rng_below(&rng, map->npowers);
        else
            pos->owner[l] = -1;
    }
    in->norders = 0;
    for (int p = 0; p < map->npowers; p++) {
        int due = dj_adjustment_due(map, pos, p);
        if (corpus_rng_below(&rng, 5) == 0)
            continue; /* no orders at all */
        int n = due == 0 ? (corpus_rng_below(&rng, 4) == 0)
                         : corpus_rng_below(&rng, (due > 0 ? due : -due) + 3);
        for (int k = 0; k < n; k++) {
            int roll = corpus_rng_below(&rng, 100);
            dj_order o;
            if (k > 0 && roll < 7) {
                o = in->orders[in->norders - 1]; /* the same again */
                if (o.power != p)
                    o = dj_order_make(DJ_ORDER_WAIVE, p, DJ_NO_UNIT, -1);
            } else if (due >= 0) {
                o = roll < 80 ? random_build(p)
                    : roll < 92
                        ? dj_order_make(DJ_ORDER_WAIVE, p, DJ_NO_UNIT, -1)
                        : random_remove(pos, p);
            } else {
                o = roll < 85 ? random_remove(pos, p)
                    : roll < 93
                        ? random_build(p)
                        : dj_order_make(DJ_ORDER_WAIVE, p, DJ_NO_UNIT, -1);
            }
            add_order(in, o);
        }
    }
    /* Interleave the powers' orders, each power's in sequence. */
    static int perm[DJ_MAX_ORDERS], group[DJ_MAX_ORDERS];
    static dj_order tmp[DJ_MAX_ORDERS];
    random_perm(perm, in->norders);
    for (int k = 0; k < in->norders; k++)
        group[k] = in->orders[k].power;
    keep_group_order(perm, in->norders, group);
    for (int k = 0; k < in->norders; k++)
        tmp[k] = in->orders[perm[k]];
    memcpy(in->orders, tmp, sizeof(dj_order) * (size_t)in->norders);
}

/* ---- main ---------------------------------------------------------------- */

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    return (uint64_t)strtoull(s, NULL, 0);
}

static int run_cases(const char *mapdir, int argc, char **argv)
{
    nperms = CASE_NPERMS;
    static dj_case c;
    phase_input *in = calloc(1, sizeof *in);
    if (!in)
        return 1;
    for (int i = 0; i < argc; i++) {
        char err[DJ_CASE_ERR_MAX];
        dj_casefile *cf = dj_casefile_open(argv[i], mapdir, err, sizeof err);
        if (!cf) {
            fprintf(stderr, "%s\n", err);
            test_failed++;
            continue;
        }
        dj_case_status st;
        long n = 0;
        while ((st = dj_casefile_next(cf, &c, err, sizeof err)) !=
               DJ_CASE_EOF) {
            if (st == DJ_CASE_ERROR) {
                fprintf(stderr, "%s\n", err);
                test_failed++;
                continue;
            }
            if (map != dj_casefile_map(cf)) {
                map = dj_casefile_map(cf);
                free(prov_near);
                init_prov_near();
            }
            rules = c.rules;
            dj_rules def;
            dj_rules_default(&def);
            default_rules = memcmp(&def, &rules, sizeof def) == 0;
            in->pos = c.pre;
            in->norders = c.norders;
            for (int k = 0; k < c.norders; k++)
                in->orders[k] = c.orders[k].order;
            begin_phase(c.pre.phase.type == DJ_MOVEMENT  ? "movement"
                        : c.pre.phase.type == DJ_RETREAT ? "retreat"
                                                         : "adjustment",
                        ++n);
            fprintf(stderr, "case %s (%s phase %ld)\n", c.name, cur.kind, n);
            check_phase(in, NULL, NULL);
        }
        dj_casefile_close(cf);
    }
    free(in);
    return test_summary();
}

int main(int argc, char **argv)
{
    /* test_engine_random [SRCDIR] [--case FILE...] */
    const char *srcdir = test_srcdir(argc, argv);
    if (argc > 1 && argv[1][0] != '-') {
        argc--;
        argv++;
    }
    char path[1100], mapdir[1024];
    snprintf(mapdir, sizeof mapdir, "%s/maps", srcdir);
    snprintf(path, sizeof path, "%s/standard.map", mapdir);
    casedir = getenv("DJ_RANDOM_CASEDIR");
    if (casedir && !*casedir)
        casedir = NULL;
    dump_all = getenv("DJ_RANDOM_DUMP") && *getenv("DJ_RANDOM_DUMP");
    dj_rules_default(&rules);

    res_a = malloc(sizeof *res_a);
    res_b = malloc(sizeof *res_b);
    res_p = malloc(sizeof *res_p);
    perm_in = malloc(sizeof *perm_in);
    perms = malloc(sizeof *perms);
    res_q = malloc(sizeof *res_q);
    res_r = malloc(sizeof *res_r);
    other_in = malloc(sizeof *other_in);
    part_in = malloc(sizeof *part_in);
    part_res = malloc(sizeof *part_res);
    union_res = malloc(sizeof *union_res);
    if (!res_a || !res_b || !res_p || !perm_in || !perms || !res_q || !res_r ||
        !other_in || !part_in || !part_res || !union_res) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    rng.s = env_u64("DJ_RANDOM_SEED", SEED);
    if (rng.s == 0)
        rng.s = SEED;

    if (argc > 1 && strcmp(argv[1], "--case") == 0)
        return run_cases(mapdir, argc - 2, argv + 2);

    char err[256];
    dj_map *m = dj_map_load(path, err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    map = m;
    init_prov_near();
    long nphases = (long)env_u64("DJ_RANDOM_PHASES", DEFAULT_PHASES);

    corpus_gen g;
    corpus_init(&g, map, rng.s ^ UINT64_C(0x9e3779b97f4a7c15));
    hard_gen hg = {map, &rng, -1, -1};
    corpus_phase *cp = malloc(sizeof *cp), *extra = malloc(sizeof *extra);
    bool plain = env_u64("DJ_RANDOM_PLAIN", 0) != 0;
    int rules_percent = (int)env_u64("DJ_RANDOM_RULES", 25);
    nperms = (int)env_u64("DJ_RANDOM_PERMS", NPERMS);
    phase_input *mv = malloc(sizeof *mv), *other = malloc(sizeof *other);
    dj_result *mv_res = malloc(sizeof *mv_res);
    if (!cp || !extra || !mv || !other || !mv_res) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }

    for (long i = 0; i < nphases; i++) {
        corpus_generate(&g, cp);
        hard_load(&hg, cp, mv);
        default_rules = hard_rules(&hg, rules_percent, &rules);
        if (!plain) {
            /* 2/7 as generated, 1/7 each denser, chaos, both, a sea
             * battle, paradoxes planted (in the sea battle too). */
            int mode = corpus_rng_below(&rng, 7);
            if (mode == 5)
                hard_sea_battle(&hg, cp, mv);
            if (mode == 2 || mode == 4) {
                corpus_generate(&g, extra);
                hard_merge(&hg, mv, extra);
            }
            if (mode == 3 || mode == 4 ||
                (mode == 6 && corpus_rng_below(&rng, 2)))
                hard_chaos(&hg, mv);
            if (mode >= 5)
                for (int k = corpus_rng_below(&rng, 4); k >= 0; k--)
                    hard_plant_paradox(&hg, mv);
            if (corpus_rng_below(&rng, 4) == 0)
                hard_noise(&hg, mv);
            if (corpus_rng_below(&rng, 10) == 0)
                mv->pos.civil_disorder =
                    DJ_POWER_BIT(corpus_rng_below(&rng, map->npowers));
            if (corpus_rng_below(&rng, 8) == 0)
                near_victory(&mv->pos);
        }

        begin_phase("movement", i);
        count_movement++;
        bool ran = check_phase(mv, NULL, mv_res);

        if (ran && mv_res->next.ndislodged > 0 &&
            mv_res->next.phase.type == DJ_RETREAT) {
            movement_origin origin = {mv, mv_res};
            make_retreat_phase(mv_res, other);
            begin_phase("retreat", i);
            count_retreat++;
            check_phase(other, &origin, NULL);
        }

        make_adjustment_phase(cp, other);
        begin_phase("adjustment", i);
        count_adjustment++;
        check_phase(other, NULL, NULL);
    }

    printf("phases: %ld movement (%ld dislodged units, %ld destroyed), "
           "%ld retreat (%ld retreats made), %ld adjustment (%ld builds, "
           "%ld removals, %ld by civil disorder); %d orderings each; "
           "%ld phases failed; %ld movement phases split into independent "
           "groups\n",
           count_movement, count_dislodged, count_destroyed, count_retreat,
           count_retreats_ok, count_adjustment, count_builds, count_removals,
           count_autoremovals, nperms, nfailed_phases, count_split);
    printf("movement results: %ld bounce, %ld cut, %ld void, %ld no convoy, "
           "%ld dislodged, %ld illegal, %ld paradox, %ld disrupted, "
           "%ld destroyed\n",
           count_flag[0], count_flag[1], count_flag[2], count_flag[3],
           count_flag[4], count_flag[5], count_flag[6], count_flag[7],
           count_flag[8]);

    free(cp);
    free(extra);
    free(mv);
    free(other);
    free(mv_res);
    corpus_free(&g);
    dj_map_free(m);
    free(res_a);
    free(res_b);
    free(res_p);
    free(perm_in);
    free(perms);
    free(res_q);
    free(res_r);
    free(other_in);
    free(part_in);
    free(part_res);
    free(union_res);
    free(prov_near);
    return test_summary();
}
