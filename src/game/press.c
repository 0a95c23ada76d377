/* SPDX-License-Identifier: MIT */
/*
 * press.c — press: messages between the participants of a game, sent by
 * the judge under the game's press rules (after njudge's).
 *
 *   press           none: only press to the master; white: the sender is
 *                   named; grey: anonymous; white+grey: the sender chooses
 *                   (white unless GREY is asked for).
 *   partial_press   no: broadcasts only ("public press"); yes: press to
 *                   some powers too.
 *   fake_press      yes: a partial press may show other recipients than
 *                   the real ones ("PRESS TO F FAKE BROADCAST": France
 *                   reads it as a broadcast), or another sender
 *                   (DPjudge's "PRESS TO F FROM G": France reads it as
 *                   Germany's); no: both are refused.
 *   observer_press  any: observers press as players; white: never
 *                   anonymously; none: only to the master.
 *
 * Press to the master alone is always allowed and always white: players
 * must be able to reach their game master whatever the rules.  A press
 * message that breaks a rule is refused whole, saying which rule.
 *
 * Delivery: one outbox mail per recipient address (the sender never gets
 * its own press back; an address that is several recipients gets one
 * copy), and one row in the press archive with the real recipients.
 *   master_press    all: the master is sent a copy of every press too
 *                   (DPjudge's behaviour), "the master's copy", which
 *                   names the true sender and recipients and says what
 *                   the recipients were shown; addressed: the master gets
 *                   broadcasts and press to the master only, as any
 *                   recipient does.  The
 * subject carries only names the judge knows (powers, "Master"), never
 * text from the message, so no header can be forged through it.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/game.h"
#include "game/game_int.h"
#include "game/press.h"
#include "game/press_recipients.h"
#include "game/signon.h"
#include "store/mail.h"
#include "store/press.h"
#include "store/tokens.h"
#include "util/neutral.h"

typedef dj_press_recipients recipients;

/* The list as written, read by press_recipients.c; -1 with its reason. */
static int parse_recipients(dj_judge *j, const game_view *v,
                            const char *text, recipients *r)
{
    char why[256];
    if (dj_press_recipients_read(v->map, text, r, why, sizeof why) < 0)
        return judge_fail(j, "%s", why);
    return 0;
}

/* Append the n-th (from 1) of `total` names: "A", "A and B", "A, B and C". */
static void list_name(dj_buf *out, int n, int total, const char *name)
{
    dj_buf_printf(out, "%s%s", n == 1 ? "" : n == total ? " and " : ", ",
                  name);
}

/* "Germany, Italy and the master" */
static void names_of(const game_view *v, const recipients *r, dj_buf *out)
{
    int total = __builtin_popcountll(r->powers) + r->master + r->observers;
    int n = 0;
    for (int p = 0; p < v->map->npowers; p++)
        if (r->powers >> p & 1u)
            list_name(out, ++n, total, gv_power_name(v, p));
    if (r->master)
        list_name(out, ++n, total, "the master");
    if (r->observers)
        list_name(out, ++n, total, "the observers");
}

/* ---- the rules ------------------------------------------------------------------ */

typedef struct press_plan {
    const dj_signon *id;
    bool broadcast;
    recipients to;     /* real recipients (all of them for a broadcast) */
    bool fake;
    bool fake_broadcast;
    recipients shown;  /* with fake and not fake_broadcast */
    int fake_from;     /* FROM: the power shown as the sender; -1 none */
    bool grey;
} press_plan;

static bool only_master(const press_plan *pl)
{
    return !pl->broadcast && pl->to.master && !pl->to.powers &&
           !pl->to.observers;
}

