/* SPDX-License-Identifier: MIT */
/*
 * access.c — who may act on a game by mail: signing on, passwords,
 * addresses, and notices to a game's masters.
 *
 * Design.  A sign-on names a game and a role in it (a power, "master",
 * "observer") and gives a password; the participant found is the
 * identity every later command of the message acts as.  Passwords are
 * only ever compared with their stored hash (password.h: a slow salted
 * hash, compared in constant time).  When there is no hash to compare
 * with (no such game, power or observer, or nobody set a password) the
 * password is hashed anyway, so that a wrong guess costs the same time
 * whatever exists: replies do not tell an attacker by their speed which
 * games and powers are there.
 *
 * Guessing is rate-limited, and forged mail can lock nobody out.  Every
 * failure is a row in signon_failures (store/signons.h): the sender's
 * address, the game name as written, and the target (the power or role
 * named).  Once `signon_limit` failures fall inside `signon_window`, either
 * from one sender for the game or from anyone at one target, sign-ons are
 * refused before any password is looked at, until the oldest failure ages
 * out — except from the target's own address (the address the judge has
 * for that power, master or observer), which is slowed down, never
 * locked out.  From the own address, once `signon_limit` failures as the
 * target (from anyone) fall inside a day, each further sign-on must wait
 * after the latest failure 1 s, then 2, 4, ... doubling with every
 * failure, at most SLOW_MAX_DELAY (5 minutes); a sign-on before its time
 * is refused unread (it is not a guess: no password is looked at, nothing
 * counted) and says when to try again.  Once the wait is over the
 * password is checked and the right one works.  So:
 *   - guesses from many addresses at one power stop at the limit;
 *   - mail forged with a player's address cannot lock the player out: at
 *     worst the player waits five minutes after the forger's latest
 *     guess;
 *   - a forger using the player's address guesses blind (the replies go
 *     to the real player, who sees them) and slowly: at most
 *     signon_limit + 9 + 86400 / 300, about 300 guesses a day per power,
 *     plus signon_limit an hour from other addresses.  New passwords
 *     chosen by mail have at least DJ_PASSWORD_MIN characters; a player
 *     whose older password is shorter is told at every sign-on to change
 *     it.
 * The web (judgeweb) is one door for many clients, so its sign-ins go by
 * other rules (dj_game_web_signin), which never let a stranger's failures
 * refuse the right password from another client:
 *   - per client and power: a client's failures as one power within a day
 *     are free up to signon_limit, then each further try waits after its
 *     latest failure 1 s, 2, 4 ... at most WEB_MAX_DELAY (an hour): about
 *     signon_limit + 36 guesses a day per client and power;
 *   - per power: once web.signin_day_limit failures as a power (from
 *     every client and by mail) fall within a day, only a browser that
 *     has signed in as that participant before (its known-browser cookie,
 *     store/web.h) may try; the masters are told once.  So guessing from
 *     any number of addresses stops at signin_day_limit a day (200 by
 *     default) plus the known browsers' own slowed tries.
 * The masters hear of it once per window: when a target, or a sender,
 * reaches the limit, not at every attempt.  The failure rows and the
 * game-log lines are written in a transaction of their own that commits
 * even though the sign-on is refused (a refusal is an answer, not an
 * error), and neither ever holds the password.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/game.h"
#include "game/game_int.h"
#include "game/password.h"
#include "game/pictures.h"
#include "game/report.h"
#include "game/signon.h"
#include "store/mail.h"
#include "store/signons.h"
#include "store/web.h"

/* ---- notices to masters ----------------------------------------------------- */

int gv_tell(dj_judge *j, const game_view *v, const char *email,
            bool everyone, const char *what, const char *text)
{
    dj_buf body, subject;
    dj_buf_init(&body);
    dj_buf_init(&subject);
    dj_buf_printf(&body, "Game '%s': %s\n", v->g.name, text);
    gv_subject(j, v, v->has_phase ? v->phase.name : "-", what, &subject);
    int rc = 0;
    if (!dj_buf_ok(&body) || !dj_buf_ok(&subject))
        rc = judge_fail(j, "out of memory");
    else if (!email)
        rc = gv_mail_all(j, v, 0, "notice", subject.data, body.data,
                         everyone ? DJ_ALL_POWERS : 0, everyone);
    else if (dj_store_outbox_add(j->store, v->g.id, 0, "notice", email,
                                 subject.data, body.data, j->now) < 0)
        rc = judge_store_fail(j);
    dj_buf_free(&body);
    dj_buf_free(&subject);
    return rc;
}

