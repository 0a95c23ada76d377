/* SPDX-License-Identifier: MIT */
/*
 * map_load.c — loading a map file into an immutable dj_map (the lookups
 * are in map.c).
 *
 * Loading runs in four steps:
 *   1. flatten: the file and every file it USEs become one list of lines,
 *      each remembering its file and line number for error messages
 *      (map_parse.c);
 *   2. pass 1: name lines and terrain lines declare locations, in any order
 *      (an ABUTS list may name a location declared further down);
 *   3. the locations are fixed: provinces and standing rules are derived,
 *      locations renumbered so each province's coasts directly follow its
 *      base, ABUTS lists resolved into sorted adjacency arrays whose type
 *      masks already apply the terrain rules, and every name put into one
 *      sorted table for binary search (map_parse.c);
 *   4. pass 2: powers, supply centres, starting units and directives, which
 *      can now look locations up by any of their names (map_lines.c).
 * Each line goes to its reader by its keyword (map_lines.c).  The first
 * error stops loading; it is reported as "file:line: message" and
 * everything allocated so far is freed.
 */
#define _POSIX_C_SOURCE 200809L

#include "map.h"
#include "map_flow.h"
#include "map_int.h"
#include "position.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The engines ask "adjacent?" and "reaches that province?" millions of times
 * a second: answer every pair once, from the adjacency lists.  Skipped (the
 * lists are searched instead) if the table would be large or memory short.
 * Each entry sets the pairs it answers, so building the table costs the
 * lists' length times a province's locations, not a search per pair; the
 * answers are those of the searches below (test_map compares the two on
 * every board):
 *   army adjacent: an army entry of from's province names to's province;
 *   fleet adjacent: a fleet entry of from names to;
 *   an army reaches a province exactly where it is adjacent (it moves
 *   province to province);
 *   a fleet reaches to's province: a fleet entry of from names any
 *   location of that province.
 */
static void tabulate_reach(dj_map *m)
{
    size_t n = (size_t)m->nlocs;
    if (n == 0 || n > DJ_MAX_LOCS)
        return;
    uint8_t *t = calloc(n * n, 1);
    if (!t)
        return;
    /* The locations of each province, as lists: first[p], next[loc]. */
    int16_t first[DJ_MAX_LOCS], next[DJ_MAX_LOCS];
    for (int i = 0; i < m->nlocs; i++)
        first[i] = -1;
    for (int i = m->nlocs - 1; i >= 0; i--) {
        int p = m->locs[i].province;
        next[i] = first[p];
        first[p] = (int16_t)i;
    }
    for (int from = 0; from < m->nlocs; from++) {
        uint8_t *row = t + (size_t)from * n;
        const dj_location *own = &m->locs[m->locs[from].province];
        for (int i = 0; i < own->nadj; i++) {
            int to = own->adj[i].to;
            if (!(own->adj[i].types & DJ_TYPE_BIT(DJ_ARMY)) ||
                m->locs[to].province != to)
                continue;
            bool half = own->adj[i].half & DJ_TYPE_BIT(DJ_ARMY);
            for (int k = first[to]; k >= 0; k = next[k])
                row[k] |= REACH_ARMY_ADJ | REACH_ARMY_PROV |
                          (half ? REACH_ARMY_HALF : REACH_ARMY_PROV_WHOLE);
        }
        const dj_location *l = &m->locs[from];
        for (int i = 0; i < l->nadj; i++) {
            if (!(l->adj[i].types & DJ_TYPE_BIT(DJ_FLEET)))
                continue;
            bool half = l->adj[i].half & DJ_TYPE_BIT(DJ_FLEET);
            row[l->adj[i].to] |= REACH_FLEET_ADJ | (half ? REACH_FLEET_HALF : 0);
            for (int k = first[m->locs[l->adj[i].to].province]; k >= 0;
                 k = next[k])
                row[k] |= REACH_FLEET_PROV |
                          (half ? 0 : REACH_FLEET_PROV_WHOLE);
        }
    }
    m->reach = t;
}

