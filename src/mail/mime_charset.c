/* SPDX-License-Identifier: MIT */
/*
 * mime_charset.c — turning the bytes of mail into valid UTF-8.
 *
 * Mail arrives in whatever charset the sender's client liked, often
 * mislabelled: "us-ascii" with Latin-1 bytes in it, "iso-8859-1" with
 * Windows-1252 smart quotes, no label at all on an 8-bit body.  The rules
 * here follow what mail clients and browsers settled on:
 *   - UTF-8 is validated; every invalid byte becomes U+FFFD.
 *   - ISO-8859-1 is read as Windows-1252 (as the WHATWG Encoding
 *     Standard does), because 0x80-0x9F in real mail are smart quotes
 *     and the euro sign, never C1 controls.
 *   - Undeclared, US-ASCII and unknown charsets are sniffed: bytes that
 *     are valid UTF-8 stay UTF-8, anything else is Windows-1252.
 *   - Any other declared charset goes through iconv, one byte replaced
 *     by U+FFFD at each undecodable spot.
 * C0 control characters (except TAB, LF, CR) become U+FFFD too, so no
 * NUL or escape sequence reaches the command parser or a reply.
 *
 * The RFC 2047 decoder for header fields lives here as well: it is the
 * same problem (bytes in a charset) with a thin encoding layer on top
 * (mime_decode.c).
 */
#include "mail/mime_int.h"
#include "util/utf8.h"

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <string.h>

#define REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD in UTF-8 */

/* ---- UTF-8 ---------------------------------------------------------- */

/* The length (1-4) of the valid UTF-8 sequence at s[0..len), or 0 when
 * the bytes there are not one (overlong forms, surrogates and code points
 * above U+10FFFF included). */
static size_t utf8_seq_len(const unsigned char *s, size_t len)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF; /* range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0; /* no overlong */
        else if (c == 0xED)
            hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F; /* nothing above U+10FFFF */
    } else {
        return 0;
    }
    if (len < n || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

bool dj_mime_utf8_valid(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        size_t n = utf8_seq_len(p + i, len - i);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

size_t dj_mime_utf8_fit(const char *s, size_t len, size_t max)
{
    if (max == 0)
        return 0;
    if (len < max)
        return len;
    size_t n = max - 1;
    while (n > 0 && (((unsigned char)s[n]) & 0xC0) == 0x80)
        n--;
    return n;
}

static void put_codepoint(dj_buf *out, uint32_t cp)
{
    char b[4];
    dj_buf_append_n(out, b, dj_utf8_encode(cp, b));
}

static bool is_bad_control(unsigned char c)
{
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F;
}

/* Copy UTF-8, replacing invalid bytes and control characters. */
static void append_utf8_checked(const char *in, size_t len, dj_buf *out)
{
    const unsigned char *p = (const unsigned char *)in;
    size_t i = 0, run = 0; /* in[run..i) is clean and not yet copied */
    while (i < len) {
        size_t n = utf8_seq_len(p + i, len - i);
        if (n != 0 && !(n == 1 && is_bad_control(p[i]))) {
            i += n;
            continue;
        }
        dj_buf_append_n(out, in + run, i - run);
        dj_buf_append(out, REPLACEMENT);
        i++;
        run = i;
    }
    dj_buf_append_n(out, in + run, i - run);
}

/* ---- single-byte charsets ------------------------------------------- */

/* Windows-1252 0x80-0x9F; 0 marks the five unassigned bytes. */
static const uint16_t cp1252_high[32] = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
    0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

static void append_cp1252(const char *in, size_t len, dj_buf *out)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)in[i];
        if (c >= 0x80 && c < 0xA0) {
            uint16_t cp = cp1252_high[c - 0x80];
            if (cp)
                put_codepoint(out, cp);
            else
                dj_buf_append(out, REPLACEMENT);
        } else if (is_bad_control(c)) {
            dj_buf_append(out, REPLACEMENT);
        } else {
            put_codepoint(out, c);
        }
    }
}

/* Undeclared or untrustworthy label: UTF-8 if it is, else Windows-1252. */
static void append_sniffed(const char *in, size_t len, dj_buf *out)
{
    if (dj_mime_utf8_valid(in, len))
        append_utf8_checked(in, len, out);
    else
        append_cp1252(in, len, out);
}

