/* SPDX-License-Identifier: MIT */
/*
 * stmt_cache.c — each connection keeps the statements it has prepared,
 * one per SQL text, so that a statement run again is only reset and bound
 * again, not compiled again (compiling was about half of a web page's
 * time: judgeweb asks the same few dozen questions on every request).
 *
 * Design.  st_prepare() takes a statement from here (st_cache_take) and
 * its user gives it back with st_finish() (st_cache_give_back), which
 * resets it and clears its bindings: a cached statement waiting here
 * holds no lock, no read transaction and no copy of a bound value.  The
 * table is keyed by the SQL text itself (the statement's own copy,
 * sqlite3_sql), hashed, so texts built at run time (a savepoint's level,
 * the columns of a settings update) are cached as safely as literals.
 *
 * A statement still in use when the same text is asked for again (a
 * query run inside the loop over another's rows) is not shared: the
 * second user gets a statement of its own, prepared for the occasion and
 * finalized when given back.  So are texts past the table's capacity,
 * and any text SQLite would not keep whole (a tail after the first
 * statement).  Everything is finalized when the connection closes.
 *
 * One table per connection (struct dj_store), used by that connection's
 * thread only, as SQLite's connection itself: no lock.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/stmt.h"

#define ST_CACHE_SLOTS 512 /* a power of two */
#define ST_CACHE_MAX 384   /* texts kept; more are prepared each time */

typedef struct st_cached {
    sqlite3_stmt *stmt; /* NULL: an empty slot */
    uint32_t hash;
    bool in_use;
} st_cached;

struct st_cache {
    int count;
    st_cached slot[ST_CACHE_SLOTS];
};

static uint32_t text_hash(const char *text)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        h ^= *p;
        h *= 16777619u;
    }
    return h;
}

/* The slot holding `sql`, or the empty slot where it would go. */
static st_cached *find_slot(struct st_cache *c, const char *sql, uint32_t h)
{
    for (uint32_t i = h;; i++) {
        st_cached *e = &c->slot[i & (ST_CACHE_SLOTS - 1)];
        if (!e->stmt ||
            (e->hash == h && strcmp(sqlite3_sql(e->stmt), sql) == 0))
            return e;
    }
}

/* Compile `sql` for keeping (persistent) or for one use. */
static sqlite3_stmt *compile(dj_store *s, const char *sql, bool keep)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v3(s->db, sql, -1,
                           keep ? SQLITE_PREPARE_PERSISTENT : 0, &st,
                           NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

sqlite3_stmt *st_cache_take(dj_store *s, const char *sql)
{
    if (!s->cache)
        s->cache = calloc(1, sizeof *s->cache);
    struct st_cache *c = s->cache;
    if (!c)
        return compile(s, sql, false);
    /* a free slot is always left, so find_slot ends */
    assert(c->count <= ST_CACHE_MAX && ST_CACHE_MAX < ST_CACHE_SLOTS);
    uint32_t h = text_hash(sql);
    st_cached *e = find_slot(c, sql, h);
    if (e->stmt && !e->in_use) {
        e->in_use = true;
        return e->stmt;
    }
    if (e->stmt || c->count >= ST_CACHE_MAX)
        return compile(s, sql, false); /* in use, or the table is full */
    sqlite3_stmt *st = compile(s, sql, true);
    if (st && strcmp(sqlite3_sql(st), sql) == 0) {
        e->stmt = st;
        e->hash = h;
        e->in_use = true;
        c->count++;
    }
    return st;
}

void st_cache_give_back(dj_store *s, sqlite3_stmt *st)
{
    if (!st)
        return;
    if (s->cache) {
        const char *sql = sqlite3_sql(st);
        st_cached *e = find_slot(s->cache, sql, text_hash(sql));
        if (e->stmt == st) {
            assert(e->in_use); /* given back once per take */
            sqlite3_reset(st);
            sqlite3_clear_bindings(st);
            e->in_use = false;
            return;
        }
    }
    sqlite3_finalize(st);
}

void st_cache_free(dj_store *s)
{
    if (!s->cache)
        return;
    for (int i = 0; i < ST_CACHE_SLOTS; i++)
        sqlite3_finalize(s->cache->slot[i].stmt);
    free(s->cache);
    s->cache = NULL;
}
