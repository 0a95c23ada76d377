/* SPDX-License-Identifier: MIT */
/*
 * export.c — reading games: list, show, history, summary, the JSON export
 * and the outbox listing.  Nothing here writes; each function reads inside
 * one read transaction so it sees a single state of the game.
 *
 * The JSON export is the whole game for tools: settings, participants
 * (no password hashes), every phase (undone ones included, marked) with
 * its position, the orders received, the result, then the mail queued and
 * the game log.  Times are UTC seconds.  The public view (the web's
 * /game/NAME.json) leaves out addresses, votes, the current orders, the
 * mail, the log and each order's author: how orders came ("source") is
 * all it says of who sent them.  Two runs of the same game with the
 * same clock export byte for byte the same text, which the crash tests
 * rely on.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/audience.h"
#include "game/blind.h"
#include "game/game.h"
#include "game/game_int.h"
#include "game/game_options.h"
#include "store/game_options.h"
#include "game/process.h"
#include "game/reading.h"
#include "game/setting_value.h"
#include "game/report.h"
#include "game/snapshot.h"
#include "store/mail.h"
#include "util/json.h"

/* ---- list ------------------------------------------------------------------- */

/* The games, as text lines or as the JSON of judgectl list --json;
 * `public` (LIST by mail) leaves out unlisted ones. */
static int list_games(dj_judge *j, bool public, bool json, dj_buf *out)
{
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    dj_game_rec *games = NULL;
    int n = 0, rc = 0, shown = 0;
    if (dj_store_game_list(j->store, NULL, &games, &n) < 0) {
        rc = judge_store_fail(j);
        goto done;
    }
    if (json)
        dj_buf_printf(out, "{\"format\": \"dipjudge-list\", \"version\": %d, "
                           "\"games\": [",
                      DJ_LIST_JSON_VERSION);
    if (n == 0 && !json) {
        dj_buf_append(out, "no games\n");
        goto done;
    }
    if (!json)
        dj_buf_printf(out, "%-16s %-9s %-8s %-10s %s\n", "GAME", "STATE",
                      "PHASE", "MAP", "DEADLINE (UTC)");
    for (int i = 0; i < n; i++) {
        if (public && !dj_game_listed(&games[i]))
            continue;
        dj_phase_rec ph;
        int prc = dj_store_phase_open(j->store, games[i].id, &ph);
        if (prc < 0) {
            rc = judge_store_fail(j);
            break;
        }
        bool due = prc == 0 && ph.deadline && strcmp(ph.status, "current") == 0;
        if (json) {
            dj_buf_append(out, shown++ ? ",\n  {" : "\n  {");
            dj_json_kv_str(out, "name", games[i].name, true);
            dj_json_kv_str(out, "state", games[i].state, true);
            dj_json_kv_str(out, "map", games[i].map, true);
            dj_json_kv_str(out, "phase", prc == 0 ? ph.name : "", true);
            dj_json_kv_time(out, "deadline", due ? ph.deadline : 0, false);
            dj_buf_append(out, "}");
            if (prc == 0)
                dj_phase_rec_free(&ph);
            continue;
        }
        dj_buf when;
        dj_buf_init(&when);
        if (due) {
            dj_zone utc;
            dj_zone_utc(&utc);
            dj_time_format_iso(&utc, ph.deadline, &when);
        } else {
            dj_buf_append(&when, "-");
        }
        dj_buf_printf(out, "%-16s %-9s %-8s %-10s %s\n", games[i].name,
                      games[i].state, prc == 0 ? ph.name : "-", games[i].map,
                      when.data);
        dj_buf_free(&when);
        if (prc == 0)
            dj_phase_rec_free(&ph);
    }
    if (json)
        dj_buf_append(out, shown ? "\n]}\n" : "]}\n");
done:
    free(games);
    dj_store_rollback(j->store);
    return rc;
}

int dj_game_list(dj_judge *j, dj_buf *out)
{
    return list_games(j, false, false, out);
}

int dj_game_list_public(dj_judge *j, dj_buf *out)
{
    return list_games(j, true, false, out);
}

int dj_game_list_json(dj_judge *j, dj_buf *out)
{
    return list_games(j, false, true, out);
}

int dj_game_phase(dj_judge *j, const char *game, char *name, size_t namelen,
                  char *phase, size_t phaselen)
{
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    dj_game_rec g;
    dj_phase_rec ph;
    int rc = gv_game_get(j, game, &g);
    int prc = rc == 0 ? dj_store_phase_open(j->store, g.id, &ph) : -1;
    if (rc == 0 && prc < 0)
        rc = judge_store_fail(j);
    if (rc == 0) {
        snprintf(name, namelen, "%s", g.name);
        snprintf(phase, phaselen, "%s", prc == 0 ? ph.name : "");
    }
    if (prc == 0)
        dj_phase_rec_free(&ph);
    dj_store_rollback(j->store);
    return rc;
}

/* ---- show ------------------------------------------------------------------------ */

static void duration(int minutes, dj_buf *out)
{
    if (minutes < 0)
        dj_buf_append(out, "none");
    else
        dj_duration_format(minutes, out);
}