int gv_tell_participant(dj_judge *j, const game_view *v,
                        const dj_participant_rec *p, const char *what,
                        const char *text)
{
    for (int k = 0; k < gv_address_count(p); k++)
        if (gv_tell(j, v, gv_address_at(p, k), false, what, text) < 0)
            return -1;
    return 0;
}

int gv_notify_masters(dj_judge *j, const game_view *v, const char *what,
                      const char *text)
{
    return gv_tell(j, v, NULL, false, what, text);
}

typedef struct notice_arg {
    const char *what, *text;
} notice_arg;

static int do_notify(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    (void)out;
    const notice_arg *a = arg;
    return gv_notify_masters(j, v, a->what, a->text);
}

int dj_game_notify_masters(dj_judge *j, const char *game, const char *what,
                           const char *text)
{
    notice_arg a = {what, text};
    dj_buf ignored;
    dj_buf_init(&ignored);
    int rc = gv_with_game(j, game, do_notify, &a, &ignored);
    dj_buf_free(&ignored);
    return rc;
}

/* ---- signing on --------------------------------------------------------------- */


/* Does `who` name the role: its word, or its letter when no power of
 * the map has that letter ("M" is the master unless a power is M)? */
static bool names_role(const game_view *v, const char *who, const char *word)
{
    if (strcasecmp(who, word) == 0)
        return true;
    return strlen(who) == 1 &&
           toupper((unsigned char)*who) == toupper((unsigned char)*word) &&
           dj_map_find_power(v->map, who) < 0;
}

/* "player" (SIGNON ?game or player@game): the player writing from the
 * sender's address, found by it as an observer is — a player who joined
 * without a power and is dealt one at the start signs on so while the game
 * forms (and as the power dealt once it runs).  Only the word: "P" stays a
 * power's letter or nothing. */
static bool names_player(const game_view *v, const char *who)
{
    return strcasecmp(who, "player") == 0 &&
           dj_map_find_power(v->map, who) < 0;
}

/* The live master (or observer writing from `sender`) whose password
 * matches; *checked when any password was compared. */
static const dj_participant_rec *find_role(dj_judge *j, const game_view *v,
                                           const char *role,
                                           const char *password,
                                           const char *sender, bool *checked)
{
    for (int i = 0; i < v->nparts; i++) {
        const dj_participant_rec *p = &v->parts[i];
        if (!gv_is_live(p) || !p->password_hash[0] || strcmp(p->role, role) != 0 ||
            (sender && !gv_has_address(p, sender)))
            continue;
        *checked = true;
        if (gv_password_ok(j, p->id, password, p->password_hash))
            return p;
    }
    return NULL;
}

/* The participant the sign-on names and whose password matches, or NULL.
 * Which of the two failed is not said, on purpose: the reply is the same
 * whether a power exists without a password or the password is wrong. */
static const dj_participant_rec *find_signon(dj_judge *j,
                                             const game_view *v,
                                             const char *who,
                                             const char *password,
                                             const char *sender, int *power)
{
    *power = -1;
    bool checked = false;
    const dj_participant_rec *found = NULL;
    if (names_role(v, who, "master")) {
        found = find_role(j, v, "master", password, NULL, &checked);
    } else if (names_role(v, who, "observer")) {
        found = find_role(j, v, "observer", password, sender, &checked);
    } else if (names_player(v, who)) {
        found = find_role(j, v, "player", password, sender, &checked);
        if (found)
            *power = found->power;
    } else {
        int pw = dj_map_find_power(v->map, who);
        const dj_participant_rec *p = pw >= 0 ? gv_player(v, pw) : NULL;
        if (p && p->password_hash[0]) {
            checked = true;
            if (gv_password_ok(j, p->id, password, p->password_hash)) {
                found = p;
                *power = pw;
            }
        }
    }
    if (!checked)
        gv_check_nothing(j, password);
    return found;
}

