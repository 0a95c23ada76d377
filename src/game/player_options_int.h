/* SPDX-License-Identifier: MIT */
/*
 * player_options_int.h — private to src/game: what the mail code asks of
 * a participant's own options (player_options.c): their deadline line,
 * their .ics calendar entry and their reminder lead.
 */
#ifndef DJ_GAME_PLAYER_OPTIONS_INT_H
#define DJ_GAME_PLAYER_OPTIONS_INT_H

#include "game/game_int.h"
#include "game/player_options.h"

/* Appends "Deadline in your zone (Europe/Paris): Sat 16 Jan 2027 09:00
 * CET\n" when the participant has a zone of their own, else nothing. */
void gv_own_deadline(const game_view *v, const dj_participant_rec *p,
                     int64_t deadline, dj_buf *out);

/* The participant's .ics for the deadline of `phase` (RFC 5545: CRLF
 * lines folded at 75 octets, UID stable per game and phase, a VALARM at
 * their reminder lead), into out; nothing when their calendar is off or
 * there is no deadline. */
void gv_calendar(const dj_judge *j, const game_view *v,
                 const dj_participant_rec *p, const char *phase,
                 int64_t deadline, dj_buf *out);

/* Queue one mail of a game to participant p: with the deadline the view
 * announces (v->mail_deadline, 0: none), the copy adds p's own zone's line
 * and carries p's calendar entry (context.c). */
int gv_mail_one(dj_judge *j, const game_view *v, const dj_participant_rec *p,
                int64_t phase_id, const char *kind, const char *subject,
                const char *body, const dj_picture_ref *pic);

/* Minutes before a deadline the participant is reminded (-1: never). */
int gv_own_lead(const dj_judge *j, const dj_participant_rec *p);

#endif
