/* SPDX-License-Identifier: MIT */
/*
 * hex.h — bytes as lower-case hex digits: the one encoder of the digests
 * and random tokens the judge keeps as text (message keys, web sessions),
 * and the one decoder of hex escapes (quoted-printable "=41", form "%41").
 */
#ifndef DJ_UTIL_HEX_H
#define DJ_UTIL_HEX_H

#include <stddef.h>

/* 2n hex digits and a NUL into out (2n + 1 bytes). */
void dj_hex_encode(const void *bytes, size_t n, char *out);

/* The value (0-15) of one hex digit of either case, or -1. */
int dj_hex_digit(char c);

/* The byte two hex digits s[0] s[1] spell (0-255), or -1 when either is
 * not a hex digit.  The caller sees to it that both bytes exist. */
int dj_hex_pair(const char *s);

#endif
