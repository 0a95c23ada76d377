/* SPDX-License-Identifier: MIT */
/*
 * process.c — adjudicating a phase, and the clock that decides when.
 *
 * Processing a phase, in one transaction (the caller's):
 *
 *   1. the orders on file, parsed (orders.c);
 *   2. civil disorder: powers already in disorder (no player, a dummy, or
 *      a player who missed a deadline and has not ordered since), and
 *      every power that must order and sent nothing now joins them; the
 *      position carries them as civil_disorder bits, for 4.D.9;
 *   3. dj_adjudicate_with the game's engine: units without orders hold,
 *      dislodged units without orders disband, missing builds are waived
 *      and missing removals are chosen by the civil-disorder rule (4.D.8)
 *      — all in the engine; then the verifying engine checks a movement
 *      phase (verify.c) and, if it disagrees, the game is paused and
 *      nothing below happens;
 *   4. the report (report.h), the next phase and its deadline;
 *   5. writes: the result row first (its key refuses a second result for
 *      the phase), the phase marked done, the next phase (or the final
 *      position), eliminated players, the game's end, and the results mail
 *      for every participant in the outbox.
 *
 * Any failure rolls the whole transaction back: the phase stays as it was,
 * orders included, and the next attempt starts afresh.
 *
 * The tick (dj_judge_tick) looks at each active game in its own
 * transaction, taken with BEGIN IMMEDIATE before anything is read, so two
 * ticks running at once see each other's work: the second finds the phase
 * already processed and its successor not yet due.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/game.h"
#include "game/game_int.h"
#include "game/game_options.h"
#include "game/process.h"
#include "game/player_options_int.h"
#include "game/report.h"
#include "game/snapshot.h"
#include "store/mail.h"

/* ---- one adjudication -------------------------------------------------------- */

typedef struct adjudication {
    order_set set;
    dj_result res;
    dj_power_set disorder; /* powers in civil disorder this phase */
    dj_power_set newly;    /* of which, put there now for sending nothing */
    dj_power_set excused;  /* sent nothing, excused instead (excuses = N) */
} adjudication;

/* In play: units or centres, or the opening build of a MOBILIZE map. */
static bool power_alive(const dj_map *map, const dj_position *pos, int p)
{
    return dj_position_units(pos, p) > 0 ||
           dj_position_centres(map, pos, p) > 0 || dj_mobilizing(map, pos);
}

static int adjudicate_view(dj_judge *j, game_view *v, dj_engine engine,
                           adjudication *a)
{
    if (gv_orders_load(j, v, &v->phase, &a->set) < 0)
        return -1;
    a->disorder = a->newly = a->excused = 0;
    for (int p = 0; p < v->map->npowers; p++) {
        if (!power_alive(v->map, v->pos, p))
            continue;
        if (gv_in_disorder(v, p))
            a->disorder |= DJ_POWER_BIT(p);
        else if (gv_power_must_order(v->map, v->pos, p) && !a->set.has[p])
            a->newly |= DJ_POWER_BIT(p);
    }
    /* excuses = N: a power's first missed phases are not civil disorder */
    if (gv_excusable(j, v, a->newly, &a->excused) < 0)
        return -1;
    a->newly &= ~a->excused;
    a->disorder |= a->newly;
    v->pos->civil_disorder = a->disorder;
    if (dj_adjudicate_with(engine, v->map, v->pos, a->set.orders, a->set.n,
                           &v->rules, &a->res) < 0)
        return judge_fail(j, "game '%s': the position or orders of %s are "
                             "malformed", v->g.name, v->phase.name);
    a->res.next.civil_disorder = 0;
    for (int p = 0; p < v->map->npowers; p++)
        if ((a->disorder >> p & 1u) && power_alive(v->map, &a->res.next, p))
            a->res.next.civil_disorder |= DJ_POWER_BIT(p);
    return 0;
}

static void report_info(dj_judge *j, const game_view *v, const char *deadline,
                        bool over, const char *ending_text,
                        dj_report_info *info)
{
    memset(info, 0, sizeof *info);
    info->judge = j->cfg.judge_name;
    info->game = v->g.name;
    info->variant = v->g.map;
    info->deadline = deadline;
    info->game_over = over;
    info->ending = ending_text;
}

/* ---- the detail kept with a result (export reads it) ----------------------- */

static const char *const FLAG_NAMES[] = {
    "bounce", "cut", "void", "no-convoy", "dislodged", "illegal",
    "paradox", "disrupted", "destroyed", "ignored"};

