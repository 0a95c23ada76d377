/* SPDX-License-Identifier: MIT */
/*
 * test_store.c — the SQLite store on a real database file in a temporary
 * directory: opening and migrations, the constraints that make a phase
 * processable once (one result per phase, one open phase per game, one
 * live player per power), orders, readiness, the outbox and mail log,
 * settings, transactions, the statement cache, and a crash at a write
 * point leaving the file whole.
 */
#define _POSIX_C_SOURCE 200809L

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/games.h"
#include "store/mail.h"
#include "store/participants.h"
#include "store/phases.h"
#include "store/press.h"
#include "store/signons.h"
#include "store/stmt.h"
#include "store/store.h"
#include "testlib.h"

/* Version 14's (issue 32), undone first when a test makes an older file. */
#define UNDO_V14                                                             \
    "DROP TRIGGER participants_new_token;"                                   \
    "DROP INDEX participants_token;"                                         \
    "ALTER TABLE participants DROP COLUMN token_gen;"                        \
    "ALTER TABLE participants DROP COLUMN token_hash;"                       \
    "DROP INDEX signon_failures_class;"                                      \
    "ALTER TABLE signon_failures DROP COLUMN class;"                         \
    "ALTER TABLE confirmations DROP COLUMN class;"                           \
    "ALTER TABLE maillog DROP COLUMN signed_on_by;"                          \
    "ALTER TABLE outbox DROP COLUMN press_id;"

static char dir[256], path[512];

static dj_store *open_db(void)
{
    char err[512];
    dj_store *s = dj_store_open(path, err, sizeof err);
    if (!s)
        fprintf(stderr, "open: %s\n", err);
    return s;
}

/* A pragma's value through a separate connection. */
static void pragma_text(const char *sql, char *out, size_t len)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    out[0] = '\0';
    if (sqlite3_open(path, &db) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
}

static dj_game_rec new_game(const char *name)
{
    dj_game_rec g;
    memset(&g, 0, sizeof g);
    dj_settings_default(&g); /* the settings table's defaults */
    snprintf(g.name, sizeof g.name, "%s", name);
    strcpy(g.map, "standard");
    strcpy(g.zone, "UTC");
    g.move_delay = 4320;
    g.retreat_delay = g.adjust_delay = 1440;
    g.time_of_day = -1;
    g.days = 127;
    g.grace = 1440;
    g.absence_limit = 14;
    strcpy(g.nmr, "cd");
    g.early = 1;
    g.early_delay = -1;
    strcpy(g.press, "white");
    strcpy(g.assignment, "choice");
    g.created_at = 1000;
    return g;
}

static void test_open(void)
{
    dj_store *s = open_db();
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK(dj_store_schema_version(s) == DJ_STORE_SCHEMA_VERSION);
    dj_store_close(s);
    char v[64];
    pragma_text("PRAGMA journal_mode", v, sizeof v);
    CHECK_STR(v, "wal");
    pragma_text("PRAGMA user_version", v, sizeof v);
    char want[16];
    snprintf(want, sizeof want, "%d", DJ_STORE_SCHEMA_VERSION);
    CHECK_STR(v, want);
    /* Opening again migrates nothing and keeps the data. */
    s = open_db();
    CHECK(s && dj_store_schema_version(s) == DJ_STORE_SCHEMA_VERSION);
    dj_store_close(s);
}

/* A version-1 file (before the press columns and signon_failures) is
 * brought up to date on open, its games keeping the press defaults. */
