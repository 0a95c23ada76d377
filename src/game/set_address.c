/* SPDX-License-Identifier: MIT */
/*
 * set_address.c — SET ADDRESS by mail (issue 37): the command's list
 * read (one address, a@x,b@y, -a@x), checked as a whole (malformed,
 * named twice, more than a power may have), then each address asked for
 * with its code (confirm.c) or removed (addresses.c).  A file of its own
 * because it calls confirm.c, which calls addresses.c.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "game/game.h"
#include "game/game_int.h"
#include "game/signon.h"

/* ---- SET ADDRESS by mail ---------------------------------------------------- */

typedef struct whom_arg {
    const char *power;
    dj_signon *id;
} whom_arg;

/* A master after BECOME changes the power's addresses: as its player. */
static int do_whom(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    (void)out;
    whom_arg *a = arg;
    dj_participant_rec *p = gv_power_player(j, v, a->power);
    if (!p)
        return -1;
    memset(a->id, 0, sizeof *a->id);
    snprintf(a->id->game, sizeof a->id->game, "%s", v->g.name);
    snprintf(a->id->role, sizeof a->id->role, "%s", p->role);
    a->id->power = p->power;
    snprintf(a->id->power_name, sizeof a->id->power_name, "%s",
             gv_power_name(v, p->power));
    a->id->participant_id = p->id;
    return 0;
}

_Static_assert(DJ_ADDRESS_LEN == DJ_EMAIL_MAX,
               "an address item holds any stored address");

int dj_address_list_read(const char *list, dj_address_item *items, int max,
                         int *n, char *why, size_t whylen)
{
    *n = 0;
    why[0] = '\0';
    char copy[DJ_ADDRESS_LIST_MAX * DJ_EMAIL_MAX];
    if (!list || strlen(list) >= sizeof copy) {
        snprintf(why, whylen, "SET ADDRESS: the list is too long");
        return -1;
    }
    snprintf(copy, sizeof copy, "%s", list);
    char *save = NULL;
    for (char *w = strtok_r(copy, ",", &save); w;
         w = strtok_r(NULL, ",", &save)) {
        bool remove = w[0] == '-';
        const char *a = remove ? w + 1 : w;
        if (*n == max) {
            snprintf(why, whylen, "SET ADDRESS takes at most %d addresses",
                     max);
            return -1;
        }
        if (!dj_address_ok(a)) {
            snprintf(why, whylen, "'%.*s' is not a mail address",
                     DJ_EMAIL_MAX, a);
            return -1;
        }
        for (int k = 0; k < *n; k++)
            if (strcasecmp(items[k].address, a) == 0) {
                snprintf(why, whylen, "%s is named twice", a);
                return -1;
            }
        snprintf(items[*n].address, sizeof items[*n].address, "%s", a);
        items[*n].remove = remove;
        (*n)++;
    }
    if (*n == 0) {
        snprintf(why, whylen, "SET ADDRESS needs an address: SET ADDRESS "
                              "you@example.org (-you@example.org removes "
                              "one)");
        return -1;
    }
    return 0;
}

typedef struct count_arg {
    int64_t pid;
    int count;
} count_arg;

static int do_count(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    (void)out;
    count_arg *a = arg;
    dj_participant_rec *p = gv_live_participant(j, v, a->pid);
    if (!p)
        return -1;
    a->count = gv_address_count(p);
    return 0;
}

int dj_game_change_addresses(dj_judge *j, const dj_signon *who,
                             const char *power, const char *list,
                             dj_buf *out)
{
    dj_signon id = *who;
    if (power && *power) {
        whom_arg w = {power, &id};
        if (gv_with_game_read(j, who->game, do_whom, &w, out) < 0)
            return -1;
    }
    bool player = strcmp(id.role, "player") == 0;
    dj_address_item items[DJ_ADDRESS_LIST_MAX];
    int n = 0, adds = 0;
    char why[DJ_EMAIL_MAX + 128];
    if (dj_address_list_read(list, items, DJ_ADDRESS_LIST_MAX, &n, why,
                             sizeof why) < 0)
        return judge_fail(j, "%s", why);
    for (int k = 0; k < n; k++)
        adds += !items[k].remove;
    if (!player && (n > 1 || items[0].remove))
        return judge_fail(j, "a %s has one address: SET ADDRESS new@"
                             "example.org replaces it",
                          id.role);
    count_arg c = {id.participant_id, 0};
    if (player && gv_with_game_read(j, id.game, do_count, &c, out) < 0)
        return -1;
    if (player && adds > 1 && c.count + adds - (n - adds) > DJ_ADDRESSES_MAX)
        return judge_fail(j, "%s has %d address%s: with %d more it would "
                             "have more than %d, the most a power may have",
                          id.power_name[0] ? id.power_name : "your place",
                          c.count, c.count == 1 ? "" : "es", adds,
                          DJ_ADDRESSES_MAX);
    for (int k = 0; k < n; k++) {
        int rc;
        if (items[k].remove)
            rc = dj_game_remove_address(j, &id, items[k].address, out);
        else
            rc = dj_game_request_change(j, "address", &id, items[k].address,
                                        out);
        if (rc < 0) {
            /* the command is undone as a whole: say nothing of the rest */
            dj_buf_reset(out);
            return -1;
        }
    }
    return 0;
}
