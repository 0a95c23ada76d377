/* SPDX-License-Identifier: MIT */
/*
 * fuzz_authres.c — libFuzzer target for the Authentication-Results reader
 * (src/mail/authres.c): arbitrary bytes as a mail's header block.
 *
 * The first byte chooses the From: domain (of four, one empty, one in
 * capitals with a final dot); the rest is the header.  Besides the
 * sanitizers' checks, it checks what the module promises: a class in
 * range and a NUL-terminated verdict of printable ASCII; without trusted
 * ids always "unknown"; nothing after the header's empty line is read;
 * and the positional rule: fields added below the header, under a
 * Received: field of the trusted host and one of the sender's host (a
 * forged "dmarc=pass" with the trusted id among them), never change the
 * class.
 *
 * Build and run: make fuzz FUZZ_TARGETS=authres (tests/fuzz/fuzz.sh).
 */
#include "mail/authres.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const TRUSTED[] = {"mx.example.org", "mx.google.com"};

static void check_verdict(const dj_auth_verdict *v)
{
    if (v->cls != DJ_AUTH_UNKNOWN && v->cls != DJ_AUTH_AUTHENTICATED &&
        v->cls != DJ_AUTH_FORGED)
        abort();
    const char *end = memchr(v->verdict, '\0', sizeof v->verdict);
    if (!end || end == v->verdict)
        abort();
    for (const char *c = v->verdict; c < end; c++)
        if (*c < 0x20 || *c > 0x7e)
            abort();
}

/* Where the header ends: the first empty line (as the reader sees it). */
static size_t header_end(const char *h, size_t n)
{
    for (size_t p = 0; p < n; p++)
        if ((p == 0 || h[p - 1] == '\n') &&
            (h[p] == '\n' || (h[p] == '\r' && p + 1 < n && h[p + 1] == '\n')))
            return p;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const FROM[] = {"players.test", "example.org", "",
                                       "PLAYERS.test."};
    if (size < 1 || size > 65536)
        return 0;
    const char *from = FROM[data[0] % 4];
    const char *h = (const char *)data + 1;
    size_t n = size - 1;

    dj_auth_verdict v, w;
    dj_authres_evaluate(h, n, from, TRUSTED, 2, &v);
    check_verdict(&v);
    if (!from[0] && v.cls != DJ_AUTH_UNKNOWN)
        abort();
    dj_authres_evaluate(h, n, from, TRUSTED, 0, &w);
    check_verdict(&w);
    if (w.cls != DJ_AUTH_UNKNOWN)
        abort();

    /* the header alone reads the same as the whole input */
    size_t hn = header_end(h, n);
    dj_authres_evaluate(h, hn, from, TRUSTED, 2, &w);
    if (w.cls != v.cls || strcmp(w.verdict, v.verdict) != 0)
        abort();

    /* a sender's forgery appended below the header's last field */
    static const char tail[] =
        "\nReceived: from a.test by mx.example.org (Postfix); date\n"
        "Received: from b.test by relay.attacker.test; date\n"
        "Authentication-Results: mx.example.org; dmarc=pass "
        "header.from=players.test\n"
        "Authentication-Results: mx.google.com; dkim=pass "
        "header.d=players.test\n";
    char *h2 = malloc(hn + sizeof tail);
    if (!h2)
        return 0;
    memcpy(h2, h, hn);
    memcpy(h2 + hn, tail, sizeof tail - 1);
    dj_authres_evaluate(h2, hn + sizeof tail - 1, from, TRUSTED, 2, &w);
    free(h2);
    check_verdict(&w);
    if (w.cls != v.cls)
        abort();
    return 0;
}
