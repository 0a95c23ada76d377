/* SPDX-License-Identifier: MIT */
/*
 * authres.c — the RFC 8601 Authentication-Results reader: which of a
 * mail's Authentication-Results header fields a trusted host added, and
 * what they say about its From: domain (authres.h).
 *
 * Why: a From: line costs nothing to forge.  The mail system in front of
 * the judge (the admin's Postfix with OpenDKIM and OpenDMARC, rspamd, or
 * the provider of the judge's IMAP inbox) checks DKIM and DMARC and
 * writes what it found into the mail; the judge only has to read that,
 * and must not read what a sender wrote there instead.
 *
 * Every byte is hostile.  The header block is read once, top down, with
 * fixed buffers: a field is unfolded into at most AR_FIELD_MAX bytes (a
 * longer Authentication-Results field is unreadable, and so adds
 * nothing), comments nest at most AR_COMMENT_DEPTH deep, at most
 * AR_MAX_TRUSTED fields are read.  Nothing is allocated.
 *
 * The grammar read (RFC 8601 section 2.2), leniently where real mail
 * systems are (Gmail's header.b=ab+/= values, Fastmail's x-bits=2048
 * bare properties):
 *
 *     authserv-id [version] ( "; none" / 1*( ";" method[/ver]=result
 *         [reason=value] *( ptype.property=value ) ) )
 *
 * with (comments) and "quoted strings" anywhere; an authserv-id written
 * "host/jobid" (OpenDKIM's AuthservIDWithJobID) is the host; a version
 * other than 1 makes the field unknown (ignored, RFC 8601 2.2).  A field
 * without an authserv-id (Outlook.com writes "spf=pass ..." first) is
 * unreadable.  Within a result, an item that is not key=value is
 * skipped; a result without method=result makes the whole field
 * unreadable.
 *
 * Which fields are trusted.  Only those whose authserv-id is one of
 * `trusted` (case-insensitive) and that the trusted host added.  A host
 * adds its fields at the top of the header, above or just below the
 * Received: field that records its receipt of the mail: Postfix puts its
 * milters' fields (OpenDKIM's, OpenDMARC's) above its own Received:
 * field (seen in tests/scripts/mail-auth.sh); Gmail writes its own just
 * below its Received: field.  Everything below was written before the
 * mail reached the host, by the sender.  So, reading top down:
 *   - the first field with a trusted authserv-id starts the trusted
 *     group; trusted fields after it belong to the group until the next
 *     Received: field, which ends it: nothing below is read;
 *   - a Received: field whose "by" host is a trusted authserv-id marks
 *     the trusted host's receipt; a later Received: field whose "by" host
 *     is not trusted was written by a host before it (the sender's), and
 *     nothing from there down is read, even when no trusted field was
 *     found above.
 * Behind Postfix that leaves every field the sender wrote out: they are
 * below Postfix's Received: field.  Where a host writes its fields below
 * its Received: field (Gmail) and the sender connected to it directly
 * (so wrote no Received: field of its own), a field the sender wrote
 * with the trusted authserv-id would sit right below the host's own.
 * RFC 8601 section 5 therefore asks the trusted host to remove, on
 * arrival, the Authentication-Results fields carrying its own
 * authserv-id; judged(8) says how (Postfix header_checks; OpenDKIM
 * itself drops only those that carry DKIM results, OpenDMARC none).  The
 * positional rules above are the second wall, and a DMARC failure always
 * wins over a pass (so a forged "dmarc=pass" next to the real
 * "dmarc=fail" changes nothing).
 *
 * The class, from the trusted group's results:
 *   - FORGED: a dmarc=fail whose header.from is the From: domain;
 *   - AUTHENTICATED: else a dmarc=pass whose header.from is the From:
 *     domain; or, when there is no DMARC result at all (none, or
 *     OpenDMARC's bestguesspass, count as none: the domain publishes no
 *     DMARC record), a dkim=pass whose header.d (or the domain of
 *     header.i) is aligned with the From: domain: equal, or one a
 *     subdomain of the other (a signature verifies only with a key in
 *     the signing domain's DNS, so this relaxed rule without a public
 *     suffix list cannot be used by someone without that DNS);
 *   - UNKNOWN: anything else, and always when ntrusted is 0.
 */
