/* SPDX-License-Identifier: MIT */
/*
 * fetch_int.h — the fetcher's insides: its state, and the table of
 * operations each protocol's reader fills (fetch_maildir.c, fetch_imap.c,
 * fetch_pop3.c; fetch_child.c runs one of them in a process of its own),
 * which the front (fetch.c) calls.  Not for use outside src/mail.
 */
#ifndef DJ_MAIL_FETCH_INT_H
#define DJ_MAIL_FETCH_INT_H

#include "mail/fetch.h"
#include "mail/maildir.h"

struct dj_fetcher {
    dj_fetch_config cfg; /* strings point into the copies below */
    char *host, *user, *password, *mailbox, *maildir_path, *ca_file;
    dj_maildir md;                  /* DJ_FETCH_MAILDIR */
    void *imap;                     /* a mailimap *, NULL when not connected */
    uint32_t uidvalidity;           /* of the selected IMAP mailbox */
    void *pop3;                     /* a mailpop3 *, NULL when not connected */
    struct dj_pop3_table *pop3_tab; /* the session's listing, or NULL */
    struct dj_fetch_child *child;   /* cfg.isolate: the reader process */
    const struct dj_fetch_ops *ops; /* the protocol's reader, or the child */
};

/* ---- shared by the readers (fetch_common.c) ---------------------------- */

/* The server to connect to: cfg.host, or 127.0.0.1 when none is set. */
const char *dj_fetch_host(const dj_fetcher *f);

/* Growing list of items for the readers' list functions. */
typedef struct dj_fetch_items {
    dj_fetch_item *v;
    size_t n, cap, max;
} dj_fetch_items;

/* Append an item; false when out of memory. */
bool dj_fetch_items_push(dj_fetch_items *l, const char *id, uint64_t size);

/* Sleep ms milliseconds (restarted after signals). */
void dj_fetch_sleep_ms(int ms);

/* Empty and free the listing on failure, cap it at l->max, and hand it
 * over as dj_fetch_list gives it (*out NULL when empty). */
void dj_fetch_items_take(dj_fetch_items *l, dj_mail_status st,
                         dj_fetch_item **out, size_t *n);

/* IMAP and POP3 log in: without a user and a password, PERMFAIL. */
dj_mail_status dj_fetch_need_login(const dj_fetcher *f, char *err,
                                   size_t errlen);

/* ---- the readers -------------------------------------------------------- */

/*
 * One protocol's reader: the operations of fetch.h on a fetcher of its
 * kind, chosen once when the fetcher opens (dj_fetch_open), so that no
 * operation asks which protocol it speaks.
 */
typedef struct dj_fetch_ops {
    const char *name; /* "Maildir", "IMAP", "POP3": for messages */
    /* Check the configuration, open what is local (not the server). */
    dj_mail_status (*open)(dj_fetcher *f, char *err, size_t errlen);
    dj_mail_status (*list)(dj_fetcher *f, dj_fetch_items *l, char *err,
                           size_t errlen);
    dj_mail_status (*read)(dj_fetcher *f, const char *id, size_t max,
                           dj_buf *out, bool *truncated, char *err,
                           size_t errlen);
    dj_mail_status (*confirm)(dj_fetcher *f, const char *id, char *err,
                              size_t errlen);
    dj_mail_status (*quarantine)(dj_fetcher *f, const char *id, char *err,
                                 size_t errlen);
    dj_mail_status (*wait)(dj_fetcher *f, int timeout_ms, bool *woken,
                           char *err, size_t errlen);
    /* Connect and log in now (IMAP, POP3; NULL for a Maildir): the
     * isolated reader does so before it restricts itself. */
    dj_mail_status (*connect)(dj_fetcher *f, char *err, size_t errlen);
    /* End the session politely (LOGOUT; POP3's QUIT applies the DELEs). */
    void (*disconnect)(dj_fetcher *f);
    /* Before the fetcher is freed. */
    void (*close)(dj_fetcher *f);
} dj_fetch_ops;

extern const dj_fetch_ops dj_fetch_maildir_ops; /* fetch_maildir.c */
extern const dj_fetch_ops dj_fetch_imap_ops;    /* fetch_imap.c */
extern const dj_fetch_ops dj_fetch_pop3_ops;    /* fetch_pop3.c */
/* cfg.isolate: the protocol's reader run by a child process
 * (fetch_child.c). */
extern const dj_fetch_ops dj_fetch_child_ops;

/* fetch_restrict.c — the isolated reader restricting itself: close every
 * descriptor but 0-2, `keep` and `keep2` (-1: none); install the seccomp filter (Linux on
 * x86-64 and arm64; elsewhere nothing), 0 or -1 with the reason. */
void dj_fetch_close_other_fds(int keep, int keep2);
int dj_fetch_restrict(char *why, size_t whylen);

/* The reader of a protocol (fetch_protocols.c). */
const dj_fetch_ops *dj_fetch_protocol(dj_fetch_kind kind);

#endif
