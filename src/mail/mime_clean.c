/* SPDX-License-Identifier: MIT */
/*
 * mime_clean.c — the body text as the command parser should see it.
 *
 * Players answer the judge's mail with their orders, and their clients
 * keep the judge's whole result underneath (or above, for Outlook).
 * Every line of it would read as an order or an error, so what was not
 * written by the player goes:
 *   - quoted lines: "> ..." after optional blanks;
 *   - the attribution line just above a quote ("On Mon, ... Judge
 *     wrote:", also when wrapped onto two lines, and its French, German,
 *     Spanish, Italian, Dutch and Scandinavian forms);
 *   - from a signature separator ("-- ", or "--" once trailing blanks
 *     are gone) to the end;
 *   - from an original or forwarded message block to the end: a
 *     "-----Original Message-----" style line, or Outlook's "From: ..."
 *     followed within a few lines by "Sent: ..." or "Date: ...";
 *   - a trailing "Sent from my iPhone"-style footer.
 * Lines end in LF, trailing blanks go, no-break spaces become spaces (an
 * order written with them would not parse), blank lines at either end
 * are dropped and runs of blank lines become one.
 *
 * The text is cut into an array of lines first, because the Outlook
 * block and the attribution need a look ahead or back.
 */
#include "mail/mime_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct line {
    const char *s;
    size_t len;
} line;

/* ---- small predicates ----------------------------------------------- */

static char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
}

/* Does l start with prefix (ASCII case-insensitively)? */
static bool starts_ci(const line *l, const char *prefix)
{
    size_t n = strlen(prefix);
    if (l->len < n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (lower(l->s[i]) != lower(prefix[i]))
            return false;
    return true;
}

static bool ends_ci(const line *l, const char *suffix)
{
    size_t n = strlen(suffix);
    if (l->len < n)
        return false;
    const char *s = l->s + l->len - n;
    for (size_t i = 0; i < n; i++)
        if (lower(s[i]) != lower(suffix[i]))
            return false;
    return true;
}

static bool contains_ci(const line *l, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= l->len; i++) {
        line rest = {l->s + i, l->len - i};
        if (starts_ci(&rest, needle))
            return true;
    }
    return false;
}

/* The line without leading blanks and Markdown-ish '*' bold marks (what
 * "<b>From:</b>" becomes in some clients' plain-text version). */
static line trimmed(const line *l)
{
    line t = *l;
    while (t.len > 0 && (t.s[0] == ' ' || t.s[0] == '\t' || t.s[0] == '*')) {
        t.s++;
        t.len--;
    }
    return t;
}

/* Lines have lost their trailing blanks, so a blank line is empty. */
static bool is_blank(const line *l)
{
    return l->len == 0;
}

static bool is_quote(const line *l)
{
    size_t i = 0;
    while (i < l->len && (l->s[i] == ' ' || l->s[i] == '\t'))
        i++;
    return i < l->len && l->s[i] == '>';
}

static bool is_underscores(const line *l)
{
    line t = trimmed(l);
    if (t.len < 4)
        return false;
    for (size_t i = 0; i < t.len; i++)
        if (t.s[i] != '_')
            return false;
    return true;
}

static bool starts_any(const line *l, const char *const *list)
{
    for (; *list; list++)
        if (starts_ci(l, *list))
            return true;
    return false;
}

/* ---- markers -------------------------------------------------------- */

/* "-----Original Message-----", "---------- Forwarded message ---------"
 * and their translations. */
static bool is_original_marker(const line *l)
{
    static const char *const names[] = {"original message",
                                        "forwarded message",
                                        "ursprüngliche nachricht",
                                        "message d'origine",
                                        "mensaje original",
                                        "messaggio originale",
                                        NULL};
    line t = trimmed(l);
    if (!starts_ci(&t, "---"))
        return false;
    for (const char *const *n = names; *n; n++)
        if (contains_ci(&t, *n))
            return true;
    return false;
}

/* Outlook's header block: "From:" then, within three lines, "Sent:" or
 * "Date:" (or their translations). */
static bool is_outlook_block(const line *lines, size_t n, size_t i)
{
    static const char *const from[] = {"from:", "von:", "de:", "de :", NULL};
    static const char *const sent[] = {
        "sent:",   "date:",    "gesendet:", "envoyé :",
        "envoyé:", "enviado:", "datum:",    NULL};
    line t = trimmed(&lines[i]);
    if (!starts_any(&t, from))
        return false;
    for (size_t k = i + 1; k < n && k <= i + 3; k++) {
        line u = trimmed(&lines[k]);
        if (starts_any(&u, sent))
            return true;
    }
    return false;
}

static bool is_signature(const line *l)
{
    return l->len == 2 && l->s[0] == '-' && l->s[1] == '-';
}

/* Where the player's own text ends at line i. */
static bool is_stop(const line *lines, size_t n, size_t i)
{
    return is_signature(&lines[i]) || is_original_marker(&lines[i]) ||
           is_outlook_block(lines, n, i);
}

static const char *const attribution_starts[] = {
    "on ", "le ", "am ", "el ", "il ", "op ", "den ", "em ", NULL};

