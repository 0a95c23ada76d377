/* SPDX-License-Identifier: MIT */
/*
 * interpret_prose.c — what players write around their orders: greetings,
 * sign-offs, disclaimers, polite words and comments.
 *
 * Two questions, asked before an order is parsed:
 *
 *   Is a line prose?  ("Hi Dave,", "Cheers", "Sent from my phone", a
 *   disclaimer.)  A line is prose when nothing in it could belong to an
 *   order: no place written exactly (a common English word that happens
 *   to be a place's name, Youngstown's "and" or "for", does not count),
 *   no "waive", no dash or arrow next to a word that is, or is near, a
 *   place, and no unit word or order verb together with a word near a
 *   place.  Prose is listed back to the player as not read, never as an
 *   error; a line that could be an order and is wrong still gets its
 *   error.
 *
 *   What around an order is not part of it?  A comment in parentheses
 *   (not a coast: "spa (nc)" stays), after '#' or '//', or after "--"
 *   when no place follows; polite phrases ("please", "i'd like", "let's",
 *   "to follow up").  They are taken out before the order is read, and the
 *   reading notes what was left out.  Single polite words inside an order
 *   ("F Edi please to the North Sea") are dropped by the word classifier
 *   (ir_polite_word).  If what remains is not exactly one order, it is
 *   refused as before.
 */
#include "reader/fuzzy.h"
#include "reader/interpret_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORDS_MAX 96
#define WORD_LEN 40

/* Sorted: words dropped from an order, with a note. */
static const char *const POLITE[] = {
    "cheers", "dear",   "have",   "hello", "hey",    "hi",     "i",
    "i'd",
    "kindly", "let's",  "lets",   "like",  "me",     "my",     "ok",
    "okay",   "please", "pls",    "plz",   "regards", "thank", "thanks",
    "thx",    "want",   "we",     "wish",  "would",  "you",
};

static int cmp_word(const void *key, const void *elem)
{
    return strcmp(key, *(const char *const *)elem);
}

bool ir_polite_word(const char *w)
{
    return bsearch(w, POLITE, sizeof POLITE / sizeof POLITE[0],
                   sizeof POLITE[0], cmp_word) != NULL;
}

/* ---- is a line prose? ----------------------------------------------------- */

typedef struct line_words {
    int n;
    char w[WORDS_MAX][WORD_LEN];
    bool dash_before[WORDS_MAX]; /* a dash or arrow right before word i */
    bool dash_after_last;
    int foreign; /* words in a script the reader cannot read (Cyrillic) */
} line_words;

static void split_words(const char *text, line_words *lw)
{
    lw->n = 0;
    lw->dash_after_last = false;
    lw->foreign = 0;
    bool dash = false;
    for (const char *s = text; *s && lw->n < WORDS_MAX;) {
        unsigned char ch = (unsigned char)*s;
        if (ch == 0x7f) { /* ir_split_line's stand-in for what it cannot read */
            lw->foreign++;
            while (*s == 0x7f || isalnum((unsigned char)*s))
                s++;
            continue;
        }
        if (isalnum(ch) || ch == '\'' || ch == '/') {
            size_t k = 0;
            while ((isalnum((unsigned char)*s) || *s == '\'' || *s == '/' ||
                    *s == '.') &&
                   k + 1 < WORD_LEN) {
                if (*s != '.')
                    lw->w[lw->n][k++] = *s;
                s++;
            }
            while (isalnum((unsigned char)*s) || *s == '\'')
                s++; /* the rest of an overlong word */
            lw->w[lw->n][k] = '\0';
            lw->dash_before[lw->n++] = dash;
            dash = false;
        } else {
            if (ch == '-' || ch == '>' || ch == '=')
                dash = true;
            s++;
        }
    }
    lw->dash_after_last = dash;
}

/* Is the place named exactly by words [i, i+k)?  A common word that is
 * a place's name ("can", Canton on Youngstown) counts only when `common`. */
static bool exact_place_as(const ir_ctx *c, const line_words *lw, int i,
                           int k, bool common)
{
    char joined[4 * WORD_LEN];
    size_t used = 0;
    for (int j = i; j < i + k; j++)
        used += (size_t)snprintf(joined + used, sizeof joined - used, "%s%s",
                                 j > i ? " " : "", lw->w[j]);
    if (k == 1 && !common && dj_fuzzy_common_word(joined))
        return false;
    return dj_map_find_location(c->map, joined) >= 0;
}

