/* SPDX-License-Identifier: MIT */
/*
 * map_lines.c — step 4 of loading a map file (map_load.c): the lines
 * read once every location is known — powers with their homes and
 * centres, starting units, RULE lines and DPjudge's rule words, the
 * FLOW and BEGIN of the calendar, dummies and the other game lines — and
 * the one dispatch of a line to its reader by its keyword.
 */
#define _POSIX_C_SOURCE 200809L

#include "map.h"
#include "map_flow.h"
#include "map_int.h"
#include "position.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- step 4: powers, centres, units, directives -------------------------- */

static int power_by_name(const dj_map *m, const char *name)
{
    char want[DJ_NAME_MAX], have[DJ_NAME_MAX];
    if (!mp_normalise(name, want, sizeof want))
        return -1;
    for (int i = 0; i < m->npowers; i++) {
        mp_normalise(m->powers[i].name, have, sizeof have);
        if (strcmp(want, have) == 0)
            return i;
    }
    return -1;
}

static char pick_letter(const dj_map *m, const char *name)
{
    for (const char *s = name; *s; s++) {
        if (!isalnum((unsigned char)*s))
            continue;
        char c = (char)toupper((unsigned char)*s);
        bool used = false;
        for (int i = 0; i < m->npowers; i++)
            used = used || m->powers[i].letter == c;
        if (!used)
            return c;
    }
    return '\0';
}

/* The province of the place `word` names (any coast of it); -1 after
 * failing ("what: unknown location", what may be NULL), -2 for a place a
 * later DROP took off the board (passed over). */
static int province_named(parser *p, const char *word, const char *what,
                          src_ref at)
{
    bool gone;
    int loc = mp_loc_as_of(p, word, &gone);
    if (gone)
        return -2;
    if (loc < 0) {
        mp_fail_at(p, at, "%s%sunknown location '%s'", what ? what : "",
                   what ? ": " : "", word);
        return -1;
    }
    return p->map->locs[loc].province;
}

/*
 * A supply centre named on a power's line (owner) or an UNOWNED line (-1).
 * DPjudge's meaning of a centre named twice: an unowned centre named on a
 * power's line becomes that power's home (minor powers on the standard
 * board); a home centre on an UNOWNED line stays the power's home; the
 * same line twice is once.  Two powers' home is refused: DPjudge lets
 * only OWNS say which of them holds it, and dipjudge keeps one owner.
 */
static void add_centre(parser *p, const char *word, int owner, src_ref at)
{
    dj_map *m = p->map;
    int prov = province_named(p, word, NULL, at);
    if (prov < 0)
        return;
    if (!m->locs[prov].army_ok && !m->locs[prov].fleet_ok) {
        mp_fail_at(p, at,
                   "'%s' cannot be a supply centre: no unit can enter it",
                   word);
        return;
    }
    if (owner < 0) {
        p->unowned_listed[prov] = true;
        m->is_sc[prov] = true;
        return;
    }
    dj_power_set bit = DJ_POWER_BIT(owner);
    if (m->home_of[prov] & bit)
        return;
    if (m->home_of[prov]) {
        int other = 0;
        while (!(m->home_of[prov] & DJ_POWER_BIT(other)))
            other++;
        mp_fail_at(p, at, "'%s' is already a home centre of %s", word,
                   m->powers[other].name);
        return;
    }
    m->is_sc[prov] = true;
    m->home_of[prov] |= bit;
    m->initial_owner[prov] = (int16_t)owner;
}

/* "UNOWNED -CENTRE": an unowned centre of the map built on is no centre
 * (a power's home stays one). */
static void remove_unowned(parser *p, const char *word, src_ref at)
{
    dj_map *m = p->map;
    int prov = province_named(p, word, NULL, at);
    if (prov < 0)
        return;
    if (!m->is_sc[prov]) {
        mp_fail_at(p, at, "-%s: not a supply centre", word);
        return;
    }
    p->unowned_listed[prov] = false;
    if (!m->home_of[prov])
        m->is_sc[prov] = false;
}

/* A home centre marked with one of DPjudge's signs: refused, saying what
 * the sign means there.  DPjudge's Map.addHomes reads the signs; its
 * Game.buildSites and Game.ownership give the partisan site ('*') its
 * meaning (Russia's Siberia in 1900: the Russian Emergency Measures). */
static void refuse_home_mark(parser *p, const char *kw, const char *word,
                             src_ref at)
{
    if (word[0] == '*')
        mp_fail_at(p, at,
                   "%s %s: DPjudge's partisan site (*: a place, not a "
                   "centre, where the power may build while it holds some "
                   "but not all of its home centres, and then keeps one "
                   "unit more than its centres for each such site; RULE "
                   "NO_PARTISANS turns it off) is not supported",
                   kw, word);
    else
        mp_fail_at(p, at,
                   "%s %s: DPjudge's marked home centres (* partisan, "
                   "+ factory, ~ hidden, @ alternative) are not supported",
                   kw, word);
}

/* "-CENTRE" on a power's line: no longer its home (nor owned by it); it
 * stays a supply centre, unowned, as DPjudge has it. */
