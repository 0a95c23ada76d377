/* SPDX-License-Identifier: MIT */
/*
 * reply_token.c — reply tokens: the secret in the Reply-To address of
 * every mail the judge sends to a participant of a game, which signs the
 * participant on when they answer (no SIGNON line, no password).
 *
 * Design.  A token is 120 bits, written as 24 base32 letters: the first
 * 15 bytes of HMAC-SHA256(key, "dipjudge reply token" || participant id
 * || generation).  The key is 32 random bytes in a file of its own beside
 * the database (mode 0600, made at the first start: judged(8)), so a copy
 * of the database alone gives no token; the database keeps only each
 * participant's generation and the SHA-256 of the token last mailed
 * (store/tokens.h), found by one indexed lookup when a mail comes back.
 * Deriving the token means the judge needs no plaintext at rest to write
 * it into a mail at send time, and a new token is just a new generation:
 * the schema's trigger starts one when the password, the address or the
 * power changes, SET TOKEN NEW when the participant asks.  The old
 * token's hash is gone with it, so an old reply address does nothing.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <gnutls/crypto.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game/game.h"
#include "game/game_int.h"
#include "game/press.h"
#include "game/signon.h"
#include "game/reply_key.h"
#include "store/signons.h"
#include "store/tokens.h"
#include "util/hex.h"
#include "util/random.h"

#define KEY_LEN 32
#define TOKEN_BYTES 15

int dj_judge_load_reply_key(dj_judge *j, const char *path, char *err,
                            size_t errlen)
{
    unsigned char key[KEY_LEN];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) {
            bool ok = dj_random_bytes(key, sizeof key) == 0 &&
                      write(fd, key, sizeof key) == (ssize_t)sizeof key &&
                      fsync(fd) == 0;
            close(fd);
            if (!ok) {
                unlink(path);
                snprintf(err, errlen, "cannot write the reply key %s", path);
                return -1;
            }
        }
        fd = open(path, O_RDONLY | O_CLOEXEC); /* another made it first */
    }
    if (fd < 0) {
        snprintf(err, errlen, "cannot open the reply key %s: %s", path,
                 strerror(errno));
        return -1;
    }
    ssize_t n = read(fd, key, sizeof key);
    close(fd);
    if (n != (ssize_t)sizeof key) {
        snprintf(err, errlen, "the reply key %s is not %d bytes", path,
                 KEY_LEN);
        return -1;
    }
    memcpy(j->token_key, key, sizeof key);
    j->has_token_key = true;
    return 0;
}

void dj_judge_wipe_reply_key(dj_judge *j)
{
    volatile unsigned char *k = j->token_key;
    for (size_t i = 0; i < sizeof j->token_key; i++)
        k[i] = 0;
    j->has_token_key = false;
}

bool dj_judge_has_reply_key(const dj_judge *j)
{
    return j->has_token_key;
}

static void base32(const unsigned char *in, size_t n, char *out)
{
    static const char A[] = "abcdefghijklmnopqrstuvwxyz234567";
    size_t o = 0;
    unsigned buf = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        buf = (buf << 8) | in[i];
        bits += 8;
        while (bits >= 5) {
            out[o++] = A[(buf >> (bits - 5)) & 31];
            bits -= 5;
        }
    }
    if (bits > 0)
        out[o++] = A[(buf << (5 - bits)) & 31];
    out[o] = '\0';
}

static int derive(const dj_judge *j, int64_t pid, int64_t gen, char *token)
{
    char msg[80];
    int n = snprintf(msg, sizeof msg, "dipjudge reply token %lld %lld",
                     (long long)pid, (long long)gen);
    unsigned char mac[32];
    if (gnutls_hmac_fast(GNUTLS_MAC_SHA256, j->token_key, KEY_LEN, msg,
                         (size_t)n, mac) < 0)
        return -1;
    base32(mac, TOKEN_BYTES, token);
    return 0;
}

static int token_hash(const char *token, char *hex)
{
    unsigned char d[32];
    if (gnutls_hash_fast(GNUTLS_DIG_SHA256, token, strlen(token), d) < 0)
        return -1;
    dj_hex_encode(d, sizeof d, hex);
    return 0;
}

int dj_game_reply_token(dj_judge *j, int64_t game_id, const char *email,
                        char *token)
{
    token[0] = '\0';
    if (!j->has_token_key || game_id <= 0)
        return 1;
    int64_t pid = 0, gen = 0;
    int rc = dj_store_token_participant(j->store, game_id, email, &pid, &gen);
    if (rc == DJ_STORE_NOTFOUND)
        return 1;
    if (rc < 0)
        return judge_store_fail(j);
    char hex[65];
    if (derive(j, pid, gen, token) < 0 || token_hash(token, hex) < 0) {
        token[0] = '\0';
        return judge_fail(j, "cannot make a reply token (GnuTLS)");
    }
    if (dj_store_token_set_hash(j->store, pid, gen, hex) < 0) {
        token[0] = '\0';
        return judge_store_fail(j);
    }
    return 0;
}

