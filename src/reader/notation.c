/* SPDX-License-Identifier: MIT */
/*
 * notation.c — the strict order reader: one line of standard notation in,
 * one dj_order out.
 *
 * Design.  The text is lower-cased into a bounded buffer and cut into tokens:
 * words (letters, digits and the characters "/._'" that appear inside
 * location names and coasts), "(" and ")", "-" and "->".  A small recursive
 * descent parser then walks the tokens: an optional leading command word
 * (build, remove, disband, retreat, waive), an optional unit word, the
 * unit's location, and a tail that says what the unit does.
 *
 * Locations are the only open-ended part.  At each place a location may
 * start, the parser tries the longest run of tokens first and asks the map
 * (dj_map_find_location, which knows abbreviations, aliases, full names and
 * coast notations) about each shorter run in turn, so "north sea",
 * "st petersburg", "spain (north coast)" and "spa nc" all work while
 * "lon-nth-bel" still splits into three locations.  A run never ends on a
 * keyword, so "nth c" is never mistaken for a place.
 *
 * The reader knows nothing of the position: it records what was written and
 * leaves every question of legality (moving to its own province, supporting
 * itself, building on a sea) to the adjudicator.
 */
#include "reader/notation.h"
#include "reader/chars.h"
#include "reader/fuzzy.h"

#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/fmt.h"

#define TEXT_MAX 512   /* longest order accepted, in bytes */
#define TOKENS_MAX 64  /* most tokens in one order */
#define RUN_MAX 8      /* most tokens in one location name */
#define WORD_SHOW 24   /* longest word quoted back in a message */

typedef enum { TK_WORD, TK_DASH, TK_ARROW, TK_LPAREN, TK_RPAREN } tok_kind;

typedef struct token {
    tok_kind kind;
    int start;          /* offset into parser.text */
    int len;
    bool space_before;  /* whitespace separates it from the previous token */
    unsigned words;     /* a word: the W_* lists it belongs to (0: none) */
} token;

typedef struct parser {
    const dj_map *map;
    dj_phase_type phase;
    char text[TEXT_MAX];  /* lower-cased copy of the order */
    const char *written;  /* the order as written, for messages */
    int ntok;
    token tok[TOKENS_MAX];
    int pos;              /* next token to read */
    char *err;
    size_t errlen;
} parser;

/* ---- errors -------------------------------------------------------------- */

