/* SPDX-License-Identifier: MIT */
/*
 * confirm.c — requests by mail that wait for an address to confirm them
 * by code: JOIN, OBSERVE, CREATE and TAKEOVER (the address that asked),
 * SET ADDRESS (the new address), SET MASTER (the new master's) and
 * PROMOTE (the co-master's: stored as a "master" request whose settings
 * end in " promote", so the master who asked stays a master).
 *
 * A mail's From: line proves nothing: 500 forged OBSERVE mails would make
 * 500 observers who each receive every result, 300 forged JOINs would fill
 * a forming game and start it, a mistyped SET ADDRESS would send a
 * player's mail to a stranger.  So these requests do not act at once.
 * The request is checked in full (it runs, inside a savepoint that is then
 * rolled back, so it is refused now for the same reasons it would be
 * later), and the judge keeps it with a random code that goes only to the
 * address that must confirm: in the reply when that is the sender's,
 * else in a mail of its own to the new address (never in the reply, so
 * whoever asked cannot answer for it).  The action happens when that
 * address sends `CONFIRM code` back, within DJ_CONFIRM_HOURS; a forger
 * never sees the code.  Pending requests are capped per game, per address
 * (the one that must confirm), per domain and per judge, so forged mail
 * can neither fill the table nor make the judge mail codes to a victim
 * without end, and they expire in a day, so forgeries that fill a game's
 * cap block it for a day at most; `judgectl pending` lists them and
 * clears them sooner.  The password is kept hashed.  The masters hear of
 * a player or observer only once the address confirmed.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/forming.h"
#include "game/game.h"
#include "game/game_int.h"
#include "game/password.h"
#include "game/reading.h"
#include "game/signon.h"
#include "store/confirmations.h"

#define DJ_CONFIRM_HOURS 24
#define DJ_CONFIRM_PER_GAME 20
#define DJ_CONFIRM_PER_ADDRESS 3
#define DJ_CONFIRM_PER_DOMAIN 10
#define DJ_CONFIRM_PER_JUDGE 500
#define SETTINGS_MAX 32

/* Split create's settings words (in place) into at most SETTINGS_MAX. */
static int split_settings(char *text, const char **out)
{
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(text, " \t", &save); w && n < SETTINGS_MAX;
         w = strtok_r(NULL, " \t", &save))
        out[n++] = w;
    return n;
}

/* Is a "master" request's settings a PROMOTE (a co-master)? */
static bool is_promote(const char *settings)
{
    size_t n = settings ? strlen(settings) : 0;
    return n >= 8 && strcmp(settings + n - 8, " promote") == 0;
}

/* Do the action (with a password, or its hash from a stored request). */
static int perform(dj_judge *j, const char *action, const char *game,
                   const char *power, const char *email, const char *password,
                   const char *hash, const char *settings, dj_buf *out)
{
    dj_join_request req = {0};
    req.email = email;
    req.password = password;
    req.password_hash = hash;
    if (strcmp(action, "create") == 0) {
        char copy[DJ_STORE_TEXT_MAX];
        const char *words[SETTINGS_MAX];
        snprintf(copy, sizeof copy, "%s", settings ? settings : "");
        int n = split_settings(copy, words);
        if (dj_game_create(j, game, NULL, NULL, words, n, out) < 0)
            return -1;
        req.role = "master";
        dj_buf ignored;
        dj_buf_init(&ignored);
        int rc = dj_game_join(j, game, &req, &ignored);
        dj_buf_free(&ignored);
        if (rc < 0)
            return -1;
        dj_buf_reset(out);
        dj_buf_printf(out, "Game '%s' created, forming; you are its master "
                           "(SIGNON M%s with your password).\n"
                           "Players join it with JOIN %s PASSWORD.\n",
                      game, game, game);
        return 0;
    }
    if (strcmp(action, "takeover") == 0)
        return dj_game_takeover(j, game, power, email, password, hash, out);
    if (strcmp(action, "address") == 0 || strcmp(action, "master") == 0) {
        long long id = 0;
        if (!settings || sscanf(settings, "participant=%lld", &id) != 1)
            return judge_fail(j, "the request names no participant");
        if (strcmp(action, "address") == 0)
            return dj_game_set_address(j, game, id, email, out);
        return is_promote(settings)
                   ? dj_game_promote(j, game, id, email, out)
                   : dj_game_hand_over(j, game, id, email, out);
    }
    req.role = strcmp(action, "observe") == 0 ? "observer" : "player";
    req.power = power && *power ? power : NULL;
    return dj_game_join(j, game, &req, out);
}

