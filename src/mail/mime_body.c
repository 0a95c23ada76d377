/* SPDX-License-Identifier: MIT */
/*
 * mime_body.c — which part of a MIME message holds what the player
 * wrote, and its text.
 *
 * libetpan has already cut the message into a tree (mailmime_parse).  We
 * walk it in document order and note
 *   - text/plain leaves and text/html leaves that are not attachments
 *     (an attachment is a part with Content-Disposition: attachment or
 *     any file name: players attach maps and PDFs, and a forwarded
 *     order file is not an order);
 *   - the signs of automatic mail inside the body: a multipart/report
 *     or a message/delivery-status part (a bounce), a read receipt.
 * An attached message (message/rfc822) is never entered: whatever it
 * says was written by someone else, often by the judge itself.
 *
 * Then the first plain part with any visible text wins; failing that the
 * first HTML part, turned into text.  Choosing "the first non-empty"
 * rather than "the first" matters: some clients send an empty
 * text/plain alternative next to the real HTML.
 */
#define _POSIX_C_SOURCE 200809L
#include "mail/message.h"
#include "mail/mime_int.h"

#include <libetpan/libetpan.h>
#include <string.h>
#include <strings.h>

/* Candidates beyond these counts are ignored: the first few decide. */
#define MAX_CANDIDATES 8
/* Nesting we follow; libetpan's own depth is bounded by the caller's
 * part count before it ever parses. */
#define MAX_DEPTH 32

typedef struct body_walk {
    struct mailmime *plain[MAX_CANDIDATES];
    struct mailmime *html[MAX_CANDIDATES];
    int nplain, nhtml;
    bool bounce, autoreport;
} body_walk;

/* The major type of a content type, as a lower-case-insensitive name. */
static const char *major_type(const struct mailmime_content *ct)
{
    const struct mailmime_type *t = ct->ct_type;
    if (!t)
        return "";
    if (t->tp_type == MAILMIME_TYPE_DISCRETE_TYPE) {
        const struct mailmime_discrete_type *d = t->tp_data.tp_discrete_type;
        switch (d ? d->dt_type : -1) {
        case MAILMIME_DISCRETE_TYPE_TEXT:
            return "text";
        case MAILMIME_DISCRETE_TYPE_EXTENSION:
            return d->dt_extension ? d->dt_extension : "";
        default:
            return "other";
        }
    }
    if (t->tp_type == MAILMIME_TYPE_COMPOSITE_TYPE) {
        const struct mailmime_composite_type *c = t->tp_data.tp_composite_type;
        switch (c ? c->ct_type : -1) {
        case MAILMIME_COMPOSITE_TYPE_MESSAGE:
            return "message";
        case MAILMIME_COMPOSITE_TYPE_MULTIPART:
            return "multipart";
        case MAILMIME_COMPOSITE_TYPE_EXTENSION:
            return c->ct_token ? c->ct_token : "";
        default:
            return "";
        }
    }
    return "";
}

static bool type_is(const struct mailmime_content *ct, const char *major,
                    const char *sub)
{
    return ct && strcasecmp(major_type(ct), major) == 0 &&
           (!sub || (ct->ct_subtype && strcasecmp(ct->ct_subtype, sub) == 0));
}

/* A parameter of the content type, or NULL. */
static const char *param(const struct mailmime_content *ct, const char *name)
{
    if (!ct || !ct->ct_parameters)
        return NULL;
    for (clistiter *it = clist_begin(ct->ct_parameters); it;
         it = clist_next(it)) {
        const struct mailmime_parameter *p = clist_content(it);
        if (p && p->pa_name && p->pa_value && strcasecmp(p->pa_name, name) == 0)
            return p->pa_value;
    }
    return NULL;
}

static bool disposition_is_attachment(const struct mailmime_disposition *d)
{
    if (d->dsp_type &&
        d->dsp_type->dsp_type == MAILMIME_DISPOSITION_TYPE_ATTACHMENT)
        return true;
    if (!d->dsp_parms)
        return false;
    for (clistiter *it = clist_begin(d->dsp_parms); it; it = clist_next(it)) {
        const struct mailmime_disposition_parm *p = clist_content(it);
        if (p && p->pa_type == MAILMIME_DISPOSITION_PARM_FILENAME)
            return true;
    }
    return false;
}

static bool is_attachment(const struct mailmime *m)
{
    if (param(m->mm_content_type, "name"))
        return true;
    if (!m->mm_mime_fields || !m->mm_mime_fields->fld_list)
        return false;
    for (clistiter *it = clist_begin(m->mm_mime_fields->fld_list); it;
         it = clist_next(it)) {
        const struct mailmime_field *f = clist_content(it);
        if (f && f->fld_type == MAILMIME_FIELD_DISPOSITION &&
            f->fld_data.fld_disposition &&
            disposition_is_attachment(f->fld_data.fld_disposition))
            return true;
    }
    return false;
}

static void note_report(body_walk *w, const struct mailmime_content *ct)
{
    if (type_is(ct, "multipart", "report")) {
        const char *rt = param(ct, "report-type");
        if (rt && strcasecmp(rt, "disposition-notification") == 0)
            w->autoreport = true;
        else
            w->bounce = true;
    } else if (type_is(ct, "message", "delivery-status") ||
               type_is(ct, "message", "global-delivery-status")) {
        w->bounce = true;
    } else if (type_is(ct, "message", "disposition-notification")) {
        w->autoreport = true;
    }
}

