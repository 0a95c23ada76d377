/* SPDX-License-Identifier: MIT */
/*
 * replay.c — a fuzz target's corpus, replayed: main() for the targets in
 * make check (built with the ordinary compiler, no libFuzzer), calling
 * LLVMFuzzerTestOneInput on every file of tests/fuzz/corpus/NAME/ and of
 * tests/fuzz/regress/NAME/ (what fuzzing found, kept so it stays fixed).
 * A target aborts on a broken promise; each file that returns counts as
 * one check.  Ends with "N passed, N failed".
 *
 * usage: replay_NAME [FILE|DIR...]   (default: NAME's two directories)
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifndef FUZZ_NAME
#error "FUZZ_NAME: the target's name"
#endif

static int passed, failed;

static void run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        failed++;
        return;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap && n < (1u << 24)) {
            uint8_t *more = realloc(buf, cap * 2);
            if (!more)
                break;
            buf = more;
            cap *= 2;
        } else if (n == cap) {
            break;
        }
    }
    fclose(f);
    if (!buf) {
        failed++;
        return;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    passed++;
}

static void run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return; /* no such directory: nothing to replay */
    if (!S_ISDIR(st.st_mode)) {
        run_file(path);
        return;
    }
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        run_file(file);
    }
    if (d)
        closedir(d);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            run_path(argv[i]);
    } else {
        const char *src = getenv("srcdir");
        char dir[4096];
        src = src && *src ? src : DJ_TEST_SRCDIR;
        snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", src, FUZZ_NAME);
        run_path(dir);
        snprintf(dir, sizeof dir, "%s/tests/fuzz/regress/%s", src, FUZZ_NAME);
        run_path(dir);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
