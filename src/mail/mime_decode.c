/* SPDX-License-Identifier: MIT */
/*
 * mime_decode.c — the transfer encodings: base64 and quoted-printable for
 * bodies (RFC 2045), and the "B" and "Q" encodings of RFC 2047 words.
 *
 * We do not use libetpan's decoders: its quoted-printable decoder reads
 * past the end of its input when a part ends in "=" or "=X" (found by
 * fuzzing libetpan 1.9.4), and a sender controls exactly that.  These
 * are bounded by their input, never fail, and are lenient the way mail
 * clients are:
 *   - base64 skips characters outside the alphabet (line breaks, junk),
 *     and treats '=' padding as the end of a chunk, not of the data:
 *     some encoders pad every line;
 *   - quoted-printable joins soft line breaks ("=" at the end of a line,
 *     blanks allowed before the break), decodes =XX in either case, and
 *     keeps any other '=' as it is.
 */
#include "mail/mime_int.h"
#include "util/hex.h"

#include <stdint.h>

static int base64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

void dj_mime_decode_base64(const char *s, size_t len, dj_buf *out)
{
    uint32_t acc = 0;
    int bits = 0;
    char chunk[256];
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '=') {
            acc = 0; /* the partial quantum is padding: drop it */
            bits = 0;
            continue;
        }
        int v = base64_value((unsigned char)s[i]);
        if (v < 0)
            continue;
        acc = ((acc << 6) | (uint32_t)v) & 0xFFFFFF;
        bits += 6;
        if (bits < 8)
            continue;
        bits -= 8;
        chunk[k++] = (char)((acc >> bits) & 0xFF);
        if (k == sizeof chunk) {
            dj_buf_append_n(out, chunk, k);
            k = 0;
        }
    }
    dj_buf_append_n(out, chunk, k);
}

/* After a '=' at s[i]: the index past a soft line break ("=", blanks,
 * then CRLF, LF or the end), or 0 when there is none. */
static size_t soft_break_end(const char *s, size_t len, size_t i)
{
    size_t j = i + 1;
    while (j < len && (s[j] == ' ' || s[j] == '\t'))
        j++;
    if (j == len)
        return len;
    if (s[j] == '\n')
        return j + 1;
    if (s[j] == '\r' && j + 1 < len && s[j + 1] == '\n')
        return j + 2;
    return 0;
}

/* Quoted-printable; in_word selects RFC 2047 "Q" (where '_' is a space
 * and there are no line breaks). */
static void decode_qp(const char *s, size_t len, bool in_word, dj_buf *out)
{
    size_t run = 0; /* s[run..i) is literal and not yet copied */
    size_t i = 0;
    while (i < len) {
        char c = s[i];
        if (c != '=' && !(in_word && c == '_')) {
            i++;
            continue;
        }
        dj_buf_append_n(out, s + run, i - run);
        if (c == '_') {
            dj_buf_append_n(out, " ", 1);
            i++;
        } else if (i + 2 < len && dj_hex_pair(s + i + 1) >= 0) {
            char b = (char)dj_hex_pair(s + i + 1);
            dj_buf_append_n(out, &b, 1);
            i += 3;
        } else {
            size_t e = in_word ? 0 : soft_break_end(s, len, i);
            if (e) {
                i = e;
            } else {
                dj_buf_append_n(out, "=", 1);
                i++;
            }
        }
        run = i;
    }
    dj_buf_append_n(out, s + run, len - run);
}

void dj_mime_decode_qp(const char *s, size_t len, dj_buf *out)
{
    decode_qp(s, len, false, out);
}

void dj_mime_decode_q(const char *s, size_t len, dj_buf *out)
{
    decode_qp(s, len, true, out);
}
