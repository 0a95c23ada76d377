/* SPDX-License-Identifier: MIT */
/*
 * game.h — games: their lifecycle, orders, processing at deadlines, and
 * everything a game master does.  The one door front ends (judgectl, the
 * mail command language) use to change or read a game.
 *
 * Design.  A dj_judge is a session: the open database, the configuration,
 * the maps loaded so far and the clock.  The clock is a value given by the
 * caller (dj_judge_set_now), never read here, so tests run any calendar
 * they like.  Every operation that changes a game is one database
 * transaction (BEGIN IMMEDIATE ... COMMIT): it happens entirely or not at
 * all, and two processes never act on the same state.  Processing a phase
 * writes the results, the next phase and the mail announcing them in that
 * one transaction, and a phase can hold one result only (the results
 * table's key), so a phase is adjudicated exactly once however many
 * processes try and wherever one of them is killed.
 *
 * Game names, power names and settings come as the user wrote them;
 * errors are one line in dj_judge_error() ("game 'x' does not exist").
 * Text for the user (reports, listings, JSON) is appended to a dj_buf.
 *
 * Lifecycle: forming (players join) -> active (phases are played) <->
 * paused -> finished (victory, draw, concession or terminated).
 * See judgectl(8) for each operation as the master sees it.
 */
#ifndef DJ_GAME_GAME_H
#define DJ_GAME_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/adjudicate.h"
#include "game/config.h"
#include "reader/interpret.h"
#include "store/games.h"
#include "store/mail.h"
#include "store/store.h"
#include "util/buf.h"

typedef struct dj_judge dj_judge;

/*
 * Open the database named by cfg->database (migrating it) and start a
 * session; maps are read from `maps_dir`.  NULL with a message on error.
 */
dj_judge *dj_judge_open(const dj_config *cfg, const char *maps_dir,
                        char *err, size_t errlen);
/* The same, creating a missing database only when `create`; on failure
 * *failure says why (store.h: missing, denied, a newer schema...). */
dj_judge *dj_judge_open_as(const dj_config *cfg, const char *maps_dir,
                           bool create, dj_store_open_failure *failure,
                           char *err, size_t errlen);
void dj_judge_close(dj_judge *j);

const char *dj_judge_error(const dj_judge *j);
dj_store *dj_judge_store(dj_judge *j);

/* The current time (UTC seconds) for everything the session does. */
void dj_judge_set_now(dj_judge *j, int64_t now);
int64_t dj_judge_now(const dj_judge *j);
/* Who acts, for the game log ("judgectl", an address). */
void dj_judge_set_actor(dj_judge *j, const char *actor);
/* Tests only (src/cli/test_hooks.h): called on the verifying engine's
 * result before it is compared with the game engine's, so that the tests
 * can reach the disagreement path no real phase reaches.  Never set by
 * the installed programs. */
typedef void (*dj_verifier_hook)(dj_result *verifier_result);
void dj_judge_set_verifier_hook(dj_judge *j, dj_verifier_hook hook);

/* ---- forming --------------------------------------------------------- */

/*
 * A new game, forming.  `settings` are "key=value" as for dj_game_set
 * (applied over the configuration's defaults); master may be NULL.
 */
int dj_game_create(dj_judge *j, const char *name, const char *map,
                   const char *master, const char *const *settings,
                   int nsettings, dj_buf *out);

typedef struct dj_join_request {
    const char *email;     /* required for players and masters */
    const char *name;      /* the person's name, may be NULL */
    const char *power;     /* a power's name, or NULL: assigned at start */
    const char *password;  /* stored hashed; may be NULL */
    const char *role;      /* "player" (default), "observer", "master" */
    const char *password_hash; /* already hashed (a confirmed mail request):
                                  used when password is NULL */
} dj_join_request;

/*
 * Add a participant.  Players join forming games; the game starts by
 * itself when every power has a player.  Observers and masters may join
 * at any time.
 */
int dj_game_join(dj_judge *j, const char *game, const dj_join_request *req,
                 dj_buf *out);

/*
 * Start a forming game: players without a power get one at random among
 * those left.  Without `force` every power needs a player; with it, the
 * powers nobody took are played by civil-disorder dummies.
 */
int dj_game_start(dj_judge *j, const char *game, bool force, dj_buf *out);

/*
 * Change settings, "key=value" each, all or none:
 *   map (forming only), zone, movement_delay, retreat_delay,
 *   adjustment_delay, grace, early_delay (durations "48h", "none"),
 *   time_of_day ("20:00", "none"), days ("-MTWTF-"), absence_limit
 *   (days), nmr (cd|wait), early (yes|no), press
 *   (none|white|grey|white+grey), assignment (choice|random),
 *   rule (NAME=VALUE, a DATC option; NAME=default drops it; "none" drops
 *   all), deadline (of the current phase: "2027-01-09 20:00", "+2d").
 */
int dj_game_set(dj_judge *j, const char *game, const char *const *settings,
                int nsettings, dj_buf *out);