static bool exact_place(const ir_ctx *c, const line_words *lw, int i, int k)
{
    return exact_place_as(c, lw, i, k, false);
}

/* Is word i near a place name (a misspelling), and not a common word? */
static bool near_place(const ir_ctx *c, const line_words *lw, int i)
{
    const char *w = lw->w[i];
    if (strlen(w) < 3 || dj_fuzzy_common_word(w) || ir_polite_word(w))
        return false;
    dj_loc_match m[1];
    return dj_fuzzy_locations(c->map, w, m, 1) == 1;
}

static bool order_word(const char *w)
{
    static const char *const WORDS[] = {
        "a",       "f",       "army",   "fleet",   "s",       "c",
        "h",       "support", "supports", "convoy", "convoys", "hold",
        "holds",   "build",   "builds", "disband", "disbands", "remove",
        "retreat", "retreats", "move",  "moves",   "r",       "b",
        "d",       "m",
    };
    for (size_t i = 0; i < sizeof WORDS / sizeof WORDS[0]; i++)
        if (strcmp(w, WORDS[i]) == 0)
            return true;
    return false;
}

static bool power_name(const ir_ctx *c, const char *w)
{
    for (int p = 0; p < c->map->npowers; p++) {
        char name[DJ_NAME_MAX], adj[DJ_NAME_MAX];
        ir_lower(name, sizeof name, c->map->powers[p].name);
        ir_lower(adj, sizeof adj, c->map->powers[p].adjective);
        if (strcmp(w, name) == 0 || strcmp(w, adj) == 0)
            return true;
    }
    return false;
}

/* An order's own words, which prose rarely has (not the one-letter
 * abbreviations: "a" is English). */
static bool strong_order_word(const char *w)
{
    static const char *const WORDS[] = {
        "army",    "fleet",    "support", "supports", "convoy",  "convoys",
        "hold",    "holds",    "build",   "builds",   "disband", "disbands",
        "remove",  "removes",  "retreat", "retreats", "move",    "moves",
        "waive",   "waives"};
    for (size_t i = 0; i < sizeof WORDS / sizeof WORDS[0]; i++)
        if (strcmp(w, WORDS[i]) == 0)
            return true;
    return false;
}

/* Does word i (a run of up to 3 words) name a place exactly or nearly?
 * The place's location into *loc when exact, else -1. */
static bool place_at(const ir_ctx *c, const line_words *lw, int i, int *loc)
{
    *loc = -1;
    for (int k = 3; k >= 1; k--) {
        if (i + k > lw->n || !exact_place(c, lw, i, k))
            continue;
        char joined[4 * WORD_LEN];
        size_t used = 0;
        for (int j = i; j < i + k; j++)
            used += (size_t)snprintf(joined + used, sizeof joined - used,
                                     "%s%s", j > i ? " " : "", lw->w[j]);
        *loc = dj_province(c->map, dj_map_find_location(c->map, joined));
        return true;
    }
    return near_place(c, lw, i);
}

/*
 * A line that names a place but has no unit, no order word and no
 * dash between places is prose, in any language: "1010 Wien |
 * Handelsgericht Wien", "Registered in England and Wales No. 1234567,
 * Liverpool", "Warszawa, 15 stycznia 2027", "Let's meet in Paris".  Two
 * places in a short line ("lvp to yor") may still be an order with its
 * words left out, so the line must have at most one place, or many more
 * words than places; and one or two words are left to the order reader
 * ("bur" alone gets its error).
 */
static bool names_place_only(const ir_ctx *c, const line_words *lw, int words)
{
    if (words < 3 || (lw->n > 0 && (strcmp(lw->w[0], "a") == 0 ||
                                    strcmp(lw->w[0], "f") == 0)))
        return false; /* "A xyz - bur": a unit first */
    /* a short line with a dash next to a place ("xyz - bur") may be an
     * order; in a long one ("12 rue de la Paix - 75002 Paris - RCS") only
     * a dash between two places counts */
    bool long_line = words >= 8;
    int places[16], nplaces = 0, mentions = 0;
    bool prev_place = false;
    for (int i = 0; i < lw->n; i++) {
        const char *w = lw->w[i];
        if (strong_order_word(w))
            return false;
        int loc;
        bool here = place_at(c, lw, i, &loc);
        /* "A par", "F bre": a unit's letter before a place */
        if (here && i > 0 && strlen(lw->w[i - 1]) == 1 &&
            order_word(lw->w[i - 1]))
            return false;
        /* "par - bur": a dash between two places */
        if (lw->dash_before[i] && i > 0 &&
            (long_line ? here && prev_place : here || prev_place))
            return false;
        prev_place = here;
        if (!here || loc < 0)
            continue;
        mentions++;
        bool seen = false;
        for (int k = 0; k < nplaces; k++)
            seen |= places[k] == loc;
        if (!seen && nplaces < 16)
            places[nplaces++] = loc;
    }
    (void)mentions;
    return nplaces <= 1 || words >= 3 * nplaces + 1;
}

