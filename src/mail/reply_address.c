/* SPDX-License-Identifier: MIT */
/*
 * reply_address.c — making and finding the judge's reply addresses.  See
 * reply_address.h.
 *
 * Finding them needs no full address parser: in the value of each
 * recipient field the judge's local part followed by the delimiter is
 * looked for, case-insensitively, at the start of a word; what follows
 * up to the '@' is the tag, and the domain after it must be the judge's.
 * Display names and comments cannot make a tag the judge would accept:
 * a tag is only a lookup key, and one nobody holds signs nobody on.
 */
#define _POSIX_C_SOURCE 200809L

#include "mail/reply_address.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define HEADER_MAX (256 * 1024) /* header bytes read, at most */

int dj_reply_address_make(const char *judge_address, const char *delim,
                          const char *token, int64_t press_id, char *out,
                          size_t outlen)
{
    const char *at = judge_address ? strrchr(judge_address, '@') : NULL;
    if (!at || at == judge_address || !delim || !*delim)
        return -1;
    char press[32] = "";
    if (press_id > 0)
        snprintf(press, sizeof press, "-p%lld", (long long)press_id);
    int n = snprintf(out, outlen, "%.*s%s%s%s%s", (int)(at - judge_address),
                     judge_address, delim, token, press, at);
    return n > 0 && (size_t)n < outlen ? 0 : -1;
}

static bool token_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '2' && c <= '7');
}

/* Read the tag of `p` (just after the delimiter) ending at '@'. */
static bool read_tag(const char *p, const char *end, const char *domain,
                     dj_reply_tag *tag)
{
    memset(tag, 0, sizeof *tag);
    size_t n = 0;
    char t[DJ_REPLY_TAG_LEN + 1];
    while (p < end && n < DJ_REPLY_TAG_LEN &&
           token_char((char)tolower((unsigned char)*p)))
        t[n++] = (char)tolower((unsigned char)*p++);
    t[n] = '\0';
    if (n != DJ_REPLY_TAG_LEN)
        return false;
    int64_t press = 0;
    if (end - p > 2 && p[0] == '-' && (p[1] == 'p' || p[1] == 'P') &&
        isdigit((unsigned char)p[2])) {
        p += 2;
        while (p < end && isdigit((unsigned char)*p) && press < 1000000000000)
            press = press * 10 + (*p++ - '0');
    }
    size_t dl = strlen(domain);
    if (p >= end || *p != '@' || (size_t)(end - p - 1) < dl ||
        strncasecmp(p + 1, domain, dl) != 0)
        return false;
    char after = p + 1 + dl < end ? p[1 + dl] : '\0';
    if (isalnum((unsigned char)after) || after == '.' || after == '-')
        return false;
    memcpy(tag->token, t, sizeof t);
    tag->press_id = press;
    return true;
}

static bool seen(const dj_reply_tag *out, size_t n, const dj_reply_tag *t)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(out[i].token, t->token) == 0 &&
            out[i].press_id == t->press_id)
            return true;
    return false;
}

/* Every "LOCAL<delim>" at the start of a word in [v, end). */
static size_t scan(const char *v, const char *end, const char *local, size_t ll,
                   const char *delim, const char *domain, dj_reply_tag *out,
                   size_t n, size_t max, bool *malformed)
{
    size_t dl = strlen(delim);
    for (const char *p = v; p + ll + dl <= end && n < max; p++) {
        if (p > v && (isalnum((unsigned char)p[-1]) || strchr(".+-_", p[-1])))
            continue;
        if (strncasecmp(p, local, ll) != 0 || strncmp(p + ll, delim, dl) != 0)
            continue;
        dj_reply_tag t;
        if (read_tag(p + ll + dl, end, domain, &t)) {
            if (!seen(out, n, &t))
                out[n++] = t;
        } else {
            *malformed = true;
        }
    }
    return n;
}

static bool recipient_field(const char *line, size_t len, size_t *name_len)
{
    static const char *const FIELDS[] = {"to", "cc", "delivered-to",
                                         "x-original-to", NULL};
    for (const char *const *f = FIELDS; *f; f++) {
        size_t n = strlen(*f);
        if (len > n && line[n] == ':' && strncasecmp(line, *f, n) == 0) {
            *name_len = n + 1;
            return true;
        }
    }
    return false;
}

size_t dj_reply_address_find(const char *raw, size_t len, const char *envelope,
                             const char *judge_address, const char *delim,
                             dj_reply_tag *out, size_t max, bool *malformed)
{
    *malformed = false;
    const char *at = judge_address ? strrchr(judge_address, '@') : NULL;
    if (!at || at == judge_address || !delim || !*delim || !max)
        return 0;
    const char *local = judge_address;
    size_t ll = (size_t)(at - judge_address);
    const char *domain = at + 1;
    if (envelope && *envelope)
        return scan(envelope, envelope + strlen(envelope), local, ll, delim,
                    domain, out, 0, max, malformed);
    size_t n = 0;
    const char *end = raw + (len < HEADER_MAX ? len : HEADER_MAX);
    for (const char *l = raw; l < end && n < max;) {
        const char *nl = memchr(l, '\n', (size_t)(end - l));
        const char *le = nl ? nl : end;
        if (le == l || (le == l + 1 && *l == '\r'))
            break; /* the blank line: the header ends */
        size_t name = 0;
        if (recipient_field(l, (size_t)(le - l), &name)) {
            /* the field with its folded continuation lines */
            const char *fe = le;
            while (fe < end && fe + 1 < end &&
                   (fe[1] == ' ' || fe[1] == '\t')) {
                const char *next = memchr(fe + 1, '\n', (size_t)(end - fe - 1));
                fe = next ? next : end;
            }
            n = scan(l + name, fe, local, ll, delim, domain, out, n, max,
                     malformed);
            le = fe;
        }
        l = le < end ? le + 1 : end;
    }
    return n;
}
