/* SPDX-License-Identifier: MIT */
/*
 * settings_table.h — THE table of per-game settings.  One line per setting:
 * its name (as judge.conf's games { }, `judgectl create/set` and SET by
 * mail write it), its type, its range or choices, its default, its help
 * text, and its storage: the dj_game_rec field and the games column, both
 * named by the first word of the line.
 *
 *   INT(field, "name", TYPE, min, max, default, "help")
 *   TEXT(field, size, "name", TYPE, "choice|choice", "default", "help")
 *
 * INT settings are stored as a number (minutes for durations and times of
 * day, a weekday mask, 0/1 for yes/no); TEXT settings as a word.  Defaults
 * are stored values (72 hours is 4320).
 *
 * Who reads it: store/games.c (the columns it selects, inserts and
 * updates) and store/schema.c (a column missing from the games table is
 * added with its default when the database is opened: a new setting needs
 * no migration); game/settings.c (parsing "name=value", defaults of new
 * games, the list `judgectl help set` prints and what `show` names);
 * game/config.c (judge.conf's games { }); tests/scripts/settings.sh
 * checks the manual pages and judge.conf.example list every setting.
 *
 * So adding a setting is one line here plus its effect.  It lives in the
 * store room because every room that needs it may use the store; values
 * are parsed and formatted by type in the game room (game/settings.c).
 */
#ifndef DJ_STORE_SETTINGS_TABLE_H
#define DJ_STORE_SETTINGS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum dj_setting_type {
    DJ_ST_DURATION,      /* minutes, written 90m, 36h, 3d, 1d12h */
    DJ_ST_DURATION_NONE, /* the same, or none (-1) */
    DJ_ST_CLOCK,         /* minutes after midnight, written 20:00; none -1 */
    DJ_ST_DAYS,          /* weekday mask, bit 0 Sunday, written -MTWTF- */
    DJ_ST_INT,           /* a whole number from min to max */
    DJ_ST_BOOL,          /* 0/1, written yes/no (on/off, true/false) */
    DJ_ST_CHOICE,        /* one word of the choices */
    DJ_ST_ZONE,          /* an IANA time zone name (Europe/Paris) */
    DJ_ST_ENGINE,        /* dpjudge, kruijswijk, haplomacy */
    DJ_ST_VERIFY,        /* an engine, none, or "" (written default): the
                            other of dpjudge and kruijswijk */
    DJ_ST_SECRET         /* a password word, or "" (written no); shown
                            only as yes or no */
} dj_setting_type;

