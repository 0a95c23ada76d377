/* SPDX-License-Identifier: MIT */
/*
 * test_message.c — the message reader (src/mail/message.h) against the
 * corpus in tests/mail/corpus, plus unit checks of its pieces: HTML to
 * text, charsets, RFC 2047, the cleaner, the limits, and hostile input.
 *
 * Usage: test_message SRCDIR
 *
 * The corpus: every NN-name.eml has an NN-name.expect beside it, in this
 * format (one "key: value" per line; '#' starts a comment line):
 *
 *   option-own-loop: VALUE     the judge's X-Loop value for this parse
 *   option-envelope: ADDR      the envelope sender ("<>": the null one)
 *   option-max-size: N         (also -max-header, -max-parts,
 *                              -max-lines, -max-line-len)
 *   result: ok | limit | parse              (required)
 *   limit: size | header | parts | lines | line-length
 *   from: ADDR                              (required; may be empty)
 *   from-name: NAME
 *   reply-to: ADDR        sender: ADDR       to: LIST      cc: LIST
 *   return-path: ADDR | <> | unknown
 *   subject: TEXT                           (required)
 *   message-id: ID | hash                   (required)
 *   in-reply-to: ID       date: YYYY-MM-DDTHH:MM:SSZ     x-loop: VALUE
 *   flags: none | some of "auto bounce list loop"   (required)
 *   source: plain | html | none             (required with result ok)
 *   body:                                   (required with result ok)
 *   ...every following line, to the end of the file, is the expected
 *   body exactly...
 *
 * Every key present is checked; the required ones must be present.
 */
#define _POSIX_C_SOURCE 200809L
#include "mail/message.h"
#include "mail/mime_int.h"
#include "testlib.h"

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- files ---------------------------------------------------------- */

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    while (s) {
        size_t got = fread(s + n, 1, cap - n - 1, f);
        n += got;
        if (n + 1 < cap)
            break;
        cap *= 2;
        char *t = realloc(s, cap);
        if (!t)
            free(s);
        s = t;
    }
    fclose(f);
    if (s)
        s[n] = '\0';
    *len = n;
    return s;
}

/* ---- expectations --------------------------------------------------- */

#define MAX_KEYS 32

typedef struct expect {
    char *keys[MAX_KEYS];
    char *values[MAX_KEYS];
    int n;
    const char *body; /* NULL when there is no "body:" line */
} expect;

/* Split an .expect file (modified in place) into keys and values. */
static void parse_expect(char *s, expect *e)
{
    memset(e, 0, sizeof *e);
    while (*s) {
        char *nl = strchr(s, '\n');
        char *next = nl ? nl + 1 : s + strlen(s);
        if (nl)
            *nl = '\0';
        if (strcmp(s, "body:") == 0) {
            e->body = next;
            return;
        }
        char *colon = strchr(s, ':');
        if (s[0] != '#' && s[0] && colon && e->n < MAX_KEYS) {
            *colon = '\0';
            char *v = colon + 1;
            while (*v == ' ')
                v++;
            e->keys[e->n] = s;
            e->values[e->n] = v;
            e->n++;
        }
        s = next;
    }
}

static const char *get(const expect *e, const char *key)
{
    for (int i = 0; i < e->n; i++)
        if (strcmp(e->keys[i], key) == 0)
            return e->values[i];
    return NULL;
}

static void check_field(const char *name, const char *key, const char *got,
                        const char *want)
{
    if (strcmp(got, want) == 0) {
        test_passed++;
        return;
    }
    test_failed++;
    fprintf(stderr, "%s: %s: got \"%s\", want \"%s\"\n", name, key, got, want);
}

static void require(const char *name, const expect *e, const char *key)
{
    if (get(e, key)) {
        test_passed++;
        return;
    }
    test_failed++;
    fprintf(stderr, "%s: the .expect lacks \"%s:\"\n", name, key);
}

static const char *result_name(int rc)
{
    switch (rc) {
    case DJ_MSG_OK:
        return "ok";
    case DJ_MSG_ELIMIT:
        return "limit";
    case DJ_MSG_EPARSE:
        return "parse";
    default:
        return "nomem";
    }
}

