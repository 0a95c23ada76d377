/* SPDX-License-Identifier: MIT */
/*
 * game_int.h — private to src/game: the session, a loaded game, and the
 * helpers the lifecycle, processing and reading files share.
 */
#ifndef DJ_GAME_GAME_INT_H
#define DJ_GAME_GAME_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/adjudicate.h"
#include "engine/map.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "game/reading.h"
#include "game/signon.h"
#include "time/calendar.h"
#include "game/config.h"
#include "game/game.h"
#include "render/render.h"
#include "store/games.h"
#include "store/mail.h"
#include "store/participants.h"
#include "store/phases.h"
#include "store/store.h"
#include "util/buf.h"

#define JUDGE_MAX_MAPS 8

struct dj_judge {
    dj_store *store;
    dj_config cfg;
    char maps_dir[DJ_PATH_MAX];
    int64_t now;
    dj_verifier_hook verifier_hook; /* tests only: NULL in production */
    char actor[256];
    char err[512];
    dj_sender_class sender_class;  /* whose limits this mail spends */
    struct dj_signon_memo *memo;   /* signon_cache.c; NULL until used */
    unsigned char token_key[32];   /* reply_token.c */
    bool has_token_key;
    int nmaps;
    struct {
        char name[64];
        dj_map *map;
        dj_geo *geo;    /* its geometry once a picture needed it */
    } maps[JUDGE_MAX_MAPS];
    /* whose view of a blind game reads show (dj_game_read_as): 0 all,
     * 1 the participant reader_pid, 2 the public */
    int reader;
    int64_t reader_pid;
};

/* A game as loaded for one operation. */
typedef struct game_view {
    dj_game_rec g;
    const dj_map *map;
    dj_map *own_map;               /* map's copy with the game's victory
                                      count, or NULL (game_options.h) */
    dj_rules rules;
    dj_schedule sched;
    dj_zone *zone;                 /* the schedule's zone, loaded */
    bool has_phase;                /* false while forming */
    dj_phase_rec phase;            /* the current (or final) phase */
    dj_position *pos;              /* its position */
    dj_participant_rec *parts;
    int nparts;
    int player[DJ_MAX_POWERS];     /* index in parts of a power's player */
    /* The deadline the start or results mail being queued announces (0:
     * none): each copy shows it in its reader's zone and carries its .ics
     * (player_options_int.h); mail_phase names that deadline's phase. */
    int64_t mail_deadline;
    char mail_phase[16];
    /* blind = yes: when blinded, what is drawn and shown is viewer's view
     * (a power, or DJ_BLIND_NONE: game/blind.h); gv_view sets it */
    bool blinded;
    int viewer;
} game_view;

/* ---- passwords checked once per mail, remembered (signon_cache.c) ---- */

typedef struct dj_signon_memo dj_signon_memo;
/* Is `password` the one whose stored hash is `hash` (participant pid)? */
bool gv_password_ok(dj_judge *j, int64_t pid, const char *password,
                    const char *hash);
/* Spend a password check's time when there is nothing to check. */
void gv_check_nothing(dj_judge *j, const char *password);
void gv_signon_memo_free(dj_signon_memo *m);

/* ---- session (context.c) ----------------------------------------------- */

