/* SPDX-License-Identifier: MIT */
/*
 * addresses.c — a power's several addresses (issue 37): up to
 * DJ_ADDRESSES_MAX per player, each confirmed by code before it counts.
 *
 * Design.  A player's first address stays participants.email; the others
 * are rows of participant_addresses (store/addresses.h), loaded with the
 * participants into each record's `more`.  Everything that asks "is this
 * the participant's address?" asks gv_has_address, and everything that
 * mails a participant mails gv_queue_to (both in context.c, beside
 * gv_mail_one), so sign-ons, reply tokens and
 * the judge's mail treat every confirmed address of a power alike.
 *
 *   SET ADDRESS new@x          adds new@x once it sends back the code
 *                              mailed to it (confirm.c); a master's or an
 *                              observer's one address is replaced instead
 *   SET ADDRESS a@x,b@y        each added, each confirmed by its own code
 *   SET ADDRESS -old@x         removes old@x at once (never the last one)
 *
 * so a player moving house writes SET ADDRESS new@x, confirms from there,
 * then SET ADDRESS -old@x.  Refused: a malformed address, one the power
 * has already, one of another player of the game, a fourth.  Who else is
 * told: the masters and the power's other addresses, of every change.
 * Only the power's player and the masters (and judgectl) see the list.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/game.h"
#include "game/game_int.h"
#include "game/signon.h"
#include "store/addresses.h"
#include "store/tokens.h"

/* ---- adding and removing -------------------------------------------------- */

static const char *whose(const game_view *v, const dj_participant_rec *p)
{
    return p->power >= 0 ? gv_power_name(v, p->power) : "your place";
}

/* Tell the masters (unless p is one) and p's addresses but `skip`. */
static int tell_change(dj_judge *j, const game_view *v,
                       const dj_participant_rec *p, const char *skip,
                       const char *what, const char *text)
{
    if (strcmp(p->role, "master") != 0 &&
        gv_notify_masters(j, v, what, text) < 0)
        return -1;
    for (int k = 0; k < gv_address_count(p); k++)
        if (strcasecmp(gv_address_at(p, k), skip) != 0 &&
            gv_tell(j, v, gv_address_at(p, k), false, what, text) < 0)
            return -1;
    return 0;
}

int gv_address_add(dj_judge *j, game_view *v, dj_participant_rec *p,
                   const char *to, dj_buf *out)
{
    const char *name = whose(v, p);
    if (!gv_address_ok(to))
        return judge_fail(j, "'%s' is not a mail address", to);
    if (gv_has_address(p, to))
        return judge_fail(j, "%s is already an address of %s", to, name);
    for (int i = 0; i < v->nparts; i++) {
        const dj_participant_rec *q = &v->parts[i];
        if (q != p && gv_is_live(q) && strcmp(q->role, "player") == 0 &&
            gv_has_address(q, to))
            return judge_fail(j, "%s already plays %s in game '%s': an "
                                 "address plays one power",
                              to,
                              q->power >= 0 ? gv_power_name(v, q->power)
                                            : "(a power dealt at the start)",
                              v->g.name);
    }
    if (gv_address_count(p) >= DJ_ADDRESSES_MAX)
        return judge_fail(j, "%s has %d addresses already, the most a power "
                             "may have (%d): remove one first (SET ADDRESS "
                             "-address)",
                          name, gv_address_count(p), DJ_ADDRESSES_MAX);
    if (dj_store_address_add(j->store, p->id, to, j->now) < 0)
        return judge_store_fail(j);
    snprintf(p->more[p->nmore], sizeof p->more[p->nmore], "%s", to);
    p->nmore++;
    if (gv_log(j, v, "address-added", "%s: %s", name, to) < 0)
        return -1;
    dj_buf list;
    dj_buf_init(&list);
    gv_address_list(p, &list);
    char text[DJ_ADDRESSES_MAX * DJ_EMAIL_MAX + 512];
    snprintf(text, sizeof text,
             "%s has a new address, %s, which confirmed it: the judge's "
             "mail for %s now goes to %s.  If that was not you, write to "
             "the game master (SET ADDRESS -%s removes it).",
             name, to, name, list.data, to);
    int rc = dj_buf_ok(&list) ? tell_change(j, v, p, to, "Address added",
                                            text)
                              : judge_fail(j, "out of memory");
    if (rc == 0)
        dj_buf_printf(out, "%s: mail for %s now goes to %s\n", v->g.name,
                      name, list.data);
    dj_buf_free(&list);
    return rc;
}

