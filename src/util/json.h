/* SPDX-License-Identifier: MIT */
/*
 * json.h — writing JSON text into a dj_buf: strings escaped one way for
 * every JSON the programs print (the export, judgectl's --json).
 */
#ifndef DJ_UTIL_JSON_H
#define DJ_UTIL_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "util/buf.h"

/* "text", escaped (quotes, backslashes, control characters). */
void dj_json_string(dj_buf *out, const char *s);
/* "key": (then the value) */
void dj_json_key(dj_buf *out, const char *key);
/* "key": value, then ", " when `comma`.  A time of 0 is null. */
void dj_json_kv_str(dj_buf *out, const char *key, const char *value,
                    bool comma);
void dj_json_kv_int(dj_buf *out, const char *key, long long value,
                    bool comma);
void dj_json_kv_time(dj_buf *out, const char *key, int64_t t, bool comma);

#endif
