/* SPDX-License-Identifier: MIT */
/*
 * player_options.h — a participant's own options (issue 37), set by mail
 * after SIGNON and kept per participant (store/participants.h):
 *
 *   SET ZONE Europe/Paris   deadlines in the mail addressed to them (start,
 *                           results, reminders, STATUS) shown in that zone
 *                           too, beside the game's; read by the judge's own
 *                           zone reader (time/calendar.h), unknown zones
 *                           refused; SET ZONE GAME forgets it
 *   SET REMINDER 6h|none|default   their own reminder lead (none: no
 *                           reminder), else the judge's `reminder`
 *   SET CALENDAR on|off     the next deadline as an .ics calendar entry
 *                           (RFC 5545) attached to start and results mail;
 *                           on by default
 *   PREVIEW                 a player's own orders on file adjudicated
 *                           against holds of every other unit: the results
 *                           text, nothing stored, nobody else told
 *
 * Declared here, not in game.h, so the options stay one topic.
 */
#ifndef DJ_GAME_PLAYER_OPTIONS_H
#define DJ_GAME_PLAYER_OPTIONS_H

#include <stdbool.h>

#include "game/game.h"

/* SET ZONE: a zone name, or "game" / "none" for the game's zone only. */
int dj_game_set_own_zone(dj_judge *j, const dj_signon *id, const char *zone,
                         dj_buf *out);
/* SET REMINDER: a duration ("6h", "90m", "1d"), "none", or "default". */
int dj_game_set_own_reminder(dj_judge *j, const dj_signon *id, const char *lead,
                             dj_buf *out);
/* SET CALENDAR ON|OFF. */
int dj_game_set_own_calendar(dj_judge *j, const dj_signon *id, bool on,
                             dj_buf *out);
/* PREVIEW by a player: the power's orders on file against holds. */
int dj_game_preview_own(dj_judge *j, const dj_signon *id, dj_buf *out);
/* "Deadline in your zone (Europe/Paris): ...": the line STATUS adds for
 * a participant with a zone of their own (nothing otherwise). */
int dj_game_own_deadline(dj_judge *j, const dj_signon *id, dj_buf *out);

#endif
