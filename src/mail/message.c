/* SPDX-License-Identifier: MIT */
/*
 * message.c — dj_message_parse(): raw mail in, a dj_message out (see
 * message.h for the contract).
 *
 * The order of work is chosen so that hostile mail costs little and a
 * refusal can still be answered:
 *   1. Find the header section (bounded by max_header) and parse only it
 *      with libetpan's RFC 5322 parser: addresses, subject, ids, date,
 *      and every sign of automatic mail.  This is all a polite refusal
 *      or a duplicate check needs.
 *   2. Check the whole-message limits: size, then the number of
 *      Content-Type fields and of lines starting with "--".  They are
 *      cheap upper bounds on MIME nesting and on MIME parts: libetpan
 *      recurses once per nesting level with no limit of its own (a few
 *      thousand nested message/rfc822 parts overflow the stack) and
 *      allocates per part, so it must never see mail over them.
 *   3. Parse the MIME structure, pick and decode the body
 *      (mime_body.c), clean it (mime_clean.c), and check the line limits
 *      on what the command parser would read.
 * Any limit hit returns DJ_MSG_ELIMIT with the headers filled and no
 * body, so half a message can never be taken as orders.
 *
 * Every libetpan structure is freed before returning; every string
 * copied out is bounded by its field and valid UTF-8.
 */
#define _POSIX_C_SOURCE 200809L
#include "mail/message.h"
#include "mail/mime_int.h"

#include <libetpan/libetpan.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "util/fmt.h"

/* ---- small helpers -------------------------------------------------- */

/* Copy UTF-8 text into a fixed field, cut on a character boundary. */
static void copy_field(char *dst, size_t cap, const char *s, size_t n)
{
    dj_buf b;
    dj_buf_init(&b);
    if (!dj_mime_utf8_valid(s, n)) {
        /* raw header bytes (an mbox From_ line, an undecoded value):
         * read as the MIME reader reads undeclared text */
        dj_mime_to_utf8(NULL, s, n, &b);
        if (dj_buf_ok(&b)) {
            s = b.data;
            n = b.len;
        } else {
            n = 0;
        }
    }
    size_t k = dj_mime_utf8_fit(s, n, cap);
    memcpy(dst, s, k);
    dst[k] = '\0';
    dj_buf_free(&b);
}

/* Decode a header value (RFC 2047, unfolding) into a fixed field. */
static bool decode_field(char *dst, size_t cap, const char *raw)
{
    dj_buf b;
    dj_buf_init(&b);
    dj_mime_decode_header(raw, strlen(raw), &b);
    bool ok = dj_buf_ok(&b);
    copy_field(dst, cap, b.data, b.len);
    dj_buf_free(&b);
    return ok;
}

static bool eq_ci(const char *a, const char *b)
{
    return strcasecmp(a, b) == 0;
}

/* The first word of a decoded header value, lower-cased, e.g. "bulk"
 * from "Bulk (out of office)". */
static void first_token(const char *value, char *tok, size_t cap)
{
    size_t k = 0;
    while (*value == ' ')
        value++;
    for (; *value && *value != ' ' && *value != ';' && *value != '(' &&
           k + 1 < cap;
         value++)
        tok[k++] =
            (char)((*value >= 'A' && *value <= 'Z') ? *value + 32 : *value);
    tok[k] = '\0';
}

/* ---- addresses ------------------------------------------------------ */

static bool addr_char_ok(unsigned char c)
{
    if (c >= 0x80)
        return true; /* UTF-8 (RFC 6531); validated as a whole below */
    if (c <= ' ' || c == 0x7F)
        return false;
    return !strchr("<>()[],;:\\\"", c);
}

/* local@domain, printable, not over-long: what we could ever reply to.
 * libetpan hands back whatever it could not parse as the address, so
 * "x <<y@z" must be refused here. */
