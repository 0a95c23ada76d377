/* SPDX-License-Identifier: MIT */
/*
 * fetch_protocols.c — the one table of the protocols a fetcher reads:
 * each dj_fetch_kind with its reader.
 */
#include "mail/fetch_int.h"

static const dj_fetch_ops *const PROTOCOLS[] = {
    [DJ_FETCH_MAILDIR] = &dj_fetch_maildir_ops,
    [DJ_FETCH_IMAP] = &dj_fetch_imap_ops,
    [DJ_FETCH_POP3] = &dj_fetch_pop3_ops,
};

const dj_fetch_ops *dj_fetch_protocol(dj_fetch_kind kind)
{
    if ((unsigned)kind >= sizeof PROTOCOLS / sizeof PROTOCOLS[0])
        return &dj_fetch_maildir_ops;
    return PROTOCOLS[kind];
}
