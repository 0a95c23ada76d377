/* SPDX-License-Identifier: MIT */
/*
 * array.h — room for one more element in a growable array: the one
 * doubling growth of the lists the mail room builds as it reads a
 * mailbox (fetched items, maildir entries, POP3's listing).
 */
#ifndef DJ_UTIL_ARRAY_H
#define DJ_UTIL_ARRAY_H

#include <stddef.h>

/* v (of *cap elements of size bytes, n of them in use) with room for at
 * least n + 1: v itself when there is room, else v moved to twice *cap
 * (first when *cap is 0) and *cap updated.  NULL, with v still valid and
 * *cap as it was, when memory runs out or the size overflows. */
void *dj_array_grow(void *v, size_t *cap, size_t n, size_t size, size_t first);

#endif
