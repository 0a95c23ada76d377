/* SPDX-License-Identifier: MIT */
/*
 * mapdir.h — where the command-line tools find map files, decided in one
 * place for judgectl (every subcommand) and judged:
 *
 *   1. the --maps option;
 *   2. $DIPJUDGE_MAPDIR;
 *   3. the configuration's maps_dir (judge.conf), when there is one;
 *   4. ./maps, when the current directory has one;
 *   5. the installed maps directory, when it exists;
 *   6. in the test copies of the programs only (tests/bin/, built with
 *      -DDJ_SRC_MAPDIR), the maps of the source tree they were built
 *      from: no path of the build is compiled into installed programs.
 */
#ifndef DJ_CLI_MAPDIR_H
#define DJ_CLI_MAPDIR_H

#include <stdbool.h>

/* `option` and `configured` may be NULL or empty. */
const char *cli_maps_directory(const char *option, const char *configured);
bool cli_is_file(const char *path);
bool cli_is_directory(const char *path);

#endif