/* Is key ("press", "map", "rule", "deadline") a game setting at all? */
bool dj_game_setting_known(const char *key);

/* ---- orders and players' flags ----------------------------------------- */

/*
 * Enter a power's orders for the current phase (replacing any before),
 * read best-effort from `text`; with `ready`, mark the power READY.
 * Orders that cannot be read refuse the whole set (message in error).
 */
int dj_game_set_orders(dj_judge *j, const char *game, const char *power,
                       const char *text, const char *source, bool ready,
                       dj_buf *out);

/* The power's orders on file for the current phase, canonical, a line each. */
int dj_game_get_orders(dj_judge *j, const char *game, const char *power,
                       dj_buf *out);

/* flag: "ready", "not-ready", "wait", "no-wait". */
int dj_game_flag(dj_judge *j, const char *game, const char *power,
                 const char *flag, dj_buf *out);

/*
 * A power's vote: "draw", "concede POWER" (concede the game to POWER) or
 * "none".  The game ends when every surviving power with a player votes
 * draw, or all but one concede to that one.
 */
int dj_game_vote(dj_judge *j, const char *game, const char *power,
                 const char *vote, dj_buf *out);

/*
 * A player's absence: no deadline falls in [from, to) (times as
 * dj_time_parse reads them, in the game's zone; to NULL: one day from
 * `from`).  from "clear" drops every absence of the power.
 */
int dj_game_absence(dj_judge *j, const char *game, const char *power,
                    const char *from, const char *to, dj_buf *out);

/* ---- the master's actions ------------------------------------------------ */

/*
 * Adjudicate the current phase now, with the orders in hand: with the
 * game's engine, checked by its verifying engine (dj_game_verifier).  If
 * the two disagree nothing is stored or mailed to the players: the game is
 * paused and its master and the judge's admin get one mail with both
 * results and the phase as a case for `judgectl check`.
 */
int dj_game_process(dj_judge *j, const char *game, dj_buf *out);

/*
 * The master's decision after a disagreement: adjudicate the current phase
 * with `engine` alone (no verification), and resume the game if it was
 * paused.
 */
int dj_game_process_with(dj_judge *j, const char *game, dj_engine engine,
                         dj_buf *out);

/* The game's movement engine, and the one that checks it (-1: none). */
dj_engine dj_game_engine(const dj_game_rec *g);
int dj_game_verifier(const dj_game_rec *g);

/* The results the current phase would have now, saving nothing. */
int dj_game_preview(dj_judge *j, const char *game, dj_buf *out);

/*
 * Go back to an earlier phase ("S1903M"; NULL: the one before the
 * current), reopening it with the orders it had; rollforward undoes the
 * latest rollback while nothing has been processed since.
 */
int dj_game_rollback(dj_judge *j, const char *game, const char *phase,
                     dj_buf *out);
int dj_game_rollforward(dj_judge *j, const char *game, dj_buf *out);

int dj_game_pause(dj_judge *j, const char *game, dj_buf *out);
int dj_game_resume(dj_judge *j, const char *game, dj_buf *out);
int dj_game_terminate(dj_judge *j, const char *game, const char *reason,
                      dj_buf *out);
/* The master's notice (DPjudge's OFFICIAL) to everyone in the game, as
 * the judge's own notices go: "dipjudge:GAME - PHASE Official notice",
 * no press header. */
int dj_game_official(dj_judge *j, const char *game, const char *text,
                     dj_buf *out);

/*
 * A new player takes over a power; the old one is kept as "replaced".
 * The new player's password is `password`, or one generated when NULL;
 * either way it is mailed to them with how to sign on, and everyone is
 * told the power has a new player.
 */
int dj_game_replace(dj_judge *j, const char *game, const char *power,
                    const char *email, const char *name, const char *password,
                    dj_buf *out);
/* The power's player leaves; a civil-disorder dummy plays it. */
int dj_game_eject(dj_judge *j, const char *game, const char *power,
                  dj_buf *out);

/* ---- reading --------------------------------------------------------------- */

int dj_game_list(dj_judge *j, dj_buf *out);
/* The same without unlisted games (LIST by mail). */
int dj_game_list_public(dj_judge *j, dj_buf *out);
/* The same as JSON for scripts (judgectl(8), JSON OUTPUT): the versions
 * of the shapes, raised when a member is removed or changes meaning. */
#define DJ_LIST_JSON_VERSION 1
#define DJ_OUTBOX_JSON_VERSION 1
/* The export (judgectl export, /game/NAME.json): 2 since its public view
 * gave orders a "source" and no "author" (issue 31). */
#define DJ_GAME_JSON_VERSION 2
int dj_game_list_json(dj_judge *j, dj_buf *out);
/* Position, participants, who has ordered, deadlines. */
int dj_game_show(dj_judge *j, const char *game, dj_buf *out);
/* Results of the phases from..to (phase names or years; NULL: all). */
int dj_game_history(dj_judge *j, const char *game, const char *from,
                    const char *to, dj_buf *out);
