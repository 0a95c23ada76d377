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

#include <errno.h>
#include <grp.h>
#include <libconfig.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf/conf_table.h"
#include "game/setting_value.h"
#include "game/signon.h"
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

static bool is_table_group(const char *name)
{
    for (size_t i = 0; i < conf_table_len; i++)
        if (strcmp(conf_table[i].group, name) == 0)
            return true;
    return false;
}

/*
 * A list of names: [ "mx.example.org", ... ] (or a libconfig list), each a
 * host name or token as an Authentication-Results field writes its
 * authserv-id: no spaces, quotes, parentheses, ';' or '='.
 */
_Static_assert(offsetof(dj_authserv_ids, id) == sizeof(int),
               "CONF_LIST: the items follow the count");

static int get_names(reader *r, const config_setting_t *s, void *field,
                     const conf_setting *row)
{
    int type = config_setting_type(s);
    if (type != CONFIG_TYPE_ARRAY && type != CONFIG_TYPE_LIST)
        return bad(r, s, "'%s' must be a list [ \"...\", ... ]", row->name);
    int n = config_setting_length(s);
    if (n > row->max)
        return bad(r, s, "'%s' has more than %d names", row->name, row->max);
    int *count = field;
    char *items = (char *)field + sizeof(int);
    for (int i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        const char *v = config_setting_get_string(e);
        if (!v)
            return bad(r, e, "'%s' must hold strings", row->name);
        if (!v[0] || strlen(v) >= row->size)
            return bad(r, e, "'%s': a name must be 1 to %zu characters",
                       row->name, row->size - 1);
        for (const unsigned char *c = (const unsigned char *)v; *c; c++)
            if (*c <= ' ' || *c >= 0x7f || strchr("\"();=\\", *c))
                return bad(r, e, "'%s': \"%s\" is not a host name",
                           row->name, v);
        memcpy(items + (size_t)i * row->size, v, strlen(v) + 1);
    }
    *count = n;
    return 0;
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
    case CONF_LIST:
        return get_names(r, s, field, row);
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
    if (strcmp(name, "judge_address") == 0) {
        if (get_string(r, s, c->judge_address, sizeof c->judge_address) < 0)
            return -1;
        /* Refused here, not at every send. */
        if (!dj_address_ok(c->judge_address))
            return bad(r, s, "judge_address '%s' is not a mail address "
                             "(name@domain)", c->judge_address);
        return 0;
    }
    if (strcmp(name, "recipient_delimiter") == 0) {
        char d[8];
        if (get_string(r, s, d, sizeof d) < 0)
            return -1;
        if (strlen(d) != 1 || !strchr("+-_=", d[0]))
            return bad(r, s, "recipient_delimiter must be one of + - _ = "
                             "(as the mail server's), not '%s'",
                       d);
        snprintf(c->recipient_delimiter, sizeof c->recipient_delimiter, "%s",
                 d);
        return 0;
    }
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

/*
 * "cannot read configuration file F (owned by root:root, mode 0600; read
 * as user nobody, uid 65534): Permission denied" — what an admin needs to
 * mend it, whoever the program runs as (store/open_check.c says the same
 * of a database).
 */
static void cannot_read(const char *path, int e, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "cannot read configuration file %s: %s", path,
                 strerror(e));
        return;
    }
    char scratch[4096];
    struct passwd pw, *u = NULL;
    struct group gr, *g = NULL;
    char owner[64], group[64], me[64];
    if (getpwuid_r(st.st_uid, &pw, scratch, sizeof scratch, &u) == 0 && u)
        snprintf(owner, sizeof owner, "%s", u->pw_name);
    else
        snprintf(owner, sizeof owner, "%u", (unsigned)st.st_uid);
    if (getgrgid_r(st.st_gid, &gr, scratch, sizeof scratch, &g) == 0 && g)
        snprintf(group, sizeof group, "%s", g->gr_name);
    else
        snprintf(group, sizeof group, "%u", (unsigned)st.st_gid);
    uid_t uid = geteuid();
    if (getpwuid_r(uid, &pw, scratch, sizeof scratch, &u) == 0 && u)
        snprintf(me, sizeof me, "%s", u->pw_name);
    else
        snprintf(me, sizeof me, "?");
    snprintf(err, errlen,
             "cannot read configuration file %s (owned by %s:%s, mode %04o; "
             "read as user %s, uid %u): %s%s",
             path, owner, group, (unsigned)(st.st_mode & 07777), me,
             (unsigned)uid, strerror(e),
             e == EACCES ? " (judge.conf(5), FILES: root:dipjudge 0640, or "
                           "0600 owned by the judge's user)"
                         : "");
}

/*
 * libconfig says "syntax error" at the end of the file when a group,
 * list or array is never closed: find the line where the innermost
 * unclosed one opened (strings and comments skipped).  0 when all close.
 */