static bool plausible_addr(const char *a)
{
    size_t n = strlen(a);
    const char *at = strrchr(a, '@');
    if (n == 0 || n >= DJ_MSG_ADDR_MAX || !at || at == a || !at[1])
        return false;
    if (strchr(a, '@') != at || !dj_mime_utf8_valid(a, n))
        return false;
    for (size_t i = 0; i < n; i++)
        if (a[i] != '@' && !addr_char_ok((unsigned char)a[i]))
            return false;
    return true;
}

static bool is_mailer_daemon(const char *a)
{
    return strncasecmp(a, "mailer-daemon", 13) == 0 &&
           (a[13] == '\0' || a[13] == '@');
}

/* libetpan leaves a quote on names like "=?utf-8?Q?Zo=C3=AB?= Adler"
 * (an encoded word inside quotes, which RFC 2047 forbids and every
 * client writes); names never need quotes at their ends. */
static void strip_quotes(char *name)
{
    size_t n = strlen(name), start = 0;
    while (start < n && (name[start] == '"' || name[start] == ' '))
        start++;
    while (n > start && (name[n - 1] == '"' || name[n - 1] == ' '))
        n--;
    memmove(name, name + start, n - start);
    name[n - start] = '\0';
}

static bool set_mailbox(dj_mailbox *dst, const struct mailimf_mailbox *mb)
{
    if (!mb || !mb->mb_addr_spec)
        return true;
    if (plausible_addr(mb->mb_addr_spec))
        copy_field(dst->addr, sizeof dst->addr, mb->mb_addr_spec,
                   strlen(mb->mb_addr_spec));
    if (!mb->mb_display_name)
        return true;
    bool ok = decode_field(dst->name, sizeof dst->name, mb->mb_display_name);
    strip_quotes(dst->name);
    return ok;
}

/* The mailboxes of an address, a group's included. */
static clist *address_mailboxes(const struct mailimf_address *a,
                                const struct mailimf_mailbox **single)
{
    *single = NULL;
    if (!a)
        return NULL;
    if (a->ad_type == MAILIMF_ADDRESS_MAILBOX) {
        *single = a->ad_data.ad_mailbox;
        return NULL;
    }
    if (a->ad_type == MAILIMF_ADDRESS_GROUP && a->ad_data.ad_group &&
        a->ad_data.ad_group->grp_mb_list)
        return a->ad_data.ad_group->grp_mb_list->mb_list;
    return NULL;
}

static const struct mailimf_mailbox *
first_mailbox(const struct mailimf_address_list *l)
{
    if (!l || !l->ad_list)
        return NULL;
    for (clistiter *it = clist_begin(l->ad_list); it; it = clist_next(it)) {
        const struct mailimf_mailbox *mb;
        clist *group = address_mailboxes(clist_content(it), &mb);
        if (mb)
            return mb;
        if (group && clist_begin(group))
            return clist_content(clist_begin(group));
    }
    return NULL;
}

/* Append one address to a ", "-separated list if it fits whole. */
static void list_add(char *dst, size_t cap, const struct mailimf_mailbox *mb)
{
    if (!mb || !mb->mb_addr_spec || !plausible_addr(mb->mb_addr_spec))
        return;
    size_t have = strlen(dst), add = strlen(mb->mb_addr_spec);
    size_t sep = have ? 2 : 0;
    if (have + sep + add + 1 > cap)
        return;
    memcpy(dst + have, ", ", sep);
    memcpy(dst + have + sep, mb->mb_addr_spec, add + 1);
}

static void list_addresses(char *dst, size_t cap,
                           const struct mailimf_address_list *l)
{
    if (!l || !l->ad_list)
        return;
    for (clistiter *it = clist_begin(l->ad_list); it; it = clist_next(it)) {
        const struct mailimf_mailbox *mb;
        clist *group = address_mailboxes(clist_content(it), &mb);
        list_add(dst, cap, mb);
        for (clistiter *g = group ? clist_begin(group) : NULL; g;
             g = clist_next(g))
            list_add(dst, cap, clist_content(g));
    }
}

/* ---- the judge's own address ----------------------------------------- */