static const char *limit_name(int l)
{
    static const char *const names[] = {"none",  "size",  "header",
                                        "parts", "lines", "line-length"};
    return l >= 0 && l <= DJ_MSG_LIMIT_LINE_LENGTH ? names[l] : "?";
}

static const char *source_name(int s)
{
    return s == DJ_MSG_BODY_PLAIN  ? "plain"
           : s == DJ_MSG_BODY_HTML ? "html"
                                   : "none";
}

static void flags_text(unsigned f, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s%s%s", f & DJ_MSG_AUTO ? "auto " : "",
             f & DJ_MSG_BOUNCE ? "bounce " : "", f & DJ_MSG_LIST ? "list " : "",
             f & DJ_MSG_LOOP ? "loop " : "");
    size_t n = strlen(buf);
    if (n)
        buf[n - 1] = '\0';
    else
        snprintf(buf, cap, "none");
}

/* The same flags whatever order the .expect lists them in. */
static unsigned flags_parse(const char *s)
{
    unsigned f = 0;
    if (strstr(s, "auto"))
        f |= DJ_MSG_AUTO;
    if (strstr(s, "bounce"))
        f |= DJ_MSG_BOUNCE;
    if (strstr(s, "list"))
        f |= DJ_MSG_LIST;
    if (strstr(s, "loop"))
        f |= DJ_MSG_LOOP;
    return f;
}

static void limits_from(const expect *e, dj_message_limits *lim)
{
    memset(lim, 0, sizeof *lim);
    const char *v;
    lim->own_loop = get(e, "option-own-loop");
    if ((v = get(e, "option-envelope")))
        lim->envelope_sender = strcmp(v, "<>") == 0 ? "" : v;
    if ((v = get(e, "option-max-size")))
        lim->max_size = strtoul(v, NULL, 10);
    if ((v = get(e, "option-max-header")))
        lim->max_header = strtoul(v, NULL, 10);
    if ((v = get(e, "option-max-parts")))
        lim->max_parts = strtoul(v, NULL, 10);
    if ((v = get(e, "option-max-lines")))
        lim->max_lines = strtoul(v, NULL, 10);
    if ((v = get(e, "option-max-line-len")))
        lim->max_line_len = strtoul(v, NULL, 10);
}

static void check_address_fields(const char *name, const expect *e,
                                 const dj_message *m)
{
    static const struct {
        const char *key;
        size_t off;
    } fields[] = {
        {"from", offsetof(dj_message, from.addr)},
        {"from-name", offsetof(dj_message, from.name)},
        {"reply-to", offsetof(dj_message, reply_to.addr)},
        {"sender", offsetof(dj_message, sender.addr)},
        {"to", offsetof(dj_message, to)},
        {"cc", offsetof(dj_message, cc)},
        {"subject", offsetof(dj_message, subject)},
        {"in-reply-to", offsetof(dj_message, in_reply_to)},
        {"date", offsetof(dj_message, date)},
        {"x-loop", offsetof(dj_message, x_loop)},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const char *want = get(e, fields[i].key);
        if (want)
            check_field(name, fields[i].key, (const char *)m + fields[i].off,
                        want);
    }
    const char *want = get(e, "return-path");
    if (want) {
        const char *got = !m->return_path_known ? "unknown"
                          : m->return_path[0]   ? m->return_path
                                                : "<>";
        check_field(name, "return-path", got, want);
    }
}

