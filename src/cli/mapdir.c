/*
 * mapdir.c — see mapdir.h.
 */
#include "cli/mapdir.h"

#include <stdlib.h>
#include <sys/stat.h>

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

const char *cli_maps_directory(const char *option)
{
    if (option)
        return option;
    const char *env = getenv("DIPJUDGE_MAPDIR");
    if (env && *env)
        return env;
    return cli_is_directory("maps") ? "maps" : DJ_MAPDIR;
}
