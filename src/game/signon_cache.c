/* SPDX-License-Identifier: MIT */
/*
 * signon_cache.c — the password checks of one mail, made before its write
 * transaction, and the sign-ons a running judge remembers.
 *
 * Why.  A yescrypt check costs about 20 ms of CPU.  Made inside the mail's
 * BEGIN IMMEDIATE it held the whole judge's write lock for that long; so
 * the mail's SIGNON lines are checked first, outside any transaction
 * (dj_game_signon_precheck), and the results kept here for this mail: the
 * sign-on inside the transaction finds its answer without hashing again.
 * And a correct password is remembered for as long as the process runs,
 * so the player's next mails pay one HMAC, not a yescrypt.
 *
 * What is kept.  Never a password: an HMAC-SHA256, under a key drawn at
 * random when the judge opens and never written anywhere, of the
 * participant's id, the stored yescrypt hash and the password.  The stored
 * hash is in the MAC, so a new password (a new hash, a new salt) never
 * matches what was remembered of the old one: it is forgotten by
 * construction, and dj_signon_cache_forget() drops it at once besides.
 * Only correct passwords are remembered across mails; a wrong one always
 * pays the full check (once per mail: the check made outside the lock is
 * the one the sign-on inside it uses).  Memory only: a process that ends
 * forgets everything.
 */
#define _DEFAULT_SOURCE /* explicit_bzero */

#include <gnutls/crypto.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "game/game_int.h"
#include "game/password.h"
#include "game/signon.h"
#include "util/random.h"

#define REMEMBERED_SLOTS 8192 /* direct-mapped by participant id */
#define MAIL_SLOTS 16         /* checks made for one mail */
#define MAC_LEN 32

typedef struct memo_entry {
    int64_t participant_id; /* 0: a check of nothing (no such power...) */
    unsigned char mac[MAC_LEN];
    bool used, ok;
} memo_entry;

struct dj_signon_memo {
    unsigned char key[32];
    memo_entry remembered[REMEMBERED_SLOTS];
    memo_entry mail[MAIL_SLOTS];
    int nmail;
    dj_signon_cache_stats stats;
};

/* The memo, made at the first check; NULL when it cannot be (then every
 * check is a full one). */
static dj_signon_memo *memo_of(dj_judge *j)
{
    if (!j->memo) {
        dj_signon_memo *m = calloc(1, sizeof *m);
        if (!m || dj_random_bytes(m->key, sizeof m->key) < 0) {
            free(m);
            return NULL;
        }
        j->memo = m;
    }
    return j->memo;
}

void gv_signon_memo_free(dj_signon_memo *m)
{
    if (!m)
        return;
    explicit_bzero(m, sizeof *m);
    free(m);
}

static int mac_of(const dj_signon_memo *m, int64_t pid, const char *hash,
                  const char *password, unsigned char *out)
{
    gnutls_hmac_hd_t h;
    if (gnutls_hmac_init(&h, GNUTLS_MAC_SHA256, m->key, sizeof m->key) < 0)
        return -1;
    unsigned char id[8];
    for (int i = 0; i < 8; i++)
        id[i] = (unsigned char)((uint64_t)pid >> (8 * i));
    int rc = gnutls_hmac(h, id, sizeof id) < 0 ||
                     gnutls_hmac(h, hash, strlen(hash) + 1) < 0 ||
                     gnutls_hmac(h, password, strlen(password)) < 0
                 ? -1
                 : 0;
    gnutls_hmac_deinit(h, out);
    return rc;
}

static bool same_mac(const unsigned char *a, const unsigned char *b)
{
    unsigned char diff = 0;
    for (int i = 0; i < MAC_LEN; i++)
        diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

static const memo_entry *in_mail(const dj_signon_memo *m, int64_t pid,
                                 const unsigned char *mac)
{
    for (int i = 0; i < m->nmail; i++)
        if (m->mail[i].participant_id == pid && same_mac(m->mail[i].mac, mac))
            return &m->mail[i];
    return NULL;
}

static void note_mail(dj_signon_memo *m, int64_t pid, const unsigned char *mac,
                      bool ok)
{
    if (m->nmail >= MAIL_SLOTS)
        return;
    memo_entry *e = &m->mail[m->nmail++];
    e->participant_id = pid;
    memcpy(e->mac, mac, MAC_LEN);
    e->used = true;
    e->ok = ok;
}

static memo_entry *slot_of(dj_signon_memo *m, int64_t pid)
{
    return &m->remembered[(uint64_t)pid % REMEMBERED_SLOTS];
}

bool gv_password_ok(dj_judge *j, int64_t pid, const char *password,
                    const char *hash)
{
    dj_signon_memo *m = memo_of(j);
    unsigned char mac[MAC_LEN];
    if (!m || mac_of(m, pid, hash, password, mac) < 0)
        return dj_password_check(password, hash);
    const memo_entry *seen = in_mail(m, pid, mac);
    if (seen) {
        m->stats.mail_hits++;
        return seen->ok;
    }
    memo_entry *slot = slot_of(m, pid);
    if (slot->used && slot->participant_id == pid && same_mac(slot->mac, mac)) {
        m->stats.remembered_hits++;
        note_mail(m, pid, mac, true);
        return true;
    }
    m->stats.full_checks++;
    bool ok = dj_password_check(password, hash);
    note_mail(m, pid, mac, ok);
    if (ok) {
        slot->participant_id = pid;
        memcpy(slot->mac, mac, MAC_LEN);
        slot->used = true;
        slot->ok = true;
    }
    return ok;
}

void gv_check_nothing(dj_judge *j, const char *password)
{
    dj_signon_memo *m = memo_of(j);
    unsigned char mac[MAC_LEN];
    bool keyed = m && mac_of(m, 0, "", password, mac) == 0;
    if (keyed && in_mail(m, 0, mac)) {
        m->stats.mail_hits++;
        return;
    }
    char scratch[DJ_HASH_MAX];
    (void)dj_password_hash(password, scratch, sizeof scratch);
    if (keyed) {
        m->stats.full_checks++;
        note_mail(m, 0, mac, false);
    }
}

void dj_signon_cache_end_mail(dj_judge *j)
{
    if (!j->memo)
        return;
    explicit_bzero(j->memo->mail, sizeof j->memo->mail);
    j->memo->nmail = 0;
}

void dj_signon_cache_forget(dj_judge *j, int64_t participant_id)
{
    if (!j->memo)
        return;
    if (participant_id <= 0) {
        explicit_bzero(j->memo->remembered, sizeof j->memo->remembered);
    } else {
        memo_entry *slot = slot_of(j->memo, participant_id);
        if (slot->participant_id == participant_id)
            explicit_bzero(slot, sizeof *slot);
    }
    dj_signon_cache_end_mail(j);
}

void dj_signon_cache_stats_get(dj_judge *j, dj_signon_cache_stats *out)
{
    if (j->memo)
        *out = j->memo->stats;
    else
        memset(out, 0, sizeof *out);
}
