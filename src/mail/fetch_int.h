/*
 * fetch_int.h — the fetcher's insides, shared by fetch.c (the front and
 * the Maildir reader), fetch_imap.c and fetch_pop3.c.  Not for use
 * outside src/mail.
 */
#ifndef DJ_MAIL_FETCH_INT_H
#define DJ_MAIL_FETCH_INT_H

#include "mail/fetch.h"
#include "mail/maildir.h"

struct dj_fetcher {
    dj_fetch_config cfg; /* strings point into the copies below */
    char *host, *user, *password, *mailbox, *maildir_path, *ca_file;
    dj_maildir md;         /* DJ_FETCH_MAILDIR */
    void *imap;            /* a mailimap *, NULL when not connected */
    uint32_t uidvalidity;  /* of the selected IMAP mailbox */
    void *pop3;            /* a mailpop3 *, NULL when not connected */
    struct dj_pop3_table *pop3_tab; /* the session's listing, or NULL */
    struct dj_fetch_child *child;   /* cfg.isolate: the reader process */
};

/* The server to connect to: cfg.host, or 127.0.0.1 when none is set. */
const char *dj_fetch_host(const dj_fetcher *f);

/* Growing list of items for the backends' list functions. */
typedef struct dj_fetch_items {
    dj_fetch_item *v;
    size_t n, cap, max;
} dj_fetch_items;

/* Append an item; false when out of memory. */
bool dj_fetch_items_push(dj_fetch_items *l, const char *id, uint64_t size);

/* Sleep ms milliseconds (restarted after signals). */
void dj_fetch_sleep_ms(int ms);

dj_mail_status dj_imap_list(dj_fetcher *f, dj_fetch_items *l, char *err,
                            size_t errlen);
dj_mail_status dj_imap_read(dj_fetcher *f, const char *id, size_t max,
                            dj_buf *out, bool *truncated, char *err,
                            size_t errlen);
dj_mail_status dj_imap_confirm(dj_fetcher *f, const char *id, char *err,
                               size_t errlen);
dj_mail_status dj_imap_quarantine(dj_fetcher *f, const char *id, char *err,
                                  size_t errlen);
dj_mail_status dj_imap_wait(dj_fetcher *f, int timeout_ms, bool *woken,
                            char *err, size_t errlen);
void dj_imap_disconnect(dj_fetcher *f, bool polite);

dj_mail_status dj_pop3_list(dj_fetcher *f, dj_fetch_items *l, char *err,
                            size_t errlen);
dj_mail_status dj_pop3_read(dj_fetcher *f, const char *id, size_t max,
                            dj_buf *out, bool *truncated, char *err,
                            size_t errlen);
dj_mail_status dj_pop3_confirm(dj_fetcher *f, const char *id, char *err,
                               size_t errlen);
void dj_pop3_disconnect(dj_fetcher *f, bool polite);

/* cfg.isolate: the same, done by a child process (fetch_child.c). */
dj_mail_status dj_child_list(dj_fetcher *f, size_t max, dj_fetch_item **out,
                             size_t *n, char *err, size_t errlen);
dj_mail_status dj_child_read(dj_fetcher *f, const char *id, size_t max,
                             dj_buf *out, bool *truncated, char *err,
                             size_t errlen);
dj_mail_status dj_child_confirm(dj_fetcher *f, const char *id, char *err,
                                size_t errlen);
dj_mail_status dj_child_quarantine(dj_fetcher *f, const char *id, char *err,
                                   size_t errlen);
dj_mail_status dj_child_wait(dj_fetcher *f, int timeout_ms, bool *woken,
                             char *err, size_t errlen);
void dj_child_disconnect(dj_fetcher *f);
void dj_child_close(dj_fetcher *f);

#endif