static void detail_line(const game_view *v, const dj_order *o,
                        const dj_order_result *r, const dj_auto_order *au,
                        dj_buf *out)
{
    char text[128];
    dj_order_format(v->map, o, text, sizeof text);
    dj_buf_printf(out, "%s\t%s\t", gv_power_name(v, o->power), text);
    if (au) {
        dj_buf_printf(out, "by-judge\t%s\n", dj_why_text(au->why));
        return;
    }
    dj_buf_append(out, r->success ? "succeeded" : "failed");
    for (size_t f = 0; f < sizeof FLAG_NAMES / sizeof FLAG_NAMES[0]; f++)
        if (r->flags >> f & 1u)
            dj_buf_printf(out, ",%s", FLAG_NAMES[f]);
    dj_buf_printf(out, "\t%s\n",
                  r->why != DJ_WHY_NONE ? dj_why_text(r->why) : "");
}

static void result_detail(const game_view *v, const adjudication *a,
                          dj_buf *out)
{
    for (int k = 0; k < a->set.n; k++)
        detail_line(v, &a->set.orders[k], &a->res.orders[k], NULL, out);
    for (int k = 0; k < a->res.nauto; k++)
        detail_line(v, &a->res.autos[k].order, NULL, &a->res.autos[k], out);
}

static void power_list(const game_view *v, dj_power_set mask, dj_buf *out)
{
    bool first = true;
    for (int p = 0; p < v->map->npowers; p++)
        if (mask >> p & 1u) {
            dj_buf_printf(out, "%s%s", first ? "" : " ", gv_power_name(v, p));
            first = false;
        }
}

/* "France, Italy and Turkey", for players to read. */
static void power_names(const game_view *v, dj_power_set mask, dj_buf *out)
{
    int total = 0, n = 0;
    for (int p = 0; p < v->map->npowers; p++)
        total += (mask >> p & 1u) != 0;
    for (int p = 0; p < v->map->npowers; p++)
        if (mask >> p & 1u) {
            n++;
            dj_buf_printf(out, "%s%s",
                          n == 1 ? "" : n == total ? " and " : ", ",
                          gv_power_name(v, p));
        }
}

/* The results name the powers that had to order and sent nothing. */
static void missing_orders(const game_view *v, const adjudication *a,
                           dj_buf *out)
{
    dj_power_set none = 0;
    for (int p = 0; p < v->map->npowers; p++)
        if (power_alive(v->map, v->pos, p) &&
            gv_power_must_order(v->map, v->pos, p) && !a->set.has[p])
            none |= DJ_POWER_BIT(p);
    if (!none)
        return;
    dj_buf_append(out, "\nNo orders received from ");
    power_names(v, none, out);
    dj_buf_append(out, ".\n");
}

/* Everyone is told who went into civil disorder, and why. */
static int disorder_notice(dj_judge *j, game_view *v, dj_power_set newly)
{
    dj_buf text, names;
    dj_buf_init(&text);
    dj_buf_init(&names);
    power_names(v, newly, &names);
    bool one = (newly & (newly - 1)) == 0;
    dj_buf_printf(&text,
                  "Civil disorder: %s sent no orders for %s by the deadline "
                  "and %s now in civil disorder.\n"
                  "Until %s again or the game master finds a replacement, "
                  "%s units hold, %s dislodged units disband, %s builds "
                  "are waived and the judge chooses %s removals.\n",
                  names.data, v->phase.name, one ? "is" : "are",
                  one ? "its player orders" : "their players order",
                  one ? "its" : "their", one ? "its" : "their",
                  one ? "its" : "their", one ? "its" : "their");
    int rc = dj_buf_ok(&text) ? gv_notice(j, v, "Civil disorder", text.data)
                              : judge_fail(j, "out of memory");
    dj_buf_free(&text);
    dj_buf_free(&names);
    return rc;
}

/* ---- saving a processed phase -------------------------------------------------- */

/* Statuses after the phase: new civil disorder, eliminations. */
static int update_players(dj_judge *j, game_view *v, const adjudication *a)
{
    for (int p = 0; p < v->map->npowers; p++) {
        dj_participant_rec *pl = gv_player(v, p);
        if (!pl)
            continue;
        const char *status = pl->status;
        if (!power_alive(v->map, &a->res.next, p))
            status = "eliminated";
        else if (a->newly >> p & 1u)
            status = "civil-disorder";
        if (strcmp(status, pl->status) == 0)
            continue;
        snprintf(pl->status, sizeof pl->status, "%s", status);
        if (dj_store_participant_update(j->store, pl) < 0)
            return judge_store_fail(j);
    }
    return 0;
}

