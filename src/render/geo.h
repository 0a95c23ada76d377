/* SPDX-License-Identifier: MIT */
/*
 * geo.h — a board's geometry: what the renderer needs to draw a map that
 * the engine only knows as places and neighbours.
 *
 * Read from a text file beside the map file (maps/standard.geo beside
 * maps/standard.map; format in maps/README.md): province outlines as
 * rings of points, the kind of each area (sea, land, impassable, or
 * neutral land off the board), and where the unit, the supply-centre
 * marker and the name of each location (coasts included) stand.  Nothing
 * about any board is compiled in; any map with any number of provinces
 * may have one.
 */
#ifndef DJ_RENDER_GEO_H
#define DJ_RENDER_GEO_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/map.h"

struct board_layer;

typedef enum {
    DJ_GEO_SEA,
    DJ_GEO_LAND,
    DJ_GEO_IMPASSABLE,
    DJ_GEO_NEUTRAL /* land drawn for the shape of the world, not played */
} dj_geo_kind;

typedef struct dj_geo_point {
    double x, y;
} dj_geo_point;

typedef struct dj_geo_ring {
    int npoints;
    dj_geo_point *points;
} dj_geo_ring;

typedef struct dj_geo_area {
    char name[DJ_ABBR_MAX];  /* the province's abbreviation, or "_name" */
    int province;            /* base location in the map, -1 for "_name" */
    dj_geo_kind kind;
    int nrings;
    dj_geo_ring *rings;
    dj_geo_point label;      /* where the name goes */
    bool has_label;
} dj_geo_area;

/* Where things stand at one location; `set` false when the file says nothing. */
typedef struct dj_geo_place {
    bool set;
    dj_geo_point at;
} dj_geo_place;

typedef struct dj_geo {
    int width, height;       /* the board, in points (pixels in a PNG) */
    int nareas;
    dj_geo_area *areas;
    int nlocs;               /* the map's locations */
    int *area_of;            /* per base location: index in areas, or -1 */
    dj_geo_place *unit;      /* per location: where a unit stands */
    dj_geo_place *label;     /* per location: where its name goes */
    dj_geo_place *centre;    /* per base location: the supply-centre marker */
    /* The areas drawn once for raster pictures (board_layer.c: made at the
     * first PNG drawn with this geometry, freed with it). */
    struct board_layer *layer;
} dj_geo;

/*
 * Read a geometry file for this map.  Every province needs an outline and
 * every location where a unit may stand a unit place, every supply centre
 * a centre place.  On failure returns NULL with "file:line: message" in err.
 */
dj_geo *dj_geo_load(const char *path, const dj_map *map, char *err,
                    size_t errlen);
/* The same from text in memory; `filename` only names it in errors. */
dj_geo *dj_geo_parse(const char *text, const char *filename,
                     const dj_map *map, char *err, size_t errlen);
void dj_geo_free(dj_geo *geo);

/*
 * The geometry file for a map file: NAME.geo beside NAME.map, else the
 * .geo of a board the map file builds on (its MAP and USE lines: a variant
 * on the standard board draws with standard.geo).  Returns 0 with the path
 * in out, -1 when there is none.
 */
int dj_geo_find(const char *map_path, char *out, size_t outlen);

/*
 * A schematic geometry for a board without geography, computed from the
 * map's adjacency graph alone (schematic.c: a force-directed layout,
 * Voronoi cells): the same map always gives the same picture.  NULL only
 * when out of memory.
 */
dj_geo *dj_geo_schematic(const dj_map *map, char *err, size_t errlen);

/*
 * The geometry pictures of the map file use: its .geo (dj_geo_find), or
 * the schematic when it has none, or when the .geo found is that of a
 * board it builds on and does not fit its places (*schematic says
 * which).  NULL with err when its own NAME.geo has a mistake.
 */
dj_geo *dj_geo_for_map(const char *map_path, const dj_map *map,
                       bool *schematic, char *err, size_t errlen);

#endif