static void show_settings(const game_view *v, dj_buf *out)
{
    const dj_game_rec *g = &v->g;
    char days[8];
    dj_days_format((uint8_t)g->days, days);
    dj_buf_append(out, "Schedule: movement ");
    duration(g->move_delay, out);
    dj_buf_append(out, ", retreats ");
    duration(g->retreat_delay, out);
    dj_buf_append(out, ", adjustments ");
    duration(g->adjust_delay, out);
    if (g->time_of_day >= 0)
        dj_buf_printf(out, ", at %02d:%02d", g->time_of_day / 60,
                      g->time_of_day % 60);
    dj_buf_printf(out, ", days %s, grace ", days);
    duration(g->grace, out);
    dj_buf_printf(out, ", zone %s\n", g->zone);
    dj_buf_printf(out, "NMR: %s; early processing: %s", g->nmr,
                  g->early ? "yes" : "no");
    if (g->early && g->early_delay >= 0) {
        dj_buf_append(out, " (or ");
        duration(g->early_delay, out);
        dj_buf_append(out, " after complete orders)");
    }
    dj_buf_printf(out, "; press: %s%s%s%s", g->press,
                  g->partial_press ? "" : " (broadcasts only)",
                  g->fake_press ? ", fake allowed" : "",
                  strcmp(g->observer_press, "any") == 0 ? ""
                  : strcmp(g->observer_press, "none") == 0
                      ? ", none by observers"
                      : ", observers white only");
    dj_buf_printf(out, "; powers: %s; absences up to %d days\n",
                  g->assignment, g->absence_limit);
    dj_buf_printf(out, "Rules: %s\n",
                  g->rules[0] ? g->rules : "the map's (DATC preferred)");
    int verifier = dj_game_verifier(g);
    dj_buf_printf(out, "Engines: %s, checked by %s\n",
                  dj_engine_name(dj_game_engine(g)),
                  verifier < 0 ? "none" : dj_engine_name((dj_engine)verifier));
    dj_buf_printf(out, "Map with results: %s%s\n",
                  strcmp(g->map_attachment, "none") == 0 ? "none"
                                                          : g->map_attachment,
                  strcmp(g->map_attachment, "none") == 0
                      ? " (players may ask for one: SET MAP PNG)"
                      : " (players may choose: SET MAP PDF, SVG, NONE)");
    /* Every setting as `judgectl set` takes it, from the one table. */
    dj_buf_append(out, "Settings:");
    for (int i = 0; i < DJ_SETTINGS_COUNT; i++) {
        dj_buf_printf(out, " %s=", dj_settings[i].name);
        dj_setting_format(&dj_settings[i], g, out);
    }
    dj_buf_append(out, "\n");
}

/* "draw", "draw France Germany", "concede Russia" from a stored vote
 * ("draw", "draw:MASK", "concede:5"). */
static void vote_text(const game_view *v, const char *vote, char *buf,
                      size_t len)
{
    int to;
    unsigned long long mask;
    if (sscanf(vote, "concede:%d", &to) == 1 && to >= 0 &&
        to < v->map->npowers) {
        snprintf(buf, len, "concede %s", gv_power_name(v, to));
    } else if (sscanf(vote, "draw:%llx", &mask) == 1) {
        size_t used = (size_t)snprintf(buf, len, "draw");
        for (int p = 0; p < v->map->npowers && used < len; p++)
            if (mask >> p & 1u)
                used += (size_t)snprintf(buf + used, len - used, " %s",
                                         gv_power_name(v, p));
    } else {
        snprintf(buf, len, "%s", vote);
    }
}

/*
 * The powers and participants.  `public` (LIST by mail, for anyone)
 * leaves out addresses, votes and flags: only whether a power is played,
 * its status and whether its orders are still awaited.
 */
static int show_powers(dj_judge *j, game_view *v, bool public, dj_buf *out)
{
    order_set *set = NULL;
    bool current = v->has_phase && strcmp(v->phase.status, "current") == 0;
    if (current) {
        set = malloc(sizeof *set);
        if (!set)
            return judge_fail(j, "out of memory");
        if (gv_orders_load(j, v, &v->phase, set) < 0) {
            free(set);
            return -1;
        }
    }
    uint64_t extends = 0;
    if (current && !public &&
        dj_store_extend_votes(j->store, v->phase.id, &extends) < 0) {
        free(set);
        return judge_store_fail(j);
    }
    dj_buf_append(out, "\nPowers:\n");
    /* Who plays which power: the setting identities says who may know
     * (dj_game_player_shown). */
    for (int p = 0; p < v->map->npowers; p++) {
        const dj_participant_rec *pl = gv_player(v, p);
        dj_buf_printf(out, "  %-10s %-28s %-15s", gv_power_name(v, p),
                      !pl             ? "(open)"
                      : !pl->email[0] ? "(dummy)"
                      : !public       ? pl->email
                      : dj_game_player_shown(&v->g, NULL, pl, "(a player)"),
                      pl ? pl->status : "-");
        if (public && current && v->g.hide_late) {
            /* hide_late = yes: whose orders are missing is nobody's
             * business but the power's and the master's */
        } else if (public && current &&
                   gv_power_must_order(v->map, v->pos, p)) {
            dj_buf_append(out, gv_orders_complete(v->map, v->pos, p, set)
                                   ? " orders in"
                                   : gv_in_disorder(v, p)
                                         ? " (the judge orders)"
                                         : " orders awaited");
        } else if (public && current) {
            dj_buf_append(out, " no orders needed");
        } else if (current && gv_power_must_order(v->map, v->pos, p)) {
            int needed, given, ready = 0, wait = 0;
            gv_power_order_count(v->map, v->pos, p, set, &needed, &given);
            dj_store_readiness_get(j->store, v->phase.id, p, &ready, &wait);
            dj_buf_printf(out, " orders %d/%d%s%s%s", given, needed,
                          given >= needed      ? ""
                          : gv_in_disorder(v, p) ? " (the judge orders)"
                                                 : " (missing)",
                          ready ? " ready" : "", wait ? " wait" : "");
        } else if (current) {
            dj_buf_append(out, " no orders needed");
        }
        /* Votes are the master's to see, or everyone's in a game whose
         * votes are public. */
        if (pl && pl->vote[0] &&
            (!public || strcmp(v->g.votes, "public") == 0)) {
            char vote[512];
            vote_text(v, pl->vote, vote, sizeof vote);
            dj_buf_printf(out, " vote %s", vote);
        }
        /* EXTEND votes are the master's to see; the excuses used
         * (excuses = N) everyone's, as the results announce them. */
        if (!public && current && (extends >> p & 1u))
            dj_buf_append(out, " extend");
        /* the list and the choice dealt: the master's to see */
        if (!public && pl)
            gv_preference_mark(v, pl, out);
        if (v->g.excuses > 0) {
            int used = gv_excuses_used(j, v, p);
            if (used < 0) {
                free(set);
                return -1;
            }
            dj_buf_printf(out, " excuses %d/%d", used, v->g.excuses);
        }
        dj_buf_append(out, "\n");
        /* a power's further addresses: the master's and the admin's to
         * see, never in public views (addresses.c) */
        if (!public && pl && pl->nmore > 0) {
            dj_buf_append(out, "  (also)     ");
            for (int k = 1; k < gv_address_count(pl); k++)
                dj_buf_printf(out, "%s%s", k > 1 ? " " : "",
                              gv_address_at(pl, k));
            dj_buf_append(out, "\n");
        }
    }
    for (int i = 0; i < v->nparts && !public; i++) {
        const dj_participant_rec *p = &v->parts[i];
        if (strcmp(p->role, "player") == 0 && p->power >= 0)
            continue;
        if (strcmp(p->role, "player") == 0 &&
            (strcmp(p->status, "resigned") == 0 ||
             strcmp(p->status, "replaced") == 0))
            continue;
        dj_buf_printf(out, "  %-10s %s%s%s",
                      strcmp(p->role, "player") == 0 ? "(unassigned)"
                                                     : p->role,
                      p->email, p->name[0] ? " " : "", p->name);
        gv_preference_mark(v, p, out);
        dj_buf_append(out, "\n");
    }
    free(set);
    return 0;
}