static void remove_home(parser *p, const char *word, int owner, src_ref at)
{
    dj_map *m = p->map;
    int prov = province_named(p, word, NULL, at);
    if (prov < 0)
        return;
    if (!(m->home_of[prov] & DJ_POWER_BIT(owner))) {
        mp_fail_at(p, at, "-%s: not a home centre of %s", word,
                   m->powers[owner].name);
        return;
    }
    m->home_of[prov] &= ~DJ_POWER_BIT(owner);
    if (m->initial_owner[prov] == owner)
        m->initial_owner[prov] = -1;
    p->unowned_listed[prov] = true;
}

/* The power's adjective and letter from DPjudge's "(ADJECTIVE:L)";
 * false after failing. */
static bool power_adjective(parser *p, char *word, char **adj, char *letter,
                            src_ref at)
{
    size_t alen = strlen(word);
    if (alen < 2 || word[alen - 1] != ')') {
        mp_fail_at(p, at, "power adjective must be written (ADJECTIVE)");
        return false;
    }
    word[alen - 1] = '\0';
    *adj = word + 1;
    *letter = '\0';
    char *colon = strchr(word, ':');
    if (colon) { /* DPjudge's "(ADJECTIVE:L)" gives the power's letter */
        if (strlen(colon) != 2 || !isalnum((unsigned char)colon[1])) {
            mp_fail_at(p, at, "the letter after ':' must be one letter or "
                              "digit");
            return false;
        }
        *letter = (char)toupper((unsigned char)colon[1]);
        *colon = '\0';
    }
    if (strlen(*adj) >= DJ_NAME_MAX) {
        mp_fail_at(p, at, "power adjective longer than %d characters",
                   DJ_NAME_MAX - 1);
        return false;
    }
    return true;
}

/* A new power named `name`; its index, or -1 after failing. */
static int declare_power(parser *p, const char *name, const char *adj,
                         char letter, src_ref at)
{
    dj_map *m = p->map;
    if (strlen(name) >= DJ_NAME_MAX) {
        mp_fail_at(p, at, "power name longer than %d characters",
                   DJ_NAME_MAX - 1);
        return -1;
    }
    if (adj && dj_map_find_power(m, adj) >= 0) {
        mp_fail_at(p, at, "power %s: adjective %s is another power's", name,
                   adj);
        return -1;
    }
    if (m->npowers == DJ_MAX_POWERS) {
        mp_fail_at(p, at, "more than %d powers", DJ_MAX_POWERS);
        return -1;
    }
    dj_power *pw = &m->powers[m->npowers];
    mp_title_case(pw->name, name, sizeof pw->name);
    /* DPjudge: a power without an adjective is its own ("BALKAN ()") */
    mp_title_case(pw->adjective, adj && *adj ? adj : name,
                  sizeof pw->adjective);
    for (int i = 0; letter && i < m->npowers; i++)
        if (m->powers[i].letter == letter) {
            mp_fail_at(p, at, "power %s: letter %c is already %s's", name,
                       letter, m->powers[i].name);
            return -1;
        }
    pw->letter = letter ? letter : pick_letter(m, pw->name);
    if (!pw->letter) {
        mp_fail_at(p, at, "power %s has no letter not already taken", name);
        return -1;
    }
    return m->npowers++;
}

/* A word that reads as a lower-case abbreviation ("bbb"). */
static bool all_lower(const char *w)
{
    bool lower = false;
    for (; *w; w++) {
        if (isupper((unsigned char)*w))
            return false;
        lower = lower || islower((unsigned char)*w);
    }
    return lower;
}

/*
 * DPjudge's power line: any line that is no keyword, no place and no
 * unit.  "FRANCE (FRENCH) BRE MAR PAR", "BALKAN SER RUM" (no adjective:
 * the name is its own), "BRITAIN" alone (declared, units to follow).  A
 * power already declared (by the map built on, or earlier) gains the
 * home centres named, and "-STP" takes one away.  The units on the lines
 * that follow are the power's.
 */
static void power_line(parser *p, char **tok, int ntok, src_ref at)
{
    dj_map *m = p->map;
    if (ntok > 1 && strcmp(tok[1], "->") == 0) {
        mp_fail_at(p, at,
                   "renaming a power (OLD -> NEW) is not supported");
        return;
    }
    int first = 1;
    char *adj = NULL, letter = '\0';
    if (ntok > 1 && tok[1][0] == '(') {
        if (!power_adjective(p, tok[1], &adj, &letter, at))
            return;
        first = 2;
    }
    int power = power_by_name(m, tok[0]);
    bool is_new = power < 0, gone;
    if (power < 0) {
        /* "Beta bbb": a place's name line that lost its '=' */
        bool name_line = !adj && ntok > 1 && !all_lower(tok[0]);
        for (int i = 1; name_line && i < ntok; i++)
            name_line = all_lower(tok[i]);
        if (name_line && strpbrk(tok[0], "abcdefghijklmnopqrstuvwxyz")) {
            mp_fail_at(p, at, "missing '=' in name line");
            return;
        }
        power = declare_power(p, tok[0], adj, letter, at);
        if (power < 0)
            return;
    } else if (adj) {
        dj_power *pw = &m->powers[power];
        if (*adj)
            mp_title_case(pw->adjective, adj, sizeof pw->adjective);
        for (int i = 0; letter && i < m->npowers; i++)
            if (i != power && m->powers[i].letter == letter) {
                mp_fail_at(p, at, "power %s: letter %c is already %s's",
                           tok[0], letter, m->powers[i].name);
                return;
            }
        if (letter)
            pw->letter = letter;
    }
    p->cur_power = p->unit_power = power;
    for (int i = first; i < ntok && !p->failed; i++) {
        if (tok[i][0] == '-' && tok[i][1])
            remove_home(p, tok[i] + 1, power, at);
        else if (strchr("*+~@", tok[i][0]) || strchr(tok[i], '('))
            refuse_home_mark(p, tok[0], tok[i], at);
        else if (is_new && !adj && mp_loc_as_of(p, tok[i], &gone) < 0 &&
                 !gone)
            mp_fail_at(p, at,
                       "unknown keyword '%s' (or, read as a power, unknown "
                       "home centre '%s')",
                       tok[0], tok[i]);
        else
            add_centre(p, tok[i], power, at);
    }
}

