/* SPDX-License-Identifier: MIT */
/*
 * schema.c — the tables, and how a database file gets them.
 *
 * Design.  The schema version lives in the file itself (PRAGMA
 * user_version).  MIGRATIONS[v] takes a file from version v to v+1; on open
 * every missing step runs, each inside BEGIN IMMEDIATE together with the
 * new user_version, so two programs opening a fresh file at once cannot
 * both migrate it, and a crash mid-migration leaves the old version whole.
 * A migration is never edited once released: changes are a new step.
 *
 * What the tables hold (version 1):
 *
 *   settings      the judge's key/value settings.
 *   games         one row per game: map, rule options, state, deadline
 *                 schedule (minutes; days a weekday mask, bit 0 Sunday),
 *                 NMR policy, early processing, press, how it ended.
 *   participants  players (a power, or none yet), observers and masters:
 *                 addresses, password hash, status, draw/concede vote.
 *                 At most one live player per power (a partial unique
 *                 index); a replaced player's row stays, marked replaced.
 *   absences      a participant's declared absences [start, end).
 *   phases        every phase a game has had: its position snapshot (the
 *                 text of game/snapshot.c), deadline, when the lateness of
 *                 its powers was announced.  A snapshot is never changed.
 *                 status: current (awaiting orders), done (adjudicated),
 *                 final (the position the game ended in), undone (taken
 *                 back by a rollback; kept so rollforward can restore it).
 *                 Live rows (not undone) are unique per (game, seq), and a
 *                 game has at most one current-or-final phase.
 *   orders        every set of orders received for a phase and power, with
 *                 time, source and author; the latest one counts.
 *   readiness     per phase and power: READY and WAIT flags.
 *   results       one row per adjudicated phase, keyed by the phase: the
 *                 primary key is what makes adjudicating a phase twice
 *                 impossible, whatever two processes try.
 *   rollbacks     each rollback: where it went, the phase it reopened, the
 *                 game's state before it, and whether it was rolled forward.
 *   outbox        mail waiting to be sent (and sent mail, by state).
 *   maillog       Message-IDs of mail received, to drop duplicates.
 *   press         the press archive.
 *   game_log      what masters and the judge did to a game, and when.
 *
 * Version 2 adds the rest of the press rules to games (partial_press:
 * press to some powers allowed, else broadcasts only; fake_press: press
 * may claim other recipients; observer_press: any, white or none) and
 * signon_failures: one row per failed mail sign-on (sender address, the
 * game name as written, time), counted to rate-limit password guessing
 * and pruned as the rows age out of the window.
 *
 * Version 3 is the mail sender's (src/store/sending.h): the outbox learns
 * when a row may next be tried (next_attempt_at, for retries with
 * backoff), when it was claimed for sending (claimed_at), the Message-ID
 * it goes out with (fixed at its first claim, so a copy re-sent after a
 * crash carries the same one) and the Message-ID it answers
 * (in_reply_to); an index finds the replies to one address (the reply
 * rate limit).  Phases learn when their deadline reminder went out
 * (reminded_at, reset with late_at when the deadline moves).
 *
 * Version 10 is the players' (issue 24): the press archive learns who
 * really sent and received each message (sender_id, sender_role,
 * broadcast, to_mask: a bit per power, to_master, to_observers) and what
 * fake press showed (fake, shown), so that one function decides who may
 * read it (game/press_archive.c); player_events records, per address and
 * game, what the reliability figures count (missed deadlines, civil
 * disorder, takeovers, abandoned games); player_prefs holds an address's
 * SET STATS PUBLIC; confirmations learn the actions master, takeover and
 * address (a new master, a volunteer and a new address confirm by code).

 * Version 11 adds web_sessions: one row per sign-in on the web door
 * (judgeweb), keyed by the SHA-256 of the cookie's random token (the
 * token itself is never stored), with the participant signed in, the
 * session's CSRF token and when it expires.
 *
 * Version 13 gives maillog what the mail system said about the sender
 * (mail/authres.h): auth, the class (authenticated, forged or unknown),
 * and auth_verdict, the short line it came from ("dmarc=pass
 * header.from=example.org").  Rows from before say unknown.
 *
 * Version 14 gives failed sign-ons and pending requests the class of the
 * mail that made them, the mail log how each sender was signed on, and
 * participants their reply tokens (hashed; issue 32).  Version 15 adds
 * web_devices: browsers known to a participant (issue 33).
 *
 * Version 16 adds diaries: the players' DIARY entries, one row each,
 * with the power and the phase it was written in (issue 36).  Version 17
 * adds later_orders: njudge's PHASE orders kept for a later phase, read
 * when it opens.
 *
 * Version 18 (issue 37) gives participants their own options: zone (SET
 * ZONE, '' the game's), reminder (SET REMINDER, minutes before the
 * deadline; -1 none, NULL the judge's), reminded_deadline (the deadline
 * an own-lead reminder last went out for; a moved deadline re-arms it)
 * and calendar (SET CALENDAR: the deadline's .ics attached to start and
 * results mail), and the outbox the
 * calendar text a mail carries (NULL: none).
 *
 * Version 20 (issue 37) gives participants their preference list (SET
 * PREFERENCE: power names and '*', as game/deal.h writes them) and drops
 * version 1's CHECK on games.assignment (now choice, random or
 * preference).
 *
 * Times are INTEGER seconds since 1970, UTC.
 */
