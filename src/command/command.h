/* SPDX-License-Identifier: MIT */
/*
 * command.h — the email command language: what players, observers and
 * game masters write to the judge, run against the game layer.
 *
 * Design.  The mail front end (judged) has already turned a message into
 * plain UTF-8 text: the sender's address, the subject, and the body with
 * quoted lines and the signature removed.  dj_command_execute() reads that
 * text command by command (the language is modelled on njudge's and
 * DPjudge's; players' guide: dipjudge(7)), acts through game.h as the
 * participant who signed on, and writes a reply: every line echoed with
 * what came of it, passwords masked, then the power's orders on file and
 * what is still missing, and a summary of what the message did.
 *
 * Transactions.  The whole message runs inside ONE transaction that the
 * caller owns:
 *
 *     dj_store_begin(store);
 *     dj_store_maillog_add(store, message_id, ...);    duplicate? stop
 *     dj_command_execute(judge, &msg, &reply);        -1? roll back
 *     dj_command_queue_reply(judge, &msg, &reply);
 *     dj_store_commit(store);
 *
 * so the record of the message, everything its commands changed, the mail
 * they queued (press, notices to the master, results of a PROCESS) and the
 * reply become durable together or not at all: a crash anywhere leaves the
 * message to be read again, never half-applied.  Inside, each command runs
 * in a savepoint of its own: a command that fails (a wrong password, a
 * game that does not allow it) changes nothing, is explained in the reply,
 * and the rest of the message still runs.  Only a failure of the message
 * as a whole (the database lost the transaction, memory ran out) returns
 * -1, and then the caller must roll everything back.
 *
 * One game per part of a message: each SIGNON after the first begins a
 * new part (section.c), which acts on its own sign-on's game only; a
 * part whose sign-on is refused is skipped.  Within a part, the first
 * command that signs on to, joins, observes or creates a game fixes it;
 * a command acting on another game is refused (reading commands, LIST
 * and SUMMARY, may name any; MAP and HISTORY answer only the game's
 * participants, signed on).
 *
 * Reply subjects follow the judge's one pattern,
 *     JUDGE:GAME - PHASE What       "dipjudge:demo - S1901M Orders"
 *     JUDGE:GAME - What             a game without a phase yet
 *     JUDGE - What                  no game
 * where What is "Orders" when the message gave orders, "Signon failed"
 * when its sign-on was refused, else "Reply".
 */
#ifndef DJ_COMMAND_COMMAND_H
#define DJ_COMMAND_COMMAND_H

#include <stdbool.h>
#include <stdint.h>

#include "game/game.h"
#include "game/signon.h"
#include "util/buf.h"

typedef struct dj_command_msg {
    const char *from;     /* the sender's address (already extracted) */
    const char *subject;  /* may be NULL */
    const char *body;     /* UTF-8; quotes and signature already stripped */
    int64_t now;          /* the time the message is acted on (UTC) */
    /* The web door (judgeweb): the sender signed in there, with the same
     * password and limits as SIGNON, so the message runs as this identity
     * without a SIGNON line (another SIGNON in it is refused as a second
     * one).  NULL for mail. */
    const dj_signon *signed_on;
    /* Mail: who sent it, as the judge's ingest decided before any
     * command runs (dj_command_prepare).  NULL: nobody, class unknown. */
    const struct dj_identity *identity;
} dj_command_msg;

/*
 * Who sent a mail, decided once per mail before its transaction and
 * handed to the commands: the participant or none, how that was
 * established, and the mail system's class (game.h), whose limits every
 * command of the mail spends.  A reply token signs the mail on before its
 * first line (a SIGNON line in it still works, and wins); a password is
 * checked by dj_command_prepare() before the lock and its SIGNON line
 * then signs on at once.
 */
typedef struct dj_identity {
    dj_identity_how how;   /* DJ_BY_TOKEN: `who` is signed on already */
    dj_sender_class cls;
    dj_signon who;
    int64_t press_reply;   /* > 0: the mail answers this press message */
    char verdict[128];     /* the mail system's, for the mail log */
} dj_identity;

