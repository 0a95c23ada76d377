/* SPDX-License-Identifier: MIT */
/*
 * test_command.c — the email command language (src/command): the parser
 * alone (every command, case, masking of passwords, press bodies,
 * SIGNOFF, limits), then whole messages run on a real database in a
 * temporary directory: sign-on, its failures and rate limiting, password
 * masking everywhere, order echo with corrections and ambiguities, the
 * orders on file and what is missing, press under each press rule, votes,
 * the master's commands, JOIN/OBSERVE/CREATE, one game per message, and
 * all-or-nothing: a message whose transaction is rolled back, or whose
 * process dies at any write, leaves nothing behind.  Run as
 * `test_command SRCDIR`.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command/command.h"
#include "command/parse.h"
#include "game/config.h"
#include "game/forming.h"
#include "game/game.h"
#include "game/orders.h"
#include "game/reading.h"
#include "store/mail.h"
#include "store/store.h"
#include "testlib.h"

static const char *srcdir = ".";
static char dir[256];

/* ---- the parser --------------------------------------------------------------- */

static cmd C;

static cmd_kind kind_of(const char *line)
{
    cmd_parse_line(line, &C);
    return C.kind;
}

static void test_parse_commands(void)
{
    CHECK(kind_of("help") == CMD_HELP);
    CHECK(kind_of("LIST") == CMD_LIST && !C.game[0]);
    CHECK(kind_of("list demo") == CMD_LIST);
    CHECK_STR(C.game, "demo");
    CHECK(kind_of("list a b") == CMD_BAD);
    CHECK(kind_of("History demo S1901M F1902M") == CMD_HISTORY);
    CHECK_STR(C.arg, "S1901M");
    CHECK_STR(C.arg2, "F1902M");
    CHECK(kind_of("HISTORY") == CMD_BAD);
    CHECK(kind_of("summary demo") == CMD_SUMMARY);
    CHECK(kind_of("signoff") == CMD_SIGNOFF);
    CHECK(kind_of("clear") == CMD_CLEAR);
    CHECK(kind_of("clear now") == CMD_BAD);
    CHECK(kind_of("Status") == CMD_STATUS);
    CHECK(kind_of("READY") == CMD_READY);
    CHECK(kind_of("not ready") == CMD_NOT_READY);
    CHECK(kind_of("NOTREADY") == CMD_NOT_READY);
    CHECK(kind_of("set wait") == CMD_WAIT);
    CHECK(kind_of("SET NOWAIT") == CMD_NOWAIT);
    CHECK(kind_of("set no wait") == CMD_NOWAIT);
    CHECK(kind_of("set draw") == CMD_DRAW);
    CHECK(kind_of("set nodraw") == CMD_NODRAW);
    CHECK(kind_of("SET CONCEDE Russia") == CMD_CONCEDE);
    CHECK_STR(C.who, "Russia");
    CHECK(kind_of("set concede") == CMD_BAD);
    CHECK(kind_of("set noconcede") == CMD_NOCONCEDE);
    CHECK(kind_of("set address me@example.org") == CMD_ADDRESS);
    CHECK_STR(C.arg, "me@example.org");
    CHECK(kind_of("set absence 2027-01-09 20:00 to 2027-01-12") ==
          CMD_ABSENCE);
    CHECK_STR(C.arg, "2027-01-09 20:00");
    CHECK_STR(C.arg2, "2027-01-12");
    CHECK(kind_of("set absence 2027-01-09") == CMD_ABSENCE && !C.arg2[0]);
    CHECK(kind_of("set absence 2027-01-09 to") == CMD_BAD);
    CHECK(kind_of("set noabsence") == CMD_NOABSENCE);
    CHECK(kind_of("set absence clear") == CMD_NOABSENCE);
    CHECK(kind_of("resign") == CMD_RESIGN);
    CHECK(kind_of("process") == CMD_PROCESS);
    CHECK(kind_of("preview") == CMD_PREVIEW);
    CHECK(kind_of("rollback") == CMD_ROLLBACK && !C.arg[0]);
    CHECK(kind_of("rollback S1901M") == CMD_ROLLBACK);
    CHECK_STR(C.arg, "S1901M");
    CHECK(kind_of("rollforward") == CMD_ROLLFORWARD);
    CHECK(kind_of("pause") == CMD_PAUSE);
    CHECK(kind_of("resume") == CMD_RESUME);
    CHECK(kind_of("start") == CMD_START);
    CHECK(kind_of("become france") == CMD_BECOME);
    CHECK_STR(C.who, "france");
    CHECK(kind_of("eject Italy") == CMD_EJECT);
    CHECK(kind_of("eject") == CMD_BAD);
    CHECK(kind_of("terminate  nobody plays ") == CMD_TERMINATE);
    CHECK_STR(C.arg, "nobody plays");
    CHECK(kind_of("set deadline 2027-01-09 20:00") == CMD_DEADLINE);
    CHECK_STR(C.arg, "deadline=2027-01-09 20:00");
    CHECK(kind_of("SET PRESS grey") == CMD_SETTING);
    CHECK_STR(C.arg, "PRESS=grey");
    CHECK(kind_of("set movement_delay=48h") == CMD_SETTING);
    CHECK_STR(C.arg, "movement_delay=48h");
    CHECK(kind_of("set press") == CMD_BAD);
    CHECK(kind_of("set") == CMD_BAD);
    CHECK(kind_of("endpress") == CMD_ENDPRESS);
    CHECK(kind_of("A par-bur") == CMD_TEXT);
    CHECK_STR(C.text, "A par-bur");
    CHECK(kind_of("Build A par") == CMD_TEXT);
    /* no-break spaces, as HTML mail turned into text has them */
    CHECK(kind_of("\xC2\xA0SIGNOFF\xC2\xA0") == CMD_SIGNOFF);
    CHECK(strcmp(cmd_name(CMD_NOT_READY), "NOT READY") == 0);
}

