/* SPDX-License-Identifier: MIT */
/*
 * snapshot.c — see snapshot.h.  Reading is strict: any unknown word,
 * location or power is an error, never a guess, since a snapshot is only
 * ever written by dj_snapshot_write().
 */
#define _POSIX_C_SOURCE 200809L

#include "game/snapshot.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void dj_snapshot_power_name(const dj_map *map, int power, char *buf,
                            size_t len)
{
    snprintf(buf, len, "%s", map->powers[power].name);
    for (char *c = buf; *c; c++)
        if (isspace((unsigned char)*c))
            *c = '_';
}

/* Is `word` the power's name as dj_snapshot_power_name writes it (spaces
 * as '_'), in any case?  Compared where it stands: a position is read
 * on every page of the web, a name copied for each power and unit. */
static bool is_power_word(const char *name, const char *word)
{
    size_t i = 0;
    for (; name[i] && i + 1 < DJ_NAME_MAX; i++) {
        char n = isspace((unsigned char)name[i]) ? '_' : name[i];
        if (tolower((unsigned char)n) != tolower((unsigned char)word[i]))
            return false;
    }
    return word[i] == '\0';
}

int dj_snapshot_power(const dj_map *map, const char *word)
{
    for (int p = 0; p < map->npowers; p++)
        if (is_power_word(map->powers[p].name, word))
            return p;
    return -1;
}

static void put_power(dj_buf *out, const dj_map *map, int power)
{
    char name[DJ_NAME_MAX];
    dj_snapshot_power_name(map, power, name, sizeof name);
    dj_buf_append(out, name);
}

void dj_snapshot_write(const dj_map *map, const dj_position *pos,
                       dj_buf *out)
{
    char ph[16];
    dj_phase_format_short(pos->phase, ph, sizeof ph);
    dj_buf_printf(out, "phase %s\n", ph);
    if (pos->civil_disorder) {
        dj_buf_append(out, "disorder");
        for (int p = 0; p < map->npowers; p++)
            if (pos->civil_disorder >> p & 1u) {
                dj_buf_append(out, " ");
                put_power(out, map, p);
            }
        dj_buf_append(out, "\n");
    }
    for (int i = 0; i < pos->nunits; i++) {
        const dj_unit *u = &pos->units[i];
        dj_buf_append(out, "unit ");
        put_power(out, map, u->power);
        dj_buf_printf(out, " %s %s\n", dj_unit_letter(u->type),
                      map->locs[u->loc].abbr);
    }
    for (int i = 0; i < pos->ndislodged; i++) {
        const dj_dislodged *d = &pos->dislodged[i];
        dj_buf_append(out, "dislodged ");
        put_power(out, map, d->unit.power);
        dj_buf_printf(out, " %s %s from %s convoy %d retreats",
                      dj_unit_letter(d->unit.type),
                      map->locs[d->unit.loc].abbr,
                      d->attacker_from >= 0
                          ? map->locs[d->attacker_from].abbr
                          : "-",
                      d->by_convoy ? 1 : 0);
        for (int k = 0; k < d->nretreats; k++)
            dj_buf_printf(out, " %s", map->locs[d->retreats[k]].abbr);
        dj_buf_append(out, "\n");
    }
    for (int l = 0; l < map->nlocs; l++)
        if (pos->owner[l] >= 0) {
            dj_buf_append(out, "owner ");
            put_power(out, map, pos->owner[l]);
            dj_buf_printf(out, " %s\n", map->locs[l].abbr);
        }
}

/* ---- reading ----------------------------------------------------------- */

int dj_phase_parse_short(const char *text, dj_phase *ph)
{
    char s, t, extra;
    int year;
    if (sscanf(text, "%c%d%c%c", &s, &year, &t, &extra) != 3)
        return -1;
    switch (toupper((unsigned char)s)) {
    case 'S': ph->season = DJ_SPRING; break;
    case 'F': ph->season = DJ_FALL; break;
    case 'W': ph->season = DJ_WINTER; break;
    default: return -1;
    }
    switch (toupper((unsigned char)t)) {
    case 'M': ph->type = DJ_MOVEMENT; break;
    case 'R': ph->type = DJ_RETREAT; break;
    case 'A': case 'B': ph->type = DJ_ADJUSTMENT; break;
    default: return -1;
    }
    if (year < 1 || year > 99999)
        return -1;
    ph->year = year;
    return 0;
}

/* Exact location abbreviation (snapshots never use anything else). */
static int find_abbr(const dj_map *map, const char *word)
{
    /* three letters: the map's table names the place, checked exactly */
    if (map->three_letter && strlen(word) == 3) {
        int l = dj_map_find_location_n(map, word, 3);
        if (l >= 0 && strcmp(map->locs[l].abbr, word) == 0)
            return l;
    }
    for (int l = 0; l < map->nlocs; l++)
        if (strcmp(map->locs[l].abbr, word) == 0)
            return l;
    return -1;
}

typedef struct cursor {
    char *save;
    int line;
    char *err;
    size_t errlen;
} cursor;

static int snapshot_fail(cursor *c, const char *what, const char *word)
{
    snprintf(c->err, c->errlen, "snapshot line %d: %s '%s'", c->line, what,
             word ? word : "");
    return -1;
}

static char *word(cursor *c)
{
    return strtok_r(NULL, " \t", &c->save);
}

