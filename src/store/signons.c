/* SPDX-License-Identifier: MIT */
/*
 * signons.c — rows of the signon_failures table.  See signons.h.
 */
#include "store/signons.h"

#include "store/stmt.h"

int dj_store_signon_failure_add(dj_store *s, const char *sender,
                                const char *game, const char *target,
                                const char *klass, int64_t at,
                                int64_t prune_before)
{
    if (st_exec(s, "DELETE FROM signon_failures WHERE at < ?", "I",
                prune_before) < 0)
        return -1;
    return st_exec(s,
                   "INSERT INTO signon_failures (sender, game, target, class,"
                   " at) VALUES (lower(?), ?, lower(?), ?, ?)",
                   "ssssI", sender ? sender : "", game ? game : "",
                   target ? target : "", klass ? klass : "unknown", at);
}

int dj_store_signon_target_failures(dj_store *s, const char *game,
                                    const char *target, const char *klass,
                                    int64_t since, int *count)
{
    int64_t n = 0;
    int rc = st_query_int(s, &n,
                          "SELECT count(*) FROM signon_failures"
                          " WHERE game = ? AND target = lower(?)"
                          " AND (?3 IS NULL OR class = ?3) AND at >= ?",
                          "sssI", game ? game : "", target ? target : "",
                          klass, since);
    *count = rc == 0 ? (int)n : 0;
    return rc < 0 ? -1 : 0;
}

int dj_store_signon_failures(dj_store *s, const char *sender,
                             const char *game, const char *klass,
                             int64_t since, int *count)
{
    int64_t n = 0;
    int rc = st_query_int(s, &n,
                          "SELECT count(*) FROM signon_failures"
                          " WHERE sender = lower(?) AND game = ?"
                          " AND (?3 IS NULL OR class = ?3) AND at >= ?",
                          "sssI", sender ? sender : "", game ? game : "",
                          klass, since);
    *count = rc == 0 ? (int)n : 0;
    return rc < 0 ? -1 : 0;
}

int dj_store_signon_target_latest(dj_store *s, const char *game,
                                  const char *target, const char *klass,
                                  int64_t *latest)
{
    *latest = 0;
    return st_query_int(s, latest,
                        "SELECT IFNULL(max(at), 0) FROM signon_failures"
                        " WHERE game = ? AND target = lower(?)"
                        " AND (?3 IS NULL OR class = ?3)",
                        "sss", game ? game : "", target ? target : "",
                        klass);
}

int dj_store_signon_pair_failures(dj_store *s, const char *sender,
                                  const char *game, const char *target,
                                  int64_t since, int *count, int64_t *latest)
{
    int64_t n = 0;
    *latest = 0;
    *count = 0;
    const char *g = game ? game : "", *t = target ? target : "";
    if (st_query_int(s, &n,
                     "SELECT count(*) FROM signon_failures WHERE sender = ?"
                     " AND game = ? AND target = lower(?) AND at >= ?",
                     "sssI", sender, g, t, since) < 0 ||
        st_query_int(s, latest,
                     "SELECT IFNULL(max(at), 0) FROM signon_failures"
                     " WHERE sender = ? AND game = ? AND target = lower(?)",
                     "sss", sender, g, t) < 0)
        return -1;
    *count = (int)n;
    return 0;
}
