/* SPDX-License-Identifier: MIT */
/*
 * websession.c — the web door's sign-ins and what its pages read in one
 * go: sessions (game.h says how they are kept), the front page's
 * overview, the names of a game's phases.
 *
 * Design.  Signing in IS signing on: dj_game_signon checks the password,
 * counts the failure and applies the mail door's limits (per client and
 * per target, the judge's signon_limit and signon_window), so guessing on
 * the web and guessing by mail draw on one allowance.  Only after it
 * succeeds is a session made: 32 random bytes the browser keeps, their
 * SHA-256 in the database.  A session is looked up by hashing the cookie
 * again; it names a participant, whose game, role and power are read
 * afresh at each request, so a player replaced or resigned is signed out
 * everywhere at once.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>

#include "game/audience.h"
#include "game/game.h"
#include "game/game_int.h"
#include "game/reading.h"
#include "game/signon.h"
#include "game/websession.h"
#include "store/web.h"
#include "util/hex.h"
#include "util/random.h"

#define TOKEN_DIGEST_LEN 32 /* SHA-256 */

/* The key a session is stored under: the SHA-256 of its token, in hex
 * (GnuTLS, as the mail room's message keys).  0, or -1 with j->err. */
static int token_hash(dj_judge *j, const char *token,
                      char hash[2 * TOKEN_DIGEST_LEN + 1])
{
    unsigned char digest[TOKEN_DIGEST_LEN];
    if (gnutls_hash_fast(GNUTLS_DIG_SHA256, token, strlen(token), digest) <
        0)
        return judge_fail(j, "cannot hash the session token (GnuTLS)");
    dj_hex_encode(digest, sizeof digest, hash);
    return 0;
}

static bool token_shape(const char *token);

/* A new session's token and CSRF token (random hex, DJ_WEB_TOKEN_LEN
 * digits each) and the token's hash as the store keeps it. */
static int mint_session(dj_judge *j, char *token, char *csrf,
                        char hash[2 * TOKEN_DIGEST_LEN + 1])
{
    if (dj_random_hex(token, DJ_WEB_TOKEN_LEN / 2) < 0 ||
        dj_random_hex(csrf, DJ_WEB_TOKEN_LEN / 2) < 0)
        return judge_fail(j, "no random bytes from the system");
    return token_hash(j, token, hash);
}

/* A write transaction that failed: said, rolled back, -1. */
static int write_failed(dj_judge *j)
{
    judge_store_fail(j);
    dj_store_rollback(j->store);
    return -1;
}

int dj_game_web_signin(dj_judge *j, const char *game, const char *who,
                       const char *password, const char *address,
                       const char *client, const char *device, int lifetime,
                       char *token, char *csrf, char *new_device,
                       dj_signon *id)
{
    new_device[0] = '\0';
    char device_hash[2 * TOKEN_DIGEST_LEN + 1] = "";
    if (device && token_shape(device) && token_hash(j, device, device_hash) < 0)
        return -1;
    /* The web's sign-ins count against their own limits: mail sign-ons
     * that failed, forged or not, never lock the web door. */
    dj_sender_class was = j->sender_class;
    j->sender_class = DJ_SENDER_WEB;
    /* the password checked before the write transaction (signon_cache.c) */
    dj_signon pre;
    (void)dj_game_signon_precheck(j, game, who, password, client, &pre);
    int rc = judge_signon(j, game, who, password, client,
                          address && *address ? address : client, device_hash,
                          id);
    dj_signon_cache_end_mail(j);
    j->sender_class = was;
    if (rc != 0)
        return rc;
    char hash[2 * TOKEN_DIGEST_LEN + 1];
    if (mint_session(j, token, csrf, hash) < 0)
        return -1;
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    int known = device_hash[0] ? dj_store_web_device_known(
                                     j->store, device_hash,
                                     id->participant_id, j->now)
                               : 0;
    if (known == 0) { /* a browser new to the participant: known from now */
        char dev_hash[2 * TOKEN_DIGEST_LEN + 1];
        if (dj_random_hex(new_device, DJ_WEB_TOKEN_LEN / 2) < 0 ||
            token_hash(j, new_device, dev_hash) < 0 ||
            dj_store_web_device_add(j->store, dev_hash, id->participant_id,
                                    j->now,
                                    j->now + DJ_WEB_DEVICE_DAYS * 86400) < 0)
            known = -1;
    }
    if (known < 0 || dj_store_web_session_prune(j->store, j->now) < 0 ||
        dj_store_web_session_add(j->store, hash, id->participant_id, csrf,
                                 client, j->now, j->now + lifetime) < 0 ||
        dj_store_commit(j->store) < 0) {
        new_device[0] = '\0';
        return write_failed(j);
    }
    return 0;
}