#include "mail/authres.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define AR_FIELD_MAX 8192    /* an unfolded Authentication-Results field */
#define AR_RECEIVED_MAX 1024 /* the part of a Received: field read */
#define AR_MAX_TRUSTED 32    /* trusted fields read */
#define AR_COMMENT_DEPTH 16
#define AR_KEY_MAX 64
#define AR_VALUE_MAX 256
#define AR_DOMAIN_SHOWN 80 /* a domain's bytes in the verdict line */

const char *dj_auth_class_name(dj_auth_class cls)
{
    switch (cls) {
    case DJ_AUTH_AUTHENTICATED:
        return "authenticated";
    case DJ_AUTH_FORGED:
        return "forged";
    default:
        return "unknown";
    }
}

/* ---- the lexer over one unfolded field value --------------------------- */

typedef struct {
    const char *s;
    size_t n, i;
    bool bad; /* an unterminated comment or quoted string */
} lex;

static bool is_wsp(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Skip white space and (nested (comments)), quoted pairs included. */
static void skip_cfws(lex *l)
{
    while (l->i < l->n) {
        unsigned char c = (unsigned char)l->s[l->i];
        if (is_wsp(c)) {
            l->i++;
            continue;
        }
        if (c != '(')
            return;
        int depth = 0;
        while (l->i < l->n) {
            c = (unsigned char)l->s[l->i++];
            if (c == '\\' && l->i < l->n)
                l->i++;
            else if (c == '(') {
                if (++depth > AR_COMMENT_DEPTH) {
                    l->bad = true;
                    l->i = l->n;
                    return;
                }
            } else if (c == ')' && --depth == 0)
                break;
        }
        if (depth > 0)
            l->bad = true; /* unterminated: ran to the end */
    }
}

static bool at(const lex *l, char c)
{
    return l->i < l->n && l->s[l->i] == c;
}

/* Copy into out (size outsz, NUL-terminated, cut silently: a cut value
 * matches nothing it should not, see the callers). */
static void put(char *out, size_t outsz, size_t *k, char c)
{
    if (*k + 1 < outsz)
        out[(*k)++] = c;
}

/* A quoted string at l->i (the opening quote); its content to out. */
static void read_quoted(lex *l, char *out, size_t outsz)
{
    size_t k = 0;
    l->i++;
    while (l->i < l->n) {
        char c = l->s[l->i++];
        if (c == '"') {
            out[k] = '\0';
            return;
        }
        if (c == '\\' && l->i < l->n)
            c = l->s[l->i++];
        put(out, outsz, &k, c);
    }
    l->bad = true;
    out[k] = '\0';
}

/* A key: method, result, ptype.property, authserv-id (may hold '.', '/',
 * '-', '@'; stops at space, comment, quote, ';' and '='). */
static size_t read_key(lex *l, char *out, size_t outsz)
{
    size_t k = 0, start = l->i;
    while (l->i < l->n) {
        unsigned char c = (unsigned char)l->s[l->i];
        if (is_wsp(c) || c == '(' || c == ')' || c == '"' || c == ';' ||
            c == '=' || c < 0x20 || c == 0x7f)
            break;
        put(out, outsz, &k, (char)c);
        l->i++;
    }
    out[k] = '\0';
    return l->i - start;
}

/* A value: a quoted string, or a run up to space, comment or ';' ('='
 * and '/' included: base64 in header.b). */
static void read_value(lex *l, char *out, size_t outsz)
{
    if (at(l, '"')) {
        read_quoted(l, out, outsz);
        return;
    }
    size_t k = 0;
    while (l->i < l->n) {
        unsigned char c = (unsigned char)l->s[l->i];
        if (is_wsp(c) || c == '(' || c == ')' || c == '"' || c == ';' ||
            c < 0x20 || c == 0x7f)
            break;
        put(out, outsz, &k, (char)c);
        l->i++;
    }
    out[k] = '\0';
}

/* ---- domains ------------------------------------------------------------ */

/* The domain of a value: after the last '@' ("@example.org" of
 * header.i, "user@example.org"), without a final dot. */
static void domain_of(const char *v, char *out, size_t outsz)
{
    const char *at_sign = strrchr(v, '@');
    snprintf(out, outsz, "%s", at_sign ? at_sign + 1 : v);
    size_t n = strlen(out);
    if (n && out[n - 1] == '.')
        out[n - 1] = '\0';
}

static bool same_domain(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    if (na && a[na - 1] == '.')
        na--;
    if (nb && b[nb - 1] == '.')
        nb--;
    return na && na == nb && strncasecmp(a, b, na) == 0;
}

/* Is sub equal to dom or a subdomain of it ("x.example.org" of
 * "example.org")?  dom must hold a dot (never a bare top-level domain). */
static bool under(const char *sub, const char *dom)
{
    size_t ns = strlen(sub), nd = strlen(dom);
    if (!nd || !strchr(dom, '.') || ns < nd)
        return false;
    if (ns == nd)
        return strcasecmp(sub, dom) == 0;
    return sub[ns - nd - 1] == '.' && strcasecmp(sub + ns - nd, dom) == 0;
}

static bool aligned(const char *d, const char *from)
{
    return under(d, from) || under(from, d);
}

/* A domain for the verdict line: host characters only, lower case. */
static void shown(const char *v, char *out, size_t outsz)
{
    size_t k = 0;
    for (; *v && k < AR_DOMAIN_SHOWN; v++) {
        unsigned char c = (unsigned char)*v;
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
            c == '-' || c == '_')
            put(out, outsz, &k, (char)c);
        else if (c >= 'A' && c <= 'Z')
            put(out, outsz, &k, (char)(c - 'A' + 'a'));
        else
            put(out, outsz, &k, '?');
    }
    out[k] = '\0';
}