/* ---- charset names -------------------------------------------------- */

enum { CS_SNIFF, CS_UTF8, CS_CP1252, CS_OTHER };

static bool name_in(const char *name, const char *const *list)
{
    for (; *list; list++) {
        const char *a = name, *b = *list;
        while (*a && *b && (*a | 0x20) == *b) {
            a++;
            b++;
        }
        if (!*a && !*b)
            return true;
    }
    return false;
}

/* A charset name iconv may be given: short, and only the characters of
 * registered names.  Anything else ("utf-8//IGNORE", paths, spaces) is
 * treated as unknown, so no sender can steer iconv's options. */
static bool name_is_safe(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 40)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
              c == ':'))
            return false;
    }
    return true;
}

static int charset_kind(const char *name)
{
    static const char *const utf8[] = {"utf-8", "utf8", "unicode-1-1-utf-8",
                                       NULL};
    static const char *const ascii[] = {
        "us-ascii", "ascii",        "ansi_x3.4-1968", "iso646-us", "us",
        "default",  "unknown-8bit", "x-unknown",      "unknown",   NULL};
    static const char *const cp1252[] = {
        "iso-8859-1", "iso8859-1", "iso_8859-1", "iso_8859-1:1987", "latin1",
        "l1",         "cp819",     "ibm819",     "windows-1252",    "cp1252",
        "x-cp1252",   "cp-1252",   NULL};
    if (!name || !*name || name_in(name, ascii))
        return CS_SNIFF;
    if (name_in(name, utf8))
        return CS_UTF8;
    if (name_in(name, cp1252))
        return CS_CP1252;
    return name_is_safe(name) ? CS_OTHER : CS_SNIFF;
}

/* ---- iconv ---------------------------------------------------------- */

/* Convert through iconv; false when iconv does not know the charset.
 * Output goes through a fixed chunk, so memory is bounded by the input;
 * iconv writes whole characters only, so no chunk splits one. */
static bool append_iconv(const char *charset, const char *in, size_t len,
                         dj_buf *out)
{
    iconv_t cd = iconv_open("UTF-8", charset);
    if (cd == (iconv_t)-1)
        return false;
    char chunk[4096];
    char *ip = (char *)in; /* iconv's prototype is not const-correct */
    size_t il = len;
    while (il > 0) {
        char *op = chunk;
        size_t ol = sizeof chunk;
        size_t r = iconv(cd, &ip, &il, &op, &ol);
        int e = errno;
        append_utf8_checked(chunk, (size_t)(op - chunk), out);
        if (r != (size_t)-1 || e == E2BIG)
            continue;
        /* EILSEQ, EINVAL (truncated at the end) or anything else: mark
         * the spot, skip one byte, and start the decoder afresh. */
        dj_buf_append(out, REPLACEMENT);
        ip++;
        il--;
        iconv(cd, NULL, NULL, NULL, NULL);
    }
    iconv_close(cd);
    return true;
}

void dj_mime_to_utf8(const char *charset, const char *in, size_t len,
                     dj_buf *out)
{
    switch (charset_kind(charset)) {
    case CS_UTF8:
        append_utf8_checked(in, len, out);
        break;
    case CS_CP1252:
        append_cp1252(in, len, out);
        break;
    case CS_OTHER:
        if (!append_iconv(charset, in, len, out))
            append_sniffed(in, len, out); /* unknown to iconv */
        break;
    default:
        append_sniffed(in, len, out);
        break;
    }
}

/* ---- RFC 2047 encoded words ----------------------------------------- */

/* One encoded word found in a header value. */
typedef struct encoded_word {
    size_t start, end; /* the whole "=?cs?e?text?=" */
    char charset[48];  /* without an RFC 2231 "*lang" suffix */
    char enc;          /* 'B' or 'Q' */
    size_t text, text_len;
} encoded_word;

/* Is there an encoded word at s[i]?  Its text may not contain white
 * space (RFC 2047 section 5), which keeps a stray "=?" from swallowing
 * the rest of the header. */
