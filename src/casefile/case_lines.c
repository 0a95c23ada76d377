/* SPDX-License-Identifier: MIT */
/*
 * case_lines.c — the lines inside a case's sections, and the case
 * completed at its END (the other half of the reader, casefile.c, reads
 * the lines and keywords).
 *
 * Design.  Every section line is "Power: ...": a unit ("A lon", jDip's
 * "Army Galicia."), a centre's owner, an order, or a result ("SUCCESS:
 * Power: order", "DISLODGED: Power: unit RETREATS places").  Units and
 * owners go straight into the case; orders and the RESULTS' orders are
 * kept as text until END, when the phase is known, then read by the
 * strict notation (reader/notation.h) and the results matched with the
 * orders they name.  A place the map does not know is reported with the
 * word and the names nearest to it.
 */
#define _POSIX_C_SOURCE 200809L /* strnlen */

#include "casefile/casefile_int.h"
#include "reader/chars.h"
#include "reader/notation.h"

#include <stdlib.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------- */

static inline char *skip_space(char *s)
{
    while (dj_is_space(*s))
        s++;
    return s;
}

/* The text from s to end, blanks cut off both ends (*end becomes NUL). */
static char *trim_to(char *s, char *end)
{
    while (end > s && dj_is_space(end[-1]))
        end--;
    *end = '\0';
    return skip_space(s);
}

