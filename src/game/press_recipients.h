/* SPDX-License-Identifier: MIT */
/*
 * press_recipients.h — who a press message goes to, read from the list a
 * player wrote after PRESS TO (or FAKE TO).
 *
 * The list is words separated by spaces or commas, and every word must be
 * one of: a power's name, adjective or letter on the game's map; MASTER
 * (GM, or the letter M when no power has it); OBSERVERS (OBSERVER, or O
 * when no power has it); ALL (every power), BUT (after ALL: the powers,
 * master or observers that follow are taken out again) and AND (nothing:
 * "all but R and T").  Any other word refuses the whole list, naming the
 * word: nothing is guessed, and a word is never read as a run of power
 * letters ("GREAT" is not Germany, Russia, England, Austria and Turkey),
 * so a press can reach only those its writer named.  Pure: no I/O, no
 * state; tests/fuzz/fuzz_recipients.c holds it to that property.
 */
#ifndef DJ_GAME_PRESS_RECIPIENTS_H
#define DJ_GAME_PRESS_RECIPIENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/map.h"

typedef struct dj_press_recipients {
    dj_power_set powers;
    bool master, observers;
} dj_press_recipients;

/* The longest list read (bytes). */
#define DJ_PRESS_RECIPIENTS_MAX 512

/*
 * Read `text` against `map` into *out.  Returns 0, or -1 with the reason
 * (naming the word refused) in err; an empty list is refused too.
 */
int dj_press_recipients_read(const dj_map *map, const char *text,
                             dj_press_recipients *out, char *err,
                             size_t errlen);

#endif
