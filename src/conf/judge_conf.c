/* SPDX-License-Identifier: MIT */
/*
 * judge_conf.c — judge.conf with libconfig.  See judge_conf.h.
 *
 * The file is walked setting by setting against a table of known names, so
 * that an unknown or misplaced setting is reported with its line number.
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath */

#include "conf/judge_conf.h"

#include <libconfig.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conf/conf_table.h"
#include "game/setting_value.h"
#include "time/calendar.h"
#include "util/fmt.h"

#ifndef DJ_SYSCONFDIR
#define DJ_SYSCONFDIR "/usr/local/etc"
#endif
#ifndef DJ_STATEDIR
#define DJ_STATEDIR "/usr/local/var/lib/dipjudge"
#endif

const char *dj_config_find(const char *option, const char *installed)
{
    if (option && *option)
        return option;
    const char *env = getenv("DIPJUDGE_CONF");
    if (env && *env)
        return env;
    struct stat st;
    if (installed && stat(installed, &st) == 0 && S_ISREG(st.st_mode))
        return installed;
    return NULL;
}

/* ---- one setting at a time ------------------------------------------------ */

typedef struct reader {
    const char *file;
    char *err;
    size_t errlen;
    char dir[DJ_PATH_MAX]; /* the file's folder: relative paths start there */
} reader;

static int bad(reader *r, const config_setting_t *s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int bad(reader *r, const config_setting_t *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt_at(r->err, r->errlen, r->file, config_setting_source_line(s), fmt,
               ap);
    va_end(ap);
    return -1;
}

static int get_string(reader *r, const config_setting_t *s, char *out,
                      size_t len)
{
    const char *v = config_setting_get_string(s);
    if (!v)
        return bad(r, s, "'%s' must be a string", config_setting_name(s));
    if (strlen(v) >= len)
        return bad(r, s, "'%s' is too long", config_setting_name(s));
    snprintf(out, len, "%s", v);
    return 0;
}

/* A file or folder: a relative one is taken from the file's own folder,
 * never from the current directory. */
static int get_path(reader *r, const config_setting_t *s, char *out,
                    size_t len)
{
    char v[DJ_PATH_MAX];
    if (get_string(r, s, v, sizeof v) < 0)
        return -1;
    if (!v[0] || v[0] == '/') {
        snprintf(out, len, "%s", v);
        return 0;
    }
    if ((size_t)snprintf(out, len, "%s/%s", r->dir, v) >= len)
        return bad(r, s, "'%s' is too long", config_setting_name(s));
    return 0;
}

static int get_choice(reader *r, const config_setting_t *s, char *out,
                      size_t len, const char *const *choices)
{
    char v[64];
    if (get_string(r, s, v, sizeof v) < 0)
        return -1;
    for (const char *const *c = choices; *c; c++)
        if (strcmp(v, *c) == 0 && strlen(*c) < len) {
            memcpy(out, *c, strlen(*c) + 1);
            return 0;
        }
    char list[256] = "";
    for (const char *const *c = choices; *c; c++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s",
                 c == choices ? "" : c[1] ? ", " : " or ", *c);
    }
    return bad(r, s, "unknown value '%s' for '%s': %s", v,
               config_setting_name(s), list);
}

static int get_duration(reader *r, const config_setting_t *s, int *out,
                        bool none_ok)
{
    char v[64], why[128];
    if (get_string(r, s, v, sizeof v) < 0)
        return -1;
    if (none_ok && strcmp(v, "none") == 0) {
        *out = -1;
        return 0;
    }
    if (dj_duration_parse(v, out, why, sizeof why) < 0)
        return bad(r, s, "%s", why);
    return 0;
}

static int get_int(reader *r, const config_setting_t *s, int *out, int min,
                   int max)
{
    if (config_setting_type(s) != CONFIG_TYPE_INT)
        return bad(r, s, "'%s' must be a whole number",
                   config_setting_name(s));
    int v = config_setting_get_int(s);
    if (v < min || v > max)
        return bad(r, s, "'%s' is out of range", config_setting_name(s));
    *out = v;
    return 0;
}

