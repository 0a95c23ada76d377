/* SPDX-License-Identifier: MIT */
/*
 * press_recipients.c — a press message's recipient list, word by word
 * (see press_recipients.h for the words and why nothing else is read).
 */
#define _POSIX_C_SOURCE 200809L

#include "game/press_recipients.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* A role's word, or its letter when no power of the map has that letter. */
static bool names_role(const dj_map *map, const char *w, const char *word,
                       const char *other)
{
    if (!strcasecmp(w, word) || (other && !strcasecmp(w, other)))
        return true;
    return strlen(w) == 1 && (w[0] | 0x20) == word[0] &&
           dj_map_find_power(map, w) < 0;
}

/* One word into *r; -1 when it is none of the words allowed. */
static int add_word(const dj_map *map, const char *w, dj_press_recipients *r)
{
    int p = dj_map_find_power(map, w);
    if (p >= 0) {
        r->powers |= DJ_POWER_BIT(p);
        return 0;
    }
    if (names_role(map, w, "master", "gm")) {
        r->master = true;
        return 0;
    }
    if (names_role(map, w, "observers", "observer")) {
        r->observers = true;
        return 0;
    }
    return -1;
}

int dj_press_recipients_read(const dj_map *map, const char *text,
                             dj_press_recipients *out, char *err,
                             size_t errlen)
{
    memset(out, 0, sizeof *out);
    char copy[DJ_PRESS_RECIPIENTS_MAX];
    if (!text || strlen(text) >= sizeof copy) {
        snprintf(err, errlen, "the list of recipients is too long");
        return -1;
    }
    snprintf(copy, sizeof copy, "%s", text);
    dj_press_recipients but = {0, false, false};
    bool all = false, after_but = false;
    char *save = NULL;
    for (char *w = strtok_r(copy, " ,\t", &save); w;
         w = strtok_r(NULL, " ,\t", &save)) {
        if (!strcasecmp(w, "and"))
            continue;
        if (!strcasecmp(w, "all") && !after_but && !all) {
            all = true;
            continue;
        }
        if (!strcasecmp(w, "but") && all && !after_but) {
            after_but = true;
            continue;
        }
        if (add_word(map, w, after_but ? &but : out) < 0) {
            snprintf(err, errlen, "unknown recipient '%.60s': press goes to "
                     "power names or letters, MASTER, OBSERVERS, ALL and "
                     "ALL BUT, separated by spaces or commas; nothing was "
                     "sent", w);
            memset(out, 0, sizeof *out);
            return -1;
        }
    }
    if (all)
        out->powers |= DJ_POWERS_UPTO(map->npowers) & ~but.powers;
    if (but.master)
        out->master = false;
    if (but.observers)
        out->observers = false;
    if (!out->powers && !out->master && !out->observers) {
        snprintf(err, errlen, "press to whom? no recipients given");
        return -1;
    }
    return 0;
}
