/* SPDX-License-Identifier: MIT */
/*
 * recipients.c — the PRESS and BROADCAST line's keywords and lists (see
 * recipients.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "command/recipients.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static bool word_is(const char *w, const char *name)
{
    return strcasecmp(w, name) == 0;
}

static void refuse(cmd *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void refuse(cmd *c, const char *fmt, ...)
{
    c->kind = CMD_BAD;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof c->error, fmt, ap);
    va_end(ap);
}

/* Does this word end a list? */
static bool keyword(const char *w)
{
    return word_is(w, "GREY") || word_is(w, "GRAY") || word_is(w, "WHITE") ||
           word_is(w, "FAKE") || word_is(w, "FROM");
}

/* The words from i up to the next keyword, joined by spaces into out.
 * Returns the index after them, or -1 when they do not fit. */
static int read_list(char *const *w, int n, int i, char *out, size_t len)
{
    out[0] = '\0';
    size_t used = 0;
    for (; i < n && !keyword(w[i]); i++) {
        int k = snprintf(out + used, len - used, "%s%s", used ? " " : "",
                         w[i]);
        if (k < 0 || (size_t)k >= len - used)
            return -1;
        used += (size_t)k;
    }
    return i;
}

/* FAKE BROADCAST | FAKE [PARTIAL] TO list, from the word after FAKE. */
static int read_fake(char *const *w, int n, int i, cmd *c)
{
    c->fake = true;
    if (i < n && word_is(w[i], "BROADCAST"))
        return i + 1;
    if (i < n && word_is(w[i], "PARTIAL"))
        i++;
    if (i < n && word_is(w[i], "TO")) {
        c->fake_has_to = true;
        return read_list(w, n, i + 1, c->fake_to, sizeof c->fake_to);
    }
    return i;
}

void cmd_read_press_line(char *const *w, int n, bool broadcast, cmd *c)
{
    c->broadcast = broadcast;
    c->opens_press = true;
    int i = 0;
    while (i < n) {
        const char *word = w[i];
        if (word_is(word, "GREY") || word_is(word, "GRAY") ||
            word_is(word, "WHITE")) {
            c->grey = word_is(word, "WHITE") ? 0 : 1;
            i++;
        } else if (word_is(word, "TO") && !broadcast && !c->has_to) {
            c->has_to = true;
            i = read_list(w, n, i + 1, c->to, sizeof c->to);
        } else if (word_is(word, "FROM") && !broadcast && !c->fake_from[0]) {
            if (i + 1 >= n || keyword(w[i + 1]) ||
                strlen(w[i + 1]) >= sizeof c->fake_from) {
                refuse(c, "%s", "FROM needs the one power the press is "
                                "shown as from");
                return;
            }
            snprintf(c->fake_from, sizeof c->fake_from, "%s", w[i + 1]);
            i += 2;
        } else if (word_is(word, "FAKE") && !broadcast && !c->fake) {
            i = read_fake(w, n, i + 1, c);
        } else {
            refuse(c, "unexpected '%.60s' in the press line (PRESS TO powers "
                      "[FROM power] [GREY|WHITE] [FAKE BROADCAST|FAKE TO "
                      "powers]); nothing was sent",
                   word);
            return;
        }
        if (i < 0) {
            refuse(c, "%s", "the list of recipients is too long");
            return;
        }
    }
    if (!broadcast && !c->has_to) {
        refuse(c, "%s", "PRESS needs TO and the recipients (BROADCAST sends "
                        "to everyone)");
        return;
    }
    if ((c->has_to && !*c->to) || (c->fake_has_to && !*c->fake_to)) {
        refuse(c, "%s", "TO needs the recipients");
        return;
    }
    c->kind = CMD_PRESS;
}