static int get_bool(reader *r, const config_setting_t *s, bool *out)
{
    if (config_setting_type(s) != CONFIG_TYPE_BOOL)
        return bad(r, s, "'%s' must be true or false",
                   config_setting_name(s));
    *out = config_setting_get_bool(s) != 0;
    return 0;
}

/*
 * A time in seconds: a whole number, or a string "45s", "5m", "2h", "1d"
 * (units may be combined: "1h30m").
 */
static int get_seconds(reader *r, const config_setting_t *s, int *out,
                       int min, int max)
{
    if (config_setting_type(s) == CONFIG_TYPE_INT)
        return get_int(r, s, out, min, max);
    char v[64];
    if (get_string(r, s, v, sizeof v) < 0)
        return -1;
    long long total = 0;
    const char *p = v;
    while (*p) {
        if (*p < '0' || *p > '9')
            return bad(r, s, "'%s': a time like \"30s\", \"5m\", \"2h\""
                             " or \"1d\"",
                       config_setting_name(s));
        long long n = 0;
        while (*p >= '0' && *p <= '9' && n < 100000000)
            n = n * 10 + (*p++ - '0');
        long long unit = *p == 's' ? 1 : *p == 'm' ? 60 : *p == 'h' ? 3600
                       : *p == 'd' ? 86400 : 0;
        if (!unit)
            return bad(r, s, "'%s': a number needs a unit s, m, h or d",
                       config_setting_name(s));
        p++;
        total += n * unit;
        if (total > max)
            break;
    }
    if (!v[0] || total < min || total > max)
        return bad(r, s, "'%s' is out of range", config_setting_name(s));
    *out = (int)total;
    return 0;
}

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
};

const size_t conf_table_len = sizeof conf_table / sizeof conf_table[0];

static bool is_table_group(const char *name)
{
    for (size_t i = 0; i < conf_table_len; i++)
        if (strcmp(conf_table[i].group, name) == 0)
            return true;
    return false;
}

/* One member of a group, as its row says. */
static int read_member(reader *r, const config_setting_t *s,
                       const conf_setting *row, dj_config *c)
{
    void *field = (char *)c + row->offset;
    switch (row->kind) {
    case CONF_STRING:
    case CONF_SECRET:
        return get_string(r, s, field, row->size);
    case CONF_PATH:
        return get_path(r, s, field, row->size);
    case CONF_CHOICE:
        return get_choice(r, s, field, row->size, row->choices);
    case CONF_URL:
        if (get_string(r, s, field, row->size) < 0)
            return -1;
        if (strncmp(field, "http://", 7) != 0 &&
            strncmp(field, "https://", 8) != 0)
            return bad(r, s, "%s.%s must begin http:// or https://",
                       row->group, row->name);
        return 0;
    case CONF_INT:
        return get_int(r, s, field, row->min, row->max);
    case CONF_SECONDS:
        return get_seconds(r, s, field, row->min, row->max);
    case CONF_BOOL:
        return get_bool(r, s, field);
    }
    return bad(r, s, "'%s' cannot be read", row->name);
}

/* A group of conf_table, each member found by its row. */
static int read_table_group(reader *r, const config_setting_t *group,
                            dj_config *c)
{
    const char *g = config_setting_name(group);
    if (config_setting_type(group) != CONFIG_TYPE_GROUP)
        return bad(r, group, "'%s' must be a group { ... }", g);
    for (int i = 0; i < config_setting_length(group); i++) {
        const config_setting_t *s =
            config_setting_get_elem(group, (unsigned)i);
        const char *name = config_setting_name(s);
        const conf_setting *row = NULL;
        for (size_t k = 0; k < conf_table_len && !row; k++)
            if (strcmp(conf_table[k].group, g) == 0 &&
                strcmp(conf_table[k].name, name) == 0)
                row = &conf_table[k];
        if (!row)
            return bad(r, s, "unknown setting '%s.%s'", g, name);
        if (read_member(r, s, row, c) < 0)
            return -1;
    }
    return 0;
}

/*
 * One setting of games { }: any setting of the settings table, written as
 * `judgectl set` takes it ("72h", "20:00", "-MTWTF-", "grey"; numbers and
 * true/false as libconfig writes them), or the map of new games.
 */
