/* SPDX-License-Identifier: MIT */
/*
 * setting_value.c — see setting_value.h.  Every type of the settings table
 * has its parser and its formatter side by side here, so that what `show`
 * prints is always something `set` accepts.
 */
#define _POSIX_C_SOURCE 200809L

#include "game/setting_value.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/adjudicate.h"
#include "time/calendar.h"

static int *int_field(const dj_setting_info *si, dj_game_rec *g)
{
    return (int *)(void *)((char *)g + si->offset);
}

static char *text_field(const dj_setting_info *si, dj_game_rec *g)
{
    return (char *)g + si->offset;
}

static int int_value(const dj_setting_info *si, const dj_game_rec *g)
{
    return *(const int *)(const void *)((const char *)g + si->offset);
}

static const char *text_value(const dj_setting_info *si, const dj_game_rec *g)
{
    return (const char *)g + si->offset;
}

/* Is v one of the '|'-separated choices? */
static bool is_choice(const char *choices, const char *v)
{
    size_t n = strlen(v);
    for (const char *c = choices; *c;) {
        size_t len = strcspn(c, "|");
        if (len == n && strncmp(c, v, n) == 0)
            return true;
        c += len + (c[len] == '|');
    }
    return false;
}

/* "cd or wait", "none, white, grey or white+grey". */
static void choices_text(const char *choices, char *out, size_t len)
{
    int total = 1;
    for (const char *c = choices; *c; c++)
        total += *c == '|';
    size_t used = 0;
    int k = 0;
    out[0] = '\0';
    for (const char *c = choices; *c && used < len; k++) {
        size_t n = strcspn(c, "|");
        used += (size_t)snprintf(out + used, len - used, "%s%.*s",
                                 k == 0 ? "" : k == total - 1 ? " or " : ", ",
                                 (int)n, c);
        c += n + (c[n] == '|');
    }
}

static int parse_bool(const char *v, int *out)
{
    static const char *const yes[] = {"yes", "on", "true", "1", NULL};
    static const char *const no[] = {"no", "off", "false", "0", NULL};
    for (int i = 0; yes[i]; i++)
        if (strcasecmp(v, yes[i]) == 0)
            return *out = 1, 0;
    for (int i = 0; no[i]; i++)
        if (strcasecmp(v, no[i]) == 0)
            return *out = 0, 0;
    return -1;
}