static void test_parse_passwords(void)
{
    CHECK(kind_of("SIGNON Fdemo secret1") == CMD_SIGNON);
    CHECK_STR(C.who, "F");
    CHECK_STR(C.game, "demo");
    CHECK_STR(C.password, "secret1");
    CHECK_STR(C.echo, "SIGNON Fdemo ****");
    CHECK(kind_of("signon france@demo secret1") == CMD_SIGNON);
    CHECK_STR(C.who, "france");
    CHECK_STR(C.echo, "signon france@demo ****");
    CHECK(kind_of("SIGNON Mdemo secret1") == CMD_SIGNON);
    CHECK_STR(C.who, "M");
    CHECK(kind_of("signon master@demo secret1") == CMD_SIGNON);
    /* Malformed: every argument masked, nothing read as an order. */
    CHECK(kind_of("SIGNON secret1") == CMD_BAD);
    CHECK_STR(C.echo, "SIGNON ****");
    CHECK(kind_of("SIGNON Fdemo secret1 more") == CMD_BAD);
    CHECK_STR(C.echo, "SIGNON **** **** ****");
    CHECK(kind_of("SIGNON @demo secret1") == CMD_BAD);
    CHECK(strstr(C.echo, "secret1") == NULL);
    CHECK(kind_of("SIGNON F secret1") == CMD_BAD);
    CHECK(kind_of("JOIN demo secret1") == CMD_JOIN && !C.who[0]);
    CHECK_STR(C.echo, "JOIN demo ****");
    CHECK(kind_of("join italy@demo secret1") == CMD_JOIN);
    CHECK_STR(C.who, "italy");
    CHECK_STR(C.game, "demo");
    CHECK(kind_of("JOIN demo") == CMD_BAD);
    CHECK(kind_of("JOIN demo secret1 joinkey") == CMD_JOIN);
    CHECK_STR(C.arg2, "joinkey"); /* a private game's join password */
    CHECK_STR(C.echo, "JOIN demo **** ****");
    CHECK(kind_of("JOIN demo secret1 joinkey x") == CMD_BAD);
    CHECK_STR(C.echo, "JOIN **** **** **** ****");
    CHECK(kind_of("press archive demo S1901M 1902") == CMD_PRESS_ARCHIVE);
    CHECK_STR(C.game, "demo");
    CHECK_STR(C.arg, "S1901M");
    CHECK(kind_of("press archive") == CMD_BAD);
    CHECK(kind_of("reveal") == CMD_REVEAL);
    CHECK(kind_of("observe demo secret1") == CMD_OBSERVE);
    CHECK_STR(C.echo, "observe demo ****");
    CHECK(kind_of("CREATE newgame secret1 press=grey movement_delay=48h") ==
          CMD_CREATE);
    CHECK_STR(C.echo, "CREATE newgame **** press=grey movement_delay=48h");
    CHECK_STR(C.arg, "press=grey movement_delay=48h");
    CHECK(kind_of("set password newsecret") == CMD_PASSWORD);
    CHECK_STR(C.password, "newsecret");
    CHECK_STR(C.echo, "set password ****");
    CHECK(kind_of("set password two words") == CMD_BAD);
    CHECK_STR(C.echo, "set password **** ****");
    /* Misspelt commands still hide what follows. */
    CHECK(kind_of("SIGON Fdemo secret1") == CMD_TEXT);
    CHECK_STR(C.echo, "SIGON Fdemo ****");
    CHECK(kind_of("sign on Fdemo secret1") == CMD_TEXT);
    CHECK_STR(C.echo, "sign on Fdemo ****");
    CHECK(kind_of("set pasword secret1") == CMD_SETTING ||
          strstr(C.echo, "secret1") == NULL);
    CHECK(kind_of("password: secret1") == CMD_TEXT);
    CHECK_STR(C.echo, "password: ****");
    CHECK(kind_of("F bre-mao") == CMD_TEXT);
    CHECK_STR(C.echo, "F bre-mao");
}

static void test_parse_press(void)
{
    CHECK(kind_of("PRESS TO France Germany") == CMD_PRESS);
    CHECK(C.has_to && !C.broadcast && C.grey == -1);
    CHECK_STR(C.to, "France Germany");
    CHECK(kind_of("press to FG grey fake broadcast") == CMD_PRESS);
    CHECK_STR(C.to, "FG");
    CHECK(C.grey == 1 && C.fake && !C.fake_has_to);
    CHECK(kind_of("press to F white fake partial to F G") == CMD_PRESS);
    CHECK(C.grey == 0 && C.fake && C.fake_has_to);
    CHECK_STR(C.fake_to, "F G");
    CHECK(kind_of("press to all but R T") == CMD_PRESS);
    CHECK_STR(C.to, "all but R T");
    CHECK(kind_of("BROADCAST") == CMD_PRESS && C.broadcast);
    CHECK(kind_of("broadcast grey") == CMD_PRESS && C.grey == 1);
    CHECK(kind_of("PRESS") == CMD_BAD && C.opens_press);
    CHECK(kind_of("PRESS TO") == CMD_BAD);
    CHECK(kind_of("BROADCAST TO France") == CMD_BAD && C.opens_press);
    CHECK(kind_of("press to France loudly") == CMD_PRESS); /* a name list */
    CHECK(kind_of("PRESS TO F FROM G") == CMD_PRESS); /* DPjudge's fake sender */
    CHECK_STR(C.to, "F");
    CHECK_STR(C.fake_from, "G");
    CHECK(kind_of("PRESS TO F FROM") == CMD_BAD);
    CHECK(kind_of("PRESS TO F FROM G E") == CMD_BAD);
    CHECK(kind_of("PRESS TO F FROM G FROM E") == CMD_BAD);
    CHECK(kind_of("press to F, G from E grey") == CMD_PRESS && C.grey == 1);
    CHECK_STR(C.to, "F, G");

    /* Bodies end at ENDPRESS, ENDBROADCAST, SIGNOFF or the end. */
    cmd_reader r;
    dj_buf body;
    dj_buf_init(&body);
    cmd_reader_init(&r, NULL,
                    "press to france\nHello\n  A par-bur\nendpress\n"
                    "broadcast\nAll hear\nENDBROADCAST\n"
                    "PRESS\nstill consumed\nendpress\nstatus\n"
                    "broadcast\nlast words\nsignoff\nnot read\nnor this\n");
    CHECK(cmd_next(&r, &C, &body) && C.kind == CMD_PRESS && C.press_ended);
    CHECK_STR(body.data, "Hello\n  A par-bur\n");
    CHECK(C.press_lines == 2);
    dj_buf_reset(&body);
    CHECK(cmd_next(&r, &C, &body) && C.kind == CMD_PRESS && C.broadcast);
    CHECK_STR(body.data, "All hear\n");
    dj_buf_reset(&body);
    CHECK(cmd_next(&r, &C, &body) && C.kind == CMD_BAD);
    CHECK_STR(body.data, "still consumed\n");
    dj_buf_reset(&body);
    CHECK(cmd_next(&r, &C, &body) && C.kind == CMD_STATUS && C.line == 11);
    CHECK(cmd_next(&r, &C, &body) && C.kind == CMD_PRESS && !C.press_ended);
    CHECK_STR(body.data, "last words\n");
    CHECK(!cmd_next(&r, &C, &body));
    CHECK(r.signed_off && r.skipped == 2);
    dj_buf_free(&body);
}

