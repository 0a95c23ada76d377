/* SPDX-License-Identifier: MIT */
/*
 * order.c — making blank orders and printing them in canonical form.
 *
 * The text is DPjudge's short style: unit letter (when one was written),
 * upper-case abbreviations, and one-letter verbs (H, S, C, R, D, B).  It is
 * assembled piece by piece into a bounded buffer that tracks how much was
 * kept, so an order never writes past the caller's buffer; a location index
 * outside the map prints as "?" instead of being dereferenced.
 */
#include "order.h"

#include <ctype.h>
#include <string.h>

/* A bounded string being built: text is kept up to cap-1 characters. */
typedef struct out_buf {
    char *buf;
    size_t cap;
    size_t len;
} out_buf;

static void put(out_buf *o, const char *s)
{
    for (; *s && o->len + 1 < o->cap; s++)
        o->buf[o->len++] = *s;
    o->buf[o->len] = '\0';
}

/* A location's abbreviation in upper case, preceded by a space if needed. */
static void put_loc(out_buf *o, const dj_map *map, int loc)
{
    char up[DJ_ABBR_MAX] = "?";
    if (map && loc >= 0 && loc < map->nlocs) {
        const char *a = map->locs[loc].abbr;
        size_t i = 0;
        for (; a[i] && i + 1 < sizeof up; i++)
            up[i] = (char)toupper((unsigned char)a[i]);
        up[i] = '\0';
    }
    if (o->len > 0)
        put(o, " ");
    put(o, up);
}

/* "A PAR", or just "PAR" when no unit type was written. */
static void put_unit(out_buf *o, const dj_map *map, dj_unit_type type, int loc)
{
    const char *letter = dj_unit_letter(type);
    if (*letter) {
        if (o->len > 0)
            put(o, " ");
        put(o, letter);
    }
    put_loc(o, map, loc);
}

static void put_move(out_buf *o, const dj_map *map, const dj_order *od)
{
    put_unit(o, map, od->unit_type, od->loc);
    for (int i = 0; i < od->npath && i < DJ_MAX_PATH; i++) {
        put(o, " -");
        put_loc(o, map, od->path[i]);
    }
    put(o, " -");
    put_loc(o, map, od->dest);
    /* A written route already says the army goes by convoy. */
    if (od->via_convoy && od->npath <= 0)
        put(o, " VIA");
}

/* The other unit of a support or convoy, with its destination if any. */
static void put_target(out_buf *o, const dj_map *map, const dj_order *od)
{
    put_unit(o, map, od->target_type, od->target);
    if (od->dest >= 0) {
        put(o, " -");
        put_loc(o, map, od->dest);
    }
}


const char *dj_unit_letter(dj_unit_type t)
{
    switch (t) {
    case DJ_ARMY:
        return "A";
    case DJ_FLEET:
        return "F";
    case DJ_NO_UNIT:
        break;
    }
    return "";
}

/* The verb that follows the unit for the one-word orders. */
static const char *simple_verb(dj_order_kind kind)
{
    switch (kind) {
    case DJ_ORDER_HOLD:
        return " H";
    case DJ_ORDER_DISBAND:
    case DJ_ORDER_REMOVE:
        return " D";
    case DJ_ORDER_BUILD:
        return " B";
    default:
        return "";
    }
}

bool dj_order_equal(const dj_order *a, const dj_order *b)
{
    if (a->kind != b->kind || a->power != b->power ||
        a->unit_type != b->unit_type || a->loc != b->loc ||
        a->target_type != b->target_type || a->target != b->target ||
        a->dest != b->dest || a->via_convoy != b->via_convoy ||
        a->npath != b->npath)
        return false;
    for (int i = 0; i < a->npath && i < DJ_MAX_PATH; i++)
        if (a->path[i] != b->path[i])
            return false;
    return true;
}

int dj_order_format(const dj_map *map, const dj_order *o, char *buf, size_t len)
{
    if (!buf || len == 0)
        return 0;
    out_buf out = {buf, len, 0};
    buf[0] = '\0';
    if (!o)
        return 0;
    switch (o->kind) {
    case DJ_ORDER_WAIVE:
        put(&out, "WAIVE");
        break;
    case DJ_ORDER_MOVE:
        put_move(&out, map, o);
        break;
    case DJ_ORDER_SUPPORT:
    case DJ_ORDER_CONVOY:
        put_unit(&out, map, o->unit_type, o->loc);
        put(&out, o->kind == DJ_ORDER_SUPPORT ? " S" : " C");
        put_target(&out, map, o);
        break;
    case DJ_ORDER_RETREAT:
        put_unit(&out, map, o->unit_type, o->loc);
        put(&out, " R");
        put_loc(&out, map, o->dest);
        break;
    default: /* hold, disband, build, remove, and a blank order */
        put_unit(&out, map, o->unit_type, o->loc);
        put(&out, simple_verb(o->kind));
        break;
    }
    return (int)out.len;
}
