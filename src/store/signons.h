/* SPDX-License-Identifier: MIT */
/*
 * signons.h — failed mail sign-ons, counted to rate-limit password
 * guessing.
 *
 * Design.  One row per failure: the sender's address (lower case), the
 * game name as written (so guesses at games that do not exist count too,
 * and a game's name does not have to be resolved first), the target (the
 * power or role the sign-on named) and the time.  The game layer counts
 * failures per sender and per target inside a window (see game/access.c
 * for what it refuses, and why never the right password from a
 * participant's own address); rows older
 * than the window are pruned whenever a new failure is recorded, so the
 * table stays as small as the attacks currently under way.  Never holds a
 * password, right or wrong.  Each row has the class of the mail (or door)
 * it came by (game.h: dj_sender_class: "unknown", "authenticated",
 * "forged", "web"), and every count takes a class (NULL: all of them), so
 * one class's failures never count against another's sign-ons.
 */
#ifndef DJ_STORE_SIGNONS_H
#define DJ_STORE_SIGNONS_H

#include <stdint.h>

#include "store/store.h"

/*
 * Record a failure at `at` by `sender` as `target` (who the sign-on named:
 * a power's name, "master", "observer"; case-insensitive), dropping rows
 * from before `prune_before`.
 */
int dj_store_signon_failure_add(dj_store *s, const char *sender,
                                const char *game, const char *target,
                                const char *klass, int64_t at,
                                int64_t prune_before);

/* Failures as `target` in `game`, from any sender, at or after `since`. */
int dj_store_signon_target_failures(dj_store *s, const char *game,
                                    const char *target, const char *klass,
                                    int64_t since, int *count);

/* The time of the latest failure as `target` in `game`, from any sender
 * (0 when none). */
int dj_store_signon_target_latest(dj_store *s, const char *game,
                                  const char *target, const char *klass,
                                  int64_t *latest);

/* Failures of `sender` as `target` in `game` at or after `since`, and the
 * latest one's time (0 when none): one client's tries at one power. */
int dj_store_signon_pair_failures(dj_store *s, const char *sender,
                                  const char *game, const char *target,
                                  int64_t since, int *count, int64_t *latest);

/* Failures of `sender` for `game` (case-insensitive) at or after `since`. */
int dj_store_signon_failures(dj_store *s, const char *sender,
                             const char *game, const char *klass,
                             int64_t since, int *count);

#endif
