/* SPDX-License-Identifier: MIT */
/*
 * config.c — the judge's settings in force: their embedded defaults.  See
 * config.h; judge.conf is read by src/conf/, next to the programs.
 */
#include "game/config.h"

#include <stdio.h>
#include <string.h>

#include "game/setting_value.h"

void dj_config_defaults(dj_config *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->database, sizeof c->database, "dipjudge.db");
    snprintf(c->judge_name, sizeof c->judge_name, "dipjudge");
    snprintf(c->judge_address, sizeof c->judge_address, "judge@localhost");
    snprintf(c->recipient_delimiter, sizeof c->recipient_delimiter, "+");
    snprintf(c->zone, sizeof c->zone, "UTC");
    c->allow_create = false;
    c->signon_limit = 5;
    c->signon_window = 60;
    c->picture_cache_mb = 1024;
    dj_settings_default(&c->game);
    snprintf(c->game.map, sizeof c->game.map, "standard");
    c->reminder = 24 * 60;
    dj_mail_settings *m = &c->mail;
    m->tick_interval = 60;
    m->max_message_size = 4 << 20;
    m->max_lines = 2000;
    m->max_reply_size = 1 << 20;
    m->message_tries = 3;
    m->keep_mail = 90 * 86400;
    m->reply_limit = 30;
    m->reply_window = 3600;
    m->signon_reply_limit = 5;
    m->domain_reply_limit = 300;
    m->judge_reply_limit = 3000;
    m->reply_bytes_limit = 2 << 20;
    m->domain_reply_bytes_limit = 20 << 20;
    m->judge_reply_bytes_limit = 200 << 20;
    m->retry_attempts = 8;
    m->retry_delay = 60;
    m->retry_max_delay = 6 * 3600;
    snprintf(m->in.type, sizeof m->in.type, "maildir");
    snprintf(m->in.path, sizeof m->in.path, "mail/in");
    snprintf(m->in.host, sizeof m->in.host, "127.0.0.1");
    snprintf(m->in.tls, sizeof m->in.tls, "none");
    m->in.tls_verify = true;
    snprintf(m->in.mailbox, sizeof m->in.mailbox, "INBOX");
    m->in.idle = true;
    m->in.poll_interval = 60;
    m->in.timeout = 60;
    snprintf(m->out.type, sizeof m->out.type, "maildir");
    snprintf(m->out.path, sizeof m->out.path, "mail/out");
    snprintf(m->out.sendmail, sizeof m->out.sendmail, "/usr/sbin/sendmail");
    snprintf(m->out.host, sizeof m->out.host, "127.0.0.1");
    snprintf(m->out.tls, sizeof m->out.tls, "none");
    m->out.tls_verify = true;
    dj_web_settings *w = &c->web;
    snprintf(w->listen, sizeof w->listen, "127.0.0.1:8080");
    snprintf(w->access_log, sizeof w->access_log, "stderr");
    snprintf(w->base_url, sizeof w->base_url, "http://127.0.0.1:8080");
    w->threads = 2;
    w->max_connections = 256;
    w->max_per_client = 64;
    w->timeout = 30;
    w->header_timeout = 5;
    snprintf(w->trusted_proxies, sizeof w->trusted_proxies, "127.0.0.1, ::1");
    w->session_lifetime = 12 * 3600;
    w->signin_limit = 20;
    w->signin_day_limit = 200;
    w->forwarded = false;
    m->out.timeout = 60;
    dj_status_settings *st = &c->status;
    st->tick_warning = 15 * 60;
    st->tick_critical = 60 * 60;
    st->overdue_after = 30 * 60;
    st->mail_warning = 60 * 60;
    st->mail_critical = 12 * 3600;
    st->failed_warning = 1;
    st->quarantine_warning = 1;
    st->window = 86400;
}
