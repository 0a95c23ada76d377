/* SPDX-License-Identifier: MIT */
/*
 * stream_guard.c — see stream_guard.h.  A mailstream_low driver whose
 * every call goes to the layer it wraps, except that a read of no bytes
 * (end of stream) is reported as an error.
 */
#include "mail/stream_guard.h"

#include <stdlib.h>

typedef struct guard {
    mailstream_low *inner;
} guard;

static mailstream_low *inner_of(mailstream_low *s)
{
    return ((guard *)s->data)->inner;
}

static ssize_t guard_read(mailstream_low *s, void *buf, size_t count)
{
    if (count == 0)
        return 0;
    ssize_t r = mailstream_low_read(inner_of(s), buf, count);
    return r == 0 ? -1 : r; /* the server hung up: an error, not "retry" */
}

static ssize_t guard_write(mailstream_low *s, const void *buf, size_t count)
{
    return mailstream_low_write(inner_of(s), buf, count);
}

static int guard_close(mailstream_low *s)
{
    return mailstream_low_close(inner_of(s));
}

static int guard_get_fd(mailstream_low *s)
{
    return mailstream_low_get_fd(inner_of(s));
}

static void guard_free(mailstream_low *s)
{
    guard *g = s->data;
    mailstream_low_free(g->inner);
    free(g);
    s->data = NULL;
    free(s);
}

static void guard_cancel(mailstream_low *s)
{
    mailstream_low_cancel(inner_of(s));
}

static struct mailstream_cancel *guard_get_cancel(mailstream_low *s)
{
    return mailstream_low_get_cancel(inner_of(s));
}

static carray *guard_certificate_chain(mailstream_low *s)
{
    return mailstream_low_get_certificate_chain(inner_of(s));
}

static int guard_setup_idle(mailstream_low *s)
{
    return mailstream_low_setup_idle(inner_of(s));
}

static int guard_unsetup_idle(mailstream_low *s)
{
    return mailstream_low_unsetup_idle(inner_of(s));
}

static int guard_interrupt_idle(mailstream_low *s)
{
    return mailstream_low_interrupt_idle(inner_of(s));
}

static mailstream_low_driver guard_driver = {
    .mailstream_read = guard_read,
    .mailstream_write = guard_write,
    .mailstream_close = guard_close,
    .mailstream_get_fd = guard_get_fd,
    .mailstream_free = guard_free,
    .mailstream_cancel = guard_cancel,
    .mailstream_get_cancel = guard_get_cancel,
    .mailstream_get_certificate_chain = guard_certificate_chain,
    .mailstream_setup_idle = guard_setup_idle,
    .mailstream_unsetup_idle = guard_unsetup_idle,
    .mailstream_interrupt_idle = guard_interrupt_idle,
};

bool dj_stream_guard(mailstream *s)
{
    mailstream_low *low = s ? mailstream_get_low(s) : NULL;
    if (!low || low->driver == &guard_driver)
        return low != NULL;
    guard *g = malloc(sizeof *g);
    if (!g)
        return false;
    g->inner = low;
    mailstream_low *wrapped = mailstream_low_new(g, &guard_driver);
    if (!wrapped) {
        free(g);
        return false;
    }
    mailstream_low_set_timeout(wrapped, mailstream_low_get_timeout(low));
    mailstream_set_low(s, wrapped);
    return true;
}
