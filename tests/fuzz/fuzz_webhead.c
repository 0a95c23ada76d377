/* SPDX-License-Identifier: MIT */
/*
 * fuzz_webhead.c — judgeweb's front door on any bytes a client may send
 * before its request is in (web/head.c): whatever arrives, the answer is
 * "read on", "hand it over" or one of 400, 414, 431, and what is handed
 * over has the shape libmicrohttpd is promised: a head within
 * DJ_WEB_HEAD_MAX, a request line within DJ_WEB_LINE_MAX, and no NUL
 * escape in its target (a method may hold '%', a token's byte).  Every prefix of the input is judged too, as the
 * door judges a head arriving byte by byte: once a prefix is refused or
 * complete, no longer prefix may ask to read on.
 */
#include "fuzzlib.h"

#include "web/head.h"

static int judge(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1); /* exactly size: ASan sees overruns */
    if (!copy)
        abort();
    memcpy(copy, data, size);
    const char *why = NULL;
    int rc = dj_web_head_check(copy, size, &why);
    if (rc != DJ_HEAD_MORE && rc != DJ_HEAD_OK && rc != 400 && rc != 414 &&
        rc != 431)
        abort();
    if (!why || (rc >= 400 && !*why))
        abort();
    if (rc == DJ_HEAD_OK) {
        const char *nl = memchr(copy, '\n', size);
        if (!nl || (size_t)(nl - copy) > DJ_WEB_LINE_MAX + 1)
            abort();
        /* the target runs from the first space to the next; a method is
         * a token, and '%' is a token's byte, so only the target counts */
        const char *target = memchr(copy, ' ', (size_t)(nl - copy));
        if (!target)
            abort();
        for (const char *p = target + 1; p + 2 < nl && *p != ' '; p++)
            if (p[0] == '%' && p[1] == '0' && p[2] == '0')
                abort();
    }
    free(copy);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 2 * DJ_WEB_HEAD_MAX)
        return 0;
    int whole = judge(data, size);
    /* a few prefixes: a decided prefix stays decided */
    int decided_at = -1;
    for (size_t n = 0; n <= size; n += 1 + size / 16) {
        int rc = judge(data, n);
        if (rc != DJ_HEAD_MORE && decided_at < 0)
            decided_at = (int)n;
    }
    if (decided_at >= 0 && whole == DJ_HEAD_MORE)
        abort();
    return 0;
}
