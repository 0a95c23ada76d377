/* SPDX-License-Identifier: MIT */
/*
 * fetch_child.c — the IMAP and POP3 readers in a process of their own.
 *
 * Why: what a mail server says goes through libetpan's parsers, and
 * libetpan's IMAP parser crashes on some malformed replies
 * (tests/fuzz/known/README.md).  With dj_fetch_config.isolate set, the
 * fetcher forks a child that owns the server connection and runs the
 * protocol's own reader (fetch_imap.c, fetch_pop3.c); the judge's process
 * asks it over a socket pair, one request and one answer at a time.  A child
 * that crashes, hangs past its time or talks nonsense is killed: that
 * request fails as TEMPFAIL with the reason, and the next request starts
 * a new child.  The judge itself, and its database, are untouched.
 *
 * What the child is.  One child serves one session with the server.  As
 * it starts it closes every descriptor it inherited but its socket to the
 * judge and 0-2 (the database's file, journal and lock, the outbound
 * connection: fetch_restrict.c), and the caller's cfg.child_wipe wipes the
 * caller's secrets it has a copy of (judged: the outbound password, the
 * reply key).  At the first request it connects and logs in (name lookup,
 * TLS and its trust store, the login: everything that needs files or new
 * sockets), then wipes its own password and, on Linux (x86-64, arm64), installs a seccomp filter allowing only
 * the calls of reading and writing its two sockets (fetch_restrict.c);
 * only then does it read what the server sends about the mailbox.  A
 * session that ends (POP3 ends one per pass; a broken connection; the
 * judge's disconnect) ends the child: its last answer says so and the
 * judge starts a new child for the next request.
 *
 * What it is not.  Its memory is a copy of the judge's at the fork: the
 * database pages SQLite had cached and the players' data the judge had
 * read stay in it, unreachable by any call it may make but readable to
 * code that takes the child over, which can then only write them to the
 * judge's socket or the server's.  It keeps the judge's uid (judged,
 * started as root, works as the state folder's owner before it fetches:
 * cli/run_as.c; a uid of the reader's own is not done: it would need a
 * second system user the package does not make).  The server's greeting and the login's replies are parsed
 * before the filter is in place.  Elsewhere than Linux there is no
 * filter: the closed descriptors and the wiped secrets only.
 *
 * The child leaves with _exit, running no atexit handlers.
 *
 * Wire format (same program on both ends, host byte order):
 *   request  op(1) arg(4) idlen(4) id
 *   answer   status(1) flags(1) errlen(4) err datalen(8) data
 * LIST's data is an array of dj_fetch_item; READ's the message bytes.
 * flags: FLAG_SET (READ truncated, WAIT woken), FLAG_LEAVING (the session
 * is over: the child leaves after this answer).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mail/fetch_int.h"

#define MAX_DATA ((uint64_t)1 << 32) /* no answer is larger */

enum { FLAG_SET = 1, FLAG_LEAVING = 2 };

struct dj_fetch_child {
    pid_t pid;
    int fd;
};

enum { OP_LIST = 'L', OP_READ = 'R', OP_CONFIRM = 'C', OP_QUARANTINE = 'Q',
       OP_WAIT = 'W', OP_DISCONNECT = 'D' };

/* ---- bytes on the socket ------------------------------------------------ */

/* All of buf, or false. */
static bool put(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* All n bytes before the deadline (ms on the monotonic clock; < 0: none). */
static bool get(int fd, void *buf, size_t n, int64_t deadline)
{
    char *p = buf;
    while (n > 0) {
        if (deadline >= 0) {
            int64_t left = deadline - now_ms();
            if (left <= 0)
                return false;
            struct pollfd pf = {.fd = fd, .events = POLLIN};
            int r = poll(&pf, 1, left > 60000 ? 60000 : (int)left);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                continue; /* the deadline is checked above */
        }
        ssize_t got = read(fd, p, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        p += got;
        n -= (size_t)got;
    }
    return true;
}

/* ---- the child ----------------------------------------------------------- */

static bool answer(int fd, dj_mail_status st, int flags, const char *err,
                   const void *data, uint64_t len)
{
    unsigned char head[2] = {(unsigned char)st, (unsigned char)flags};
    uint32_t elen = st == DJ_MAIL_OK || !err ? 0 : (uint32_t)strlen(err);
    return put(fd, head, 2) && put(fd, &elen, 4) && put(fd, err, elen) &&
           put(fd, &len, 8) && (len == 0 || put(fd, data, (size_t)len));
}

static bool in_session(const dj_fetcher *f)
{
    return f->imap != NULL || f->pop3 != NULL;
}

/* Wipe a secret string in place (volatile: the compiler may not skip
 * stores to memory it sees no later read of). */
static void wipe(char *s)
{
    if (!s)
        return;
    for (volatile char *p = s; *p; p++)
        *p = '\0';
}

/*
 * Connect and log in, then restrict this process: the password is no
 * longer needed, nor any system call but those of the session (the
 * descriptors it inherited were closed as it started).  DJ_MAIL_OK,
 * or the failure (the child then answers it and leaves).
 */
static dj_mail_status connect_and_restrict(dj_fetcher *f, char *err,
                                           size_t errlen)
{
    dj_mail_status st = f->ops->connect(f, err, errlen);
    wipe(f->password);
    if (st != DJ_MAIL_OK)
        return st;
    if (!in_session(f))
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                            "the session ended as it began");
    char why[200];
    if (dj_fetch_restrict(why, sizeof why) < 0)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "%s", why);
    if (f->cfg.child_restricted)
        f->cfg.child_restricted(f->cfg.child_ctx);
    return DJ_MAIL_OK;
}

