/* SPDX-License-Identifier: MIT */
/*
 * parse_press.c — the PRESS and BROADCAST line: recipients, grey or
 * white, fake sender.  Its body (the lines up to ENDPRESS) is read by the
 * message reader (parse.c); who may receive what is the game's rule
 * (src/game/press.c), and the words of a list are read strictly by
 * src/game/press_recipients.c.
 *
 *   PRESS TO list [FROM power] [GREY|WHITE]
 *         [FAKE BROADCAST | FAKE [PARTIAL] TO list]
 *   BROADCAST [GREY|WHITE]
 *
 * The options come in any order, each at most once; a list runs up to
 * the next keyword (FROM, GREY, GRAY, WHITE, FAKE), so no keyword is ever
 * read as a recipient (once "PRESS TO F FROM G" sent to France, Russia,
 * the master and the observers: FROM's letters).  FROM is DPjudge's fake
 * sender: the press shows that power as its sender where the game's
 * fake_press allows it.  tests/fuzz/fuzz_recipients.c holds the line and
 * the lists to "every recipient was named".
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>

#include "command/table.h"

/* A list for PRESS TO / FAKE TO: words up to the next option word. */
static bool press_option(const char *w)
{
    return cmd_word_is(w, "GREY") || cmd_word_is(w, "GRAY") ||
           cmd_word_is(w, "WHITE") || cmd_word_is(w, "FAKE") ||
           cmd_word_is(w, "FROM");
}

static int press_list(const words *ws, int i, char *out, size_t len)
{
    out[0] = '\0';
    size_t used = 0;
    for (; i < ws->n && !press_option(ws->w[i]); i++) {
        int k = snprintf(out + used, len - used, "%s%s", used ? " " : "",
                         ws->w[i]);
        if (k < 0 || (size_t)k >= len - used)
            return -1;
        used += (size_t)k;
    }
    return i;
}

/* PRESS [TO LIST] [FROM POWER] [GREY|WHITE] [FAKE [BROADCAST | [PARTIAL]
 * TO LIST]], BROADCAST [GREY|WHITE]. */
void cmd_parse_press(const words *ws, int arg, cmd_kind kind, cmd *c)
{
    bool broadcast = cmd_word_is(ws->w[0], "BROADCAST");
    c->broadcast = broadcast;
    c->opens_press = true;
    int i = arg;
    while (i < ws->n) {
        const char *w = ws->w[i];
        if (cmd_word_is(w, "GREY") || cmd_word_is(w, "GRAY") ||
            cmd_word_is(w, "WHITE")) {
            c->grey = cmd_word_is(w, "WHITE") ? 0 : 1;
            i++;
        } else if (cmd_word_is(w, "TO") && !broadcast && !c->has_to) {
            c->has_to = true;
            i = press_list(ws, i + 1, c->to, sizeof c->to);
        } else if (cmd_word_is(w, "FROM") && !broadcast && !c->fake_from[0]) {
            if (i + 1 >= ws->n || press_option(ws->w[i + 1]) ||
                !cmd_word_copy(c->fake_from, sizeof c->fake_from,
                               ws->w[i + 1])) {
                cmd_bad(c, "%s", "FROM needs the one power the press is "
                                 "shown as from");
                return;
            }
            i += 2;
        } else if (cmd_word_is(w, "FAKE") && !broadcast && !c->fake) {
            c->fake = true;
            i++;
            if (i < ws->n && cmd_word_is(ws->w[i], "BROADCAST")) {
                i++;
            } else if (i < ws->n && (cmd_word_is(ws->w[i], "TO") ||
                                     cmd_word_is(ws->w[i], "PARTIAL"))) {
                i += cmd_word_is(ws->w[i], "PARTIAL") && i + 1 < ws->n &&
                             cmd_word_is(ws->w[i + 1], "TO")
                         ? 2
                         : 1;
                c->fake_has_to = true;
                i = press_list(ws, i, c->fake_to, sizeof c->fake_to);
            }
        } else {
            cmd_bad(c, "unexpected '%.60s' in the press line (PRESS TO "
                       "powers [FROM power] [GREY|WHITE] [FAKE BROADCAST|"
                       "FAKE TO powers]); nothing was sent",
                    w);
            return;
        }
        if (i < 0) {
            cmd_bad(c, "%s", "the list of recipients is too long");
            return;
        }
    }
    if (!broadcast && !c->has_to) {
        cmd_bad(c, "%s", "PRESS needs TO and the recipients (BROADCAST sends "
                         "to everyone)");
        return;
    }
    if ((c->has_to && !*c->to) || (c->fake_has_to && !*c->fake_to)) {
        cmd_bad(c, "%s", "TO needs the recipients");
        return;
    }
    c->kind = kind;
}
