/* SPDX-License-Identifier: MIT */
/*
 * send.c — see send.h.  The shared front of the three transports: it
 * copies the configuration, checks every address before any transport
 * sees it (an address that reaches a command line or an SMTP command
 * must be a plain addr-spec: no spaces, no line breaks, no leading '-'
 * games), and sums up per-recipient results into one status.
 */
#define _POSIX_C_SOURCE 200809L

#include "mail/send.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/compose.h"
#include "mail/send_int.h"

#define MAX_RCPTS 1000 /* more than any game has players and observers */

/* strdup of NULL is NULL; false when out of memory. */
static bool copy_str(const char *in, char **out)
{
    *out = NULL;
    if (!in)
        return true;
    *out = strdup(in);
    return *out != NULL;
}

static void free_strings(dj_sender *s)
{
    free(s->host);
    free(s->sendmail);
    free(s->user);
    free(s->password);
    free(s->maildir_path);
    free(s->ca_file);
}

dj_sender *dj_sender_open(const dj_send_config *cfg, char *err, size_t errlen)
{
    dj_sender *s = calloc(1, sizeof *s);
    if (!s) {
        dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    if (!copy_str(cfg->host, &s->host) ||
        !copy_str(cfg->sendmail, &s->sendmail) ||
        !copy_str(cfg->user, &s->user) ||
        !copy_str(cfg->password, &s->password) ||
        !copy_str(cfg->maildir, &s->maildir_path) ||
        !copy_str(cfg->trust.ca_file, &s->ca_file)) {
        free_strings(s);
        free(s);
        dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
        return NULL;
    }
    s->cfg.host = s->host;
    s->cfg.sendmail = s->sendmail;
    s->cfg.user = s->user;
    s->cfg.password = s->password;
    s->cfg.maildir = s->maildir_path;
    s->cfg.trust.ca_file = s->ca_file;
    if (s->cfg.timeout <= 0)
        s->cfg.timeout = 60;
    if (s->cfg.kind == DJ_SEND_MAILDIR &&
        dj_maildir_open(&s->outbox, s->cfg.maildir ? s->cfg.maildir : "",
                        true, err, errlen) != DJ_MAIL_OK) {
        dj_sender_close(s);
        return NULL;
    }
    /* Files a crash left in tmp/ (a minute old: none is being written by
     * a sender still at work) go; their rows are sent again. */
    if (s->cfg.kind == DJ_SEND_MAILDIR) {
        char ignored[128];
        dj_maildir_clean_tmp(&s->outbox, 60, NULL, ignored, sizeof ignored);
    }
    return s;
}

void dj_sender_set_name(dj_sender *s, const char *name)
{
    snprintf(s->next_name, sizeof s->next_name, "%s",
             name && dj_maildir_id_ok(name) ? name : "");
}

/* Check the addresses; refused recipients get PERMFAIL.  Valid count. */
static size_t check_rcpts(const char *const *rcpts, size_t n,
                          dj_mail_status *status)
{
    size_t ok = 0;
    for (size_t i = 0; i < n; i++) {
        status[i] = dj_compose_addr_ok(rcpts[i]) ? DJ_MAIL_OK
                                                 : DJ_MAIL_PERMFAIL;
        ok += status[i] == DJ_MAIL_OK;
    }
    return ok;
}

static dj_mail_status dispatch(dj_sender *s, const char *msg, size_t len,
                               const char *from, const char *const *rcpts,
                               size_t n, dj_mail_status *status, char *err,
                               size_t errlen)
{
    switch (s->cfg.kind) {
    case DJ_SEND_MAILDIR:
        return dj_send_maildir(s, msg, len, from, rcpts, n, status, err,
                               errlen);
    case DJ_SEND_SENDMAIL:
        return dj_send_sendmail(s, msg, len, from, rcpts, n, status, err,
                                errlen);
    case DJ_SEND_SMTP:
        return dj_send_smtp(s, msg, len, from, rcpts, n, status, err,
                            errlen);
    }
    return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL, "unknown transport");
}

dj_mail_status dj_sender_send(dj_sender *s, const char *msg, size_t len,
                              const char *from, const char *const *rcpts,
                              size_t nrcpt, dj_mail_status *rcpt_status,
                              char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!from || (from[0] && !dj_compose_addr_ok(from)))
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "envelope sender is not a plain addr-spec");
    if (nrcpt == 0 || nrcpt > MAX_RCPTS)
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "%zu recipients (1 to %d allowed)", nrcpt,
                            MAX_RCPTS);
    dj_mail_status *status = rcpt_status;
    if (!status && !(status = malloc(nrcpt * sizeof *status)))
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    dj_mail_status st;
    if (check_rcpts(rcpts, nrcpt, status) == 0)
        st = dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                          "no recipient is a plain addr-spec");
    else
        st = dispatch(s, msg, len, from, rcpts, nrcpt, status, err, errlen);
    if (status != rcpt_status)
        free(status);
    return st;
}

void dj_sender_wipe_secrets(dj_sender *s)
{
    if (!s || !s->password)
        return;
    for (volatile char *p = s->password; *p; p++)
        *p = '\0';
}

void dj_sender_close(dj_sender *s)
{
    if (!s)
        return;
    dj_send_smtp_close(s, 1);
    free_strings(s);
    free(s);
}