#define _POSIX_C_SOURCE 200809L /* stat() */

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "store/listing.h"
#include "store/schema.h"
#include "store/settings_table.h"
#include "store/stmt.h"

static const char *const MIGRATION_1[] = {
    "CREATE TABLE settings ("
    " key TEXT PRIMARY KEY,"
    " value TEXT NOT NULL"
    ") WITHOUT ROWID",

    "CREATE TABLE games ("
    " id INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL UNIQUE COLLATE NOCASE,"
    " map TEXT NOT NULL,"
    " rules TEXT NOT NULL DEFAULT '',"
    " state TEXT NOT NULL DEFAULT 'forming'"
    "  CHECK (state IN ('forming', 'active', 'paused', 'finished')),"
    " zone TEXT NOT NULL DEFAULT 'UTC',"
    " move_delay INTEGER NOT NULL CHECK (move_delay >= 0),"
    " retreat_delay INTEGER NOT NULL CHECK (retreat_delay >= 0),"
    " adjust_delay INTEGER NOT NULL CHECK (adjust_delay >= 0),"
    " time_of_day INTEGER NOT NULL DEFAULT -1"
    "  CHECK (time_of_day BETWEEN -1 AND 1439),"
    " days INTEGER NOT NULL DEFAULT 127 CHECK (days BETWEEN 1 AND 127),"
    " grace INTEGER NOT NULL CHECK (grace >= 0),"
    " absence_limit INTEGER NOT NULL DEFAULT 14 CHECK (absence_limit >= 0),"
    " nmr TEXT NOT NULL DEFAULT 'cd' CHECK (nmr IN ('cd', 'wait')),"
    " early INTEGER NOT NULL DEFAULT 1 CHECK (early IN (0, 1)),"
    " early_delay INTEGER NOT NULL DEFAULT -1 CHECK (early_delay >= -1),"
    " press TEXT NOT NULL DEFAULT 'white'"
    "  CHECK (press IN ('none', 'white', 'grey', 'white+grey')),"
    " assignment TEXT NOT NULL DEFAULT 'choice'"
    "  CHECK (assignment IN ('choice', 'random')),"
    " ending TEXT NOT NULL DEFAULT '',"
    " created_at INTEGER NOT NULL,"
    " started_at INTEGER,"
    " finished_at INTEGER,"
    " paused_at INTEGER"
    ")",

    "CREATE TABLE participants ("
    " id INTEGER PRIMARY KEY,"
    " game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    " role TEXT NOT NULL CHECK (role IN ('player', 'observer', 'master')),"
    " power INTEGER CHECK (power IS NULL OR power BETWEEN 0 AND 31),"
    " name TEXT NOT NULL DEFAULT '',"
    " email TEXT NOT NULL DEFAULT '',"
    " password_hash TEXT NOT NULL DEFAULT '',"
    " status TEXT NOT NULL DEFAULT 'playing'"
    "  CHECK (status IN ('playing', 'resigned', 'civil-disorder',"
    "                    'eliminated', 'replaced')),"
    " vote TEXT NOT NULL DEFAULT '',"
    " joined_at INTEGER NOT NULL,"
    " left_at INTEGER"
    ")",
    "CREATE UNIQUE INDEX participants_power ON participants (game_id, power)"
    " WHERE role = 'player' AND power IS NOT NULL"
    " AND status NOT IN ('resigned', 'replaced')",
    "CREATE INDEX participants_game ON participants (game_id, role)",

    "CREATE TABLE absences ("
    " id INTEGER PRIMARY KEY,"
    " participant_id INTEGER NOT NULL"
    "  REFERENCES participants (id) ON DELETE CASCADE,"
    " start_at INTEGER NOT NULL,"
    " end_at INTEGER NOT NULL,"
    " CHECK (end_at > start_at)"
    ")",
    "CREATE INDEX absences_participant ON absences (participant_id)",

    "CREATE TABLE rollbacks ("
    " id INTEGER PRIMARY KEY,"
    " game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    " created_at INTEGER NOT NULL,"
    " to_seq INTEGER NOT NULL,"
    " copy_phase_id INTEGER,"
    " prev_state TEXT NOT NULL,"
    " prev_ending TEXT NOT NULL DEFAULT '',"
    " undone_at INTEGER"
    ")",

    "CREATE TABLE phases ("
    " id INTEGER PRIMARY KEY,"
    " game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL CHECK (seq >= 0),"
    " name TEXT NOT NULL,"
    " year INTEGER NOT NULL,"
    " season INTEGER NOT NULL CHECK (season BETWEEN 0 AND 2),"
    " type INTEGER NOT NULL CHECK (type BETWEEN 0 AND 2),"
    " status TEXT NOT NULL"
    "  CHECK (status IN ('current', 'done', 'final', 'undone')),"
    " position TEXT NOT NULL,"
    " opened_at INTEGER NOT NULL,"
    " deadline INTEGER,"
    " late_at INTEGER,"
    " rollback_id INTEGER REFERENCES rollbacks (id)"
    ")",
    "CREATE UNIQUE INDEX phases_live ON phases (game_id, seq)"
    " WHERE status <> 'undone'",
    "CREATE UNIQUE INDEX phases_open ON phases (game_id)"
    " WHERE status IN ('current', 'final')",

    "CREATE TABLE orders ("
    " id INTEGER PRIMARY KEY,"
    " phase_id INTEGER NOT NULL REFERENCES phases (id) ON DELETE CASCADE,"
    " power INTEGER NOT NULL CHECK (power BETWEEN 0 AND 31),"
    " orders TEXT NOT NULL,"
    " source TEXT NOT NULL,"
    " author TEXT NOT NULL DEFAULT '',"
    " received_at INTEGER NOT NULL"
    ")",
    "CREATE INDEX orders_phase ON orders (phase_id, power, id)",

    "CREATE TABLE readiness ("
    " phase_id INTEGER NOT NULL REFERENCES phases (id) ON DELETE CASCADE,"
    " power INTEGER NOT NULL,"
    " ready INTEGER NOT NULL DEFAULT 0,"
    " wait INTEGER NOT NULL DEFAULT 0,"
    " PRIMARY KEY (phase_id, power)"
    ") WITHOUT ROWID",

    "CREATE TABLE results ("
    " phase_id INTEGER PRIMARY KEY REFERENCES phases (id) ON DELETE CASCADE,"
    " processed_at INTEGER NOT NULL,"
    " report TEXT NOT NULL,"
    " detail TEXT NOT NULL,"
    " disorder TEXT NOT NULL DEFAULT ''"
    ")",

    "CREATE TABLE outbox ("
    " id INTEGER PRIMARY KEY,"
    " game_id INTEGER REFERENCES games (id) ON DELETE SET NULL,"
    " phase_id INTEGER REFERENCES phases (id) ON DELETE SET NULL,"
    " kind TEXT NOT NULL,"
    " recipients TEXT NOT NULL,"
    " subject TEXT NOT NULL,"
    " body TEXT NOT NULL,"
    " state TEXT NOT NULL DEFAULT 'queued'"
    "  CHECK (state IN ('queued', 'sending', 'sent', 'failed')),"
    " attempts INTEGER NOT NULL DEFAULT 0,"
    " created_at INTEGER NOT NULL,"
    " sent_at INTEGER,"
    " last_error TEXT NOT NULL DEFAULT ''"
    ")",
    "CREATE INDEX outbox_phase ON outbox (phase_id)",
    "CREATE INDEX outbox_state ON outbox (state, id)",

    "CREATE TABLE maillog ("
    " id INTEGER PRIMARY KEY,"
    " message_id TEXT NOT NULL UNIQUE,"
    " received_at INTEGER NOT NULL,"
    " sender TEXT NOT NULL DEFAULT '',"
    " game_id INTEGER REFERENCES games (id) ON DELETE SET NULL,"
    " outcome TEXT NOT NULL DEFAULT ''"
    ")",

    "CREATE TABLE press ("
    " id INTEGER PRIMARY KEY,"
    " game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    " phase_id INTEGER REFERENCES phases (id) ON DELETE SET NULL,"
    " sent_at INTEGER NOT NULL,"
    " from_power INTEGER,"
    " author TEXT NOT NULL DEFAULT '',"
    " to_powers TEXT NOT NULL DEFAULT '',"
    " grey INTEGER NOT NULL DEFAULT 0,"
    " body TEXT NOT NULL"
    ")",
    "CREATE INDEX press_game ON press (game_id, id)",

    "CREATE TABLE game_log ("
    " id INTEGER PRIMARY KEY,"
    " game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    " at INTEGER NOT NULL,"
    " actor TEXT NOT NULL DEFAULT '',"
    " action TEXT NOT NULL,"
    " detail TEXT NOT NULL DEFAULT ''"
    ")",
    "CREATE INDEX game_log_game ON game_log (game_id, id)",
    NULL};

