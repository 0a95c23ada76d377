/* SPDX-License-Identifier: MIT */
/*
 * confirm.c — JOIN, OBSERVE and CREATE by mail, confirmed by the address.
 *
 * A mail's From: line proves nothing: 500 forged OBSERVE mails would make
 * 500 observers who each receive every result, 300 forged JOINs would fill
 * a forming game and start it.  So these requests do not act at once.
 * The request is checked in full (it runs, inside a savepoint that is then
 * rolled back, so it is refused now for the same reasons it would be
 * later), and the judge keeps it with a random code that goes only to the
 * address that asked, in the reply.  The action happens when that address
 * sends `CONFIRM code` back, within DJ_CONFIRM_HOURS; a forger never sees
 * the code.  Pending requests are capped per game, per address, per
 * domain and per judge, so forged mail can neither fill the table nor
 * make the judge mail codes to a victim without end, and they expire in a
 * day, so forgeries that fill a game's cap block it for a day at most;
 * `judgectl pending` lists them and clears them sooner.  The password is
 * kept hashed.  The masters hear of a player or observer only once the
 * address confirmed.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/game_int.h"
#include "game/password.h"
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
    req.role = strcmp(action, "observe") == 0 ? "observer" : "player";
    req.power = power && *power ? power : NULL;
    return dj_game_join(j, game, &req, out);
}

int dj_game_request_confirmation(dj_judge *j, const char *action,
                                 const char *game, const char *power,
                                 const char *email, const char *password,
                                 const char *settings, dj_buf *out)
{
    int per_game = 0, per_address = 0, per_domain = 0, total = 0;
    const char *at = strrchr(email, '@');
    if (dj_store_confirmation_count(j->store, game, NULL, j->now, &per_game) <
            0 ||
        dj_store_confirmation_count(j->store, NULL, email, j->now,
                                    &per_address) < 0 ||
        dj_store_confirmation_count_domain(j->store, at ? at + 1 : "",
                                           j->now, &per_domain) < 0 ||
        dj_store_confirmation_count(j->store, NULL, NULL, j->now, &total) < 0)
        return judge_store_fail(j);
    if (per_address >= DJ_CONFIRM_PER_ADDRESS)
        return judge_fail(j, "%d requests from your address already wait "
                             "for their codes: confirm them (or let them "
                             "expire) first",
                          per_address);
    if (per_domain >= DJ_CONFIRM_PER_DOMAIN)
        return judge_fail(j, "%d requests from addresses at %s already "
                          "wait for their codes; try again within a day",
                          per_domain, at ? at + 1 : "your domain");
    if (per_game >= DJ_CONFIRM_PER_GAME)
        return judge_fail(j, "%d requests to join game '%s' already wait "
                          "for their codes; try again within a day, or ask "
                          "its master",
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
    if (dj_store_confirmation_add(j->store, &c, j->now) < 0)
        return judge_store_fail(j);
    dj_buf_printf(out,
                  "To %s game %s%s%s, this address must show it is yours: "
                  "answer this mail with the line\n\n    CONFIRM %s\n\n"
                  "within %d hours.  Nothing happens until then.\n",
                  action, game, c.power[0] ? " as " : "", c.power, c.code,
                  DJ_CONFIRM_HOURS);
    return 0;
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
        dj_buf_printf(out, "%-8s %-12s %s%s%s  made ", c[i].action,
                      c[i].game, c[i].email, c[i].power[0] ? " as " : "",
                      c[i].power);
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