/* Does the code go to another address than the sender's (by mail)? */
static bool code_by_mail(const char *action)
{
    return strcmp(action, "address") == 0 || strcmp(action, "master") == 0;
}

typedef struct code_mail_arg {
    const dj_confirmation_rec *c;
    int64_t participant_id;
} code_mail_arg;

/* The code in a mail of its own to the address that must confirm. */
static int do_code_mail(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    (void)out;
    const code_mail_arg *a = arg;
    const char *asker = "someone";
    bool player = false;
    for (int i = 0; i < v->nparts; i++)
        if (v->parts[i].id == a->participant_id && v->parts[i].email[0]) {
            asker = v->parts[i].email;
            player = strcmp(v->parts[i].role, "player") == 0;
        }
    char text[DJ_EMAIL_MAX + 512];
    if (strcmp(a->c->action, "master") == 0 && is_promote(a->c->settings))
        snprintf(text, sizeof text,
                 "its master, %s, asks you to be a master of the game\n"
                 "too (a co-master).  To accept, answer this mail with the "
                 "line\n\n"
                 "    CONFIRM %s\n\n"
                 "within %d hours; the judge then mails you your own "
                 "master's password.\nOtherwise ignore this mail: nothing "
                 "changes.",
                 asker, a->c->code, DJ_CONFIRM_HOURS);
    else if (strcmp(a->c->action, "master") == 0)
        snprintf(text, sizeof text,
                 "its master, %s, hands the game over to you.\n"
                 "To accept, answer this mail with the line\n\n"
                 "    CONFIRM %s\n\n"
                 "within %d hours; the judge then mails you the master's "
                 "password.\nOtherwise ignore this mail: nothing changes.",
                 asker, a->c->code, DJ_CONFIRM_HOURS);
    else
        snprintf(text, sizeof text,
                 "%s (%s) asks that the judge's mail for them go to\n"
                 "this address from now on%s.  If that is what you want, "
                 "answer this mail\nwith the line\n\n"
                 "    CONFIRM %s\n\n"
                 "within %d hours.  Otherwise ignore this mail: nothing "
                 "changes.",
                 a->c->power, asker,
                 player ? ", as well as to their other addresses" : "",
                 a->c->code, DJ_CONFIRM_HOURS);
    return gv_tell(j, v, a->c->email, false, "Confirm", text);
}


/* The masters hear, once, that one class's requests filled the game's
 * cap (someone may be filling it on purpose). */
static int tell_filled(dj_judge *j, const char *game, int n,
                       const char *cls)
{
    char text[512];
    snprintf(text, sizeof text,
             "%d requests by %s mail (JOIN, OBSERVE, TAKEOVER, SET ADDRESS, "
             "SET MASTER, PROMOTE) wait for their codes: the game's cap "
             "for that class.  Further ones of that class are refused "
             "until some are confirmed or expire (%d hours); mail of the other "
             "classes is not held up by them.  judgectl pending %s lists "
             "them and clears them.",
             n, cls, DJ_CONFIRM_HOURS, game);
    return dj_game_notify_masters(j, game, "Requests waiting", text);
}

/*
 * Every cap counts the requests of the asking mail's class only (game.h:
 * dj_sender_class), so forged or unknown mail can never fill the caps
 * that authenticated mail meets.  Forged mail (DMARC failed: the domain's
 * owner says it did not send it) makes no request at all: it would only
 * mail a code to a victim.
 */
