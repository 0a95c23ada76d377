/*
 * mapdir.h — where the command-line tools find map files, decided in one
 * place: --maps, else $DIPJUDGE_MAPDIR, else ./maps, else the installed
 * maps directory.
 */
#ifndef DJ_CLI_MAPDIR_H
#define DJ_CLI_MAPDIR_H

#include <stdbool.h>

const char *cli_maps_directory(const char *option);
bool cli_is_file(const char *path);
bool cli_is_directory(const char *path);

#endif
