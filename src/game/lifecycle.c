/* SPDX-License-Identifier: MIT */
/*
 * lifecycle.c — a game from forming to its end: joining, starting, votes,
 * absences, pausing, replacing players, takeovers, a new master (SET
 * MASTER, once confirmed: confirm.c), termination.
 *
 * Each public function is one transaction: load the game (gv_load), check
 * the state allows the action, write, log it, commit.  Powers are assigned
 * at start to players who did not choose one, at random with a generator
 * seeded from the game and the clock (so a test with a fixed clock always
 * gets the same assignment); under assignment = preference by the
 * players' lists instead (preference.c, the method in deal.h).  A power
 * with nobody to play it is played by
 * a "dummy": a player row without an address, in civil disorder, which a
 * real player can later replace.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/audience.h"
#include "game/forming.h"
#include "game/game.h"
#include "game/game_int.h"
#include "game/game_options.h"
#include "game/orders.h"
#include "game/player_options_int.h"
#include "game/password.h"
#include "game/process.h"
#include "game/reading.h"
#include "game/signon.h"
#include "store/game_options.h"
#include "store/mail.h"
#include "game/report.h"
#include "game/snapshot.h"

/* ---- helpers ----------------------------------------------------------------- */

/* A new participant row (a power's player, or a master with power -1);
 * its password hashed when one is given, else the hash when given (a
 * request confirmed by code keeps only the hash). */
static int new_participant(dj_judge *j, game_view *v, const char *role,
                           int power, const char *email, const char *name,
                           const char *status, const char *password,
                           const char *hash)
{
    dj_participant_rec p;
    memset(&p, 0, sizeof p);
    p.game_id = v->g.id;
    snprintf(p.role, sizeof p.role, "%s", role);
    p.power = power;
    snprintf(p.email, sizeof p.email, "%s", email ? email : "");
    snprintf(p.name, sizeof p.name, "%s", name ? name : "");
    snprintf(p.status, sizeof p.status, "%s", status);
    p.joined_at = j->now;
    if (password && *password &&
        dj_password_hash(password, p.password_hash, sizeof p.password_hash) < 0)
        return judge_fail(j, "cannot hash the password");
    if (!(password && *password) && hash)
        snprintf(p.password_hash, sizeof p.password_hash, "%s", hash);
    if (dj_store_participant_insert(j->store, &p) < 0)
        return judge_store_fail(j);
    return gv_reload_parts(j, v);
}

/* A new player row for a power; its password (hashed) when one is given. */
static int new_player_with(dj_judge *j, game_view *v, int power,
                           const char *email, const char *name,
                           const char *status, const char *password)
{
    return new_participant(j, v, "player", power, email, name, status,
                           password, NULL);
}

static int new_player(dj_judge *j, game_view *v, int power, const char *email,
                      const char *name, const char *status)
{
    return new_player_with(j, v, power, email, name, status, NULL);
}

/* A player leaves (replaced or resigned).  Leaving a running game before
 * its end, for whatever reason (resigned, ejected, replaced, taken over
 * from civil disorder), counts as a game abandoned in the player's
 * reliability figures, so every game joined ends up finished, abandoned
 * or still played. */
static int retire_player(dj_judge *j, game_view *v, dj_participant_rec *p,
                         const char *status)
{
    if (strcmp(p->role, "player") == 0 && p->power >= 0 &&
        (strcmp(v->g.state, "active") == 0 ||
         strcmp(v->g.state, "paused") == 0) &&
        gv_player_event(j, v, p->email, "abandoned") < 0)
        return -1;
    snprintf(p->status, sizeof p->status, "%s", status);
    p->left_at = j->now;
    p->vote[0] = '\0';
    if (dj_store_participant_update(j->store, p) < 0)
        return judge_store_fail(j);
    return 0;
}

static int count_players(const game_view *v, int *unassigned)
{
    int n = 0;
    *unassigned = 0;
    for (int i = 0; i < v->nparts; i++) {
        const dj_participant_rec *p = &v->parts[i];
        if (strcmp(p->role, "player") != 0 ||
            strcmp(p->status, "resigned") == 0 ||
            strcmp(p->status, "replaced") == 0)
            continue;
        n++;
        if (p->power < 0)
            (*unassigned)++;
    }
    return n;
}

/* splitmix64: small, good enough to deal powers. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---- join --------------------------------------------------------------------- */

static int start_game(dj_judge *j, game_view *v, bool force, dj_buf *out);

/* A joiner's password into hash: hashed now, or as hashed already (a
 * confirmed mail request); neither leaves the hash as it was. */
static int set_password(dj_judge *j, const dj_join_request *req, char *hash,
                        size_t len)
{
    if (req->password && *req->password)
        return dj_password_hash(req->password, hash, len) < 0
                   ? judge_fail(j, "cannot hash the password")
                   : 0;
    if (req->password_hash && *req->password_hash)
        snprintf(hash, len, "%s", req->password_hash);
    return 0;
}

