/* SPDX-License-Identifier: MIT */
/*
 * conf_table.c — the one table of judge.conf's groups (conf_table.h): a
 * row a setting.  Data only, in a file of its own, so the reader
 * (judge_conf.c) and the writer (conf_write.c) both use it and neither
 * uses the other for it.
 */
#include <stddef.h>

#include "conf/conf_table.h"
#include "conf/judge_conf.h"

static const char *const IN_TYPES[] = {"maildir", "imap", "pop3", NULL};
static const char *const OUT_TYPES[] = {"maildir", "sendmail", "smtp", NULL};
static const char *const TLS_CHOICES[] = {"none", "may", "starttls", "tls",
                                          NULL};

#define AT(field) offsetof(dj_config, field)
#define TEXT(group, field, name, kind)                                        \
    {group, name, kind, AT(field), sizeof(((dj_config *)0)->field), 0, 0, NULL}
#define CHOICE(group, field, name, choices)                                   \
    {group, name, CONF_CHOICE, AT(field), sizeof(((dj_config *)0)->field),  \
     0, 0, choices}
#define NUMBER(group, field, name, kind, min, max)                            \
    {group, name, kind, AT(field), 0, min, max, NULL}
#define FLAG(group, field, name) {group, name, CONF_BOOL, AT(field), 0, 0, 0, NULL}
#define NAMES(group, field, name)                                            \
    {group, name, CONF_LIST, AT(field),                                       \
     sizeof(((dj_config *)0)->field.id[0]), 0,                                \
     (int)(sizeof(((dj_config *)0)->field.id) /                               \
           sizeof(((dj_config *)0)->field.id[0])),                            \
     NULL}