static void fill_signon(const game_view *v, const dj_participant_rec *p,
                        int power, dj_signon *id)
{
    memset(id, 0, sizeof *id);
    snprintf(id->game, sizeof id->game, "%s", v->g.name);
    snprintf(id->role, sizeof id->role, "%s", p->role);
    id->power = power;
    if (power >= 0)
        snprintf(id->power_name, sizeof id->power_name, "%s",
                 gv_power_name(v, power));
    id->participant_id = p->id;
}

/* The participant a sign-on names, password aside (NULL: none): the
 * power's player, a live master writing from `sender` (else the first),
 * the observer writing from `sender`. */
static const dj_participant_rec *named(const game_view *v, const char *who,
                                       const char *sender)
{
    bool master = names_role(v, who, "master");
    if (master || names_role(v, who, "observer")) {
        const dj_participant_rec *first = NULL;
        for (int i = 0; i < v->nparts; i++) {
            const dj_participant_rec *p = &v->parts[i];
            if (!gv_is_live(p) || strcmp(p->role, master ? "master" : "observer"))
                continue;
            if (gv_has_address(p, sender))
                return p;
            if (!first && master)
                first = p;
        }
        return first;
    }
    if (names_player(v, who)) {
        for (int i = 0; i < v->nparts; i++) {
            const dj_participant_rec *p = &v->parts[i];
            if (gv_is_live(p) && strcmp(p->role, "player") == 0 &&
                gv_has_address(p, sender))
                return p;
        }
        return NULL;
    }
    int power = dj_map_find_power(v->map, who);
    return power >= 0 ? gv_player(v, power) : NULL;
}

/* The target's name for counting: the power's name, "master", "observer",
 * else the word as written (a power that does not exist). */
static void target_of(const game_view *v, const char *who, char *out,
                      size_t outlen)
{
    int power = v ? dj_map_find_power(v->map, who) : -1;
    if (v && names_role(v, who, "master"))
        snprintf(out, outlen, "master");
    else if (v && names_role(v, who, "observer"))
        snprintf(out, outlen, "observer");
    else if (v && names_player(v, who))
        snprintf(out, outlen, "player");
    else if (power >= 0)
        snprintf(out, outlen, "%s", gv_power_name(v, power));
    else
        snprintf(out, outlen, "%.60s", who);
}

/* How long failures are kept: the window, and at least the day over
 * which the own address's slow-down counts. */
#define SLOW_DAY 86400
#define SLOW_MAX_DELAY 300

static int64_t kept_for(const dj_judge *j)
{
    int64_t window = (int64_t)j->cfg.signon_window * 60;
    return window > SLOW_DAY ? window : SLOW_DAY;
}

/* The own address's wait after the latest failure when `failures` fell
 * within the day: none up to the limit, then 1 s doubling, at most
 * SLOW_MAX_DELAY. */
static int64_t slow_delay(int failures, int limit)
{
    if (failures < limit)
        return 0;
    int doublings = failures - limit;
    if (doublings >= 9)
        return SLOW_MAX_DELAY;
    int64_t d = (int64_t)1 << doublings;
    return d < SLOW_MAX_DELAY ? d : SLOW_MAX_DELAY;
}

/* The web's wait for one client at one power after its latest failure,
 * when `failures` fell within the day: none up to the limit, then 1 s
 * doubling, at most WEB_MAX_DELAY. */
#define WEB_MAX_DELAY 3600
static int64_t web_delay(int failures, int limit)
{
    if (failures < limit)
        return 0;
    int doublings = failures - limit;
    if (doublings >= 12)
        return WEB_MAX_DELAY;
    int64_t d = (int64_t)1 << doublings;
    return d < WEB_MAX_DELAY ? d : WEB_MAX_DELAY;
}

/* Seconds still to wait after the latest failure for a back-off of
 * `delay`: none when there is no back-off, however the clocks of the
 * processes that recorded the failures stood (a clock set back, or a
 * process whose clock started later, never makes a wait from nothing),
 * and never more than the back-off itself. */