static int save_next_phase(dj_judge *j, game_view *v, const dj_position *next,
                           bool over, int64_t deadline)
{
    dj_buf snap;
    dj_buf_init(&snap);
    dj_snapshot_write(v->map, next, &snap);
    if (!dj_buf_ok(&snap)) {
        dj_buf_free(&snap);
        return judge_fail(j, "out of memory");
    }
    dj_phase_rec ph;
    memset(&ph, 0, sizeof ph);
    ph.game_id = v->g.id;
    ph.seq = v->phase.seq + 1;
    dj_phase_format_short(next->phase, ph.name, sizeof ph.name);
    ph.year = next->phase.year;
    ph.season = next->phase.season;
    ph.type = next->phase.type;
    snprintf(ph.status, sizeof ph.status, "%s", over ? "final" : "current");
    ph.position = snap.data;
    ph.opened_at = j->now;
    ph.deadline = over ? 0 : deadline;
    int rc = dj_store_phase_insert(j->store, &ph);
    dj_buf_free(&snap);
    return rc < 0 ? judge_store_fail(j) : 0;
}

int gv_process_phase(dj_judge *j, game_view *v, dj_buf *out)
{
    return gv_process_phase_with(j, v, -1, out);
}

int gv_process_phase_with(dj_judge *j, game_view *v, int engine, dj_buf *out)
{
    if (!v->has_phase || strcmp(v->phase.status, "current") != 0)
        return judge_fail(j, "game '%s' has no phase to process", v->g.name);
    adjudication *a = malloc(sizeof *a);
    if (!a)
        return judge_fail(j, "out of memory");
    dj_position before = *v->pos;
    dj_buf report, detail, disorder, deadline_text, subject;
    dj_buf_init(&report);
    dj_buf_init(&detail);
    dj_buf_init(&disorder);
    dj_buf_init(&deadline_text);
    dj_buf_init(&subject);
    int rc = -1;
    dj_engine use = engine >= 0 ? (dj_engine)engine : dj_game_engine(&v->g);
    char why[256];
    if (dj_engine_check_rules(use, &v->rules, why, sizeof why) < 0) {
        judge_fail(j, "game '%s': %s", v->g.name, why);
        goto done;
    }
    if (adjudicate_view(j, v, use, a) < 0)
        goto done;
    before.civil_disorder = a->disorder;
    if (engine < 0) {
        /* The position as the engines saw it: civil disorder included. */
        rc = gv_verify_phase(j, v, v->pos, a->set.orders, a->set.n, &a->res,
                          out);
        if (rc != 0)
            goto done; /* 1: paused, the master told; -1: an error */
        rc = -1;
    }

    int winner = a->res.winner;
    bool over = winner >= 0;
    char ending[DJ_STORE_TEXT_MAX] = "";
    if (over)
        snprintf(ending, sizeof ending, "Victory of %s.",
                 gv_power_name(v, winner));
    else if (gv_year_limit_reached(v, &a->res.next)) {
        over = true; /* end_year: a draw among the survivors */
        gv_year_limit_ending(v, &a->res.next, ending, sizeof ending);
    }
    int64_t deadline = 0;
    if (!over) {
        /* Absences count from the players' point of view of the new phase. */
        deadline = gv_deadline(j, v, a->res.next.phase.type);
        gv_time(v, deadline, &deadline_text);
    }
    dj_report_info info;
    report_info(j, v, over ? NULL : deadline_text.data, over,
                winner < 0 && over ? ending : NULL, &info);
    if (dj_report_results(v->map, &before, a->set.orders, a->set.n, &a->res,
                          &info, &report) < 0) {
        judge_fail(j, "out of memory");
        goto done;
    }
    size_t results_len = report.len; /* blind copies: their own results */
    result_detail(v, a, &detail);
    power_list(v, a->disorder, &disorder);
    missing_orders(v, a, &report);
    if (gv_excuse(j, v, a->excused, &report) < 0 ||
        (!over && gv_lapse_votes(j, v, &report) < 0))
        goto done;
    if (over) {
        dj_buf_append(&report, "\nThe final position:\n\n");
        dj_report_position(v->map, &a->res.next, &report);
        if (a->res.next.phase.type != DJ_ADJUSTMENT &&
            before.phase.season != DJ_FALL) {
            dj_buf_append(&report, "\n");
            dj_report_centres(v->map, &a->res.next, &report);
        }
    }
    gv_subject(j, v, v->phase.name, "Results", &subject);
    if (!dj_buf_ok(&detail) || !dj_buf_ok(&disorder) || !dj_buf_ok(&subject)) {
        judge_fail(j, "out of memory");
        goto done;
    }

    dj_result_rec r = {v->phase.id, j->now, report.data, detail.data,
                       disorder.data};
    if (dj_store_result_insert(j->store, &r) < 0 ||
        dj_store_phase_set_status(j->store, v->phase.id, "done", 0) < 0) {
        judge_store_fail(j);
        goto done;
    }
    /* the reliability figures: who went into civil disorder, and missed
     * the deadline unless the late notice already counted it */
    for (int p = 0; p < v->map->npowers; p++) {
        const dj_participant_rec *pl = gv_player(v, p);
        if (!(a->newly >> p & 1u) || !pl)
            continue;
        if ((!v->phase.late_at &&
             gv_player_event(j, v, pl->email, "missed") < 0) ||
            gv_player_event(j, v, pl->email, "disorder") < 0)
            goto done;
    }
    if (save_next_phase(j, v, &a->res.next, over, deadline) < 0 ||
        update_players(j, v, a) < 0)
        goto done;
    if (over) {
        snprintf(v->g.state, sizeof v->g.state, "finished");
        snprintf(v->g.ending, sizeof v->g.ending, "%s", ending);
        v->g.finished_at = j->now;
        if (dj_store_game_set_state(j->store, &v->g) < 0) {
            judge_store_fail(j);
            goto done;
        }
        /* the mail (not the stored results) ends with the final table */
        if (gv_final_table(j, v, &a->res.next, winner, ending, &report) < 0)
            goto done;
    }
    if (!over) { /* each copy: the next deadline in its zone, its .ics */
        v->mail_deadline = deadline;
        dj_phase_format_short(a->res.next.phase, v->mail_phase,
                              sizeof v->mail_phase);
    }
    if (v->g.blind && !over)
        rc = gv_mail_results_blind(j, v, subject.data, &before,
                                   a->set.orders, a->set.n, &a->res, &info,
                                   report.data + results_len);
    else
        rc = gv_mail_results(j, v, subject.data, report.data);
    v->mail_deadline = 0;
    if (rc < 0)
        goto done;
    rc = -1;
    if (a->newly && disorder_notice(j, v, a->newly) < 0)
        goto done;
    if (!over && gv_later_orders_open(j, v->g.name) < 0)
        goto done; /* PHASE orders stored for the phase now open */
    if (gv_log(j, v, "process", "%s%s%s", v->phase.name,
               a->newly ? "; civil disorder: " : "",
               a->newly ? disorder.data : "") < 0)
        goto done;

    char next_name[16];
    dj_phase_format_short(a->res.next.phase, next_name, sizeof next_name);
    if (over)
        dj_buf_printf(out, "%s: %s processed; %s\n", v->g.name,
                      v->phase.name, ending);
    else
        dj_buf_printf(out, "%s: %s processed; next %s, deadline %s\n",
                      v->g.name, v->phase.name, next_name,
                      deadline_text.data);
    rc = 0;
done:
    dj_buf_free(&report);
    dj_buf_free(&detail);
    dj_buf_free(&disorder);
    dj_buf_free(&deadline_text);
    dj_buf_free(&subject);
    free(a);
    return rc;
}