static int do_join(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const dj_join_request *req = arg;
    const char *role = req->role && *req->role ? req->role : "player";
    if (strcmp(role, "player") && strcmp(role, "observer") &&
        strcmp(role, "master"))
        return judge_fail(j, "unknown role '%s'", role);
    if (!req->email || !*req->email)
        return judge_fail(j, "an address is needed to join");
    if (gv_require(j, v, strcmp(role, "player") == 0
                             ? "forming"
                             : "forming active paused") < 0)
        return -1;
    if (strcmp(role, "master") == 0)
        for (int i = 0; i < v->nparts; i++) {
            dj_participant_rec *m = &v->parts[i];
            if (strcmp(m->role, "master") != 0 ||
                strcmp(m->email, req->email) != 0 ||
                strcmp(m->status, "playing") != 0)
                continue;
            /* Already the master (judgectl create --master): one row,
             * its password set now. */
            if (set_password(j, req, m->password_hash,
                             sizeof m->password_hash) < 0)
                return -1;
            if (dj_store_participant_update(j->store, m) < 0)
                return judge_store_fail(j);
            if (gv_log(j, v, "join", "master %s (password set)", m->email) < 0)
                return -1;
            dj_buf_printf(out, "%s: %s is the master%s\n", v->g.name,
                          m->email,
                          m->password_hash[0] ? "; password set" : "");
            return 0;
        }
    int power = -1;
    if (strcmp(role, "player") == 0) {
        for (int i = 0; i < v->nparts; i++)
            if (strcmp(v->parts[i].role, "player") == 0 &&
                gv_has_address(&v->parts[i], req->email) &&
                strcmp(v->parts[i].status, "resigned") != 0)
                return judge_fail(j, "%s already plays in game '%s'",
                                  req->email, v->g.name);
        if (req->power && *req->power) {
            if (strcmp(v->g.assignment, "random") == 0)
                return judge_fail(j, "powers are dealt at random in game "
                                     "'%s'", v->g.name);
            if (strcmp(v->g.assignment, "preference") == 0)
                return judge_fail(j, "powers are dealt by the players' "
                                     "preference lists in game '%s': join "
                                     "without a power, then send SET "
                                     "PREFERENCE",
                                  v->g.name);
            if ((power = gv_power(j, v, req->power)) < 0)
                return -1;
            if (gv_player(v, power))
                return judge_fail(j, "%s is already taken in game '%s'",
                                  gv_power_name(v, power), v->g.name);
        }
    } else if (req->power && *req->power) {
        return judge_fail(j, "only players take a power");
    }
    dj_participant_rec p;
    memset(&p, 0, sizeof p);
    p.game_id = v->g.id;
    snprintf(p.role, sizeof p.role, "%s", role);
    p.power = power;
    snprintf(p.name, sizeof p.name, "%s", req->name ? req->name : "");
    snprintf(p.email, sizeof p.email, "%s", req->email);
    snprintf(p.status, sizeof p.status, "playing");
    p.joined_at = j->now;
    if (set_password(j, req, p.password_hash, sizeof p.password_hash) < 0)
        return -1;
    if (dj_store_participant_insert(j->store, &p) < 0)
        return judge_store_fail(j);
    if (gv_reload_parts(j, v) < 0 ||
        gv_log(j, v, "join", "%s %s%s%s", role, req->email,
               power >= 0 ? " as " : "",
               power >= 0 ? gv_power_name(v, power) : "") < 0)
        return -1;
    dj_buf_printf(out, "%s: %s joined as %s%s\n", v->g.name, req->email,
                  power >= 0 ? gv_power_name(v, power) : role,
                  power < 0 && strcmp(role, "player") == 0
                      ? " (power dealt at start)"
                      : "");
    if (strcmp(role, "player") == 0)
        return gv_start_when_full(j, v, out);
    return 0;
}

/* A full game starts; under assignment = preference only once every
 * player has sent a list (else the master's START starts it), so the
 * last to join may still send one. */
int gv_start_when_full(dj_judge *j, game_view *v, dj_buf *out)
{
    int unassigned;
    if (strcmp(v->g.state, "forming") != 0 ||
        count_players(v, &unassigned) != v->map->npowers)
        return 0;
    if (strcmp(v->g.assignment, "preference") == 0 &&
        !gv_preferences_all_sent(v)) {
        dj_buf_printf(out,
                      "%s: every power has a player; the game starts when "
                      "each has sent SET PREFERENCE, or when the master "
                      "sends START\n",
                      v->g.name);
        return 0;
    }
    return start_game(j, v, false, out);
}

int dj_game_join(dj_judge *j, const char *game, const dj_join_request *req,
                 dj_buf *out)
{
    return gv_with_game(j, game, do_join, (void *)req, out);
}

/* ---- start ---------------------------------------------------------------------- */

static int deal_powers(dj_judge *j, game_view *v)
{
    if (strcmp(v->g.assignment, "preference") == 0)
        return gv_deal_by_preference(j, v);
    int free_powers[DJ_MAX_POWERS], nfree = 0;
    for (int p = 0; p < v->map->npowers; p++)
        if (!gv_player(v, p))
            free_powers[nfree++] = p;
    uint64_t seed = (uint64_t)v->g.id * 0x100000001b3ull ^ (uint64_t)j->now;
    for (int i = nfree - 1; i > 0; i--) {
        int k = (int)(next_random(&seed) % (uint64_t)(i + 1));
        int t = free_powers[i];
        free_powers[i] = free_powers[k];
        free_powers[k] = t;
    }
    int next = 0;
    for (int i = 0; i < v->nparts; i++) {
        dj_participant_rec *p = &v->parts[i];
        if (strcmp(p->role, "player") != 0 || p->power >= 0 ||
            strcmp(p->status, "playing") != 0)
            continue;
        if (next == nfree)
            return judge_fail(j, "more players than powers in game '%s'",
                              v->g.name);
        p->power = free_powers[next++];
        if (dj_store_participant_update(j->store, p) < 0)
            return judge_store_fail(j);
    }
    return gv_reload_parts(j, v);
}

static int start_mail(dj_judge *j, game_view *v)
{
    dj_buf body, subject, when;
    dj_buf_init(&body);
    dj_buf_init(&subject);
    dj_buf_init(&when);
    gv_time(v, v->phase.deadline, &when);
    dj_report_info info = {j->cfg.judge_name, v->g.name, v->g.map,
                           when.data, false, NULL};
    dj_report_header(v->map, &v->pos->phase, &info, &body);
    dj_buf_printf(&body, "\nGame '%s' has started.\n\n", v->g.name);
    for (int p = 0; p < v->map->npowers; p++) {
        const dj_participant_rec *pl = gv_player(v, p);
        dj_buf_printf(&body, "  %-10s %s\n", gv_power_name(v, p),
                      !pl || !pl->email[0]
                          ? "(civil disorder)"
                          : dj_game_player_shown(&v->g, NULL, pl,
                                                 "(a player)"));
    }
    dj_buf_append(&body, "\n");
    gv_preference_summary(v, &body);
    dj_report_position(v->map, v->pos, &body);
    dj_buf_printf(&body, "\nThe deadline for orders is %s.\n", when.data);
    gv_subject(j, v, v->phase.name, "Game started", &subject);
    v->mail_deadline = v->phase.deadline; /* each copy: zone, .ics */
    snprintf(v->mail_phase, sizeof v->mail_phase, "%s", v->phase.name);
    int rc = dj_buf_ok(&body) && dj_buf_ok(&subject)
                 ? gv_mail_all(j, v, v->phase.id, "start", subject.data,
                               body.data, 0, true)
                 : judge_fail(j, "out of memory");
    /* Each player's own copy says which power is theirs (random powers). */
    for (int p = 0; p < v->map->npowers && rc == 0; p++) {
        const dj_participant_rec *pl = gv_player(v, p);
        if (!pl || !pl->email[0])
            continue;
        dj_buf mine;
        dj_buf_init(&mine);
        dj_buf_printf(&mine, "%s\nYou play %s.  Sign on with SIGNON %c%s "
                             "and your password.\n",
                      body.data, gv_power_name(v, p), v->map->powers[p].letter,
                      v->g.name);
        gv_preference_own(v, pl, &mine);
        rc = !dj_buf_ok(&mine) ? judge_fail(j, "out of memory")
                               : gv_mail_one(j, v, pl, v->phase.id, "start",
                                             subject.data, mine.data, NULL);
        dj_buf_free(&mine);
    }
    v->mail_deadline = 0;
    dj_buf_free(&body);
    dj_buf_free(&subject);
    dj_buf_free(&when);
    return rc;
}

