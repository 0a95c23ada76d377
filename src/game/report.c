/* SPDX-License-Identifier: MIT */
/*
 * report.c — see report.h.
 *
 * Design.  A results report is built section by section, each a small
 * function appending to the caller's dj_buf; all of them read one `ctx`
 * (map, position before, orders, result) and none keeps state.  Order
 * lines are gathered per power into an array of entries (an order, a unit
 * that had none, or an order the judge made), sorted, then written: in
 * movement and retreat phases by the name of the unit's province, so a
 * player finds a unit where the alphabet puts it; in adjustment phases in
 * the order written, because there the order of builds is the player's.
 *
 * Marks follow the email judges: "(*bounce*)", "(*cut*)",
 * "(*illegal*: not adjacent)", several at once as "(*bounce, dislodged*)",
 * the reason (for illegal, void and ignored orders) after the closing
 * star.  A convoy failed by the paradox rule is shown as "(*no convoy*)"
 * like any other failed convoy, as the judges do; DJ_RF_PARADOX is not
 * printed.  Order lines are never wrapped, since mapping tools read them
 * one line at a time; lists of names are wrapped at WRAP columns under
 * their label so the mail reads well in any client.
 *
 * Judge-made orders (res->autos) are listed with the orders of their power
 * and a note, "(*civil disorder*: no order given)" for removals and
 * "(*disbanded*: ...)" for retreat-phase disbands, except the disbands of
 * units destroyed in a movement phase, which the dislodged section tells.
 */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WRAP 76            /* text columns of wrapped lists */
#define LABEL_EXTRA 2      /* ':' and a space after the longest power name */

typedef struct ctx {
    const dj_map *map;
    const dj_position *pos;     /* before the phase */
    const dj_order *orders;
    int norders;
    const dj_result *res;
    int label;                  /* width of "Power:" labels, padded */
} ctx;

/* What one line of a power's block shows. */
typedef enum { E_ORDER, E_UNORDERED, E_AUTO } entry_kind;

typedef struct entry {
    entry_kind kind;
    int index;           /* into orders, pos->units or res->autos */
    const char *key;     /* sort key: the province's full name, or "" */
    int seq;             /* first-come order among equal keys */
} entry;

/* ---- small words ----------------------------------------------------------- */

static const char *type_word(dj_unit_type t)
{
    return t == DJ_ARMY ? "Army" : t == DJ_FLEET ? "Fleet" : "";
}

static const char *loc_name(const dj_map *m, int loc)
{
    return loc >= 0 && loc < m->nlocs ? m->locs[loc].name : "?";
}

static const char *province_name(const dj_map *m, int loc)
{
    return loc >= 0 && loc < m->nlocs ? m->locs[dj_province(m, loc)].name : "";
}

static const char *power_name(const dj_map *m, int p)
{
    return p >= 0 && p < m->npowers ? m->powers[p].name : "?";
}

static void append_opt(dj_buf *out, const char *s)
{
    dj_buf_append(out, s ? s : "");
}

/* Columns of the widest "Power: " label of the map ("Unowned: " too). */
static int label_width(const dj_map *m)
{
    size_t w = strlen("Unowned");
    for (int p = 0; p < m->npowers; p++)
        if (strlen(m->powers[p].name) > w)
            w = strlen(m->powers[p].name);
    return (int)w + LABEL_EXTRA;
}

/* "Austria:" padded with spaces to `width` columns (at least one space). */
static void label(dj_buf *out, const char *name, int width)
{
    int pad = width - (int)strlen(name) - 1;
    dj_buf_printf(out, "%s:%*s", name, pad > 0 ? pad : 1, "");
}

void dj_report_unit(const dj_map *map, dj_unit_type type, int loc, dj_buf *out)
{
    if (type == DJ_ARMY || type == DJ_FLEET)
        dj_buf_printf(out, "%s ", type_word(type));
    dj_buf_append(out, loc_name(map, loc));
}

