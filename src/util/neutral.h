/* SPDX-License-Identifier: MIT */
/*
 * neutral.h — a player's free text (press) made safe to show among the
 * judge's own lines, by mail and on the web alike: the one function both
 * doors' press goes through (game/press.c when it is sent,
 * game/press_archive.c when it is read back).
 *
 * Two tricks it takes away:
 *   - format characters that change how the text around them looks: the
 *     bidirectional overrides, embeddings and isolates (U+202A-U+202E,
 *     U+2066-U+2069, U+200E, U+200F, U+061C), zero-width and invisible
 *     characters (U+200B-U+200D, U+2060-U+2064, U+FEFF, U+180E), the
 *     interlinear annotations (U+FFF9-U+FFFB), the tag characters
 *     (U+E0000-U+E007F), and control characters other than tab and line
 *     ends: each is written as its visible name, "[U+202E]", so a reader
 *     sees that it was there;
 *   - a line that would read as one of the judge's own: "Game 'demo',
 *     S1901M: press from ..." (a press mail's first line), "--- S1901M:
 *     press from ..." (the archive's), or a mail header ("From:", "To:",
 *     "Subject:", "Date:", "Reply-To:", "Sender:"): such a line is shown
 *     quoted ("> ").
 * Bytes that are not UTF-8 are left as they are (the mail reader has made
 * the text UTF-8 already).  Running it twice changes nothing more.
 */
#ifndef DJ_UTIL_NEUTRAL_H
#define DJ_UTIL_NEUTRAL_H

#include "util/buf.h"

void dj_text_neutralise(const char *text, dj_buf *out);

#endif
