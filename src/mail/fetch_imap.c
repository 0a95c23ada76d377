/* SPDX-License-Identifier: MIT */
/*
 * fetch_imap.c — the IMAP reader (libetpan): connect (plain, STARTTLS or
 * implicit TLS), LOGIN, SELECT the mailbox, then
 *   list     UID SEARCH UNSEEN UNDELETED
 *   read     UID FETCH uid BODY.PEEK[]<0.max+1>  (PEEK: reading marks
 *            nothing; one byte over max tells "truncated")
 *   confirm  UID STORE +FLAGS.SILENT (\Seen [\Deleted]), then UID EXPUNGE
 *            (or EXPUNGE without UIDPLUS) in expunge mode
 *   wait     IDLE until the server says something or the time is up;
 *            without IDLE, sleep (the next list polls).
 *
 * Ids are "UIDVALIDITY.UID": if the mailbox was recreated meanwhile, an
 * old id no longer names anything (GONE) rather than a different message.
 * A stream error drops the session; the next call logs in again.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <libetpan/libetpan.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/fetch_int.h"
#include "mail/stream_guard.h"
#include "mail/tls_check.h"

#define REPLY_KEEP 200

static mailimap *session_of(dj_fetcher *f)
{
    return f->imap;
}

static void imap_hang_up(dj_fetcher *f, bool polite)
{
    mailimap *imap = session_of(f);
    if (!imap)
        return;
    if (polite)
        mailimap_logout(imap);
    mailimap_free(imap);
    f->imap = NULL;
}

static bool is_stream_error(int r)
{
    return r == MAILIMAP_ERROR_STREAM || r == MAILIMAP_ERROR_SSL ||
           r == MAILIMAP_ERROR_CONNECTION_REFUSED ||
           r == MAILIMAP_ERROR_PARSE || r == MAILIMAP_ERROR_FATAL ||
           r == MAILIMAP_ERROR_MEMORY;
}

/* Report a failed command; a broken session is dropped. */
static dj_mail_status imap_fail(dj_fetcher *f, int r, const char *what,
                                char *err, size_t errlen)
{
    mailimap *imap = session_of(f);
    char reply[REPLY_KEEP + 1] = "";
    const char *text = imap && imap->imap_response ? imap->imap_response : "";
    size_t n = 0;
    for (; text[n] && n < REPLY_KEEP; n++) /* server text: printable only */
        reply[n] = (unsigned char)text[n] < 0x20 ? ' ' : text[n];
    reply[n] = '\0';
    dj_mail_status st = r == MAILIMAP_ERROR_LOGIN ||
                                r == MAILIMAP_ERROR_SELECT ||
                                r == MAILIMAP_ERROR_STARTTLS
                            ? DJ_MAIL_PERMFAIL
                            : DJ_MAIL_TEMPFAIL;
    if (is_stream_error(r) || r == MAILIMAP_ERROR_LOGIN)
        imap_hang_up(f, false);
    return dj_mail_fail(err, errlen, st, "IMAP %s failed (libetpan error %d)%s%s",
                        what, r, reply[0] ? ": " : "", reply);
}

/*
 * Ask for the capabilities again (after STARTTLS or LOGIN); the reply's
 * untagged CAPABILITY updates the session's list.  Not mailimap_capability:
 * it copies that list without looking, and a server that answers OK with
 * no list at all crashes it (found by tests/fuzz/fuzz_mailserver.c).
 */
static int refresh_capabilities(mailimap *imap)
{
    return mailimap_custom_command(imap, "CAPABILITY");
}

/* Before any password goes out: is this the server we meant? */
static dj_mail_status imap_verify(dj_fetcher *f, char *err, size_t errlen)
{
    dj_mail_status st = dj_tls_check(session_of(f)->imap_stream, "IMAP",
                                     dj_fetch_host(f), &f->cfg.trust, err,
                                     errlen);
    if (st != DJ_MAIL_OK)
        imap_hang_up(f, false);
    return st;
}