/* Serve the requests of one session with the protocol's own reader,
 * until the session ends or the judge hangs up. */
static void serve(dj_fetcher *f, int fd)
{
    const dj_fetch_ops *ops = f->ops;
    bool restricted = false;
    dj_buf msg;
    dj_buf_init(&msg);
    for (;;) {
        unsigned char op;
        uint32_t arg, idlen;
        char id[DJ_FETCH_ID_MAX];
        if (!get(fd, &op, 1, -1) || !get(fd, &arg, 4, -1) ||
            !get(fd, &idlen, 4, -1) || idlen >= sizeof id ||
            !get(fd, id, idlen, -1))
            break;
        id[idlen] = '\0';
        char err[DJ_MAIL_ERR_MAX] = "";
        bool ok = true;
        if (!restricted && op == OP_DISCONNECT) {
            answer(fd, DJ_MAIL_OK, FLAG_LEAVING, NULL, NULL, 0);
            break; /* never connected: nothing to end */
        }
        if (!restricted) {
            restricted = true;
            dj_mail_status st = connect_and_restrict(f, err, sizeof err);
            if (st != DJ_MAIL_OK) {
                answer(fd, st, FLAG_LEAVING, err, NULL, 0);
                break;
            }
        }
        int leaving = 0;
        if (op == OP_LIST) {
            dj_fetch_items l = {NULL, 0, 0, arg};
            dj_fetch_item *items;
            size_t n;
            dj_mail_status st = ops->list(f, &l, err, sizeof err);
            dj_fetch_items_take(&l, st, &items, &n);
            leaving = in_session(f) ? 0 : FLAG_LEAVING;
            ok = answer(fd, st, leaving, err, items, n * sizeof *items);
            free(items);
        } else if (op == OP_READ) {
            bool trunc = false;
            dj_buf_reset(&msg);
            dj_mail_status st =
                ops->read(f, id, arg, &msg, &trunc, err, sizeof err);
            leaving = in_session(f) ? 0 : FLAG_LEAVING;
            ok = answer(fd, st, (trunc ? FLAG_SET : 0) | leaving, err,
                        msg.data, st == DJ_MAIL_OK ? msg.len : 0);
        } else if (op == OP_CONFIRM || op == OP_QUARANTINE) {
            dj_mail_status st =
                op == OP_CONFIRM ? ops->confirm(f, id, err, sizeof err)
                                 : ops->quarantine(f, id, err, sizeof err);
            leaving = in_session(f) ? 0 : FLAG_LEAVING;
            ok = answer(fd, st, leaving, err, NULL, 0);
        } else if (op == OP_WAIT) {
            bool woken = false;
            dj_mail_status st =
                ops->wait(f, (int)arg, &woken, err, sizeof err);
            leaving = in_session(f) ? 0 : FLAG_LEAVING;
            ok = answer(fd, st, (woken ? FLAG_SET : 0) | leaving, err, NULL,
                        0);
        } else if (op == OP_DISCONNECT) {
            ops->disconnect(f);
            leaving = FLAG_LEAVING;
            ok = answer(fd, DJ_MAIL_OK, leaving, NULL, NULL, 0);
        } else {
            break;
        }
        if (!ok || leaving)
            break;
    }
    dj_buf_free(&msg);
}

/* ---- the judge's side ------------------------------------------------------ */

/* Hang up; a healthy child ends its session (QUIT) and leaves, one that
 * does not within the time of a few network operations is killed. */
static void child_stop(dj_fetcher *f)
{
    struct dj_fetch_child *c = f->child;
    if (!c)
        return;
    close(c->fd);
    int64_t deadline = now_ms() + (int64_t)f->cfg.timeout * 1000 * 2 + 2000;
    for (;;) {
        pid_t r = waitpid(c->pid, NULL, WNOHANG);
        if (r == c->pid || (r < 0 && errno != EINTR))
            break;
        if (now_ms() > deadline) {
            kill(c->pid, SIGKILL);
            while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
                ;
            break;
        }
        struct timespec ts = {0, 20 * 1000000L};
        nanosleep(&ts, NULL);
    }
    free(c);
    f->child = NULL;
}