static int read_power(const dj_map *map, cursor *c, int *power)
{
    char *w = word(c);
    if (!w || (*power = dj_snapshot_power(map, w)) < 0)
        return snapshot_fail(c, "unknown power", w);
    return 0;
}

static int read_loc(const dj_map *map, cursor *c, int *loc)
{
    char *w = word(c);
    if (!w || (*loc = find_abbr(map, w)) < 0)
        return snapshot_fail(c, "unknown location", w);
    return 0;
}

static int read_unit(const dj_map *map, cursor *c, dj_unit *u)
{
    int power, loc;
    if (read_power(map, c, &power) < 0)
        return -1;
    char *t = word(c);
    if (!t || (strcmp(t, "A") != 0 && strcmp(t, "F") != 0))
        return snapshot_fail(c, "bad unit type", t);
    if (read_loc(map, c, &loc) < 0)
        return -1;
    u->power = (int16_t)power;
    u->type = t[0] == 'A' ? DJ_ARMY : DJ_FLEET;
    u->loc = (int16_t)loc;
    return 0;
}

static int read_dislodged(const dj_map *map, cursor *c, dj_dislodged *d)
{
    memset(d, 0, sizeof *d);
    if (read_unit(map, c, &d->unit) < 0)
        return -1;
    char *w = word(c);
    if (!w || strcmp(w, "from") != 0)
        return snapshot_fail(c, "expected 'from', got", w);
    w = word(c);
    if (!w)
        return snapshot_fail(c, "missing attacker", w);
    if (strcmp(w, "-") == 0)
        d->attacker_from = -1;
    else {
        int l = find_abbr(map, w);
        if (l < 0)
            return snapshot_fail(c, "unknown location", w);
        d->attacker_from = (int16_t)l;
    }
    w = word(c);
    char *v = word(c);
    if (!w || strcmp(w, "convoy") != 0 || !v || (strcmp(v, "0") != 0 &&
                                                 strcmp(v, "1") != 0))
        return snapshot_fail(c, "expected 'convoy 0|1', got", w);
    d->by_convoy = v[0] == '1';
    w = word(c);
    if (!w || strcmp(w, "retreats") != 0)
        return snapshot_fail(c, "expected 'retreats', got", w);
    while ((w = word(c)) != NULL) {
        int l = find_abbr(map, w);
        if (l < 0)
            return snapshot_fail(c, "unknown location", w);
        if (d->nretreats >= DJ_MAX_RETREATS)
            return snapshot_fail(c, "too many retreats at", w);
        d->retreats[d->nretreats++] = (int16_t)l;
    }
    return 0;
}

static int read_position_line(const dj_map *map, cursor *c, char *line,
                              dj_position *pos, bool *have_phase)
{
    char *key = strtok_r(line, " \t", &c->save);
    if (!key)
        return 0;
    if (strcmp(key, "phase") == 0) {
        char *w = word(c);
        if (!w || dj_phase_parse_short(w, &pos->phase) < 0)
            return snapshot_fail(c, "bad phase", w);
        *have_phase = true;
    } else if (strcmp(key, "disorder") == 0) {
        char *w;
        while ((w = word(c)) != NULL) {
            int p = dj_snapshot_power(map, w);
            if (p < 0)
                return snapshot_fail(c, "unknown power", w);
            pos->civil_disorder |= DJ_POWER_BIT(p);
        }
    } else if (strcmp(key, "unit") == 0) {
        if (pos->nunits >= DJ_MAX_UNITS)
            return snapshot_fail(c, "too many units", key);
        if (read_unit(map, c, &pos->units[pos->nunits]) < 0)
            return -1;
        pos->nunits++;
    } else if (strcmp(key, "dislodged") == 0) {
        if (pos->ndislodged >= DJ_MAX_UNITS)
            return snapshot_fail(c, "too many dislodged units", key);
        if (read_dislodged(map, c, &pos->dislodged[pos->ndislodged]) < 0)
            return -1;
        pos->ndislodged++;
    } else if (strcmp(key, "owner") == 0) {
        int p, l;
        if (read_power(map, c, &p) < 0 || read_loc(map, c, &l) < 0)
            return -1;
        pos->owner[l] = (int16_t)p;
    } else {
        return snapshot_fail(c, "unknown line", key);
    }
    if (strcmp(key, "dislodged") != 0 && strcmp(key, "disorder") != 0 &&
        word(c) != NULL)
        return snapshot_fail(c, "extra words after", key);
    return 0;
}

int dj_snapshot_read(const dj_map *map, const char *text, dj_position *pos,
                     char *err, size_t errlen)
{
    memset(pos, 0, sizeof *pos);
    for (int l = 0; l < DJ_MAX_LOCS; l++)
        pos->owner[l] = -1;
    char *copy = strdup(text);
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    cursor c = {NULL, 0, err, errlen};
    bool have_phase = false;
    int rc = 0;
    char *line = copy;
    while (rc == 0 && line && *line) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        c.line++;
        rc = read_position_line(map, &c, line, pos, &have_phase);
        line = nl ? nl + 1 : NULL;
    }
    free(copy);
    if (rc == 0 && !have_phase) {
        snprintf(err, errlen, "snapshot has no phase line");
        rc = -1;
    }
    return rc;
}
