/* SPDX-License-Identifier: MIT */
/*
 * games.c — rows of the games and game_log tables.
 *
 * One column list (column_list: the fixed columns, then the settings
 * table's) and one reader (read_game) keep the order of columns in a
 * single place; inserts and updates bind the settings by walking the same
 * table (settings_table.h), so no setting is named here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/games.h"
#include "store/stmt.h"

/* The columns every SELECT reads, in read_game's order: the game's
 * identity and lifecycle, then every setting of the table. */
#define FIXED_COLUMNS                                                       \
    "id, name, map, rules, state, ending, created_at, started_at,"         \
    " finished_at, paused_at"
enum { NFIXED = 10 };

/* "FIXED_COLUMNS, move_delay, ..." into buf (the table's names are
 * constants, never input). */
static void column_list(char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%s", FIXED_COLUMNS);
    for (int i = 0; i < DJ_SETTINGS_COUNT && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, ", %s",
                                 dj_settings[i].column);
}

#define SQL_MAX 2048

static void read_game(sqlite3_stmt *st, dj_game_rec *g)
{
    memset(g, 0, sizeof *g);
    g->id = sqlite3_column_int64(st, 0);
    st_text(st, 1, g->name, sizeof g->name);
    st_text(st, 2, g->map, sizeof g->map);
    st_text(st, 3, g->rules, sizeof g->rules);
    st_text(st, 4, g->state, sizeof g->state);
    st_text(st, 5, g->ending, sizeof g->ending);
    g->created_at = st_int64(st, 6, 0);
    g->started_at = st_int64(st, 7, 0);
    g->finished_at = st_int64(st, 8, 0);
    g->paused_at = st_int64(st, 9, 0);
    for (int i = 0; i < DJ_SETTINGS_COUNT; i++) {
        const dj_setting_info *si = &dj_settings[i];
        char *field = (char *)g + si->offset;
        if (si->text)
            st_text(st, NFIXED + i, field, si->size);
        else
            *(int *)(void *)field = sqlite3_column_int(st, NFIXED + i);
    }
}

/* Bind every setting of g from parameter `first` on. */
static int bind_settings(dj_store *s, sqlite3_stmt *st, int first,
                         const dj_game_rec *g)
{
    for (int i = 0; i < DJ_SETTINGS_COUNT; i++) {
        const dj_setting_info *si = &dj_settings[i];
        const char *field = (const char *)g + si->offset;
        int rc = si->text
                     ? sqlite3_bind_text(st, first + i, field, -1,
                                         SQLITE_TRANSIENT)
                     : sqlite3_bind_int(st, first + i,
                                        *(const int *)(const void *)field);
        if (rc != SQLITE_OK)
            return dj_store_fail(s, "database: cannot bind %s", si->name);
    }
    return 0;
}

/* Step a write statement whose parameters are bound, with a write point
 * before and after it, as st_exec has. */
static int run_write(dj_store *s, sqlite3_stmt *st)
{
    st_write_point(s);
    int rc = st_step(s, st);
    st_finish(s, st);
    if (rc < 0)
        return -1;
    st_write_point(s);
    return 0;
}

int dj_store_game_insert(dj_store *s, dj_game_rec *g)
{
    char sql[SQL_MAX];
    size_t used = (size_t)snprintf(sql, sizeof sql,
                                   "INSERT INTO games (name, map, rules,"
                                   " state, created_at");
    for (int i = 0; i < DJ_SETTINGS_COUNT; i++)
        used += (size_t)snprintf(sql + used, sizeof sql - used, ", %s",
                                 dj_settings[i].column);
    used += (size_t)snprintf(sql + used, sizeof sql - used,
                             ") VALUES (?, ?, ?, 'forming', ?");
    for (int i = 0; i < DJ_SETTINGS_COUNT; i++)
        used += (size_t)snprintf(sql + used, sizeof sql - used, ", ?");
    snprintf(sql + used, sizeof sql - used, ")");
    sqlite3_stmt *st = st_prepare(s, sql, "sssI", g->name, g->map, g->rules,
                                  g->created_at);
    if (!st)
        return -1;
    if (bind_settings(s, st, 5, g) < 0) {
        st_finish(s, st);
        return -1;
    }
    if (run_write(s, st) < 0)
        return -1;
    g->id = st_last_id(s);
    strcpy(g->state, "forming");
    return 0;
}