/* ---- what the trusted group says ---------------------------------------- */

typedef struct {
    bool dmarc_fail, dmarc_pass; /* for the From: domain */
    bool dmarc_result;           /* any DMARC result but none */
    bool dkim_pass;              /* aligned with the From: domain */
    char dkim_d[AR_VALUE_MAX];
    /* the first other DMARC result, for an unknown verdict */
    char other_method[8], other_result[32], other_domain[AR_VALUE_MAX];
    bool other;
} findings;

static bool is_trusted(const char *id, const char *const *trusted,
                       size_t ntrusted)
{
    size_t n = strcspn(id, "/"); /* "host/jobid" */
    for (size_t t = 0; t < ntrusted; t++) {
        const char *tr = trusted[t];
        if (tr && *tr && strlen(tr) == n && strncasecmp(id, tr, n) == 0)
            return true;
    }
    return false;
}

/* One result: method=result and its properties, already read. */
static void note_result(findings *f, const char *method, const char *result,
                        const char *hfrom, const char *dkim_d,
                        const char *from_domain)
{
    if (strcasecmp(method, "dmarc") == 0) {
        bool none = strcasecmp(result, "none") == 0 ||
                    strcasecmp(result, "bestguesspass") == 0;
        if (!none)
            f->dmarc_result = true;
        bool ours = hfrom[0] && same_domain(hfrom, from_domain);
        if (ours && strcasecmp(result, "fail") == 0)
            f->dmarc_fail = true;
        else if (ours && strcasecmp(result, "pass") == 0)
            f->dmarc_pass = true;
        else if (!none && !f->other) {
            f->other = true;
            snprintf(f->other_method, sizeof f->other_method, "dmarc");
            snprintf(f->other_result, sizeof f->other_result, "%.31s", result);
            snprintf(f->other_domain, sizeof f->other_domain, "%s", hfrom);
        }
    } else if (strcasecmp(method, "dkim") == 0 &&
               strcasecmp(result, "pass") == 0 && dkim_d[0] &&
               aligned(dkim_d, from_domain) && !f->dkim_pass) {
        f->dkim_pass = true;
        snprintf(f->dkim_d, sizeof f->dkim_d, "%s", dkim_d);
    }
}

/*
 * Read one unfolded Authentication-Results value.  *id receives the
 * authserv-id ("" when there is none).  When the field is readable and
 * `into` is not NULL, its results are added to *into.  Returns false for
 * an unreadable field.
 */