static bool is_attribution(const line *l)
{
    static const char *const ends[] = {
        "wrote:",   "writes:",   "a écrit :",   "a écrit:",
        "schrieb:", "escribió:", "ha scritto:", "schreef:",
        "skrev:",   "escreveu:", NULL};
    line t = trimmed(l);
    for (const char *const *e = ends; *e; e++)
        if (ends_ci(&t, *e))
            return true;
    return false;
}

static bool is_footer(const line *l)
{
    static const char *const footers[] = {
        "sent from my ",     "sent from mail for windows",
        "get outlook for ",  "sent from yahoo mail",
        "envoyé de mon ",    "von meinem ",
        "enviado desde mi ", NULL};
    line t = trimmed(l);
    return starts_any(&t, footers);
}

/* ---- the kept lines ------------------------------------------------- */

typedef struct kept {
    line *v;
    size_t n;
} kept;

static void drop_trailing_blanks(kept *k)
{
    while (k->n > 0 && is_blank(&k->v[k->n - 1]))
        k->n--;
}

/* A quote starts: drop the attribution above it (and the blank lines
 * between).  A wrapped attribution ("On Tue, ... Judge <judge@" +
 * "example.org> wrote:") goes whole when its first line starts like
 * one. */
static void drop_attribution(kept *k)
{
    size_t n = k->n;
    while (n > 0 && is_blank(&k->v[n - 1]))
        n--;
    if (n == 0 || !is_attribution(&k->v[n - 1]))
        return;
    line last = trimmed(&k->v[n - 1]);
    n--;
    if (!starts_any(&last, attribution_starts) && n > 0 &&
        !is_blank(&k->v[n - 1])) {
        line prev = trimmed(&k->v[n - 1]);
        if (starts_any(&prev, attribution_starts))
            n--;
    }
    k->n = n;
}

/* At a stop marker: the separator line and blanks above it go too. */
static void drop_separator(kept *k)
{
    while (k->n > 0 &&
           (is_blank(&k->v[k->n - 1]) || is_underscores(&k->v[k->n - 1])))
        k->n--;
}

/* ---- splitting ------------------------------------------------------ */

/* Copy text with CRLF and lone CR made LF and U+00A0 made a space. */
static void normalise(const char *text, size_t len, dj_buf *out)
{
    size_t run = 0;
    for (size_t i = 0; i < len; i++) {
        const char *rep = NULL;
        size_t skip = 1;
        if (text[i] == '\r') {
            rep = "\n";
            if (i + 1 < len && text[i + 1] == '\n')
                skip = 2;
        } else if ((unsigned char)text[i] == 0xC2 && i + 1 < len &&
                   (unsigned char)text[i + 1] == 0xA0) {
            rep = " ";
            skip = 2;
        }
        if (!rep)
            continue;
        dj_buf_append_n(out, text + run, i - run);
        dj_buf_append(out, rep);
        i += skip - 1;
        run = i + 1;
    }
    dj_buf_append_n(out, text + run, len - run);
}

/* Cut s[0..len) into lines without trailing blanks; NULL when out of
 * memory (an empty text gives an array of one empty line). */
static line *split_lines(const char *s, size_t len, size_t *count)
{
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += s[i] == '\n';
    line *v = malloc(n * sizeof *v);
    if (!v)
        return NULL;
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '\n')
            continue;
        size_t e = i;
        while (e > start && (s[e - 1] == ' ' || s[e - 1] == '\t'))
            e--;
        v[k].s = s + start;
        v[k].len = e - start;
        k++;
        start = i + 1;
    }
    *count = k;
    return v;
}

static void keep_players_lines(const line *lines, size_t n, kept *k)
{
    bool in_quote = false;
    for (size_t i = 0; i < n; i++) {
        if (is_quote(&lines[i])) {
            if (!in_quote)
                drop_attribution(k);
            in_quote = true;
            continue;
        }
        if (is_stop(lines, n, i)) {
            drop_separator(k);
            break;
        }
        in_quote = false;
        k->v[k->n++] = lines[i];
    }
    drop_trailing_blanks(k);
    while (k->n > 0 && is_footer(&k->v[k->n - 1])) {
        k->n--;
        drop_trailing_blanks(k);
    }
}

void dj_mime_clean(const char *text, size_t len, dj_buf *out)
{
    dj_buf norm;
    dj_buf_init(&norm);
    normalise(text, len, &norm);
    size_t n = 0;
    line *lines =
        dj_buf_ok(&norm) ? split_lines(norm.data, norm.len, &n) : NULL;
    kept k = {lines ? malloc(n * sizeof *k.v) : NULL, 0};
    if (!lines || !k.v) {
        out->failed = true;
    } else {
        keep_players_lines(lines, n, &k);
        for (size_t i = 0; i < k.n; i++) {
            /* No blank line first, none twice (dropped quotes leave the
             * blank lines that framed them). */
            if (is_blank(&k.v[i]) && (i == 0 || is_blank(&k.v[i - 1])))
                continue;
            dj_buf_append_n(out, k.v[i].s, k.v[i].len);
            dj_buf_append_n(out, "\n", 1);
        }
    }
    free(k.v);
    free(lines);
    dj_buf_free(&norm);
}
