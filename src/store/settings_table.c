/* SPDX-License-Identifier: MIT */
/*
 * settings_table.c — the table of settings_table.h, as an array the code
 * can walk (names, storage, defaults, help), made from the same lines.
 */
#include "store/settings_table.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "store/games.h"

#define AS_INT(field, name, type, min, max, dflt, help)                      \
    {name, #field, type, false, offsetof(dj_game_rec, field), 0, min, max,   \
     NULL, dflt, NULL, help},
#define AS_TEXT(field, size, name, type, choices, dflt, help)                \
    {name, #field, type, true, offsetof(dj_game_rec, field), size, 0, 0,     \
     choices, 0, dflt, help},

const dj_setting_info dj_settings[] = {DJ_GAME_SETTINGS(AS_INT, AS_TEXT)};
const int DJ_SETTINGS_COUNT = (int)(sizeof dj_settings / sizeof dj_settings[0]);

const dj_setting_info *dj_setting_find(const char *name)
{
    for (int i = 0; i < DJ_SETTINGS_COUNT; i++)
        if (strcasecmp(dj_settings[i].name, name) == 0)
            return &dj_settings[i];
    return NULL;
}

void dj_settings_default(dj_game_rec *g)
{
    for (int i = 0; i < DJ_SETTINGS_COUNT; i++) {
        const dj_setting_info *si = &dj_settings[i];
        char *field = (char *)g + si->offset;
        if (si->text)
            snprintf(field, si->size, "%s", si->text_default);
        else
            *(int *)(void *)field = si->int_default;
    }
}

void dj_settings_copy(dj_game_rec *dst, const dj_game_rec *src)
{
    for (int i = 0; i < DJ_SETTINGS_COUNT; i++) {
        const dj_setting_info *si = &dj_settings[i];
        memcpy((char *)dst + si->offset, (const char *)src + si->offset,
               si->text ? si->size : sizeof(int));
    }
}
