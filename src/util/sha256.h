/* SPDX-License-Identifier: MIT */
/*
 * sha256.h — SHA-256 (FIPS 180-4), for storing the web door's session
 * tokens by their hash: a copy of the database then signs nobody in.
 * libc only; not for passwords (game/password.h hashes those slowly).
 */
#ifndef DJ_UTIL_SHA256_H
#define DJ_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define DJ_SHA256_LEN 32

void dj_sha256(const void *data, size_t len, uint8_t out[DJ_SHA256_LEN]);

/* The digest of a string as 64 lower-case hex digits and a NUL. */
void dj_sha256_hex(const char *text, char out[2 * DJ_SHA256_LEN + 1]);

/* n random bytes from the system (getrandom); 0 or -1. */
int dj_random_bytes(void *out, size_t n);

/* 2n hex digits and a NUL from n random bytes; 0 or -1. */
int dj_random_hex(char *out, size_t n);

#endif
