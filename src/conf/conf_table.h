/* SPDX-License-Identifier: MIT */
/*
 * conf_table.h — private to src/conf: the one table of judge.conf's
 * groups (inbound, outbound, limits, retry, status, web, authentication).  Each row is a
 * setting's group and name, how its value is written and checked, the
 * field of dj_config that keeps it and its bounds.  The reader
 * (judge_conf.c) reads those groups by walking it and the writer
 * (conf_write.c, `judged config`) writes them by walking it, so a new
 * setting of a group is one row here (and its default in game/config.c).
 */
#ifndef DJ_CONF_CONF_TABLE_H
#define DJ_CONF_CONF_TABLE_H

#include <stddef.h>

typedef enum conf_kind {
    CONF_STRING,  /* text, at most size - 1 bytes */
    CONF_SECRET,  /* text written only when asked (passwords) */
    CONF_PATH,    /* a file or folder: relative to judge.conf's folder */
    CONF_CHOICE,  /* one of `choices` */
    CONF_URL,     /* http:// or https://...; written only when set */
    CONF_INT,     /* a whole number from min to max */
    CONF_SECONDS, /* a time from min to max seconds: 30, "30s", "5m"... */
    CONF_BOOL,    /* true or false */
    CONF_LIST     /* [ "text", ... ]: at most max items of at most size - 1
                     bytes each, a dj_authserv_ids-shaped field (int n,
                     then the items) */
} conf_kind;

typedef struct conf_setting {
    const char *group;
    const char *name;
    conf_kind kind;
    size_t offset; /* of its field in dj_config */
    size_t size;   /* text kinds: the field's size (CONF_LIST: an item's) */
    int min, max;  /* CONF_INT, CONF_SECONDS; CONF_LIST: max items */
    const char *const *choices; /* CONF_CHOICE: NULL-terminated */
} conf_setting;

/* In the order `judged config` writes them, a group's rows together. */
extern const conf_setting conf_table[];
extern const size_t conf_table_len;

#endif