static int request(dj_judge *j, const char *action, const char *game,
                   const char *power, const char *email, const char *password,
                   const char *settings, int64_t participant_id, dj_buf *out)
{
    if (j->sender_class == DJ_SENDER_FORGED)
        return judge_fail(j, "this mail failed its sender domain's DMARC "
                             "check: no request is kept from it");
    const char *cls = dj_sender_class_name(j->sender_class);
    int per_game = 0, per_address = 0, per_domain = 0, total = 0;
    const char *at = strrchr(email, '@');
    if (dj_store_confirmation_count(j->store, game, NULL, cls, j->now,
                                    &per_game) < 0 ||
        dj_store_confirmation_count(j->store, NULL, email, cls, j->now,
                                    &per_address) < 0 ||
        dj_store_confirmation_count_domain(j->store, at ? at + 1 : "", cls,
                                           j->now, &per_domain) < 0 ||
        dj_store_confirmation_count(j->store, NULL, NULL, cls, j->now,
                                    &total) < 0)
        return judge_store_fail(j);
    if (per_address >= DJ_CONFIRM_PER_ADDRESS && !code_by_mail(action))
        return judge_fail(j, "%d requests from your address already wait "
                             "for their codes: confirm them (or let them "
                             "expire) first",
                          per_address);
    if (per_address >= DJ_CONFIRM_PER_ADDRESS)
        return judge_fail(j, "%d requests for %s already wait for their "
                             "codes; try again within a day",
                          per_address, email);
    if (per_domain >= DJ_CONFIRM_PER_DOMAIN)
        return judge_fail(j, "%d requests from addresses at %s already "
                          "wait for their codes; try again within a day",
                          per_domain, at ? at + 1 : "your domain");
    if (per_game >= DJ_CONFIRM_PER_GAME)
        return judge_fail(j, "%d requests to join game '%s' already wait "
                          "for their codes (or to take a power over, or "
                          "for a new address or master); try again within "
                          "a day, or ask its master",
                          per_game, game);
    if (total >= DJ_CONFIRM_PER_JUDGE)
        return judge_fail(j, "too many requests wait for confirmation on "
                             "this judge just now; try again within a "
                             "day");
    /* The request in full, then undone: refused now as it would be later. */
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    dj_buf trial;
    dj_buf_init(&trial);
    int rc = perform(j, action, game, power, email, password, NULL, settings,
                     &trial);
    dj_store_rollback(j->store);
    dj_buf_free(&trial);
    if (rc < 0)
        return -1;

    dj_confirmation_rec c;
    memset(&c, 0, sizeof c);
    if (dj_password_generate(c.code, sizeof c.code) < 0)
        return judge_fail(j, "cannot make a code: no random source");
    snprintf(c.email, sizeof c.email, "%s", email);
    snprintf(c.action, sizeof c.action, "%s", action);
    snprintf(c.game, sizeof c.game, "%s", game);
    snprintf(c.power, sizeof c.power, "%s", power ? power : "");
    snprintf(c.settings, sizeof c.settings, "%s", settings ? settings : "");
    if (password && *password &&
        dj_password_hash(password, c.password_hash, sizeof c.password_hash) <
            0)
        return judge_fail(j, "cannot hash the password");
    c.created_at = j->now;
    c.expires_at = j->now + DJ_CONFIRM_HOURS * 3600;
    snprintf(c.klass, sizeof c.klass, "%s", cls);
    if (dj_store_confirmation_add(j->store, &c, j->now) < 0)
        return judge_store_fail(j);
    if (per_game + 1 == DJ_CONFIRM_PER_GAME && strcmp(action, "create") != 0 &&
        tell_filled(j, game, per_game + 1, cls) < 0)
        return -1;
    if (code_by_mail(action)) {
        code_mail_arg a = {&c, participant_id};
        if (gv_with_game(j, game, do_code_mail, &a, out) < 0)
            return -1;
        dj_buf_printf(out,
                      "A code went to %s.  %s when that\naddress sends it "
                      "back (CONFIRM code) within %d hours; nothing\n"
                      "changes until then.\n",
                      email,
                      strcmp(action, "master") != 0
                          ? "The judge writes to it"
                      : is_promote(settings)
                          ? "It becomes a master of the game too"
                          : "The game passes to its new master",
                      DJ_CONFIRM_HOURS);
        return 0;
    }
    dj_buf_printf(out,
                  "To %s game %s%s%s, this address must show it is yours: "
                  "answer this mail with the line\n\n    CONFIRM %s\n\n"
                  "within %d hours.  Nothing happens until then.\n",
                  strcmp(action, "takeover") == 0 ? "take over in" : action,
                  game, c.power[0] ? " as " : "", c.power, c.code,
                  DJ_CONFIRM_HOURS);
    return 0;
}