static void test_parse_message(void)
{
    cmd_reader r;
    dj_buf body;
    dj_buf_init(&body);
    /* A subject that is a command is read first; others are ignored. */
    cmd_reader_init(&r, "signon Fdemo pw12", "\n\nstatus\r\n\n");
    CHECK(cmd_next(&r, &C, &body) && C.kind == CMD_SIGNON && C.line == 0);
    CHECK(cmd_next(&r, &C, &body) && C.kind == CMD_STATUS && C.line == 3);
    CHECK(!cmd_next(&r, &C, &body));
    cmd_reader_init(&r, "Re: dipjudge:demo - S1901M Results", "help\n");
    CHECK(cmd_next(&r, &C, &body) && C.kind == CMD_HELP && C.line == 1);
    CHECK(!cmd_next(&r, &C, &body));
    /* SIGNOFF ends the message. */
    cmd_reader_init(&r, NULL, "help\nSIGNOFF\nA par-bur\n\nF bre-mao");
    CHECK(cmd_next(&r, &C, &body) && C.kind == CMD_HELP);
    CHECK(cmd_next(&r, &C, &body) && C.kind == CMD_SIGNOFF);
    CHECK(!cmd_next(&r, &C, &body) && r.skipped == 2);
    /* Long lines are cut, at a character boundary; too many lines stop. */
    size_t big = CMD_LINE_MAX + 100;
    char *text = malloc(big + 2);
    memset(text, 'x', big);
    memcpy(text + CMD_LINE_MAX - 2, "\xC3\xA9", 2); /* across the cut */
    text[big] = '\0';
    cmd_reader_init(&r, NULL, text);
    CHECK(cmd_next(&r, &C, &body) && C.cut && C.kind == CMD_TEXT);
    CHECK(strlen(C.text) == CMD_LINE_MAX - 2);
    free(text);
    size_t n = (size_t)CMD_MAX_LINES + 10;
    text = malloc(n * 5 + 1);
    for (size_t i = 0; i < n; i++)
        memcpy(text + i * 5, "help\n", 5);
    text[n * 5] = '\0';
    cmd_reader_init(&r, NULL, text);
    int got = 0;
    while (cmd_next(&r, &C, &body))
        got++;
    CHECK(got == CMD_MAX_LINES && r.skipped == 10 && !r.signed_off);
    free(text);
    dj_buf_free(&body);
}

/* ---- messages on a real database ---------------------------------------------- */

static const char *const POWERS[] = {"Austria", "England", "France",
                                     "Germany", "Italy",   "Russia",
                                     "Turkey"};
static const char *const LETTERS = "AEFGIRT";

static dj_judge *J;
static dj_command_reply R;
static int64_t NOW = 1800000000; /* Fri 15 Jan 2027 08:00 UTC */

static dj_judge *open_judge(bool allow_create)
{
    dj_config cfg;
    dj_config_defaults(&cfg);
    snprintf(cfg.database, sizeof cfg.database, "%s/judge.db", dir);
    cfg.allow_create = allow_create;
    char maps[512], err[512];
    snprintf(maps, sizeof maps, "%s/maps", srcdir);
    dj_judge *j = dj_judge_open(&cfg, maps, err, sizeof err);
    if (!j)
        fprintf(stderr, "%s\n", err);
    return j;
}

/* Run one message; 0, 1 (duplicate) or -1. */
static int send_msg(const char *from, const char *body)
{
    dj_command_reply_free(&R);
    dj_command_reply_init(&R);
    dj_command_msg msg = {from, NULL, body, NOW, NULL, NULL};
    int rc = dj_command_run(J, &msg, NULL, false, &R);
    if (getenv("DJ_TEST_VERBOSE"))
        fprintf(stderr, "---- %s\nSubject: %s\n%s", from, R.subject.data,
                R.body.data);
    return rc;
}

static bool has(const char *text)
{
    if (strstr(R.body.data, text))
        return true;
    fprintf(stderr, "reply lacks \"%s\":\n%s\n", text, R.body.data);
    return false;
}

static bool lacks(const char *text)
{
    return strstr(R.body.data, text) == NULL;
}

/* Answer the last reply's "CONFIRM code" from `from`, as the address's
 * owner would (JOIN, OBSERVE and CREATE wait for it). */
static int confirm_from(const char *from)
{
    const char *at = strstr(R.body.data, "    CONFIRM ");
    char code[64] = "", body[96];
    if (!at || sscanf(at, " CONFIRM %63s", code) != 1)
        return -1;
    snprintf(body, sizeof body, "CONFIRM %s\n", code);
    return send_msg(from, body);
}

/* The code the judge mailed to `to` (SET ADDRESS, SET MASTER: never in
 * the reply), into code; 0 when there is one. */
static int mailed_code(const char *to, char *code, size_t len)
{
    dj_outbox_rec *m = NULL;
    int n = 0, rc = -1;
    if (dj_store_outbox_list(dj_judge_store(J), 0, NULL, &m, &n) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        const char *at = strstr(m[i].body, "    CONFIRM ");
        char got[64];
        if (strcmp(m[i].recipients, to) == 0 && at &&
            sscanf(at, " CONFIRM %63s", got) == 1) {
            snprintf(code, len, "%s", got);
            rc = 0;
        }
    }
    dj_outbox_recs_free(m, n);
    return rc;
}

/* Answer the code mailed to `to`, from `from` (a forger when not `to`). */
static int confirm_mailed(const char *to, const char *from)
{
    char code[64], body[96];
    if (mailed_code(to, code, sizeof code) < 0)
        return -1;
    snprintf(body, sizeof body, "CONFIRM %s\n", code);
    return send_msg(from, body);
}

/* Mail in the outbox: how many of `kind` to `to` (NULL any) whose subject
 * or body holds `needle` (NULL any). */
static int mail_count(const char *kind, const char *to, const char *needle)
{
    dj_outbox_rec *m = NULL;
    int n = 0, count = 0;
    if (dj_store_outbox_list(dj_judge_store(J), 0, NULL, &m, &n) < 0)
        return -1;
    for (int i = 0; i < n; i++)
        if ((!kind || strcmp(m[i].kind, kind) == 0) &&
            (!to || strcmp(m[i].recipients, to) == 0) &&
            (!needle || strstr(m[i].body, needle) ||
             strstr(m[i].subject, needle)))
            count++;
    dj_outbox_recs_free(m, n);
    return count;
}

static void pw_of(int p, char *buf, size_t len)
{
    snprintf(buf, len, "pw-%c-secret", LETTERS[p]);
}

static void addr_of(int p, char *buf, size_t len)
{
    snprintf(buf, len, "%c@players.example", LETTERS[p] | 0x20);
}