/* Decide white or grey, then check every rule; -1 with the rule broken. */
static int check_rules(dj_judge *j, const game_view *v,
                       const dj_press_request *req, press_plan *pl)
{
    const dj_game_rec *g = &v->g;
    bool observer = strcmp(pl->id->role, "observer") == 0;
    bool master = strcmp(pl->id->role, "master") == 0;
    bool white_ok = strcmp(g->press, "white") == 0 ||
                    strcmp(g->press, "white+grey") == 0;
    bool grey_ok = strcmp(g->press, "grey") == 0 ||
                   strcmp(g->press, "white+grey") == 0;
    bool observer_white = observer && strcmp(g->observer_press, "white") == 0;
    /* The default is the game's; observers limited to white press send
     * white even in a grey-only game (njudge's "Observer white"). */
    pl->grey = req->grey > 0 || (req->grey < 0 && !white_ok && grey_ok &&
                                 !observer_white && !master);
    if (only_master(pl) && !pl->fake && pl->fake_from < 0) {
        pl->grey = false; /* always allowed, always white */
        return 0;
    }
    if (master) {
        if (pl->grey || pl->fake || pl->fake_from >= 0)
            return judge_fail(j, "the master's press is white and never "
                                 "fake");
        return 0;
    }
    if (strcmp(g->press, "none") == 0)
        return judge_fail(j, "game '%s' has no press, except to the master",
                          g->name);
    if (observer && strcmp(g->observer_press, "none") == 0)
        return judge_fail(j, "observers of game '%s' may press only to the "
                             "master",
                          g->name);
    if (observer_white && pl->grey)
        return judge_fail(j, "observers' press in game '%s' is white only",
                          g->name);
    if (pl->grey && !grey_ok)
        return judge_fail(j, "game '%s' has no grey (anonymous) press",
                          g->name);
    if (!pl->grey && !white_ok && !observer_white)
        return judge_fail(j, "press in game '%s' is grey only: send it GREY",
                          g->name);
    if (!pl->broadcast && !g->partial_press)
        return judge_fail(j, "game '%s' allows only broadcasts (press to "
                             "everyone), or press to the master",
                          g->name);
    if (pl->fake && !g->fake_press)
        return judge_fail(j, "game '%s' has no fake press", g->name);
    if (pl->fake_from >= 0 && !g->fake_press)
        return judge_fail(j, "game '%s' has no fake press: press cannot be "
                             "sent FROM another power",
                          g->name);
    if (pl->fake_from >= 0 && pl->grey)
        return judge_fail(j, "grey press names no sender: FROM is for white "
                             "press");
    if (pl->fake && pl->broadcast)
        return judge_fail(j, "a broadcast cannot be faked: name the real "
                             "recipients with PRESS TO");
    return 0;
}

/* ---- delivery --------------------------------------------------------------------- */

/* Is p a recipient the press names (or, for a broadcast, implies)? */
static bool addressed(const game_view *v, const dj_participant_rec *p,
                      const press_plan *pl)
{
    if (!p->email[0] || strcmp(p->status, "resigned") == 0 ||
        strcmp(p->status, "replaced") == 0 ||
        p->id == pl->id->participant_id)
        return false;
    if (strcmp(p->role, "master") == 0)
        return pl->broadcast || pl->to.master;
    if (strcmp(p->role, "observer") == 0)
        return pl->broadcast || pl->to.observers;
    return p->power >= 0 && gv_player(v, p->power) == p &&
           (pl->broadcast || (pl->to.powers >> p->power & 1u));
}

/* Does the master p read every press (master_press = all)? */
static bool master_reads_all(const game_view *v, const dj_participant_rec *p)
{
    return strcmp(p->role, "master") == 0 &&
           strcmp(v->g.master_press, "all") == 0;
}

/* Is p sent this press: addressed, or a master who reads all? */
static bool receives(const game_view *v, const dj_participant_rec *p,
                     const press_plan *pl)
{
    if (addressed(v, p, pl))
        return true;
    return p->email[0] && strcmp(p->status, "resigned") != 0 &&
           strcmp(p->status, "replaced") != 0 &&
           p->id != pl->id->participant_id && master_reads_all(v, p);
}

/* Would the press as its recipients read it tell the master less than the
 * truth (grey, fake, from another power), or not reach the master? */
