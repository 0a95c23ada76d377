/* SPDX-License-Identifier: MIT */
/*
 * interpret.c — the best-effort reader's entry point and its output.
 *
 * Design.  dj_interpret_lines runs the stages of interpret_int.h over the
 * whole set of lines at once, because choosing between readings needs the
 * power's other orders: split the lines into orders and parse each; make
 * every reading of each against the position; choose; settle several
 * orders for one unit; then write one dj_reading per order.
 *
 * Memory is taken per call and given back before returning: the items
 * grow with the input up to DJ_READ_MAX_ORDERS (after which the rest of
 * the input is reported as not read), the readings of an order are
 * bounded by IR_MAX_READINGS and those of all orders by READINGS_BUDGET
 * (an order that would exceed it is refused), so no mail, however
 * crafted, costs more than a few megabytes.  Nothing is kept between
 * calls.
 */
#include "reader/interpret_int.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PIECES_MAX 64         /* orders on one line */
#define NAMES_SHOWN 4         /* places listed in an "ambiguous" question */
#define READINGS_BUDGET 32768 /* readings of all orders of one call */

typedef struct item_list {
    ir_item *v;
    int n, cap;
    bool full; /* DJ_READ_MAX_ORDERS reached: the rest is not read */
} item_list;

/* A fresh item at the end of the list, or NULL when there is no room. */
static ir_item *new_item(item_list *l, int line)
{
    if (l->full)
        return NULL;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        ir_item *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        l->v = v;
        l->cap = cap;
    }
    assert(l->n < l->cap);
    ir_item *it = &l->v[l->n++];
    memset(it, 0, sizeof *it);
    it->line = line;
    it->chosen = -1;
    return it;
}

static void fail_item(ir_item *it, const char *message)
{
    it->failed = true;
    snprintf(it->message, sizeof it->message, "%s", message);
}

static void add_piece(const ir_ctx *c, item_list *l, int line,
                      const char *piece, ir_skel *skel);

/*
 * "build fleet kiel and army berlin", "and an army in marseille please":
 * a piece that cannot be read whole but reads as orders joined by "and"
 * is those orders.  True when every part between the "and"s parsed (a
 * part may be empty: "and" first); the parts are then added.
 */
static bool add_joined(const ir_ctx *c, item_list *l, int line,
                       const char *piece, ir_skel *skel)
{
    char buf[DJ_READ_LINE_MAX], msg[DJ_READ_MSG_MAX];
    char *parts[PIECES_MAX];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", piece);
    char *start = buf;
    for (char *p = buf; *p;) {
        bool word = (p == buf || !isalnum((unsigned char)p[-1])) &&
                    strncasecmp(p, "and", 3) == 0 &&
                    !isalnum((unsigned char)p[3]);
        if (!word) {
            p++;
            continue;
        }
        if (n == PIECES_MAX - 1)
            return false;
        *p = '\0';
        parts[n++] = start;
        start = p + 3;
        p = start;
    }
    if (n == 0)
        return false;
    parts[n++] = start;
    int orders = 0;
    for (int i = 0; i < n; i++) {
        int got = ir_parse_piece(c, parts[i], skel, msg, sizeof msg);
        if (got < 0)
            return false;
        orders += got;
    }
    if (orders == 0)
        return false;
    for (int i = 0; i < n && !l->full; i++)
        add_piece(c, l, line, parts[i], skel);
    return true;
}

/* One order's text: parsed into a new item (nothing for a blank one). */
static void add_piece(const ir_ctx *c, item_list *l, int line,
                      const char *piece, ir_skel *skel)
{
    char msg[DJ_READ_MSG_MAX];
    int got = ir_parse_piece(c, piece, skel, msg, sizeof msg);
    if (got < 0 && add_joined(c, l, line, piece, skel))
        return;
    if (got == 0)
        return;
    if (l->n == DJ_READ_MAX_ORDERS) {
        ir_item *it = new_item(l, line);
        if (it)
            fail_item(it, "too many orders: the rest is not read");
        l->full = true;
        return;
    }
    ir_item *it = new_item(l, line);
    if (!it)
        return;
    if (got < 0) {
        fail_item(it, msg);
        return;
    }
    it->skel = malloc(sizeof *it->skel);
    if (!it->skel) {
        fail_item(it, "out of memory");
        return;
    }
    *it->skel = *skel;
}