static int do_show(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    bool public = arg != NULL;
    dj_buf_printf(out, "Game %s on map %s: %s\n", v->g.name, v->g.map,
                  v->g.state);
    if (v->g.ending[0])
        dj_buf_printf(out, "Ended: %s\n", v->g.ending);
    if (v->has_phase) {
        char long_name[64];
        dj_map_phase_format(v->map, v->pos->phase.season, v->pos->phase.year,
                            v->pos->phase.type, long_name, sizeof long_name);
        dj_buf_printf(out, "Phase: %s (%s)", v->phase.name, long_name);
        if (strcmp(v->phase.status, "current") == 0 && v->phase.deadline) {
            dj_buf_append(out, "; deadline ");
            gv_time(v, v->phase.deadline, out);
            dj_buf_append(out, ", grace until ");
            gv_time(v, dj_grace_expiry(&v->sched, v->phase.deadline), out);
            if (v->phase.late_at)
                dj_buf_append(out, " (late)");
        }
        dj_buf_append(out, "\n");
    }
    show_settings(v, out);
    if (show_powers(j, v, public, out) < 0)
        return -1;
    /* Reliability figures of the players who show them (SET STATS
     * PUBLIC), when everyone may know who plays. */
    if (public && dj_game_identities_visible(&v->g, NULL)) {
        dj_buf figs;
        dj_buf_init(&figs);
        for (int i = 0; i < v->nparts; i++) {
            const dj_participant_rec *p = &v->parts[i];
            if (strcmp(p->role, "player") != 0 || !p->email[0] ||
                strcmp(p->status, "replaced") == 0)
                continue;
            dj_buf_append(&figs, "  ");
            size_t before = figs.len;
            if (dj_game_player_stats(
                    j, p->email,
                    dj_game_player_shown(&v->g, NULL, p, "(a player)"), true,
                    &figs) < 0) {
                dj_buf_free(&figs);
                return -1;
            }
            if (figs.len == before) /* not shown: take the indent back */
                figs.data[figs.len -= 2] = '\0';
        }
        if (figs.len)
            dj_buf_printf(out, "Reliability (players who show it):\n%s",
                          figs.data);
        dj_buf_free(&figs);
    }
    if (public) {
        int waiting = 0;
        for (int i = 0; i < v->nparts; i++)
            waiting += strcmp(v->parts[i].role, "player") == 0 &&
                       v->parts[i].power < 0 &&
                       strcmp(v->parts[i].status, "playing") == 0;
        if (waiting)
            dj_buf_printf(out, "  %d player%s waiting for a power to be "
                               "dealt\n",
                          waiting, waiting == 1 ? "" : "s");
    }
    if (v->has_phase) {
        dj_buf_append(out, "\n");
        /* the phase's record of civil disorder, as the players are now:
         * a power taken over (or back in the game) is no longer in it */
        dj_position *now = malloc(sizeof *now);
        if (!now)
            return judge_fail(j, "out of memory");
        *now = *v->pos;
        for (int p = 0; p < v->map->npowers && p < DJ_MAX_POWERS; p++)
            if (!gv_in_disorder(v, p))
                now->civil_disorder &= ~((dj_power_set)1 << p);
        if (v->blinded) { /* a blind game: what the reader sees */
            dj_blind_position(v->map, now, v->viewer, now);
            dj_report_position_seen(v->map, now, v->viewer, out);
        } else {
            dj_report_position(v->map, now, out);
        }
        free(now);
    }
    return 0;
}

int dj_game_show(dj_judge *j, const char *game, dj_buf *out)
{
    return gv_with_game_read(j, game, do_show, NULL, out);
}