static bool needs_master_copy(const game_view *v, const dj_participant_rec *p,
                              const press_plan *pl)
{
    return master_reads_all(v, p) &&
           (!addressed(v, p, pl) || pl->grey || pl->fake ||
            pl->fake_from >= 0);
}

static void sender_name(const game_view *v, const press_plan *pl,
                        dj_buf *out)
{
    if (pl->grey)
        dj_buf_append(out, "an anonymous sender");
    else if (pl->fake_from >= 0)
        dj_buf_append(out, gv_power_name(v, pl->fake_from));
    else if (strcmp(pl->id->role, "master") == 0)
        dj_buf_append(out, "the master");
    else if (strcmp(pl->id->role, "observer") == 0)
        dj_buf_append(out, "an observer");
    else
        dj_buf_append(out, gv_power_name(v, pl->id->power));
}

/* Subject and body as the recipients see them. */
static void compose(dj_judge *j, const game_view *v, const press_plan *pl,
                    const char *text, dj_buf *subject, dj_buf *body)
{
    dj_buf what;
    dj_buf_init(&what);
    bool shown_broadcast = pl->broadcast || pl->fake_broadcast;
    dj_buf_append(&what, shown_broadcast ? "Broadcast" : "Press");
    if (!pl->grey) {
        dj_buf_append(&what, " from ");
        if (pl->fake_from >= 0)
            dj_buf_append(&what, gv_power_name(v, pl->fake_from));
        else if (strcmp(pl->id->role, "player") == 0)
            dj_buf_append(&what, gv_power_name(v, pl->id->power));
        else
            dj_buf_append(&what, strcmp(pl->id->role, "master") == 0
                                     ? "Master"
                                     : "Observer");
    }
    gv_subject(j, v, v->has_phase ? v->phase.name : "-", what.data, subject);
    dj_buf_printf(body, "Game '%s'%s%s: ", v->g.name,
                  v->has_phase ? ", " : "", v->has_phase ? v->phase.name : "");
    dj_buf_append(body, shown_broadcast ? "broadcast from " : "press from ");
    sender_name(v, pl, body);
    if (!shown_broadcast) {
        dj_buf_append(body, " to ");
        names_of(v, pl->fake ? &pl->shown : &pl->to, body);
    }
    dj_buf_printf(body, ".\n\n%s", text);
    if (body->len && body->data[body->len - 1] != '\n')
        dj_buf_append(body, "\n");
    dj_buf_free(&what);
}

/* The master's copy: the true sender and recipients, then what the
 * recipients were shown, then the text. */
static void compose_master_copy(dj_judge *j, const game_view *v,
                                const press_plan *pl, const char *text,
                                dj_buf *subject, dj_buf *body)
{
    dj_buf what;
    dj_buf_init(&what);
    const char *sender = strcmp(pl->id->role, "player") == 0
                             ? gv_power_name(v, pl->id->power)
                         : strcmp(pl->id->role, "master") == 0 ? "Master"
                                                               : "Observer";
    dj_buf_printf(&what, "%s from %s (master's copy)",
                  pl->broadcast ? "Broadcast" : "Press", sender);
    gv_subject(j, v, v->has_phase ? v->phase.name : "-", what.data, subject);
    dj_buf_printf(body, "Game '%s'%s%s: the master's copy of %s from %s",
                  v->g.name, v->has_phase ? ", " : "",
                  v->has_phase ? v->phase.name : "",
                  pl->broadcast ? (pl->grey ? "a grey broadcast" : "a broadcast")
                                : (pl->grey ? "grey press" : "press"),
                  strcmp(pl->id->role, "player") == 0
                      ? gv_power_name(v, pl->id->power)
                  : strcmp(pl->id->role, "master") == 0 ? "the master"
                                                        : "an observer");
    if (!pl->broadcast) {
        dj_buf_append(body, " to ");
        names_of(v, &pl->to, body);
    }
    dj_buf_append(body, ".\n");
    if (pl->grey)
        dj_buf_append(body, "Its recipients were not told who sent it.\n");
    if (pl->fake_from >= 0)
        dj_buf_printf(body, "Its recipients read it as from %s.\n",
                      gv_power_name(v, pl->fake_from));
    if (pl->fake && pl->fake_broadcast) {
        dj_buf_append(body, "Its recipients read it as a broadcast.\n");
    } else if (pl->fake) {
        dj_buf_append(body, "Its recipients read it as press to ");
        names_of(v, &pl->shown, body);
        dj_buf_append(body, ".\n");
    }
    dj_buf_printf(body, "\n%s", text);
    if (body->len && body->data[body->len - 1] != '\n')
        dj_buf_append(body, "\n");
    dj_buf_free(&what);
}

