/* SPDX-License-Identifier: MIT */
/*
 * press_archive.c — the press archive as one reader may see it: the
 * messages dj_press_visible() (audience.c) lets them read, each with its
 * sender and recipients as the game showed them to that reader (grey
 * press without its sender, fake press with the recipients it claimed;
 * the sender, and the master unless master_press = addressed, see the
 * truth: the real sender and recipients, with what the press showed;
 * every other reader sees fake press exactly as its recipients were shown
 * it, a fake broadcast as a broadcast).  dj_game_press_each() hands them
 * out one by one (the web's press page); dj_game_press_archive() writes
 * them within a size limit (PRESS ARCHIVE by mail).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/audience.h"
#include "game/game.h"
#include "game/game_int.h"
#include "game/press.h"
#include "game/signon.h"
#include "store/press.h"
#include "util/neutral.h"

typedef struct each_arg {
    const dj_signon *viewer;
    const char *from, *to;
    dj_press_each_fn fn;
    void *arg;
} each_arg;

/* The power that really sent p (a FROM press shows another), or -1. */
static int real_power(const game_view *v, const dj_press_rec *p)
{
    for (int i = 0; i < v->nparts; i++)
        if (p->sender_id && v->parts[i].id == p->sender_id)
            return v->parts[i].power;
    return p->from_power;
}

static void sender_seen(const game_view *v, const dj_press_rec *p,
                        bool own, char *buf, size_t len)
{
    int real = own ? real_power(v, p) : -1;
    if (own && strcmp(p->sender_role, "player") == 0 && real >= 0 &&
        real < v->map->npowers && real != p->from_power &&
        p->from_power >= 0 && p->from_power < v->map->npowers)
        snprintf(buf, len, "%s (shown as from %s)", gv_power_name(v, real),
                 gv_power_name(v, p->from_power));
    else if (p->grey && !own)
        snprintf(buf, len, "%s", "an anonymous sender");
    else if (strcmp(p->sender_role, "master") == 0)
        snprintf(buf, len, "%s", "the master");
    else if (strcmp(p->sender_role, "observer") == 0)
        snprintf(buf, len, "%s", "an observer");
    else if (p->from_power >= 0 && p->from_power < v->map->npowers)
        snprintf(buf, len, "%s%s", gv_power_name(v, p->from_power),
                 p->grey ? " (grey)" : "");
    else
        snprintf(buf, len, "%s", "a player");
}

static void recipients_seen(const dj_press_rec *p, bool own, char *buf,
                            size_t len)
{
    const char *real = p->broadcast ? "everyone" : p->to_names;
    const char *shown = p->shown[0] ? p->shown : "everyone";
    if (!p->fake)
        snprintf(buf, len, "%s", real);
    else if (own)
        snprintf(buf, len, "%s (shown as: %s)", real, shown);
    else
        snprintf(buf, len, "%s", shown);
}

static int do_each(dj_judge *j, game_view *v, void *varg, dj_buf *out)
{
    (void)out;
    each_arg *a = varg;
    if (!a->viewer && dj_game_is_private(&v->g))
        return judge_fail(j, "game '%s' is private: sign on to read its "
                             "press",
                          v->g.name);
    int lo = 0, hi = 1 << 30;
    if ((a->from && gv_phase_bound(j, a->from, false, &lo) < 0) ||
        (a->to && gv_phase_bound(j, a->to, true, &hi) < 0))
        return -1;
    if (a->from && !a->to)
        hi = 1 << 30;
    dj_press_rec *rows = NULL;
    int n = 0;
    if (dj_store_press_list(j->store, v->g.id, &rows, &n) < 0)
        return judge_store_fail(j);
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        const dj_press_rec *p = &rows[i];
        int key = p->phase_order < 0 ? 0 : p->phase_order;
        if ((a->from || a->to) && (key < lo || key > hi))
            continue;
        if (!dj_press_visible(&v->g, p, a->viewer))
            continue;
        /* the truth: to its sender, and to a master who reads all */
        bool own = (a->viewer && p->sender_id &&
                    p->sender_id == a->viewer->participant_id) ||
                   dj_press_master_reads_all(&v->g, a->viewer);
        char from[96], to[1100];
        sender_seen(v, p, own, from, sizeof from);
        recipients_seen(p, own, to, sizeof to);
        /* as sent (press.c), and so for press kept from before */
        dj_buf body;
        dj_buf_init(&body);
        dj_text_neutralise(p->body, &body);
        /* a fake broadcast reads as a broadcast to all but the truth's
         * readers, exactly as a real one: nothing tells the two apart */
        bool shown_broadcast =
            p->broadcast || (p->fake && !p->shown[0] && !own);
        dj_press_item item = {p, p->phase, from, to,
                              dj_buf_ok(&body) && body.data ? body.data : "",
                              shown_broadcast};
        rc = a->fn(a->arg, &item) != 0;
        dj_buf_free(&body);
    }
    dj_press_recs_free(rows, n);
    return 0;
}

int dj_game_press_each(dj_judge *j, const char *game, const dj_signon *viewer,
                       const char *from, const char *to, dj_press_each_fn fn,
                       void *arg)
{
    each_arg a = {viewer, from && *from ? from : NULL,
                  to && *to ? to : NULL, fn, arg};
    dj_buf none;
    dj_buf_init(&none);
    int rc = gv_with_game_read(j, game, do_each, &a, &none);
    dj_buf_free(&none);
    return rc;
}

/* ---- PRESS ARCHIVE by mail ------------------------------------------------ */

typedef struct archive_out {
    dj_buf *out;
    size_t max;
    int shown, left;
    char first_left[16];
} archive_out;

static int write_item(void *arg, const dj_press_item *it)
{
    archive_out *a = arg;
    dj_buf one;
    dj_buf_init(&one);
    dj_buf_printf(&one, "--- %s%s%s from %s to %s\n", it->phase[0] ? it->phase : "",
                  it->phase[0] ? ": " : "",
                  it->broadcast ? "broadcast" : "press", it->from,
                  it->to);
    dj_buf_append(&one, it->body);
    if (one.len && one.data[one.len - 1] != '\n')
        dj_buf_append(&one, "\n");
    if (a->left || a->out->len + one.len > a->max) {
        if (!a->left)
            snprintf(a->first_left, sizeof a->first_left, "%s",
                     it->phase[0] ? it->phase : "the start");
        a->left++;
    } else {
        dj_buf_append(a->out, one.data);
        a->shown++;
    }
    dj_buf_free(&one);
    return 0;
}

int dj_game_press_archive(dj_judge *j, const char *game,
                          const dj_signon *viewer, const char *from,
                          const char *to, size_t max_bytes, dj_buf *out)
{
    archive_out a = {out, max_bytes, 0, 0, ""};
    size_t start = out->len;
    if (dj_game_press_each(j, game, viewer, from, to, write_item, &a) < 0)
        return -1;
    if (a.shown == 0 && a.left == 0)
        dj_buf_append(out, "No press you may read.\n");
    if (a.left)
        dj_buf_printf(out, "[%d message%s from %s on left out: this reply "
                           "would pass its size limit.  Ask for them with "
                           "PRESS ARCHIVE %s %s]\n",
                      a.left, a.left == 1 ? "" : "s", a.first_left, game,
                      a.first_left[0] == 't' ? "" : a.first_left);
    (void)start;
    return 0;
}