static const char *const MIGRATION_2[] = {
    "ALTER TABLE games ADD COLUMN partial_press INTEGER NOT NULL DEFAULT 1"
    " CHECK (partial_press IN (0, 1))",
    "ALTER TABLE games ADD COLUMN fake_press INTEGER NOT NULL DEFAULT 0"
    " CHECK (fake_press IN (0, 1))",
    "ALTER TABLE games ADD COLUMN observer_press TEXT NOT NULL"
    " DEFAULT 'any' CHECK (observer_press IN ('any', 'white', 'none'))",

    "CREATE TABLE signon_failures ("
    " id INTEGER PRIMARY KEY,"
    " sender TEXT NOT NULL,"
    " game TEXT NOT NULL COLLATE NOCASE,"
    " at INTEGER NOT NULL"
    ")",
    "CREATE INDEX signon_failures_key ON signon_failures (sender, game, at)",
    NULL};

static const char *const MIGRATION_3[] = {
    "ALTER TABLE outbox ADD COLUMN next_attempt_at INTEGER NOT NULL"
    " DEFAULT 0",
    "ALTER TABLE outbox ADD COLUMN claimed_at INTEGER",
    "ALTER TABLE outbox ADD COLUMN message_id TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE outbox ADD COLUMN in_reply_to TEXT NOT NULL DEFAULT ''",
    "CREATE INDEX outbox_recipient ON outbox (recipients, kind, created_at)",
    "ALTER TABLE phases ADD COLUMN reminded_at INTEGER",
    NULL};

/*
 * Up to 64 powers (Chaos has 34): the CHECKs on power numbers were 0..31.
 * SQLite cannot alter a CHECK, so both tables are rebuilt the way SQLite's
 * documentation prescribes: with foreign keys off (migrate_step turns them
 * off around every step and runs foreign_key_check before committing), a
 * new table, the rows copied, the old dropped, the new renamed, indexes
 * made again.  Nothing refers to an order row; absences refer to
 * participants by id, which the copy keeps.
 */
