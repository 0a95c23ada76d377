/* SPDX-License-Identifier: MIT */
/*
 * fuzz_calendar.c — what players reach with SET DEADLINE and masters with
 * settings: durations, times of day, weekday lists, deadlines (in a
 * zone), POSIX TZ strings, and every per-game setting's value parser.
 * The first byte chooses; the rest is the text.  A value read writes back
 * as something that reads the same (settings), but a secret (the private
 * game's join password), which is shown only as yes or no.
 */
#include "fuzzlib.h"

#include "time/calendar.h"
#include "game/setting_value.h"
#include "store/settings_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = fuzz_string(data + 1, size - 1);
    char err[256];
    int n;
    uint8_t mask;
    int64_t t;
    dj_zone *z = malloc(sizeof *z);
    if (!z)
        abort();
    switch (data[0] % 6) {
    case 0:
        if (dj_duration_parse(text, &n, err, sizeof err) == 0 && n < 0)
            abort();
        break;
    case 1:
        if (dj_clock_parse(text, &n, err, sizeof err) == 0 &&
            (n < -1 || n >= 24 * 60))
            abort();
        break;
    case 2:
        dj_days_parse(text, &mask, err, sizeof err);
        break;
    case 3:
        dj_zone_utc(z);
        dj_time_parse(z, text, 1800000000, &t, err, sizeof err);
        break;
    case 4:
        dj_zone_parse_posix(text, z, err, sizeof err);
        break;
    default: {
        const dj_setting_info *si =
            &dj_settings[data[0] / 6 % DJ_SETTINGS_COUNT];
        if (si->type == DJ_ST_ZONE)
            break; /* reads files: zone names are not fuzzed here */
        dj_game_rec g, again;
        memset(&g, 0, sizeof g);
        dj_settings_default(&g);
        if (dj_setting_parse(si, text, &g, err, sizeof err) == 0) {
            dj_buf shown;
            dj_buf_init(&shown);
            dj_setting_format(si, &g, &shown);
            again = g;
            if (si->type == DJ_ST_SECRET) {
                /* a secret is shown as yes or no, never as itself */
                const char *value = (const char *)&g + si->offset;
                if (!dj_buf_ok(&shown) ||
                    strcmp(shown.data, *value ? "yes" : "no") != 0)
                    abort();
            } else if (!dj_buf_ok(&shown) ||
                dj_setting_parse(si, shown.data, &again, err, sizeof err) < 0 ||
                memcmp((char *)&g + si->offset, (char *)&again + si->offset,
                       si->text ? si->size : sizeof(int)) != 0)
                abort(); /* show prints what set would not take back */
            dj_buf_free(&shown);
        }
    }
    }
    free(z);
    free(text);
    return 0;
}
