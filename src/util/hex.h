/* SPDX-License-Identifier: MIT */
/*
 * hex.h — bytes as lower-case hex digits: the one encoder of the digests
 * and random tokens the judge keeps as text (message keys, web sessions).
 */
#ifndef DJ_UTIL_HEX_H
#define DJ_UTIL_HEX_H

#include <stddef.h>

/* 2n hex digits and a NUL into out (2n + 1 bytes). */
void dj_hex_encode(const void *bytes, size_t n, char *out);

#endif