static const char *const MIGRATION_4[] = {
    "CREATE TABLE participants_v4 ("
    " id INTEGER PRIMARY KEY,"
    " game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    " role TEXT NOT NULL CHECK (role IN ('player', 'observer', 'master')),"
    " power INTEGER CHECK (power IS NULL OR power BETWEEN 0 AND 63),"
    " name TEXT NOT NULL DEFAULT '',"
    " email TEXT NOT NULL DEFAULT '',"
    " password_hash TEXT NOT NULL DEFAULT '',"
    " status TEXT NOT NULL DEFAULT 'playing'"
    "  CHECK (status IN ('playing', 'resigned', 'civil-disorder',"
    "                    'eliminated', 'replaced')),"
    " vote TEXT NOT NULL DEFAULT '',"
    " joined_at INTEGER NOT NULL,"
    " left_at INTEGER"
    ")",
    "INSERT INTO participants_v4 (id, game_id, role, power, name, email,"
    " password_hash, status, vote, joined_at, left_at)"
    " SELECT id, game_id, role, power, name, email, password_hash, status,"
    " vote, joined_at, left_at FROM participants",
    "DROP TABLE participants",
    "ALTER TABLE participants_v4 RENAME TO participants",
    "CREATE UNIQUE INDEX participants_power ON participants (game_id, power)"
    " WHERE role = 'player' AND power IS NOT NULL"
    " AND status NOT IN ('resigned', 'replaced')",
    "CREATE INDEX participants_game ON participants (game_id, role)",

    "CREATE TABLE orders_v4 ("
    " id INTEGER PRIMARY KEY,"
    " phase_id INTEGER NOT NULL REFERENCES phases (id) ON DELETE CASCADE,"
    " power INTEGER NOT NULL CHECK (power BETWEEN 0 AND 63),"
    " orders TEXT NOT NULL,"
    " source TEXT NOT NULL,"
    " author TEXT NOT NULL DEFAULT '',"
    " received_at INTEGER NOT NULL"
    ")",
    "INSERT INTO orders_v4 (id, phase_id, power, orders, source, author,"
    " received_at) SELECT id, phase_id, power, orders, source, author,"
    " received_at FROM orders",
    "DROP TABLE orders",
    "ALTER TABLE orders_v4 RENAME TO orders",
    "CREATE INDEX orders_phase ON orders (phase_id, power, id)",
    NULL};

/* The movement engine a game uses and the one that checks it ('' for the
 * default: the other of dpjudge and kruijswijk). */
static const char *const MIGRATION_5[] = {
    "ALTER TABLE games ADD COLUMN engine TEXT NOT NULL DEFAULT 'dpjudge'"
    " CHECK (engine IN ('dpjudge', 'kruijswijk', 'haplomacy'))",
    "ALTER TABLE games ADD COLUMN verify TEXT NOT NULL DEFAULT ''"
    " CHECK (verify IN ('', 'dpjudge', 'kruijswijk', 'haplomacy', 'none'))",
    NULL};

/* Pictures of the board attached to results mail (issue 11): drawn when
 * the results are stored, in the same transaction, so a rollback or a
 * crash can never mail a picture of another position.  One picture per
 * phase and format, shared by every outbox row that attaches it. */
static const char *const MIGRATION_6[] = {
    "CREATE TABLE pictures ("
    " id INTEGER PRIMARY KEY,"
    " phase_id INTEGER REFERENCES phases (id) ON DELETE CASCADE,"
    " filename TEXT NOT NULL,"
    " content_type TEXT NOT NULL,"
    " data BLOB NOT NULL"
    ")",
    "CREATE INDEX pictures_phase ON pictures (phase_id)",
    "ALTER TABLE outbox ADD COLUMN picture_id INTEGER"
    " REFERENCES pictures (id) ON DELETE SET NULL",
    "ALTER TABLE games ADD COLUMN map_attachment TEXT NOT NULL DEFAULT 'png'"
    " CHECK (map_attachment IN ('png', 'pdf', 'svg', 'none'))",
    "ALTER TABLE participants ADD COLUMN map_format TEXT NOT NULL DEFAULT ''"
    " CHECK (map_format IN ('', 'png', 'pdf', 'svg', 'none'))",
    /* A picture answering MAP belongs to no phase: it goes once its mail
     * is sent or given up (the outbox row's picture_id becomes NULL). */
    "CREATE TRIGGER reply_picture_done AFTER UPDATE OF state ON outbox"
    " WHEN NEW.state IN ('sent', 'failed') AND NEW.picture_id IS NOT NULL"
    " BEGIN"
    "  DELETE FROM pictures WHERE id = NEW.picture_id AND phase_id IS NULL;"
    " END",
    NULL};

/* Failed sign-ons are also counted per target (a power, the master...):
 * guesses from many addresses at one power add up (issue 9). */
static const char *const MIGRATION_7[] = {
    "ALTER TABLE signon_failures ADD COLUMN target TEXT NOT NULL DEFAULT ''",
    "CREATE INDEX signon_failures_target ON signon_failures"
    " (game, target, at)",
    NULL};

/* Incoming messages that failed for a reason other than a busy database:
 * counted per mailbox id, so that after a bounded number of tries one is
 * moved aside and the queue goes on (issue 9). */
static const char *const MIGRATION_8[] = {
    "CREATE TABLE mail_failures ("
    " mailbox_id TEXT PRIMARY KEY,"
    " tries INTEGER NOT NULL DEFAULT 0,"
    " first_at INTEGER NOT NULL,"
    " last_at INTEGER NOT NULL,"
    " last_error TEXT NOT NULL DEFAULT '',"
    " quarantined_at INTEGER"
    ")",
    NULL};