int dj_game_show_public(dj_judge *j, const char *game, dj_buf *out)
{
    static const char public_view[] = "public";
    return gv_with_game_read(j, game, do_show, (void *)public_view, out);
}

/* ---- history -------------------------------------------------------------------- */

/* A phase's order: year, then season, then type. */
int gv_phase_key(int year, int season, int type)
{
    return year * 100 + season * 10 + type;
}

/* A bound: a phase name or a year.  *key set; end picks a year's end. */
int gv_phase_bound(dj_judge *j, const char *text, bool end, int *key)
{
    dj_phase ph;
    char *tail;
    long year = strtol(text, &tail, 10);
    if (*text && !*tail && year > 0 && year < 100000) {
        *key = gv_phase_key((int)year, end ? 9 : 0, end ? 9 : 0);
        return 0;
    }
    if (dj_phase_parse_short(text, &ph) < 0)
        return judge_fail(j, "bad phase or year '%s' (S1901M, 1901)", text);
    *key = gv_phase_key(ph.year, ph.season, ph.type);
    return 0;
}

typedef struct range {
    const char *from, *to;
} range;

static int do_history(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const range *r = arg;
    int lo = 0, hi = 1 << 30;
    if ((r->from && gv_phase_bound(j, r->from, false, &lo) < 0) ||
        (r->to && gv_phase_bound(j, r->to, true, &hi) < 0))
        return -1;
    if (r->from && !r->to && !strchr("0123456789", r->from[0]) )
        hi = lo; /* one phase */
    else if (r->from && !r->to)
        gv_phase_bound(j, r->from, true, &hi); /* one year */
    dj_phase_rec *list = NULL;
    int n = 0, shown = 0;
    if (dj_store_phase_list(j->store, v->g.id, &list, &n) < 0)
        return judge_store_fail(j);
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        int key = gv_phase_key(list[i].year, list[i].season, list[i].type);
        if (key < lo || key > hi)
            continue;
        dj_result_rec res;
        int got = dj_store_result_get(j->store, list[i].id, &res);
        if (got < 0)
            rc = judge_store_fail(j);
        if (got != 0)
            continue;
        if (shown++)
            dj_buf_append(out, "\n----------------------------------------"
                               "--------------------------------------\n\n");
        if (v->blinded) /* a blind game: the reader's own results */
            rc = gv_blind_phase_results(j, v, &list[i], out);
        else
            dj_buf_append(out, res.report);
        dj_result_rec_free(&res);
    }
    dj_phase_recs_free(list, n);
    if (rc == 0 && !shown)
        dj_buf_printf(out, "%s: no results%s\n", v->g.name,
                      r->from ? " in that range" : " yet");
    return rc;
}

int dj_game_history(dj_judge *j, const char *game, const char *from,
                    const char *to, dj_buf *out)
{
    range r = {from, to};
    return gv_with_game_read(j, game, do_history, &r, out);
}

/* ---- summary ----------------------------------------------------------------------- */

/* The centre owners after each year's Fall: years[0..*ny), each owner
 * array in owners (both malloc'd by the caller for n + 1 years). */
static int collect_years(dj_judge *j, const game_view *v,
                         const dj_phase_rec *list, int n,
                         dj_summary_year *years, int16_t (*owners)[DJ_MAX_LOCS],
                         int *ny_out)
{
    dj_position *pos = malloc(sizeof *pos);
    int ny = 0, rc = pos ? 0 : judge_fail(j, "out of memory");
    for (int i = 0; rc == 0 && i < n; i++) {
        /* The first position after a year's Fall holds its captures. */
        int year;
        if (list[i].season == DJ_WINTER)
            year = list[i].year;
        else if (list[i].season == DJ_SPRING && i > 0)
            year = list[i].year - v->map->years_to_spring;
        else
            continue;
        if (ny > 0 && years[ny - 1].year == year)
            continue;
        char why[256];
        if (dj_snapshot_read(v->map, list[i].position, pos, why, sizeof why) <
            0) {
            rc = judge_fail(j, "phase %s: %s", list[i].name, why);
            break;
        }
        memcpy(owners[ny], pos->owner, sizeof owners[ny]);
        years[ny].year = year;
        years[ny].owner = owners[ny];
        ny++;
    }
    free(pos);
    *ny_out = ny;
    return rc;
}

typedef struct summary_arg {
    dj_centre_history *table;   /* NULL: the text report */
} summary_arg;

static void count_centres(const game_view *v, const dj_summary_year *years,
                          int ny, dj_centre_history *t)
{
    const dj_map *m = v->map;
    t->npowers = m->npowers;
    t->nyears = 0;
    for (int p = 0; p < m->npowers; p++)
        snprintf(t->power[p], sizeof t->power[p], "%s", m->powers[p].name);
    t->nyears = 0;
    for (int y = 0; y < ny && y < DJ_CENTRE_YEARS_MAX; y++) {
        t->year[y] = years[y].year;
        for (int p = 0; p < m->npowers; p++)
            t->count[y][p] = 0;
        for (int l = 0; l < m->nlocs; l++)
            if (m->is_sc[l] && years[y].owner[l] >= 0 &&
                years[y].owner[l] < m->npowers)
                t->count[y][years[y].owner[l]]++;
        t->nyears++;
    }
}

