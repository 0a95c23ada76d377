/*
 * run.c — running a message's commands against the game layer and
 * writing the reply.  See command.h for the contract, parse.h for how the
 * text becomes commands, dipjudge(7) for the language as players see it.
 *
 * Design.  A session carries what one message has established: who
 * signed on (the identity every later command acts as), the power orders
 * are for (the player's own, or the one a master BECAME), the message's
 * one game, the passwords seen (to mask), and the counts for the summary.
 * Order lines are not sent to the game one by one: consecutive order
 * lines are gathered and read together when the next command (or the end)
 * comes, because the order reader decides better with all of a power's
 * orders in view ("not a unit already ordered on another line").
 *
 * Every command runs in a savepoint: on failure it is rolled back and the
 * reply says why; the next command runs regardless.  A sign-on refused is
 * a failure whose record (the rate limit's count, the game log) must
 * stay, so that savepoint is kept.  After each command the enclosing
 * transaction is checked: when SQLite has dropped it, the message stops
 * and the caller rolls back and retries it later.
 *
 * Passwords never reach the reply: echoed lines are masked by the parser,
 * and as a last safety net every password given in the message is masked
 * wherever it appears as a word in the reply, and in press and other text
 * the message sends on.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "command/command.h"
#include "command/parse.h"
#include "store/mail.h"

#define MAX_SECRETS 8
#define MAX_BATCH 512            /* order lines read together, at most */
#define INDENT "    "

typedef struct batch_line {
    int line;
    char *text;  /* as written, for the order reader */
    char *echo;  /* as shown */
} batch_line;

typedef struct session {
    dj_judge *j;
    const dj_command_msg *msg;
    dj_command_reply *reply;
    bool signed_on, signon_tried, signon_refused;
    bool help_given;              /* HELP answered once per message */
    bool body_started;            /* a command of the body has run */
    dj_signon id;
    char power[CMD_WORD_MAX];     /* orders are for this power, if any */
    char game[CMD_GAME_MAX];      /* the message's game, once fixed */
    batch_line batch[MAX_BATCH];
    int nbatch;
    bool status_due;              /* end the reply with the power's status */
    char secrets[MAX_SECRETS][CMD_WORD_MAX];
    int nsecrets;
    char err[512];                /* why the current command failed */
    bool fatal;
    int over_budget;              /* commands not run: the reply is full */
} session;

enum { RUN_OK = 0, RUN_FAILED = -1, RUN_REFUSED_KEEP = 1 };