/* The supply-centre history, one row per year. */
int dj_game_summary(dj_judge *j, const char *game, dj_buf *out);
/* The same as numbers: centres per power after each year's Fall. */
#define DJ_CENTRE_YEARS_MAX 200
typedef struct dj_centre_history {
    int npowers, nyears;
    bool start;               /* year[0] is the game's starting position */
    char power[DJ_MAX_POWERS][48];
    int year[DJ_CENTRE_YEARS_MAX];
    unsigned char count[DJ_CENTRE_YEARS_MAX][DJ_MAX_POWERS];
} dj_centre_history;
int dj_game_centre_history(dj_judge *j, const char *game,
                           dj_centre_history *t);
/* Is `a` a plain mail address (name@domain, none of the characters a
 * header would need quoted)?  judge.conf's judge_address is checked with
 * it when read, as every player's address is. */
bool dj_address_ok(const char *a);

/* The whole game as JSON. */
int dj_game_export(dj_judge *j, const char *game, dj_buf *out);
/* The mail queued for a game (NULL: every game). */
int dj_game_outbox(dj_judge *j, const char *game, dj_buf *out);
int dj_game_outbox_json(dj_judge *j, const char *game, dj_buf *out);
/* judgectl outbox --retry/--hold/--delete ID (store/mail.h). */
int dj_game_outbox_act(dj_judge *j, int64_t id, dj_outbox_action act,
                       dj_buf *out);
/* The latest `limit` mails received (game NULL: every game), one a line:
 * time (UTC), sender, game, the mail system's class and verdict, what
 * was done ("TIME\tSENDER\tGAME\tCLASS\tVERDICT\tOUTCOME"). */
int dj_game_maillog(dj_judge *j, const char *game, int limit, dj_buf *out);

/*
 * The JOIN, OBSERVE and CREATE requests waiting for their codes (never
 * the codes themselves): of a game (NULL: all) and from an address or a
 * whole "@domain" (NULL: anyone); with `clear`, delete them instead and
 * say how many.
 */
int dj_game_pending(dj_judge *j, const char *game, const char *from,
                    bool clear, dj_buf *out);

/* ---- players by mail (access.c, orders.c, press.c) ---------------------------
 *
 * The mail command language (src/command) acts for whoever signed on; the
 * functions below take that identity, found by dj_game_signon().
 */

/* Who a sign-on identified. */
typedef struct dj_signon {
    char game[64];          /* the game's name as stored */
    char role[12];          /* player, observer, master */
    int power;              /* the player's power, else -1 */
    char power_name[48];    /* "France"; "" unless a player */
    int64_t participant_id;
    bool short_password;    /* signed on with a password shorter than
                               DJ_PASSWORD_MIN: the player is asked to
                               change it */
    bool refused_unread;    /* refused before the password was looked at
                               (a wait, a limit): no guess was made */
} dj_signon;

/*
 * Who sent a mail, decided once per mail before any command runs (the
 * judge's ingest, judge/ingest.c) and handed on in one plain struct.
 *
 * The class is the mail system's verdict (its trusted
 * Authentication-Results, mail/authres.h) and decides whose limits the
 * mail spends: every limit on failures, waits, replies and pending
 * requests is counted per class, so forged or unknown mail can never
 * delay, refuse or silence authenticated mail, nor the web's sign-ins
 * (a class of their own here).
 */
typedef enum dj_sender_class {
    DJ_SENDER_UNKNOWN = 0,   /* no trusted verdict (or none configured) */
    DJ_SENDER_AUTHENTICATED, /* DMARC (or aligned DKIM) passed; a reply token */
    DJ_SENDER_FORGED,        /* DMARC failed for the From: domain */
    DJ_SENDER_WEB            /* the web door's sign-ins (not mail) */
} dj_sender_class;

/* "unknown", "authenticated", "forged", "web": as stored and logged. */
const char *dj_sender_class_name(dj_sender_class c);

/* How the identity was established. */
typedef enum dj_identity_how {
    DJ_BY_NONE = 0,  /* nobody (yet): a SIGNON line may still sign on */
    DJ_BY_TOKEN,     /* a reply token in a recipient address */
    DJ_BY_PASSWORD,  /* the mail's SIGNON line, checked before the lock */
    DJ_BY_WEB        /* the web door's sign-in */
} dj_identity_how;

const char *dj_identity_how_name(dj_identity_how h);

/* The limits the commands of this session count against (the judge's
 * ingest sets it per mail; DJ_SENDER_UNKNOWN by default). */
void dj_judge_set_sender_class(dj_judge *j, dj_sender_class c);
dj_sender_class dj_judge_sender_class(const dj_judge *j);

/* Characters at least in a password chosen by mail (JOIN, OBSERVE,
 * CREATE, TAKEOVER, SET PASSWORD).  Older, shorter ones keep working. */
#define DJ_PASSWORD_MIN 8

#define DJ_SIGNON_REFUSED 1

