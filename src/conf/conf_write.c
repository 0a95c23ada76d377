/* SPDX-License-Identifier: MIT */
/*
 * conf_write.c — the settings in force written back in judge.conf's own
 * syntax (`judged config`, like `postconf -n`), so that the text can be
 * pasted into a judge.conf and read back to the same settings
 * (tests/scripts/operations.sh checks the round trip).  Paths are written
 * as resolved (absolute); passwords only when asked.  Every setting
 * dj_config_load reads is written here, in the same groups.
 */
#include "conf/judge_conf.h"

#include <stdio.h>
#include <string.h>

#include "conf/conf_numbers.h"
#include "game/setting_value.h"
#include "store/settings_table.h"
#include "time/calendar.h"

typedef struct writer {
    dj_buf *out;
    const char *indent;
} writer;

/* A libconfig string: quotes and backslashes escaped, control characters
 * as \xNN. */
static void conf_string(dj_buf *out, const char *s)
{
    dj_buf_append(out, "\"");
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            dj_buf_printf(out, "\\%c", *c);
        else if (*c < 0x20)
            dj_buf_printf(out, "\\x%02x", *c);
        else
            dj_buf_append_n(out, (const char *)c, 1);
    }
    dj_buf_append(out, "\"");
}

static void put_str(writer *w, const char *name, const char *value)
{
    dj_buf_printf(w->out, "%s%s = ", w->indent, name);
    conf_string(w->out, value);
    dj_buf_append(w->out, ";\n");
}

static void put_int(writer *w, const char *name, long long value)
{
    dj_buf_printf(w->out, "%s%s = %lld;\n", w->indent, name, value);
}

static void put_bool(writer *w, const char *name, bool value)
{
    dj_buf_printf(w->out, "%s%s = %s;\n", w->indent, name,
                  value ? "true" : "false");
}

/* A duration in minutes, as get_duration reads it ("none" for -1). */
static void put_minutes(writer *w, const char *name, int minutes)
{
    dj_buf text;
    dj_buf_init(&text);
    if (minutes < 0)
        dj_buf_append(&text, "none");
    else
        dj_duration_format(minutes, &text);
    put_str(w, name, dj_buf_ok(&text) ? text.data : "");
    dj_buf_free(&text);
}

static void put_secret(writer *w, const char *group, const char *name,
                       const char *value, bool secrets)
{
    if (secrets || !value[0])
        put_str(w, name, value);
    else
        dj_buf_printf(w->out,
                      "%s# %s.%s is set (judged config --show-secrets "
                      "prints it)\n",
                      w->indent, group, name);
}

static void open_group(writer *w, const char *name)
{
    dj_buf_printf(w->out, "%s = {\n", name);
    w->indent = "    ";
}

static void close_group(writer *w)
{
    dj_buf_append(w->out, "};\n");
    w->indent = "";
}

static void write_inbound(writer *w, const dj_inbound_config *in,
                          bool secrets)
{
    open_group(w, "inbound");
    put_str(w, "type", in->type);
    put_str(w, "path", in->path);
    put_str(w, "host", in->host);
    put_int(w, "port", in->port);
    put_str(w, "user", in->user);
    put_secret(w, "inbound", "password", in->password, secrets);
    put_str(w, "tls", in->tls);
    put_bool(w, "tls_verify", in->tls_verify);
    put_str(w, "tls_ca_file", in->tls_ca_file);
    put_str(w, "mailbox", in->mailbox);
    put_bool(w, "idle", in->idle);
    put_bool(w, "expunge", in->expunge);
    put_int(w, "poll_interval", in->poll_interval);
    put_int(w, "timeout", in->timeout);
    close_group(w);
}

static void write_outbound(writer *w, const dj_outbound_config *out,
                           bool secrets)
{
    open_group(w, "outbound");
    put_str(w, "type", out->type);
    put_str(w, "path", out->path);
    put_str(w, "sendmail", out->sendmail);
    put_str(w, "host", out->host);
    put_int(w, "port", out->port);
    put_str(w, "tls", out->tls);
    put_bool(w, "tls_verify", out->tls_verify);
    put_str(w, "tls_ca_file", out->tls_ca_file);
    put_str(w, "user", out->user);
    put_secret(w, "outbound", "password", out->password, secrets);
    put_str(w, "helo", out->helo);
    put_int(w, "timeout", out->timeout);
    close_group(w);
}

/* The groups of whole numbers, as conf_numbers lists them. */
static void write_numbers(writer *w, const dj_config *c)
{
    for (size_t i = 0; i < conf_numbers_len; i++) {
        const conf_number *row = &conf_numbers[i];
        if (i == 0 || strcmp(row->group, conf_numbers[i - 1].group) != 0)
            open_group(w, row->group);
        put_int(w, row->name, *(const int *)((const char *)c + row->offset));
        if (i + 1 == conf_numbers_len ||
            strcmp(row->group, conf_numbers[i + 1].group) != 0)
            close_group(w);
    }
}

static void write_web(writer *w, const dj_web_settings *web)
{
    open_group(w, "web");
    put_str(w, "listen", web->listen);
    if (web->base_url[0]) /* else judgeweb's own default */
        put_str(w, "base_url", web->base_url);
    put_int(w, "threads", web->threads);
    put_int(w, "max_connections", web->max_connections);
    put_int(w, "max_per_client", web->max_per_client);
    put_int(w, "timeout", web->timeout);
    put_int(w, "session_lifetime", web->session_lifetime);
    put_int(w, "signin_limit", web->signin_limit);
    put_bool(w, "forwarded", web->forwarded);
    close_group(w);
}

static void write_games(writer *w, const dj_game_defaults *g)
{
    open_group(w, "games");
    put_str(w, "map", g->map);
    for (int i = 0; i < DJ_SETTINGS_COUNT; i++) {
        dj_buf value;
        dj_buf_init(&value);
        dj_setting_format(&dj_settings[i], g, &value);
        put_str(w, dj_settings[i].name, dj_buf_ok(&value) ? value.data : "");
        dj_buf_free(&value);
    }
    close_group(w);
}

void dj_config_write(const dj_config *c, bool secrets, dj_buf *out)
{
    writer w = {out, ""};
    dj_buf_printf(out, "# the configuration in force (judged config)\n"
                       "# read from: %s\n",
                  c->file[0] ? c->file : "nothing: the embedded defaults");
    put_str(&w, "state_dir", c->state_dir);
    put_str(&w, "database", c->database);
    if (c->maps_dir[0])
        put_str(&w, "maps_dir", c->maps_dir);
    if (c->picture_cache[0]) /* else pictures/ beside the database */
        put_str(&w, "picture_cache", c->picture_cache);
    put_int(&w, "picture_cache_mb", c->picture_cache_mb);
    put_str(&w, "judge_name", c->judge_name);
    put_str(&w, "judge_address", c->judge_address);
    put_str(&w, "admin_address", c->mail.admin_address);
    put_str(&w, "zone", c->zone);
    put_bool(&w, "allow_create", c->allow_create);
    put_int(&w, "signon_limit", c->signon_limit);
    put_minutes(&w, "signon_window", c->signon_window);
    put_minutes(&w, "reminder", c->reminder);
    put_int(&w, "tick_interval", c->mail.tick_interval);
    write_inbound(&w, &c->mail.in, secrets);
    write_outbound(&w, &c->mail.out, secrets);
    write_numbers(&w, c);
    write_web(&w, &c->web);
    write_games(&w, &c->game);
}
