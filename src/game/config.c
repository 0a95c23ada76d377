/*
 * config.c — judge.conf with libconfig.  See config.h.
 *
 * The file is walked setting by setting against a table of known names, so
 * that an unknown or misplaced setting is reported with its line number.
 */
#define _POSIX_C_SOURCE 200809L

#include "game/config.h"

#include <libconfig.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "game/calendar.h"

void dj_config_defaults(dj_config *c)
{
    memset(c, 0, sizeof *c);
    snprintf(c->database, sizeof c->database, "dipjudge.db");
    snprintf(c->judge_name, sizeof c->judge_name, "dipjudge");
    snprintf(c->judge_address, sizeof c->judge_address, "judge@localhost");
    snprintf(c->zone, sizeof c->zone, "UTC");
    dj_game_defaults *g = &c->game;
    g->move_delay = 72 * 60;
    g->retreat_delay = 24 * 60;
    g->adjust_delay = 24 * 60;
    g->time_of_day = -1;
    g->days = DJ_DAYS_ALL;
    g->grace = 24 * 60;
    g->absence_limit = 14;
    snprintf(g->nmr, sizeof g->nmr, "cd");
    g->early = true;
    g->early_delay = -1;
    snprintf(g->press, sizeof g->press, "white");
    snprintf(g->assignment, sizeof g->assignment, "choice");
    snprintf(g->map, sizeof g->map, "standard");
}

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
} reader;

static int bad(reader *r, const config_setting_t *s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int bad(reader *r, const config_setting_t *s, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(r->err, r->errlen, "%s:%d: %s", r->file,
             config_setting_source_line(s), msg);
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
    return bad(r, s, "unknown value for '%s'", config_setting_name(s));
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

static const char *const NMR_CHOICES[] = {"cd", "wait", NULL};
static const char *const PRESS_CHOICES[] = {"none", "white", "grey",
                                            "white+grey", NULL};
static const char *const ASSIGN_CHOICES[] = {"choice", "random", NULL};

static int read_game_setting(reader *r, const config_setting_t *s,
                             dj_game_defaults *g)
{
    const char *name = config_setting_name(s);
    char v[64], why[128];
    if (strcmp(name, "map") == 0)
        return get_string(r, s, g->map, sizeof g->map);
    if (strcmp(name, "movement_delay") == 0)
        return get_duration(r, s, &g->move_delay, false);
    if (strcmp(name, "retreat_delay") == 0)
        return get_duration(r, s, &g->retreat_delay, false);
    if (strcmp(name, "adjustment_delay") == 0)
        return get_duration(r, s, &g->adjust_delay, false);
    if (strcmp(name, "grace") == 0)
        return get_duration(r, s, &g->grace, false);
    if (strcmp(name, "early_delay") == 0)
        return get_duration(r, s, &g->early_delay, true);
    if (strcmp(name, "absence_limit") == 0)
        return get_int(r, s, &g->absence_limit, 0, 365);
    if (strcmp(name, "early") == 0)
        return get_bool(r, s, &g->early);
    if (strcmp(name, "nmr") == 0)
        return get_choice(r, s, g->nmr, sizeof g->nmr, NMR_CHOICES);
    if (strcmp(name, "press") == 0)
        return get_choice(r, s, g->press, sizeof g->press, PRESS_CHOICES);
    if (strcmp(name, "assignment") == 0)
        return get_choice(r, s, g->assignment, sizeof g->assignment,
                          ASSIGN_CHOICES);
    if (strcmp(name, "time_of_day") == 0) {
        if (get_string(r, s, v, sizeof v) < 0)
            return -1;
        if (dj_clock_parse(v, &g->time_of_day, why, sizeof why) < 0)
            return bad(r, s, "%s", why);
        return 0;
    }
    if (strcmp(name, "days") == 0) {
        uint8_t mask;
        if (get_string(r, s, v, sizeof v) < 0)
            return -1;
        if (dj_days_parse(v, &mask, why, sizeof why) < 0)
            return bad(r, s, "%s", why);
        g->days = mask ? mask : DJ_DAYS_ALL;
        return 0;
    }
    return bad(r, s, "unknown setting 'games.%s'", name);
}

static int read_setting(reader *r, const config_setting_t *s, dj_config *c)
{
    const char *name = config_setting_name(s);
    if (strcmp(name, "database") == 0)
        return get_string(r, s, c->database, sizeof c->database);
    if (strcmp(name, "maps_dir") == 0)
        return get_string(r, s, c->maps_dir, sizeof c->maps_dir);
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
        return 0;
    }
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

int dj_config_load(const char *path, dj_config *c, char *err, size_t errlen)
{
    dj_config_defaults(c);
    dj_config tmp = *c;
    config_t cfg;
    config_init(&cfg);
    if (!config_read_file(&cfg, path)) {
        if (config_error_type(&cfg) == CONFIG_ERR_FILE_IO)
            snprintf(err, errlen, "cannot read configuration file %s", path);
        else
            snprintf(err, errlen, "%s:%d: %s", path, config_error_line(&cfg),
                     config_error_text(&cfg));
        config_destroy(&cfg);
        return -1;
    }
    reader r = {path, err, errlen};
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
