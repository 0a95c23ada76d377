/* SPDX-License-Identifier: MIT */
/*
 * addresses.c — rows of participant_addresses: the further confirmed
 * addresses of a player (store/addresses.h).  Few rows a participant (two
 * at most), read together with the participants of a game.
 */
#include <string.h>

#include "store/addresses.h"
#include "store/stmt.h"

int dj_store_address_add(dj_store *s, int64_t pid, const char *email,
                         int64_t now)
{
    return st_exec(s,
                   "INSERT INTO participant_addresses (participant_id, email,"
                   " added_at) VALUES (?, ?, ?)",
                   "IsI", pid, email, now);
}

int dj_store_address_remove(dj_store *s, int64_t pid, const char *email)
{
    int changes = 0;
    if (st_exec_changes(s, &changes,
                        "DELETE FROM participant_addresses WHERE"
                        " participant_id = ? AND lower(email) = lower(?)",
                        "Is", pid, email) < 0)
        return -1;
    return changes ? 0 : DJ_STORE_NOTFOUND;
}

static int fill_one(dj_store *s, dj_participant_rec *p)
{
    p->nmore = 0;
    sqlite3_stmt *st = st_prepare(s,
                                  "SELECT email FROM participant_addresses"
                                  " WHERE participant_id = ?"
                                  " ORDER BY added_at, rowid",
                                  "I", p->id);
    if (!st)
        return -1;
    int rc;
    while ((rc = st_step(s, st)) == SQLITE_ROW)
        if (p->nmore < DJ_ADDRESSES_MAX - 1) {
            st_text(st, 0, p->more[p->nmore], sizeof p->more[p->nmore]);
            p->nmore++;
        }
    st_finish(s, st);
    return rc < 0 ? -1 : 0;
}

int dj_store_address_fill(dj_store *s, dj_participant_rec *p, int n)
{
    /* one indexed probe per participant; most games have no such row,
     * so first ask whether the game has any */
    if (n <= 0)
        return 0;
    int64_t any = 0;
    int rc = st_query_int(s, &any,
                          "SELECT count(*) FROM participant_addresses a"
                          " JOIN participants p ON p.id = a.participant_id"
                          " WHERE p.game_id = ?",
                          "I", p[0].game_id);
    if (rc < 0)
        return -1;
    if (any == 0)
        return 0;
    for (int i = 0; i < n; i++)
        if (fill_one(s, &p[i]) < 0)
            return -1;
    return 0;
}
