/* SPDX-License-Identifier: MIT */
/*
 * hex.c — bytes as lower-case hex digits, and back.  See hex.h.
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

int dj_hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int dj_hex_pair(const char *s)
{
    int hi = dj_hex_digit(s[0]), lo = dj_hex_digit(s[1]);
    return hi < 0 || lo < 0 ? -1 : hi << 4 | lo;
}
