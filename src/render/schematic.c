/* SPDX-License-Identifier: MIT */
/*
 * schematic.c — a picture for a board that has no geography: a geometry
 * (the dj_geo that geo.c reads from a .geo file) computed from the map's
 * adjacency graph alone, so that the one drawing code draws it with the
 * same units, orders, names and SVG data attributes as any board.
 *
 * Why: an admin's own map file (a DPjudge variant dropped into maps/)
 * plays without a picture otherwise; players read results better with
 * one, however plain.
 *
 * How, deterministically (the same map gives the same picture, every
 * process, every machine: no clock, no rand(), only the map's order):
 *   1. each province is a node, two nodes joined when any location of one
 *      borders any of the other;
 *   2. the nodes start on a spiral in breadth-first order from the first
 *      province (neighbours start near each other) and are spread by a
 *      force-directed layout (Fruchterman and Reingold: neighbours pull,
 *      every pair pushes, the steps shrinking each round);
 *   3. each province's shape is its Voronoi cell (the points nearer its
 *      node than any other's) cut to a circle round the node, so two
 *      neighbours share their border exactly and distant places leave
 *      open background between them;
 *   4. the unit stands at the node, the supply-centre marker below it,
 *      the name above; a coast's fleet stands towards the neighbours that
 *      coast borders.
 * The layout is computed where geometry is loaded, once per map per
 * process (game/context.c keeps it with the map, as it keeps a .geo).
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "render/board_layer.h"
#include "render/geo.h"

enum {
    CIRCLE_SIDES = 24, /* the circle a cell is cut to, as a polygon */
    CELL_MAX = CIRCLE_SIDES + 2 * DJ_MAX_LOCS + 8 /* a cut cell's corners */
};

#define SPACING 84.0 /* points between neighbouring nodes, about */
#define MARGIN 84.0 /* round the nodes, inside the board's edge */

typedef struct pt {
    double x, y;
} pt;

/* The graph: per province (base location) its index among provinces, and
 * the neighbour lists (a province's neighbours once each). */
typedef struct graph {
    int n;       /* provinces */
    int *loc;    /* province index -> base location */
    int *index;  /* location -> province index of its province */
    int *first;  /* n + 1 offsets into nb */
    int *nb;
} graph;

static void graph_free(graph *g)
{
    free(g->loc);
    free(g->index);
    free(g->first);
    free(g->nb);
}

static bool graph_build(const dj_map *m, graph *g)
{
    memset(g, 0, sizeof *g);
    g->loc = malloc((size_t)m->nlocs * sizeof *g->loc);
    g->index = malloc((size_t)m->nlocs * sizeof *g->index);
    g->first = calloc((size_t)m->nlocs + 1, sizeof *g->first);
    bool *seen = calloc((size_t)m->nlocs, 1);
    /* every neighbour entry of every location, at most */
    size_t cap = 0;
    for (int l = 0; l < m->nlocs; l++)
        cap += (size_t)m->locs[l].nadj;
    g->nb = malloc((cap + 1) * sizeof *g->nb);
    if (!g->loc || !g->index || !g->first || !seen || !g->nb) {
        free(seen);
        graph_free(g);
        return false;
    }
    for (int l = 0; l < m->nlocs; l++)
        if (m->locs[l].province == l)
            g->loc[g->n++] = l;
    for (int i = 0; i < g->n; i++)
        g->index[g->loc[i]] = i;
    for (int l = 0; l < m->nlocs; l++)
        g->index[l] = g->index[m->locs[l].province];
    /* neighbours of province i: both directions, as a border drawn is one
     * whichever side lists it */
    int k = 0;
    for (int i = 0; i < g->n; i++) {
        g->first[i] = k;
        memset(seen, 0, (size_t)m->nlocs);
        for (int l = 0; l < m->nlocs; l++) {
            const dj_location *a = &m->locs[l];
            for (int e = 0; e < a->nadj; e++) {
                int x = g->index[l], y = g->index[a->adj[e].to];
                int other = x == i ? y : y == i ? x : -1;
                if (other < 0 || other == i || seen[other])
                    continue;
                if ((size_t)k == cap)
                    break;
                seen[other] = true;
                g->nb[k++] = other;
            }
        }
    }
    g->first[g->n] = k;
    free(seen);
    return true;
}

