/* SPDX-License-Identifier: MIT */
/*
 * typography.h — the invisible and typographic characters players' mail
 * programs put into what they type, normalised in ONE place before any
 * command or order is read.
 *
 * Why: a byte-order mark before the first line, a zero-width space a
 * phone keyboard slipped in, the no-break spaces and smart quotes of
 * HTML mail, Apple Mail's "•\t" bullets and a numbered list's "1." are
 * not what the player meant to write, and reading them as text made
 * whole mails unread (and a SIGNON behind a BOM was echoed with its
 * password).  The command reader (src/command/parse.c) cleans every line
 * of a message with dj_typography_line() before it splits it into words,
 * and the order reader (src/reader) maps each sequence with the same
 * table (dj_typography_char()), so both read one and the same text.
 *
 *   removed        U+FEFF (BOM), U+200B-U+200F, U+2060-U+2064, U+00AD
 *                  (soft hyphen), bidirectional marks, variation
 *                  selectors, C1 controls
 *   a space        U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029,
 *                  U+202F, U+205F, U+3000, and tabs and controls
 *   ' and "        curly, low and angle quotes, primes, U+00B4
 *   -              U+2010-U+2015, U+2212, small and full-width hyphens
 *   ->             arrows (U+2192, U+21D2, U+2794, U+279C, U+27A1, U+27F6)
 *   ...            U+2026
 *   ASCII          full-width forms U+FF01-U+FF5E
 *   a list marker  at the line's start, with the spaces after it:
 *                  bullets of the common shapes (U+2022 and its kin,
 *                  Outlook's Symbol-font U+F0B7), "-", "*", "+", "1.",
 *                  "12)", "(1)", "[1]", "a)", "(a)"; a bullet elsewhere
 *                  is a space
 *
 * Nothing else changes: letters of any script stay as they are, and bytes
 * that are not valid UTF-8 are left for the readers to refuse.  The text
 * never grows.
 */
#ifndef DJ_UTIL_TYPOGRAPHY_H
#define DJ_UTIL_TYPOGRAPHY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The sequence at s (s[0] >= 0x80, NUL-terminated): when the table knows
 * it, its replacement (0 to 3 ASCII bytes, NUL-terminated) into out and
 * the bytes it takes; else 0.  *bullet says it is a list bullet.
 */
size_t dj_typography_char(const char *s, char out[4], bool *bullet);

/* Clean one line in place (no '\n' in it): the table above, list
 * markers at its start removed, trailing spaces dropped. */
void dj_typography_line(char *line);

#endif
