/* SPDX-License-Identifier: MIT */
/*
 * maildir.h — a Maildir (tmp/, new/, cur/) as a crash-safe queue of
 * messages: the judge's embedded inbox, its outbox for the demo, and the
 * spool `judged run` polls.
 *
 * The rules that make it safe (the Maildir convention, D. J. Bernstein):
 *   - delivery writes tmp/NAME completely, fsyncs it, then links it into
 *     new/NAME: a reader sees a message whole or not at all, and a crash
 *     mid-write leaves only a tmp/ file, which readers never look at and
 *     dj_maildir_clean_tmp() removes once it is old;
 *   - a message is "unseen" while it is in new/, or in cur/ without the S
 *     flag; it is marked done only when the caller says so (after its own
 *     database transaction committed), by one rename into cur/ with the S
 *     flag — so at every instant the message is in exactly one place, and
 *     a crash before the rename means it is read again, never lost.
 *
 * Message ids are the file names' unique part (before ":2,"); they never
 * contain '/' and never start with '.', and ids coming in are checked.
 */
#ifndef DJ_MAIL_MAILDIR_H
#define DJ_MAIL_MAILDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mail/transport.h"
#include "util/buf.h"

#define DJ_MAILDIR_PATH_MAX 1024
#define DJ_MAILDIR_ID_MAX 256

typedef struct dj_maildir {
    char path[DJ_MAILDIR_PATH_MAX]; /* without a trailing '/' */
} dj_maildir;

typedef struct dj_maildir_entry {
    char id[DJ_MAILDIR_ID_MAX];
    uint64_t size;  /* bytes on disk */
    int64_t mtime;  /* seconds: delivery order */
} dj_maildir_entry;

/*
 * Open the Maildir at path; with create, make it (and tmp/ new/ cur/)
 * when missing.  PERMFAIL when it is not a Maildir or the path is too long.
 */
dj_mail_status dj_maildir_open(dj_maildir *md, const char *path, bool create,
                               char *err, size_t errlen);

/*
 * Deliver len bytes atomically into new/.  The id of the new message is
 * written to id_out (DJ_MAILDIR_ID_MAX bytes) when it is not NULL.
 */
dj_mail_status dj_maildir_deliver(const dj_maildir *md, const char *data,
                                  size_t len, char *id_out, char *err,
                                  size_t errlen);

/*
 * Deliver under a name the caller chose (a well-formed id): when a
 * message of that id is already in new/ or cur/ it was delivered before
 * and nothing is written (OK).  So delivering the same thing again after
 * a crash leaves one copy.
 */
dj_mail_status dj_maildir_deliver_as(const dj_maildir *md, const char *id,
                                     const char *data, size_t len, char *err,
                                     size_t errlen);

/*
 * Arrival order of two message names (maildir_order.c): the second the
 * name begins with (the file's mtime when it has none), then its
 * microsecond (M, as a number), then the process (P) and its delivery
 * count (Q), then the names.  <0, 0 or >0.
 */
int dj_maildir_name_cmp(const char *a, const char *b, int64_t a_mtime,
                        int64_t b_mtime);

/*
 * The unseen messages, oldest first (dj_maildir_name_cmp), at most max of
 * them (0: no limit but memory).  *out is malloc'd (free()), NULL when *n
 * is 0.
 */
dj_mail_status dj_maildir_list(const dj_maildir *md, size_t max,
                               dj_maildir_entry **out, size_t *n, char *err,
                               size_t errlen);

/*
 * Read message id into out (replacing its contents), at most max bytes
 * (0: no limit); *truncated tells whether the file was longer.  GONE when
 * no message has that id.
 */
dj_mail_status dj_maildir_read(const dj_maildir *md, const char *id,
                               size_t max, dj_buf *out, bool *truncated,
                               char *err, size_t errlen);

/*
 * Mark message id done: move it to cur/ with the S (seen) flag.  Marking
 * a message that is already done is OK; GONE when it does not exist.
 */
dj_mail_status dj_maildir_mark_done(const dj_maildir *md, const char *id,
                                    char *err, size_t errlen);

/*
 * Move message id aside, into the Maildir++ folder .Quarantine (its own
 * tmp/, new/ and cur/, made when missing), where a mail program shows it
 * as a folder: a message the judge failed on too often.  GONE when it
 * does not exist.
 */
#define DJ_MAILDIR_QUARANTINE ".Quarantine"
dj_mail_status dj_maildir_quarantine(const dj_maildir *md, const char *id,
                                     char *err, size_t errlen);

/*
 * Remove files in tmp/ last modified more than older_than seconds ago:
 * deliveries interrupted by a crash (the Maildir convention suggests
 * 36 hours, DJ_MAILDIR_TMP_AGE).  *removed (may be NULL) counts them.
 */
#define DJ_MAILDIR_TMP_AGE (36 * 3600)
dj_mail_status dj_maildir_clean_tmp(const dj_maildir *md, int64_t older_than,
                                    int *removed, char *err, size_t errlen);

/* Is id a well-formed message id (no '/', no leading '.', not too long)? */
bool dj_maildir_id_ok(const char *id);

#endif