static int start_game(dj_judge *j, game_view *v, bool force, dj_buf *out)
{
    if (gv_require(j, v, "forming") < 0)
        return -1;
    int unassigned, n = count_players(v, &unassigned);
    if (n > v->map->npowers)
        return judge_fail(j, "game '%s' has %d players for %d powers",
                          v->g.name, n, v->map->npowers);
    if (n < v->map->npowers && !force)
        return judge_fail(j,
                          "game '%s' has %d of %d players (start --force "
                          "fills the rest with civil-disorder dummies)",
                          v->g.name, n, v->map->npowers);
    if (deal_powers(j, v) < 0)
        return -1;
    for (int p = 0; p < v->map->npowers; p++)
        if (!gv_player(v, p) &&
            new_player(j, v, p, "", "(civil disorder)", "civil-disorder") < 0)
            return -1;
    dj_position_initial(v->map, v->pos);
    for (int p = 0; p < v->map->npowers; p++)
        if (gv_in_disorder(v, p))
            v->pos->civil_disorder |= DJ_POWER_BIT(p);
    dj_buf snap;
    dj_buf_init(&snap);
    dj_snapshot_write(v->map, v->pos, &snap);
    dj_phase_rec *ph = &v->phase;
    dj_phase_rec_free(ph);
    memset(ph, 0, sizeof *ph);
    ph->game_id = v->g.id;
    ph->seq = 0;
    dj_phase_format_short(v->pos->phase, ph->name, sizeof ph->name);
    ph->year = v->pos->phase.year;
    ph->season = v->pos->phase.season;
    ph->type = v->pos->phase.type;
    snprintf(ph->status, sizeof ph->status, "current");
    ph->opened_at = j->now;
    ph->deadline = gv_deadline(j, v, v->pos->phase.type);
    ph->position = snap.data; /* owned by snap until the insert is done */
    int rc = dj_buf_ok(&snap) ? dj_store_phase_insert(j->store, ph)
                              : dj_store_fail(j->store, "out of memory");
    ph->position = NULL;
    dj_buf_free(&snap);
    if (rc < 0)
        return judge_store_fail(j);
    v->has_phase = true;
    snprintf(v->g.state, sizeof v->g.state, "active");
    v->g.started_at = j->now;
    if (dj_store_game_set_state(j->store, &v->g) < 0)
        return judge_store_fail(j);
    if (gv_log(j, v, "start", "%s", force ? "forced" : "full") < 0 ||
        start_mail(j, v) < 0)
        return -1;
    dj_buf_printf(out, "%s: started; %s deadline ", v->g.name, ph->name);
    gv_time(v, ph->deadline, out);
    dj_buf_append(out, "\n");
    return 0;
}

/* SET PREFERENCE (preference.c), and the start it may complete. */
typedef struct pref_arg {
    const dj_signon *id;
    const char *text;
} pref_arg;

static int do_preference(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const pref_arg *a = arg;
    if (gv_set_preference(j, v, a->id, a->text, out) < 0)
        return -1;
    return gv_start_when_full(j, v, out);
}

int dj_game_set_preference(dj_judge *j, const dj_signon *id, const char *text,
                           dj_buf *out)
{
    pref_arg a = {id, text ? text : ""};
    return gv_with_game(j, id->game, do_preference, &a, out);
}

static int do_start(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    return start_game(j, v, *(bool *)arg, out);
}

int dj_game_start(dj_judge *j, const char *game, bool force, dj_buf *out)
{
    return gv_with_game(j, game, do_start, &force, out);
}

/* ---- votes ------------------------------------------------------------------------ */

/* Surviving powers: units or centres. */
static dj_power_set survivors(const game_view *v)
{
    dj_power_set m = 0;
    for (int p = 0; p < v->map->npowers; p++)
        if (dj_position_units(v->pos, p) > 0 ||
            dj_position_centres(v->map, v->pos, p) > 0)
            m |= DJ_POWER_BIT(p);
    return m;
}

/* The powers a stored draw vote includes: "draw" every survivor (DIAS),
 * "draw:MASK" the powers named; 0 when the vote is no draw. */
static dj_power_set draw_of(const game_view *v, const char *vote)
{
    unsigned long long mask;
    if (strcmp(vote, "draw") == 0)
        return survivors(v);
    if (sscanf(vote, "draw:%llx", &mask) == 1)
        return (dj_power_set)mask;
    return 0;
}

/* Surviving powers with a person to vote (not dummies). */
static dj_power_set gv_voters(const game_view *v)
{
    dj_power_set m = 0;
    for (int p = 0; p < v->map->npowers; p++) {
        int i = v->player[p];
        if (i < 0 || !v->parts[i].email[0] ||
            strcmp(v->parts[i].status, "eliminated") == 0)
            continue;
        if (dj_position_units(v->pos, p) > 0 ||
            dj_position_centres(v->map, v->pos, p) > 0)
            m |= DJ_POWER_BIT(p);
    }
    return m;
}

/* EXTEND by power p (dj_game_vote's "extend", extension = DURATION): when
 * every surviving power has voted before the deadline, it moves once a
 * phase by the game's extension, and everyone is told. */
