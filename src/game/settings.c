/* SPDX-License-Identifier: MIT */
/*
 * settings.c — creating a game and changing its settings.
 *
 * Settings are "key=value" words, the same for `judgectl create` and
 * `judgectl set` and SET by mail, with the names judge.conf uses for the
 * defaults of new games: the one table of store/settings_table.h, parsed
 * by game/setting_value.c.  Three words are not settings but act on the
 * game: map (forming games only), rule (a DATC option) and deadline.  All
 * settings of one call are checked before any is saved: a call either
 * changes everything it names or nothing.  The rules in force (the map's
 * and the game's) must be implemented by the game's engine and by its
 * verifying engine (dj_engine_check_rules).
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rules_map.h"
#include "game/forming.h"
#include "game/game.h"
#include "game/game_int.h"
#include "game/game_options.h"
#include "game/process.h"
#include "game/setting_value.h"

static bool game_name_ok(const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len >= DJ_GAME_NAME_MAX || !isalnum((unsigned char)*name))
        return false;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
            return false;
    return true;
}

/* Drop the override of one rule (by canonical name) from a rules string. */
static void drop_rule(char *rules, size_t len, const char *name)
{
    char out[DJ_STORE_TEXT_MAX] = "", copy[DJ_STORE_TEXT_MAX];
    snprintf(copy, sizeof copy, "%s", rules);
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w;
         w = strtok_r(NULL, " ", &save)) {
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)strcspn(w, "="), w);
        const dj_rule_info *ri = dj_rule_find(key);
        if (ri && strcmp(ri->name, name) == 0)
            continue;
        size_t used = strlen(out);
        snprintf(out + used, sizeof out - used, "%s%s", used ? " " : "", w);
    }
    snprintf(rules, len, "%s", out);
}

static int set_rule(dj_judge *j, dj_game_rec *g, const char *value)
{
    if (strcmp(value, "none") == 0) {
        g->rules[0] = '\0';
        return 0;
    }
    char key[64];
    const char *eq = strchr(value, '=');
    if (!eq)
        return judge_fail(j, "rule needs NAME=VALUE, got '%s'", value);
    snprintf(key, sizeof key, "%.*s", (int)(eq - value), value);
    const dj_rule_info *ri = dj_rule_find(key);
    if (!ri)
        return judge_fail(j, "unknown rule option '%s' (see judgectl rules)",
                          key);
    drop_rule(g->rules, sizeof g->rules, ri->name);
    if (strcmp(eq + 1, "default") == 0)
        return 0;
    dj_rules scratch;
    char why[256], word[128];
    dj_rules_default(&scratch);
    snprintf(word, sizeof word, "%s=%s", ri->name, eq + 1);
    if (dj_rule_assign(&scratch, word, why, sizeof why) < 0)
        return judge_fail(j, "%s", why);
    size_t used = strlen(g->rules);
    if (used + strlen(word) + 2 > sizeof g->rules)
        return judge_fail(j, "too many rule overrides");
    snprintf(g->rules + used, sizeof g->rules - used, "%s%s", used ? " " : "",
             word);
    return 0;
}

/*
 * Apply one "key=value" to g.  `deadline` receives a new deadline for the
 * current phase (NULL when the game has none).  `forming` allows map.
 */
static int apply_setting(dj_judge *j, dj_game_rec *g, const char *kv,
                         bool forming, int64_t *deadline)
{
    char key[64];
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv)
        return judge_fail(j, "setting '%s' is not KEY=VALUE", kv);
    snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
    const char *v = eq + 1;
    char why[256];
    const dj_setting_info *si = dj_setting_find(key);
    if (si) {
        if (!forming && strcmp(si->name, "deal_seed") == 0)
            return judge_fail(j, "the deal_seed of a started game cannot "
                                 "change: it says how its powers were "
                                 "dealt");
        if (dj_setting_parse(si, v, g, why, sizeof why) < 0)
            return judge_fail(j, "%s", why);
    } else if (!strcmp(key, "map")) {
        if (!forming)
            return judge_fail(j, "the map of a started game cannot change");
        if (!judge_map(j, v))
            return -1;
        snprintf(g->map, sizeof g->map, "%s", v);
    } else if (!strcmp(key, "rule")) {
        return set_rule(j, g, v);
    } else if (!strcmp(key, "deadline")) {
        if (!deadline)
            return judge_fail(j, "game '%s' has no phase to set a deadline "
                                 "for", g->name);
        dj_zone *z = malloc(sizeof *z);
        if (!z)
            return judge_fail(j, "out of memory");
        dj_zone_load(g->zone, z, why, sizeof why);
        int rc = dj_time_parse(z, v, j->now, deadline, why, sizeof why);
        free(z);
        if (rc < 0)
            return judge_fail(j, "deadline: %s", why);
    } else {
        return judge_fail(j, "unknown setting '%s' (see judgectl help set)",
                          key);
    }
    return 0;
}

