/* SPDX-License-Identifier: MIT */
/*
 * map.h — the board: locations, adjacencies, powers, supply centres.
 *
 * A map is read from a DPjudge-style .map file (see maps/standard.map and
 * judgectl(8)); nothing about any particular board is compiled in.
 *
 * Model.  Every place a unit can stand is a *location*.  A province with
 * several coasts (Spain) has one base location ("spa", where armies stand)
 * and one location per coast ("spa/nc", "spa/sc", where fleets stand).  Every
 * location knows the base location of its province (`province`); all
 * occupancy and combat is reckoned per province, movement per location.
 *
 * The map is immutable once loaded and may be shared by any number of
 * adjudications at once.
 */
#ifndef DJ_ENGINE_MAP_H
#define DJ_ENGINE_MAP_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hard bounds: a map exceeding one is rejected with a clear error. */
#define DJ_MAX_LOCS 1024   /* locations, coasts included */
#define DJ_MAX_POWERS 64   /* fits a dj_power_set (Chaos has 34) */
#define DJ_MAX_UNITS 512   /* units on the board at once */
#define DJ_MAX_ADJ 32      /* neighbours of one location */
#define DJ_NAME_MAX 48     /* full names, including the NUL */
#define DJ_ABBR_MAX 16     /* abbreviations such as "spa/nc" */
#define DJ_MAX_RULES 64    /* RULE lines in a map file */

/* A set of powers, bit p for power p; DJ_POWER_BIT(p) is that bit.  Every
 * power mask in dipjudge is one of these (never a bare 1u << p). */
typedef uint64_t dj_power_set;
#define DJ_POWER_BIT(p) ((dj_power_set)1 << (p))
/* The set of powers 0 .. n-1. */
#define DJ_POWERS_UPTO(n) ((n) >= 64 ? ~(dj_power_set)0 : DJ_POWER_BIT(n) - 1)
/* Every power (never ~0u: that is only the first 32). */
#define DJ_ALL_POWERS (~(dj_power_set)0)

/* DJ_PORT is read from a map file only: a PORT is stored as DJ_COAST with
 * dj_location.convoys set. */
typedef enum { DJ_LAND, DJ_WATER, DJ_COAST, DJ_SHUT, DJ_PORT } dj_terrain;

/* Unit types; DJ_NO_UNIT also means "not written" in an order. */
typedef enum { DJ_NO_UNIT = 0, DJ_ARMY = 1, DJ_FLEET = 2 } dj_unit_type;

/* Bit for a unit type in adjacency masks. */
#define DJ_TYPE_BIT(t) ((uint8_t)(1u << ((t)-1)))

typedef struct dj_adj {
    int16_t to;     /* destination location */
    uint8_t types;  /* DJ_TYPE_BIT(DJ_ARMY) | DJ_TYPE_BIT(DJ_FLEET) */
    uint8_t half;   /* the types for which this border, from here to `to`,
                       is DPjudge's half-strength border (`*TO` on the
                       ABUTS line; one way): see dj_map_half_border */
} dj_adj;

typedef struct dj_location {
    char abbr[DJ_ABBR_MAX];  /* canonical, lower case: "spa/nc" */
    char name[DJ_NAME_MAX];  /* "Spain (north coast)" */
    int province;            /* base location of this location's province */
    dj_terrain terrain;
    bool army_ok;            /* an army may stand here */
    bool fleet_ok;           /* a fleet may stand here */
    bool is_coast;           /* one coast of a multi-coast province */
    bool convoys;            /* a fleet here may convoy: water, or a coast
                                the map calls a PORT (Baleares) */
    int nadj;
    dj_adj adj[DJ_MAX_ADJ];
} dj_location;

typedef struct dj_power {
    char name[DJ_NAME_MAX];       /* "France" (as written in the map) */
    char adjective[DJ_NAME_MAX];  /* "French" */
    char letter;                  /* distinct initial used in SIGNON: 'F' */
} dj_power;

typedef struct dj_start_unit {
    int power;
    dj_unit_type type;
    int loc;
} dj_start_unit;

typedef struct dj_alias {
    char text[DJ_NAME_MAX];  /* normalised: lower case, single spaces */
    int loc;
} dj_alias;