static int read_game_setting(reader *r, const config_setting_t *s,
                             dj_game_defaults *g)
{
    const char *name = config_setting_name(s);
    if (strcmp(name, "map") == 0)
        return get_string(r, s, g->map, sizeof g->map);
    const dj_setting_info *si = dj_setting_find(name);
    if (!si)
        return bad(r, s, "unknown setting 'games.%s' (judgectl help set "
                         "lists them)", name);
    char v[128], why[256];
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT:
        snprintf(v, sizeof v, "%d", config_setting_get_int(s));
        break;
    case CONFIG_TYPE_BOOL:
        snprintf(v, sizeof v, "%s", config_setting_get_bool(s) ? "yes" : "no");
        break;
    case CONFIG_TYPE_STRING:
        if (get_string(r, s, v, sizeof v) < 0)
            return -1;
        break;
    default:
        return bad(r, s, "'%s' must be a string, a number or true/false",
                   name);
    }
    if (dj_setting_parse(si, v, g, why, sizeof why) < 0)
        return bad(r, s, "%s", why);
    return 0;
}

static int read_setting(reader *r, const config_setting_t *s, dj_config *c)
{
    const char *name = config_setting_name(s);
    if (strcmp(name, "database") == 0)
        return get_path(r, s, c->database, sizeof c->database);
    if (strcmp(name, "state_dir") == 0)
        return get_path(r, s, c->state_dir, sizeof c->state_dir);
    if (strcmp(name, "maps_dir") == 0)
        return get_path(r, s, c->maps_dir, sizeof c->maps_dir);
    if (strcmp(name, "picture_cache") == 0)
        return get_path(r, s, c->picture_cache, sizeof c->picture_cache);
    if (strcmp(name, "picture_cache_mb") == 0)
        return get_int(r, s, &c->picture_cache_mb, 0, 16 << 20);
    if (strcmp(name, "judge_name") == 0)
        return get_string(r, s, c->judge_name, sizeof c->judge_name);
    if (strcmp(name, "judge_address") == 0)
        return get_string(r, s, c->judge_address, sizeof c->judge_address);
    if (strcmp(name, "zone") == 0) {
        if (get_string(r, s, c->zone, sizeof c->zone) < 0)
            return -1;
        dj_zone *z = malloc(sizeof *z);
        char why[256];
        int rc = z ? dj_zone_load(c->zone, z, why, sizeof why) : -1;
        free(z);
        if (rc < 0)
            return bad(r, s, "%s", z ? why : "out of memory");
        /* the zone of new games, unless games { zone = ... } says */
        snprintf(c->game.zone, sizeof c->game.zone, "%s", c->zone);
        return 0;
    }
    if (strcmp(name, "allow_create") == 0)
        return get_bool(r, s, &c->allow_create);
    if (strcmp(name, "signon_limit") == 0)
        return get_int(r, s, &c->signon_limit, 1, 1000);
    if (strcmp(name, "signon_window") == 0)
        return get_duration(r, s, &c->signon_window, false);
    if (strcmp(name, "admin_address") == 0)
        return get_string(r, s, c->mail.admin_address,
                          sizeof c->mail.admin_address);
    if (strcmp(name, "reminder") == 0)
        return get_duration(r, s, &c->reminder, true);
    if (strcmp(name, "tick_interval") == 0)
        return get_seconds(r, s, &c->mail.tick_interval, 1, 86400);
    if (is_table_group(name))
        return read_table_group(r, s, c);
    if (strcmp(name, "games") == 0) {
        if (config_setting_type(s) != CONFIG_TYPE_GROUP)
            return bad(r, s, "'%s' must be a group { ... }", name);
        for (int i = 0; i < config_setting_length(s); i++)
            if (read_game_setting(r, config_setting_get_elem(s, (unsigned)i),
                                  &c->game) < 0)
                return -1;
        return 0;
    }
    return bad(r, s, "unknown setting '%s'", name);
}

