/* SPDX-License-Identifier: MIT */
/*
 * password.c — see password.h.  crypt_gensalt_rn() draws the salt from
 * the operating system's random source; crypt_r() keeps no state between
 * calls; the computed hash is compared with the stored one in constant
 * time.
 */
#define _DEFAULT_SOURCE

#include "game/password.h"

#include <crypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/random.h"

int dj_password_hash(const char *password, char *out, size_t len)
{
    static const char *const prefixes[] = {"$y$", "$6$", NULL};
    char salt[CRYPT_GENSALT_OUTPUT_SIZE];
    struct crypt_data *data = calloc(1, sizeof *data);
    if (!data)
        return -1;
    int rc = -1;
    for (const char *const *p = prefixes; *p && rc < 0; p++) {
        if (!crypt_gensalt_rn(*p, 0, NULL, 0, salt, sizeof salt))
            continue;
        const char *h = crypt_r(password, salt, data);
        if (h && h[0] != '*' && strlen(h) < len) {
            snprintf(out, len, "%s", h);
            rc = 0;
        }
    }
    free(data);
    return rc;
}

/*
 * Compare without an early exit: the time taken depends on the lengths
 * only, never on how many leading characters match, so an attacker timing
 * replies learns nothing about the stored hash.
 */
static bool same_constant_time(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t n = la > lb ? la : lb;
    unsigned char diff = (unsigned char)(la != lb);
    for (size_t i = 0; i < n; i++) {
        unsigned char ca = i < la ? (unsigned char)a[i] : 0;
        unsigned char cb = i < lb ? (unsigned char)b[i] : 0;
        diff |= (unsigned char)(ca ^ cb);
    }
    return diff == 0;
}

bool dj_password_check(const char *password, const char *hash)
{
    if (!hash || !*hash)
        return false;
    struct crypt_data *data = calloc(1, sizeof *data);
    if (!data)
        return false;
    const char *h = crypt_r(password, hash, data);
    bool ok = h && h[0] != '*' && same_constant_time(h, hash);
    free(data);
    return ok;
}

int dj_password_generate(char *out, size_t len)
{
    /* no 0/O, 1/l/I: read off a mail and typed back */
    static const char alphabet[] = "abcdefghijkmnpqrstuvwxyz23456789";
    unsigned char bytes[DJ_PASSWORD_GENERATED];
    if (len <= DJ_PASSWORD_GENERATED)
        return -1;
    if (dj_random_bytes(bytes, sizeof bytes) < 0)
        return -1;
    for (size_t i = 0; i < sizeof bytes; i++)
        out[i] = alphabet[bytes[i] % (sizeof alphabet - 1)];
    out[sizeof bytes] = '\0';
    return 0;
}