static int extend_vote(dj_judge *j, game_view *v, int p, dj_buf *out)
{
    if (v->g.extension < 0)
        return judge_fail(j, "game '%s' has no extension to vote for "
                             "(extension = none)",
                          v->g.name);
    if (strcmp(v->g.state, "active") != 0 || !v->has_phase ||
        strcmp(v->phase.status, "current") != 0 || !v->phase.deadline)
        return judge_fail(j, "game '%s' has no deadline to extend",
                          v->g.name);
    if (j->now >= v->phase.deadline)
        return judge_fail(j, "the deadline for %s has passed: EXTEND is "
                             "voted before it",
                          v->phase.name);
    int extended = 0;
    if (dj_store_phase_extended(j->store, v->phase.id, &extended) < 0)
        return judge_store_fail(j);
    if (extended)
        return judge_fail(j, "the deadline for %s was extended already "
                             "(once a phase)",
                          v->phase.name);
    if (dj_store_extend_vote(j->store, v->phase.id, p) < 0)
        return judge_store_fail(j);
    uint64_t votes = 0;
    if (dj_store_extend_votes(j->store, v->phase.id, &votes) < 0)
        return judge_store_fail(j);
    dj_power_set who = gv_voters(v);
    if (gv_log(j, v, "vote", "%s extend", gv_power_name(v, p)) < 0)
        return -1;
    if (who & ~votes) {
        dj_buf_printf(out,
                      "%s: %s votes to extend the deadline of %s; it moves "
                      "when every surviving power has voted EXTEND\n",
                      v->g.name, gv_power_name(v, p), v->phase.name);
        return 0;
    }
    int rc = dj_store_phase_claim_extension(j->store, v->phase.id, j->now);
    if (rc == DJ_STORE_NOTFOUND)
        return 0;
    if (rc < 0)
        return judge_store_fail(j);
    int64_t deadline = v->phase.deadline + (int64_t)v->g.extension * 60;
    if (dj_store_phase_set_deadline(j->store, v->phase.id, deadline) < 0)
        return judge_store_fail(j);
    v->phase.deadline = deadline;
    dj_buf when, text;
    dj_buf_init(&when);
    dj_buf_init(&text);
    gv_time(v, deadline, &when);
    dj_buf_printf(&text,
                  "Every surviving power voted EXTEND: the deadline for %s "
                  "is now %s (extended once; the next vote is in the next "
                  "phase).\n",
                  v->phase.name, when.data);
    rc = dj_buf_ok(&text) ? gv_notice(j, v, "Deadline extended", text.data)
                          : judge_fail(j, "out of memory");
    if (rc == 0)
        rc = gv_log(j, v, "extend", "%s: deadline %s", v->phase.name,
                    when.data);
    if (rc == 0)
        dj_buf_printf(out, "%s: every surviving power voted EXTEND; the "
                           "deadline for %s is now %s\n",
                      v->g.name, v->phase.name, when.data);
    dj_buf_free(&when);
    dj_buf_free(&text);
    return rc;
}

static void names_of(const game_view *v, dj_power_set mask, dj_buf *out)
{
    int n = 0, total = __builtin_popcountll(mask);
    for (int p = 0; p < v->map->npowers; p++)
        if (mask >> p & 1u) {
            n++;
            dj_buf_printf(out, "%s%s",
                          n == 1 ? "" : n == total ? " and " : ", ",
                          gv_power_name(v, p));
        }
}

/* Has the game ended by the votes on file?  Ends it if so. */
static int check_votes(dj_judge *j, game_view *v, dj_buf *out)
{
    dj_power_set who = gv_voters(v);
    if (!who)
        return 0;
    /* A draw: every voter votes for the same powers. */
    dj_power_set drawn = 0;
    bool all_draw = true;
    for (int p = 0; p < v->map->npowers && all_draw; p++) {
        if (!(who >> p & 1u))
            continue;
        dj_power_set d = draw_of(v, gv_player(v, p)->vote);
        if (!d || (drawn && d != drawn))
            all_draw = false;
        drawn = d;
    }
    dj_buf ending;
    dj_buf_init(&ending);
    if (all_draw && drawn == survivors(v)) {
        dj_buf_append(&ending, "Draw declared by ");
        names_of(v, who, &ending);
        dj_buf_append(&ending, ".");
    } else if (all_draw) {
        dj_buf_append(&ending, "Draw declared between ");
        names_of(v, drawn, &ending);
        dj_buf_append(&ending, ", by the vote of every surviving power.");
    } else {
        for (int w = 0; w < v->map->npowers && !ending.len; w++) {
            if (!(who >> w & 1u))
                continue;
            char want[24];
            snprintf(want, sizeof want, "concede:%d", w);
            bool all = __builtin_popcountll(who) > 1;
            for (int p = 0; p < v->map->npowers; p++)
                if (p != w && (who >> p & 1u) &&
                    strcmp(gv_player(v, p)->vote, want) != 0)
                    all = false;
            if (all) {
                dj_buf_printf(&ending, "%s wins: conceded by ",
                              gv_power_name(v, w));
                names_of(v, who & ~DJ_POWER_BIT(w), &ending);
                dj_buf_append(&ending, ".");
            }
        }
    }
    int rc = 0;
    if (ending.len) {
        rc = gv_end_game(j, v, ending.data);
        if (rc == 0)
            rc = gv_log(j, v, "end", "%s", ending.data);
        if (rc == 0)
            dj_buf_printf(out, "%s: %s\n", v->g.name, ending.data);
    }
    dj_buf_free(&ending);
    return rc;
}

typedef struct vote_arg {
    const char *power;
    const char *vote;
} vote_arg;

/* "draw [POWER...]" into a stored vote: "draw", or "draw:MASK" for a
 * named draw (named draws only, at least two surviving powers). */
static int parse_draw(dj_judge *j, const game_view *v, const char *names,
                      char *vote, size_t len)
{
    while (*names == ' ')
        names++;
    if (!*names) {
        snprintf(vote, len, "draw");
        return 0;
    }
    if (strcmp(v->g.draw, "named") != 0)
        return judge_fail(j, "in game '%s' a draw includes every surviving "
                             "power (draw=dias): vote a draw without "
                             "naming powers",
                          v->g.name);
    char copy[256];
    snprintf(copy, sizeof copy, "%s", names);
    dj_power_set mask = 0, alive = survivors(v);
    char *save = NULL;
    for (char *w = strtok_r(copy, " ,", &save); w;
         w = strtok_r(NULL, " ,", &save)) {
        if (strcasecmp(w, "and") == 0)
            continue;
        int p = gv_power(j, v, w);
        if (p < 0)
            return -1;
        if (!(alive >> p & 1u))
            return judge_fail(j, "%s is out of the game: a draw is between "
                                 "surviving powers",
                              gv_power_name(v, p));
        mask |= DJ_POWER_BIT(p);
    }
    if (__builtin_popcountll(mask) < 2)
        return judge_fail(j, "a draw names at least two surviving powers "
                             "(to give the game to one, SET CONCEDE it)");
    snprintf(vote, len, "draw:%llx", (unsigned long long)mask);
    return 0;
}

/* "draw", "draw between France and Germany", "concede to Russia". */
static void vote_words(const game_view *v, const char *vote, dj_buf *out)
{
    int to;
    dj_power_set d = draw_of(v, vote);
    if (strcmp(vote, "draw") == 0) {
        dj_buf_append(out, "a draw of every surviving power");
    } else if (d) {
        dj_buf_append(out, "a draw between ");
        names_of(v, d, out);
    } else if (sscanf(vote, "concede:%d", &to) == 1 && to >= 0 &&
               to < v->map->npowers) {
        dj_buf_printf(out, "conceding the game to %s", gv_power_name(v, to));
    } else {
        dj_buf_append(out, "no draw or concession");
    }
}