static int fail(parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail(parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt(p->err, p->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Copy token i (or "the end") into buf for quoting in a message. */
static const char *token_text(const parser *p, int i, char *buf, size_t len)
{
    if (i >= p->ntok) {
        snprintf(buf, len, "end of order");
        return buf;
    }
    assert(i >= 0);
    int n = p->tok[i].len < WORD_SHOW ? p->tok[i].len : WORD_SHOW;
    snprintf(buf, len, "%.*s", n, p->text + p->tok[i].start);
    return buf;
}

/* ---- words with a meaning ------------------------------------------------ */

/* The lists of words with a meaning of their own, as bits: a word token
 * carries the set it belongs to, worked out once as it is cut. */
enum {
    W_ARMY = 1 << 0,
    W_FLEET = 1 << 1,
    W_HOLD = 1 << 2,
    W_MOVE = 1 << 3,       /* "to", "m", "move", "moves" */
    W_SUPPORT = 1 << 4,
    W_CONVOY = 1 << 5,
    W_RETREAT = 1 << 6,
    W_DISBAND = 1 << 7,
    W_REMOVE = 1 << 8,
    W_BUILD = 1 << 9,
    W_VIA = 1 << 10,
    W_WAIVE = 1 << 11,
    W_TO = 1 << 12,        /* "to" alone: "move to", "retreat to" */
    W_MOVE_VERB = 1 << 13  /* "move", "moves": may take a "to" */
};
#define W_KEYWORD ((1u << 12) - 1) /* in any list: a name never ends on it */
#define W_LONGEST 8 /* the longest word of the lists: "disbands", "supports" */

typedef struct word_def {
    const char *word;
    unsigned len;
    unsigned words;
} word_def;

#define WD(w, bits) {w, sizeof w - 1, bits}
static const word_def WORDS_A[] = {WD("a", W_ARMY), WD("army", W_ARMY),
                                   {NULL, 0, 0}};
static const word_def WORDS_B[] = {WD("b", W_BUILD), WD("build", W_BUILD),
                                   WD("builds", W_BUILD), WD("by", W_VIA),
                                   {NULL, 0, 0}};
static const word_def WORDS_C[] = {WD("c", W_CONVOY), WD("convoy", W_CONVOY),
                                   WD("convoys", W_CONVOY), {NULL, 0, 0}};
static const word_def WORDS_D[] = {WD("d", W_DISBAND),
                                   WD("disband", W_DISBAND),
                                   WD("disbands", W_DISBAND), {NULL, 0, 0}};
static const word_def WORDS_F[] = {WD("f", W_FLEET), WD("fleet", W_FLEET),
                                   {NULL, 0, 0}};
static const word_def WORDS_H[] = {WD("h", W_HOLD), WD("hold", W_HOLD),
                                   WD("holds", W_HOLD), {NULL, 0, 0}};
static const word_def WORDS_M[] = {WD("m", W_MOVE),
                                   WD("move", W_MOVE | W_MOVE_VERB),
                                   WD("moves", W_MOVE | W_MOVE_VERB),
                                   {NULL, 0, 0}};
static const word_def WORDS_R[] = {WD("r", W_RETREAT),
                                   WD("retreat", W_RETREAT),
                                   WD("retreats", W_RETREAT),
                                   WD("remove", W_REMOVE),
                                   WD("removes", W_REMOVE), {NULL, 0, 0}};
static const word_def WORDS_S[] = {WD("s", W_SUPPORT),
                                   WD("support", W_SUPPORT),
                                   WD("supports", W_SUPPORT),
                                   WD("stand", W_HOLD), WD("stands", W_HOLD),
                                   {NULL, 0, 0}};
static const word_def WORDS_T[] = {WD("to", W_MOVE | W_TO), {NULL, 0, 0}};
static const word_def WORDS_V[] = {WD("via", W_VIA), {NULL, 0, 0}};
static const word_def WORDS_W[] = {WD("waive", W_WAIVE),
                                   WD("waives", W_WAIVE), {NULL, 0, 0}};
#undef WD

/* The lists a lower-case word of n bytes belongs to. */
static unsigned word_lists(const char *w, int n)
{
    const word_def *d;
    switch (w[0]) {
    case 'a': d = WORDS_A; break;
    case 'b': d = WORDS_B; break;
    case 'c': d = WORDS_C; break;
    case 'd': d = WORDS_D; break;
    case 'f': d = WORDS_F; break;
    case 'h': d = WORDS_H; break;
    case 'm': d = WORDS_M; break;
    case 'r': d = WORDS_R; break;
    case 's': d = WORDS_S; break;
    case 't': d = WORDS_T; break;
    case 'v': d = WORDS_V; break;
    case 'w': d = WORDS_W; break;
    default: return 0;
    }
    for (; d->word; d++)
        if (d->len == (unsigned)n && memcmp(d->word, w, (size_t)n) == 0)
            return d->words;
    return 0;
}

/* ---- tokeniser ----------------------------------------------------------- */

static int add_token(parser *p, tok_kind kind, int start, int len, bool space)
{
    if (p->ntok >= TOKENS_MAX)
        return fail(p, "order too long");
    /* a token is a non-empty run of the text, inside it */
    assert(start >= 0 && len > 0 && start + len < TEXT_MAX);
    assert(p->text[start + len - 1] != '\0');
    unsigned words = kind == TK_WORD && len <= W_LONGEST
                         ? word_lists(p->text + start, len)
                         : 0;
    p->tok[p->ntok++] = (token){kind, start, len, space, words};
    return 0;
}

/* One token starting at text[i]; returns its length, or -1 on error. */
static int scan_token(parser *p, int i, bool space)
{
    const char *s = p->text;
    int n = 0;
    if (dj_is_word_char(s[i])) {
        while (dj_is_word_char(s[i + n]))
            n++;
        return add_token(p, TK_WORD, i, n, space) < 0 ? -1 : n;
    }
    switch (s[i]) {
    case '-':
    case '=': /* jDip writes a move "A bud => ser" */
        if (s[i + 1] == '>')
            return add_token(p, TK_ARROW, i, 2, space) < 0 ? -1 : 2;
        if (s[i] == '-')
            return add_token(p, TK_DASH, i, 1, space) < 0 ? -1 : 1;
        return fail(p, "unexpected character '='");
    case '(':
        return add_token(p, TK_LPAREN, i, 1, space) < 0 ? -1 : 1;
    case ')':
        return add_token(p, TK_RPAREN, i, 1, space) < 0 ? -1 : 1;
    default:
        if (isprint((unsigned char)s[i]))
            return fail(p, "unexpected character '%c'", s[i]);
        return fail(p, "unexpected character (byte 0x%02x)",
                    (unsigned)(unsigned char)s[i]);
    }
}

/* The text lower-cased into p->text, without the full stop that may end
 * an order as a sentence ("Army Galicia HOLD."). */
static int lower_text(parser *p, const char *text)
{
    size_t n = 0;
    for (; text[n]; n++) {
        if (n + 1 >= TEXT_MAX)
            return fail(p, "order too long");
        unsigned char c = (unsigned char)text[n];
        p->text[n] = (char)(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    }
    assert(n < TEXT_MAX);
    while (n > 0 && dj_is_space(p->text[n - 1]))
        n--;
    if (n > 0 && p->text[n - 1] == '.')
        n--;
    p->text[n] = '\0';
    return 0;
}

static int tokenise(parser *p, const char *text)
{
    if (lower_text(p, text) < 0)
        return -1;
    bool space = true;
    for (int i = 0; p->text[i];) {
        if (dj_is_space(p->text[i])) {
            space = true;
            i++;
            continue;
        }
        int len = scan_token(p, i, space);
        if (len < 0)
            return -1;
        assert(len > 0 && i + len < TEXT_MAX); /* progress, within the text */
        i += len;
        space = false;
    }
    return 0;
}

/* ---- token tests --------------------------------------------------------- */

/* Is token i a word of one of the lists? */
static bool word_in(const parser *p, int i, unsigned lists)
{
    assert(i >= 0 && p->ntok <= TOKENS_MAX);
    return i < p->ntok && (p->tok[i].words & lists) != 0;
}

static bool at_end(const parser *p)
{
    return p->pos >= p->ntok;
}

/* Every word with a meaning of its own: a location name never ends on
 * one. */
static bool is_keyword(const parser *p, int i)
{
    return word_in(p, i, W_KEYWORD);
}

/* Consume a word of the lists if it is next. */
static bool accept(parser *p, unsigned lists)
{
    if (word_in(p, p->pos, lists)) {
        p->pos++;
        return true;
    }
    return false;
}

/* Consume a move separator: "-", "->", "to", "m", "move(s) [to]". */
static bool accept_move_sep(parser *p)
{
    if (p->pos < p->ntok &&
        (p->tok[p->pos].kind == TK_DASH || p->tok[p->pos].kind == TK_ARROW)) {
        p->pos++;
        return true;
    }
    if (accept(p, W_MOVE_VERB)) {
        accept(p, W_TO);
        return true;
    }
    return accept(p, W_MOVE);
}

/* Consume "retreat(s) [to]" / "r [to]". */
static bool accept_retreat_word(parser *p)
{
    if (!accept(p, W_RETREAT))
        return false;
    accept(p, W_TO);
    return true;
}

/* The text of the previous token, for "expected ... after 'X'". */
static const char *prev_text(const parser *p, char *buf, size_t len)
{
    return token_text(p, p->pos - 1, buf, len);
}

/* ---- units and locations ------------------------------------------------- */

static dj_unit_type accept_unit_word(parser *p)
{
    if (accept(p, W_ARMY))
        return DJ_ARMY;
    if (accept(p, W_FLEET))
        return DJ_FLEET;
    return DJ_NO_UNIT;
}

/*
 * May tokens [first, last] form a location name?  Words, parentheses and
 * hyphens glued between words ("mid-atlantic"); never ending on a keyword,
 * a hyphen or an opening parenthesis.
 */
static bool run_is_name(const parser *p, int first, int last)
{
    for (int i = first; i <= last; i++) {
        const token *t = &p->tok[i];
        if (t->kind == TK_ARROW)
            return false;
        if (t->kind == TK_DASH &&
            (i == first || i == last || t->space_before ||
             p->tok[i + 1].space_before))
            return false;
    }
    const token *end = &p->tok[last];
    if (end->kind == TK_LPAREN || p->tok[first].kind != TK_WORD)
        return false;
    return end->kind != TK_WORD || !is_keyword(p, last);
}

/* May a name that has reached token i - 1 go on with token i?  Not over
 * an arrow or a dash with a space beside it (run_is_name), nor over a
 * word no name of the map holds (dj_map_may_name): "smy s a con - ank"
 * stops at "a", "lon - bel" at the dash. */
static bool may_continue_name(const parser *p, int i)
{
    const token *t = &p->tok[i];
    switch (t->kind) {
    case TK_ARROW:
        return false;
    case TK_DASH:
        return !t->space_before && i + 1 < p->ntok &&
               !p->tok[i + 1].space_before;
    case TK_WORD:
        return dj_map_may_name(p->map, p->text + t->start, (size_t)t->len);
    default:
        return true;
    }
}

/* Look up tokens [first, last] as one location; -1 if not a place. */
static int lookup_run(const parser *p, int first, int last)
{
    int start = p->tok[first].start;
    int len = p->tok[last].start + p->tok[last].len - start;
    if (len <= 0)
        return -1;
    return dj_map_find_location_n(p->map, p->text + start, (size_t)len);
}

/*
 * No name of the map at token p->pos: the error names the longest run of
 * words there that is near some names, with those names ("unknown
 * location 'norht sea' (nearest: North Sea (nth))"), else the first word.
 */
static int unknown_location(parser *p)
{
    int last = p->pos;
    while (last + 1 < p->ntok && last + 1 < p->pos + RUN_MAX &&
           p->tok[last + 1].kind == TK_WORD && !is_keyword(p, last + 1))
        last++;
    char msg[256];
    for (; last >= p->pos; last--) {
        int start = p->tok[p->pos].start;
        size_t len = (size_t)(p->tok[last].start + p->tok[last].len - start);
        if (dj_notation_unknown_place(p->map, p->written + start, len, msg,
                                      sizeof msg) > 0 || last == p->pos)
            break;
    }
    return fail(p, "%s", msg);
}

/* Parse a location, longest name first; `what` names it in messages. */
static int parse_location(parser *p, int *loc, const char *what)
{
    char buf[WORD_SHOW + 16];
    if (at_end(p) || p->tok[p->pos].kind != TK_WORD) {
        if (p->pos == 0)
            return fail(p, "expected %s", what);
        return fail(p, "expected %s after '%s'", what,
                     prev_text(p, buf, sizeof buf));
    }
    /* A longer run is only worth a lookup while it can be a name. */
    int longest = p->pos;
    while (longest + 1 < p->ntok && longest + 1 < p->pos + RUN_MAX &&
           may_continue_name(p, longest + 1))
        longest++;
    for (int last = longest; last >= p->pos; last--) {
        if (!run_is_name(p, p->pos, last))
            continue;
        int found = lookup_run(p, p->pos, last);
        if (found >= 0) {
            *loc = found;
            p->pos = last + 1;
            return 0;
        }
    }
    return unknown_location(p);
}

/*
 * jDip's notation names a unit of another power by that power's name or
 * adjective ("A kie S German A mun", "Germany's A mun"): the word is
 * skipped, unless it is itself a place's name.  Only a full name or
 * adjective counts, never a power's letter.
 */
static void skip_power_word(parser *p)
{
    if (at_end(p) || p->tok[p->pos].kind != TK_WORD)
        return;
    const token *t = &p->tok[p->pos];
    int len = t->len;
    const char *w = p->text + t->start;
    if (len > 2 && w[len - 2] == '\'' && w[len - 1] == 's')
        len -= 2;
    if (len < 2 || dj_map_find_location_n(p->map, w, (size_t)t->len) >= 0)
        return;
    for (int i = 0; i < p->map->npowers; i++) {
        const char *name = p->map->powers[i].name,
                   *adj = p->map->powers[i].adjective;
        if (((int)strlen(name) == len && strncasecmp(name, w, (size_t)len) == 0) ||
            ((int)strlen(adj) == len && strncasecmp(adj, w, (size_t)len) == 0)) {
            p->pos++;
            return;
        }
    }
}

/* Optional unit word then a location. */
static int parse_unit(parser *p, dj_unit_type *type, int *loc,
                      const char *what)
{
    skip_power_word(p);
    *type = accept_unit_word(p);
    return parse_location(p, loc, what);
}

/* ---- order tails --------------------------------------------------------- */

/* Nothing may follow a complete order. */
static int expect_end(parser *p)
{
    char buf[WORD_SHOW + 16];
    if (at_end(p))
        return 0;
    return fail(p, "unexpected '%s' after the order",
                token_text(p, p->pos, buf, sizeof buf));
}

/* "via convoy", "by convoy", or a bare "via". */
static bool accept_via(parser *p)
{
    if (!accept(p, W_VIA))
        return false;
    accept(p, W_CONVOY);
    return true;
}

/* A destination after a separator just read. */
static int parse_destination(parser *p, int *dest)
{
    char buf[WORD_SHOW + 16];
    if (at_end(p) || p->tok[p->pos].kind != TK_WORD)
        return fail(p, "expected a destination after '%s'",
                    prev_text(p, buf, sizeof buf));
    return parse_location(p, dest, "a destination");
}

/*
 * After "A lon -": the destination, or a convoy route "lon-nth-bel" whose
 * middle locations become o->path, then an optional "via convoy".
 */
static int parse_move_tail(parser *p, dj_order *o)
{
    int dest;
    if (parse_destination(p, &dest) < 0)
        return -1;
    while (accept_move_sep(p)) {
        if (o->npath >= DJ_MAX_PATH)
            return fail(p, "convoy route too long (at most %d provinces)",
                        DJ_MAX_PATH);
        o->path[o->npath++] = (int16_t)dj_province(p->map, dest);
        if (parse_destination(p, &dest) < 0)
            return -1;
    }
    o->dest = (int16_t)dest;
    if (accept_via(p))
        o->via_convoy = true;
    return expect_end(p);
}

/* After "A mar S": the supported unit, then "- dest", "H" or nothing. */
static int parse_support_tail(parser *p, dj_order *o)
{
    dj_unit_type type;
    int target, dest;
    if (parse_unit(p, &type, &target, "a unit to support") < 0)
        return -1;
    o->kind = DJ_ORDER_SUPPORT;
    o->target_type = type;
    o->target = (int16_t)target;
    if (accept_move_sep(p)) {
        if (parse_destination(p, &dest) < 0)
            return -1;
        o->dest = (int16_t)dest;
    } else {
        accept(p, W_HOLD);
    }
    return expect_end(p);
}

/* After "F nth C": the convoyed unit and where it goes. */
static int parse_convoy_tail(parser *p, dj_order *o)
{
    char buf[WORD_SHOW + 16];
    dj_unit_type type;
    int target, dest;
    if (parse_unit(p, &type, &target, "a unit to convoy") < 0)
        return -1;
    if (!accept_move_sep(p))
        return fail(p, "expected '-' and a destination after '%s'",
                    prev_text(p, buf, sizeof buf));
    if (parse_destination(p, &dest) < 0)
        return -1;
    o->kind = DJ_ORDER_CONVOY;
    o->target_type = type;
    o->target = (int16_t)target;
    o->dest = (int16_t)dest;
    return expect_end(p);
}

/* "Disband", "Remove" and "D" mean the same in each phase. */
static dj_order_kind removal_kind(const parser *p)
{
    return p->phase == DJ_ADJUSTMENT ? DJ_ORDER_REMOVE : DJ_ORDER_DISBAND;
}

/* What the unit at o->loc does: everything after "A lvp". */
static int parse_unit_tail(parser *p, dj_order *o)
{
    char buf[WORD_SHOW + 16];
    if (at_end(p))
        return fail(p, "incomplete order: expected what the unit does after "
                       "'%s'", prev_text(p, buf, sizeof buf));
    if (accept(p, W_HOLD)) {
        o->kind = DJ_ORDER_HOLD;
        return expect_end(p);
    }
    if (accept_move_sep(p)) {
        o->kind = p->phase == DJ_RETREAT ? DJ_ORDER_RETREAT : DJ_ORDER_MOVE;
        return parse_move_tail(p, o);
    }
    if (accept_retreat_word(p)) {
        o->kind = DJ_ORDER_RETREAT;
        return parse_move_tail(p, o);
    }
    if (accept(p, W_SUPPORT))
        return parse_support_tail(p, o);
    if (accept(p, W_CONVOY))
        return parse_convoy_tail(p, o);
    if (accept(p, W_BUILD)) {
        o->kind = DJ_ORDER_BUILD;
        return expect_end(p);
    }
    if (accept(p, W_DISBAND) || accept(p, W_REMOVE)) {
        o->kind = removal_kind(p);
        return expect_end(p);
    }
    char got[WORD_SHOW + 16];
    return fail(p, "expected an order after '%s', got '%s'",
                prev_text(p, buf, sizeof buf),
                token_text(p, p->pos, got, sizeof got));
}

/* ---- whole orders -------------------------------------------------------- */

/* "Build A par", "Remove F bre", "Disband A lvp": command word first. */
static int parse_command_first(parser *p, dj_order *o, dj_order_kind kind)
{
    dj_unit_type type;
    int loc;
    if (parse_unit(p, &type, &loc, "a unit") < 0)
        return -1;
    o->kind = kind;
    o->unit_type = type;
    o->loc = (int16_t)loc;
    return expect_end(p);
}

/* "Retreat A lvp to yor" / "retreat A lvp yor". */
static int parse_retreat_first(parser *p, dj_order *o)
{
    dj_unit_type type;
    int loc;
    if (parse_unit(p, &type, &loc, "a unit") < 0)
        return -1;
    o->kind = DJ_ORDER_RETREAT;
    o->unit_type = type;
    o->loc = (int16_t)loc;
    accept_move_sep(p);
    return parse_move_tail(p, o);
}

static int parse_order(parser *p, dj_order *o)
{
    if (p->ntok == 0)
        return fail(p, "empty order");
    if (accept(p, W_WAIVE)) {
        o->kind = DJ_ORDER_WAIVE;
        return expect_end(p);
    }
    if (accept(p, W_BUILD))
        return parse_command_first(p, o, DJ_ORDER_BUILD);
    if (accept(p, W_REMOVE) || accept(p, W_DISBAND))
        return parse_command_first(p, o, removal_kind(p));
    if (accept(p, W_RETREAT))
        return parse_retreat_first(p, o);

    dj_unit_type type;
    int loc;
    if (parse_unit(p, &type, &loc, "a unit") < 0)
        return -1;
    o->unit_type = type;
    o->loc = (int16_t)loc;
    return parse_unit_tail(p, o);
}

/* ---- the reader ---------------------------------------------------------- */

/* ---- the quick reader ---------------------------------------------------- */

/*
 * Nearly every order in a case file, and many in players' mail, is one of
 * five plain shapes written with single spaces and no extra words:
 *
 *     A lvp H      A lvp-yor      A lvp S A lon      A lvp S A lon-yor
 *     F nth C A lon-bel
 *
 * each location one word of letters, digits and '/', each dash glued or
 * between single spaces ("A LON - BEL", as judgectl writes), a move
 * perhaps followed by "via".  For these, in a movement phase, the quick
 * reader works on the text as it stands, with no token list and no search
 * for the longest name.  It accepts an order only where the general reader
 * would read it the same way, and hands anything else back (0) to the
 * general reader:
 *
 *  - "lon-yor" could be one name ("mid-atlantic" is): the general reader
 *    tries the glued run first, so the quick one looks it up too and gives
 *    up if it is a place ("lon - yor", between spaces, never is);
 *  - "H", "S", "C" and "via" are keywords, and a run of words never ends
 *    on one, so "lvp" alone is what the general reader finds before one;
 *  - after "S" or "C" a run of words could go on into the next unit
 *    ("lvp s a lon"); it can only if the unit's letter is a word of some
 *    name of the map, and then the quick reader gives up.
 *
 * tests/unit/test_notation and the notation fuzz target hold both readers
 * to the same answer on every input.
 */

/* The letters of a unit, as a table: a chain of tests on a byte is a
 * chain of branches, and the processor guesses those wrong where orders
 * vary (an army in one, a fleet in the next). */
static const unsigned char UNIT_LETTER[256] = {
    ['A'] = DJ_ARMY, ['a'] = DJ_ARMY, ['F'] = DJ_FLEET, ['f'] = DJ_FLEET};

/* A location word at s: its length. */
static size_t quick_word(const char *s)
{
    size_t n = 0;
    while (dj_is_location_char(s[n]))
        n++;
    return n;
}

static dj_unit_type quick_unit(char c)
{
    return (dj_unit_type)UNIT_LETTER[(unsigned char)c];
}

/* The location word of n bytes at s; -1 if not a place. */
static int quick_place(const dj_map *map, const char *s, size_t n)
{
    return n == 0 ? -1 : dj_map_find_location_n(map, s, n);
}

/*
 * "lon", "lon-yor" or "lon - yor" at s: *from, and *to (-1 when there is
 * no destination); the text after it, or NULL where the general reader
 * could differ.  A dash between spaces never joins a name; a glued one
 * may, so "lon-yor" must not be a place.
 */
static const char *quick_move(const dj_map *map, const char *s, int *from,
                              int *to)
{
    size_t a = quick_word(s);
    if ((*from = quick_place(map, s, a)) < 0)
        return NULL;
    *to = -1;
    const char *d;
    if (s[a] == '-')
        d = s + a + 1;
    else if (s[a] == ' ' && s[a + 1] == '-' && s[a + 2] == ' ')
        d = s + a + 3;
    else
        return s + a;
    size_t b = quick_word(d);
    if ((*to = quick_place(map, d, b)) < 0)
        return NULL;
    if (d == s + a + 1 && dj_map_find_location_n(map, s, a + 1 + b) >= 0)
        return NULL; /* "lon-yor" is one name */
    return d + b;
}

/* Is the text at s " via" and its end, ignoring case? */
static bool quick_via(const char *s)
{
    return s[0] == ' ' && (s[1] | 0x20) == 'v' && (s[2] | 0x20) == 'i' &&
           (s[3] | 0x20) == 'a' && s[4] == '\0';
}

/* 1 with *o filled, or 0 (*o untouched): not a plain order, the general
 * reader's. */
static int quick_order(const dj_map *map, int power, dj_phase_type phase,
                       const char *text, dj_order *o)
{
    if (phase != DJ_MOVEMENT || strlen(text) >= TEXT_MAX / 2)
        return 0;
    dj_unit_type type = quick_unit(text[0]);
    if (type == DJ_NO_UNIT || text[1] != ' ')
        return 0;
    int from, to;
    const char *t = quick_move(map, text + 2, &from, &to);
    if (!t)
        return 0;
    if (to >= 0) { /* "A lvp-yor", "A lon - bel via" */
        bool via = *t && quick_via(t);
        if (*t && !via)
            return 0;
        dj_order_blank(o, DJ_ORDER_MOVE, power, type, from);
        o->dest = (int16_t)to;
        o->via_convoy = via;
        return 1;
    }
    if (t[0] != ' ') /* "H", "S A lon...", "C A lon-bel" */
        return 0;
    char what = (char)(t[1] | 0x20);
    if (what == 'h' && t[2] == '\0') {
        dj_order_blank(o, DJ_ORDER_HOLD, power, type, from);
        return 1;
    }
    if ((what != 's' && what != 'c') || t[2] != ' ')
        return 0;
    dj_unit_type other = quick_unit(t[3]);
    if (other == DJ_NO_UNIT || t[4] != ' ' || dj_map_may_name(map, t + 3, 1))
        return 0;
    int target, dest;
    const char *end = quick_move(map, t + 5, &target, &dest);
    if (!end || *end || (what == 'c' && dest < 0))
        return 0;
    dj_order_blank(o, what == 's' ? DJ_ORDER_SUPPORT : DJ_ORDER_CONVOY, power,
                   type, from);
    o->target_type = other;
    o->target = (int16_t)target;
    o->dest = (int16_t)dest;
    return 1;
}

/* ---- the reader ---------------------------------------------------------- */

int dj_notation_parse(const dj_map *map, int power, dj_phase_type phase,
                      const char *text, dj_order *out, char *err,
                      size_t errlen)
{
    if (map && text && out && quick_order(map, power, phase, text, out)) {
        if (err && errlen > 0)
            err[0] = '\0';
        return 0;
    }
    return dj_notation_parse_general(map, power, phase, text, out, err,
                                     errlen);
}

int dj_notation_parse_general(const dj_map *map, int power,
                              dj_phase_type phase, const char *text,
                              dj_order *out, char *err, size_t errlen)
{
    parser p;
    p.map = map;
    p.phase = phase;
    p.ntok = 0;
    p.pos = 0;
    p.err = err;
    p.errlen = errlen;
    if (err && errlen > 0)
        err[0] = '\0';
    if (!map || !text || !out)
        return fail(&p, "no order");

    dj_order o = dj_order_make(DJ_ORDER_NONE, power, DJ_NO_UNIT, -1);
    p.written = text;
    if (tokenise(&p, text) < 0 || parse_order(&p, &o) < 0)
        return -1;
    *out = o;
    return 0;
}

/* ---- places not found ---------------------------------------------------- */

/* text's n bytes as dj_fuzzy_locations compares them: lower case, no dots,
 * single spaces. */
static void fuzzy_text(const char *text, size_t n, char *out, size_t size)
{
    size_t k = 0;
    bool space = false;
    for (size_t i = 0; i < n && k + 1 < size; i++) {
        char c = text[i];
        if (c == '.')
            continue;
        if (dj_is_space(c)) {
            space = k > 0;
            continue;
        }
        if (space && k + 2 < size)
            out[k++] = ' ';
        space = false;
        out[k++] = (char)(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    }
    out[k] = '\0';
}

int dj_notation_unknown_place(const dj_map *map, const char *text, size_t n,
                              char *msg, size_t len)
{
    char word[DJ_FUZZY_TEXT_MAX];
    fuzzy_text(text, n, word, sizeof word);
    dj_loc_match near[DJ_NEAREST_PLACES];
    int found = map ? dj_fuzzy_locations(map, word, near, DJ_NEAREST_PLACES)
                    : 0;
    int shown = n < WORD_SHOW ? (int)n : WORD_SHOW;
    int used = snprintf(msg, len, "unknown location '%.*s'", shown, text);
    for (int i = 0; i < found && used >= 0 && (size_t)used < len; i++) {
        const dj_location *l = &map->locs[near[i].loc];
        used += snprintf(msg + used, len - (size_t)used, "%s%s (%s)",
                         i == 0 ? " (nearest: " : ", ", l->name, l->abbr);
    }
    if (found > 0 && used >= 0 && (size_t)used < len)
        snprintf(msg + used, len - (size_t)used, ")");
    return found;
}
