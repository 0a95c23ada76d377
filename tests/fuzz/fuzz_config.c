/* SPDX-License-Identifier: MIT */
/*
 * fuzz_config.c — judge.conf (libconfig, then every setting checked):
 * any file is read or refused with file:line, never half-applied in a way
 * that breaks the limits (a configuration that loads keeps them in range).
 */
#include "fuzzlib.h"

#include "conf/judge_conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[1024];
    int fd = fuzz_as_file(data, size, path, sizeof path);
    dj_config *c = malloc(sizeof *c);
    if (!c)
        abort();
    if (dj_config_load(path, c, err, sizeof err) == 0) {
        if (c->signon_limit < 1 || c->mail.max_reply_size < 16384 ||
            c->mail.message_tries < 1 || c->game.absence_limit < 0 ||
            c->game.absence_limit > 365)
            abort();
    } else if (!err[0]) {
        abort();
    }
    free(c);
    close(fd);
    return 0;
}
