/* SPDX-License-Identifier: MIT */
/*
 * parse_old.c — the argument parsers of the older judges' commands
 * (njudge's and DPjudge's) that players still type: PHASE, IF / ELSE /
 * ENDIF, DIARY / ENDDIARY, OFFICIAL, POSTAL PRESS, PROMOTE, UNSTART,
 * VERSION, GET.  Their runners are run_old.c; what each does is in
 * dipjudge(7).
 *
 * Why apart: these words are also ordinary English ("Phase two of our
 * plan", "If you support me", "Version 2 attached"), so a line is one of
 * these commands only when it reads as the command does; otherwise it is
 * text (CMD_TEXT), for the order reader to take as prose.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "command/table.h"

/* A command that stands alone on its line (VERSION, UNSTART, ENDIF,
 * ELSE, ENDDIARY): with more words it is text. */
void cmd_parse_alone(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    c->kind = ws->n > arg ? CMD_TEXT : kind;
}

/* GET [file]: one word at most, else text. */
void cmd_parse_get(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    if (ws->n > arg + 1) {
        c->kind = CMD_TEXT;
        return;
    }
    if (ws->n > arg && !cmd_word_copy(c->arg, sizeof c->arg, ws->w[arg])) {
        cmd_bad(c, "%s", "GET: the file's name is too long");
        return;
    }
    c->kind = kind;
}

/* The season of a word: 'S', 'F', 'W' (winter: adjustments), 'U'
 * (summer: retreats of spring), else 0. */
static char season_of(const char *w)
{
    static const struct {
        const char *word;
        char s;
    } seasons[] = {{"SPRING", 'S'}, {"S", 'S'},    {"FALL", 'F'},
                   {"AUTUMN", 'F'}, {"F", 'F'},    {"WINTER", 'W'},
                   {"W", 'W'},      {"SUMMER", 'U'}, {"U", 'U'}};
    for (size_t i = 0; i < sizeof seasons / sizeof seasons[0]; i++)
        if (cmd_word_is(w, seasons[i].word))
            return seasons[i].s;
    return 0;
}

/* 'M', 'R', 'A' (adjustments; 'B' for builds), else 0. */
static char type_of(const char *w)
{
    static const struct {
        const char *word;
        char t;
    } types[] = {{"MOVEMENT", 'M'}, {"MOVEMENTS", 'M'}, {"MOVES", 'M'},
                 {"M", 'M'},        {"RETREAT", 'R'},   {"RETREATS", 'R'},
                 {"R", 'R'},        {"ADJUSTMENT", 'A'}, {"ADJUSTMENTS", 'A'},
                 {"BUILD", 'A'},    {"BUILDS", 'A'},    {"A", 'A'},
                 {"B", 'A'}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (cmd_word_is(w, types[i].word))
            return types[i].t;
    return 0;
}

static bool year_word(const char *w)
{
    size_t n = strlen(w);
    if (n < 3 || n > 4)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)w[i]))
            return false;
    return true;
}

/*
 * PHASE S1902M, PHASE Spring 1902 [Movement], PHASE F1902R, PHASE Winter
 * 1902 (njudge's orders for a later phase): the phase written as the
 * judge names phases ("S1902M") into c->arg; a line that names no phase
 * is text.
 */
void cmd_parse_phase(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    int n = ws->n - arg;
    char season = 0, type = 0;
    const char *year = NULL;
    if (n == 1) {
        const char *w = ws->w[arg];
        size_t len = strlen(w);
        if (len >= 5 && len <= 6 && season_of((char[]){w[0], '\0'}) &&
            type_of((char[]){w[len - 1], '\0'})) {
            char y[8];
            snprintf(y, sizeof y, "%.*s", (int)(len - 2), w + 1);
            if (year_word(y)) {
                snprintf(c->arg, sizeof c->arg, "%c%s%c",
                         toupper((unsigned char)w[0]), y,
                         type_of((char[]){w[len - 1], '\0'}));
                c->kind = kind;
                return;
            }
        }
    } else if (n == 2 || n == 3) {
        season = season_of(ws->w[arg]);
        year = ws->w[arg + 1];
        type = n == 3 ? type_of(ws->w[arg + 2]) : 0;
        if (season && year_word(year) && (n == 2 || type)) {
            if (!type)
                type = season == 'W' ? 'A' : 'M';
            if (season == 'U') { /* summer: spring's retreats */
                season = 'S';
                type = 'R';
            }
            snprintf(c->arg, sizeof c->arg, "%c%s%c", season, year, type);
            c->kind = kind;
            return;
        }
    }
    c->kind = CMD_TEXT;
}

/* Is w a unit's word (A, F, ARMY, FLEET) or a word njudge's conditions
 * begin with? */
static bool condition_word(const char *w)
{
    return cmd_word_is(w, "A") || cmd_word_is(w, "F") ||
           cmd_word_is(w, "ARMY") || cmd_word_is(w, "FLEET") ||
           cmd_word_is(w, "NOT") || cmd_word_is(w, "NO");
}

/*
 * IF condition [THEN]: njudge's conditional orders.  A line is IF only
 * when the condition begins with a unit or NOT ("IF A Mun - Bur",
 * "IF NOT F Kie - Den") or the line ends with THEN; "If you support me"
 * is text.
 */
void cmd_parse_if(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    if (ws->n <= arg || (!condition_word(ws->w[arg]) &&
                         !cmd_word_is(ws->w[ws->n - 1], "THEN"))) {
        c->kind = CMD_TEXT;
        return;
    }
    cmd_words_rest(ws, arg, c->arg, sizeof c->arg);
    c->kind = kind;
}

/* DIARY [text]: the lines up to ENDDIARY are its body (parse.c); DIARY
 * READ alone asks for one's own entries and has no body. */
void cmd_parse_diary(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    cmd_words_rest(ws, arg, c->arg, sizeof c->arg);
    c->opens_diary = !(ws->n == arg + 1 && cmd_word_is(ws->w[arg], "READ"));
    c->kind = kind;
}

/* OFFICIAL [text]: the text on the line, or the lines up to ENDPRESS. */
void cmd_parse_official(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    cmd_words_rest(ws, arg, c->arg, sizeof c->arg);
    c->opens_press = !c->arg[0];
    c->kind = kind;
}

/* POSTAL PRESS [...]: its body up to ENDPRESS, never orders. */
void cmd_parse_postal(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    cmd_words_rest(ws, arg, c->arg, sizeof c->arg);
    c->opens_press = true;
    c->kind = kind;
}
