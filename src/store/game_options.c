/* SPDX-License-Identifier: MIT */
/*
 * game_options.c — rows behind the game options of issue 37 (see
 * game_options.h): EXTEND votes in the readiness table, a phase's
 * extended_at and grace_told_at, and the participants' excused counts.
 */
#include "store/game_options.h"
#include "store/stmt.h"

int dj_store_extend_vote(dj_store *s, int64_t phase_id, int power)
{
    return st_exec(s,
                   "INSERT INTO readiness (phase_id, power, extend)"
                   " VALUES (?, ?, 1) ON CONFLICT (phase_id, power)"
                   " DO UPDATE SET extend = 1",
                   "Ii", phase_id, power);
}

int dj_store_extend_votes(dj_store *s, int64_t phase_id, uint64_t *mask)
{
    *mask = 0;
    sqlite3_stmt *st = st_prepare(s,
                                  "SELECT power FROM readiness"
                                  " WHERE phase_id = ? AND extend = 1",
                                  "I", phase_id);
    if (!st)
        return -1;
    int rc;
    while ((rc = st_step(s, st)) == SQLITE_ROW) {
        int p = sqlite3_column_int(st, 0);
        if (p >= 0 && p < 64)
            *mask |= UINT64_C(1) << p;
    }
    st_finish(s, st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int dj_store_phase_claim_extension(dj_store *s, int64_t phase_id, int64_t at)
{
    int changes = 0;
    if (st_exec_changes(s, &changes,
                        "UPDATE phases SET extended_at = ?"
                        " WHERE id = ? AND extended_at IS NULL",
                        "II", at, phase_id) < 0)
        return -1;
    return changes ? 0 : DJ_STORE_NOTFOUND;
}

int dj_store_phase_extended(dj_store *s, int64_t phase_id, int *extended)
{
    int64_t n = 0;
    int rc = st_query_int(s, &n,
                          "SELECT extended_at IS NOT NULL FROM phases"
                          " WHERE id = ?",
                          "I", phase_id);
    *extended = rc == 0 && n != 0;
    return rc < 0 ? -1 : 0;
}

int dj_store_phase_claim_grace_told(dj_store *s, int64_t phase_id,
                                    int64_t at)
{
    int changes = 0;
    if (st_exec_changes(s, &changes,
                        "UPDATE phases SET grace_told_at = ?"
                        " WHERE id = ? AND grace_told_at IS NULL",
                        "II", at, phase_id) < 0)
        return -1;
    return changes ? 0 : DJ_STORE_NOTFOUND;
}

int dj_store_power_excused(dj_store *s, int64_t game_id, int power, int *n)
{
    int64_t v = 0;
    int rc = st_query_int(s, &v,
                          "SELECT COALESCE(SUM(excused), 0) FROM participants"
                          " WHERE game_id = ? AND power = ?",
                          "Ii", game_id, power);
    *n = rc == 0 ? (int)v : 0;
    return rc < 0 ? -1 : 0;
}

int dj_store_participant_excuse(dj_store *s, int64_t participant_id)
{
    return st_exec(s,
                   "UPDATE participants SET excused = excused + 1"
                   " WHERE id = ?",
                   "I", participant_id);
}