static void read_line(const ir_ctx *c, item_list *l, int line, const char *text,
                      ir_skel *skel)
{
    char buf[DJ_READ_LINE_MAX];
    char *pieces[PIECES_MAX];
    if (!text)
        return;
    if (strlen(text) >= DJ_READ_LINE_MAX) {
        ir_item *it = l->full ? NULL : new_item(l, line);
        if (it)
            fail_item(it, "line too long");
        return;
    }
    if (ir_line_is_prose(c, text)) {
        ir_item *it = new_item(l, line);
        if (it) {
            fail_item(it, "looks like text, not orders");
            it->prose = true;
        }
        return;
    }
    int n = ir_split_line(text, buf, sizeof buf, pieces, PIECES_MAX);
    for (int i = 0; i < n && !l->full; i++)
        add_piece(c, l, line, pieces[i], skel);
}

/* Every reading of one parsed order, within what is left of the budget. */
static void expand_item(const ir_ctx *c, ir_item *it, int *budget)
{
    if (it->failed)
        return;
    int n = ir_count_readings(it->skel);
    if (n > *budget) {
        fail_item(it, "too many ways to read this order: please write the "
                      "places out");
        return;
    }
    *budget -= n;
    it->readings = malloc((size_t)n * sizeof *it->readings);
    it->alive = malloc((size_t)n * sizeof *it->alive);
    if (!it->readings || !it->alive) {
        fail_item(it, "out of memory");
        return;
    }
    it->nreadings = ir_expand(c, it->skel, it->readings, n);
    for (int i = 0; i < it->nreadings; i++)
        it->alive[i] = true;
}

static void free_item(ir_item *it)
{
    free(it->skel);
    free(it->readings);
    free(it->alive);
}

/*
 * A line of prose ("Dear GM, here are my orders", "Thanks, see you")
 * splits at its commas into pieces none of which is an order, some not
 * even readable: one error for the line, not one per piece.
 */
static void collapse_prose(item_list *l)
{
    int kept = 0;
    for (int i = 0; i < l->n;) {
        int end = i + 1;
        bool orders = l->v[i].kind == DJ_READ_OK, unreadable = l->v[i].failed;
        while (end < l->n && l->v[end].line == l->v[i].line) {
            orders |= l->v[end].kind == DJ_READ_OK;
            unreadable |= l->v[end].failed;
            end++;
        }
        ir_item first = l->v[i];
        if (end - i >= 2 && !orders && unreadable) {
            int why = i;
            while (!l->v[why].failed)
                why++;
            char reason[DJ_READ_MSG_MAX];
            snprintf(reason, sizeof reason, "%s", l->v[why].message);
            for (int k = i + 1; k < end; k++)
                free_item(&l->v[k]);
            first.kind = DJ_READ_ERROR;
            first.stands_instead = false; /* said on its other line */
            snprintf(first.message, sizeof first.message,
                     "this line is not an order (%.*s)", DJ_READ_MSG_MAX - 40,
                     reason);
            l->v[kept++] = first;
        } else {
            for (int k = i; k < end; k++)
                l->v[kept++] = l->v[k];
        }
        i = end;
    }
    l->n = kept;
}

static void free_items(item_list *l)
{
    for (int i = 0; i < l->n; i++)
        free_item(&l->v[i]);
    free(l->v);
}

/* ---- output -------------------------------------------------------------- */

/* The slot whose alive readings pick different places, or -1. */
static int differing_slot(const ir_item *it)
{
    for (int s = 0; s < 3; s++) {
        int first = -1;
        for (int i = 0; i < it->nreadings; i++) {
            if (!it->alive[i])
                continue;
            if (first < 0)
                first = it->readings[i].pick[s];
            else if (it->readings[i].pick[s] != first)
                return s;
        }
    }
    return -1;
}