/* A game of seven players with passwords and a master with one. */
static void setup_game(const char *name, const char *const *settings,
                       int nsettings)
{
    dj_buf out;
    dj_buf_init(&out);
    dj_judge_set_now(J, NOW);
    CHECK(dj_game_create(J, name, NULL, NULL, settings, nsettings, &out) == 0);
    dj_join_request gm = {"gm@judge.example", NULL, NULL, "master-secret",
                          "master", NULL};
    CHECK(dj_game_join(J, name, &gm, &out) == 0);
    for (int p = 0; p < 7; p++) {
        char email[64], pw[64];
        addr_of(p, email, sizeof email);
        pw_of(p, pw, sizeof pw);
        dj_join_request req = {email, NULL, POWERS[p], pw, NULL, NULL};
        CHECK(dj_game_join(J, name, &req, &out) == 0);
    }
    dj_buf_free(&out);
}

static void test_needs_transaction(void)
{
    dj_command_reply r;
    dj_command_reply_init(&r);
    dj_command_msg msg = {"x@y", NULL, "help\n", NOW, NULL, NULL};
    CHECK(dj_command_execute(J, &msg, &r) == -1);
    CHECK(strstr(r.error, "transaction") != NULL);
    dj_command_reply_free(&r);
}

static void test_anyone(void)
{
    CHECK(send_msg("someone@else.example", "help\nlist\nlist demo\n"
                                           "history demo\nsummary demo\n"
                                           "bogus line\n") == 0);
    CHECK(has("> help"));
    CHECK(has("SIGNON Xgame password"));
    CHECK(has("demo             active"));
    CHECK(has("Game demo on map standard: active"));
    CHECK(has("France     (a player)"));
    CHECK(lacks("f@players.example")); /* no addresses for strangers */
    CHECK(has("not understood: no such command (and not signed on"));
    CHECK(has("HISTORY answers only the players, observers and master of "
              "game 'demo', signed on"));
    CHECK(has("Summary: 4 of 6 commands done, 2 failed (see ERROR above)"));
    CHECK_STR(R.subject.data, "dipjudge - Reply");
    CHECK_STR(R.outcome, "errors");
    CHECK(send_msg("someone@else.example", "\n\n") == 0);
    CHECK(has("The message held no commands"));
    CHECK_STR(R.outcome, "empty");
}

/* A greeting before the first command is no error; HELP in the subject
 * and the body is answered once. */
static void test_greeting_and_help_once(void)
{
    dj_command_reply_free(&R);
    dj_command_reply_init(&R);
    dj_command_msg msg = {"someone@else.example", "HELP",
                          "Hi judge,\n\nhelp\nlist\n", NOW, NULL, NULL};
    CHECK(dj_command_run(J, &msg, NULL, false, &R) == 0);
    CHECK(has("Not read (looks like text, not orders):\n  Hi judge,\n"));
    CHECK(lacks("ERROR"));
    CHECK(has("(the help is above)"));
    const char *first = strstr(R.body.data, "SIGNON Xgame password");
    CHECK(first && !strstr(first + 1, "SIGNON Xgame password"));
    CHECK(has("Summary: 2 of 2 commands done."));
}

/* A subject is a command only when it reads as one completely and names
 * a game that exists; any other subject is ignored without a word. */
static bool subject_reply(const char *subject, const char *body)
{
    dj_command_reply_free(&R);
    dj_command_reply_init(&R);
    dj_command_msg msg = {"someone@else.example", subject, body, NOW, NULL, NULL};
    return dj_command_run(J, &msg, NULL, false, &R) == 0;
}

static void test_subject(void)
{
    const char *prose[] = {"map please", "join", "JOIN demo", "Re: orders",
                           "list all the games please",
                           "SIGNON Fdemo", "history nosuchgame"};
    for (size_t i = 0; i < sizeof prose / sizeof prose[0]; i++) {
        CHECK(subject_reply(prose[i], "list\n"));
        CHECK(lacks("ERROR"));
        CHECK(has("Summary: 1 of 1 command done."));
    }
    CHECK(subject_reply("LIST demo", ""));
    CHECK(has("> LIST demo\n    Game demo on map standard"));
    CHECK(subject_reply("summary demo", "list\n"));
    CHECK(has("> summary demo"));
    CHECK(has("Summary: 2 of 2 commands done."));
}

static void test_signon_and_orders(void)
{
    CHECK(send_msg("f@players.example",
                   "SIGNON Fdemo pw-F-secret\n"
                   "A par-bur\n"
                   "F bre-mao; A mar-pie\n"
                   "A pariz-gas\n"
                   "A bur-pir\n") == 0);
    CHECK_STR(R.subject.data, "dipjudge:demo - S1901M Orders");
    CHECK(has("> SIGNON Fdemo ****"));
    CHECK(has("Signed on as France in game 'demo'."));
    CHECK(lacks("pw-F-secret"));
    CHECK(has("> F bre-mao; A mar-pie\n    F BRE - MAO\n    A MAR - PIE\n"));
    CHECK(has("A PAR has several orders (lines 2 and 4)"));
    /* no French unit in Burgundy: none of the readings is possible, so
     * no ambiguity is offered */
    CHECK(has("ERROR: 'pir' could be Paris or Picardy or Piedmont or "
              "Portugal, and the unit can be given none of those orders"));
    CHECK(lacks("AMBIGUOUS"));
    CHECK(has("Orders of France for S1901M (Spring 1901 Movement):\n"
              "  F BRE - MAO\n  A MAR - PIE\n  A PAR H\n"));
    /* 4.D.3 c: the unit with two orders holds, and its hold is on file */
    CHECK(has("Every unit has an order."));
    CHECK(has("READY: no.  WAIT: no."));
    CHECK(has("Deadline: "));
    CHECK(R.orders && strcmp(R.outcome, "errors") == 0);

    /* A correction, noted; later orders replace a unit's earlier one. */
    CHECK(send_msg("f@players.example", "signon france@demo pw-F-secret\n"
                                        "A pariz-bur\nA mar-spa\nREADY\n") ==
          0);
    CHECK(has("A PAR - BUR  ("));
    CHECK(has("  F BRE - MAO\n  A PAR - BUR\n  A MAR - SPA\n"));
    CHECK(has("Every unit has an order."));
    CHECK(has("READY: yes."));
    CHECK_STR(R.outcome, "ok");
    char got[256];
    dj_buf orders;
    dj_buf_init(&orders);
    CHECK(dj_game_get_orders(J, "demo", "France", &orders) == 0);
    snprintf(got, sizeof got, "%s", orders.data);
    CHECK_STR(got, "F BRE - MAO\nA PAR - BUR\nA MAR - SPA\n");

    /* CLEAR, flags, STATUS. */
    CHECK(send_msg("f@x.example", "SIGNON Fdemo pw-F-secret\nclear\n"
                                  "not ready\nset wait\nstatus\n") == 0);
    CHECK(has("orders of France cleared"));
    CHECK(has("  (none)\n"));
    CHECK(has("READY: no.  WAIT: yes."));
    CHECK(send_msg("f@x.example", "SIGNON Fdemo pw-F-secret\nset nowait\n"
                                  "A par-bur\nF bre-mao\nA mar-spa\n") == 0);
    CHECK(has("WAIT: no."));
    dj_buf_reset(&orders);
    dj_game_get_orders(J, "demo", "France", &orders);
    CHECK_STR(orders.data, "A PAR - BUR\nF BRE - MAO\nA MAR - SPA\n");
    dj_buf_free(&orders);

    /* Orders need a sign-on; an observer or a master without BECOME has
     * no power; a second SIGNON starts a part of its own, which a
     * refused sign-on skips (its orders not given as the master's). */
    CHECK(send_msg("f@players.example", "A par-bur\n") == 0);
    CHECK(has("Not read (looks like text, not orders):\n  A par-bur\n"));
    CHECK(has("To give orders, begin with SIGNON"));
    CHECK(send_msg("gm@judge.example", "SIGNON Mdemo master-secret\n"
                                       "A par-bur\nSIGNON Fdemo x\n"
                                       "A par-pic\n") == 0);
    CHECK(has("BECOME it first"));
    CHECK(has("part 2 of the message"));
    CHECK(has("> A par-pic\n    (not read: this part's sign-on was "
              "refused, so nothing in it is done)\n"));
    CHECK(has("1 part of the message was skipped"));
}