static int do_summary(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const summary_arg *a = arg;
    if (v->blinded)
        return judge_fail(j, "game '%s' is blind: its supply-centre history "
                             "is shown once it is over", v->g.name);
    dj_phase_rec *list = NULL;
    int n = 0;
    if (dj_store_phase_list(j->store, v->g.id, &list, &n) < 0)
        return judge_store_fail(j);
    dj_summary_year *years = calloc((size_t)n + 1, sizeof *years);
    int16_t(*owners)[DJ_MAX_LOCS] = calloc((size_t)n + 1, sizeof *owners);
    int ny = 0, rc = 0;
    if (!years || !owners)
        rc = judge_fail(j, "out of memory");
    /* The table starts with the game's first position. */
    bool start = a && a->table && n > 0;
    if (rc == 0 && start) {
        dj_position *pos = malloc(sizeof *pos);
        char why[256];
        if (!pos)
            rc = judge_fail(j, "out of memory");
        else if (dj_snapshot_read(v->map, list[0].position, pos, why,
                                  sizeof why) < 0)
            rc = judge_fail(j, "phase %s: %s", list[0].name, why);
        else
            memcpy(owners[n], pos->owner, sizeof owners[n]);
        free(pos);
    }
    if (rc == 0)
        rc = collect_years(j, v, list, n, years + start, owners, &ny);
    if (rc == 0 && start) {
        years[0].year = list[0].year - 1;
        years[0].owner = owners[n];
        ny++;
        a->table->start = true;
    }
    if (rc == 0 && a && a->table)
        count_centres(v, years, ny, a->table);
    else if (rc == 0)
        dj_report_summary(v->map, years, ny, out);
    free(years);
    free(owners);
    dj_phase_recs_free(list, n);
    return rc;
}

int gv_centre_summary(dj_judge *j, game_view *v, dj_centre_history *t,
                      dj_buf *out)
{
    summary_arg a = {t};
    if (t)
        memset(t, 0, sizeof *t);
    dj_buf ignored;
    dj_buf_init(&ignored);
    int rc = do_summary(j, v, t ? &a : NULL, t ? &ignored : out);
    dj_buf_free(&ignored);
    return rc;
}

int dj_game_summary(dj_judge *j, const char *game, dj_buf *out)
{
    return gv_with_game_read(j, game, do_summary, NULL, out);
}

int dj_game_centre_history(dj_judge *j, const char *game,
                           dj_centre_history *t)
{
    summary_arg a = {t};
    memset(t, 0, sizeof *t);
    dj_buf ignored;
    dj_buf_init(&ignored);
    int rc = gv_with_game_read(j, game, do_summary, &a, &ignored);
    dj_buf_free(&ignored);
    return rc;
}

/* ---- JSON ------------------------------------------------------------------------------ */

static void json_game(const game_view *v, bool public, dj_buf *out)
{
    const dj_game_rec *g = &v->g;
    dj_buf_append(out, "  \"game\": {");
    dj_json_kv_str(out, "name", g->name, true);
    dj_json_kv_str(out, "map", g->map, true);
    dj_json_kv_str(out, "state", g->state, true);
    dj_json_kv_str(out, "ending", g->ending, true);
    dj_json_kv_str(out, "rules", g->rules, true);
    /* Every setting of the table, numbers as stored (minutes). */
    for (int i = 0; i < DJ_SETTINGS_COUNT; i++) {
        const dj_setting_info *si = &dj_settings[i];
        const char *field = (const char *)g + si->offset;
        int n = si->text ? 0 : *(const int *)(const void *)field;
        if (si->type == DJ_ST_SECRET && public) {
            dj_json_key(out, si->name);   /* said to be set, never shown */
            dj_buf_append(out, *field ? "true, " : "false, ");
        } else if (si->text) {
            dj_json_kv_str(out, si->name, field, true);
        } else if (si->type == DJ_ST_BOOL) {
            dj_json_key(out, si->name);
            dj_buf_append(out, n ? "true, " : "false, ");
        } else if (si->type == DJ_ST_DAYS) {
            char days[8];
            dj_days_format((uint8_t)n, days);
            dj_json_kv_str(out, si->name, days, true);
        } else {
            dj_json_kv_int(out, si->name, n, true);
        }
    }
    dj_json_kv_time(out, "created_at", g->created_at, true);
    dj_json_kv_time(out, "started_at", g->started_at, true);
    dj_json_kv_time(out, "finished_at", g->finished_at, true);
    dj_json_kv_time(out, "paused_at", g->paused_at, false);
    dj_buf_append(out, "},\n");
}

static void json_participants(const game_view *v, bool public, dj_buf *out)
{
    dj_buf_append(out, "  \"participants\": [");
    for (int i = 0; i < v->nparts; i++) {
        const dj_participant_rec *p = &v->parts[i];
        dj_buf_append(out, i ? ",\n    {" : "\n    {");
        dj_json_kv_str(out, "role", p->role, true);
        dj_json_key(out, "power");
        if (p->power >= 0)
            dj_json_string(out, gv_power_name(v, p->power));
        else
            dj_buf_append(out, "null");
        dj_buf_append(out, ", ");
        if (!public) {
            dj_json_kv_str(out, "name", p->name, true);
            dj_json_kv_str(out, "email", p->email, true);
            /* every address, the first one (email) first */
            dj_json_key(out, "addresses");
            dj_buf_append(out, "[");
            for (int k = 0; k < gv_address_count(p); k++) {
                if (k)
                    dj_buf_append(out, ", ");
                dj_json_string(out, gv_address_at(p, k));
            }
            dj_buf_append(out, "], ");
        }
        dj_json_kv_str(out, "status", p->status, true);
        if (!public) {
            char vote[512];
            vote_text(v, p->vote, vote, sizeof vote);
            dj_json_kv_str(out, "vote", vote, true);
        }
        dj_json_kv_time(out, "joined_at", p->joined_at, true);
        dj_json_kv_time(out, "left_at", p->left_at, false);
        dj_buf_append(out, "}");
    }
    dj_buf_append(out, "\n  ],\n");
}

