/* SPDX-License-Identifier: MIT */
/*
 * message.c — running a message's commands and writing the reply.  See
 * command.h for the contract, parse.h for how the text becomes commands,
 * table.c for the commands, dipjudge(7) for the language as players see
 * it.
 *
 * Every command runs in a savepoint: on failure it is rolled back and the
 * reply says why; the next command runs regardless.  A sign-on refused is
 * a failure whose record (the rate limit's count, the game log) must
 * stay, so that savepoint is kept.  After each command the enclosing
 * transaction is checked: when SQLite has dropped it, the message stops
 * and the caller rolls back and retries it later.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command/session.h"
#include "game/forming.h"
#include "game/game.h"
#include "game/orders.h"
#include "game/pictures.h"
#include "game/reading.h"
#include "game/signon.h"
#include "store/mail.h"

/* ---- one command ----------------------------------------------------------------------- */

/* A line that is no command, with nobody to give orders for. */
static int run_text(session *s)
{
    if (!s->signed_on)
        return cmd_session_fail(
            s, "not understood: no such command (and not signed "
               "on, so not read as orders)");
    if (cmd_is_master(s))
        return cmd_session_fail(
            s, "not understood: no such command; to give a power's "
               "orders, BECOME it first");
    return cmd_session_fail(s,
                            "not understood: no such command, and you have no "
                            "power to give orders for");
}

/*
 * SET key value from someone not the master: when key is no game setting
 * at all, "only the game master may do that" would send the player to
 * the master for what nobody may do by mail; say so instead.
 */