static int64_t wait_left(int64_t latest, int64_t delay, int64_t now)
{
    if (delay <= 0)
        return 0;
    int64_t wait = latest + delay - now;
    if (wait < 0)
        return 0;
    return wait < delay ? wait : delay;
}

/* Record one failure; tell the masters once, when the target's or the
 * sender's count reaches the limit (by mail), or the target's day of web
 * sign-ins is used up (web_day_before >= 0). */
static int record_failure(dj_judge *j, const game_view *v, const char *game,
                          const char *who, const char *target,
                          const char *sender, int sender_before,
                          int target_before, int web_day_before)
{
    if (dj_store_signon_failure_add(j->store, sender, game, target,
                                    dj_sender_class_name(j->sender_class),
                                    j->now, j->now - kept_for(j)) < 0)
        return judge_store_fail(j);
    if (!v)
        return 0;
    if (gv_log(j, v, "signon-failed", "%s from %s (%s)", who, sender,
               dj_sender_class_name(j->sender_class)) < 0)
        return -1;
    int limit = j->cfg.signon_limit;
    const char *cls = dj_sender_class_name(j->sender_class);
    char text[DJ_EMAIL_MAX + 768];
    if (web_day_before >= 0) {
        int day = j->cfg.web.signin_day_limit;
        if (web_day_before + 1 != day)
            return 0;
        snprintf(text, sizeof text,
                 "%d failed sign-ons as %s within a day (the latest on the "
                 "web, from %s).  Until they age out, the web takes sign-ins "
                 "as %s only from browsers that signed in as %s before; by "
                 "mail, from the address the judge has for it, the right "
                 "password always works.  You are told once, not at every "
                 "attempt.",
                 day, target, sender, target, target);
        return gv_notify_masters(j, v, "Failed sign-ons", text);
    }
    if (target_before + 1 == limit)
        snprintf(text, sizeof text,
                 "someone may be trying passwords of %s: %d failed "
                 "sign-ons as %s within %d minutes, by %s mail (the latest "
                 "from %s).  Until they age out, %s sign-ons as %s are "
                 "refused from every address but the one the judge has for "
                 "it; from that address the right password always works "
                 "(at worst after a wait of minutes), and mail of the other "
                 "classes (authenticated mail, reply addresses, the web) is "
                 "not held up at all.  You are told once a window, not at "
                 "every attempt.",
                 target, limit, target, j->cfg.signon_window, cls, sender,
                 cls, target);
    else if (sender_before + 1 == limit)
        snprintf(text, sizeof text,
                 "%d failed sign-ons from %s within %d minutes (the latest "
                 "as %s).  Until they age out, that address's sign-ons are "
                 "refused, except as a participant whose address it is.  "
                 "You are told once, not at every attempt.",
                 limit, sender, j->cfg.signon_window, who);
    else
        return 0;
    return gv_notify_masters(j, v, "Failed sign-ons", text);
}

/* The sign-on itself, inside the caller's transaction (dry: before it,
 * recording nothing).  Returns 0, DJ_SIGNON_REFUSED (reason in j->err) or
 * -1.  Every count is of the session's sender class only. */