/* Words a sentence begins with that no order does. */
static bool sentence_start(const char *w)
{
    static const char *const WORDS[] = {"if", "when", "unless", "whenever",
                                        "because", "since", "although",
                                        "maybe", "perhaps", "hopefully"};
    for (size_t i = 0; i < sizeof WORDS / sizeof WORDS[0]; i++)
        if (strcmp(w, WORDS[i]) == 0)
            return true;
    return false;
}

bool ir_line_is_prose(const ir_ctx *c, const char *line)
{
    char buf[DJ_READ_LINE_MAX];
    char *pieces[1];
    if (!line || strlen(line) >= sizeof buf)
        return false;
    /* one piece: the commas and semicolons stay (they separate words) */
    ir_split_line(line, buf, sizeof buf, pieces, 1);
    line_words *lw = malloc(sizeof *lw);
    if (!lw)
        return false;
    split_words(buf, lw);
    bool order_like = false, near = false;
    /* a sentence that begins as no order does ("If you support me into
     * Belgium, I will stay out of Holland"): prose when no dash in it;
     * njudge's conditional orders ("IF A Mun - Bur") are the command
     * reader's, which refuses them */
    if (lw->n >= 5 && sentence_start(lw->w[0])) {
        bool dash = lw->dash_after_last;
        for (int i = 0; i < lw->n; i++)
            dash |= lw->dash_before[i];
        if (!dash) {
            free(lw);
            return true;
        }
    }
    /* a bare "disband" or "remove" where a unit must go: an order for
     * the only unit it can mean (interpret_parse.c) */
    if (lw->n >= 1 && lw->n <= 3 && c->phase != DJ_MOVEMENT &&
        (strcmp(lw->w[0], "disband") == 0 || strcmp(lw->w[0], "remove") == 0)) {
        free(lw);
        return false;
    }
    /* a unit word or order verb first: "A Pariz H", "Build F Brset" */
    bool verb = lw->n > 0 && order_word(lw->w[0]);
    int words = 0; /* other than power names: "France:" is no prose */
    for (int i = 0; i < lw->n && !order_like; i++) {
        words += !power_name(c, lw->w[i]);
        if (strcmp(lw->w[i], "waive") == 0 || strcmp(lw->w[i], "waives") == 0)
            order_like = true;
        for (int k = 1; k <= 3 && i + k <= lw->n && !order_like; k++)
            order_like = exact_place_as(c, lw, i, k, verb);
        bool close = !order_like && near_place(c, lw, i);
        near |= close;
        /* a dash with a place, or a word near one, on either side */
        if (lw->dash_before[i] && i > 0 &&
            (close || near_place(c, lw, i - 1)))
            order_like = true;
    }
    bool prose = words + lw->foreign > 0 && !order_like && !(near && verb);
    if (!prose && !(near && verb)) {
        int all = lw->foreign;
        for (int i = 0; i < lw->n; i++)
            all += !power_name(c, lw->w[i]);
        prose = names_place_only(c, lw, all);
    }
    free(lw);
    return prose;
}

bool dj_interpret_line_is_prose(const dj_map *map, const char *line)
{
    if (!map)
        return false;
    ir_ctx c = {map, NULL, NULL, -1, DJ_MOVEMENT};
    return ir_line_is_prose(&c, line);
}

/* ---- what around an order is not part of it -------------------------------- */

static bool coast_text(const char *s, size_t n)
{
    static const char *const COASTS[] = {
        "nc", "sc", "ec", "wc", "n", "s", "e", "w", "north", "south",
        "east", "west", "north coast", "south coast", "east coast",
        "west coast", "n/c", "s/c", "e/c", "w/c",
    };
    while (n && *s == ' ')
        s++, n--;
    while (n && s[n - 1] == ' ')
        n--;
    for (size_t i = 0; i < sizeof COASTS / sizeof COASTS[0]; i++)
        if (strlen(COASTS[i]) == n && strncmp(s, COASTS[i], n) == 0)
            return true;
    return false;
}