#define DJ_GAME_SETTINGS(INT, TEXT)                                            \
    INT(move_delay, "movement_delay", DJ_ST_DURATION, 0, 0, 4320,              \
        "time from a movement phase's start to its deadline: 90m 36h 3d")      \
    INT(retreat_delay, "retreat_delay", DJ_ST_DURATION, 0, 0, 1440,            \
        "the same for a retreat phase")                                        \
    INT(adjust_delay, "adjustment_delay", DJ_ST_DURATION, 0, 0, 1440,          \
        "the same for an adjustment phase")                                    \
    INT(time_of_day, "time_of_day", DJ_ST_CLOCK, 0, 0, -1,                     \
        "snap deadlines to this local time (20:00), or none")                  \
    INT(days, "days", DJ_ST_DAYS, 0, 0, 127,                                   \
        "weekdays deadlines may fall on, Sunday first: -MTWTF-")               \
    INT(grace, "grace", DJ_ST_DURATION, 0, 0, 1440,                            \
        "time after the deadline before missing orders count")                 \
    INT(absence_limit, "absence_limit", DJ_ST_INT, 0, 365, 14,                 \
        "days an absence may push a deadline (0: no limit)")                   \
    TEXT(nmr, 8, "nmr", DJ_ST_CHOICE, "cd|wait", "cd",                         \
         "cd: a power without orders goes into civil disorder; wait: the "     \
         "game waits for a replacement")                                       \
    INT(early, "early", DJ_ST_BOOL, 0, 1, 1,                                   \
        "yes/no: process as soon as every power is ready")                     \
    INT(early_delay, "early_delay", DJ_ST_DURATION_NONE, 0, 0, -1,             \
        "complete orders count as ready after this, or none")                  \
    TEXT(press, 16, "press", DJ_ST_CHOICE, "none|white|grey|white+grey",       \
         "white", "none, white, grey or white+grey")                           \
    INT(partial_press, "partial_press", DJ_ST_BOOL, 0, 1, 1,                   \
        "yes/no: press to some powers (no: broadcasts only)")                  \
    INT(fake_press, "fake_press", DJ_ST_BOOL, 0, 1, 0,                         \
        "yes/no: press may show other recipients")                             \
    TEXT(observer_press, 8, "observer_press", DJ_ST_CHOICE, "any|white|none",  \
         "any", "any, white or none: what observers may send")                 \
    TEXT(master_press, 12, "master_press", DJ_ST_CHOICE, "all|addressed",   \
         "all",                                                                \
         "all: the master reads every press message, with the true sender "   \
         "of grey press and the true recipients of fake press, and is sent "  \
         "a copy of press between powers; addressed: only broadcasts and "    \
         "press to the master, as their recipients see them")                \
    TEXT(assignment, 12, "assignment", DJ_ST_CHOICE,                           \
         "choice|random|preference", "choice",                                 \
         "choice (players pick powers), random, or preference (dealt by the "  \
         "players' SET PREFERENCE lists)")                                     \
    INT(deal_seed, "deal_seed", DJ_ST_INT, 0, 2147483647, 0,                   \
        "assignment = preference: the seed breaking ties in the deal (0: "     \
        "drawn at the start, then kept here to reproduce the deal)")           \
    TEXT(zone, 64, "zone", DJ_ST_ZONE, "", "UTC",                              \
         "the game's time zone (Europe/Paris)")                                \
    TEXT(engine, 16, "engine", DJ_ST_ENGINE, "", "dpjudge",                    \
         "dpjudge, kruijswijk or haplomacy: the adjudicator")                  \
    TEXT(verify, 16, "verify", DJ_ST_VERIFY, "", "",                           \
         "the engine checking every movement phase: kruijswijk, dpjudge, "     \
         "haplomacy, none or default")                                         \
    TEXT(map_attachment, 8, "map_attachment", DJ_ST_CHOICE,                    \
         "png|pdf|svg|none", "png",                                            \
         "the map attached to results mail: png, pdf, svg or none "            \
         "(a player's SET MAP chooses their own)")                              \
    TEXT(draw, 8, "draw", DJ_ST_CHOICE, "dias|named", "dias",                  \
         "dias: a draw includes every surviving power; named: each draw "      \
         "vote names its powers, and the draw passes when every survivor "     \
         "names the same ones")                                                \
    TEXT(votes, 8, "votes", DJ_ST_CHOICE, "secret|public", "secret",           \
         "secret: only the master sees draw and concession votes; public: "    \
         "every vote is announced to all players and shown by LIST")           \
    TEXT(takeover, 8, "takeover", DJ_ST_CHOICE, "no|yes|approve", "no",        \
         "may a volunteer TAKEOVER a power in civil disorder by mail: no, "    \
         "yes, or approve (the master is asked, and answers with REPLACE)") \
    TEXT(identities, 8, "identities", DJ_ST_CHOICE,                            \
         "hidden|masters|public|at-end", "at-end",                             \
         "who sees which player plays which power: hidden (nobody), masters "  \
         "(the master), public (everyone), at-end (the master, and everyone "  \
         "once the game is over; the master may REVEAL them earlier)")          \
    TEXT(join_password, 64, "private", DJ_ST_SECRET, "", "",                   \
         "no, or the game's join password: JOIN and OBSERVE must give it "     \
         "(the master mails it to those he invites)")                          \
    INT(unlisted, "unlisted", DJ_ST_BOOL, 0, 1, 0,                             \
        "yes/no: left out of LIST and the web's lists (reachable by name)")   \
    INT(victory, "victory", DJ_ST_INT, 0, 999, 0,                              \
        "supply centres needed to win (0: the map's count); more than any "   \
        "power starts with, at most the map's centres")                       \
    INT(end_year, "end_year", DJ_ST_INT, 0, 9999, 0,                           \
        "0, or the last year: after its adjustments the game ends in a draw " \
        "among the surviving powers")                                         \
    TEXT(draw_proposals, 12, "draw_proposals", DJ_ST_CHOICE,                   \
         "standing|phase", "standing",                                        \
         "standing: a draw or concession vote stands until withdrawn; "       \
         "phase: it lapses at the end of the phase it was cast in")           \
    INT(extension, "extension", DJ_ST_DURATION_NONE, 0, 0, -1,                 \
        "none, or how far the deadline moves (once a phase) when every "      \
        "surviving power votes EXTEND before it: 2d")                         \
    INT(excuses, "excuses", DJ_ST_INT, 0, 99, 0,                               \
        "missed phases excused to each power (its units hold, no civil "      \
        "disorder) before nmr applies")                                       \
    INT(hide_late, "hide_late", DJ_ST_BOOL, 0, 1, 0,                           \
        "yes/no: the late notice goes to each late power (naming only "       \
        "itself) and the master (naming all)")                               \
    INT(blind, "blind", DJ_ST_BOOL, 0, 1, 0,                                   \
        "yes/no: fog of war, each power sees only its units and what is "     \
        "next to them and its centres; set while the game forms")

/* One setting, as the code walks the table. */
typedef struct dj_setting_info {
    const char *name;      /* "movement_delay" */
    const char *column;    /* "move_delay": the games column and field */
    dj_setting_type type;
    bool text;             /* stored as a word (else a number) */
    size_t offset;         /* of the field in dj_game_rec */
    size_t size;           /* of a text field */
    int min, max;          /* DJ_ST_INT */
    const char *choices;   /* DJ_ST_CHOICE: "cd|wait" */
    int int_default;
    const char *text_default;
    const char *help;
} dj_setting_info;

/* The table in order; DJ_SETTINGS_COUNT entries. */
extern const dj_setting_info dj_settings[];
extern const int DJ_SETTINGS_COUNT;

/* By name, case-insensitive; NULL when there is none. */
const dj_setting_info *dj_setting_find(const char *name);

struct dj_game_rec;

/* Every setting of g at the table's default. */
void dj_settings_default(struct dj_game_rec *g);

/* Copy every setting (only the settings) from src to dst. */
void dj_settings_copy(struct dj_game_rec *dst, const struct dj_game_rec *src);

#endif
