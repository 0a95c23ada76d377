/* SPDX-License-Identifier: MIT */
/*
 * orders.c — a power's orders: entering them, reading them back, and what
 * "complete" means in each kind of phase.
 *
 * Orders arrive as people write them and are read best-effort
 * (reader/interpret.h) against the current position; what is stored is
 * their canonical text ("A PAR - BUR"), one per line, which the strict
 * notation reader turns back into orders when the phase is processed.
 * An order set that cannot be read whole is refused whole: a master
 * never leaves half a power's orders behind by mistake.
 *
 * A power must order when it has something to decide: units in a
 * movement phase, dislodged units with somewhere to go in a retreat phase,
 * builds or removals due in an adjustment phase.  Its orders are complete
 * when every such unit has an order (or, in adjustments, as many builds,
 * waives or removals as are due).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "game/game_int.h"
#include "game/orders.h"
#include "game/player_options_int.h"
#include "game/report.h"
#include "reader/interpret.h"
#include "reader/notation.h"
#include "store/phases.h"

/* ---- what a power must do ------------------------------------------------- */

bool gv_power_must_order(const dj_map *map, const dj_position *pos, int power)
{
    switch (pos->phase.type) {
    case DJ_MOVEMENT:
        return dj_position_units(pos, power) > 0;
    case DJ_RETREAT:
        for (int i = 0; i < pos->ndislodged; i++)
            if (pos->dislodged[i].unit.power == power &&
                pos->dislodged[i].nretreats > 0)
                return true;
        return false;
    case DJ_ADJUSTMENT:
        return dj_adjustment_due(map, pos, power) != 0;
    }
    return false;
}

static bool order_covers(const dj_map *map, const dj_order *o, int power,
                         int loc)
{
    return o->power == power && o->loc >= 0 &&
           dj_province(map, o->loc) == dj_province(map, loc);
}

void gv_power_order_count(const dj_map *map, const dj_position *pos, int power,
                       const order_set *set, int *needed, int *given)
{
    *needed = *given = 0;
    if (pos->phase.type == DJ_ADJUSTMENT) {
        int due = dj_adjustment_due(map, pos, power);
        *needed = due < 0 ? -due : due;
        for (int k = 0; k < set->n; k++) {
            const dj_order *o = &set->orders[k];
            if (o->power != power)
                continue;
            bool fits = due > 0 ? (o->kind == DJ_ORDER_BUILD ||
                                   o->kind == DJ_ORDER_WAIVE)
                                : (o->kind == DJ_ORDER_REMOVE ||
                                   o->kind == DJ_ORDER_DISBAND);
            if (fits && *given < *needed)
                (*given)++;
        }
        return;
    }
    if (pos->phase.type == DJ_MOVEMENT) {
        for (int i = 0; i < pos->nunits; i++) {
            if (pos->units[i].power != power)
                continue;
            (*needed)++;
            for (int k = 0; k < set->n; k++)
                if (order_covers(map, &set->orders[k], power,
                                 pos->units[i].loc)) {
                    (*given)++;
                    break;
                }
        }
        return;
    }
    for (int i = 0; i < pos->ndislodged; i++) {
        const dj_dislodged *d = &pos->dislodged[i];
        if (d->unit.power != power || d->nretreats == 0)
            continue;
        (*needed)++;
        for (int k = 0; k < set->n; k++)
            if (order_covers(map, &set->orders[k], power, d->unit.loc)) {
                (*given)++;
                break;
            }
    }
}

bool gv_orders_complete(const dj_map *map, const dj_position *pos, int power,
                     const order_set *set)
{
    if (!gv_power_must_order(map, pos, power))
        return false;
    int needed, given;
    gv_power_order_count(map, pos, power, set, &needed, &given);
    return given >= needed;
}

/* ---- orders on file ---------------------------------------------------------- */