/* ---- ending a game without a phase ------------------------------------------- */

int gv_end_game(dj_judge *j, game_view *v, const char *ending)
{
    snprintf(v->g.state, sizeof v->g.state, "finished");
    snprintf(v->g.ending, sizeof v->g.ending, "%s", ending);
    v->g.finished_at = j->now;
    v->g.paused_at = 0;
    if (dj_store_game_set_state(j->store, &v->g) < 0)
        return judge_store_fail(j);
    if (v->has_phase && strcmp(v->phase.status, "current") == 0) {
        if (dj_store_phase_set_status(j->store, v->phase.id, "final", 0) < 0)
            return judge_store_fail(j);
        snprintf(v->phase.status, sizeof v->phase.status, "final");
    }
    dj_buf body, subject;
    dj_buf_init(&body);
    dj_buf_init(&subject);
    dj_report_info info;
    report_info(j, v, NULL, true, ending, &info);
    dj_report_header(v->map, NULL, &info, &body);
    dj_buf_printf(&body, "\n%s\nThe game '%s' is over.\n", ending, v->g.name);
    if (v->has_phase && v->pos) {
        dj_buf_append(&body, "\nThe final position:\n\n");
        dj_report_position(v->map, v->pos, &body);
        dj_buf_append(&body, "\n");
        dj_report_centres(v->map, v->pos, &body);
        if (gv_final_table(j, v, v->pos, -1, ending, &body) < 0) {
            dj_buf_free(&body);
            dj_buf_free(&subject);
            return -1;
        }
    }
    gv_subject(j, v, v->has_phase ? v->phase.name : "-", "Game over",
               &subject);
    int rc = 0;
    if (!dj_buf_ok(&body) || !dj_buf_ok(&subject))
        rc = judge_fail(j, "out of memory");
    else
        rc = gv_mail_all(j, v, v->has_phase ? v->phase.id : 0, "end",
                         subject.data, body.data, DJ_ALL_POWERS, true);
    dj_buf_free(&body);
    dj_buf_free(&subject);
    return rc;
}

