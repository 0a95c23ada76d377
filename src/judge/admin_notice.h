/* SPDX-License-Identifier: MIT */
/*
 * admin_notice.h — the judge's notices to its admin (a message moved
 * aside by ingest, a mail the outbox gave up on): one subject shape, one
 * outbox kind, "admin", which the outbox never reports a failure of (so a
 * broken admin address cannot breed reports about itself).
 */
#ifndef DJ_JUDGE_ADMIN_NOTICE_H
#define DJ_JUDGE_ADMIN_NOTICE_H

#include <stdint.h>

#include "store/store.h"
#include "util/buf.h"

#define DJ_ADMIN_NOTICE_KIND "admin"

/*
 * Queue a notice to `admin`: subject "JUDGE - WHAT", the text in body.
 * 0 (also when admin is NULL or "": nobody to tell), or -1 (a database
 * error, reason in dj_store_error(s), or body ran out of memory).
 */
int dj_admin_notice(dj_store *s, const char *admin, const char *judge_name,
                    const char *what, const dj_buf *body, int64_t now);

#endif
