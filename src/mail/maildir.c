/* SPDX-License-Identifier: MIT */
/*
 * maildir.c — see maildir.h.  Plain POSIX, no libetpan: the few system
 * calls Maildir needs are easier to make crash-safe by hand (fsync of the
 * file before it becomes visible, fsync of the directory after each
 * rename) than through a library that hides them.
 *
 * File names: new deliveries are "SECONDS.MusecPpidRrandom.host", unique
 * without any shared counter (random bits instead of a global sequence);
 * link() refuses to overwrite, so even a collision cannot lose a message.
 * Names in cur/ carry ":2,FLAGS" (flags in ASCII order).
 */
#define _POSIX_C_SOURCE 200809L

#include "mail/maildir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "util/array.h"
#include "util/fmt.h"

#define SUBDIR_PATH_MAX (DJ_MAILDIR_PATH_MAX + DJ_MAILDIR_ID_MAX + 16)
#define HOST_MAX 64

bool dj_maildir_id_ok(const char *id)
{
    size_t n = id ? strlen(id) : 0;
    if (n == 0 || n >= DJ_MAILDIR_ID_MAX || id[0] == '.')
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)id[i];
        if (c == '/' || c == ':' || c < 0x20 || c == 0x7f)
            return false;
    }
    return true;
}

/* Make sure path is a directory, creating it when asked. */
static dj_mail_status need_dir(const char *path, bool create, char *err,
                               size_t errlen)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return DJ_MAIL_OK;
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "%s is not a directory", path);
    }
    if (errno != ENOENT || !create)
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "not a Maildir: %s: %s", path, strerror(errno));
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "cannot create %s: %s", path, strerror(errno));
    return DJ_MAIL_OK;
}

dj_mail_status dj_maildir_open(dj_maildir *md, const char *path, bool create,
                               char *err, size_t errlen)
{
    static const char *const subs[] = {"tmp", "new", "cur"};
    size_t n = path ? strlen(path) : 0;
    while (n > 1 && path[n - 1] == '/')
        n--;
    if (n == 0 || n >= sizeof md->path - 8)
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "Maildir path empty or too long");
    memcpy(md->path, path, n);
    md->path[n] = '\0';
    dj_mail_status st = need_dir(md->path, create, err, errlen);
    for (size_t i = 0; st == DJ_MAIL_OK && i < 3; i++) {
        char sub[DJ_MAILDIR_PATH_MAX];
        if (!dj_fmt(sub, sizeof sub, "%s/%s", md->path, subs[i]))
            return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                                "Maildir path too long");
        st = need_dir(sub, create, err, errlen);
    }
    return st;
}

/* fsync a directory, so that a rename or link in it survives a crash. */
static int sync_dir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int r = fsync(fd);
    close(fd);
    return r;
}

static int sync_subdir(const dj_maildir *md, const char *sub)
{
    char p[DJ_MAILDIR_PATH_MAX + 8];
    if (!dj_fmt(p, sizeof p, "%s/%s", md->path, sub))
        return -1;
    return sync_dir(p);
}

/* This host's name with '/' and ':' escaped as the convention asks. */
static void host_part(char *out, size_t cap)
{
    char host[HOST_MAX + 1] = "localhost";
    if (gethostname(host, sizeof host - 1) != 0 || !host[0])
        strcpy(host, "localhost");
    host[HOST_MAX] = '\0';
    size_t o = 0;
    for (const char *p = host; *p && o + 5 < cap; p++) {
        if (*p == '/' || *p == ':') {
            o += (size_t)snprintf(out + o, cap - o, "\\%03o",
                                  (unsigned)(unsigned char)*p);
        } else if ((unsigned char)*p > 0x20 && (unsigned char)*p < 0x7f) {
            out[o++] = *p;
        }
    }
    out[o] = '\0';
}

static void unique_name(char *out, size_t cap)
{
    struct timeval tv;
    uint64_t rnd;
    char host[HOST_MAX * 2]; /* escapes beyond it are cut */
    gettimeofday(&tv, NULL);
    dj_mail_random(&rnd, sizeof rnd);
    host_part(host, sizeof host);
    snprintf(out, cap, "%lld.M%06ldP%ldR%016" PRIx64 ".%s",
             (long long)tv.tv_sec, (long)tv.tv_usec, (long)getpid(), rnd,
             host);
}

