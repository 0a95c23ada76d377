/* SPDX-License-Identifier: MIT */
/*
 * preference.c — power preference lists (assignment = preference, issue
 * 37): SET PREFERENCE by a player while the game forms, the list shown
 * back (STATUS, LIST), the deal at the start by the method of deal.h,
 * and what the start mail says of it.
 *
 * Lists are kept per participant as deal.c writes them ("England,
 * France, *"), read again against the map at the deal (a list the map no
 * longer reads, after a change of map, counts as none).  The seed is the
 * setting deal_seed: drawn at the start when 0, and written back, so
 * judgectl show names it and the same seed, players and lists deal the
 * same powers again.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/audience.h"
#include "game/deal.h"
#include "game/forming.h"
#include "game/game_int.h"

static bool is_preference(const game_view *v)
{
    return strcmp(v->g.assignment, "preference") == 0;
}

/* A live player who waits for a power. */
static bool waiting(const dj_participant_rec *p)
{
    return strcmp(p->role, "player") == 0 && p->power < 0 &&
           strcmp(p->status, "playing") == 0;
}

/* p's list read against the map; false (an empty list) for none. */
static bool list_of(const game_view *v, const dj_participant_rec *p,
                    dj_deal_list *l)
{
    char why[256];
    if (!p->preference[0] ||
        dj_deal_parse(v->map, p->preference, l, why, sizeof why) < 0) {
        memset(l, 0, sizeof *l);
        return false;
    }
    return true;
}

/* The rank p's list gives the power (1 best); 0 when p has no list. */
static int rank_of(const game_view *v, const dj_participant_rec *p, int power)
{
    dj_deal_list l;
    if (power < 0 || !list_of(v, p, &l))
        return 0;
    int rank[DJ_MAX_POWERS];
    dj_deal_ranks(&l, v->map->npowers, rank);
    return rank[power];
}

bool gv_preferences_all_sent(const game_view *v)
{
    for (int i = 0; i < v->nparts; i++)
        if (waiting(&v->parts[i]) && !v->parts[i].preference[0])
            return false;
    return true;
}

/* splitmix64, for the seed drawn at the start */
static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int gv_deal_by_preference(dj_judge *j, game_view *v)
{
    int npowers = v->map->npowers;
    bool avail[DJ_MAX_POWERS];
    for (int p = 0; p < npowers; p++)
        avail[p] = gv_player(v, p) == NULL;
    int who[DJ_MAX_POWERS], n = 0;
    int *rank = malloc(sizeof *rank * DJ_MAX_POWERS * DJ_MAX_POWERS);
    if (!rank)
        return judge_fail(j, "out of memory");
    for (int i = 0; i < v->nparts; i++) {
        if (!waiting(&v->parts[i]))
            continue;
        if (n == npowers) {
            free(rank);
            return judge_fail(j, "more players than powers in game '%s'",
                              v->g.name);
        }
        dj_deal_list l;
        list_of(v, &v->parts[i], &l);
        dj_deal_ranks(&l, npowers, rank + n * npowers);
        who[n++] = i;
    }
    if (v->g.deal_seed == 0)
        v->g.deal_seed =
            (int)(mix((uint64_t)v->g.id << 32 ^ (uint64_t)j->now) %
                  2147483646u) +
            1;
    int assign[DJ_MAX_POWERS];
    int rc = dj_deal(n, npowers, rank, avail, (uint64_t)v->g.deal_seed, assign);
    free(rank);
    if (rc < 0)
        return judge_fail(j, "more players than powers in game '%s'",
                          v->g.name);
    for (int k = 0; k < n; k++) {
        dj_participant_rec *p = &v->parts[who[k]];
        p->power = assign[k];
        if (dj_store_participant_update(j->store, p) < 0)
            return judge_store_fail(j);
    }
    if (dj_store_game_update(j->store, &v->g) < 0)
        return judge_store_fail(j);
    if (gv_log(j, v, "deal", "by preference lists, deal_seed=%d",
               v->g.deal_seed) < 0)
        return -1;
    return gv_reload_parts(j, v);
}

static const char *ordinal(int n, char *buf, size_t len)
{
    if (n == 1)
        return "first choice";
    const char *suffix = n % 100 / 10 == 1 ? "th"
                         : n % 10 == 2     ? "nd"
                         : n % 10 == 3     ? "rd"
                                           : "th";
    snprintf(buf, len, "%d%s choice", n, suffix);
    return buf;
}

