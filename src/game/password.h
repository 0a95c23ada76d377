/* SPDX-License-Identifier: MIT */
/*
 * password.h — players' passwords, kept only as hashes.
 *
 * The hash is crypt(3)'s, with the strongest method the C library offers
 * (yescrypt "$y$" on Debian's libxcrypt, else SHA-512 "$6$") and a random
 * salt; checking a password uses whatever method its hash names, so old
 * hashes keep working when the default changes.
 */
#ifndef DJ_GAME_PASSWORD_H
#define DJ_GAME_PASSWORD_H

#include <stdbool.h>
#include <stddef.h>

/* Hash a password into out (at least 128 bytes).  Returns 0 or -1. */
int dj_password_hash(const char *password, char *out, size_t len);

/*
 * Does the password match the hash?  An empty hash matches nothing.  The
 * comparison takes the same time wherever the first difference is.
 */
bool dj_password_check(const char *password, const char *hash);

#define DJ_PASSWORD_GENERATED 12 /* letters in a generated password */

/*
 * A new random password (DJ_PASSWORD_GENERATED letters and digits that
 * cannot be mistaken for one another) into out.  Returns 0, or -1 when
 * the system's random source cannot be read or out is too small.
 */
int dj_password_generate(char *out, size_t len);

#endif