static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, data, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        data += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Write data to a fresh file tmp/NAME and fsync it. */
static dj_mail_status write_tmp(const char *tmp_path, const char *data,
                                size_t len, char *err, size_t errlen)
{
    int fd = open(tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "create %s: %s",
                            tmp_path, strerror(errno));
    if (write_all(fd, data, len) != 0 || fsync(fd) != 0) {
        int e = errno;
        close(fd);
        unlink(tmp_path);
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "write %s: %s",
                            tmp_path, strerror(e));
    }
    if (close(fd) != 0) {
        int e = errno;
        unlink(tmp_path);
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "close %s: %s",
                            tmp_path, strerror(e));
    }
    return DJ_MAIL_OK;
}

/*
 * Make tmp_path visible as new_path without ever overwriting a file:
 * link() fails on an existing name, where rename() would replace it.
 * Filesystems without hard links fall back to rename (names are unique).
 * Returns 0, 1 when new_path exists, -1 on error.
 */
static int publish(const char *tmp_path, const char *new_path)
{
    if (link(tmp_path, new_path) == 0) {
        unlink(tmp_path); /* a crash here leaves a stale tmp copy only */
        return 0;
    }
    if (errno == EEXIST)
        return 1;
    if (errno == EPERM || errno == ENOTSUP || errno == EXDEV ||
        errno == ENOSYS)
        return rename(tmp_path, new_path) == 0 ? 0 : -1;
    return -1;
}

dj_mail_status dj_maildir_deliver(const dj_maildir *md, const char *data,
                                  size_t len, char *id_out, char *err,
                                  size_t errlen)
{
    for (int attempt = 0; attempt < 5; attempt++) {
        char name[DJ_MAILDIR_ID_MAX], tmp[SUBDIR_PATH_MAX],
            dst[SUBDIR_PATH_MAX];
        unique_name(name, sizeof name);
        if (!dj_fmt(tmp, sizeof tmp, "%s/tmp/%s", md->path, name) ||
            !dj_fmt(dst, sizeof dst, "%s/new/%s", md->path, name))
            return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                                "Maildir path too long");
        dj_mail_status st = write_tmp(tmp, data, len, err, errlen);
        if (st != DJ_MAIL_OK)
            return st;
        int r = publish(tmp, dst);
        if (r == 1) { /* name taken (clock went back?): a new name */
            unlink(tmp);
            continue;
        }
        if (r != 0) {
            int e = errno;
            unlink(tmp);
            return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                                "deliver into %s/new: %s", md->path,
                                strerror(e));
        }
        if (sync_subdir(md, "new") != 0)
            return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                                "sync %s/new: %s", md->path, strerror(errno));
        if (id_out)
            snprintf(id_out, DJ_MAILDIR_ID_MAX, "%s", name);
        return DJ_MAIL_OK;
    }
    return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                        "no unique name in %s/new after 5 tries", md->path);
}

static dj_mail_status find_message(const dj_maildir *md, const char *id,
                                   const char **sub, char *name, char *err,
                                   size_t errlen);

dj_mail_status dj_maildir_deliver_as(const dj_maildir *md, const char *id,
                                     const char *data, size_t len, char *err,
                                     size_t errlen)
{
    const char *sub;
    char found[DJ_MAILDIR_ID_MAX], tmp[SUBDIR_PATH_MAX], dst[SUBDIR_PATH_MAX];
    dj_mail_status st = find_message(md, id, &sub, found, err, errlen);
    if (st != DJ_MAIL_GONE)
        return st; /* OK: delivered before (a re-send); else a failure */
    if (errlen)
        err[0] = '\0'; /* not there yet is the usual case, not an error */
    if (!dj_fmt(tmp, sizeof tmp, "%s/tmp/%s", md->path, id) ||
        !dj_fmt(dst, sizeof dst, "%s/new/%s", md->path, id))
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "Maildir path too long");
    unlink(tmp); /* an earlier attempt's leftover */
    st = write_tmp(tmp, data, len, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    int r = publish(tmp, dst);
    if (r == 1) /* there meanwhile: delivered */
        unlink(tmp);
    else if (r != 0) {
        int e = errno;
        unlink(tmp);
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                            "deliver into %s/new: %s", md->path, strerror(e));
    }
    if (sync_subdir(md, "new") != 0)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "sync %s/new: %s",
                            md->path, strerror(errno));
    return DJ_MAIL_OK;
}

