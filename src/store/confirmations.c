/* SPDX-License-Identifier: MIT */
/*
 * confirmations.c — rows of the confirmations table (confirmations.h).
 */
#include "store/confirmations.h"

#include <stdlib.h>
#include <string.h>

#include "store/stmt.h"

int dj_store_confirmation_add(dj_store *s, const dj_confirmation_rec *c,
                              int64_t now)
{
    if (st_exec(s, "DELETE FROM confirmations WHERE expires_at <= ?", "I",
                now) < 0)
        return -1;
    return st_exec(s,
                   "INSERT INTO confirmations (code, email, action, game,"
                   " power, password_hash, settings, created_at, expires_at,"
                   " class) VALUES (?, lower(?), ?, ?, ?, ?, ?, ?, ?, ?)",
                   "sssssssIIs", c->code, c->email, c->action, c->game,
                   c->power, c->password_hash, c->settings, c->created_at,
                   c->expires_at, c->klass[0] ? c->klass : "unknown");
}

/* One row of SELECT ROW_COLUMNS. */
#define ROW_COLUMNS                                                          \
    "id, code, email, action, game, power, password_hash, settings,"        \
    " created_at, expires_at"

static int read_row(dj_store *s, sqlite3_stmt *st, void *row)
{
    (void)s;
    dj_confirmation_rec *c = row;
    memset(c, 0, sizeof *c);
    c->id = sqlite3_column_int64(st, 0);
    st_text(st, 1, c->code, sizeof c->code);
    st_text(st, 2, c->email, sizeof c->email);
    st_text(st, 3, c->action, sizeof c->action);
    st_text(st, 4, c->game, sizeof c->game);
    st_text(st, 5, c->power, sizeof c->power);
    st_text(st, 6, c->password_hash, sizeof c->password_hash);
    st_text(st, 7, c->settings, sizeof c->settings);
    c->created_at = sqlite3_column_int64(st, 8);
    c->expires_at = sqlite3_column_int64(st, 9);
    return 0;
}

int dj_store_confirmation_get(dj_store *s, const char *code,
                              dj_confirmation_rec *c)
{
    sqlite3_stmt *st = st_prepare(
        s, "SELECT " ROW_COLUMNS " FROM confirmations WHERE code = ?", "s",
        code);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW)
        read_row(s, st, c);
    st_finish(s, st);
    return rc < 0 ? -1 : rc == SQLITE_ROW ? 0 : DJ_STORE_NOTFOUND;
}

/* The rows of a game (?1, NULL any) from an address or "@domain" (?2). */
#define SELECTED                                                             \
    " (?1 IS NULL OR game = ?1) AND (?2 IS NULL OR email = lower(?2)"       \
    " OR (substr(?2, 1, 1) = '@' AND"                                       \
    " substr(email, instr(email, '@')) = lower(?2)))"

int dj_store_confirmation_list(dj_store *s, const char *game,
                               const char *from, int64_t now,
                               dj_confirmation_rec **out, int *n)
{
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT " ROW_COLUMNS " FROM confirmations WHERE" SELECTED
        " AND expires_at > ?3 ORDER BY created_at, id",
        "ssI", game, from, now);
    return st_collect(s, st, sizeof **out, read_row, NULL, (void **)out, n);
}

int dj_store_confirmation_clear(dj_store *s, const char *game,
                                const char *from, int *n)
{
    return st_exec_changes(s, n, "DELETE FROM confirmations WHERE" SELECTED,
                           "ss", game, from);
}

int dj_store_confirmation_delete(dj_store *s, int64_t id)
{
    return st_exec(s, "DELETE FROM confirmations WHERE id = ?", "I", id);
}

int dj_store_confirmation_count(dj_store *s, const char *game,
                                const char *email, const char *klass,
                                int64_t now, int *n)
{
    int64_t v = 0;
    int rc = st_query_int(s, &v,
                          "SELECT count(*) FROM confirmations WHERE"
                          " expires_at > ? AND (?2 IS NULL OR game = ?2)"
                          " AND (?3 IS NULL OR email = lower(?3))"
                          " AND (?4 IS NULL OR class = ?4)",
                          "Isss", now, game, email, klass);
    *n = (int)v;
    return rc < 0 ? -1 : 0;
}

int dj_store_confirmation_count_domain(dj_store *s, const char *domain,
                                       const char *klass, int64_t now,
                                       int *n)
{
    int64_t v = 0;
    int rc = st_query_int(s, &v,
                          "SELECT count(*) FROM confirmations WHERE"
                          " expires_at > ? AND substr(email,"
                          " instr(email, '@') + 1) = lower(?)"
                          " AND (?3 IS NULL OR class = ?3)",
                          "Iss", now, domain, klass);
    *n = (int)v;
    return rc < 0 ? -1 : 0;
}
