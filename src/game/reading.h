/* SPDX-License-Identifier: MIT */
/*
 * reading.h — a game read: lists, the report, history and centre counts,
 * exports (full and public), the outbox and mail log seen by the admin,
 * the web front page's overviews and phases, the players' reliability
 * figures (report.c, export.c, reliability.c).
 * Part of the game room's door; the session they all take is game.h's.
 */
#ifndef DJ_GAME_READING_H
#define DJ_GAME_READING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "game/audience.h"

/* ---- reading --------------------------------------------------------------- */

int dj_game_list(dj_judge *j, dj_buf *out);
/* The same without unlisted games (LIST by mail). */
int dj_game_list_public(dj_judge *j, dj_buf *out);
/* The same as JSON for scripts (judgectl(8), JSON OUTPUT): the versions
 * of the shapes, raised when a member is removed or changes meaning. */
#define DJ_LIST_JSON_VERSION 1
#define DJ_OUTBOX_JSON_VERSION 1
/* The export (judgectl export, /game/NAME.json): 2 since its public view
 * gave orders a "source" and no "author" (issue 31). */
#define DJ_GAME_JSON_VERSION 2
int dj_game_list_json(dj_judge *j, dj_buf *out);
/* Position, participants, who has ordered, deadlines. */
int dj_game_show(dj_judge *j, const char *game, dj_buf *out);
/* Results of the phases from..to (phase names or years; NULL: all). */
int dj_game_history(dj_judge *j, const char *game, const char *from,
                    const char *to, dj_buf *out);
/* The supply-centre history, one row per year. */
int dj_game_summary(dj_judge *j, const char *game, dj_buf *out);
/* The same as numbers: centres per power after each year's Fall. */
#define DJ_CENTRE_YEARS_MAX 200
typedef struct dj_centre_history {
    int npowers, nyears;
    bool start;               /* year[0] is the game's starting position */
    char power[DJ_MAX_POWERS][48];
    int year[DJ_CENTRE_YEARS_MAX];
    unsigned char count[DJ_CENTRE_YEARS_MAX][DJ_MAX_POWERS];
} dj_centre_history;
int dj_game_centre_history(dj_judge *j, const char *game,
                           dj_centre_history *t);

/* The whole game as JSON. */
int dj_game_export(dj_judge *j, const char *game, dj_buf *out);
/* The mail queued for a game (NULL: every game). */
int dj_game_outbox(dj_judge *j, const char *game, dj_buf *out);
int dj_game_outbox_json(dj_judge *j, const char *game, dj_buf *out);
/* judgectl outbox --retry/--hold/--delete ID (store/mail.h). */
int dj_game_outbox_act(dj_judge *j, int64_t id, dj_outbox_action act,
                       dj_buf *out);
/* The latest `limit` mails received (game NULL: every game), one a line:
 * time (UTC), sender, game, the mail system's class and verdict, what
 * was done ("TIME\tSENDER\tGAME\tCLASS\tVERDICT\tOUTCOME"). */
int dj_game_maillog(dj_judge *j, const char *game, int limit, dj_buf *out);

/*
 * The JOIN, OBSERVE and CREATE requests waiting for their codes (never
 * the codes themselves): of a game (NULL: all) and from an address or a
 * whole "@domain" (NULL: anyone); with `clear`, delete them instead and
 * say how many.
 */
int dj_game_pending(dj_judge *j, const char *game, const char *from,
                    bool clear, dj_buf *out);

/*
 * What anyone may see of a game (LIST GAME by mail): state, phase and
 * deadline, settings, the powers with their status and who still has to
 * order, the position.  No addresses and no votes.
 */
int dj_game_show_public(dj_judge *j, const char *game, dj_buf *out);

/*
 * The game's name as stored and its current (or final) phase ("S1901M";
 * "" while forming), for mail subjects.  Fails when there is no such game.
 */
int dj_game_phase(dj_judge *j, const char *game, char *name, size_t namelen,
                  char *phase, size_t phaselen);

/* One game of the judge's front page (dj_game_overviews). */
typedef struct dj_game_overview {
    char name[DJ_GAME_NAME_MAX];
    char map[DJ_STORE_NAME_MAX];
    char state[16];           /* forming, active, paused, finished */
    char ending[DJ_STORE_TEXT_MAX];
    char phase[16];           /* "" while forming */
    int64_t deadline;         /* of the current phase, UTC; 0: none */
    char deadline_local[64];  /* in the game's zone (dj_game_overview_get) */
    int wanted;               /* powers still without a player */
    char press[16];           /* the press settings, for the press form */
    bool partial_press, grey_choice;
    bool private_game;        /* pages only for its participants */
    int move_delay;           /* minutes (dj_game_listing) */
} dj_game_overview;