/* The flags of a cur/ name ("" when it has no ":2," part). */
static const char *name_flags(const char *name)
{
    const char *info = strstr(name, ":2,");
    return info ? info + 3 : "";
}

/* Is this directory entry an unseen message? */
static bool is_unseen(const char *name, bool in_cur)
{
    if (name[0] == '.')
        return false;
    if (!in_cur)
        return true;
    return strchr(name_flags(name), 'S') == NULL;
}

/* Copy the unique part of a name (before ':') into id. */
static bool id_of(const char *name, char *id)
{
    size_t n = strcspn(name, ":");
    if (n == 0 || n >= DJ_MAILDIR_ID_MAX)
        return false;
    memcpy(id, name, n);
    id[n] = '\0';
    return true;
}

/* A bound on one listing: a mailbox a hundred thousand deep is listed
 * that far, in arrival order, and the rest waits for the next look. */
#define MAILDIR_LIST_MAX 100000

typedef struct entry_list {
    dj_maildir_entry *v;
    size_t n, cap, max;
} entry_list;

static bool entry_push(entry_list *l, const char *id, const struct stat *st)
{
    dj_maildir_entry *v = dj_array_grow(l->v, &l->cap, l->n, sizeof *v, 32);
    if (!v)
        return false;
    l->v = v;
    dj_maildir_entry *e = &l->v[l->n++];
    snprintf(e->id, sizeof e->id, "%s", id);
    e->size = (uint64_t)st->st_size;
    e->mtime = (int64_t)st->st_mtime;
    return true;
}

/* Add the unseen regular files of new/ or cur/ to l. */
static dj_mail_status collect(const dj_maildir *md, const char *sub,
                              entry_list *l, char *err, size_t errlen)
{
    char p[DJ_MAILDIR_PATH_MAX + 8];
    if (!dj_fmt(p, sizeof p, "%s/%s", md->path, sub))
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL, "path too long");
    DIR *d = opendir(p);
    if (!d)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "open %s: %s", p,
                            strerror(errno));
    bool in_cur = strcmp(sub, "cur") == 0;
    dj_mail_status st = DJ_MAIL_OK;
    struct dirent *de;
    /* Every message is listed, then sorted, then the oldest `max` kept:
     * stopping early would keep the first names in directory order, not
     * the first messages to arrive. */
    while (l->n < MAILDIR_LIST_MAX && (de = readdir(d)) != NULL) {
        char id[DJ_MAILDIR_ID_MAX];
        struct stat sb;
        if (!is_unseen(de->d_name, in_cur) || !id_of(de->d_name, id) ||
            !dj_maildir_id_ok(id))
            continue;
        /* Another reader may move the file meanwhile: skip it then. */
        if (fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(sb.st_mode))
            continue;
        if (!entry_push(l, id, &sb)) {
            st = dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
            break;
        }
    }
    closedir(d);
    return st;
}

/* Arrival order (maildir_order.c). */
static int entry_cmp(const void *a, const void *b)
{
    const dj_maildir_entry *x = a, *y = b;
    return dj_maildir_name_cmp(x->id, y->id, x->mtime, y->mtime);
}

dj_mail_status dj_maildir_list(const dj_maildir *md, size_t max,
                               dj_maildir_entry **out, size_t *n, char *err,
                               size_t errlen)
{
    entry_list l = {NULL, 0, 0, max};
    dj_mail_status st = collect(md, "new", &l, err, errlen);
    if (st == DJ_MAIL_OK)
        st = collect(md, "cur", &l, err, errlen);
    if (st != DJ_MAIL_OK) {
        free(l.v);
        *out = NULL;
        *n = 0;
        return st;
    }
    if (l.n > 1)
        qsort(l.v, l.n, sizeof *l.v, entry_cmp);
    if (max && l.n > max)
        l.n = max;
    *out = l.v;
    *n = l.n;
    return DJ_MAIL_OK;
}

