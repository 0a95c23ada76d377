/* SPDX-License-Identifier: MIT */
/*
 * parse.c — reading a message into commands.  See parse.h.
 *
 * A line is split into words (words.c); its first words pick the command
 * from the one table of commands (table.c), and the row's own parser reads
 * the arguments (parse_args.c, parse_press.c).  A line no row matches is
 * text: an order line, or a mistake the runner explains.
 */
#define _POSIX_C_SOURCE 200809L

#include "command/parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command/table.h"
#include "util/typography.h"

/* ---- a line that is no command ---------------------------------------------- */

/* Levenshtein distance of two short words, capped at 9. */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 16 || lb > 16)
        return 9;
    int d[17][17];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t k = 0; k <= lb; k++)
        d[0][k] = (int)k;
    for (size_t i = 1; i <= la; i++)
        for (size_t k = 1; k <= lb; k++) {
            int cost = toupper((unsigned char)a[i - 1]) !=
                       toupper((unsigned char)b[k - 1]);
            int best = d[i - 1][k - 1] + cost;
            if (d[i - 1][k] + 1 < best)
                best = d[i - 1][k] + 1;
            if (d[i][k - 1] + 1 < best)
                best = d[i][k - 1] + 1;
            d[i][k] = best;
        }
    return d[la][lb] > 9 ? 9 : d[la][lb];
}

/*
 * A line that is no command but looks like a misspelt command carrying a
 * password ("SIGON Fdemo secret", "SIGN ON Fdemo secret", "SET PASWORD
 * x"): keep its first words, mask the rest, because the password in it is
 * still a password.
 */
/* The letters of a word, without what is around them ("\"SIGNON:" is
 * SIGNON), into out. */
static void word_core(const char *w, char *out, size_t len)
{
    size_t n = 0;
    while (*w && !isalnum((unsigned char)*w))
        w++;
    for (; *w && isalnum((unsigned char)*w) && n + 1 < len; w++)
        out[n++] = *w;
    out[n] = '\0';
}

/* How many words of a near miss starting at word i to keep: 0 when it
 * is none. */
static int near_miss_at(const words *ws, int i)
{
    char w[24], next[24] = "";
    word_core(ws->w[i], w, sizeof w);
    if (i + 1 < ws->n)
        word_core(ws->w[i + 1], next, sizeof next);
    if (!w[0])
        return 0;
    if ((cmd_word_is(w, "SIGN") || cmd_word_is(w, "LOG")) && ws->n > i + 2 &&
        (distance(next, "ON") <= 1 || cmd_word_is(next, "IN")))
        return 3;
    if (distance(w, "SIGNON") <= 2 || distance(w, "SIGNIN") <= 1 ||
        distance(w, "LOGIN") <= 1)
        return 2;
    /* ordinary words of English: only as the line's first word */
    if (i == 0 && (distance(w, "OBSERVE") <= 2 || distance(w, "CREATE") <= 1 ||
                   distance(w, "JOIN") <= 1))
        return 2;
    if (distance(w, "SET") <= 1 && next[0] && distance(next, "PASSWORD") <= 3)
        return 2;
    if (distance(w, "PASSWORD") <= 2 || cmd_word_is(w, "PW") ||
        cmd_word_is(w, "PWD") || cmd_word_is(w, "PASSWD") ||
        cmd_word_is(w, "KENNWORT") || cmd_word_is(w, "PASSWORT") ||
        cmd_word_is(w, "MOT") || cmd_word_is(w, "CLAVE") ||
        cmd_word_is(w, "PAROLA") || cmd_word_is(w, "SIFRE"))
        return 1;
    return 0;
}

/*
 * A line that is no command but looks like a misspelt command carrying a
 * password ("SIGON Fdemo secret", "SIGN ON Fdemo secret", "SET PASWORD
 * x", "Please signon: Fdemo secret"): keep its first words, mask the
 * rest, because the password in it is still a password.  The near miss
 * may be any of the line's first four words.
 */