/* "UNPLAYED", "UNPLAYED POWER ...", "UNPLAYED ALL [EXCEPT POWER ...]":
 * powers of the map built on taken out of the game, with their units and
 * their home centres (which stay centres only if named on an UNOWNED
 * line). */
static void remove_power(parser *p, int power)
{
    dj_map *m = p->map;
    dj_power_set bit = DJ_POWER_BIT(power), low = bit - 1;
    for (int l = 0; l < m->nlocs; l++) {
        dj_power_set h = m->home_of[l];
        if ((h & bit) && h == bit && !p->unowned_listed[l])
            m->is_sc[l] = false;
        m->home_of[l] = (h & low) | ((h >> 1) & ~low);
        if (m->initial_owner[l] == power)
            m->initial_owner[l] = -1;
        else if (m->initial_owner[l] > power)
            m->initial_owner[l]--;
    }
    int kept = 0;
    for (int i = 0; i < m->nstart; i++) {
        if (m->start_units[i].power == power)
            continue;
        m->start_units[kept] = m->start_units[i];
        if (m->start_units[kept].power > power)
            m->start_units[kept].power--;
        p->start_file[kept++] = p->start_file[i];
    }
    m->nstart = kept;
    m->dummies = (m->dummies & low) | ((m->dummies >> 1) & ~low);
    m->npowers--;
    memmove(&m->powers[power], &m->powers[power + 1],
            (size_t)(m->npowers - power) * sizeof m->powers[0]);
}

static void unplayed_line(parser *p, char **tok, int ntok, src_ref at)
{
    dj_map *m = p->map;
    dj_power_set gone = 0;
    if (ntok == 1) {
        if (p->cur_power < 0) {
            mp_fail_at(p, at, "UNPLAYED does not follow a power");
            return;
        }
        gone = DJ_POWER_BIT(p->cur_power);
    } else {
        int first = 1;
        if (mp_word_is(tok[1], "ALL")) {
            if (ntok > 2 && !mp_word_is(tok[2], "EXCEPT")) {
                mp_fail_at(p, at, "UNPLAYED ALL may only be followed by "
                                  "EXCEPT");
                return;
            }
            if (ntok == 3) {
                mp_fail_at(p, at, "UNPLAYED ALL EXCEPT needs the powers "
                                  "left in");
                return;
            }
            gone = DJ_POWERS_UPTO(m->npowers);
            first = 3;
        }
        for (int i = first; i < ntok; i++) {
            int power = power_by_name(m, tok[i]);
            if (power < 0) {
                mp_fail_at(p, at, "UNPLAYED: unknown power '%s'", tok[i]);
                return;
            }
            if (first == 3)
                gone &= ~DJ_POWER_BIT(power);
            else
                gone |= DJ_POWER_BIT(power);
        }
    }
    for (int power = m->npowers - 1; power >= 0; power--)
        if (gone & DJ_POWER_BIT(power))
            remove_power(p, power);
    p->cur_power = p->unit_power = -1;
}

static void remove_start_unit(parser *p, int i)
{
    dj_map *m = p->map;
    m->nstart--;
    memmove(&m->start_units[i], &m->start_units[i + 1],
            (size_t)(m->nstart - i) * sizeof m->start_units[0]);
    memmove(&p->start_file[i], &p->start_file[i + 1],
            (size_t)(m->nstart - i) * sizeof p->start_file[0]);
}

/* "UNITS" under a power: it starts with none of the units read so far
 * (a variant clearing what the map it is built on gave the power). */
static void units_line(parser *p, src_ref at)
{
    if (p->cur_power < 0) {
        mp_fail_at(p, at, "UNITS does not follow a power");
        return;
    }
    for (int i = p->map->nstart - 1; i >= 0; i--)
        if (p->map->start_units[i].power == p->cur_power)
            remove_start_unit(p, i);
    p->unit_power = p->cur_power;
}