/*
 * Find message id: new/ID, or a cur/ name whose unique part is ID.
 * Writes the file's directory ("new"/"cur") and name.
 */
static dj_mail_status find_message(const dj_maildir *md, const char *id,
                                   const char **sub, char *name, char *err,
                                   size_t errlen)
{
    char p[SUBDIR_PATH_MAX];
    struct stat sb;
    if (!dj_maildir_id_ok(id))
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "malformed Maildir message id");
    if (dj_fmt(p, sizeof p, "%s/new/%s", md->path, id) &&
        lstat(p, &sb) == 0 && S_ISREG(sb.st_mode)) {
        *sub = "new";
        snprintf(name, DJ_MAILDIR_ID_MAX, "%s", id);
        return DJ_MAIL_OK;
    }
    if (!dj_fmt(p, sizeof p, "%s/cur", md->path))
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL, "path too long");
    DIR *d = opendir(p);
    if (!d)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "open %s: %s", p,
                            strerror(errno));
    size_t idlen = strlen(id);
    dj_mail_status st = DJ_MAIL_GONE;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strncmp(de->d_name, id, idlen) == 0 &&
            (de->d_name[idlen] == '\0' || de->d_name[idlen] == ':') &&
            strlen(de->d_name) < DJ_MAILDIR_ID_MAX) {
            *sub = "cur";
            snprintf(name, DJ_MAILDIR_ID_MAX, "%s", de->d_name);
            st = DJ_MAIL_OK;
            break;
        }
    }
    closedir(d);
    if (st == DJ_MAIL_GONE)
        dj_mail_fail(err, errlen, st, "no message %s in %s", id, md->path);
    return st;
}

/* Read at most max bytes (0: all) of an open regular file into out. */
static dj_mail_status read_fd(int fd, size_t max, dj_buf *out,
                              bool *truncated, char *err, size_t errlen)
{
    char chunk[8192];
    size_t total = 0;
    *truncated = false;
    for (;;) {
        size_t want = sizeof chunk;
        if (max && max - total < want)
            want = max - total + 1; /* one more byte detects "longer" */
        ssize_t r = read(fd, chunk, want);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "read: %s",
                                strerror(errno));
        if (r == 0)
            break;
        size_t got = (size_t)r;
        if (max && total + got > max) {
            dj_buf_append_n(out, chunk, max - total);
            *truncated = true;
            break;
        }
        dj_buf_append_n(out, chunk, got);
        total += got;
    }
    if (!dj_buf_ok(out))
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    return DJ_MAIL_OK;
}

dj_mail_status dj_maildir_read(const dj_maildir *md, const char *id,
                               size_t max, dj_buf *out, bool *truncated,
                               char *err, size_t errlen)
{
    const char *sub;
    char name[DJ_MAILDIR_ID_MAX], p[SUBDIR_PATH_MAX];
    bool trunc = false;
    dj_buf_reset(out);
    dj_mail_status st = find_message(md, id, &sub, name, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    if (!dj_fmt(p, sizeof p, "%s/%s/%s", md->path, sub, name))
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL, "path too long");
    int fd = open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return dj_mail_fail(err, errlen,
                            errno == ENOENT ? DJ_MAIL_GONE : DJ_MAIL_TEMPFAIL,
                            "open %s: %s", p, strerror(errno));
    st = read_fd(fd, max, out, &trunc, err, errlen);
    close(fd);
    if (truncated)
        *truncated = trunc;
    return st;
}

/* name with the S flag added, flags kept in ASCII order, no repeats. */
static bool seen_name(const char *name, char *out, size_t cap)
{
    char id[DJ_MAILDIR_ID_MAX], flags[64];
    size_t n = 0;
    if (!id_of(name, id))
        return false;
    flags[n++] = 'S';
    for (const char *f = name_flags(name); *f && n < sizeof flags - 1; f++) {
        if ((unsigned char)*f > 0x20 && !memchr(flags, *f, n))
            flags[n++] = *f;
    }
    for (size_t i = 1; i < n; i++) { /* insertion sort: a handful */
        char c = flags[i];
        size_t j = i;
        for (; j > 0 && flags[j - 1] > c; j--)
            flags[j] = flags[j - 1];
        flags[j] = c;
    }
    flags[n] = '\0';
    return dj_fmt(out, cap, "%s:2,%s", id, flags);
}

