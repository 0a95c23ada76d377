/* SPDX-License-Identifier: MIT */
/*
 * judge_conf.h — judge.conf, read with libconfig into the settings in
 * force (game/config.h), for the programs that read it: judgectl, judged
 * and judgeweb.
 *
 * Design.  Which file: the --config option, else $DIPJUDGE_CONF, else
 * the installed $(sysconfdir)/dipjudge/judge.conf when it exists, else
 * none: the embedded defaults (dj_config_find).  Unknown settings are
 * errors, so a misspelt name is caught instead of silently ignored.
 *
 * Durations are written "72h", "90m", "3d"; times of day "20:00" or
 * "none"; weekday masks "-MTWTF-" (calendar.h reads all three).
 */
#ifndef DJ_CONF_JUDGE_CONF_H
#define DJ_CONF_JUDGE_CONF_H

#include <stdbool.h>
#include <stddef.h>

#include "game/config.h"
#include "util/buf.h"

/*
 * Defaults, then the settings in `path`.  Returns 0, or -1 with
 * "file:line: message" in err (c is then left with the defaults).
 */
int dj_config_load(const char *path, dj_config *c, char *err, size_t errlen);

/*
 * The file to read: `option` (from --config) when given, else
 * $DIPJUDGE_CONF when set and not empty, else `installed` when that file
 * exists, else NULL (embedded defaults).
 */
const char *dj_config_find(const char *option, const char *installed);

/*
 * The settings a program runs with, decided the same way for every
 * program: the file dj_config_find picks (the installed one being
 * $(sysconfdir)/dipjudge/judge.conf) over the defaults, then the
 * database `db_option` names (--db), else $DIPJUDGE_DB.  Returns 0, or -1
 * with the reason in err.
 */
int dj_config_read(const char *config_option, const char *db_option,
                   dj_config *c, char *err, size_t errlen);

/*
 * The settings in force in judge.conf's own syntax (conf_write.c), so
 * that the text read back gives the same settings; passwords only with
 * `secrets` (else a comment says each is set).
 */
void dj_config_write(const dj_config *c, bool secrets, dj_buf *out);

/*
 * Only the settings that differ from the defaults (judged config
 * --changed, as postconf -n): the same syntax, each group with only its
 * changed lines (and only when it has any).  Paths that follow state_dir
 * by default are compared with the defaults under c's state_dir, so
 * that moving the state shows state_dir alone.
 */
void dj_config_write_changed(const dj_config *c, bool secrets, dj_buf *out);

#endif