/* Step 2: the nodes placed.  Coordinates in units of SPACING. */
static void layout(const graph *g, pt *p)
{
    int n = g->n;
    /* breadth-first order from province 0 (every component in turn) */
    int *order = malloc((size_t)n * sizeof *order);
    bool *done = calloc((size_t)n, 1);
    pt *move = malloc((size_t)n * sizeof *move);
    if (!order || !done || !move) {
        for (int i = 0; i < n; i++)
            p[i] = (pt){(double)(i % 8), (double)(i / 8)};
        free(order);
        free(done);
        free(move);
        return;
    }
    int head = 0, tail = 0;
    for (int s = 0; s < n; s++) {
        if (done[s])
            continue;
        done[s] = true;
        order[tail++] = s;
        while (head < tail) {
            int v = order[head++];
            for (int e = g->first[v]; e < g->first[v + 1]; e++)
                if (!done[g->nb[e]]) {
                    done[g->nb[e]] = true;
                    order[tail++] = g->nb[e];
                }
        }
    }
    /* a spiral (Vogel's): even spacing, the first placed at the middle */
    for (int i = 0; i < n; i++) {
        double r = sqrt((double)i + 0.5), a = (double)i * 2.39996322972865332;
        p[order[i]] = (pt){r * cos(a), r * sin(a)};
    }
    /* Stress majorization (Gansner, Koren and North): every pair as far
     * apart as the steps between them (neighbours 1), weighted 1/d^2 so
     * near pairs count most; node by node, in the spiral's order. */
    int *dist = malloc((size_t)n * (size_t)n * sizeof *dist);
    int *queue = malloc((size_t)n * sizeof *queue);
    if (dist && queue) {
        for (int s = 0; s < n; s++) {
            int *d = dist + (size_t)s * (size_t)n;
            for (int i = 0; i < n; i++)
                d[i] = -1;
            int qh = 0, qt = 0;
            d[s] = 0;
            queue[qt++] = s;
            while (qh < qt) {
                int v = queue[qh++];
                for (int e = g->first[v]; e < g->first[v + 1]; e++)
                    if (d[g->nb[e]] < 0) {
                        d[g->nb[e]] = d[v] + 1;
                        queue[qt++] = g->nb[e];
                    }
            }
            int far = 0;
            for (int i = 0; i < n; i++)
                far = d[i] > far ? d[i] : far;
            for (int i = 0; i < n; i++)
                if (d[i] < 0) /* another component: beyond the farthest */
                    d[i] = far + 2;
        }
        int rounds = n <= 300 ? 300 : n <= 600 ? 120 : 50;
        for (int round = 0; round < rounds; round++)
            for (int k = 0; k < n; k++) {
                int i = order[k];
                const int *d = dist + (size_t)i * (size_t)n;
                double sx = 0, sy = 0, sw = 0;
                for (int j = 0; j < n; j++) {
                    if (j == i)
                        continue;
                    double dx = p[i].x - p[j].x, dy = p[i].y - p[j].y;
                    double len = sqrt(dx * dx + dy * dy);
                    if (len < 1e-9) { /* one point: apart by their order */
                        dx = 1e-3 * (double)(i - j);
                        dy = 1e-3;
                        len = sqrt(dx * dx + dy * dy);
                    }
                    double w = 1.0 / ((double)d[j] * (double)d[j]);
                    sx += w * (p[j].x + (double)d[j] * dx / len);
                    sy += w * (p[j].y + (double)d[j] * dy / len);
                    sw += w;
                }
                if (sw > 0)
                    p[i] = (pt){sx / sw, sy / sw};
            }
    }
    free(dist);
    free(queue);
    /* no two nodes nearer than 0.8: pairs too near pushed apart, half
     * each, a few rounds (room for a unit, its centre and its name) */
    for (int round = 0; round < 50; round++) {
        bool moved = false;
        for (int i = 0; i < n; i++)
            move[i] = (pt){0, 0};
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y;
                double d = sqrt(dx * dx + dy * dy);
                if (d >= 0.8)
                    continue;
                if (d < 1e-9) {
                    dx = 1e-3 * (double)(j - i);
                    dy = 1e-3;
                    d = sqrt(dx * dx + dy * dy);
                }
                double push = (0.8 - d) / 2 / d;
                move[i].x -= dx * push;
                move[i].y -= dy * push;
                move[j].x += dx * push;
                move[j].y += dy * push;
                moved = true;
            }
        for (int i = 0; i < n; i++) {
            p[i].x += move[i].x * 0.5;
            p[i].y += move[i].y * 0.5;
        }
        if (!moved)
            break;
    }
    free(order);
    free(done);
    free(move);
}

