/* SPDX-License-Identifier: MIT */
/*
 * rules_map.c — defaults, then the map's RULE lines, then overrides.
 *
 * dj_rules_set() knows how to read one assignment; this file only layers
 * them.  To learn which option an assignment touched without parsing it a
 * second time, it is applied to a scratch set whose every choice is NUL:
 * the one slot that is no longer NUL is the option it named.
 */
#include "rules_map.h"

#include <stdio.h>
#include <string.h>

int dj_rule_assign(dj_rules *rules, const char *assignment, char *err,
                   size_t errlen)
{
    char scratch_err[1];
    if (!err || errlen == 0) {
        err = scratch_err;
        errlen = sizeof scratch_err;
    }
    err[0] = '\0';
    if (!assignment) {
        snprintf(err, errlen, "no rule given");
        return -1;
    }
    dj_rules probe;
    memset(&probe, 0, sizeof probe);
    if (!dj_rules_set(&probe, assignment, err, errlen))
        return -1;
    for (int i = 0; i < DJ_RULE_COUNT; i++) {
        if (probe.choice[i]) {
            rules->choice[i] = probe.choice[i];
            return i;
        }
    }
    snprintf(err, errlen, "rule '%s' sets nothing", assignment);
    return -1;
}

/* Copy `why` out of err and write "<what> '<text>'<where>: <why>" back. */
static void wrap_error(char *err, size_t errlen, const char *what,
                       const char *text, const char *where)
{
    if (!err || errlen == 0)
        return;
    char why[256];
    snprintf(why, sizeof why, "%s", err);
    snprintf(err, errlen, "%s '%s'%s: %s", what, text, where, why);
}

int dj_rules_apply_map(const dj_map *map, dj_rules *rules,
                       dj_rule_source from[DJ_RULE_COUNT], char *err,
                       size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!map)
        return 0;
    dj_rules work = *rules;
    bool set[DJ_RULE_COUNT] = {false};
    for (int i = 0; i < map->nrules && i < DJ_MAX_RULES; i++) {
        int id = dj_rule_assign(&work, map->rules[i], err, errlen);
        if (id < 0) {
            char where[DJ_NAME_MAX + 16];
            snprintf(where, sizeof where, " of map '%s'", map->name);
            wrap_error(err, errlen, "RULE", map->rules[i], where);
            return -1;
        }
        set[id] = true;
    }
    *rules = work;
    if (from)
        for (int i = 0; i < DJ_RULE_COUNT; i++)
            if (set[i])
                from[i] = DJ_RULE_FROM_MAP;
    return 0;
}

int dj_rules_from_map(const dj_map *map, dj_rules *rules, char *err,
                      size_t errlen)
{
    dj_rules work;
    dj_rules_default(&work);
    if (dj_rules_apply_map(map, &work, NULL, err, errlen) != 0)
        return -1;
    *rules = work;
    return 0;
}

int dj_rules_build(const dj_map *map, const char *const *overrides,
                   int noverrides, dj_rules *rules,
                   dj_rule_source from[DJ_RULE_COUNT], char *err, size_t errlen)
{
    dj_rules work;
    dj_rule_source src[DJ_RULE_COUNT];
    dj_rules_default(&work);
    for (int i = 0; i < DJ_RULE_COUNT; i++)
        src[i] = DJ_RULE_FROM_DEFAULT;
    if (dj_rules_apply_map(map, &work, src, err, errlen) != 0)
        return -1;
    for (int i = 0; i < noverrides; i++) {
        int id = dj_rule_assign(&work, overrides[i], err, errlen);
        if (id < 0) {
            wrap_error(err, errlen, "override",
                       overrides[i] ? overrides[i] : "", "");
            return -1;
        }
        src[id] = DJ_RULE_FROM_OVERRIDE;
    }
    *rules = work;
    if (from)
        memcpy(from, src, sizeof src);
    return 0;
}
