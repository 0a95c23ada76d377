/* SPDX-License-Identifier: MIT */
/*
 * rollback.c — taking phases back, and giving them back.
 *
 * Nothing is deleted.  A rollback to phase S (by sequence number):
 *
 *   - records a rollbacks row with the game's state and ending before it;
 *   - marks every live phase from S on "undone", tagged with that row
 *     (their results, orders and mail stay attached to them);
 *   - opens a copy of phase S as the current phase: the same position,
 *     the orders S had when it was processed, a fresh deadline;
 *   - reopens a finished game.
 *
 * A rollforward undoes the latest rollback still in effect, provided its
 * copy is still the current, unprocessed phase: the copy is marked undone
 * (for good), the phases it hid come back as they were (done, and the last
 * one current or final), and so do the game's state and ending.  Once the
 * copy has been processed the old line of play is history only: the
 * phases stay undone and are shown by export.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "game/game_int.h"
#include "game/process.h"
#include "game/snapshot.h"

/* Does the position have a winner (so its phase cannot be played)? */
static bool has_winner(const game_view *v)
{
    for (int p = 0; p < v->map->npowers; p++)
        if (dj_position_centres(v->map, v->pos, p) >= v->map->victory)
            return true;
    return false;
}

/*
 * Which seq does "phase" name?  NULL: the one before the current phase,
 * or, in a game that ended without a victory (a draw, a concession, the
 * master's termination), the phase it ended in.
 */
static int target_seq(dj_judge *j, game_view *v, const char *phase,
                      int *seq)
{
    bool reopen_last = strcmp(v->g.state, "finished") == 0 && !has_winner(v);
    if (!phase) {
        *seq = reopen_last ? v->phase.seq : v->phase.seq - 1;
        if (*seq < 0)
            return judge_fail(j, "game '%s' is at its first phase",
                              v->g.name);
        return 0;
    }
    dj_phase want;
    if (dj_phase_parse_short(phase, &want) < 0)
        return judge_fail(j, "bad phase '%s' (write it like S1901M)", phase);
    dj_phase_rec *list = NULL;
    int n = 0;
    if (dj_store_phase_list(j->store, v->g.id, &list, &n) < 0)
        return judge_store_fail(j);
    int found = -1;
    for (int i = 0; i < n; i++)
        if (list[i].year == want.year && list[i].season == (int)want.season &&
            list[i].type == (int)want.type)
            found = list[i].seq;
    dj_phase_recs_free(list, n);
    if (found < 0)
        return judge_fail(j, "game '%s' has no phase %s", v->g.name, phase);
    if (found > v->phase.seq || (found == v->phase.seq && !reopen_last))
        return judge_fail(j, "%s is the current phase of game '%s'", phase,
                          v->g.name);
    *seq = found;
    return 0;
}

/* Everyone is told which results no longer count and what comes next. */
static int rollback_notice(dj_judge *j, game_view *v,
                           const dj_phase_rec *target, int64_t deadline,
                           const dj_buf *voided)
{
    dj_buf text;
    dj_buf_init(&text);
    dj_buf_printf(&text, "The game master has rolled the game back to %s.\n",
                  target->name);
    if (voided->len)
        dj_buf_printf(&text, "The results of %s are void: the game goes on "
                             "from the position before them.\n",
                      voided->data);
    dj_buf_printf(&text, "Orders for %s are taken again; the orders that "
                         "were on file for it still stand until you change "
                         "them.\nDeadline: ",
                  target->name);
    gv_time(v, deadline, &text);
    dj_buf_append(&text, "\n");
    snprintf(v->phase.name, sizeof v->phase.name, "%s", target->name);
    v->phase.deadline = deadline;
    int rc = dj_buf_ok(&text) ? gv_notice(j, v, "Rolled back", text.data)
                              : judge_fail(j, "out of memory");
    dj_buf_free(&text);
    return rc;
}

