/* SPDX-License-Identifier: MIT */
/*
 * utf8.h — one code point as UTF-8 bytes.  The MIME reader's charset
 * conversion and its HTML-to-text entity decoder both write code points;
 * this is the one encoder they share.
 */
#ifndef DJ_UTIL_UTF8_H
#define DJ_UTIL_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Write cp (at most 0x10FFFF; the caller checks) into out; returns the
 * number of bytes, 1 to 4. */
size_t dj_utf8_encode(uint32_t cp, char out[4]);

#endif