static bool read_field(const char *s, size_t n, char *id, size_t idsz,
                       const char *from_domain, findings *into)
{
    lex l = {s, n, 0, false};
    findings f;
    memset(&f, 0, sizeof f);
    id[0] = '\0';
    skip_cfws(&l);
    if (at(&l, '"'))
        read_quoted(&l, id, idsz);
    else if (!read_key(&l, id, idsz))
        return false;
    skip_cfws(&l);
    if (l.i < l.n && l.s[l.i] >= '0' && l.s[l.i] <= '9') {
        char ver[AR_KEY_MAX];
        read_key(&l, ver, sizeof ver);
        if (strcmp(ver, "1") != 0)
            return false; /* a version we do not know */
        skip_cfws(&l);
    }
    if (!at(&l, ';'))
        return false; /* "spf=pass ..." without an authserv-id, or junk */
    bool any = false;
    while (at(&l, ';')) {
        l.i++;
        skip_cfws(&l);
        if (l.i >= l.n && any)
            break; /* a trailing ';' */
        char method[AR_KEY_MAX], result[AR_KEY_MAX];
        if (!read_key(&l, method, sizeof method))
            return false;
        skip_cfws(&l);
        if (!at(&l, '=')) {
            if (!any && strcasecmp(method, "none") == 0 && l.i >= l.n)
                return !l.bad; /* "; none": no results */
            return false;
        }
        l.i++;
        skip_cfws(&l);
        if (!read_key(&l, result, sizeof result))
            return false;
        method[strcspn(method, "/")] = '\0'; /* method/version */
        char hfrom[AR_VALUE_MAX] = "", dkim_d[AR_VALUE_MAX] = "";
        char hi[AR_VALUE_MAX] = "";
        for (;;) {
            skip_cfws(&l);
            if (l.i >= l.n || at(&l, ';'))
                break;
            char key[AR_KEY_MAX], value[AR_VALUE_MAX];
            size_t before = l.i;
            if (at(&l, '"'))
                read_quoted(&l, key, sizeof key);
            else
                read_key(&l, key, sizeof key);
            skip_cfws(&l);
            if (!at(&l, '=')) {
                if (l.i == before)
                    l.i++; /* a stray '=' or ')': step over it */
                continue;  /* a bare word: skipped */
            }
            l.i++;
            skip_cfws(&l);
            read_value(&l, value, sizeof value);
            if (strcasecmp(key, "header.from") == 0)
                domain_of(value, hfrom, sizeof hfrom);
            else if (strcasecmp(key, "header.d") == 0)
                domain_of(value, dkim_d, sizeof dkim_d);
            else if (strcasecmp(key, "header.i") == 0)
                domain_of(value, hi, sizeof hi);
        }
        if (!dkim_d[0])
            snprintf(dkim_d, sizeof dkim_d, "%s", hi);
        note_result(&f, method, result, hfrom, dkim_d, from_domain);
        any = true;
    }
    if (l.i < l.n || l.bad)
        return false;
    if (into) {
        into->dmarc_fail |= f.dmarc_fail;
        into->dmarc_pass |= f.dmarc_pass;
        into->dmarc_result |= f.dmarc_result;
        if (f.dkim_pass && !into->dkim_pass) {
            into->dkim_pass = true;
            memcpy(into->dkim_d, f.dkim_d, sizeof into->dkim_d);
        }
        if (f.other && !into->other) {
            into->other = true;
            memcpy(into->other_method, f.other_method,
                   sizeof into->other_method);
            memcpy(into->other_result, f.other_result,
                   sizeof into->other_result);
            memcpy(into->other_domain, f.other_domain,
                   sizeof into->other_domain);
        }
    }
    return true;
}

/* The "by" host of an unfolded Received: value ("" when none). */
static void received_by(const char *s, size_t n, char *out, size_t outsz)
{
    lex l = {s, n, 0, false};
    out[0] = '\0';
    char word[AR_VALUE_MAX];
    bool next_is_host = false;
    for (;;) {
        skip_cfws(&l);
        if (l.i >= l.n || at(&l, ';'))
            return; /* the date follows the last ';' */
        if (at(&l, '"') || at(&l, '=') || at(&l, ')')) {
            if (at(&l, '"'))
                read_quoted(&l, word, sizeof word);
            else
                l.i++;
            next_is_host = false;
            continue;
        }
        if (!read_key(&l, word, sizeof word)) {
            l.i++; /* a control character */
            next_is_host = false;
            continue;
        }
        if (next_is_host) {
            domain_of(word, out, outsz);
            return;
        }
        next_is_host = strcasecmp(word, "by") == 0;
    }
}

/* ---- the header block ---------------------------------------------------- */

/* Unfold the value of the field whose value starts at p (just after the
 * ':') into buf (at most bufsz - 1 bytes); returns the offset after the
 * field's last line, *cut when it did not fit. */
static size_t unfold(const char *h, size_t len, size_t p, char *buf,
                     size_t bufsz, size_t *outlen, bool *cut)
{
    size_t k = 0;
    *cut = false;
    for (;;) {
        while (p < len && h[p] != '\n') {
            char c = h[p++];
            if (c == '\r')
                continue;
            if (c == '\0')
                c = ' ';
            if (k + 1 < bufsz)
                buf[k++] = c;
            else
                *cut = true;
        }
        if (p < len)
            p++; /* the '\n' */
        if (p < len && (h[p] == ' ' || h[p] == '\t'))
            continue; /* a folded line */
        break;
    }
    buf[k] = '\0';
    *outlen = k;
    return p;
}

