/* SPDX-License-Identifier: MIT */
/*
 * signon.h — who a mail or web visitor is: a sign-on (password, reply
 * token or web session) and the sender classes, the sign-on cache, reply
 * tokens, passwords and addresses changed, masters handed over and
 * promoted, resignation, takeover and what waits for an address to confirm
 * (access.c, signon_cache.c, reply_token.c, password.c, confirm.c); the web
 * door's sessions are websession.h.
 * Part of the game room's door; the session they all take is game.h's.
 */
#ifndef DJ_GAME_SIGNON_H
#define DJ_GAME_SIGNON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

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
 * SET ADDRESS by mail (set_address.c): `list` is one address or several,
 * separated by commas; each is added to the player's addresses once it
 * confirms by code (at most DJ_ADDRESSES_MAX in all), and one written
 * -address is removed at once (never the last).  A master's or an
 * observer's SET ADDRESS replaces its one address.  `power` (a master
 * after BECOME, else NULL) changes that power's player's addresses.
 */
int dj_game_change_addresses(dj_judge *j, const dj_signon *id,
                             const char *power, const char *list,
                             dj_buf *out);

/* SET ADDRESS's list read (set_address.c): one address or several
 * separated by commas, each a plain address (dj_address_ok), one written
 * -address to be removed; none twice; at most `max`.  0 with items[0..n),
 * or -1 with the reason in why. */
#define DJ_ADDRESS_LIST_MAX 8
#define DJ_ADDRESS_LEN 512 /* the store's DJ_EMAIL_MAX (checked there) */
typedef struct dj_address_item {
    char address[DJ_ADDRESS_LEN];
    bool remove;
} dj_address_item;
int dj_address_list_read(const char *list, dj_address_item *items, int max,
                         int *n, char *why, size_t whylen);

/* SET ADDRESS -address: one of the signed-on player's addresses removed
 * at once (never the last), addresses.c. */
int dj_game_remove_address(dj_judge *j, const dj_signon *id,
                           const char *address, dj_buf *out);

/* The signed-on participant's addresses, one line. */
int dj_game_own_addresses(dj_judge *j, const dj_signon *id, dj_buf *out);

/* judgectl addresses: a power's player's addresses, or (remove not NULL)
 * one of them removed (never the last). */
int dj_game_addresses(dj_judge *j, const char *game, const char *power,
                      const char *remove, dj_buf *out);

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

/* Is `a` a plain mail address (name@domain, none of the characters a
 * header would need quoted)?  judge.conf's judge_address is checked with
 * it when read, as every player's address is. */
bool dj_address_ok(const char *a);

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

#endif