/* The absolute folder of `path` (as given when it cannot be resolved). */
static void folder_of(const char *path, char *dir, size_t len)
{
    char given[DJ_PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(given, sizeof given, ".");
    else if (slash == path)
        snprintf(given, sizeof given, "/");
    else
        snprintf(given, sizeof given, "%.*s", (int)(slash - path), path);
    char *real = realpath(given, NULL);
    snprintf(dir, len, "%s", real ? real : given);
    free(real);
}

int dj_config_load(const char *path, dj_config *c, char *err, size_t errlen)
{
    dj_config_defaults(c);
    dj_config tmp = *c;
    /* Read it ourselves first: bounded, and a NUL byte (which makes
     * libconfig's lexer lose memory, and is never in a real file) is
     * refused with its line. */
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read configuration file %s", path);
        return -1;
    }
    enum { CONF_MAX = 1 << 20 };
    char *text = malloc(CONF_MAX + 1);
    size_t len = text ? fread(text, 1, CONF_MAX + 1, f) : 0;
    fclose(f);
    if (!text || len > CONF_MAX) {
        snprintf(err, errlen, "%s: %s", path,
                 text ? "longer than 1 MB: not a configuration file"
                      : "out of memory");
        free(text);
        return -1;
    }
    text[len] = '\0';
    if (strlen(text) != len) {
        int line = 1;
        for (const char *p = text; *p; p++)
            line += *p == '\n';
        snprintf(err, errlen, "%s:%d: a NUL byte: not a text file", path,
                 line);
        free(text);
        return -1;
    }
    config_t cfg;
    config_init(&cfg);
    int ok = config_read_string(&cfg, text);
    free(text);
    if (!ok) {
        if (config_error_type(&cfg) == CONFIG_ERR_FILE_IO)
            snprintf(err, errlen, "cannot read configuration file %s", path);
        else
            snprintf(err, errlen, "%s:%d: %s", path, config_error_line(&cfg),
                     config_error_text(&cfg));
        config_destroy(&cfg);
        return -1;
    }
    reader r = {path, err, errlen, ""};
    folder_of(path, r.dir, sizeof r.dir);
    config_setting_t *root = config_root_setting(&cfg);
    int rc = 0;
    for (int i = 0; rc == 0 && i < config_setting_length(root); i++)
        rc = read_setting(&r, config_setting_get_elem(root, (unsigned)i),
                          &tmp);
    config_destroy(&cfg);
    if (rc < 0)
        return -1;
    snprintf(tmp.file, sizeof tmp.file, "%s", path);
    *c = tmp;
    return 0;
}

int dj_config_read(const char *config_option, const char *db_option,
                   dj_config *c, char *err, size_t errlen)
{
    static const char installed[] = DJ_SYSCONFDIR "/dipjudge/judge.conf";
    const char *file = dj_config_find(config_option, installed);
    if (file) {
        if (dj_config_load(file, c, err, errlen) < 0)
            return -1;
    } else {
        dj_config_defaults(c);
    }
    const char *state = getenv("DIPJUDGE_STATE_DIR");
    if (state && *state)
        snprintf(c->state_dir, sizeof c->state_dir, "%s", state);
    else if (!c->state_dir[0])
        snprintf(c->state_dir, sizeof c->state_dir, "%s", DJ_STATEDIR);
    /* What is still relative (the defaults) lives in the state folder. */
    char *in_state[] = {c->database, c->mail.in.path, c->mail.out.path};
    for (size_t i = 0; i < sizeof in_state / sizeof in_state[0]; i++) {
        char *p = in_state[i];
        char joined[DJ_PATH_MAX];
        if (!p[0] || p[0] == '/')
            continue;
        if ((size_t)snprintf(joined, sizeof joined, "%s/%s", c->state_dir,
                             p) >= sizeof joined) {
            snprintf(err, errlen, "state_dir %s: too long", c->state_dir);
            return -1;
        }
        snprintf(p, DJ_PATH_MAX, "%s", joined);
    }
    const char *db = db_option && *db_option ? db_option : getenv("DIPJUDGE_DB");
    if (db && *db)
        snprintf(c->database, sizeof c->database, "%s", db);
    return 0;
}