/* ---- the master's process and preview ---------------------------------------- */

/* After `process --engine`: a game paused by a disagreement goes on. */
static int resume_after_decision(dj_judge *j, game_view *v, dj_engine engine,
                                 dj_buf *out)
{
    if (gv_log(j, v, "decide", "processed with the %s engine",
               dj_engine_name(engine)) < 0)
        return -1;
    if (strcmp(v->g.state, "paused") != 0)
        return 0;
    snprintf(v->g.state, sizeof v->g.state, "active");
    v->g.paused_at = 0;
    if (dj_store_game_set_state(j->store, &v->g) < 0)
        return judge_store_fail(j);
    dj_buf_printf(out, "%s: resumed\n", v->g.name);
    return 0;
}

int dj_game_process(dj_judge *j, const char *game, dj_buf *out)
{
    return dj_game_process_with(j, game, (dj_engine)-1, out);
}

int dj_game_process_with(dj_judge *j, const char *game, dj_engine engine,
                         dj_buf *out)
{
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    bool decided = (int)engine >= 0;
    if (gv_load(j, game, &v) < 0 || gv_require(j, &v, "active paused") < 0 ||
        gv_process_phase_with(j, &v, decided ? (int)engine : -1, out) < 0 ||
        (decided && resume_after_decision(j, &v, engine, out) < 0) ||
        dj_store_commit(j->store) < 0) {
        if (!j->err[0])
            judge_store_fail(j);
        dj_store_rollback(j->store);
        gv_free(&v);
        return -1;
    }
    gv_free(&v);
    return 0;
}

int dj_game_preview(dj_judge *j, const char *game, dj_buf *out)
{
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    adjudication *a = malloc(sizeof *a);
    int rc = -1;
    if (!a) {
        judge_fail(j, "out of memory");
    } else if (gv_load(j, game, &v) == 0 &&
               gv_require(j, &v, "active paused") == 0) {
        if (strcmp(v.phase.status, "current") != 0) {
            judge_fail(j, "game '%s' has no phase to process", v.g.name);
        } else {
            dj_position before = *v.pos;
            if (adjudicate_view(j, &v, dj_game_engine(&v.g), a) == 0) {
                before.civil_disorder = a->disorder;
                dj_report_info info;
                report_info(j, &v, "(preview: nothing saved)",
                            a->res.winner >= 0, NULL, &info);
                if (dj_report_results(v.map, &before, a->set.orders, a->set.n,
                                      &a->res, &info, out) < 0)
                    judge_fail(j, "out of memory");
                else
                    rc = 0;
            }
        }
    }
    dj_store_rollback(j->store);
    gv_free(&v);
    free(a);
    return rc;
}

/* ---- the clock ----------------------------------------------------------------- */

typedef struct readiness {
    dj_power_set must; /* powers that must order (not in disorder) */
    dj_power_set late; /* of which, orders incomplete */
    dj_power_set idle; /* powers in disorder that would have to order */
    dj_power_set none; /* of `late`, those that sent no orders at all */
    bool all_ready;  /* every one complete and ready, nobody waiting */
} readiness;

static int assess(dj_judge *j, game_view *v, readiness *r)
{
    order_set *set = malloc(sizeof *set);
    if (!set)
        return judge_fail(j, "out of memory");
    if (gv_orders_load(j, v, &v->phase, set) < 0) {
        free(set);
        return -1;
    }
    memset(r, 0, sizeof *r);
    r->all_ready = true;
    int rc = 0;
    for (int p = 0; p < v->map->npowers && rc == 0; p++) {
        int ready = 0, wait = 0;
        if (dj_store_readiness_get(j->store, v->phase.id, p, &ready, &wait) <
            0) {
            rc = judge_store_fail(j);
            break;
        }
        if (wait)
            r->all_ready = false;
        if (!gv_power_must_order(v->map, v->pos, p))
            continue;
        if (gv_in_disorder(v, p)) {
            r->idle |= DJ_POWER_BIT(p);
            continue;
        }
        r->must |= DJ_POWER_BIT(p);
        bool complete = gv_orders_complete(v->map, v->pos, p, set);
        if (!complete)
            r->late |= DJ_POWER_BIT(p);
        if (!set->has[p])
            r->none |= DJ_POWER_BIT(p);
        bool waited = v->g.early_delay >= 0 && set->has[p] &&
                      j->now >= set->last_at[p] + v->g.early_delay * 60;
        if (!complete || !(ready || waited))
            r->all_ready = false;
    }
    free(set);
    return rc;
}

