/* SPDX-License-Identifier: MIT */
/*
 * tokens.c — the reply tokens' columns of participants.  See tokens.h.
 */
#include "store/tokens.h"

#include "store/stmt.h"

#define LIVE " status NOT IN ('resigned', 'replaced')"

int dj_store_token_participant(dj_store *s, int64_t game_id,
                               const char *email, int64_t *pid,
                               int64_t *gen)
{
    int rc = st_query_int(s, pid,
                          "SELECT id FROM participants WHERE game_id = ?"
                          " AND lower(email) = lower(?) AND" LIVE
                          " ORDER BY id LIMIT 1",
                          "Is", game_id, email ? email : "");
    if (rc != 0)
        return rc;
    return dj_store_token_gen(s, *pid, gen);
}

int dj_store_token_gen(dj_store *s, int64_t pid, int64_t *gen)
{
    return st_query_int(s, gen,
                        "SELECT token_gen FROM participants WHERE id = ?",
                        "I", pid);
}

int dj_store_token_set_hash(dj_store *s, int64_t pid, int64_t gen,
                            const char *hash)
{
    return st_exec(s,
                   "UPDATE participants SET token_hash = ? WHERE id = ?"
                   " AND token_gen = ? AND token_hash IS NOT ?",
                   "sIIs", hash, pid, gen, hash);
}

int dj_store_token_find(dj_store *s, const char *hash, int64_t *pid,
                        int64_t *game_id)
{
    int rc = st_query_int(s, pid,
                          "SELECT id FROM participants WHERE token_hash = ?"
                          " AND" LIVE,
                          "s", hash ? hash : "");
    if (rc != 0)
        return rc;
    return st_query_int(s, game_id,
                        "SELECT game_id FROM participants WHERE id = ?", "I",
                        *pid);
}

int dj_store_token_bump(dj_store *s, int64_t pid)
{
    return st_exec(s,
                   "UPDATE participants SET token_gen = token_gen + 1,"
                   " token_hash = NULL WHERE id = ?",
                   "I", pid);
}