/* Send the press: the recipients' copy, the master's copy where the
 * master reads all; *sent counts the addressed recipients reached. */
static int deliver(dj_judge *j, const game_view *v, const press_plan *pl,
                   const char *text, const char *subject, const char *body,
                   int *sent)
{
    *sent = 0;
    dj_buf msubject, mbody;
    dj_buf_init(&msubject);
    dj_buf_init(&mbody);
    int rc = 0;
    for (int i = 0; i < v->nparts && rc == 0; i++) {
        const dj_participant_rec *p = &v->parts[i];
        if (!receives(v, p, pl))
            continue;
        bool dup = false;
        for (int k = 0; k < i && !dup; k++)
            dup = receives(v, &v->parts[k], pl) &&
                  gv_has_address(&v->parts[k], p->email);
        if (dup)
            continue;
        bool copy = needs_master_copy(v, p, pl);
        if (copy && !mbody.len) {
            compose_master_copy(j, v, pl, text, &msubject, &mbody);
            if (!dj_buf_ok(&msubject) || !dj_buf_ok(&mbody)) {
                rc = judge_fail(j, "out of memory");
                break;
            }
        }
        if (gv_queue_to(j, v, p, 0, "press", copy ? msubject.data : subject,
                        copy ? mbody.data : body, NULL, NULL) < 0)
            rc = -1;
        else if (addressed(v, p, pl))
            (*sent)++;
    }
    dj_buf_free(&msubject);
    dj_buf_free(&mbody);
    return rc;
}

static int archive(dj_judge *j, const game_view *v, const press_plan *pl,
                   const char *text)
{
    dj_buf to, shown;
    dj_buf_init(&to);
    dj_buf_init(&shown);
    if (!pl->broadcast)
        names_of(v, &pl->to, &to);
    if (pl->fake && !pl->fake_broadcast)
        names_of(v, &pl->shown, &shown);
    dj_press_rec r;
    memset(&r, 0, sizeof r);
    r.phase_id = v->has_phase ? v->phase.id : 0;
    r.sender_id = pl->id->participant_id;
    snprintf(r.sender_role, sizeof r.sender_role, "%s", pl->id->role);
    /* A FROM press is archived as from the power it showed, so that the
     * archive never tells its readers more than the press did; who really
     * sent it stays in sender_id and the author. */
    r.from_power = pl->fake_from >= 0 ? pl->fake_from : pl->id->power;
    r.broadcast = pl->broadcast;
    r.to_mask = pl->broadcast ? 0 : pl->to.powers;
    r.to_master = !pl->broadcast && pl->to.master;
    r.to_observers = !pl->broadcast && pl->to.observers;
    r.grey = pl->grey;
    r.fake = pl->fake;
    snprintf(r.shown, sizeof r.shown, "%s", shown.data ? shown.data : "");
    snprintf(r.to_names, sizeof r.to_names, "%s", to.data ? to.data : "");
    r.body = (char *)text;
    int rc = dj_store_press_add(j->store, v->g.id, &r, j->actor, j->now);
    dj_buf_free(&to);
    dj_buf_free(&shown);
    return rc < 0 ? judge_store_fail(j) : 0;
}

