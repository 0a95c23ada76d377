/* SPDX-License-Identifier: MIT */
/*
 * send_int.h — the sender's insides, shared by send.c and the three
 * transports (send_maildir.c, send_sendmail.c, send_smtp.c).  Not for use
 * outside src/mail.
 */
#ifndef DJ_MAIL_SEND_INT_H
#define DJ_MAIL_SEND_INT_H

#include "mail/maildir.h"
#include "mail/send.h"

struct dj_sender {
    dj_send_config cfg; /* strings point into the copies below */
    char *host, *sendmail, *user, *password, *maildir_path, *ca_file;
    dj_maildir outbox;  /* DJ_SEND_MAILDIR */
    char next_name[DJ_MAILDIR_ID_MAX]; /* dj_sender_set_name; "" none */
    void *smtp;         /* DJ_SEND_SMTP: a mailsmtp *, NULL when closed */
};

/*
 * One transport's send: recipients are already checked; rcpt_status has
 * nrcpt slots, preset to OK.  Same contract as dj_sender_send.
 */
dj_mail_status dj_send_maildir(dj_sender *s, const char *msg, size_t len,
                               const char *from, const char *const *rcpts,
                               size_t nrcpt, dj_mail_status *rcpt_status,
                               char *err, size_t errlen);
dj_mail_status dj_send_sendmail(dj_sender *s, const char *msg, size_t len,
                                const char *from, const char *const *rcpts,
                                size_t nrcpt, dj_mail_status *rcpt_status,
                                char *err, size_t errlen);
dj_mail_status dj_send_smtp(dj_sender *s, const char *msg, size_t len,
                            const char *from, const char *const *rcpts,
                            size_t nrcpt, dj_mail_status *rcpt_status,
                            char *err, size_t errlen);

/* Close the SMTP connection, politely when polite. */
void dj_send_smtp_close(dj_sender *s, int polite);

#endif
