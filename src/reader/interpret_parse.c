/* SPDX-License-Identifier: MIT */
/*
 * interpret_parse.c — players' order text to skeletons (interpret_int.h).
 *
 * Design.  Four small passes over one order ("piece" of a line):
 *
 *   1. tokenise: words, dashes/arrows, parentheses and colons; dots
 *      vanish ("St. Pete", "Bu."), other punctuation separates words;
 *   2. tidy the tokens: drop list numbering, a power name in front
 *      ("France:"), glue coasts back on ("spa (nc)" -> "spa/nc") and
 *      hyphenated names ("mid-atlantic");
 *   3. classify each word: a keyword (unit word, verb, "via"), a
 *      nationality, a filler ("the", "in") or part of a place name; a
 *      word one letter off a long keyword ("suport") is read as that
 *      keyword when no place name is as close;
 *   4. a recursive descent over the classified words.  Consecutive place
 *      words form a *run*; a run is cut into places by a small dynamic
 *      programme that prefers exact names, then fewer places, so
 *      "north sea" is one place, "par bur" (a dash forgotten) two and
 *      "lon nth nwy" three.  Each place becomes a slot listing every
 *      location its words could mean.
 *
 * "con" is both Constantinople and a short "convoys": it is the verb only
 * right after the unit's place and with more words after it.
 */
#include "reader/fuzzy.h"
#include "reader/interpret_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/adjustment.h"
#include "util/fmt.h"

#define TOK_MAX 64  /* tokens in one order */
#define WORD_MAX 40 /* longest word kept, with the NUL */
#define RUN_MAX 12  /* words in one run of places */
#define SEG_WORDS 4 /* words in one place name */
#define SEG_TEXT (SEG_WORDS * WORD_MAX + 8)
#define INF_COST 1000
#define EXTRA_PLACE 2   /* cost of reading one more place in a run */

/* ---- tokens -------------------------------------------------------------- */

typedef enum { TK_WORD, TK_DASH, TK_LPAREN, TK_RPAREN, TK_COLON } tk_kind;

typedef struct token {
    tk_kind kind;
    bool space_before;
    char text[WORD_MAX];
} token;

/* What a word means to the grammar. */
typedef enum {
    G_LOC,    /* part of a place name */
    G_CON,    /* "con": Constantinople or "convoys" */
    G_UNIT,   /* value: dj_unit_type */
    G_NATION, /* value: power */
    G_HOLD,
    G_MOVE,
    G_SUPPORT,
    G_CONVOY,
    G_RETREAT,
    G_BUILD,
    G_DISBAND,
    G_REMOVE,
    G_WAIVE,
    G_VIA,
    G_FILLER, /* dropped */
} g_kind;

typedef struct gtok {
    g_kind kind;
    int value;
    int tok; /* token it came from */
} gtok;

typedef struct parser {
    const ir_ctx *c;
    int ntok;
    token tok[TOK_MAX];
    int ng;
    gtok g[TOK_MAX];
    int pos; /* next gtok */
    ir_skel *s;
    char *msg;
    size_t msglen;
} parser;

