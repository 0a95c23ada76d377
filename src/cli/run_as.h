/* SPDX-License-Identifier: MIT */
/*
 * run_as.h — a program started as root works as the owner of the
 * judge's state folder: judgectl, judged and judgeweb call this once,
 * after reading judge.conf and before opening anything else (the
 * database, the Maildirs, the picture cache), so that a root run never
 * leaves a file the judge's own user cannot use (judged(8), RUNNING AS
 * ROOT).  Where that owner is root itself (a demo in a root-owned
 * folder) the program simply runs as root.
 */
#ifndef DJ_CLI_RUN_AS_H
#define DJ_CLI_RUN_AS_H

#include <stddef.h>

#include "game/config.h"

/*
 * Not root, or the folder is root's (or missing): 0, nothing done.
 * Root and the folder another user's: that user's groups, group and
 * user taken for good; 1, and `said` names the user ("dipjudge").  -1
 * when the switch failed (err says why; the caller stops: going on as
 * root would leave root's files).
 */
int cli_run_as_state_owner(const dj_config *cfg, char *said, size_t saidlen,
                           char *err, size_t errlen);

#endif