/*
 * Check a sign-on by mail.  `who` is a power (name, adjective or letter),
 * "master" or "observer" (an observer is found by the sender's address);
 * `sender` is the address the mail came from.  Returns 0 when signed on
 * (*id filled in); DJ_SIGNON_REFUSED with the reason in dj_judge_error()
 * when not: no such game or power, no password set, a wrong password, or
 * too many failures from this sender for this game within the
 * configuration's signon_window (then even the right password is refused).
 * Each failure is recorded (counted for the limit, written to the game's
 * log without the password; the masters are told when a sender reaches
 * the limit) and stays recorded: the refusal is not an error rolled back.
 * -1 on a database error.  Passwords are checked against the stored hash
 * in constant time, and a sign-on for a power without a password costs the
 * same time as one with, so timing does not tell which exist.
 */
int dj_game_signon(dj_judge *j, const char *game, const char *who,
                   const char *password, const char *sender, dj_signon *id);

/*
 * The password check of a sign-on, made before the mail's write
 * transaction: the same limits are read (a sign-on they refuse costs no
 * hash) and the passwords compared, and the answers kept for this mail
 * (signon_cache.c), so that dj_game_signon() inside the transaction
 * finds them without hashing again.  Records nothing; no transaction may
 * be open.  Returns 0 when the password is right, DJ_SIGNON_REFUSED when
 * not (or refused by a limit), -1 on a database error.
 */
int dj_game_signon_precheck(dj_judge *j, const char *game, const char *who,
                            const char *password, const char *sender,
                            dj_signon *id);

/* The mail's checks are done with: its answers (right and wrong) go;
 * the right passwords stay remembered. */
void dj_signon_cache_end_mail(dj_judge *j);

/* Forget the remembered sign-on of one participant (<= 0: of everyone),
 * e.g. when its password changed or its sessions end.  A changed password
 * is forgotten anyway: the stored hash is part of what is remembered. */
void dj_signon_cache_forget(dj_judge *j, int64_t participant_id);

typedef struct dj_signon_cache_stats {
    long full_checks;     /* yescrypt run */
    long remembered_hits; /* a right password known from an earlier mail */
    long mail_hits;       /* answered by this mail's check before the lock */
} dj_signon_cache_stats;

void dj_signon_cache_stats_get(dj_judge *j, dj_signon_cache_stats *out);

/* ---- reply tokens (reply_token.c) ----
 *
 * The secret in the Reply-To address of the judge's mail to a
 * participant of a game: answering it signs the participant on.  24
 * letters a-z2-7 (120 bits), derived from the judge's reply key, the
 * participant and a generation; only its hash is stored.
 */
#define DJ_REPLY_TOKEN_LEN 24

/* Read the reply key (32 bytes), making it (0600) when the file does not
 * exist: 0, or -1 with the reason in err.  Without a key no mail carries
 * a token (and none is accepted). */
int dj_judge_load_reply_key(dj_judge *j, const char *path, char *err,
                            size_t errlen);
bool dj_judge_has_reply_key(const dj_judge *j);

/* The token of the live participant of game_id mailed at `email`, into
 * token[DJ_REPLY_TOKEN_LEN + 1] (its hash recorded): 0, 1 when there is
 * none (no such participant, no key), -1 on error. */
int dj_game_reply_token(dj_judge *j, int64_t game_id, const char *email,
                        char *token);

/* Sign on by token: 0 (*id filled in), DJ_SIGNON_REFUSED (no live
 * participant has it: a wrong, old or made-up token), -1 on error. */
int dj_game_token_signon(dj_judge *j, const char *token, dj_signon *id);

/* A mail came to a reply address that is no live participant's: counted
 * with the failed sign-ons (of the session's class), never answered. */
int dj_game_token_refused(dj_judge *j, const char *sender);

/* The answer to a press mail (its reply address names the message): the
 * body goes as press to the sender it showed, alone, under the game's
 * press rules.  Grey press is not answered this way. */
int dj_game_press_reply(dj_judge *j, const dj_signon *id, int64_t press_id,
                        const char *body, dj_buf *out);

/* SET TOKEN NEW: a new generation, the old token dead at once. */
int dj_game_token_new(dj_judge *j, const dj_signon *id, dj_buf *out);

/*
 * The same, where the sender counted for the limits is not an address
 * (the web door's "web 192.0.2.1"): an observer is found by `address`
 * (the one the observer gave), which never lifts a limit.
 */
int dj_game_signon_as(dj_judge *j, const char *game, const char *who,
                      const char *password, const char *sender,
                      const char *address, dj_signon *id);

/* A signed-on participant's new password (stored hashed). */
/* A master's SET PASSWORD after BECOME: the power's player's password. */
int dj_game_set_power_password(dj_judge *j, const char *game,
                               const char *power, const char *password,
                               dj_buf *out);
int dj_game_set_password(dj_judge *j, const dj_signon *id,
                         const char *password, dj_buf *out);

/*
 * A participant's new address, where the judge's mail goes: done when the
 * new address confirmed SET ADDRESS by code (dj_game_request_change).  The
 * masters are told (unless the participant is one) and so is the old
 * address.
 */
