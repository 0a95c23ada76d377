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

#include "conf/conf_table.h"
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

/* One row of conf_table, as judge_conf.c reads it back. */
static void put_member(writer *w, const conf_setting *row, const dj_config *c,
                       bool secrets)
{
    const char *field = (const char *)c + row->offset;
    switch (row->kind) {
    case CONF_STRING:
    case CONF_PATH:
    case CONF_CHOICE:
        put_str(w, row->name, field);
        break;
    case CONF_SECRET:
        put_secret(w, row->group, row->name, field, secrets);
        break;
    case CONF_URL:
        if (field[0]) /* else the program's own default */
            put_str(w, row->name, field);
        break;
    case CONF_INT:
    case CONF_SECONDS:
        put_int(w, row->name, *(const int *)(const void *)field);
        break;
    case CONF_BOOL:
        put_bool(w, row->name, *(const bool *)(const void *)field);
        break;
    case CONF_LIST: {
        int n = *(const int *)(const void *)field;
        const char *items = field + sizeof(int);
        dj_buf_printf(w->out, "%s%s = [", w->indent, row->name);
        for (int i = 0; i < n; i++) {
            dj_buf_append(w->out, i ? ", " : " ");
            conf_string(w->out, items + (size_t)i * row->size);
        }
        dj_buf_append(w->out, n ? " ];\n" : "];\n");
        break;
    }
    }
}

/* The groups of conf_table, in its order. */
static void write_groups(writer *w, const dj_config *c, bool secrets)
{
    for (size_t i = 0; i < conf_table_len; i++) {
        const conf_setting *row = &conf_table[i];
        if (i == 0 || strcmp(row->group, conf_table[i - 1].group) != 0)
            open_group(w, row->group);
        put_member(w, row, c, secrets);
        if (i + 1 == conf_table_len ||
            strcmp(row->group, conf_table[i + 1].group) != 0)
            close_group(w);
    }
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
    put_str(&w, "recipient_delimiter", c->recipient_delimiter);
    put_str(&w, "admin_address", c->mail.admin_address);
    put_str(&w, "zone", c->zone);
    put_bool(&w, "allow_create", c->allow_create);
    put_int(&w, "signon_limit", c->signon_limit);
    put_minutes(&w, "signon_window", c->signon_window);
    put_minutes(&w, "reminder", c->reminder);
    put_int(&w, "tick_interval", c->mail.tick_interval);
    write_groups(&w, c, secrets);
    write_games(&w, &c->game);
}