/* Sutherland-Hodgman: the convex polygon in[0..n) cut to the half plane
 * of points q with (q - m) . d <= 0; returns the corners kept in out. */
static int clip(const pt *in, int n, pt m, pt d, pt *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        pt a = in[i], b = in[(i + 1) % n];
        double sa = (a.x - m.x) * d.x + (a.y - m.y) * d.y;
        double sb = (b.x - m.x) * d.x + (b.y - m.y) * d.y;
        if (sa <= 0)
            out[k++] = a;
        if ((sa <= 0) != (sb <= 0)) {
            double t = sa / (sa - sb);
            out[k++] = (pt){a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)};
        }
        if (k >= CELL_MAX - 2)
            break;
    }
    return k;
}

/* Step 3: province i's cell, in board points, into ring; false when out
 * of memory. */
static bool cell(const pt *p, int n, int i, double radius, dj_geo_ring *ring)
{
    static const double two_pi = 6.28318530717958647692;
    pt *a = malloc(CELL_MAX * sizeof *a), *b = malloc(CELL_MAX * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return false;
    }
    int k = CIRCLE_SIDES;
    for (int s = 0; s < k; s++) {
        double ang = two_pi * s / k;
        a[s] = (pt){p[i].x + radius * cos(ang), p[i].y + radius * sin(ang)};
    }
    for (int j = 0; j < n && k >= 3; j++) {
        double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y;
        if (j == i || dx * dx + dy * dy > 4 * SPACING * SPACING)
            continue; /* no nearer than twice the largest radius: apart */
        pt m = {(p[i].x + p[j].x) / 2, (p[i].y + p[j].y) / 2};
        k = clip(a, k, m, (pt){dx, dy}, b);
        pt *t = a;
        a = b;
        b = t;
    }
    free(b);
    if (k < 3) { /* two nodes at one point: a small square */
        k = 4;
        for (int s = 0; s < 4; s++)
            a[s] = (pt){p[i].x + (s == 1 || s == 2 ? 6 : -6),
                        p[i].y + (s >= 2 ? 6 : -6)};
    }
    ring->points = malloc((size_t)k * sizeof *ring->points);
    if (!ring->points) {
        free(a);
        return false;
    }
    ring->npoints = k;
    for (int s = 0; s < k; s++)
        ring->points[s] = (dj_geo_point){a[s].x, a[s].y};
    free(a);
    return true;
}

/* Even-odd: is (x, y) inside the ring? */
static bool in_ring(const dj_geo_ring *r, double x, double y)
{
    bool in = false;
    for (int i = 0, j = r->npoints - 1; i < r->npoints; j = i++) {
        const dj_geo_point *a = &r->points[i], *b = &r->points[j];
        if ((a->y > y) != (b->y > y) &&
            x < (b->x - a->x) * (y - a->y) / (b->y - a->y) + a->x)
            in = !in;
    }
    return in;
}