int gv_orders_load(dj_judge *j, const game_view *v, const dj_phase_rec *ph,
                order_set *set)
{
    set->n = 0;
    memset(set->has, 0, sizeof set->has);
    memset(set->last_at, 0, sizeof set->last_at);
    dj_orders_rec *recs = NULL;
    int n = 0;
    if (dj_store_orders_latest(j->store, ph->id, &recs, &n) < 0)
        return judge_store_fail(j);
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        int power = recs[i].power;
        if (power < 0 || power >= v->map->npowers)
            continue;
        set->has[power] = true;
        set->last_at[power] = recs[i].received_at;
        char *save = NULL;
        for (char *line = strtok_r(recs[i].orders, "\n", &save); line;
             line = strtok_r(NULL, "\n", &save)) {
            if (!*line)
                continue;
            if (set->n == DJ_MAX_ORDERS) {
                rc = judge_fail(j, "too many orders in phase %s",
                                ph->name);
                break;
            }
            char why[256];
            /* Read as orders of their own phase, not of the game's
             * current one: "A bul-con" is a move in a movement phase
             * and a retreat in a retreat phase (a picture of a movement
             * phase drawn while its retreats are due read its moves as
             * retreats, and drew the board before it: issue 31). */
            if (dj_notation_parse(v->map, power, (dj_phase_type)ph->type,
                                  line, &set->orders[set->n], why,
                                  sizeof why) < 0) {
                rc = judge_fail(j, "stored order '%s' of %s: %s", line,
                                gv_power_name(v, power), why);
                break;
            }
            set->n++;
        }
    }
    dj_orders_recs_free(recs, n);
    return rc;
}

/* ---- entering orders ---------------------------------------------------------- */

/* Split text into lines (in place); returns the count. */
static int split_lines(char *text, const char **lines, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l && n < max;
         l = strtok_r(NULL, "\n", &save)) {
        size_t len = strlen(l);
        if (len && l[len - 1] == '\r')
            l[len - 1] = '\0';
        lines[n++] = l;
    }
    return n;
}

#define MAX_INPUT_LINES 1024

/* Read the orders; append canonical lines to canon, notes/errors to out. */
static int read_orders(dj_judge *j, const game_view *v, int power,
                       const char *text, dj_buf *canon, dj_buf *out)
{
    char *copy = strdup(text);
    const char **lines = malloc(sizeof *lines * MAX_INPUT_LINES);
    dj_reading *reads = malloc(sizeof *reads * DJ_READ_MAX_ORDERS);
    if (!copy || !lines || !reads) {
        free(copy);
        free(lines);
        free(reads);
        return judge_fail(j, "out of memory");
    }
    int nlines = split_lines(copy, lines, MAX_INPUT_LINES);
    int n = dj_interpret_lines(v->map, v->pos, power, &v->rules, lines,
                               nlines, reads, DJ_READ_MAX_ORDERS);
    if (n > 0 && n <= DJ_READ_MAX_ORDERS)
        gv_blind_readings(v, reads, n); /* blind games: nothing unseen */
    int rc = 0, bad = 0;
    if (n < 0 || n > DJ_READ_MAX_ORDERS) {
        rc = judge_fail(j, "too many orders");
    } else {
        dj_buf errors;
        dj_buf_init(&errors);
        for (int i = 0; i < n; i++) {
            const dj_reading *r = &reads[i];
            if (r->kind == DJ_READ_OK) {
                dj_buf_printf(canon, "%s\n", r->text);
                if (r->message[0])
                    dj_buf_printf(out, "note: %s: %s\n", r->text,
                                  r->message);
                continue;
            }
            char line[DJ_READ_MSG_MAX + 64];
            dj_reading_format(r, line, sizeof line);
            dj_buf_printf(&errors, "%sline %d: %s",
                          bad++ ? "; " : "", r->line + 1, line);
        }
        if (bad)
            rc = judge_fail(j, "orders of %s not accepted: %s",
                            gv_power_name(v, power), errors.data);
        dj_buf_free(&errors);
    }
    free(copy);
    free(lines);
    free(reads);
    return rc;
}

