/*
 * config.h — the judge's configuration: judge.conf, read with libconfig.
 *
 * Design.  Every setting has an embedded default (dj_config_defaults), so
 * the judge runs with no file at all; a file only overrides what it names.
 * Which file: judgectl's --config FILE, else $DIPJUDGE_CONF, else the
 * installed sysconfdir judge.conf when it exists, else none
 * (dj_config_find).  Unknown settings are errors, so a misspelt name is
 * caught instead of silently ignored.  judge.conf.example documents every
 * setting; keep the two in step.
 *
 * Durations are written "72h", "90m", "3d"; times of day "20:00" or
 * "none"; weekday masks "-MTWTF-" (calendar.h reads all three).
 */
#ifndef DJ_GAME_CONFIG_H
#define DJ_GAME_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define DJ_PATH_MAX 1024

typedef struct dj_game_defaults {
    int move_delay, retreat_delay, adjust_delay;  /* minutes */
    int time_of_day;                              /* minutes, or -1 */
    int days;                                     /* weekday mask */
    int grace;                                    /* minutes */
    int absence_limit;                            /* days, 0 = no cap */
    char nmr[8];                                  /* cd | wait */
    bool early;                                   /* early processing */
    int early_delay;                              /* minutes, or -1 */
    char press[16];                               /* none|white|grey|white+grey */
    char assignment[8];                           /* choice | random */
    char map[64];                                 /* map of new games */
} dj_game_defaults;

typedef struct dj_config {
    char file[DJ_PATH_MAX];       /* the file read; "" for embedded defaults */
    char database[DJ_PATH_MAX];   /* SQLite file */
    char maps_dir[DJ_PATH_MAX];   /* "" = judgectl decides (see judgectl(8)) */
    char judge_name[64];          /* in subjects and report headers */
    char judge_address[256];      /* the judge's mail address */
    char zone[64];                /* time zone of new games */
    dj_game_defaults game;
} dj_config;

/* The embedded defaults. */
void dj_config_defaults(dj_config *c);

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

#endif