static void json_power_list(const game_view *v, dj_power_set mask, dj_buf *out)
{
    dj_buf_append(out, "[");
    bool first = true;
    for (int p = 0; p < v->map->npowers; p++)
        if (mask >> p & 1u) {
            if (!first)
                dj_buf_append(out, ", ");
            dj_json_string(out, gv_power_name(v, p));
            first = false;
        }
    dj_buf_append(out, "]");
}

static void json_position(const game_view *v, const dj_position *pos,
                          dj_buf *out)
{
    const dj_map *m = v->map;
    dj_buf_append(out, "{\"units\": [");
    for (int i = 0; i < pos->nunits; i++) {
        const dj_unit *u = &pos->units[i];
        dj_buf_append(out, i ? ", {" : "{");
        dj_json_kv_str(out, "power", gv_power_name(v, u->power), true);
        dj_json_kv_str(out, "type", dj_unit_letter(u->type), true);
        dj_json_kv_str(out, "loc", m->locs[u->loc].abbr, false);
        dj_buf_append(out, "}");
    }
    dj_buf_append(out, "], \"dislodged\": [");
    for (int i = 0; i < pos->ndislodged; i++) {
        const dj_dislodged *d = &pos->dislodged[i];
        dj_buf_append(out, i ? ", {" : "{");
        dj_json_kv_str(out, "power", gv_power_name(v, d->unit.power), true);
        dj_json_kv_str(out, "type", dj_unit_letter(d->unit.type), true);
        dj_json_kv_str(out, "loc", m->locs[d->unit.loc].abbr, true);
        dj_json_kv_str(out, "from",
                    d->attacker_from >= 0 ? m->locs[d->attacker_from].abbr
                                          : "",
                    true);
        dj_json_key(out, "retreats");
        dj_buf_append(out, "[");
        for (int k = 0; k < d->nretreats; k++) {
            if (k)
                dj_buf_append(out, ", ");
            dj_json_string(out, m->locs[d->retreats[k]].abbr);
        }
        dj_buf_append(out, "]}");
    }
    dj_buf_append(out, "], \"centres\": {");
    bool first_power = true;
    for (int p = 0; p < m->npowers; p++) {
        bool any = false;
        for (int l = 0; l < m->nlocs; l++) {
            if (pos->owner[l] != p || !m->is_sc[l])
                continue;
            if (!any) {
                if (!first_power)
                    dj_buf_append(out, ", ");
                dj_json_key(out, gv_power_name(v, p));
                dj_buf_append(out, "[");
                first_power = false;
            } else {
                dj_buf_append(out, ", ");
            }
            dj_json_string(out, m->locs[l].abbr);
            any = true;
        }
        if (any)
            dj_buf_append(out, "]");
    }
    dj_buf_append(out, "}, \"disorder\": ");
    json_power_list(v, pos->civil_disorder, out);
    dj_buf_append(out, "}");
}

/* How orders came, for anyone to read: "mail", "web", "master" or
 * "judgectl", never who sent them.  Orders given on the web before it was
 * recorded as their source are known by their author ("web CLIENT"). */
static const char *public_source(const dj_orders_rec *r)
{
    if (strncmp(r->author, "web ", 4) == 0)
        return "web";
    return r->source;
}

static void json_orders(dj_judge *j, const game_view *v, int64_t phase_id,
                        bool public, dj_buf *out)
{
    dj_orders_rec *recs = NULL;
    int n = 0;
    dj_buf_append(out, "\"orders\": [");
    if (dj_store_orders_all(j->store, phase_id, &recs, &n) == 0) {
        for (int i = 0; i < n; i++) {
            dj_buf_append(out, i ? ",\n        {" : "\n        {");
            dj_json_kv_str(out, "power",
                        recs[i].power < v->map->npowers
                            ? gv_power_name(v, recs[i].power)
                            : "?",
                        true);
            dj_json_kv_time(out, "received_at", recs[i].received_at, true);
            /* The author (an address, or the web's client) is the
             * administrator's to see: judgectl export, not the web. */
            dj_json_kv_str(out, "source",
                           public ? public_source(&recs[i]) : recs[i].source,
                           true);
            if (!public)
                dj_json_kv_str(out, "author", recs[i].author, true);
            dj_json_key(out, "orders");
            dj_buf_append(out, "[");
            char *save = NULL;
            bool first = true;
            for (char *l = strtok_r(recs[i].orders, "\n", &save); l;
                 l = strtok_r(NULL, "\n", &save)) {
                if (!first)
                    dj_buf_append(out, ", ");
                dj_json_string(out, l);
                first = false;
            }
            dj_buf_append(out, "]}");
        }
    }
    dj_orders_recs_free(recs, n);
    dj_buf_append(out, "]");
}

/* One result detail line: power TAB order TAB outcome TAB reason. */
static void json_detail_line(char *line, dj_buf *out)
{
    char *f[4] = {line, "", "", ""};
    for (int k = 1; k < 4; k++) {
        char *tab = strchr(f[k - 1], '\t');
        if (!tab)
            break;
        *tab = '\0';
        f[k] = tab + 1;
    }
    dj_buf_append(out, "{");
    dj_json_kv_str(out, "power", f[0], true);
    dj_json_kv_str(out, "order", f[1], true);
    dj_json_kv_str(out, "outcome", f[2], true);
    dj_json_kv_str(out, "reason", f[3], false);
    dj_buf_append(out, "}");
}

