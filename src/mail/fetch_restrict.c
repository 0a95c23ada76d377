/* SPDX-License-Identifier: MIT */
/*
 * fetch_restrict.c — what the isolated IMAP/POP3 reader (fetch_child.c)
 * does to itself once it is connected: it keeps only its socket to the
 * judge and its connection to the server open, and, on Linux, installs a
 * seccomp filter that leaves it the system calls of reading one socket
 * and writing another and nothing else.
 *
 * Why here, and why so: the reader runs libetpan's parsers and GnuTLS on
 * what a mail server sends; if a reply takes it over, the filter leaves
 * the attacker no file to open, no process to start, no socket to make,
 * no connection to the database (its descriptors are closed).  The filter
 * is written with prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER) and a BPF
 * program from <linux/filter.h>: no library beyond libc.  Everything the
 * session needs before it can be restricted (name lookup, which reads
 * /etc; the TLS trust store; connecting; the login) is done first
 * (dj_fetch_ops.connect), so the allowed list stays short.  A call off
 * the list fails with EPERM (it does not kill the reader: a library that
 * tries an optional call, say to read a locale file, goes on without
 * it); a call from another ABI (x32, i386 on x86-64) kills it.
 */
#define _GNU_SOURCE

#include "mail/fetch_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

/* Close lo..hi (hi < 0: to the end). */
static void close_from(int lo, int hi)
{
    if (hi >= 0 && hi < lo)
        return;
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, (unsigned)lo, hi < 0 ? ~0u : (unsigned)hi,
                0u) == 0)
        return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    int last = max < 0 || max > 65536 ? 65536 : (int)max;
    for (int fd = lo; fd < last && (hi < 0 || fd <= hi); fd++)
        close(fd);
}

void dj_fetch_close_other_fds(int keep, int keep2)
{
    /* 0, 1 and 2 stay: stderr carries a dying reader's last words to the
     * judge's log; the others (the database, its journal, the lock file,
     * the outbound connection) go. */
    int a = keep < keep2 ? keep : keep2, b = keep < keep2 ? keep2 : keep;
    if (a < 3) /* one keep only (or one of 0-2) */
        a = b;
    if (a < 3) {
        close_from(3, -1);
        return;
    }
    close_from(3, a - 1);
    if (b != a)
        close_from(a + 1, b - 1);
    close_from(b + 1, -1);
}

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))

#if defined(__x86_64__)
#define DJ_AUDIT_ARCH AUDIT_ARCH_X86_64
#else
#define DJ_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

/* The calls a connected session makes: read and write its two sockets,
 * wait on them (poll/select, with timeouts), the clock, memory for malloc,
 * signals' bookkeeping, random bytes (TLS), closing, leaving. */
static const int allowed[] = {
    SYS_read, SYS_write, SYS_readv, SYS_writev,
    SYS_recvfrom, SYS_sendto, SYS_recvmsg, SYS_sendmsg,
    SYS_ppoll, SYS_pselect6,
#ifdef SYS_poll
    SYS_poll,
#endif
#ifdef SYS_select
    SYS_select,
#endif
    SYS_clock_gettime, SYS_clock_nanosleep, SYS_nanosleep, SYS_gettimeofday,
    SYS_futex, SYS_exit, SYS_exit_group,
    SYS_brk, SYS_mmap, SYS_munmap, SYS_mremap, SYS_madvise, SYS_mprotect,
    SYS_rt_sigaction, SYS_rt_sigprocmask, SYS_rt_sigreturn,
    SYS_restart_syscall,
    SYS_getrandom, SYS_close, SYS_fcntl, SYS_getpid, SYS_gettid,
    SYS_shutdown, SYS_getsockopt, SYS_setsockopt, SYS_fstat,
#ifdef SYS_newfstatat
    SYS_newfstatat,
#endif
    SYS_lseek, SYS_sched_yield,
};

#define NALLOWED (sizeof allowed / sizeof allowed[0])

int dj_fetch_restrict(char *why, size_t whylen)
{
    /* the arch check and its kill (3), the number's load (1), the x32
     * check (1, x86-64), one test a call, EPERM, ALLOW, the x32 kill */
    struct sock_filter prog[8 + NALLOWED];
    size_t n = 0;
    prog[n++] = (struct sock_filter)BPF_STMT(
        BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
    prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
                                             DJ_AUDIT_ARCH, 1, 0);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
                                             SECCOMP_RET_KILL_PROCESS);
    prog[n++] = (struct sock_filter)BPF_STMT(
        BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
    /* x32 calls (numbers with bit 30) jump past the tests, EPERM and
     * ALLOW to the kill at the end */
    prog[n++] = (struct sock_filter)BPF_JUMP(
        BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, (unsigned char)(NALLOWED + 2),
        0);
#endif
    for (size_t i = 0; i < NALLOWED; i++)
        /* a match jumps past the remaining tests and the EPERM verdict */
        prog[n++] = (struct sock_filter)BPF_JUMP(
            BPF_JMP | BPF_JEQ | BPF_K, (unsigned)allowed[i],
            (unsigned char)(NALLOWED - i), 0);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
                                             SECCOMP_RET_ERRNO | EPERM);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
                                             SECCOMP_RET_ALLOW);
#if defined(__x86_64__)
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
                                             SECCOMP_RET_KILL_PROCESS);
#endif
    struct sock_fprog fp = {.len = (unsigned short)n, .filter = prog};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp) != 0) {
        snprintf(why, whylen, "cannot restrict the mail reader (seccomp): %s",
                 strerror(errno));
        return -1;
    }
    return 0;
}

#else

int dj_fetch_restrict(char *why, size_t whylen)
{
    (void)why, (void)whylen;
    return 0; /* no filter on this system: closed descriptors only */
}

#endif
