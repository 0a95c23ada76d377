/* SPDX-License-Identifier: MIT */
/*
 * maildir_order.c — the arrival order of Maildir messages, read from the
 * time their names carry (see dj_maildir_name_cmp in maildir.h).
 *
 * A Maildir name begins with the delivery's second; what follows up to
 * the next '.' is the writer's unique part, a run of tagged fields, each
 * an upper-case letter and its value:
 *   Postfix   1700000000.V803I1a2bM123456.host  (V, I hexadecimal)
 *   Dovecot   1700000000.M99999P4321.host, 1700000000.M5P43Q2.host
 *             and the older 1700000000.P4321Q17M5.host
 *   dipjudge  1700000000.M123456P99R3f2a.host
 * M is the microsecond, P the delivering process and Q its count of
 * deliveries.  Compared as text these sort by inode (Postfix) or put
 * M99999 after M100000 (Dovecot writes no leading zeros), so two mails of
 * one second were taken in the wrong order.  Here the key is, field by
 * field and each as a number: the second, the microsecond, the process,
 * its count, and only then the name; a name without a field sorts before
 * one with it.  One key per name, compared field by field, so the order
 * is total and never depends on the directory's.
 */
#include "mail/maildir.h"

#include <string.h>

typedef struct name_time {
    bool has_sec;
    unsigned long long sec;
    bool has_usec, has_pid, has_count;
    unsigned long long usec, pid, count;
} name_time;

/* Decimal digits at *p (at most 18 read, the rest skipped). */
static unsigned long long decimal(const char **p, bool *any)
{
    unsigned long long v = 0;
    int n = 0;
    *any = false;
    for (; **p >= '0' && **p <= '9'; (*p)++) {
        if (n++ < 18)
            v = v * 10 + (unsigned long long)(**p - '0');
        *any = true;
    }
    return v;
}

static name_time read_name(const char *id)
{
    name_time t = {0};
    const char *p = id;
    bool any;
    t.sec = decimal(&p, &any);
    if (!any || *p != '.')
        return t; /* no time in the name */
    t.has_sec = true;
    p++;
    while (*p && *p != '.' && *p != ':') {
        char tag = *p++;
        if (tag == 'M' || tag == 'P' || tag == 'Q') {
            unsigned long long v = decimal(&p, &any);
            if (!any)
                continue;
            if (tag == 'M' && !t.has_usec)
                t.has_usec = true, t.usec = v;
            else if (tag == 'P' && !t.has_pid)
                t.has_pid = true, t.pid = v;
            else if (tag == 'Q' && !t.has_count)
                t.has_count = true, t.count = v;
        } else {
            /* another field: skip its value up to the next tag */
            while (*p && *p != '.' && *p != ':' && !(*p >= 'A' && *p <= 'Z'))
                p++;
        }
    }
    return t;
}

static int cmp_ull(unsigned long long a, unsigned long long b)
{
    return a < b ? -1 : a > b;
}

int dj_maildir_name_cmp(const char *a, const char *b, int64_t a_mtime,
                        int64_t b_mtime)
{
    name_time x = read_name(a), y = read_name(b);
    unsigned long long sx = x.has_sec ? x.sec
                            : a_mtime > 0 ? (unsigned long long)a_mtime
                                          : 0;
    unsigned long long sy = y.has_sec ? y.sec
                            : b_mtime > 0 ? (unsigned long long)b_mtime
                                          : 0;
    int c = cmp_ull(sx, sy);
    if (c)
        return c;
    /* A name with its microsecond sorts by it; one without comes first
     * within its second (it says nothing finer). */
    if (x.has_usec != y.has_usec)
        return x.has_usec ? 1 : -1;
    if (x.has_usec && (c = cmp_ull(x.usec, y.usec)) != 0)
        return c;
    /* Then the process and its count (Dovecot's P and Q): within one
     * process Q is the order of delivery; between processes the pid says
     * nothing, but keeps the order total. */
    if (x.has_pid != y.has_pid)
        return x.has_pid ? 1 : -1;
    if (x.has_pid && (c = cmp_ull(x.pid, y.pid)) != 0)
        return c;
    if (x.has_count != y.has_count)
        return x.has_count ? 1 : -1;
    if (x.has_count && (c = cmp_ull(x.count, y.count)) != 0)
        return c;
    c = strcmp(a, b);
    return c < 0 ? -1 : c > 0;
}
