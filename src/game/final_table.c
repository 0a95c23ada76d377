/* SPDX-License-Identifier: MIT */
/*
 * final_table.c — the table that closes a game, in the mail that says it
 * is over (a victory, a draw, a concession or the master's termination):
 * each power with its player (named as the setting identities allows
 * everyone to see them once the game is over), centres, units, result and
 * the years it was in the game, then the supply-centre history.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/audience.h"
#include "game/game.h"
#include "game/game_int.h"
#include "game/reading.h"

static const char *result_of(const game_view *v, int p, int winner,
                             bool alive, const char *ending)
{
    const char *name = gv_power_name(v, p);
    if (!alive)
        return "eliminated";
    if (p == winner)
        return "won";
    if (strncmp(ending, "Draw declared between", 21) == 0)
        return strstr(ending, name) ? "drew" : "survived";
    if (strncmp(ending, "Draw", 4) == 0)
        return "drew";
    size_t n = strlen(name);
    if (strncmp(ending, name, n) == 0 && strncmp(ending + n, " wins", 5) == 0)
        return "won (conceded)";
    return "survived";
}

int gv_final_table(dj_judge *j, game_view *v, const dj_position *pos,
                   int winner, const char *ending, dj_buf *out)
{
    dj_centre_history *t = calloc(1, sizeof *t);
    dj_buf history;
    dj_buf_init(&history);
    if (!t)
        return judge_fail(j, "out of memory");
    if (gv_centre_summary(j, v, t, NULL) < 0 ||
        gv_centre_summary(j, v, NULL, &history) < 0) {
        free(t);
        dj_buf_free(&history);
        return -1;
    }
    int first = t->nyears ? t->year[0] + (t->start ? 1 : 0) : pos->phase.year;
    if (first > pos->phase.year) /* over before its first full year */
        first = pos->phase.year;
    dj_buf_append(out, "\nThe final table:\n\n");
    dj_buf_printf(out, "  %-12s %-28s %7s %5s  %-15s %s\n", "Power", "Player",
                  "Centres", "Units", "Result", "Years");
    for (int p = 0; p < v->map->npowers; p++) {
        const dj_participant_rec *pl = gv_player(v, p);
        int centres = dj_position_centres(v->map, pos, p), units = 0;
        for (int i = 0; i < pos->nunits; i++)
            units += pos->units[i].power == p;
        bool alive = centres > 0 || units > 0;
        /* the last year it held a centre, from the history */
        int last = pos->phase.year;
        if (!alive) {
            last = first;
            for (int y = 0; y < t->nyears && p < t->npowers; y++)
                if (t->count[y][p] > 0)
                    last = t->year[y];
        }
        /* a power out (or a game over) in its first year was in it
         * that year: never "1901-1900" (the history's start row is the
         * year before) */
        if (last < first)
            last = first;
        char years[32];
        snprintf(years, sizeof years, "%d-%d (%d)", first, last,
                 last - first + 1);
        dj_buf_printf(out, "  %-12s %-28s %7d %5d  %-15s %s\n",
                      gv_power_name(v, p),
                      !pl || !pl->email[0]
                          ? "(civil disorder)"
                          : dj_game_player_shown(&v->g, NULL, pl,
                                                 "(not shown)"),
                      centres, units,
                      result_of(v, p, winner, alive, ending ? ending : ""),
                      years);
    }
    dj_buf_append(out, "\n");
    dj_buf_append(out, history.data);
    dj_buf_free(&history);
    free(t);
    return gv_diaries(j, v, out);
}