static int open_power(dj_judge *j, game_view *v, const char *game,
                      const char *power_text, int *power)
{
    if (gv_load(j, game, v) < 0)
        return -1;
    if (gv_require(j, v, "active paused") < 0)
        return -1;
    *power = gv_power(j, v, power_text);
    return *power < 0 ? -1 : 0;
}

/* A power in civil disorder that orders again is back in the game. */
static int back_from_disorder(dj_judge *j, game_view *v, int power)
{
    dj_participant_rec *p = gv_player(v, power);
    if (p && p->email[0] && strcmp(p->status, "civil-disorder") == 0) {
        snprintf(p->status, sizeof p->status, "playing");
        if (dj_store_participant_update(j->store, p) < 0)
            return judge_store_fail(j);
    }
    return 0;
}

/* The power's latest orders on file, canonical text ("" when none). */
static int latest_text(dj_judge *j, const game_view *v, int power,
                       dj_buf *out)
{
    dj_orders_rec *recs = NULL;
    int n = 0;
    if (dj_store_orders_latest(j->store, v->phase.id, &recs, &n) < 0)
        return judge_store_fail(j);
    for (int i = 0; i < n; i++)
        if (recs[i].power == power)
            dj_buf_append(out, recs[i].orders);
    dj_orders_recs_free(recs, n);
    return 0;
}

/* The end of a writing transaction: committed when rc says all went
 * well (rc >= 0), else (or when the commit fails) rolled back; rc, or -1
 * after a failed commit. */
static int end_write(dj_judge *j, int rc)
{
    if (rc >= 0 && dj_store_commit(j->store) < 0)
        rc = judge_store_fail(j);
    if (rc < 0)
        dj_store_rollback(j->store);
    return rc;
}

int dj_game_set_orders(dj_judge *j, const char *game, const char *power_text,
                       const char *text, const char *source, bool ready,
                       dj_buf *out)
{
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    dj_buf canon;
    dj_buf_init(&canon);
    int power;
    if (open_power(j, &v, game, power_text, &power) < 0)
        goto fail;
    if (read_orders(j, &v, power, text, &canon, out) < 0)
        goto fail;
    if (!dj_buf_ok(&canon)) {
        judge_fail(j, "out of memory");
        goto fail;
    }
    if (dj_store_orders_add(j->store, v.phase.id, power, canon.data,
                            source ? source : "judgectl", j->actor,
                            j->now) < 0)
        goto store_fail;
    if (back_from_disorder(j, &v, power) < 0)
        goto fail;
    int r0, w0;
    if (dj_store_readiness_get(j->store, v.phase.id, power, &r0, &w0) < 0 ||
        dj_store_readiness_set(j->store, v.phase.id, power, ready ? 1 : 0,
                               w0) < 0)
        goto store_fail;
    if (dj_store_commit(j->store) < 0)
        goto store_fail;
    int n = 0;
    for (const char *c = canon.data; *c; c++)
        n += *c == '\n';
    dj_buf_printf(out, "%s: %d order%s for %s recorded%s\n", v.g.name, n,
                  n == 1 ? "" : "s", gv_power_name(&v, power),
                  ready ? ", ready" : "");
    dj_buf_free(&canon);
    gv_free(&v);
    return 0;
store_fail:
    judge_store_fail(j);
fail:
    dj_store_rollback(j->store);
    dj_buf_free(&canon);
    gv_free(&v);
    return -1;
}

int dj_game_get_orders(dj_judge *j, const char *game, const char *power_text,
                       dj_buf *out)
{
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    int power;
    int rc = open_power(j, &v, game, power_text, &power);
    if (rc == 0)
        rc = latest_text(j, &v, power, out);
    dj_store_rollback(j->store);
    gv_free(&v);
    return rc;
}