int dj_game_set_address(dj_judge *j, const char *game,
                        int64_t participant_id, const char *address,
                        dj_buf *out);

/*
 * SET MASTER, confirmed: the master `master_id` hands the game to `to`
 * (an address neither a master nor a player of the game), who gets a new
 * password in out (the confirming reply goes to that address); the old
 * master and everyone in the game are told.
 */
int dj_game_hand_over(dj_judge *j, const char *game, int64_t master_id,
                      const char *to, dj_buf *out);

/*
 * PROMOTE, confirmed: the master `master_id` makes `to` (an address or an
 * observer, neither a master nor a player) a second master of the game,
 * keeping their own place; `to` gets its own password in out, everyone
 * in the game is told.
 */
int dj_game_promote(dj_judge *j, const char *game, int64_t master_id,
                    const char *to, dj_buf *out);

/*
 * A signed-on participant leaves the game: a player of a forming game
 * frees the place; a player of a running game leaves the power in civil
 * disorder (everyone is told); an observer stops observing.  Masters
 * cannot resign.
 */
int dj_game_resign(dj_judge *j, const dj_signon *id, dj_buf *out);

/* Mail the game's masters a notice ("dipjudge:GAME - PHASE What"). */
int dj_game_notify_masters(dj_judge *j, const char *game, const char *what,
                           const char *text);

/*
 * What anyone may see of a game (LIST GAME by mail): state, phase and
 * deadline, settings, the powers with their status and who still has to
 * order, the position.  No addresses and no votes.
 */
int dj_game_show_public(dj_judge *j, const char *game, dj_buf *out);

/*
 * A power's orders by mail.  `lines` are read best-effort for the power
 * (reader/interpret.h); one reading per order found goes to
 * reads[0..*nreads) (at most max_reads; *nreads may say more, as
 * dj_interpret_lines) for the caller to echo.  Every order read goes on
 * file, replacing the power's earlier order for the same unit, except in
 * an adjustment phase, where the orders read replace the whole set; a line
 * that could not be read (an error, an ambiguity) changes nothing.  The
 * READY flag is left as it was.  Fails only when the game cannot take
 * orders from the power now (finished, forming, nothing to order).
 */
/*
 * njudge's PHASE: orders for a later phase.  dj_game_later_begin returns
 * 1 when `phase` ("F1902M") is later than the game's current phase (the
 * power's stored text for it is begun afresh, replacing any earlier
 * one), 0 when it is the current phase (nothing stored: the lines are
 * read now), -1 with the judge's error when it is past or no phase.
 * dj_game_later_line adds one line to the stored text.  The text is read
 * as the power's orders when that phase opens (dj_game_process), and the
 * player is mailed what was read.
 */
int dj_game_later_begin(dj_judge *j, const char *game, const char *power,
                        const char *phase);
int dj_game_later_line(dj_judge *j, const char *game, const char *power,
                       const char *phase, const char *line);

int dj_game_submit_orders(dj_judge *j, const char *game, const char *power,
                          const char *const *lines, int nlines,
                          const char *source, dj_reading *reads,
                          int max_reads, int *nreads);

/* Withdraw all the power's orders for the current phase: its units hold. */
int dj_game_clear_orders(dj_judge *j, const char *game, const char *power,
                         const char *source, dj_buf *out);

/*
 * The power's situation in the current phase, for its player: the orders
 * on file (canonical), the units still without an order or the builds or
 * removals still due, its READY and WAIT flags, and the deadline.
 */
int dj_game_order_status(dj_judge *j, const char *game, const char *power,
                         dj_buf *out);

/*
 * The same, and in *complete (when not NULL) whether the power has
 * orders for everything it must decide: every unit (every dislodged unit
 * that can retreat) has an order, or every build or removal due is
 * given; false when it has nothing to order.  Decided from the orders on
 * file and the position, by orders_complete() (game_int.h).
 */
int dj_game_order_status_full(dj_judge *j, const char *game,
                              const char *power, dj_buf *out,
                              bool *complete);

/*
 * Is a line of a mail prose in this game (nothing in it could belong to
 * an order on the game's map: a greeting, a sign-off), as the order
 * reader decides for a player's lines (dj_interpret_line_is_prose)?  For
 * the lines of someone with no power to order for, such as a master who
 * has not BECOME one.  *prose false on any failure.
 */
int dj_game_line_is_prose(dj_judge *j, const char *game, const char *line,
                          bool *prose);

/*
 * Press from a signed-on participant, under the game's press rules
 * (settings press, partial_press, fake_press, observer_press).  Lists of
 * recipients are read by game/press_recipients.h: power names,
 * adjectives or letters, "master" (M), "observers" (O), "all", "all but
 * R T", separated by spaces or commas; any other word refuses the whole
 * press, naming the word.
 */