static void finish_map(parser *p)
{
    dj_map *m = p->map;
    if (m->npowers == 0) {
        mp_fail_at(p, mp_no_line, "no powers declared");
        return;
    }
    for (int i = 0; i < m->nlocs; i++)
        m->nsc += m->is_sc[i];
    /* DPjudge reads any line it does not know as a power's: one with no
     * home, centre or unit is most likely a misspelt keyword. */
    for (int pw = 0; pw < m->npowers; pw++) {
        bool has = false;
        for (int i = 0; i < m->nlocs && !has; i++)
            has = (m->home_of[i] & DJ_POWER_BIT(pw)) ||
                  m->initial_owner[i] == pw;
        for (int i = 0; i < m->nstart && !has; i++)
            has = m->start_units[i].power == pw;
        if (!has) {
            mp_fail_at(p, mp_no_line,
                       "power '%s' has no home centre, centre or unit "
                       "(a misspelt keyword?)",
                       m->powers[pw].name);
            return;
        }
    }
    mp_resolve_flow(p);
    /* MOBILIZE starts with the builds: in the Winter before a movement
     * phase named by BEGIN (DPjudge does the same). */
    if (m->mobilize && m->start_type != DJ_ADJUSTMENT) {
        if (m->start_season == DJ_SPRING)
            m->start_year -= m->years_to_spring;
        m->start_season = DJ_WINTER;
        m->start_type = DJ_ADJUSTMENT;
    }
    if (!p->victory_set)
        m->victory = m->nsc / 2 + 1;
    else if (m->victory > m->nsc)
        mp_fail_at(p, p->victory_at,
                   "VICTORY %d is more than the %d supply centres", m->victory,
                   m->nsc);
    if (!p->failed)
        tabulate_reach(m);
}

/* Default map name: the file's base name without ".map". */
static void name_from_path(dj_map *m, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".map") == 0)
        n -= 4;
    if (n >= sizeof m->name)
        n = sizeof m->name - 1;
    memcpy(m->name, base, n);
    m->name[n] = '\0';
}

static void parser_free(parser *p)
{
    for (int i = 0; i < p->nfiles; i++) {
        free(p->files[i].path);
        free(p->files[i].data);
    }
    free(p->lines);
    free(p->drafts);
    free(p->aliases);
    free(p->final_of);
    free(p->changes);
    free(p->unowned_listed);
}

/* Steps 2 to 4 over the flattened lines. */
static dj_map *build_map(parser *p, const char *path)
{
    p->map = calloc(1, sizeof *p->map);
    if (!p->map) {
        mp_fail_at(p, mp_no_line, "out of memory");
        parser_free(p);
        return NULL;
    }
    name_from_path(p->map, path);
    p->map->start_year = 1901;
    p->map->years_to_spring = 1;
    p->unit_power = p->cur_power = -1;
    for (int i = 0; i < p->nlines && !p->failed; i++)
        mp_handle_line(p, &p->lines[i], 1);
    if (!p->failed)
        mp_fix_locations(p);
    if (!p->failed) {
        p->unowned_listed = calloc((size_t)p->map->nlocs, 1);
        if (!p->unowned_listed)
            mp_fail_at(p, mp_no_line, "out of memory");
    }
    for (int i = 0; i < p->nlines && !p->failed; i++)
        mp_handle_line(p, &p->lines[i], 2);
    p->cur_power = -1;
    for (int i = 0; i < p->nlines && !p->failed; i++)
        mp_handle_line(p, &p->lines[i], 3);
    if (!p->failed)
        finish_map(p);
    dj_map *m = p->map;
    if (p->failed) {
        dj_map_free(m);
        m = NULL;
    } else if (p->err && p->errlen) {
        p->err[0] = '\0';
    }
    parser_free(p);
    return m;
}

/* ---- public: loading ---------------------------------------------------- */

dj_map *dj_map_load(const char *path, char *err, size_t errlen)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.err = err;
    p.errlen = errlen;
    p.allow_use = true;
    if (!path) {
        if (err && errlen)
            snprintf(err, errlen, "no map file given");
        return NULL;
    }
    /* Errors before the file is read name it in the message instead. */
    mp_flatten_file(&p, path, (src_ref){-1, 0});
    if (p.failed) {
        parser_free(&p);
        return NULL;
    }
    return build_map(&p, path);
}

dj_map *dj_map_parse(const char *text, const char *filename, char *err,
                     size_t errlen)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.err = err;
    p.errlen = errlen;
    const char *name = filename ? filename : "<map>";
    if (mp_add_file(&p, name, NULL, (src_ref){-1, 0}) < 0) {
        parser_free(&p);
        return NULL;
    }
    if (!text) {
        mp_fail_at(&p, mp_no_line, "no map text given");
        parser_free(&p);
        return NULL;
    }
    /* The text is borrowed, never freed or written. */
    p.files[0].data = (char *)(uintptr_t)text;
    mp_flatten_lines(&p, 0);
    p.files[0].data = NULL;
    if (p.failed) {
        parser_free(&p);
        return NULL;
    }
    return build_map(&p, name);
}

void dj_map_free(dj_map *map)
{
    if (!map)
        return;
    free(map->locs);
    free(map->is_sc);
    free(map->home_of);
    free(map->initial_owner);
    free(map->start_units);
    free(map->aliases);
    free(map->alias_hash);
    free(map->three_letter);
    free(map->name_words);
    free(map->word_hash);
    free(map->reach);
    free(map);
}