static int signon(dj_judge *j, const char *game, const char *who,
                  const char *password, const char *sender,
                  const char *address, const char *device_hash, bool dry,
                  dj_signon *id)
{
    bool web = device_hash != NULL; /* the web's rules (see above) */
    id->refused_unread = true; /* until the password is looked at */
    dj_game_rec g;
    int rc = dj_store_game_get(j->store, game, &g);
    if (rc < 0)
        return judge_store_fail(j);
    bool exists = rc == 0;
    game_view v;
    memset(&v, 0, sizeof v);
    if (exists && gv_load(j, game, &v) < 0) {
        gv_free(&v);
        return -1;
    }
    char target[64];
    target_of(exists ? &v : NULL, who, target, sizeof target);
    const dj_participant_rec *own = exists ? named(&v, who, address) : NULL;
    bool own_address = own && own->email[0] && gv_has_address(own, sender);
    int by_sender = 0, at_target = 0;
    int64_t since = j->now - (int64_t)j->cfg.signon_window * 60;
    const char *cls = dj_sender_class_name(j->sender_class);
    if (dj_store_signon_failures(j->store, sender, game, cls, since,
                                 &by_sender) < 0 ||
        dj_store_signon_target_failures(j->store, game, target, cls, since,
                                        &at_target) < 0) {
        gv_free(&v);
        return judge_store_fail(j);
    }
    int web_day = -1;
    if (web) {
        int pair = 0;
        int64_t pair_latest = 0;
        if (dj_store_signon_pair_failures(j->store, sender, game, target,
                                          j->now - SLOW_DAY, &pair,
                                          &pair_latest) < 0 ||
            dj_store_signon_target_failures(j->store, game, target, cls,
                                            j->now - SLOW_DAY,
                                            &web_day) < 0) {
            gv_free(&v);
            return judge_store_fail(j);
        }
        int64_t wait = wait_left(pair_latest,
                                 web_delay(pair, j->cfg.signon_limit),
                                 j->now);
        if (wait > 0) {
            gv_free(&v);
            judge_fail(j, "%d failed sign-ins as %s from your address "
                          "within a day: try again in %lld second%s",
                       pair, target, (long long)wait, wait == 1 ? "" : "s");
            return DJ_SIGNON_REFUSED;
        }
        int known = 0;
        if (web_day >= j->cfg.web.signin_day_limit && own && device_hash[0])
            known = dj_store_web_device_known(j->store, device_hash, own->id,
                                              j->now);
        if (known < 0) {
            gv_free(&v);
            return judge_store_fail(j);
        }
        if (web_day >= j->cfg.web.signin_day_limit && !known) {
            gv_free(&v);
            judge_fail(j, "too many failed sign-ons as %s in game '%s' "
                          "today: the web takes them only from browsers "
                          "that signed in as %s before; by mail the right "
                          "password works",
                       target, game, target);
            return DJ_SIGNON_REFUSED;
        }
    }
    if (!web && !own_address && by_sender >= j->cfg.signon_limit) {
        gv_free(&v);
        judge_fail(j, "too many failed sign-ons for game '%s' from your "
                      "address; try again later",
                   game);
        return DJ_SIGNON_REFUSED;
    }
    if (!web && !own_address && at_target >= j->cfg.signon_limit) {
        gv_free(&v);
        judge_fail(j, "too many failed sign-ons as %s in game '%s' lately: "
                      "they are refused for a while, except from the "
                      "address the judge has for %s",
                   target, game, target);
        return DJ_SIGNON_REFUSED;
    }
    /* Authenticated mail from the target's own address is the target's
     * owner: never slowed down; the web has its own rules above. */
    if (!web && own_address && j->sender_class != DJ_SENDER_AUTHENTICATED) {
        int today = 0;
        int64_t latest = 0;
        if (dj_store_signon_target_failures(j->store, game, target, cls,
                                            j->now - SLOW_DAY, &today) < 0 ||
            dj_store_signon_target_latest(j->store, game, target, cls,
                                          &latest) < 0) {
            gv_free(&v);
            return judge_store_fail(j);
        }
        int64_t wait = wait_left(
            latest, slow_delay(today, j->cfg.signon_limit), j->now);
        if (wait > 0) {
            gv_free(&v);
            judge_fail(j, "%d failed sign-ons as %s in game '%s' within a "
                          "day: sign-ons are slowed down; try again in %lld "
                          "second%s",
                       today, target, game, (long long)wait,
                       wait == 1 ? "" : "s");
            return DJ_SIGNON_REFUSED;
        }
    }
    const dj_participant_rec *p = NULL;
    int power = -1;
    id->refused_unread = false;
    if (exists)
        p = find_signon(j, &v, who, password, address, &power);
    else
        gv_check_nothing(j, password);
    if (p) {
        fill_signon(&v, p, power, id);
        id->short_password = strlen(password) < DJ_PASSWORD_MIN;
        gv_free(&v);
        return 0;
    }
    rc = dry ? 0
             : record_failure(j, exists ? &v : NULL, game, who, target,
                              sender, by_sender, at_target,
                              web ? web_day : -1);
    gv_free(&v);
    if (rc < 0)
        return -1;
    judge_fail(j, "sign-on as %s in game '%s' refused: no such game or "
                  "power, or a wrong password",
               who, game);
    return DJ_SIGNON_REFUSED;
}