static void test_migrate_from_1(void)
{
    char old[600], err[512];
    snprintf(old, sizeof old, "%s/v1.db", dir);
    dj_store *s = dj_store_open(old, err, sizeof err);
    CHECK(s != NULL);
    dj_game_rec g = new_game("kept");
    CHECK(s && dj_store_game_insert(s, &g) == 0);
    dj_store_close(s);
    sqlite3 *db;
    sqlite3_open(old, &db);
    int rc = sqlite3_exec(db,
                          UNDO_V14
                          "DROP TABLE signon_failures;"
                          "ALTER TABLE games DROP COLUMN partial_press;"
                          "ALTER TABLE games DROP COLUMN fake_press;"
                          "ALTER TABLE games DROP COLUMN observer_press;"
                          /* version 3's columns, so the file is v1 */
                          "DROP INDEX outbox_recipient;"
                          "ALTER TABLE outbox DROP COLUMN next_attempt_at;"
                          "ALTER TABLE outbox DROP COLUMN claimed_at;"
                          "ALTER TABLE outbox DROP COLUMN message_id;"
                          "ALTER TABLE outbox DROP COLUMN in_reply_to;"
                          "ALTER TABLE phases DROP COLUMN reminded_at;"
                          /* version 13's */
                          "ALTER TABLE maillog DROP COLUMN auth;"
                          "ALTER TABLE maillog DROP COLUMN auth_verdict;"
                          /* version 12's */
                          "ALTER TABLE outbox DROP COLUMN picture_phase_id;"
                          "ALTER TABLE outbox DROP COLUMN picture_format;"
                          /* version 10's */
                          "ALTER TABLE press DROP COLUMN sender_id;"
                          "ALTER TABLE press DROP COLUMN sender_role;"
                          "ALTER TABLE press DROP COLUMN broadcast;"
                          "ALTER TABLE press DROP COLUMN to_mask;"
                          "ALTER TABLE press DROP COLUMN to_master;"
                          "ALTER TABLE press DROP COLUMN to_observers;"
                          "ALTER TABLE press DROP COLUMN fake;"
                          "ALTER TABLE press DROP COLUMN shown;"
                          "DROP TABLE player_events;"
                          "DROP TABLE player_prefs;"
                          /* version 8's, 6's (7's table went above; 6's
                           * pictures went with 12) */
                          "DROP TABLE mail_failures;"
                          "DROP TABLE diaries;" /* version 16's */
                          "DROP TABLE web_devices;" /* version 15's */
                          "DROP TABLE later_orders;" /* version 17's */
                          "DROP TABLE participant_addresses;" /* 21's */
                          "ALTER TABLE readiness DROP COLUMN extend;"
                          "ALTER TABLE phases DROP COLUMN extended_at;"
                          "ALTER TABLE phases DROP COLUMN grace_told_at;"
                          "ALTER TABLE participants DROP COLUMN excused;"
                          /* version 18's */
                          "DROP TABLE web_sessions;" /* version 11's */
                          "DROP TABLE confirmations;"
                          "ALTER TABLE games DROP COLUMN map_attachment;"
                          "ALTER TABLE participants DROP COLUMN map_format;"
                          /* version 5's */
                          "ALTER TABLE games DROP COLUMN engine;"
                          "ALTER TABLE games DROP COLUMN verify;"
                          "ALTER TABLE participants DROP COLUMN preference;"
                          /* version 20's */
                          "PRAGMA user_version = 1;",
                          NULL, NULL, NULL);
    sqlite3_close(db);
    if (rc != SQLITE_OK)
        return; /* an SQLite without DROP COLUMN: nothing to test */
    s = dj_store_open(old, err, sizeof err);
    CHECK(s && dj_store_schema_version(s) == DJ_STORE_SCHEMA_VERSION);
    /* the upgrade first wrote a copy of the old file beside it, and says so */
    char copy[700];
    snprintf(copy, sizeof copy, "%s.schema-v1.bak", old);
    CHECK(s && strstr(dj_store_notice(s), "upgraded from schema 1") != NULL);
    CHECK(s && strstr(dj_store_notice(s), copy) != NULL);
    sqlite3 *bak = NULL;
    CHECK(sqlite3_open_v2(copy, &bak, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
    char v1[16] = "";
    sqlite3_stmt *q = NULL;
    if (bak && sqlite3_prepare_v2(bak, "PRAGMA user_version", -1, &q, NULL) ==
                   SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW)
        snprintf(v1, sizeof v1, "%d", sqlite3_column_int(q, 0));
    sqlite3_finalize(q);
    sqlite3_close(bak);
    CHECK_STR(v1, "1");
    dj_game_rec got;
    CHECK(s && dj_store_game_get(s, "kept", &got) == 0);
    CHECK(got.partial_press == 1 && got.fake_press == 0);
    CHECK_STR(got.observer_press, "any");
    int n = -1;
    CHECK(s && dj_store_signon_failures(s, "a", "kept", NULL, 0, &n) == 0 && n == 0);
    dj_store_close(s);
}

static dj_participant_rec player(int64_t game, int power, const char *email);

static int64_t count_rows(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int64_t n = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

/* A version-3 file (powers 0..31 only) becomes a version-4 one (0..63,
 * for Chaos's 34 powers): participants and orders are rebuilt, and every
 * row, the absences that refer to a participant included, survives. */
static void test_migrate_from_3(void)
{
    char old[600], err[512];
    snprintf(old, sizeof old, "%s/v3.db", dir);
    dj_store *s = dj_store_open(old, err, sizeof err);
    CHECK(s != NULL);
    if (!s)
        return;
    dj_game_rec g = new_game("kept3");
    CHECK(dj_store_game_insert(s, &g) == 0);
    dj_participant_rec a = player(g.id, 5, "five@x");
    CHECK(dj_store_participant_insert(s, &a) == 0);
    CHECK(dj_store_absence_insert(s, a.id, 100, 200) == 0);
    dj_store_close(s);
    /* Make it a version-3 file: the CHECKs as version 3 wrote them. */
    sqlite3 *db;
    sqlite3_open(old, &db);
    int rc = sqlite3_exec(db,
                          UNDO_V14
                          "PRAGMA writable_schema = ON;"
                          "UPDATE sqlite_master SET sql = replace(sql,"
                          " 'BETWEEN 0 AND 63', 'BETWEEN 0 AND 31')"
                          " WHERE name IN ('participants', 'orders');"
                          "PRAGMA writable_schema = OFF;"
                          /* version 13's */
                          "ALTER TABLE maillog DROP COLUMN auth;"
                          "ALTER TABLE maillog DROP COLUMN auth_verdict;"
                          /* version 12's */
                          "ALTER TABLE outbox DROP COLUMN picture_phase_id;"
                          "ALTER TABLE outbox DROP COLUMN picture_format;"
                          /* version 10's */
                          "ALTER TABLE press DROP COLUMN sender_id;"
                          "ALTER TABLE press DROP COLUMN sender_role;"
                          "ALTER TABLE press DROP COLUMN broadcast;"
                          "ALTER TABLE press DROP COLUMN to_mask;"
                          "ALTER TABLE press DROP COLUMN to_master;"
                          "ALTER TABLE press DROP COLUMN to_observers;"
                          "ALTER TABLE press DROP COLUMN fake;"
                          "ALTER TABLE press DROP COLUMN shown;"
                          "DROP TABLE player_events;"
                          "DROP TABLE player_prefs;"
                          /* version 8's, 7's and 6's */
                          "DROP TABLE mail_failures;"
                          "DROP TABLE diaries;" /* version 16's */
                          "DROP TABLE web_devices;" /* version 15's */
                          "DROP TABLE later_orders;" /* version 17's */
                          "DROP TABLE participant_addresses;" /* 21's */
                          "ALTER TABLE readiness DROP COLUMN extend;"
                          "ALTER TABLE phases DROP COLUMN extended_at;"
                          "ALTER TABLE phases DROP COLUMN grace_told_at;"
                          "ALTER TABLE participants DROP COLUMN excused;"
                          /* version 18's */
                          "DROP TABLE web_sessions;" /* version 11's */
                          "DROP TABLE confirmations;"
                          "DROP INDEX signon_failures_target;"
                          "ALTER TABLE signon_failures DROP COLUMN target;"
                          "ALTER TABLE games DROP COLUMN map_attachment;"
                          "ALTER TABLE participants DROP COLUMN map_format;"
                          "ALTER TABLE games DROP COLUMN engine;"
                          "ALTER TABLE games DROP COLUMN verify;"
                          "ALTER TABLE participants DROP COLUMN preference;"
                          /* version 20's */
                          "PRAGMA user_version = 3;",
                          NULL, NULL, NULL);
    sqlite3_close(db);
    CHECK(rc == SQLITE_OK);
    s = dj_store_open(old, err, sizeof err);
    CHECK(s && dj_store_schema_version(s) == DJ_STORE_SCHEMA_VERSION);
    dj_participant_rec far = player(g.id, 33, "thirty-three@x");
    CHECK(s && dj_store_participant_insert(s, &far) == 0);
    dj_game_rec got; /* version 5: the engines, DPjudge's by default */
    CHECK(s && dj_store_game_get(s, "kept3", &got) == 0);
    CHECK_STR(got.engine, "dpjudge");
    CHECK_STR(got.verify, "");
    CHECK_STR(got.map_attachment, "png"); /* version 6: PNG maps by default */
    dj_store_close(s);
    sqlite3_open(old, &db);
    CHECK(count_rows(db, "SELECT count(*) FROM participants") == 2);
    CHECK(count_rows(db, "SELECT count(*) FROM absences") == 1);
    CHECK(count_rows(db, "SELECT count(*) FROM sqlite_master WHERE name IN"
                         " ('participants_power', 'participants_game',"
                         " 'orders_phase')") == 3);
    CHECK(count_rows(db, "SELECT count(*) FROM sqlite_master WHERE sql LIKE"
                         " '%AND 31%'") == 0);
    CHECK(count_rows(db, "SELECT count(*) FROM pragma_foreign_key_check")
          == 0);
    sqlite3_close(db);
}

/* The database and its -wal and -shm files are private (0600), whatever
 * the umask: they hold password hashes, addresses and secret orders. */
static void test_private_files(void)
{
    char file[600], wal[620], shm[620], err[512];
    snprintf(file, sizeof file, "%s/private.db", dir);
    snprintf(wal, sizeof wal, "%s-wal", file);
    snprintf(shm, sizeof shm, "%s-shm", file);
    mode_t old = umask(022);
    dj_store *s = dj_store_open(file, err, sizeof err);
    CHECK(s != NULL);
    dj_game_rec g = new_game("private");
    CHECK(s && dj_store_game_insert(s, &g) == 0); /* the WAL is written */
    struct stat st;
    CHECK(stat(file, &st) == 0 && (st.st_mode & 077) == 0);
    CHECK(stat(wal, &st) == 0 && (st.st_mode & 077) == 0);
    CHECK(stat(shm, &st) == 0 && (st.st_mode & 077) == 0);
    dj_store_close(s);
    umask(old);
}

static void test_newer_refused(void)
{
    char other[600], err[512];
    snprintf(other, sizeof other, "%s/newer.db", dir);
    sqlite3 *db;
    sqlite3_open(other, &db);
    sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL);
    sqlite3_close(db);
    dj_store *s = dj_store_open(other, err, sizeof err);
    CHECK(s == NULL);
    CHECK(strstr(err, "newer") != NULL);
    dj_store_close(s);
}

static void test_games(dj_store *s)
{
    dj_game_rec g = new_game("alpha"), got;
    CHECK(dj_store_game_insert(s, &g) == 0);
    CHECK(g.id > 0);
    CHECK(dj_store_game_get(s, "ALPHA", &got) == 0);
    CHECK_STR(got.name, "alpha");
    CHECK_STR(got.state, "forming");
    CHECK(got.move_delay == 4320 && got.early_delay == -1);
    CHECK(got.started_at == 0);
    dj_game_rec dup = new_game("Alpha");
    CHECK(dj_store_game_insert(s, &dup) < 0);
    CHECK(strstr(dj_store_error(s), "constraint") != NULL);
    CHECK(dj_store_game_get(s, "beta", &got) == DJ_STORE_NOTFOUND);

    strcpy(g.state, "active");
    g.started_at = 2000;
    CHECK(dj_store_game_set_state(s, &g) == 0);
    strcpy(g.nmr, "wait");
    g.grace = 60;
    CHECK(dj_store_game_update(s, &g) == 0);
    CHECK(dj_store_game_get_id(s, g.id, &got) == 0);
    CHECK_STR(got.state, "active");
    CHECK(got.started_at == 2000 && got.finished_at == 0);
    CHECK_STR(got.nmr, "wait");
    CHECK(got.grace == 60);
    strcpy(g.nmr, "never");
    CHECK(dj_store_game_update(s, &g) < 0); /* CHECK constraint */

    dj_game_rec *list;
    int n;
    dj_game_rec b = new_game("beta");
    dj_store_game_insert(s, &b);
    CHECK(dj_store_game_list(s, NULL, &list, &n) == 0 && n == 2);
    free(list);
    CHECK(dj_store_game_list(s, "active", &list, &n) == 0 && n == 1);
    CHECK(n == 1 && strcmp(list[0].name, "alpha") == 0);
    free(list);

    CHECK(dj_store_game_log(s, g.id, 5, "me", "test", "detail") == 0);
    dj_game_log_rec *log;
    CHECK(dj_store_game_log_list(s, g.id, &log, &n) == 0 && n == 1);
    CHECK(n == 1 && strcmp(log[0].action, "test") == 0);
    free(log);
}

static dj_participant_rec player(int64_t game, int power, const char *email)
{
    dj_participant_rec p;
    memset(&p, 0, sizeof p);
    p.game_id = game;
    strcpy(p.role, "player");
    p.power = power;
    snprintf(p.email, sizeof p.email, "%s", email);
    strcpy(p.status, "playing");
    p.joined_at = 10;
    return p;
}

static void test_participants(dj_store *s)
{
    dj_game_rec g;
    dj_store_game_get(s, "alpha", &g);
    dj_participant_rec a = player(g.id, 2, "a@x"), b = player(g.id, 2, "b@x");
    dj_participant_rec c = player(g.id, -1, "c@x");
    CHECK(dj_store_participant_insert(s, &a) == 0);
    CHECK(dj_store_participant_insert(s, &b) < 0); /* power 2 is taken */
    CHECK(dj_store_participant_insert(s, &c) == 0); /* no power yet */
    strcpy(a.status, "replaced");
    a.left_at = 20;
    CHECK(dj_store_participant_update(s, &a) == 0);
    CHECK(dj_store_participant_insert(s, &b) == 0); /* now it is free */
    dj_participant_rec got;
    CHECK(dj_store_participant_of_power(s, g.id, 2, &got) == 0);
    CHECK_STR(got.email, "b@x");
    CHECK(dj_store_participant_of_power(s, g.id, 3, &got) ==
          DJ_STORE_NOTFOUND);
    dj_participant_rec *list;
    int n;
    CHECK(dj_store_participant_list(s, g.id, &list, &n) == 0 && n == 3);
    CHECK(n == 3 && list[1].power == -1 && list[0].left_at == 20);
    free(list);

    CHECK(dj_store_absence_insert(s, b.id, 100, 200) == 0);
    CHECK(dj_store_absence_insert(s, b.id, 300, 300) < 0); /* empty */
    dj_absence_rec *abs;
    CHECK(dj_store_absence_list(s, g.id, 150, &abs, &n) == 0 && n == 1);
    CHECK(n == 1 && abs[0].power == 2 && abs[0].end == 200);
    int64_t id = n ? abs[0].id : 0;
    free(abs);
    CHECK(dj_store_absence_list(s, g.id, 200, &abs, &n) == 0 && n == 0);
    free(abs);
    CHECK(dj_store_absence_delete(s, b.id, id) == 0);
    CHECK(dj_store_absence_delete(s, b.id, id) == DJ_STORE_NOTFOUND);

    /* version 20: a preference list kept, and version 1's CHECK on
     * assignment gone (this file went through both) */
    snprintf(c.preference, sizeof c.preference, "England, France, *");
    CHECK(dj_store_participant_set_preference(s, &c) == 0);
    CHECK(dj_store_participant_list(s, g.id, &list, &n) == 0 && n == 3);
    CHECK(n == 3 && strcmp(list[1].preference, "England, France, *") == 0);
    free(list);
    snprintf(g.assignment, sizeof g.assignment, "preference");
    CHECK(dj_store_game_update(s, &g) == 0);
    dj_game_rec back;
    CHECK(dj_store_game_get(s, "alpha", &back) == 0);
    CHECK_STR(back.assignment, "preference");
}

static dj_phase_rec phase(int64_t game, int seq, const char *status)
{
    dj_phase_rec p;
    memset(&p, 0, sizeof p);
    p.game_id = game;
    p.seq = seq;
    snprintf(p.name, sizeof p.name, "S%dM", 1901 + seq);
    p.year = 1901 + seq;
    snprintf(p.status, sizeof p.status, "%s", status);
    p.position = (char *)"phase S1901M\n";
    p.opened_at = 50;
    p.deadline = 5000;
    return p;
}

static void test_phases(dj_store *s)
{
    dj_game_rec g;
    dj_store_game_get(s, "alpha", &g);
    dj_phase_rec p0 = phase(g.id, 0, "current"), p1 = phase(g.id, 1, "current");
    CHECK(dj_store_phase_insert(s, &p0) == 0);
    CHECK(dj_store_phase_insert(s, &p1) < 0); /* one open phase per game */
    dj_phase_rec again = phase(g.id, 0, "done");
    CHECK(dj_store_phase_insert(s, &again) < 0); /* seq 0 is live */
    dj_phase_rec bad = phase(9999, 0, "current");
    CHECK(dj_store_phase_insert(s, &bad) < 0); /* foreign key */

    /* One result per phase: the second is refused. */
    dj_result_rec r = {p0.id, 60, (char *)"report", (char *)"detail",
                       (char *)""};
    CHECK(dj_store_result_insert(s, &r) == 0);
    CHECK(dj_store_result_insert(s, &r) < 0);
    CHECK(strstr(dj_store_error(s), "constraint") != NULL);
    dj_result_rec got;
    CHECK(dj_store_result_get(s, p0.id, &got) == 0);
    CHECK_STR(got.report, "report");
    dj_result_rec_free(&got);

    CHECK(dj_store_phase_set_status(s, p0.id, "done", 0) == 0);
    CHECK(dj_store_phase_insert(s, &p1) == 0);
    dj_phase_rec open;
    CHECK(dj_store_phase_open(s, g.id, &open) == 0);
    CHECK(open.id == p1.id && open.deadline == 5000 && open.late_at == 0);
    CHECK_STR(open.position, "phase S1901M\n");
    dj_phase_rec_free(&open);
    CHECK(dj_store_phase_set_late(s, p1.id, 77) == 0);
    CHECK(dj_store_phase_get(s, p1.id, &open) == 0 && open.late_at == 77);
    dj_phase_rec_free(&open);
    CHECK(dj_store_phase_set_deadline(s, p1.id, 6000) == 0);
    CHECK(dj_store_phase_get(s, p1.id, &open) == 0 && open.late_at == 0 &&
          open.deadline == 6000);
    dj_phase_rec_free(&open);

    /* Undone phases step aside for a copy with the same seq. */
    dj_rollback_rec rb;
    memset(&rb, 0, sizeof rb);
    rb.game_id = g.id;
    rb.to_seq = 1;
    strcpy(rb.prev_state, "active");
    CHECK(dj_store_rollback_insert(s, &rb) == 0);
    CHECK(dj_store_phase_set_status(s, p1.id, "undone", rb.id) == 0);
    dj_phase_rec copy = phase(g.id, 1, "current");
    CHECK(dj_store_phase_insert(s, &copy) == 0);
    CHECK(dj_store_rollback_set_copy(s, rb.id, copy.id) == 0);
    dj_rollback_rec latest;
    CHECK(dj_store_rollback_latest(s, g.id, &latest) == 0);
    CHECK(latest.copy_phase_id == copy.id);
    dj_phase_rec *list;
    int n;
    CHECK(dj_store_phase_list(s, g.id, &list, &n) == 0 && n == 2);
    dj_phase_recs_free(list, n);
    CHECK(dj_store_phase_list_all(s, g.id, &list, &n) == 0 && n == 3);
    dj_phase_recs_free(list, n);
    CHECK(dj_store_phase_list_undone(s, rb.id, &list, &n) == 0 && n == 1);
    dj_phase_recs_free(list, n);
    CHECK(dj_store_rollback_set_undone(s, rb.id, 99) == 0);
    CHECK(dj_store_rollback_latest(s, g.id, &latest) == DJ_STORE_NOTFOUND);

    /* Orders: the latest set per power counts; copies keep it. */
    CHECK(dj_store_orders_add(s, copy.id, 0, "A VIE H\n", "t", "me", 1) == 0);
    CHECK(dj_store_orders_add(s, copy.id, 0, "A VIE - TRI\n", "t", "me",
                              2) == 0);
    CHECK(dj_store_orders_add(s, copy.id, 3, "A BER H\n", "t", "me", 3) == 0);
    dj_orders_rec *o;
    CHECK(dj_store_orders_latest(s, copy.id, &o, &n) == 0 && n == 2);
    CHECK(n == 2 && o[0].power == 0 && strcmp(o[0].orders, "A VIE - TRI\n") == 0);
    CHECK(n == 2 && o[1].received_at == 3);
    dj_orders_recs_free(o, n);
    CHECK(dj_store_orders_all(s, copy.id, &o, &n) == 0 && n == 3);
    dj_orders_recs_free(o, n);
    CHECK(dj_store_orders_copy(s, copy.id, p0.id) == 0);
    CHECK(dj_store_orders_latest(s, p0.id, &o, &n) == 0 && n == 2);
    dj_orders_recs_free(o, n);

    int ready, wait;
    CHECK(dj_store_readiness_get(s, copy.id, 0, &ready, &wait) == 0 &&
          !ready && !wait);
    CHECK(dj_store_readiness_set(s, copy.id, 0, 1, 0) == 0);
    CHECK(dj_store_readiness_set(s, copy.id, 0, 1, 1) == 0);
    CHECK(dj_store_readiness_get(s, copy.id, 0, &ready, &wait) == 0 &&
          ready && wait);
}

static void test_mail(dj_store *s)
{
    dj_game_rec g;
    dj_store_game_get(s, "alpha", &g);
    CHECK(dj_store_outbox_add(s, g.id, 0, "notice", "a@x", "subj", "body",
                              5) == 0);
    CHECK(dj_store_outbox_add(s, 0, 0, "notice", "b@x", "subj2", "body", 6) ==
          0);
    dj_outbox_rec *m;
    int n;
    CHECK(dj_store_outbox_list(s, g.id, NULL, &m, &n) == 0 && n == 1);
    int64_t id = n ? m[0].id : 0;
    dj_outbox_recs_free(m, n);
    CHECK(dj_store_outbox_list(s, 0, "queued", &m, &n) == 0 && n == 2);
    dj_outbox_recs_free(m, n);
    CHECK(dj_store_outbox_set_state(s, id, "sent", NULL, 9) == 0);
    CHECK(dj_store_outbox_list(s, 0, "sent", &m, &n) == 0 && n == 1);
    CHECK(n == 1 && m[0].sent_at == 9 && m[0].attempts == 1);
    dj_outbox_recs_free(m, n);
    CHECK(dj_store_outbox_set_state(s, id, "lost", NULL, 9) < 0);

    CHECK(dj_store_maillog_add(s, "<1@x>", "a@x", g.id, "ok", 1) == 0);
    CHECK(dj_store_maillog_add(s, "<1@x>", "a@x", g.id, "ok", 2) ==
          DJ_STORE_DUPLICATE);
    /* the mail system's verdict: unknown until set, then listed */
    CHECK(dj_store_maillog_add(s, "<2@x>", "b@x", 0, "ok", 3) == 0);
    CHECK(dj_store_maillog_set_auth(s, "<1@x>", "forged",
                                    "dmarc=fail header.from=x") == 0);
    CHECK(dj_store_maillog_set_auth(s, "<1@x>", "bogus", "") < 0);
    dj_maillog_rec *ml = NULL;
    int nml = 0;
    CHECK(dj_store_maillog_list(s, 0, 10, &ml, &nml) == 0 && nml == 2);
    if (nml == 2) {
        CHECK_STR(ml[0].auth, "forged");
        CHECK_STR(ml[0].auth_verdict, "dmarc=fail header.from=x");
        CHECK_STR(ml[1].auth, "unknown");
        CHECK_STR(ml[1].sender, "b@x");
    }
    free(ml);
    CHECK(dj_store_maillog_list(s, g.id, 10, &ml, &nml) == 0 && nml == 1);
    free(ml);
    CHECK(dj_store_maillog_list(s, 0, 1, &ml, &nml) == 0 && nml == 1 &&
          ml[0].received_at == 3);
    free(ml);
    dj_press_rec pr;
    memset(&pr, 0, sizeof pr);
    pr.from_power = 2;
    pr.to_mask = (uint64_t)1 << 63; /* the 64th power's bit survives */
    pr.to_master = true;
    snprintf(pr.sender_role, sizeof pr.sender_role, "player");
    snprintf(pr.to_names, sizeof pr.to_names, "Power64 and the master");
    pr.body = "hello";
    CHECK(dj_store_press_add(s, g.id, &pr, "a@x", 3) == 0);
    dj_press_rec *got = NULL;
    int ngot = 0;
    CHECK(dj_store_press_list(s, g.id, &got, &ngot) == 0 && ngot == 1);
    CHECK(ngot == 1 && got[0].to_mask == (uint64_t)1 << 63 &&
          got[0].to_master && !got[0].broadcast && got[0].from_power == 2 &&
          strcmp(got[0].body, "hello") == 0 && got[0].phase_order == -1);
    dj_press_recs_free(got, ngot);

    char v[64];
    CHECK(dj_store_setting_get(s, "k", v, sizeof v) == DJ_STORE_NOTFOUND);
    CHECK(dj_store_setting_set(s, "k", "one") == 0);
    CHECK(dj_store_setting_set(s, "k", "two") == 0);
    CHECK(dj_store_setting_get(s, "k", v, sizeof v) == 0);
    CHECK_STR(v, "two");
}

/* A begin inside a transaction is a savepoint: its rollback undoes only
 * its own level, its commit only releases it. */
static void test_nesting(dj_store *s)
{
    dj_game_rec a = new_game("outer"), b = new_game("inner"), got;
    CHECK(dj_store_begin(s) == 0);
    CHECK(dj_store_transaction_alive(s));
    CHECK(dj_store_game_insert(s, &a) == 0);
    CHECK(dj_store_begin(s) == 0);
    CHECK(dj_store_game_insert(s, &b) == 0);
    dj_store_rollback(s); /* the inner level only */
    CHECK(dj_store_in_transaction(s));
    CHECK(dj_store_game_get(s, "inner", &got) == DJ_STORE_NOTFOUND);
    CHECK(dj_store_game_get(s, "outer", &got) == 0);
    CHECK(dj_store_begin_read(s) == 0);
    CHECK(dj_store_begin(s) == 0); /* three levels */
    CHECK(dj_store_game_insert(s, &b) == 0);
    CHECK(dj_store_commit(s) == 0);
    dj_store_rollback(s); /* the read level: undoes the insert above */
    CHECK(dj_store_game_get(s, "inner", &got) == DJ_STORE_NOTFOUND);
    CHECK(dj_store_begin(s) == 0);
    CHECK(dj_store_game_insert(s, &b) == 0);
    CHECK(dj_store_commit(s) == 0); /* released into the outer */
    dj_store_rollback(s);           /* the outer: everything goes */
    CHECK(!dj_store_in_transaction(s));
    CHECK(!dj_store_transaction_alive(s));
    CHECK(dj_store_game_get(s, "outer", &got) == DJ_STORE_NOTFOUND);
    CHECK(dj_store_game_get(s, "inner", &got) == DJ_STORE_NOTFOUND);
    /* Too deep is refused, and the levels opened still unwind. */
    int opened = 0;
    while (opened < DJ_STORE_MAX_DEPTH + 2 && dj_store_begin(s) == 0)
        opened++;
    CHECK(opened == DJ_STORE_MAX_DEPTH);
    CHECK(strstr(dj_store_error(s), "too deep") != NULL);
    while (opened--)
        dj_store_rollback(s);
    CHECK(!dj_store_in_transaction(s));
}

/* Failed sign-ons: counted per sender and game, and per target, in a
 * window, pruned. */
static void test_signons(dj_store *s)
{
    int n = -1;
    CHECK(dj_store_signon_failures(s, "a@x", "alpha", NULL, 0, &n) == 0 && n == 0);
    CHECK(dj_store_signon_failure_add(s, "A@X", "alpha", "France", "unknown", 100, 0) ==
          0);
    CHECK(dj_store_signon_failure_add(s, "a@x", "ALPHA", "france", "unknown", 200, 0) ==
          0);
    CHECK(dj_store_signon_failure_add(s, "b@x", "alpha", "France", "unknown", 200, 0) ==
          0);
    CHECK(dj_store_signon_failure_add(s, "a@x", "beta", "master", "unknown", 200, 0) ==
          0);
    CHECK(dj_store_signon_failures(s, "a@x", "Alpha", NULL, 0, &n) == 0 && n == 2);
    CHECK(dj_store_signon_failures(s, "a@x", "alpha", NULL, 150, &n) == 0 && n == 1);
    /* Per target: every sender's failures as France in alpha. */
    CHECK(dj_store_signon_target_failures(s, "alpha", "FRANCE", NULL, 0, &n) == 0 &&
          n == 3);
    CHECK(dj_store_signon_target_failures(s, "alpha", "master", NULL, 0, &n) == 0 &&
          n == 0);
    /* A new failure prunes what is older than its window. */
    CHECK(dj_store_signon_failure_add(s, "a@x", "alpha", "France", "unknown", 300, 150) ==
          0);
    CHECK(dj_store_signon_failures(s, "a@x", "alpha", NULL, 0, &n) == 0 && n == 2);
    CHECK(dj_store_signon_target_failures(s, "alpha", "france", NULL, 0, &n) == 0 &&
          n == 3);
}

static void test_transactions(dj_store *s)
{
    CHECK(dj_store_begin(s) == 0);
    CHECK(dj_store_in_transaction(s));
    dj_game_rec g = new_game("gamma"), got;
    CHECK(dj_store_game_insert(s, &g) == 0);
    dj_store_rollback(s);
    CHECK(!dj_store_in_transaction(s));
    CHECK(dj_store_game_get(s, "gamma", &got) == DJ_STORE_NOTFOUND);
    CHECK(dj_store_begin(s) == 0);
    CHECK(dj_store_game_insert(s, &g) == 0);
    CHECK(dj_store_commit(s) == 0);
    CHECK(dj_store_game_get(s, "gamma", &got) == 0);
    CHECK(dj_store_commit(s) < 0); /* nothing open */
}

/* A process that dies at its n-th write point leaves nothing of its
 * transaction behind, and the file stays sound. */
static void test_crash(void)
{
    for (int n = 1; n <= 6; n++) {
        pid_t pid = fork();
        if (pid == 0) {
            dj_store *s = open_db();
            if (!s)
                _exit(1);
            dj_store_crash_at(s, n);
            dj_game_rec g = new_game("crashing");
            dj_store_begin(s);
            dj_store_game_insert(s, &g);
            dj_store_game_log(s, g.id, 1, "t", "crash", "");
            dj_store_commit(s);
            _exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        /* Points 1-4: the two statements; 5: before COMMIT; 6: after. */
        CHECK(WIFEXITED(status) &&
              WEXITSTATUS(status) == DJ_STORE_CRASH_STATUS);
        dj_store *s = open_db();
        dj_game_rec got;
        int rc = s ? dj_store_game_get(s, "crashing", &got) : -1;
        CHECK(rc == (n == 6 ? 0 : DJ_STORE_NOTFOUND));
        dj_store_close(s);
    }
    char v[64];
    pragma_text("PRAGMA integrity_check", v, sizeof v);
    CHECK_STR(v, "ok");
}

/* A version-11 file, with pictures stored (issue 11), becomes a version-12
 * one (issue 25): the pictures go, queued mail keeps the phase and format
 * of its picture (a MAP reply's, of no phase, goes without), and new mail
 * can be queued with a picture named. */
static void test_migrate_from_11(void)
{
    char old[600], err[512];
    snprintf(old, sizeof old, "%s/v11.db", dir);
    dj_store *s = dj_store_open(old, err, sizeof err);
    CHECK(s != NULL);
    if (!s)
        return;
    dj_game_rec g = new_game("kept9");
    CHECK(dj_store_game_insert(s, &g) == 0);
    dj_phase_rec ph = phase(g.id, 0, "done");
    CHECK(dj_store_phase_insert(s, &ph) == 0);
    dj_store_close(s);
    sqlite3 *db;
    sqlite3_open(old, &db);
    char sql[4096];
    snprintf(sql, sizeof sql,
             UNDO_V14
             "ALTER TABLE maillog DROP COLUMN auth;"
             "ALTER TABLE maillog DROP COLUMN auth_verdict;"
             "ALTER TABLE outbox DROP COLUMN picture_phase_id;"
             "ALTER TABLE outbox DROP COLUMN picture_format;"
             "CREATE TABLE pictures (id INTEGER PRIMARY KEY,"
             " phase_id INTEGER REFERENCES phases (id) ON DELETE CASCADE,"
             " filename TEXT NOT NULL, content_type TEXT NOT NULL,"
             " data BLOB NOT NULL);"
             "ALTER TABLE outbox ADD COLUMN picture_id INTEGER"
             " REFERENCES pictures (id) ON DELETE SET NULL;"
             "CREATE TRIGGER reply_picture_done AFTER UPDATE OF state ON outbox"
             " WHEN NEW.state IN ('sent', 'failed') AND NEW.picture_id IS NOT"
             " NULL BEGIN DELETE FROM pictures WHERE id = NEW.picture_id AND"
             " phase_id IS NULL; END;"
             "INSERT INTO pictures VALUES (1, %lld, 'kept9-S1901M.pdf',"
             " 'application/pdf', x'25504446'),"
             " (2, NULL, 'kept9-S1901M.png', 'image/png', x'89504E47');"
             "INSERT INTO outbox (kind, recipients, subject, body, created_at,"
             " picture_id) VALUES ('results', 'a@x', 's', 'b', 1, 1),"
             " ('reply', 'b@x', 's', 'b', 1, 2),"
             " ('results', 'c@x', 's', 'b', 1, NULL);"
             "DROP TABLE diaries;" /* version 16's */
             "DROP TABLE web_devices;" /* version 15's */
             "DROP TABLE later_orders;" /* version 17's */
             "DROP TABLE participant_addresses;" /* version 21's */
             "ALTER TABLE readiness DROP COLUMN extend;" /* version 18's */
             "ALTER TABLE phases DROP COLUMN extended_at;"
             "ALTER TABLE phases DROP COLUMN grace_told_at;"
             "ALTER TABLE participants DROP COLUMN excused;"
             "ALTER TABLE participants DROP COLUMN zone;" /* version 19's */
             "ALTER TABLE participants DROP COLUMN reminder;"
             "ALTER TABLE participants DROP COLUMN calendar;"
             "ALTER TABLE participants DROP COLUMN reminded_deadline;"
             "ALTER TABLE outbox DROP COLUMN calendar;"
             "ALTER TABLE participants DROP COLUMN preference;"
                          /* version 20's */
                          "PRAGMA user_version = 11;",
             (long long)ph.id);
    int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    CHECK(rc == SQLITE_OK);
    s = dj_store_open(old, err, sizeof err);
    CHECK(s && dj_store_schema_version(s) == DJ_STORE_SCHEMA_VERSION);
    dj_picture_ref ref = {ph.id, "svg"};
    CHECK(s && dj_store_outbox_add_pictured(s, g.id, ph.id, "results", "d@x",
                                            "s", "b", 2, &ref) == 0);
    dj_store_close(s);
    sqlite3_open(old, &db);
    CHECK(count_rows(db, "SELECT count(*) FROM sqlite_master"
                         " WHERE name IN ('pictures', 'reply_picture_done')") == 0);
    /* version 21's table is there, empty: participants.email stays each
     * participant's first address, nothing is copied */
    CHECK(count_rows(db, "SELECT count(*) FROM participant_addresses") == 0);
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM outbox WHERE"
             " (recipients = 'a@x' AND picture_phase_id = %lld"
             "  AND picture_format = 'pdf')"
             " OR (recipients IN ('b@x', 'c@x') AND picture_phase_id IS NULL"
             "  AND picture_format = '')"
             " OR (recipients = 'd@x' AND picture_phase_id = %lld"
             "  AND picture_format = 'svg')",
             (long long)ph.id, (long long)ph.id);
    CHECK(count_rows(db, sql) == 4);
    CHECK(count_rows(db, "SELECT count(*) FROM pragma_table_info('outbox')"
                         " WHERE name = 'picture_id'") == 0);
    sqlite3_close(db);
}

/* "SELECT ?" run with x bound, or read unbound (NULL: -1). */
static int64_t select_bound(dj_store *s, sqlite3_stmt *st)
{
    int64_t v = -2;
    if (st && st_step(s, st) == SQLITE_ROW)
        v = st_int64(st, 0, -1);
    return v;
}

/* The statement cache (stmt_cache.c): a text prepared once, given back
 * reset and unbound; a text in use not shared; texts built at run time,
 * texts with a tail, more texts than it keeps. */
static void test_statement_cache(dj_store *s)
{
    const char *sql = "SELECT ?";
    sqlite3_stmt *a = st_prepare(s, sql, "I", (int64_t)7);
    CHECK(select_bound(s, a) == 7);
    st_finish(s, a);
    sqlite3_stmt *again = st_prepare(s, sql, "");
    CHECK(again == a); /* kept compiled */
    CHECK(select_bound(s, again) == -1); /* and unbound */
    /* in use: the same text asked for again gets one of its own */
    sqlite3_stmt *inner = st_prepare(s, sql, "I", (int64_t)9);
    CHECK(inner && inner != again);
    CHECK(select_bound(s, inner) == 9);
    st_finish(s, inner);
    st_finish(s, again);
    CHECK(st_prepare(s, sql, "") == a);
    st_finish(s, a);
    /* one buffer, two texts */
    char text[64];
    int64_t got[2];
    for (int i = 0; i < 2; i++) {
        snprintf(text, sizeof text, "SELECT %d + ?", i * 10);
        sqlite3_stmt *st = st_prepare(s, text, "I", (int64_t)1);
        got[i] = select_bound(s, st);
        st_finish(s, st);
    }
    CHECK(got[0] == 1 && got[1] == 11);
    /* a tail after the statement: the first runs, nothing is kept wrong */
    for (int i = 0; i < 2; i++) {
        sqlite3_stmt *st = st_prepare(s, "SELECT 5; SELECT 6", "");
        CHECK(select_bound(s, st) == 5);
        st_finish(s, st);
    }
    /* more texts than the cache keeps: each still right */
    int wrong = 0;
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 600; i++) {
            snprintf(text, sizeof text, "SELECT %d", i);
            sqlite3_stmt *st = st_prepare(s, text, "");
            wrong += select_bound(s, st) != i;
            st_finish(s, st);
        }
    CHECK(wrong == 0);
    /* a text that does not compile: an error, and the cache goes on */
    CHECK(st_prepare(s, "SELECT FROM nowhere", "") == NULL);
    CHECK(strstr(dj_store_error(s), "prepare") != NULL);
    sqlite3_stmt *last = st_prepare(s, sql, "I", (int64_t)3);
    CHECK(select_bound(s, last) == 3);
    st_finish(s, last);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/test_store.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    snprintf(path, sizeof path, "%s/judge.db", dir);
    test_open();
    test_newer_refused();
    test_migrate_from_1();
    test_migrate_from_3();
    test_migrate_from_11();
    test_private_files();
    dj_store *s = open_db();
    if (s) {
        test_games(s);
        test_participants(s);
        test_phases(s);
        test_mail(s);
        test_transactions(s);
        test_nesting(s);
        test_signons(s);
        test_statement_cache(s);
        dj_store_close(s);
    }
    test_crash();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return test_summary();
}
