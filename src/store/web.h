/* SPDX-License-Identifier: MIT */
/*
 * web.h — what the web door (judgeweb) keeps and reads in one query:
 * sign-in sessions, and the games' overview for the judge's front page.
 *
 * Design.  A session row is keyed by the SHA-256 of the random token the
 * browser holds in its cookie (game/websession.c); the token itself is never
 * stored, so a copy of the database signs nobody in.  A session belongs to
 * a participant and ends at its expiry, at sign-out, or as soon as the
 * participant leaves the game (resigned, replaced): the lookup joins the
 * participant and refuses those.  The overview is one query over every
 * game with its current (or final) phase and the count of players holding
 * a power, so the front page costs one statement however many games there
 * are.
 */
#ifndef DJ_STORE_WEB_H
#define DJ_STORE_WEB_H

#include <stdint.h>

#include "store/games.h"
#include "store/store.h"

typedef struct dj_web_session_rec {
    int64_t participant_id;
    int64_t game_id;
    char role[12];
    int power;              /* -1: none */
    char csrf[80];
    int64_t expires_at;
} dj_web_session_rec;

int dj_store_web_session_add(dj_store *s, const char *token_hash,
                             int64_t participant_id, const char *csrf,
                             const char *client, int64_t now,
                             int64_t expires_at);

/* The live session of a token's hash at `now`: 0, DJ_STORE_NOTFOUND, -1. */
int dj_store_web_session_get(dj_store *s, const char *token_hash, int64_t now,
                             dj_web_session_rec *out);

int dj_store_web_session_delete(dj_store *s, const char *token_hash);

/* Drop the sessions expired at `now`. */
int dj_store_web_session_prune(dj_store *s, int64_t now);

/* End every session of the participant but the one of keep_hash (NULL or
 * "": every one): a password or an address changed (issue 33). */
int dj_store_web_sessions_end_others(dj_store *s, int64_t participant_id,
                                     const char *keep_hash);

/*
 * Known browsers (version 13): the SHA-256 of a random token a browser
 * was given when it signed in as a participant, kept until expires_at.
 * A browser known to the participant may still try its password when
 * strangers' failures have used up the power's day (game/access.c).
 */
int dj_store_web_device_add(dj_store *s, const char *device_hash,
                            int64_t participant_id, int64_t now,
                            int64_t expires_at);
/* 1 when the device is the participant's and live at now, 0 not, -1. */
int dj_store_web_device_known(dj_store *s, const char *device_hash,
                              int64_t participant_id, int64_t now);

/* One game of the front page. */
typedef struct dj_game_overview_rec {
    char name[DJ_GAME_NAME_MAX];
    char map[DJ_STORE_NAME_MAX];
    char state[16];
    char ending[DJ_STORE_TEXT_MAX];
    char phase[16];          /* current or final phase; "" while forming */
    int64_t deadline;        /* of a current phase; 0: none */
    int players;             /* live players holding a power */
    int waiting;             /* players waiting for a power to be dealt */
    int unlisted;            /* the settings deciding who sees it listed */
    char join_password[64];
} dj_game_overview_rec;

/* Every game (name NULL) or the one named, by name; *out malloc'd. */
int dj_store_game_overviews(dj_store *s, const char *name,
                            dj_game_overview_rec **out, int *n);


#endif