int dj_setting_parse(const dj_setting_info *si, const char *v, dj_game_rec *g,
                     char *why, size_t whylen)
{
    char err[160] = "";
    int n = 0;
    switch (si->type) {
    case DJ_ST_DURATION_NONE:
        if (strcasecmp(v, "none") == 0) {
            *int_field(si, g) = -1;
            return 0;
        }
        /* fall through */
    case DJ_ST_DURATION:
        if (dj_duration_parse(v, &n, err, sizeof err) < 0)
            break;
        *int_field(si, g) = n;
        return 0;
    case DJ_ST_CLOCK:
        if (dj_clock_parse(v, &n, err, sizeof err) < 0)
            break;
        *int_field(si, g) = n;
        return 0;
    case DJ_ST_DAYS: {
        uint8_t mask;
        if (dj_days_parse(v, &mask, err, sizeof err) < 0)
            break;
        *int_field(si, g) = mask ? mask : DJ_DAYS_ALL;
        return 0;
    }
    case DJ_ST_INT: {
        char *end;
        errno = 0;
        long x = strtol(v, &end, 10);
        if (!*v || *end || errno || x < si->min || x > si->max) {
            snprintf(err, sizeof err, "a whole number from %d to %d, got '%s'",
                     si->min, si->max, v);
            break;
        }
        *int_field(si, g) = (int)x;
        return 0;
    }
    case DJ_ST_BOOL:
        if (parse_bool(v, &n) < 0) {
            snprintf(err, sizeof err, "'yes' or 'no', got '%s'", v);
            break;
        }
        *int_field(si, g) = n;
        return 0;
    case DJ_ST_CHOICE:
        if (!is_choice(si->choices, v)) {
            char list[128];
            choices_text(si->choices, list, sizeof list);
            snprintf(err, sizeof err, "%s, got '%s'", list, v);
            break;
        }
        snprintf(text_field(si, g), si->size, "%s", v);
        return 0;
    case DJ_ST_ZONE: {
        dj_zone *z = malloc(sizeof *z);
        int rc = z && strlen(v) < si->size
                     ? dj_zone_load(v, z, err, sizeof err)
                     : -1;
        free(z);
        if (rc < 0) {
            if (!err[0])
                snprintf(err, sizeof err, "%s", z ? "the name is too long"
                                                  : "out of memory");
            break;
        }
        snprintf(text_field(si, g), si->size, "%s", v);
        return 0;
    }
    case DJ_ST_ENGINE: {
        int e = dj_engine_lookup(v);
        if (e < 0) {
            snprintf(err, sizeof err, "dpjudge, kruijswijk or haplomacy, got "
                                      "'%s'", v);
            break;
        }
        snprintf(text_field(si, g), si->size, "%s",
                 dj_engine_name((dj_engine)e));
        return 0;
    }
    case DJ_ST_VERIFY: {
        int e = dj_engine_lookup(v);
        if (e < 0 && strcasecmp(v, "none") != 0 &&
            strcasecmp(v, "default") != 0) {
            snprintf(err, sizeof err, "kruijswijk, dpjudge, haplomacy, none "
                                      "or default, got '%s'", v);
            break;
        }
        snprintf(text_field(si, g), si->size, "%s",
                 e >= 0 ? dj_engine_name((dj_engine)e)
                 : strcasecmp(v, "none") == 0 ? "none" : "");
        return 0;
    }
    case DJ_ST_SECRET: {
        int off = 1;
        if (parse_bool(v, &off) == 0 && off == 0) {
            text_field(si, g)[0] = '\0';
            return 0;
        }
        size_t len = strlen(v);
        bool word = len >= 4 && len < si->size;
        for (const char *c = v; word && *c; c++)
            word = (unsigned char)*c > ' ' && (unsigned char)*c < 0x7f;
        if (!word) {
            snprintf(err, sizeof err, "no, or a password of 4 to %zu "
                                      "characters without spaces",
                     si->size - 1);
            break;
        }
        snprintf(text_field(si, g), si->size, "%s", v);
        return 0;
    }
    }
    snprintf(why, whylen, "%s: %s", si->name, err);
    return -1;
}

void dj_setting_format(const dj_setting_info *si, const dj_game_rec *g,
                       dj_buf *out)
{
    int n = si->text ? 0 : int_value(si, g);
    switch (si->type) {
    case DJ_ST_DURATION_NONE:
        if (n < 0) {
            dj_buf_append(out, "none");
            return;
        }
        /* fall through */
    case DJ_ST_DURATION:
        dj_duration_format(n, out);
        return;
    case DJ_ST_CLOCK:
        if (n < 0)
            dj_buf_append(out, "none");
        else
            dj_buf_printf(out, "%02d:%02d", n / 60, n % 60);
        return;
    case DJ_ST_DAYS: {
        char days[8];
        dj_days_format((uint8_t)n, days);
        dj_buf_append(out, days);
        return;
    }
    case DJ_ST_INT:
        dj_buf_printf(out, "%d", n);
        return;
    case DJ_ST_BOOL:
        dj_buf_append(out, n ? "yes" : "no");
        return;
    case DJ_ST_VERIFY:
        dj_buf_append(out, text_value(si, g)[0] ? text_value(si, g)
                                                : "default");
        return;
    case DJ_ST_SECRET: /* never shown: the master mails it himself */
        dj_buf_append(out, text_value(si, g)[0] ? "yes" : "no");
        return;
    case DJ_ST_CHOICE:
    case DJ_ST_ZONE:
    case DJ_ST_ENGINE:
        dj_buf_append(out, text_value(si, g));
        return;
    }
}

void dj_settings_help(dj_buf *out)
{
    for (int i = 0; i < DJ_SETTINGS_COUNT; i++) {
        const dj_setting_info *si = &dj_settings[i];
        dj_buf_printf(out, "  %-17s", si->name);
        /* the help, wrapped at 78 columns under its first line */
        size_t col = 19;
        for (const char *w = si->help; *w;) {
            while (*w == ' ')
                w++;
            size_t n = strcspn(w, " ");
            if (col > 19 && col + 1 + n > 78) {
                dj_buf_append(out, "\n                   ");
                col = 19;
            } else if (col > 19) {
                dj_buf_append(out, " ");
                col++;
            }
            dj_buf_append_n(out, w, n);
            col += n;
            w += n;
        }
        dj_buf_append(out, "\n");
    }
}
