/*
 * fetch.c — see fetch.h.  The front of the three readers, and the Maildir
 * one itself (a thin layer over maildir.h, plus a wait that watches new/).
 * IMAP and POP3 live in fetch_imap.c and fetch_pop3.c.
 */
#define _POSIX_C_SOURCE 200809L

#include "mail/fetch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "mail/fetch_int.h"

#define MAILDIR_WATCH_MS 100 /* how often a waiting Maildir is looked at */

static bool copy_str(const char *in, char **out)
{
    *out = NULL;
    if (!in)
        return true;
    *out = strdup(in);
    return *out != NULL;
}

static void free_strings(dj_fetcher *f)
{
    free(f->host);
    free(f->user);
    free(f->password);
    free(f->mailbox);
    free(f->maildir_path);
    free(f->ca_file);
}

dj_fetcher *dj_fetch_open(const dj_fetch_config *cfg, char *err,
                          size_t errlen)
{
    dj_fetcher *f = calloc(1, sizeof *f);
    if (!f || !copy_str(cfg->host, &f->host) ||
        !copy_str(cfg->user, &f->user) ||
        !copy_str(cfg->password, &f->password) ||
        !copy_str(cfg->mailbox, &f->mailbox) ||
        !copy_str(cfg->maildir, &f->maildir_path) ||
        !copy_str(cfg->trust.ca_file, &f->ca_file)) {
        if (f)
            free_strings(f);
        free(f);
        dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
        return NULL;
    }
    f->cfg = *cfg;
    f->cfg.host = f->host;
    f->cfg.user = f->user;
    f->cfg.password = f->password;
    f->cfg.mailbox = f->mailbox;
    f->cfg.maildir = f->maildir_path;
    f->cfg.trust.ca_file = f->ca_file;
    if (f->cfg.timeout <= 0)
        f->cfg.timeout = 60;
    bool bad = false;
    if (f->cfg.kind == DJ_FETCH_MAILDIR)
        bad = dj_maildir_open(&f->md, f->maildir_path ? f->maildir_path : "",
                              true, err, errlen) != DJ_MAIL_OK;
    else if (!f->user || !f->password)
        bad = dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                           "IMAP and POP3 need a user and a password") !=
              DJ_MAIL_OK;
    if (bad) {
        dj_fetch_close(f);
        return NULL;
    }
    return f;
}

const char *dj_fetch_host(const dj_fetcher *f)
{
    return f->cfg.host ? f->cfg.host : "127.0.0.1";
}

bool dj_fetch_items_push(dj_fetch_items *l, const char *id, uint64_t size)
{
    if (strlen(id) >= DJ_FETCH_ID_MAX || (l->max && l->n >= l->max))
        return true; /* cannot be named (skip, never truncate), or enough */
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 32;
        dj_fetch_item *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return false;
        l->v = v;
        l->cap = cap;
    }
    strcpy(l->v[l->n].id, id);
    l->v[l->n++].size = size;
    return true;
}

void dj_fetch_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static dj_mail_status maildir_list(dj_fetcher *f, dj_fetch_items *l,
                                   char *err, size_t errlen)
{
    dj_maildir_entry *e;
    size_t n;
    dj_mail_status st = dj_maildir_list(&f->md, l->max, &e, &n, err, errlen);
    for (size_t i = 0; st == DJ_MAIL_OK && i < n; i++) {
        if (!dj_fetch_items_push(l, e[i].id, e[i].size))
            st = dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    }
    free(e);
    return st;
}

/* IMAP and POP3 through a child process (fetch_child.c)? */
static bool isolated(const dj_fetcher *f)
{
    return f->cfg.isolate && f->cfg.kind != DJ_FETCH_MAILDIR;
}

dj_mail_status dj_fetch_list(dj_fetcher *f, size_t max, dj_fetch_item **out,
                             size_t *n, char *err, size_t errlen)
{
    if (isolated(f))
        return dj_child_list(f, max, out, n, err, errlen);
    dj_fetch_items l = {NULL, 0, 0, max};
    dj_mail_status st;
    switch (f->cfg.kind) {
    case DJ_FETCH_IMAP:
        st = dj_imap_list(f, &l, err, errlen);
        break;
    case DJ_FETCH_POP3:
        st = dj_pop3_list(f, &l, err, errlen);
        break;
    default:
        st = maildir_list(f, &l, err, errlen);
        break;
    }
    if (st != DJ_MAIL_OK) {
        free(l.v);
        l.v = NULL;
        l.n = 0;
    }
    if (max && l.n > max)
        l.n = max;
    *out = l.n ? l.v : NULL;
    if (!l.n)
        free(l.v);
    *n = l.n;
    return st;
}

