/* SPDX-License-Identifier: MIT */
/*
 * pad.h — the order pad (pad.c): the signed-in power's board as an order
 * pad, its legal orders as JSON, its own orders on file as a picture,
 * and the one script judgeweb serves (/pad.js, src/web/pad.js embedded at
 * build as web_pad_js by the Makefile's rule for src/web/pad_js.c).
 */
#ifndef DJ_WEB_PAD_H
#define DJ_WEB_PAD_H

#include <stdbool.h>
#include <stddef.h>

#include "game/reading.h"
#include "util/buf.h"

struct web_ctx;

/* src/web/pad.js's bytes (generated src/web/pad_js.c). */
extern const unsigned char web_pad_js[];
extern const size_t web_pad_js_len;

/*
 * On the game page of a power signed in to it, while a phase takes
 * orders: its board with its own orders on file (mine.svg), marked as
 * the order pad for the script, and a link to the picture at full size.
 * false (nothing written) for anyone else, who gets the board alone.
 */
bool web_pad_board(struct web_ctx *c, dj_buf *b, const dj_game_overview *o,
                   const dj_phase_ref *now);

#endif