bool dj_address_is_judges(const char *addr, const char *judge)
{
    if (!addr || !judge || !*addr || !*judge)
        return false;
    if (strcasecmp(addr, judge) == 0)
        return true;
    const char *at = strrchr(addr, '@'), *jat = strrchr(judge, '@');
    const char *plus = strchr(addr, '+');
    if (!at || !jat || !plus || plus > at)
        return false;
    size_t local = (size_t)(plus - addr);
    return local == (size_t)(jat - judge) &&
           strncasecmp(addr, judge, local) == 0 && strcasecmp(at, jat) == 0;
}

/* ---- automatic mail ------------------------------------------------- */

static void flag(dj_message *m, unsigned f, const char *name, const char *value)
{
    m->flags |= f;
    if (m->auto_reason[0])
        return;
    /* Room for both whole, so the cut below lands on a UTF-8 boundary
     * (snprintf would cut anywhere). */
    char buf[2 * DJ_MSG_VALUE_MAX + 4];
    snprintf(buf, sizeof buf, "%.*s: %.*s", DJ_MSG_VALUE_MAX, name,
             DJ_MSG_VALUE_MAX, value);
    copy_field(m->auto_reason, sizeof m->auto_reason, buf, strlen(buf));
}

/* An envelope sender (or Return-Path) of "" / "<>" is a bounce, and so
 * is MAILER-DAEMON; a garbled one is treated as unknown. */
static void set_return_path(dj_message *m, const char *addr, const char *source)
{
    char tmp[DJ_MSG_ADDR_MAX];
    size_t n = strlen(addr);
    if (n >= 2 && addr[0] == '<' && addr[n - 1] == '>') {
        addr++;
        n -= 2;
    }
    if (n >= sizeof tmp)
        return;
    memcpy(tmp, addr, n);
    tmp[n] = '\0';
    if (n == 0 || is_mailer_daemon(tmp)) {
        m->return_path_known = true;
        flag(m, DJ_MSG_BOUNCE, source, n ? tmp : "<>");
        if (!plausible_addr(tmp))
            return;
    } else if (!plausible_addr(tmp)) {
        return;
    }
    m->return_path_known = true;
    memcpy(m->return_path, tmp, n + 1);
}

/* A top-level Content-Type seen in the header: a report is a bounce (or
 * a read receipt) even when the body is never parsed (over a limit). */
static void note_content_type(dj_message *m, const char *value)
{
    char tok[32];
    first_token(value, tok, sizeof tok);
    if (strcmp(tok, "multipart/report") != 0)
        return;
    if (strstr(value, "disposition-notification"))
        flag(m, DJ_MSG_AUTO, "Content-Type", "multipart/report");
    else
        flag(m, DJ_MSG_BOUNCE, "Content-Type", "multipart/report");
}

/* Returns false when out of memory. */
static bool note_optional(dj_message *m, const char *name, const char *raw,
                          const dj_message_limits *lim)
{
    char value[DJ_MSG_VALUE_MAX], tok[32];
    bool ok = decode_field(value, sizeof value, raw);
    first_token(value, tok, sizeof tok);
    if (eq_ci(name, "X-Loop")) {
        if (!m->x_loop[0])
            memcpy(m->x_loop, value, sizeof value);
        if (lim->own_loop && *lim->own_loop &&
            (eq_ci(value, lim->own_loop) ||
             dj_address_is_judges(value, lim->own_loop)))
            flag(m, DJ_MSG_LOOP, "X-Loop", value);
    } else if (eq_ci(name, "Auto-Submitted")) {
        if (strcmp(tok, "no") != 0)
            flag(m, DJ_MSG_AUTO, "Auto-Submitted", value);
    } else if (eq_ci(name, "Precedence")) {
        if (!strcmp(tok, "bulk") || !strcmp(tok, "junk"))
            flag(m, DJ_MSG_AUTO, "Precedence", value);
        else if (!strcmp(tok, "list"))
            flag(m, DJ_MSG_LIST, "Precedence", value);
    } else if (eq_ci(name, "List-Id") || eq_ci(name, "List-Post") ||
               eq_ci(name, "List-Unsubscribe")) {
        flag(m, DJ_MSG_LIST, name, value);
    } else if (eq_ci(name, "X-Autoreply") || eq_ci(name, "X-Autorespond") ||
               eq_ci(name, "X-Autogenerated")) {
        flag(m, DJ_MSG_AUTO, name, value);
    } else if (eq_ci(name, "X-Failed-Recipients")) {
        flag(m, DJ_MSG_BOUNCE, name, value);
    } else if (eq_ci(name, "Content-Type")) {
        note_content_type(m, value);
    }
    return ok;
}

