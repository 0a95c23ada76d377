/* SPDX-License-Identifier: MIT */
/*
 * websession.h — the web door's sign-ins: a session signed in with the
 * same password and limits as SIGNON, renewed, re-authenticated, read back
 * from its token and signed out (websession.c).
 * Part of the game room's door; the session they all take is game.h's.
 */
#ifndef DJ_GAME_WEBSESSION_H
#define DJ_GAME_WEBSESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "game/signon.h"

/* ---- the web door (websession.c) -------------------------------------------
 *
 * judgeweb signs players in with the same check and the same failure
 * counts and limits as SIGNON by mail (dj_game_signon, with the client's
 * address as the sender), then keeps a session: a 256-bit random token
 * the browser holds in a cookie, stored only as its SHA-256
 * (store/web.h), ending at its expiry, at sign-out, or when the
 * participant leaves the game.
 */
#define DJ_WEB_TOKEN_LEN 64   /* hex digits of a session or CSRF token */

/*
 * Sign in: 0 with the session's token and CSRF token (each
 * DJ_WEB_TOKEN_LEN hex digits and a NUL) and *id; DJ_SIGNON_REFUSED with
 * the reason in dj_judge_error(); -1 on error.  `client` names the
 * client for the failure counts ("web 192.0.2.1"); `address` finds an
 * observer (who = "observer"; may be NULL); `lifetime` in seconds.
 * The web's limits apply (access.c): per client and power, and per power
 * a day, where only a known browser may still try: `device` is the
 * browser's known-browser cookie (NULL or "" when none); a browser that
 * is not yet known to the participant gets one in new_device
 * (DJ_WEB_TOKEN_LEN + 1 bytes; "" when the browser keeps its own).
 */
#define DJ_WEB_DEVICE_DAYS 180
int dj_game_web_signin(dj_judge *j, const char *game, const char *who,
                       const char *password, const char *address,
                       const char *client, const char *device, int lifetime,
                       char *token, char *csrf, char *new_device,
                       dj_signon *id);

/* The password asked again (the web's account form): 0 when it is the
 * signed-in participant's, DJ_SIGNON_REFUSED (a failure, counted and
 * limited as a sign-in's), -1.  `device` as for dj_game_web_signin. */
int dj_game_web_reauth(dj_judge *j, const dj_signon *id,
                       const char *password, const char *client,
                       const char *device);

/* A new session for a participant whose password or address this browser
 * has just changed (which ended every session of the participant). */
int dj_game_web_renew(dj_judge *j, int64_t participant_id,
                      const char *client, int lifetime, char *token,
                      char *csrf);

/* The session a cookie's token names: 0 (id and csrf filled), 1 when there
 * is none (unknown, expired, signed out, the participant gone), -1. */
int dj_game_web_session(dj_judge *j, const char *token, dj_signon *id,
                        char *csrf);

/* Sign out: the session's row goes (nothing when there is none). */
int dj_game_web_signout(dj_judge *j, const char *token);

#endif