int dj_game_signon(dj_judge *j, const char *game, const char *who,
                   const char *password, const char *sender, dj_signon *id)
{
    return dj_game_signon_as(j, game, who, password, sender, sender, id);
}

int dj_game_signon_as(dj_judge *j, const char *game, const char *who,
                      const char *password, const char *sender,
                      const char *address, dj_signon *id)
{
    return judge_signon(j, game, who, password, sender, address, NULL, id);
}

int judge_signon(dj_judge *j, const char *game, const char *who,
                 const char *password, const char *sender,
                 const char *address, const char *device_hash, dj_signon *id)
{
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    char why[sizeof j->err];
    int rc = signon(j, game, who, password, sender, address ? address : "",
                    device_hash, false, id);
    snprintf(why, sizeof why, "%s", j->err);
    if (rc < 0 || dj_store_commit(j->store) < 0) {
        if (rc >= 0)
            judge_store_fail(j);
        dj_store_rollback(j->store);
        return -1;
    }
    snprintf(j->err, sizeof j->err, "%s", why);
    return rc;
}

int dj_game_signon_precheck(dj_judge *j, const char *game, const char *who,
                            const char *password, const char *sender,
                            dj_signon *id)
{
    char why[sizeof j->err];
    snprintf(why, sizeof why, "%s", j->err);
    int rc = signon(j, game, who, password, sender, sender, NULL, true, id);
    snprintf(j->err, sizeof j->err, "%s", why);
    return rc;
}

/* ---- the participant's own settings ------------------------------------------ */

typedef struct own_arg {
    const dj_signon *id;
    const char *value;
} own_arg;

/*
 * A participant's password or address changed: whoever held a way in
 * with the old one is out.  Every web session of the participant ends
 * (the browser that made the change signs in again at once: websession.c,
 * dj_game_web_renew), and every remembered mail sign-on of it is forgotten
 * (signon_cache.c).
 */
static int credentials_changed(dj_judge *j, int64_t participant_id)
{
    if (dj_store_web_sessions_end_others(j->store, participant_id, NULL) < 0)
        return judge_store_fail(j);
    dj_signon_cache_forget(j, participant_id);
    return 0;
}

static int do_password(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const own_arg *a = arg;
    dj_participant_rec *p = gv_live_participant(j, v, a->id->participant_id);
    if (!p)
        return -1;
    if (dj_password_hash(a->value, p->password_hash,
                         sizeof p->password_hash) < 0)
        return judge_fail(j, "cannot hash the password");
    if (dj_store_participant_update(j->store, p) < 0)
        return judge_store_fail(j);
    if (credentials_changed(j, p->id) < 0)
        return -1;
    if (gv_log(j, v, "password", "%s", p->power >= 0
                                           ? gv_power_name(v, p->power)
                                           : p->role) < 0)
        return -1;
    dj_buf_printf(out, "%s: password changed\n", v->g.name);
    return 0;
}

static int do_map_format(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const own_arg *a = arg;
    dj_participant_rec *p = gv_live_participant(j, v, a->id->participant_id);
    if (!p)
        return -1;
    snprintf(p->map_format, sizeof p->map_format, "%s", a->value);
    if (dj_store_participant_update(j->store, p) < 0)
        return judge_store_fail(j);
    if (strcmp(a->value, "none") == 0)
        dj_buf_printf(out, "%s: your results will come without a map\n",
                      v->g.name);
    else
        dj_buf_printf(out, "%s: your results will come with a %s map\n",
                      v->g.name, a->value);
    return 0;
}

int dj_game_set_map_format(dj_judge *j, const dj_signon *id,
                           const char *format, dj_buf *out)
{
    int f = format && !strchr(format, '.') ? dj_picture_format_from_name(format)
                                           : -1;
    if (f < 0)
        return judge_fail(j, "SET MAP takes PNG, PDF, SVG or NONE, not "
                             "'%.20s'", format ? format : "");
    own_arg a = {id, dj_picture_format_name((dj_picture_format)f)};
    return gv_with_game(j, id->game, do_map_format, &a, out);
}