int dj_game_flag(dj_judge *j, const char *game, const char *power_text,
                 const char *flag, dj_buf *out)
{
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    int power, ready, wait;
    if (open_power(j, &v, game, power_text, &power) < 0)
        goto fail;
    if (dj_store_readiness_get(j->store, v.phase.id, power, &ready, &wait) <
        0)
        goto store_fail;
    if (strcmp(flag, "ready") == 0)
        ready = 1;
    else if (strcmp(flag, "not-ready") == 0)
        ready = 0;
    else if (strcmp(flag, "wait") == 0)
        wait = 1;
    else if (strcmp(flag, "no-wait") == 0)
        wait = 0;
    else {
        judge_fail(j, "unknown flag '%s' (ready, not-ready, wait, no-wait)",
                   flag);
        goto fail;
    }
    if (dj_store_readiness_set(j->store, v.phase.id, power, ready, wait) < 0 ||
        dj_store_commit(j->store) < 0)
        goto store_fail;
    dj_buf_printf(out, "%s: %s is %sready%s\n", v.g.name,
                  gv_power_name(&v, power), ready ? "" : "not ",
                  wait ? " and asks to wait" : "");
    gv_free(&v);
    return 0;
store_fail:
    judge_store_fail(j);
fail:
    dj_store_rollback(j->store);
    gv_free(&v);
    return -1;
}

/* ---- orders by mail ------------------------------------------------------------ */

/* Does a new order replace an earlier one: the same unit (province)? */
static bool same_unit(const dj_map *map, const dj_order *a, const dj_order *b)
{
    return a->loc >= 0 && b->loc >= 0 &&
           dj_province(map, a->loc) == dj_province(map, b->loc);
}

/* A reading to file: an order understood, or the hold (disband) that
 * rule 4.D.3 c puts in place of a unit's several orders. */
static bool files_order(const dj_reading *r)
{
    return r->kind == DJ_READ_OK || r->stands_instead;
}

/* The orders read, without the earlier ones of a line for the same unit
 * (the later line is the player's correction; under 4.D.3 c, the unit's
 * hold once). */
static bool superseded(const dj_map *map, const dj_reading *reads, int n,
                       int k)
{
    for (int i = k + 1; i < n; i++)
        if (files_order(&reads[i]) &&
            same_unit(map, &reads[i].order, &reads[k].order))
            return true;
    return false;
}

/*
 * The merged set: earlier orders for units not ordered now, then the new
 * ones.  In an adjustment phase new orders replace everything: builds and
 * removals are a count, not one order per unit, so keeping half of an old
 * set would give the player a mix of two plans.
 */
static int merge_orders(dj_judge *j, const game_view *v, int power,
                        const dj_reading *reads, int n, dj_buf *merged)
{
    if (v->pos->phase.type != DJ_ADJUSTMENT) {
        dj_buf old;
        dj_buf_init(&old);
        if (latest_text(j, v, power, &old) < 0) {
            dj_buf_free(&old);
            return -1;
        }
        char *save = NULL;
        for (char *line = strtok_r(old.data, "\n", &save); line;
             line = strtok_r(NULL, "\n", &save)) {
            dj_order o;
            char why[256];
            if (!*line || dj_notation_parse(v->map, power, v->pos->phase.type,
                                            line, &o, why, sizeof why) < 0)
                continue;
            bool replaced = false;
            for (int k = 0; k < n && !replaced; k++)
                replaced = files_order(&reads[k]) &&
                           same_unit(v->map, &reads[k].order, &o);
            if (!replaced)
                dj_buf_printf(merged, "%s\n", line);
        }
        dj_buf_free(&old);
    }
    for (int k = 0; k < n; k++)
        if (files_order(&reads[k]) && !superseded(v->map, reads, n, k))
            dj_buf_printf(merged, "%s\n", reads[k].text);
    return dj_buf_ok(merged) ? 0 : judge_fail(j, "out of memory");
}

/* The game and power, with a current phase in which the power orders. */
static int open_ordering(dj_judge *j, game_view *v, const char *game,
                         const char *power_text, int *power)
{
    if (open_power(j, v, game, power_text, power) < 0)
        return -1;
    if (!v->has_phase || strcmp(v->phase.status, "current") != 0)
        return judge_fail(j, "game '%s' has no phase taking orders",
                          v->g.name);
    if (!gv_power_must_order(v->map, v->pos, *power))
        return judge_fail(j, "%s has no orders to give in %s",
                          gv_power_name(v, *power), v->phase.name);
    return 0;
}