/* "A BUD" / "F STP/SC" under a power name. */
static void unit_line(parser *p, char **tok, int ntok, src_ref at)
{
    dj_map *m = p->map;
    if (ntok != 2) {
        mp_fail_at(p, at, "unit line must be a unit type and one location");
        return;
    }
    if (p->unit_power < 0) {
        mp_fail_at(p, at, "unit '%s %s' does not follow a power name", tok[0],
                   tok[1]);
        return;
    }
    bool gone;
    int loc = mp_loc_as_of(p, tok[1], &gone);
    if (gone)
        return; /* a later DROP took its place off the board */
    if (loc < 0) {
        mp_fail_at(p, at, "unknown location '%s'", tok[1]);
        return;
    }
    dj_unit_type type =
        toupper((unsigned char)tok[0][0]) == 'A' ? DJ_ARMY : DJ_FLEET;
    if (type == DJ_ARMY ? !m->locs[loc].army_ok : !m->locs[loc].fleet_ok) {
        mp_fail_at(p, at, "%s cannot stand in '%s'",
                   type == DJ_ARMY ? "an army" : "a fleet", tok[1]);
        return;
    }
    /* A variant may replace a unit of the map it is built on ("MAP
     * standard", then "ITALY" / "F ROM"); within one file two units in one
     * province are a mistake. */
    for (int i = 0; i < m->nstart; i++)
        if (m->locs[m->start_units[i].loc].province == m->locs[loc].province) {
            if (p->start_file[i] == at.file) {
                mp_fail_at(p, at, "two units start in '%s'", tok[1]);
                return;
            }
            remove_start_unit(p, i);
            break;
        }
    if (m->nstart == DJ_MAX_UNITS) {
        mp_fail_at(p, at, "more than %d starting units", DJ_MAX_UNITS);
        return;
    }
    p->start_file[m->nstart] = at.file;
    m->start_units[m->nstart++] = (dj_start_unit){p->unit_power, type, loc};
}

/* The text after a directive's keyword, trimmed. */
static char *after_keyword(char *line)
{
    char *s = mp_trim(line);
    while (*s && !isspace((unsigned char)*s))
        s++;
    return mp_trim(s);
}

static void add_rule(parser *p, const char *text, src_ref at);

/*
 * DPjudge writes rules as words: "RULE BUILD_ANY", "RULES A !B".  The ones
 * that change how a variant plays become dipjudge rule options; the ones
 * about DPjudge's web pages or game set-up are not rules of play here.
 */
static const struct {
    const char *word;
    const char *assignment; /* NULL: refused, with `why` */
    const char *why;
} dpjudge_rules[] = {
    {"BUILD_ANY", "build_sites=any", NULL},
    {"!BUILD_ANY", "build_sites=home", NULL},
    {"HOME_BUILDS", "build_sites=homes", NULL},
    {"!HOME_BUILDS", "build_sites=home", NULL},
    {"REMOTE_BUILDS", "build_sites=remote", NULL},
    {"MOBILIZE", "", NULL}, /* sets dj_map.mobilize */
    /* dipjudge plays every DUMMY power so: nobody orders its units, which
     * hold, and nobody waits for it */
    {"CD_DUMMIES", "-", NULL},
    {"IMMOBILE_DUMMIES", "-", NULL},
    {"BLANK_BOARD", NULL, "starting on an empty board is not supported yet"},
    {"POWER_CHOICE", NULL,
     "is a setting of the game, not of the map: "
     "powers are chosen when players join"},
    {"CD_BUILDS", NULL,
     "powers in civil disorder building at random is not supported "
     "(they waive their builds)"},
    {"DUMMY_FIRE", NULL,
     "dummies dislodging their own units (friendly fire) is not supported"},
    {"FRIENDLY_FIRE", NULL,
     "a power dislodging its own units is not supported"},
    {"NO_DRAW", NULL, "a game that cannot end in a draw is not supported"},
};

static void dpjudge_rule_words(parser *p, char **tok, int ntok, src_ref at)
{
    for (int i = 1; i < ntok && !p->failed; i++) {
        size_t k = 0, n = sizeof dpjudge_rules / sizeof dpjudge_rules[0];
        while (k < n && !mp_word_is(tok[i], dpjudge_rules[k].word))
            k++;
        if (k == n)
            mp_fail_at(p, at,
                       "RULE %s: not a rule dipjudge knows (write "
                       "name=value; `judgectl rules` lists them)",
                       tok[i]);
        else if (!dpjudge_rules[k].assignment)
            mp_fail_at(p, at, "RULE %s: %s", tok[i], dpjudge_rules[k].why);
        else if (!dpjudge_rules[k].assignment[0])
            p->map->mobilize = true;
        else if (strcmp(dpjudge_rules[k].assignment, "-") == 0)
            ; /* already dipjudge's way */
        else
            add_rule(p, dpjudge_rules[k].assignment, at);
    }
}

static void rule_line(parser *p, char *line, char **tok, int ntok, src_ref at)
{
    char *text = after_keyword(line);
    if (!strchr(text, '=')) {
        if (ntok < 2)
            mp_fail_at(p, at, "RULE needs name=value or DPjudge rule words");
        else
            dpjudge_rule_words(p, tok, ntok, at);
        return;
    }
    if (text[0] == '=') {
        mp_fail_at(p, at, "RULE needs name=value");
        return;
    }
    add_rule(p, text, at);
}