/* from, moved towards `to` until it is inside the ring (to is). */
static pt inside_towards(const dj_geo_ring *r, pt from, pt to)
{
    for (int k = 0; k < 8 && !in_ring(r, from.x, from.y); k++)
        from = (pt){(from.x + to.x) / 2, (from.y + to.y) / 2};
    return in_ring(r, from.x, from.y) ? from : to;
}

static dj_geo_kind kind_of(const dj_location *l)
{
    return l->terrain == DJ_WATER  ? DJ_GEO_SEA
           : l->terrain == DJ_SHUT ? DJ_GEO_IMPASSABLE
                                   : DJ_GEO_LAND;
}

/* Step 4: where a coast's fleet stands: from the node towards the mean of
 * the provinces that coast borders, inside the cell. */
static pt coast_place(const dj_map *m, const graph *g, const pt *p, int loc,
                      int nth, int ncoasts)
{
    int me = g->index[loc];
    double sx = 0, sy = 0;
    int cnt = 0;
    const dj_location *l = &m->locs[loc];
    for (int e = 0; e < l->nadj; e++) {
        int o = g->index[l->adj[e].to];
        if (o == me)
            continue;
        sx += p[o].x - p[me].x;
        sy += p[o].y - p[me].y;
        cnt++;
    }
    double len = sqrt(sx * sx + sy * sy);
    if (cnt == 0 || len < 1e-6) { /* spread round the node */
        double ang = 6.28318530717958647692 * nth / (ncoasts ? ncoasts : 1);
        sx = cos(ang);
        sy = sin(ang);
        len = 1;
    }
    double r = SPACING * 0.3;
    return (pt){p[me].x + sx / len * r, p[me].y + sy / len * r};
}