/* Announce, once per phase, who is late. */
static int announce_late(dj_judge *j, game_view *v, dj_power_set late,
                         dj_buf *out)
{
    if (v->phase.late_at)
        return 0;
    if (dj_store_phase_set_late(j->store, v->phase.id, j->now) < 0)
        return judge_store_fail(j);
    v->phase.late_at = j->now;
    /* the reliability figures: a deadline missed by each late player */
    for (int p = 0; p < v->map->npowers; p++) {
        const dj_participant_rec *pl = gv_player(v, p);
        if ((late >> p & 1u) && pl &&
            gv_player_event(j, v, pl->email, "missed") < 0)
            return -1;
    }
    dj_buf names, body, subject, grace;
    dj_buf_init(&names);
    dj_buf_init(&body);
    dj_buf_init(&subject);
    dj_buf_init(&grace);
    power_list(v, late, &names);
    gv_time(v, dj_grace_expiry(&v->sched, v->phase.deadline), &grace);
    dj_report_info info;
    report_info(j, v, NULL, false, NULL, &info);
    dj_phase ph = v->pos->phase;
    dj_buf head, tail;
    dj_buf_init(&head);
    dj_buf_init(&tail);
    dj_report_header(v->map, &ph, &info, &head);
    if (strcmp(v->g.nmr, "cd") == 0)
        dj_buf_printf(&tail,
                      "Unless orders arrive by %s, the phase will be "
                      "processed and a power that sent none will be in "
                      "civil disorder.\n",
                      grace.data);
    else
        dj_buf_printf(&tail,
                      "The game waits for the missing orders or for a "
                      "replacement player.\n");
    dj_buf_printf(&body,
                  "%s\nThe deadline for %s has passed.  Orders are missing "
                  "from: %s.\n%s",
                  head.data, v->phase.name, names.data, tail.data);
    gv_subject(j, v, v->phase.name, "Late notice", &subject);
    /* hide_late = yes: each late power reads only its own name */
    int rc = !dj_buf_ok(&body) || !dj_buf_ok(&subject)
                 ? judge_fail(j, "out of memory")
             : v->g.hide_late
                 ? gv_late_notice_hidden(j, v, late, subject.data, head.data,
                                         tail.data)
                 : gv_mail_all(j, v, v->phase.id, "late", subject.data,
                               body.data, late, false);
    dj_buf_free(&head);
    dj_buf_free(&tail);
    if (rc == 0)
        rc = gv_log(j, v, "late", "%s: %s", v->phase.name, names.data);
    if (rc == 0)
        dj_buf_printf(out, "%s: %s late: %s\n", v->g.name, v->phase.name,
                      names.data);
    dj_buf_free(&names);
    dj_buf_free(&body);
    dj_buf_free(&subject);
    dj_buf_free(&grace);
    return rc;
}

/*
 * The deadline reminder: once per deadline, when it is less than the
 * configuration's `reminder` away, each power still missing orders gets a
 * mail saying so (its player only: the master hears of lateness in the
 * late notice).  Never in the first half of a phase: a phase shorter
 * than the lead time is reminded at half time, not as it opens (the
 * players have just been sent its start).  Moving the deadline re-arms
 * it (phases.reminded_at).
 */
/* Is a reminder at `lead` minutes due now (-1: never)? */
static bool reminder_due(const dj_judge *j, const game_view *v, int lead)
{
    int64_t deadline = v->phase.deadline;
    if (lead < 0)
        return false;
    int64_t due = deadline - (int64_t)lead * 60;
    int64_t half = v->phase.opened_at + (deadline - v->phase.opened_at) / 2;
    return j->now >= (due > half ? due : half);
}

/* The powers whose players set a lead of their own (SET REMINDER) and
 * whose reminder for this deadline is due and not yet sent: those marked
 * sent (participants.reminded_deadline; a moved deadline re-arms them). */