/*
 * Items joined with ", " and a final '.', wrapped under a label of
 * `indent` columns already written.  Names are never split.
 */
static void wrapped_list(dj_buf *out, int indent, const char *const *items,
                         int n)
{
    int col = indent;
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(items[i]) + 1; /* with its ',' or '.' */
        if (i > 0) {
            if (col + 1 + len > WRAP) {
                dj_buf_printf(out, "\n%*s", indent, "");
                col = indent;
            } else {
                dj_buf_append(out, " ");
                col++;
            }
        }
        dj_buf_printf(out, "%s%c", items[i], i + 1 < n ? ',' : '.');
        col += len;
    }
    dj_buf_append(out, "\n");
}

/* "A", "A or B", "A, B or C". */
static void or_list(dj_buf *out, const char *const *items, int n)
{
    for (int i = 0; i < n; i++) {
        if (i > 0)
            dj_buf_append(out, i + 1 == n ? " or " : ", ");
        dj_buf_append(out, items[i]);
    }
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* ---- orders in words --------------------------------------------------------- */

/* The unit at province `prov` before the phase, or NULL. */
static const dj_unit *unit_in(const ctx *c, int loc)
{
    if (loc < 0 || loc >= c->map->nlocs)
        return NULL;
    int i = dj_position_unit_at(c->map, c->pos, dj_province(c->map, loc));
    return i >= 0 ? &c->pos->units[i] : NULL;
}

/* The ordered unit as it stands, when the engine matched one. */
static const dj_unit *ordered_unit(const ctx *c, const dj_order *o,
                                   const dj_order_result *r)
{
    if (!r || r->unit < 0)
        return NULL;
    if (c->pos->phase.type == DJ_RETREAT && o->kind != DJ_ORDER_BUILD)
        return r->unit < c->pos->ndislodged ? &c->pos->dislodged[r->unit].unit
                                            : NULL;
    return r->unit < c->pos->nunits ? &c->pos->units[r->unit] : NULL;
}

static void move_path(const dj_map *m, const dj_order *o, dj_buf *out)
{
    for (int i = 0; i < o->npath && i < DJ_MAX_PATH; i++)
        dj_buf_printf(out, " -> %s", loc_name(m, o->path[i]));
    dj_buf_printf(out, " -> %s", loc_name(m, o->dest));
    if (o->via_convoy && o->npath == 0)
        dj_buf_append(out, " VIA CONVOY");
}

/*
 * The order in words with the subject unit and the other unit's type as
 * given (the caller fills in what was not written from the board).
 */
static void order_words(const dj_map *m, const dj_order *o, dj_unit_type own,
                        int own_loc, dj_unit_type other, dj_buf *out)
{
    switch (o->kind) {
    case DJ_ORDER_BUILD:
        dj_buf_append(out, "Build ");
        dj_report_unit(m, own, own_loc, out);
        return;
    case DJ_ORDER_REMOVE:
        dj_buf_append(out, "Remove ");
        dj_report_unit(m, own, own_loc, out);
        return;
    case DJ_ORDER_WAIVE:
        dj_buf_append(out, "Waive");
        return;
    default:
        break;
    }
    dj_report_unit(m, own, own_loc, out);
    switch (o->kind) {
    case DJ_ORDER_HOLD:
        dj_buf_append(out, " HOLD");
        break;
    case DJ_ORDER_MOVE:
        move_path(m, o, out);
        break;
    case DJ_ORDER_RETREAT:
        dj_buf_printf(out, " -> %s", loc_name(m, o->dest));
        break;
    case DJ_ORDER_SUPPORT:
    case DJ_ORDER_CONVOY:
        dj_buf_append(out, o->kind == DJ_ORDER_SUPPORT ? " SUPPORT " : " CONVOY ");
        dj_report_unit(m, other, o->target, out);
        if (o->dest >= 0)
            dj_buf_printf(out, " -> %s", loc_name(m, o->dest));
        break;
    case DJ_ORDER_DISBAND:
        dj_buf_append(out, " DISBAND");
        break;
    default:
        dj_buf_append(out, " (no order)");
        break;
    }
}

void dj_report_order(const dj_map *map, const dj_order *o, dj_buf *out)
{
    order_words(map, o, o->unit_type, o->loc, o->target_type, out);
}

/* An order as players should read it: real unit types where known. */
static void order_in_context(const ctx *c, const dj_order *o,
                             const dj_order_result *r, dj_buf *out)
{
    const dj_unit *u = ordered_unit(c, o, r);
    dj_unit_type own = u ? u->type : o->unit_type;
    int own_loc = u ? u->loc : o->loc;
    dj_unit_type other = o->target_type;
    if (other == DJ_NO_UNIT && (o->kind == DJ_ORDER_SUPPORT ||
                                o->kind == DJ_ORDER_CONVOY)) {
        const dj_unit *t = unit_in(c, o->target);
        other = t ? t->type : DJ_NO_UNIT;
    }
    order_words(c->map, o, own, own_loc, other, out);
}

/* ---- marks ------------------------------------------------------------------- */

/* "(*bounce, dislodged*: reason)"; nothing for a clean success. */
static void marks(uint16_t flags, bool no_order, dj_why why, dj_buf *out)
{
    static const struct { uint16_t flag; const char *word; } WORDS[] = {
        {DJ_RF_ILLEGAL, "illegal"},     {DJ_RF_VOID, "void"},
        {DJ_RF_IGNORED, "ignored"},     {DJ_RF_BOUNCE, "bounce"},
        {DJ_RF_CUT, "cut"},             {DJ_RF_NO_CONVOY, "no convoy"},
        {DJ_RF_DISRUPTED, "disrupted"},
        {DJ_RF_DISLODGED, "dislodged"}, {DJ_RF_DESTROYED, "destroyed"},
    };
    int n = 0;
    if (no_order) {
        dj_buf_append(out, "  (*no order");
        n++;
    }
    for (size_t i = 0; i < sizeof WORDS / sizeof WORDS[0]; i++) {
        if (!(flags & WORDS[i].flag))
            continue;
        dj_buf_append(out, n++ ? ", " : "  (*");
        dj_buf_append(out, WORDS[i].word);
    }
    if (n == 0)
        return;
    dj_buf_append(out, "*");
    bool explained = flags & (DJ_RF_ILLEGAL | DJ_RF_VOID | DJ_RF_IGNORED);
    if (explained && why != DJ_WHY_NONE)
        dj_buf_printf(out, ": %s", dj_why_text(why));
    dj_buf_append(out, ")");
}

/* ---- one power's block ------------------------------------------------------ */

static void line_start(const ctx *c, int power, dj_buf *out)
{
    label(out, power_name(c->map, power), c->label);
}

static void order_line(const ctx *c, int k, dj_buf *out)
{
    const dj_order *o = &c->orders[k];
    const dj_order_result *r = &c->res->orders[k];
    line_start(c, o->power, out);
    order_in_context(c, o, r, out);
    dj_buf_append(out, ".");
    marks(r->flags, false, r->why, out);
    dj_buf_append(out, "\n");
}

/* Was unit i dislodged or destroyed, judging by the position after? */
static uint16_t unordered_fate(const ctx *c, const dj_unit *u)
{
    const dj_position *n = &c->res->next;
    for (int d = 0; d < n->ndislodged; d++)
        if (n->dislodged[d].unit.loc == u->loc &&
            n->dislodged[d].unit.power == u->power)
            return DJ_RF_DISLODGED;
    for (int a = 0; a < c->res->nauto; a++) {
        const dj_order *o = &c->res->autos[a].order;
        if (o->kind == DJ_ORDER_DISBAND && o->loc == u->loc &&
            o->power == u->power)
            return DJ_RF_DISLODGED | DJ_RF_DESTROYED;
    }
    return 0;
}

static void unordered_line(const ctx *c, int ui, dj_buf *out)
{
    const dj_unit *u = &c->pos->units[ui];
    line_start(c, u->power, out);
    dj_report_unit(c->map, u->type, u->loc, out);
    dj_buf_append(out, " HOLD.");
    marks(unordered_fate(c, u), true, DJ_WHY_NONE, out);
    dj_buf_append(out, "\n");
}

/* The note on an order the judge made, by why it was needed. */
static const char *auto_note(const dj_auto_order *a)
{
    if (a->order.kind == DJ_ORDER_REMOVE)
        return a->why == DJ_WHY_NO_ORDER ? "civil disorder"
                                         : "removed by the judge";
    return "disbanded";
}

static const char *auto_reason(const dj_auto_order *a)
{
    if (a->why == DJ_WHY_NONE)
        return dj_why_text(DJ_WHY_RETREAT_FAILED);
    return dj_why_text(a->why);
}

static void auto_line(const ctx *c, int ai, dj_buf *out)
{
    const dj_auto_order *a = &c->res->autos[ai];
    line_start(c, a->order.power, out);
    dj_report_order(c->map, &a->order, out);
    dj_buf_printf(out, ".  (*%s*: %s)\n", auto_note(a), auto_reason(a));
}

static int cmp_entries(const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb;
    int d = strcmp(a->key, b->key);
    return d ? d : (a->seq > b->seq) - (a->seq < b->seq);
}

/* Did unit ui of the position get an order from its own power? */
static bool unit_ordered(const ctx *c, int ui)
{
    for (int k = 0; k < c->norders; k++)
        if (c->res->orders[k].unit == ui &&
            c->orders[k].power == c->pos->units[ui].power)
            return true;
    return false;
}

/* The judge's disbands in movement phases are told with the dislodged. */
static bool auto_listed_with_orders(const ctx *c, const dj_auto_order *a)
{
    return !(c->pos->phase.type == DJ_MOVEMENT &&
             a->order.kind == DJ_ORDER_DISBAND);
}

static int gather(const ctx *c, int power, entry *e)
{
    const dj_map *m = c->map;
    bool sorted = c->pos->phase.type != DJ_ADJUSTMENT;
    int n = 0;
    for (int k = 0; k < c->norders; k++)
        if (c->orders[k].power == power)
            e[n] = (entry){E_ORDER, k, sorted ? province_name(m, c->orders[k].loc) : "", n},
            n++;
    if (c->pos->phase.type == DJ_MOVEMENT)
        for (int ui = 0; ui < c->pos->nunits; ui++)
            if (c->pos->units[ui].power == power && !unit_ordered(c, ui))
                e[n] = (entry){E_UNORDERED, ui,
                               province_name(m, c->pos->units[ui].loc), n},
                n++;
    for (int a = 0; a < c->res->nauto; a++) {
        const dj_auto_order *ao = &c->res->autos[a];
        if (ao->order.power == power && auto_listed_with_orders(c, ao))
            e[n] = (entry){E_AUTO, a, sorted ? province_name(m, ao->order.loc) : "~", n},
            n++;
    }
    qsort(e, (size_t)n, sizeof *e, cmp_entries);
    return n;
}

/* Builds a power was due and neither used nor waived. */
static int unused_builds(const ctx *c, int power)
{
    int due = dj_adjustment_due(c->map, c->pos, power);
    if (due <= 0)
        return 0;
    for (int k = 0; k < c->norders; k++)
        if (c->orders[k].power == power && c->res->orders[k].success &&
            (c->orders[k].kind == DJ_ORDER_BUILD ||
             c->orders[k].kind == DJ_ORDER_WAIVE))
            due--;
    return due > 0 ? due : 0;
}

static bool power_block(const ctx *c, int power, entry *e, dj_buf *out)
{
    int n = gather(c, power, e);
    for (int i = 0; i < n; i++) {
        if (e[i].kind == E_ORDER)
            order_line(c, e[i].index, out);
        else if (e[i].kind == E_UNORDERED)
            unordered_line(c, e[i].index, out);
        else
            auto_line(c, e[i].index, out);
    }
    int unused = c->pos->phase.type == DJ_ADJUSTMENT ? unused_builds(c, power) : 0;
    for (int i = 0; i < unused; i++) {
        line_start(c, power, out);
        dj_buf_append(out, "Build waived.  (*unused*)\n");
    }
    return n + unused > 0;
}

static int order_lines(const ctx *c, dj_buf *out)
{
    size_t cap = (size_t)c->norders + (size_t)c->pos->nunits + (size_t)c->res->nauto + 1;
    entry *e = malloc(cap * sizeof *e);
    if (!e)
        return -1;
    for (int p = 0; p < c->map->npowers; p++)
        if (power_block(c, p, e, out))
            dj_buf_append(out, "\n");
    free(e);
    return 0;
}

/* ---- dislodged units ---------------------------------------------------------- */

static void unit_phrase(const dj_map *m, const dj_unit *u, dj_buf *out)
{
    const char *adj = u->power >= 0 && u->power < m->npowers
                          ? m->powers[u->power].adjective : "?";
    dj_buf_printf(out, "The %s %s in %s", adj, type_word(u->type),
                  loc_name(m, u->loc));
}

/* "Albania or Trieste", alphabetically. */
static void retreat_names(const dj_map *m, const dj_dislodged *d, dj_buf *out)
{
    const char *names[DJ_MAX_RETREATS];
    int n = 0;
    for (int i = 0; i < d->nretreats && i < DJ_MAX_RETREATS; i++)
        names[n++] = loc_name(m, d->retreats[i]);
    qsort(names, (size_t)n, sizeof names[0], cmp_names);
    or_list(out, names, n);
}

static void retreat_line(const dj_map *m, const dj_dislodged *d, dj_buf *out)
{
    unit_phrase(m, &d->unit, out);
    dj_buf_append(out, " can retreat to ");
    retreat_names(m, d, out);
    dj_buf_append(out, ".\n");
}

static void dislodged_section(const ctx *c, dj_buf *out)
{
    const dj_position *n = &c->res->next;
    int destroyed = 0;
    for (int a = 0; a < c->res->nauto; a++)
        destroyed += !auto_listed_with_orders(c, &c->res->autos[a]);
    if (n->ndislodged + destroyed == 0)
        return;
    dj_buf_append(out, "The following units were dislodged:\n\n");
    for (int p = 0; p < c->map->npowers; p++) {
        for (int d = 0; d < n->ndislodged; d++)
            if (n->dislodged[d].unit.power == p)
                retreat_line(c->map, &n->dislodged[d], out);
        for (int a = 0; a < c->res->nauto; a++) {
            const dj_auto_order *ao = &c->res->autos[a];
            if (ao->order.power != p || auto_listed_with_orders(c, ao))
                continue;
            dj_unit u = {ao->order.power, ao->order.loc, ao->order.unit_type};
            unit_phrase(c->map, &u, out);
            dj_buf_append(out, " with no valid retreats was destroyed.\n");
        }
    }
    dj_buf_append(out, "\n");
}

/* ---- supply centres ------------------------------------------------------------- */

/* Full names of the centres `power` owns (-1: unowned), sorted. */
static int centre_names(const dj_map *m, const int16_t *owner, int power,
                        const char **names)
{
    int n = 0;
    for (int l = 0; l < m->nlocs; l++)
        if (m->is_sc[l] && m->locs[l].province == l && owner[l] == power)
            names[n++] = m->locs[l].name;
    qsort(names, (size_t)n, sizeof names[0], cmp_names);
    return n;
}

static int ownership(const dj_map *m, const dj_position *pos, int width,
                     dj_buf *out)
{
    const char **names = malloc(((size_t)m->nlocs + 1) * sizeof *names);
    if (!names)
        return -1;
    dj_buf_append(out, "Ownership of supply centers:\n\n");
    for (int p = 0; p <= m->npowers; p++) {
        int who = p < m->npowers ? p : -1; /* the unowned last */
        int n = centre_names(m, pos->owner, who, names);
        if (n == 0)
            continue;
        label(out, who >= 0 ? m->powers[who].name : "Unowned", width);
        wrapped_list(out, width, names, n);
    }
    dj_buf_append(out, "\n");
    free(names);
    return 0;
}

static void plural(dj_buf *out, int n, const char *word)
{
    dj_buf_printf(out, "%s%s", word, n == 1 ? "" : "s");
}

/* "Austria:  5 Supply centers,  4 Units:  Builds   1 unit." */
static void adjustment_table(const dj_map *m, const dj_position *pos,
                             int width, dj_buf *out)
{
    for (int p = 0; p < m->npowers; p++) {
        int sc = dj_position_centres(m, pos, p);
        int units = dj_position_units(pos, p);
        if (sc == 0 && units == 0)
            continue;
        int due = sc - units;
        label(out, m->powers[p].name, width);
        /* Singular words get a space more so the columns stay aligned. */
        dj_buf_printf(out, "%2d ", sc);
        plural(out, sc, "Supply center");
        dj_buf_printf(out, ",%s %2d ", sc == 1 ? " " : "", units);
        plural(out, units, "Unit");
        dj_buf_append(out, units == 1 ? ": " : ":");
        if (due >= 0)
            dj_buf_printf(out, "  Builds %3d ", due);
        else
            dj_buf_printf(out, "  Removes %2d ", -due);
        plural(out, abs(due), "unit");
        dj_buf_append(out, ".\n");
    }
    dj_buf_append(out, "\n");
}

void dj_report_centres(const dj_map *map, const dj_position *pos, dj_buf *out)
{
    int width = label_width(map);
    if (ownership(map, pos, width, out) < 0)
        return;
    adjustment_table(map, pos, width, out);
}

/* ---- header and the phase after ---------------------------------------------------- */

/* "Fall of 1901", or with a map's own season name "A.D. 1430". */
static void season_words(const dj_map *map, dj_phase ph, dj_buf *out)
{
    if (map && map->season_names[ph.season][0])
        dj_buf_printf(out, "%s %d", map->season_names[ph.season], ph.year);
    else
        dj_buf_printf(out, "%s of %d", dj_season_name(ph.season), ph.year);
}

/* "Movement for Fall of 1901", "Retreats for ...", "Adjustments for ...". */
static void phase_words(const dj_map *map, dj_phase ph, dj_buf *out)
{
    dj_buf_printf(out, "%s%s for ", dj_phase_type_name(ph.type),
                  ph.type == DJ_MOVEMENT ? "" : "s");
    season_words(map, ph, out);
}

static bool game_over(const dj_result *res, const dj_report_info *info)
{
    return info->game_over || (res && res->winner >= 0);
}

void dj_report_header(const dj_map *map, const dj_phase *next,
                      const dj_report_info *info, dj_buf *out)
{
    dj_buf_append(out, ":: Judge: ");
    append_opt(out, info->judge);
    dj_buf_append(out, "  Game: ");
    append_opt(out, info->game);
    dj_buf_append(out, "  Variant: ");
    append_opt(out, info->variant ? info->variant : map->name);
    dj_buf_append(out, "\n");
    if (info->game_over || !next) {
        dj_buf_append(out, ":: Game over\n");
        return;
    }
    char shortname[32];
    dj_phase_format_short(*next, shortname, sizeof shortname);
    dj_buf_printf(out, ":: Deadline: %s", shortname);
    if (info->deadline && info->deadline[0])
        dj_buf_printf(out, " %s", info->deadline);
    dj_buf_append(out, "\n");
}

static void ending(const ctx *c, const dj_report_info *info, dj_buf *out)
{
    int w = c->res->winner;
    if (w >= 0)
        dj_buf_printf(out, "%s has won the game with %d supply centers.\n",
                      power_name(c->map, w),
                      dj_position_centres(c->map, &c->res->next, w));
    if (info->ending && info->ending[0])
        dj_buf_printf(out, "%s\n", info->ending);
    dj_buf_printf(out, "The game '%s' is over.\n", info->game ? info->game : "");
}

static void next_phase(const ctx *c, const dj_report_info *info, dj_buf *out)
{
    dj_buf_printf(out, "The next phase of '%s' will be ",
                  info->game ? info->game : "");
    phase_words(c->map, c->res->next.phase, out);
    dj_buf_append(out, ".\n");
    if (info->deadline && info->deadline[0])
        dj_buf_printf(out, "The deadline for orders is %s.\n", info->deadline);
    else
        dj_buf_append(out, "No deadline is set.\n");
}

/* Centre ownership changes after the Fall: show it when the year turned. */
static bool after_fall(const dj_position *before, const dj_result *res)
{
    const dj_phase *n = &res->next.phase;
    return before->phase.season == DJ_FALL &&
           (n->season == DJ_WINTER || n->year > before->phase.year);
}

int dj_report_results(const dj_map *map, const dj_position *before,
                      const dj_order *orders, int norders,
                      const dj_result *res, const dj_report_info *info,
                      dj_buf *out)
{
    static const dj_report_info none = {0};
    if (!info)
        info = &none;
    ctx c = {map, before, orders, norders < 0 ? 0 : norders, res, label_width(map)};
    bool over = game_over(res, info);
    dj_report_header(map, over ? NULL : &res->next.phase, info, out);
    dj_buf_append(out, "\n");
    /* "Movement results for Spring of 1901." */
    dj_buf_printf(out, "%s results for ", dj_phase_type_name(before->phase.type));
    season_words(map, before->phase, out);
    dj_buf_append(out, ".\n\n");
    if (order_lines(&c, out) < 0)
        return -1;
    if (before->phase.type == DJ_MOVEMENT)
        dislodged_section(&c, out);
    if (after_fall(before, res) || res->winner >= 0)
        dj_report_centres(map, &res->next, out);
    if (over)
        ending(&c, info, out);
    else
        next_phase(&c, info, out);
    return dj_buf_ok(out) ? 0 : -1;
}

/* ---- positions and the summary ------------------------------------------------------- */

/* Indices of power p's units, sorted by the name of where they stand. */
static int units_sorted(const dj_map *m, const dj_position *pos, int p,
                        entry *e)
{
    int n = 0;
    for (int i = 0; i < pos->nunits; i++)
        if (pos->units[i].power == p)
            e[n] = (entry){E_UNORDERED, i, loc_name(m, pos->units[i].loc), n},
            n++;
    qsort(e, (size_t)n, sizeof *e, cmp_entries);
    return n;
}

static void position_power(const dj_map *m, const dj_position *pos, int p,
                           int width, const char **names, entry *e,
                           dj_buf *out)
{
    int nu = units_sorted(m, pos, p, e);
    int nc = centre_names(m, pos->owner, p, names);
    int nd = 0;
    for (int d = 0; d < pos->ndislodged; d++)
        nd += pos->dislodged[d].unit.power == p;
    label(out, m->powers[p].name, width);
    if (nu + nc + nd == 0 && !dj_mobilizing(m, pos)) {
        dj_buf_append(out, "eliminated.\n\n");
        return;
    }
    dj_buf_printf(out, "%d ", nc);
    plural(out, nc, "supply center");
    dj_buf_printf(out, ", %d ", nu);
    plural(out, nu, "unit");
    dj_buf_append(out, (pos->civil_disorder >> p & 1u) ? ", in civil disorder.\n" : ".\n");
    for (int i = 0; i < nu; i++) {
        const dj_unit *u = &pos->units[e[i].index];
        dj_buf_printf(out, "%*s", width, "");
        dj_report_unit(m, u->type, u->loc, out);
        dj_buf_append(out, ".\n");
    }
    for (int d = 0; d < pos->ndislodged; d++) {
        const dj_dislodged *dl = &pos->dislodged[d];
        if (dl->unit.power != p)
            continue;
        dj_buf_printf(out, "%*s", width, "");
        dj_report_unit(m, dl->unit.type, dl->unit.loc, out);
        dj_buf_append(out, " (dislodged) can retreat to ");
        retreat_names(m, dl, out);
        dj_buf_append(out, ".\n");
    }
    if (nc > 0) {
        dj_buf_printf(out, "%*sCenters: ", width, "");
        wrapped_list(out, width + 9, names, nc);
    }
    dj_buf_append(out, "\n");
}

void dj_report_position(const dj_map *map, const dj_position *pos, dj_buf *out)
{
    dj_report_position_seen(map, pos, -1, out);
}

/* Has power p anything on the board (units, dislodged units, centres)? */
static bool power_seen(const dj_map *m, const dj_position *pos, int p)
{
    for (int i = 0; i < pos->nunits; i++)
        if (pos->units[i].power == p)
            return true;
    for (int d = 0; d < pos->ndislodged; d++)
        if (pos->dislodged[d].unit.power == p)
            return true;
    return dj_position_centres(m, pos, p) > 0;
}

void dj_report_position_seen(const dj_map *map, const dj_position *pos,
                             int seer, dj_buf *out)
{
    const char **names = malloc(((size_t)map->nlocs + 1) * sizeof *names);
    entry *e = malloc(((size_t)pos->nunits + 1) * sizeof *e);
    if (names && e) {
        int width = label_width(map);
        dj_buf_printf(out, "Status of the %s phase for ",
                      dj_phase_type_name(pos->phase.type));
        season_words(map, pos->phase, out);
        dj_buf_append(out, ".\n\n");
        for (int p = 0; p < map->npowers; p++)
            if (seer == -1 || p == seer || power_seen(map, pos, p))
                position_power(map, pos, p, width, names, e, out);
        int nc = centre_names(map, pos->owner, -1, names);
        if (nc > 0) {
            label(out, "Unowned", width);
            wrapped_list(out, width, names, nc);
        }
    } else {
        out->failed = true;
    }
    free(e);
    free(names);
}

static int centres_in(const dj_map *m, const int16_t *owner, int power)
{
    int n = 0;
    for (int l = 0; l < m->nlocs; l++)
        n += m->is_sc[l] && m->locs[l].province == l && owner[l] == power;
    return n;
}

void dj_report_summary(const dj_map *map, const dj_summary_year *years,
                       int nyears, dj_buf *out)
{
    dj_buf_append(out, "Supply center history:\n\nYear ");
    for (int p = 0; p < map->npowers; p++)
        dj_buf_printf(out, " %3c", map->powers[p].letter);
    dj_buf_append(out, "  Unowned\n");
    for (int y = 0; y < nyears; y++) {
        if (!years[y].owner)
            continue;
        dj_buf_printf(out, "%4d ", years[y].year);
        for (int p = 0; p < map->npowers; p++)
            dj_buf_printf(out, " %3d", centres_in(map, years[y].owner, p));
        dj_buf_printf(out, "  %7d\n", centres_in(map, years[y].owner, -1));
    }
    dj_buf_append(out, "\n");
    char legend[DJ_MAX_POWERS][DJ_NAME_MAX + 8];
    const char *items[DJ_MAX_POWERS];
    for (int p = 0; p < map->npowers && p < DJ_MAX_POWERS; p++) {
        snprintf(legend[p], sizeof legend[p], "%c = %s", map->powers[p].letter,
                 map->powers[p].name);
        items[p] = legend[p];
    }
    wrapped_list(out, 0, items, map->npowers);
}