static int submit(dj_judge *j, game_view *v, int power,
                  const char *const *lines, int nlines, const char *source,
                  dj_reading *reads, int max_reads, int *nreads)
{
    int n = dj_interpret_lines(v->map, v->pos, power, &v->rules, lines,
                               nlines, reads, max_reads);
    if (n < 0)
        return judge_fail(j, "orders could not be read");
    gv_blind_readings(v, reads, n < max_reads ? n : max_reads);
    *nreads = n;
    if (n > max_reads)
        n = max_reads; /* the rest are not even echoed: too many */
    int ok = 0, filed = 0;
    for (int k = 0; k < n; k++) {
        ok += reads[k].kind == DJ_READ_OK;
        filed += files_order(&reads[k]);
    }
    if (filed == 0)
        return 0; /* nothing understood: what is on file stays */
    dj_buf merged;
    dj_buf_init(&merged);
    int rc = merge_orders(j, v, power, reads, n, &merged);
    if (rc == 0 &&
        dj_store_orders_add(j->store, v->phase.id, power, merged.data,
                            source ? source : "mail", j->actor, j->now) < 0)
        rc = judge_store_fail(j);
    dj_buf_free(&merged);
    if (rc == 0)
        rc = back_from_disorder(j, v, power);
    if (rc == 0)
        rc = gv_log(j, v, "orders", "%s: %d read", gv_power_name(v, power),
                    ok);
    return rc;
}

int dj_game_submit_orders(dj_judge *j, const char *game, const char *power,
                          const char *const *lines, int nlines,
                          const char *source, dj_reading *reads,
                          int max_reads, int *nreads)
{
    *nreads = 0;
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    int p;
    int rc = open_ordering(j, &v, game, power, &p);
    if (rc == 0)
        rc = submit(j, &v, p, lines, nlines, source, reads, max_reads,
                    nreads);
    rc = end_write(j, rc);
    gv_free(&v);
    return rc;
}

int dj_game_clear_orders(dj_judge *j, const char *game, const char *power,
                         const char *source, dj_buf *out)
{
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    int p;
    int rc = open_ordering(j, &v, game, power, &p);
    if (rc == 0 &&
        dj_store_orders_add(j->store, v.phase.id, p, "",
                            source ? source : "mail", j->actor, j->now) < 0)
        rc = judge_store_fail(j);
    if (rc == 0)
        rc = gv_log(j, &v, "orders", "%s: cleared", gv_power_name(&v, p));
    rc = end_write(j, rc);
    if (rc == 0) {
        dj_buf_printf(out, "%s: orders of %s cleared; %s until new orders "
                           "come\n",
                      v.g.name, gv_power_name(&v, p),
                      v.pos->phase.type == DJ_ADJUSTMENT
                          ? "builds are waived and removals chosen for it"
                      : v.pos->phase.type == DJ_RETREAT
                          ? "its dislodged units disband"
                          : "its units hold");
    }
    gv_free(&v);
    return rc;
}

/* ---- a power's situation ---------------------------------------------------------- */

/* Units of the power that must order and have no order in the set. */
static void list_missing(const game_view *v, int power, const order_set *set,
                         dj_buf *out)
{
    int n = 0;
    bool retreat = v->pos->phase.type == DJ_RETREAT;
    int count = retreat ? v->pos->ndislodged : v->pos->nunits;
    for (int i = 0; i < count; i++) {
        const dj_unit *u =
            retreat ? &v->pos->dislodged[i].unit : &v->pos->units[i];
        if (u->power != power ||
            (retreat && v->pos->dislodged[i].nretreats == 0))
            continue;
        bool covered = false;
        for (int k = 0; k < set->n && !covered; k++)
            covered = order_covers(v->map, &set->orders[k], power, u->loc);
        if (covered)
            continue;
        dj_buf_append(out, n++ ? ", " : "Still without orders: ");
        dj_report_unit(v->map, u->type, u->loc, out);
    }
    dj_buf_append(out, n ? ".\n" : "Every unit has an order.\n");
}

