/* SPDX-License-Identifier: MIT */
/*
 * send_maildir.c — the Maildir "transport": the judge's outbox for the
 * demo and for sites that pick mail up themselves.  One file per message,
 * delivered atomically (maildir.h), with the envelope written on top as
 * Return-Path and X-Envelope-To lines (addresses already checked, so
 * they cannot break the header), since a Maildir has no envelope.  Named
 * after its outbox row when the caller says (dj_sender_set_name), so that
 * a re-send after a crash finds the file and delivers no second copy.
 */
#define _POSIX_C_SOURCE 200809L

#include <string.h>

#include "mail/send_int.h"
#include "util/buf.h"

dj_mail_status dj_send_maildir(dj_sender *s, const char *msg, size_t len,
                               const char *from, const char *const *rcpts,
                               size_t nrcpt, dj_mail_status *rcpt_status,
                               char *err, size_t errlen)
{
    dj_buf b;
    dj_buf_init(&b);
    dj_buf_printf(&b, "Return-Path: <%s>\nX-Envelope-To:", from);
    const char *sep = " ";
    for (size_t i = 0; i < nrcpt; i++) {
        if (rcpt_status[i] != DJ_MAIL_OK)
            continue;
        dj_buf_printf(&b, "%s%s", sep, rcpts[i]);
        sep = ",\n ";
    }
    dj_buf_append(&b, "\n");
    dj_buf_append_n(&b, msg, len);
    dj_mail_status st =
        !dj_buf_ok(&b)
            ? dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory")
        : s->next_name[0]
            ? dj_maildir_deliver_as(&s->outbox, s->next_name, b.data, b.len,
                                    err, errlen)
            : dj_maildir_deliver(&s->outbox, b.data, b.len, NULL, err,
                                 errlen);
    s->next_name[0] = '\0';
    dj_buf_free(&b);
    for (size_t i = 0; st != DJ_MAIL_OK && i < nrcpt; i++) {
        if (rcpt_status[i] == DJ_MAIL_OK)
            rcpt_status[i] = st;
    }
    return st;
}