typedef struct press_arg {
    press_plan plan;
    const dj_press_request *req;
} press_arg;

static int do_press(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const press_arg *a = arg;
    const dj_press_request *req = a->req;
    press_plan pl = a->plan;
    if (gv_require(j, v, "forming active paused") < 0)
        return -1;
    if (!pl.broadcast && parse_recipients(j, v, req->to, &pl.to) < 0)
        return -1;
    if (pl.id->power >= 0) /* "all" means all the others */
        pl.to.powers &= ~DJ_POWER_BIT(pl.id->power);
    if (pl.fake && !pl.fake_broadcast &&
        parse_recipients(j, v, req->fake_to, &pl.shown) < 0)
        return -1;
    if (req->fake_from &&
        (pl.fake_from = dj_map_find_power(v->map, req->fake_from)) < 0)
        return judge_fail(j, "unknown power '%.60s' after FROM: nothing was "
                             "sent",
                          req->fake_from);
    if (check_rules(j, v, req, &pl) < 0)
        return -1;
    /* shown and kept with format characters named and no line that
     * passes for the judge's (util/neutral.h) */
    dj_buf text;
    dj_buf_init(&text);
    dj_text_neutralise(req->body, &text);
    const char *safe = dj_buf_ok(&text) && text.data ? text.data : "";
    dj_buf subject, body;
    dj_buf_init(&subject);
    dj_buf_init(&body);
    compose(j, v, &pl, safe, &subject, &body);
    if (!pl.grey)
        dj_buf_append(&body, "\n-- \nAnswer this mail to write back to its "
                             "sender: your answer goes as press to them\n"
                             "alone (not read as orders).\n");
    int sent = 0;
    int64_t before = 0, press_id = 0;
    int rc = dj_store_outbox_last_id(j->store, &before) < 0
                 ? judge_store_fail(j)
             : dj_buf_ok(&subject) && dj_buf_ok(&body)
                 ? deliver(j, v, &pl, safe, subject.data, body.data, &sent)
                 : judge_fail(j, "out of memory");
    if (rc == 0 && sent == 0)
        rc = judge_fail(j, "nobody to send the press to (no recipient "
                           "with an address)");
    if (rc == 0)
        rc = archive(j, v, &pl, safe);
    /* each copy's reply address names the message (grey press: none, its
     * sender is not to be known) */
    if (rc == 0 && !pl.grey &&
        (dj_store_press_last_id(j->store, v->g.id, &press_id) < 0 ||
         dj_store_outbox_set_press(j->store, v->g.id, before, press_id) < 0))
        rc = judge_store_fail(j);
    if (rc == 0) {
        dj_buf_printf(out, "%s: %s%s sent to ", v->g.name,
                      pl.grey ? "grey " : "",
                      pl.broadcast ? "broadcast" : "press");
        if (pl.broadcast)
            dj_buf_append(out, "everyone");
        else
            names_of(v, &pl.to, out);
        if (pl.fake_from >= 0)
            dj_buf_printf(out, ", shown as from %s",
                          gv_power_name(v, pl.fake_from));
        if (pl.fake) {
            dj_buf_append(out, ", shown as ");
            if (pl.fake_broadcast)
                dj_buf_append(out, "a broadcast");
            else
                names_of(v, &pl.shown, out);
        }
        dj_buf_append(out, "\n");
    }
    dj_buf_free(&text);
    dj_buf_free(&subject);
    dj_buf_free(&body);
    return rc;
}

int dj_game_press(dj_judge *j, const dj_signon *id,
                  const dj_press_request *req, dj_buf *out)
{
    press_arg a;
    memset(&a, 0, sizeof a);
    a.req = req;
    a.plan.id = id;
    a.plan.broadcast = req->to == NULL;
    a.plan.fake = req->fake;
    a.plan.fake_broadcast = req->fake && req->fake_to == NULL;
    a.plan.fake_from = -1;
    if (!req->body || !*req->body)
        return judge_fail(j, "empty press: nothing sent");
    return gv_with_game(j, id->game, do_press, &a, out);
}