int dj_game_request_confirmation(dj_judge *j, const char *action,
                                 const char *game, const char *power,
                                 const char *email, const char *password,
                                 const char *settings, dj_buf *out)
{
    if (code_by_mail(action))
        return judge_fail(j, "a request for another address needs its "
                             "participant");
    return request(j, action, game, power, email, password, settings, 0,
                   out);
}

int dj_game_request_change(dj_judge *j, const char *action,
                           const dj_signon *id, const char *address,
                           dj_buf *out)
{
    bool promote = strcmp(action, "promote") == 0;
    if (promote)
        action = "master";
    else if (!code_by_mail(action))
        return judge_fail(j, "unknown change '%s'", action);
    if (!gv_address_ok(address))
        return judge_fail(j, "'%s' is not a mail address", address);
    char settings[64];
    snprintf(settings, sizeof settings, "participant=%lld%s",
             (long long)id->participant_id, promote ? " promote" : "");
    return request(j, action, id->game,
                   id->power_name[0] ? id->power_name : id->role, address,
                   NULL, settings, id->participant_id, out);
}

int dj_game_confirm(dj_judge *j, const char *email, const char *code,
                    dj_confirmed *done, dj_buf *out)
{
    memset(done, 0, sizeof *done);
    dj_confirmation_rec c;
    int rc = dj_store_confirmation_get(j->store, code, &c);
    if (rc < 0)
        return judge_store_fail(j);
    if (rc != 0 || strcasecmp(c.email, email) != 0 || c.expires_at <= j->now)
        return judge_fail(j, "no such code waits for your address: it may "
                             "have expired (%d hours) or been used; send "
                             "the request again",
                          DJ_CONFIRM_HOURS);
    if (dj_store_confirmation_delete(j->store, c.id) < 0)
        return judge_store_fail(j);
    if (perform(j, c.action, c.game, c.power, email, NULL, c.password_hash,
                c.settings, out) < 0)
        return -1;
    snprintf(done->action, sizeof done->action, "%s", c.action);
    snprintf(done->game, sizeof done->game, "%s", c.game);
    return 0;
}

int dj_game_pending(dj_judge *j, const char *game, const char *from,
                    bool clear, dj_buf *out)
{
    if (clear) {
        int n = 0;
        if (dj_store_confirmation_clear(j->store, game, from, &n) < 0)
            return judge_store_fail(j);
        dj_buf_printf(out, "%d pending request%s cleared\n", n,
                      n == 1 ? "" : "s");
        return 0;
    }
    dj_confirmation_rec *c = NULL;
    int n = 0;
    if (dj_store_confirmation_list(j->store, game, from, j->now, &c, &n) < 0)
        return judge_store_fail(j);
    dj_zone *utc = malloc(sizeof *utc);
    if (!utc) {
        free(c);
        return judge_fail(j, "out of memory");
    }
    dj_zone_utc(utc);
    for (int i = 0; i < n; i++) {
        /* a new address or master: whose address, or "master" */
        const char *as = !c[i].power[0]              ? ""
                         : code_by_mail(c[i].action) ? " for "
                                                      : " as ";
        dj_buf_printf(out, "%-8s %-12s %s%s%s  made ",
                      strcmp(c[i].action, "master") == 0 &&
                              is_promote(c[i].settings)
                          ? "promote"
                          : c[i].action,
                      c[i].game, c[i].email, as, c[i].power);
        dj_time_format_iso(utc, c[i].created_at, out);
        dj_buf_append(out, ", expires ");
        dj_time_format_iso(utc, c[i].expires_at, out);
        dj_buf_append(out, "\n");
    }
    free(utc);
    dj_buf_printf(out, "%d pending request%s\n", n, n == 1 ? "" : "s");
    free(c);
    return 0;
}
