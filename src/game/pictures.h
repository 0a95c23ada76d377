/* SPDX-License-Identifier: MIT */
/*
 * pictures.h — pictures of a game's phases (drawn by render/, kept in the
 * picture cache), a participant's map format, and the subject and picture
 * of a game's mail (picture.c, picture_cache.c).
 * Part of the game room's door; the session they all take is game.h's.
 */
#ifndef DJ_GAME_PICTURES_H
#define DJ_GAME_PICTURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "game/signon.h"

/*
 * A picture of a game's phase (PHASE like S1901M, NULL: the current one)
 * in a format of render.h (DJ_PICTURE_PNG...).  orders: 1 draws the
 * phase's orders (with their results once it is processed), 0 none, -1
 * the default: orders once processed, none for the current phase (they
 * are secret until then).  -1 and 0 come from the picture cache on disk
 * (as dj_game_phase_picture) or are drawn and kept there; 1 is drawn each
 * time.  *out is malloc'd (dj_picture_free).
 */
struct dj_picture;
int dj_game_picture(dj_judge *j, const char *game, const char *phase,
                    int orders, int format, struct dj_picture *out);

/*
 * The picture of a phase as players see it, by the phase's row id (what
 * mail and the web keep): a phase played is the board after it with its
 * orders and results over it, the current phase its position.  Taken
 * from the picture cache on disk (judge.conf's picture_cache) when it was
 * drawn before, else drawn and kept there; never stored in the database.
 * The attachment's name ("demo-S1901M.png") goes to name.  dj_game_picture
 * with orders -1 is the same by game and phase name.
 */
int dj_game_phase_picture(dj_judge *j, int64_t phase_id, int format,
                          struct dj_picture *out, char *name, size_t namelen);
/* The same as the mail to `recipients` (an address) carries it: in a
 * blind game (blind = yes) that reader's view of the phase (game/blind.h);
 * NULL: as the master sees it. */
int dj_game_phase_picture_to(dj_judge *j, int64_t phase_id, int format,
                             const char *recipients, struct dj_picture *out,
                             char *name, size_t namelen);

/*
 * SET MAP by mail: the format of the picture attached to this participant's
 * results mail (png, pdf, svg or none, any case), instead of the game's
 * map_attachment.
 */
int dj_game_set_map_format(dj_judge *j, const dj_signon *id,
                           const char *format, dj_buf *out);

/*
 * The subject of every mail the judge writes, appended to out:
 * "JUDGE:GAME - PHASE WHAT" ("dipjudge:alpha - S1901M Results"), without
 * ":GAME" when game is NULL or "", without "PHASE " when phase is NULL,
 * "" or "-" (no phase yet); judge NULL is "dipjudge".
 */
void dj_game_mail_subject(dj_buf *out, const char *judge, const char *game,
                          const char *phase, const char *what);

/*
 * MAP by mail: the picture of a phase of a game (PHASE like S1901M, NULL:
 * the current one; as dj_game_phase_picture draws it) in the
 * participant's format (id NULL or their choice "none": PNG), named in
 * *picture for the reply to carry (drawn as it is sent).  A line for the
 * reply goes to out.
 */
int dj_game_map_for_mail(dj_judge *j, const char *game, const char *phase,
                         const dj_signon *id, dj_picture_ref *picture,
                         dj_buf *out);

/*
 * The board of the phase taking orders with this power's own orders on
 * file drawn over it (order_pad.c): for its player only, drawn each time,
 * never cached.  -1 with the judge's error (no phase taking orders, no
 * geometry).
 */
int dj_game_own_orders_picture(dj_judge *j, const char *game,
                               const char *power, int format,
                               struct dj_picture *out);

#endif