static bool name_is(const char *h, size_t nlen, const char *name)
{
    return strlen(name) == nlen && strncasecmp(h, name, nlen) == 0;
}

void dj_authres_evaluate(const char *headers, size_t len,
                         const char *from_domain, const char *const *trusted,
                         size_t ntrusted, dj_auth_verdict *out)
{
    out->cls = DJ_AUTH_UNKNOWN;
    if (!ntrusted || !trusted) {
        snprintf(out->verdict, sizeof out->verdict,
                 "authentication not configured");
        return;
    }
    if (!from_domain || !*from_domain) {
        snprintf(out->verdict, sizeof out->verdict, "no From: domain");
        return;
    }
    if (!headers)
        len = 0;
    findings f;
    memset(&f, 0, sizeof f);
    char buf[AR_FIELD_MAX];
    size_t nread = 0;
    bool group = false, hop = false;
    size_t p = 0;
    while (p < len) {
        if (headers[p] == '\n' ||
            (headers[p] == '\r' && p + 1 < len && headers[p + 1] == '\n'))
            break; /* the empty line: end of the header */
        /* the field name, up to ':' on this line */
        size_t q = p;
        while (q < len && headers[q] != ':' && headers[q] != '\n')
            q++;
        size_t nlen = q - p;
        while (nlen && (headers[p + nlen - 1] == ' ' ||
                        headers[p + nlen - 1] == '\t'))
            nlen--;
        if (q >= len || headers[q] != ':') {
            /* not a field (an mbox "From " line, junk): skip the line */
            while (p < len && headers[p] != '\n')
                p++;
            p++;
            continue;
        }
        bool ar = name_is(headers + p, nlen, "Authentication-Results");
        bool rcvd = name_is(headers + p, nlen, "Received");
        size_t vlen;
        bool cut;
        size_t next = unfold(headers, len, q + 1, buf,
                             rcvd ? AR_RECEIVED_MAX : sizeof buf, &vlen, &cut);
        if (rcvd) {
            if (group)
                break; /* the trusted group ends: nothing below counts */
            char by[AR_VALUE_MAX];
            received_by(buf, vlen, by, sizeof by);
            if (by[0] && is_trusted(by, trusted, ntrusted))
                hop = true;
            else if (hop)
                break; /* written before the trusted host got the mail */
        } else if (ar && nread < AR_MAX_TRUSTED) {
            char id[AR_VALUE_MAX];
            read_field(buf, vlen, id, sizeof id, from_domain, NULL);
            if (id[0] && is_trusted(id, trusted, ntrusted)) {
                group = true;
                nread++;
                if (!cut)
                    read_field(buf, vlen, id, sizeof id, from_domain, &f);
            }
        }
        p = next;
    }
    char d[AR_DOMAIN_SHOWN + 1];
    if (f.dmarc_fail) {
        out->cls = DJ_AUTH_FORGED;
        shown(from_domain, d, sizeof d);
        snprintf(out->verdict, sizeof out->verdict, "dmarc=fail header.from=%s",
                 d);
    } else if (f.dmarc_pass) {
        out->cls = DJ_AUTH_AUTHENTICATED;
        shown(from_domain, d, sizeof d);
        snprintf(out->verdict, sizeof out->verdict, "dmarc=pass header.from=%s",
                 d);
    } else if (!f.dmarc_result && f.dkim_pass) {
        out->cls = DJ_AUTH_AUTHENTICATED;
        shown(f.dkim_d, d, sizeof d);
        snprintf(out->verdict, sizeof out->verdict, "dkim=pass header.d=%s", d);
    } else if (f.other) {
        char r[24];
        shown(f.other_domain, d, sizeof d);
        shown(f.other_result, r, sizeof r);
        snprintf(out->verdict, sizeof out->verdict, "%.7s=%.23s header.from=%s",
                 f.other_method, r, d[0] ? d : "?");
    } else if (group) {
        snprintf(out->verdict, sizeof out->verdict,
                 "no DMARC pass or aligned DKIM pass");
    } else {
        snprintf(out->verdict, sizeof out->verdict,
                 "no trusted Authentication-Results");
    }
}
