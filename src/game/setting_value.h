/* SPDX-License-Identifier: MIT */
/*
 * setting_value.h — a per-game setting's value as people write it and as
 * a game record holds it, by the type the settings table gives it
 * (store/settings_table.h).  The one parser behind `judgectl create/set`,
 * SET by mail and judge.conf's games { }, and the one formatter behind
 * `show`, the export and the help.
 */
#ifndef DJ_GAME_SETTING_VALUE_H
#define DJ_GAME_SETTING_VALUE_H

#include <stddef.h>

#include "store/games.h"
#include "store/settings_table.h"
#include "util/buf.h"

/*
 * Parse `value` as people write it ("72h", "20:00", "-MTWTF-", "yes",
 * "grey", "Europe/Paris") into g's field.  0, or -1 with a sentence in why
 * ("movement_delay: ..."), g unchanged.
 */
int dj_setting_parse(const dj_setting_info *si, const char *value,
                     dj_game_rec *g, char *why, size_t whylen);

/* g's value of the setting as people write it (parses back the same). */
void dj_setting_format(const dj_setting_info *si, const dj_game_rec *g,
                       dj_buf *out);

/* "  name            help" lines for every setting, for help texts. */
void dj_settings_help(dj_buf *out);

#endif
