/* SPDX-License-Identifier: MIT */
/*
 * fetch.h — read the judge's incoming mail from a Maildir, an IMAP
 * mailbox or a POP3 maildrop (IMAP and POP3 through libetpan), all behind
 * one small interface for `judged run`:
 *
 *     list -> read each -> (caller records it in one SQLite transaction,
 *     commits) -> confirm -> ... -> wait for more
 *
 * The rule that makes a crash harmless: a message is marked handled only
 * by dj_fetch_confirm(), which the caller calls after its own transaction
 * committed.  Until then it stays unseen and is listed again on the next
 * pass (the caller drops a second copy by its Message-ID).  Marking is:
 *   Maildir  move to cur/ with the S flag (maildir.h);
 *   IMAP     \Seen, or \Deleted then EXPUNGE (UID EXPUNGE when the
 *            server has UIDPLUS) when cfg.expunge is set;
 *   POP3     DELE — which the server applies only when the session ends
 *            well (QUIT: dj_fetch_wait, dj_fetch_disconnect,
 *            dj_fetch_close); a crash before that leaves the message in
 *            the maildrop, to be listed again.
 *
 * Connections are made when first needed and remade after a failure, so a
 * server restart costs one TEMPFAIL.  Failures come back as a status and a
 * sentence (server unreachable, login refused, ...); nothing aborts.
 *
 * Message ids are strings: the Maildir file's unique name, for IMAP
 * "UIDVALIDITY.UID" (an id from an older UIDVALIDITY is GONE), for POP3
 * the server's UIDL.
 */
#ifndef DJ_MAIL_FETCH_H
#define DJ_MAIL_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mail/transport.h"
#include "util/buf.h"

typedef enum dj_fetch_kind {
    DJ_FETCH_MAILDIR = 0,
    DJ_FETCH_IMAP,
    DJ_FETCH_POP3
} dj_fetch_kind;

typedef struct dj_fetch_config {
    dj_fetch_kind kind;
    const char *maildir;  /* DJ_FETCH_MAILDIR: its path (created) */
    const char *host;     /* NULL: 127.0.0.1 */
    int port;             /* 0: 143/993 (IMAP), 110/995 (POP3) */
    dj_tls_mode tls;
    dj_tls_trust trust;   /* how the server's certificate is checked */
    const char *user;
    const char *password;
    const char *mailbox;  /* IMAP folder; NULL: INBOX */
    bool expunge;         /* IMAP: delete handled mail instead of \Seen */
    bool isolate;         /* IMAP, POP3: talk to the server from a child
                             process, so that a reply that crashes or hangs
                             the protocol library costs one request, not the
                             caller (fetch_child.c); judged sets it */
    int timeout;          /* seconds per network operation; 0: 60 */
    /* isolate: called in the reader process as it starts, before it
     * connects, to wipe the secrets of the caller's it has a copy of and
     * does not need (the outbound password, the reply key: judged.c);
     * NULL: none.  The reader wipes its own password itself once it has
     * logged in. */
    void (*child_wipe)(void *ctx);
    /* isolate: called in the reader process once it is restricted (test
     * builds: the probe of test_hooks.h); NULL: none. */
    void (*child_restricted)(void *ctx);
    void *child_ctx;
} dj_fetch_config;

/* For the tests' child_restricted (fetch_probe.c): try to open a file
 * and make a socket, and say on stderr what happened. */
void dj_fetch_probe(void *ctx);

#define DJ_FETCH_ID_MAX 256

typedef struct dj_fetch_item {
    char id[DJ_FETCH_ID_MAX];
    uint64_t size; /* bytes, 0 when the server does not say */
} dj_fetch_item;

typedef struct dj_fetcher dj_fetcher;

/* Copies cfg; connects later.  NULL (with a reason) when unusable. */
dj_fetcher *dj_fetch_open(const dj_fetch_config *cfg, char *err,
                          size_t errlen);

/*
 * The messages not yet handled, oldest first, at most max (0: all).
 * *out is malloc'd (free()), NULL when *n is 0.
 */
dj_mail_status dj_fetch_list(dj_fetcher *f, size_t max, dj_fetch_item **out,
                             size_t *n, char *err, size_t errlen);

/*
 * The raw bytes of message id, at most max (0: all) into out (replacing
 * its contents); *truncated (may be NULL) when the message is longer.
 * Reading never marks a message (IMAP: BODY.PEEK).
 */
dj_mail_status dj_fetch_read(dj_fetcher *f, const char *id, size_t max,
                             dj_buf *out, bool *truncated, char *err,
                             size_t errlen);

/* Mark message id handled (see above).  GONE when it no longer exists. */
dj_mail_status dj_fetch_confirm(dj_fetcher *f, const char *id, char *err,
                                size_t errlen);

/*
 * Move message id aside: a message the caller failed on too often.
 * Maildir: into the folder .Quarantine; IMAP: \Seen and the keyword
 * $DipjudgeQuarantine (never deleted); POP3: nothing (a maildrop has no
 * folders): the message stays, and the caller must skip it from now on.
 */
dj_mail_status dj_fetch_quarantine(dj_fetcher *f, const char *id, char *err,
                                   size_t errlen);

/*
 * Wait up to timeout_ms for new mail.  IMAP with IDLE returns as soon as
 * the server reports a change (*woken true); IMAP without IDLE, POP3
 * (after ending the session, which applies its DELEs) and Maildir (watching
 * new/) return at the timeout, or earlier when the Maildir changed.
 */
dj_mail_status dj_fetch_wait(dj_fetcher *f, int timeout_ms, bool *woken,
                             char *err, size_t errlen);

/* End the session politely (POP3: QUIT, applying DELEs); reconnects later. */
void dj_fetch_disconnect(dj_fetcher *f);

/* Disconnect and free. */
void dj_fetch_close(dj_fetcher *f);

#endif