static int do_vote(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const vote_arg *a = arg;
    if (gv_require(j, v, "active paused") < 0)
        return -1;
    int p = gv_power(j, v, a->power);
    if (p < 0)
        return -1;
    dj_participant_rec *pl = gv_player(v, p);
    if (!pl || !pl->email[0])
        return judge_fail(j, "%s has no player to vote", gv_power_name(v, p));
    if (strcmp(a->vote, "extend") == 0)
        return extend_vote(j, v, p, out);
    char vote[24];
    if (strcmp(a->vote, "none") == 0) {
        vote[0] = '\0';
    } else if (strcmp(a->vote, "draw") == 0 ||
               strncmp(a->vote, "draw ", 5) == 0) {
        if (parse_draw(j, v, a->vote + 4, vote, sizeof vote) < 0)
            return -1;
    } else if (strncmp(a->vote, "concede ", 8) == 0) {
        int to = gv_power(j, v, a->vote + 8);
        if (to < 0)
            return -1;
        if (to == p)
            return judge_fail(j, "a power cannot concede to itself");
        snprintf(vote, sizeof vote, "concede:%d", to);
    } else {
        return judge_fail(j, "vote 'draw [POWER...]', 'concede POWER', "
                             "'extend' or 'none', got '%s'", a->vote);
    }
    snprintf(pl->vote, sizeof pl->vote, "%s", vote);
    if (dj_store_participant_update(j->store, pl) < 0)
        return judge_store_fail(j);
    dj_buf words;
    dj_buf_init(&words);
    vote_words(v, vote, &words);
    int rc = gv_log(j, v, "vote", "%s %s", gv_power_name(v, p), words.data);
    if (rc == 0)
        dj_buf_printf(out, "%s: %s votes for %s\n", v->g.name,
                      gv_power_name(v, p), words.data);
    /* Public votes: everyone hears of each one as it is cast. */
    if (rc == 0 && strcmp(v->g.votes, "public") == 0) {
        char text[512];
        snprintf(text, sizeof text, "%s votes for %s.  (Votes in this game "
                                    "are public.)",
                 gv_power_name(v, p), dj_buf_ok(&words) ? words.data : "?");
        rc = gv_notice(j, v, "Vote", text);
    }
    dj_buf_free(&words);
    return rc < 0 ? -1 : check_votes(j, v, out);
}

int dj_game_vote(dj_judge *j, const char *game, const char *power,
                 const char *vote, dj_buf *out)
{
    vote_arg a = {power, vote};
    return gv_with_game(j, game, do_vote, &a, out);
}

/* ---- absences ---------------------------------------------------------------------- */

typedef struct absence_arg {
    const char *power, *from, *to;
} absence_arg;

static int do_absence(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const absence_arg *a = arg;
    if (gv_require(j, v, "forming active paused") < 0)
        return -1;
    int p = gv_power(j, v, a->power);
    if (p < 0)
        return -1;
    dj_participant_rec *pl = gv_player(v, p);
    if (!pl)
        return judge_fail(j, "%s has no player", gv_power_name(v, p));
    if (strcmp(a->from, "clear") == 0) {
        dj_absence_rec *recs = NULL;
        int n = 0;
        if (dj_store_absence_list(j->store, v->g.id, 0, &recs, &n) < 0)
            return judge_store_fail(j);
        int rc = 0;
        for (int i = 0; i < n && rc == 0; i++)
            if (recs[i].participant_id == pl->id &&
                dj_store_absence_delete(j->store, pl->id, recs[i].id) < 0)
                rc = judge_store_fail(j);
        free(recs);
        if (rc == 0)
            dj_buf_printf(out, "%s: absences of %s cleared\n", v->g.name,
                          gv_power_name(v, p));
        return rc < 0 ? -1 : gv_log(j, v, "absence", "%s cleared",
                                    gv_power_name(v, p));
    }
    int64_t from, to;
    char why[256];
    if (dj_time_parse(v->zone, a->from, j->now, &from, why, sizeof why) < 0)
        return judge_fail(j, "absence start: %s", why);
    if (!a->to)
        to = from + 86400; /* one day, as "SET ABSENCE date" by mail */
    else if (dj_time_parse(v->zone, a->to, j->now, &to, why, sizeof why) < 0)
        return judge_fail(j, "absence end: %s", why);
    if (to <= from)
        return judge_fail(j, "an absence must end after it starts");
    /* the game's absence_limit (days; 0: none) bounds one absence */
    int limit = v->sched.absence_limit;
    if (limit > 0 && to - from > (int64_t)limit * 86400)
        return judge_fail(j,
                          "an absence of %lld days is longer than this "
                          "game's absence_limit of %d day%s: send a shorter "
                          "one, or ask the master (SET absence_limit)",
                          (long long)((to - from + 86399) / 86400), limit,
                          limit == 1 ? "" : "s");
    if (dj_store_absence_insert(j->store, pl->id, from, to) < 0)
        return judge_store_fail(j);
    dj_buf_printf(out, "%s: %s absent from ", v->g.name, gv_power_name(v, p));
    gv_time(v, from, out);
    dj_buf_append(out, " to ");
    gv_time(v, to, out);
    dj_buf_append(out, "\n");
    /* A current deadline inside the absence moves to its end, snapped to
     * the schedule, unless that is past the absence limit. */
    if (v->has_phase && strcmp(v->phase.status, "current") == 0 &&
        v->phase.deadline >= from && v->phase.deadline < to) {
        int64_t d = dj_deadline_snap(&v->sched, v->zone, to);
        int64_t cap = (int64_t)v->sched.absence_limit * 86400;
        if (!cap || d - v->phase.deadline <= cap) {
            if (dj_store_phase_set_deadline(j->store, v->phase.id, d) < 0)
                return judge_store_fail(j);
            dj_buf_printf(out, "%s: deadline of %s moved to ", v->g.name,
                          v->phase.name);
            gv_time(v, d, out);
            dj_buf_append(out, "\n");
        }
    }
    return gv_log(j, v, "absence", "%s %s..%s", gv_power_name(v, p), a->from,
                  a->to ? a->to : "+1d");
}

int dj_game_absence(dj_judge *j, const char *game, const char *power,
                    const char *from, const char *to, dj_buf *out)
{
    absence_arg a = {power, from, to};
    return gv_with_game(j, game, do_absence, &a, out);
}

