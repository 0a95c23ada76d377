/* SPDX-License-Identifier: MIT */
/*
 * html2text.c — HTML mail to plain text for the command parser.
 *
 * Not a browser: one forward pass over the bytes, no tree, no CSS.  What
 * matters for reading orders is that
 *   - the words come out in order, with block elements (<p>, <div>, <li>,
 *     <br>, <tr>, headings...) ending lines, so each order stays on its
 *     own line;
 *   - nothing invisible comes out: <head>, <style>, <script>, <title>,
 *     comments (Outlook's conditional ones too) are skipped;
 *   - quoted mail (<blockquote>, which is how Gmail, Apple Mail and
 *     Thunderbird quote in HTML) comes out with a "> " prefix, so the
 *     cleaner drops it exactly like a quoted plain-text line;
 *   - entities are decoded: the common named ones and all numeric ones.
 *
 * Hostile input stays linear: every scan consumes what it scanned or
 * remembers its answer (find_needle), and the quote prefix is one "> " whatever
 * the nesting depth (a prefix per level would make output quadratic in deeply
 * nested input).
 */
#include "mail/message.h"
#include "mail/mime_int.h"
#include "util/utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What ends the elements whose content is skipped. */
enum {
    NEEDLE_END_HEAD,
    NEEDLE_BODY,
    NEEDLE_END_STYLE,
    NEEDLE_END_SCRIPT,
    NEEDLE_END_TITLE,
    NEEDLE_END_TEMPLATE,
    NEEDLE_END_XML,
    NEEDLE_COUNT
};
static const char *const needles[NEEDLE_COUNT] = {
    "</head", "<body", "</style", "</script", "</title", "</template", "</xml"};

typedef struct needle_memo {
    size_t from, at; /* the first match at or after `from` is at `at` */
    bool valid;
} needle_memo;

typedef struct html_out {
    dj_buf *out;
    size_t line_len; /* bytes written on the current output line */
    bool space;      /* collapsible white space seen since the last text */
    int quote;       /* <blockquote> depth */
    int pre;         /* <pre> depth: white space is kept */
    needle_memo memo[NEEDLE_COUNT]; /* see find_needle */
} html_out;

/* ---- output --------------------------------------------------------- */

static void line_break(html_out *h)
{
    dj_buf_append_n(h->out, "\n", 1);
    h->line_len = 0;
    h->space = false;
}

static void block_break(html_out *h)
{
    if (h->line_len > 0)
        line_break(h);
    h->space = false;
}

/* Called before any visible text: the quote prefix at the start of a
 * line, or one pending space between words. */
static void before_text(html_out *h)
{
    if (h->line_len == 0) {
        if (h->quote > 0) {
            dj_buf_append_n(h->out, "> ", 2);
            h->line_len = 2;
        }
    } else if (h->space) {
        dj_buf_append_n(h->out, " ", 1);
        h->line_len++;
    }
    h->space = false;
}

static void emit(html_out *h, const char *s, size_t n)
{
    before_text(h);
    dj_buf_append_n(h->out, s, n);
    h->line_len += n;
}

static void emit_codepoint(html_out *h, uint32_t cp)
{
    char b[4];
    size_t n;
    if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF ||
        (cp < 0x20 && cp != '\t') || (cp >= 0x7F && cp < 0xA0))
        cp = 0xFFFD;
    if (cp == 0xA0)
        cp = ' '; /* &nbsp;: a space that must not collapse */
    n = dj_utf8_encode(cp, b);
    emit(h, b, n);
}

/* Text between tags: white space collapses, except inside <pre>. */
static void emit_text(html_out *h, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool ws = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
        if (!ws)
            continue;
        if (i > run)
            emit(h, s + run, i - run);
        run = i + 1;
        if (!h->pre)
            h->space = true;
        else if (c == '\n')
            line_break(h);
        else if (c != '\r')
            emit(h, c == '\t' ? "\t" : " ", 1);
    }
    if (n > run)
        emit(h, s + run, n - run);
}

/* ---- entities ------------------------------------------------------- */

typedef struct entity {
    const char *name;
    uint32_t cp;
} entity;

/* The named entities mail clients actually write; anything else stays
 * as the literal text. */