static int fail(parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail(parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt(p->msg, p->msglen, fmt, ap);
    va_end(ap);
    return -1;
}

static bool is_word_char(int c)
{
    return isalnum(c) || c == '/' || c == '\'' || c == '_';
}

static bool is_dash_char(int c)
{
    return c == '-' || c == '>' || c == '=' || c == '~';
}

static int add_token(parser *p, tk_kind kind, bool space)
{
    if (p->ntok >= TOK_MAX)
        return fail(p, "order too long");
    token *t = &p->tok[p->ntok++];
    t->kind = kind;
    t->space_before = space;
    t->text[0] = '\0';
    return 0;
}

/* A word starting at s; dots inside it are dropped.  Returns its length. */
static int scan_word(parser *p, const char *s, bool space)
{
    if (add_token(p, TK_WORD, space) < 0)
        return -1;
    token *t = &p->tok[p->ntok - 1];
    size_t n = 0;
    int i = 0;
    for (; is_word_char((unsigned char)s[i]) || s[i] == '.'; i++)
        if (s[i] != '.' && n + 1 < sizeof t->text)
            t->text[n++] = s[i];
    t->text[n] = '\0';
    if (n == 0)
        p->ntok--; /* dots alone */
    return i;
}

static int tokenise(parser *p, const char *text)
{
    bool space = true;
    for (int i = 0; text[i];) {
        unsigned char c = (unsigned char)text[i];
        int len = 1;
        if (c == (unsigned char)IR_BAD_BYTE)
            return fail(p, "cannot read a character that is not plain text");
        if (is_word_char(c) || c == '.') {
            if ((len = scan_word(p, text + i, space)) < 0)
                return -1;
        } else if (is_dash_char(c)) {
            while (is_dash_char((unsigned char)text[i + len]))
                len++;
            if (add_token(p, TK_DASH, space) < 0)
                return -1;
        } else if (c == '(' || c == ')' || c == ':') {
            if (add_token(p,
                          c == '('   ? TK_LPAREN
                          : c == ')' ? TK_RPAREN
                                     : TK_COLON,
                          space) < 0)
                return -1;
        } else {
            space = true; /* spaces and other punctuation separate words */
            i++;
            continue;
        }
        i += len;
        space = false;
    }
    return 0;
}

static void drop_tokens(parser *p, int at, int n)
{
    memmove(&p->tok[at], &p->tok[at + n],
            (size_t)(p->ntok - at - n) * sizeof p->tok[0]);
    p->ntok -= n;
}

static bool tok_is(const parser *p, int i, tk_kind kind)
{
    return i >= 0 && i < p->ntok && p->tok[i].kind == kind;
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

/* "1.", "2)", "- ", "-->" in front of an order: list numbering. */
static void drop_numbering(parser *p)
{
    while (p->ntok > 0 &&
           (p->tok[0].kind == TK_DASH || p->tok[0].kind == TK_RPAREN ||
            (p->tok[0].kind == TK_WORD && all_digits(p->tok[0].text))))
        drop_tokens(p, 0, 1);
}

/* ---- coasts -------------------------------------------------------------- */

static const char *const COAST_WORDS[][4] = {
    {"nc", "n", "north", "nc"},
    {"sc", "s", "south", "sc"},
    {"ec", "e", "east", "ec"},
    {"wc", "w", "west", "wc"},
};

/* "north", "n", "nc" -> "nc"; NULL if the word names no coast. */
static const char *coast_code(const char *w)
{
    for (size_t i = 0; i < sizeof COAST_WORDS / sizeof COAST_WORDS[0]; i++)
        for (int j = 1; j < 4; j++)
            if (strcmp(w, COAST_WORDS[i][j]) == 0)
                return COAST_WORDS[i][0];
    return NULL;
}

/* Tokens [i, j) are a coast: "nc", "north", "north coast". */
static const char *coast_tokens(const parser *p, int i, int j)
{
    if (j - i < 1 || j - i > 2 || !tok_is(p, i, TK_WORD))
        return NULL;
    if (j - i == 2 && !(tok_is(p, i + 1, TK_WORD) &&
                        strcmp(p->tok[i + 1].text, "coast") == 0))
        return NULL;
    return coast_code(p->tok[i].text);
}

/* Append "/code" to word token i (if it fits). */
static void glue_coast(parser *p, int i, const char *code)
{
    token *t = &p->tok[i];
    size_t n = strlen(t->text);
    if (n + strlen(code) + 2 <= sizeof t->text)
        snprintf(t->text + n, sizeof t->text - n, "/%s", code);
}

/*
 * "spa (nc)", "spa(north coast)" -> "spa/nc"; "spa /nc", "spa / nc" ->
 * "spa/nc"; any other parentheses are dropped, their words kept.
 */
static void glue_coasts(parser *p)
{
    for (int i = 0; i < p->ntok; i++) {
        token *t = &p->tok[i];
        if (t->kind == TK_LPAREN) {
            int close = i + 1;
            while (close < p->ntok && p->tok[close].kind == TK_WORD)
                close++;
            const char *code = coast_tokens(p, i + 1, close);
            if (code && tok_is(p, close, TK_RPAREN) &&
                tok_is(p, i - 1, TK_WORD)) {
                glue_coast(p, i - 1, code);
                drop_tokens(p, i, close - i + 1);
            } else {
                drop_tokens(p, i, 1);
            }
            i--;
        } else if (t->kind == TK_RPAREN) {
            drop_tokens(p, i--, 1);
        } else if (t->kind == TK_WORD && t->text[0] == '/' &&
                   tok_is(p, i - 1, TK_WORD)) {
            const char *code = t->text[1] ? coast_code(t->text + 1) : NULL;
            int used = 1;
            if (!t->text[1] && tok_is(p, i + 1, TK_WORD)) {
                code = coast_code(p->tok[i + 1].text);
                used = 2;
            }
            if (code) {
                glue_coast(p, i - 1, code);
                drop_tokens(p, i--, used);
            }
        }
    }
}

/* "mid-atlantic": a name with a hyphen, written without spaces. */
static void glue_hyphenated(parser *p)
{
    for (int i = 1; i + 1 < p->ntok; i++) {
        if (p->tok[i].kind != TK_DASH || p->tok[i].space_before ||
            p->tok[i + 1].space_before || !tok_is(p, i - 1, TK_WORD) ||
            !tok_is(p, i + 1, TK_WORD))
            continue;
        char joined[2 * WORD_MAX + 2];
        snprintf(joined, sizeof joined, "%s-%s", p->tok[i - 1].text,
                 p->tok[i + 1].text);
        if (strlen(joined) >= WORD_MAX ||
            dj_map_find_location(p->c->map, joined) < 0)
            continue;
        memcpy(p->tok[i - 1].text, joined, strlen(joined) + 1);
        drop_tokens(p, i, 2);
        i--;
    }
}

/* ---- powers -------------------------------------------------------------- */

static bool same_name(const char *word, const char *name, size_t n)
{
    size_t i = 0;
    for (; i < n && word[i] && name[i]; i++)
        if (tolower((unsigned char)word[i]) != tolower((unsigned char)name[i]))
            return false;
    return i == n;
}

/*
 * A power named by word: its name or adjective ("france", "french",
 * "france's"), or with allow_prefix a beginning of one that fits only one
 * power ("fra", "eng").  -1 if none.
 */
static int power_word(const dj_map *map, const char *word, bool allow_prefix)
{
    char w[WORD_MAX];
    snprintf(w, sizeof w, "%s", word);
    size_t n = strlen(w);
    if (n > 2 && strcmp(w + n - 2, "'s") == 0)
        w[n -= 2] = '\0';
    if (n < 2)
        return -1;
    int found = -1, nfound = 0;
    for (int i = 0; i < map->npowers; i++) {
        const dj_power *pw = &map->powers[i];
        if ((strlen(pw->name) == n && same_name(w, pw->name, n)) ||
            (strlen(pw->adjective) == n && same_name(w, pw->adjective, n)))
            return i;
        if (allow_prefix &&
            (same_name(w, pw->name, n) || same_name(w, pw->adjective, n))) {
            found = i;
            nfound++;
        }
    }
    return nfound == 1 ? found : -1;
}

/*
 * "France: ..." or "France A par-bur": a power's name in front.  Returns 1
 * when one was removed, 0 when none, -1 when it names another power.
 */
static int strip_power_prefix(parser *p)
{
    if (!tok_is(p, 0, TK_WORD))
        return 0;
    const char *w = p->tok[0].text;
    bool colon = tok_is(p, 1, TK_COLON);
    int power = power_word(p->c->map, w, colon);
    if (power < 0 && colon && strlen(w) == 1)
        power = dj_map_find_power(p->c->map, w); /* "F: A par-bur" */
    if (power < 0)
        return 0;
    if (!colon && p->ntok > 1 && dj_map_find_location(p->c->map, w) >= 0)
        return 0; /* a place that happens to be named like a power */
    drop_tokens(p, 0, colon ? 2 : 1);
    if (power != p->c->power)
        return fail(p, "this order is for %s, not %s",
                    p->c->map->powers[power].name,
                    p->c->map->powers[p->c->power].name);
    return 1;
}

static void drop_colons(parser *p)
{
    for (int i = 0; i < p->ntok; i++)
        if (p->tok[i].kind == TK_COLON)
            drop_tokens(p, i--, 1);
}

/* ---- classifying words --------------------------------------------------- */

typedef struct keyword {
    const char *word;
    g_kind kind;
    int value;
} keyword;

static const keyword KEYWORDS[] = {
    {"a", G_UNIT, DJ_ARMY},     {"army", G_UNIT, DJ_ARMY},
    {"f", G_UNIT, DJ_FLEET},    {"fleet", G_UNIT, DJ_FLEET},
    {"h", G_HOLD, 0},           {"hold", G_HOLD, 0},
    {"holds", G_HOLD, 0},       {"stand", G_HOLD, 0},
    {"stands", G_HOLD, 0},      {"stay", G_HOLD, 0},
    {"stays", G_HOLD, 0},       {"m", G_MOVE, 0},
    {"mv", G_MOVE, 0},          {"move", G_MOVE, 0},
    {"moves", G_MOVE, 0},       {"to", G_MOVE, 0},
    {"into", G_MOVE, 0},        {"attack", G_MOVE, 0},
    {"attacks", G_MOVE, 0},     {"s", G_SUPPORT, 0},
    {"sup", G_SUPPORT, 0},      {"supp", G_SUPPORT, 0},
    {"support", G_SUPPORT, 0},  {"supports", G_SUPPORT, 0},
    {"c", G_CONVOY, 0},         {"convoy", G_CONVOY, 0},
    {"convoys", G_CONVOY, 0},   {"con", G_CON, 0},
    {"r", G_RETREAT, 0},        {"retreat", G_RETREAT, 0},
    {"retreats", G_RETREAT, 0}, {"b", G_BUILD, 0},
    {"build", G_BUILD, 0},      {"builds", G_BUILD, 0},
    {"d", G_DISBAND, 0},        {"disband", G_DISBAND, 0},
    {"disbands", G_DISBAND, 0}, {"remove", G_REMOVE, 0},
    {"removes", G_REMOVE, 0},   {"waive", G_WAIVE, 0},
    {"waives", G_WAIVE, 0},     {"via", G_VIA, 0},
    {"by", G_VIA, 0},           {"go", G_MOVE, 0},
    {"goes", G_MOVE, 0},        {"the", G_FILLER, 0},
    {"in", G_FILLER, 0},        {"at", G_FILLER, 0},
    {"from", G_FILLER, 0},      {"unit", G_FILLER, 0},
    {"an", G_FILLER, 0},
};

#define NKEYWORDS (sizeof KEYWORDS / sizeof KEYWORDS[0])
#define KEYWORD_FUZZY_MIN 5 /* letters a word needs to be read as a keyword */

static const keyword *find_keyword(const char *w)
{
    for (size_t i = 0; i < NKEYWORDS; i++)
        if (strcmp(KEYWORDS[i].word, w) == 0)
            return &KEYWORDS[i];
    return NULL;
}

/* Is some place name within one letter of w? */
static bool near_a_place(const parser *p, const char *w)
{
    dj_loc_match m[1];
    return dj_fuzzy_locations(p->c->map, w, m, 1) == 1 && m[0].dist <= 1;
}

/* A long keyword one letter off w ("suport", "convoi"), or NULL. */
static const keyword *near_keyword(const parser *p, const char *w)
{
    if (strlen(w) < KEYWORD_FUZZY_MIN || dj_fuzzy_common_word(w))
        return NULL;
    const keyword *best = NULL;
    for (size_t i = 0; i < NKEYWORDS; i++) {
        const keyword *k = &KEYWORDS[i];
        if (strlen(k->word) >= KEYWORD_FUZZY_MIN && k->kind != G_FILLER &&
            dj_edit_distance(w, k->word, 1) <= 1) {
            if (best && best->kind != k->kind)
                return NULL; /* near two different keywords */
            best = k;
        }
    }
    if (best && near_a_place(p, w))
        return NULL;
    return best;
}

/* A power's name or adjective one letter off w ("frence"), or -1. */
static int near_power(const parser *p, const char *w)
{
    const dj_map *map = p->c->map;
    int found = -1;
    if (strlen(w) < KEYWORD_FUZZY_MIN || dj_fuzzy_common_word(w) ||
        near_a_place(p, w))
        return -1;
    for (int i = 0; i < map->npowers; i++) {
        char name[DJ_NAME_MAX], adj[DJ_NAME_MAX];
        ir_lower(name, sizeof name, map->powers[i].name);
        ir_lower(adj, sizeof adj, map->powers[i].adjective);
        if (dj_edit_distance(w, name, 1) <= 1 ||
            dj_edit_distance(w, adj, 1) <= 1) {
            if (found >= 0 && found != i)
                return -1;
            found = i;
        }
    }
    return found;
}

static int add_gtok(parser *p, g_kind kind, int value, int tok)
{
    if (kind == G_FILLER)
        return 0;
    /* "moves to", "- to", "->": one move */
    if (kind == G_MOVE && p->ng > 0 && p->g[p->ng - 1].kind == G_MOVE)
        return 0;
    p->g[p->ng++] = (gtok){kind, value, tok};
    return 0;
}

/* "via convoy", "by convoy", "by sea": the words after "via" belong to it. */
static int skip_after_via(const parser *p, int i)
{
    static const char *const AFTER[] = {"convoy", "convoys", "c", "sea",
                                        "boat"};
    if (!tok_is(p, i + 1, TK_WORD))
        return 0;
    for (size_t k = 0; k < sizeof AFTER / sizeof AFTER[0]; k++)
        if (strcmp(p->tok[i + 1].text, AFTER[k]) == 0)
            return 1;
    return 0;
}

/* "english channel": a power's adjective that begins a place name. */
static bool begins_place(const parser *p, int i)
{
    if (!tok_is(p, i + 1, TK_WORD))
        return false;
    char joined[2 * WORD_MAX + 2];
    snprintf(joined, sizeof joined, "%s %s", p->tok[i].text,
             p->tok[i + 1].text);
    return dj_map_find_location(p->c->map, joined) >= 0 ||
           near_a_place(p, joined);
}

static int classify_word(parser *p, int i)
{
    const char *w = p->tok[i].text;
    const dj_map *map = p->c->map;
    const keyword *k = find_keyword(w);
    if (k) {
        add_gtok(p, k->kind, k->value, i);
        return k->kind == G_VIA ? skip_after_via(p, i) : 0;
    }
    if (dj_map_find_location(map, w) >= 0) {
        add_gtok(p, G_LOC, 0, i);
        return 0;
    }
    int power = power_word(map, w, false);
    if (power >= 0 && !begins_place(p, i)) {
        add_gtok(p, G_NATION, power, i);
        return 0;
    }
    if (ir_polite_word(w)) { /* "please", "thanks", "i'd": not the order */
        ir_note(p->s->notes, sizeof p->s->notes, "'%s' left out", w);
        return 0;
    }
    power = near_power(p, w);
    if (power >= 0 && !begins_place(p, i)) {
        ir_note(p->s->notes, sizeof p->s->notes, "'%s' read as %s", w,
                map->powers[power].adjective);
        add_gtok(p, G_NATION, power, i);
        return 0;
    }
    k = near_keyword(p, w);
    if (k) {
        ir_note(p->s->notes, sizeof p->s->notes, "'%s' read as '%s'", w,
                k->word);
        add_gtok(p, k->kind, k->value, i);
        return k->kind == G_VIA ? skip_after_via(p, i) : 0;
    }
    add_gtok(p, G_LOC, 0, i);
    return 0;
}

static void classify(parser *p)
{
    p->ng = 0;
    for (int i = 0; i < p->ntok; i++) {
        if (p->tok[i].kind == TK_DASH)
            add_gtok(p, G_MOVE, 0, i);
        else if (p->tok[i].kind == TK_WORD)
            i += classify_word(p, i);
    }
}

/* ---- reading places ------------------------------------------------------ */

/* Words [first, first+n) of the run joined by single spaces. */
static void join_words(const parser *p, const int *words, int n, char *buf,
                       size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used + 1 < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%s", i ? " " : "",
                         p->tok[words[i]].text);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* Add (prov, coast, cost) to a slot, keeping the best cost per place. */
static void add_cand(ir_slot *s, int prov, const char *coast, int cost)
{
    for (int i = 0; i < s->ncand; i++)
        if (s->cand[i].prov == prov && strcmp(s->cand[i].coast, coast) == 0) {
            if (cost < s->cand[i].cost)
                s->cand[i].cost = (uint8_t)cost;
            return;
        }
    if (s->ncand >= IR_SLOT_CANDS) {
        int worst = 0; /* replace the worst if this one is better */
        for (int i = 1; i < s->ncand; i++)
            if (s->cand[i].cost > s->cand[worst].cost)
                worst = i;
        if (s->cand[worst].cost <= cost)
            return;
        s->ncand--;
        s->cand[worst] = s->cand[s->ncand];
    }
    ir_cand *c = &s->cand[s->ncand++];
    c->prov = (int16_t)prov;
    c->cost = (uint8_t)cost;
    snprintf(c->coast, sizeof c->coast, "%s", coast);
}

/* The coast part of a location's abbreviation ("nc" of "spa/nc"), or "". */
static const char *loc_coast(const dj_map *map, int loc)
{
    const char *slash = strchr(map->locs[loc].abbr, '/');
    return map->locs[loc].is_coast && slash ? slash + 1 : "";
}

static void add_loc(const dj_map *map, ir_slot *s, int loc, const char *coast,
                    int cost)
{
    add_cand(s, dj_province(map, loc), *coast ? coast : loc_coast(map, loc),
             cost);
}

/* Exact, else close, matches of text into the slot, with this coast. */
static void match_text(const parser *p, const char *text, const char *coast,
                       ir_slot *s)
{
    const dj_map *map = p->c->map;
    int loc = dj_map_find_location(map, text);
    if (loc >= 0) {
        add_loc(map, s, loc, coast, 0);
        return;
    }
    dj_loc_match m[IR_SLOT_CANDS];
    int n = dj_fuzzy_locations(map, text, m, IR_SLOT_CANDS);
    for (int i = 0; i < n; i++)
        add_loc(map, s, m[i].loc, coast, m[i].dist);
}

/*
 * Split a trailing coast off text: "bud/ec" -> "bud" + "ec", "spain north
 * coast" -> "spain" + "nc".  False when there is none.
 */
static bool split_coast(const char *text, char *prov, size_t plen, char *coast,
                        size_t clen)
{
    char buf[SEG_TEXT];
    snprintf(buf, sizeof buf, "%s", text);
    char *cut = strrchr(buf, '/');
    const char *code = NULL;
    if (cut) {
        *cut = '\0';
        code = coast_code(cut + 1);
        snprintf(coast, clen, "%s", code ? code : cut + 1);
    } else {
        size_t n = strlen(buf);
        if (n > 6 && strcmp(buf + n - 6, " coast") == 0)
            buf[n - 6] = '\0';
        cut = strrchr(buf, ' ');
        if (!cut || !(code = coast_code(cut + 1)))
            return false;
        *cut = '\0';
        snprintf(coast, clen, "%s", code);
    }
    snprintf(prov, plen, "%s", buf);
    return prov[0] && coast[0];
}

/* "ion sea", "nao ocean": a sea's short name with the word "sea" after. */
static int sea_named(const parser *p, const char *text)
{
    static const char *const SUFFIX[] = {" sea", " ocean"};
    char head[SEG_TEXT];
    size_t n = strlen(text);
    for (size_t i = 0; i < sizeof SUFFIX / sizeof SUFFIX[0]; i++) {
        size_t k = strlen(SUFFIX[i]);
        if (n <= k || strcmp(text + n - k, SUFFIX[i]) != 0)
            continue;
        snprintf(head, sizeof head, "%.*s", (int)(n - k), text);
        int loc = dj_map_find_location(p->c->map, head);
        if (loc >= 0 && p->c->map->locs[loc].terrain == DJ_WATER)
            return loc;
    }
    return -1;
}

static int cmp_cand(const void *x, const void *y)
{
    const ir_cand *a = x, *b = y;
    return a->cost != b->cost ? a->cost - b->cost : a->prov - b->prov;
}

/* Every location n words from words[0] could name. */
static void resolve_place(const parser *p, const int *words, int n, ir_slot *s)
{
    char text[SEG_TEXT], prov[SEG_TEXT], coast[IR_COAST_MAX];
    join_words(p, words, n, text, sizeof text);
    s->ncand = 0;
    ir_copy(s->written, sizeof s->written, text);
    int loc = dj_map_find_location(p->c->map, text);
    if (loc >= 0) {
        add_loc(p->c->map, s, loc, "", 0);
        return;
    }
    if ((loc = sea_named(p, text)) >= 0) {
        add_loc(p->c->map, s, loc, "", 0);
        return;
    }
    /* a coast is never guessed: only the place before it may be misspelt */
    if (split_coast(text, prov, sizeof prov, coast, sizeof coast))
        match_text(p, prov, coast, s);
    else
        match_text(p, text, "", s);
    qsort(s->cand, (size_t)s->ncand, sizeof s->cand[0], cmp_cand);
}

/* Does the province have a coast with this code? */
static bool has_coast(const dj_map *map, int prov, const char *code)
{
    for (int i = 0; i < dj_map_ncoasts(map, prov); i++)
        if (strcmp(loc_coast(map, dj_map_coast(map, prov, i)), code) == 0)
            return true;
    return false;
}

/* Cost of reading these words as one place: best candidate, a coast the
 * province does not have counting one more. */
static int place_cost(const parser *p, const ir_slot *s)
{
    int best = INF_COST;
    for (int i = 0; i < s->ncand; i++) {
        const ir_cand *c = &s->cand[i];
        int cost = c->cost;
        if (c->coast[0] && !has_coast(p->c->map, c->prov, c->coast))
            cost++;
        if (cost < best)
            best = cost;
    }
    return best;
}

/* Cutting a run into places: the table of every word span's reading. */
typedef struct run_table {
    int n;
    int words[RUN_MAX]; /* token index of each word */
    ir_slot slot[RUN_MAX][SEG_WORDS];
    int cost[RUN_MAX][SEG_WORDS]; /* [start][len-1] */
} run_table;

static void fill_run_table(const parser *p, run_table *t)
{
    for (int i = 0; i < t->n; i++)
        for (int len = 1; len <= SEG_WORDS; len++) {
            t->cost[i][len - 1] = INF_COST;
            if (i + len > t->n)
                continue;
            resolve_place(p, t->words + i, len, &t->slot[i][len - 1]);
            t->cost[i][len - 1] = place_cost(p, &t->slot[i][len - 1]);
        }
}

/* The first word no span covers: the word nobody can read. */
static int unreadable_word(const run_table *t)
{
    for (int w = 0; w < t->n; w++) {
        bool covered = false;
        for (int i = 0; i <= w; i++)
            for (int len = w - i + 1; len <= SEG_WORDS; len++)
                covered |= t->cost[i][len - 1] < INF_COST;
        if (!covered)
            return w;
    }
    return -1;
}

/*
 * Cut the run into k places, kmin <= k <= kmax, at the least total cost,
 * each place beyond the first costing EXTRA_PLACE more (so "engl channel"
 * is one place misspelt, not "engl" then "channel"), then the fewest
 * places.  Writes the k slots to out; returns k, or -1.
 */
static int cut_run(run_table *t, int kmin, int kmax, ir_slot *out)
{
    static const int INF = INF_COST * RUN_MAX;
    int best[RUN_MAX + 1][RUN_MAX + 1]; /* [k][words covered] */
    int back[RUN_MAX + 1][RUN_MAX + 1]; /* length of the last place */
    if (kmax > t->n)
        kmax = t->n;
    for (int k = 0; k <= kmax; k++)
        for (int j = 0; j <= t->n; j++)
            best[k][j] = k == 0 && j == 0 ? 0 : INF;
    for (int k = 1; k <= kmax; k++)
        for (int j = 1; j <= t->n; j++)
            for (int len = 1; len <= SEG_WORDS && len <= j; len++) {
                int c = best[k - 1][j - len] + t->cost[j - len][len - 1];
                if (best[k - 1][j - len] < INF &&
                    t->cost[j - len][len - 1] < INF_COST && c < best[k][j]) {
                    best[k][j] = c;
                    back[k][j] = len;
                }
            }
    int k = -1;
    for (int kk = kmin; kk <= kmax; kk++)
        if (best[kk][t->n] < INF &&
            (k < 0 || best[kk][t->n] + EXTRA_PLACE * (kk - k) < best[k][t->n]))
            k = kk;
    if (k < 0)
        return -1;
    for (int kk = k, j = t->n; kk > 0; kk--) {
        int len = back[kk][j];
        out[kk - 1] = t->slot[j - len][len - 1];
        j -= len;
    }
    return k;
}

/* ---- the grammar --------------------------------------------------------- */

static bool at_end(const parser *p)
{
    return p->pos >= p->ng;
}

static bool next_is(const parser *p, g_kind kind)
{
    return !at_end(p) && p->g[p->pos].kind == kind;
}

static bool accept(parser *p, g_kind kind)
{
    if (!next_is(p, kind))
        return false;
    p->pos++;
    return true;
}

/* Text of gtok i for messages. */
static const char *gtext(const parser *p, int i)
{
    if (i < 0 || i >= p->ng)
        return "the end";
    const token *t = &p->tok[p->g[i].tok];
    return t->kind == TK_DASH ? "-" : t->text;
}

/* Is gtok i part of a run of places that started at `start`? */
static bool in_run(const parser *p, int i, int start)
{
    if (p->g[i].kind == G_LOC)
        return true;
    /* "con": a place when a run starts with it or it ends the order */
    return p->g[i].kind == G_CON && (i == start || i == p->ng - 1);
}

/* Collect the run of place words at the cursor into t. */
static int collect_run(parser *p, run_table *t, const char *what)
{
    int start = p->pos;
    t->n = 0;
    while (!at_end(p) && in_run(p, p->pos, start)) {
        if (t->n == RUN_MAX)
            return fail(p, "too many words in a place name near '%s'",
                        gtext(p, p->pos));
        t->words[t->n++] = p->g[p->pos++].tok;
    }
    if (t->n == 0) {
        if (at_end(p))
            return fail(p, "incomplete order: expected %s after '%s'", what,
                        gtext(p, p->pos - 1));
        return fail(p, "expected %s, got '%s'", what, gtext(p, p->pos));
    }
    return 0;
}

/* Read a run as k places (kmin..kmax) into out; returns k or -1. */
static int read_places(parser *p, int kmin, int kmax, ir_slot *out,
                       const char *what)
{
    run_table t;
    if (collect_run(p, &t, what) < 0)
        return -1;
    fill_run_table(p, &t);
    int k = cut_run(&t, kmin, kmax, out);
    if (k >= 0)
        return k;
    int w = unreadable_word(&t);
    if (w >= 0)
        return fail(p, "unknown place '%s'", p->tok[t.words[w]].text);
    char text[SEG_TEXT * 2];
    join_words(p, t.words, t.n, text, sizeof text);
    return fail(p, "cannot read '%s' as %s", text, what);
}

/* Optional nationality and unit words around a unit; of two unit words
 * the second counts ("build a fleet": 'a' is only the article). */
static void unit_words(parser *p, dj_unit_type *type, int *nation)
{
    *type = DJ_NO_UNIT;
    *nation = -1;
    for (int i = 0; i < 4; i++) {
        if (next_is(p, G_NATION) && *nation < 0)
            *nation = p->g[p->pos++].value;
        else if (next_is(p, G_UNIT))
            *type = (dj_unit_type)p->g[p->pos++].value;
    }
}

/* The ordered unit; its nationality must be the power's own. */
static int unit_head(parser *p)
{
    ir_skel *s = p->s;
    unit_words(p, &s->unit_type, &s->unit_nation);
    if (s->unit_nation >= 0 && s->unit_nation != p->c->power)
        return fail(p, "cannot order a %s unit",
                    p->c->map->powers[s->unit_nation].adjective);
    s->has_unit = true;
    return 0;
}

/* Places after a move: "bel", "nth - bel", "nth bel": route then dest. */
static int read_route(parser *p, ir_slot *places, int max)
{
    int n = 0;
    do {
        int k = read_places(p, 1, max - n, places + n, "a destination");
        if (k < 0)
            return -1;
        n += k;
        if (n >= max && next_is(p, G_MOVE))
            return fail(p, "convoy route too long (at most %d places)",
                        IR_PATH_MAX);
    } while (accept(p, G_MOVE));
    return n;
}

/* Store places[0..n) as route + destination. */
static void set_route(ir_skel *s, const ir_slot *places, int n)
{
    for (int i = 0; i + 1 < n; i++)
        s->path[s->npath++] = places[i];
    s->dest = places[n - 1];
    s->has_dest = true;
}

/* After the destination: "via convoy", optionally naming the route. */
static int via_tail(parser *p)
{
    ir_skel *s = p->s;
    if (!accept(p, G_VIA))
        return 0;
    s->via = true;
    if (at_end(p) || !in_run(p, p->pos, p->pos))
        return 0;
    ir_slot places[IR_PATH_MAX];
    int room = IR_PATH_MAX - s->npath;
    int k = room > 0 ? read_places(p, 1, room, places, "a route") : -1;
    if (k < 0)
        return room > 0 ? -1
                        : fail(p, "convoy route too long (at most %d places)",
                               IR_PATH_MAX);
    for (int i = 0; i < k; i++)
        s->path[s->npath++] = places[i];
    return 0;
}

static int move_tail(parser *p, g_kind verb)
{
    ir_slot places[IR_PATH_MAX + 1];
    int n = read_route(p, places, IR_PATH_MAX + 1);
    if (n < 0)
        return -1;
    set_route(p->s, places, n);
    p->s->kind = verb == G_RETREAT ? DJ_ORDER_RETREAT : DJ_ORDER_MOVE;
    return via_tail(p);
}

/* What follows the run of places at the cursor (the cursor stays put):
 * G_FILLER stands for the end of the order. */
static g_kind after_run(parser *p)
{
    int save = p->pos;
    while (!at_end(p) && in_run(p, p->pos, save))
        p->pos++;
    g_kind next = at_end(p) ? G_FILLER : p->g[p->pos].kind;
    p->pos = save;
    return next;
}

/* "S A par - bur", "S par", "S A par H", "S par bur" (a dash forgotten). */
static int support_tail(parser *p, bool convoy)
{
    ir_skel *s = p->s;
    const char *what = convoy ? "a unit to convoy" : "a unit to support";
    ir_slot places[2];
    unit_words(p, &s->target_type, &s->target_nation);
    s->has_target = true;
    int k = read_places(p, 1, after_run(p) == G_MOVE ? 1 : 2, places, what);
    if (k < 0)
        return -1;
    s->target = places[0];
    s->kind = convoy ? DJ_ORDER_CONVOY : DJ_ORDER_SUPPORT;
    if (k == 2) {
        s->dest = places[1];
        s->has_dest = true;
    } else if (accept(p, G_MOVE)) {
        if (read_places(p, 1, 1, places, "a destination") < 0)
            return -1;
        s->dest = places[0];
        s->has_dest = true;
    } else {
        accept(p, G_HOLD);
    }
    if (convoy && !s->has_dest)
        return fail(p, "a convoy needs a destination ('- place')");
    return 0;
}

/* "A par bur" or "A lon nth nwy": a move with the dash left out. */
static int implicit_move(parser *p, ir_slot *places, int k)
{
    ir_skel *s = p->s;
    s->unit = places[0];
    set_route(s, places + 1, k - 1);
    s->kind = DJ_ORDER_MOVE;
    return via_tail(p);
}

/* What the unit does, after "A par". */
static int unit_tail(parser *p)
{
    ir_skel *s = p->s;
    g_kind verb = at_end(p) ? G_FILLER : p->g[p->pos].kind;
    switch (verb) {
    case G_HOLD:
        p->pos++;
        s->kind = DJ_ORDER_HOLD;
        return 0;
    case G_MOVE:
    case G_RETREAT:
        p->pos++;
        if (verb == G_RETREAT)
            accept(p, G_MOVE);
        return move_tail(p, verb);
    case G_SUPPORT:
    case G_CONVOY:
    case G_CON:
        p->pos++;
        return support_tail(p, verb != G_SUPPORT);
    case G_BUILD:
        p->pos++;
        s->kind = DJ_ORDER_BUILD;
        return 0;
    case G_DISBAND:
    case G_REMOVE:
        p->pos++;
        s->kind = DJ_ORDER_DISBAND;
        return 0;
    default:
        break;
    }
    if (at_end(p) && p->c->phase == DJ_ADJUSTMENT && p->c->pos) {
        /* "an army in marseille please" with builds due: a build; with
         * removals due, a removal */
        int due = dj_adjustment_due(p->c->map, p->c->pos, p->c->power);
        if (due != 0) {
            s->kind = due > 0 ? DJ_ORDER_BUILD : DJ_ORDER_DISBAND;
            ir_note(s->notes, sizeof s->notes, "read as a %s",
                    due > 0 ? "build" : "removal");
            return 0;
        }
    }
    if (at_end(p))
        return fail(p, "incomplete order: what should '%s' do?",
                    s->unit.written);
    return fail(p, "expected an order after '%s', got '%s'",
                gtext(p, p->pos - 1), gtext(p, p->pos));
}

/* An order that starts with its unit: "A par - bur", "par S mar". */
static int unit_first(parser *p)
{
    ir_slot places[IR_PATH_MAX + 2];
    if (unit_head(p) < 0)
        return -1;
    /* the dash may be missing only when nothing else says what to do */
    g_kind next = after_run(p);
    bool open = next == G_FILLER || next == G_VIA;
    int k = read_places(p, 1, open ? IR_PATH_MAX + 2 : 1, places, "a unit");
    if (k < 0)
        return -1;
    if (k > 1)
        return implicit_move(p, places, k);
    p->s->unit = places[0];
    return unit_tail(p);
}

/*
 * A bare "disband" or "remove" (perhaps "disband the army"): the one unit
 * it can mean, in a retreat phase the power's only dislodged unit, in an
 * adjustment phase with removals due its only unit; else say which are
 * meant.  Returns 1 when the unit slot was set, 0 when the verb is not
 * bare, -1 (failed) when more than one unit could be meant.
 */
static int only_unit(parser *p)
{
    const ir_ctx *c = p->c;
    if (!at_end(p) || !c->pos)
        return 0;
    int found = -1, n = 0;
    const dj_unit *first = NULL;
    if (c->phase == DJ_RETREAT) {
        for (int i = 0; i < c->pos->ndislodged; i++)
            if (c->pos->dislodged[i].unit.power == c->power) {
                found = c->pos->dislodged[i].unit.loc;
                first = first ? first : &c->pos->dislodged[i].unit;
                n++;
            }
    } else if (c->phase == DJ_ADJUSTMENT &&
               dj_adjustment_due(c->map, c->pos, c->power) < 0) {
        for (int i = 0; i < c->pos->nunits; i++)
            if (c->pos->units[i].power == c->power) {
                found = c->pos->units[i].loc;
                first = first ? first : &c->pos->units[i];
                n++;
            }
    } else {
        return 0;
    }
    if (n == 0)
        return fail(p, "which unit? you have none to disband or remove now");
    if (n != 1)
        return fail(p, "which unit? %d of your units could be meant: name "
                       "it, as in '%s %s %s'",
                    n, c->phase == DJ_RETREAT ? "disband" : "remove",
                    first->type == DJ_FLEET ? "F" : "A",
                    ir_place_name(c->map, dj_province(c->map, first->loc)));
    ir_slot *sl = &p->s->unit;
    memset(sl, 0, sizeof *sl);
    sl->ncand = 1;
    sl->cand[0].prov = (int16_t)dj_province(c->map, found);
    sl->cand[0].cost = 0;
    snprintf(sl->written, sizeof sl->written, "%.*s",
             (int)sizeof sl->written - 1,
             ir_place_name(c->map, sl->cand[0].prov));
    ir_note(p->s->notes, sizeof p->s->notes, "your only unit that can be "
                                             "meant");
    return 1;
}

/* "Build A par", "Remove F bre", "Hold A par": the verb first. */
static int verb_first(parser *p, g_kind verb)
{
    ir_slot places[2];
    if (unit_head(p) < 0)
        return -1;
    if (verb == G_DISBAND || verb == G_REMOVE) {
        int only = only_unit(p);
        if (only < 0)
            return -1;
        if (only > 0) {
            p->s->kind = DJ_ORDER_DISBAND;
            return 0;
        }
    }
    /* "retreat A mun sil": the destination may follow without a word */
    int kmax = verb == G_RETREAT && after_run(p) == G_FILLER ? 2 : 1;
    int k = read_places(p, 1, kmax, places, "a unit");
    if (k < 0)
        return -1;
    p->s->unit = places[0];
    if (k == 2) {
        p->s->dest = places[1];
        p->s->has_dest = true;
        p->s->kind = DJ_ORDER_RETREAT;
        return 0;
    }
    switch (verb) {
    case G_BUILD:
        p->s->kind = DJ_ORDER_BUILD;
        return 0;
    case G_HOLD:
        p->s->kind = DJ_ORDER_HOLD;
        return 0;
    case G_RETREAT:
        accept(p, G_MOVE);
        return move_tail(p, G_RETREAT);
    default:
        p->s->kind = DJ_ORDER_DISBAND;
        return 0;
    }
}

static int parse_order(parser *p)
{
    if (accept(p, G_WAIVE) || (next_is(p, G_BUILD) && p->pos + 1 < p->ng &&
                               p->g[p->pos + 1].kind == G_WAIVE)) {
        accept(p, G_BUILD);
        accept(p, G_WAIVE);
        accept(p, G_BUILD);
        p->s->kind = DJ_ORDER_WAIVE;
        return 0;
    }
    static const g_kind FIRST[] = {G_BUILD, G_DISBAND, G_REMOVE, G_RETREAT,
                                   G_HOLD};
    for (size_t i = 0; i < sizeof FIRST / sizeof FIRST[0]; i++)
        if (accept(p, FIRST[i]))
            return verb_first(p, FIRST[i]);
    return unit_first(p);
}

/* ---- orders in their phase ----------------------------------------------- */

/* Map what was written onto the kinds the phase has, or say why not. */
static int fit_phase(parser *p)
{
    ir_skel *s = p->s;
    dj_order_kind k = s->kind;
    switch (p->c->phase) {
    case DJ_MOVEMENT:
        if (k == DJ_ORDER_RETREAT)
            return fail(p, "retreats are ordered in a retreat phase");
        if (k == DJ_ORDER_DISBAND || k == DJ_ORDER_BUILD || k == DJ_ORDER_WAIVE)
            return fail(p, "builds and disbands are ordered in the "
                           "adjustment phase");
        return 0;
    case DJ_RETREAT:
        if (k == DJ_ORDER_MOVE)
            s->kind = DJ_ORDER_RETREAT;
        else if (k != DJ_ORDER_RETREAT && k != DJ_ORDER_DISBAND)
            return fail(p, "in a retreat phase a dislodged unit can only "
                           "retreat or disband");
        if (s->npath > 0 || s->via)
            return fail(p, "a retreat cannot go by convoy");
        return 0;
    case DJ_ADJUSTMENT:
        if (k == DJ_ORDER_DISBAND)
            s->kind = DJ_ORDER_REMOVE;
        else if (k != DJ_ORDER_BUILD && k != DJ_ORDER_WAIVE)
            return fail(p, "in an adjustment phase units are built or "
                           "removed");
        return 0;
    }
    return 0;
}

static void skel_init(ir_skel *s)
{
    memset(s, 0, sizeof *s);
    s->kind = DJ_ORDER_NONE;
    s->unit_nation = s->target_nation = -1;
}

int ir_parse_piece(const ir_ctx *c, const char *piece, ir_skel *skel, char *msg,
                   size_t msglen)
{
    parser p;
    p.c = c;
    p.ntok = p.ng = p.pos = 0;
    p.s = skel;
    p.msg = msg;
    p.msglen = msglen;
    skel_init(skel);
    char clean[DJ_READ_LINE_MAX], dropped[IR_NOTE_MAX];
    snprintf(clean, sizeof clean, "%s", piece);
    ir_strip_extras(c, clean, dropped, sizeof dropped);
    if (dropped[0])
        ir_note(skel->notes, sizeof skel->notes, "%s left out", dropped);
    if (tokenise(&p, clean) < 0)
        return -1;
    drop_numbering(&p);
    int prefix = strip_power_prefix(&p);
    if (prefix < 0)
        return -1;
    drop_colons(&p);
    drop_numbering(&p);
    if (p.ntok == 0)
        return 0;
    glue_coasts(&p);
    glue_hyphenated(&p);
    classify(&p);
    if (p.ng == 0)
        return 0;
    if (parse_order(&p) < 0)
        return -1;
    if (!at_end(&p))
        return fail(&p, "unexpected '%s' after the order", gtext(&p, p.pos));
    return fit_phase(&p) < 0 ? -1 : 1;
}
