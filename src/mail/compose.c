/* SPDX-License-Identifier: MIT */
/*
 * compose.c — see compose.h.  Written as small filters, each of which
 * only ever emits bytes it has checked: a text cleaner (UTF-8 in, safe
 * UTF-8 out), an RFC 2047 encoder, a header folder that tracks its column,
 * and a quoted-printable body encoder.  Nothing from the caller reaches
 * the output without going through one of them.
 */
#define _POSIX_C_SOURCE 200809L

#include "config.h"
#include "mail/compose.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define FOLD_AT 78        /* preferred header line length (RFC 5322) */
#define EW_LINE 76        /* longest line holding encoded-words (RFC 2047) */
#define QP_LINE 76        /* longest quoted-printable line */
#define LINE_LIMIT 998    /* hard limit of a line, without its end */

/* ---- UTF-8 ----------------------------------------------------------- */

/*
 * Decode one UTF-8 character at s (n bytes left): its length, or 0 when
 * the bytes are not well-formed UTF-8 (overlong, surrogate, too large,
 * truncated).
 */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
    if (len == 0 || len > n || s[0] > 0xf4)
        return 0;
    uint32_t c = s[0] & (0x7f >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3f);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < min[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return len;
}

/* Is cp a control or line-breaking character that text must not carry? */
static bool is_control(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
           cp == 0x2028 || cp == 0x2029 || cp == 0xfeff;
}

static const char REPLACEMENT[] = "\xef\xbf\xbd"; /* U+FFFD */

void dj_compose_clean_text(const char *in, dj_buf *out)
{
    const unsigned char *s = (const unsigned char *)(in ? in : "");
    size_t n = strlen((const char *)s), used = 0;
    bool pending_space = false;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = utf8_decode(s + i, n - i, &cp);
        const char *bytes = (const char *)s + i;
        if (len == 0) {
            bytes = REPLACEMENT;
            len = 1; /* skip one bad byte, emit U+FFFD */
        }
        size_t emit = bytes == REPLACEMENT ? 3 : len;
        i += len;
        if (bytes != REPLACEMENT && (cp == ' ' || is_control(cp))) {
            pending_space = used > 0; /* runs collapse; ends are trimmed */
            continue;
        }
        if (used + pending_space + emit > DJ_COMPOSE_TEXT_MAX)
            break; /* capped on a character boundary */
        if (pending_space) {
            dj_buf_append_n(out, " ", 1);
            used++;
            pending_space = false;
        }
        dj_buf_append_n(out, bytes, emit);
        used += emit;
    }
}

/* ---- addresses and Message-IDs --------------------------------------- */

