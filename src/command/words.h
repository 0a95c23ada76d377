/* SPDX-License-Identifier: MIT */
/*
 * words.h — private to src/command: one line split into words, and the
 * small helpers every command's argument parser shares (copying a word
 * into its bounded field, the rest of the line, refusing with a reason,
 * masking passwords in the echo).
 *
 * Why a file of its own: the message reader (parse.c), the table of
 * commands (table.c) and each command's argument parser (parse_args.c,
 * parse_press.c) all read the same split line; one splitter means one
 * notion of a "word" (spaces, tabs, and the no-break spaces HTML mail is
 * full of) everywhere.
 */
#ifndef DJ_COMMAND_WORDS_H
#define DJ_COMMAND_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "command/parse.h"

#define WORDS_MAX 64

typedef struct words {
    int n;
    char *w[WORDS_MAX];
    const char *at[WORDS_MAX]; /* where each word starts in the line */
    char buf[CMD_LINE_MAX];
} words;

/* A space, a tab, or a UTF-8 no-break space at s; its length in bytes. */
bool cmd_words_is_space(const char *s);
size_t cmd_words_space_len(const char *s);

/* Split a copy of `line` into words; words past WORDS_MAX are dropped
 * (no command has that many: such a line is an order line or nonsense,
 * and those are kept whole in cmd.text). */
void cmd_words_split(const char *line, words *ws);

/* The original text from word i to the end of the line, trimmed. */
void cmd_words_rest(const words *ws, int i, char *out, size_t len);

/* Case-blind comparison of a word with a command word. */
bool cmd_word_is(const char *w, const char *name);

/* Copy w into out; false (out unchanged) when it does not fit. */
bool cmd_word_copy(char *out, size_t len, const char *w);

/* The command is refused: kind CMD_BAD, error the reason. */
void cmd_bad(cmd *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Echo the line with words [from, to) masked (to < 0: to the end). */
void cmd_mask_words(const words *ws, int from, int to, cmd *c);

#endif
