/* SPDX-License-Identifier: MIT */
/*
 * listing.h — the web front page's games, a page at a time (issue 38):
 * the listed games of one state (in play, forming, finished), filtered by
 * board, press and speed, in name order, 50 a page by keyset paging (the
 * page after a name, or before one), each page one indexed query however
 * many games the judge holds.
 *
 * Design.  A game is listed when it is neither unlisted nor private
 * (game/audience.c's dj_game_listed says so for LIST by mail; the query
 * says the same in SQL, "unlisted = 0 AND join_password = ''", so that a
 * partial index holds the listed games only).  The state and speed are
 * read through the expressions the indexes are built on (listing.c):
 * "play" is active or paused; speed is the movement delay, "fast" under
 * a day, "normal" a day to three, "slow" more.  The indexes are made when
 * the database is opened, after the settings' columns they read exist
 * (schema.c, dj_schema_migrate).
 */
#ifndef DJ_STORE_LISTING_H
#define DJ_STORE_LISTING_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"
#include "store/web.h"

#define DJ_LISTING_PAGE 50

typedef struct dj_listing_filter {
    const char *state;  /* "play", "forming", "finished" (required) */
    const char *map;    /* a board's name, or NULL */
    const char *press;  /* none, white, grey, white+grey, or NULL */
    const char *speed;  /* fast, normal, slow, or NULL */
    const char *after;  /* the page after this name (NULL: the first) */
    const char *before; /* the page before this name (after NULL) */
} dj_listing_filter;

/* One page: up to `limit` (at most 200) games in name order into *out
 * (malloc'd, overview rows with press and move_delay), *more when the
 * query found one more in its direction.  0 or -1. */
typedef struct dj_listing_rec {
    dj_game_overview_rec o;
    char press[16];
    int move_delay;        /* minutes */
} dj_listing_rec;
int dj_store_listing(dj_store *s, const dj_listing_filter *f, int limit,
                     dj_listing_rec **out, int *n, bool *more);

/* How SQLite reads the page of the filter (EXPLAIN QUERY PLAN's lines,
 * "; " between them), for the tests that hold the page to its index. */
int dj_store_listing_plan(dj_store *s, const dj_listing_filter *f, char *out,
                          size_t len);

/* Is `word` a speed the filter takes? */
bool dj_store_listing_speed_ok(const char *word);

/* The front page's indexes, made if missing (dj_schema_migrate, once the
 * settings' columns exist): 0 or -1. */
int dj_store_listing_indexes(dj_store *s);

#endif
