/* SPDX-License-Identifier: MIT */
/*
 * send_sendmail.c — hand the message to the local MTA's sendmail program:
 * `sendmail -oi -f SENDER -- RCPT...`, message on standard input, exit
 * status checked (sysexits: 75 and the "system trouble" codes are
 * temporary, the rest permanent).
 *
 * No shell is involved, the addresses come after "--" (and are plain
 * addr-specs anyway), and -oi stops a lone "." line from ending the
 * message early.  The message goes through a socketpair written with
 * MSG_NOSIGNAL, so a sendmail that dies early gives an error, not a
 * SIGPIPE that would kill the judge; its output (stdout and stderr) is
 * read at the same time, so neither side can block the other, and kept
 * (bounded) for the error message.  Every wait has the configured timeout;
 * a sendmail that hangs is killed.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mail/send_int.h"

#define DEFAULT_SENDMAIL "/usr/sbin/sendmail"
#define OUTPUT_KEEP 300 /* bytes of sendmail's output kept for errors */
#define EX_TEMPFAIL_CODE 75

typedef struct child {
    pid_t pid;
    int in;     /* our end of its standard input */
    int out;    /* its stdout and stderr */
    int execfd; /* gets errno when exec fails; EOF when exec worked */
} child;

static void set_cloexec(int fd)
{
    fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
}

/* In the child: wire up the descriptors and exec; never returns. */
static void exec_child(const char *prog, char *const *argv, int in, int out,
                       int execfd)
{
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
        _exit(127);
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536)
        max = 65536;
    for (int fd = 3; fd < max; fd++) { /* the judge's sockets and files */
        if (fd != execfd)
            close(fd);
    }
    signal(SIGPIPE, SIG_DFL);
    if (strchr(prog, '/'))
        execv(prog, argv);
    else
        execvp(prog, argv);
    int e = errno;
    ssize_t w = write(execfd, &e, sizeof e);
    (void)w;
    _exit(127);
}

static int start_child(const char *prog, char *const *argv, child *c)
{
    int sv[2], op[2], ep[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return -1;
    if (pipe(op) != 0) {
        close(sv[0]);
        close(sv[1]);
        return -1;
    }
    if (pipe(ep) != 0) {
        close(sv[0]);
        close(sv[1]);
        close(op[0]);
        close(op[1]);
        return -1;
    }
    set_cloexec(sv[0]);
    set_cloexec(op[0]);
    set_cloexec(ep[0]);
    set_cloexec(ep[1]);
    c->pid = fork();
    if (c->pid == 0)
        exec_child(prog, argv, sv[1], op[1], ep[1]);
    close(sv[1]);
    close(op[1]);
    close(ep[1]);
    c->in = sv[0];
    c->out = op[0];
    c->execfd = ep[0];
    if (c->pid < 0) {
        close(c->in);
        close(c->out);
        close(c->execfd);
        return -1;
    }
    fcntl(c->in, F_SETFL, fcntl(c->in, F_GETFL) | O_NONBLOCK);
    return 0;
}

/* Keep up to OUTPUT_KEEP bytes of output, control characters as spaces. */
static void keep_output(char *kept, size_t *klen, const char *buf, size_t n)
{
    for (size_t i = 0; i < n && *klen < OUTPUT_KEEP; i++) {
        unsigned char ch = (unsigned char)buf[i];
        kept[(*klen)++] = ch < 0x20 || ch == 0x7f ? ' ' : (char)ch;
    }
    kept[*klen] = '\0';
}

/*
 * Feed the message and drain the output until both are done.  Returns 0,
 * or -1 on timeout (no progress for timeout seconds) or a write error.
 */
static int pump(child *c, const char *msg, size_t len, int timeout,
                char *kept, int *write_errno)
{
    size_t off = 0, klen = 0;
    bool out_open = true;
    *write_errno = 0;
    while (c->in >= 0 || out_open) {
        struct pollfd p[2] = {{c->in, POLLOUT, 0}, {c->out, POLLIN, 0}};
        if (!out_open)
            p[1].fd = -1;
        int r = poll(p, 2, timeout * 1000);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        if (c->in >= 0 && (p[0].revents & (POLLOUT | POLLERR | POLLHUP))) {
            ssize_t w = off < len ? send(c->in, msg + off, len - off,
                                         MSG_NOSIGNAL)
                                  : 0;
            if (w < 0 && errno != EAGAIN && errno != EINTR)
                *write_errno = errno;
            if (w > 0)
                off += (size_t)w;
            if (off == len || *write_errno) {
                close(c->in); /* end of message for sendmail */
                c->in = -1;
            }
        }
        if (out_open && (p[1].revents & (POLLIN | POLLERR | POLLHUP))) {
            char buf[512];
            ssize_t n = read(c->out, buf, sizeof buf);
            if (n > 0)
                keep_output(kept, &klen, buf, (size_t)n);
            else if (n == 0 || (errno != EINTR && errno != EAGAIN))
                out_open = false;
        }
    }
    return *write_errno ? -1 : 0;
}

/* Wait for the child, at most timeout seconds; then kill it. */
static int reap(pid_t pid, int timeout, int *status)
{
    struct timespec nap = {0, 10 * 1000 * 1000};
    for (long waited = 0; waited < timeout * 100L; waited++) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return 0;
        if (r < 0 && errno != EINTR)
            return -1;
        nanosleep(&nap, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, status, 0);
    return -1;
}

static dj_mail_status exit_status(int status, const char *kept, char *err,
                                  size_t errlen)
{
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return DJ_MAIL_OK;
    if (!WIFEXITED(status))
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                            "sendmail killed by signal %d: %s",
                            WIFSIGNALED(status) ? WTERMSIG(status) : 0, kept);
    int code = WEXITSTATUS(status);
    /* sysexits.h: 69-75 are the system's trouble (service unavailable,
     * software, OS, file, create, I/O, tempfail): try again later. */
    bool temp = code >= 69 && code <= EX_TEMPFAIL_CODE;
    return dj_mail_fail(err, errlen,
                        temp ? DJ_MAIL_TEMPFAIL : DJ_MAIL_PERMFAIL,
                        "sendmail exited with status %d: %s", code, kept);
}

