/* SPDX-License-Identifier: MIT */
/*
 * fetch_maildir.c — the Maildir reader: a thin layer over maildir.h, plus
 * a wait that watches new/ for deliveries.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "mail/fetch_int.h"

#define MAILDIR_WATCH_MS 100 /* how often a waiting Maildir is looked at */

static dj_mail_status maildir_open(dj_fetcher *f, char *err, size_t errlen)
{
    return dj_maildir_open(&f->md, f->maildir_path ? f->maildir_path : "", true,
                           err, errlen);
}

static dj_mail_status maildir_list(dj_fetcher *f, dj_fetch_items *l, char *err,
                                   size_t errlen)
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

static dj_mail_status maildir_read(dj_fetcher *f, const char *id, size_t max,
                                   dj_buf *out, bool *truncated, char *err,
                                   size_t errlen)
{
    return dj_maildir_read(&f->md, id, max, out, truncated, err, errlen);
}

static dj_mail_status maildir_confirm(dj_fetcher *f, const char *id, char *err,
                                      size_t errlen)
{
    return dj_maildir_mark_done(&f->md, id, err, errlen);
}

static dj_mail_status maildir_quarantine(dj_fetcher *f, const char *id,
                                         char *err, size_t errlen)
{
    return dj_maildir_quarantine(&f->md, id, err, errlen);
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

static dj_mail_status maildir_wait(dj_fetcher *f, int timeout_ms, bool *woken,
                                   char *err, size_t errlen)
{
    (void)err, (void)errlen;
    struct timespec before, now;
    bool have = new_stamp(f, &before);
    for (int waited = 0; waited < timeout_ms; waited += MAILDIR_WATCH_MS) {
        int step = timeout_ms - waited < MAILDIR_WATCH_MS ? timeout_ms - waited
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

/* Nothing to hang up: the directory is read afresh each time. */
static void maildir_nothing(dj_fetcher *f)
{
    (void)f;
}

const dj_fetch_ops dj_fetch_maildir_ops = {
    .name = "Maildir",
    .open = maildir_open,
    .list = maildir_list,
    .read = maildir_read,
    .confirm = maildir_confirm,
    .quarantine = maildir_quarantine,
    .wait = maildir_wait,
    .disconnect = maildir_nothing,
    .close = maildir_nothing,
};
