/* SPDX-License-Identifier: MIT */
/*
 * recipients.h — the PRESS and BROADCAST line: who a press message is
 * for, as written (the words are checked against the game's map later,
 * by game/press_recipients.h), and how it is shown.  Kept apart from the
 * rest of the parser because it is where a word out of place once sent
 * press to players nobody named ("PRESS TO F FROM G" read FROM as the
 * letters F, R, O, M): every word of the line is either a keyword here
 * or part of a list the game layer reads strictly.
 *
 *   PRESS TO list [FROM power] [GREY|WHITE]
 *         [FAKE BROADCAST | FAKE [PARTIAL] TO list]
 *   BROADCAST [GREY|WHITE]
 *
 * The options come in any order, each at most once.  A list runs up to
 * the next keyword (FROM, GREY, GRAY, WHITE, FAKE).  FROM is DPjudge's
 * fake sender: the press shows that power as its sender, where the
 * game's fake_press allows it.
 */
#ifndef DJ_COMMAND_RECIPIENTS_H
#define DJ_COMMAND_RECIPIENTS_H

#include <stdbool.h>

#include "command/parse.h"

/*
 * Read the n words after PRESS (broadcast false) or BROADCAST into c's
 * press fields: c->kind becomes CMD_PRESS, or CMD_BAD with the reason in
 * c->error.
 */
void cmd_read_press_line(char *const *w, int n, bool broadcast, cmd *c);

#endif
