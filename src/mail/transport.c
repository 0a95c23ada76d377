/* SPDX-License-Identifier: MIT */
/*
 * transport.c — see transport.h.  The helpers every transport shares.
 */
#define _POSIX_C_SOURCE 200809L

#include "mail/transport.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/fmt.h"
#include "util/random.h"

const char *dj_mail_status_name(dj_mail_status st)
{
    switch (st) {
    case DJ_MAIL_OK:
        return "ok";
    case DJ_MAIL_TEMPFAIL:
        return "temporary failure";
    case DJ_MAIL_PERMFAIL:
        return "permanent failure";
    case DJ_MAIL_GONE:
        return "message gone";
    case DJ_MAIL_UNUSABLE:
        return "transport unusable";
    }
    return "unknown status";
}

int dj_tls_mode_parse(const char *name, dj_tls_mode *out)
{
    static const struct {
        const char *name;
        dj_tls_mode mode;
    } modes[] = {{"none", DJ_TLS_NONE},
                 {"may", DJ_TLS_STARTTLS_MAY},
                 {"starttls", DJ_TLS_STARTTLS},
                 {"tls", DJ_TLS_IMPLICIT}};
    for (size_t i = 0; name && i < sizeof modes / sizeof modes[0]; i++) {
        if (strcmp(name, modes[i].name) == 0) {
            *out = modes[i].mode;
            return 0;
        }
    }
    return -1;
}

dj_mail_status dj_mail_fail(char *err, size_t len, dj_mail_status st,
                            const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt(err, len, fmt, ap);
    va_end(ap);
    return st;
}

/* Fallback when the system gives no random bytes: clock, pid and an
 * address. */
static void weak_random(unsigned char *p, size_t n)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
                 ((uint64_t)getpid() << 40) ^ (uint64_t)(uintptr_t)p;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13; /* xorshift64: only uniqueness matters here */
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (unsigned char)(x >> 24);
    }
}

void dj_mail_random(void *buf, size_t n)
{
    if (dj_random_bytes(buf, n) < 0)
        weak_random(buf, n);
}
