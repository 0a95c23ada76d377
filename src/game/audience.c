/* SPDX-License-Identifier: MIT */
/*
 * audience.c — who may see what of a game: whether it is listed, whether
 * a join password lets someone in, who sees which player plays which
 * power, and who may read each press message.  One function per question,
 * called by the mail commands and the web alike, so the two doors never
 * disagree.
 *
 *   listed      LIST by mail and the web's lists leave out unlisted games;
 *               a game is always reached by its name.  Both leave out
 *               private games too, and describe them (LIST GAME, SUMMARY,
 *               PRESS ARCHIVE, the web's pages) to their participants
 *               only (dj_game_described_to): to anyone else a private game
 *               answers exactly as a game that does not exist.  Those
 *               invited JOIN it by its name and the join password.
 *   private     JOIN and OBSERVE must give the game's join password (the
 *               setting `private`); those already in the game need not.
 *   identities  hidden: nobody; masters: the master; public: everyone;
 *               at-end: the master, and everyone once the game is over.
 *               The administrator (judgectl) always sees them.  Whoever
 *               may know names a player by the name given, never by the
 *               address (dj_game_player_shown).
 *   press       a broadcast: every participant, and everyone once the
 *               game is over; other press: its sender and its real
 *               recipients only, and the master, who reads all of it
 *               as it was sent unless master_press = addressed
 *               (dj_press_master_reads_all).  How the reader sees it
 *               (grey press without its sender, fake press with the
 *               recipients it claimed) is press_archive.c's.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "game/audience.h"
#include "game/game.h"
#include "game/game_int.h"
#include "game/press.h"
#include "game/signon.h"
#include "store/participants.h"
#include "store/press.h"

bool dj_game_listed(const dj_game_rec *g)
{
    return !g->unlisted && !dj_game_is_private(g);
}

bool dj_game_is_private(const dj_game_rec *g)
{
    return g->join_password[0] != '\0';
}

bool dj_game_listed_on_web(const dj_game_rec *g)
{
    return dj_game_listed(g);
}

int dj_game_described_to(dj_judge *j, const char *game,
                         const dj_signon *viewer)
{
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    dj_game_rec g;
    int rc = dj_store_game_get(j->store, game, &g);
    dj_store_rollback(j->store);
    if (rc == DJ_STORE_NOTFOUND)
        return 0; /* the caller's own words for a game that is not there */
    if (rc < 0)
        return judge_store_fail(j);
    if (!dj_game_is_private(&g) ||
        (viewer && strcasecmp(viewer->game, g.name) == 0))
        return 0;
    return judge_fail(j, "game '%s' does not exist", game);
}

bool dj_game_join_password_ok(const dj_game_rec *g, const char *given)
{
    if (!dj_game_is_private(g))
        return true;
    if (!given)
        return false;
    /* compared in time independent of where the first difference is */
    size_t n = strlen(g->join_password), m = strlen(given);
    unsigned diff = (unsigned)(n ^ m);
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)g->join_password[i] ^
                (unsigned char)(i < m ? given[i] : 0);
    return diff == 0;
}

static bool is_over(const dj_game_rec *g)
{
    return strcmp(g->state, "finished") == 0;
}

static bool is_role(const dj_signon *viewer, const char *role)
{
    return viewer && strcmp(viewer->role, role) == 0;
}

bool dj_game_identities_visible(const dj_game_rec *g,
                                const dj_signon *viewer)
{
    if (strcmp(g->identities, "public") == 0)
        return true;
    if (strcmp(g->identities, "masters") == 0)
        return is_role(viewer, "master");
    if (strcmp(g->identities, "at-end") == 0)
        return is_over(g) || is_role(viewer, "master");
    return false; /* hidden */
}

const char *dj_game_player_shown(const dj_game_rec *g,
                                 const dj_signon *viewer,
                                 const dj_participant_rec *pl,
                                 const char *hidden)
{
    if (!pl || !dj_game_identities_visible(g, viewer))
        return hidden;
    return pl->name[0] ? pl->name : "(no name given)";
}

bool dj_press_master_reads_all(const dj_game_rec *g,
                               const dj_signon *viewer)
{
    return is_role(viewer, "master") && strcmp(g->master_press, "all") == 0;
}

bool dj_press_visible(const dj_game_rec *g, const dj_press_rec *p,
                      const dj_signon *viewer)
{
    if (!viewer)
        return p->broadcast && is_over(g);
    if (p->sender_id && p->sender_id == viewer->participant_id)
        return true;
    if (p->broadcast || dj_press_master_reads_all(g, viewer))
        return true;
    if (is_role(viewer, "master"))
        return p->to_master;
    if (is_role(viewer, "observer"))
        return p->to_observers;
    return viewer->power >= 0 && viewer->power < 64 &&
           (p->to_mask >> viewer->power & 1u);
}

static int check_admission(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    (void)out;
    const char *given = arg;
    if (dj_game_join_password_ok(&v->g, given && *given ? given : NULL))
        return 0;
    return judge_fail(j, "game '%s' is private: %s", v->g.name,
                      given && *given
                          ? "that is not its join password"
                          : "add its join password, which its master "
                            "gives to those he invites (JOIN game "
                            "PASSWORD JOIN-PASSWORD)");
}

int dj_game_check_admission(dj_judge *j, const char *game,
                            const char *join_password)
{
    dj_buf none;
    dj_buf_init(&none);
    int rc = gv_with_game_read(j, game, check_admission,
                               (void *)join_password, &none);
    dj_buf_free(&none);
    return rc;
}