static void add_rule(parser *p, const char *text, src_ref at)
{
    dj_map *m = p->map;
    if (strlen(text) >= DJ_NAME_MAX) {
        mp_fail_at(p, at, "RULE longer than %d characters", DJ_NAME_MAX - 1);
        return;
    }
    if (m->nrules == DJ_MAX_RULES) {
        mp_fail_at(p, at, "more than %d RULE lines", DJ_MAX_RULES);
        return;
    }
    memcpy(m->rules[m->nrules++], text, strlen(text) + 1);
}

static void number_directive(parser *p, char **tok, int ntok, src_ref at)
{
    dj_map *m = p->map;
    bool victory = mp_word_is(tok[0], "VICTORY");
    int v;
    if (ntok != 2 ||
        !mp_parse_number(tok[1], 1, victory ? DJ_MAX_LOCS : 9999, &v)) {
        mp_fail_at(p, at, "%s needs one number from 1 to %d", tok[0],
                   victory ? DJ_MAX_LOCS : 9999);
        return;
    }
    if (victory) {
        m->victory = v;
        p->victory_set = true;
        p->victory_at = at;
    } else {
        m->start_year = v;
    }
}

/* "MAP name" names the map; in a file included by another (the map a
 * variant is built on) it names only that file's map and is passed over. */
static void map_name_line(parser *p, char *line, src_ref at)
{
    if (at.file != 0)
        return;
    char *name = after_keyword(line);
    if (!*name || strlen(name) >= DJ_NAME_MAX) {
        mp_fail_at(p, at, "MAP needs a name of at most %d characters",
                   DJ_NAME_MAX - 1);
        return;
    }
    memcpy(p->map->name, name, strlen(name) + 1);
}

typedef enum line_kind {
    LK_BLANK,
    LK_RULE,
    LK_NAME,
    LK_TERRAIN,
    LK_CENTRES,
    LK_NUMBER,
    LK_MAP_NAME,
    LK_UNIT,
    LK_POWER,
    LK_BEGIN,
    LK_FLOW,
    LK_UNITS,
    LK_OWNS,
    LK_HOMES,
    LK_DUMMY,
    LK_IGNORED,
    LK_REFUSED,
    LK_DROP,
    LK_AMEND,
    LK_UNPLAYED,
    LK_NAMES
} line_kind;

/*
 * DPjudge's keywords.  Every keyword of its map dialect is here: read,
 * passed over (it only steers DPjudge's web pages), or refused with the
 * reason, so a map never half-loads.
 */
static const struct {
    const char *word;
    line_kind kind;
    const char *why; /* LK_IGNORED, LK_REFUSED: the reason */
} keywords[] = {
    {"RULE", LK_RULE, NULL},
    {"RULES", LK_RULE, NULL},
    {"UNOWNED", LK_CENTRES, NULL},
    {"NEUTRAL", LK_CENTRES, NULL},
    {"VICTORY", LK_NUMBER, NULL},
    {"YEAR", LK_NUMBER, NULL},
    {"MAP", LK_MAP_NAME, NULL},
    {"BEGIN", LK_BEGIN, NULL},
    {"FLOW", LK_FLOW, NULL},
    {"UNITS", LK_UNITS, NULL},
    {"OWNS", LK_OWNS, NULL},
    {"CENTERS", LK_OWNS, NULL},
    {"CENTRES", LK_OWNS, NULL},
    {"HOME", LK_HOMES, NULL},
    {"HOMES", LK_HOMES, NULL},
    {"INHABITS", LK_HOMES, NULL},
    {"DUMMY", LK_DUMMY, NULL},
    {"DUMMIES", LK_DUMMY, NULL},
    {"NAMES", LK_NAMES, NULL}, /* dipjudge's: more names for a place */
    {"FLAG", LK_IGNORED, "a flag picture for DPjudge's web pages"},
    {"FLAGS", LK_IGNORED, "flag pictures for DPjudge's web pages"},
    {"TEXTONLY", LK_IGNORED, "DPjudge has no PostScript map for it"},
    {"NOTIFY", LK_IGNORED, "whom DPjudge mails when a game starts"},
    {"IN", LK_REFUSED,
     "DPjudge's changing maps (IN/FROM: the board changes during the game, "
     "as in Zeus and Loeb9) are not supported"},
    {"FROM", LK_REFUSED,
     "DPjudge's changing maps (IN/FROM: the board changes during the game, "
     "as in Zeus and Loeb9) are not supported"},
    {"ROTATE", LK_REFUSED, "rotating control of powers is not supported"},
    {"NEWHOMES", LK_REFUSED,
     "home centres chosen during the game are not "
     "supported"},
    {"TEAM", LK_REFUSED, "teams of powers are not supported"},
    {"TEAMS", LK_REFUSED, "teams of powers are not supported"},
    {"LEAGUE", LK_REFUSED,
     "DPjudge's leagues (LEAGUE: minor powers that move as a league, as in "
     "Ambition) are not supported"},
    {"CONTROL", LK_REFUSED,
     "powers controlled by other powers are not "
     "supported"},
    {"RESERVES", LK_REFUSED, "reserve units are not supported"},
    {"MILITIA", LK_REFUSED, "militia units are not supported"},
    {"DROP", LK_DROP, NULL},
    {"AMEND", LK_AMEND, NULL},
    {"UNPLAYED", LK_UNPLAYED, NULL},
};