static void deadline_text(const game_view *v, int power, dj_buf *out)
{
    if (!v->phase.deadline)
        return;
    dj_buf_append(out, "Deadline: ");
    gv_time(v, v->phase.deadline, out);
    dj_buf_append(out, strcmp(v->g.state, "paused") == 0
                           ? " (the game is paused)\n"
                           : "\n");
    gv_own_deadline(v, gv_player(v, power), v->phase.deadline, out);
}

static void status_text(const game_view *v, int power, const order_set *set,
                        const char *on_file, int ready, int wait,
                        dj_buf *out)
{
    char long_name[64];
    dj_map_phase_format(v->map, v->pos->phase.season, v->pos->phase.year,
                        v->pos->phase.type, long_name, sizeof long_name);
    if (!gv_power_must_order(v->map, v->pos, power)) {
        dj_buf_printf(out, "%s has no orders to give in %s (%s).\n",
                      gv_power_name(v, power), v->phase.name, long_name);
        deadline_text(v, power, out);
        return;
    }
    dj_buf_printf(out, "Orders of %s for %s (%s):\n", gv_power_name(v, power),
                  v->phase.name, long_name);
    if (!*on_file)
        dj_buf_append(out, "  (none)\n");
    for (const char *l = on_file; *l;) {
        size_t len = strcspn(l, "\n");
        if (len)
            dj_buf_printf(out, "  %.*s\n", (int)len, l);
        l += len + (l[len] == '\n');
    }
    if (v->pos->phase.type == DJ_ADJUSTMENT) {
        int due = dj_adjustment_due(v->map, v->pos, power), needed, given;
        gv_power_order_count(v->map, v->pos, power, set, &needed, &given);
        dj_buf_printf(out, "%s due: %d; given: %d%s\n",
                      due > 0 ? "Builds" : "Removals", needed, given,
                      given >= needed ? "." : " (the rest: the judge "
                                              "decides if none come).");
    } else {
        list_missing(v, power, set, out);
    }
    dj_buf_printf(out, "READY: %s.  WAIT: %s.\n", ready ? "yes" : "no",
                  wait ? "yes" : "no");
    deadline_text(v, power, out);
}

int dj_game_order_status(dj_judge *j, const char *game, const char *power,
                         dj_buf *out)
{
    return dj_game_order_status_full(j, game, power, out, NULL);
}

int dj_game_order_status_full(dj_judge *j, const char *game,
                              const char *power, dj_buf *out,
                              bool *complete)
{
    if (complete)
        *complete = false;
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    memset(&v, 0, sizeof v);
    int p, ready = 0, wait = 0;
    order_set *set = malloc(sizeof *set);
    dj_buf on_file;
    dj_buf_init(&on_file);
    int rc = set ? open_power(j, &v, game, power, &p)
                 : judge_fail(j, "out of memory");
    if (rc == 0 && (!v.has_phase || strcmp(v.phase.status, "current") != 0))
        rc = judge_fail(j, "game '%s' has no phase taking orders", v.g.name);
    if (rc == 0)
        rc = gv_orders_load(j, &v, &v.phase, set);
    if (rc == 0)
        rc = latest_text(j, &v, p, &on_file);
    if (rc == 0 &&
        dj_store_readiness_get(j->store, v.phase.id, p, &ready, &wait) < 0)
        rc = judge_store_fail(j);
    if (rc == 0) {
        status_text(&v, p, set, on_file.data, ready, wait, out);
        if (complete)
            *complete = gv_orders_complete(v.map, v.pos, p, set);
    }
    dj_store_rollback(j->store);
    dj_buf_free(&on_file);
    free(set);
    gv_free(&v);
    return rc;
}

/* ---- lines that are not orders ---------------------------------------------------- */