const conf_setting conf_table[] = {
    CHOICE("inbound", mail.in.type, "type", IN_TYPES),
    TEXT("inbound", mail.in.path, "path", CONF_PATH),
    TEXT("inbound", mail.in.host, "host", CONF_STRING),
    NUMBER("inbound", mail.in.port, "port", CONF_INT, 0, 65535),
    TEXT("inbound", mail.in.user, "user", CONF_STRING),
    TEXT("inbound", mail.in.password, "password", CONF_SECRET),
    CHOICE("inbound", mail.in.tls, "tls", TLS_CHOICES),
    FLAG("inbound", mail.in.tls_verify, "tls_verify"),
    TEXT("inbound", mail.in.tls_ca_file, "tls_ca_file", CONF_PATH),
    TEXT("inbound", mail.in.mailbox, "mailbox", CONF_STRING),
    FLAG("inbound", mail.in.idle, "idle"),
    FLAG("inbound", mail.in.expunge, "expunge"),
    NUMBER("inbound", mail.in.poll_interval, "poll_interval", CONF_SECONDS, 1,
           86400),
    NUMBER("inbound", mail.in.timeout, "timeout", CONF_SECONDS, 1, 3600),

    CHOICE("outbound", mail.out.type, "type", OUT_TYPES),
    TEXT("outbound", mail.out.path, "path", CONF_PATH),
    TEXT("outbound", mail.out.sendmail, "sendmail", CONF_STRING),
    TEXT("outbound", mail.out.host, "host", CONF_STRING),
    NUMBER("outbound", mail.out.port, "port", CONF_INT, 0, 65535),
    CHOICE("outbound", mail.out.tls, "tls", TLS_CHOICES),
    FLAG("outbound", mail.out.tls_verify, "tls_verify"),
    TEXT("outbound", mail.out.tls_ca_file, "tls_ca_file", CONF_PATH),
    TEXT("outbound", mail.out.user, "user", CONF_STRING),
    TEXT("outbound", mail.out.password, "password", CONF_SECRET),
    TEXT("outbound", mail.out.helo, "helo", CONF_STRING),
    NUMBER("outbound", mail.out.timeout, "timeout", CONF_SECONDS, 1, 3600),

    NUMBER("limits", mail.max_message_size, "max_message_size", CONF_INT,
           1024, 256 << 20),
    NUMBER("limits", mail.max_lines, "max_lines", CONF_INT, 10, 1000000),
    NUMBER("limits", mail.max_reply_size, "max_reply_size", CONF_INT, 16384,
           64 << 20),
    NUMBER("limits", mail.message_tries, "message_tries", CONF_INT, 1, 100),
    NUMBER("limits", mail.reply_limit, "reply_limit", CONF_INT, 0, 1000000),
    NUMBER("limits", mail.reply_window, "reply_window", CONF_SECONDS, 1,
           30 * 86400),
    NUMBER("limits", mail.signon_reply_limit, "signon_reply_limit", CONF_INT,
           0, 1000000),
    NUMBER("limits", mail.domain_reply_limit, "domain_reply_limit", CONF_INT,
           0, 1000000),
    NUMBER("limits", mail.judge_reply_limit, "judge_reply_limit", CONF_INT, 0,
           1000000),
    NUMBER("limits", mail.reply_bytes_limit, "reply_bytes_limit", CONF_INT, 0,
           1 << 30),
    NUMBER("limits", mail.domain_reply_bytes_limit, "domain_reply_bytes_limit",
           CONF_INT, 0, 1 << 30),
    NUMBER("limits", mail.judge_reply_bytes_limit, "judge_reply_bytes_limit",
           CONF_INT, 0, 1 << 30),
    NUMBER("limits", mail.keep_mail, "keep_mail", CONF_SECONDS, 0,
           3650 * 86400),

    NUMBER("retry", mail.retry_attempts, "attempts", CONF_INT, 1, 1000),
    NUMBER("retry", mail.retry_delay, "delay", CONF_SECONDS, 1, 7 * 86400),
    NUMBER("retry", mail.retry_max_delay, "max_delay", CONF_SECONDS, 1,
           30 * 86400),

    NUMBER("status", status.tick_warning, "tick_warning", CONF_SECONDS, 1,
           30 * 86400),
    NUMBER("status", status.tick_critical, "tick_critical", CONF_SECONDS, 1,
           30 * 86400),
    NUMBER("status", status.overdue_after, "overdue_after", CONF_SECONDS, 0,
           30 * 86400),
    NUMBER("status", status.mail_warning, "mail_warning", CONF_SECONDS, 1,
           30 * 86400),
    NUMBER("status", status.mail_critical, "mail_critical", CONF_SECONDS, 1,
           30 * 86400),
    NUMBER("status", status.failed_warning, "failed_warning", CONF_INT, 0,
           1000000),
    NUMBER("status", status.quarantine_warning, "quarantine_warning",
           CONF_INT, 0, 1000000),
    NUMBER("status", status.window, "window", CONF_SECONDS, 60, 365 * 86400),

    TEXT("web", web.listen, "listen", CONF_STRING),
    TEXT("web", web.access_log, "access_log", CONF_STRING),
    TEXT("web", web.base_url, "base_url", CONF_URL),
    NUMBER("web", web.threads, "threads", CONF_INT, 1, 64),
    NUMBER("web", web.max_connections, "max_connections", CONF_INT, 1,
           100000),
    NUMBER("web", web.max_per_client, "max_per_client", CONF_INT, 0, 100000),
    NUMBER("web", web.timeout, "timeout", CONF_SECONDS, 1, 3600),
    NUMBER("web", web.header_timeout, "header_timeout", CONF_SECONDS, 1, 60),
    NUMBER("web", web.session_lifetime, "session_lifetime", CONF_SECONDS, 60,
           30 * 86400),
    NUMBER("web", web.signin_limit, "signin_limit", CONF_INT, 1, 100000),
    NUMBER("web", web.signin_day_limit, "signin_day_limit", CONF_INT, 1,
           100000),
    FLAG("web", web.forwarded, "forwarded"),
    TEXT("web", web.trusted_proxies, "trusted_proxies", CONF_STRING),

    NAMES("authentication", mail.authserv_ids, "authserv_ids"),
};

const size_t conf_table_len = sizeof conf_table / sizeof conf_table[0];