/* Do the game's engine and its verifying engine implement its rules? */
static int check_engines(dj_judge *j, const char *who, const dj_game_rec *g,
                         const dj_rules *rules)
{
    char why[256];
    if (dj_engine_check_rules(dj_game_engine(g), rules, why, sizeof why) < 0)
        return judge_fail(j, "%s (engine): %s", who, why);
    int verifier = dj_game_verifier(g);
    if (verifier >= 0 &&
        dj_engine_check_rules((dj_engine)verifier, rules, why, sizeof why) < 0)
        return judge_fail(j, "%s (verify): %s", who, why);
    return 0;
}

static int check_engines_of(dj_judge *j, const dj_game_rec *g,
                            const dj_rules *rules)
{
    char who[DJ_GAME_NAME_MAX + 16];
    snprintf(who, sizeof who, "game '%s'", g->name);
    return check_engines(j, who, g, rules);
}

int judge_check_game_defaults(dj_judge *j)
{
    const dj_game_rec *g = &j->cfg.game;
    /* victory, end_year, extension: against the default map */
    if (g->victory || g->end_year || g->extension == 0) {
        const dj_map *map = judge_map(j, g->map);
        if (!map)
            j->err[0] = '\0'; /* not this check's business: create says */
        else if (gv_check_options(j, g, map, 0) < 0)
            return -1;
    }
    bool all = true;
    int verifier = dj_game_verifier(g);
    for (int r = 0; r < DJ_RULE_COUNT; r++)
        all = all && dj_engine_implements(dj_game_engine(g), (dj_rule_id)r) &&
              (verifier < 0 ||
               dj_engine_implements((dj_engine)verifier, (dj_rule_id)r));
    if (all)
        return 0; /* nothing a map could ask for is refused */
    const dj_map *map = judge_map(j, g->map);
    dj_rules rules;
    if (!map || gv_rules(j, map, "", &rules) < 0) {
        j->err[0] = '\0'; /* not this check's business: create says */
        return 0;
    }
    char who[DJ_STORE_TEXT_MAX];
    snprintf(who, sizeof who, "new games on map %s", g->map);
    return check_engines(j, who, g, &rules);
}

/* Apply all settings to a copy, then check the rules build on the map and
 * that its engines implement them. */
static int apply_all(dj_judge *j, dj_game_rec *g, const char *const *settings,
                     int n, bool forming, int64_t *deadline, int year)
{
    dj_game_rec copy = *g;
    for (int i = 0; i < n; i++)
        if (apply_setting(j, &copy, settings[i], forming, deadline) < 0)
            return -1;
    /* blind: who saw what cannot be undone, nor sight given back */
    if (!forming && copy.blind != g->blind)
        return judge_fail(j, "blind can only change while game '%s' forms",
                          g->name);
    const dj_map *map = judge_map(j, copy.map);
    dj_rules rules;
    if (!map || gv_rules(j, map, copy.rules, &rules) < 0 ||
        check_engines_of(j, &copy, &rules) < 0 ||
        gv_check_options(j, &copy, map, year) < 0)
        return -1;
    *g = copy;
    return 0;
}