int dj_game_line_is_prose(dj_judge *j, const char *game, const char *line,
                          bool *prose)
{
    *prose = false;
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    dj_game_rec g;
    int rc = gv_game_get(j, game, &g);
    dj_store_rollback(j->store);
    const dj_map *map = rc == 0 ? judge_map(j, g.map) : NULL;
    if (!map)
        return -1;
    *prose = dj_interpret_line_is_prose(map, line);
    return 0;
}

/* ---- orders for a later phase (njudge's PHASE) ------------------------------ */

/*
 * A phase name's place in a game's year ("S1902M" < "S1902R" < "F1902M"
 * < "F1902R" < "W1902A"), or -1 when it names no phase of the standard
 * calendar.
 */
static long phase_rank(const char *name)
{
    size_t len = strlen(name);
    if (len < 3 || len > 8)
        return -1;
    char season = name[0], type = name[len - 1];
    long year = 0;
    for (size_t i = 1; i < len - 1; i++) {
        if (name[i] < '0' || name[i] > '9')
            return -1;
        year = year * 10 + (name[i] - '0');
    }
    int step = season == 'S'   ? (type == 'M' ? 0 : type == 'R' ? 1 : -1)
               : season == 'F' ? (type == 'M' ? 2 : type == 'R' ? 3 : -1)
               : season == 'W' && type == 'A' ? 4
                                              : -1;
    return step < 0 ? -1 : year * 5 + step;
}

int dj_game_later_begin(dj_judge *j, const char *game, const char *power_text,
                        const char *phase)
{
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    int p;
    int rc = open_power(j, &v, game, power_text, &p);
    if (rc == 0 &&
        (!v.has_phase || strcmp(v.phase.status, "current") != 0))
        rc = judge_fail(j, "game '%s' has no phase taking orders", v.g.name);
    long want = phase_rank(phase), now = rc == 0 ? phase_rank(v.phase.name)
                                                 : -1;
    if (rc == 0 && want < 0)
        rc = judge_fail(j, "%s is not a phase of this game (Spring and Fall "
                           "have Movement and Retreats, Winter Adjustments)",
                        phase);
    else if (rc == 0 && now >= 0 && want < now)
        rc = judge_fail(j, "%s is past: the current phase is %s, and orders "
                           "go only to it or a later phase",
                        phase, v.phase.name);
    else if (rc == 0 && want == now)
        rc = 0; /* the current phase: read now, nothing stored */
    else if (rc == 0) {
        if (dj_store_later_begin(j->store, v.g.id, p, phase, j->actor,
                                 j->now) < 0)
            rc = judge_store_fail(j);
        else
            rc = gv_log(j, &v, "orders", "%s: orders for %s stored",
                        gv_power_name(&v, p), phase) < 0
                     ? -1
                     : 1;
    }
    rc = end_write(j, rc);
    gv_free(&v);
    return rc;
}

int dj_game_later_line(dj_judge *j, const char *game, const char *power_text,
                       const char *phase, const char *line)
{
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    int p;
    int rc = open_power(j, &v, game, power_text, &p);
    if (rc == 0 &&
        dj_store_later_append(j->store, v.g.id, p, phase, line) < 0)
        rc = judge_store_fail(j);
    rc = end_write(j, rc);
    gv_free(&v);
    return rc;
}

/* What was read from one stored line, as a reply echoes it. */
static void later_echo(const dj_reading *r, dj_buf *o)
{
    switch (r->kind) {
    case DJ_READ_OK:
        dj_buf_printf(o, "    %s", r->text);
        if (r->message[0])
            dj_buf_printf(o, "  (%s)", r->message);
        dj_buf_append(o, "\n");
        break;
    case DJ_READ_ERROR:
        if (r->stands_instead && r->text[0])
            dj_buf_printf(o, "    ERROR: %s; filed instead: %s\n",
                          r->message, r->text);
        else
            dj_buf_printf(o, "    ERROR: %s; not accepted\n", r->message);
        break;
    case DJ_READ_AMBIGUOUS:
        dj_buf_printf(o, "    AMBIGUOUS: %s; not accepted (could be: ",
                      r->message);
        for (int k = 0; k < r->ncandidates; k++)
            dj_buf_printf(o, "%s%s", k ? " | " : "", r->candidates[k]);
        dj_buf_append(o, ")\n");
        break;
    case DJ_READ_PROSE:
        dj_buf_append(o, "    (not an order: not read)\n");
        break;
    }
}