static void check_case(const char *name, const char *raw, size_t len,
                       const expect *e)
{
    dj_message_limits lim;
    limits_from(e, &lim);
    dj_message m;
    char err[200];
    int rc = dj_message_parse(raw, len, &lim, &m, err, sizeof err);
    static const char *const required[] = {"result", "from", "subject",
                                           "message-id", "flags"};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        require(name, e, required[i]);
    const char *want = get(e, "result");
    if (want)
        check_field(name, "result", result_name(rc), want);
    if ((want = get(e, "limit")))
        check_field(name, "limit", limit_name(m.limit_hit), want);
    check_address_fields(name, e, &m);
    if ((want = get(e, "message-id"))) {
        if (strcmp(want, "hash") == 0)
            check_field(name, "message-id hashed",
                        m.message_id_hashed ? "yes" : "no", "yes");
        else
            check_field(name, "message-id", m.message_id, want);
    }
    if ((want = get(e, "flags"))) {
        char got[64], wanted[64];
        flags_text(m.flags, got, sizeof got);
        flags_text(flags_parse(want), wanted, sizeof wanted);
        check_field(name, "flags", got, wanted);
    }
    if (rc == DJ_MSG_OK) {
        require(name, e, "source");
        if ((want = get(e, "source")))
            check_field(name, "source", source_name(m.body_source), want);
        if (!e->body) {
            test_failed++;
            fprintf(stderr, "%s: the .expect lacks \"body:\"\n", name);
        } else {
            check_field(name, "body", m.body, e->body);
            CHECK(strlen(m.body) == m.body_len);
            CHECK(dj_mime_utf8_valid(m.body, m.body_len));
        }
    } else {
        CHECK(m.body == NULL);
        if (rc == DJ_MSG_OK || !err[0])
            fprintf(stderr, "%s: no error text\n", name);
        CHECK(err[0] != '\0');
    }
    dj_message_free(&m);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .eml names in dir, sorted; NULL when the directory is missing. */
static char **list_cases(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    int n = 0, cap = 0;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        size_t len = strlen(ent->d_name);
        if (len < 5 || strcmp(ent->d_name + len - 4, ".eml") != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **t = realloc(names, (size_t)cap * sizeof *t);
            if (!t)
                break;
            names = t;
        }
        names[n++] = strdup(ent->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, (size_t)n, sizeof *names, compare_names);
    *count = n;
    return names;
}

static void run_corpus(const char *srcdir)
{
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/tests/mail/corpus", srcdir);
    int n = 0;
    char **names = list_cases(dir, &n);
    CHECK(names != NULL);
    CHECK(n >= 40);
    for (int i = 0; i < n; i++) {
        size_t elen = 0, xlen = 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *eml = read_file(path, &elen);
        size_t base = strlen(path) - 4;
        snprintf(path + base, sizeof path - base, ".expect");
        char *exp = read_file(path, &xlen);
        if (!eml || !exp) {
            test_failed++;
            fprintf(stderr, "%s: cannot read it or its .expect\n", names[i]);
        } else {
            expect e;
            parse_expect(exp, &e);
            check_case(names[i], eml, elen, &e);
        }
        free(eml);
        free(exp);
        free(names[i]);
    }
    free(names);
    printf("corpus: %d messages\n", n);
}

/* ---- unit checks ---------------------------------------------------- */

static void check_html(const char *html, const char *want)
{
    char *got = NULL;
    CHECK(dj_html_to_text(html, strlen(html), &got) == 0);
    CHECK_STR(got, want);
    free(got);
}

static void test_html(void)
{
    check_html("", "");
    check_html("<p>F Bre - Mid</p><p>A Par - Bur</p>",
               "F Bre - Mid\nA Par - Bur\n");
    check_html("a<br>b<br/>c<BR />d", "a\nb\nc\nd\n");
    check_html("<div>one</div><div>two</div>", "one\ntwo\n");
    check_html("<ul><li>x</li><li>y</li></ul>", "x\ny\n");
    check_html("  lots   of\n\t space  ", "lots of space\n");
    check_html("<head><title>T</title><style>p{}</style></head><body>b", "b\n");
    check_html("<script>alert('<p>x</p>')</script>ok", "ok\n");
    check_html("<!-- hidden <p>x</p> -->shown", "shown\n");
    check_html("<!--[if mso]>x<![endif]-->y", "y\n");
    check_html("&amp;&lt;&gt;&quot;&#39;&eacute;&#233;&#xE9;&#XE9;&euro;",
               "&<>\"'\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xE2\x82\xAC\n");
    check_html("a&nbsp;&nbsp;b", "a  b\n");
    check_html("&#0;&#xD800;&#x110000;&#99999999;",
               "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\n");
    /* Too long to be an entity: left as it is. */
    check_html("&#999999999999;", "&#999999999999;\n");
    check_html("&bogus; & &amp &#; &#x;", "&bogus; & &amp &#; &#x;\n");
    check_html("a < b > c", "a < b > c\n");
    check_html("<table><tr><td>A</td><td>B</td></tr><tr><td>C</td></tr>"
               "</table>",
               "A B\nC\n");
    check_html("<pre>  x\n  y</pre>z", "  x\n  y\nz\n");
    check_html("mine<blockquote>theirs<br>more<blockquote>deep</blockquote>"
               "</blockquote>after",
               "mine\n> theirs\n> more\n> deep\nafter\n");
    check_html("<a href=\"x>y\">link</a> text", "link text\n");
    check_html("<p>unclosed <b attr='", "unclosed\n");
    check_html("<title>never closed", "never closed\n");
    check_html("<o:p></o:p>Outlook<o:p>&nbsp;</o:p>", "Outlook \n");
}

static void check_utf8(const char *charset, const char *in, const char *want)
{
    dj_buf b;
    dj_buf_init(&b);
    dj_mime_to_utf8(charset, in, strlen(in), &b);
    CHECK_STR(b.data, want);
    CHECK(dj_mime_utf8_valid(b.data, b.len));
    dj_buf_free(&b);
}

static void test_charsets(void)
{
    check_utf8("utf-8", "caf\xC3\xA9", "caf\xC3\xA9");
    check_utf8("UTF-8",
               "a\xFF"
               "b\xC3",
               "a\xEF\xBF\xBD"
               "b\xEF\xBF\xBD");
    check_utf8("utf-8", "\xC0\xAF\xED\xA0\x80",
               "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
               "\xEF\xBF\xBD");
    check_utf8("iso-8859-1", "caf\xE9", "caf\xC3\xA9");
    check_utf8("windows-1252", "\x93q\x94 \x80 \x81",
               "\xE2\x80\x9Cq\xE2\x80\x9D \xE2\x82\xAC \xEF\xBF\xBD");
    check_utf8("us-ascii", "caf\xE9", "caf\xC3\xA9");
    check_utf8(NULL, "caf\xC3\xA9", "caf\xC3\xA9");
    check_utf8("x-no-such-charset", "caf\xE9", "caf\xC3\xA9");
    check_utf8("utf-8//IGNORE", "caf\xE9", "caf\xC3\xA9");
    check_utf8("iso-8859-15", "\xA4", "\xE2\x82\xAC");
    check_utf8("koi8-r", "\xC4\xC1", "\xD0\xB4\xD0\xB0");
    check_utf8("utf-8",
               "a\x01\x1B"
               "b\tc\n",
               "a\xEF\xBF\xBD\xEF\xBF\xBD"
               "b\tc\n");
    /* A truncated multi-byte character at the end through iconv. */
    check_utf8("shift_jis", "a\x82", "a\xEF\xBF\xBD");
    CHECK(dj_mime_utf8_fit("ab\xC3\xA9", 4, 4) == 2);
    CHECK(dj_mime_utf8_fit("ab\xC3\xA9", 4, 5) == 4);
    CHECK(dj_mime_utf8_fit("abc", 3, 1) == 0);
}

typedef void decoder(const char *, size_t, dj_buf *);

static void check_decode(decoder *fn, const char *in, const char *want)
{
    dj_buf b;
    dj_buf_init(&b);
    fn(in, strlen(in), &b);
    CHECK_STR(b.data, want);
    dj_buf_free(&b);
}

static void test_decoders(void)
{
    check_decode(dj_mime_decode_base64, "SGVsbG8=", "Hello");
    check_decode(dj_mime_decode_base64, "SGVs\r\nbG8h", "Hello!");
    check_decode(dj_mime_decode_base64, "SGVsbG8=\nIHdvcmxk", "Hello world");
    check_decode(dj_mime_decode_base64, "SG!V*s bG8", "Hello");
    check_decode(dj_mime_decode_base64, "SGVsbG8", "Hello");
    check_decode(dj_mime_decode_base64, "S", "");
    check_decode(dj_mime_decode_base64, "====", "");
    check_decode(dj_mime_decode_qp, "caf=E9 =c3=a9", "caf\xE9 \xC3\xA9");
    check_decode(dj_mime_decode_qp, "soft=\nbreak=  \r\nend", "softbreakend");
    check_decode(dj_mime_decode_qp, "a=3Db =ZZ =", "a=b =ZZ ");
    /* Parts ending in "=" or "=X": libetpan read past the end here. */
    check_decode(dj_mime_decode_qp, "end=", "end");
    check_decode(dj_mime_decode_qp, "end=4", "end=4");
    check_decode(dj_mime_decode_q, "a_b=20c=", "a b c=");
}

static void check_header(const char *raw, const char *want)
{
    dj_buf b;
    dj_buf_init(&b);
    dj_mime_decode_header(raw, strlen(raw), &b);
    CHECK_STR(b.data, want);
    dj_buf_free(&b);
}

static void test_rfc2047(void)
{
    check_header("plain text", "plain text");
    check_header("=?UTF-8?B?Q2Fmw6k=?=", "Caf\xC3\xA9");
    check_header("=?iso-8859-1?q?caf=E9_cr=E8me?=", "caf\xC3\xA9 cr\xC3\xA8me");
    check_header("=?UTF-8?Q?a?= =?UTF-8?Q?b?=", "ab");
    check_header("x =?UTF-8?Q?a?= y", "x a y");
    /* One character split across two words. */
    check_header("=?UTF-8?B?w6k=?= =?UTF-8?B?w6k=?=", "\xC3\xA9\xC3\xA9");
    check_header("=?UTF-8?B?ww==?=\r\n =?UTF-8?B?qQ==?=", "\xC3\xA9");
    check_header("Re: =?utf-8?Q?Bon_jour?=\r\n\tand more",
                 "Re: Bon jour and more");
    check_header("=?bogus?Q?caf=E9?=", "caf\xC3\xA9");
    check_header("=?UTF-8?X?abc?=", "=?UTF-8?X?abc?=");
    check_header("=?UTF-8?Q?no end", "=?UTF-8?Q?no end");
    check_header("=??Q?x?=", "=??Q?x?=");
    check_header("raw latin1 caf\xE9", "raw latin1 caf\xC3\xA9");
    check_header("=?UTF-8*en?Q?lang?=", "lang");
    check_header("  a \x01 b  ", "a \xEF\xBF\xBD b");
}

static void check_clean(const char *in, const char *want)
{
    dj_buf b;
    dj_buf_init(&b);
    dj_mime_clean(in, strlen(in), &b);
    CHECK_STR(b.data, want);
    dj_buf_free(&b);
}

static void test_clean(void)
{
    check_clean("", "");
    check_clean("\n\n  \n", "");
    check_clean("a  \r\nb\t\r\n\r\n", "a\nb\n");
    check_clean("a\rb", "a\nb\n");
    check_clean("\n\nfirst\n\nsecond\n\n", "first\n\nsecond\n");
    check_clean("F Bre - Mid\n> old\n>> older\n  > indented\n",
                "F Bre - Mid\n");
    check_clean("orders\n\nOn Mon, 1 Jan 2024, Judge <j@x> wrote:\n\n> r\n",
                "orders\n");
    check_clean("orders\nOn Mon, 1 Jan 2024 at 10:00, Judge <j@\n"
                "x.org> wrote:\n> r\n",
                "orders\n");
    check_clean("orders\nOn Mon, 1 Jan 2024 at 10:00 Judge <j@x.org>\n"
                "wrote:\n> r\n",
                "orders\n");
    /* Not above a quote: an ordinary line that happens to say "wrote:". */
    check_clean("England wrote:\nF Lon - NTH\n",
                "England wrote:\nF Lon - NTH\n");
    check_clean("a\n-- \nsig\n", "a\n");
    check_clean("a\n--\nsig\n", "a\n");
    check_clean("a\n---\nb\n", "a\n---\nb\n");
    check_clean("a\n\n-----Original Message-----\nFrom: j\nb\n", "a\n");
    check_clean("a\n________________________________\nFrom: Judge\n"
                "Sent: Monday\nTo: me\n\nresult\n",
                "a\n");
    check_clean("a\nFrom: France\nF Bre - Mid\n",
                "a\nFrom: France\nF Bre - Mid\n");
    check_clean("a\n\nSent from my iPhone\n", "a\n");
    check_clean("a\xC2\xA0"
                "b\xC2\xA0\n",
                "a b\n");
    check_clean("a\n> q\nb\n> q2\nc\n", "a\nb\nc\n");
}

static void test_limits(void)
{
    const char *msg = "From: a@example.org\nSubject: s\n\nline one\n"
                      "line two is longer\nline three\n";
    dj_message m;
    char err[128];
    dj_message_limits lim = {0};

    lim.max_lines = 2;
    CHECK(dj_message_parse(msg, strlen(msg), &lim, &m, err, sizeof err) ==
          DJ_MSG_ELIMIT);
    CHECK(m.limit_hit == DJ_MSG_LIMIT_LINES);
    CHECK(m.body == NULL);
    CHECK_STR(m.from.addr, "a@example.org");
    CHECK(strstr(err, "3 lines") != NULL);
    dj_message_free(&m);

    lim.max_lines = 3;
    CHECK(dj_message_parse(msg, strlen(msg), &lim, &m, err, sizeof err) ==
          DJ_MSG_OK);
    CHECK(m.body_lines == 3);
    dj_message_free(&m);

    lim.max_line_len = 17;
    CHECK(dj_message_parse(msg, strlen(msg), &lim, &m, err, sizeof err) ==
          DJ_MSG_ELIMIT);
    CHECK(m.limit_hit == DJ_MSG_LIMIT_LINE_LENGTH);
    dj_message_free(&m);
    lim.max_line_len = 18;
    CHECK(dj_message_parse(msg, strlen(msg), &lim, &m, err, sizeof err) ==
          DJ_MSG_OK);
    dj_message_free(&m);

    lim.max_size = strlen(msg) - 1;
    CHECK(dj_message_parse(msg, strlen(msg), &lim, &m, err, sizeof err) ==
          DJ_MSG_ELIMIT);
    CHECK(m.limit_hit == DJ_MSG_LIMIT_SIZE);
    CHECK_STR(m.subject, "s");
    dj_message_free(&m);
    lim.max_size = strlen(msg);
    CHECK(dj_message_parse(msg, strlen(msg), &lim, &m, err, sizeof err) ==
          DJ_MSG_OK);
    dj_message_free(&m);

    memset(&lim, 0, sizeof lim);
    lim.max_header = 20;
    CHECK(dj_message_parse(msg, strlen(msg), &lim, &m, err, sizeof err) ==
          DJ_MSG_ELIMIT);
    CHECK(m.limit_hit == DJ_MSG_LIMIT_HEADER);
    dj_message_free(&m);

    /* Quoted lines do not count against the limits: they are dropped. */
    memset(&lim, 0, sizeof lim);
    lim.max_lines = 1;
    const char *reply = "From: a@example.org\n\nF Bre - Mid\n> 1\n> 2\n> 3\n";
    CHECK(dj_message_parse(reply, strlen(reply), &lim, &m, err, sizeof err) ==
          DJ_MSG_OK);
    dj_message_free(&m);
}

/* Deep nesting is refused before libetpan (which recurses) sees it. */
static void test_nesting(void)
{
    size_t levels = 20000, cap = levels * 40 + 100, n = 0;
    char *s = malloc(cap);
    n += (size_t)snprintf(s, cap, "From: a@example.org\n");
    for (size_t i = 0; i < levels; i++)
        n += (size_t)snprintf(s + n, cap - n,
                              "Content-Type: message/rfc822\n\n");
    n += (size_t)snprintf(s + n, cap - n, "hello\n");
    dj_message m;
    char err[128];
    CHECK(dj_message_parse(s, n, NULL, &m, err, sizeof err) == DJ_MSG_ELIMIT);
    CHECK(m.limit_hit == DJ_MSG_LIMIT_PARTS);
    dj_message_free(&m);

    /* Many delimiters and no Content-Type fields: also refused. */
    n = (size_t)snprintf(s, cap,
                         "From: a@example.org\nContent-Type: "
                         "multipart/mixed; boundary=b\n\n");
    for (size_t i = 0; i < 1700; i++)
        n += (size_t)snprintf(s + n, cap - n, "--b\n\nx\n");
    CHECK(dj_message_parse(s, n, NULL, &m, err, sizeof err) == DJ_MSG_ELIMIT);
    CHECK(m.limit_hit == DJ_MSG_LIMIT_PARTS);
    dj_message_free(&m);
    /* A few hundred rulers in plain text are fine. */
    n = (size_t)snprintf(s, cap, "From: a@example.org\n\n");
    for (size_t i = 0; i < 300; i++)
        n += (size_t)snprintf(s + n, cap - n, "A Par H\n--------\n");
    CHECK(dj_message_parse(s, n, NULL, &m, err, sizeof err) == DJ_MSG_OK);
    dj_message_free(&m);
    free(s);
}

static void test_message_id_hash(void)
{
    const char *lf = "From: a@example.org\nSubject: x\n\nbody\n";
    const char *crlf = "From: a@example.org\r\nSubject: x\r\n\r\nbody\r\n";
    const char *other = "From: a@example.org\nSubject: y\n\nbody\n";
    dj_message a, b, c;
    CHECK(dj_message_parse(lf, strlen(lf), NULL, &a, NULL, 0) == DJ_MSG_OK);
    CHECK(dj_message_parse(crlf, strlen(crlf), NULL, &b, NULL, 0) == DJ_MSG_OK);
    CHECK(dj_message_parse(other, strlen(other), NULL, &c, NULL, 0) ==
          DJ_MSG_OK);
    CHECK(a.message_id_hashed && b.message_id_hashed);
    CHECK_STR(a.message_id, b.message_id);
    CHECK(strcmp(a.message_id, c.message_id) != 0);
    CHECK(strstr(a.message_id, "@hash.dipjudge.invalid") != NULL);
    CHECK_STR(a.body, "body\n");
    CHECK_STR(b.body, "body\n");
    dj_message_free(&a);
    dj_message_free(&b);
    dj_message_free(&c);
}

static void test_odd_input(void)
{
    dj_message m;
    char err[128];
    CHECK(dj_message_parse(NULL, 0, NULL, &m, err, sizeof err) ==
          DJ_MSG_EPARSE);
    dj_message_free(&m);
    CHECK(dj_message_parse("", 0, NULL, &m, err, sizeof err) == DJ_MSG_EPARSE);
    dj_message_free(&m);
    CHECK(dj_message_parse("\n\nbody", 6, NULL, &m, err, sizeof err) ==
          DJ_MSG_EPARSE);
    CHECK(m.body == NULL);
    dj_message_free(&m);
    /* Header only, no final newline. */
    const char *h = "From: a@example.org\nSubject: only";
    CHECK(dj_message_parse(h, strlen(h), NULL, &m, err, sizeof err) ==
          DJ_MSG_OK);
    CHECK_STR(m.subject, "only");
    CHECK_STR(m.body, "");
    CHECK(m.body_source == DJ_MSG_BODY_NONE);
    dj_message_free(&m);
    /* An mbox "From " line first: skipped, its sender used. */
    const char *mbox = "From MAILER-DAEMON Mon Jan  1 00:00:00 2024\n"
                       "From: x@example.org\n\nhi\n";
    CHECK(dj_message_parse(mbox, strlen(mbox), NULL, &m, err, sizeof err) ==
          DJ_MSG_OK);
    CHECK_STR(m.from.addr, "x@example.org");
    CHECK(m.flags & DJ_MSG_BOUNCE);
    CHECK_STR(m.body, "hi\n");
    dj_message_free(&m);
    /* Return-Path forms; an unterminated one (which libetpan 1.9.4 would
     * leak on) is unknown; a sender's own X-DjIgnored means nothing. */
    static const struct {
        const char *raw, *want;
    } paths[] = {
        {"Return-Path: <a@b\nFrom: x@y.z\n\nb\n", "unknown"},
        {"Return-Path: bare@example.org (c)\nFrom: x@y.z\n\nb\n",
         "bare@example.org"},
        {"return-path :\n <folded@example.org>\nFrom: x@y.z\n\nb\n",
         "folded@example.org"},
        {"X-DjIgnored: <evil@example.org>\nFrom: x@y.z\n\nb\n", "unknown"},
        {"Return-Path: <first@example.org>\nReturn-Path: <>\n\nb\n",
         "first@example.org"},
    };
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        CHECK(dj_message_parse(paths[i].raw, strlen(paths[i].raw), NULL, &m,
                               err, sizeof err) == DJ_MSG_OK);
        CHECK_STR(m.return_path_known ? m.return_path : "unknown",
                  paths[i].want);
        dj_message_free(&m);
    }
    /* A long multi-byte reason is cut on a character boundary (found by
     * the fuzzer). */
    char list[1200] = "From: x@y.z\nList-Id: ";
    for (int i = 0; i < 300; i++)
        strcat(list, "\xC3\xA9");
    strcat(list, "\n\nb\n");
    CHECK(dj_message_parse(list, strlen(list), NULL, &m, err, sizeof err) ==
          DJ_MSG_OK);
    CHECK(m.flags == DJ_MSG_LIST);
    CHECK(dj_mime_utf8_valid(m.auto_reason, strlen(m.auto_reason)));
    CHECK(strlen(m.auto_reason) > 200);
    dj_message_free(&m);
    /* Embedded NUL bytes and a dj_message_free of a freed message. */
    const char nul[] = "From: a@example.org\n\nF Bre\0 - Mid\n";
    CHECK(dj_message_parse(nul, sizeof nul - 1, NULL, &m, err, sizeof err) ==
          DJ_MSG_OK);
    CHECK(dj_mime_utf8_valid(m.body, m.body_len));
    CHECK(strlen(m.body) == m.body_len);
    dj_message_free(&m);
    dj_message_free(&m);
}