/* "(via convoy)", "(Picardy)": words an order may hold in parentheses. */
static bool part_of_order(const ir_ctx *c, const char *s, size_t n)
{
    char text[DJ_READ_LINE_MAX];
    snprintf(text, sizeof text, "%.*s", (int)n, s);
    line_words *lw = malloc(sizeof *lw);
    if (!lw)
        return true;
    split_words(text, lw);
    bool part = false;
    for (int i = 0; i < lw->n && !part; i++) {
        part = strcmp(lw->w[i], "via") == 0 ||
               strcmp(lw->w[i], "convoy") == 0 || order_word(lw->w[i]);
        for (int k = 1; k <= 3 && i + k <= lw->n && !part; k++)
            part = exact_place(c, lw, i, k);
    }
    free(lw);
    return part;
}

/* Note dropped text, quoted, trimmed, into dropped (bounded). */
static void note_dropped(char *dropped, size_t len, const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '-'))
        s++, n--;
    while (n && s[n - 1] == ' ')
        n--;
    if (!n)
        return;
    size_t used = strlen(dropped);
    if (used + 8 < len)
        snprintf(dropped + used, len - used, "%s'%.*s'", used ? ", " : "",
                 (int)(n > 40 ? 40 : n), s);
}

/* Remove s[at, at+n) from s (a NUL-terminated string), leaving a space. */
static void cut(char *s, size_t at, size_t n)
{
    s[at] = ' ';
    memmove(s + at + 1, s + at + n, strlen(s + at + n) + 1);
}

static bool word_edge(const char *s, size_t at)
{
    return at == 0 || !(isalnum((unsigned char)s[at - 1]) || s[at - 1] == '\'');
}

/* Polite phrases, longest first; dropped wherever they stand. */
static const char *const PHRASES[] = {
    "i would like to", "i'd like to", "i want to", "i wish to",
    "i would like",    "i'd like",    "i want",    "i wish",
    "to follow up",    "follow up",   "if possible", "as discussed",
    "thank you",       "let's",       "please",    "kindly",
};

void ir_strip_extras(const ir_ctx *c, char *piece, char *dropped, size_t len)
{
    dropped[0] = '\0';
    /* a comment after '#' or '//' */
    char *hash = strchr(piece, '#'), *slashes = strstr(piece, "//");
    char *cmt = hash && (!slashes || hash < slashes) ? hash : slashes;
    if (cmt) {
        note_dropped(dropped, len, cmt + (*cmt == '#' ? 1 : 2),
                     strlen(cmt + (*cmt == '#' ? 1 : 2)));
        *cmt = '\0';
    }
    /* "-- comment" when no place follows */
    for (char *d = strstr(piece, "--"); d; d = strstr(d + 2, "--")) {
        line_words *lw = malloc(sizeof *lw);
        if (!lw)
            break;
        split_words(d + 2, lw);
        bool place = false;
        for (int i = 0; i < lw->n && !place; i++)
            for (int k = 1; k <= 3 && i + k <= lw->n && !place; k++)
                place = exact_place(c, lw, i, k);
        bool words = lw->n > 0;
        free(lw);
        if (words && !place) {
            note_dropped(dropped, len, d + 2, strlen(d + 2));
            *d = '\0';
            break;
        }
    }
    /* parenthesised comments, coasts kept */
    for (char *open = strchr(piece, '('); open; open = strchr(open + 1, '(')) {
        char *close = strchr(open + 1, ')');
        size_t n = close ? (size_t)(close - open - 1) : strlen(open + 1);
        if (coast_text(open + 1, n) || part_of_order(c, open + 1, n))
            continue;
        note_dropped(dropped, len, open + 1, n);
        cut(piece, (size_t)(open - piece), n + 1 + (close != NULL));
    }
    /* polite phrases */
    for (size_t i = 0; i < sizeof PHRASES / sizeof PHRASES[0]; i++) {
        size_t n = strlen(PHRASES[i]);
        for (char *at = strstr(piece, PHRASES[i]); at;
             at = strstr(at + 1, PHRASES[i])) {
            size_t off = (size_t)(at - piece);
            char after = piece[off + n];
            if (!word_edge(piece, off) || isalnum((unsigned char)after))
                continue;
            note_dropped(dropped, len, at, n);
            cut(piece, off, n);
        }
    }
}
