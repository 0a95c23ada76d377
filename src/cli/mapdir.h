/*
 * mapdir.h — where the command-line tools find map files, decided in one
 * place for judgectl (every subcommand) and judged:
 *
 *   1. the --maps option;
 *   2. $DIPJUDGE_MAPDIR;
 *   3. the configuration's maps_dir (judge.conf), when there is one;
 *   4. ./maps, when the current directory has one;
 *   5. the installed maps directory, when it exists;
 *   6. the maps of the source tree the program was built from, so a
 *      freshly built build/judgectl finds its maps without flags.
 */
#ifndef DJ_CLI_MAPDIR_H
#define DJ_CLI_MAPDIR_H

#include <stdbool.h>

/* `option` and `configured` may be NULL or empty. */
const char *cli_maps_directory(const char *option, const char *configured);
bool cli_is_file(const char *path);
bool cli_is_directory(const char *path);

#endif