static void mask_near_miss(const words *ws, cmd *c)
{
    if (ws->n < 2)
        return;
    for (int i = 0; i < ws->n && i < 4; i++) {
        int keep = near_miss_at(ws, i);
        if (keep && ws->n > i + keep) {
            cmd_mask_words(ws, i + keep, -1, c);
            return;
        }
    }
}

/* ---- one line ----------------------------------------------------------------- */

static void parse_words(const words *ws, cmd *c)
{
    int nwords = 0;
    const cmd_spec *spec = cmd_spec_match(ws, &nwords);
    if (spec) {
        c->name = spec->name;
        c->usage = spec->usage;
        spec->parse(ws, nwords, spec->kind, c);
        return;
    }
    c->kind = CMD_TEXT;
    mask_near_miss(ws, c);
}

void cmd_parse_line(const char *line, cmd *c)
{
    memset(c, 0, sizeof *c);
    c->grey = -1;
    snprintf(c->text, sizeof c->text, "%s", line);
    words *ws = malloc(sizeof *ws);
    if (!ws) {
        cmd_bad(c, "%s", "out of memory");
        snprintf(c->echo, sizeof c->echo, "%s", CMD_MASK);
        return;
    }
    cmd_words_split(line, ws);
    cmd_words_rest(ws, 0, c->echo, sizeof c->echo); /* as written, trimmed */
    if (ws->n == 0)
        c->kind = CMD_TEXT;
    else
        parse_words(ws, c);
    free(ws);
}

/* ---- the message ------------------------------------------------------------------ */

/*
 * The next line into buf (cut to fit); false at the end of the body.  A
 * line of commands or orders is cleaned of invisible and typographic
 * characters and list markers (util/typography.h, the one place for
 * that); a press body's line stays as written.
 */
static bool read_line(cmd_reader *r, char *buf, size_t len, bool *cut,
                      bool clean)
{
    if (!r->next || !*r->next)
        return false;
    const char *p = r->next;
    size_t n = strcspn(p, "\n");
    r->next = p + n + (p[n] == '\n');
    size_t keep = n < len - 1 ? n : len - 1;
    /* never cut a UTF-8 sequence in two */
    while (keep < n && keep > 0 &&
           ((unsigned char)p[keep] & 0xC0) == 0x80)
        keep--;
    memcpy(buf, p, keep);
    buf[keep] = '\0';
    *cut = keep < n;
    while (keep && (buf[keep - 1] == '\r' || buf[keep - 1] == ' ' ||
                    buf[keep - 1] == '\t'))
        buf[--keep] = '\0';
    if (clean)
        dj_typography_line(buf);
    r->line++;
    return true;
}

static bool blank(const char *line)
{
    for (; *line; line += cmd_words_space_len(line))
        if (!cmd_words_is_space(line))
            return false;
    return true;
}

/* Count the lines left unread. */
static void skip_rest(cmd_reader *r)
{
    r->skipped = 0;
    for (const char *p = r->next; p && *p;) {
        size_t n = strcspn(p, "\n");
        if (n)
            r->skipped++;
        p += n + (p[n] == '\n');
    }
    r->next = NULL;
    r->ended = true;
}

/* Does this line end a press body?  Returns the kind, else CMD_TEXT. */
static cmd_kind press_end(const char *line)
{
    char word[16];
    size_t i = 0;
    while (*line && cmd_words_is_space(line))
        line += cmd_words_space_len(line);
    while (line[i] && !cmd_words_is_space(line + i) && i < sizeof word - 1) {
        word[i] = line[i];
        i++;
    }
    word[i] = '\0';
    const char *after = line + i;
    if (!blank(after))
        return CMD_TEXT;
    if (cmd_word_is(word, "ENDPRESS") || cmd_word_is(word, "ENDBROADCAST"))
        return CMD_ENDPRESS;
    if (cmd_word_is(word, "SIGNOFF"))
        return CMD_SIGNOFF;
    if (cmd_word_is(word, "ENDDIARY"))
        return CMD_ENDDIARY;
    return CMD_TEXT;
}