static const entity entities[] = {
    {"amp", '&'},      {"lt", '<'},        {"gt", '>'},
    {"quot", '"'},     {"apos", '\''},     {"AMP", '&'},
    {"LT", '<'},       {"GT", '>'},        {"QUOT", '"'},
    {"nbsp", 0xA0},    {"ensp", ' '},      {"emsp", ' '},
    {"thinsp", ' '},   {"copy", 0xA9},     {"reg", 0xAE},
    {"trade", 0x2122}, {"hellip", 0x2026}, {"mdash", 0x2014},
    {"ndash", 0x2013}, {"minus", 0x2212},  {"lsquo", 0x2018},
    {"rsquo", 0x2019}, {"sbquo", 0x201A},  {"ldquo", 0x201C},
    {"rdquo", 0x201D}, {"bdquo", 0x201E},  {"laquo", 0xAB},
    {"raquo", 0xBB},   {"lsaquo", 0x2039}, {"rsaquo", 0x203A},
    {"bull", 0x2022},  {"middot", 0xB7},   {"euro", 0x20AC},
    {"pound", 0xA3},   {"yen", 0xA5},      {"cent", 0xA2},
    {"sect", 0xA7},    {"para", 0xB6},     {"deg", 0xB0},
    {"plusmn", 0xB1},  {"times", 0xD7},    {"divide", 0xF7},
    {"iexcl", 0xA1},   {"iquest", 0xBF},   {"larr", 0x2190},
    {"rarr", 0x2192},  {"harr", 0x2194},   {"shy", 0xAD},
    {"Agrave", 0xC0},  {"Aacute", 0xC1},   {"Acirc", 0xC2},
    {"Atilde", 0xC3},  {"Auml", 0xC4},     {"Aring", 0xC5},
    {"AElig", 0xC6},   {"Ccedil", 0xC7},   {"Egrave", 0xC8},
    {"Eacute", 0xC9},  {"Ecirc", 0xCA},    {"Euml", 0xCB},
    {"Igrave", 0xCC},  {"Iacute", 0xCD},   {"Icirc", 0xCE},
    {"Iuml", 0xCF},    {"Ntilde", 0xD1},   {"Ograve", 0xD2},
    {"Oacute", 0xD3},  {"Ocirc", 0xD4},    {"Otilde", 0xD5},
    {"Ouml", 0xD6},    {"Oslash", 0xD8},   {"Ugrave", 0xD9},
    {"Uacute", 0xDA},  {"Ucirc", 0xDB},    {"Uuml", 0xDC},
    {"Yacute", 0xDD},  {"szlig", 0xDF},    {"agrave", 0xE0},
    {"aacute", 0xE1},  {"acirc", 0xE2},    {"atilde", 0xE3},
    {"auml", 0xE4},    {"aring", 0xE5},    {"aelig", 0xE6},
    {"ccedil", 0xE7},  {"egrave", 0xE8},   {"eacute", 0xE9},
    {"ecirc", 0xEA},   {"euml", 0xEB},     {"igrave", 0xEC},
    {"iacute", 0xED},  {"icirc", 0xEE},    {"iuml", 0xEF},
    {"ntilde", 0xF1},  {"ograve", 0xF2},   {"oacute", 0xF3},
    {"ocirc", 0xF4},   {"otilde", 0xF5},   {"ouml", 0xF6},
    {"oslash", 0xF8},  {"ugrave", 0xF9},   {"uacute", 0xFA},
    {"ucirc", 0xFB},   {"uuml", 0xFC},     {"yacute", 0xFD},
    {"yuml", 0xFF},    {"OElig", 0x152},   {"oelig", 0x153},
    {"Scaron", 0x160}, {"scaron", 0x161},  {"Yuml", 0x178},
    {"Zcaron", 0x17D}, {"zcaron", 0x17E},
};

static bool named_entity(const char *name, size_t n, uint32_t *cp)
{
    for (size_t i = 0; i < sizeof entities / sizeof entities[0]; i++) {
        if (strlen(entities[i].name) == n &&
            memcmp(entities[i].name, name, n) == 0) {
            *cp = entities[i].cp;
            return true;
        }
    }
    return false;
}

