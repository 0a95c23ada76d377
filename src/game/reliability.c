/* SPDX-License-Identifier: MIT */
/*
 * reliability.c — reliability figures per address across every game on
 * the judge (games joined, finished, abandoned; deadlines missed, civil
 * disorders, takeovers): counted as they happen (gv_player_event), shown
 * to the master with every JOIN, by `judgectl player ADDRESS`, and in
 * LIST when the player allows it (SET STATS PUBLIC).
 */
#include <stdio.h>
#include <string.h>

#include "game/game.h"
#include "game/game_int.h"
#include "game/reading.h"
#include "store/stats.h"

int gv_player_event(dj_judge *j, const game_view *v, const char *email,
                    const char *kind)
{
    if (dj_store_player_event(j->store, email, v->g.id, kind, j->now) < 0)
        return judge_store_fail(j);
    return 0;
}

int dj_game_player_stats(dj_judge *j, const char *email, const char *who,
                         bool public_only, dj_buf *out)
{
    dj_player_stats st;
    if (dj_store_player_stats(j->store, email, &st) < 0)
        return judge_store_fail(j);
    if (public_only && !st.public)
        return 0;
    dj_buf_printf(out, "%s: games joined %d, finished %d, abandoned %d; "
                       "deadlines missed %d, civil disorders %d, takeovers "
                       "%d\n",
                  who ? who : email, st.joined, st.finished, st.abandoned, st.missed,
                  st.disorders, st.takeovers);
    return 0;
}

int dj_game_set_stats_public(dj_judge *j, const char *email, bool public,
                             dj_buf *out)
{
    if (dj_store_player_stats_public(j->store, email, public) < 0)
        return judge_store_fail(j);
    dj_buf_printf(out, "Your reliability figures are now %s.\n",
                  public ? "shown in LIST" : "shown only to game masters");
    return 0;
}
