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

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
    signed char keyword; /* is_keyword's answer: -1 not asked yet */
} token;

typedef struct parser {
    const dj_map *map;
    dj_phase_type phase;
    char text[TEXT_MAX];  /* lower-cased copy of the order */
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
    if (p->err && p->errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err, p->errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Copy token i (or "the end") into buf for quoting in a message. */
static const char *token_text(const parser *p, int i, char *buf, size_t len)
{
    if (i >= p->ntok) {
        snprintf(buf, len, "end of order");
        return buf;
    }
    int n = p->tok[i].len < WORD_SHOW ? p->tok[i].len : WORD_SHOW;
    snprintf(buf, len, "%.*s", n, p->text + p->tok[i].start);
    return buf;
}

/* ---- tokeniser ----------------------------------------------------------- */

static bool is_word_char(int c)
{
    return isalnum(c) || c == '/' || c == '.' || c == '_' || c == '\'';
}

static int add_token(parser *p, tok_kind kind, int start, int len, bool space)
{
    if (p->ntok >= TOKENS_MAX)
        return fail(p, "order too long");
    p->tok[p->ntok++] = (token){kind, start, len, space, -1};
    return 0;
}

/* One token starting at text[i]; returns its length, or -1 on error. */
static int scan_token(parser *p, int i, bool space)
{
    const char *s = p->text;
    int n = 0;
    if (is_word_char((unsigned char)s[i])) {
        while (is_word_char((unsigned char)s[i + n]))
            n++;
        return add_token(p, TK_WORD, i, n, space) < 0 ? -1 : n;
    }
    switch (s[i]) {
    case '-':
        if (s[i + 1] == '>')
            return add_token(p, TK_ARROW, i, 2, space) < 0 ? -1 : 2;
        return add_token(p, TK_DASH, i, 1, space) < 0 ? -1 : 1;
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

static int tokenise(parser *p, const char *text)
{
    size_t n = strlen(text);
    if (n >= TEXT_MAX)
        return fail(p, "order too long");
    for (size_t i = 0; i <= n; i++)
        p->text[i] = (char)tolower((unsigned char)text[i]);

    bool space = true;
    for (int i = 0; p->text[i];) {
        if (isspace((unsigned char)p->text[i])) {
            space = true;
            i++;
            continue;
        }
        int len = scan_token(p, i, space);
        if (len < 0)
            return -1;
        i += len;
        space = false;
    }
    return 0;
}

/* ---- token tests --------------------------------------------------------- */

static bool word_is(const parser *p, int i, const char *w)
{
    if (i >= p->ntok || p->tok[i].kind != TK_WORD)
        return false;
    /* hot (every word is tried against every keyword): the first letter
     * settles most, and no strlen of w */
    const char *t = p->text + p->tok[i].start;
    size_t n = (size_t)p->tok[i].len;
    return n > 0 && t[0] == w[0] && strncmp(t, w, n) == 0 && w[n] == '\0';
}

/* Is token i one of the words in the NULL-terminated list? */
static bool word_in(const parser *p, int i, const char *const *words)
{
    for (; *words; words++)
        if (word_is(p, i, *words))
            return true;
    return false;
}

static bool at_end(const parser *p)
{
    return p->pos >= p->ntok;
}

static const char *const ARMY_WORDS[] = {"a", "army", NULL};
static const char *const FLEET_WORDS[] = {"f", "fleet", NULL};
static const char *const HOLD_WORDS[] = {"h", "hold", "holds", "stand",
                                         "stands", NULL};
static const char *const MOVE_WORDS[] = {"to", "m", "move", "moves", NULL};
static const char *const SUPPORT_WORDS[] = {"s", "support", "supports", NULL};
static const char *const CONVOY_WORDS[] = {"c", "convoy", "convoys", NULL};
static const char *const RETREAT_WORDS[] = {"r", "retreat", "retreats", NULL};
static const char *const DISBAND_WORDS[] = {"d", "disband", "disbands", NULL};
static const char *const REMOVE_WORDS[] = {"remove", "removes", NULL};
static const char *const BUILD_WORDS[] = {"b", "build", "builds", NULL};
static const char *const VIA_WORDS[] = {"via", "by", NULL};
static const char *const WAIVE_WORDS[] = {"waive", "waives", NULL};

/* Every word with a meaning of its own: a location name never ends on one.
 * Asked once a token (the answer is kept in it: runs of every length end
 * on the same tokens). */
static bool is_keyword(parser *p, int i)
{
    if (i >= p->ntok)
        return false;
    token *t = &p->tok[i];
    if (t->keyword >= 0)
        return t->keyword;
    static const char *const *const lists[] = {
        ARMY_WORDS,   FLEET_WORDS,   HOLD_WORDS,    MOVE_WORDS,
        SUPPORT_WORDS, CONVOY_WORDS, RETREAT_WORDS, DISBAND_WORDS,
        REMOVE_WORDS, BUILD_WORDS,   VIA_WORDS,     WAIVE_WORDS};
    t->keyword = 0;
    if (t->len <= 8) /* no longer than the longest of them */
        for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++)
            if (word_in(p, i, lists[k])) {
                t->keyword = 1;
                break;
            }
    return t->keyword;
}

/* Consume a word from the list if it is next. */
static bool accept(parser *p, const char *const *words)
{
    if (word_in(p, p->pos, words)) {
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
    if (word_is(p, p->pos, "move") || word_is(p, p->pos, "moves")) {
        p->pos++;
        accept(p, (const char *const[]){"to", NULL});
        return true;
    }
    return accept(p, MOVE_WORDS);
}

/* Consume "retreat(s) [to]" / "r [to]". */
static bool accept_retreat_word(parser *p)
{
    if (!accept(p, RETREAT_WORDS))
        return false;
    accept(p, (const char *const[]){"to", NULL});
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
    if (accept(p, ARMY_WORDS))
        return DJ_ARMY;
    if (accept(p, FLEET_WORDS))
        return DJ_FLEET;
    return DJ_NO_UNIT;
}

/*
 * May tokens [first, last] form a location name?  Words, parentheses and
 * hyphens glued between words ("mid-atlantic"); never ending on a keyword,
 * a hyphen or an opening parenthesis.
 */
static bool run_is_name(parser *p, int first, int last)
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

/* Look up tokens [first, last] as one location; -1 if not a place. */
static int lookup_run(const parser *p, int first, int last)
{
    char name[TEXT_MAX];
    int start = p->tok[first].start;
    int len = p->tok[last].start + p->tok[last].len - start;
    if (len < 0 || len >= (int)sizeof name)
        return -1;
    memcpy(name, p->text + start, (size_t)len); /* hot: no snprintf */
    name[len] = '\0';
    return dj_map_find_location(p->map, name);
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
    /* A longer run is only worth a lookup while its words can be words of
     * a name (dj_map_may_name): "smy s a con - ank" stops at "a". */
    int longest = p->pos;
    while (longest + 1 < p->ntok && longest + 1 < p->pos + RUN_MAX) {
        const token *t = &p->tok[longest + 1];
        if (t->kind == TK_WORD &&
            !dj_map_may_name(p->map, p->text + t->start, (size_t)t->len))
            break;
        longest++;
    }
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
    return fail(p, "unknown location '%s'",
                token_text(p, p->pos, buf, sizeof buf));
}

/* Optional unit word then a location. */
static int parse_unit(parser *p, dj_unit_type *type, int *loc,
                      const char *what)
{
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
    if (!accept(p, VIA_WORDS))
        return false;
    accept(p, CONVOY_WORDS);
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
        accept(p, HOLD_WORDS);
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
    if (accept(p, HOLD_WORDS)) {
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
    if (accept(p, SUPPORT_WORDS))
        return parse_support_tail(p, o);
    if (accept(p, CONVOY_WORDS))
        return parse_convoy_tail(p, o);
    if (accept(p, BUILD_WORDS)) {
        o->kind = DJ_ORDER_BUILD;
        return expect_end(p);
    }
    if (accept(p, DISBAND_WORDS) || accept(p, REMOVE_WORDS)) {
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
    if (accept(p, WAIVE_WORDS)) {
        o->kind = DJ_ORDER_WAIVE;
        return expect_end(p);
    }
    if (accept(p, BUILD_WORDS))
        return parse_command_first(p, o, DJ_ORDER_BUILD);
    if (accept(p, REMOVE_WORDS) || accept(p, DISBAND_WORDS))
        return parse_command_first(p, o, removal_kind(p));
    if (accept(p, RETREAT_WORDS))
        return parse_retreat_first(p, o);

    dj_unit_type type;
    int loc;
    if (parse_unit(p, &type, &loc, "a unit") < 0)
        return -1;
    o->unit_type = type;
    o->loc = (int16_t)loc;
    return parse_unit_tail(p, o);
}

int dj_notation_parse(const dj_map *map, int power, dj_phase_type phase,
                      const char *text, dj_order *out, char *err,
                      size_t errlen)
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
    if (tokenise(&p, text) < 0 || parse_order(&p, &o) < 0)
        return -1;
    *out = o;
    return 0;
}
