/* SPDX-License-Identifier: MIT */
/*
 * reply_budget.c — the reply budgets (see reply_budget.h): one count of
 * the outbox, compared with each limit in turn.
 */
#include "judge/reply_budget.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "store/sending.h"

void dj_reply_fold_address(const char *addr, char *out, size_t outlen)
{
    if (!outlen)
        return;
    const char *at = strrchr(addr, '@');
    const char *plus = strchr(addr, '+');
    size_t n = 0;
    for (const char *c = addr; *c && n + 1 < outlen; c++) {
        if (plus && at && c >= plus && c < at)
            continue;
        out[n++] = (char)tolower((unsigned char)*c);
    }
    out[n] = '\0';
}

/* A count or a sum of bytes at or over its limit (0: no limit). */
static bool over(int64_t count, int limit)
{
    return limit > 0 && count >= limit;
}

/* The address as the budgets count it (folded, into folded[320]) and
 * its domain ("" when it has none). */
static const char *folded_domain(const char *to, char folded[320])
{
    dj_reply_fold_address(to, folded, 320);
    const char *at = strrchr(folded, '@');
    return at ? at + 1 : "";
}

int dj_reply_allowed(dj_store *st, const dj_reply_limits *lim,
                     dj_reply_class c, const char *to, int64_t now,
                     const char **why)
{
    *why = NULL;
    if (c == DJ_REPLY_SIGNED_ON)
        return 1;
    char folded[320];
    const char *domain = folded_domain(to, folded);
    dj_reply_counts n;
    if (dj_store_outbox_reply_counts(st, folded, domain, now - lim->window,
                                     &n) < 0)
        return -1;
    if (c == DJ_REPLY_SIGNON_FAILED && over(n.failed, lim->signon_failed))
        *why = "failed sign-on reply limit";
    else if (c == DJ_REPLY_OTHER && over(n.to_addr, lim->per_address))
        *why = "reply limit";
    else if (over(n.to_domain, lim->per_domain))
        *why = "domain reply limit";
    else if (over(n.to_all, lim->judge_wide))
        *why = "judge's reply budget";
    return *why == NULL;
}

/* ---- the budgets in bytes --------------------------------------------------------- */

int dj_reply_bytes_allowed(dj_store *st, const dj_reply_byte_limits *lim,
                           dj_reply_class c, const char *to, int64_t now,
                           const char **why)
{
    *why = NULL;
    if (c == DJ_REPLY_SIGNED_ON || !lim)
        return 1;
    char folded[320];
    const char *domain = folded_domain(to, folded);
    dj_reply_bytes n;
    if (dj_store_outbox_reply_bytes(st, folded, domain, now - lim->window,
                                    &n) < 0)
        return -1;
    if (over(n.to_addr, lim->per_address))
        *why = "reply limit in bytes";
    else if (over(n.to_domain, lim->per_domain))
        *why = "domain reply limit in bytes";
    else if (over(n.to_all, lim->judge_wide))
        *why = "judge's reply budget in bytes";
    return *why == NULL;
}
