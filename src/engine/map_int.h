/* SPDX-License-Identifier: MIT */
/*
 * map_int.h — private to the map files of the engine: the map-file
 * parser's state, shared by map_load.c (which drives the loading),
 * map_parse.c (files, names, terrain, adjacency, the name tables) and
 * map_lines.c (every other line, and which reader a line goes to); and
 * the one form and hash of a name that the parser and the lookups
 * (map.c) share (map_names.c).
 */
#ifndef DJ_ENGINE_MAP_INT_H
#define DJ_ENGINE_MAP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "map.h"
#include "map_flow.h"

#if defined(__GNUC__) || defined(__clang__)
#define DJ_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DJ_PRINTF(f, a)
#endif

enum {
    LINE_CHARS_MAX = 1024,    /* longest line accepted */
    FILE_BYTES_MAX = 4 << 20, /* largest map file accepted */
    LINES_MAX = 200000,       /* lines in one map, USEd files included */
    USE_DEPTH_MAX = 8,        /* USE nesting below the top file */
    FILES_MAX = 64,           /* files read for one map */
    TOKENS_MAX = LINE_CHARS_MAX / 2 + 1, /* a line can never hold more */
    KEY_MAX = 2 * DJ_NAME_MAX            /* normalised lookup text */
};

/* Where a line came from: index into parser.files, 1-based line number. */
typedef struct src_ref {
    int file;
    int line;
} src_ref;

/* One ABUTS word before it is resolved. */
typedef struct raw_adj {
    char abbr[DJ_ABBR_MAX];
    bool army_only;  /* written in lower case: "ven" */
    bool fleet_only; /* written in Title case: "Tar" */
    bool half;       /* written "*EGY": a half-strength border */
} raw_adj;

/* A location while the file is being read. */
typedef struct loc_draft {
    char abbr[DJ_ABBR_MAX];
    char name[DJ_NAME_MAX];
    dj_terrain terrain;
    bool has_terrain, has_name;
    bool fleets_barred; /* written in lower case: a multi-coast base */
    bool dropped;       /* DROP, or renamed away: no longer on the board */
    bool port;          /* PORT: a coast where a fleet may convoy */
    bool has_coasts;
    int base; /* draft index of its province's base */
    src_ref terrain_at, name_at;
    int nraw;
    raw_adj raw[DJ_MAX_ADJ];
} loc_draft;

typedef struct alias_draft {
    char text[DJ_NAME_MAX];
    int loc; /* draft index, then final index once locations are fixed */
    int seq; /* declaration order, to blame the later of two duplicates */
    src_ref at;
} alias_draft;

/* A DROP or a rename (Old -> New = new): lines before it that name the
 * old abbreviation (an inherited map's homes and units) meant the place
 * as it then was; see mp_loc_as_of. */
typedef struct map_change {
    int line; /* index into parser.lines */
    bool drop;
    char old[DJ_ABBR_MAX], renamed[DJ_ABBR_MAX];
} map_change;

typedef struct map_line {
    const char *text;
    int len;
    src_ref at;
} map_line;

typedef struct input_file {
    char *path;
    char *data; /* owned file contents, NULL for in-memory text */
    dev_t dev;
    ino_t ino;
} input_file;

typedef struct parser {
    char *err;
    size_t errlen;
    bool failed;
    bool allow_use;
    input_file files[FILES_MAX];
    int nfiles;
    int stack[USE_DEPTH_MAX + 1]; /* files being flattened, for cycles */
    int depth;
    map_line *lines;
    int nlines, lines_cap;
    loc_draft *drafts;
    int ndrafts, drafts_cap;
    alias_draft *aliases;
    int naliases, aliases_cap;
    int *final_of; /* draft index -> final location index */
    map_change *changes;
    int nchanges, changes_cap;
    int line_index;       /* the line being read, in every pass */
    bool *unowned_listed; /* pass 2: per location, on an UNOWNED line */
    dj_map *map;
    int unit_power; /* pass 2: power whose unit list is open, or -1 */
    int cur_power;  /* passes 2-3: power of the last power line, or -1 */
    int start_file[DJ_MAX_UNITS]; /* file each starting unit was read from */
    dj_power_set homes_reset;     /* pass 3: powers whose HOME list has begun */
    bool victory_set;
    src_ref victory_at;
    /* BEGIN as written, resolved against the FLOW once both are read */
    dj_flow flow;
    bool has_flow;
    src_ref flow_at;
    bool begin_set, begin_standard;
    src_ref begin_at;
    char begin_season[DJ_FLOW_WORD_MAX];
    char begin_type[16];
    int begin_year;
} parser;