typedef struct dj_map {
    char name[DJ_NAME_MAX];  /* from the file name or a MAP directive */
    int nlocs;
    dj_location *locs;
    int npowers;
    dj_power powers[DJ_MAX_POWERS];
    /* Per location, meaningful on base locations only. */
    bool *is_sc;
    dj_power_set *home_of;   /* bit p set: a home centre of power p */
    int16_t *initial_owner;  /* -1 when unowned at the start */
    int nsc;
    int victory;             /* centres needed to win */
    int start_year;
    int start_season;        /* dj_season of the first phase (BEGIN line) */
    int start_type;          /* dj_phase_type of the first phase */
    int years_to_fall;       /* a Fall's year is its Spring's + this (0) */
    int years_to_spring;     /* a Spring's year is the Fall's before + this
                                (1; DPjudge's FLOW can say otherwise) */
    char season_names[3][24]; /* per dj_season, the FLOW's own name when it
                                 is not the standard one ("A.D."), else "" */
    dj_power_set dummies;    /* bit p: power p is played by nobody (DUMMY) */
    bool mobilize;           /* RULE MOBILIZE: the game starts with no units
                                and no centres owned, in an adjustment phase
                                where each power builds one unit in any of
                                its home centres, which it then owns */
    int nstart;
    dj_start_unit *start_units;
    int naliases;
    dj_alias *aliases;        /* sorted by text */
    int32_t *alias_hash;      /* the same by hash (map.c: lookup_name) */
    uint32_t alias_hash_mask;
    /* The three-letter names ("lon", "stp"), 26 x 26 x 26 by letter: the
     * location + 1, 0 for none (map.c: find_plain_word).  Nearly every
     * word an order or a case file names is one. */
    uint16_t *three_letter;
    /* Every word of every name, and the coast words, by hash: an entry
     * is the offset of its word in name_words, 0 an empty slot
     * (dj_map_may_name). */
    char *name_words;         /* NUL-separated words */
    int32_t *word_hash;
    uint32_t word_hash_mask;
    /* nlocs x nlocs answers of dj_map_adjacent and dj_map_reaches_province,
     * worked out once when the map is loaded (NULL: look them up). */
    uint8_t *reach;
    bool half_borders;       /* some border is a `*` (dj_adj.half) */
    int nrules;
    char rules[DJ_MAX_RULES][DJ_NAME_MAX];  /* "name=value" from RULE lines */
} dj_map;

/*
 * Load a map file; USE lines are resolved relative to its directory.
 * On failure returns NULL and writes "file:line: message" into err.
 */
dj_map *dj_map_load(const char *path, char *err, size_t errlen);

/* Parse map text already in memory (USE is refused: no file access). */
dj_map *dj_map_parse(const char *text, const char *filename, char *err,
                     size_t errlen);

void dj_map_free(dj_map *map);

/*
 * A season as this map's players know it: "Spring", "Fall", "Winter", or
 * the map's FLOW name ("A.D." in Hundred).  And a phase's long name:
 * "Spring 1901 Movement", "A.D. 1425 Movement".
 */
const char *dj_map_season_name(const dj_map *map, int season);
void dj_map_phase_format(const dj_map *map, int season, int year, int type,
                         char *buf, size_t len);

/*
 * Look a location up by abbreviation, alias or full name, ignoring case,
 * spaces, dots and the coast notations "/nc", "(nc)", " nc", " north coast".
 * Returns -1 when nothing matches.
 */
int dj_map_find_location(const dj_map *map, const char *text);

/* The same for the first n bytes of text (or up to its NUL): a reader's
 * word looked up where it stands, without a copy. */
int dj_map_find_location_n(const dj_map *map, const char *text, size_t n);

/*
 * May the word (its n bytes, case and dots ignored) be part of a place's
 * name?  False means no name and no coast notation of this map holds it,
 * so a run of words containing it is no place: the order reader asks
 * before looking longer runs up.
 */
bool dj_map_may_name(const dj_map *map, const char *word, size_t n);

/* Look a power up by name, adjective or letter, ignoring case; -1 if none. */
int dj_map_find_power(const dj_map *map, const char *text);

/* Can a unit of this type move from one location to the other? */
bool dj_map_adjacent(const dj_map *map, int from, int to, dj_unit_type type);

/*
 * Provinces as units see them: may a unit of this type at `from` reach some
 * location of province `prov` (any coast)?
 */
bool dj_map_reaches_province(const dj_map *map, int from, int prov,
                             dj_unit_type type);

/*
 * DPjudge's half-strength border (`*NEI` on a place's ABUTS line, one way:
 * maps/README.md, dipjudge(7)).  Does a unit of this type moving from
 * `from` to `to` (adjacent) cross one?  False when not adjacent.
 */
bool dj_map_half_border(const dj_map *map, int from, int to,
                        dj_unit_type type);

/*
 * May a unit of this type at `from` reach some location of province
 * `prov` across an ordinary border (not a `*`)?  A unit supports only so.
 * Without half borders this is dj_map_reaches_province.
 */
bool dj_map_reaches_province_whole(const dj_map *map, int from, int prov,
                                   dj_unit_type type);

/* Number of coast locations of a province, and the i-th of them. */
int dj_map_ncoasts(const dj_map *map, int prov);
int dj_map_coast(const dj_map *map, int prov, int i);

static inline int dj_province(const dj_map *map, int loc)
{
    assert(loc >= 0 && loc < map->nlocs);
    return map->locs[loc].province;
}

#endif