int dj_game_token_signon(dj_judge *j, const char *token, dj_signon *id)
{
    memset(id, 0, sizeof *id);
    if (strlen(token) != DJ_REPLY_TOKEN_LEN)
        return DJ_SIGNON_REFUSED;
    char hex[65];
    if (token_hash(token, hex) < 0)
        return judge_fail(j, "cannot hash a reply token (GnuTLS)");
    int64_t pid = 0, game_id = 0;
    int rc = dj_store_token_find(j->store, hex, &pid, &game_id);
    if (rc == DJ_STORE_NOTFOUND)
        return DJ_SIGNON_REFUSED;
    if (rc < 0)
        return judge_store_fail(j);
    dj_game_rec g;
    rc = dj_store_game_get_id(j->store, game_id, &g);
    if (rc == DJ_STORE_NOTFOUND)
        return DJ_SIGNON_REFUSED;
    if (rc < 0)
        return judge_store_fail(j);
    game_view v;
    memset(&v, 0, sizeof v);
    if (gv_load(j, g.name, &v) < 0) {
        gv_free(&v);
        return -1;
    }
    rc = DJ_SIGNON_REFUSED;
    for (int i = 0; i < v.nparts; i++) {
        const dj_participant_rec *p = &v.parts[i];
        if (p->id != pid)
            continue;
        snprintf(id->game, sizeof id->game, "%s", v.g.name);
        snprintf(id->role, sizeof id->role, "%s", p->role);
        id->power = strcmp(p->role, "player") == 0 ? p->power : -1;
        if (id->power >= 0)
            snprintf(id->power_name, sizeof id->power_name, "%s",
                     gv_power_name(&v, id->power));
        id->participant_id = p->id;
        rc = 0;
    }
    gv_free(&v);
    return rc;
}

int dj_game_token_new(dj_judge *j, const dj_signon *id, dj_buf *out)
{
    if (dj_store_token_bump(j->store, id->participant_id) < 0)
        return judge_store_fail(j);
    dj_buf_printf(out,
                  "%s: a new reply address.  The judge's mail to you "
                  "carries it from now on; answers to its older mail "
                  "are no longer read as yours.\n",
                  id->game);
    return 0;
}

int dj_game_token_refused(dj_judge *j, const char *sender)
{
    if (dj_store_signon_failure_add(j->store, sender, "", "reply-token",
                                    dj_sender_class_name(j->sender_class),
                                    j->now, j->now - 86400) < 0)
        return judge_store_fail(j);
    return 0;
}

int dj_game_press_reply(dj_judge *j, const dj_signon *id, int64_t press_id,
                        const char *body, dj_buf *out)
{
    dj_press_origin o;
    int rc = dj_store_press_origin(j->store, press_id, &o);
    if (rc < 0)
        return judge_store_fail(j);
    /* only by one it went to (so nobody learns who sent others' press) */
    bool received = o.broadcast ||
                    (id->power >= 0 && (o.to_mask >> id->power) & 1) ||
                    (strcmp(id->role, "master") == 0 && o.to_master) ||
                    (strcmp(id->role, "observer") == 0 && o.to_observers);
    dj_game_rec g;
    if (rc != 0 || dj_store_game_get(j->store, id->game, &g) != 0 ||
        g.id != o.game_id || o.grey || !received)
        return judge_fail(j, "that press message cannot be answered this "
                             "way; write PRESS TO ... ENDPRESS instead");
    int from_power = o.from_power;
    const char *role = o.role;
    game_view v;
    memset(&v, 0, sizeof v);
    if (gv_load(j, id->game, &v) < 0) {
        gv_free(&v);
        return -1;
    }
    char to[64];
    /* the sender it showed (a FROM press: the power shown, never the real
     * one), else the master or the observers */
    if (from_power >= 0)
        snprintf(to, sizeof to, "%s", gv_power_name(&v, from_power));
    else
        snprintf(to, sizeof to, "%s",
                 strcmp(role, "observer") == 0 ? "observers" : "master");
    gv_free(&v);
    if (id->power >= 0 && strcmp(id->power_name, to) == 0)
        return judge_fail(j, "that press message was your own");
    dj_press_request req = {to, NULL, false, NULL, -1, body};
    return dj_game_press(j, id, &req, out);
}