int dj_game_set_password(dj_judge *j, const dj_signon *id,
                         const char *password, dj_buf *out)
{
    own_arg a = {id, password};
    return gv_with_game(j, id->game, do_password, &a, out);
}

typedef struct power_password_arg {
    const char *power, *password;
} power_password_arg;

/* The master, having BECOME a power, sets that power's player's password. */
static int do_power_password(dj_judge *j, game_view *v, void *arg,
                             dj_buf *out)
{
    const power_password_arg *a = arg;
    int power = gv_power(j, v, a->power);
    if (power < 0)
        return -1;
    dj_participant_rec *p = gv_player(v, power);
    if (!p || !p->email[0])
        return judge_fail(j, "%s has no player to give a password to",
                          gv_power_name(v, power));
    if (dj_password_hash(a->password, p->password_hash,
                         sizeof p->password_hash) < 0)
        return judge_fail(j, "cannot hash the password");
    if (dj_store_participant_update(j->store, p) < 0)
        return judge_store_fail(j);
    if (credentials_changed(j, p->id) < 0)
        return -1;
    if (gv_log(j, v, "password", "%s (by the master)",
               gv_power_name(v, power)) < 0)
        return -1;
    dj_buf_printf(out, "%s: password of %s changed\n", v->g.name,
                  gv_power_name(v, power));
    return 0;
}

int dj_game_set_power_password(dj_judge *j, const char *game,
                               const char *power, const char *password,
                               dj_buf *out)
{
    power_password_arg a = {power, password};
    return gv_with_game(j, game, do_power_password, &a, out);
}

bool gv_address_ok(const char *a)
{
    const char *at = strchr(a, '@');
    if (!at || at == a || !at[1] || strchr(at + 1, '@') ||
        strlen(a) >= DJ_EMAIL_MAX)
        return false;
    for (const char *c = a; *c; c++)
        if ((unsigned char)*c <= ' ' || strchr("\"'<>,;()[]\\", *c) ||
            (unsigned char)*c == 0x7f)
            return false;
    return true;
}

bool dj_address_ok(const char *a)
{
    return gv_address_ok(a);
}

typedef struct address_arg {
    int64_t participant_id;
    const char *to;
} address_arg;

static int do_address(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const address_arg *a = arg;
    if (!gv_address_ok(a->to))
        return judge_fail(j, "'%s' is not a mail address", a->to);
    dj_participant_rec *p = gv_live_participant(j, v, a->participant_id);
    if (!p)
        return -1;
    char was[DJ_EMAIL_MAX];
    snprintf(was, sizeof was, "%s", p->email);
    snprintf(p->email, sizeof p->email, "%s", a->to);
    if (dj_store_participant_update(j->store, p) < 0)
        return judge_store_fail(j);
    if (credentials_changed(j, p->id) < 0)
        return -1;
    if (gv_log(j, v, "address", "%s -> %s", was, p->email) < 0)
        return -1;
    const char *who = p->power >= 0 ? gv_power_name(v, p->power) : p->role;
    char text[2 * DJ_EMAIL_MAX + 256];
    snprintf(text, sizeof text, "%s (%s) changed address: mail now goes to "
                                "%s, which confirmed it.",
             who, was, p->email);
    if (strcmp(p->role, "master") != 0 &&
        gv_notify_masters(j, v, "Address changed", text) < 0)
        return -1;
    snprintf(text, sizeof text, "the judge's mail for you (%s) goes to %s "
                                "from now on, as that address confirmed.  "
                                "If you did not ask for this, write to the "
                                "game master.",
             who, p->email);
    if (was[0] && gv_tell(j, v, was, false, "Address changed", text) < 0)
        return -1;
    dj_buf_printf(out, "%s: mail now goes to %s\n", v->g.name, p->email);
    return 0;
}

int gv_replace_address(dj_judge *j, game_view *v, int64_t participant_id,
                       const char *address, dj_buf *out)
{
    address_arg a = {participant_id, address};
    return do_address(j, v, &a, out);
}
