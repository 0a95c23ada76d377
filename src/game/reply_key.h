/* SPDX-License-Identifier: MIT */
/*
 * reply_key.h — forgetting the reply key (reply_token.c; loading it is
 * dj_judge_load_reply_key in game.h): a process that holds a copy of the
 * judge and must not sign reply addresses, the isolated mail reader of
 * judged, wipes the key from its memory.
 */
#ifndef DJ_GAME_REPLY_KEY_H
#define DJ_GAME_REPLY_KEY_H

#include "game/game.h"

/* Overwrite the key in j's memory; j signs no reply address after. */
void dj_judge_wipe_reply_key(dj_judge *j);

#endif