static bool encoded_word_at(const char *s, size_t len, size_t i,
                            encoded_word *w)
{
    if (i + 1 >= len || s[i] != '=' || s[i + 1] != '?')
        return false;
    size_t p = i + 2, cs = p;
    while (p < len && s[p] != '?' && p - cs < sizeof w->charset - 1 &&
           s[p] != ' ' && s[p] != '\t')
        p++;
    if (p >= len || s[p] != '?' || p == cs)
        return false;
    size_t cslen = p - cs;
    memcpy(w->charset, s + cs, cslen);
    w->charset[cslen] = '\0';
    char *star = strchr(w->charset, '*');
    if (star)
        *star = '\0';
    if (p + 2 >= len || s[p + 2] != '?')
        return false;
    w->enc = (char)(s[p + 1] & ~0x20);
    if (w->enc != 'B' && w->enc != 'Q')
        return false;
    size_t t = p + 3, e = t;
    while (e < len && s[e] != '?' && s[e] != ' ' && s[e] != '\t')
        e++;
    if (e + 1 >= len || s[e] != '?' || s[e + 1] != '=')
        return false;
    w->start = i;
    w->end = e + 2;
    w->text = t;
    w->text_len = e - t;
    return true;
}

static bool all_blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return false;
    return true;
}

static bool same_charset(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if ((*a | 0x20) != (*b | 0x20))
            return false;
    return *a == *b;
}

/* Squeeze white space and controls to single spaces, trim both ends. */
static void append_squeezed(const char *s, size_t len, dj_buf *out)
{
    bool space = false, any = false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= ' ' || c == 0x7F) {
            space = true;
            continue;
        }
        if (space && any)
            dj_buf_append_n(out, " ", 1);
        space = false;
        any = true;
        dj_buf_append_n(out, s + i, 1);
    }
}

/* Unfold (drop CR and LF) into a working copy. */
static void unfold(const char *raw, size_t len, dj_buf *out)
{
    size_t run = 0;
    for (size_t i = 0; i < len; i++) {
        if (raw[i] == '\r' || raw[i] == '\n') {
            dj_buf_append_n(out, raw + run, i - run);
            run = i + 1;
        }
    }
    dj_buf_append_n(out, raw + run, len - run);
}

/* Convert the decoded bytes of a run of encoded words, then forget them. */
static void flush_words(dj_buf *bytes, const char *charset, dj_buf *text)
{
    if (bytes->len)
        dj_mime_to_utf8(charset, bytes->data, bytes->len, text);
    dj_buf_reset(bytes);
}

void dj_mime_decode_header(const char *raw, size_t len, dj_buf *out)
{
    dj_buf flat, text, bytes;
    dj_buf_init(&flat);
    dj_buf_init(&text);
    dj_buf_init(&bytes);
    unfold(raw, len, &flat);
    const char *s = flat.data;
    size_t n = flat.len, i = 0, plain = 0;
    char charset[48] = "";
    bool in_words = false; /* bytes holds words not yet converted */
    while (i < n) {
        encoded_word w;
        if (!encoded_word_at(s, n, i, &w)) {
            i++;
            continue;
        }
        /* Adjacent words in one charset are joined before conversion:
         * senders split multi-byte characters across them. */
        bool gap_blank = all_blank(s + plain, i - plain);
        if (!(in_words && gap_blank && same_charset(charset, w.charset))) {
            flush_words(&bytes, charset, &text);
            if (!(in_words && gap_blank))
                dj_mime_to_utf8(NULL, s + plain, i - plain, &text);
        }
        memcpy(charset, w.charset, sizeof charset);
        if (w.enc == 'B')
            dj_mime_decode_base64(s + w.text, w.text_len, &bytes);
        else
            dj_mime_decode_q(s + w.text, w.text_len, &bytes);
        in_words = true;
        i = plain = w.end;
    }
    flush_words(&bytes, charset, &text);
    dj_mime_to_utf8(NULL, s + plain, n - plain, &text);
    append_squeezed(text.data, text.len, out);
    if (!dj_buf_ok(&flat) || !dj_buf_ok(&text) || !dj_buf_ok(&bytes))
        out->failed = true;
    dj_buf_free(&flat);
    dj_buf_free(&text);
    dj_buf_free(&bytes);
}