/* ---- diaries (DIARY ... ENDDIARY, issue 36) ----
 *
 * An entry is the power's alone while the game runs: only its player
 * writes or reads it (not the master, not observers, nor the press
 * archive); when the game ends every power's diary goes out with the
 * final table (gv_diaries). */

static void diary_entries(const game_view *v, const dj_press_rec *r, int n,
                          bool names, dj_buf *out)
{
    for (int i = 0; i < n; i++) {
        if (names && (i == 0 || r[i].from_power != r[i - 1].from_power))
            dj_buf_printf(out, "\n%s's diary:\n",
                          gv_power_name(v, r[i].from_power));
        dj_buf_printf(out, "\n  %s:\n", r[i].phase[0] ? r[i].phase : "-");
        dj_buf text;
        dj_buf_init(&text);
        dj_text_neutralise(r[i].body, &text);
        const char *t = dj_buf_ok(&text) && text.data ? text.data : "";
        while (*t) {
            size_t len = strcspn(t, "\n");
            dj_buf_printf(out, "    %.*s\n", (int)len, t);
            t += len + (t[len] == '\n');
        }
        dj_buf_free(&text);
    }
}

typedef struct diary_arg {
    int power;
    const char *body;
} diary_arg;

static int do_diary_add(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const diary_arg *a = arg;
    if (gv_require(j, v, "active paused") < 0)
        return -1;
    if (dj_store_diary_add(j->store, v->g.id, v->has_phase ? v->phase.id : 0,
                           a->power, a->body, j->now) < 0)
        return judge_store_fail(j);
    dj_buf_printf(out, "%s: diary entry kept for %s (private until the game "
                       "ends)\n",
                  v->g.name, v->has_phase ? v->phase.name : "-");
    return 0;
}

int dj_game_diary_add(dj_judge *j, const dj_signon *id, const char *body,
                      dj_buf *out)
{
    if (id->power < 0 || strcmp(id->role, "player") != 0)
        return judge_fail(j, "only a power's player keeps a diary: nothing "
                             "was kept");
    if (!body || !*body)
        return judge_fail(j, "empty diary entry: nothing was kept");
    diary_arg a = {id->power, body};
    return gv_with_game(j, id->game, do_diary_add, &a, out);
}

static int do_diary_read(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    int power = ((const diary_arg *)arg)->power;
    dj_press_rec *r = NULL;
    int n = 0;
    if (dj_store_diary_list(j->store, v->g.id, power, &r, &n) < 0)
        return judge_store_fail(j);
    if (n == 0)
        dj_buf_printf(out, "%s: your diary (%s) has no entries.\n", v->g.name,
                      gv_power_name(v, power));
    else {
        dj_buf_printf(out, "%s: your diary (%s), %d entr%s:\n", v->g.name,
                      gv_power_name(v, power), n,
                      n == 1 ? "y" : "ies");
        diary_entries(v, r, n, false, out);
    }
    dj_press_recs_free(r, n);
    return 0;
}

int dj_game_diary_read(dj_judge *j, const dj_signon *id, dj_buf *out)
{
    if (id->power < 0 || strcmp(id->role, "player") != 0)
        return judge_fail(j, "only a power's player keeps a diary, and "
                             "reads it while the game runs");
    diary_arg a = {id->power, NULL};
    return gv_with_game_read(j, id->game, do_diary_read, &a, out);
}

int gv_diaries(dj_judge *j, game_view *v, dj_buf *out)
{
    dj_press_rec *r = NULL;
    int n = 0;
    if (dj_store_diary_list(j->store, v->g.id, -1, &r, &n) < 0)
        return judge_store_fail(j);
    if (n > 0) {
        dj_buf_append(out, "\nThe powers' diaries (private until now):\n");
        diary_entries(v, r, n, true, out);
        dj_buf_append(out, "\n");
    }
    dj_press_recs_free(r, n);
    return 0;
}