static int get_one(dj_store *s, sqlite3_stmt *st, dj_game_rec *g)
{
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW)
        read_game(st, g);
    st_finish(s, st);
    return rc < 0 ? -1 : rc == SQLITE_ROW ? 0 : DJ_STORE_NOTFOUND;
}

int dj_store_game_get(dj_store *s, const char *name, dj_game_rec *g)
{
    char cols[SQL_MAX], sql[SQL_MAX + 64];
    column_list(cols, sizeof cols);
    snprintf(sql, sizeof sql, "SELECT %s FROM games WHERE name = ?", cols);
    return get_one(s, st_prepare(s, sql, "s", name), g);
}

int dj_store_game_get_id(dj_store *s, int64_t id, dj_game_rec *g)
{
    char cols[SQL_MAX], sql[SQL_MAX + 64];
    column_list(cols, sizeof cols);
    snprintf(sql, sizeof sql, "SELECT %s FROM games WHERE id = ?", cols);
    return get_one(s, st_prepare(s, sql, "I", id), g);
}

static int game_row(dj_store *s, sqlite3_stmt *st, void *row)
{
    (void)s;
    read_game(st, row);
    return 0;
}

int dj_store_game_list(dj_store *s, const char *state, dj_game_rec **out,
                       int *n)
{
    char cols[SQL_MAX], sql[SQL_MAX + 128];
    column_list(cols, sizeof cols);
    snprintf(sql, sizeof sql,
             "SELECT %s FROM games WHERE ?1 IS NULL OR state = ?1"
             " ORDER BY name COLLATE NOCASE, id",
             cols);
    sqlite3_stmt *st = st_prepare(s, sql, "s", state);
    return st_collect(s, st, sizeof **out, game_row, NULL, (void **)out, n);
}

int dj_store_game_update(dj_store *s, const dj_game_rec *g)
{
    char sql[SQL_MAX];
    size_t used = (size_t)snprintf(sql, sizeof sql, "UPDATE games SET rules = ?");
    for (int i = 0; i < DJ_SETTINGS_COUNT; i++)
        used += (size_t)snprintf(sql + used, sizeof sql - used, ", %s = ?",
                                 dj_settings[i].column);
    snprintf(sql + used, sizeof sql - used, " WHERE id = ?");
    sqlite3_stmt *st = st_prepare(s, sql, "s", g->rules);
    if (!st)
        return -1;
    if (bind_settings(s, st, 2, g) < 0 ||
        sqlite3_bind_int64(st, 2 + DJ_SETTINGS_COUNT, g->id) != SQLITE_OK) {
        st_finish(s, st);
        return dj_store_fail(s, "database: cannot bind the game");
    }
    return run_write(s, st);
}

/* Times of 0 are stored as NULL ("not yet"). */
int dj_store_game_set_state(dj_store *s, const dj_game_rec *g)
{
    return st_exec(s,
                   "UPDATE games SET state = ?, ending = ?,"
                   " started_at = NULLIF(?, 0), finished_at = NULLIF(?, 0),"
                   " paused_at = NULLIF(?, 0) WHERE id = ?",
                   "ssIIII", g->state, g->ending, g->started_at,
                   g->finished_at, g->paused_at, g->id);
}

int dj_store_game_log(dj_store *s, int64_t game_id, int64_t at,
                      const char *actor, const char *action,
                      const char *detail)
{
    return st_exec(s,
                   "INSERT INTO game_log (game_id, at, actor, action, detail)"
                   " VALUES (?, ?, ?, ?, ?)",
                   "IIsss", game_id, at, actor ? actor : "", action,
                   detail ? detail : "");
}

static int log_row(dj_store *s, sqlite3_stmt *st, void *row)
{
    (void)s;
    dj_game_log_rec *r = row;
    r->at = sqlite3_column_int64(st, 0);
    st_text(st, 1, r->actor, sizeof r->actor);
    st_text(st, 2, r->action, sizeof r->action);
    st_text(st, 3, r->detail, sizeof r->detail);
    return 0;
}

int dj_store_game_log_list(dj_store *s, int64_t game_id,
                           dj_game_log_rec **out, int *n)
{
    sqlite3_stmt *st = st_prepare(s,
                                  "SELECT at, actor, action, detail"
                                  " FROM game_log WHERE game_id = ?"
                                  " ORDER BY id",
                                  "I", game_id);
    return st_collect(s, st, sizeof **out, log_row, NULL, (void **)out, n);
}