/* "'pir' could be Paris or Picardy". */
static void ambiguity_question(const ir_ctx *c, const ir_item *it, char *msg,
                               size_t len)
{
    int s = differing_slot(it);
    const ir_slot *slots[3] = {&it->skel->unit, &it->skel->target,
                               &it->skel->dest};
    assert(s < 3);
    if (s < 0) {
        snprintf(msg, len, "several readings are possible");
        return;
    }
    const ir_slot *sl = slots[s];
    bool shown[IR_SLOT_CANDS] = {false};
    int nshown = 0;
    size_t n = (size_t)snprintf(msg, len, "'%s' could be", sl->written);
    for (int i = 0; i < it->nreadings && nshown < NAMES_SHOWN && n < len; i++) {
        int p = it->readings[i].pick[s];
        if (!it->alive[i] || p >= sl->ncand || shown[p])
            continue;
        shown[p] = true;
        n += (size_t)snprintf(msg + n, len - n, "%s %s", nshown++ ? " or" : "",
                              ir_place_name(c->map, sl->cand[p].prov));
    }
}

static void list_candidates(const ir_item *it, dj_reading *out)
{
    out->ncandidates = 0;
    for (int i = 0; i < it->nreadings; i++) {
        if (!it->alive[i])
            continue;
        bool dup = false;
        for (int k = 0; k < out->ncandidates; k++)
            dup |= strcmp(out->candidates[k], it->readings[i].text) == 0;
        if (dup)
            continue;
        if (out->ncandidates == DJ_READ_MAX_CANDIDATES)
            break;
        snprintf(out->candidates[out->ncandidates++], DJ_READ_TEXT_MAX, "%s",
                 it->readings[i].text);
    }
}

/* 4.D.3 c: the unit whose orders are all void holds (disbands in a
 * retreat phase); that order is the reading's, for the caller to file. */
static void stand_instead(const ir_ctx *c, const ir_item *it,
                          dj_reading *out)
{
    if (!it->readings || it->chosen < 0)
        return;
    const dj_order *o = &it->readings[it->chosen].order;
    out->stands_instead = true;
    out->order = dj_order_make(c->phase == DJ_RETREAT ? DJ_ORDER_DISBAND
                                                      : DJ_ORDER_HOLD,
                               o->power, o->unit_type, o->loc);
    dj_order_format(c->map, &out->order, out->text, sizeof out->text);
}

/* Several readings, none a possible order ("A lvp-pir"): which places
 * were meant, that the unit can be given none of them, and the reason
 * when every reading has the same one. */
static void none_possible(const ir_ctx *c, const ir_item *it, dj_reading *out)
{
    char q[DJ_READ_MSG_MAX];
    ambiguity_question(c, it, q, sizeof q);
    const char *why = NULL;
    bool same = true;
    for (int i = 0; i < it->nreadings; i++) {
        if (!it->alive[i])
            continue;
        const char *w = it->readings[i].why;
        if (!why)
            why = w;
        else if (!w || strcmp(w, why) != 0)
            same = false;
    }
    snprintf(out->message, sizeof out->message,
             "%.*s, and the unit can be given none of those orders%s%s%s",
             DJ_READ_MSG_MAX - 80, q, same && why ? " (" : "",
             same && why ? why : "", same && why ? ")" : "");
}