typedef struct dj_press_request {
    const char *to;       /* recipients as written; NULL: a broadcast */
    const char *fake_to;  /* with fake: the recipients shown; NULL: shown
                             as a broadcast */
    bool fake;            /* show other recipients than the real ones */
    const char *fake_from; /* FROM: the power shown as the sender; NULL:
                              the real one */
    int grey;             /* -1 the game's default, 0 white, 1 grey */
    const char *body;     /* the text, lines ending in '\n' */
} dj_press_request;

/*
 * Send press: one mail per recipient (never back to the sender), and a
 * copy in the press archive.  Press to the master alone is always allowed
 * and always white.  A message that breaks a rule is refused whole, with
 * the rule in the error.
 */
int dj_game_press(dj_judge *j, const dj_signon *id,
                  const dj_press_request *req, dj_buf *out);

/*
 * DIARY ... ENDDIARY: keep an entry in the signed-on player's diary for
 * the current phase; it is read by that player alone (DIARY READ:
 * dj_game_diary_read) until the game ends, when every power's diary goes
 * out with the final table.  Masters and observers keep none and read
 * none while the game runs.
 */
int dj_game_diary_add(dj_judge *j, const dj_signon *id, const char *body,
                      dj_buf *out);
int dj_game_diary_read(dj_judge *j, const dj_signon *id, dj_buf *out);

/*
 * A picture of a game's phase (PHASE like S1901M, NULL: the current one)
 * in a format of render.h (DJ_PICTURE_PNG...).  orders: 1 draws the
 * phase's orders (with their results once it is processed), 0 none, -1
 * the default: orders once processed, none for the current phase (they
 * are secret until then).  -1 and 0 come from the picture cache on disk
 * (as dj_game_phase_picture) or are drawn and kept there; 1 is drawn each
 * time.  *out is malloc'd (dj_picture_free).
 */
struct dj_picture;
int dj_game_picture(dj_judge *j, const char *game, const char *phase,
                    int orders, int format, struct dj_picture *out);

/*
 * The picture of a phase as players see it, by the phase's row id (what
 * mail and the web keep): a phase played is the board after it with its
 * orders and results over it, the current phase its position.  Taken
 * from the picture cache on disk (judge.conf's picture_cache) when it was
 * drawn before, else drawn and kept there; never stored in the database.
 * The attachment's name ("demo-S1901M.png") goes to name.  dj_game_picture
 * with orders -1 is the same by game and phase name.
 */
int dj_game_phase_picture(dj_judge *j, int64_t phase_id, int format,
                          struct dj_picture *out, char *name, size_t namelen);

/*
 * SET MAP by mail: the format of the picture attached to this participant's
 * results mail (png, pdf, svg or none, any case), instead of the game's
 * map_attachment.
 */
int dj_game_set_map_format(dj_judge *j, const dj_signon *id,
                           const char *format, dj_buf *out);

/*
 * The subject of every mail the judge writes, appended to out:
 * "JUDGE:GAME - PHASE WHAT" ("dipjudge:alpha - S1901M Results"), without
 * ":GAME" when game is NULL or "", without "PHASE " when phase is NULL,
 * "" or "-" (no phase yet); judge NULL is "dipjudge".
 */
void dj_game_mail_subject(dj_buf *out, const char *judge, const char *game,
                          const char *phase, const char *what);

/*
 * MAP by mail: the picture of a phase of a game (PHASE like S1901M, NULL:
 * the current one; as dj_game_phase_picture draws it) in the
 * participant's format (id NULL or their choice "none": PNG), named in
 * *picture for the reply to carry (drawn as it is sent).  A line for the
 * reply goes to out.
 */
int dj_game_map_for_mail(dj_judge *j, const char *game, const char *phase,
                         const dj_signon *id, dj_picture_ref *picture,
                         dj_buf *out);

/*
 * TAKEOVER by mail: `email` volunteers to play `power`, in civil disorder,
 * with `password`.  The game's takeover setting decides: yes (it happens:
 * the power changes hands as with replace, everyone is told), approve (the
 * masters are asked, and answer with REPLACE), no (refused).
 */
int dj_game_takeover(dj_judge *j, const char *game, const char *power,
                     const char *email, const char *password,
                     const char *password_hash, dj_buf *out);

/*
 * JOIN, OBSERVE, CREATE and TAKEOVER by mail wait for the address to
 * confirm (confirm.c): the request is checked in full, kept with a random
 * code, and the code goes to out (for the reply).  action: "join",
 * "observe", "create", "takeover"; power and settings may be NULL.
 */
int dj_game_request_confirmation(dj_judge *j, const char *action,
                                 const char *game, const char *power,
                                 const char *email, const char *password,
                                 const char *settings, dj_buf *out);

/*
 * SET ADDRESS (action "address") and SET MASTER ("master", id a master)
 * wait for the NEW address to confirm: the request is checked in full and
 * kept with a random code, which is mailed to `address` alone; out says
 * so, without the code.
 */
int dj_game_request_change(dj_judge *j, const char *action,
                           const dj_signon *id, const char *address,
                           dj_buf *out);