static void note_leaf(body_walk *w, struct mailmime *m)
{
    const struct mailmime_content *ct = m->mm_content_type;
    if (is_attachment(m))
        return;
    if (type_is(ct, "text", "plain") && w->nplain < MAX_CANDIDATES)
        w->plain[w->nplain++] = m;
    else if (type_is(ct, "text", "html") && w->nhtml < MAX_CANDIDATES)
        w->html[w->nhtml++] = m;
}

static void walk(body_walk *w, struct mailmime *m, int depth)
{
    if (!m || depth > MAX_DEPTH)
        return;
    note_report(w, m->mm_content_type);
    switch (m->mm_type) {
    case MAILMIME_SINGLE:
        note_leaf(w, m);
        break;
    case MAILMIME_MULTIPLE:
        if (!m->mm_data.mm_multipart.mm_mp_list)
            break;
        for (clistiter *it = clist_begin(m->mm_data.mm_multipart.mm_mp_list);
             it; it = clist_next(it))
            walk(w, clist_content(it), depth + 1);
        break;
    case MAILMIME_MESSAGE:
        /* Only the message itself (the root); never an attached one. */
        if (depth == 0)
            walk(w, m->mm_data.mm_message.mm_msg_mime, depth + 1);
        break;
    default:
        break;
    }
}

/* Undo the transfer encoding of a leaf, appending the bytes to *out
 * (with our decoders: see mime_decode.c for why not libetpan's). */
static void transfer_decode(const struct mailmime *m, dj_buf *out)
{
    const struct mailmime_data *d = m->mm_data.mm_single;
    if (!d || d->dt_type != MAILMIME_DATA_TEXT || !d->dt_data.dt_text.dt_data)
        return;
    const char *s = d->dt_data.dt_text.dt_data;
    size_t n = d->dt_data.dt_text.dt_length;
    if (d->dt_encoding == MAILMIME_MECHANISM_BASE64)
        dj_mime_decode_base64(s, n, out);
    else if (d->dt_encoding == MAILMIME_MECHANISM_QUOTED_PRINTABLE)
        dj_mime_decode_qp(s, n, out);
    else
        dj_buf_append_n(out, s, n); /* 7bit, 8bit, binary, unknown */
}

/*
 * format=flowed (RFC 3676): a line ending in a space continues on the
 * next one.  Joining them gives one order per line again even when the
 * sender's client wrapped a long one.  Space-stuffing is undone; quoted
 * lines are left alone (the cleaner drops them).
 */
static void unflow(const char *s, size_t n, bool delsp, dj_buf *out)
{
    size_t i = 0;
    while (i < n) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - s) : n, len = end - i;
        const char *line = s + i;
        i = nl ? end + 1 : n;
        if (len > 0 && line[len - 1] == '\r')
            len--;
        if (len > 0 && line[0] == '>') {
            dj_buf_append_n(out, line, len);
            dj_buf_append_n(out, "\n", 1);
            continue;
        }
        if (len > 0 && line[0] == ' ') {
            line++;
            len--;
        }
        bool sig = len == 3 && memcmp(line, "-- ", 3) == 0;
        bool soft = len > 0 && line[len - 1] == ' ' && !sig;
        if (soft && delsp)
            len--;
        dj_buf_append_n(out, line, len);
        if (!soft)
            dj_buf_append_n(out, "\n", 1);
    }
}

static bool has_visible_text(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] > ' ')
            return true;
    return false;
}

/* Decode one candidate into *out (emptied first); false: out of memory. */
static bool part_text(const struct mailmime *m, bool html, dj_buf *out)
{
    const struct mailmime_content *ct = m->mm_content_type;
    dj_buf raw, utf8;
    dj_buf_init(&raw);
    dj_buf_init(&utf8);
    dj_buf_reset(out);
    transfer_decode(m, &raw);
    dj_mime_to_utf8(param(ct, "charset"), raw.data, raw.len, &utf8);
    const char *format = param(ct, "format");
    const char *delsp = param(ct, "delsp");
    if (html) {
        dj_mime_html_text(utf8.data, utf8.len, out);
    } else if (format && strcasecmp(format, "flowed") == 0) {
        unflow(utf8.data, utf8.len, delsp && strcasecmp(delsp, "yes") == 0,
               out);
    } else {
        dj_buf_append_n(out, utf8.data, utf8.len);
    }
    bool ok = dj_buf_ok(&raw) && dj_buf_ok(&utf8) && dj_buf_ok(out);
    dj_buf_free(&raw);
    dj_buf_free(&utf8);
    return ok;
}

/* Try the candidates in order; the first with visible text wins. */
static int pick(struct mailmime *const *list, int n, bool html, dj_buf *tmp,
                dj_buf *out)
{
    for (int i = 0; i < n; i++) {
        if (!part_text(list[i], html, tmp))
            return -1;
        if (has_visible_text(tmp->data, tmp->len)) {
            dj_buf_append_n(out, tmp->data, tmp->len);
            return 1;
        }
    }
    return 0;
}

int dj_mime_body_text(struct mailmime *root, dj_buf *out, bool *report_bounce,
                      bool *report_auto)
{
    body_walk w;
    memset(&w, 0, sizeof w);
    walk(&w, root, 0);
    *report_bounce = w.bounce;
    *report_auto = w.autoreport;

    dj_buf tmp;
    dj_buf_init(&tmp);
    int source = DJ_MSG_BODY_NONE;
    int r = pick(w.plain, w.nplain, false, &tmp, out);
    if (r > 0) {
        source = DJ_MSG_BODY_PLAIN;
    } else if (r == 0) {
        r = pick(w.html, w.nhtml, true, &tmp, out);
        if (r > 0)
            source = DJ_MSG_BODY_HTML;
    }
    if (r < 0)
        out->failed = true;
    dj_buf_free(&tmp);
    return source;
}
