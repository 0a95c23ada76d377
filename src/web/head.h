/* SPDX-License-Identifier: MIT */
/*
 * head.h — is a request's head (its request line and header fields) in,
 * and is it one judgeweb will hand to libmicrohttpd?  Pure (no I/O): the
 * front door (door.c) calls it on the bytes it has peeked at so far, and
 * it is fuzzed whole (tests/fuzz/fuzz_webhead.c).
 *
 * Why judge the head before libmicrohttpd does: whatever libmicrohttpd
 * refuses itself (a malformed line, a line or a head too long) it answers
 * without the security headers every other answer carries, and a head
 * that never ends holds a connection for as long as its sender likes.
 * The door answers those itself (with the headers) and gives
 * libmicrohttpd only heads it will take.
 *
 * Refused: a request line longer than DJ_WEB_LINE_MAX (414) or a head
 * longer than DJ_WEB_HEAD_MAX (431); a request line that is not METHOD SP
 * /TARGET SP HTTP/1.0 or HTTP/1.1, a target with a control byte, a NUL
 * (%00) or an escape that is not two hex digits, a field line without a
 * name and a colon, a folded field, an HTTP/1.1 request without Host, a
 * Content-Length that is not digits or comes twice (400).
 */
#ifndef DJ_WEB_HEAD_H
#define DJ_WEB_HEAD_H

#include <stddef.h>

#define DJ_WEB_LINE_MAX 4096        /* the request line, bytes */
#define DJ_WEB_HEAD_MAX (16 * 1024) /* the whole head, bytes */

enum {
    DJ_HEAD_MORE = 0, /* not all in yet: read on */
    DJ_HEAD_OK = 1,   /* complete and well formed */
};

/* DJ_HEAD_MORE, DJ_HEAD_OK, or the status to answer (400, 414, 431);
 * *why says what was wrong, in words for the answer's body. */
int dj_web_head_check(const char *buf, size_t len, const char **why);

#endif