static int fail(session *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail(session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    return RUN_FAILED;
}

/* A game-layer call's result: its error becomes the command's. */
static int game_rc(session *s, int rc)
{
    if (rc < 0)
        return fail(s, "%s", dj_judge_error(s->j));
    return RUN_OK;
}

static dj_store *store(session *s)
{
    return dj_judge_store(s->j);
}

/* ---- passwords -------------------------------------------------------------- */

static void remember_secret(session *s, const char *password)
{
    if (!*password || strlen(password) < 3)
        return; /* masking "ab" as a word would mangle ordinary text */
    for (int i = 0; i < s->nsecrets; i++)
        if (strcmp(s->secrets[i], password) == 0)
            return;
    if (s->nsecrets < MAX_SECRETS)
        snprintf(s->secrets[s->nsecrets++], CMD_WORD_MAX, "%s", password);
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || (unsigned char)c >= 0x80;
}

/* Replace every whole-word occurrence of a secret in text (in place). */
static void mask_in(const session *s, char *text)
{
    for (int i = 0; i < s->nsecrets; i++) {
        const char *secret = s->secrets[i];
        size_t n = strlen(secret);
        for (char *p = strstr(text, secret); p; p = strstr(p, secret)) {
            bool starts = p == text || !word_char(p[-1]);
            bool ends = !word_char(p[n]);
            if (!starts || !ends) {
                p++;
                continue;
            }
            /* "****" is never longer than a secret of 4+ bytes; for a
             * 3-byte one, "***" keeps the length. */
            size_t m = n < 4 ? n : 4;
            memset(p, '*', m);
            memmove(p + m, p + n, strlen(p + n) + 1);
            p += m;
        }
    }
}

static void mask_buf(const session *s, dj_buf *b)
{
    mask_in(s, b->data);
    b->len = strlen(b->data);
}

/* ---- the reply ------------------------------------------------------------------ */

static dj_buf *out(session *s)
{
    return &s->reply->body;
}

static void echo(session *s, const cmd *c)
{
    char shown[CMD_LINE_MAX];
    snprintf(shown, sizeof shown, "%s", c->echo);
    mask_in(s, shown);
    dj_buf_printf(out(s), "> %s%s\n", shown,
                  c->cut ? " [line cut: too long]" : "");
}

/* Append text with every line indented (empty lines stay empty). */
static void indented(session *s, const char *text)
{
    for (const char *l = text; *l;) {
        size_t n = strcspn(l, "\n");
        dj_buf_printf(out(s), "%s%.*s\n", n ? INDENT : "", (int)n, l);
        l += n + (l[n] == '\n');
    }
}

/* ---- who may do what --------------------------------------------------------------- */

static bool same_game(const char *a, const char *b)
{
    return strcasecmp(a, b) == 0;
}

/* The message acts on one game: refuse another. */
static int check_game(session *s, const char *game)
{
    if (s->game[0] && !same_game(s->game, game))
        return fail(s, "this message is about game '%s'; send another "
                       "message for game '%s'",
                    s->game, game);
    return RUN_OK;
}

static int need_signon(session *s)
{
    if (!s->signed_on)
        return fail(s, "%s", s->signon_refused
                                 ? "not signed on: the sign-on was refused"
                                 : "SIGNON first (SIGNON Fgame PASSWORD)");
    return RUN_OK;
}

static int need_master(session *s)
{
    if (need_signon(s) < 0)
        return RUN_FAILED;
    if (strcmp(s->id.role, "master") != 0)
        return fail(s, "only the game master may do that");
    return RUN_OK;
}

static bool is_master(const session *s)
{
    return s->signed_on && strcmp(s->id.role, "master") == 0;
}

/* The power the command acts for: the player's own or the BECOME one. */
static int need_power(session *s)
{
    if (need_signon(s) < 0)
        return RUN_FAILED;
    if (s->power[0])
        return RUN_OK;
    if (is_master(s))
        return fail(s, "BECOME a power first: the master acts for a power "
                       "only after BECOME POWER");
    if (strcmp(s->id.role, "observer") == 0)
        return fail(s, "observers have no power to act for");
    return fail(s, "you have no power in game '%s'", s->id.game);
}

static int check_new_password(session *s, const char *password)
{
    if (strlen(password) < DJ_PASSWORD_MIN)
        return fail(s, "a password needs at least %d characters",
                    DJ_PASSWORD_MIN);
    return RUN_OK;
}

/* ---- orders ------------------------------------------------------------------------ */

static void batch_free(session *s)
{
    for (int i = 0; i < s->nbatch; i++) {
        free(s->batch[i].text);
        free(s->batch[i].echo);
    }
    s->nbatch = 0;
}

static void echo_reading(session *s, const dj_reading *r)
{
    dj_buf *o = out(s);
    switch (r->kind) {
    case DJ_READ_OK:
        dj_buf_printf(o, INDENT "%s", r->text);
        if (r->message[0])
            dj_buf_printf(o, "  (%s)", r->message);
        dj_buf_append(o, "\n");
        break;
    case DJ_READ_ERROR:
        dj_buf_printf(o, INDENT "ERROR: %s; not accepted\n", r->message);
        break;
    case DJ_READ_AMBIGUOUS:
        dj_buf_printf(o, INDENT "AMBIGUOUS: %s; not accepted (could be: ",
                      r->message);
        for (int k = 0; k < r->ncandidates; k++)
            dj_buf_printf(o, "%s%s", k ? " | " : "", r->candidates[k]);
        dj_buf_append(o, ")\n");
        break;
    }
}

/* Echo the batch's lines, each followed by what was read from it (the
 * readings' line is the message's line number - 1, see flush_batch). */
static void echo_batch(session *s, const dj_reading *reads, int n)
{
    int k = 0;
    for (int i = 0; i < s->nbatch; i++) {
        while (k < n && reads[k].line < s->batch[i].line - 1)
            k++; /* cannot happen: every reading comes from a batch line */
        char shown[CMD_LINE_MAX];
        snprintf(shown, sizeof shown, "%s", s->batch[i].echo);
        mask_in(s, shown);
        dj_buf_printf(out(s), "> %s\n", shown);
        bool any = false;
        for (; k < n && reads[k].line == s->batch[i].line - 1; k++) {
            echo_reading(s, &reads[k]);
            any = true;
            s->reply->commands++;
            if (reads[k].kind != DJ_READ_OK)
                s->reply->failed++;
        }
        if (!any)
            dj_buf_append(out(s), INDENT "(no order found on this line)\n");
    }
}

/*
 * Read and file the gathered order lines.  They go to the reader at the
 * index of their line in the message (every other line empty, which the
 * reader skips), so that what it says about "lines 3 and 5" means the
 * lines of the message as the player wrote it.
 */
static void flush_batch(session *s)
{
    if (s->nbatch == 0 || s->fatal)
        return;
    int nlines = s->batch[s->nbatch - 1].line;
    const char **lines = malloc(sizeof *lines * (size_t)(nlines + 1));
    dj_reading *reads = malloc(sizeof *reads * DJ_READ_MAX_ORDERS);
    int n = 0;
    if (!reads || !lines) {
        s->fatal = true;
        free(lines);
        free(reads);
        batch_free(s);
        return;
    }
    for (int i = 0; i < nlines; i++)
        lines[i] = "";
    for (int i = 0; i < s->nbatch; i++)
        lines[s->batch[i].line - 1] = s->batch[i].text;
    int rc = dj_game_submit_orders(s->j, s->game, s->power, lines, nlines,
                                   is_master(s) ? "master" : "mail", reads,
                                   DJ_READ_MAX_ORDERS, &n);
    free(lines);
    if (n > DJ_READ_MAX_ORDERS)
        n = DJ_READ_MAX_ORDERS;
    if (rc < 0) {
        for (int i = 0; i < s->nbatch; i++) {
            mask_in(s, s->batch[i].echo);
            dj_buf_printf(out(s), "> %s\n", s->batch[i].echo);
        }
        dj_buf_printf(out(s), INDENT "ERROR: %s; these lines were not read "
                                     "as orders\n",
                      dj_judge_error(s->j));
        s->reply->failed += s->nbatch;
        s->reply->commands += s->nbatch;
    } else {
        echo_batch(s, reads, n);
        s->reply->orders = true;
    }
    s->status_due = true;
    free(reads);
    batch_free(s);
    if (!dj_store_transaction_alive(store(s)))
        s->fatal = true;
}

static void batch_add(session *s, const cmd *c)
{
    if (s->nbatch == MAX_BATCH)
        flush_batch(s);
    batch_line *b = &s->batch[s->nbatch];
    b->line = c->line;
    b->text = strdup(c->text);
    b->echo = strdup(c->echo);
    if (!b->text || !b->echo) {
        free(b->text);
        free(b->echo);
        s->fatal = true;
        return;
    }
    s->nbatch++;
}

/* ---- commands anyone may give ---------------------------------------------------------- */

/* TAKEOVER power@game password: a volunteer for a power in disorder. */
static int run_takeover(session *s, const cmd *c, dj_buf *res)
{
    if (check_game(s, c->game) < 0 || check_new_password(s, c->password) < 0)
        return RUN_FAILED;
    if (dj_game_takeover(s->j, c->game, c->who, s->msg->from, c->password,
                         res) < 0)
        return game_rc(s, -1);
    snprintf(s->game, sizeof s->game, "%s", c->game);
    return RUN_OK;
}

/*
 * MAP and HISTORY draw large replies (a picture, a game's whole history)
 * from a short mail: they answer only a participant of the game who has
 * signed on, so a forged From: line cannot aim them at anyone.
 */
static int need_member(session *s, const char *game, const char *what)
{
    if (s->signed_on && same_game(s->id.game, game))
        return RUN_OK;
    return fail(s, "%s answers only the players, observers and master of "
                   "game '%s', signed on: SIGNON first",
                what, game);
}

static int run_history(session *s, const cmd *c, dj_buf *res)
{
    if (check_game(s, c->game) < 0 || need_member(s, c->game, "HISTORY") < 0)
        return RUN_FAILED;
    return game_rc(s, dj_game_history(s->j, c->game,
                                      c->arg[0] ? c->arg : NULL,
                                      c->arg2[0] ? c->arg2 : NULL, res));
}

/* MAP [GAME] [PHASE]: the picture, attached to the reply (one a message). */
static int run_map(session *s, const cmd *c, dj_buf *res)
{
    const char *game = c->game[0] ? c->game : s->game[0] ? s->game : NULL;
    if (!game)
        return fail(s, "MAP needs the game (MAP demo), or SIGNON first");
    if (check_game(s, game) < 0 || need_member(s, game, "MAP") < 0)
        return RUN_FAILED;
    if (s->reply->picture_id)
        return fail(s, "one map a message: send another message for "
                       "another map");
    return game_rc(s, dj_game_map_for_mail(s->j, game,
                                           c->arg[0] ? c->arg : NULL,
                                           &s->id,
                                           &s->reply->picture_id, res));
}

static int run_list(session *s, const cmd *c, dj_buf *res)
{
    if (!c->game[0])
        return game_rc(s, dj_game_list(s->j, res));
    return game_rc(s, dj_game_show_public(s->j, c->game, res));
}

static int run_join(session *s, const cmd *c, dj_buf *res)
{
    if (check_game(s, c->game) < 0 || check_new_password(s, c->password) < 0)
        return RUN_FAILED;
    /* Not yet: the address must show it receives mail (CONFIRM). */
    if (dj_game_request_confirmation(s->j,
                                     c->kind == CMD_OBSERVE ? "observe"
                                                            : "join",
                                     c->game, c->who[0] ? c->who : NULL,
                                     s->msg->from, c->password, NULL,
                                     res) < 0)
        return game_rc(s, -1);
    snprintf(s->game, sizeof s->game, "%s", c->game);
    return RUN_OK;
}

/* CONFIRM code: a JOIN, OBSERVE or CREATE of this address happens now. */
static int run_confirm(session *s, const cmd *c, dj_buf *res)
{
    dj_confirmed done;
    if (dj_game_confirm(s->j, s->msg->from, c->arg, &done, res) < 0)
        return game_rc(s, -1);
    if (check_game(s, done.game) < 0)
        return RUN_FAILED;
    snprintf(s->game, sizeof s->game, "%s", done.game);
    if (strcmp(done.action, "create") == 0)
        return RUN_OK;
    return game_rc(s, dj_game_notify_masters(s->j, done.game,
                                             strcmp(done.action, "observe") == 0
                                                 ? "New observer"
                                                 : "New player",
                                             res->data));
}

/* CREATE GAME PASSWORD [KEY=VALUE...]: the sender becomes the master. */
static int run_create(session *s, const cmd *c, dj_buf *res)
{
    if (!dj_judge_config(s->j)->allow_create)
        return fail(s, "this judge does not create games by mail; ask its "
                       "administrator");
    if (check_game(s, c->game) < 0 || check_new_password(s, c->password) < 0)
        return RUN_FAILED;
    if (dj_game_request_confirmation(s->j, "create", c->game, NULL,
                                     s->msg->from, c->password, c->arg,
                                     res) < 0)
        return game_rc(s, -1);
    snprintf(s->game, sizeof s->game, "%s", c->game);
    return RUN_OK;
}

static int run_signon(session *s, const cmd *c, dj_buf *res)
{
    if (s->signon_tried)
        return fail(s, "one sign-on per message: send another message to "
                       "sign on again");
    if (check_game(s, c->game) < 0)
        return RUN_FAILED;
    s->signon_tried = true;
    int rc = dj_game_signon(s->j, c->game, c->who, c->password,
                            s->msg->from, &s->id);
    if (rc < 0)
        return game_rc(s, -1);
    if (rc == DJ_SIGNON_REFUSED) {
        s->signon_refused = true;
        fail(s, "%s", dj_judge_error(s->j));
        return RUN_REFUSED_KEEP;
    }
    s->signed_on = true;
    snprintf(s->game, sizeof s->game, "%s", s->id.game);
    if (strcmp(s->id.role, "player") == 0) {
        snprintf(s->power, sizeof s->power, "%s", s->id.power_name);
        s->status_due = s->power[0] != '\0';
        dj_buf_printf(res, "Signed on as %s in game '%s'.\n", s->power,
                      s->id.game);
    } else {
        dj_buf_printf(res, "Signed on as %s of game '%s'.\n",
                      strcmp(s->id.role, "master") == 0 ? "the master"
                                                         : "an observer",
                      s->id.game);
    }
    if (s->id.short_password)
        dj_buf_printf(res, "Your password is shorter than %d characters: "
                      "please choose a longer one with SET PASSWORD.\n",
                      DJ_PASSWORD_MIN);
    return RUN_OK;
}

/* ---- a player's commands ------------------------------------------------------------------ */

static int run_flag(session *s, const char *flag, dj_buf *res)
{
    if (need_power(s) < 0)
        return RUN_FAILED;
    return game_rc(s, dj_game_flag(s->j, s->game, s->power, flag, res));
}

static int run_vote(session *s, const char *vote, dj_buf *res)
{
    if (need_power(s) < 0)
        return RUN_FAILED;
    return game_rc(s, dj_game_vote(s->j, s->game, s->power, vote, res));
}

static int run_status(session *s, dj_buf *res)
{
    if (need_signon(s) < 0)
        return RUN_FAILED;
    if (s->power[0]) {
        s->status_due = true;
        dj_buf_append(res, "(the status of your orders ends this reply)\n");
        return RUN_OK;
    }
    if (is_master(s))
        return game_rc(s, dj_game_show(s->j, s->game, res));
    return game_rc(s, dj_game_show_public(s->j, s->game, res));
}

static int run_address(session *s, const cmd *c, dj_buf *res)
{
    if (need_signon(s) < 0)
        return RUN_FAILED;
    if (dj_game_set_address(s->j, &s->id, c->arg, res) < 0)
        return game_rc(s, -1);
    if (is_master(s))
        return RUN_OK;
    char text[CMD_LINE_MAX + 128];
    snprintf(text, sizeof text, "%s (%s) changed address: %s",
             s->power[0] ? s->power : s->id.role, s->msg->from, res->data);
    return game_rc(s, dj_game_notify_masters(s->j, s->game, "Address "
                                                            "changed",
                                             text));
}

static int run_absence(session *s, const cmd *c, dj_buf *res)
{
    if (need_power(s) < 0)
        return RUN_FAILED;
    if (c->kind == CMD_NOABSENCE)
        return game_rc(s, dj_game_absence(s->j, s->game, s->power, "clear",
                                          NULL, res));
    return game_rc(s, dj_game_absence(s->j, s->game, s->power, c->arg,
                                      c->arg2[0] ? c->arg2 : NULL, res));
}

static int run_press(session *s, const cmd *c, dj_buf *body, dj_buf *res)
{
    if (need_signon(s) < 0)
        return RUN_FAILED;
    mask_buf(s, body);
    dj_press_request req;
    req.to = c->has_to ? c->to : NULL;
    req.fake = c->fake;
    req.fake_to = c->fake_has_to ? c->fake_to : NULL;
    req.fake_from = c->fake_from[0] ? c->fake_from : NULL;
    req.grey = c->grey;
    req.body = body->data;
    if (dj_game_press(s->j, &s->id, &req, res) < 0)
        return game_rc(s, -1);
    dj_buf_printf(res, "(%d line%s%s)\n", c->press_lines,
                  c->press_lines == 1 ? "" : "s",
                  c->press_ended ? ""
                                 : "; ended by the end of the message: end "
                                   "press with ENDPRESS");
    return RUN_OK;
}

static int run_resign(session *s, dj_buf *res)
{
    if (need_signon(s) < 0)
        return RUN_FAILED;
    if (dj_game_resign(s->j, &s->id, res) < 0)
        return game_rc(s, -1);
    s->power[0] = '\0';
    s->status_due = false;
    return game_rc(s, dj_game_notify_masters(s->j, s->game, "Resigned",
                                             res->data));
}

/* ---- the master's commands ----------------------------------------------------------------- */

static int run_become(session *s, const cmd *c, dj_buf *res)
{
    if (need_master(s) < 0)
        return RUN_FAILED;
    /* The status both checks the power and shows the master its orders. */
    if (dj_game_order_status(s->j, s->game, c->who, res) < 0)
        return game_rc(s, -1);
    snprintf(s->power, sizeof s->power, "%s", c->who);
    return RUN_OK;
}

/* Keys are lower case; values too, except those that are names or
 * times ("zone=Europe/Paris", "deadline=2027-01-09 20:00"). */
static void normalise_setting(char *kv)
{
    char *eq = strchr(kv, '=');
    for (char *p = kv; *p && p != eq; p++)
        *p = (char)tolower((unsigned char)*p);
    if (!eq || strncmp(kv, "zone=", 5) == 0)
        return;
    for (char *p = eq + 1; *p; p++)
        *p = (char)tolower((unsigned char)*p);
}

static int run_setting(session *s, const cmd *c, dj_buf *res)
{
    if (need_master(s) < 0)
        return RUN_FAILED;
    char kv[CMD_LINE_MAX];
    snprintf(kv, sizeof kv, "%s", c->arg);
    normalise_setting(kv);
    const char *one[1] = {kv};
    return game_rc(s, dj_game_set(s->j, s->game, one, 1, res));
}

typedef int (*game_action)(dj_judge *j, const char *game, dj_buf *out);

static int run_master(session *s, game_action fn, dj_buf *res)
{
    if (need_master(s) < 0)
        return RUN_FAILED;
    return game_rc(s, fn(s->j, s->game, res));
}

static int run_master_cmd(session *s, const cmd *c, dj_buf *res)
{
    if (need_master(s) < 0)
        return RUN_FAILED;
    switch (c->kind) {
    case CMD_ROLLBACK:
        return game_rc(s, dj_game_rollback(s->j, s->game,
                                           c->arg[0] ? c->arg : NULL, res));
    case CMD_START:
        return game_rc(s, dj_game_start(s->j, s->game, true, res));
    case CMD_EJECT:
        return game_rc(s, dj_game_eject(s->j, s->game, c->who, res));
    case CMD_REPLACE:
        return game_rc(s, dj_game_replace(s->j, s->game, c->who, c->arg,
                                          NULL, NULL, res));
    case CMD_TERMINATE: {
        char reason[CMD_LINE_MAX];
        snprintf(reason, sizeof reason, "%s", c->arg);
        mask_in(s, reason);
        return game_rc(s, dj_game_terminate(s->j, s->game, reason, res));
    }
    default:
        return fail(s, "not a master's command");
    }
}

/* ---- dispatch ----------------------------------------------------------------------------- */

/* A line that is no command, with nobody to give orders for. */
static int run_text(session *s)
{
    if (!s->signed_on)
        return fail(s, "not understood: no such command (and not signed "
                       "on, so not read as orders)");
    if (is_master(s))
        return fail(s, "not understood: no such command; to give a power's "
                       "orders, BECOME it first");
    return fail(s, "not understood: no such command, and you have no "
                   "power to give orders for");
}

static int dispatch(session *s, const cmd *c, dj_buf *press, dj_buf *res)
{
    switch (c->kind) {
    case CMD_TEXT: return run_text(s);
    case CMD_BAD: return fail(s, "%s", c->error);
    case CMD_HELP: dj_command_help(res); return RUN_OK;
    case CMD_LIST: return run_list(s, c, res);
    case CMD_HISTORY: return run_history(s, c, res);
    case CMD_SUMMARY: return game_rc(s, dj_game_summary(s->j, c->game, res));
    case CMD_MAP: return run_map(s, c, res);
    case CMD_TAKEOVER: return run_takeover(s, c, res);
    case CMD_CONFIRM: return run_confirm(s, c, res);
    case CMD_MAPFORMAT:
        if (need_signon(s) < 0)
            return RUN_FAILED;
        return game_rc(s, dj_game_set_map_format(s->j, &s->id, c->arg, res));
    case CMD_JOIN:
    case CMD_OBSERVE: return run_join(s, c, res);
    case CMD_CREATE: return run_create(s, c, res);
    case CMD_SIGNON: return run_signon(s, c, res);
    case CMD_SIGNOFF:
        dj_buf_append(res, "Signed off: nothing after this line is read.\n");
        return RUN_OK;
    case CMD_CLEAR:
        if (need_power(s) < 0)
            return RUN_FAILED;
        s->status_due = true;
        return game_rc(s, dj_game_clear_orders(s->j, s->game, s->power,
                                               is_master(s) ? "master"
                                                            : "mail",
                                               res));
    case CMD_STATUS: return run_status(s, res);
    case CMD_READY: return run_flag(s, "ready", res);
    case CMD_NOT_READY: return run_flag(s, "not-ready", res);
    case CMD_WAIT: return run_flag(s, "wait", res);
    case CMD_NOWAIT: return run_flag(s, "no-wait", res);
    case CMD_PASSWORD:
        if (need_signon(s) < 0 || check_new_password(s, c->password) < 0)
            return RUN_FAILED;
        if (is_master(s) && s->power[0]) /* after BECOME: that power's */
            return game_rc(s, dj_game_set_power_password(
                                  s->j, s->game, s->power, c->password, res));
        return game_rc(s, dj_game_set_password(s->j, &s->id, c->password,
                                               res));
    case CMD_ADDRESS: return run_address(s, c, res);
    case CMD_ABSENCE:
    case CMD_NOABSENCE: return run_absence(s, c, res);
    case CMD_DRAW: {
        char vote[CMD_LINE_MAX + 8];
        snprintf(vote, sizeof vote, "draw%s%s", c->arg[0] ? " " : "", c->arg);
        return run_vote(s, vote, res);
    }
    case CMD_NODRAW:
    case CMD_NOCONCEDE: return run_vote(s, "none", res);
    case CMD_CONCEDE: {
        char vote[CMD_WORD_MAX + 16];
        snprintf(vote, sizeof vote, "concede %s", c->who);
        return run_vote(s, vote, res);
    }
    case CMD_PRESS: return run_press(s, c, press, res);
    case CMD_ENDPRESS: return fail(s, "ENDPRESS without a PRESS before it");
    case CMD_RESIGN: return run_resign(s, res);
    case CMD_PROCESS: return run_master(s, dj_game_process, res);
    case CMD_PREVIEW: return run_master(s, dj_game_preview, res);
    case CMD_ROLLFORWARD: return run_master(s, dj_game_rollforward, res);
    case CMD_PAUSE: return run_master(s, dj_game_pause, res);
    case CMD_RESUME: return run_master(s, dj_game_resume, res);
    case CMD_ROLLBACK:
    case CMD_START:
    case CMD_EJECT:
    case CMD_REPLACE:
    case CMD_TERMINATE: return run_master_cmd(s, c, res);
    case CMD_BECOME: return run_become(s, c, res);
    case CMD_SETTING: return run_setting(s, c, res);
    case CMD_KIND_COUNT: break;
    }
    return fail(s, "unknown command");
}

/* One command in a savepoint; its outcome into the reply. */
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
static size_t reply_budget(const session *s)
{
    const dj_config *cfg = dj_judge_config(s->j);
    int n = cfg ? cfg->mail.max_reply_size : 0;
    return n > 0 ? (size_t)n : (size_t)1 << 20;
}

static bool reply_full(const session *s)
{
    return s->reply->body.len >= reply_budget(s);
}

/* Cut res so the reply stays within its budget (at a line end). */
static void cut_to_budget(session *s, dj_buf *res)
{
    size_t used = s->reply->body.len, budget = reply_budget(s);
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
    echo(s, c);
    s->err[0] = '\0';
    dj_buf res;
    dj_buf_init(&res);
    int rc = RUN_FAILED;
    if (dj_store_begin(store(s)) < 0) {
        fail(s, "%s", dj_store_error(store(s)));
    } else {
        rc = dispatch(s, c, press, &res);
        if (rc != RUN_FAILED && dj_store_commit(store(s)) < 0)
            rc = fail(s, "%s", dj_store_error(store(s)));
        else if (rc == RUN_FAILED)
            dj_store_rollback(store(s));
    }
    if (!dj_buf_ok(&res))
        s->fatal = true;
    cut_to_budget(s, &res);
    mask_buf(s, &res);
    indented(s, res.data);
    if (rc != RUN_OK) {
        char why[sizeof s->err];
        snprintf(why, sizeof why, "%s", s->err);
        mask_in(s, why);
        dj_buf_printf(out(s), INDENT "ERROR: %s\n", why);
        s->reply->failed++;
    }
    s->reply->commands++;
    dj_buf_free(&res);
    if (!dj_store_transaction_alive(store(s)))
        s->fatal = true;
}

/* ---- the message ---------------------------------------------------------------------------- */

static void final_status(session *s)
{
    if (!s->status_due || !s->power[0] || s->fatal)
        return;
    dj_buf st;
    dj_buf_init(&st);
    dj_buf_append(out(s), "\n");
    if (dj_game_order_status(s->j, s->game, s->power, &st) == 0)
        dj_buf_append(out(s), st.data);
    else
        dj_buf_printf(out(s), "(no orders to show: %s)\n",
                      dj_judge_error(s->j));
    dj_buf_free(&st);
    if (!dj_store_transaction_alive(store(s)))
        s->fatal = true;
}

static void summary(session *s, const cmd_reader *r)
{
    dj_command_reply *rep = s->reply;
    if (r->signed_off && r->skipped)
        dj_buf_printf(out(s), "\nAfter SIGNOFF, %d line%s not read.\n",
                      r->skipped, r->skipped == 1 ? " was" : "s were");
    else if (r->skipped)
        dj_buf_printf(out(s), "\nThe message is longer than %d lines: the "
                              "last %d were not read.\n",
                      CMD_MAX_LINES, r->skipped);
    if (s->over_budget)
        dj_buf_printf(out(s), "\n%d command%s not run: this reply reached its "
                              "size budget of %zu KB.  Send them again in "
                              "smaller messages, asking for less (HISTORY "
                              "game FROM TO).\n",
                      s->over_budget, s->over_budget == 1 ? " was" : "s were",
                      reply_budget(s) / 1024);
    dj_buf_append(out(s), "\n");
    if (s->signon_refused && !s->signed_on) {
        dj_buf_append(out(s), "The sign-on was refused, so nothing after it "
                              "was done.  Check the game's name, the power's "
                              "letter and the password: SIGNON Fgame "
                              "PASSWORD.\n");
        return;
    }
    if (rep->commands == 0) {
        dj_buf_append(out(s), "The message held no commands.  To give "
                              "orders, begin with SIGNON Xgame PASSWORD; "
                              "send HELP for the list of commands.\n");
        return;
    }
    dj_buf_printf(out(s), "Summary: %d of %d command%s and order%s done",
                  rep->commands - rep->failed, rep->commands,
                  rep->commands == 1 ? "" : "s",
                  rep->commands == 1 ? "" : "s");
    if (rep->failed)
        dj_buf_printf(out(s), "; %d failed or not understood (see ERROR "
                              "above) and changed nothing",
                      rep->failed);
    dj_buf_append(out(s), ".\n");
}

static void reply_subject(session *s)
{
    dj_command_reply *rep = s->reply;
    const dj_config *cfg = dj_judge_config(s->j);
    const char *what = rep->orders          ? "Orders"
                       : s->signon_refused ? "Signon failed"
                                           : "Reply";
    char name[64] = "", phase[16] = "";
    if (s->game[0] && !s->fatal &&
        dj_game_phase(s->j, s->game, name, sizeof name, phase,
                      sizeof phase) == 0) {
        snprintf(rep->game, sizeof rep->game, "%s", name);
        dj_buf_printf(&rep->subject, "%s:%s - %s%s%s", cfg->judge_name, name,
                      phase, phase[0] ? " " : "", what);
    } else {
        dj_buf_printf(&rep->subject, "%s - %s", cfg->judge_name, what);
    }
    snprintf(rep->outcome, sizeof rep->outcome, "%s",
             s->signon_refused  ? "signon-failed"
             : rep->failed      ? "errors"
             : rep->commands    ? "ok"
                                : "empty");
    rep->signed_on = s->signed_on;
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
 * Lines answered without running them: a greeting before the first
 * command ("Hi judge,"), anything after a refused sign-on (it would only
 * repeat the refusal), and HELP a second time (subject and body).
 */
static bool passed_over(session *s, const cmd *c)
{
    const char *why = NULL;
    if (c->kind == CMD_TEXT && !s->body_started && !s->signon_tried)
        why = "(passed over: not a command, and not signed on yet)";
    else if (c->kind == CMD_TEXT && s->signon_refused && !s->signed_on)
        why = "(not read: the sign-on was refused)";
    else if (c->kind == CMD_HELP && s->help_given)
        why = "(the help is above)";
    if (!why)
        return false;
    echo(s, c);
    dj_buf_printf(out(s), INDENT "%s\n", why);
    return true;
}

static void run_message(session *s, cmd *c, dj_buf *press)
{
    cmd_reader r;
    cmd_reader_init(&r, s->msg->subject, s->msg->body ? s->msg->body : "");
    dj_buf_printf(out(s), "Commands from %s:\n\n", s->msg->from);
    bool from_subject = r.subject_pending;
    while (!s->fatal && cmd_next(&r, c, press)) {
        if (!from_subject && c->kind != CMD_TEXT)
            s->body_started = true;
        from_subject = false;
        if (c->kind == CMD_TEXT && s->signed_on && s->power[0]) {
            batch_add(s, c);
            continue;
        }
        flush_batch(s);
        if (s->fatal)
            break;
        if (passed_over(s, c))
            continue;
        s->help_given |= c->kind == CMD_HELP;
        run_command(s, c, press);
        remember_secret(s, c->password);
        dj_buf_reset(press);
    }
    flush_batch(s);
    final_status(s);
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
    session *s = calloc(1, sizeof *s);
    cmd *c = malloc(sizeof *c);
    dj_buf press;
    dj_buf_init(&press);
    int rc = -1;
    if (s && c && msg->from) {
        s->j = j;
        s->msg = msg;
        s->reply = reply;
        run_message(s, c, &press);
        reply_subject(s);
        mask_buf(s, &reply->body);
        rc = s->fatal || !dj_buf_ok(&reply->body) ||
                     !dj_buf_ok(&reply->subject) || !dj_buf_ok(&press)
                 ? -1
                 : 0;
        if (rc < 0)
            snprintf(reply->error, sizeof reply->error, "%s",
                     !dj_store_transaction_alive(dj_judge_store(j))
                         ? "the database dropped the transaction"
                         : "out of memory");
        batch_free(s);
    } else {
        snprintf(reply->error, sizeof reply->error, "%s",
                 msg->from ? "out of memory" : "no sender address");
    }
    dj_judge_set_actor(j, actor);
    dj_buf_free(&press);
    free(c);
    free(s);
    return rc;
}

int dj_command_queue_reply(dj_judge *j, const dj_command_msg *msg,
                           const dj_command_reply *reply)
{
    dj_store *st = dj_judge_store(j);
    const char *kind =
        strcmp(reply->outcome, "signon-failed") == 0 ? "signon-failed"
                                                     : "reply";
    return dj_store_outbox_add_pictured(st, 0, 0, kind, msg->from,
                                        reply->subject.data, reply->body.data,
                                        msg->now, reply->picture_id);
}

int dj_command_run(dj_judge *j, const dj_command_msg *msg,
                   const char *message_id, bool queue_reply,
                   dj_command_reply *reply)
{
    dj_store *st = dj_judge_store(j);
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