/* "&#233;" or "&#xE9;" after the "&#": the code point, or false. */
static bool numeric_entity(const char *s, size_t n, uint32_t *cp)
{
    bool hex = n > 0 && (s[0] == 'x' || s[0] == 'X');
    size_t i = hex ? 1 : 0;
    if (i == n)
        return false;
    uint32_t v = 0;
    for (; i < n; i++) {
        int d;
        char c = s[i];
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (hex && c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (hex && c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return false;
        v = v * (hex ? 16 : 10) + (uint32_t)d;
        if (v > 0x10FFFF)
            v = 0x110000; /* stays invalid, never overflows */
    }
    *cp = v;
    return true;
}

/* An entity at s[0] == '&': its length including ';', or 0 when there
 * is none (the '&' is then literal text). */
static size_t entity_at(const char *s, size_t n, uint32_t *cp)
{
    size_t end = 1;
    while (end < n && end < 12 && s[end] != ';')
        end++;
    if (end >= n || s[end] != ';' || end == 1)
        return 0;
    bool ok = s[1] == '#' ? numeric_entity(s + 2, end - 2, cp)
                          : named_entity(s + 1, end - 1, cp);
    return ok ? end + 1 : 0;
}

/* ---- tags ----------------------------------------------------------- */

typedef struct tag {
    char name[16]; /* lower case; "" when too long or absent */
    bool closing;
} tag;

static char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == ':' || c == '-';
}

/* Case-insensitive search for needle (lower case) in s[from..n). */
static size_t find_ci(const char *s, size_t n, size_t from, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = from; i + m <= n; i++) {
        size_t j = 0;
        while (j < m && lower(s[i + j]) == needle[j])
            j++;
        if (j == m)
            return i;
    }
    return n;
}

/* Parse the tag at s[0] == '<' (a letter or '/' follows); return its
 * length up to and including '>' (quoted attribute values may hold '>'),
 * or n when it never closes: the rest is then swallowed, as a browser
 * would, and the scan stays linear. */
static size_t tag_at(const char *s, size_t n, tag *t)
{
    size_t i = 1, k = 0;
    t->closing = s[1] == '/';
    if (t->closing)
        i++;
    while (i < n && is_name_char(s[i])) {
        if (k < sizeof t->name - 1)
            t->name[k++] = lower(s[i]);
        else
            k = sizeof t->name; /* too long: no known tag */
        i++;
    }
    t->name[k < sizeof t->name ? k : 0] = '\0';
    char quote = 0;
    for (; i < n; i++) {
        if (quote) {
            if (s[i] == quote)
                quote = 0;
        } else if (s[i] == '"' || s[i] == '\'') {
            quote = s[i];
        } else if (s[i] == '>') {
            return i + 1;
        }
    }
    return n;
}

static bool name_in(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0)
            return true;
    return false;
}

/* Elements whose start and end break the line. */
static bool is_block(const char *name)
{
    static const char *const blocks[] = {
        "p",       "div",    "li",      "ul",       "ol",         "dl",
        "dt",      "dd",     "tr",      "table",    "h1",         "h2",
        "h3",      "h4",     "h5",      "h6",       "hr",         "pre",
        "address", "center", "section", "article",  "header",     "footer",
        "nav",     "aside",  "form",    "fieldset", "figure",     "caption",
        "tbody",   "thead",  "tfoot",   "main",     "blockquote", NULL};
    return name_in(name, blocks);
}

/* Elements whose content is never shown, with how each one ends. */
typedef struct skipped {
    const char *name;
    int end1, end2; /* NEEDLE_*: either ends it; end2 may be -1 */
} skipped;

static const skipped skipped_elements[] = {
    {"head", NEEDLE_END_HEAD, NEEDLE_BODY}, {"style", NEEDLE_END_STYLE, -1},
    {"script", NEEDLE_END_SCRIPT, -1},      {"title", NEEDLE_END_TITLE, -1},
    {"template", NEEDLE_END_TEMPLATE, -1},  {"xml", NEEDLE_END_XML, -1},
};

/*
 * Search for needle k from s[from], remembering the answer: the first
 * occurrence at or after `from` is also the first at or after any later
 * start up to it (and "none" stays "none").  So a flood of unclosed
 * <title> or <head><body> pairs costs one scan per needle, not one per
 * tag, and the pass stays linear.
 */