/* RFC 5322 atext: the characters of an atom. */
static bool is_atext(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-/=?^_`{|}~", c));
}

/* A dot-atom of at most max bytes made of chars accepted by ok. */
static bool dot_atom(const char *s, size_t n, size_t max, bool (*ok)(char))
{
    if (n == 0 || n > max || s[0] == '.' || s[n - 1] == '.')
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.' ? s[i + 1] == '.' : !ok(s[i]))
            return false;
    }
    return true;
}

static bool is_domain_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '-';
}

bool dj_compose_addr_ok(const char *addr)
{
    if (!addr)
        return false;
    const char *at = strrchr(addr, '@');
    size_t n = strlen(addr);
    if (!at || n > DJ_COMPOSE_ADDR_MAX)
        return false;
    size_t local = (size_t)(at - addr);
    return dot_atom(addr, local, 64, is_atext) &&
           dot_atom(at + 1, n - local - 1, 253, is_domain_char);
}

static bool is_msgid_char(char c)
{
    return is_atext(c) || c == '.';
}

/* Does s[0..n) look like "left@right" of a Message-ID? */
static bool msgid_body_ok(const char *s, size_t n)
{
    const char *at = memchr(s, '@', n);
    if (!at || n + 3 > DJ_COMPOSE_MSGID_MAX)
        return false;
    size_t left = (size_t)(at - s);
    if (left == 0 || left + 1 == n)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (i != left && !is_msgid_char(s[i]))
            return false;
    }
    return true;
}

/*
 * Scan in from *pos for the next well-formed <id>; on success its body is
 * at *start, *len bytes, and *pos moves past it.
 */
static bool next_msgid(const char *in, size_t *pos, const char **start,
                       size_t *len)
{
    const char *p = in + *pos;
    while ((p = strchr(p, '<')) != NULL) {
        const char *end = strchr(p + 1, '>');
        if (!end)
            return false;
        const char *again = memchr(p + 1, '<', (size_t)(end - p - 1));
        if (again) { /* "<<a@b>": restart at the inner '<' */
            p = again;
            continue;
        }
        *pos = (size_t)(end + 1 - in);
        if (msgid_body_ok(p + 1, (size_t)(end - p - 1))) {
            *start = p + 1;
            *len = (size_t)(end - p - 1);
            return true;
        }
        p = end + 1;
    }
    return false;
}

bool dj_compose_msgid(const char *in, dj_buf *out)
{
    size_t pos = 0, len;
    const char *start;
    if (!in || !next_msgid(in, &pos, &start, &len))
        return false;
    dj_buf_append(out, "<");
    dj_buf_append_n(out, start, len);
    dj_buf_append(out, ">");
    return true;
}

/* ---- dates ----------------------------------------------------------- */

void dj_compose_date(int64_t t, dj_buf *out)
{
    static const char days[7][4] = {"Sun", "Mon", "Tue", "Wed",
                                    "Thu", "Fri", "Sat"};
    static const char months[12][4] = {"Jan", "Feb", "Mar", "Apr",
                                       "May", "Jun", "Jul", "Aug",
                                       "Sep", "Oct", "Nov", "Dec"};
    time_t tt = (time_t)t;
    struct tm tm;
    if (!gmtime_r(&tt, &tm)) {
        tt = 0;
        gmtime_r(&tt, &tm);
    }
    /* Fixed English names: strftime would follow the locale. */
    dj_buf_printf(out, "%s, %02d %s %04d %02d:%02d:%02d +0000",
                  days[tm.tm_wday % 7], tm.tm_mday, months[tm.tm_mon % 12],
                  tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* ---- header writing -------------------------------------------------- */

/* A header being written: the message buffer and the current column. */
typedef struct hdr {
    dj_buf *out;
    size_t col;
} hdr;

static void hdr_start(hdr *h, const char *name)
{
    dj_buf_printf(h->out, "%s:", name);
    h->col = strlen(name) + 1;
}

static void hdr_end(hdr *h)
{
    dj_buf_append(h->out, "\n");
    h->col = 0;
}

/* Append a word, preceded by a space or by a fold when the line is full. */
static void hdr_word(hdr *h, const char *w, size_t n)
{
    if (h->col > 1 && h->col + 1 + n > FOLD_AT) {
        dj_buf_append(h->out, "\n ");
        h->col = 1;
    } else {
        dj_buf_append(h->out, " ");
        h->col++;
    }
    dj_buf_append_n(h->out, w, n);
    h->col += n;
}

static void base64(const unsigned char *s, size_t n, dj_buf *out)
{
    static const char tab[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)s[i + 1] << 8;
        if (i + 2 < n)
            v |= s[i + 2];
        char q[4] = {tab[(v >> 18) & 63], tab[(v >> 12) & 63],
                     i + 1 < n ? tab[(v >> 6) & 63] : '=',
                     i + 2 < n ? tab[v & 63] : '='};
        dj_buf_append_n(out, q, 4);
    }
}

/*
 * Append clean UTF-8 text as RFC 2047 encoded-words, each split on a
 * character boundary so it decodes alone, each line at most EW_LINE long.
 */
static void hdr_encoded_words(hdr *h, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t n = strlen(text), i = 0;
    const size_t overhead = 12; /* "=?UTF-8?B?" + "?=" */
    while (i < n) {
        size_t room = h->col + 1 + overhead < EW_LINE
                          ? (EW_LINE - h->col - 1 - overhead) / 4 * 3
                          : 0;
        if (room < 12) { /* too little space left: fold first */
            dj_buf_append(h->out, "\n");
            h->col = 0;
            room = (EW_LINE - 1 - overhead) / 4 * 3;
        }
        size_t take = 0;
        while (i + take < n) {
            uint32_t cp;
            size_t len = utf8_decode(s + i + take, n - i - take, &cp);
            if (len == 0)
                len = 1; /* cannot happen: text was cleaned */
            if (take + len > room)
                break;
            take += len;
        }
        dj_buf_append(h->out, " =?UTF-8?B?");
        base64(s + i, take, h->out);
        dj_buf_append(h->out, "?=");
        h->col += 1 + overhead + (take + 2) / 3 * 4;
        i += take;
    }
}

/* Text a reader would see as-is: ASCII and no "=?" to misread. */
static bool plain_ascii(const char *s)
{
    for (const char *p = s; *p; p++) {
        if ((unsigned char)*p >= 0x80)
            return false;
    }
    return strstr(s, "=?") == NULL;
}

/* Append cleaned text as folded words or encoded-words. */
static void hdr_text(hdr *h, const char *clean)
{
    if (!plain_ascii(clean)) {
        hdr_encoded_words(h, clean);
        return;
    }
    const char *p = clean;
    while (*p) {
        size_t n = strcspn(p, " ");
        if (n)
            hdr_word(h, p, n);
        p += n;
        p += strspn(p, " ");
    }
}

/* A display name as an RFC 5322 phrase: quoted-string or encoded-words. */
static void hdr_phrase(hdr *h, const char *name)
{
    dj_buf clean, q;
    dj_buf_init(&clean);
    dj_buf_init(&q);
    dj_compose_clean_text(name, &clean);
    if (clean.len && plain_ascii(clean.data)) {
        dj_buf_append(&q, "\"");
        for (const char *p = clean.data; *p; p++) {
            if (*p == '"' || *p == '\\')
                dj_buf_append(&q, "\\");
            dj_buf_append_n(&q, p, 1);
        }
        dj_buf_append(&q, "\"");
        hdr_word(h, q.data, q.len);
    } else if (clean.len) {
        hdr_encoded_words(h, clean.data);
    }
    dj_buf_free(&clean);
    dj_buf_free(&q);
}

/* One mailbox: [phrase] <addr>, or a bare addr without a name. */
static void hdr_mailbox(hdr *h, const dj_compose_addr *a, bool last)
{
    char angle[DJ_COMPOSE_ADDR_MAX + 4];
    bool named = a->name && a->name[0];
    if (named)
        hdr_phrase(h, a->name);
    snprintf(angle, sizeof angle, named ? "<%s>%s" : "%s%s", a->addr,
             last ? "" : ",");
    hdr_word(h, angle, strlen(angle));
}

static dj_mail_status check_addrs(const dj_compose_addr *a, size_t n,
                                  const char *what, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        if (!dj_compose_addr_ok(a[i].addr))
            return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                                "%s address is not a plain addr-spec", what);
    }
    return DJ_MAIL_OK;
}

static void hdr_addresses(hdr *h, const char *name, const dj_compose_addr *a,
                          size_t n)
{
    hdr_start(h, name);
    for (size_t i = 0; i < n; i++)
        hdr_mailbox(h, &a[i], i + 1 == n);
    hdr_end(h);
}

/* "<stamp.random@domain>", the domain taken from the From address. */
static void make_msgid(const char *from, int64_t t, dj_buf *out)
{
    uint64_t rnd;
    struct tm tm;
    time_t tt = (time_t)t;
    dj_mail_random(&rnd, sizeof rnd);
    if (!gmtime_r(&tt, &tm))
        memset(&tm, 0, sizeof tm);
    dj_buf_printf(out, "<%04d%02d%02d%02d%02d%02d.%016" PRIx64 "@%s>",
                  tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                  tm.tm_min, tm.tm_sec, rnd, strrchr(from, '@') + 1);
}

/*
 * References: the answered mail's References, then its Message-ID; when
 * too many, the first and the most recent ones (RFC 5322 3.6.4).
 */
static void hdr_references(hdr *h, const char *refs, const char *parent)
{
    const char *ids[64];
    size_t lens[64], n = 0, pos = 0, len;
    const char *start;
    while (refs && n < 63 && next_msgid(refs, &pos, &start, &len)) {
        ids[n] = start;
        lens[n++] = len;
    }
    pos = 0;
    if (parent && next_msgid(parent, &pos, &start, &len)) {
        if (n == 63) /* keep the parent, the most important */
            n--;
        ids[n] = start;
        lens[n++] = len;
    }
    if (n == 0)
        return;
    hdr_start(h, "References");
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && n > DJ_COMPOSE_REFS_MAX && i < n - DJ_COMPOSE_REFS_MAX + 1)
            continue;
        char id[DJ_COMPOSE_MSGID_MAX];
        snprintf(id, sizeof id, "<%.*s>", (int)lens[i], ids[i]);
        hdr_word(h, id, strlen(id));
    }
    hdr_end(h);
}

/* ---- body ------------------------------------------------------------ */

/*
 * Clean body text: line ends become "\n" (CRLF and lone CR alike), other
 * control characters except TAB go, invalid UTF-8 becomes U+FFFD, and the
 * text ends with a line end.
 */
static void clean_body(const char *in, dj_buf *out)
{
    const unsigned char *s = (const unsigned char *)(in ? in : "");
    size_t n = strlen((const char *)s);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = utf8_decode(s + i, n - i, &cp);
        if (len == 0) {
            dj_buf_append(out, REPLACEMENT);
            i++;
            continue;
        }
        if (cp == '\r') {
            dj_buf_append(out, "\n");
            i += (i + 1 < n && s[i + 1] == '\n') ? 2 : 1;
            continue;
        }
        if (cp == '\n' || cp == '\t' || !is_control(cp))
            dj_buf_append_n(out, (const char *)s + i, len);
        i += len;
    }
    if (out->len == 0 || out->data[out->len - 1] != '\n')
        dj_buf_append(out, "\n");
}

/* Can the clean body go as 7bit: ASCII, no line over LINE_LIMIT? */
static bool body_is_7bit(const dj_buf *b)
{
    size_t line = 0;
    for (size_t i = 0; i < b->len; i++) {
        unsigned char c = (unsigned char)b->data[i];
        if (c >= 0x80)
            return false;
        line = c == '\n' ? 0 : line + 1;
        if (line > LINE_LIMIT)
            return false;
    }
    return true;
}

/* Quoted-printable encoding of one line (without its "\n"). */
static void qp_line(const char *s, size_t n, dj_buf *out)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t col = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        bool at_end = i + 1 == n;
        /* Encoded too: '.' and "From " at a line start, for the mail
         * systems that still trip over them; trailing blanks (RFC 2045). */
        bool lead = i == 0 && (c == '.' || (c == 'F' && n >= 5 &&
                                            memcmp(s, "From ", 5) == 0));
        bool literal = ((c >= 33 && c <= 126 && c != '=') ||
                        ((c == ' ' || c == '\t') && !at_end)) &&
                       !lead;
        char tok[3] = {(char)c, 0, 0};
        size_t tlen = 1;
        if (!literal) {
            tok[0] = '=';
            tok[1] = hex[c >> 4];
            tok[2] = hex[c & 15];
            tlen = 3;
        }
        /* Room for the soft break "=" after this token unless it ends. */
        if (col + tlen > QP_LINE - (at_end ? 0 : 1)) {
            dj_buf_append(out, "=\n");
            col = 0;
        }
        dj_buf_append_n(out, tok, tlen);
        col += tlen;
    }
    dj_buf_append(out, "\n");
}

static void qp_body(const dj_buf *b, dj_buf *out)
{
    size_t start = 0;
    for (size_t i = 0; i < b->len; i++) {
        if (b->data[i] == '\n') {
            qp_line(b->data + start, i - start, out);
            start = i + 1;
        }
    }
}

/* ---- the message ----------------------------------------------------- */

static dj_mail_status check_parts(const dj_compose *c, char *err,
                                  size_t errlen)
{
    if (!dj_compose_addr_ok(c->from.addr))
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "From address is not a plain addr-spec");
    if (c->nto == 0 || !c->to)
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL, "no recipient");
    dj_mail_status st = check_addrs(c->to, c->nto, "To", err, errlen);
    if (st == DJ_MAIL_OK && c->reply_to)
        st = check_addrs(c->reply_to, 1, "Reply-To", err, errlen);
    if (st == DJ_MAIL_OK && c->x_loop && !dj_compose_addr_ok(c->x_loop))
        st = dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                          "X-Loop is not a plain addr-spec");
    return st;
}

static void write_ids(const dj_compose *c, int64_t now, hdr *h,
                      char *msgid_out)
{
    dj_buf id;
    dj_buf_init(&id);
    if (!c->message_id || !dj_compose_msgid(c->message_id, &id))
        make_msgid(c->from.addr, now, &id);
    hdr_start(h, "Message-ID");
    hdr_word(h, id.data, id.len);
    hdr_end(h);
    if (msgid_out)
        snprintf(msgid_out, DJ_COMPOSE_MSGID_MAX, "%s", id.data);
    dj_buf_reset(&id);
    if (c->in_reply_to && dj_compose_msgid(c->in_reply_to, &id)) {
        hdr_start(h, "In-Reply-To");
        hdr_word(h, id.data, id.len);
        hdr_end(h);
    }
    dj_buf_free(&id);
    hdr_references(h, c->references, c->in_reply_to);
}

static void write_headers(const dj_compose *c, int64_t now, hdr *h,
                          char *msgid_out)
{
    hdr_start(h, "Date");
    dj_buf_append(h->out, " ");
    dj_compose_date(now, h->out);
    hdr_end(h);
    hdr_addresses(h, "From", &c->from, 1);
    hdr_addresses(h, "To", c->to, c->nto);
    if (c->reply_to)
        hdr_addresses(h, "Reply-To", c->reply_to, 1);
    dj_buf subject;
    dj_buf_init(&subject);
    dj_compose_clean_text(c->subject, &subject);
    hdr_start(h, "Subject");
    hdr_text(h, subject.data);
    hdr_end(h);
    dj_buf_free(&subject);
    write_ids(c, now, h, msgid_out);
    if (c->auto_submitted != DJ_AUTO_NONE)
        dj_buf_printf(h->out, "Auto-Submitted: %s\n",
                      c->auto_submitted == DJ_AUTO_REPLIED ? "auto-replied"
                                                           : "auto-generated");
    if (c->x_loop)
        dj_buf_printf(h->out, "X-Loop: %s\n", c->x_loop);
    /* Which build wrote the mail: an admin reading a player's complaint
     * can tell (the version is configure's, see git-version.sh). */
    dj_buf_append(h->out, "X-Mailer: " PACKAGE_NAME " " PACKAGE_VERSION "\n");
}

/* ---- an attachment ---------------------------------------------------- */

/* A MIME token of type/subtype: letters, digits and "+-." around one '/'. */
static bool content_type_ok(const char *t)
{
    if (!t || !*t || strlen(t) > 100)
        return false;
    int slashes = 0;
    for (const char *p = t; *p; p++) {
        if (*p == '/')
            slashes++;
        else if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                   (*p >= '0' && *p <= '9') || strchr("+-.", *p)))
            return false;
    }
    return slashes == 1 && t[0] != '/' && t[strlen(t) - 1] != '/';
}

/* The file name as sent: safe characters only, never empty. */
static void clean_filename(const char *in, dj_buf *out)
{
    const char *src = in ? in : "";
    size_t n = 0;
    for (const char *p = src; *p && n < 64; p++)
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || strchr("._-", *p)) {
            dj_buf_append_n(out, p, 1);
            n++;
        }
    if (n == 0 || src[0] == '.') {
        dj_buf_reset(out);
        dj_buf_append(out, "attachment");
    }
}

/* "=_dj_" and 16 hex digits from the Message-ID and the time. */
static void make_boundary(const char *seed, int64_t now, char *out,
                          size_t outlen)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)now;
    for (const char *p = seed ? seed : ""; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    snprintf(out, outlen, "=_dj_%016" PRIx64, h);
}

static void write_attachment(const dj_compose_attachment *a,
                             const char *boundary, dj_buf *out)
{
    dj_buf name;
    dj_buf_init(&name);
    clean_filename(a->filename, &name);
    dj_buf_printf(out,
                  "--%s\n"
                  "Content-Type: %s; name=\"%s\"\n"
                  "Content-Disposition: attachment; filename=\"%s\"\n"
                  "Content-Transfer-Encoding: base64\n\n",
                  boundary, a->content_type, name.data, name.data);
    dj_buf_free(&name);
    /* 57 bytes make one 76-character line. */
    for (size_t i = 0; i < a->len; i += 57) {
        base64(a->data + i, a->len - i < 57 ? a->len - i : 57, out);
        dj_buf_append(out, "\n");
    }
}

/* The deadline's calendar: text/calendar in base64 (its CRLF lines kept). */
static void write_calendar(const char *ics, const char *boundary, dj_buf *out)
{
    dj_buf_printf(out,
                  "--%s\n"
                  "Content-Type: text/calendar; charset=UTF-8; "
                  "method=PUBLISH; name=\"deadline.ics\"\n"
                  "Content-Disposition: attachment; "
                  "filename=\"deadline.ics\"\n"
                  "Content-Transfer-Encoding: base64\n\n",
                  boundary);
    size_t len = strlen(ics);
    for (size_t i = 0; i < len; i += 57) {
        base64((const unsigned char *)ics + i, len - i < 57 ? len - i : 57,
               out);
        dj_buf_append(out, "\n");
    }
}

dj_mail_status dj_compose_message(const dj_compose *c, dj_buf *out,
                                  char *msgid_out, char *err, size_t errlen)
{
    dj_buf_reset(out);
    dj_mail_status st = check_parts(c, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    int64_t now = c->date ? c->date : (int64_t)time(NULL);
    hdr h = {out, 0};
    write_headers(c, now, &h, msgid_out);

    const dj_compose_attachment *a = c->attachment;
    if (a && (!a->data || a->len == 0))
        a = NULL;
    if (a && !content_type_ok(a->content_type))
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "the attachment's type is not a MIME type");
    const char *cal = c->calendar && *c->calendar ? c->calendar : NULL;
    bool multi = a || cal;
    dj_buf body;
    dj_buf_init(&body);
    clean_body(c->body, &body);
    char boundary[40] = "";
    if (multi)
        make_boundary(c->message_id, now, boundary, sizeof boundary);
    /* 7bit text cannot hold the boundary: then quoted-printable, which
     * never writes "=_" (see compose.h). */
    bool plain = body_is_7bit(&body) &&
                 !(multi && body.data && strstr(body.data, boundary));
    dj_buf_append(out, "MIME-Version: 1.0\n");
    if (multi) {
        dj_buf_printf(out,
                      "Content-Type: multipart/mixed; boundary=\"%s\"\n\n"
                      "This is a message in MIME format: its text, then %s."
                      "\n\n--%s\n",
                      boundary,
                      a && cal ? "a picture of the board and the deadline's "
                                 "calendar entry"
                      : a      ? "a picture of the board"
                               : "the deadline's calendar entry",
                      boundary);
    }
    dj_buf_append(out, "Content-Type: text/plain; charset=UTF-8\n");
    dj_buf_printf(out, "Content-Transfer-Encoding: %s\n\n",
                  plain ? "7bit" : "quoted-printable");
    if (plain)
        dj_buf_append_n(out, body.data, body.len);
    else
        qp_body(&body, out);
    if (multi) {
        if (out->len && out->data[out->len - 1] != '\n')
            dj_buf_append(out, "\n");
        if (a)
            write_attachment(a, boundary, out);
        if (cal)
            write_calendar(cal, boundary, out);
        dj_buf_printf(out, "--%s--\n", boundary);
    }
    bool ok = dj_buf_ok(&body);
    dj_buf_free(&body);
    if (!ok || !dj_buf_ok(out))
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    return DJ_MAIL_OK;
}
