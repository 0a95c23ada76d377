/* SPDX-License-Identifier: MIT */
/*
 * fuzz_command.c — libFuzzer target for the mail command parser
 * (src/command/parse.c): any bytes as a message, the first line its
 * subject and the rest its body, read item by item to the end.
 *
 * Why the parser alone: it is the part that meets every byte a stranger
 * mails in (lines of any length, no-break spaces, cut UTF-8, endless
 * press bodies, SIGNOFF anywhere), and it has no state beyond the message,
 * so millions of inputs run in minutes.  What the parser hands on (game
 * names, powers, settings, press recipients) is bounded words that the
 * unit tests (tests/unit/test_command.c) run against a real database.
 *
 * Besides the sanitizers' checks, each item is checked for what the rest
 * of the judge relies on:
 *   - every text field is NUL-terminated within its array;
 *   - a command carrying a password never shows it: the echo of SIGNON,
 *     JOIN, OBSERVE and SET PASSWORD ends with the mask, CREATE's third
 *     word is the mask, and a malformed such command masks every word;
 *   - a press body stays within CMD_PRESS_MAX, and the reader ends.
 * Build and run: make fuzz FUZZ_TARGETS=command (tests/fuzz/fuzz.sh).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "command/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BOUNDED(field) (memchr((field), '\0', sizeof(field)) != NULL)

static void check_bounded(const cmd *c)
{
    if (!BOUNDED(c->echo) || !BOUNDED(c->text) || !BOUNDED(c->game) ||
        !BOUNDED(c->who) || !BOUNDED(c->password) || !BOUNDED(c->arg) ||
        !BOUNDED(c->arg2) || !BOUNDED(c->to) || !BOUNDED(c->fake_to) ||
        !BOUNDED(c->error))
        abort();
}

static bool ends_with_mask(const char *s)
{
    size_t n = strlen(s), m = strlen(CMD_MASK);
    return n >= m && strcmp(s + n - m, CMD_MASK) == 0 &&
           (n == m || s[n - m - 1] == ' ');
}

/* The third word of CREATE's echo is the mask. */
static bool third_is_mask(const char *s)
{
    const char *p = strchr(s, ' ');
    p = p ? strchr(p + 1, ' ') : NULL;
    return p && strncmp(p + 1, CMD_MASK, strlen(CMD_MASK)) == 0 &&
           (p[1 + strlen(CMD_MASK)] == ' ' ||
            p[1 + strlen(CMD_MASK)] == '\0');
}

/* A malformed SIGNON, JOIN, OBSERVE, CREATE or TAKEOVER shows no
 * argument. */
static void check_bad_masked(const cmd *c)
{
    static const char *const words[] = {"SIGNON", "JOIN", "OBSERVE",
                                        "CREATE", "TAKEOVER"};
    size_t first = strcspn(c->echo, " ");
    bool password_cmd = false;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        password_cmd |= first == strlen(words[i]) &&
                        strncasecmp(c->echo, words[i], first) == 0;
    if (!password_cmd)
        return;
    for (const char *p = c->echo + first; *p;) {
        p += strspn(p, " ");
        size_t n = strcspn(p, " ");
        if (n && (n != strlen(CMD_MASK) || strncmp(p, CMD_MASK, n) != 0))
            abort();
        p += n;
    }
}

static void check_masked(const cmd *c)
{
    if (c->kind == CMD_BAD)
        check_bad_masked(c);
    switch (c->kind) {
    case CMD_SIGNON:
    case CMD_JOIN:
    case CMD_OBSERVE:
    case CMD_TAKEOVER:
    case CMD_PASSWORD:
        if (!c->password[0] || !ends_with_mask(c->echo))
            abort();
        break;
    case CMD_CREATE:
        if (!c->password[0] || !third_is_mask(c->echo))
            abort();
        break;
    default:
        if (c->password[0] && c->kind != CMD_BAD)
            abort(); /* a password only where one is expected */
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *body = strchr(text, '\n');
    if (body)
        *body++ = '\0';
    static cmd c; /* large: keep it off the stack */
    cmd_reader r;
    dj_buf press;
    dj_buf_init(&press);
    cmd_reader_init(&r, text, body ? body : "");
    int items = 0;
    while (cmd_next(&r, &c, &press)) {
        check_bounded(&c);
        check_masked(&c);
        if (press.len >= CMD_PRESS_MAX || c.kind < 0 ||
            c.kind >= CMD_KIND_COUNT || !cmd_name(c.kind))
            abort();
        dj_buf_reset(&press);
        if (++items > CMD_MAX_LINES + 1)
            abort(); /* the reader must end */
    }
    dj_buf_free(&press);
    free(text);
    return 0;
}