static int json_result(dj_judge *j, const game_view *v, int64_t phase_id,
                       dj_buf *out)
{
    (void)v;
    dj_result_rec r;
    int rc = dj_store_result_get(j->store, phase_id, &r);
    if (rc < 0)
        return judge_store_fail(j);
    dj_buf_append(out, "\"result\": ");
    if (rc == DJ_STORE_NOTFOUND) {
        dj_buf_append(out, "null");
        return 0;
    }
    dj_buf_append(out, "{");
    dj_json_kv_time(out, "processed_at", r.processed_at, true);
    dj_json_kv_str(out, "disorder", r.disorder, true);
    dj_json_key(out, "orders");
    dj_buf_append(out, "[");
    char *save = NULL;
    bool first = true;
    for (char *l = strtok_r(r.detail, "\n", &save); l;
         l = strtok_r(NULL, "\n", &save)) {
        dj_buf_append(out, first ? "\n          " : ",\n          ");
        json_detail_line(l, out);
        first = false;
    }
    dj_buf_append(out, "],\n        ");
    dj_json_kv_str(out, "report", r.report, false);
    dj_buf_append(out, "}");
    dj_result_rec_free(&r);
    return 0;
}

static int json_phases(dj_judge *j, const game_view *v, bool public,
                       dj_buf *out)
{
    dj_phase_rec *list = NULL;
    int n = 0;
    if (dj_store_phase_list_all(j->store, v->g.id, &list, &n) < 0)
        return judge_store_fail(j);
    dj_position *pos = malloc(sizeof *pos);
    int rc = pos ? 0 : judge_fail(j, "out of memory");
    dj_buf_append(out, "  \"phases\": [");
    for (int i = 0; rc == 0 && i < n; i++) {
        const dj_phase_rec *ph = &list[i];
        char why[256];
        if (dj_snapshot_read(v->map, ph->position, pos, why, sizeof why) < 0) {
            rc = judge_fail(j, "phase %s: %s", ph->name, why);
            break;
        }
        dj_buf_append(out, i ? ",\n    {" : "\n    {");
        dj_json_kv_int(out, "seq", ph->seq, true);
        dj_json_kv_str(out, "phase", ph->name, true);
        dj_json_kv_str(out, "status", ph->status, true);
        dj_json_kv_time(out, "opened_at", ph->opened_at, true);
        dj_json_kv_time(out, "deadline", ph->deadline, true);
        dj_json_kv_time(out, "late_at", ph->late_at, true);
        dj_buf_append(out, "\n      \"position\": ");
        if (v->blinded) /* a blind game: the position as the reader sees it */
            dj_blind_position(v->map, pos, v->viewer, pos);
        json_position(v, pos, out);
        dj_buf_append(out, ",\n      ");
        /* The orders of the phase being played are secret until it is;
         * a blind game's, and its results, until the game is over. */
        if (v->blinded || (public && strcmp(ph->status, "done") != 0))
            dj_buf_append(out, "\"orders\": []");
        else
            json_orders(j, v, ph->id, public, out);
        dj_buf_append(out, ",\n      ");
        if (v->blinded)
            dj_buf_append(out, "\"result\": null");
        else
            rc = json_result(j, v, ph->id, out);
        dj_buf_append(out, "}");
    }
    dj_buf_append(out, "\n  ],\n");
    free(pos);
    dj_phase_recs_free(list, n);
    return rc;
}

/* One outbox row's object: what the export writes of it, and with `full`
 * (judgectl outbox --json) its id, attempts and sending time too. */
static void json_outbox_row(const dj_outbox_rec *m, bool full, dj_buf *out)
{
    dj_buf_append(out, "{");
    dj_json_kv_str(out, "kind", m->kind, true);
    dj_json_kv_str(out, "recipients", m->recipients, true);
    dj_json_kv_str(out, "subject", m->subject, true);
    dj_json_kv_str(out, "state", m->state, true);
    dj_json_kv_time(out, "created_at", m->created_at, full);
    if (full) {
        dj_json_kv_int(out, "id", m->id, true);
        dj_json_kv_int(out, "attempts", m->attempts, true);
        dj_json_kv_str(out, "last_error", m->last_error, true);
        dj_json_key(out, "held");
        dj_buf_append(out, m->held ? "true, " : "false, ");
        dj_json_kv_time(out, "sent_at", m->sent_at, false);
    }
    dj_buf_append(out, "}");
}

static int json_mail(dj_judge *j, const game_view *v, dj_buf *out)
{
    dj_outbox_rec *mail = NULL;
    int n = 0;
    if (dj_store_outbox_list(j->store, v->g.id, NULL, &mail, &n) < 0)
        return judge_store_fail(j);
    dj_buf_append(out, "  \"mail\": [");
    for (int i = 0; i < n; i++) {
        dj_buf_append(out, i ? ",\n    " : "\n    ");
        json_outbox_row(&mail[i], false, out);
    }
    dj_buf_append(out, "\n  ],\n");
    dj_outbox_recs_free(mail, n);
    return 0;
}

static int json_log(dj_judge *j, const game_view *v, dj_buf *out)
{
    dj_game_log_rec *log = NULL;
    int n = 0;
    if (dj_store_game_log_list(j->store, v->g.id, &log, &n) < 0)
        return judge_store_fail(j);
    dj_buf_append(out, "  \"log\": [");
    for (int i = 0; i < n; i++) {
        dj_buf_append(out, i ? ",\n    {" : "\n    {");
        dj_json_kv_time(out, "at", log[i].at, true);
        dj_json_kv_str(out, "actor", log[i].actor, true);
        dj_json_kv_str(out, "action", log[i].action, true);
        dj_json_kv_str(out, "detail", log[i].detail, false);
        dj_buf_append(out, "}");
    }
    dj_buf_append(out, "\n  ]\n");
    free(log);
    return 0;
}