/* Bits of dj_map::reach. */
enum {
    REACH_ARMY_ADJ = 1,
    REACH_FLEET_ADJ = 2,
    REACH_ARMY_PROV = 4,
    REACH_FLEET_PROV = 8,
    REACH_ARMY_HALF = 16,        /* the army's border there is a `*` */
    REACH_FLEET_HALF = 32,       /* the fleet's border there is a `*` */
    REACH_ARMY_PROV_WHOLE = 64,  /* the province reached by an army across
                                    an ordinary border */
    REACH_FLEET_PROV_WHOLE = 128, /* ... by a fleet */
};

/* ---- names (map_names.c) ---------------------------------------------- */

/* The words of a coast notation, and the word "coast" that may follow. */
#define MP_NCOAST_WORDS 4
extern const char *const MP_COAST_WORDS[MP_NCOAST_WORDS][4];
extern const char MP_COAST_SUFFIX[6];

/* tolower of the C locale (the program sets no locale), without a call:
 * inline, as every name looked up goes through it. */
static inline char mp_ascii_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c + ('a' - 'A')) : c;
}

int mp_normalise_n(const char *src, size_t len, char *dst, size_t size);
bool mp_normalise(const char *src, char *dst, size_t size);
char *mp_trim(char *s);

/* FNV-1a: the alias hash's function (orders and case files look up a
 * name for nearly every word they read), a byte at a time or whole. */
#define NAME_HASH_START 2166136261u
static inline uint32_t mp_name_hash_step(uint32_t h, unsigned char c)
{
    return (h ^ c) * 16777619u;
}

uint32_t mp_name_hash(const char *s, size_t n);
/* Where a letter, either case, is in the alphabet; -1 for no letter
 * (inline: three calls for each three-letter name looked up). */
static inline int mp_letter_index(char c)
{
    unsigned char l = (unsigned char)c | 0x20;
    return l >= 'a' && l <= 'z' ? l - 'a' : -1;
}

bool mp_word_cut(char c);
int32_t mp_find_word(const dj_map *m, const char *w, size_t n);

/* ---- steps 1-3 and the parser's helpers (map_parse.c) -------------------- */

/* Step 1: a file (its text, or NULL to read path) added to the list, its
 * lines (and those of the files it USEs) flattened into p->lines. */
int mp_add_file(parser *p, const char *path, char *data, src_ref from);
void mp_flatten_file(parser *p, const char *path, src_ref from);
void mp_flatten_lines(parser *p, int file);
/* Step 3, after pass 1: locations numbered, adjacency and names tabled. */
void mp_fix_locations(parser *p);

/* No line: an error about the map as a whole. */
extern const src_ref mp_no_line;
/* The first error only: "file:line: message" into p->err. */
void mp_fail_at(parser *p, src_ref at, const char *fmt, ...) DJ_PRINTF(3, 4);
/* Helpers of the line readers: keywords, words, numbers, a line's text. */
bool mp_word_is(const char *w, const char *kw);
void mp_title_case(char *dst, const char *src, size_t size);
bool mp_terrain_word(const char *w, dj_terrain *t);
void mp_terrain_line(parser *p, dj_terrain terrain, char **tok, int ntok,
                     src_ref at);
int mp_split_words(char *s, char **tok, int max);
bool mp_parse_number(const char *s, int lo, int hi, int *out);
/* Pass 1's readers: a terrain line, a name line. */
void mp_name_line(parser *p, char *text, src_ref at);
void mp_names_line(parser *p, char **tok, int ntok, src_ref at);
void mp_line_text(const map_line *l, char *buf);

/* Pass 1's DPjudge variant lines: AMEND, DROP (map_parse.c). */
void mp_amend_line(parser *p, char **tok, int ntok, src_ref at);
void mp_drop_line(parser *p, char **tok, int ntok, src_ref at);
/* The location a word of the current line names as of that line: an
 * abbreviation a later DROP removed gives -1 with *gone set, one a later
 * rename changed gives the renamed place (map_parse.c). */
int mp_loc_as_of(parser *p, const char *word, bool *gone);

/* ---- pass 2 and the dispatch of lines (map_lines.c) ---------------------- */

/* One line to its reader in pass 1, 2 or 3. */
void mp_handle_line(parser *p, const map_line *l, int pass);
/* BEGIN resolved against the FLOW, once every line is read. */
void mp_resolve_flow(parser *p);

#endif
