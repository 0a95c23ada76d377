/* SPDX-License-Identifier: MIT */
/*
 * hex.c — bytes as lower-case hex digits.  See hex.h.
 */
#include "util/hex.h"

void dj_hex_encode(const void *bytes, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    const unsigned char *b = bytes;
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = '\0';
}