/* JOIN, OBSERVE and CREATE by mail wait for the address to prove it
 * receives mail: the judge mails a code, and the action happens when the
 * code comes back (issue 9). */
static const char *const MIGRATION_9[] = {
    "CREATE TABLE confirmations ("
    " id INTEGER PRIMARY KEY,"
    " code TEXT NOT NULL UNIQUE,"
    " email TEXT NOT NULL,"
    " action TEXT NOT NULL CHECK (action IN ('join', 'observe', 'create')),"
    " game TEXT NOT NULL COLLATE NOCASE,"
    " power TEXT NOT NULL DEFAULT '',"
    " password_hash TEXT NOT NULL DEFAULT '',"
    " settings TEXT NOT NULL DEFAULT '',"
    " created_at INTEGER NOT NULL,"
    " expires_at INTEGER NOT NULL"
    ")",
    "CREATE INDEX confirmations_game ON confirmations (game)",
    "CREATE INDEX confirmations_email ON confirmations (email)",
    NULL};

/* Version 10: see the top of this file. */
static const char *const MIGRATION_10[] = {
    "ALTER TABLE press ADD COLUMN sender_id INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE press ADD COLUMN sender_role TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE press ADD COLUMN broadcast INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE press ADD COLUMN to_mask INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE press ADD COLUMN to_master INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE press ADD COLUMN to_observers INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE press ADD COLUMN fake INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE press ADD COLUMN shown TEXT NOT NULL DEFAULT ''",
    "UPDATE press SET broadcast = (to_powers = '')",

    "CREATE TABLE player_events ("
    " id INTEGER PRIMARY KEY,"
    " email TEXT NOT NULL COLLATE NOCASE,"
    " game_id INTEGER REFERENCES games (id) ON DELETE SET NULL,"
    " kind TEXT NOT NULL CHECK (kind IN ('missed', 'disorder', 'takeover',"
    "  'abandoned')),"
    " at INTEGER NOT NULL"
    ")",
    "CREATE INDEX player_events_email ON player_events (email, kind)",
    "CREATE TABLE player_prefs ("
    " email TEXT PRIMARY KEY COLLATE NOCASE,"
    " stats_public INTEGER NOT NULL DEFAULT 0 CHECK (stats_public IN (0, 1))"
    ") WITHOUT ROWID",

    "CREATE TABLE confirmations_v10 ("
    " id INTEGER PRIMARY KEY,"
    " code TEXT NOT NULL UNIQUE,"
    " email TEXT NOT NULL,"
    " action TEXT NOT NULL CHECK (action IN ('join', 'observe', 'create',"
    "  'master', 'takeover', 'address')),"
    " game TEXT NOT NULL COLLATE NOCASE,"
    " power TEXT NOT NULL DEFAULT '',"
    " password_hash TEXT NOT NULL DEFAULT '',"
    " settings TEXT NOT NULL DEFAULT '',"
    " created_at INTEGER NOT NULL,"
    " expires_at INTEGER NOT NULL"
    ")",
    "INSERT INTO confirmations_v10 SELECT id, code, email, action, game,"
    " power, password_hash, settings, created_at, expires_at"
    " FROM confirmations",
    "DROP TABLE confirmations",
    "ALTER TABLE confirmations_v10 RENAME TO confirmations",
    "CREATE INDEX confirmations_game ON confirmations (game)",
    "CREATE INDEX confirmations_email ON confirmations (email)",
    NULL};

/* Version 11: the web door's sign-ins (store/web.h). */
static const char *const MIGRATION_11[] = {
    "CREATE TABLE web_sessions ("
    " token_hash TEXT PRIMARY KEY,"
    " participant_id INTEGER NOT NULL"
    "  REFERENCES participants (id) ON DELETE CASCADE,"
    " csrf TEXT NOT NULL,"
    " client TEXT NOT NULL DEFAULT '',"
    " created_at INTEGER NOT NULL,"
    " expires_at INTEGER NOT NULL"
    ")",
    "CREATE INDEX web_sessions_expiry ON web_sessions (expires_at)",
    NULL};

/* Pictures are derived data (issue 25): drawn when a mail goes out (or
 * taken from the picture cache on disk), never stored.  A queued mail
 * keeps which phase's picture it carries and in which format; the stored
 * pictures, their trigger and the outbox's reference to them go (the
 * outbox is rebuilt: a column referring to a dropped table would fail
 * every insert).  Mail queued with a picture of a phase keeps it; a MAP
 * reply's picture, which named no phase, is dropped.  picture_phase_id
 * is no foreign key: a phase that has gone leaves the mail to go without
 * its picture. */