/* ---- pause, resume, terminate -------------------------------------------------------- */

static int do_pause(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    (void)arg;
    if (gv_require(j, v, "active") < 0)
        return -1;
    snprintf(v->g.state, sizeof v->g.state, "paused");
    v->g.paused_at = j->now;
    if (dj_store_game_set_state(j->store, &v->g) < 0)
        return judge_store_fail(j);
    if (gv_log(j, v, "pause", "%s", v->phase.name) < 0 ||
        gv_notice(j, v, "Paused",
               "The game master has paused the game: no deadline will "
               "pass until it resumes.") < 0)
        return -1;
    dj_buf_printf(out, "%s: paused\n", v->g.name);
    return 0;
}

typedef struct official_arg {
    const char *text;
} official_arg;

static int do_official(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const official_arg *a = arg;
    if (gv_notice(j, v, "Official notice", a->text) < 0)
        return -1;
    dj_buf_printf(out, "The notice went to everyone in game '%s'.\n",
                  v->g.name);
    return 0;
}

int dj_game_official(dj_judge *j, const char *game, const char *text,
                     dj_buf *out)
{
    official_arg a = {text};
    return gv_with_game(j, game, do_official, &a, out);
}

int dj_game_pause(dj_judge *j, const char *game, dj_buf *out)
{
    return gv_with_game(j, game, do_pause, NULL, out);
}

static int do_resume(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    (void)arg;
    if (gv_require(j, v, "paused") < 0)
        return -1;
    snprintf(v->g.state, sizeof v->g.state, "active");
    v->g.paused_at = 0;
    if (dj_store_game_set_state(j->store, &v->g) < 0)
        return judge_store_fail(j);
    /* A deadline that passed while paused starts afresh from now. */
    if (v->phase.deadline && v->phase.deadline <= j->now) {
        v->phase.deadline = gv_deadline(j, v, v->pos->phase.type);
        if (dj_store_phase_set_deadline(j->store, v->phase.id,
                                        v->phase.deadline) < 0)
            return judge_store_fail(j);
    }
    if (gv_log(j, v, "resume", "%s", v->phase.name) < 0 ||
        gv_notice(j, v, "Resumed", "The game master has resumed the game.") < 0)
        return -1;
    dj_buf_printf(out, "%s: resumed; %s deadline ", v->g.name, v->phase.name);
    gv_time(v, v->phase.deadline, out);
    dj_buf_append(out, "\n");
    return 0;
}

int dj_game_resume(dj_judge *j, const char *game, dj_buf *out)
{
    return gv_with_game(j, game, do_resume, NULL, out);
}

static int do_terminate(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const char *reason = arg;
    if (gv_require(j, v, "forming active paused") < 0)
        return -1;
    char ending[DJ_STORE_TEXT_MAX];
    snprintf(ending, sizeof ending, "Terminated by the game master%s%s%s",
             reason && *reason ? ": " : ".", reason ? reason : "",
             reason && *reason ? "." : "");
    if (gv_end_game(j, v, ending) < 0 ||
        gv_log(j, v, "terminate", "%s", reason ? reason : "") < 0)
        return -1;
    dj_buf_printf(out, "%s: %s\n", v->g.name, ending);
    return 0;
}

int dj_game_terminate(dj_judge *j, const char *game, const char *reason,
                      dj_buf *out)
{
    return gv_with_game(j, game, do_terminate, (void *)reason, out);
}

/* ---- replace and eject ---------------------------------------------------------------- */

typedef struct replace_arg {
    const char *power, *email, *name, *password;
} replace_arg;

/* The new player is mailed the power, the password and how to sign on. */
static int welcome_mail(dj_judge *j, game_view *v, int p, const char *email,
                        const char *password)
{
    dj_buf body, subject;
    dj_buf_init(&body);
    dj_buf_init(&subject);
    dj_buf_printf(&body,
                  "Welcome to game '%s': the game master has given you %s.\n"
                  "\nYour password: %s\n"
                  "Sign on with:   SIGNON %c%s %s\n"
                  "then write your orders, one a line.  Change the password "
                  "with SET PASSWORD.\n",
                  v->g.name, gv_power_name(v, p), password,
                  v->map->powers[p].letter, v->g.name, password);
    if (v->phase.deadline) {
        dj_buf_printf(&body, "\nThe current phase is %s; deadline ",
                      v->phase.name);
        gv_time(v, v->phase.deadline, &body);
        dj_buf_append(&body, ".\n");
    }
    gv_subject(j, v, v->phase.name, "Welcome", &subject);
    int rc = 0;
    if (!dj_buf_ok(&body) || !dj_buf_ok(&subject))
        rc = judge_fail(j, "out of memory");
    else if (dj_store_outbox_add(j->store, v->g.id, 0, "notice", email,
                                 subject.data, body.data, j->now) < 0)
        rc = judge_store_fail(j);
    dj_buf_free(&body);
    dj_buf_free(&subject);
    return rc;
}

static int do_replace(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const replace_arg *a = arg;
    if (gv_require(j, v, "active paused") < 0)
        return -1;
    int p = gv_power(j, v, a->power);
    if (p < 0)
        return -1;
    dj_participant_rec *old = gv_player(v, p);
    bool eject = !a->email;
    if (eject && (!old || !old->email[0]))
        return judge_fail(j, "%s has no player to eject",
                          gv_power_name(v, p));
    char was[DJ_EMAIL_MAX] = "(dummy)";
    /* a new player for a power in civil disorder takes it over (the
     * answer to a TAKEOVER the master approves) */
    bool from_disorder = gv_in_disorder(v, p);
    if (old) {
        if (old->email[0])
            snprintf(was, sizeof was, "%s", old->email);
        if (retire_player(j, v, old, eject ? "resigned" : "replaced") < 0)
            return -1;
    }
    if (eject) {
        if (new_player(j, v, p, "", "(civil disorder)", "civil-disorder") < 0 ||
            gv_log(j, v, "eject", "%s %s", gv_power_name(v, p), was) < 0)
            return -1;
        char text[256];
        snprintf(text, sizeof text,
                 "The game master has removed the player of %s: %s is in "
                 "civil disorder until a replacement is found.",
                 gv_power_name(v, p), gv_power_name(v, p));
        if (gv_notice(j, v, "Player ejected", text) < 0)
            return -1;
        dj_buf_printf(out, "%s: %s ejected; %s is in civil disorder\n",
                      v->g.name, was, gv_power_name(v, p));
        return 0;
    }
    char password[64];
    if (a->password && *a->password)
        snprintf(password, sizeof password, "%s", a->password);
    else if (dj_password_generate(password, sizeof password) < 0)
        return judge_fail(j, "cannot make a password: no random source");
    if (new_player_with(j, v, p, a->email, a->name, "playing", password) < 0 ||
        (from_disorder &&
         gv_player_event(j, v, a->email, "takeover") < 0) ||
        gv_log(j, v, "replace", "%s %s by %s", gv_power_name(v, p), was,
               a->email) < 0 ||
        welcome_mail(j, v, p, a->email, password) < 0)
        return -1;
    char text[256];
    snprintf(text, sizeof text,
             "%s has a new player.  Welcome!  (The game master replaced "
             "the previous one.)",
             gv_power_name(v, p));
    if (gv_notice(j, v, "Player replaced", text) < 0)
        return -1;
    dj_buf_printf(out, "%s: %s now plays %s; the password was mailed to "
                       "them\n",
                  v->g.name, a->email, gv_power_name(v, p));
    return 0;
}

