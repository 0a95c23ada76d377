/* SPDX-License-Identifier: MIT */
/*
 * session.h — private to src/command: what one message has established
 * while its commands run, and the helpers every runner shares.
 *
 * A session carries who signed on (the identity every later command acts
 * as), the power orders are for (the player's own, or the one a master
 * BECAME), the message's one game, the passwords seen (to mask), the
 * order lines gathered for the order reader (orders.c), and the counts
 * for the summary.
 */
#ifndef DJ_COMMAND_SESSION_H
#define DJ_COMMAND_SESSION_H

#include <stdbool.h>

#include "command/command.h"
#include "command/parse.h"
#include "command/table.h"
#include "game/game.h"
#include "game/signon.h"

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
    bool by_token;                /* signed on by a reply token (message.c) */
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
    int repeats;                  /* read-only commands asked again */
    dj_buf answered;              /* the read-only commands answered, one
                                     key a line (repeats are not) */
    int orders_taken, orders_refused; /* order readings, for the summary */
    int cmds, cmds_failed;        /* commands run (not orders) */
    bool all_ordered;             /* the final status: every unit has one */
    dj_buf not_read;              /* lines of prose, listed once */
    /* sections: each SIGNON after the first starts one (section.c) */
    int section;                  /* 0 the first */
    int sections_refused;         /* sections skipped: sign-on refused */
    bool any_signed_on;           /* a section's sign-on succeeded */
    bool several_games;           /* the sections were about several */
    char section_game[CMD_GAME_MAX]; /* the game of the section before */
    /* a block of lines not read (section.c): CMD_PHASE (another phase's
     * orders, up to PHASE or SIGNON), CMD_IF (up to ENDIF); CMD_TEXT none */
    cmd_kind skip;
    int skip_depth;               /* IFs inside the skipped IF */
    char skip_what[16];           /* the phase skipped */
    bool skip_store;              /* PHASE's lines stored for skip_what */
} session;

/* What a runner returns. */
enum { RUN_OK = 0, RUN_FAILED = -1, RUN_REFUSED_KEEP = 1 };

/* The command failed: the reason into s->err; returns RUN_FAILED. */
int cmd_session_fail(session *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A game-layer call's result: its error becomes the command's. */
int cmd_game_rc(session *s, int rc);

dj_store *cmd_session_store(session *s);

/* ---- passwords (never in the reply) ---- */
void cmd_remember_secret(session *s, const char *password);
void cmd_mask_in(const session *s, char *text);
void cmd_mask_buf(const session *s, dj_buf *b);
/* "Edemo secret": a sign-on without its word; the rest masked (shown
 * is a CMD_LINE_MAX buffer). */
void cmd_mask_signon_words(session *s, char *shown);

/* ---- the reply ---- */
/* The reply's body, which the commands write their answers to. */
dj_buf *cmd_say(session *s);
void cmd_echo(session *s, const cmd *c);
void cmd_indented(session *s, const char *text);

/* The reply's size budget (judge.conf's limits.max_reply_size, 1 MiB by
 * default), and what is left of it. */
size_t cmd_reply_budget(const session *s);
size_t cmd_reply_room(const session *s);

/* ---- who may do what ---- */
bool cmd_same_game(const char *a, const char *b);
int cmd_check_game(session *s, const char *game);
bool cmd_is_master(const session *s);
/* How the message's orders came, as the orders record keeps it: "master"
 * (the game's master), "web" (judgeweb's door) or "mail". */
const char *cmd_order_source(const session *s);
int cmd_check_new_password(session *s, const char *password);

/* A SIGNON line in a mail signed on by its reply token: the token's
 * identity goes, the SIGNON decides (message.c). */
void cmd_drop_token_identity(session *s);

/* May the session run a command for `who`?  RUN_OK, else cmd_session_fail()
 * why. */
int cmd_may_run(session *s, cmd_who who);

/* ---- order lines (orders.c) ---- */
void cmd_batch_add(session *s, const cmd *c);
void cmd_flush_batch(session *s);
void cmd_batch_free(session *s);

/* ---- sections of a message (section.c) ---- */
/* Does this command start a new section (a SIGNON after a game is
 * fixed)? */
bool cmd_section_starts(const session *s, const cmd *c);
/* Start it: the caller has closed the one before (orders read, status
 * shown); the identity and the game are forgotten. */
void cmd_section_begin(session *s);
/* A line of a section whose sign-on was refused: echoed as skipped. */
bool cmd_section_skipped(session *s, const cmd *c);
/* The message ends: its last section counted. */
void cmd_section_end_of_message(session *s);
/* A block of lines not read begins (after PHASE for another phase, IF),
 * ends (PHASE, ENDIF, SIGNON); is this line in one?  (echoed as not
 * read). */
void cmd_block_skip_begin(session *s, cmd_kind kind, const char *what);
void cmd_block_skip_end(session *s);
bool cmd_block_skipped(session *s, const cmd *c);

/* A line that looks like text, not orders: listed once, not an error. */
void cmd_note_not_read(session *s, const char *echoed);

#endif
