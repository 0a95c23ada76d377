/* SPDX-License-Identifier: MIT */
/*
 * fuzz_compose.c — the mail composer (dj_compose_message) with hostile
 * parts: input split at NUL bytes into subject, display name, address,
 * Message-ID answered, body.  Whatever they hold, the header block has
 * only the composer's own headers (no CR or LF smuggled in a subject
 * adds one), and it ends at the first empty line.
 */
#include "fuzzlib.h"

#include "mail/compose.h"

static const char *const HEADERS[] = {
    "Date:", "From:", "To:", "Reply-To:", "Subject:", "Message-ID:",
    "In-Reply-To:", "References:", "Auto-Submitted:", "X-Loop:", "X-Mailer:",
    "MIME-Version:", "Content-Type:", "Content-Transfer-Encoding:", NULL};

static void check_headers(const char *msg)
{
    for (const char *l = msg; *l && *l != '\n';) {
        size_t n = strcspn(l, "\n");
        if (*l != ' ' && *l != '\t') {
            bool known = false;
            for (int i = 0; HEADERS[i]; i++)
                if (strncmp(l, HEADERS[i], strlen(HEADERS[i])) == 0)
                    known = true;
            if (!known)
                abort();
        }
        if (n > 998 || memchr(l, '\r', n))
            abort();
        l += n + (l[n] == '\n');
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *all = fuzz_string(data, size);
    const char *part[5] = {"", "", "", "", ""};
    size_t at = 0;
    for (int i = 0; i < 5 && at <= size; i++) {
        part[i] = all + at;
        at += strlen(all + at) + 1;
    }
    dj_compose_addr to = {part[1], *part[2] ? part[2] : "player@example.org"};
    dj_compose c;
    memset(&c, 0, sizeof c);
    c.from.name = "dipjudge";
    c.from.addr = "judge@example.org";
    c.to = &to;
    c.nto = 1;
    c.subject = part[0];
    c.in_reply_to = part[3];
    c.references = part[3];
    c.body = part[4];
    c.date = 1800000000;
    dj_compose_attachment pic = {part[0], "image/png",
                                 (const unsigned char *)part[4],
                                 strlen(part[4])};
    if (size % 2)
        c.attachment = &pic;
    dj_buf out;
    dj_buf_init(&out);
    char err[256];
    if (dj_compose_message(&c, &out, NULL, err, sizeof err) == DJ_MAIL_OK)
        check_headers(out.data);
    dj_buf_free(&out);
    free(all);
    return 0;
}