/* Pseudo-random mail-like bytes must never crash or leak (the fuzz
 * target does this at scale; this keeps a taste of it in `make check`). */
static void test_random(void)
{
    static const char *const pieces[] = {
        "From: a@b.c\n",
        "Content-Type: multipart/mixed; boundary=x\n",
        "--x\n",
        "--x--\n",
        "\n",
        "Content-Transfer-Encoding: base64\n",
        "Content-Transfer-Encoding: quoted-printable\n",
        "=C3=A9=\n",
        "<p>&amp;<br>",
        "Content-Type: text/html; charset=koi8-r\n",
        "> quote\n",
        "-- \n",
        "=?UTF-8?B?w6k=?=",
        "\xFF\xC3",
        "SGVsbG8=\n",
        "Content-Type: message/rfc822\n",
        "Subject: s\n"};
    uint32_t seed = 12345;
    char buf[2048];
    int crashes_none = 1;
    for (int round = 0; round < 3000; round++) {
        size_t n = 0;
        int count = (int)(seed % 40);
        for (int k = 0; k < count; k++) {
            seed = seed * 1103515245u + 12345u;
            const char *p =
                pieces[(seed >> 16) % (sizeof pieces / sizeof pieces[0])];
            size_t l = strlen(p);
            if (n + l >= sizeof buf)
                break;
            memcpy(buf + n, p, l);
            n += l;
        }
        seed = seed * 1103515245u + 12345u;
        dj_message m;
        int rc = dj_message_parse(buf, n, NULL, &m, NULL, 0);
        if (rc == DJ_MSG_OK && !dj_mime_utf8_valid(m.body, m.body_len))
            crashes_none = 0;
        dj_message_free(&m);
    }
    CHECK(crashes_none);
}

int main(int argc, char **argv)
{
    const char *srcdir = test_srcdir(argc, argv);
    test_html();
    test_charsets();
    test_decoders();
    test_rfc2047();
    test_clean();
    test_limits();
    test_nesting();
    test_message_id_hash();
    test_odd_input();
    test_random();
    run_corpus(srcdir);
    return test_summary();
}