static int keyword_index(const char *word)
{
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (mp_word_is(word, keywords[i].word))
            return (int)i;
    return -1;
}

/* What a line is, from its shape; tok/ntok are its words. */
static line_kind classify(const char *line, char **tok, int ntok)
{
    dj_terrain t;
    if (ntok == 0)
        return LK_BLANK;
    int k = keyword_index(tok[0]);
    /* a RULE's or FLOW's '=' (IFYEARDIV:10=5) makes no name line */
    if (k >= 0 && (keywords[k].kind == LK_RULE || keywords[k].kind == LK_FLOW))
        return keywords[k].kind;
    if (strchr(line, '='))
        return LK_NAME;
    if (mp_terrain_word(tok[0], &t))
        return LK_TERRAIN;
    if (mp_word_is(tok[ntok - 1], "DIRECTIVE") ||
        mp_word_is(tok[ntok - 1], "DIRECTIVES"))
        return LK_REFUSED;
    if (k >= 0)
        return keywords[k].kind;
    if ((mp_word_is(tok[0], "A") || mp_word_is(tok[0], "F")) && ntok >= 2)
        return LK_UNIT;
    /* DPjudge: every other line is a power's */
    return LK_POWER;
}

/* "FLOW A.D.:MOVEMENT,RETREATS": entries of the game's year (map_flow.h). */
static void flow_line(parser *p, char **tok, int ntok, src_ref at)
{
    if (ntok < 2) {
        mp_fail_at(p, at,
                   "FLOW needs SEASON:PHASE,... , NEWYEAR[:n] or "
                   "IFYEARDIV:d");
        return;
    }
    char why[200];
    for (int i = 1; i < ntok; i++) {
        char up[64];
        size_t n = 0;
        for (; tok[i][n] && n + 1 < sizeof up; n++)
            up[n] = (char)toupper((unsigned char)tok[i][n]);
        up[n] = '\0';
        if (!dj_flow_add(&p->flow, up, why, sizeof why)) {
            mp_fail_at(p, at, "%s", why);
            return;
        }
    }
    if (!p->has_flow)
        p->flow_at = at;
    p->has_flow = true;
}

/* "BEGIN WINTER 1900 ADJUSTMENTS": the phase a new game starts in.  A
 * season of the map's own FLOW ("BEGIN A.D. 1425 MOVEMENT") is kept as
 * written and resolved when the whole map is read. */
static void begin_line(parser *p, char **tok, int ntok, src_ref at)
{
    int y;
    if (ntok == 4 && strlen(tok[1]) < sizeof p->begin_season &&
        strlen(tok[3]) < sizeof p->begin_type &&
        mp_parse_number(tok[2], 1, 9999, &y)) {
        snprintf(p->begin_season, sizeof p->begin_season, "%s", tok[1]);
        snprintf(p->begin_type, sizeof p->begin_type, "%s", tok[3]);
        p->begin_year = y;
        p->begin_set = true;
        p->begin_at = at;
    }
    static const struct {
        const char *season, *type;
        int s, t;
    } phases[] = {
        {"SPRING", "MOVEMENT", 0, 0},   {"FALL", "MOVEMENT", 1, 0},
        {"AUTUMN", "MOVEMENT", 1, 0},   {"WINTER", "ADJUSTMENTS", 2, 2},
        {"WINTER", "ADJUSTMENT", 2, 2}, {"WINTER", "BUILDS", 2, 2},
    };
    int year;
    if (ntok == 4 && mp_parse_number(tok[2], 1, 9999, &year))
        for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++)
            if (mp_word_is(tok[1], phases[i].season) &&
                mp_word_is(tok[3], phases[i].type)) {
                p->map->start_year = year;
                p->map->start_season = phases[i].s;
                p->map->start_type = phases[i].t;
                p->begin_standard = true;
                return;
            }
    p->begin_standard = false;
    if (p->begin_set)
        return; /* a FLOW season, perhaps: see resolve_flow */
    mp_fail_at(p, at,
               "BEGIN needs a season, a year and a phase: SPRING 1901 "
               "MOVEMENT, FALL 1901 MOVEMENT or WINTER 1900 ADJUSTMENTS");
}