/* ---- ids and dates -------------------------------------------------- */

static bool plausible_id(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n >= DJ_MSG_ID_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)id[i] <= ' ' || (unsigned char)id[i] >= 0x7F ||
            id[i] == '<' || id[i] == '>')
            return false;
    return true;
}

/* FNV-1a over the bytes, CRs skipped so CRLF and LF copies agree.  Not a
 * security measure (senders choose their Message-ID anyway): only a
 * stable name for mail that has none. */
static void hash_id(const char *raw, size_t len, char *dst, size_t cap)
{
    uint64_t h = 0xcbf29ce484222325u;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (raw[i] == '\r')
            continue;
        h ^= (unsigned char)raw[i];
        h *= 0x100000001b3u;
        n++;
    }
    snprintf(dst, cap, "%016llx.%zu@hash.dipjudge.invalid",
             (unsigned long long)h, n);
}

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t days_from_civil(int64_t y, int mon, int d)
{
    y -= mon <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (mon + (mon > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static void set_date(dj_message *m, const struct mailimf_date_time *t)
{
    int y = t->dt_year;
    if (y >= 0 && y < 50) /* RFC 5322 4.3: two-digit years */
        y += 2000;
    else if (y >= 50 && y < 1000)
        y += 1900;
    int zone = t->dt_zone < 0 ? -t->dt_zone : t->dt_zone;
    if (y < 1970 || y > 9999 || t->dt_month < 1 || t->dt_month > 12 ||
        t->dt_day < 1 || t->dt_day > 31 || t->dt_hour < 0 || t->dt_hour > 23 ||
        t->dt_min < 0 || t->dt_min > 59 || t->dt_sec < 0 || t->dt_sec > 60 ||
        zone > 2359 || zone % 100 > 59)
        return;
    int64_t offset = (int64_t)(zone / 100 * 3600 + zone % 100 * 60);
    if (t->dt_zone < 0)
        offset = -offset;
    int64_t s = days_from_civil(y, t->dt_month, t->dt_day) * 86400 +
                t->dt_hour * 3600 + t->dt_min * 60 + t->dt_sec - offset;
    time_t tt = (time_t)s;
    struct tm tm;
    if (s <= 0 || !gmtime_r(&tt, &tm))
        return;
    m->date_utc = s;
    strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- the header section --------------------------------------------- */

/* Where the header section ends (just past its last line), or len when
 * the message has no empty line; 0 when it starts with one. */
static size_t header_end(const char *s, size_t len, size_t max)
{
    if (len > 0 && (s[0] == '\n' || (len > 1 && s[0] == '\r' && s[1] == '\n')))
        return 0;
    size_t lim = len < max ? len : max;
    for (size_t i = 0; i < lim; i++) {
        if (s[i] != '\n')
            continue;
        if (i + 1 < len && s[i + 1] == '\n')
            return i + 1;
        if (i + 2 < len && s[i + 1] == '\r' && s[i + 2] == '\n')
            return i + 1;
    }
    return len <= max ? len : (size_t)-1;
}

/* A "From sender date" line (mbox, procmail, Postfix pipe flag F) ahead
 * of the header: its length, so the parse can skip it. */
static size_t mbox_from_line(const char *raw, size_t len)
{
    if (len < 5 || memcmp(raw, "From ", 5) != 0)
        return 0;
    const char *nl = memchr(raw, '\n', len);
    return nl ? (size_t)(nl - raw) + 1 : len;
}

static bool note_field(dj_message *m, const struct mailimf_field *f,
                       const dj_message_limits *lim)
{
    bool ok = true;
    switch (f->fld_type) {
    case MAILIMF_FIELD_FROM:
        if (!m->from.addr[0] && f->fld_data.fld_from &&
            f->fld_data.fld_from->frm_mb_list &&
            f->fld_data.fld_from->frm_mb_list->mb_list) {
            clistiter *it =
                clist_begin(f->fld_data.fld_from->frm_mb_list->mb_list);
            if (it)
                ok = set_mailbox(&m->from, clist_content(it));
        }
        break;
    case MAILIMF_FIELD_SENDER:
        if (!m->sender.addr[0] && f->fld_data.fld_sender)
            ok = set_mailbox(&m->sender, f->fld_data.fld_sender->snd_mb);
        break;
    case MAILIMF_FIELD_REPLY_TO:
        if (!m->reply_to.addr[0] && f->fld_data.fld_reply_to)
            ok = set_mailbox(
                &m->reply_to,
                first_mailbox(f->fld_data.fld_reply_to->rt_addr_list));
        break;
    case MAILIMF_FIELD_TO:
        if (f->fld_data.fld_to)
            list_addresses(m->to, sizeof m->to,
                           f->fld_data.fld_to->to_addr_list);
        break;
    case MAILIMF_FIELD_CC:
        if (f->fld_data.fld_cc)
            list_addresses(m->cc, sizeof m->cc,
                           f->fld_data.fld_cc->cc_addr_list);
        break;
    case MAILIMF_FIELD_MESSAGE_ID:
        if (!m->message_id[0] && f->fld_data.fld_message_id &&
            plausible_id(f->fld_data.fld_message_id->mid_value))
            strcpy(m->message_id, f->fld_data.fld_message_id->mid_value);
        break;
    case MAILIMF_FIELD_IN_REPLY_TO:
        if (!m->in_reply_to[0] && f->fld_data.fld_in_reply_to &&
            f->fld_data.fld_in_reply_to->mid_list) {
            clistiter *it = clist_begin(f->fld_data.fld_in_reply_to->mid_list);
            const char *id = it ? clist_content(it) : NULL;
            if (id && plausible_id(id))
                strcpy(m->in_reply_to, id);
        }
        break;
    case MAILIMF_FIELD_SUBJECT:
        if (!m->subject[0] && f->fld_data.fld_subject &&
            f->fld_data.fld_subject->sbj_value)
            ok = decode_field(m->subject, sizeof m->subject,
                              f->fld_data.fld_subject->sbj_value);
        break;
    case MAILIMF_FIELD_ORIG_DATE:
        if (!m->date_utc && f->fld_data.fld_orig_date &&
            f->fld_data.fld_orig_date->dt_date_time)
            set_date(m, f->fld_data.fld_orig_date->dt_date_time);
        break;
    case MAILIMF_FIELD_OPTIONAL_FIELD:
        if (f->fld_data.fld_optional_field &&
            f->fld_data.fld_optional_field->fld_name &&
            f->fld_data.fld_optional_field->fld_value)
            ok = note_optional(m, f->fld_data.fld_optional_field->fld_name,
                               f->fld_data.fld_optional_field->fld_value, lim);
        break;
    default:
        break;
    }
    return ok;
}

/* The sender in an mbox "From " line, when nothing better says who. */
static void note_mbox_sender(dj_message *m, const char *line, size_t n)
{
    char who[DJ_MSG_ADDR_MAX];
    size_t i = 5, k = 0;
    while (i < n && line[i] != ' ' && line[i] != '\r' && line[i] != '\n' &&
           k + 1 < sizeof who)
        who[k++] = line[i++];
    who[k] = '\0';
    if (k > 0)
        set_return_path(m, who, "From_");
}

/*
 * Return-Path is read here, not by libetpan: libetpan 1.9.4 leaks memory
 * on an unterminated one ("Return-Path: <a@b" with no '>'), which anyone
 * can send.  In our copy of the header every Return-Path field is
 * renamed to a same-length name libetpan keeps as an unparsed field and
 * we ignore; the value of the first one (the one the delivering MTA
 * added) is copied to *value, unfolded.
 */
#define HIDDEN_NAME "X-DjIgnored" /* as long as "Return-Path" */

static bool field_named(const char *s, size_t n, size_t i, const char *name)
{
    size_t k = strlen(name);
    if (i + k > n || strncasecmp(s + i, name, k) != 0)
        return false;
    for (i += k; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
        ;
    return i < n && s[i] == ':';
}

static void take_return_path(char *s, size_t n, char *value, size_t cap,
                             bool *found)
{
    size_t k = 0;
    *found = false;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && s[i - 1] != '\n')
            continue;
        if (!field_named(s, n, i, "Return-Path"))
            continue;
        memcpy(s + i, HIDDEN_NAME, strlen(HIDDEN_NAME));
        if (*found)
            continue;
        *found = true;
        const char *colon = memchr(s + i, ':', n - i);
        for (size_t j = (size_t)(colon - s) + 1; j < n; j++) {
            if (s[j] == '\n' &&
                !(j + 1 < n && (s[j + 1] == ' ' || s[j + 1] == '\t')))
                break; /* the field ends; a folded line goes on */
            if (s[j] != '\r' && s[j] != '\n' && k + 1 < cap)
                value[k++] = s[j];
        }
    }
    value[k] = '\0';
}

/* The address in a Return-Path value: "<a@b>", "<>", or a bare a@b;
 * NULL when it is neither (unknown). */
static const char *return_path_address(char *v)
{
    char *lt = strchr(v, '<');
    if (lt) {
        char *gt = strchr(lt, '>');
        if (!gt)
            return NULL;
        *gt = '\0';
        v = lt + 1;
    }
    while (*v == ' ' || *v == '\t')
        v++;
    size_t n = strcspn(v, " \t(");
    v[n] = '\0';
    return v;
}

/* Parse the header section s[0..n) into m.  Returns DJ_MSG_*.  Works on
 * a copy (bounded by max_header): Return-Path fields are hidden in it,
 * and a final line end is added when missing (libetpan wants every field
 * ended). */
static int read_header(dj_message *m, const char *s, size_t n,
                       const dj_message_limits *lim)
{
    char *copy = malloc(n + 2);
    if (!copy)
        return DJ_MSG_ENOMEM;
    memcpy(copy, s, n);
    if (n == 0 || s[n - 1] != '\n') {
        memcpy(copy + n, "\r\n", 2);
        n += 2;
    }
    char rp[DJ_MSG_ADDR_MAX * 2];
    bool have_rp;
    take_return_path(copy, n, rp, sizeof rp, &have_rp);
    size_t idx = 0;
    struct mailimf_fields *fields = NULL;
    int r = mailimf_fields_parse(copy, n, &idx, &fields);
    free(copy);
    if (r == MAILIMF_ERROR_MEMORY)
        return DJ_MSG_ENOMEM;
    if (r != MAILIMF_NO_ERROR || !fields)
        return DJ_MSG_EPARSE;
    bool ok = true;
    int count = 0;
    for (clistiter *it = clist_begin(fields->fld_list); it;
         it = clist_next(it), count++)
        ok = note_field(m, clist_content(it), lim) && ok;
    mailimf_fields_free(fields);
    if (!ok)
        return DJ_MSG_ENOMEM;
    if (have_rp && !lim->envelope_sender) {
        const char *a = return_path_address(rp);
        if (a)
            set_return_path(m, a, "Return-Path");
    }
    return count ? DJ_MSG_OK : DJ_MSG_EPARSE;
}

/* ---- the body ------------------------------------------------------- */

/* How many times needle (lower case) occurs in s[0..n), case-blind. */
static size_t count_ci(const char *s, size_t n, const char *needle)
{
    size_t m = strlen(needle), count = 0;
    for (size_t i = 0; i + m <= n; i++) {
        size_t j = 0;
        while (j < m && (s[i + j] | 0x20) == needle[j])
            j++;
        if (j == m) {
            count++;
            i += m - 1;
        }
    }
    return count;
}

/* Lines starting with "--": every MIME part begins at one. */
static size_t count_dash_lines(const char *s, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i + 1 < n; i++)
        if ((i == 0 || s[i - 1] == '\n') && s[i] == '-' && s[i + 1] == '-')
            count++;
    return count;
}

/* Lines and the longest line of a cleaned body. */
static void measure(const char *s, size_t n, size_t *lines, size_t *longest)
{
    size_t start = 0;
    *lines = *longest = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\n')
            continue;
        (*lines)++;
        if (i - start > *longest)
            *longest = i - start;
        start = i + 1;
    }
}

static int check_body_limits(dj_message *m, const dj_buf *b,
                             const dj_message_limits *lim, char *err,
                             size_t errlen)
{
    size_t lines, longest;
    measure(b->data, b->len, &lines, &longest);
    if (lines > lim->max_lines) {
        m->limit_hit = DJ_MSG_LIMIT_LINES;
        dj_fmt(err, errlen, "the message has %zu lines (limit %zu)", lines,
                  lim->max_lines);
        return DJ_MSG_ELIMIT;
    }
    if (longest > lim->max_line_len) {
        m->limit_hit = DJ_MSG_LIMIT_LINE_LENGTH;
        dj_fmt(err, errlen,
                  "a line of the message has %zu bytes (limit %zu)", longest,
                  lim->max_line_len);
        return DJ_MSG_ELIMIT;
    }
    m->body_lines = lines;
    return DJ_MSG_OK;
}

static char *take_buf(dj_buf *b)
{
    char *s = b->cap ? b->data : calloc(1, 1);
    dj_buf_init(b);
    return s;
}

static int read_body(dj_message *m, const char *raw, size_t len,
                     const dj_message_limits *lim, char *err, size_t errlen)
{
    size_t idx = 0;
    struct mailmime *root = NULL;
    int r = mailmime_parse(raw, len, &idx, &root);
    if (r == MAILIMF_ERROR_MEMORY)
        return DJ_MSG_ENOMEM;
    if (r != MAILIMF_NO_ERROR || !root) {
        dj_fmt(err, errlen, "the MIME structure could not be read");
        return DJ_MSG_EPARSE;
    }
    dj_buf text, clean;
    dj_buf_init(&text);
    dj_buf_init(&clean);
    bool bounce = false, receipt = false;
    m->body_source = dj_mime_body_text(root, &text, &bounce, &receipt);
    mailmime_free(root);
    if (bounce)
        flag(m, DJ_MSG_BOUNCE, "Content-Type", "delivery status report");
    if (receipt)
        flag(m, DJ_MSG_AUTO, "Content-Type", "disposition notification");
    dj_mime_clean(text.data, text.len, &clean);
    int rc = dj_buf_ok(&text) && dj_buf_ok(&clean) ? DJ_MSG_OK : DJ_MSG_ENOMEM;
    if (rc == DJ_MSG_OK)
        rc = check_body_limits(m, &clean, lim, err, errlen);
    if (rc == DJ_MSG_OK) {
        m->body_len = clean.len;
        m->body = take_buf(&clean);
        if (!m->body)
            rc = DJ_MSG_ENOMEM;
    }
    dj_buf_free(&text);
    dj_buf_free(&clean);
    return rc;
}

/* ---- the entry points ----------------------------------------------- */

static dj_message_limits resolve_limits(const dj_message_limits *lim)
{
    dj_message_limits l = {0};
    if (lim)
        l = *lim;
    if (!l.max_size)
        l.max_size = DJ_MSG_DEFAULT_MAX_SIZE;
    if (!l.max_header)
        l.max_header = DJ_MSG_DEFAULT_MAX_HEADER;
    if (!l.max_parts)
        l.max_parts = DJ_MSG_DEFAULT_MAX_PARTS;
    if (!l.max_lines)
        l.max_lines = DJ_MSG_DEFAULT_MAX_LINES;
    if (!l.max_line_len)
        l.max_line_len = DJ_MSG_DEFAULT_MAX_LINE_LEN;
    return l;
}

/* Steps 1 and 2 of the file comment: the header, then the limits that
 * apply to the message as a whole. */
static int read_envelope(dj_message *m, const char *raw, size_t len,
                         const dj_message_limits *lim, size_t *header_len,
                         char *err, size_t errlen)
{
    size_t hlen = header_end(raw, len, lim->max_header);
    *header_len = hlen;
    if (hlen == (size_t)-1) {
        m->limit_hit = DJ_MSG_LIMIT_HEADER;
        dj_fmt(err, errlen, "the header is over %zu bytes", lim->max_header);
        return DJ_MSG_ELIMIT;
    }
    int rc = hlen ? read_header(m, raw, hlen, lim) : DJ_MSG_EPARSE;
    if (rc == DJ_MSG_EPARSE)
        dj_fmt(err, errlen, "not a mail message: no header fields");
    if (rc != DJ_MSG_OK)
        return rc;
    if (lim->envelope_sender)
        set_return_path(m, lim->envelope_sender, "envelope sender");
    if (!m->message_id[0]) {
        hash_id(raw, len, m->message_id, sizeof m->message_id);
        m->message_id_hashed = true;
    }
    if (m->from.addr[0] && is_mailer_daemon(m->from.addr))
        flag(m, DJ_MSG_BOUNCE, "From", m->from.addr);
    if (len > lim->max_size) {
        m->limit_hit = DJ_MSG_LIMIT_SIZE;
        dj_fmt(err, errlen, "the message is %zu bytes (limit %zu)", len,
                  lim->max_size);
        return DJ_MSG_ELIMIT;
    }
    /* Content-Type fields bound the nesting; "--" lines bound the parts
     * of each multipart (libetpan builds a structure per delimiter, some
     * 150 bytes, so a 4 MiB run of "--b" lines would cost 100 MB).  Text
     * has a few "--" lines (signatures, rulers), hence the margin. */
    size_t parts = count_ci(raw, len, "content-type");
    size_t dashes = count_dash_lines(raw, len);
    if (parts > lim->max_parts || dashes / 16 > lim->max_parts) {
        m->limit_hit = DJ_MSG_LIMIT_PARTS;
        dj_fmt(err, errlen,
                  "the message has too many MIME parts (%zu Content-Type "
                  "fields, %zu \"--\" lines; limit %zu parts)",
                  parts, dashes, lim->max_parts);
        return DJ_MSG_ELIMIT;
    }
    return DJ_MSG_OK;
}

int dj_message_parse(const char *raw, size_t len, const dj_message_limits *lim,
                     dj_message *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (err && errlen)
        err[0] = '\0';
    dj_message_limits l = resolve_limits(lim);
    if (!raw) {
        raw = "";
        len = 0;
    }
    size_t skip = mbox_from_line(raw, len);
    const char *msg = raw + skip;
    size_t mlen = len - skip;
    size_t hlen = 0;
    int rc = read_envelope(out, msg, mlen, &l, &hlen, err, errlen);
    if (skip && !out->return_path_known && rc != DJ_MSG_EPARSE)
        note_mbox_sender(out, raw, skip);
    if (rc == DJ_MSG_OK && hlen == mlen) {
        /* Header only: libetpan would read an unended last field as
         * body text. */
        out->body = calloc(1, 1);
        if (!out->body)
            rc = DJ_MSG_ENOMEM;
    } else if (rc == DJ_MSG_OK) {
        rc = read_body(out, msg, mlen, &l, err, errlen);
    }
    if (rc == DJ_MSG_ENOMEM)
        dj_fmt(err, errlen, "out of memory");
    if (rc != DJ_MSG_OK) {
        free(out->body);
        out->body = NULL;
        out->body_len = out->body_lines = 0;
    }
    return rc;
}

void dj_message_free(dj_message *m)
{
    if (!m)
        return;
    free(m->body);
    memset(m, 0, sizeof *m);
}

bool dj_message_is_automatic(const dj_message *m)
{
    return m->flags != 0;
}
