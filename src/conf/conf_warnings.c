/* SPDX-License-Identifier: MIT */
/*
 * conf_warnings.c — the risky settings of conf_warnings.h, checked on the
 * settings in force and the file they came from.
 */
#define _POSIX_C_SOURCE 200809L

#include "conf/conf_warnings.h"

#include <arpa/inet.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* Is host this machine: "localhost", 127.0.0.0/8 or ::1? */
static bool loopback(const char *host)
{
    if (!host || !*host || strcasecmp(host, "localhost") == 0)
        return true;
    struct in_addr v4;
    struct in6_addr v6;
    if (inet_pton(AF_INET, host, &v4) == 1)
        return (ntohl(v4.s_addr) >> 24) == 127;
    if (inet_pton(AF_INET6, host, &v6) == 1)
        return IN6_IS_ADDR_LOOPBACK(&v6);
    return false;
}

static int clear_text(const char *what, const char *type, const char *tls,
                      const char *host, const char *const *networked,
                      dj_buf *out)
{
    bool over_network = false;
    for (const char *const *t = networked; *t; t++)
        over_network |= strcmp(type, *t) == 0;
    if (!over_network || strcmp(tls, "none") != 0 || loopback(host))
        return 0;
    dj_buf_printf(out, "%s: tls = \"none\" towards %s, which is not this "
                       "machine: its password and the players' mail cross "
                       "the network in the clear (use \"starttls\" or "
                       "\"tls\")\n",
                  what, host);
    return 1;
}

/* Does this process run in group gid (its own or a supplementary one)? */
static bool in_group(gid_t gid)
{
    if (gid == getegid())
        return true;
    gid_t groups[256];
    int n = getgroups(256, groups);
    for (int i = 0; i < n; i++)
        if (groups[i] == gid)
            return true;
    return false;
}

int dj_config_warnings(const dj_config *c, dj_buf *out)
{
    int n = 0;
    const dj_mail_settings *m = &c->mail;
    struct stat st;
    /* The one policy (judge.conf(5), FILES): a file with a password is
     * root:dipjudge 0640 (the package's) or 0600 owned by the judge's
     * user.  Readable by others, or by a group the program does not run
     * in (so not the judge's own group), is a warning. */
    if (c->file[0] && (m->in.password[0] || m->out.password[0]) &&
        stat(c->file, &st) == 0 &&
        ((st.st_mode & S_IROTH) ||
         ((st.st_mode & S_IRGRP) && !in_group(st.st_gid)))) {
        dj_buf_printf(out, "%s holds a mail password and users other than "
                           "the judge's may read it (mode %04o): make it "
                           "root:dipjudge 0640 (the judge's group), or 0600 "
                           "owned by the judge's user\n",
                      c->file, (unsigned)(st.st_mode & 07777));
        n++;
    }
    static const char *const in_net[] = {"imap", "pop3", NULL};
    static const char *const out_net[] = {"smtp", NULL};
    n += clear_text("inbound", m->in.type, m->in.tls, m->in.host, in_net,
                    out);
    n += clear_text("outbound", m->out.type, m->out.tls, m->out.host,
                    out_net, out);
    return n;
}