/* The FLOW and BEGIN read: the first phase and how the years advance. */
void mp_resolve_flow(parser *p)
{
    dj_map *m = p->map;
    if (!p->has_flow) {
        if (!p->begin_set || p->begin_standard)
            return;
        static const char *const seasons[] = {"SPRING", "FALL", "AUTUMN",
                                              "WINTER"};
        for (size_t i = 0; i < sizeof seasons / sizeof seasons[0]; i++)
            if (mp_word_is(p->begin_season, seasons[i])) {
                mp_fail_at(p, p->begin_at,
                           "BEGIN needs a season, a year and a phase: SPRING "
                           "1901 MOVEMENT, FALL 1901 MOVEMENT or WINTER 1900 "
                           "ADJUSTMENTS");
                return;
            }
        mp_fail_at(p, p->begin_at,
                   "BEGIN: unknown season '%s' (no FLOW line names it)",
                   p->begin_season);
        return;
    }
    char season[DJ_FLOW_WORD_MAX], type[16];
    int year = m->start_year;
    snprintf(season, sizeof season, "%s",
             p->begin_set ? p->begin_season : "SPRING");
    snprintf(type, sizeof type, "%s",
             p->begin_set ? p->begin_type : "MOVEMENT");
    if (p->begin_set)
        year = p->begin_year;
    dj_flow_year fy;
    char why[300];
    if (!dj_flow_compile(&p->flow, season, year, type, &fy, why, sizeof why)) {
        mp_fail_at(p, p->begin_set ? p->begin_at : p->flow_at, "%s", why);
        return;
    }
    m->start_season = fy.start_season;
    m->start_type = fy.start_type;
    m->start_year = fy.start_year;
    m->years_to_fall = fy.years_to_fall;
    m->years_to_spring = fy.years_to_spring;
    static const char *const standard[3] = {"SPRING", "FALL", "WINTER"};
    for (int s = 0; s < 3; s++)
        if (!mp_word_is(fy.season[s], standard[s]) &&
            !(s == 1 && mp_word_is(fy.season[s], "AUTUMN")))
            snprintf(m->season_names[s], sizeof m->season_names[s], "%s",
                     fy.season[s]);
}

/* The supply centre named by `word` (any coast of it), -1 after failing,
 * -2 for a place a later DROP took away. */
static int centre_named(parser *p, const char *word, const char *what,
                        src_ref at)
{
    int prov = province_named(p, word, what, at);
    if (prov < 0)
        return prov;
    if (!p->map->is_sc[prov]) {
        mp_fail_at(p, at, "%s: '%s' is not a supply centre", what, word);
        return -1;
    }
    return prov;
}

/*
 * Pass 3, once every centre is known.  "OWNS X Y" (the power also owns
 * these at the start), "CENTERS X Y" (it owns exactly these); "HOME X Y",
 * "HOMES", "INHABITS" (its home centres are these instead of those of its
 * power line; a second line adds to the first).
 */
static void centres_line(parser *p, line_kind kind, char **tok, int ntok,
                         src_ref at)
{
    dj_map *m = p->map;
    int power = p->cur_power;
    if (power < 0) {
        mp_fail_at(p, at, "%s does not follow a power", tok[0]);
        return;
    }
    dj_power_set bit = DJ_POWER_BIT(power);
    bool replace_owned = kind == LK_OWNS && mp_word_is(tok[0], "OWNS") == false;
    bool replace_homes = kind == LK_HOMES && !(p->homes_reset & bit);
    for (int l = 0; l < m->nlocs; l++) {
        if (replace_owned && m->initial_owner[l] == power)
            m->initial_owner[l] = -1;
        if (replace_homes)
            m->home_of[l] &= ~bit;
    }
    if (kind == LK_HOMES)
        p->homes_reset |= bit;
    for (int i = 1; i < ntok && !p->failed; i++) {
        if (tok[i][0] == '*') {
            refuse_home_mark(p, tok[0], tok[i], at);
            return;
        }
        if (strchr("-+~@", tok[i][0])) {
            mp_fail_at(p, at,
                       "%s %s: DPjudge's marked home centres (- * + ~ @) "
                       "are not supported",
                       tok[0], tok[i]);
            return;
        }
        int prov = centre_named(p, tok[i], tok[0], at);
        if (prov == -2)
            continue;
        if (prov < 0)
            return;
        if (kind == LK_OWNS)
            m->initial_owner[prov] = (int16_t)power;
        else
            m->home_of[prov] |= bit;
    }
}

/* Pass 3: "DUMMY" under a power, "DUMMIES France Italy", "DUMMIES ALL",
 * "DUMMIES ALL EXCEPT England": powers nobody plays (in civil disorder
 * from the start: their units hold, 4.D.8 removes). */
static void dummy_line(parser *p, char **tok, int ntok, src_ref at)
{
    dj_map *m = p->map;
    if (ntok == 1) {
        if (p->cur_power < 0)
            mp_fail_at(p, at, "DUMMY does not follow a power");
        else
            m->dummies |= DJ_POWER_BIT(p->cur_power);
        return;
    }
    p->cur_power = -1;
    int first = 1;
    dj_power_set set = 0;
    if (mp_word_is(tok[1], "ALL")) {
        if (ntok > 2 && !mp_word_is(tok[2], "EXCEPT")) {
            mp_fail_at(p, at, "%s ALL may only be followed by EXCEPT", tok[0]);
            return;
        }
        if (ntok == 3) {
            mp_fail_at(p, at, "%s ALL EXCEPT needs the powers left out",
                       tok[0]);
            return;
        }
        set = DJ_POWERS_UPTO(m->npowers);
        first = 3;
    }
    for (int i = first; i < ntok; i++) {
        int power = power_by_name(m, tok[i]);
        if (power < 0) {
            mp_fail_at(p, at, "%s: unknown power '%s'", tok[0], tok[i]);
            return;
        }
        if (first == 3)
            set &= ~DJ_POWER_BIT(power);
        else
            set |= DJ_POWER_BIT(power);
    }
    m->dummies |= set;
}

