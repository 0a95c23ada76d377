/*
 * password.c — see password.h.  crypt_gensalt_rn() draws the salt from
 * the operating system's random source; crypt_r() keeps no state between
 * calls.
 */
#define _DEFAULT_SOURCE

#include "game/password.h"

#include <crypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

bool dj_password_check(const char *password, const char *hash)
{
    if (!hash || !*hash)
        return false;
    struct crypt_data *data = calloc(1, sizeof *data);
    if (!data)
        return false;
    const char *h = crypt_r(password, hash, data);
    bool ok = h && h[0] != '*' && strcmp(h, hash) == 0;
    free(data);
    return ok;
}