static dj_mail_status imap_starttls(dj_fetcher *f, char *err, size_t errlen)
{
    mailimap *imap = session_of(f);
    dj_tls_mode tls = f->cfg.tls;
    if (tls != DJ_TLS_STARTTLS && tls != DJ_TLS_STARTTLS_MAY)
        return DJ_MAIL_OK;
    int r = refresh_capabilities(imap);
    if (r != MAILIMAP_NO_ERROR)
        return imap_fail(f, r, "CAPABILITY", err, errlen);
    if (!mailimap_has_extension(imap, "STARTTLS")) {
        if (tls == DJ_TLS_STARTTLS_MAY)
            return DJ_MAIL_OK;
        imap_hang_up(f, true);
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "IMAP server does not offer STARTTLS");
    }
    r = mailimap_socket_starttls_with_callback(imap, dj_tls_sni,
                                               (void *)dj_fetch_host(f));
    if (r == MAILIMAP_NO_ERROR && !dj_stream_guard(imap->imap_stream))
        r = MAILIMAP_ERROR_MEMORY;
    if (r != MAILIMAP_NO_ERROR) {
        dj_mail_status st = imap_fail(f, r, "STARTTLS", err, errlen);
        imap_hang_up(f, false);
        return st;
    }
    return imap_verify(f, err, errlen);
}

static dj_mail_status imap_login_select(dj_fetcher *f, char *err,
                                        size_t errlen)
{
    mailimap *imap = session_of(f);
    int r = mailimap_login(imap, f->cfg.user, f->cfg.password);
    if (r != MAILIMAP_NO_ERROR)
        return imap_fail(f, r, "login", err, errlen);
    r = refresh_capabilities(imap); /* IDLE, UIDPLUS may show only now */
    if (r == MAILIMAP_NO_ERROR)
        r = mailimap_select(imap, f->cfg.mailbox ? f->cfg.mailbox : "INBOX");
    if (r != MAILIMAP_NO_ERROR) {
        dj_mail_status st = imap_fail(f, r, "SELECT", err, errlen);
        imap_hang_up(f, false);
        return st;
    }
    f->uidvalidity = imap->imap_selection_info
                         ? imap->imap_selection_info->sel_uidvalidity
                         : 0;
    return DJ_MAIL_OK;
}

static dj_mail_status imap_connect(dj_fetcher *f, char *err, size_t errlen)
{
    if (f->imap)
        return DJ_MAIL_OK;
    const char *host = dj_fetch_host(f);
    int port = f->cfg.port ? f->cfg.port
               : f->cfg.tls == DJ_TLS_IMPLICIT ? 993
                                               : 143;
    mailimap *imap = mailimap_new(0, NULL);
    if (!imap)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    f->imap = imap;
    mailimap_set_timeout(imap, (time_t)f->cfg.timeout);
    int r = f->cfg.tls == DJ_TLS_IMPLICIT
                ? mailimap_ssl_connect_with_callback(imap, host,
                                                     (uint16_t)port,
                                                     dj_tls_sni,
                                                     (void *)host)
                : mailimap_socket_connect(imap, host, (uint16_t)port);
    if ((r == MAILIMAP_NO_ERROR_AUTHENTICATED ||
         r == MAILIMAP_NO_ERROR_NON_AUTHENTICATED) &&
        !dj_stream_guard(imap->imap_stream))
        r = MAILIMAP_ERROR_MEMORY;
    if (r != MAILIMAP_NO_ERROR_AUTHENTICATED &&
        r != MAILIMAP_NO_ERROR_NON_AUTHENTICATED) {
        imap_hang_up(f, false);
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                            "cannot connect to IMAP server %s:%d "
                            "(libetpan error %d)",
                            host, port, r);
    }
    dj_mail_status st = f->cfg.tls == DJ_TLS_IMPLICIT
                            ? imap_verify(f, err, errlen)
                            : imap_starttls(f, err, errlen);
    if (st == DJ_MAIL_OK && f->imap)
        st = imap_login_select(f, err, errlen);
    return st;
}