/* One power's stored text read as its orders for the phase now open, and
 * what was read told to its player. */
static int later_apply(dj_judge *j, game_view *v, const dj_later_rec *r)
{
    char *copy = strdup(r->text);
    const char **lines = malloc(sizeof *lines * DJ_READ_MAX_ORDERS);
    dj_reading *reads = malloc(sizeof *reads * DJ_READ_MAX_ORDERS);
    dj_buf text;
    dj_buf_init(&text);
    int rc = 0, nlines = 0, n = 0;
    if (!copy || !lines || !reads) {
        rc = judge_fail(j, "out of memory");
        goto done;
    }
    for (char *line = copy, *next; line && *line && nlines <
                                                 DJ_READ_MAX_ORDERS;
         line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lines[nlines++] = line;
    }
    dj_buf_printf(&text,
                  "the orders %s sent for %s (PHASE %s) are read now that "
                  "%s has begun:\n\n",
                  gv_power_name(v, r->power), v->phase.name, r->phase,
                  v->phase.name);
    if (!gv_power_must_order(v->map, v->pos, r->power)) {
        dj_buf_printf(&text, "%s has no orders to give in %s: nothing was "
                             "filed.\n",
                      gv_power_name(v, r->power), v->phase.name);
    } else {
        rc = submit(j, v, r->power, lines, nlines, "mail", reads,
                    DJ_READ_MAX_ORDERS, &n);
        if (rc < 0)
            goto done;
        if (n > DJ_READ_MAX_ORDERS)
            n = DJ_READ_MAX_ORDERS;
        for (int i = 0, k = 0; i < nlines; i++) {
            dj_buf_printf(&text, "> %s\n", lines[i]);
            bool any = false;
            for (; k < n && reads[k].line == i; k++, any = true)
                later_echo(&reads[k], &text);
            if (!any)
                dj_buf_append(&text, "    (no order found on this line)\n");
        }
        dj_buf_append(&text, "\nThese are filed as your orders for this "
                             "phase; send new ones to change them.\n");
    }
    const dj_participant_rec *pl = gv_player(v, r->power);
    if (!dj_buf_ok(&text))
        rc = judge_fail(j, "out of memory");
    else if (pl && pl->email[0])
        rc = gv_tell_participant(j, v, pl, "Stored orders", text.data);
done:
    dj_buf_free(&text);
    free(reads);
    free(lines);
    free(copy);
    return rc;
}

int gv_later_orders_open(dj_judge *j, const char *game)
{
    game_view v;
    if (gv_load(j, game, &v) < 0)
        return -1;
    int rc = 0, n = 0;
    dj_later_rec *rows = NULL;
    long now = v.has_phase && strcmp(v.phase.status, "current") == 0
                   ? phase_rank(v.phase.name)
                   : -1;
    if (now < 0)
        goto done;
    if (dj_store_later_list(j->store, v.g.id, &rows, &n) < 0) {
        rc = judge_store_fail(j);
        goto done;
    }
    for (int i = 0; i < n && rc == 0; i++) {
        long when = phase_rank(rows[i].phase);
        if (when > now)
            continue; /* kept until its phase opens */
        if (when == now && rows[i].power < v.map->npowers)
            rc = later_apply(j, &v, &rows[i]);
        if (rc == 0 && dj_store_later_delete(j->store, v.g.id, rows[i].power,
                                             rows[i].phase) < 0)
            rc = judge_store_fail(j);
    }
done:
    dj_later_recs_free(rows, n);
    gv_free(&v);
    return rc;
}