static int address_remove(dj_judge *j, game_view *v, dj_participant_rec *p,
                          const char *gone, dj_buf *out)
{
    const char *name = whose(v, p);
    if (!gv_has_address(p, gone))
        return judge_fail(j, "%s is not an address of %s", gone, name);
    if (gv_address_count(p) <= 1)
        return judge_fail(j, "%s is the only address of %s: add another "
                             "first (SET ADDRESS new@example.org, confirmed "
                             "by code), then remove this one",
                          gone, name);
    char was[DJ_EMAIL_MAX];
    int k = 0;
    while (strcasecmp(gv_address_at(p, k), gone) != 0)
        k++;
    snprintf(was, sizeof was, "%s", gv_address_at(p, k));
    if (k == 0) {
        /* the first address goes: the next one takes its place (the
         * schema's trigger then gives the participant a new token) */
        char next[DJ_EMAIL_MAX];
        snprintf(next, sizeof next, "%s", p->more[0]);
        if (dj_store_address_remove(j->store, p->id, next) != 0)
            return judge_store_fail(j);
        snprintf(p->email, sizeof p->email, "%s", next);
        if (dj_store_participant_update(j->store, p) < 0)
            return judge_store_fail(j);
        k = 1;
    } else {
        if (dj_store_address_remove(j->store, p->id, was) != 0 ||
            dj_store_token_bump(j->store, p->id) < 0)
            return judge_store_fail(j);
    }
    /* its reply address is dead: the old mail in that box no longer
     * signs anyone on */
    for (int m = k - 1; m + 1 < p->nmore; m++)
        memcpy(p->more[m], p->more[m + 1], sizeof p->more[m]);
    p->nmore--;
    dj_signon_cache_forget(j, p->id);
    if (gv_log(j, v, "address-removed", "%s: %s", name, was) < 0)
        return -1;
    dj_buf list;
    dj_buf_init(&list);
    gv_address_list(p, &list);
    char text[DJ_ADDRESSES_MAX * DJ_EMAIL_MAX + 512];
    snprintf(text, sizeof text,
             "%s no longer receives the judge's mail for %s, which now "
             "goes to %s.  If you did not ask for this, write to the game "
             "master.",
             was, name, list.data);
    int rc = !dj_buf_ok(&list) ? judge_fail(j, "out of memory")
             : tell_change(j, v, p, "", "Address removed", text);
    if (rc == 0 && gv_tell(j, v, was, false, "Address removed", text) < 0)
        rc = -1;
    if (rc == 0)
        dj_buf_printf(out, "%s: %s removed; mail for %s now goes to %s\n",
                      v->g.name, was, name, list.data);
    dj_buf_free(&list);
    return rc;
}

typedef struct remove_arg {
    int64_t pid;
    const char *power; /* judgectl: the power named, else NULL */
    const char *address;
} remove_arg;

dj_participant_rec *gv_power_player(dj_judge *j, game_view *v,
                                    const char *power)
{
    int pw = gv_power(j, v, power);
    if (pw < 0)
        return NULL;
    dj_participant_rec *p = gv_player(v, pw);
    if (!p || !p->email[0])
        judge_fail(j, "%s has no player in game '%s'", gv_power_name(v, pw),
                   v->g.name);
    return p && p->email[0] ? p : NULL;
}

static int do_remove(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const remove_arg *a = arg;
    dj_participant_rec *p =
        a->power ? gv_power_player(j, v, a->power) : gv_live_participant(j, v, a->pid);
    if (!p)
        return -1;
    if (strcmp(p->role, "player") != 0)
        return judge_fail(j, "a %s has one address: SET ADDRESS new@"
                             "example.org replaces it",
                          p->role);
    return address_remove(j, v, p, a->address, out);
}

static int do_list(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const remove_arg *a = arg;
    dj_participant_rec *p =
        a->power ? gv_power_player(j, v, a->power) : gv_live_participant(j, v, a->pid);
    if (!p)
        return -1;
    dj_buf_printf(out, "%s: addresses of %s (%d of at most %d): ", v->g.name,
                  p->power >= 0 ? gv_power_name(v, p->power) : p->role,
                  gv_address_count(p),
                  strcmp(p->role, "player") == 0 ? DJ_ADDRESSES_MAX : 1);
    gv_address_list(p, out);
    dj_buf_append(out, "\n");
    return 0;
}

int dj_game_addresses(dj_judge *j, const char *game, const char *power,
                      const char *remove, dj_buf *out)
{
    remove_arg a = {0, power, remove};
    if (remove)
        return gv_with_game(j, game, do_remove, &a, out);
    return gv_with_game_read(j, game, do_list, &a, out);
}

int dj_game_own_addresses(dj_judge *j, const dj_signon *id, dj_buf *out)
{
    remove_arg a = {id->participant_id, NULL, NULL};
    return gv_with_game_read(j, id->game, do_list, &a, out);
}

int dj_game_remove_address(dj_judge *j, const dj_signon *id,
                           const char *address, dj_buf *out)
{
    remove_arg a = {id->participant_id, NULL, address};
    return gv_with_game(j, id->game, do_remove, &a, out);
}

typedef struct set_arg {
    int64_t pid;
    const char *to;
} set_arg;

/* A confirmed SET ADDRESS: a player's address added, a master's or an
 * observer's replaced (access.c). */
static int do_set(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const set_arg *a = arg;
    dj_participant_rec *p = gv_live_participant(j, v, a->pid);
    if (!p)
        return -1;
    if (strcmp(p->role, "player") == 0)
        return gv_address_add(j, v, p, a->to, out);
    return gv_replace_address(j, v, a->pid, a->to, out);
}

int dj_game_set_address(dj_judge *j, const char *game,
                        int64_t participant_id, const char *address,
                        dj_buf *out)
{
    set_arg a = {participant_id, address};
    return gv_with_game(j, game, do_set, &a, out);
}