static void write_reading(const ir_ctx *c, const ir_item *it, dj_reading *out)
{
    memset(out, 0, sizeof *out);
    out->line = it->line;
    out->kind = it->kind;
    out->order = dj_order_make(DJ_ORDER_NONE, c->power, DJ_NO_UNIT, -1);
    switch (it->kind) {
    case DJ_READ_OK: {
        /* an order read is one reading chosen (interpret_choose.c) */
        assert(it->readings && it->chosen >= 0 &&
               it->chosen < it->nreadings);
        const ir_reading *r = &it->readings[it->chosen];
        out->order = r->order;
        snprintf(out->text, sizeof out->text, "%s", r->text);
        ir_explain(c, it->skel, r, out->message, sizeof out->message);
        if (it->message[0])
            ir_note(out->message, sizeof out->message, "%s", it->message);
        break;
    }
    case DJ_READ_AMBIGUOUS:
        list_candidates(it, out);
        ambiguity_question(c, it, out->message, sizeof out->message);
        break;
    case DJ_READ_ERROR:
    case DJ_READ_PROSE:
        if (it->none_possible) {
            none_possible(c, it, out);
            break;
        }
        snprintf(out->message, sizeof out->message, "%s", it->message);
        if (it->stands_instead)
            stand_instead(c, it, out);
        break;
    }
}

/* ---- entry points -------------------------------------------------------- */

static bool arguments_ok(const dj_map *map, const dj_position *pos, int power,
                         const dj_rules *rules, const char *const *lines,
                         int nlines, const dj_reading *out, int max_out)
{
    return map && pos && rules && power >= 0 && power < map->npowers &&
           nlines >= 0 && (lines || nlines == 0) && (out || max_out <= 0);
}

int dj_interpret_lines(const dj_map *map, const dj_position *pos, int power,
                       const dj_rules *rules, const char *const *lines,
                       int nlines, dj_reading *out, int max_out)
{
    if (!arguments_ok(map, pos, power, rules, lines, nlines, out, max_out))
        return -1;
    ir_ctx c = {map, pos, rules, power, pos->phase.type};
    item_list l = {NULL, 0, 0, false};
    ir_skel *skel = malloc(sizeof *skel);
    if (!skel)
        return -1;
    for (int i = 0; i < nlines && !l.full; i++)
        read_line(&c, &l, i, lines[i], skel);
    free(skel);
    int budget = READINGS_BUDGET;
    for (int i = 0; i < l.n; i++)
        expand_item(&c, &l.v[i], &budget);
    ir_choose(&c, l.v, l.n);
    ir_settle_duplicates(&c, l.v, l.n);
    ir_refuse_impossible(&c, l.v, l.n);
    collapse_prose(&l);
    for (int i = 0; i < l.n; i++)
        if (l.v[i].prose)
            l.v[i].kind = DJ_READ_PROSE;
    for (int i = 0; i < l.n && i < max_out; i++)
        write_reading(&c, &l.v[i], &out[i]);
    int n = l.n;
    free_items(&l);
    return n;
}

const char *dj_read_kind_name(dj_read_kind kind)
{
    switch (kind) {
    case DJ_READ_OK:
        return "OK";
    case DJ_READ_ERROR:
        return "ERROR";
    case DJ_READ_AMBIGUOUS:
        return "AMBIGUOUS";
    case DJ_READ_PROSE:
        return "PROSE";
    }
    return "?";
}

int dj_reading_format(const dj_reading *r, char *buf, size_t len)
{
    if (!buf || len == 0)
        return 0;
    buf[0] = '\0';
    if (!r)
        return 0;
    size_t n = (size_t)snprintf(buf, len, "%s", dj_read_kind_name(r->kind));
    if (r->kind == DJ_READ_OK)
        n += (size_t)snprintf(buf + (n < len ? n : len - 1),
                              n < len ? len - n : 1, " %s", r->text);
    else if (r->kind == DJ_READ_ERROR || r->kind == DJ_READ_PROSE)
        n += (size_t)snprintf(buf + (n < len ? n : len - 1),
                              n < len ? len - n : 1, " %s", r->message);
    for (int i = 0; r->kind == DJ_READ_AMBIGUOUS && i < r->ncandidates &&
                    i < DJ_READ_MAX_CANDIDATES;
         i++)
        n += (size_t)snprintf(buf + (n < len ? n : len - 1),
                              n < len ? len - n : 1, "%s%.*s", i ? " | " : " ",
                              DJ_READ_TEXT_MAX, r->candidates[i]);
    return (int)(n < len ? n : len - 1);
}