static int do_export(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    bool public = arg != NULL;
    dj_buf_printf(out, "{\n  \"format\": \"dipjudge-game\",\n"
                       "  \"version\": %d,\n",
                  DJ_GAME_JSON_VERSION);
    if (public)
        dj_buf_append(out, "  \"view\": \"public\",\n");
    dj_buf_printf(out, "  \"judge\": ");
    dj_json_string(out, j->cfg.judge_name);
    dj_buf_append(out, ",\n");
    json_game(v, public, out);
    json_participants(v, public, out);
    if (json_phases(j, v, public, out) < 0)
        return -1;
    if (public) {
        /* the phases' closing "],\n" wants one more member */
        dj_buf_append(out, "  \"mail\": [],\n  \"log\": []\n");
    } else if (json_mail(j, v, out) < 0 || json_log(j, v, out) < 0) {
        return -1;
    }
    dj_buf_append(out, "}\n");
    if (!dj_buf_ok(out))
        return judge_fail(j, "out of memory");
    return 0;
}

int dj_game_export(dj_judge *j, const char *game, dj_buf *out)
{
    return gv_with_game_read(j, game, do_export, NULL, out);
}

int dj_game_export_public(dj_judge *j, const char *game, dj_buf *out)
{
    static const char public_view[] = "public";
    return gv_with_game_read(j, game, do_export, (void *)public_view, out);
}

/* ---- outbox ------------------------------------------------------------------------------- */

static void outbox_json(const dj_outbox_rec *mail, int n, dj_buf *out)
{
    dj_buf_printf(out, "{\"format\": \"dipjudge-outbox\", \"version\": %d, "
                       "\"mail\": [",
                  DJ_OUTBOX_JSON_VERSION);
    for (int i = 0; i < n; i++) {
        dj_buf_append(out, i ? ",\n  " : "\n  ");
        json_outbox_row(&mail[i], true, out);
    }
    dj_buf_append(out, n ? "\n]}\n" : "]}\n");
}

/* A read transaction begun for one game's rows (its id into *id) or, with
 * game NULL, every game's (*id 0).  -1, nothing begun, when the game is
 * not there. */
static int begin_read_for(dj_judge *j, const char *game, int64_t *id)
{
    if (dj_store_begin_read(j->store) < 0)
        return judge_store_fail(j);
    *id = 0;
    if (!game)
        return 0;
    dj_game_rec g;
    if (gv_game_get(j, game, &g) < 0) {
        dj_store_rollback(j->store);
        return -1;
    }
    *id = g.id;
    return 0;
}

static int list_outbox(dj_judge *j, const char *game, bool json, dj_buf *out)
{
    int64_t id = 0;
    if (begin_read_for(j, game, &id) < 0)
        return -1;
    int rc = 0;
    dj_outbox_rec *mail = NULL;
    int n = 0;
    if (dj_store_outbox_list(j->store, id, NULL, &mail, &n) < 0) {
        rc = judge_store_fail(j);
    } else if (json) {
        outbox_json(mail, n, out);
        dj_outbox_recs_free(mail, n);
    } else {
        /* ID, state (held: queued and held), attempts, kind, recipients,
         * subject, and the last attempt's error when there was one. */
        for (int i = 0; i < n; i++)
            dj_buf_printf(out, "%lld\t%s\t%d\t%s\t%s\t%s%s%s\n",
                          (long long)mail[i].id,
                          mail[i].held ? "held" : mail[i].state,
                          mail[i].attempts, mail[i].kind, mail[i].recipients,
                          mail[i].subject, mail[i].last_error[0] ? "\t" : "",
                          mail[i].last_error);
        dj_outbox_recs_free(mail, n);
    }
    dj_store_rollback(j->store);
    return rc;
}

int dj_game_outbox(dj_judge *j, const char *game, dj_buf *out)
{
    return list_outbox(j, game, false, out);
}

int dj_game_outbox_json(dj_judge *j, const char *game, dj_buf *out)
{
    return list_outbox(j, game, true, out);
}

int dj_game_outbox_act(dj_judge *j, int64_t id, dj_outbox_action act,
                       dj_buf *out)
{
    static const char *const DONE[] = {"due now", "held", "deleted"};
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    char why[256] = "";
    int rc = dj_store_outbox_act(j->store, id, act, why, sizeof why);
    if (rc == 0 && dj_store_commit(j->store) < 0)
        rc = -1;
    if (rc != 0) {
        if (rc < 0)
            judge_store_fail(j);
        dj_store_rollback(j->store);
        if (rc == DJ_STORE_NOTFOUND)
            return judge_fail(j, "no mail %lld in the outbox", (long long)id);
        if (rc > 0)
            return judge_fail(j, "%s", why);
        return -1;
    }
    dj_buf_printf(out, "mail %lld %s\n", (long long)id, DONE[act]);
    return 0;
}

int dj_game_maillog(dj_judge *j, const char *game, int limit, dj_buf *out)
{
    int64_t id = 0;
    if (begin_read_for(j, game, &id) < 0)
        return -1;
    dj_maillog_rec *rows = NULL;
    int n = 0, rc = 0;
    if (dj_store_maillog_list(j->store, id, limit, &rows, &n) < 0) {
        rc = judge_store_fail(j);
    } else {
        dj_zone utc;
        dj_zone_utc(&utc);
        for (int i = 0; i < n; i++) {
            dj_time_format_iso(&utc, rows[i].received_at, out);
            dj_buf_printf(out, "\t%s\t%s\t%s\t%s\t%s\t%s\n",
                          rows[i].sender,
                          rows[i].game[0] ? rows[i].game : "-", rows[i].auth,
                          rows[i].auth_verdict[0] ? rows[i].auth_verdict : "-",
                          rows[i].outcome,
                          rows[i].signed_on_by[0] ? rows[i].signed_on_by
                                                  : "-");
        }
        free(rows);
    }
    dj_store_rollback(j->store);
    return rc;
}