static dj_mail_status child_start(dj_fetcher *f, char *err, size_t errlen)
{
    if (f->child)
        return DJ_MAIL_OK;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                            "cannot start the mail reader: %s",
                            strerror(errno));
    struct dj_fetch_child *c = malloc(sizeof *c);
    pid_t pid = c ? fork() : -1;
    if (pid < 0) {
        free(c);
        close(sv[0]);
        close(sv[1]);
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                            "cannot start the mail reader: %s",
                            strerror(errno));
    }
    if (pid == 0) {
        free(c); /* the parent's record of us */
        close(sv[0]);
        dj_fetch_close_other_fds(sv[1], -1);
        if (f->cfg.child_wipe)
            f->cfg.child_wipe(f->cfg.child_ctx);
        signal(SIGPIPE, SIG_IGN);
        f->cfg.isolate = false; /* this copy talks to the server itself */
        f->child = NULL;
        f->ops = dj_fetch_protocol(f->cfg.kind);
        serve(f, sv[1]);
        f->ops->disconnect(f); /* QUIT: POP3's DELEs take effect */
        _exit(0);
    }
    close(sv[1]);
    c->pid = pid;
    c->fd = sv[0];
    f->child = c;
    return DJ_MAIL_OK;
}

/* Why the child failed us, once it is gone (a dying child closes its
 * socket a moment before it can be reaped: give it a second). */
static dj_mail_status child_lost(dj_fetcher *f, const char *what, char *err,
                                 size_t errlen)
{
    pid_t pid = f->child->pid;
    int status = 0;
    bool reaped = false;
    for (int i = 0; i < 50 && !reaped; i++) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        reaped = r == pid || (r < 0 && errno != EINTR);
        if (!reaped) {
            struct timespec ts = {0, 20 * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
    if (!reaped) {
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    close(f->child->fd);
    free(f->child);
    f->child = NULL;
    const char *proto = dj_fetch_protocol(f->cfg.kind)->name;
    if (reaped && WIFSIGNALED(status))
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                            "the %s reader died on %s (signal %d); a new "
                            "one starts at the next try",
                            proto, what, WTERMSIG(status));
    if (reaped && WIFEXITED(status) && WEXITSTATUS(status) != 0)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                            "the %s reader died on %s (exit status %d); a "
                            "new one starts at the next try",
                            proto, what, WEXITSTATUS(status));
    return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                        "the %s reader %s during %s and was stopped; a new "
                        "one starts at the next try",
                        proto, reaped ? "left" : "did not answer in time",
                        what);
}

/*
 * One request and its answer.  *data (malloc'd, NULL when none) and
 * *datalen get the answer's data, *flag its flag.
 */
static dj_mail_status ask(dj_fetcher *f, unsigned char op, uint32_t arg,
                          const char *id, int64_t budget_ms, bool *flag,
                          char **data, uint64_t *datalen, char *err,
                          size_t errlen)
{
    static const char *const names[] = {"a listing", "a read", "a confirm",
                                        "a quarantine", "a wait",
                                        "a disconnect"};
    const char *what = op == OP_LIST          ? names[0]
                       : op == OP_READ        ? names[1]
                       : op == OP_CONFIRM     ? names[2]
                       : op == OP_QUARANTINE  ? names[3]
                       : op == OP_WAIT        ? names[4]
                                              : names[5];
    *data = NULL;
    *datalen = 0;
    dj_mail_status st = child_start(f, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    int fd = f->child->fd;
    uint32_t idlen = id ? (uint32_t)strlen(id) : 0;
    if (idlen >= DJ_FETCH_ID_MAX)
        return dj_mail_fail(err, errlen, DJ_MAIL_GONE, "no message %s", id);
    int64_t deadline = now_ms() + budget_ms;
    unsigned char head[2];
    uint32_t elen;
    if (!put(fd, &op, 1) || !put(fd, &arg, 4) || !put(fd, &idlen, 4) ||
        !put(fd, id, idlen) || !get(fd, head, 2, deadline) ||
        !get(fd, &elen, 4, deadline) || elen >= DJ_MAIL_ERR_MAX ||
        head[0] > DJ_MAIL_UNUSABLE)
        return child_lost(f, what, err, errlen);
    char e[DJ_MAIL_ERR_MAX];
    if (!get(fd, e, elen, deadline) || !get(fd, datalen, 8, deadline) ||
        *datalen > MAX_DATA)
        return child_lost(f, what, err, errlen);
    e[elen] = '\0';
    if (*datalen) {
        *data = malloc((size_t)*datalen);
        if (!*data) {
            child_lost(f, what, err, errlen);
            return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                                "out of memory");
        }
        if (!get(fd, *data, (size_t)*datalen, deadline)) {
            free(*data);
            *data = NULL;
            return child_lost(f, what, err, errlen);
        }
    }
    *flag = (head[1] & FLAG_SET) != 0;
    if (head[1] & FLAG_LEAVING)
        child_stop(f); /* the session is over: the next request, a new one */
    st = (dj_mail_status)head[0];
    if (st != DJ_MAIL_OK)
        dj_mail_fail(err, errlen, st, "%s", e);
    return st;
}

