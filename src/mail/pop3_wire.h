/* SPDX-License-Identifier: MIT */
/*
 * pop3_wire.h — the POP3 commands that carry the server's data (LIST,
 * UIDL, RETR, TOP, DELE), spoken and parsed here with a bound on
 * everything, on the stream of a libetpan session.
 *
 * Why not libetpan's own: its LIST and UIDL readers index their message
 * table with the number the server sends, unchecked, so a listing line
 * "0 10" writes before the table and one with a huge number allocates
 * without limit (found by tests/fuzz/fuzz_mailserver.c, and every RETR,
 * TOP and DELE goes through that listing first).  libetpan still connects,
 * speaks STLS, USER and PASS and QUIT; from the first listing on, the
 * session is ours.
 *
 * Every reply is checked against RFC 1939: message numbers from 1 to
 * DJ_POP3_MAX_MESSAGES, each once, in LIST order; unique-ids of 1 to 70
 * printable characters; sizes that fit; lines of at most
 * DJ_POP3_MAX_LINE bytes.  A server that breaks the rules gets
 * DJ_POP3_PROTOCOL and the session is dropped; nothing it sent is used.
 */
#ifndef DJ_MAIL_POP3_WIRE_H
#define DJ_MAIL_POP3_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libetpan/libetpan.h>

#include "util/buf.h"

#define DJ_POP3_MAX_MESSAGES 100000 /* listed per session; the rest wait */
#define DJ_POP3_MAX_LINE 8192       /* longest reply line accepted */
#define DJ_POP3_UIDL_MAX 70         /* RFC 1939 */

typedef struct dj_pop3_msg {
    unsigned num;                       /* the message number (1..) */
    uint64_t size;                      /* octets, as LIST says */
    char uidl[DJ_POP3_UIDL_MAX + 1];    /* "" when UIDL did not name it */
    bool deleted;                       /* DELE sent in this session */
} dj_pop3_msg;

typedef struct dj_pop3_table {
    dj_pop3_msg *v; /* in LIST order (ascending message numbers) */
    size_t n;
} dj_pop3_table;

typedef enum dj_pop3_result {
    DJ_POP3_OK = 0,
    DJ_POP3_STREAM,   /* the connection failed or was closed */
    DJ_POP3_REFUSED,  /* -ERR: the reply text is in `reply` */
    DJ_POP3_PROTOCOL, /* the server broke the protocol (said in `reply`) */
    DJ_POP3_MEMORY
} dj_pop3_result;

/* Whatever the server answered last, printable, for error messages. */
#define DJ_POP3_REPLY_MAX 200

/*
 * LIST then UIDL into *t (freed and replaced).  reply gets the server's
 * text on REFUSED, or what was wrong on PROTOCOL.  A server that refuses
 * UIDL leaves every unique-id "" (the caller refuses such a server).
 */
dj_pop3_result dj_pop3_wire_list(mailpop3 *pop, dj_pop3_table *t,
                                 char *reply, size_t replylen);

/*
 * RETR num (or TOP num 0 when header_only) into out, at most max bytes
 * (0: no limit) with *truncated set when there was more; the rest of the
 * message is read and dropped, so the session stays usable.
 */
dj_pop3_result dj_pop3_wire_read(mailpop3 *pop, unsigned num,
                                 bool header_only, size_t max, dj_buf *out,
                                 bool *truncated, char *reply,
                                 size_t replylen);

/* DELE num. */
dj_pop3_result dj_pop3_wire_dele(mailpop3 *pop, unsigned num, char *reply,
                                 size_t replylen);

void dj_pop3_table_free(dj_pop3_table *t);

/*
 * The line parsers (for the unit tests and the fuzzer): "NUM SIZE" and
 * "NUM UIDL".  true when the line is well formed.
 */
bool dj_pop3_parse_list_line(const char *line, unsigned *num,
                             uint64_t *size);
bool dj_pop3_parse_uidl_line(const char *line, unsigned *num, char *uidl,
                             size_t uidlcap);

#endif