static const char *const MIGRATION_12[] = {
    "CREATE TABLE outbox_v12 ("
    " id INTEGER PRIMARY KEY,"
    " game_id INTEGER REFERENCES games (id) ON DELETE SET NULL,"
    " phase_id INTEGER REFERENCES phases (id) ON DELETE SET NULL,"
    " kind TEXT NOT NULL,"
    " recipients TEXT NOT NULL,"
    " subject TEXT NOT NULL,"
    " body TEXT NOT NULL,"
    " state TEXT NOT NULL DEFAULT 'queued'"
    "  CHECK (state IN ('queued', 'sending', 'sent', 'failed')),"
    " attempts INTEGER NOT NULL DEFAULT 0,"
    " created_at INTEGER NOT NULL,"
    " sent_at INTEGER,"
    " last_error TEXT NOT NULL DEFAULT '',"
    " next_attempt_at INTEGER NOT NULL DEFAULT 0,"
    " claimed_at INTEGER,"
    " message_id TEXT NOT NULL DEFAULT '',"
    " in_reply_to TEXT NOT NULL DEFAULT '',"
    " picture_phase_id INTEGER,"
    " picture_format TEXT NOT NULL DEFAULT ''"
    "  CHECK (picture_format IN ('', 'png', 'svg', 'pdf'))"
    ")",
    "INSERT INTO outbox_v12 (id, game_id, phase_id, kind, recipients,"
    " subject, body, state, attempts, created_at, sent_at, last_error,"
    " next_attempt_at, claimed_at, message_id, in_reply_to,"
    " picture_phase_id, picture_format)"
    " SELECT o.id, o.game_id, o.phase_id, o.kind, o.recipients, o.subject,"
    " o.body, o.state, o.attempts, o.created_at, o.sent_at, o.last_error,"
    " o.next_attempt_at, o.claimed_at, o.message_id, o.in_reply_to,"
    " p.phase_id,"
    " CASE WHEN p.phase_id IS NULL THEN ''"
    "  ELSE lower(substr(p.filename, -3)) END"
    " FROM outbox o LEFT JOIN pictures p ON p.id = o.picture_id",
    "DROP TRIGGER reply_picture_done",
    "DROP TABLE outbox",
    "DROP TABLE pictures",
    "ALTER TABLE outbox_v12 RENAME TO outbox",
    "CREATE INDEX outbox_phase ON outbox (phase_id)",
    "CREATE INDEX outbox_state ON outbox (state, id)",
    "CREATE INDEX outbox_recipient ON outbox (recipients, kind, created_at)",
    NULL};

/* Version 13: the mail system's verdict on each mail received. */
static const char *const MIGRATION_13[] = {
    "ALTER TABLE maillog ADD COLUMN auth TEXT NOT NULL DEFAULT 'unknown'"
    " CHECK (auth IN ('authenticated', 'forged', 'unknown'))",
    "ALTER TABLE maillog ADD COLUMN auth_verdict TEXT NOT NULL DEFAULT ''",
    NULL};

/* Version 14 (issue 32): who sent a mail.  Failed sign-ons and pending
 * requests carry the class of the mail that made them (game.h:
 * dj_sender_class), so each class counts only its own; the mail log
 * records how each mail's sender was signed on (reply token, password,
 * none); a press mail in the outbox says which press message it carries
 * (press_id: its reply address answers that message).  A participant's
 * reply token (game/reply_token.c) is derived from a key outside the
 * database, the participant's id and token_gen; only its SHA-256 is stored (token_hash, set when the judge
 * first mails it, NULL until then), and the trigger makes a new
 * generation, and so a new token, whenever the password, the address or
 * the power changes, so an old reply address stops working. */
static const char *const MIGRATION_14[] = {
    "ALTER TABLE signon_failures ADD COLUMN class TEXT NOT NULL"
    " DEFAULT 'unknown'",
    "CREATE INDEX signon_failures_class ON signon_failures"
    " (game, target, class, at)",
    "ALTER TABLE confirmations ADD COLUMN class TEXT NOT NULL"
    " DEFAULT 'unknown'",
    "ALTER TABLE maillog ADD COLUMN signed_on_by TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE outbox ADD COLUMN press_id INTEGER",
    "ALTER TABLE participants ADD COLUMN token_gen INTEGER NOT NULL"
    " DEFAULT 0",
    "ALTER TABLE participants ADD COLUMN token_hash TEXT",
    "CREATE UNIQUE INDEX participants_token ON participants (token_hash)"
    " WHERE token_hash IS NOT NULL",
    "CREATE TRIGGER participants_new_token AFTER UPDATE OF password_hash,"
    " email, power ON participants"
    " WHEN OLD.password_hash IS NOT NEW.password_hash"
    "  OR lower(OLD.email) IS NOT lower(NEW.email)"
    "  OR OLD.power IS NOT NEW.power"
    " BEGIN UPDATE participants SET token_gen = token_gen + 1,"
    "  token_hash = NULL WHERE id = NEW.id; END",
    NULL};

/* Version 15: browsers known to a participant (store/web.h), which may
 * still try a password when strangers' failures have used up a power's
 * day of web sign-ins (issue 33). */
static const char *const MIGRATION_15[] = {
    "CREATE TABLE web_devices ("
    " device_hash TEXT PRIMARY KEY,"
    " participant_id INTEGER NOT NULL"
    "  REFERENCES participants (id) ON DELETE CASCADE,"
    " created_at INTEGER NOT NULL,"
    " expires_at INTEGER NOT NULL"
    ")",
    "CREATE INDEX web_devices_participant ON web_devices (participant_id)",
    NULL};

/* Version 16 (issue 36): players' diaries (DIARY ... ENDDIARY), one row
 * per entry, kept for the power and the phase it was written in; private
 * to that power until the game ends (game/press.c decides who reads). */
static const char *const MIGRATION_16[] = {
    "CREATE TABLE diaries ("
    " id INTEGER PRIMARY KEY,"
    " game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    " phase_id INTEGER REFERENCES phases (id) ON DELETE SET NULL,"
    " power INTEGER NOT NULL CHECK (power BETWEEN 0 AND 63),"
    " written_at INTEGER NOT NULL,"
    " body TEXT NOT NULL"
    ")",
    "CREATE INDEX diaries_game ON diaries (game_id, power)",
    NULL};

