/* SPDX-License-Identifier: MIT */
/*
 * conf_numbers.h — private to src/conf: the one table of judge.conf's
 * groups of whole numbers (limits, retry, status).  Each row is a
 * setting's group, name, the field of dj_config that keeps it, whether it
 * is a time ("30s", "5m", "2h", "1d" as well as seconds) and its range.
 * The reader (judge_conf.c) reads those groups by walking it and the
 * writer (conf_write.c, `judged config`) writes them by walking it, so a
 * new number is one row here.
 */
#ifndef DJ_CONF_CONF_NUMBERS_H
#define DJ_CONF_CONF_NUMBERS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct conf_number {
    const char *group;
    const char *name;
    size_t offset; /* of its int in dj_config */
    bool seconds;  /* a time: also "30s", "5m", "2h", "1d" */
    int min, max;
} conf_number;

/* In the order `judged config` writes them, a group's rows together. */
extern const conf_number conf_numbers[];
extern const size_t conf_numbers_len;

#endif