/* A search key with no argument (UNSEEN, UNDELETED, ...). */
static struct mailimap_search_key *simple_key(int type)
{
    return mailimap_search_key_new(type, NULL, NULL, NULL, NULL, NULL, NULL,
                                   NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                   NULL, 0, NULL, NULL, NULL, NULL, NULL,
                                   NULL, 0, NULL, NULL, NULL);
}

static struct mailimap_search_key *unhandled_key(void)
{
    struct mailimap_search_key *all = mailimap_search_key_new_multiple_empty();
    struct mailimap_search_key *unseen = simple_key(MAILIMAP_SEARCH_KEY_UNSEEN);
    struct mailimap_search_key *undel =
        simple_key(MAILIMAP_SEARCH_KEY_UNDELETED);
    if (!all || !unseen || !undel ||
        mailimap_search_key_multiple_add(all, unseen) != MAILIMAP_NO_ERROR) {
        if (all)
            mailimap_search_key_free(all);
        if (unseen)
            mailimap_search_key_free(unseen);
        if (undel)
            mailimap_search_key_free(undel);
        return NULL;
    }
    if (mailimap_search_key_multiple_add(all, undel) != MAILIMAP_NO_ERROR) {
        mailimap_search_key_free(undel);
        mailimap_search_key_free(all);
        return NULL;
    }
    return all;
}