dj_mail_status dj_fetch_read(dj_fetcher *f, const char *id, size_t max,
                             dj_buf *out, bool *truncated, char *err,
                             size_t errlen)
{
    bool trunc = false;
    dj_mail_status st;
    dj_buf_reset(out);
    if (isolated(f)) {
        st = dj_child_read(f, id, max, out, &trunc, err, errlen);
        if (truncated)
            *truncated = trunc;
        return st;
    }
    switch (f->cfg.kind) {
    case DJ_FETCH_IMAP:
        st = dj_imap_read(f, id, max, out, &trunc, err, errlen);
        break;
    case DJ_FETCH_POP3:
        st = dj_pop3_read(f, id, max, out, &trunc, err, errlen);
        break;
    default:
        st = dj_maildir_read(&f->md, id, max, out, &trunc, err, errlen);
        break;
    }
    if (truncated)
        *truncated = trunc;
    return st;
}

dj_mail_status dj_fetch_confirm(dj_fetcher *f, const char *id, char *err,
                                size_t errlen)
{
    if (isolated(f))
        return dj_child_confirm(f, id, err, errlen);
    switch (f->cfg.kind) {
    case DJ_FETCH_IMAP:
        return dj_imap_confirm(f, id, err, errlen);
    case DJ_FETCH_POP3:
        return dj_pop3_confirm(f, id, err, errlen);
    default:
        return dj_maildir_mark_done(&f->md, id, err, errlen);
    }
}

dj_mail_status dj_fetch_quarantine(dj_fetcher *f, const char *id, char *err,
                                   size_t errlen)
{
    if (isolated(f))
        return dj_child_quarantine(f, id, err, errlen);
    switch (f->cfg.kind) {
    case DJ_FETCH_IMAP:
        return dj_imap_quarantine(f, id, err, errlen);
    case DJ_FETCH_POP3:
        return DJ_MAIL_OK; /* left in the maildrop; the caller skips it */
    default:
        return dj_maildir_quarantine(&f->md, id, err, errlen);
    }
}

/* The modification stamp of new/: it changes with every delivery. */
static bool new_stamp(const dj_fetcher *f, struct timespec *ts)
{
    char p[DJ_MAILDIR_PATH_MAX + 8];
    struct stat st;
    snprintf(p, sizeof p, "%s/new", f->md.path);
    if (stat(p, &st) != 0)
        return false;
    *ts = st.st_mtim;
    return true;
}

static dj_mail_status maildir_wait(dj_fetcher *f, int timeout_ms,
                                   bool *woken)
{
    struct timespec before, now;
    bool have = new_stamp(f, &before);
    for (int waited = 0; waited < timeout_ms; waited += MAILDIR_WATCH_MS) {
        int step = timeout_ms - waited < MAILDIR_WATCH_MS
                       ? timeout_ms - waited
                       : MAILDIR_WATCH_MS;
        dj_fetch_sleep_ms(step);
        if (have && new_stamp(f, &now) &&
            (now.tv_sec != before.tv_sec || now.tv_nsec != before.tv_nsec)) {
            *woken = true;
            break;
        }
    }
    return DJ_MAIL_OK;
}

dj_mail_status dj_fetch_wait(dj_fetcher *f, int timeout_ms, bool *woken,
                             char *err, size_t errlen)
{
    bool w = false;
    dj_mail_status st = DJ_MAIL_OK;
    if (timeout_ms < 0)
        timeout_ms = 0;
    if (isolated(f)) {
        st = dj_child_wait(f, timeout_ms, &w, err, errlen);
        if (woken)
            *woken = w;
        return st;
    }
    switch (f->cfg.kind) {
    case DJ_FETCH_IMAP:
        st = dj_imap_wait(f, timeout_ms, &w, err, errlen);
        break;
    case DJ_FETCH_POP3:
        /* A POP3 session sees a snapshot: end it (applying the DELEs) so
         * the next list starts a fresh one that sees new mail. */
        dj_pop3_disconnect(f, true);
        dj_fetch_sleep_ms(timeout_ms);
        break;
    default:
        st = maildir_wait(f, timeout_ms, &w);
        break;
    }
    if (woken)
        *woken = w;
    return st;
}

void dj_fetch_disconnect(dj_fetcher *f)
{
    if (isolated(f)) {
        dj_child_disconnect(f);
        return;
    }
    if (f->cfg.kind == DJ_FETCH_IMAP)
        dj_imap_disconnect(f, true);
    else if (f->cfg.kind == DJ_FETCH_POP3)
        dj_pop3_disconnect(f, true);
}

void dj_fetch_close(dj_fetcher *f)
{
    if (!f)
        return;
    if (isolated(f))
        dj_child_close(f); /* the child ends its own session */
    else
        dj_fetch_disconnect(f);
    free_strings(f);
    free(f);
}
