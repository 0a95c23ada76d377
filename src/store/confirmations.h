/* SPDX-License-Identifier: MIT */
/*
 * confirmations.h — pending JOIN, OBSERVE and CREATE requests made by mail,
 * each waiting for its code to come back from the address that asked
 * (game/confirm.c says why and what happens).  Never holds a password:
 * only its hash.
 */
#ifndef DJ_STORE_CONFIRMATIONS_H
#define DJ_STORE_CONFIRMATIONS_H

#include <stdint.h>

#include "store/games.h"
#include "store/store.h"

#define DJ_CONFIRM_CODE_MAX 32

typedef struct dj_confirmation_rec {
    int64_t id;
    char code[DJ_CONFIRM_CODE_MAX];
    char email[256];
    char action[12];                  /* join, observe, create */
    char game[DJ_GAME_NAME_MAX];
    char power[64];                   /* "" for none */
    char password_hash[256];
    char settings[DJ_STORE_TEXT_MAX]; /* create's key=value words */
    int64_t created_at, expires_at;
    char klass[16];                   /* the asking mail's class (game.h:
                                         dj_sender_class); "": unknown */
} dj_confirmation_rec;

/* Insert one (code unique); drops every expired one first (at `now`). */
int dj_store_confirmation_add(dj_store *s, const dj_confirmation_rec *c,
                              int64_t now);

/* By code: 0, DJ_STORE_NOTFOUND or -1. */
int dj_store_confirmation_get(dj_store *s, const char *code,
                              dj_confirmation_rec *c);

int dj_store_confirmation_delete(dj_store *s, int64_t id);

/* Pending (unexpired at `now`) requests: for a game (NULL: any), from
 * an address (NULL: any), made by mail of a class (NULL: any). */
int dj_store_confirmation_count(dj_store *s, const char *game,
                                const char *email, const char *klass,
                                int64_t now, int *n);

/* Pending requests from any address @domain (case-insensitive), of a
 * class (NULL: any). */
int dj_store_confirmation_count_domain(dj_store *s, const char *domain,
                                       const char *klass, int64_t now,
                                       int *n);

/*
 * Pending requests, oldest first: for a game (NULL: any) and from an
 * address, or from a whole domain when `from` is "@domain" (NULL: any).
 * *out is malloc'd (free it).
 */
int dj_store_confirmation_list(dj_store *s, const char *game,
                               const char *from, int64_t now,
                               dj_confirmation_rec **out, int *n);

/* Delete the requests dj_store_confirmation_list would list (expired ones
 * too); how many in *n. */
int dj_store_confirmation_clear(dj_store *s, const char *game,
                                const char *from, int *n);

#endif