static void test_signon_failures(void)
{
    int before = mail_count("notice", "gm@judge.example", "Failed sign-ons");
    CHECK(send_msg("evil@attacker.example", "SIGNON Gdemo guess1\n"
                                            "A mun-bur\nset draw\n") == 0);
    CHECK(has("sign-on as G in game 'demo' refused"));
    CHECK(has("(not read: the sign-on was refused)"));
    CHECK(has("The sign-on was refused, so nothing after it was done"));
    CHECK(lacks("Summary:"));
    CHECK(has("not signed on: the sign-on was refused"));
    /* no game in the subject: it would tell which games exist */
    CHECK_STR(R.subject.data, "dipjudge - Signon failed");
    CHECK_STR(R.outcome, "signon-failed");
    CHECK(lacks("guess1"));
    /* Unknown games and powers answer alike. */
    CHECK(send_msg("evil@attacker.example", "SIGNON Xdemo guess2\n") == 0);
    CHECK(has("refused: no such game or power, or a wrong password"));
    CHECK(send_msg("evil@attacker.example", "SIGNON Gnogame guess3\n") == 0);
    CHECK(has("refused: no such game or power, or a wrong password"));
    for (int i = 0; i < 3; i++)
        CHECK(send_msg("evil@attacker.example", "SIGNON Gdemo guess\n") ==
              0);
    /* Five failures for demo within the hour: the right password too is
     * refused now, from this address only. */
    CHECK(send_msg("evil@attacker.example", "SIGNON Gdemo pw-G-secret\n") ==
          0);
    CHECK(has("too many failed sign-ons for game 'demo'"));
    CHECK(send_msg("g@players.example", "SIGNON Gdemo pw-G-secret\n") == 0);
    CHECK(has("Signed on as Germany"));
    CHECK(mail_count("notice", "gm@judge.example", "Failed sign-ons") ==
          before + 1);
    CHECK(mail_count("notice", "gm@judge.example", "evil@attacker.example") >=
          1);
    /* An hour later the window has passed. */
    NOW += 3601;
    CHECK(send_msg("evil@attacker.example", "SIGNON Gdemo pw-G-secret\n") ==
          0);
    CHECK(has("Signed on as Germany"));
    /* The log names the failures, never the guesses. */
    dj_buf exp;
    dj_buf_init(&exp);
    CHECK(dj_game_export(J, "demo", &exp) == 0);
    CHECK(strstr(exp.data, "signon-failed") != NULL);
    CHECK(strstr(exp.data, "guess") == NULL);
    CHECK(strstr(exp.data, "pw-G-secret") == NULL);
    dj_buf_free(&exp);
}

static void test_press(void)
{
    int g0 = mail_count("press", "g@players.example", NULL);
    CHECK(send_msg("f@players.example",
                   "SIGNON Fdemo pw-F-secret\n"
                   "PRESS TO Germany\nLet us ally.  My password is "
                   "pw-F-secret, do not tell.\nENDPRESS\n"
                   "press to G grey\nanonymous\nendpress\n"
                   "press to F fake broadcast\nfake\nendpress\n"
                   "press to master\nhelp me\nendpress\n"
                   "press to fame\nx\nendpress\n"
                   "broadcast\nhello all\nendbroadcast\n") == 0);
    CHECK(has("demo: press sent to Germany"));
    CHECK(has("game 'demo' has no grey (anonymous) press"));
    CHECK(has("game 'demo' has no fake press"));
    CHECK(has("demo: press sent to the master"));
    CHECK(has("unknown recipient 'fame'"));
    CHECK(has("demo: broadcast sent to everyone"));
    CHECK(mail_count("press", "g@players.example", "Let us ally.") == 1);
    CHECK(mail_count("press", "g@players.example", "pw-F-secret") == 0);
    CHECK(mail_count("press", "g@players.example", "My password is ****") ==
          1);
    CHECK(mail_count("press", "g@players.example", "Press from France") >= 1);
    CHECK(mail_count("press", "f@players.example", NULL) == 0); /* no echo */
    CHECK(mail_count("press", "gm@judge.example", "help me") == 1);
    CHECK(mail_count("press", "i@players.example", "hello all") == 1);
    CHECK(mail_count("press", "g@players.example", NULL) == g0 + 2);

    /* The master turns grey, fake and broadcasts-only on and off. */
    CHECK(send_msg("gm@judge.example",
                   "SIGNON master@demo master-secret\nSET PRESS grey\n"
                   "set fake_press yes\nSET PARTIAL_PRESS no\n") == 0);
    CHECK(has("demo: 1 setting changed"));
    CHECK(lacks("ERROR"));
    CHECK(send_msg("f@players.example",
                   "SIGNON Fdemo pw-F-secret\npress to germany\nx\nendpress\n"
                   "broadcast white\ny\nendpress\nbroadcast\nz grey\n"
                   "endpress\npress to master\nm\nendpress\n") == 0);
    CHECK(has("allows only broadcasts"));
    CHECK(has("press in game 'demo' is grey only"));
    CHECK(has("demo: grey broadcast sent to everyone"));
    CHECK(has("demo: press sent to the master"));
    CHECK(mail_count("press", "i@players.example",
                     "broadcast from an anonymous sender") == 1);
    CHECK(send_msg("gm@judge.example",
                   "SIGNON Mdemo master-secret\nset press white+grey\n"
                   "set partial_press yes\n") == 0);
    CHECK(send_msg("f@players.example",
                   "SIGNON Fdemo pw-F-secret\npress to I fake to I G\n"
                   "rumour\nendpress\npress to all but R T grey\nhi\n"
                   "endpress\n") == 0);
    CHECK(has("demo: press sent to Italy, shown as Germany and Italy"));
    CHECK(has("grey press sent to Austria, England, Germany and Italy"));
    CHECK(mail_count("press", "i@players.example",
                     "press from France to Germany and Italy") == 1);
    CHECK(mail_count("press", "r@players.example", "hi\n") == 0);

    /* No press at all, except to the master. */
    CHECK(send_msg("gm@judge.example",
                   "SIGNON Mdemo master-secret\nset press none\n") == 0);
    CHECK(send_msg("f@players.example",
                   "SIGNON Fdemo pw-F-secret\nbroadcast\nx\nendpress\n"
                   "press to m\nstill here\nendpress\n") == 0);
    CHECK(has("game 'demo' has no press, except to the master"));
    CHECK(has("demo: press sent to the master"));
    CHECK(send_msg("gm@judge.example",
                   "SIGNON Mdemo master-secret\nset press white\n") == 0);
}

