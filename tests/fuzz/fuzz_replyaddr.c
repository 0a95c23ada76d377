/* SPDX-License-Identifier: MIT */
/*
 * fuzz_replyaddr.c — libFuzzer target for the reply-address finder
 * (src/mail/reply_address.c): arbitrary bytes as a received mail's header
 * block (and, when the first byte is odd, the first line of it as the
 * envelope recipient instead).
 *
 * Besides the sanitizers' checks, it checks what the module promises:
 * at most `max` tags, each exactly DJ_REPLY_TAG_LEN letters a-z2-7 and
 * NUL-terminated, no tag twice; a tag found makes an address that is
 * found again (make and find agree); nothing after the header's empty
 * line is read.
 *
 * Build and run: make fuzz FUZZ_TARGETS=replyaddr (tests/fuzz/fuzz.sh).
 */
#include "mail/reply_address.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const DELIMS[] = {"+", "-", "_", "="};

static void check_tags(const dj_reply_tag *t, size_t n, size_t max)
{
    if (n > max)
        abort();
    for (size_t i = 0; i < n; i++) {
        if (strlen(t[i].token) != DJ_REPLY_TAG_LEN ||
            strspn(t[i].token, "abcdefghijklmnopqrstuvwxyz234567") !=
                DJ_REPLY_TAG_LEN ||
            t[i].press_id < 0)
            abort();
        for (size_t k = 0; k < i; k++)
            if (strcmp(t[k].token, t[i].token) == 0 &&
                t[k].press_id == t[i].press_id)
                abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *delim = DELIMS[data[0] >> 1 & 3];
    bool envelope = data[0] & 1;
    const char *raw = (const char *)data + 1;
    size_t len = size - 1;
    char env[512] = "";
    if (envelope) {
        size_t n = 0;
        while (n < len && n + 1 < sizeof env && raw[n] != '\n' && raw[n])
            n++;
        memcpy(env, raw, n);
        env[n] = '\0';
    }
    dj_reply_tag tags[DJ_REPLY_TAGS_MAX];
    bool malformed = false;
    size_t n = dj_reply_address_find(raw, len, envelope ? env : NULL,
                                     "judge@example.org", delim, tags,
                                     DJ_REPLY_TAGS_MAX, &malformed);
    check_tags(tags, n, DJ_REPLY_TAGS_MAX);
    /* what is made is found */
    for (size_t i = 0; i < n; i++) {
        char addr[128], hdr[160];
        if (dj_reply_address_make("judge@example.org", delim, tags[i].token,
                                  tags[i].press_id, addr, sizeof addr) < 0)
            abort();
        size_t hl = (size_t)snprintf(hdr, sizeof hdr, "To: <%s>\n\n", addr);
        dj_reply_tag again[1];
        bool bad = false;
        if (dj_reply_address_find(hdr, hl, NULL, "judge@example.org", delim,
                                  again, 1, &bad) != 1 ||
            strcmp(again[0].token, tags[i].token) != 0 ||
            again[0].press_id != tags[i].press_id)
            abort();
    }
    /* the body is never read: the same header with a body of tags finds
     * the same */
    if (!envelope) {
        const char *end = NULL;
        for (size_t i = 0; i + 1 < len; i++)
            if (raw[i] == '\n' &&
                (raw[i + 1] == '\n' ||
                 (raw[i + 1] == '\r' && i + 2 < len && raw[i + 2] == '\n'))) {
                end = raw + i + 1;
                break;
            }
        if (end) {
            size_t head = (size_t)(end - raw);
            char *copy = malloc(head + 80);
            if (!copy)
                return 0;
            memcpy(copy, raw, head);
            memcpy(copy + head,
                   "\nTo: judge+abcdefghijklmnopqrstuvwx@example.org\n", 49);
            dj_reply_tag t2[DJ_REPLY_TAGS_MAX];
            bool b2 = false;
            size_t n2 = dj_reply_address_find(copy, head + 49, NULL,
                                              "judge@example.org", delim, t2,
                                              DJ_REPLY_TAGS_MAX, &b2);
            free(copy);
            if (n2 != n)
                abort();
        }
    }
    return 0;
}