dj_geo *dj_geo_schematic(const dj_map *map, char *err, size_t errlen)
{
    graph g;
    if (!map || map->nlocs <= 0 || !graph_build(map, &g)) {
        snprintf(err, errlen, "out of memory drawing a schematic board");
        return NULL;
    }
    int n = g.n;
    pt *p = malloc((size_t)n * sizeof *p);
    dj_geo *geo = calloc(1, sizeof *geo);
    if (!p || !geo)
        goto oom;
    layout(&g, p);
    /* to board points, the nodes' box inside the margins */
    double minx = 1e30, miny = 1e30, maxx = -1e30, maxy = -1e30;
    for (int i = 0; i < n; i++) {
        minx = fmin(minx, p[i].x);
        maxx = fmax(maxx, p[i].x);
        miny = fmin(miny, p[i].y);
        maxy = fmax(maxy, p[i].y);
    }
    for (int i = 0; i < n; i++)
        p[i] = (pt){MARGIN + (p[i].x - minx) * SPACING,
                    MARGIN + (p[i].y - miny) * SPACING};
    double w = (maxx - minx) * SPACING + 2 * MARGIN;
    double h = (maxy - miny) * SPACING + 2 * MARGIN;
    geo->width = (int)ceil(fmax(w, 480));
    geo->height = (int)ceil(fmax(h, 240));
    /* a narrow board still leaves room for the legend and title */
    double shift = (geo->width - w) / 2;
    for (int i = 0; i < n; i++)
        p[i].x += shift;

    geo->nlocs = map->nlocs;
    geo->nareas = n;
    geo->areas = calloc((size_t)n, sizeof *geo->areas);
    geo->area_of = malloc((size_t)map->nlocs * sizeof *geo->area_of);
    geo->unit = calloc((size_t)map->nlocs, sizeof *geo->unit);
    geo->label = calloc((size_t)map->nlocs, sizeof *geo->label);
    geo->centre = calloc((size_t)map->nlocs, sizeof *geo->centre);
    geo->layer = board_layer_new(); /* NULL: pictures draw the paths */
    if (!geo->areas || !geo->area_of || !geo->unit || !geo->label ||
        !geo->centre)
        goto oom;
    for (int l = 0; l < map->nlocs; l++)
        geo->area_of[l] = -1;
    for (int i = 0; i < n; i++) {
        /* out far enough to meet each neighbour past half way, so the two
         * share a border; not so far that a distant one makes a blob */
        double radius = SPACING * 0.6;
        for (int e = g.first[i]; e < g.first[i + 1]; e++) {
            int j = g.nb[e];
            double d = hypot(p[j].x - p[i].x, p[j].y - p[i].y);
            radius = fmax(radius, fmin(d * 0.62, SPACING * 0.95));
        }
        int loc = g.loc[i];
        const dj_location *l = &map->locs[loc];
        dj_geo_area *a = &geo->areas[i];
        snprintf(a->name, sizeof a->name, "%s", l->abbr);
        a->province = loc;
        a->kind = kind_of(l);
        a->rings = calloc(1, sizeof *a->rings);
        if (!a->rings)
            goto oom;
        a->nrings = 1;
        if (!cell(p, n, i, radius, &a->rings[0]))
            goto oom;
        geo->area_of[loc] = i;
        bool centre = map->is_sc[loc];
        dj_geo_point at = {p[i].x, p[i].y - (centre ? 5 : 0)};
        geo->unit[loc] = (dj_geo_place){true, at};
        geo->label[loc] =
            (dj_geo_place){true, {p[i].x, p[i].y - 0.36 * SPACING}};
        a->label = geo->label[loc].at;
        a->has_label = true;
        /* every province: a variant may make it a centre */
        geo->centre[loc] =
            (dj_geo_place){true, {p[i].x, p[i].y + 0.26 * SPACING}};
    }
    for (int loc = 0; loc < map->nlocs; loc++) {
        const dj_location *l = &map->locs[loc];
        if (!l->is_coast)
            continue;
        int prov = l->province, nth = 0, ncoasts = dj_map_ncoasts(map, prov);
        for (int c = 0; c < ncoasts; c++)
            if (dj_map_coast(map, prov, c) == loc)
                nth = c;
        const dj_geo_ring *ring = &geo->areas[geo->area_of[prov]].rings[0];
        pt at = inside_towards(ring, coast_place(map, &g, p, loc, nth, ncoasts),
                               p[g.index[prov]]);
        geo->unit[loc] = (dj_geo_place){true, {at.x, at.y}};
        geo->label[loc] = (dj_geo_place){true, {at.x, at.y + 14}};
        geo->area_of[loc] = geo->area_of[prov];
    }
    free(p);
    graph_free(&g);
    return geo;
oom:
    snprintf(err, errlen, "out of memory drawing a schematic board");
    free(p);
    graph_free(&g);
    dj_geo_free(geo);
    return NULL;
}

dj_geo *dj_geo_for_map(const char *map_path, const dj_map *map,
                       bool *schematic, char *err, size_t errlen)
{
    char geo_path[4096];
    *schematic = false;
    if (dj_geo_find(map_path, geo_path, sizeof geo_path) == 0) {
        dj_geo *geo = dj_geo_load(geo_path, map, err, errlen);
        if (geo)
            return geo;
        /* the board it builds on has a picture, but not of this board's
         * places (a variant that DROPs or adds some): a schematic; its
         * own NAME.geo with a mistake stays an error */
        const char *a = strrchr(geo_path, '/'), *b = strrchr(map_path, '/');
        a = a ? a + 1 : geo_path;
        b = b ? b + 1 : map_path;
        size_t na = strcspn(a, "."), nb = strcspn(b, ".");
        if (na == nb && strncmp(a, b, na) == 0)
            return NULL;
    }
    *schematic = true;
    return dj_geo_schematic(map, err, errlen);
}