/* PRESS ARCHIVE: each reader sees what dj_press_visible() allows, grey
 * press without its sender; strangers see nothing of a running game. */
static void test_press_archive(void)
{
    CHECK(send_msg("g@players.example",
                   "SIGNON Gdemo pw-G-secret\nPRESS ARCHIVE demo\n") == 0);
    CHECK(has("press from France to Germany"));
    CHECK(has("Let us ally."));
    CHECK(has("broadcast from France to everyone"));
    CHECK(has("hello all"));
    CHECK(has("broadcast from an anonymous sender to everyone"));
    CHECK(lacks("help me"));
    CHECK(send_msg("i@players.example",
                   "SIGNON Idemo pw-I-secret\npress archive demo\n") == 0);
    CHECK(has("hello all"));
    CHECK(lacks("Let us ally."));
    CHECK(lacks("help me"));
    CHECK(send_msg("gm@judge.example",
                   "SIGNON master@demo master-secret\npress archive demo\n") ==
          0);
    CHECK(has("help me"));
    CHECK(has("hello all"));
    /* the master reads all, the grey broadcast with its sender (issue 31) */
    CHECK(has("Let us ally."));
    CHECK(has("France (grey) to everyone"));
    CHECK(lacks("an anonymous sender"));
    CHECK(send_msg("gm@judge.example",
                   "SIGNON master@demo master-secret\n"
                   "SET master_press addressed\npress archive demo\n") == 0);
    CHECK(has("help me"));
    CHECK(lacks("Let us ally."));
    CHECK(has("an anonymous sender"));
    CHECK(send_msg("gm@judge.example",
                   "SIGNON master@demo master-secret\n"
                   "SET master_press all\n") == 0);
    CHECK(send_msg("f@players.example",
                   "SIGNON Fdemo pw-F-secret\npress archive demo\n") == 0);
    CHECK(has("Let us ally."));
    CHECK(has("help me"));
    CHECK(has("France (grey) to everyone")); /* the sender sees the truth */
    CHECK(send_msg("someone@else.example", "press archive demo\n") == 0);
    CHECK(has("No press you may read."));
    CHECK(lacks("hello all"));
    CHECK(send_msg("someone@else.example", "press archive demo 1899 x\n") ==
          0);
    CHECK(has("ERROR: bad phase or year 'x'"));
    /* Who plays whom: hidden from strangers until the master's REVEAL. */
    CHECK(send_msg("gm@judge.example",
                   "SIGNON master@demo master-secret\nSET identities masters\n") == 0);
    CHECK(send_msg("x@players.example", "list demo\n") == 0);
    CHECK(has("France     (a player)"));
    CHECK(send_msg("f@players.example", "SIGNON Fdemo pw-F-secret\nreveal\n") ==
          0);
    CHECK(has("ERROR: only the game master may do that"));
    CHECK(send_msg("gm@judge.example",
                   "SIGNON master@demo master-secret\nREVEAL\n") == 0);
    CHECK(has("now shown to everyone"));
    CHECK(send_msg("x@players.example", "list demo\n") == 0);
    /* named, never by address (issue 31) */
    CHECK(has("France     (no name given)"));
    CHECK(lacks("f@players.example"));
    CHECK(send_msg("gm@judge.example",
                   "SIGNON master@demo master-secret\nSET identities at-end\n") == 0);
}

static void test_observers(void)
{
    CHECK(send_msg("watcher@obs.example", "OBSERVE demo watchpw-long\n") == 0);
    CHECK(has("> OBSERVE demo ****"));
    CHECK(has("To observe game demo, this address must show it is yours"));
    CHECK(mail_count("notice", "gm@judge.example", "New observer") == 0);
    CHECK(confirm_from("watcher@obs.example") == 0);
    CHECK(has("watcher@obs.example joined as observer"));
    CHECK(mail_count("notice", "gm@judge.example", "New observer") == 1);
    CHECK(send_msg("watcher@obs.example", "SIGNON Odemo watchpw-long\n"
                                          "A par-bur\nstatus\nbroadcast\n"
                                          "from the gallery\nendpress\n") ==
          0);
    CHECK(has("Signed on as an observer of game 'demo'."));
    CHECK(has("no power to give orders for"));
    CHECK(has("Game demo on map standard"));
    CHECK(has("broadcast sent to everyone"));
    CHECK(mail_count("press", "f@players.example", "an observer") == 1);
    CHECK(send_msg("gm@judge.example", "SIGNON Mdemo master-secret\n"
                                       "set observer_press none\n") == 0);
    CHECK(send_msg("watcher@obs.example", "SIGNON observer@demo watchpw-long\n"
                                          "broadcast\nagain\nendpress\n") ==
          0);
    CHECK(has("observers of game 'demo' may press only to the master"));
    /* Another address with the observer's password is not the observer. */
    CHECK(send_msg("other@obs.example", "SIGNON Odemo watchpw-long\n") == 0);
    CHECK(has("refused"));
    CHECK(send_msg("gm@judge.example", "SIGNON Mdemo master-secret\n"
                                       "set observer_press any\n") == 0);
}