int dj_game_web_reauth(dj_judge *j, const dj_signon *id,
                       const char *password, const char *client,
                       const char *device)
{
    char device_hash[2 * TOKEN_DIGEST_LEN + 1] = "";
    if (device && token_shape(device) && token_hash(j, device, device_hash) < 0)
        return -1;
    const char *who = id->power >= 0 ? id->power_name : id->role;
    /* an observer is found by its address (access.c): its own */
    char address[DJ_EMAIL_MAX];
    snprintf(address, sizeof address, "%s", client);
    if (strcmp(id->role, "observer") == 0) {
        dj_game_rec g;
        dj_participant_rec *parts = NULL;
        int n = 0;
        if (dj_store_begin_read(j->store) < 0)
            return judge_store_fail(j);
        if (dj_store_game_get(j->store, id->game, &g) == 0 &&
            dj_store_participant_list(j->store, g.id, &parts, &n) == 0)
            for (int i = 0; i < n; i++)
                if (parts[i].id == id->participant_id)
                    snprintf(address, sizeof address, "%s", parts[i].email);
        dj_store_rollback(j->store);
        free(parts);
    }
    dj_signon got;
    memset(&got, 0, sizeof got);
    int rc = judge_signon(j, id->game, who, password, client, address,
                          device_hash, &got);
    if (rc == 0 && got.participant_id != id->participant_id) {
        judge_fail(j, "that is not your password");
        return DJ_SIGNON_REFUSED;
    }
    return rc;
}

int dj_game_web_renew(dj_judge *j, int64_t participant_id,
                      const char *client, int lifetime, char *token,
                      char *csrf)
{
    char hash[2 * TOKEN_DIGEST_LEN + 1];
    if (mint_session(j, token, csrf, hash) < 0)
        return -1;
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    if (dj_store_web_session_add(j->store, hash, participant_id, csrf, client,
                                 j->now, j->now + lifetime) < 0 ||
        dj_store_commit(j->store) < 0)
        return write_failed(j);
    return 0;
}

static bool token_shape(const char *token)
{
    if (!token || strlen(token) != DJ_WEB_TOKEN_LEN)
        return false;
    return strspn(token, "0123456789abcdef") == DJ_WEB_TOKEN_LEN;
}

int dj_game_web_session(dj_judge *j, const char *token, dj_signon *id,
                        char *csrf)
{
    if (!token_shape(token))
        return 1;
    char hash[2 * TOKEN_DIGEST_LEN + 1];
    if (token_hash(j, token, hash) < 0)
        return -1;
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    dj_web_session_rec w;
    dj_game_rec g;
    int rc = dj_store_web_session_get(j->store, hash, j->now, &w);
    if (rc == 0)
        rc = dj_store_game_get_id(j->store, w.game_id, &g);
    dj_store_rollback(j->store);
    if (rc == DJ_STORE_NOTFOUND)
        return 1;
    if (rc < 0)
        return judge_store_fail(j);
    const dj_map *map = judge_map(j, g.map);
    if (!map)
        return -1;
    memset(id, 0, sizeof *id);
    snprintf(id->game, sizeof id->game, "%s", g.name);
    snprintf(id->role, sizeof id->role, "%s", w.role);
    id->participant_id = w.participant_id;
    id->power = w.power < map->npowers ? w.power : -1;
    if (id->power >= 0)
        snprintf(id->power_name, sizeof id->power_name, "%s",
                 map->powers[id->power].name);
    snprintf(csrf, DJ_WEB_TOKEN_LEN + 1, "%.64s", w.csrf);
    return 0;
}

int dj_game_web_signout(dj_judge *j, const char *token)
{
    if (!token_shape(token))
        return 0;
    char hash[2 * TOKEN_DIGEST_LEN + 1];
    if (token_hash(j, token, hash) < 0)
        return -1;
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    if (dj_store_web_session_delete(j->store, hash) < 0 ||
        dj_store_commit(j->store) < 0)
        return write_failed(j);
    return 0;
}