static int unclosed_line(const char *text, char *opener)
{
    enum { DEPTH = 64 };
    int lines[DEPTH];
    char kinds[DEPTH];
    int depth = 0, line = 1;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') {
            line++;
        } else if (*p == '"') {
            for (p++; *p && *p != '"'; p++) {
                if (*p == '\\' && p[1])
                    p++;
                else if (*p == '\n')
                    line++;
            }
            if (!*p)
                break;
        } else if (*p == '#' || (*p == '/' && p[1] == '/')) {
            while (p[1] && p[1] != '\n')
                p++;
        } else if (*p == '/' && p[1] == '*') {
            for (p += 2; *p && !(*p == '*' && p[1] == '/'); p++)
                line += *p == '\n';
            if (!*p)
                break;
            p++;
        } else if (*p == '{' || *p == '(' || *p == '[') {
            if (depth < DEPTH) {
                lines[depth] = line;
                kinds[depth] = *p;
            }
            depth++;
        } else if ((*p == '}' || *p == ')' || *p == ']') && depth > 0) {
            depth--;
        }
    }
    if (depth == 0)
        return 0;
    int top = depth <= DEPTH ? depth - 1 : DEPTH - 1;
    *opener = kinds[top];
    return lines[top];
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
        cannot_read(path, errno, err, errlen);
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
    char opener = 0;
    int opened = ok ? 0 : unclosed_line(text, &opener);
    free(text);
    if (!ok) {
        if (config_error_type(&cfg) == CONFIG_ERR_FILE_IO)
            cannot_read(path, EIO, err, errlen);
        else if (opened)
            snprintf(err, errlen,
                     "%s:%d: this '%c' is never closed (libconfig: %s at "
                     "line %d)",
                     path, opened, opener, config_error_text(&cfg),
                     config_error_line(&cfg));
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

/* The next line of *p (its length; *p moved past it), or NULL at the end. */
static const char *next_line(const char **p, size_t *len)
{
    if (!**p)
        return NULL;
    const char *l = *p;
    const char *nl = strchr(l, '\n');
    *len = nl ? (size_t)(nl - l) : strlen(l);
    *p = nl ? nl + 1 : l + *len;
    return l;
}

/* Is line l (in group g, "" at the top) among the defaults' lines? */
static bool default_line(const char *defaults, const char *g, const char *l,
                         size_t len)
{
    char group[64] = "";
    const char *p = defaults;
    size_t n;
    for (const char *d; (d = next_line(&p, &n));) {
        if (n > 4 && strncmp(d + n - 4, " = {", 4) == 0) {
            snprintf(group, sizeof group, "%.*s", (int)(n - 4), d);
            continue;
        }
        if (n == 2 && strncmp(d, "};", 2) == 0) {
            group[0] = '\0';
            continue;
        }
        if (n == len && strcmp(group, g) == 0 && strncmp(d, l, n) == 0)
            return true;
    }
    return false;
}

void dj_config_write_changed(const dj_config *c, bool secrets, dj_buf *out)
{
    dj_config *def = malloc(sizeof *def);
    if (!def)
        return;
    dj_config_defaults(def);
    snprintf(def->state_dir, sizeof def->state_dir, "%s", DJ_STATEDIR);
    char *in_state[] = {def->database, def->mail.in.path, def->mail.out.path};
    for (size_t i = 0; i < sizeof in_state / sizeof in_state[0]; i++) {
        char joined[DJ_PATH_MAX];
        if (!in_state[i][0] || in_state[i][0] == '/')
            continue;
        if ((size_t)snprintf(joined, sizeof joined, "%s/%s", c->state_dir,
                             in_state[i]) < sizeof joined)
            memcpy(in_state[i], joined, strlen(joined) + 1);
    }
    dj_buf mine, theirs;
    dj_buf_init(&mine);
    dj_buf_init(&theirs);
    dj_config_write(c, secrets, &mine);
    dj_config_write(def, secrets, &theirs);
    free(def);
    dj_buf_append(out, "# the settings that differ from the defaults "
                       "(judged config --changed)\n");
    if (c->file[0])
        dj_buf_printf(out, "# read from: %s\n", c->file);
    char group[64] = "";
    const char *header = NULL;
    size_t header_len = 0;
    bool header_out = false;
    const char *p = mine.data ? mine.data : "";
    size_t n;
    for (const char *l; (l = next_line(&p, &n));) {
        if (n && l[0] == '#')
            continue;
        if (n > 4 && strncmp(l + n - 4, " = {", 4) == 0) {
            snprintf(group, sizeof group, "%.*s", (int)(n - 4), l);
            header = l;
            header_len = n;
            header_out = false;
            continue;
        }
        if (n == 2 && strncmp(l, "};", 2) == 0) {
            if (header_out)
                dj_buf_append(out, "};\n");
            group[0] = '\0';
            header = NULL;
            continue;
        }
        if (default_line(theirs.data ? theirs.data : "", group, l, n))
            continue;
        if (header && !header_out) {
            dj_buf_append_n(out, header, header_len);
            dj_buf_append(out, "\n");
            header_out = true;
        }
        dj_buf_append_n(out, l, n);
        dj_buf_append(out, "\n");
    }
    dj_buf_free(&mine);
    dj_buf_free(&theirs);
}
