/* SPDX-License-Identifier: MIT */
/*
 * fuzz_message.c — libFuzzer target for the message reader: arbitrary
 * bytes into dj_message_parse() (with the default limits and with small
 * ones, so the refusal paths run too), into dj_html_to_text() and into
 * dj_message_content_hash() (the duplicate key: 64 hex digits, and the
 * same for the message with a trace field put in front).
 *
 * Beyond "no crash, no leak, no sanitizer report", it checks what the
 * module promises: every field NUL-terminated inside its array and valid
 * UTF-8, a body only on success, its length right, no body line over
 * the limit.
 *
 * Build and run: make fuzz FUZZ_TARGETS=message (tests/fuzz/fuzz.sh).
 *
 * (libetpan itself is not instrumented, so coverage guidance stops at
 * its door; its crashes and its leaks of our allocations still show.)
 */
#include "mail/message.h"
#include "mail/message_key.h"
#include "mail/mime_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_text(const char *s, size_t cap)
{
    const char *end = memchr(s, '\0', cap);
    if (!end || !dj_mime_utf8_valid(s, (size_t)(end - s)))
        abort();
}

static void check_message(const dj_message *m, int rc, size_t max_line)
{
    check_text(m->from.addr, sizeof m->from.addr);
    check_text(m->from.name, sizeof m->from.name);
    check_text(m->reply_to.addr, sizeof m->reply_to.addr);
    check_text(m->reply_to.name, sizeof m->reply_to.name);
    check_text(m->sender.addr, sizeof m->sender.addr);
    check_text(m->return_path, sizeof m->return_path);
    check_text(m->to, sizeof m->to);
    check_text(m->cc, sizeof m->cc);
    check_text(m->subject, sizeof m->subject);
    check_text(m->message_id, sizeof m->message_id);
    check_text(m->in_reply_to, sizeof m->in_reply_to);
    check_text(m->x_loop, sizeof m->x_loop);
    check_text(m->auto_reason, sizeof m->auto_reason);
    if ((rc == DJ_MSG_OK) != (m->body != NULL))
        abort();
    if (!m->body)
        return;
    if (strlen(m->body) != m->body_len ||
        !dj_mime_utf8_valid(m->body, m->body_len))
        abort();
    size_t line = 0;
    for (size_t i = 0; i < m->body_len; i++) {
        line = m->body[i] == '\n' ? 0 : line + 1;
        if (line > max_line)
            abort();
    }
}

static void parse_with(const char *raw, size_t size,
                       const dj_message_limits *lim, size_t max_line)
{
    dj_message m;
    char err[160];
    int rc = dj_message_parse(raw, size, lim, &m, err, sizeof err);
    check_message(&m, rc, max_line);
    dj_message_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *raw = (const char *)data;
    dj_message_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.own_loop = "judge@diplomacy.example";
    parse_with(raw, size, &lim, DJ_MSG_DEFAULT_MAX_LINE_LEN);

    lim.max_size = 4096;
    lim.max_header = 1024;
    lim.max_parts = 4;
    lim.max_lines = 8;
    lim.max_line_len = 40;
    lim.envelope_sender = "";
    parse_with(raw, size, &lim, 40);

    char *text = NULL;
    if (dj_html_to_text(raw, size, &text) == 0)
        free(text);

    /* A trace field in front (a re-delivery) changes nothing. */
    static const char trace[] = "Received: from mx2.example by mx.example\n";
    char h1[DJ_MESSAGE_HASH_HEX], h2[DJ_MESSAGE_HASH_HEX];
    char *traced = malloc(sizeof trace - 1 + size);
    if (!traced)
        abort();
    memcpy(traced, trace, sizeof trace - 1);
    memcpy(traced + sizeof trace - 1, raw, size);
    if (dj_message_content_hash(raw, size, h1) < 0 ||
        dj_message_content_hash(traced, sizeof trace - 1 + size, h2) < 0 ||
        strlen(h1) != 64 || strspn(h1, "0123456789abcdef") != 64)
        abort();
    /* Same only when raw has a header for the trace to join: a message
     * starting with a blank line (all body) gets a header by it. */
    if (size && raw[0] != '\n' && raw[0] != '\r' && raw[0] != ' ' &&
        raw[0] != '\t' && strcmp(h1, h2) != 0)
        abort();
    free(traced);
    return 0;
}