/* CONFIRM code from email: the request happens now. */
typedef struct dj_confirmed {
    char action[12];   /* join, observe, create, takeover, address, master */
    char game[64];
} dj_confirmed;
int dj_game_confirm(dj_judge *j, const char *email, const char *code,
                    dj_confirmed *done, dj_buf *out);

/* The session's actor (see dj_judge_set_actor) and configuration. */
const char *dj_judge_actor(const dj_judge *j);
const dj_config *dj_judge_config(const dj_judge *j);

/*
 * The game's name as stored and its current (or final) phase ("S1901M";
 * "" while forming), for mail subjects.  Fails when there is no such game.
 */
int dj_game_phase(dj_judge *j, const char *game, char *name, size_t namelen,
                  char *phase, size_t phaselen);

/* ---- the web door (websession.c) -------------------------------------------
 *
 * judgeweb signs players in with the same check and the same failure
 * counts and limits as SIGNON by mail (dj_game_signon, with the client's
 * address as the sender), then keeps a session: a 256-bit random token
 * the browser holds in a cookie, stored only as its SHA-256
 * (store/web.h), ending at its expiry, at sign-out, or when the
 * participant leaves the game.
 */
#define DJ_WEB_TOKEN_LEN 64   /* hex digits of a session or CSRF token */

/*
 * Sign in: 0 with the session's token and CSRF token (each
 * DJ_WEB_TOKEN_LEN hex digits and a NUL) and *id; DJ_SIGNON_REFUSED with
 * the reason in dj_judge_error(); -1 on error.  `client` names the
 * client for the failure counts ("web 192.0.2.1"); `address` finds an
 * observer (who = "observer"; may be NULL); `lifetime` in seconds.
 * The web's limits apply (access.c): per client and power, and per power
 * a day, where only a known browser may still try: `device` is the
 * browser's known-browser cookie (NULL or "" when none); a browser that
 * is not yet known to the participant gets one in new_device
 * (DJ_WEB_TOKEN_LEN + 1 bytes; "" when the browser keeps its own).
 */
#define DJ_WEB_DEVICE_DAYS 180
int dj_game_web_signin(dj_judge *j, const char *game, const char *who,
                       const char *password, const char *address,
                       const char *client, const char *device, int lifetime,
                       char *token, char *csrf, char *new_device,
                       dj_signon *id);

/* The password asked again (the web's account form): 0 when it is the
 * signed-in participant's, DJ_SIGNON_REFUSED (a failure, counted and
 * limited as a sign-in's), -1.  `device` as for dj_game_web_signin. */
int dj_game_web_reauth(dj_judge *j, const dj_signon *id,
                       const char *password, const char *client,
                       const char *device);

/* A new session for a participant whose password or address this browser
 * has just changed (which ended every session of the participant). */
int dj_game_web_renew(dj_judge *j, int64_t participant_id,
                      const char *client, int lifetime, char *token,
                      char *csrf);

/* The session a cookie's token names: 0 (id and csrf filled), 1 when there
 * is none (unknown, expired, signed out, the participant gone), -1. */
int dj_game_web_session(dj_judge *j, const char *token, dj_signon *id,
                        char *csrf);

/* Sign out: the session's row goes (nothing when there is none). */
int dj_game_web_signout(dj_judge *j, const char *token);

/* One game of the judge's front page (dj_game_overviews). */
typedef struct dj_game_overview {
    char name[DJ_GAME_NAME_MAX];
    char map[DJ_STORE_NAME_MAX];
    char state[16];           /* forming, active, paused, finished */
    char ending[DJ_STORE_TEXT_MAX];
    char phase[16];           /* "" while forming */
    int64_t deadline;         /* of the current phase, UTC; 0: none */
    char deadline_local[64];  /* in the game's zone (dj_game_overview_get) */
    int wanted;               /* powers still without a player */
    char press[16];           /* the press settings, for the press form */
    bool partial_press, grey_choice;
    bool private_game;        /* pages only for its participants */
} dj_game_overview;

/* Every game a visitor may see listed (dj_game_listed_on_web), by name;
 * *out malloc'd. */
int dj_game_overviews(dj_judge *j, dj_game_overview **out, int *n);

/* One game (any case): 0, 1 when there is no such game, -1. */
int dj_game_overview_get(dj_judge *j, const char *game, dj_game_overview *o);


/*
 * The game as dj_game_export writes it, less what only its master and
 * the judge may see: no addresses, no orders of the phase still being
 * played, no mail and no log (judgeweb's /game/NAME.json).
 */
int dj_game_export_public(dj_judge *j, const char *game, dj_buf *out);

/* The game's live phases in order, the current (or final) one last;
 * *out malloc'd.  id changes when a rollback replays a phase, and
 * `played` when it is adjudicated: together they name one picture. */
typedef struct dj_phase_ref {
    char name[16];
    int64_t id;
    bool played;
} dj_phase_ref;
int dj_game_phases(dj_judge *j, const char *game, dj_phase_ref **out, int *n);

/* ---- the clock ------------------------------------------------------------- */