/* The notice a rollback sends, undone: which results count again. */
static int rollforward_notice(dj_judge *j, game_view *v, const char *last,
                              int64_t deadline, bool finished,
                              const dj_buf *valid)
{
    dj_buf text;
    dj_buf_init(&text);
    dj_buf_printf(&text, "The game master has undone the rollback: the game "
                         "is at %s again.\n",
                  last);
    if (valid->len)
        dj_buf_printf(&text, "The results of %s are valid again.\n",
                      valid->data);
    if (!finished && deadline) {
        dj_buf_printf(&text, "Orders for %s are taken; deadline: ", last);
        gv_time(v, deadline, &text);
        dj_buf_append(&text, "\n");
    }
    snprintf(v->phase.name, sizeof v->phase.name, "%s", last);
    v->phase.deadline = deadline;
    int rc = dj_buf_ok(&text) ? gv_notice(j, v, "Rolled forward", text.data)
                              : judge_fail(j, "out of memory");
    dj_buf_free(&text);
    return rc;
}

static int do_rollback(dj_judge *j, game_view *v, const char *phase,
                       dj_buf *out)
{
    if (gv_require(j, v, "active paused finished") < 0)
        return -1;
    if (!v->has_phase)
        return judge_fail(j, "game '%s' has no phases", v->g.name);
    int seq = -1;
    if (target_seq(j, v, phase, &seq) < 0)
        return -1;
    dj_phase_rec target;
    if (dj_store_phase_at_seq(j->store, v->g.id, seq, &target) != 0)
        return judge_store_fail(j);

    dj_rollback_rec rb;
    memset(&rb, 0, sizeof rb);
    rb.game_id = v->g.id;
    rb.created_at = j->now;
    rb.to_seq = seq;
    snprintf(rb.prev_state, sizeof rb.prev_state, "%s", v->g.state);
    snprintf(rb.prev_ending, sizeof rb.prev_ending, "%s", v->g.ending);
    int rc = -1;
    dj_buf voided;
    dj_buf_init(&voided);
    if (dj_store_rollback_insert(j->store, &rb) < 0)
        goto store_fail;

    dj_phase_rec *list = NULL;
    int n = 0, nvoid = 0;
    if (dj_store_phase_list(j->store, v->g.id, &list, &n) < 0)
        goto store_fail;
    for (int i = 0; i < n; i++) {
        if (list[i].seq < seq)
            continue;
        if (strcmp(list[i].status, "done") == 0)
            dj_buf_printf(&voided, "%s%s", nvoid++ ? ", " : "", list[i].name);
        if (dj_store_phase_set_status(j->store, list[i].id, "undone",
                                      rb.id) < 0) {
            dj_phase_recs_free(list, n);
            goto store_fail;
        }
    }
    dj_phase_recs_free(list, n);

    /* The copy: same position; deadline from now in the game's schedule. */
    dj_position *pos = malloc(sizeof *pos);
    char why[256];
    if (!pos || dj_snapshot_read(v->map, target.position, pos, why,
                                 sizeof why) < 0) {
        free(pos);
        judge_fail(j, "phase %s: %s", target.name, pos ? why : "out of memory");
        goto done;
    }
    dj_phase_rec copy = target;
    copy.position = target.position;
    snprintf(copy.status, sizeof copy.status, "current");
    copy.opened_at = j->now;
    copy.deadline = gv_deadline(j, v, pos->phase.type);
    copy.late_at = 0;
    copy.rollback_id = 0;
    /* The notice speaks of the phase now taking orders. */
    *v->pos = *pos;
    free(pos);
    if (dj_store_phase_insert(j->store, &copy) < 0 ||
        dj_store_orders_copy(j->store, target.id, copy.id) < 0 ||
        dj_store_rollback_set_copy(j->store, rb.id, copy.id) < 0)
        goto store_fail;

    if (strcmp(v->g.state, "finished") == 0) {
        snprintf(v->g.state, sizeof v->g.state, "active");
        v->g.ending[0] = '\0';
        v->g.finished_at = 0;
        if (dj_store_game_set_state(j->store, &v->g) < 0)
            goto store_fail;
    }
    if (gv_log(j, v, "rollback", "%s to %s", v->phase.name, target.name) < 0)
        goto done;
    if (rollback_notice(j, v, &target, copy.deadline, &voided) < 0)
        goto done;
    dj_buf_printf(out, "%s: rolled back to %s; deadline ", v->g.name,
                  target.name);
    gv_time(v, copy.deadline, out);
    dj_buf_append(out, "\n");
    rc = 0;
    goto done;
store_fail:
    judge_store_fail(j);
done:
    dj_buf_free(&voided);
    dj_phase_rec_free(&target);
    return rc;
}

