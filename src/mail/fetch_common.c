/* SPDX-License-Identifier: MIT */
/*
 * fetch_common.c — what every protocol's reader shares: the server's
 * address, the growing listing and how it is handed over, the login a
 * server needs, a sleep that survives signals.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mail/fetch_int.h"
#include "util/array.h"

const char *dj_fetch_host(const dj_fetcher *f)
{
    return f->cfg.host ? f->cfg.host : "127.0.0.1";
}

bool dj_fetch_items_push(dj_fetch_items *l, const char *id, uint64_t size)
{
    if (strlen(id) >= DJ_FETCH_ID_MAX || (l->max && l->n >= l->max))
        return true; /* cannot be named (skip, never truncate), or enough */
    dj_fetch_item *v = dj_array_grow(l->v, &l->cap, l->n, sizeof *v, 32);
    if (!v)
        return false;
    l->v = v;
    strcpy(l->v[l->n].id, id);
    l->v[l->n++].size = size;
    return true;
}

void dj_fetch_items_take(dj_fetch_items *l, dj_mail_status st,
                         dj_fetch_item **out, size_t *n)
{
    if (st != DJ_MAIL_OK) {
        free(l->v);
        l->v = NULL;
        l->n = 0;
    }
    if (l->max && l->n > l->max)
        l->n = l->max;
    *out = l->n ? l->v : NULL;
    if (!l->n)
        free(l->v);
    *n = l->n;
}

dj_mail_status dj_fetch_need_login(const dj_fetcher *f, char *err,
                                   size_t errlen)
{
    if (!f->user || !f->password)
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "IMAP and POP3 need a user and a password");
    return DJ_MAIL_OK;
}

void dj_fetch_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}