/* Version 17 (issue 36): njudge's PHASE orders for a later phase of a
 * game, one text per power and phase (the lines as the player sent them),
 * read by the order reader when that phase opens (game/orders.c). */
static const char *const MIGRATION_17[] = {
    "CREATE TABLE later_orders ("
    " game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
    " power INTEGER NOT NULL CHECK (power BETWEEN 0 AND 63),"
    " phase TEXT NOT NULL,"
    " text TEXT NOT NULL,"
    " sent_by TEXT NOT NULL,"
    " sent_at INTEGER NOT NULL,"
    " PRIMARY KEY (game_id, power, phase)"
    ")",
    NULL};

/* Version 18 (issue 37): the game options' own state (store/game_options.c):
 * a power's EXTEND vote beside its READY and WAIT, when a phase's
 * deadline was extended by the vote (once per phase) and when the master
 * and the late players were told that its grace had ended (nmr = wait),
 * and how many missed phases of a player were excused (excuses = N). */
static const char *const MIGRATION_18[] = {
    "ALTER TABLE readiness ADD COLUMN extend INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE phases ADD COLUMN extended_at INTEGER",
    "ALTER TABLE phases ADD COLUMN grace_told_at INTEGER",
    "ALTER TABLE participants ADD COLUMN excused INTEGER NOT NULL DEFAULT 0",
    NULL};

/* Version 19 (issue 37): a participant's own options, and the .ics a
 * queued mail carries (game/player_options.h). */
static const char *const MIGRATION_19[] = {
    "ALTER TABLE participants ADD COLUMN zone TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE participants ADD COLUMN reminder INTEGER"
    " CHECK (reminder IS NULL OR reminder >= -1)",
    "ALTER TABLE participants ADD COLUMN calendar INTEGER NOT NULL"
    " DEFAULT 1 CHECK (calendar IN (0, 1))",
    "ALTER TABLE participants ADD COLUMN reminded_deadline INTEGER NOT NULL"
    " DEFAULT 0",
    "ALTER TABLE outbox ADD COLUMN calendar TEXT",
    NULL};

/* Version 20 (issue 37): a player's preference list (SET PREFERENCE,
 * assignment = preference), and the games' assignment without version
 * 1's CHECK, which allowed only choice and random: the column is copied,
 * dropped and renamed (ALTER TABLE DROP COLUMN, SQLite 3.35), its values
 * kept; the game room checks it against the settings table, as every
 * setting added since version 6. */
static const char *const MIGRATION_20[] = {
    "ALTER TABLE participants ADD COLUMN preference TEXT NOT NULL"
    " DEFAULT ''",
    "ALTER TABLE games ADD COLUMN assignment_v20 TEXT NOT NULL"
    " DEFAULT 'choice'",
    "UPDATE games SET assignment_v20 = assignment",
    "ALTER TABLE games DROP COLUMN assignment",
    "ALTER TABLE games RENAME COLUMN assignment_v20 TO assignment",
    NULL};

/* Version 21 (issue 37): a player's further addresses, up to two beside
 * participants.email (which stays its first address, so nothing is
 * copied: every existing participant has just that one), each confirmed
 * by code before it is stored (store/addresses.h, game/addresses.c). */
static const char *const MIGRATION_21[] = {
    "CREATE TABLE participant_addresses ("
    " participant_id INTEGER NOT NULL"
    "  REFERENCES participants (id) ON DELETE CASCADE,"
    " email TEXT NOT NULL CHECK (email <> ''),"
    " added_at INTEGER NOT NULL,"
    " UNIQUE (participant_id, email COLLATE NOCASE)"
    ")",
    "CREATE INDEX participant_addresses_email ON participant_addresses"
    " (lower(email))",
    NULL};

/* MIGRATIONS[v]: the statements taking a file from version v to v + 1. */
static const char *const *const MIGRATIONS[DJ_STORE_SCHEMA_VERSION] = {
    MIGRATION_1,
    MIGRATION_2,
    MIGRATION_3,
    MIGRATION_4,
    MIGRATION_5,
    MIGRATION_6,
    MIGRATION_7,
    MIGRATION_8,
    MIGRATION_9,
    MIGRATION_10,
    MIGRATION_11,
    MIGRATION_12,
    MIGRATION_13,
    MIGRATION_14,
    MIGRATION_15,
    MIGRATION_16,
    MIGRATION_17,
    MIGRATION_18,
    MIGRATION_19,
    MIGRATION_20,
    MIGRATION_21,
};

/* PRAGMA user_version takes no parameters: the value is our own integer. */
static int set_version(dj_store *s, int v)
{
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v);
    return st_exec(s, sql, "");
}

/* Rows whose foreign keys point nowhere: 0 when there are none. */
static int foreign_keys_hold(dj_store *s)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, "PRAGMA foreign_key_check", -1, &st,
                           NULL) != SQLITE_OK)
        return dj_store_fail(s, "foreign_key_check: %s",
                             sqlite3_errmsg(s->db));
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return dj_store_fail(s, "migration broke a foreign key");
    return rc == SQLITE_DONE ? 0 : dj_store_fail(s, "foreign_key_check failed");
}

