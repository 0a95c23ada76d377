/* SPDX-License-Identifier: MIT */
/*
 * fuzzlib.h — what the fuzz targets share: the standard map (loaded once:
 * a target's one piece of state, kept for speed), the source tree, and
 * input as a file (an anonymous memfd, read through /proc/self/fd) for the
 * readers that take a path.  Each target defines LLVMFuzzerTestOneInput;
 * libFuzzer (make fuzz) or replay.c (make check) calls it.
 */
#ifndef DJ_FUZZLIB_H
#define DJ_FUZZLIB_H

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config.h"
#include "engine/map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The source tree: $srcdir (make check), else the configured one. */
static inline const char *fuzz_srcdir(void)
{
    const char *s = getenv("srcdir");
    return s && *s ? s : DJ_TEST_SRCDIR;
}

static inline const dj_map *fuzz_standard_map(void)
{
    static dj_map *map;
    if (!map) {
        char path[2048], err[512];
        snprintf(path, sizeof path, "%s/maps/standard.map", fuzz_srcdir());
        map = dj_map_load(path, err, sizeof err);
        if (!map) {
            fprintf(stderr, "fuzz: %s\n", err);
            abort();
        }
    }
    return map;
}

/* The bytes as a file: its path in path (fd returned, close it after). */
static inline int fuzz_as_file(const uint8_t *data, size_t size, char *path,
                               size_t len)
{
    int fd = memfd_create("fuzz", 0);
    if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
        abort();
    snprintf(path, len, "/proc/self/fd/%d", fd);
    return fd;
}

/* The bytes as a NUL-terminated string (malloc'd). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

#endif