static char *trim(char *s)
{
    while (dj_is_space(*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && dj_is_space(s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Cut s in place at any of `seps`; at most max words, the count returned. */
static int split_words(char *s, const char *seps, char **words, int max)
{
    int n = 0;
    while (n < max) {
        s += strspn(s, seps);
        if (!*s)
            break;
        words[n++] = s;
        s += strcspn(s, seps);
        if (*s)
            *s++ = '\0';
    }
    return n;
}

/* A word of a table of words, ignoring case: its value, or `none`. */
typedef struct word_value {
    const char *word;
    int value;
} word_value;

static int look_up_word(const word_value *table, size_t n, const char *w,
                        int none)
{
    for (size_t i = 0; i < n; i++)
        if (cf_equal_nocase(w, table[i].word))
            return table[i].value;
    return none;
}
#define LOOK_UP(table, w, none) \
    look_up_word(table, sizeof table / sizeof table[0], w, none)

/* ---- phases -------------------------------------------------------------- */

static const word_value SEASONS[] = {{"spring", DJ_SPRING},
                                     {"fall", DJ_FALL},
                                     {"autumn", DJ_FALL},
                                     {"winter", DJ_WINTER}};

static const word_value PHASE_TYPES[] = {
    {"movement", DJ_MOVEMENT},     {"moves", DJ_MOVEMENT},
    {"retreat", DJ_RETREAT},       {"retreats", DJ_RETREAT},
    {"adjustment", DJ_ADJUSTMENT}, {"adjustments", DJ_ADJUSTMENT},
    {"builds", DJ_ADJUSTMENT}};

static bool parse_year(const char *w, int *year)
{
    size_t n = strlen(w);
    if (n == 0 || n > 4 || strspn(w, "0123456789") != n)
        return false;
    *year = atoi(w);
    return *year > 0;
}

/* "Spring 1901, Movement", or jDip's "Spring 1901 (Movement)"; an
 * adjustment is always the winter's. */
bool cf_parse_phase(const char *text, dj_phase *ph, char *msg, size_t len)
{
    char copy[LINE_MAX_LEN];
    size_t n_text = strnlen(text, sizeof copy - 1);
    memcpy(copy, text, n_text);
    copy[n_text] = '\0';
    char *words[4];
    int n = split_words(copy, " \t,()", words, 4);
    if (n > 3) {
        snprintf(msg, len, "unexpected '%.*s' in phase", QUOTE_MAX, words[3]);
        return false;
    }
    int season = n == 3 ? LOOK_UP(SEASONS, words[0], -1) : -1;
    int type = n == 3 ? LOOK_UP(PHASE_TYPES, words[2], -1) : -1;
    if (season < 0 || type < 0 || !parse_year(words[1], &ph->year)) {
        snprintf(msg, len,
                 "bad phase '%.*s' (expected e.g. 'Spring 1901, Movement')",
                 QUOTE_MAX, text);
        return false;
    }
    ph->season = (dj_season)season;
    ph->type = (dj_phase_type)type;
    if (ph->type == DJ_ADJUSTMENT) {
        ph->season = DJ_WINTER;
    } else if (ph->season == DJ_WINTER) {
        snprintf(msg, len, "winter has only an adjustment phase");
        return false;
    }
    return true;
}

/* ---- powers -------------------------------------------------------------- */

int dj_casefile_find_power(const dj_map *map, const char *text)
{
    int p = dj_map_find_power(map, text);
    if (p >= 0 || !*text)
        return p;
    int found = -1;
    for (int i = 0; i < map->npowers; i++) {
        if (!cf_prefix_nocase(text, map->powers[i].name) &&
            !cf_prefix_nocase(text, map->powers[i].adjective))
            continue;
        if (found >= 0 && found != i)
            return -1;  /* ambiguous */
        found = i;
    }
    return found;
}

/*
 * Cut "Power: rest" (a trimmed line) at the colon.  The power is looked
 * up; *rest points after the colon, trimmed.
 */
static bool split_power(const dj_casefile *cf, char *line, int *power,
                        char **rest, char *msg, size_t len)
{
    char *colon = strchr(line, ':');
    if (!colon) {
        snprintf(msg, len, "expected 'Power: ...', got '%.*s'", QUOTE_MAX,
                 line);
        return false;
    }
    char *name = trim_to(line, colon);
    *rest = skip_space(colon + 1);
    *power = dj_casefile_find_power(cf->map, name);
    if (*power < 0) {
        snprintf(msg, len, "unknown power '%.*s'", QUOTE_MAX, name);
        return false;
    }
    if (!**rest) {
        snprintf(msg, len, "nothing after '%s:'", name);
        return false;
    }
    return true;
}

/* ---- units --------------------------------------------------------------- */

/* The unit word of n bytes at w: "A", "F" (by a table: armies and fleets
 * alternate from line to line), "army", "fleet"; DJ_NO_UNIT if none. */
static inline dj_unit_type unit_word(const char *w, size_t n)
{
    static const unsigned char UNIT_OF_LETTER[256] = {
        ['A'] = DJ_ARMY, ['a'] = DJ_ARMY, ['F'] = DJ_FLEET, ['f'] = DJ_FLEET};
    if (n == 1)
        return (dj_unit_type)UNIT_OF_LETTER[(unsigned char)w[0]];
    if (n == 4 && cf_prefix_nocase("army", w))
        return DJ_ARMY;
    if (n == 5 && cf_prefix_nocase("fleet", w))
        return DJ_FLEET;
    return DJ_NO_UNIT;
}

/* A location written in a unit line, from `where` (trimmed) to `end` (a
 * jDip line's full stop is cut off); -1 with a message if none. */
static inline int parse_place(const dj_map *map, char *where, char *end,
                              char *msg, size_t len)
{
    if (end > where && end[-1] == '.') {
        end--;
        while (end > where && dj_is_space(end[-1]))
            end--;
    }
    if (end == where) {
        snprintf(msg, len, "expected a location");
        return -1;
    }
    int loc = dj_map_find_location_n(map, where, (size_t)(end - where));
    if (loc < 0)
        dj_notation_unknown_place(map, where, (size_t)(end - where), msg,
                                  len);
    return loc;
}

/* "A lon", "F spa/sc", "Army Galicia."; with !need_type also a bare
 * "lon".  The text, from `text` to `end`, is trimmed.  The unit's type
 * and location (returned whole, not through pointers: this is every
 * unit line's path), its location -1 with a message if it has none. */
CF_EVERY_LINE dj_unit parse_unit_text(const dj_map *map, char *text,
                                      char *end, bool need_type, char *msg,
                                      size_t len)
{
    dj_unit u = {.power = -1, .loc = -1, .type = DJ_NO_UNIT};
    char *where = text;
    size_t n = 0;
    while (text[n] && !dj_is_space(text[n]))
        n++;
    u.type = unit_word(text, n);
    if (u.type != DJ_NO_UNIT) {
        where = skip_space(text + n);
    } else if (need_type) {
        snprintf(msg, len, "expected 'A' or 'F' and a location, got '%.*s'",
                 QUOTE_MAX, text);
        return u;
    }
    if (!*where) {
        snprintf(msg, len, "expected a location after '%.*s'", QUOTE_MAX,
                 text);
        return u;
    }
    u.loc = (int16_t)parse_place(map, where, end, msg, len);
    return u;
}

/* Can a unit of this type stand on this location?  If not, why. */
static inline bool unit_can_stand(const dj_map *map, dj_unit_type type,
                                  int loc, char *msg, size_t len)
{
    const dj_location *l = &map->locs[loc];
    /* & and |, not && and ||: no branch on the type, as armies and fleets
     * alternate from line to line. */
    bool army = type == DJ_ARMY, fleet = type == DJ_FLEET;
    if ((army & l->army_ok) | (fleet & l->fleet_ok))
        return true;
    if (army) {
        snprintf(msg, len, "an army cannot stand in %s", l->abbr);
        return false;
    }
    if (!l->is_coast && dj_map_ncoasts(map, l->province) > 0)
        snprintf(msg, len, "a fleet in %s needs a coast", l->abbr);
    else
        snprintf(msg, len, "a fleet cannot stand in %s", l->abbr);
    return false;
}

/* May one more unit go in list `list` of the case at this location (one
 * unit per province, at most DJ_MAX_UNITS)?  If so it is counted in. */
static inline bool take_province(dj_casefile *cf, int list, int n, int loc,
                          char *msg, size_t len)
{
    int prov = dj_province(cf->map, loc);
    if (cf->occupied[list][prov] == cf->case_seq) {
        snprintf(msg, len, "two units in %s", cf->map->locs[prov].abbr);
        return false;
    }
    if (n >= DJ_MAX_UNITS) {
        snprintf(msg, len, "too many units (at most %d)", DJ_MAX_UNITS);
        return false;
    }
    cf->occupied[list][prov] = cf->case_seq;
    return true;
}

static inline bool add_to_list(dj_casefile *cf, int list, dj_unit *units,
                               int *n, dj_unit u, char *msg, size_t len)
{
    if (!take_province(cf, list, *n, u.loc, msg, len))
        return false;
    units[(*n)++] = u;
    return true;
}

static bool add_dislodged(const dj_map *map, dj_position *pos, dj_unit u,
                          char *msg, size_t len)
{
    int prov = dj_province(map, u.loc);
    if (dj_position_dislodged_at(map, pos, prov) >= 0) {
        snprintf(msg, len, "two dislodged units in %s", map->locs[prov].abbr);
        return false;
    }
    if (pos->ndislodged >= DJ_MAX_UNITS) {
        snprintf(msg, len, "too many units (at most %d)", DJ_MAX_UNITS);
        return false;
    }
    dj_dislodged *d = &pos->dislodged[pos->ndislodged++];
    memset(d, 0, sizeof *d);
    d->unit = u;
    d->attacker_from = -1;
    return true;
}

/* PRESTATE_SUPPLYCENTER_OWNERS: "Power: A prov" — the letter is
 * decoration. */
static inline bool set_owner(const dj_map *map, dj_position *pos,
                             int power, int loc, char *msg, size_t len)
{
    int prov = dj_province(map, loc);
    if (!map->is_sc[prov]) {
        snprintf(msg, len, "%s is not a supply centre", map->locs[prov].abbr);
        return false;
    }
    pos->owner[prov] = (int16_t)power;
    return true;
}

/* A unit line of PRESTATE, PRESTATE_DISLODGED, POSTSTATE,
 * POSTSTATE_DISLODGED or PRESTATE_SUPPLYCENTER_OWNERS. */
static inline bool unit_line(dj_casefile *cf, dj_case *c, int power, char *text,
                      char *msg, size_t len)
{
    const dj_map *map = cf->map;
    dj_unit u = parse_unit_text(map, text, cf->cur_end,
                                cf->section != KW_SC_OWNERS, msg, len);
    if (u.loc < 0)
        return false;
    if (cf->section == KW_SC_OWNERS)
        return set_owner(map, &c->pre, power, u.loc, msg, len);
    if (!unit_can_stand(map, u.type, u.loc, msg, len))
        return false;
    u.power = (int16_t)power;
    switch (cf->section) {
    case KW_PRESTATE:
        return add_to_list(cf, LIST_PRESTATE, c->pre.units, &c->pre.nunits,
                           u, msg, len);
    case KW_PRE_DISLODGED:
        return add_dislodged(map, &c->pre, u, msg, len);
    case KW_POSTSTATE:
        return add_to_list(cf, LIST_POSTSTATE, c->post, &c->npost, u, msg,
                           len);
    case KW_POST_DISLODGED:
        return add_to_list(cf, LIST_POST_DISLODGED, c->post_dislodged,
                           &c->npost_dislodged, u, msg, len);
    default:
        snprintf(msg, len, "internal error: unknown section");
        return false;
    }
}

/* ---- orders and results -------------------------------------------------- */

/* An order as text, n bytes, bounded; it is read at END, in the case's
 * phase. */
static inline bool keep_text(char *dst, const char *text, size_t n, char *msg,
                      size_t len)
{
    if (n >= DJ_CASE_TEXT_MAX) {
        snprintf(msg, len, "order too long (at most %d characters)",
                 DJ_CASE_TEXT_MAX - 1);
        return false;
    }
    memcpy(dst, text, n);
    dst[n] = '\0';
    return true;
}

/* ORDERS: "Power: order". */
static inline bool order_line(dj_casefile *cf, dj_case *c, int power,
                       const char *text, char *msg, size_t len)
{
    if (c->norders >= DJ_CASE_MAX_ORDERS) {
        snprintf(msg, len, "too many orders (at most %d)", DJ_CASE_MAX_ORDERS);
        return false;
    }
    dj_case_order *o = &c->orders[c->norders];
    if (!keep_text(o->text, text, (size_t)(cf->cur_end - text), msg, len))
        return false;
    dj_order_blank(&o->order, DJ_ORDER_NONE, power, DJ_NO_UNIT, -1);
    o->line = cf->lineno;
    o->expect = DJ_EXPECT_NONE;
    o->expect_line = 0;
    c->norders++;
    return true;
}

/* What a results line says first: "SUCCESS:", "FAILURE:", "DISLODGED:". */
enum { OUTCOME_SUCCESS, OUTCOME_FAILURE, OUTCOME_DISLODGED };
static const word_value OUTCOMES[] = {{"success", OUTCOME_SUCCESS},
                                      {"failure", OUTCOME_FAILURE},
                                      {"dislodged", OUTCOME_DISLODGED}};

/* Cut "OUTCOME: Power: rest"; the outcome, or -1 with a message. */
static int split_outcome(const dj_casefile *cf, char *line, bool dislodged_ok,
                         int *power, char **rest, char *msg, size_t len)
{
    char *colon = strchr(line, ':');
    if (colon)
        *colon = '\0';
    char *word = trim(line);
    int outcome = colon ? LOOK_UP(OUTCOMES, word, -1) : -1;
    if (outcome < 0 || (outcome == OUTCOME_DISLODGED && !dislodged_ok)) {
        snprintf(msg, len, "expected %s, got '%.*s'",
                 dislodged_ok ? "'SUCCESS:', 'FAILURE:' or 'DISLODGED:'"
                              : "'SUCCESS:' or 'FAILURE:'",
                 QUOTE_MAX, word);
        return -1;
    }
    if (!split_power(cf, skip_space(colon + 1), power, rest, msg, len))
        return -1;
    return outcome;
}

/* Read an order of a results line; jDip names a unit that had no order
 * ("FAILURE: Austria: A war"): it held. */
static bool parse_result_order(const dj_map *map, int power,
                               dj_phase_type phase, const char *text,
                               dj_order *o, char *msg, size_t len)
{
    char why[256];
    if (dj_notation_parse(map, power, phase, text, o, why, sizeof why) == 0)
        return true;
    char held[LINE_MAX_LEN], ignored[256];
    snprintf(held, sizeof held, "%s H", text);
    if (phase == DJ_MOVEMENT &&
        dj_notation_parse(map, power, phase, held, o, ignored,
                          sizeof ignored) == 0)
        return true;
    snprintf(msg, len, "bad order '%.*s': %s", QUOTE_MAX, text, why);
    return false;
}

/* PRESTATE_RESULTS: "SUCCESS: Power: A bud-ser" / "FAILURE: ...". */
static bool prev_result_line(dj_casefile *cf, char *line, char *msg,
                             size_t len)
{
    int power;
    char *text;
    int outcome = split_outcome(cf, line, false, &power, &text, msg, len);
    if (outcome < 0)
        return false;
    if (cf->nresults >= DJ_CASE_MAX_ORDERS) {
        snprintf(msg, len, "too many results (at most %d)",
                 DJ_CASE_MAX_ORDERS);
        return false;
    }
    prev_result *r = &cf->results[cf->nresults];
    if (!parse_result_order(cf->map, power, DJ_MOVEMENT, text, &r->order,
                            msg, len))
        return false;
    r->success = outcome == OUTCOME_SUCCESS;
    cf->nresults++;
    return true;
}

/* "RETREATS alb, adr" or "RETREATS NONE" after a dislodged unit. */
static bool parse_retreats(const dj_map *map, char *text,
                           dj_case_dislodged *d, char *msg, size_t len)
{
    char *words[DJ_MAX_RETREATS + 2];
    int n = split_words(text, " \t,", words, DJ_MAX_RETREATS + 2);
    if (n < 2 || !cf_equal_nocase(words[0], "retreats")) {
        snprintf(msg, len, "expected 'RETREATS' and the places the unit may "
                           "retreat to, or 'RETREATS NONE'");
        return false;
    }
    d->nretreats = 0;
    if (n == 2 && cf_equal_nocase(words[1], "none"))
        return true;
    if (n > DJ_MAX_RETREATS + 1) {
        snprintf(msg, len, "too many retreats (at most %d)", DJ_MAX_RETREATS);
        return false;
    }
    for (int i = 1; i < n; i++) {
        int loc = parse_place(map, words[i], words[i] + strlen(words[i]),
                              msg, len);
        if (loc < 0)
            return false;
        d->retreats[d->nretreats++] = (int16_t)loc;
    }
    return true;
}

/* The word "RETREATS" in text, as a word of its own; NULL if none. */
static char *find_retreats(char *text)
{
    for (char *w = text; *w;) {
        w += strspn(w, " \t");
        size_t n = strcspn(w, " \t");
        if (n == strlen("retreats") && cf_prefix_nocase("retreats", w))
            return w;
        w += n;
    }
    return NULL;
}

/* RESULTS: "DISLODGED: Power: A tri RETREATS alb, adr". */
static bool dislodged_line(dj_casefile *cf, dj_case *c, int power,
                           char *text, char *msg, size_t len)
{
    char *retreats = find_retreats(text);
    if (!retreats || retreats == text) {
        snprintf(msg, len, "expected a unit, then 'RETREATS' and where it "
                           "may retreat to ('RETREATS NONE' if nowhere)");
        return false;
    }
    retreats[-1] = '\0';
    text = trim(text);
    dj_case_dislodged *d = &c->expect_dislodged[c->nexpect_dislodged];
    dj_unit u = parse_unit_text(cf->map, text, text + strlen(text), true,
                                msg, len);
    if (u.loc < 0 ||
        !take_province(cf, LIST_DISLODGED, c->nexpect_dislodged, u.loc, msg,
                       len) ||
        !parse_retreats(cf->map, retreats, d, msg, len))
        return false;
    u.power = (int16_t)power;
    d->unit = u;
    d->line = cf->lineno;
    c->nexpect_dislodged++;
    return true;
}

/* RESULTS: "SUCCESS: Power: order", "FAILURE: ...", "DISLODGED: ...". */
static bool expected_line(dj_casefile *cf, dj_case *c, char *line, char *msg,
                          size_t len)
{
    int power;
    char *text;
    int outcome = split_outcome(cf, line, true, &power, &text, msg, len);
    if (outcome < 0)
        return false;
    if (outcome == OUTCOME_DISLODGED)
        return dislodged_line(cf, c, power, text, msg, len);
    if (cf->nexpected >= DJ_CASE_MAX_ORDERS) {
        snprintf(msg, len, "too many results (at most %d)",
                 DJ_CASE_MAX_ORDERS);
        return false;
    }
    result_line *r = &cf->expected[cf->nexpected];
    if (!keep_text(r->text, text, strlen(text), msg, len))
        return false;
    r->line = cf->lineno;
    r->power = power;
    r->success = outcome == OUTCOME_SUCCESS;
    cf->nexpected++;
    return true;
}

bool cf_section_line(dj_casefile *cf, dj_case *c, int power, char *msg,
                     size_t len)
{
    char *line = cf->cur; /* cut in place: it is not handed out again */
    switch (cf->section) {
    case KW_NONE:
        snprintf(msg, len, "'%.*s' is not in a section (expected PRESTATE, "
                 "ORDERS, POSTSTATE, ...)", QUOTE_MAX, line);
        return false;
    case KW_PRE_RESULTS:
        return prev_result_line(cf, line, msg, len);
    case KW_RESULTS:
        return expected_line(cf, c, line, msg, len);
    default:
        break;
    }
    char *text;
    if (power < 0) {
        if (!split_power(cf, line, &power, &text, msg, len))
            return false;
    } else {
        text = skip_space(line + cf->power_len[power] + 1);
        if (!*text) {
            snprintf(msg, len, "nothing after '%s:'",
                     cf->map->powers[power].name);
            return false;
        }
    }
    if (cf->section == KW_ORDERS)
        return order_line(cf, c, power, text, msg, len);
    return unit_line(cf, c, power, text, msg, len);
}

/* ---- the end of a case --------------------------------------------------- */

/* Did this successful move arrive by convoy (so 4.A.5 may apply)? */
static bool came_by_convoy(const dj_map *map, const dj_position *pos,
                           const dj_order *o)
{
    if (o->via_convoy || o->npath > 0)
        return true;
    int to = dj_province(map, o->dest);
    int u = dj_position_unit_at(map, pos, to);
    dj_unit_type type = u >= 0 ? pos->units[u].type : o->unit_type;
    return type == DJ_ARMY &&
           !dj_map_reaches_province(map, o->loc, to, DJ_ARMY);
}

/*
 * From PRESTATE_RESULTS: who dislodged each unit and from where, which
 * provinces a standoff left empty, and so each unit's legal retreats.  A
 * standoff needs two failed moves into a province left empty: one failed
 * move alone (a broken convoy, an attack on a unit that then left) leaves
 * the province open to retreats, as jDip's DATC 6.H.9 and 6.H.12 have it.
 */
static void resolve_dislodged(const dj_casefile *cf, dj_case *c)
{
    const dj_map *map = cf->map;
    bool contested[DJ_MAX_LOCS] = {false};
    unsigned char bounced[DJ_MAX_LOCS] = {0};
    for (int i = 0; i < cf->nresults; i++) {
        const dj_order *o = &cf->results[i].order;
        if (o->kind != DJ_ORDER_MOVE || o->loc < 0 || o->dest < 0)
            continue;
        int to = dj_province(map, o->dest);
        if (!cf->results[i].success) {
            if (dj_position_unit_at(map, &c->pre, to) < 0 &&
                ++bounced[to] >= 2)
                contested[to] = true;
            continue;
        }
        int d = dj_position_dislodged_at(map, &c->pre, to);
        if (d >= 0) {
            c->pre.dislodged[d].attacker_from =
                (int16_t)dj_province(map, o->loc);
            c->pre.dislodged[d].by_convoy = came_by_convoy(map, &c->pre, o);
        }
    }
    bool convoy_retreat =
        dj_rule(&c->rules, DJ_RULE_CONVOY_RETREAT) == 'b';
    dj_position_compute_retreats(map, &c->pre, contested, convoy_retreat);
}

/* Read the orders kept as text, now that the phase is known. */
static bool parse_orders(const dj_casefile *cf, dj_case *c, char *err,
                         size_t errlen)
{
    for (int i = 0; i < c->norders; i++) {
        dj_case_order *o = &c->orders[i];
        char why[256];
        if (dj_notation_parse(cf->map, o->order.power, c->pre.phase.type,
                              o->text, &o->order, why, sizeof why) < 0) {
            cf_errorf(cf, o->line, err, errlen, "bad order '%.*s': %s",
                      QUOTE_MAX, o->text, why);
            return false;
        }
    }
    return true;
}

/* Each RESULTS line to the order it names: the first of ORDERS, of the
 * same power and read the same, without a result yet.  Then every order
 * must have one. */
static bool match_results(const dj_casefile *cf, dj_case *c, char *err,
                          size_t errlen)
{
    for (int k = 0; k < cf->nexpected; k++) {
        const result_line *r = &cf->expected[k];
        dj_order want;
        char msg[DJ_CASE_ERR_MAX];
        if (!parse_result_order(cf->map, r->power, c->pre.phase.type,
                                r->text, &want, msg, sizeof msg)) {
            cf_errorf(cf, r->line, err, errlen, "%s", msg);
            return false;
        }
        int i = 0, given = -1;
        for (; i < c->norders; i++) {
            const dj_case_order *o = &c->orders[i];
            if (o->order.power != r->power ||
                !dj_order_equal(&o->order, &want))
                continue;
            if (o->expect == DJ_EXPECT_NONE)
                break;
            given = o->expect_line;
        }
        if (i == c->norders && given > 0) {
            cf_errorf(cf, r->line, err, errlen,
                      "a second result for '%.*s' (the first at line %d)",
                      QUOTE_MAX, r->text, given);
            return false;
        }
        if (i == c->norders) {
            cf_errorf(cf, r->line, err, errlen,
                      "'%s: %.*s' is not an order of ORDERS",
                      cf->map->powers[r->power].name, QUOTE_MAX, r->text);
            return false;
        }
        c->orders[i].expect =
            r->success ? DJ_EXPECT_SUCCESS : DJ_EXPECT_FAILURE;
        c->orders[i].expect_line = r->line;
    }
    for (int i = 0; c->has_results && i < c->norders; i++)
        if (c->orders[i].expect == DJ_EXPECT_NONE) {
            cf_errorf(cf, c->orders[i].line, err, errlen,
                      "order '%.*s' has no result in RESULTS (SUCCESS: or "
                      "FAILURE:)", QUOTE_MAX, c->orders[i].text);
            return false;
        }
    if (c->nexpect_dislodged > 0 && c->pre.phase.type != DJ_MOVEMENT) {
        cf_errorf(cf, c->expect_dislodged[0].line, err, errlen,
                  "DISLODGED: only a movement phase dislodges units");
        return false;
    }
    return true;
}

bool cf_finish_case(dj_casefile *cf, dj_case *c, char *err, size_t errlen)
{
    if (!c->has_post && !c->post_same && !c->has_results) {
        cf_errorf(cf, cf->lineno, err, errlen,
                  "case '%.*s' states no outcome: give POSTSTATE, "
                  "POSTSTATE_SAME or RESULTS", QUOTE_MAX, c->name);
        return false;
    }
    if (c->has_post && c->post_same) {
        cf_errorf(cf, cf->lineno, err, errlen,
                  "case '%.*s' has both POSTSTATE and POSTSTATE_SAME",
                  QUOTE_MAX, c->name);
        return false;
    }
    if (!parse_orders(cf, c, err, errlen) || !match_results(cf, c, err, errlen))
        return false;
    resolve_dislodged(cf, c);
    return true;
}