/* press_end() of the line as a command line would read it (a BOM or
 * zero-width space before ENDPRESS), the line itself left as written. */
static cmd_kind press_end_of(const char *line)
{
    char clean[CMD_LINE_MAX];
    snprintf(clean, sizeof clean, "%s", line);
    dj_typography_line(clean);
    return press_end(clean);
}

static void read_press_body(cmd_reader *r, cmd *c, dj_buf *body)
{
    char *line = malloc(CMD_LINE_MAX);
    bool cut;
    while (line && r->line < CMD_MAX_LINES &&
           read_line(r, line, CMD_LINE_MAX, &cut, false)) {
        cmd_kind end = press_end_of(line);
        if (end == (c->opens_diary ? CMD_ENDDIARY : CMD_ENDPRESS)) {
            c->press_ended = true;
            break;
        }
        if (end == CMD_SIGNOFF) {
            r->signed_off = true;
            skip_rest(r);
            break;
        }
        if (body->len + strlen(line) + 1 < CMD_PRESS_MAX) {
            dj_buf_append(body, line);
            dj_buf_append(body, "\n");
        } else {
            c->cut = true;
        }
        c->cut |= cut;
        c->press_lines++;
    }
    free(line);
    if (!r->ended && r->line >= CMD_MAX_LINES && r->next && *r->next)
        skip_rest(r);
}

/*
 * The subject is a command only when it parses as one, completely, and is
 * one a player may give there (the table's `subject`): "Re: dipjudge:demo
 * - S1901M Results", "map please" or a lone "join" are ignored silently.
 */
static bool subject_command(const char *subject, cmd *c)
{
    cmd_parse_line(subject, c);
    if (c->kind == CMD_TEXT || c->kind == CMD_BAD)
        return false;
    const cmd_spec *spec = cmd_spec_of(c->kind);
    return spec && spec->subject;
}

void cmd_reader_init(cmd_reader *r, const char *subject, const char *body)
{
    memset(r, 0, sizeof *r);
    r->next = body;
    if (subject) {
        snprintf(r->subject, sizeof r->subject, "%.*s",
                 (int)strcspn(subject, "\r\n"), subject);
        dj_typography_line(r->subject);
        cmd *c = malloc(sizeof *c);
        r->subject_pending = c && subject_command(r->subject, c);
        free(c);
    }
}

bool cmd_next(cmd_reader *r, cmd *c, dj_buf *press_body)
{
    if (r->subject_pending) {
        r->subject_pending = false;
        cmd_parse_line(r->subject, c);
        c->line = 0;
        return true;
    }
    char *line = malloc(CMD_LINE_MAX);
    bool cut = false, got = false;
    while (line && !r->ended) {
        if (r->line >= CMD_MAX_LINES) {
            skip_rest(r);
            break;
        }
        if (!read_line(r, line, CMD_LINE_MAX, &cut, true))
            break;
        if (!blank(line)) {
            got = true;
            break;
        }
    }
    if (!got) {
        free(line);
        return false;
    }
    cmd_parse_line(line, c);
    free(line);
    c->line = r->line;
    c->cut = cut;
    if (c->opens_press || c->opens_diary) /* even a bad PRESS line: its
                                              body is no orders */
        read_press_body(r, c, press_body);
    if (c->kind == CMD_SIGNOFF) {
        r->signed_off = true;
        skip_rest(r);
    }
    return true;
}

const char *cmd_name(cmd_kind kind)
{
    if (kind == CMD_TEXT)
        return "text";
    const cmd_spec *spec = cmd_spec_of(kind);
    return spec ? spec->name : "command";
}