int dj_game_replace(dj_judge *j, const char *game, const char *power,
                    const char *email, const char *name, const char *password,
                    dj_buf *out)
{
    if (!email || !*email)
        return judge_fail(j, "an address is needed for the new player");
    replace_arg a = {power, email, name, password};
    return gv_with_game(j, game, do_replace, &a, out);
}

/* ---- takeovers --------------------------------------------------------------- */

typedef struct takeover_arg {
    const char *power, *email, *password, *hash;
} takeover_arg;

static int do_takeover(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const takeover_arg *a = arg;
    if (gv_require(j, v, "active paused") < 0)
        return -1;
    if (strcmp(v->g.takeover, "no") == 0)
        return judge_fail(j, "game '%s' does not take volunteers for powers "
                             "in civil disorder (ask its master, who may "
                             "REPLACE a player)",
                          v->g.name);
    int p = gv_power(j, v, a->power);
    if (p < 0)
        return -1;
    if (!gv_in_disorder(v, p) || !(survivors(v) >> p & 1u))
        return judge_fail(j, "%s is not in civil disorder: it cannot be "
                             "taken over",
                          gv_power_name(v, p));
    for (int q = 0; q < v->map->npowers; q++) {
        const dj_participant_rec *pl = gv_player(v, q);
        if (q != p && pl && gv_has_address(pl, a->email) &&
            strcmp(pl->status, "playing") == 0)
            return judge_fail(j, "you already play %s in game '%s'",
                              gv_power_name(v, q), v->g.name);
    }
    char text[DJ_EMAIL_MAX + 256];
    if (strcmp(v->g.takeover, "approve") == 0) {
        /* the master decides with the volunteer's reliability figures */
        dj_buf ask;
        dj_buf_init(&ask);
        dj_buf_printf(&ask,
                      "%s volunteers to take over %s, in civil disorder.  "
                      "To accept, REPLACE %s %s (the judge mails them a "
                      "password); otherwise do nothing.\n\nReliability "
                      "figures of ",
                      a->email, gv_power_name(v, p), gv_power_name(v, p),
                      a->email);
        int rc = dj_game_player_stats(j, a->email, NULL, false, &ask);
        if (rc == 0 && !dj_buf_ok(&ask))
            rc = judge_fail(j, "out of memory");
        if (rc == 0)
            rc = gv_log(j, v, "takeover-asked", "%s by %s",
                        gv_power_name(v, p), a->email);
        if (rc == 0)
            rc = gv_notify_masters(j, v, "Takeover request", ask.data);
        dj_buf_free(&ask);
        if (rc < 0)
            return -1;
        dj_buf_printf(out, "%s: your offer to take over %s has gone to the "
                           "game master, who will answer\n",
                      v->g.name, gv_power_name(v, p));
        return 0;
    }
    dj_participant_rec *old = gv_player(v, p);
    if (old && retire_player(j, v, old, "replaced") < 0)
        return -1;
    if (new_participant(j, v, "player", p, a->email, "", "playing",
                        a->password, a->hash) < 0 ||
        gv_log(j, v, "takeover", "%s by %s", gv_power_name(v, p),
               a->email) < 0 ||
        gv_player_event(j, v, a->email, "takeover") < 0)
        return -1;
    snprintf(text, sizeof text,
             "%s has a new player, who took it over from civil disorder.  "
             "Welcome!",
             gv_power_name(v, p));
    if (gv_notice(j, v, "Player replaced", text) < 0)
        return -1;
    dj_buf_printf(out, "%s: you now play %s; sign on with SIGNON %c%s and "
                       "your password\n",
                  v->g.name, gv_power_name(v, p), v->map->powers[p].letter,
                  v->g.name);
    return 0;
}

int dj_game_takeover(dj_judge *j, const char *game, const char *power,
                     const char *email, const char *password,
                     const char *password_hash, dj_buf *out)
{
    takeover_arg a = {power, email, password, password_hash};
    return gv_with_game(j, game, do_takeover, &a, out);
}

/* ---- a new master ---------------------------------------------------------------- */

typedef struct hand_over_arg {
    int64_t master_id;
    const char *to;
} hand_over_arg;

/* Can `to` become a master of the game: an address, and neither a master
 * nor a player of it already? */
static int check_new_master(dj_judge *j, const game_view *v, const char *to)
{
    if (!gv_address_ok(to))
        return judge_fail(j, "'%s' is not a mail address", to);
    for (int i = 0; i < v->nparts; i++) {
        const dj_participant_rec *p = &v->parts[i];
        if (!gv_has_address(p, to) ||
            strcmp(p->status, "resigned") == 0 ||
            strcmp(p->status, "replaced") == 0)
            continue;
        if (strcmp(p->role, "master") == 0)
            return judge_fail(j, "%s is a master of game '%s' already", to,
                              v->g.name);
        if (strcmp(p->role, "player") == 0)
            return judge_fail(j, "%s plays in game '%s': a player cannot "
                                 "be its master",
                              to, v->g.name);
    }
    return 0;
}