int judge_fail(dj_judge *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Copy the store's error into the session's; returns -1. */
int judge_store_fail(dj_judge *j);

/* A sign-on in its own transaction (access.c): dj_game_signon_as's, or
 * with device_hash not NULL the web's rules, device_hash the SHA-256 of
 * the browser's known-browser cookie ("" when it has none). */
int judge_signon(dj_judge *j, const char *game, const char *who,
                 const char *password, const char *sender,
                 const char *address, const char *device_hash, dj_signon *id);

/* A map by name, loaded once per session. */
const dj_map *judge_map(dj_judge *j, const char *name);
/* The geometry of a map loaded by judge_map, read at its first picture and
 * kept with the map (a geometry keeps what its pictures have in common,
 * render/board_layer.c); NULL with the error set when the map has none. */
const dj_geo *judge_geo(dj_judge *j, const char *name);
/* The path of a map's geometry file; -1 (no error set) when it has none. */
int judge_geo_path(const dj_judge *j, const char *name, char *out,
                   size_t len);

/* judge.conf's games { }: can new games be played on their map's rules by
 * their engine and verifying engine?  0, or -1 with the reason. */
int judge_check_game_defaults(dj_judge *j);

/*
 * Load a game with its rules, schedule, zone, current phase and position
 * and participants.  Returns 0 or -1 ("game 'x' does not exist").
 */
int gv_load(dj_judge *j, const char *name, game_view *v);

/* A game's row by name; else "game 'x' does not exist" (or the store's
 * error) as the judge's error, and -1. */
int gv_game_get(dj_judge *j, const char *name, dj_game_rec *g);
void gv_free(game_view *v);

/*
 * Run one action on a game inside a write transaction (a savepoint when
 * the caller has one open): load the game, call fn, commit; on failure
 * nothing of it remains.  fn's output reaches `out` only on success.
 */
typedef int (*gv_action_fn)(dj_judge *j, game_view *v, void *arg,
                            dj_buf *out);
int gv_with_game(dj_judge *j, const char *game, gv_action_fn fn, void *arg,
                 dj_buf *out);

/* Run fn on a game loaded in a read transaction (context.c): nothing is
 * written, whatever fn does. */
int gv_with_game_read(dj_judge *j, const char *game, gv_action_fn fn,
                      void *arg, dj_buf *out);

/* A phase's sort key (export.c), and that of a bound a player wrote: a
 * phase name (S1901M) or a year (1901: its first phase, or with `end` its
 * last).  -1 with the judge's error on a bad bound. */
int gv_phase_key(int year, int season, int type);
int gv_phase_bound(dj_judge *j, const char *text, bool end, int *key);

/* The supply-centre history of a loaded game (export.c): as numbers into
 * t when t is given, else as the SUMMARY table into out. */
int gv_centre_summary(dj_judge *j, game_view *v, dj_centre_history *t,
                      dj_buf *out);

/* The final table of a game that is over, then its supply-centre history
 * (final_table.c); winner -1 when nobody won outright. */
int gv_final_table(dj_judge *j, game_view *v, const dj_position *pos,
                   int winner, const char *ending, dj_buf *out);

/* Count one event of an address for its reliability figures
 * (reliability.c): "missed", "disorder", "takeover" or "abandoned". */
/* Every power's diary entries, by power and phase, neutralised, for the
 * end of the game (press.c); nothing when no power kept one. */
int gv_diaries(dj_judge *j, game_view *v, dj_buf *out);
int gv_player_event(dj_judge *j, const game_view *v, const char *email,
                    const char *kind);

/* Reload participants after a change. */
int gv_reload_parts(dj_judge *j, game_view *v);

/* The power named (name, adjective or letter), or -1 with an error. */
int gv_power(dj_judge *j, const game_view *v, const char *text);

/* A power's name. */
const char *gv_power_name(const game_view *v, int power);

/* The live player record of a power, or NULL. */
dj_participant_rec *gv_player(const game_view *v, int power);

/* Is a power in civil disorder (no player, a dummy, or status)? */
bool gv_in_disorder(const game_view *v, int power);

/* Require a state: returns -1 with "game 'x' is forming" otherwise. */
int gv_require(dj_judge *j, const game_view *v, const char *states);

/* Schedule of a game record; zone loaded into *zone (UTC on error). */
void gv_schedule(const dj_game_rec *g, dj_schedule *s);

/* Build a game's rules from its map and overrides. */
int gv_rules(dj_judge *j, const dj_map *map, const char *overrides,
             dj_rules *rules);

/* Append to the game log (actor = the session's). */
int gv_log(dj_judge *j, const game_view *v, const char *action,
           const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* "dipjudge:alpha - S1901M Results" */
void gv_subject(dj_judge *j, const game_view *v, const char *phase,
                const char *what, dj_buf *out);

/*
 * Queue one mail per participant who receives game mail (players still
 * in the game, observers, masters; those with an address).  `powers`
 * (a bit mask) limits players to those powers; masters always receive
 * it, observers only when `observers` is true.
 */
int gv_mail_all(dj_judge *j, const game_view *v, int64_t phase_id,
                const char *kind, const char *subject, const char *body,
                dj_power_set powers, bool observers);

/*
 * gv_mail_all, each copy with the picture picture(ctx, participant, ref)
 * names in *ref (phase_id 0: none); it returns 0, or -1 on error (the
 * judge's error set).
 */
typedef int (*gv_picture_fn)(void *ctx, const dj_participant_rec *p,
                             dj_picture_ref *ref);
int gv_mail_all_pictured(dj_judge *j, const game_view *v, int64_t phase_id,
                         const char *kind, const char *subject,
                         const char *body, dj_power_set powers,
                         bool observers, gv_picture_fn picture, void *ctx);

/* ---- dealing by preference lists (preference.c; the method: deal.h) ---- */

/* Deal the free powers to the players without one by their lists, the
 * seed drawn (and stored in deal_seed) when the game has none. */
int gv_deal_by_preference(dj_judge *j, game_view *v);
/* Has every player without a power sent a list? */
bool gv_preferences_all_sent(const game_view *v);
/* The start mail's lines for everyone: who got a first choice, as far as
 * the setting identities lets everyone know (nothing unless assignment =
 * preference). */
void gv_preference_summary(const game_view *v, dj_buf *out);
/* A player's own copy: which of their choices they were dealt. */
void gv_preference_own(const game_view *v, const dj_participant_rec *p,
                       dj_buf *out);
/* SET PREFERENCE's checks and write, no start (dj_game_set_preference,
 * lifecycle.c, starts a game it completes). */
struct dj_signon;
int gv_set_preference(dj_judge *j, game_view *v, const struct dj_signon *id,
                      const char *text, dj_buf *out);
/* The master's view (judgectl show): " preference England, France" and,
 * once dealt, " (2nd choice)"; nothing outside a preference game or for
 * a participant without a list. */
void gv_preference_mark(const game_view *v, const dj_participant_rec *p,
                        dj_buf *out);
/* Start the game if every power has a player (lifecycle.c). */
int gv_start_when_full(dj_judge *j, game_view *v, dj_buf *out);

/*
 * gv_mail_all_pictured, each copy's body written by body(bctx, participant,
 * out) (blind games: each reader's own results); it returns 0, or -1 on
 * error (the judge's error set).
 */
typedef int (*gv_body_fn)(void *ctx, const dj_participant_rec *p,
                          dj_buf *out);
int gv_mail_all_bodies(dj_judge *j, const game_view *v, int64_t phase_id,
                       const char *kind, const char *subject,
                       const char *body, dj_power_set powers, bool observers,
                       gv_picture_fn picture, void *ctx, gv_body_fn bodyfn,
                       void *bctx);

/* ---- blind games (blind_view.c; the rule is game/blind.h's) ---------------- */

/* Who a participant is to a blind game's views: DJ_BLIND_ALL (the master;
 * every reader of a game not blind or over), its power, or DJ_BLIND_NONE
 * (observers; NULL: the public). */
int gv_viewer(const game_view *v, const dj_participant_rec *p);
/* The same for a mail address (the master's wins over a power's). */
int gv_viewer_of_address(const game_view *v, const char *address);
/* The viewer a power is: itself, or DJ_BLIND_ALL when v shows all. */
int gv_viewer_of_power(const game_view *v, int power);
/* A blind game's order readings say nothing of units out of sight: "not
 * your unit" and "no unit there" both read "no unit of yours there". */
struct dj_reading;
void gv_blind_readings(const game_view *v, struct dj_reading *reads, int n);
/* From now on v shows viewer's view (DJ_BLIND_ALL: everything). */
void gv_view(game_view *v, int viewer);
/* v shows the view of the session's reader (dj_game_read_as). */
void gv_view_reader(const dj_judge *j, game_view *v);
/* HISTORY of one played phase as v's viewer sees it (v blinded): the
 * phase adjudicated again from its orders, its results rendered from the
 * view (dj_report_results). */
int gv_blind_phase_results(dj_judge *j, const game_view *v,
                           const dj_phase_rec *ph, dj_buf *out);
/* The results mail of a blind game still playing: each reader's copy is
 * rendered from its own view of the phase, then `tail` (what follows the
 * results: late powers, excuses...). */
struct dj_report_info;
int gv_mail_results_blind(dj_judge *j, const game_view *v,
                          const char *subject, const dj_position *before,
                          const dj_order *orders, int norders,
                          const dj_result *res,
                          const struct dj_report_info *info,
                          const char *tail);

/* Mail every master of the game: "judge:game - PHASE what", then
 * "Game 'game': text" (access.c). */
int gv_notify_masters(dj_judge *j, const game_view *v, const char *what,
                      const char *text);

/* The same notice to one address (email), or (email NULL) to the masters
 * and, when `everyone`, to every player and observer too. */
int gv_tell(dj_judge *j, const game_view *v, const char *email,
            bool everyone, const char *what, const char *text);

/* ---- a participant's addresses (context.c, addresses.c) -----------------
 * A player's first address (participants.email) and up to two more. */

/* Is `a` one of p's addresses (case-insensitive)? */
bool gv_has_address(const dj_participant_rec *p, const char *a);
/* How many p has (0: none, a dummy), and the k-th (0: the first). */
int gv_address_count(const dj_participant_rec *p);
const char *gv_address_at(const dj_participant_rec *p, int k);
/* "a@x, b@y" */
void gv_address_list(const dj_participant_rec *p, dj_buf *out);
/* Queue one mail to each of p's addresses: the one place that decides
 * where a participant's mail goes.  pic and ics may be NULL. */
int gv_queue_to(dj_judge *j, const game_view *v, const dj_participant_rec *p,
                int64_t phase_id, const char *kind, const char *subject,
                const char *body, const dj_picture_ref *pic, const char *ics);
/* gv_tell to each of p's addresses (access.c). */
int gv_tell_participant(dj_judge *j, const game_view *v,
                        const dj_participant_rec *p, const char *what,
                        const char *text);
/* A confirmed SET ADDRESS of a player: `to` added to p (refused when
 * malformed, p's already, another player's, or a fourth). */
int gv_address_add(dj_judge *j, game_view *v, dj_participant_rec *p,
                   const char *to, dj_buf *out);
/* A master's or an observer's confirmed SET ADDRESS: its one address
 * replaced, the masters and the old address told (access.c). */
int gv_replace_address(dj_judge *j, game_view *v, int64_t participant_id,
                       const char *address, dj_buf *out);
/* Is p still in the game (neither resigned nor replaced)?  (context.c) */
bool gv_is_live(const dj_participant_rec *p);
/* The live participant pid, or NULL ("you are no longer in game")
 * (context.c). */
dj_participant_rec *gv_live_participant(dj_judge *j, game_view *v,
                                        int64_t pid);
/* The live player of a power (a name, adjective or letter) who has an
 * address, or NULL with the reason. */
dj_participant_rec *gv_power_player(dj_judge *j, game_view *v,
                                    const char *power);

/* One mail address: something@something, no spaces, quotes, commas or
 * angle brackets (it goes into mail headers later). */
bool gv_address_ok(const char *a);

/*
 * A notice to everyone in the game (players, observers, masters): the
 * report header, then `text`; subject "judge:game - PHASE what".
 */
int gv_notice(dj_judge *j, const game_view *v, const char *what,
              const char *text);

/* Format a time in the game's zone ("Sat 09 Jan 2027 20:00 CET"). */
void gv_time(const game_view *v, int64_t t, dj_buf *out);

/* The deadline of a phase of this type opening now. */
int64_t gv_deadline(dj_judge *j, const game_view *v, dj_phase_type type);

/* ---- orders (orders.c) ------------------------------------------------------ */

typedef struct order_set {
    int n;
    dj_order orders[DJ_MAX_ORDERS];
    bool has[DJ_MAX_POWERS];        /* the power sent orders (maybe none) */
    int64_t last_at[DJ_MAX_POWERS]; /* when its latest orders came */
} order_set;

/* Every power's orders on file for the phase, parsed as orders of that
 * phase (its type, whatever the game's current phase is).  -1 on error. */
int gv_orders_load(dj_judge *j, const game_view *v, const dj_phase_rec *ph,
                order_set *set);

/* Must the power order in this position (and is not in disorder)? */
bool gv_power_must_order(const dj_map *map, const dj_position *pos, int power);

/* Orders needed and orders given of a power in the set. */
void gv_power_order_count(const dj_map *map, const dj_position *pos, int power,
                       const order_set *set, int *needed, int *given);

/* Does the set give the power everything it must decide in the position
 * (power_must_order, and power_order_count's given reaches needed)?  The
 * one test of "all your units have orders". */
bool gv_orders_complete(const dj_map *map, const dj_position *pos, int power,
                     const order_set *set);

/* The phase just opened: each power's orders stored for it with PHASE
 * read and filed, and its player told; texts for phases passed over are
 * dropped, those for later phases kept.  -1 on error. */
int gv_later_orders_open(dj_judge *j, const char *game);

/* ---- pictures (picture.c) ---------------------------------------------------- */

/* Draw this position (with orders and results when given, then the board
 * after the phase) in a format of render.h; -1 with the judge's error (no
 * geometry, a bad file). */
int gv_game_draw(dj_judge *j, const game_view *v, const dj_position *pos,
              const dj_order *orders, int norders, const dj_result *res,
              int format, dj_picture *out);

/* The picture cache (picture_cache.c): a phase's key (everything its
 * picture is drawn from), the file for it, reading and writing one. */
int gv_picture_cache_key(dj_judge *j, const game_view *v, const dj_phase_rec *ph,
                      bool processed, const char *geo_path, const char *format,
                      uint64_t *key);
int gv_picture_cache_path(const dj_judge *j, const game_view *v,
                       const dj_phase_rec *ph, const char *format,
                       uint64_t key, char *out, size_t len);
int gv_picture_cache_read(const char *path, dj_picture *out);
void gv_picture_cache_write(const char *path, const dj_picture *pic);
/* The least recently used pictures removed while the cache weighs more
 * than judge.conf's picture_cache_mb (at most once an hour): how many and
 * their bytes.  0, or -1 with the judge's error. */
int gv_picture_cache_prune(dj_judge *j, int *removed, int64_t *freed);

/*
 * Queue a processed phase's results mail to everyone, each copy with the
 * picture of the phase (the board after it, its orders and results drawn
 * over it) in the recipient's format (SET MAP, else the game's
 * map_attachment).  Nothing is drawn here: the mail names the phase and
 * format, and the picture is drawn (once, then cached) when it is sent.
 * A phase's row is never changed once processed (a rollback opens a new
 * one), so the picture mailed is always the one of these results.  A
 * board without geometry leaves the mail without one.
 */
int gv_mail_results(dj_judge *j, const game_view *v, const char *subject,
                    const char *body);
/* The same, each copy's body written by bodyfn (NULL: body). */
int gv_mail_results_each(dj_judge *j, const game_view *v, const char *subject,
                         const char *body, gv_body_fn bodyfn, void *bctx);

/* ---- processing (process.c) ----------------------------------------------- */

/*
 * Adjudicate the loaded game's current phase and save everything, inside
 * the caller's transaction; powers that must order and sent nothing are
 * put in civil disorder.  Appends a one-line summary to out.
 */
int gv_process_phase(dj_judge *j, game_view *v, dj_buf *out);

/*
 * Process with `engine` (-1: the game's, checked by its verifier).
 * Returns 0 when processed, 1 when the engines disagreed (the game is then
 * paused and its master and the admin mailed; nothing else stored), -1 on
 * error.
 */
int gv_process_phase_with(dj_judge *j, game_view *v, int engine, dj_buf *out);

/* verify.c: the verifier's check of result `a` of the phase `before` with
 * these orders.  0: it agrees (or there is none); 1: it does not, and the
 * game was paused with the news mailed; -1: error. */
int gv_verify_phase(dj_judge *j, game_view *v, const dj_position *before,
                 const dj_order *orders, int n, const dj_result *a,
                 dj_buf *out);

/* End the game without adjudicating (draw, concession, termination). */
int gv_end_game(dj_judge *j, game_view *v, const char *ending);

#endif