static bool setting_nobody_may(session *s, const cmd *c)
{
    char key[64];
    size_t n = strcspn(c->arg, "= \t");
    snprintf(key, sizeof key, "%.*s", (int)(n < sizeof key ? n : 0), c->arg);
    for (char *p = key; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    if (!key[0] || dj_game_setting_known(key))
        return false;
    cmd_session_fail(
        s,
        "there is no setting '%s': nobody may SET it by mail (HELP "
        "lists what you may SET: PASSWORD, ADDRESS, MAP, WAIT, "
        "DRAW, ABSENCE...)",
        key);
    return true;
}

/* The command's row: who may give it, then its runner. */
static int dispatch(session *s, const cmd *c, dj_buf *press, dj_buf *res)
{
    if (c->kind == CMD_TEXT)
        return run_text(s);
    if (c->kind == CMD_BAD)
        return cmd_session_fail(s, "%s", c->error);
    const cmd_spec *spec = cmd_spec_of(c->kind);
    if (!spec)
        return cmd_session_fail(s, "unknown command");
    if (c->kind == CMD_SETTING && !cmd_is_master(s) && setting_nobody_may(s, c))
        return RUN_FAILED;
    if (cmd_may_run(s, spec->who) < 0)
        return RUN_FAILED;
    return spec->run(s, c, press, res);
}

/* ---- the reply's budget --------------------------------------------------------- */

/*
 * A reply has a size budget (judge.conf's limits.max_reply_size, 1 MiB by
 * default).  A command whose output would pass it is cut at a line, with a
 * line saying so; once the reply is full, the message's further commands
 * are not run at all (orders still are: they are what the message is
 * for, and their echo is small), so a short mail of many HISTORY or MAP
 * lines can make neither a huge reply nor long work under the database's
 * write lock.
 */
static bool reply_full(const session *s)
{
    return s->reply->body.len >= cmd_reply_budget(s);
}

/* Cut res so the reply stays within its budget (at a line end). */
static void cut_to_budget(session *s, dj_buf *res)
{
    size_t used = s->reply->body.len, budget = cmd_reply_budget(s);
    /* room for the indented text: each line gains INDENT */
    size_t room = used < budget ? (budget - used) * 3 / 4 : 0;
    if (res->len <= room)
        return;
    size_t keep = room;
    while (keep > 0 && res->data[keep - 1] != '\n')
        keep--;
    res->data[keep] = '\0';
    res->len = keep;
    dj_buf_printf(res, "[cut here: this reply reached its size budget of "
                       "%zu KB; ask for less, e.g. HISTORY game FROM TO]\n",
                  budget / 1024);
}

static void run_command(session *s, const cmd *c, dj_buf *press)
{
    if (reply_full(s) && c->kind != CMD_TEXT) {
        s->over_budget++;
        return;
    }
    cmd_echo(s, c);
    s->err[0] = '\0';
    dj_buf res;
    dj_buf_init(&res);
    int rc = RUN_FAILED;
    if (dj_store_begin(cmd_session_store(s)) < 0) {
        cmd_session_fail(s, "%s", dj_store_error(cmd_session_store(s)));
    } else {
        rc = dispatch(s, c, press, &res);
        if (rc != RUN_FAILED && dj_store_commit(cmd_session_store(s)) < 0)
            rc =
                cmd_session_fail(s, "%s", dj_store_error(cmd_session_store(s)));
        else if (rc == RUN_FAILED)
            dj_store_rollback(cmd_session_store(s));
    }
    if (!dj_buf_ok(&res))
        s->fatal = true;
    cut_to_budget(s, &res);
    cmd_mask_buf(s, &res);
    cmd_indented(s, res.data);
    if (rc != RUN_OK) {
        char why[sizeof s->err];
        snprintf(why, sizeof why, "%s", s->err);
        cmd_mask_in(s, why);
        dj_buf_printf(cmd_say(s), INDENT "ERROR: %s\n", why);
        s->reply->failed++;
        s->cmds_failed++;
    }
    s->reply->commands++;
    s->cmds++;
    dj_buf_free(&res);
    if (!dj_store_transaction_alive(cmd_session_store(s)))
        s->fatal = true;
}

/* ---- the message ---------------------------------------------------------------------------- */

static void final_status(session *s)
{
    if (!s->status_due || !s->power[0] || s->fatal)
        return;
    dj_buf st;
    dj_buf_init(&st);
    dj_buf_append(cmd_say(s), "\n");
    if (dj_game_order_status_full(s->j, s->game, s->power, &st,
                                  &s->all_ordered) == 0)
        dj_buf_append(cmd_say(s), st.data);
    else
        dj_buf_printf(cmd_say(s), "(no orders to show: %s)\n",
                      dj_judge_error(s->j));
    dj_buf_free(&st);
    if (!dj_store_transaction_alive(cmd_session_store(s)))
        s->fatal = true;
}

static void summary(session *s, const cmd_reader *r)
{
    dj_command_reply *rep = s->reply;
    if (r->signed_off && r->skipped)
        dj_buf_printf(cmd_say(s), "\nAfter SIGNOFF, %d line%s not read.\n",
                      r->skipped, r->skipped == 1 ? " was" : "s were");
    else if (r->skipped)
        dj_buf_printf(cmd_say(s),
                      "\nThe message is longer than %d lines: the "
                      "last %d were not read.\n",
                      CMD_MAX_LINES, r->skipped);
    if (s->repeats)
        dj_buf_printf(cmd_say(s),
                      "\n%d command%s asked again: each is answered "
                      "once, above.\n",
                      s->repeats, s->repeats == 1 ? " was" : "s were");
    if (s->over_budget)
        dj_buf_printf(cmd_say(s),
                      "\n%d command%s not run: this reply reached its "
                      "size budget of %zu KB.  Send them again in "
                      "smaller messages, asking for less (HISTORY "
                      "game FROM TO).\n",
                      s->over_budget, s->over_budget == 1 ? " was" : "s were",
                      cmd_reply_budget(s) / 1024);
    dj_buf_append(cmd_say(s), "\n");
    if (s->sections_refused && s->section > 0)
        dj_buf_printf(cmd_say(s),
                      "%d part%s of the message %s skipped: %s "
                      "sign-on was refused (see ERROR above).\n",
                      s->sections_refused, s->sections_refused == 1 ? "" : "s",
                      s->sections_refused == 1 ? "was" : "were",
                      s->sections_refused == 1 ? "its" : "their");
    else if (s->signon_refused && !s->signed_on) {
        dj_buf_append(cmd_say(s),
                      "The sign-on was refused, so nothing after it "
                      "was done.  Check the game's name, the power's "
                      "letter and the password: SIGNON Fgame "
                      "PASSWORD.\n");
        return;
    }
    if (s->not_read.len)
        dj_buf_printf(cmd_say(s),
                      "Not read (looks like text, not orders):\n%s\n",
                      s->not_read.data);
    if (rep->commands == 0) {
        dj_buf_append(cmd_say(s), "The message held no commands.  To give "
                                  "orders, begin with SIGNON Xgame PASSWORD; "
                                  "send HELP for the list of commands.\n");
        return;
    }
    const char *sep = "Summary: ";
    int orders = s->orders_taken + s->orders_refused;
    if (orders) {
        dj_buf_printf(cmd_say(s), "%s%d order%s taken", sep, s->orders_taken,
                      s->orders_taken == 1 ? "" : "s");
        if (s->orders_refused)
            dj_buf_printf(cmd_say(s), ", %d refused (see ERROR above)",
                          s->orders_refused);
        sep = "; ";
    }
    if (s->cmds) {
        dj_buf_printf(cmd_say(s), "%s%d of %d command%s done", sep,
                      s->cmds - s->cmds_failed, s->cmds,
                      s->cmds == 1 ? "" : "s");
        if (s->cmds_failed)
            dj_buf_printf(cmd_say(s),
                          ", %d failed (see ERROR above) and "
                          "changed nothing",
                          s->cmds_failed);
        sep = "; ";
    }
    if (s->all_ordered)
        dj_buf_printf(cmd_say(s), "%sall your units have orders", sep);
    dj_buf_append(cmd_say(s), ".\n");
}

static void reply_subject(session *s)
{
    dj_command_reply *rep = s->reply;
    const dj_config *cfg = dj_judge_config(s->j);
    bool refused = s->signon_refused && !s->any_signed_on;
    const char *what = rep->orders ? "Orders"
                       : refused   ? "Signon failed"
                                   : "Reply";
    char name[64] = "", phase[16] = "";
    if (s->game[0] && !s->fatal && !s->several_games &&
        dj_game_phase(s->j, s->game, name, sizeof name, phase,
                      sizeof phase) == 0)
        snprintf(rep->game, sizeof rep->game, "%s", name);
    else
        name[0] = phase[0] = '\0';
    dj_game_mail_subject(&rep->subject, cfg->judge_name, name, phase, what);
    snprintf(rep->outcome, sizeof rep->outcome, "%s",
             refused            ? "signon-failed"
             : rep->failed      ? "errors"
             : rep->commands    ? "ok"
                                : "empty");
    rep->signed_on = s->any_signed_on;
}

void dj_command_reply_init(dj_command_reply *r)
{
    memset(r, 0, sizeof *r);
    dj_buf_init(&r->subject);
    dj_buf_init(&r->body);
}

void dj_command_reply_free(dj_command_reply *r)
{
    dj_buf_free(&r->subject);
    dj_buf_free(&r->body);
}

/*
 * A line that is no command from someone signed on to a game with no
 * power to order for (a master who has not BECOME one, an observer): is
 * it prose, as the order reader would find it among a player's orders?
 */
static bool prose_of_participant(session *s, const cmd *c)
{
    bool prose = false;
    return c->kind == CMD_TEXT && s->signed_on && s->game[0] &&
           dj_game_line_is_prose(s->j, s->game, c->text, &prose) == 0 &&
           prose;
}

/*
 * Lines answered without running them: a greeting before the first
 * command ("Hi judge,") or a signed-on participant's prose (listed once
 * as not read, like a player's among orders: note_not_read), anything
 * after a refused sign-on (it would only repeat the refusal), and HELP a
 * second time (subject and body).
 */
/* Was this read-only command answered earlier in the message?  (Its key:
 * the kind and the line, case and spacing aside.)  Remembers it if not. */
static bool asked_before(session *s, const cmd *c)
{
    if (!cmd_read_only(c->kind) || c->kind == CMD_HELP)
        return false;
    char key[CMD_LINE_MAX + 16];
    int n = snprintf(key, sizeof key, "\n%d:", (int)c->kind);
    bool space = false;
    for (const char *p = c->echo; *p && n + 2 < (int)sizeof key; p++) {
        if (*p == ' ' || *p == '\t') {
            space = n > 0 && key[n - 1] != ':';
            continue;
        }
        if (space)
            key[n++] = ' ';
        space = false;
        key[n++] = (char)tolower((unsigned char)*p);
    }
    key[n++] = '\n';
    key[n] = '\0';
    if (s->answered.len && strstr(s->answered.data, key))
        return true;
    if (!s->answered.len)
        dj_buf_append(&s->answered, "\n");
    dj_buf_append(&s->answered, key + 1);
    return false;
}

static bool passed_over(session *s, const cmd *c)
{
    const char *why = NULL;
    if (asked_before(s, c)) { /* answered above: not even echoed */
        s->repeats++;
        return true;
    }
    if (c->kind == CMD_TEXT && ((!s->body_started && !s->signon_tried) ||
                                prose_of_participant(s, c))) {
        cmd_note_not_read(s, c->echo);
        return true;
    }
    if (c->kind == CMD_TEXT && s->signon_refused && !s->signed_on)
        why = "(not read: the sign-on was refused)";
    else if (c->kind == CMD_HELP && s->help_given)
        why = "(the help is above)";
    if (!why)
        return false;
    cmd_echo(s, c);
    dj_buf_printf(cmd_say(s), INDENT "%s\n", why);
    return true;
}

/*
 * A subject is a command only when it reads as one completely, and a game
 * it names (but a new one, CREATE's) exists: "map please" is prose.
 */
static bool subject_stands(session *s, const cmd *c)
{
    if (c->kind == CMD_CREATE || !c->game[0])
        return true;
    char name[CMD_GAME_MAX], phase[16];
    return dj_game_phase(s->j, c->game, name, sizeof name, phase,
                         sizeof phase) == 0;
}

/* A message from the web door: signed on already (command.h). */
static void signed_on_before(session *s)
{
    const dj_signon *id = s->msg->signed_on;
    if (!id)
        return;
    s->signed_on = s->signon_tried = true;
    s->id = *id;
    snprintf(s->game, sizeof s->game, "%s", id->game);
    if (strcmp(id->role, "player") == 0 && id->power_name[0]) {
        snprintf(s->power, sizeof s->power, "%s", id->power_name);
        s->status_due = true;
    }
}

/*
 * A mail signed on by its reply token (command.h: dj_identity): signed on
 * before its first line, but a SIGNON line may still come and win
 * (cmd_run_signon drops the token's identity first: drop_token_identity).
 */
static void signed_on_by_token(session *s)
{
    const dj_identity *id = s->msg->identity;
    if (!id || id->how != DJ_BY_TOKEN || s->msg->signed_on)
        return;
    s->signed_on = s->by_token = true;
    s->id = id->who;
    snprintf(s->game, sizeof s->game, "%s", id->who.game);
    if (strcmp(id->who.role, "player") == 0 && id->who.power_name[0]) {
        snprintf(s->power, sizeof s->power, "%s", id->who.power_name);
        s->status_due = true;
    }
}

/*
 * An answer to a press mail (its reply address named the press message):
 * the whole text is press back to that message's sender, in a savepoint
 * of its own like a command, never read as orders.
 */
static void run_press_reply(session *s)
{
    int64_t press_id = s->msg->identity->press_reply;
    dj_buf_printf(cmd_say(s), "Your answer to press message %lld:\n\n",
                  (long long)press_id);
    dj_buf res;
    dj_buf_init(&res);
    int rc = -1;
    if (dj_store_begin(cmd_session_store(s)) == 0) {
        rc = dj_game_press_reply(s->j, &s->id, press_id,
                                 s->msg->body ? s->msg->body : "", &res);
        if (rc == 0 && dj_store_commit(cmd_session_store(s)) < 0)
            rc = -1;
        if (rc < 0)
            dj_store_rollback(cmd_session_store(s));
    }
    s->reply->commands++;
    s->cmds++;
    if (rc == 0) {
        cmd_indented(s, res.data ? res.data : "");
    } else {
        dj_buf_printf(cmd_say(s), INDENT "ERROR: %s\n", dj_judge_error(s->j));
        s->reply->failed++;
        s->cmds_failed++;
    }
    if (!dj_buf_ok(&res) || !dj_store_transaction_alive(cmd_session_store(s)))
        s->fatal = true;
    dj_buf_free(&res);
    s->status_due = false;
}

static void run_message(session *s, cmd *c, dj_buf *press)
{
    signed_on_before(s);
    signed_on_by_token(s);
    if (s->by_token && s->msg->identity->press_reply > 0) {
        dj_buf_printf(cmd_say(s), "Commands from %s:\n\n", s->msg->from);
        run_press_reply(s);
        cmd_reader r;
        cmd_reader_init(&r, NULL, "");
        summary(s, &r);
        return;
    }
    cmd_reader r;
    cmd_reader_init(&r, s->msg->subject, s->msg->body ? s->msg->body : "");
    /* A web message's sender is its client address (the game log keeps
     * it): the page names the signed-in identity instead. */
    if (s->msg->signed_on)
        dj_buf_printf(cmd_say(s), "Commands from the web, signed in as %s:\n\n",
                      s->msg->signed_on->power_name[0]
                          ? s->msg->signed_on->power_name
                          : s->msg->signed_on->role);
    else
        dj_buf_printf(cmd_say(s), "Commands from %s:\n\n", s->msg->from);
    bool from_subject = r.subject_pending;
    while (!s->fatal && cmd_next(&r, c, press)) {
        if (c->line == 0 && !subject_stands(s, c)) {
            from_subject = false;
            continue;
        }
        if (!from_subject && c->kind != CMD_TEXT)
            s->body_started = true;
        from_subject = false;
        if (cmd_block_skipped(s, c)) {
            dj_buf_reset(press); /* a press body in it: not sent */
            continue;
        }
        if (c->kind == CMD_TEXT && s->signed_on && s->power[0]) {
            cmd_batch_add(s, c);
            continue;
        }
        cmd_flush_batch(s);
        if (s->fatal)
            break;
        if (cmd_section_starts(s, c)) {
            final_status(s);
            cmd_section_begin(s);
        }
        if (cmd_section_skipped(s, c) || passed_over(s, c)) {
            dj_buf_reset(press);
            continue;
        }
        s->help_given |= c->kind == CMD_HELP;
        run_command(s, c, press);
        cmd_remember_secret(s, c->password);
        dj_buf_reset(press);
    }
    cmd_flush_batch(s);
    final_status(s);
    cmd_section_end_of_message(s);
    summary(s, &r);
}

int dj_command_execute(dj_judge *j, const dj_command_msg *msg,
                       dj_command_reply *reply)
{
    if (!dj_store_transaction_alive(dj_judge_store(j))) {
        snprintf(reply->error, sizeof reply->error,
                 "no open transaction to run the message in");
        return -1;
    }
    char actor[256];
    snprintf(actor, sizeof actor, "%s", dj_judge_actor(j));
    dj_judge_set_now(j, msg->now);
    dj_judge_set_actor(j, msg->from ? msg->from : "");
    dj_sender_class cls_before = dj_judge_sender_class(j);
    if (msg->identity)
        dj_judge_set_sender_class(j, msg->identity->cls);
    session *s = calloc(1, sizeof *s);
    cmd *c = malloc(sizeof *c);
    dj_buf press;
    dj_buf_init(&press);
    int rc = -1;
    if (s && c && msg->from) {
        s->j = j;
        s->msg = msg;
        s->reply = reply;
        dj_buf_init(&s->not_read);
        dj_buf_init(&s->answered);
        run_message(s, c, &press);
        reply_subject(s);
        cmd_mask_buf(s, &reply->body);
        rc = s->fatal || !dj_buf_ok(&reply->body) ||
                     !dj_buf_ok(&reply->subject) || !dj_buf_ok(&press) ||
                     !dj_buf_ok(&s->not_read)
                 ? -1
                 : 0;
        if (rc < 0)
            snprintf(reply->error, sizeof reply->error, "%s",
                     !dj_store_transaction_alive(dj_judge_store(j))
                         ? "the database dropped the transaction"
                         : "out of memory");
        cmd_batch_free(s);
        dj_buf_free(&s->not_read);
        dj_buf_free(&s->answered);
    } else {
        snprintf(reply->error, sizeof reply->error, "%s",
                 msg->from ? "out of memory" : "no sender address");
    }
    dj_judge_set_actor(j, actor);
    dj_judge_set_sender_class(j, cls_before);
    dj_signon_cache_end_mail(j);
    dj_buf_free(&press);
    free(c);
    free(s);
    return rc;
}

int dj_command_prepare(dj_judge *j, const dj_command_msg *msg,
                       dj_identity *id)
{
    enum { PREPARED_MAX = 4 };
    cmd *c = malloc(sizeof *c);
    dj_buf press;
    dj_buf_init(&press);
    int found = 0;
    if (!c || !msg->from)
        goto out;
    dj_sender_class was = dj_judge_sender_class(j);
    dj_judge_set_sender_class(j, id->cls);
    dj_judge_set_now(j, msg->now);
    cmd_reader r;
    cmd_reader_init(&r, msg->subject, msg->body ? msg->body : "");
    while (found < PREPARED_MAX && cmd_next(&r, c, &press)) {
        dj_buf_reset(&press);
        if (c->kind != CMD_SIGNON)
            continue;
        dj_signon who;
        int rc = dj_game_signon_precheck(j, c->game, c->who, c->password,
                                         msg->from, &who);
        if (rc == 0 && found == 0 && id->how == DJ_BY_NONE) {
            id->how = DJ_BY_PASSWORD;
            id->who = who;
        }
        found++;
    }
    dj_judge_set_sender_class(j, was);
out:
    dj_buf_free(&press);
    free(c);
    return found;
}

int dj_command_queue_reply(dj_judge *j, const dj_command_msg *msg,
                           const dj_command_reply *reply)
{
    dj_store *st = dj_judge_store(j);
    const char *kind =
        strcmp(reply->outcome, "signon-failed") == 0 ? "signon-failed"
                                                     : "reply";
    /* The reply of a signed-on message is that game's mail: it goes out
     * with the participant's reply address (game/reply_token.c). */
    int64_t game_id = 0;
    dj_game_rec g;
    if (reply->signed_on && reply->game[0] &&
        dj_store_game_get(st, reply->game, &g) == 0)
        game_id = g.id;
    return dj_store_outbox_add_pictured(st, game_id, 0, kind, msg->from,
                                        reply->subject.data, reply->body.data,
                                        msg->now, &reply->picture);
}

int dj_command_run(dj_judge *j, const dj_command_msg *msg,
                   const char *message_id, bool queue_reply,
                   dj_command_reply *reply)
{
    dj_store *st = dj_judge_store(j);
    /* SIGNON's passwords checked before the transaction, as by mail */
    if (!dj_store_transaction_alive(st)) {
        dj_identity pre;
        memset(&pre, 0, sizeof pre);
        if (msg->identity)
            pre.cls = msg->identity->cls;
        dj_command_prepare(j, msg, &pre);
    }
    if (dj_store_begin(st) < 0) {
        snprintf(reply->error, sizeof reply->error, "%s",
                 dj_store_error(st));
        return -1;
    }
    int rc = dj_command_execute(j, msg, reply);
    if (rc == 0 && message_id) {
        int dup = dj_store_maillog_add(st, message_id, msg->from, 0,
                                       reply->outcome, msg->now);
        if (dup == DJ_STORE_DUPLICATE) {
            dj_store_rollback(st);
            return 1; /* seen before: nothing of this run remains */
        }
        if (dup < 0)
            rc = -1;
    }
    if (rc == 0 && queue_reply && dj_command_queue_reply(j, msg, reply) < 0)
        rc = -1;
    if (rc == 0 && dj_store_commit(st) < 0)
        rc = -1;
    if (rc < 0) {
        if (!reply->error[0])
            snprintf(reply->error, sizeof reply->error, "%s",
                     dj_store_error(st));
        dj_store_rollback(st);
    }
    return rc;
}