/* Pass 3 sees only what needs every centre and power to be known. */
static void late_line(parser *p, line_kind kind, char **tok, int ntok,
                      src_ref at)
{
    switch (kind) {
    case LK_POWER:
        p->cur_power = power_by_name(p->map, tok[0]);
        break;
    case LK_UNPLAYED:
    case LK_CENTRES:
        p->cur_power = -1;
        break;
    case LK_OWNS:
    case LK_HOMES:
        centres_line(p, kind, tok, ntok, at);
        break;
    case LK_DUMMY:
        dummy_line(p, tok, ntok, at);
        break;
    default:
        break;
    }
}

/* Pass 2 for everything but names and terrain. */
static void game_line(parser *p, line_kind kind, char *line, char **tok,
                      int ntok, src_ref at)
{
    /* DPjudge's meaning: the units are the last power line's, whatever
     * lines come between, until an UNOWNED line, a DUMMIES or UNPLAYED
     * list (which name no one power) or another power's line. */
    if (kind == LK_CENTRES || (kind == LK_DUMMY && ntok > 1))
        p->unit_power = -1;
    switch (kind) {
    case LK_BEGIN:
        begin_line(p, tok, ntok, at);
        break;
    case LK_FLOW:
        flow_line(p, tok, ntok, at);
        break;
    case LK_UNITS:
        units_line(p, at);
        break;
    case LK_RULE:
        rule_line(p, line, tok, ntok, at);
        break;
    case LK_CENTRES:
        for (int i = 1; i < ntok && !p->failed; i++)
            if (tok[i][0] == '-' && tok[i][1])
                remove_unowned(p, tok[i] + 1, at);
            else
                add_centre(p, tok[i], -1, at);
        break;
    case LK_NUMBER:
        number_directive(p, tok, ntok, at);
        break;
    case LK_MAP_NAME:
        map_name_line(p, line, at);
        break;
    case LK_UNIT:
        unit_line(p, tok, ntok, at);
        break;
    case LK_POWER:
        power_line(p, tok, ntok, at);
        break;
    case LK_UNPLAYED:
        unplayed_line(p, tok, ntok, at);
        break;
    default:
        break;
    }
}

static void refused_line(parser *p, char **tok, int ntok, src_ref at)
{
    int k = keyword_index(tok[0]);
    if (k >= 0)
        mp_fail_at(p, at, "keyword '%s' is not supported: %s", tok[0],
                   keywords[k].why);
    else if (ntok > 1 && mp_word_is(tok[0], "PAYOLA"))
        mp_fail_at(p, at,
                   "'%s %s': the Payola variant (orders bought with "
                   "bribes, its rules in a DIRECTIVES block) is not "
                   "supported",
                   tok[0], tok[ntok - 1]);
    else
        mp_fail_at(p, at,
                   "'%s%s%s': DPjudge's variant directive blocks (rules of "
                   "the %s variant) are not supported",
                   tok[0], ntok > 1 ? " " : "", ntok > 1 ? tok[ntok - 1] : "",
                   ntok > 1 ? tok[0] : "named");
}

static bool is_empty_line(const map_line *l)
{
    for (int i = 0; i < l->len; i++)
        if (!isspace((unsigned char)l->text[i]))
            return false;
    return true;
}

/* Dispatch one line; pass 1 takes names and terrain, pass 2 the rest. */
void mp_handle_line(parser *p, const map_line *l, int pass)
{
    char buf[LINE_CHARS_MAX + 1], words[LINE_CHARS_MAX + 1];
    mp_line_text(l, buf);
    char *line = mp_trim(buf);
    memcpy(words, line, strlen(line) + 1);
    char *tok[TOKENS_MAX];
    int ntok = mp_split_words(words, tok, TOKENS_MAX);
    line_kind kind = classify(line, tok, ntok);
    if (kind == LK_BLANK && !is_empty_line(l))
        return; /* a comment line does not close a unit list */
    p->line_index = (int)(l - p->lines);
    if (pass == 1) {
        dj_terrain t;
        if (kind == LK_REFUSED)
            refused_line(p, tok, ntok, l->at);
        else if (kind == LK_AMEND)
            mp_amend_line(p, tok, ntok, l->at);
        else if (kind == LK_DROP)
            mp_drop_line(p, tok, ntok, l->at);
        else if (kind == LK_NAME)
            mp_name_line(p, line, l->at);
        else if (kind == LK_NAMES)
            mp_names_line(p, tok, ntok, l->at);
        else if (kind == LK_TERRAIN && mp_terrain_word(tok[0], &t))
            mp_terrain_line(p, t, tok, ntok, l->at);
    } else if (pass == 2 && kind != LK_NAME && kind != LK_TERRAIN &&
               kind != LK_NAMES) {
        game_line(p, kind, line, tok, ntok, l->at);
    } else if (pass == 3) {
        late_line(p, kind, tok, ntok, l->at);
    }
}
