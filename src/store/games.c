/*
 * games.c — rows of the games and game_log tables.
 *
 * One SELECT column list (GAME_COLUMNS) and one reader (read_game) keep
 * the order of columns in a single place.
 */
#include <stdlib.h>
#include <string.h>

#include "store/games.h"
#include "store/stmt.h"

#define GAME_COLUMNS                                                        \
    "id, name, map, rules, state, zone, move_delay, retreat_delay,"        \
    " adjust_delay, time_of_day, days, grace, absence_limit, nmr, early,"  \
    " early_delay, press, assignment, ending, created_at, started_at,"     \
    " finished_at, paused_at, partial_press, fake_press, observer_press,"  \
    " engine, verify, map_attachment"

static void read_game(sqlite3_stmt *st, dj_game_rec *g)
{
    memset(g, 0, sizeof *g);
    g->id = sqlite3_column_int64(st, 0);
    st_text(st, 1, g->name, sizeof g->name);
    st_text(st, 2, g->map, sizeof g->map);
    st_text(st, 3, g->rules, sizeof g->rules);
    st_text(st, 4, g->state, sizeof g->state);
    st_text(st, 5, g->zone, sizeof g->zone);
    g->move_delay = sqlite3_column_int(st, 6);
    g->retreat_delay = sqlite3_column_int(st, 7);
    g->adjust_delay = sqlite3_column_int(st, 8);
    g->time_of_day = sqlite3_column_int(st, 9);
    g->days = sqlite3_column_int(st, 10);
    g->grace = sqlite3_column_int(st, 11);
    g->absence_limit = sqlite3_column_int(st, 12);
    st_text(st, 13, g->nmr, sizeof g->nmr);
    g->early = sqlite3_column_int(st, 14);
    g->early_delay = sqlite3_column_int(st, 15);
    st_text(st, 16, g->press, sizeof g->press);
    st_text(st, 17, g->assignment, sizeof g->assignment);
    st_text(st, 18, g->ending, sizeof g->ending);
    g->created_at = st_int64(st, 19, 0);
    g->started_at = st_int64(st, 20, 0);
    g->finished_at = st_int64(st, 21, 0);
    g->paused_at = st_int64(st, 22, 0);
    g->partial_press = sqlite3_column_int(st, 23);
    g->fake_press = sqlite3_column_int(st, 24);
    st_text(st, 25, g->observer_press, sizeof g->observer_press);
    st_text(st, 26, g->engine, sizeof g->engine);
    st_text(st, 27, g->verify, sizeof g->verify);
    st_text(st, 28, g->map_attachment, sizeof g->map_attachment);
}

static const char *map_attachment(const dj_game_rec *g)
{
    return g->map_attachment[0] ? g->map_attachment : "png";
}

/* A record filled by hand may leave the engine empty: DPjudge's. */
static const char *engine(const dj_game_rec *g)
{
    return g->engine[0] ? g->engine : "dpjudge";
}

/* A record filled by hand may leave the newer press fields empty. */
static const char *observer_press(const dj_game_rec *g)
{
    return g->observer_press[0] ? g->observer_press : "any";
}

int dj_store_game_insert(dj_store *s, dj_game_rec *g)
{
    if (st_exec(s,
                "INSERT INTO games (name, map, rules, state, zone, move_delay,"
                " retreat_delay, adjust_delay, time_of_day, days, grace,"
                " absence_limit, nmr, early, early_delay, press, assignment,"
                " created_at, partial_press, fake_press, observer_press,"
                " engine, verify, map_attachment)"
                " VALUES (?, ?, ?, 'forming', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                "ssssiiiiiiisiissIiissss", g->name, g->map, g->rules, g->zone,
                g->move_delay, g->retreat_delay, g->adjust_delay,
                g->time_of_day, g->days, g->grace, g->absence_limit, g->nmr,
                g->early, g->early_delay, g->press, g->assignment,
                g->created_at, g->partial_press ? 1 : 0,
                g->fake_press ? 1 : 0, observer_press(g), engine(g),
                g->verify, map_attachment(g)) < 0)
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
    sqlite3_finalize(st);
    return rc < 0 ? -1 : rc == SQLITE_ROW ? 0 : DJ_STORE_NOTFOUND;
}

int dj_store_game_get(dj_store *s, const char *name, dj_game_rec *g)
{
    return get_one(s,
                   st_prepare(s,
                              "SELECT " GAME_COLUMNS
                              " FROM games WHERE name = ?",
                              "s", name),
                   g);
}

int dj_store_game_get_id(dj_store *s, int64_t id, dj_game_rec *g)
{
    return get_one(
        s, st_prepare(s, "SELECT " GAME_COLUMNS " FROM games WHERE id = ?",
                      "I", id),
        g);
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
    sqlite3_stmt *st = st_prepare(s,
                                  "SELECT " GAME_COLUMNS " FROM games"
                                  " WHERE ?1 IS NULL OR state = ?1"
                                  " ORDER BY name COLLATE NOCASE, id",
                                  "s", state);
    return st_collect(s, st, sizeof **out, game_row, NULL, (void **)out, n);
}

int dj_store_game_update(dj_store *s, const dj_game_rec *g)
{
    return st_exec(s,
                   "UPDATE games SET rules = ?, zone = ?, move_delay = ?,"
                   " retreat_delay = ?, adjust_delay = ?, time_of_day = ?,"
                   " days = ?, grace = ?, absence_limit = ?, nmr = ?,"
                   " early = ?, early_delay = ?, press = ?, assignment = ?,"
                   " partial_press = ?, fake_press = ?, observer_press = ?,"
                   " engine = ?, verify = ?, map_attachment = ? WHERE id = ?",
                   "ssiiiiiiisiissiissssI", g->rules, g->zone, g->move_delay,
                   g->retreat_delay, g->adjust_delay, g->time_of_day,
                   g->days, g->grace, g->absence_limit, g->nmr, g->early,
                   g->early_delay, g->press, g->assignment,
                   g->partial_press ? 1 : 0, g->fake_press ? 1 : 0,
                   observer_press(g), engine(g), g->verify, map_attachment(g),
                   g->id);
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