dj_mail_status dj_maildir_mark_done(const dj_maildir *md, const char *id,
                                    char *err, size_t errlen)
{
    const char *sub;
    char name[DJ_MAILDIR_ID_MAX], done[DJ_MAILDIR_ID_MAX];
    char from[SUBDIR_PATH_MAX], to[SUBDIR_PATH_MAX];
    dj_mail_status st = find_message(md, id, &sub, name, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    if (strcmp(sub, "cur") == 0 && strchr(name_flags(name), 'S'))
        return DJ_MAIL_OK; /* already done */
    if (!seen_name(name, done, sizeof done) ||
        !dj_fmt(from, sizeof from, "%s/%s/%s", md->path, sub, name) ||
        !dj_fmt(to, sizeof to, "%s/cur/%s", md->path, done))
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "message name too long");
    if (rename(from, to) != 0)
        return dj_mail_fail(err, errlen,
                            errno == ENOENT ? DJ_MAIL_GONE : DJ_MAIL_TEMPFAIL,
                            "mark %s done: %s", id, strerror(errno));
    /* Both directories changed; cur/ first so a crash keeps one copy. */
    if (sync_subdir(md, "cur") != 0 ||
        (strcmp(sub, "new") == 0 && sync_subdir(md, "new") != 0))
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "sync %s: %s",
                            md->path, strerror(errno));
    return DJ_MAIL_OK;
}

dj_mail_status dj_maildir_quarantine(const dj_maildir *md, const char *id,
                                     char *err, size_t errlen)
{
    const char *sub;
    char name[DJ_MAILDIR_ID_MAX], folder[DJ_MAILDIR_PATH_MAX + 32];
    char from[SUBDIR_PATH_MAX], to[SUBDIR_PATH_MAX];
    dj_mail_status st = find_message(md, id, &sub, name, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    dj_maildir q;
    if (!dj_fmt(folder, sizeof folder, "%s/%s", md->path,
                  DJ_MAILDIR_QUARANTINE))
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL, "path too long");
    st = dj_maildir_open(&q, folder, true, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    if (!dj_fmt(from, sizeof from, "%s/%s/%s", md->path, sub, name) ||
        !dj_fmt(to, sizeof to, "%s/new/%s", q.path, name))
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "message name too long");
    if (rename(from, to) != 0)
        return dj_mail_fail(err, errlen,
                            errno == ENOENT ? DJ_MAIL_GONE : DJ_MAIL_TEMPFAIL,
                            "move %s aside: %s", id, strerror(errno));
    char qnew[DJ_MAILDIR_PATH_MAX + 8];
    if (!dj_fmt(qnew, sizeof qnew, "%s/new", q.path) || sync_dir(qnew) != 0 ||
        sync_subdir(md, sub) != 0)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "sync %s: %s",
                            md->path, strerror(errno));
    return DJ_MAIL_OK;
}

dj_mail_status dj_maildir_clean_tmp(const dj_maildir *md, int64_t older_than,
                                    int *removed, char *err, size_t errlen)
{
    char p[DJ_MAILDIR_PATH_MAX + 8];
    int count = 0;
    if (!dj_fmt(p, sizeof p, "%s/tmp", md->path))
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL, "path too long");
    DIR *d = opendir(p);
    if (!d)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "open %s: %s", p,
                            strerror(errno));
    time_t now = time(NULL);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        struct stat sb;
        if (de->d_name[0] == '.' ||
            fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(sb.st_mode))
            continue;
        /* A delivery in progress is young; only old leftovers go. */
        if ((int64_t)now - (int64_t)sb.st_mtime >= older_than &&
            unlinkat(dirfd(d), de->d_name, 0) == 0)
            count++;
    }
    closedir(d);
    if (removed)
        *removed = count;
    return DJ_MAIL_OK;
}
