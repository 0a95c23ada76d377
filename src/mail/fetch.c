/* SPDX-License-Identifier: MIT */
/*
 * fetch.c — see fetch.h.  The front of the readers: a fetcher is opened
 * with its protocol's table of operations (fetch_int.h: Maildir, IMAP,
 * POP3, or the same run in a child process when cfg.isolate asks for it),
 * and every operation goes through that table.
 */
#define _POSIX_C_SOURCE 200809L

#include "mail/fetch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/fetch_int.h"

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

dj_fetcher *dj_fetch_open(const dj_fetch_config *cfg, char *err, size_t errlen)
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
    /* The protocol parsers (IMAP, POP3) in a process of their own when
     * asked; a Maildir is only files. */
    f->ops = f->cfg.isolate && f->cfg.kind != DJ_FETCH_MAILDIR
                 ? &dj_fetch_child_ops
                 : dj_fetch_protocol(f->cfg.kind);
    if (f->ops->open(f, err, errlen) != DJ_MAIL_OK) {
        dj_fetch_close(f);
        return NULL;
    }
    return f;
}

dj_mail_status dj_fetch_list(dj_fetcher *f, size_t max, dj_fetch_item **out,
                             size_t *n, char *err, size_t errlen)
{
    dj_fetch_items l = {NULL, 0, 0, max};
    dj_mail_status st = f->ops->list(f, &l, err, errlen);
    dj_fetch_items_take(&l, st, out, n);
    return st;
}

dj_mail_status dj_fetch_read(dj_fetcher *f, const char *id, size_t max,
                             dj_buf *out, bool *truncated, char *err,
                             size_t errlen)
{
    bool trunc = false;
    dj_buf_reset(out);
    dj_mail_status st = f->ops->read(f, id, max, out, &trunc, err, errlen);
    if (truncated)
        *truncated = trunc;
    return st;
}

dj_mail_status dj_fetch_confirm(dj_fetcher *f, const char *id, char *err,
                                size_t errlen)
{
    return f->ops->confirm(f, id, err, errlen);
}

dj_mail_status dj_fetch_quarantine(dj_fetcher *f, const char *id, char *err,
                                   size_t errlen)
{
    return f->ops->quarantine(f, id, err, errlen);
}

dj_mail_status dj_fetch_wait(dj_fetcher *f, int timeout_ms, bool *woken,
                             char *err, size_t errlen)
{
    bool w = false;
    dj_mail_status st =
        f->ops->wait(f, timeout_ms < 0 ? 0 : timeout_ms, &w, err, errlen);
    if (woken)
        *woken = w;
    return st;
}

void dj_fetch_disconnect(dj_fetcher *f)
{
    f->ops->disconnect(f);
}

void dj_fetch_close(dj_fetcher *f)
{
    if (!f)
        return;
    if (f->ops)
        f->ops->close(f);
    free_strings(f);
    free(f);
}
