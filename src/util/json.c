/* SPDX-License-Identifier: MIT */
/*
 * json.c — see json.h.
 */
#include "util/json.h"

void dj_json_string(dj_buf *out, const char *s)
{
    dj_buf_append(out, "\"");
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        switch (*c) {
        case '"': dj_buf_append(out, "\\\""); break;
        case '\\': dj_buf_append(out, "\\\\"); break;
        case '\n': dj_buf_append(out, "\\n"); break;
        case '\t': dj_buf_append(out, "\\t"); break;
        case '\r': dj_buf_append(out, "\\r"); break;
        default:
            if (*c < 0x20)
                dj_buf_printf(out, "\\u%04x", *c);
            else
                dj_buf_append_n(out, (const char *)c, 1);
        }
    }
    dj_buf_append(out, "\"");
}

void dj_json_key(dj_buf *out, const char *k)
{
    dj_json_string(out, k);
    dj_buf_append(out, ": ");
}

void dj_json_kv_str(dj_buf *out, const char *k, const char *value,
                    bool comma)
{
    dj_json_key(out, k);
    dj_json_string(out, value);
    if (comma)
        dj_buf_append(out, ", ");
}

void dj_json_kv_int(dj_buf *out, const char *k, long long value, bool comma)
{
    dj_json_key(out, k);
    dj_buf_printf(out, "%lld%s", value, comma ? ", " : "");
}

void dj_json_kv_time(dj_buf *out, const char *k, int64_t t, bool comma)
{
    dj_json_key(out, k);
    if (t)
        dj_buf_printf(out, "%lld", (long long)t);
    else
        dj_buf_append(out, "null");
    if (comma)
        dj_buf_append(out, ", ");
}