static int own_leads(dj_judge *j, game_view *v, dj_power_set late,
                     dj_power_set *own, dj_power_set *due)
{
    *own = *due = 0;
    for (int p = 0; p < v->map->npowers; p++) {
        dj_participant_rec *pl = gv_player(v, p);
        if (!pl || pl->reminder == DJ_REMINDER_JUDGE)
            continue;
        *own |= DJ_POWER_BIT(p);
        if (!(late >> p & 1u) || pl->reminded_deadline == v->phase.deadline ||
            !reminder_due(j, v, pl->reminder))
            continue;
        *due |= DJ_POWER_BIT(p);
        pl->reminded_deadline = v->phase.deadline;
        if (dj_store_participant_set_options(j->store, pl) < 0)
            return judge_store_fail(j);
    }
    return 0;
}

static int remind(dj_judge *j, game_view *v, dj_power_set late, dj_buf *out)
{
    int64_t deadline = v->phase.deadline;
    if (!late || !deadline || j->now >= deadline)
        return 0;
    dj_power_set own = 0, own_due = 0;
    if (own_leads(j, v, late, &own, &own_due) < 0)
        return -1;
    /* the rest go by the judge's lead, once per deadline */
    int rc = 0;
    if ((late & ~own) && reminder_due(j, v, j->cfg.reminder)) {
        rc = dj_store_phase_claim_reminder(j->store, v->phase.id, j->now);
        if (rc < 0)
            return judge_store_fail(j);
        late = (rc == DJ_STORE_NOTFOUND ? 0 : late & ~own) | own_due;
        rc = 0;
    } else {
        late = own_due;
    }
    if (!late)
        return 0;
    dj_buf body, subject, when, names;
    dj_buf_init(&body);
    dj_buf_init(&subject);
    dj_buf_init(&when);
    dj_buf_init(&names);
    gv_time(v, v->phase.deadline, &when);
    power_list(v, late, &names);
    gv_subject(j, v, v->phase.name, "Reminder", &subject);
    for (int p = 0; p < v->map->npowers && rc == 0; p++) {
        const dj_participant_rec *pl = gv_player(v, p);
        if (!(late >> p & 1u) || !pl || !pl->email[0])
            continue;
        dj_buf_reset(&body);
        dj_report_info info;
        report_info(j, v, when.data, false, NULL, &info);
        dj_report_header(v->map, &v->pos->phase, &info, &body);
        dj_buf_printf(&body,
                      "\nReminder: the deadline for %s is %s, and %s's "
                      "orders are not complete.\n"
                      "Sign on and send them (the reply lists what is "
                      "still missing), or STATUS to see your orders on "
                      "file.\n",
                      v->phase.name, when.data, gv_power_name(v, p));
        gv_own_deadline(v, pl, v->phase.deadline, &body);
        if (!dj_buf_ok(&body) || !dj_buf_ok(&subject))
            rc = judge_fail(j, "out of memory");
        else
            rc = gv_queue_to(j, v, pl, v->phase.id, "reminder", subject.data,
                             body.data, NULL, NULL);
    }
    if (rc == 0)
        rc = gv_log(j, v, "reminder", "%s: %s", v->phase.name, names.data);
    if (rc == 0)
        dj_buf_printf(out, "%s: %s reminder to %s\n", v->g.name,
                      v->phase.name, names.data);
    dj_buf_free(&body);
    dj_buf_free(&subject);
    dj_buf_free(&when);
    dj_buf_free(&names);
    return rc;
}

/* Process for the tick: a phase the engines disagreed on (the game now
 * paused) was not processed. */
static int tick_process(dj_judge *j, game_view *v, dj_buf *out, bool *did)
{
    int rc = gv_process_phase(j, v, out);
    *did = rc == 0;
    return rc < 0 ? -1 : 0;
}

/* Decide and act for one game; *did is set when a phase was processed. */
static int tick_decide(dj_judge *j, game_view *v, dj_buf *out, bool *did)
{
    readiness r;
    if (assess(j, v, &r) < 0)
        return -1;
    /* Early, when everyone who must order is ready — but not when the
     * only powers with something to order are in civil disorder: a game
     * nobody plays any more waits for its deadlines instead of running
     * itself a phase per tick. */
    if (v->g.early && r.all_ready && (r.must || !r.idle))
        return tick_process(j, v, out, did);
    if (remind(j, v, r.late, out) < 0)
        return -1;
    if (!v->phase.deadline || j->now < v->phase.deadline)
        return 0;
    if (!r.late)
        return tick_process(j, v, out, did);
    if (announce_late(j, v, r.late, out) < 0)
        return -1;
    if (j->now < dj_grace_expiry(&v->sched, v->phase.deadline))
        return 0;
    if (strcmp(v->g.nmr, "cd") != 0) {
        /* the game waits for a replacement, unless every late power sent
         * nothing and has an excuse left (excuses = N) */
        dj_power_set excused = 0;
        if (gv_excusable(j, v, r.late & r.none, &excused) < 0)
            return -1;
        if (r.late & ~excused)
            return gv_grace_ended(j, v, r.late & ~excused, out);
    }
    return tick_process(j, v, out, did);
}