/* How long a request may take: several network operations' worth. */
static int64_t budget(const dj_fetcher *f, int wait_ms)
{
    return (int64_t)f->cfg.timeout * 1000 * 8 + wait_ms + 5000;
}

static dj_mail_status child_list(dj_fetcher *f, dj_fetch_items *l, char *err,
                                 size_t errlen)
{
    bool flag;
    char *data;
    uint64_t len;
    size_t max = l->max;
    dj_mail_status st = ask(f, OP_LIST, (uint32_t)(max > UINT32_MAX ? 0 : max),
                            NULL, budget(f, 0), &flag, &data, &len, err,
                            errlen);
    if (st != DJ_MAIL_OK || len % sizeof(dj_fetch_item) != 0) {
        free(data);
        return st != DJ_MAIL_OK ? st
                                : dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                                               "the mail reader's listing "
                                               "is garbled");
    }
    dj_fetch_item *items = (dj_fetch_item *)(void *)data;
    size_t n = (size_t)(len / sizeof *items);
    for (size_t i = 0; i < n; i++)
        items[i].id[DJ_FETCH_ID_MAX - 1] = '\0';
    l->v = items;
    l->n = l->cap = n;
    return DJ_MAIL_OK;
}

static dj_mail_status child_read(dj_fetcher *f, const char *id, size_t max,
                                 dj_buf *out, bool *truncated, char *err,
                                 size_t errlen)
{
    bool flag = false;
    char *data;
    uint64_t len;
    dj_mail_status st = ask(f, OP_READ, (uint32_t)(max > UINT32_MAX ? 0 : max),
                            id, budget(f, 0), &flag, &data, &len, err,
                            errlen);
    if (st == DJ_MAIL_OK) {
        dj_buf_append_n(out, data ? data : "", (size_t)len);
        if (!dj_buf_ok(out))
            st = dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    }
    free(data);
    *truncated = flag;
    return st;
}

static dj_mail_status simple(dj_fetcher *f, unsigned char op, uint32_t arg,
                             const char *id, int wait_ms, bool *flag,
                             char *err, size_t errlen)
{
    char *data;
    uint64_t len;
    bool fl = false;
    dj_mail_status st = ask(f, op, arg, id, budget(f, wait_ms), &fl, &data,
                            &len, err, errlen);
    free(data);
    if (flag)
        *flag = fl;
    return st;
}

static dj_mail_status child_confirm(dj_fetcher *f, const char *id, char *err,
                                    size_t errlen)
{
    return simple(f, OP_CONFIRM, 0, id, 0, NULL, err, errlen);
}

static dj_mail_status child_quarantine(dj_fetcher *f, const char *id,
                                       char *err, size_t errlen)
{
    return simple(f, OP_QUARANTINE, 0, id, 0, NULL, err, errlen);
}

static dj_mail_status child_wait(dj_fetcher *f, int timeout_ms, bool *woken,
                                 char *err, size_t errlen)
{
    return simple(f, OP_WAIT, (uint32_t)timeout_ms, NULL, timeout_ms, woken,
                  err, errlen);
}

static void child_disconnect(dj_fetcher *f)
{
    char err[DJ_MAIL_ERR_MAX];
    if (f->child)
        simple(f, OP_DISCONNECT, 0, NULL, 0, NULL, err, sizeof err);
}

/* The protocol's own checks: the child is started at the first request. */
static dj_mail_status child_open(dj_fetcher *f, char *err, size_t errlen)
{
    return dj_fetch_protocol(f->cfg.kind)->open(f, err, errlen);
}

/* The child ends its own session when the judge hangs up. */
static void child_close(dj_fetcher *f)
{
    child_stop(f);
}

const dj_fetch_ops dj_fetch_child_ops = {
    .name = "isolated reader",
    .open = child_open,
    .list = child_list,
    .read = child_read,
    .confirm = child_confirm,
    .quarantine = child_quarantine,
    .wait = child_wait,
    .disconnect = child_disconnect,
    .close = child_close,
};
