/* SPDX-License-Identifier: MIT */
/*
 * fetch_probe.c — a probe for the tests: what the restricted mail reader
 * (fetch_child.c) may still do.  Set as dj_fetch_config.child_restricted,
 * it runs in the reader once restricted, tries to open /etc/hostname and
 * to make a socket, and says on stderr what happened:
 *
 *   fetch reader probe: open: Operation not permitted; socket: ...
 *
 * Only test programs refer to it (judged's test copy, test_hooks.c, and
 * tests/mailserver/djmail), so, a file of its own in libdjmail.a, it is
 * linked into no installed program.  It calls open, socket, close and
 * write only: the reader may call little else.
 */
#include "mail/fetch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void dj_fetch_probe(void *ctx)
{
    (void)ctx;
    int fd = open("/etc/hostname", O_RDONLY);
    int open_errno = fd < 0 ? errno : 0;
    if (fd >= 0)
        close(fd);
    int so = socket(AF_INET, SOCK_STREAM, 0);
    int socket_errno = so < 0 ? errno : 0;
    if (so >= 0)
        close(so);
    char line[200];
    int n = snprintf(line, sizeof line,
                     "fetch reader probe: open: %s; socket: %s\n",
                     open_errno ? strerror(open_errno) : "opened",
                     socket_errno ? strerror(socket_errno) : "made");
    if (n > 0 && write(2, line, (size_t)n) < 0)
        return;
}