int dj_game_create(dj_judge *j, const char *name, const char *map,
                   const char *master, const char *const *settings,
                   int nsettings, dj_buf *out)
{
    j->err[0] = '\0';
    if (!game_name_ok(name))
        return judge_fail(j, "bad game name '%s': 1 to 32 letters, digits, "
                             "'_' or '-', starting with a letter or digit",
                          name);
    dj_game_rec g;
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, "%s", name);
    /* The table's defaults as judge.conf's games { } changed them. */
    dj_settings_copy(&g, &j->cfg.game);
    snprintf(g.map, sizeof g.map, "%s",
             map && *map ? map : j->cfg.game.map);
    g.created_at = j->now;
    if (apply_all(j, &g, settings, nsettings, true, NULL, 0) < 0)
        return -1;

    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    dj_game_rec existing;
    int rc = dj_store_game_get(j->store, name, &existing);
    if (rc == 0) {
        judge_fail(j, "game '%s' already exists", existing.name);
        goto fail;
    }
    if (rc < 0 || dj_store_game_insert(j->store, &g) < 0)
        goto store_fail;
    if (master && *master) {
        dj_participant_rec p;
        memset(&p, 0, sizeof p);
        p.game_id = g.id;
        snprintf(p.role, sizeof p.role, "master");
        p.power = -1;
        snprintf(p.email, sizeof p.email, "%s", master);
        snprintf(p.status, sizeof p.status, "playing");
        p.joined_at = j->now;
        if (dj_store_participant_insert(j->store, &p) < 0)
            goto store_fail;
    }
    if (dj_store_game_log(j->store, g.id, j->now, j->actor, "create",
                          g.map) < 0 ||
        dj_store_commit(j->store) < 0)
        goto store_fail;
    dj_buf_printf(out, "%s: created on map %s; players join with "
                       "'judgectl join %s EMAIL'\n",
                  g.name, g.map, g.name);
    return 0;
store_fail:
    judge_store_fail(j);
fail:
    dj_store_rollback(j->store);
    return -1;
}

/* Every player hears of a change of deadline or of the game's settings. */
static int settings_notice(dj_judge *j, game_view *v, const char *what,
                           int64_t new_deadline)
{
    dj_buf text;
    dj_buf_init(&text);
    dj_buf_printf(&text, "The game master changed the game's settings: %s\n",
                  what);
    if (new_deadline) {
        dj_buf_printf(&text, "The deadline for %s is now ", v->phase.name);
        gv_time(v, new_deadline, &text);
        dj_buf_append(&text, ".\n");
        v->phase.deadline = new_deadline;
    }
    int rc = dj_buf_ok(&text)
                 ? gv_notice(j, v, new_deadline ? "Deadline changed"
                                                : "Settings changed",
                             text.data)
                 : judge_fail(j, "out of memory");
    dj_buf_free(&text);
    return rc;
}

int dj_game_set(dj_judge *j, const char *game, const char *const *settings,
                int nsettings, dj_buf *out)
{
    if (nsettings == 0)
        return judge_fail(j, "no settings given");
    if (dj_store_begin(j->store) < 0)
        return judge_store_fail(j);
    game_view v;
    int64_t deadline = 0;
    bool has_current = false;
    if (gv_load(j, game, &v) < 0 ||
        gv_require(j, &v, "forming active paused") < 0)
        goto fail;
    has_current = v.has_phase && strcmp(v.phase.status, "current") == 0;
    if (has_current)
        deadline = v.phase.deadline;
    int64_t before = deadline;
    if (apply_all(j, &v.g, settings, nsettings,
                  strcmp(v.g.state, "forming") == 0,
                  has_current ? &deadline : NULL,
                  v.has_phase && v.pos ? v.pos->phase.year : 0) < 0)
        goto fail;
    if (dj_store_game_update(j->store, &v.g) < 0)
        goto store_fail;
    if (has_current && deadline != before &&
        dj_store_phase_set_deadline(j->store, v.phase.id, deadline) < 0)
        goto store_fail;
    dj_buf what;
    dj_buf_init(&what);
    for (int i = 0; i < nsettings; i++)
        dj_buf_printf(&what, "%s%s", i ? " " : "", settings[i]);
    int rc = gv_log(j, &v, "set", "%s", what.data);
    if (rc == 0 && strcmp(v.g.state, "forming") != 0)
        rc = settings_notice(j, &v, what.data,
                             has_current && deadline != before ? deadline : 0);
    dj_buf_free(&what);
    if (rc < 0)
        goto fail;
    if (dj_store_commit(j->store) < 0)
        goto store_fail;
    dj_buf_printf(out, "%s: %d setting%s changed\n", v.g.name, nsettings,
                  nsettings == 1 ? "" : "s");
    if (has_current && deadline != before) {
        dj_buf_printf(out, "%s: deadline of %s is now ", v.g.name,
                      v.phase.name);
        gv_time(&v, deadline, out);
        dj_buf_append(out, "\n");
    }
    gv_free(&v);
    return 0;
store_fail:
    judge_store_fail(j);
fail:
    dj_store_rollback(j->store);
    gv_free(&v);
    return -1;
}

bool dj_game_setting_known(const char *key)
{
    return dj_setting_find(key) != NULL || strcmp(key, "map") == 0 ||
           strcmp(key, "rule") == 0 || strcmp(key, "deadline") == 0;
}