static size_t find_needle(html_out *h, const char *s, size_t n, size_t from,
                          int k)
{
    needle_memo *m = &h->memo[k];
    if (m->valid && from >= m->from && from <= m->at)
        return m->at;
    m->from = from;
    m->at = find_ci(s, n, from, needles[k]);
    m->valid = true;
    return m->at;
}

/* After the start tag of a skipped element, at s[i]: where the text
 * resumes.  When the element never ends it is ignored (its content
 * shown) rather than allowed to swallow the rest of the mail. */
static size_t skip_element(html_out *h, const char *s, size_t n, size_t i,
                           const skipped *k)
{
    size_t e = find_needle(h, s, n, i, k->end1);
    if (k->end2 >= 0) {
        size_t e2 = find_needle(h, s, n, i, k->end2);
        if (e2 < e)
            return e2; /* "<body": read on from it */
    }
    if (e == n)
        return i;
    tag t;
    return e + tag_at(s + e, n - e, &t);
}

/* Act on one tag; return where the text resumes (past skipped content). */
static size_t handle_tag(html_out *h, const tag *t, const char *s, size_t n,
                         size_t next)
{
    if (!t->closing) {
        for (size_t k = 0;
             k < sizeof skipped_elements / sizeof skipped_elements[0]; k++)
            if (strcmp(t->name, skipped_elements[k].name) == 0)
                return skip_element(h, s, n, next, &skipped_elements[k]);
    }
    if (strcmp(t->name, "br") == 0) {
        line_break(h);
    } else if (strcmp(t->name, "td") == 0 || strcmp(t->name, "th") == 0) {
        if (h->line_len > 0)
            h->space = true;
    } else if (is_block(t->name)) {
        block_break(h);
        int d = t->closing ? -1 : 1;
        if (strcmp(t->name, "blockquote") == 0 && h->quote + d >= 0)
            h->quote += d;
        if (strcmp(t->name, "pre") == 0 && h->pre + d >= 0)
            h->pre += d;
    }
    return next;
}

/* Markup that is not an element: comments, <!DOCTYPE>, <?xml?>. */
static size_t declaration_at(const char *s, size_t n)
{
    if (n >= 4 && memcmp(s, "<!--", 4) == 0) {
        size_t e = find_ci(s, n, 4, "-->");
        return e == n ? n : e + 3;
    }
    const char *gt = memchr(s, '>', n);
    return gt ? (size_t)(gt - s) + 1 : n;
}

static bool letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

void dj_mime_html_text(const char *html, size_t len, dj_buf *out)
{
    html_out h = {.out = out};
    size_t i = 0, run = 0; /* html[run..i) is text not yet emitted */
    while (i < len) {
        char c = html[i];
        size_t next;
        if (c == '<' && i + 1 < len &&
            (letter(html[i + 1]) || html[i + 1] == '/')) {
            emit_text(&h, html + run, i - run);
            tag t;
            next = i + tag_at(html + i, len - i, &t);
            next = handle_tag(&h, &t, html, len, next);
        } else if (c == '<' && i + 1 < len &&
                   (html[i + 1] == '!' || html[i + 1] == '?')) {
            emit_text(&h, html + run, i - run);
            next = i + declaration_at(html + i, len - i);
        } else if (c == '&') {
            uint32_t cp;
            size_t n = entity_at(html + i, len - i, &cp);
            if (n == 0) {
                i++;
                continue;
            }
            emit_text(&h, html + run, i - run);
            emit_codepoint(&h, cp);
            next = i + n;
        } else {
            i++;
            continue;
        }
        i = run = next;
    }
    emit_text(&h, html + run, len - run);
    if (h.line_len > 0)
        line_break(&h);
}

int dj_html_to_text(const char *html, size_t len, char **out)
{
    dj_buf b;
    dj_buf_init(&b);
    dj_mime_html_text(html, len, &b);
    *out = NULL;
    if (dj_buf_ok(&b))
        *out = b.cap ? b.data : calloc(1, 1);
    else
        dj_buf_free(&b);
    return *out ? 0 : -1;
}
