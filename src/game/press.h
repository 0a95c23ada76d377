/* SPDX-License-Identifier: MIT */
/*
 * press.h — press and diaries: press sent under the game's rules, whose
 * press a viewer reads, press read back one message at a time and as an
 * archive (press.c, press_archive.c, audience.c).
 * Part of the game room's door; the session they all take is game.h's.
 */
#ifndef DJ_GAME_PRESS_H
#define DJ_GAME_PRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "game/signon.h"

/*
 * Press from a signed-on participant, under the game's press rules
 * (settings press, partial_press, fake_press, observer_press).  Lists of
 * recipients are read by game/press_recipients.h: power names,
 * adjectives or letters, "master" (M), "observers" (O), "all", "all but
 * R T", separated by spaces or commas; any other word refuses the whole
 * press, naming the word.
 */
typedef struct dj_press_request {
    const char *to;       /* recipients as written; NULL: a broadcast */
    const char *fake_to;  /* with fake: the recipients shown; NULL: shown
                             as a broadcast */
    bool fake;            /* show other recipients than the real ones */
    const char *fake_from; /* FROM: the power shown as the sender; NULL:
                              the real one */
    int grey;             /* -1 the game's default, 0 white, 1 grey */
    const char *body;     /* the text, lines ending in '\n' */
} dj_press_request;

/*
 * Send press: one mail per recipient (never back to the sender), and a
 * copy in the press archive.  Press to the master alone is always allowed
 * and always white.  A message that breaks a rule is refused whole, with
 * the rule in the error.
 */
int dj_game_press(dj_judge *j, const dj_signon *id,
                  const dj_press_request *req, dj_buf *out);

/*
 * DIARY ... ENDDIARY: keep an entry in the signed-on player's diary for
 * the current phase; it is read by that player alone (DIARY READ:
 * dj_game_diary_read) until the game ends, when every power's diary goes
 * out with the final table.  Masters and observers keep none and read
 * none while the game runs.
 */
int dj_game_diary_add(dj_judge *j, const dj_signon *id, const char *body,
                      dj_buf *out);
int dj_game_diary_read(dj_judge *j, const dj_signon *id, dj_buf *out);

/* Does the viewer read every press message of the game as it was sent
 * (true sender, true recipients)?  The game's master, unless the setting
 * master_press is "addressed". */
bool dj_press_master_reads_all(const dj_game_rec *g,
                               const dj_signon *viewer);

/* May the viewer (a participant signed on to this game, or NULL) read
 * this press message?  Broadcasts: every participant, everyone once the
 * game is over; other press: its sender and real recipients only, and a
 * master who reads all (dj_press_master_reads_all). */
struct dj_press_rec;
bool dj_press_visible(const dj_game_rec *g, const struct dj_press_rec *p,
                      const dj_signon *viewer);

/* One press message as the viewer sees it. */
typedef struct dj_press_item {
    const struct dj_press_rec *rec; /* the archive's row (store/press.h) */
    const char *phase;              /* "S1901M", "" when none */
    const char *from;               /* "France", "an anonymous sender" */
    const char *to;                 /* "everyone", "Germany and Italy" */
    const char *body;
    bool broadcast; /* shown as a broadcast (a fake one too, unless the
                       reader sees the truth) */
} dj_press_item;

/* Return non-zero to stop. */
typedef int (*dj_press_each_fn)(void *arg, const dj_press_item *item);

/*
 * Every press message of a game the viewer may read, oldest first, within
 * the phases from..to (names like S1901M or years; NULL: no bound).  A
 * private game's press is refused to a viewer not signed on.  0 or -1.
 */
int dj_game_press_each(dj_judge *j, const char *game, const dj_signon *viewer,
                       const char *from, const char *to, dj_press_each_fn fn,
                       void *arg);

/* The same written out (PRESS ARCHIVE), at most max_bytes of messages,
 * ending with a note of how many were left out and how to ask for them. */
int dj_game_press_archive(dj_judge *j, const char *game,
                          const dj_signon *viewer, const char *from,
                          const char *to, size_t max_bytes, dj_buf *out);

#endif