static int do_rollforward(dj_judge *j, game_view *v, dj_buf *out)
{
    if (gv_require(j, v, "active paused") < 0)
        return -1;
    dj_rollback_rec rb;
    int rc = dj_store_rollback_latest(j->store, v->g.id, &rb);
    if (rc < 0)
        return judge_store_fail(j);
    if (rc == DJ_STORE_NOTFOUND || !v->has_phase ||
        rb.copy_phase_id != v->phase.id ||
        strcmp(v->phase.status, "current") != 0)
        return judge_fail(j, "game '%s' has no rollback to undo%s", v->g.name,
                          rc == 0 ? " (phases were processed since)" : "");
    dj_phase_rec *list = NULL;
    int n = 0;
    if (dj_store_phase_set_status(j->store, v->phase.id, "undone", 0) < 0 ||
        dj_store_phase_list_undone(j->store, rb.id, &list, &n) < 0)
        return judge_store_fail(j);
    bool finished = strcmp(rb.prev_state, "finished") == 0;
    for (int i = 0; i < n && rc == 0; i++) {
        const char *status = i < n - 1 ? "done" : finished ? "final"
                                                           : "current";
        if (dj_store_phase_set_status(j->store, list[i].id, status, 0) < 0)
            rc = judge_store_fail(j);
    }
    const char *last = n ? list[n - 1].name : "?";
    char last_name[16];
    snprintf(last_name, sizeof last_name, "%s", last);
    /* The results that count again: every phase brought back but the
     * one now taking orders (or, for a finished game, all of them). */
    dj_buf valid;
    dj_buf_init(&valid);
    int nvalid = finished ? n : n - 1;
    for (int i = 0; i < nvalid; i++)
        dj_buf_printf(&valid, "%s%s", i ? ", " : "", list[i].name);
    int64_t deadline = n ? list[n - 1].deadline : 0;
    dj_phase_recs_free(list, n);
    if (rc < 0) {
        dj_buf_free(&valid);
        return -1;
    }
    snprintf(v->g.state, sizeof v->g.state, "%s", rb.prev_state);
    snprintf(v->g.ending, sizeof v->g.ending, "%s", rb.prev_ending);
    if (finished)
        v->g.finished_at = j->now;
    if (dj_store_game_set_state(j->store, &v->g) < 0 ||
        dj_store_rollback_set_undone(j->store, rb.id, j->now) < 0)
        return judge_store_fail(j);
    if (gv_log(j, v, "rollforward", "%s to %s", v->phase.name, last_name) < 0 ||
        rollforward_notice(j, v, last_name, deadline, finished, &valid) < 0) {
        dj_buf_free(&valid);
        return -1;
    }
    dj_buf_free(&valid);
    dj_buf_printf(out, "%s: rolled forward to %s\n", v->g.name, last_name);
    return 0;
}

/* gv_with_game actions: the phase to go back to is the argument. */
static int rollback_action(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    return do_rollback(j, v, arg, out);
}

static int rollforward_action(dj_judge *j, game_view *v, void *arg,
                              dj_buf *out)
{
    (void)arg;
    return do_rollforward(j, v, out);
}

int dj_game_rollback(dj_judge *j, const char *game, const char *phase,
                     dj_buf *out)
{
    return gv_with_game(j, game, rollback_action, (void *)phase, out);
}

int dj_game_rollforward(dj_judge *j, const char *game, dj_buf *out)
{
    return gv_with_game(j, game, rollforward_action, NULL, out);
}
