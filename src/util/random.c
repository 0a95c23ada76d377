/* SPDX-License-Identifier: MIT */
/*
 * random.c — unpredictable bytes from the system.  See random.h.
 */
#define _DEFAULT_SOURCE

#include "util/random.h"

#include <errno.h>
#include <stdint.h>
#include <sys/random.h>

#include "util/hex.h"

int dj_random_bytes(void *out, size_t n)
{
    uint8_t *p = out;
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += got;
        n -= (size_t)got;
    }
    return 0;
}

int dj_random_hex(char *out, size_t n)
{
    uint8_t b[64];
    if (n > sizeof b || dj_random_bytes(b, n) < 0)
        return -1;
    dj_hex_encode(b, n, out);
    return 0;
}
