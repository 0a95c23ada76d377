/*
 * confirmations.c — rows of the confirmations table (confirmations.h).
 */
#include "store/confirmations.h"

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
                   " power, password_hash, settings, created_at, expires_at)"
                   " VALUES (?, lower(?), ?, ?, ?, ?, ?, ?, ?)",
                   "sssssssII", c->code, c->email, c->action, c->game,
                   c->power, c->password_hash, c->settings, c->created_at,
                   c->expires_at);
}

int dj_store_confirmation_get(dj_store *s, const char *code,
                              dj_confirmation_rec *c)
{
    sqlite3_stmt *st = st_prepare(
        s,
        "SELECT id, code, email, action, game, power, password_hash,"
        " settings, created_at, expires_at FROM confirmations"
        " WHERE code = ?",
        "s", code);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    if (rc == SQLITE_ROW) {
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
    }
    sqlite3_finalize(st);
    return rc < 0 ? -1 : rc == SQLITE_ROW ? 0 : DJ_STORE_NOTFOUND;
}

int dj_store_confirmation_delete(dj_store *s, int64_t id)
{
    return st_exec(s, "DELETE FROM confirmations WHERE id = ?", "I", id);
}

int dj_store_confirmation_count(dj_store *s, const char *game,
                                const char *email, int64_t now, int *n)
{
    int64_t v = 0;
    int rc = st_query_int(s, &v,
                          "SELECT count(*) FROM confirmations WHERE"
                          " expires_at > ? AND (?2 IS NULL OR game = ?2)"
                          " AND (?3 IS NULL OR email = lower(?3))",
                          "Iss", now, game, email);
    *n = (int)v;
    return rc < 0 ? -1 : 0;
}
