/* SPDX-License-Identifier: MIT */
/*
 * verify.c — a second engine checks every movement phase before its
 * results are stored or mailed.
 *
 * Results are final once mailed, so the game's engine (dpjudge by default)
 * does not vouch for itself: the verifying engine (kruijswijk by default,
 * written independently from the DATC's decision equations) adjudicates
 * the same position and orders, and the two outcomes are compared
 * (dj_result_diff: which orders succeed, who is dislodged, where everything
 * stands and may retreat).  Retreat and adjustment phases are the same
 * code for every engine and are not checked twice.
 *
 * When the engines disagree, or the verifier cannot adjudicate at all,
 * nothing of the phase is stored and no player hears of it: the game is
 * paused and its masters and the judge's admin get one mail with both
 * results and the phase as a case for `judgectl check`, to paste into
 * tests/ once the right result is known.  The master then decides with
 * `judgectl process GAME --engine NAME`.
 *
 * The tests reach this path, which no real phase reaches, through
 * dj_judge_set_verifier_hook() (src/cli/test_hooks.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casefile/casewrite.h"
#include "game/game.h"
#include "game/game_int.h"
#include "game/process.h"
#include "game/report.h"
#include "store/mail.h"

dj_engine dj_game_engine(const dj_game_rec *g)
{
    int e = dj_engine_lookup(g->engine);
    return e < 0 ? DJ_ENGINE_DPJUDGE : (dj_engine)e;
}

int dj_game_verifier(const dj_game_rec *g)
{
    if (strcmp(g->verify, "none") == 0)
        return -1;
    int e = dj_engine_lookup(g->verify);
    if (e >= 0)
        return e;
    return dj_game_engine(g) == DJ_ENGINE_DPJUDGE ? DJ_ENGINE_KRUIJSWIJK
                                                  : DJ_ENGINE_DPJUDGE;
}

/* One engine's results, as the players would have read them. */
static void engine_report(const game_view *v, const dj_position *before,
                          const dj_order *orders, int n, const dj_result *res,
                          const char *engine, dj_buf *out)
{
    dj_buf_printf(out, "\n======== Results by the %s engine ========\n",
                  engine);
    dj_report_info info;
    memset(&info, 0, sizeof info);
    info.game = v->g.name;
    info.variant = v->g.map;
    info.deadline = "(not stored, not mailed)";
    if (dj_report_results(v->map, before, orders, n, res, &info, out) < 0)
        dj_buf_append(out, "(out of memory writing this report)\n");
}

/* The phase, as a case in the judgectl check format. */
static void phase_case(const game_view *v, const dj_position *before,
                       const dj_order *orders, int n, const dj_result *res,
                       const char *engine, dj_buf *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        dj_buf_append(out, "(out of memory writing the case)\n");
        return;
    }
    char name[128], comment[256];
    snprintf(name, sizeof name, "%s %s", v->g.name, v->phase.name);
    snprintf(comment, sizeof comment,
             "POSTSTATE: what the %s engine gave; correct it if that is "
             "the wrong one.", engine);
    dj_case_write_variant(f, v->map);
    dj_case_write(f, v->map, name, comment, before, orders, n, &v->rules,
                  res);
    fclose(f);
    dj_buf_append(out, text ? text : "");
    free(text);
}