static int tick_game(dj_judge *j, const char *name, dj_buf *out,
                     int *processed)
{
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    bool did = false;
    j->err[0] = '\0';
    if (gv_load(j, name, &v) < 0)
        goto fail;
    if (strcmp(v.g.state, "active") == 0 && v.has_phase &&
        strcmp(v.phase.status, "current") == 0 &&
        tick_decide(j, &v, out, &did) < 0)
        goto fail;
    if (dj_store_commit(j->store) < 0)
        goto fail;
    if (did)
        (*processed)++;
    gv_free(&v);
    return 0;
fail:
    if (!j->err[0])
        judge_store_fail(j);
    dj_store_rollback(j->store);
    gv_free(&v);
    return -1;
}

/*
 * The mail log and the outbox's sent (or given-up) mail older than
 * judge.conf's keep_mail go, so the database does not grow forever; the
 * games' history (phases, orders, results, pictures, press) stays.  One
 * transaction, at the end of each tick.
 */
static int prune_mail(dj_judge *j, dj_buf *out)
{
    int64_t keep = j->cfg.mail.keep_mail;
    if (keep <= 0)
        return 0;
    int logs = 0, mails = 0;
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    if (dj_store_prune_mail(j->store, j->now - keep, &logs, &mails) < 0 ||
        dj_store_commit(j->store) < 0) {
        judge_store_fail(j);
        dj_store_rollback(j->store);
        return -1;
    }
    if (logs || mails)
        dj_buf_printf(out, "pruned %d mail log row%s and %d sent mail%s older "
                           "than %lld days\n",
                      logs, logs == 1 ? "" : "s", mails, mails == 1 ? "" : "s",
                      (long long)(keep / 86400));
    return 0;
}

/* The picture cache kept within its bound (picture_cache.c). */
static int prune_pictures(dj_judge *j, dj_buf *out)
{
    int removed;
    int64_t freed;
    if (gv_picture_cache_prune(j, &removed, &freed) < 0)
        return -1;
    if (removed)
        dj_buf_printf(out, "pruned %d picture%s (%lld KB) from the picture "
                           "cache, the least recently used\n",
                      removed, removed == 1 ? "" : "s",
                      (long long)((freed + 1023) / 1024));
    return 0;
}

/*
 * Each due game is processed and committed in its own transaction; a
 * tick running through many games pauses between two of them every
 * TICK_RUN_MS, TICK_PAUSE_MS long, with no transaction open, so that a
 * mail arriving meanwhile (store/db.c tries the lock every millisecond)
 * is read within a game or two instead of after the whole tick.
 */
#define TICK_RUN_MS 20
#define TICK_PAUSE_MS 2

static int64_t tick_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void let_others_in(int64_t *ran_since)
{
    int64_t now = tick_clock_ms();
    if (now - *ran_since < TICK_RUN_MS)
        return;
    struct timespec pause = {0, TICK_PAUSE_MS * 1000000L};
    nanosleep(&pause, NULL);
    *ran_since = tick_clock_ms();
}

int dj_judge_tick(dj_judge *j, dj_buf *out, int *processed)
{
    *processed = 0;
    dj_game_rec *games = NULL;
    int n = 0;
    if (dj_store_game_list(j->store, "active", &games, &n) < 0)
        return judge_store_fail(j);
    int rc = 0;
    char last_err[sizeof j->err] = "";
    int64_t ran_since = tick_clock_ms();
    for (int i = 0; i < n; i++) {
        if (i > 0)
            let_others_in(&ran_since);
        dj_buf part;
        dj_buf_init(&part);
        if (tick_game(j, games[i].name, &part, processed) < 0) {
            rc = -1;
            snprintf(last_err, sizeof last_err, "game '%s': %s",
                     games[i].name, dj_judge_error(j));
            dj_buf_printf(out, "%s: error: %s\n", games[i].name,
                          dj_judge_error(j));
        } else {
            dj_buf_append(out, part.data);
        }
        dj_buf_free(&part);
    }
    free(games);
    if (prune_mail(j, out) < 0 && rc == 0) {
        rc = -1;
        snprintf(last_err, sizeof last_err, "%s", dj_judge_error(j));
    }
    if (prune_pictures(j, out) < 0 && rc == 0) {
        rc = -1;
        snprintf(last_err, sizeof last_err, "%s", dj_judge_error(j));
    }
    if (rc < 0)
        snprintf(j->err, sizeof j->err, "%s", last_err);
    return rc;
}