void gv_preference_summary(const game_view *v, dj_buf *out)
{
    if (!is_preference(v))
        return;
    int with = 0, firsts = 0, without = 0;
    for (int p = 0; p < v->map->npowers; p++) {
        const dj_participant_rec *pl = gv_player(v, p);
        if (!pl || !pl->email[0])
            continue;
        int r = rank_of(v, pl, p);
        if (r == 0)
            without++;
        else
            with++, firsts += r == 1;
    }
    dj_buf_printf(out,
                  "Powers were dealt by the players' preference lists "
                  "(deal_seed %d): %d of %d player%s with a list got a "
                  "first choice",
                  v->g.deal_seed, firsts, with, with == 1 ? "" : "s");
    if (without)
        dj_buf_printf(out, "; %d sent no list", without);
    dj_buf_append(out, ".\n");
    /* which power went to a first choice tells who wanted it: only where
     * everyone may know who plays which power */
    if (!dj_game_identities_visible(&v->g, NULL)) {
        dj_buf_append(out, "\n");
        return;
    }
    for (int p = 0; p < v->map->npowers; p++) {
        const dj_participant_rec *pl = gv_player(v, p);
        if (!pl || !pl->email[0])
            continue;
        char buf[32];
        int r = rank_of(v, pl, p);
        dj_buf_printf(out, "  %-10s %s\n", gv_power_name(v, p),
                      r ? ordinal(r, buf, sizeof buf) : "no list");
    }
    dj_buf_append(out, "\n");
}

void gv_preference_own(const game_view *v, const dj_participant_rec *p,
                       dj_buf *out)
{
    if (!is_preference(v) || p->power < 0)
        return;
    char buf[32];
    int r = rank_of(v, p, p->power);
    if (r == 0)
        dj_buf_printf(out, "You sent no preference list: %s was dealt to "
                           "you from the powers left.\n",
                      gv_power_name(v, p->power));
    else
        dj_buf_printf(out, "%s was your %s (your list: %s).\n",
                      gv_power_name(v, p->power), ordinal(r, buf, sizeof buf),
                      p->preference);
}

void gv_preference_mark(const game_view *v, const dj_participant_rec *p,
                        dj_buf *out)
{
    if (!is_preference(v) || strcmp(p->role, "player") != 0 ||
        !p->preference[0])
        return;
    dj_buf_printf(out, " preference %s", p->preference);
    char buf[32];
    int r = rank_of(v, p, p->power);
    if (r)
        dj_buf_printf(out, " (%s)", ordinal(r, buf, sizeof buf));
}

/* ---- SET PREFERENCE, and the list shown ---------------------------------------- */

typedef struct pref_arg {
    const dj_signon *id;
    const char *text;
} pref_arg;


static void explain(const game_view *v, const dj_participant_rec *p,
                    dj_buf *out)
{
    if (!p->preference[0]) {
        dj_buf_printf(out,
                      "%s: you have no preference list: any power may be "
                      "dealt to you\n",
                      v->g.name);
        return;
    }
    dj_buf_printf(out,
                  "%s: your preference list: %s (powers not named rank "
                  "after those named; * is the rest, in any order)\n",
                  v->g.name, p->preference);
}

int gv_set_preference(dj_judge *j, game_view *v, const dj_signon *id,
                      const char *text, dj_buf *out)
{
    dj_participant_rec *p = gv_live_participant(j, v, id->participant_id);
    if (!p)
        return -1;
    if (strcmp(p->role, "player") != 0)
        return judge_fail(j, "SET PREFERENCE is for a player who joined "
                             "game '%s' (you are its %s)",
                          v->g.name, p->role);
    if (strcmp(v->g.state, "forming") != 0)
        return judge_fail(j, "game '%s' has started: preference lists are "
                             "read only while it forms",
                          v->g.name);
    if (!is_preference(v))
        return judge_fail(j, "game '%s' deals powers by %s (assignment = "
                             "%s), not by preference lists: SET "
                             "PREFERENCE is for games with assignment = "
                             "preference",
                          v->g.name,
                          strcmp(v->g.assignment, "random") == 0
                              ? "chance"
                              : "the players' choice",
                          v->g.assignment);
    if (p->power >= 0)
        return judge_fail(j, "you play %s in game '%s' already: SET "
                             "PREFERENCE is for players waiting for a power",
                          gv_power_name(v, p->power), v->g.name);
    if (strcasecmp(text, "none") == 0) {
        p->preference[0] = '\0';
    } else {
        dj_deal_list l;
        char why[256];
        if (dj_deal_parse(v->map, text, &l, why, sizeof why) < 0)
            return judge_fail(j, "SET PREFERENCE: %s", why);
        dj_deal_format(v->map, &l, p->preference, sizeof p->preference);
    }
    if (dj_store_participant_set_preference(j->store, p) < 0)
        return judge_store_fail(j);
    if (gv_log(j, v, "preference", "%s: %s", p->email,
               p->preference[0] ? p->preference : "none") < 0)
        return -1;
    explain(v, p, out);
    return 0;
}

static int do_show(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    (void)j;
    const pref_arg *a = arg;
    if (!is_preference(v) || strcmp(v->g.state, "forming") != 0)
        return 0;
    for (int i = 0; i < v->nparts; i++)
        if (v->parts[i].id == a->id->participant_id && waiting(&v->parts[i]))
            explain(v, &v->parts[i], out);
    return 0;
}

int dj_game_preference_show(dj_judge *j, const dj_signon *id, dj_buf *out)
{
    pref_arg a = {id, ""};
    return gv_with_game_read(j, id->game, do_show, &a, out);
}