/* Pause the game and tell its masters and the admin, once. */
static int disagreement(dj_judge *j, game_view *v, const dj_position *before,
                        const dj_order *orders, int n, const dj_result *a,
                        dj_engine ea, const dj_result *b, dj_engine eb,
                        bool b_failed, const char *why, dj_buf *out)
{
    const char *na = dj_engine_name(ea), *nb = dj_engine_name(eb);
    snprintf(v->g.state, sizeof v->g.state, "paused");
    v->g.paused_at = j->now;
    if (dj_store_game_set_state(j->store, &v->g) < 0)
        return judge_store_fail(j);

    dj_buf body, subject;
    dj_buf_init(&body);
    dj_buf_init(&subject);
    dj_buf_printf(&body,
                  "The two adjudicators of game '%s' disagree on %s, so its "
                  "results were\nneither stored nor mailed, and the game is "
                  "paused.  No player has been told.\n\n"
                  "Engine A, the game's: %s.  Engine B, checking it: %s.\n"
                  "Difference: %s.\n\n"
                  "To decide, the game master adjudicates the phase with the "
                  "engine that is\nright (see the DATC and the results "
                  "below); that resumes the game:\n\n"
                  "    judgectl process %s --engine %s\n"
                  "    judgectl process %s --engine %s\n",
                  v->g.name, v->phase.name, na, nb,
                  b_failed ? "engine B could not adjudicate the phase" : why,
                  v->g.name, na, v->g.name, nb);
    engine_report(v, before, orders, n, a, na, &body);
    if (!b_failed)
        engine_report(v, before, orders, n, b, nb, &body);
    dj_buf_printf(&body, "\n======== The phase as a case for judgectl check "
                         "========\n");
    phase_case(v, before, orders, n, a, na, &body);
    gv_subject(j, v, v->phase.name, "Adjudicators disagree: game paused",
               &subject);
    int rc = 0;
    if (!dj_buf_ok(&body) || !dj_buf_ok(&subject))
        rc = judge_fail(j, "out of memory");
    bool admin_is_master = false;
    for (int i = 0; i < v->nparts && rc == 0; i++) {
        const dj_participant_rec *p = &v->parts[i];
        if (strcmp(p->role, "master") != 0 || !p->email[0])
            continue;
        admin_is_master |= strcmp(p->email, j->cfg.mail.admin_address) == 0;
        if (dj_store_outbox_add(j->store, v->g.id, v->phase.id, "verify",
                                p->email, subject.data, body.data,
                                j->now) < 0)
            rc = judge_store_fail(j);
    }
    if (rc == 0 && j->cfg.mail.admin_address[0] && !admin_is_master &&
        dj_store_outbox_add(j->store, v->g.id, v->phase.id, "verify",
                            j->cfg.mail.admin_address, subject.data, body.data,
                            j->now) < 0)
        rc = judge_store_fail(j);
    if (rc == 0)
        rc = gv_log(j, v, "verify", "%s: %s and %s disagree: %s; paused",
                    v->phase.name, na, nb,
                    b_failed ? "the verifier failed" : why);
    if (rc == 0)
        dj_buf_printf(out, "%s: %s NOT processed: the %s and %s engines "
                           "disagree (%s); game paused, master and admin "
                           "mailed\n",
                      v->g.name, v->phase.name, na, nb,
                      b_failed ? "the verifier failed" : why);
    dj_buf_free(&body);
    dj_buf_free(&subject);
    return rc < 0 ? -1 : 1;
}

int gv_verify_phase(dj_judge *j, game_view *v, const dj_position *before,
                 const dj_order *orders, int n, const dj_result *a,
                 dj_buf *out)
{
    int verifier = dj_game_verifier(&v->g);
    if (verifier < 0 || before->phase.type != DJ_MOVEMENT)
        return 0;
    dj_engine ea = dj_game_engine(&v->g), eb = (dj_engine)verifier;
    dj_result *b = malloc(sizeof *b);
    if (!b)
        return judge_fail(j, "out of memory");
    bool failed = dj_adjudicate_with(eb, v->map, before, orders, n, &v->rules,
                                     b) < 0;
    char why[256] = "";
    int rc = 0;
    if (!failed && j->verifier_hook)
        j->verifier_hook(b);
    if (failed || dj_result_diff(v->map, a, b, why, sizeof why) != 0)
        rc = disagreement(j, v, before, orders, n, a, ea, b, eb, failed, why,
                          out);
    free(b);
    return rc;
}
