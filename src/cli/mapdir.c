/* SPDX-License-Identifier: MIT */
/*
 * mapdir.c — see mapdir.h.
 */
#include "cli/mapdir.h"

#include <stdlib.h>
#include <sys/stat.h>

#ifndef DJ_MAPDIR
#define DJ_MAPDIR "/usr/local/share/dipjudge/maps"
#endif

bool cli_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool cli_is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *cli_maps_directory(const char *option, const char *configured)
{
    if (option && *option)
        return option;
    const char *env = getenv("DIPJUDGE_MAPDIR");
    if (env && *env)
        return env;
    if (configured && *configured)
        return configured;
    if (cli_is_directory("maps"))
        return "maps";
#ifdef DJ_SRC_MAPDIR /* the test copies only: no build path is installed */
    if (!cli_is_directory(DJ_MAPDIR) && cli_is_directory(DJ_SRC_MAPDIR))
        return DJ_SRC_MAPDIR;
#endif
    return DJ_MAPDIR;
}
