/* SPDX-License-Identifier: MIT */
/*
 * fuzz_recipients.c — libFuzzer target for who a press message reaches:
 * the PRESS line (src/command/recipients.c) and its recipient lists read
 * against the standard map (src/game/press_recipients.c).
 *
 * The input is one line (cut at the first newline or NUL); when it does
 * not start with PRESS or BROADCAST, "PRESS TO " is put in front, so
 * most inputs are lists.  Besides the sanitizers' checks, the property
 * the judge relies on: every recipient of a press that would be sent was
 * named.  For each list the parser accepts, every power in the set is
 * named by a word of the list (its name, adjective or letter), or the
 * list says ALL and the power is not named after BUT; the master only
 * when MASTER, GM or M is a word; the observers only when OBSERVERS,
 * OBSERVER or O is.  No keyword of the line (FROM, FAKE, GREY, WHITE)
 * ever ends up in an accepted list, and FROM takes one word that is no
 * keyword (the game layer looks it up as one power, or refuses).
 * Build and run: make fuzz FUZZ_TARGETS=recipients (tests/fuzz/fuzz.sh).
 */
#include "fuzzlib.h"

#include <stdbool.h>
#include <strings.h>

#include "command/parse.h"
#include "game/press_recipients.h"

static bool any_word(const char *list, const char *const *names)
{
    char copy[DJ_PRESS_RECIPIENTS_MAX];
    snprintf(copy, sizeof copy, "%s", list);
    char *save = NULL;
    for (char *w = strtok_r(copy, " ,\t", &save); w;
         w = strtok_r(NULL, " ,\t", &save))
        for (const char *const *n = names; *n; n++)
            if (!strcasecmp(w, *n))
                return true;
    return false;
}

/* Is power p named by a word of the list (before BUT, when after_but is
 * false; after it when true)? */
static bool names_power(const dj_map *map, const char *list, int p,
                        bool after_but)
{
    char copy[DJ_PRESS_RECIPIENTS_MAX];
    snprintf(copy, sizeof copy, "%s", list);
    char *save = NULL;
    bool but = false;
    for (char *w = strtok_r(copy, " ,\t", &save); w;
         w = strtok_r(NULL, " ,\t", &save)) {
        if (!strcasecmp(w, "but"))
            but = true;
        else if (but == after_but && dj_map_find_power(map, w) == p)
            return true;
    }
    return false;
}

static void check_list(const dj_map *map, const char *list)
{
    dj_press_recipients r;
    char err[256];
    if (dj_press_recipients_read(map, list, &r, err, sizeof err) < 0) {
        if (!memchr(err, '\0', sizeof err) || !err[0])
            abort();
        return;
    }
    static const char *const all[] = {"all", NULL};
    static const char *const master[] = {"master", "gm", "m", NULL};
    static const char *const observers[] = {"observers", "observer", "o",
                                            NULL};
    static const char *const keywords[] = {"from", "fake", "grey", "gray",
                                           "white", NULL};
    if (any_word(list, keywords))
        abort(); /* a keyword read as a recipient */
    bool has_all = any_word(list, all);
    for (int p = 0; p < map->npowers; p++) {
        if (!(r.powers >> p & 1u))
            continue;
        bool named = names_power(map, list, p, false) ||
                     (has_all && !names_power(map, list, p, true));
        if (!named)
            abort(); /* a power nobody named */
    }
    if (map->npowers < 64 && r.powers >> map->npowers)
        abort(); /* a power the map does not have */
    if (r.master && !any_word(list, master))
        abort();
    if (r.observers && !any_word(list, observers))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const dj_map *map = fuzz_standard_map();
    char line[CMD_LINE_MAX];
    size_t n = 0;
    while (n < size && n < 400 && data[n] != '\n' && data[n] != '\0')
        n++;
    bool whole = n >= 5 && (!strncasecmp((const char *)data, "PRESS", 5) ||
                            !strncasecmp((const char *)data, "BROAD", 5));
    snprintf(line, sizeof line, "%s%.*s", whole ? "" : "PRESS TO ", (int)n,
             (const char *)data);
    cmd c;
    cmd_parse_line(line, &c);
    if (c.kind != CMD_PRESS)
        return 0;
    if (c.has_to)
        check_list(map, c.to);
    if (c.fake_has_to)
        check_list(map, c.fake_to);
    /* FROM takes one word, never a keyword; the game layer then looks
     * it up as one power or refuses the press. */
    if (c.fake_from[0] &&
        (!memchr(c.fake_from, '\0', sizeof c.fake_from) ||
         strchr(c.fake_from, ' ') || !strcasecmp(c.fake_from, "from") ||
         !strcasecmp(c.fake_from, "fake") || !strcasecmp(c.fake_from, "grey") ||
         !strcasecmp(c.fake_from, "gray") || !strcasecmp(c.fake_from, "white")))
        abort();
    return 0;
}