static int do_hand_over(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const hand_over_arg *a = arg;
    if (gv_require(j, v, "forming active paused") < 0)
        return -1;
    dj_participant_rec *old = NULL;
    for (int i = 0; i < v->nparts && !old; i++)
        if (v->parts[i].id == a->master_id &&
            strcmp(v->parts[i].role, "master") == 0 &&
            strcmp(v->parts[i].status, "playing") == 0)
            old = &v->parts[i];
    if (!old)
        return judge_fail(j, "the master who handed game '%s' on is no "
                             "longer its master: the handover lapsed",
                          v->g.name);
    if (check_new_master(j, v, a->to) < 0)
        return -1;
    char from[DJ_EMAIL_MAX];
    snprintf(from, sizeof from, "%s", old->email);
    char password[64];
    if (dj_password_generate(password, sizeof password) < 0)
        return judge_fail(j, "cannot make a password: no random source");
    if (retire_player(j, v, old, "replaced") < 0 ||
        new_participant(j, v, "master", -1, a->to, "", "playing", password,
                        NULL) < 0 ||
        gv_log(j, v, "master", "%s handed over to %s", from, a->to) < 0)
        return -1;
    char text[2 * DJ_EMAIL_MAX + 128];
    snprintf(text, sizeof text, "%s is now the game master, in place of %s.",
             a->to, from);
    if (gv_tell(j, v, NULL, true, "New master", text) < 0)
        return -1;
    snprintf(text, sizeof text, "you are no longer its master: %s confirmed "
                                "and runs the game from now on.",
             a->to);
    if (from[0] && gv_tell(j, v, from, false, "New master", text) < 0)
        return -1;
    dj_buf_printf(out, "%s: you are now the master of game '%s'.\n"
                       "Your password: %s\n"
                       "Sign on with:  SIGNON M%s %s\n"
                       "Change the password with SET PASSWORD.\n",
                  v->g.name, v->g.name, password, v->g.name, password);
    return 0;
}

int dj_game_hand_over(dj_judge *j, const char *game, int64_t master_id,
                      const char *to, dj_buf *out)
{
    hand_over_arg a = {master_id, to};
    return gv_with_game(j, game, do_hand_over, &a, out);
}

/* PROMOTE, confirmed: `to` becomes a second master beside the one who
 * promoted it (who must still be a master); an observer at that address
 * stops observing (a master hears everything anyway). */
static int do_promote(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const hand_over_arg *a = arg;
    if (gv_require(j, v, "forming active paused") < 0)
        return -1;
    dj_participant_rec *by = NULL;
    for (int i = 0; i < v->nparts && !by; i++)
        if (v->parts[i].id == a->master_id &&
            strcmp(v->parts[i].role, "master") == 0 &&
            strcmp(v->parts[i].status, "playing") == 0)
            by = &v->parts[i];
    if (!by)
        return judge_fail(j, "the master who promoted you in game '%s' is "
                             "no longer its master: the promotion lapsed",
                          v->g.name);
    if (check_new_master(j, v, a->to) < 0)
        return -1;
    char from[DJ_EMAIL_MAX];
    snprintf(from, sizeof from, "%s", by->email);
    for (int i = 0; i < v->nparts; i++) {
        dj_participant_rec *p = &v->parts[i];
        if (strcmp(p->role, "observer") == 0 &&
            strcasecmp(p->email, a->to) == 0 &&
            strcmp(p->status, "resigned") != 0 &&
            strcmp(p->status, "replaced") != 0 &&
            retire_player(j, v, p, "replaced") < 0)
            return -1;
    }
    char password[64];
    if (dj_password_generate(password, sizeof password) < 0)
        return judge_fail(j, "cannot make a password: no random source");
    if (new_participant(j, v, "master", -1, a->to, "", "playing", password,
                        NULL) < 0 ||
        gv_log(j, v, "master", "%s promoted %s to co-master", from, a->to) < 0)
        return -1;
    char text[2 * DJ_EMAIL_MAX + 128];
    snprintf(text, sizeof text, "%s is now a game master too, beside %s.",
             a->to, from);
    if (gv_tell(j, v, NULL, true, "New co-master", text) < 0)
        return -1;
    dj_buf_printf(out, "%s: you are now a master of game '%s', beside %s.\n"
                       "Your password: %s\n"
                       "Sign on with:  SIGNON M%s %s\n"
                       "Change the password with SET PASSWORD.\n",
                  v->g.name, v->g.name, from, password, v->g.name, password);
    return 0;
}

int dj_game_promote(dj_judge *j, const char *game, int64_t master_id,
                    const char *to, dj_buf *out)
{
    hand_over_arg a = {master_id, to};
    return gv_with_game(j, game, do_promote, &a, out);
}


int dj_game_eject(dj_judge *j, const char *game, const char *power,
                  dj_buf *out)
{
    replace_arg a = {power, NULL, NULL, NULL};
    return gv_with_game(j, game, do_replace, &a, out);
}

/* ---- resigning by mail ------------------------------------------------------------------ */

/*
 * A player leaves: in a forming game the place is simply free again; in a
 * running one the power goes to a civil-disorder dummy (as an eject) and
 * everyone is told, so the master can look for a replacement.  Observers
 * stop observing.  A master cannot resign this way: a game must keep one.
 */
static int do_resign(dj_judge *j, game_view *v, void *arg, dj_buf *out)
{
    const dj_signon *id = arg;
    dj_participant_rec *p = gv_live_participant(j, v, id->participant_id);
    if (!p)
        return -1;
    if (strcmp(p->role, "master") == 0)
        return judge_fail(j, "a master cannot resign by mail; the judge's "
                             "administrator can change the master");
    if (gv_require(j, v, "forming active paused") < 0)
        return -1;
    int power = strcmp(p->role, "player") == 0 ? p->power : -1;
    bool running = strcmp(v->g.state, "forming") != 0 && power >= 0;
    char was[DJ_EMAIL_MAX];
    snprintf(was, sizeof was, "%s", p->email);
    if (retire_player(j, v, p, "resigned") < 0)
        return -1;
    if (running &&
        new_player(j, v, power, "", "(civil disorder)", "civil-disorder") < 0)
        return -1;
    if (gv_log(j, v, "resign", "%s %s", power >= 0 ? gv_power_name(v, power)
                                                   : p->role, was) < 0)
        return -1;
    if (!running) {
        dj_buf_printf(out, "%s: %s has left the game\n", v->g.name, was);
        return gv_reload_parts(j, v);
    }
    char text[256];
    snprintf(text, sizeof text,
             "The player of %s has resigned: %s is in civil disorder until "
             "the game master finds a replacement.",
             gv_power_name(v, power), gv_power_name(v, power));
    if (gv_notice(j, v, "Player resigned", text) < 0)
        return -1;
    dj_buf_printf(out, "%s: %s has resigned; %s is in civil disorder\n",
                  v->g.name, was, gv_power_name(v, power));
    return 0;
}

int dj_game_resign(dj_judge *j, const dj_signon *id, dj_buf *out)
{
    return gv_with_game(j, id->game, do_resign, (void *)id, out);
}