static int uid_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The UIDs of a SEARCH result, sorted (arrival order). */
static uint32_t *search_uids(clist *result, size_t *n)
{
    size_t count = result ? (size_t)clist_count(result) : 0, i = 0;
    uint32_t *v = malloc((count ? count : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (clistiter *it = result ? clist_begin(result) : NULL; it;
         it = clist_next(it))
        v[i++] = *(uint32_t *)clist_content(it);
    qsort(v, i, sizeof *v, uid_cmp);
    *n = i;
    return v;
}

static dj_mail_status imap_list(dj_fetcher *f, dj_fetch_items *l, char *err,
                                size_t errlen)
{
    dj_mail_status st = imap_connect(f, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    struct mailimap_search_key *key = unhandled_key();
    if (!key)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    clist *result = NULL;
    int r = mailimap_uid_search(session_of(f), NULL, key, &result);
    mailimap_search_key_free(key);
    if (r != MAILIMAP_NO_ERROR)
        return imap_fail(f, r, "SEARCH", err, errlen);
    size_t n = 0;
    uint32_t *uids = search_uids(result, &n);
    if (result)
        mailimap_search_result_free(result);
    if (!uids)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    for (size_t i = 0; st == DJ_MAIL_OK && i < n; i++) {
        char id[DJ_FETCH_ID_MAX];
        snprintf(id, sizeof id, "%" PRIu32 ".%" PRIu32, f->uidvalidity,
                 uids[i]);
        if (!dj_fetch_items_push(l, id, 0))
            st = dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    }
    free(uids);
    return st;
}

/* "VALIDITY.UID" -> uid, checked against the session's UIDVALIDITY. */
static dj_mail_status parse_id(dj_fetcher *f, const char *id, uint32_t *uid,
                               char *err, size_t errlen)
{
    unsigned long long v, u;
    char tail;
    if (sscanf(id, "%llu.%llu%c", &v, &u, &tail) != 2 || u == 0 ||
        u > UINT32_MAX || v > UINT32_MAX)
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "malformed IMAP message id");
    if (v != f->uidvalidity)
        return dj_mail_fail(err, errlen, DJ_MAIL_GONE,
                            "IMAP mailbox was recreated (UIDVALIDITY %" PRIu32
                            "): message %s is gone",
                            f->uidvalidity, id);
    *uid = (uint32_t)u;
    return DJ_MAIL_OK;
}

/* Find the body section for uid in a FETCH result. */
static struct mailimap_msg_att_body_section *find_body(clist *result,
                                                       uint32_t uid)
{
    for (clistiter *m = result ? clist_begin(result) : NULL; m;
         m = clist_next(m)) {
        struct mailimap_msg_att *att = clist_content(m);
        struct mailimap_msg_att_body_section *body = NULL;
        uint32_t got = 0;
        for (clistiter *i = clist_begin(att->att_list); i; i = clist_next(i)) {
            struct mailimap_msg_att_item *item = clist_content(i);
            if (item->att_type != MAILIMAP_MSG_ATT_ITEM_STATIC)
                continue;
            struct mailimap_msg_att_static *s = item->att_data.att_static;
            if (s->att_type == MAILIMAP_MSG_ATT_UID)
                got = s->att_data.att_uid;
            else if (s->att_type == MAILIMAP_MSG_ATT_BODY_SECTION)
                body = s->att_data.att_body_section;
        }
        if (body && got == uid)
            return body;
    }
    return NULL;
}

static struct mailimap_fetch_type *body_request(size_t max)
{
    struct mailimap_fetch_type *type =
        mailimap_fetch_type_new_fetch_att_list_empty();
    struct mailimap_section *section = mailimap_section_new(NULL);
    struct mailimap_fetch_att *att = NULL;
    if (section) {
        /* One byte more than allowed tells whether the mail is longer. */
        att = max && max < UINT32_MAX
                  ? mailimap_fetch_att_new_body_peek_section_partial(
                        section, 0, (uint32_t)max + 1)
                  : mailimap_fetch_att_new_body_peek_section(section);
        if (!att)
            mailimap_section_free(section);
    }
    if (!type || !att ||
        mailimap_fetch_type_new_fetch_att_list_add(type, att) !=
            MAILIMAP_NO_ERROR) {
        if (att)
            mailimap_fetch_att_free(att);
        if (type)
            mailimap_fetch_type_free(type);
        return NULL;
    }
    return type;
}

static dj_mail_status imap_read(dj_fetcher *f, const char *id, size_t max,
                                dj_buf *out, bool *truncated, char *err,
                                size_t errlen)
{
    uint32_t uid;
    dj_mail_status st = imap_connect(f, err, errlen);
    if (st == DJ_MAIL_OK)
        st = parse_id(f, id, &uid, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    struct mailimap_set *set = mailimap_set_new_single(uid);
    struct mailimap_fetch_type *type = body_request(max);
    clist *result = NULL;
    int r = set && type ? mailimap_uid_fetch(session_of(f), set, type, &result)
                        : MAILIMAP_ERROR_MEMORY;
    if (set)
        mailimap_set_free(set);
    if (type)
        mailimap_fetch_type_free(type);
    if (r != MAILIMAP_NO_ERROR)
        return imap_fail(f, r, "FETCH", err, errlen);
    struct mailimap_msg_att_body_section *body = find_body(result, uid);
    if (!body || !body->sec_body_part) {
        st = dj_mail_fail(err, errlen, DJ_MAIL_GONE, "no IMAP message %s", id);
    } else {
        size_t len = body->sec_length;
        *truncated = max && len > max;
        dj_buf_append_n(out, body->sec_body_part, *truncated ? max : len);
        if (!dj_buf_ok(out))
            st = dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    }
    if (result)
        mailimap_fetch_list_free(result);
    return st;
}

/* Add one flag to the list; the flag is the list's, or freed on error. */
static bool add_flag(struct mailimap_flag_list *flags,
                     struct mailimap_flag *flag)
{
    if (flags && flag && mailimap_flag_list_add(flags, flag) == MAILIMAP_NO_ERROR)
        return true;
    if (flag)
        mailimap_flag_free(flag);
    return false;
}

/* +FLAGS.SILENT (\Seen [\Deleted] [keyword]); NULL when out of memory. */
static struct mailimap_store_att_flags *flags_to_add(bool deleted,
                                                    const char *keyword)
{
    struct mailimap_flag_list *flags = mailimap_flag_list_new_empty();
    bool ok = add_flag(flags, mailimap_flag_new_seen());
    if (ok && deleted)
        ok = add_flag(flags, mailimap_flag_new_deleted());
    if (ok && keyword) {
        char *word = strdup(keyword);
        struct mailimap_flag *kw =
            word ? mailimap_flag_new_flag_keyword(word) : NULL;
        if (!kw)
            free(word);
        ok = add_flag(flags, kw);
    }
    struct mailimap_store_att_flags *att =
        ok ? mailimap_store_att_flags_new_add_flags_silent(flags) : NULL;
    if (!att && flags)
        mailimap_flag_list_free(flags);
    return att;
}

/*
 * Mark message id: \Seen (never listed again), with \Deleted and an
 * EXPUNGE when `expunge`, with `keyword` when given.
 */
static dj_mail_status mark(dj_fetcher *f, const char *id, bool expunge,
                           const char *keyword, char *err, size_t errlen)
{
    uint32_t uid;
    dj_mail_status st = imap_connect(f, err, errlen);
    if (st == DJ_MAIL_OK)
        st = parse_id(f, id, &uid, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    mailimap *imap = session_of(f);
    struct mailimap_set *set = mailimap_set_new_single(uid);
    struct mailimap_store_att_flags *flags = flags_to_add(expunge, keyword);
    int r = set && flags ? mailimap_uid_store(imap, set, flags)
                         : MAILIMAP_ERROR_MEMORY;
    if (flags)
        mailimap_store_att_flags_free(flags);
    if (r == MAILIMAP_NO_ERROR && expunge)
        r = mailimap_has_uidplus(imap) ? mailimap_uid_expunge(imap, set)
                                       : mailimap_expunge(imap);
    if (set)
        mailimap_set_free(set);
    if (r != MAILIMAP_NO_ERROR)
        return imap_fail(f, r, expunge ? "STORE/EXPUNGE" : "STORE", err,
                         errlen);
    return DJ_MAIL_OK;
}

static dj_mail_status imap_confirm(dj_fetcher *f, const char *id, char *err,
                                   size_t errlen)
{
    return mark(f, id, f->cfg.expunge, NULL, err, errlen);
}

/* Moved aside: \Seen (so it is not listed again) and the keyword
 * $DipjudgeQuarantine, never \Deleted: it stays for the admin to read. */
static dj_mail_status imap_quarantine(dj_fetcher *f, const char *id, char *err,
                                      size_t errlen)
{
    return mark(f, id, false, "$DipjudgeQuarantine", err, errlen);
}

/* IDLE until the server speaks or timeout_ms passes. */
static dj_mail_status idle_wait(dj_fetcher *f, int timeout_ms, bool *woken,
                                char *err, size_t errlen)
{
    mailimap *imap = session_of(f);
    int r = mailimap_idle(imap);
    if (r != MAILIMAP_NO_ERROR)
        return imap_fail(f, r, "IDLE", err, errlen);
    /* A notice that came with the "+ idling" line is already buffered,
     * where poll() cannot see it. */
    if (imap->imap_stream && imap->imap_stream->read_buffer_len > 0) {
        *woken = true;
    } else {
        struct pollfd p = {mailimap_idle_get_fd(imap), POLLIN, 0};
        *woken = p.fd >= 0 && poll(&p, 1, timeout_ms) > 0;
    }
    r = mailimap_idle_done(imap);
    if (r != MAILIMAP_NO_ERROR)
        return imap_fail(f, r, "IDLE DONE", err, errlen);
    return DJ_MAIL_OK;
}

static dj_mail_status imap_wait(dj_fetcher *f, int timeout_ms, bool *woken,
                                char *err, size_t errlen)
{
    dj_mail_status st = imap_connect(f, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    if (mailimap_has_idle(session_of(f)))
        return idle_wait(f, timeout_ms, woken, err, errlen);
    dj_fetch_sleep_ms(timeout_ms); /* no IDLE: the next list polls */
    return DJ_MAIL_OK;
}

static dj_mail_status imap_open(dj_fetcher *f, char *err, size_t errlen)
{
    return dj_fetch_need_login(f, err, errlen);
}

static void imap_logout(dj_fetcher *f)
{
    imap_hang_up(f, true);
}

const dj_fetch_ops dj_fetch_imap_ops = {
    .name = "IMAP",
    .open = imap_open,
    .list = imap_list,
    .read = imap_read,
    .confirm = imap_confirm,
    .quarantine = imap_quarantine,
    .wait = imap_wait,
    .connect = imap_connect,
    .disconnect = imap_logout,
    .close = imap_logout,
};