/*
 * One migration in one transaction.  Foreign keys are off while it runs
 * (a table rebuilt must not cascade deletes into the tables that refer to
 * it; the pragma has no effect inside a transaction, so it is set around
 * it) and checked whole before the commit.
 */
static int migrate_step(dj_store *s, int from)
{
    if (st_exec(s, "PRAGMA foreign_keys = OFF", "") < 0)
        return -1;
    if (dj_store_begin(s) < 0)
        goto restore;
    /* Someone else may have migrated while we waited for the lock. */
    int now = dj_store_schema_version(s);
    if (now < 0)
        goto fail;
    if (now == from) {
        for (const char *const *sql = MIGRATIONS[from]; *sql; sql++)
            if (st_exec(s, *sql, "") < 0)
                goto fail;
        if (foreign_keys_hold(s) < 0 || set_version(s, from + 1) < 0)
            goto fail;
    }
    if (dj_store_commit(s) < 0)
        goto restore;
    return st_exec(s, "PRAGMA foreign_keys = ON", "");
fail:
    dj_store_rollback(s);
restore:
    st_exec(s, "PRAGMA foreign_keys = ON", "");
    return -1;
}

/* Does the games table have this column? 1 yes, 0 no, -1 error. */
static int has_column(dj_store *s, const char *column)
{
    sqlite3_stmt *st = st_prepare(s, "SELECT count(*) FROM"
                                     " pragma_table_info('games')"
                                     " WHERE name = ?",
                                  "s", column);
    if (!st)
        return -1;
    int rc = st_step(s, st);
    int n = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    st_finish(s, st);
    return n < 0 ? -1 : n > 0;
}

/*
 * A setting of settings_table.h whose column the games table lacks gets
 * one, holding its default for the games already there: a new setting
 * needs no migration.  (The settings of versions 1 to 6 came with their
 * migrations, CHECKs included; the table's own checks are in the game
 * room.)  The table's names and defaults are constants of the program,
 * never input; a text default is quoted all the same.
 */
static int add_setting_columns(dj_store *s)
{
    for (int i = 0; i < DJ_SETTINGS_COUNT; i++) {
        const dj_setting_info *si = &dj_settings[i];
        int has = has_column(s, si->column);
        if (has != 0) {
            if (has < 0)
                return -1;
            continue;
        }
        char sql[512], quoted[128];
        size_t q = 0;
        for (const char *c = si->text_default ? si->text_default : "";
             *c && q + 3 < sizeof quoted; c++) {
            if (*c == '\'')
                quoted[q++] = '\'';
            quoted[q++] = *c;
        }
        quoted[q] = '\0';
        if (si->text)
            snprintf(sql, sizeof sql,
                     "ALTER TABLE games ADD COLUMN %s TEXT NOT NULL"
                     " DEFAULT '%s'", si->column, quoted);
        else
            snprintf(sql, sizeof sql,
                     "ALTER TABLE games ADD COLUMN %s INTEGER NOT NULL"
                     " DEFAULT %d", si->column, si->int_default);
        if (dj_store_begin(s) < 0)
            return -1;
        has = has_column(s, si->column); /* another process was quicker? */
        if (has < 0 || (has == 0 && st_exec(s, sql, "") < 0) ||
            dj_store_commit(s) < 0) {
            dj_store_rollback(s);
            return -1;
        }
    }
    return 0;
}

/*
 * Before upgrading a file that holds games (version 1 or later), a copy
 * of it as it is, next to it: FILE.schema-vN.bak.  One made by an earlier
 * attempt (or by another program upgrading at the same moment) is kept.
 */
static int backup_before_upgrade(dj_store *s, int from)
{
    const char *path = sqlite3_db_filename(s->db, "main");
    if (!path || !path[0])
        return 0; /* in memory */
    char copy[1100];
    if ((size_t)snprintf(copy, sizeof copy, "%s.schema-v%d.bak", path,
                         from) >= sizeof copy)
        return dj_store_fail(s, "database: name too long for its backup");
    struct stat st;
    bool kept = stat(copy, &st) == 0;
    if (!kept && dj_store_backup(s, copy) < 0) {
        char why[sizeof s->err];
        snprintf(why, sizeof why, "%s", dj_store_error(s));
        return dj_store_fail(s, "not upgraded from schema %d to %d: the "
                                "copy made first failed: %s",
                             from, DJ_STORE_SCHEMA_VERSION, why);
    }
    snprintf(s->notice, sizeof s->notice,
             "database %s upgraded from schema %d to %d; %s %s", path, from,
             DJ_STORE_SCHEMA_VERSION,
             kept ? "the copy of the old one made earlier is kept in"
                  : "the old one was first copied to",
             copy);
    return 0;
}

int dj_schema_migrate(dj_store *s)
{
    for (bool first = true;; first = false) {
        int v = dj_store_schema_version(s);
        if (v < 0)
            return -1;
        if (v == DJ_STORE_SCHEMA_VERSION)
            /* the front page's indexes read settings' columns: after */
            return add_setting_columns(s) < 0 ? -1
                                              : dj_store_listing_indexes(s);
        if (v > DJ_STORE_SCHEMA_VERSION) {
            s->newer_schema = true;
            return dj_store_fail(s,
                                 "database schema version %d is newer than "
                                 "this program's (%d): upgrade dipjudge",
                                 v, DJ_STORE_SCHEMA_VERSION);
        }
        if (first && v > 0 && backup_before_upgrade(s, v) < 0)
            return -1;
        if (migrate_step(s, v) < 0)
            return -1;
    }
}