/* Every game a visitor may see listed (dj_game_listed_on_web), by name;
 * *out malloc'd. */
int dj_game_overviews(dj_judge *j, dj_game_overview **out, int *n);

/* The front page's games a page at a time (store/listing.h says how):
 * up to DJ_LISTING_PAGE of them into out[], *more when there are more in
 * the direction read.  0 or -1. */
struct dj_listing_filter;
int dj_game_listing(dj_judge *j, const struct dj_listing_filter *f,
                    dj_game_overview *out, int *n, bool *more);

/* One game (any case): 0, 1 when there is no such game, -1. */
int dj_game_overview_get(dj_judge *j, const char *game, dj_game_overview *o);

/*
 * The game as dj_game_export writes it, less what only its master and
 * the judge may see: no addresses, no orders of the phase still being
 * played, no mail and no log (judgeweb's /game/NAME.json).
 */
int dj_game_export_public(dj_judge *j, const char *game, dj_buf *out);

/* The game's live phases in order, the current (or final) one last;
 * *out malloc'd.  id changes when a rollback replays a phase, and
 * `played` when it is adjudicated: together they name one picture. */
typedef struct dj_phase_ref {
    char name[16];
    int64_t id;
    bool played;
} dj_phase_ref;
int dj_game_phases(dj_judge *j, const char *game, dj_phase_ref **out, int *n);

/* ---- reliability figures (reliability.c) -------------------------------- */

/* One line of an address's figures across every game on the judge,
 * headed by `who` (NULL: the address itself, for the player, the master
 * and the administrator); with public_only, nothing unless the player
 * allowed it (SET STATS PUBLIC). */
int dj_game_player_stats(dj_judge *j, const char *email, const char *who,
                         bool public_only, dj_buf *out);

/* SET STATS PUBLIC / PRIVATE. */
int dj_game_set_stats_public(dj_judge *j, const char *email, bool public,
                             dj_buf *out);

/* ---- the game page's table of powers (power_table.c) ------------------- */

/* Whether a power's orders are in, as the viewer may know it. */
typedef enum dj_power_orders {
    DJ_POWER_ORDERS_HIDDEN = 0, /* not the viewer's to know (hide_late), or
                                   no phase being played */
    DJ_POWER_ORDERS_NONE_NEEDED,
    DJ_POWER_ORDERS_AWAITED,
    DJ_POWER_ORDERS_IN,
    DJ_POWER_ORDERS_JUDGE,      /* in civil disorder: the judge orders */
} dj_power_orders;

typedef struct dj_power_row {
    char power[48];
    char player[DJ_STORE_NAME_MAX]; /* dj_game_player_shown's words, or
                                       "(open)", "(dummy)": never an address */
    char status[24];                /* playing, civil-disorder, ...; "-" */
    int centres, units;
    dj_power_orders orders;
    int given, needed;              /* -1 unless the viewer's or master's */
    int ready;                      /* -1 not shown, else 0 or 1 */
    bool own;                       /* the viewer's power */
} dj_power_row;

typedef struct dj_power_table {
    int npowers;
    dj_power_row row[DJ_MAX_POWERS];
    bool current;                   /* a phase being played */
    char phase_long[64];            /* "Spring 1901 Movement" */
    int64_t deadline;               /* of the current phase; 0 none */
    bool late;                      /* past its deadline, in grace */
    char zone[64];                  /* the game's zone */
    char deadline_game[64];         /* in the game's zone */
    char own_zone[64];              /* the viewer's SET ZONE, "" none or the
                                       game's */
    char deadline_own[64];          /* in own_zone */
} dj_power_table;

/*
 * The powers of a game as `viewer` (NULL: anyone; a sign-on to another
 * game counts as NULL) may see them: players as the setting identities
 * allows, centres and units, whether orders are in (not to others when
 * hide_late = yes), orders given and READY only for the viewer's own
 * power and the master; the deadline in the game's zone and the viewer's.
 * 0, or -1 (no such game).
 */
int dj_game_power_table(dj_judge *j, const char *game,
                        const dj_signon *viewer, dj_power_table *t);

#endif
