/* SPDX-License-Identifier: MIT */
/*
 * random.h — unpredictable bytes from the system (getrandom), for the
 * web door's session and CSRF tokens.
 */
#ifndef DJ_UTIL_RANDOM_H
#define DJ_UTIL_RANDOM_H

#include <stddef.h>

/* n random bytes from the system (getrandom); 0 or -1. */
int dj_random_bytes(void *out, size_t n);

/* 2n hex digits and a NUL from n random bytes (n at most 64); 0 or -1. */
int dj_random_hex(char *out, size_t n);

#endif