/*
 * Before the transaction (none may be open): check the passwords of the
 * message's SIGNON lines (at most a few), so that the sign-ons inside it
 * cost no hashing (game.h: dj_game_signon_precheck), under the limits of
 * id->cls.  Sets id->how to DJ_BY_PASSWORD when the first one is right
 * and nothing signed the mail on before.  Returns how many SIGNON lines
 * were found.
 */
int dj_command_prepare(dj_judge *j, const dj_command_msg *msg,
                       dj_identity *id);

typedef struct dj_command_reply {
    dj_buf subject;       /* see the pattern above */
    dj_buf body;          /* plain UTF-8 text */
    char game[64];        /* the message's game, "" when none */
    char outcome[24];     /* for the mail log: ok, errors, signon-failed,
                             empty (nothing to do) */
    int commands;         /* commands and order lines run */
    int failed;           /* of which failed or not understood */
    bool orders;          /* the message gave orders */
    char error[256];      /* why dj_command_execute returned -1 */
    dj_picture_ref picture; /* the picture to attach (MAP); phase_id 0: none */
    bool signed_on;       /* a sign-on of the message succeeded */
} dj_command_reply;

void dj_command_reply_init(dj_command_reply *r);
void dj_command_reply_free(dj_command_reply *r);

/*
 * Run the message inside the caller's open transaction (see above) and
 * fill in the reply.  The session's clock is set to msg->now and its actor
 * (the game log's "who") to the sender for the duration.  Returns 0 (even
 * when commands failed: the reply says which and why) or -1 when the
 * message could not be run at all (no transaction open, the transaction
 * was lost, out of memory; the reason in reply->error): the caller must
 * roll back and may retry the message later.
 */
int dj_command_execute(dj_judge *j, const dj_command_msg *msg,
                       dj_command_reply *reply);

/* Queue the reply to the sender in the outbox: kind "signon-failed" when
 * the message's sign-on was refused (judge/reply_budget.h counts those
 * apart), else "reply". */
int dj_command_queue_reply(dj_judge *j, const dj_command_msg *msg,
                           const dj_command_reply *reply);

/*
 * Begin, execute, optionally queue the reply, commit: the whole message in
 * one transaction of its own (for judgectl command and tests).  A
 * message_id, when given, is recorded in the mail log first; a message
 * seen before is not run again (returns 1, nothing changed).  Returns 0,
 * 1 or -1 (everything rolled back).
 */
int dj_command_run(dj_judge *j, const dj_command_msg *msg,
                   const char *message_id, bool queue_reply,
                   dj_command_reply *reply);

/*
 * Which of the web's forms may carry a message's text (the command
 * table's `door` column): DJ_WEB_FORM_ORDERS when it holds only orders
 * and what the order box takes (READY, NOT READY, SET WAIT, SET NOWAIT,
 * CLEAR, press); DJ_WEB_FORM_ACCOUNT when it holds only commands of the
 * account form, which asks for the password again (RESIGN, SET PASSWORD,
 * SET ADDRESS, SET MASTER, TAKEOVER, the concede and draw votes);
 * DJ_WEB_FORM_MAIL when a command goes by mail only, or the text mixes
 * the two forms.  `what` names the command that decided (the first
 * account command, or the one out of place).
 */
typedef enum dj_web_form {
    DJ_WEB_FORM_ORDERS,
    DJ_WEB_FORM_ACCOUNT,
    DJ_WEB_FORM_MAIL,
    DJ_WEB_FORM_DESK, /* only commands of the master's desk (PROCESS,
                         PAUSE, RESUME, SET DEADLINE, SET, ROLLBACK,
                         ROLLFORWARD) */
} dj_web_form;
dj_web_form dj_command_web_form(const char *text, char *what, size_t whatlen);

/* The HELP text, as the judge mails it. */
void dj_command_help(dj_buf *out);

#endif