/* argv: prog -oi -f SENDER -- RCPT... (only the recipients marked OK). */
static char **build_argv(const char *prog, const char *from,
                         const char *const *rcpts, size_t n,
                         const dj_mail_status *status)
{
    char **argv = calloc(n + 7, sizeof *argv);
    if (!argv)
        return NULL;
    size_t a = 0;
    argv[a++] = (char *)prog;
    argv[a++] = (char *)"-oi";
    argv[a++] = (char *)"-f";
    argv[a++] = (char *)(from[0] ? from : "<>");
    argv[a++] = (char *)"--";
    for (size_t i = 0; i < n; i++) {
        if (status[i] == DJ_MAIL_OK)
            argv[a++] = (char *)rcpts[i];
    }
    argv[a] = NULL;
    return argv;
}

static dj_mail_status run_sendmail(const char *prog, char **argv,
                                   const char *msg, size_t len, int timeout,
                                   char *err, size_t errlen)
{
    child c;
    char kept[OUTPUT_KEEP + 1] = "";
    int werr, status = 0, exec_errno = 0;
    if (start_child(prog, argv, &c) != 0)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                            "cannot start %s: %s", prog, strerror(errno));
    int pumped = pump(&c, msg, len, timeout, kept, &werr);
    if (c.in >= 0)
        close(c.in);
    close(c.out);
    ssize_t got = read(c.execfd, &exec_errno, sizeof exec_errno);
    close(c.execfd);
    /* A write error means sendmail stopped reading: wait for its verdict.
     * No progress at all means it hangs: kill it now. */
    int reaped = reap(c.pid, pumped == 0 || werr ? timeout : 0, &status);
    if (got == (ssize_t)sizeof exec_errno)
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL, "cannot run %s: %s",
                            prog, strerror(exec_errno));
    if (reaped != 0)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                            "%s timed out after %d s: %s", prog, timeout,
                            kept);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return exit_status(status, kept, err, errlen);
    if (pumped != 0)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                            "%s did not take the whole message: %s", prog,
                            strerror(werr));
    return exit_status(status, kept, err, errlen);
}

dj_mail_status dj_send_sendmail(dj_sender *s, const char *msg, size_t len,
                                const char *from, const char *const *rcpts,
                                size_t nrcpt, dj_mail_status *rcpt_status,
                                char *err, size_t errlen)
{
    const char *prog = s->cfg.sendmail ? s->cfg.sendmail : DEFAULT_SENDMAIL;
    char **argv = build_argv(prog, from, rcpts, nrcpt, rcpt_status);
    if (!argv)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    dj_mail_status st =
        run_sendmail(prog, argv, msg, len, s->cfg.timeout, err, errlen);
    free(argv);
    /* sendmail takes the message for all recipients or for none. */
    for (size_t i = 0; st != DJ_MAIL_OK && i < nrcpt; i++) {
        if (rcpt_status[i] == DJ_MAIL_OK)
            rcpt_status[i] = st;
    }
    return st;
}