static void test_player_settings(void)
{
    CHECK(send_msg("e@players.example",
                   "SIGNON Edemo pw-E-secret\nset draw\nset concede Russia\n"
                   "set noconcede\nset absence 2027-01-20 TO 2027-01-22\n"
                   "set noabsence\nset absence 2027-01-20\n"
                   "set address eng@new.example\nset password short\n"
                   "set password pw-E-newer\n") == 0);
    CHECK(has("demo: England votes for a draw of every surviving power"));
    CHECK(has("demo: England votes for conceding the game to Russia"));
    CHECK(has("demo: England votes for no draw or concession"));
    CHECK(has("demo: England absent from"));
    CHECK(has("absences of England cleared"));
    /* SET ADDRESS: nothing changes until the new address confirms; its
     * code is mailed there, never put in the reply */
    CHECK(has("A code went to eng@new.example"));
    CHECK(lacks("    CONFIRM "));
    CHECK(has("demo: password changed"));
    CHECK(lacks("pw-E-newer"));
    CHECK(mail_count("notice", "gm@judge.example", "eng@new.example") == 0);
    CHECK(mail_count("notice", "eng@new.example", "    CONFIRM ") == 1);
    /* the right code from another address (a forged From:) does nothing */
    CHECK(confirm_mailed("eng@new.example", "e@players.example") == 0);
    CHECK(has("no such code waits for your address"));
    CHECK(mail_count("notice", "gm@judge.example", "eng@new.example") == 0);
    CHECK(confirm_mailed("eng@new.example", "eng@new.example") == 0);
    /* a player's new address is one more (game/addresses.c) */
    CHECK(has("demo: mail for England now goes to e@players.example, "
              "eng@new.example"));
    CHECK(mail_count("notice", "gm@judge.example", "eng@new.example") == 1);
    CHECK(mail_count("notice", "e@players.example",
                     "England has a new address, eng@new.example") == 1);
    /* Votes are secret: nobody else sees them. */
    CHECK(send_msg("x@y.example", "list demo\n") == 0);
    CHECK(lacks(" vote draw") && lacks(" vote concede"));
    CHECK(has("votes=secret")); /* the setting, shown to all */
    CHECK(send_msg("e@players.example", "SIGNON Edemo pw-E-secret\n") == 0);
    CHECK(has("refused"));
    CHECK(send_msg("e@players.example", "SIGNON Edemo pw-E-newer\n") == 0);
    CHECK(has("Signed on as England"));
}

static void test_master(void)
{
    CHECK(send_msg("f@players.example", "SIGNON Fdemo pw-F-secret\n"
                                        "process\n") == 0);
    CHECK(has("only the game master may do that"));
    CHECK(send_msg("gm@judge.example",
                   "SIGNON Mdemo master-secret\n"
                   "status\npreview\n"
                   "become germany\nA mun-ruh\nF kie-den\nA ber-kie\n"
                   "set deadline +2d\npause\nresume\nprocess\n") == 0);
    CHECK(has("Game demo on map standard: active"));
    CHECK(has("g@players.example")); /* the master sees addresses */
    CHECK(has("(preview: nothing saved)"));
    CHECK(has("Orders of Germany for S1901M"));
    CHECK(has("    A MUN - RUH\n"));
    CHECK(has("deadline of S1901M is now"));
    CHECK(has("demo: paused"));
    CHECK(has("demo: resumed"));
    CHECK(has("demo: S1901M processed; next F1901M"));
    CHECK(lacks("ERROR"));
    CHECK_STR(R.subject.data, "dipjudge:demo - F1901M Orders");
    CHECK(mail_count("results", "f@players.example", "Army Paris") >= 1);
    CHECK(send_msg("gm@judge.example",
                   "SIGNON Mdemo master-secret\nrollback\nrollforward\n"
                   "rollback S1901M\nrollforward\neject Turkey\n"
                   "set nmr wait\nset colour red\n") == 0);
    CHECK(has("rolled back to S1901M"));
    CHECK(has("Turkey is in civil disorder"));
    CHECK(has("unknown setting 'colour'"));
    CHECK(has("Summary: 7 of 8 commands done, 1 failed"));
}

/* The last message of the game: a player resigns, the master ends it. */
static void test_resign_terminate(void)
{
    CHECK(send_msg("i@players.example", "SIGNON Idemo pw-I-secret\n"
                                        "resign\nA ven-tyr\n") == 0);
    CHECK(has("has resigned; Italy is in civil disorder"));
    CHECK(has("you have no power"));
    CHECK(mail_count("notice", "f@players.example", "Player resigned") == 1);
    CHECK(send_msg("i@players.example", "SIGNON Idemo pw-I-secret\n") == 0);
    CHECK(has("refused"));
    CHECK(send_msg("gm@judge.example", "SIGNON Mdemo master-secret\n"
                                       "terminate master-secret is "
                                       "bored\n") == 0);
    CHECK(has("Terminated by the game master: **** is bored."));
    CHECK(mail_count("end", "f@players.example", "master-secret") == 0);
    CHECK(mail_count("end", "f@players.example", "Terminated") == 1);
}

/* A private game needs its join password to JOIN or OBSERVE, and is
 * neither listed nor described to a stranger (issue 33); REVEAL names the
 * players. */
static void test_private_unlisted(void)
{
    dj_buf out;
    dj_buf_init(&out);
    const char *settings[] = {"private=Letmein1", "unlisted=yes"};
    CHECK(dj_game_create(J, "hush", NULL, NULL, settings, 2, &out) == 0);
    dj_buf_free(&out);
    CHECK(send_msg("new@players.example", "list\nlist hush\n") == 0);
    CHECK(has("demo "));
    CHECK(lacks("hush             forming"));
    CHECK(lacks("Game hush on map standard"));
    CHECK(has("ERROR: game 'hush' does not exist"));
    CHECK(lacks("Letmein1"));
    CHECK(lacks("private=yes"));
    CHECK(send_msg("new@players.example", "JOIN hush newpw1-long\n") == 0);
    CHECK(has("ERROR: game 'hush' is private: add its join password"));
    CHECK(send_msg("new@players.example", "OBSERVE hush newpw1-long letmein1\n") ==
          0);
    CHECK(has("ERROR: game 'hush' is private: that is not its join "
              "password"));
    CHECK(send_msg("new@players.example", "JOIN hush newpw1-long Letmein1\n") ==
          0);
    CHECK(has("> JOIN hush **** ****"));
    CHECK(has("To join game hush"));
    CHECK(lacks("ERROR"));
    CHECK(lacks("Letmein1"));
}