/*
 * Process every active game that is due at the session's time: deadline
 * passed with every power's orders in (or grace expired, per the game's
 * NMR policy), or everyone ready early.  Announces lateness once per
 * phase.  Each game is its own transaction; one failing game does not stop
 * the others.  *processed counts the phases adjudicated.  Returns 0, or -1
 * when any game failed (the last error in dj_judge_error()).
 */
int dj_judge_tick(dj_judge *j, dj_buf *out, int *processed);

/* ---- who may see what (audience.c, press_archive.c) -------------------------
 * One answer for the mail commands and the web alike. */

/* In LIST by mail and the web's lists?  Neither an unlisted game (reached
 * by its name only) nor a private one. */
bool dj_game_listed(const dj_game_rec *g);

/* May the viewer (NULL, or whoever is signed on, to any game) be told of
 * the game (LIST GAME, SUMMARY, PRESS ARCHIVE)?  0 yes (or there is no
 * such game); -1 with "game 'X' does not exist" in j->err when it is
 * private and the viewer is not signed on to it. */
int dj_game_described_to(dj_judge *j, const char *game,
                         const dj_signon *viewer);

/* Private: JOIN and OBSERVE must give the game's join password. */
bool dj_game_is_private(const dj_game_rec *g);

/* In the web's lists?  As dj_game_listed: a private game's pages are its
 * participants' only (dj_game_overviews). */
bool dj_game_listed_on_web(const dj_game_rec *g);
bool dj_game_join_password_ok(const dj_game_rec *g, const char *given);

/* May one JOIN or OBSERVE the game with this join password (NULL: none)?
 * 0, or -1 with the reason (no such game; private and no or a wrong join
 * password). */
int dj_game_check_admission(dj_judge *j, const char *game,
                            const char *join_password);

/* May the viewer (NULL: someone not signed on to the game) see who plays
 * which power (the setting `identities`)? */
bool dj_game_identities_visible(const dj_game_rec *g,
                                const dj_signon *viewer);

/* How a power's player `pl` is named to `viewer` (NULL: anyone, and every
 * mail that goes to all the game's players): by the name the player gave
 * when dj_game_identities_visible lets the viewer know who plays, else
 * `hidden`.  Never by address: a player without a name is "(no name
 * given)".  Every page, picture, JSON and mail that names players to
 * anyone but the master or the administrator names them through this. */
struct dj_participant_rec;
const char *dj_game_player_shown(const dj_game_rec *g,
                                 const dj_signon *viewer,
                                 const struct dj_participant_rec *pl,
                                 const char *hidden);

/* Does the viewer read every press message of the game as it was sent
 * (true sender, true recipients)?  The game's master, unless the setting
 * master_press is "addressed". */
bool dj_press_master_reads_all(const dj_game_rec *g,
                               const dj_signon *viewer);

/* May the viewer (a participant signed on to this game, or NULL) read
 * this press message?  Broadcasts: every participant, everyone once the
 * game is over; other press: its sender and real recipients only, and a
 * master who reads all (dj_press_master_reads_all). */
struct dj_press_rec;
bool dj_press_visible(const dj_game_rec *g, const struct dj_press_rec *p,
                      const dj_signon *viewer);

/* One press message as the viewer sees it. */
typedef struct dj_press_item {
    const struct dj_press_rec *rec; /* the archive's row (store/press.h) */
    const char *phase;              /* "S1901M", "" when none */
    const char *from;               /* "France", "an anonymous sender" */
    const char *to;                 /* "everyone", "Germany and Italy" */
    const char *body;
    bool broadcast; /* shown as a broadcast (a fake one too, unless the
                       reader sees the truth) */
} dj_press_item;

/* Return non-zero to stop. */
typedef int (*dj_press_each_fn)(void *arg, const dj_press_item *item);

/*
 * Every press message of a game the viewer may read, oldest first, within
 * the phases from..to (names like S1901M or years; NULL: no bound).  A
 * private game's press is refused to a viewer not signed on.  0 or -1.
 */
int dj_game_press_each(dj_judge *j, const char *game, const dj_signon *viewer,
                       const char *from, const char *to, dj_press_each_fn fn,
                       void *arg);

/* The same written out (PRESS ARCHIVE), at most max_bytes of messages,
 * ending with a note of how many were left out and how to ask for them. */
int dj_game_press_archive(dj_judge *j, const char *game,
                          const dj_signon *viewer, const char *from,
                          const char *to, size_t max_bytes, dj_buf *out);

/* ---- reliability figures (reliability.c) -------------------------------- */

/* One line of an address's figures across every game on the judge,
 * headed by `who` (NULL: the address itself, for the player, the master
 * and the administrator); with public_only, nothing unless the player
 * allowed it (SET STATS PUBLIC). */
int dj_game_player_stats(dj_judge *j, const char *email, const char *who,
                         bool public_only, dj_buf *out);

/* SET STATS PUBLIC / PRIVATE. */
int dj_game_set_stats_public(dj_judge *j, const char *email, bool public,
                             dj_buf *out);

#endif
