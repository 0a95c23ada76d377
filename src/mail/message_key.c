/* SPDX-License-Identifier: MIT */
/*
 * message_key.c — the content hash of a message (see message_key.h):
 * the header read field by field (a field runs on over its continuation
 * lines), the originator fields and then the body fed to SHA-256.
 */
#include "mail/message_key.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>

#include "util/hex.h"

/* The fields a sender writes and the mail system leaves alone.  Not Date:
 * or To: — a client that re-sends a mail (a "resend", an outbox retried)
 * writes them again, yet it is the same mail and must act once. */
static const char *const ORIGINATOR[] = {"from", "subject", NULL};

/* The end of the line starting at p (its '\n', or end). */
static const char *line_end(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl : end;
}

/* Is the line [p, e) empty, carriage returns aside? */
static bool blank(const char *p, const char *e)
{
    for (; p < e; p++)
        if (*p != '\r')
            return false;
    return true;
}

static bool wanted(const char *name, size_t n)
{
    for (const char *const *f = ORIGINATOR; *f; f++)
        if (strlen(*f) == n && strncasecmp(name, *f, n) == 0)
            return true;
    return false;
}

/* Feed bytes, without carriage returns. */
static void feed(gnutls_hash_hd_t h, const char *p, const char *e)
{
    while (p < e) {
        const char *cr = memchr(p, '\r', (size_t)(e - p));
        const char *stop = cr ? cr : e;
        if (stop > p)
            gnutls_hash(h, p, (size_t)(stop - p));
        p = cr ? cr + 1 : e;
    }
}

/* Feed one field's value [p, e): white space at its ends left out, its
 * folded lines joined. */
static void feed_value(gnutls_hash_hd_t h, const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
    while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
                     e[-1] == '\n'))
        e--;
    while (p < e) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        const char *stop = nl ? nl : e;
        feed(h, p, stop);
        p = nl ? nl + 1 : e;
    }
}

int dj_message_content_hash(const char *raw, size_t len,
                            char out[DJ_MESSAGE_HASH_HEX])
{
    out[0] = '\0';
    gnutls_hash_hd_t h;
    if (gnutls_hash_init(&h, GNUTLS_DIG_SHA256) < 0)
        return -1;
    const char *p = raw, *end = raw + len;
    while (p < end) {
        const char *e = line_end(p, end);
        if (blank(p, e)) { /* the end of the header */
            p = e < end ? e + 1 : end;
            break;
        }
        /* The field runs on over lines that start with white space. */
        const char *fe = e;
        while (fe < end && fe + 1 < end && (fe[1] == ' ' || fe[1] == '\t'))
            fe = line_end(fe + 1, end);
        const char *colon = memchr(p, ':', (size_t)(e - p));
        if (colon && wanted(p, (size_t)(colon - p))) {
            char name[16];
            snprintf(name, sizeof name, "%.*s:", (int)(colon - p), p);
            for (char *c = name; *c; c++)
                if (*c >= 'A' && *c <= 'Z')
                    *c = (char)(*c - 'A' + 'a');
            gnutls_hash(h, name, strlen(name));
            feed_value(h, colon + 1, fe);
            gnutls_hash(h, "\n", 1);
        }
        p = fe < end ? fe + 1 : end;
    }
    gnutls_hash(h, "\n", 1);
    feed(h, p, end);
    unsigned char digest[32];
    gnutls_hash_deinit(h, digest);
    dj_hex_encode(digest, sizeof digest, out);
    return 0;
}