static void test_join_create(void)
{
    dj_buf out;
    dj_buf_init(&out);
    CHECK(dj_game_create(J, "forming", NULL, NULL, NULL, 0, &out) == 0);
    CHECK(send_msg("new@players.example", "JOIN forming pw1\n") == 0);
    CHECK(has("a password needs at least 8 characters"));
    CHECK(send_msg("evil@players.example", "CONFIRM nosuchcode\n") == 0);
    CHECK(has("no such code waits for your address"));
    CHECK(send_msg("new@players.example", "join russia@forming newpw1-long\n"
                                          "join demo newpw1-long\n") == 0);
    CHECK(has("To join game forming as russia"));
    CHECK(has("this part of the message is about game 'forming'"));
    CHECK_STR(R.subject.data, "dipjudge:forming - Reply");
    CHECK(confirm_from("new@players.example") == 0);
    CHECK(has("new@players.example joined as Russia"));
    CHECK(send_msg("new2@players.example", "JOIN forming newpw2-long\n") == 0);
    CHECK(confirm_from("new2@players.example") == 0);
    CHECK(has("(power dealt at start)"));
    CHECK(send_msg("new@players.example", "create mine newpw1-long\n") == 0);
    CHECK(has("this judge does not create games by mail"));
    dj_judge_close(J);
    J = open_judge(true);
    CHECK(send_msg("boss@players.example",
                   "CREATE mine bosspw1-long press=grey movement_delay=48h\n") ==
          0);
    CHECK(has("> CREATE mine **** press=grey movement_delay=48h"));
    CHECK(has("To create game mine, this address must show it is yours"));
    CHECK(confirm_from("boss@players.example") == 0);
    CHECK(has("Game 'mine' created, forming; you are its master"));
    CHECK(send_msg("boss@players.example", "SIGNON Mmine bosspw1-long\nstatus\n"
                                           "start\n") == 0);
    CHECK(has("press: grey"));
    CHECK(has("mine: started"));
    CHECK(send_msg("boss@players.example", "create mine2 bosspw1-long colour=red\n") ==
          0);
    CHECK(has("unknown setting 'colour'"));
    CHECK(send_msg("x@y.example", "list mine2\n") == 0);
    CHECK(has("game 'mine2' does not exist"));
    dj_buf_free(&out);
}

/* The caller owns the transaction: rolled back, nothing of the message
 * remains (orders, press, notices, failure records). */
static void test_rolled_back(void)
{
    dj_buf before, after;
    dj_buf_init(&before);
    dj_buf_init(&after);
    dj_game_export(J, "mine", &before);
    int mails = mail_count(NULL, NULL, NULL);
    dj_store *st = dj_judge_store(J);
    CHECK(dj_store_begin(st) == 0);
    dj_command_reply r;
    dj_command_reply_init(&r);
    dj_command_msg msg = {"boss@players.example", NULL,
                          "SIGNON Mmine bosspw1-long\nbecome france\nA par-bur\n"
                          "broadcast\nhello\nendpress\nset press none\n"
                          "pause\n",
                          NOW, NULL, NULL};
    CHECK(dj_command_execute(J, &msg, &r) == 0);
    CHECK(strstr(r.body.data, "demo") == NULL);
    CHECK(strstr(r.body.data, "mine: paused") != NULL);
    CHECK(dj_command_queue_reply(J, &msg, &r) == 0);
    dj_store_rollback(st);
    dj_game_export(J, "mine", &after);
    CHECK_STR(after.data, before.data);
    CHECK(mail_count(NULL, NULL, NULL) == mails);
    /* dj_command_run keeps it, and a Message-ID seen twice runs once. */
    dj_command_reply_free(&r);
    dj_command_reply_init(&r);
    CHECK(dj_command_run(J, &msg, "<m1@x>", true, &r) == 0);
    CHECK(mail_count("reply", "boss@players.example", "mine: paused") == 1);
    dj_command_reply_free(&r);
    dj_command_reply_init(&r);
    CHECK(dj_command_run(J, &msg, "<m1@x>", true, &r) == 1);
    CHECK(mail_count("reply", "boss@players.example", "mine: paused") == 1);
    dj_command_reply_free(&r);
    dj_buf_free(&before);
    dj_buf_free(&after);
}

/* Killed at any write point of a long message, the database holds either
 * nothing of the message or all of it. */
static void test_crash_anywhere(void)
{
    dj_buf base, now_;
    dj_buf_init(&base);
    dj_buf_init(&now_);
    dj_game_export(J, "mine", &base);
    const char *body = "SIGNON Mmine bosspw1-long\nresume\nbecome france\n"
                       "A par-bur\nF bre-mao\nbroadcast\nhello\nendpress\n"
                       "become germany\nA mun-ruh\nprocess\n";
    int crashed = 0, finished = 0;
    for (int n = 1; n < 400 && !finished; n++) {
        pid_t pid = fork();
        if (pid == 0) {
            dj_judge *j = open_judge(true);
            if (!j)
                _exit(3);
            dj_store_crash_at(dj_judge_store(j), n);
            dj_command_reply r;
            dj_command_reply_init(&r);
            dj_command_msg msg = {"boss@players.example", NULL, body, NOW,
                                  NULL, NULL};
            int rc = dj_command_run(j, &msg, "<crash@x>", true, &r);
            if (getenv("DJ_TEST_VERBOSE"))
                fprintf(stderr, "%s", r.body.data);
            _exit(rc == 0 ? 0 : 4);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (getenv("DJ_TEST_VERBOSE"))
            fprintf(stderr, "crash point %d: status %d\n", n, status);
        if (!WIFEXITED(status))
            break;
        dj_buf_reset(&now_);
        dj_game_export(J, "mine", &now_);
        if (WEXITSTATUS(status) == DJ_STORE_CRASH_STATUS) {
            crashed++;
            if (strcmp(now_.data, base.data) != 0) {
                if (getenv("DJ_TEST_VERBOSE"))
                    fprintf(stderr, "BASE:\n%s\nNOW:\n%s\n", base.data,
                            now_.data);
                /* Only the final commit's "after" point may show it, and
                 * then all of it. */
                CHECK(strstr(now_.data, "\"phase\": \"F1901M\"") != NULL);
                CHECK(strstr(now_.data, "\"action\": \"resume\"") !=
                      NULL);
                finished = 1;
            }
        } else {
            CHECK(WEXITSTATUS(status) == 0);
            finished = 1;
        }
    }
    CHECK(crashed > 20);
    CHECK(finished);
    CHECK(strstr(now_.data, "\"phase\": \"F1901M\"") != NULL);
    dj_buf_free(&base);
    dj_buf_free(&now_);
}

int main(int argc, char **argv)
{
    srcdir = test_srcdir(argc, argv);
    test_parse_commands();
    test_parse_passwords();
    test_parse_press();
    test_parse_message();

    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/test_command.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    dj_command_reply_init(&R);
    J = open_judge(false);
    CHECK(J != NULL);
    if (J) {
        const char *settings[] = {"movement_delay=3d"};
        setup_game("demo", settings, 1);
        test_needs_transaction();
        test_anyone();
        test_greeting_and_help_once();
        test_subject();
        test_signon_and_orders();
        test_signon_failures();
        test_press();
        test_press_archive();
        test_observers();
        test_player_settings();
        test_master();
        test_resign_terminate();
        test_private_unlisted();
        test_join_create();
        test_rolled_back();
        test_crash_anywhere();
        dj_judge_close(J);
    }
    dj_command_reply_free(&R);
    char cmdline[600];
    snprintf(cmdline, sizeof cmdline, "rm -rf '%s'", dir);
    if (system(cmdline) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return test_summary();
}
