/* SPDX-License-Identifier: MIT */
/*
 * pop3_wire.c — see pop3_wire.h.  Lines are read a byte at a time from
 * the session's mailstream (which buffers the socket), so nothing is read
 * ahead of the reply being parsed and no line can outgrow its buffer.
 */
#define _POSIX_C_SOURCE 200809L

#include "mail/pop3_wire.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/fmt.h"

typedef struct line {
    char text[DJ_POP3_MAX_LINE + 1]; /* without its CRLF */
    size_t len;
} line;

static dj_pop3_result say(dj_pop3_result r, char *reply, size_t replylen,
                          const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* What went wrong, into reply; returns r. */
static dj_pop3_result say(dj_pop3_result r, char *reply, size_t replylen,
                          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt(reply, replylen, fmt, ap);
    va_end(ap);
    return r;
}

/* The server's text, printable, into reply. */
static void keep_reply(const line *l, char *reply, size_t replylen)
{
    if (!reply || !replylen)
        return;
    size_t n = 0;
    for (; n < l->len && n + 1 < replylen && n < DJ_POP3_REPLY_MAX; n++) {
        unsigned char c = (unsigned char)l->text[n];
        reply[n] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
    }
    reply[n] = '\0';
}

/*
 * One line; CRLF (or a bare LF) removed.  A line too long is read to its
 * end and kept cut short, and PROTOCOL says so.
 */
static dj_pop3_result read_line(mailstream *s, line *l)
{
    bool too_long = false;
    l->len = 0;
    for (;;) {
        char c;
        ssize_t r = mailstream_read(s, &c, 1);
        if (r != 1)
            return DJ_POP3_STREAM;
        if (c == '\n')
            break;
        if (l->len < DJ_POP3_MAX_LINE)
            l->text[l->len++] = c;
        else
            too_long = true;
    }
    if (l->len && l->text[l->len - 1] == '\r')
        l->len--;
    l->text[l->len] = '\0';
    return too_long ? DJ_POP3_PROTOCOL : DJ_POP3_OK;
}

/* Send one command line and read its status line. */
static dj_pop3_result command(mailpop3 *pop, const char *cmd, line *l,
                              char *reply, size_t replylen)
{
    mailstream *s = pop->pop3_stream;
    if (!s)
        return DJ_POP3_STREAM;
    size_t n = strlen(cmd);
    if (mailstream_write(s, cmd, n) != (ssize_t)n ||
        mailstream_write(s, "\r\n", 2) != 2 || mailstream_flush(s) != 0)
        return DJ_POP3_STREAM;
    dj_pop3_result r = read_line(s, l);
    if (r == DJ_POP3_PROTOCOL)
        return say(r, reply, replylen, "%s: reply line too long", cmd);
    if (r != DJ_POP3_OK)
        return r;
    keep_reply(l, reply, replylen);
    if (strncmp(l->text, "+OK", 3) == 0 &&
        (l->text[3] == '\0' || l->text[3] == ' '))
        return DJ_POP3_OK;
    return DJ_POP3_REFUSED;
}

/*
 * The next line of a multi-line reply into l, dot-unstuffed; *end when it
 * was the terminating ".".
 */
static dj_pop3_result next_data_line(mailpop3 *pop, line *l, bool *end)
{
    dj_pop3_result r = read_line(pop->pop3_stream, l);
    if (r == DJ_POP3_STREAM)
        return r;
    *end = r == DJ_POP3_OK && l->len == 1 && l->text[0] == '.';
    if (!*end && l->len && l->text[0] == '.') {
        memmove(l->text, l->text + 1, l->len); /* with its NUL */
        l->len--;
    }
    return r; /* PROTOCOL: the line was cut short */
}

/* Digits only, no sign, no leading junk; value <= max. */
static bool parse_number(const char **p, uint64_t max, uint64_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        return false;
    for (; *s >= '0' && *s <= '9'; s++) {
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (max - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *p = s;
    *out = v;
    return true;
}

static bool parse_num(const char **p, unsigned *num)
{
    uint64_t v;
    if (!parse_number(p, DJ_POP3_MAX_MESSAGES, &v) || v == 0)
        return false;
    *num = (unsigned)v;
    return true;
}

bool dj_pop3_parse_list_line(const char *s, unsigned *num, uint64_t *size)
{
    if (!parse_num(&s, num) || *s++ != ' ')
        return false;
    if (!parse_number(&s, UINT64_MAX / 2, size))
        return false;
    return *s == '\0' || *s == ' '; /* RFC 1939 allows more after */
}

bool dj_pop3_parse_uidl_line(const char *s, unsigned *num, char *uidl,
                             size_t uidlcap)
{
    if (!parse_num(&s, num) || *s++ != ' ')
        return false;
    size_t n = 0;
    for (; s[n] && s[n] != ' '; n++) {
        unsigned char c = (unsigned char)s[n];
        if (c < 0x21 || c > 0x7e || n >= DJ_POP3_UIDL_MAX || n + 1 >= uidlcap)
            return false;
        uidl[n] = (char)c;
    }
    uidl[n] = '\0';
    return n > 0 && s[n] == '\0';
}

void dj_pop3_table_free(dj_pop3_table *t)
{
    free(t->v);
    t->v = NULL;
    t->n = 0;
}

static int by_num(const void *a, const void *b)
{
    unsigned x = ((const dj_pop3_msg *)a)->num;
    unsigned y = ((const dj_pop3_msg *)b)->num;
    return x < y ? -1 : x > y;
}

static dj_pop3_msg *find_num(dj_pop3_table *t, unsigned num)
{
    dj_pop3_msg key = {.num = num};
    if (t->n == 0) /* an empty listing: no table to search */
        return NULL;
    return bsearch(&key, t->v, t->n, sizeof *t->v, by_num);
}

/* LIST's lines into t (ascending, each number once). */
static dj_pop3_result read_list(mailpop3 *pop, dj_pop3_table *t, line *l,
                                char *reply, size_t replylen)
{
    size_t cap = 0;
    for (;;) {
        bool end;
        dj_pop3_result r = next_data_line(pop, l, &end);
        if (r != DJ_POP3_OK)
            return r == DJ_POP3_PROTOCOL
                       ? say(r, reply, replylen, "%s", "LIST: line too long")
                       : r;
        if (end)
            return DJ_POP3_OK;
        dj_pop3_msg m = {0};
        if (!dj_pop3_parse_list_line(l->text, &m.num, &m.size))
            return say(DJ_POP3_PROTOCOL, reply, replylen,
                       "LIST: not a message number and size: %.60s",
                       l->text);
        if (t->n && m.num <= t->v[t->n - 1].num)
            return say(DJ_POP3_PROTOCOL, reply, replylen,
                       "LIST: message numbers out of order at %.60s",
                       l->text);
        if (t->n == DJ_POP3_MAX_MESSAGES)
            continue; /* the rest wait for a later session */
        dj_pop3_msg *v = dj_array_grow(t->v, &cap, t->n, sizeof *v, 64);
        if (!v)
            return DJ_POP3_MEMORY;
        t->v = v;
        t->v[t->n++] = m;
    }
}

/* UIDL's lines: each names a listed message, once. */
static dj_pop3_result read_uidl(mailpop3 *pop, dj_pop3_table *t, line *l,
                                char *reply, size_t replylen)
{
    for (;;) {
        bool end;
        dj_pop3_result r = next_data_line(pop, l, &end);
        if (r != DJ_POP3_OK)
            return r == DJ_POP3_PROTOCOL
                       ? say(r, reply, replylen, "%s", "UIDL: line too long")
                       : r;
        if (end)
            return DJ_POP3_OK;
        unsigned num;
        char uidl[DJ_POP3_UIDL_MAX + 1];
        if (!dj_pop3_parse_uidl_line(l->text, &num, uidl, sizeof uidl))
            return say(DJ_POP3_PROTOCOL, reply, replylen,
                       "UIDL: not a message number and unique-id: %.60s",
                       l->text);
        dj_pop3_msg *m = find_num(t, num);
        if (!m)
            continue; /* past the listing's cap, or new since LIST */
        if (m->uidl[0])
            return say(DJ_POP3_PROTOCOL, reply, replylen,
                       "UIDL: a message named twice: %.60s", l->text);
        memcpy(m->uidl, uidl, sizeof uidl);
    }
}

dj_pop3_result dj_pop3_wire_list(mailpop3 *pop, dj_pop3_table *t,
                                 char *reply, size_t replylen)
{
    dj_pop3_table_free(t);
    line *l = malloc(sizeof *l);
    if (!l)
        return DJ_POP3_MEMORY;
    dj_pop3_result r = command(pop, "LIST", l, reply, replylen);
    if (r == DJ_POP3_OK)
        r = read_list(pop, t, l, reply, replylen);
    if (r == DJ_POP3_OK) {
        r = command(pop, "UIDL", l, reply, replylen);
        if (r == DJ_POP3_REFUSED) { /* no UIDL: every unique-id left "" */
            free(l);
            return DJ_POP3_OK;
        }
    }
    if (r == DJ_POP3_OK)
        r = read_uidl(pop, t, l, reply, replylen);
    free(l);
    if (r != DJ_POP3_OK)
        dj_pop3_table_free(t);
    return r;
}

dj_pop3_result dj_pop3_wire_read(mailpop3 *pop, unsigned num,
                                 bool header_only, size_t max, dj_buf *out,
                                 bool *truncated, char *reply,
                                 size_t replylen)
{
    char cmd[64];
    snprintf(cmd, sizeof cmd, header_only ? "TOP %u 0" : "RETR %u", num);
    line *l = malloc(sizeof *l);
    if (!l)
        return DJ_POP3_MEMORY;
    *truncated = false;
    dj_pop3_result r = command(pop, cmd, l, reply, replylen);
    while (r == DJ_POP3_OK) {
        bool end;
        r = next_data_line(pop, l, &end);
        if (r == DJ_POP3_PROTOCOL) {
            /* a line longer than any mail's: kept cut short */
            r = DJ_POP3_OK;
            end = false;
            *truncated = true;
        }
        if (r != DJ_POP3_OK || end)
            break;
        if (max && out->len + l->len + 2 > max) {
            *truncated = true; /* drain the rest, keep nothing more */
            continue;
        }
        dj_buf_append_n(out, l->text, l->len);
        dj_buf_append_n(out, "\r\n", 2);
    }
    free(l);
    if (r == DJ_POP3_OK && !dj_buf_ok(out))
        r = DJ_POP3_MEMORY;
    return r;
}

dj_pop3_result dj_pop3_wire_dele(mailpop3 *pop, unsigned num, char *reply,
                                 size_t replylen)
{
    char cmd[64];
    snprintf(cmd, sizeof cmd, "DELE %u", num);
    line *l = malloc(sizeof *l);
    if (!l)
        return DJ_POP3_MEMORY;
    dj_pop3_result r = command(pop, cmd, l, reply, replylen);
    free(l);
    return r;
}