int dj_game_overviews(dj_judge *j, dj_game_overview **out, int *n)
{
    *out = NULL;
    *n = 0;
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    dj_game_overview_rec *rows = NULL;
    int nrows = 0;
    int rc = dj_store_game_overviews(j->store, NULL, &rows, &nrows);
    dj_store_rollback(j->store);
    if (rc < 0)
        return judge_store_fail(j);
    /* the settings that decide, for the one function that decides */
    dj_game_rec *g = calloc(1, sizeof *g);
    dj_game_overview *list = calloc((size_t)nrows + 1, sizeof *list);
    if (!list || !g) {
        free(rows);
        free(list);
        free(g);
        return judge_fail(j, "out of memory");
    }
    int k = 0;
    for (int i = 0; i < nrows; i++) {
        const dj_game_overview_rec *r = &rows[i];
        g->unlisted = r->unlisted;
        snprintf(g->join_password, sizeof g->join_password, "%s",
                 r->join_password);
        if (!dj_game_listed_on_web(g))
            continue;
        dj_game_overview *o = &list[k++];
        snprintf(o->name, sizeof o->name, "%s", r->name);
        snprintf(o->map, sizeof o->map, "%s", r->map);
        snprintf(o->state, sizeof o->state, "%s", r->state);
        snprintf(o->ending, sizeof o->ending, "%s", r->ending);
        snprintf(o->phase, sizeof o->phase, "%s", r->phase);
        o->deadline = r->deadline;
        const dj_map *map = judge_map(j, r->map);
        int powers = map ? map->npowers : 0;
        o->wanted = strcmp(r->state, "forming") == 0 && powers > r->players
                        ? powers - r->players - r->waiting
                        : 0;
        if (o->wanted < 0)
            o->wanted = 0;
    }
    free(rows);
    free(g);
    *out = list;
    *n = k;
    return 0;
}

int dj_game_phases(dj_judge *j, const char *game, dj_phase_ref **out, int *n)
{
    *out = NULL;
    *n = 0;
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    dj_game_rec g;
    int rc = dj_store_game_get(j->store, game, &g);
    dj_phase_rec *list = NULL;
    int nlist = 0;
    if (rc == 0)
        rc = dj_store_phase_list(j->store, g.id, &list, &nlist);
    dj_store_rollback(j->store);
    if (rc == DJ_STORE_NOTFOUND)
        return judge_fail(j, "game '%s' does not exist", game);
    if (rc < 0)
        return judge_store_fail(j);
    dj_phase_ref *refs = calloc((size_t)nlist + 1, sizeof *refs);
    if (!refs) {
        dj_phase_recs_free(list, nlist);
        return judge_fail(j, "out of memory");
    }
    for (int i = 0; i < nlist; i++) {
        snprintf(refs[i].name, sizeof refs[i].name, "%s", list[i].name);
        refs[i].id = list[i].id;
        refs[i].played = strcmp(list[i].status, "done") == 0;
    }
    dj_phase_recs_free(list, nlist);
    *out = refs;
    *n = nlist;
    return 0;
}

int dj_game_overview_get(dj_judge *j, const char *game, dj_game_overview *o)
{
    memset(o, 0, sizeof *o);
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    int rc = gv_load(j, game, &v);
    dj_store_rollback(j->store);
    if (rc < 0) {
        bool found = v.g.id != 0;
        gv_free(&v);
        return found ? -1 : 1;
    }
    snprintf(o->name, sizeof o->name, "%s", v.g.name);
    snprintf(o->map, sizeof o->map, "%s", v.g.map);
    snprintf(o->state, sizeof o->state, "%s", v.g.state);
    snprintf(o->ending, sizeof o->ending, "%s", v.g.ending);
    if (v.has_phase) {
        snprintf(o->phase, sizeof o->phase, "%s", v.phase.name);
        if (strcmp(v.phase.status, "current") == 0 && v.phase.deadline) {
            o->deadline = v.phase.deadline;
            dj_buf t;
            dj_buf_init(&t);
            gv_time(&v, v.phase.deadline, &t);
            snprintf(o->deadline_local, sizeof o->deadline_local, "%s",
                     dj_buf_ok(&t) ? t.data : "");
            dj_buf_free(&t);
        }
    }
    int players = 0;
    for (int p = 0; p < v.map->npowers; p++)
        players += gv_player(&v, p) != NULL;
    if (strcmp(v.g.state, "forming") == 0)
        o->wanted = v.map->npowers - players;
    snprintf(o->press, sizeof o->press, "%s", v.g.press);
    o->partial_press = v.g.partial_press != 0;
    o->grey_choice = strcmp(v.g.press, "white+grey") == 0;
    o->private_game = dj_game_is_private(&v.g);
    gv_free(&v);
    return 0;
}
