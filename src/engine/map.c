/*
 * map.c — loading a DPjudge-style .map file into an immutable dj_map, and
 * the lookups the rest of the engine runs against it.
 *
 * Loading runs in four steps:
 *   1. flatten: the file and every file it USEs become one list of lines,
 *      each remembering its file and line number for error messages;
 *   2. pass 1: name lines and terrain lines declare locations, in any order
 *      (an ABUTS list may name a location declared further down);
 *   3. the locations are fixed: provinces and standing rules are derived,
 *      locations renumbered so each province's coasts directly follow its
 *      base, ABUTS lists resolved into sorted adjacency arrays whose type
 *      masks already apply the terrain rules, and every name put into one
 *      sorted table for binary search;
 *   4. pass 2: powers, supply centres, starting units and directives, which
 *      can now look locations up by any of their names.
 * The first error stops loading; it is reported as "file:line: message" and
 * everything allocated so far is freed.
 *
 * Adjacency entries for armies always point at a province's base location,
 * so "may an army go from X to Y" is a binary search for Y's province in
 * X's sorted list; fleet entries name the exact location (coast).
 */
#define _POSIX_C_SOURCE 200809L

#include "map.h"
#include "map_flow.h"
#include "position.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>

#if defined(__GNUC__) || defined(__clang__)
#define DJ_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DJ_PRINTF(f, a)
#endif

enum {
    LINE_CHARS_MAX = 1024,          /* longest line accepted */
    FILE_BYTES_MAX = 4 << 20,       /* largest map file accepted */
    LINES_MAX = 200000,             /* lines in one map, USEd files included */
    USE_DEPTH_MAX = 8,              /* USE nesting below the top file */
    FILES_MAX = 64,                 /* files read for one map */
    TOKENS_MAX = LINE_CHARS_MAX / 2 + 1, /* a line can never hold more */
    KEY_MAX = 2 * DJ_NAME_MAX       /* normalised lookup text */
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
} raw_adj;

/* A location while the file is being read. */
typedef struct loc_draft {
    char abbr[DJ_ABBR_MAX];
    char name[DJ_NAME_MAX];
    dj_terrain terrain;
    bool has_terrain, has_name;
    bool fleets_barred; /* written in lower case: a multi-coast base */
    bool port;          /* PORT: a coast where a fleet may convoy */
    bool has_coasts;
    int base;           /* draft index of its province's base */
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

typedef struct map_line {
    const char *text;
    int len;
    src_ref at;
} map_line;

typedef struct input_file {
    char *path;
    char *data;  /* owned file contents, NULL for in-memory text */
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
    int *final_of;    /* draft index -> final location index */
    dj_map *map;
    int unit_power;   /* pass 2: power whose unit list is open, or -1 */
    int cur_power;    /* passes 2-3: power of the last power line, or -1 */
    int start_file[DJ_MAX_UNITS]; /* file each starting unit was read from */
    dj_power_set homes_reset; /* pass 3: powers whose HOME list has begun */
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

/* ---- errors and small helpers ------------------------------------------ */

static void fail_at(parser *p, src_ref at, const char *fmt, ...) DJ_PRINTF(3, 4);

static void fail_at(parser *p, src_ref at, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    if (!p->err || p->errlen == 0)
        return;
    int n = 0;
    if (at.file >= 0 && at.file < p->nfiles) {
        const char *path = p->files[at.file].path;
        n = at.line > 0 ? snprintf(p->err, p->errlen, "%s:%d: ", path, at.line)
                        : snprintf(p->err, p->errlen, "%s: ", path);
        if (n < 0)
            n = 0;
    }
    if ((size_t)n >= p->errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

static const src_ref no_line = {0, 0};

/* arr grown to hold at least need elements (arr itself if it already
 * does); NULL when out of memory, leaving arr and *cap as they were. */
static void *grow(void *arr, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return arr;
    int ncap = *cap ? *cap : 64;
    while (ncap < need)
        ncap *= 2;
    void *n = realloc(arr, (size_t)ncap * elem);
    if (n)
        *cap = ncap;
    return n;
}

static bool word_is(const char *w, const char *kw)
{
    for (; *w && *kw; w++, kw++)
        if (toupper((unsigned char)*w) != *kw)
            return false;
    return *w == '\0' && *kw == '\0';
}

/* DPjudge's Title case: an upper-case letter, then lower case only. */
static bool is_title_word(const char *w)
{
    if (!isupper((unsigned char)w[0]))
        return false;
    bool lower = false;
    for (w++; *w; w++) {
        if (isupper((unsigned char)*w))
            return false;
        if (islower((unsigned char)*w))
            lower = true;
    }
    return lower;
}

/* A word with lower-case letters and no upper-case ones. */
static bool is_lower_word(const char *w)
{
    bool lower = false;
    for (; *w; w++) {
        if (isupper((unsigned char)*w))
            return false;
        if (islower((unsigned char)*w))
            lower = true;
    }
    return lower;
}

static void lower_copy(char *dst, const char *src, size_t size)
{
    size_t i = 0;
    for (; src[i] && i + 1 < size; i++)
        dst[i] = (char)tolower((unsigned char)src[i]);
    dst[i] = '\0';
}

/* tolower of the C locale (the program sets no locale), without a call. */
static char ascii_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c + ('a' - 'A')) : c;
}

/*
 * Lookup form of a name: lower case, dots dropped, runs of white space (and
 * '+', the DPjudge space) as one space, trimmed.  Reads the n bytes at src
 * (stopping early at a NUL); the key's length, or -1 if it does not fit.
 * ASCII only, as the C locale's ctype (the program never sets a locale):
 * every order and case-file word comes through here, so no ctype calls.
 */
static int normalise_n(const char *src, size_t len, char *dst, size_t size)
{
    size_t n = 0;
    bool space = false;
    for (size_t i = 0; i < len && src[i]; i++) {
        unsigned char c = (unsigned char)src[i];
        if (c == '.')
            continue;
        if (c == ' ' || c == '+' || (c >= '\t' && c <= '\r')) {
            space = n > 0;
            continue;
        }
        if (n + (space ? 2 : 1) >= size)
            return -1;
        if (space)
            dst[n++] = ' ';
        space = false;
        dst[n++] = ascii_lower((char)c);
    }
    dst[n] = '\0';
    return (int)n;
}

static bool normalise(const char *src, char *dst, size_t size)
{
    return normalise_n(src, (size_t)-1, dst, size) >= 0;
}

/* "FRANCE" or "north+italy" -> "France", "North Italy" for display. */
static void title_case(char *dst, const char *src, size_t size)
{
    size_t n = 0;
    bool start = true;
    for (; *src && n + 1 < size; src++) {
        char c = *src == '+' || *src == '_' ? ' ' : *src;
        dst[n++] = (char)(start ? toupper((unsigned char)c)
                                : tolower((unsigned char)c));
        start = c == ' ';
    }
    dst[n] = '\0';
}

/* Split a line in place into words; returns how many. */
static int split_words(char *s, char **tok, int max)
{
    int n = 0;
    while (*s) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s || n == max)
            break;
        tok[n++] = s;
        while (*s && !isspace((unsigned char)*s))
            s++;
        if (*s)
            *s++ = '\0';
    }
    return n;
}

/* Copy a line into buf (LINE_CHARS_MAX + 1 bytes), dropping its comment. */
static void line_text(const map_line *l, char *buf)
{
    int n = l->len < LINE_CHARS_MAX ? l->len : LINE_CHARS_MAX;
    memcpy(buf, l->text, (size_t)n);
    buf[n] = '\0';
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static bool parse_number(const char *s, int lo, int hi, int *out)
{
    long v = 0;
    if (!*s)
        return false;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s) || v > 1000000)
            return false;
        v = v * 10 + (*s - '0');
    }
    if (v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

/* ---- step 1: flatten files into lines ----------------------------------- */

static int add_file(parser *p, const char *path, char *data, src_ref from)
{
    if (p->nfiles == FILES_MAX) {
        fail_at(p, from, "more than %d map files", FILES_MAX);
        free(data);
        return -1;
    }
    char *copy = malloc(strlen(path) + 1);
    if (!copy) {
        fail_at(p, from, "out of memory");
        free(data);
        return -1;
    }
    strcpy(copy, path);
    input_file *f = &p->files[p->nfiles];
    memset(f, 0, sizeof *f);
    f->path = copy;
    f->data = data;
    return p->nfiles++;
}

static void add_line(parser *p, const char *text, int len, src_ref at)
{
    if (p->nlines == LINES_MAX) {
        fail_at(p, at, "more than %d lines", LINES_MAX);
        return;
    }
    void *grown =
        grow(p->lines, &p->lines_cap, p->nlines + 1, sizeof *p->lines);
    if (!grown) {
        fail_at(p, at, "out of memory");
        return;
    }
    p->lines = grown;
    p->lines[p->nlines++] = (map_line){text, len, at};
}

static void flatten_file(parser *p, const char *path, src_ref from);

/* A USE line: include the named file, relative to the including one. */
static void use_file(parser *p, char **tok, int ntok, src_ref at)
{
    if (!p->allow_use) {
        fail_at(p, at, "USE is not allowed in map text");
        return;
    }
    if (ntok != 2) {
        fail_at(p, at, "USE needs exactly one file name");
        return;
    }
    const char *dir = p->files[at.file].path;
    const char *slash = strrchr(dir, '/');
    size_t dirlen = tok[1][0] == '/' || !slash ? 0 : (size_t)(slash - dir) + 1;
    char *full = malloc(dirlen + strlen(tok[1]) + 1);
    if (!full) {
        fail_at(p, at, "out of memory");
        return;
    }
    memcpy(full, dir, dirlen);
    strcpy(full + dirlen, tok[1]);
    flatten_file(p, full, at);
    free(full);
}

/*
 * DPjudge's "MAP name" line: a variant built on another map names it, and
 * that map file (name.map beside this one) is read first, as by USE.  A map
 * naming itself ("MAP standard" in standard.map), or a name with no file,
 * only names the map.  True when the line included a file (or failed).
 */
static bool root_map_file(parser *p, const char *name, src_ref at)
{
    const char *dir = p->files[at.file].path;
    const char *slash = strrchr(dir, '/');
    size_t dirlen = !slash ? 0 : (size_t)(slash - dir) + 1;
    if (strchr(name, '/') || strlen(name) > DJ_NAME_MAX)
        return false;
    char full[DJ_NAME_MAX + 8 + 4096];
    if (dirlen >= 4096)
        return false;
    snprintf(full, sizeof full, "%.*s%s%s", (int)dirlen, dir, name,
             strchr(name, '.') ? "" : ".map");
    struct stat st;
    if (stat(full, &st) != 0)
        return false;
    const input_file *self = &p->files[at.file];
    if (self->dev == st.st_dev && self->ino == st.st_ino)
        return false;
    char *tok[2] = {"USE", full + dirlen}; /* USE resolves it beside us */
    use_file(p, tok, 2, at);
    return true;
}

static void flatten_lines(parser *p, int file)
{
    const char *s = p->files[file].data;
    int lineno = 0;
    while (*s && !p->failed) {
        const char *nl = strchr(s, '\n');
        int len = nl ? (int)(nl - s) : (int)strlen(s);
        src_ref at = {file, ++lineno};
        if (len > 0 && s[len - 1] == '\r')
            len--;
        if (len > LINE_CHARS_MAX) {
            fail_at(p, at, "line longer than %d characters", LINE_CHARS_MAX);
            return;
        }
        char buf[LINE_CHARS_MAX + 1];
        char *tok[3];
        map_line l = {s, len, at};
        line_text(&l, buf);
        int ntok = split_words(buf, tok, 3);
        if (ntok > 0 && (word_is(tok[0], "USE") || word_is(tok[0], "USES")))
            use_file(p, tok, ntok, at);
        else if (ntok == 2 && word_is(tok[0], "MAP") && p->allow_use &&
                 root_map_file(p, tok[1], at))
            ; /* "MAP standard": the variant is built on standard.map */
        else
            add_line(p, s, len, at);
        if (!nl)
            break;
        s = nl + 1;
    }
}

static char *read_whole_file(parser *p, const char *path, src_ref from)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail_at(p, from, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    char *data = malloc(FILE_BYTES_MAX + 1);
    size_t n = data ? fread(data, 1, FILE_BYTES_MAX + 1, f) : 0;
    bool bad = data && ferror(f);
    fclose(f);
    if (!data)
        fail_at(p, from, "out of memory");
    else if (bad)
        fail_at(p, from, "cannot read %s", path);
    else if (n > FILE_BYTES_MAX)
        fail_at(p, from, "%s is larger than %d bytes", path, FILE_BYTES_MAX);
    if (p->failed) {
        free(data);
        return NULL;
    }
    data[n] = '\0';
    char *small = realloc(data, n + 1);
    return small ? small : data;
}

static void flatten_file(parser *p, const char *path, src_ref from)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fail_at(p, from, "cannot open %s: %s", path, strerror(errno));
        return;
    }
    for (int i = 0; i < p->depth; i++) {
        const input_file *f = &p->files[p->stack[i]];
        if (f->dev == st.st_dev && f->ino == st.st_ino) {
            fail_at(p, from, "USE cycle: %s is already being read", path);
            return;
        }
    }
    if (p->depth > USE_DEPTH_MAX) {
        fail_at(p, from, "USE nested more than %d deep", USE_DEPTH_MAX);
        return;
    }
    char *data = read_whole_file(p, path, from);
    if (!data)
        return;
    int file = add_file(p, path, data, from);
    if (file < 0)
        return;
    p->files[file].dev = st.st_dev;
    p->files[file].ino = st.st_ino;
    p->stack[p->depth++] = file;
    flatten_lines(p, file);
    p->depth--;
}

/* ---- step 2: names and terrain ------------------------------------------ */

static int find_draft(const parser *p, const char *abbr)
{
    for (int i = 0; i < p->ndrafts; i++)
        if (strcmp(p->drafts[i].abbr, abbr) == 0)
            return i;
    return -1;
}

static void add_alias(parser *p, const char *text, int loc, src_ref at)
{
    void *grown =
        grow(p->aliases, &p->aliases_cap, p->naliases + 1, sizeof *p->aliases);
    if (!grown) {
        fail_at(p, at, "out of memory");
        return;
    }
    p->aliases = grown;
    alias_draft *a = &p->aliases[p->naliases];
    snprintf(a->text, sizeof a->text, "%s", text);
    a->loc = loc;
    a->seq = p->naliases++;
    a->at = at;
}

/* The draft for an abbreviation, created (with the abbreviation as a name)
 * on first mention. */
static int draft_for(parser *p, const char *word, src_ref at)
{
    if (strlen(word) >= DJ_ABBR_MAX) {
        fail_at(p, at, "abbreviation '%s' longer than %d characters", word,
                DJ_ABBR_MAX - 1);
        return -1;
    }
    /* Lookups drop '.' and read '+' as a space: an abbreviation holding
     * either could never be found again. */
    if (strpbrk(word, ".+")) {
        fail_at(p, at, "abbreviation '%s' may not contain '.' or '+'", word);
        return -1;
    }
    char abbr[DJ_ABBR_MAX];
    lower_copy(abbr, word, sizeof abbr);
    int d = find_draft(p, abbr);
    if (d >= 0)
        return d;
    if (p->ndrafts == DJ_MAX_LOCS) {
        fail_at(p, at, "more than %d locations", DJ_MAX_LOCS);
        return -1;
    }
    void *grown =
        grow(p->drafts, &p->drafts_cap, p->ndrafts + 1, sizeof *p->drafts);
    if (!grown) {
        fail_at(p, at, "out of memory");
        return -1;
    }
    p->drafts = grown;
    d = p->ndrafts++;
    loc_draft *ld = &p->drafts[d];
    memset(ld, 0, sizeof *ld);
    memcpy(ld->abbr, abbr, strlen(abbr) + 1);
    add_alias(p, abbr, d, at);
    return d;
}

/* "Full Name = abbr alias alias ..." */
static void name_line(parser *p, char *text, src_ref at)
{
    char *eq = strchr(text, '=');
    *eq = '\0';
    char full[DJ_NAME_MAX];
    char *left = trim(text);
    char *tok[TOKENS_MAX];
    int ntok = split_words(eq + 1, tok, TOKENS_MAX);
    if (!*left) {
        fail_at(p, at, "name line has no full name before '='");
        return;
    }
    if (ntok == 0) {
        fail_at(p, at, "name line has no abbreviation after '='");
        return;
    }
    /* Collapse inner spaces of the full name as written. */
    char *parts[TOKENS_MAX];
    int nparts = split_words(left, parts, TOKENS_MAX);
    size_t n = 0;
    for (int i = 0; i < nparts; i++) {
        size_t len = strlen(parts[i]);
        if (n + len + (i > 0) >= sizeof full) {
            fail_at(p, at, "full name longer than %d characters",
                    DJ_NAME_MAX - 1);
            return;
        }
        if (i > 0)
            full[n++] = ' ';
        memcpy(full + n, parts[i], len);
        n += len;
    }
    full[n] = '\0';
    int d = draft_for(p, tok[0], at);
    if (d < 0)
        return;
    loc_draft *ld = &p->drafts[d];
    if (ld->has_name) {
        fail_at(p, at, "'%s' is named twice", ld->abbr);
        return;
    }
    ld->has_name = true;
    ld->name_at = at;
    memcpy(ld->name, full, n + 1);
    char key[DJ_NAME_MAX];
    /* A name that lookups reduce to nothing (dots and '+' only) could
     * never be found: refused, like a name too long. */
    if (!normalise(full, key, sizeof key) || !*key) {
        fail_at(p, at, "full name '%s' has nothing but dots and '+'", full);
        return;
    }
    add_alias(p, key, d, at);
    for (int i = 1; i < ntok && !p->failed; i++) {
        if (!normalise(tok[i], key, sizeof key)) {
            fail_at(p, at, "alias '%s' longer than %d characters", tok[i],
                    DJ_NAME_MAX - 1);
            return;
        }
        if (!*key) {
            fail_at(p, at, "alias '%s' has nothing but dots and '+'", tok[i]);
            return;
        }
        add_alias(p, key, d, at);
    }
}

/* "COAST LOC ABUTS n n n ..." */
static void terrain_line(parser *p, dj_terrain terrain, char **tok, int ntok,
                         src_ref at)
{
    if (ntok < 2) {
        fail_at(p, at, "%s line names no location", tok[0]);
        return;
    }
    if (ntok > 2 && !word_is(tok[2], "ABUTS")) {
        fail_at(p, at, "expected ABUTS after %s %s, found '%s'", tok[0], tok[1],
                tok[2]);
        return;
    }
    int d = draft_for(p, tok[1], at);
    if (d < 0)
        return;
    loc_draft *ld = &p->drafts[d];
    if (ld->has_terrain) {
        fail_at(p, at, "'%s' has two terrain lines", ld->abbr);
        return;
    }
    ld->has_terrain = true;
    ld->terrain_at = at;
    ld->port = terrain == DJ_PORT;
    ld->terrain = ld->port ? DJ_COAST : terrain;
    ld->fleets_barred = is_lower_word(tok[1]);
    for (int i = 3; i < ntok; i++) {
        if (ld->nraw == DJ_MAX_ADJ) {
            fail_at(p, at, "'%s' has more than %d neighbours", ld->abbr,
                    DJ_MAX_ADJ);
            return;
        }
        if (strlen(tok[i]) >= DJ_ABBR_MAX) {
            fail_at(p, at, "abbreviation '%s' longer than %d characters",
                    tok[i], DJ_ABBR_MAX - 1);
            return;
        }
        raw_adj *r = &ld->raw[ld->nraw++];
        lower_copy(r->abbr, tok[i], sizeof r->abbr);
        r->army_only = is_lower_word(tok[i]);
        r->fleet_only = is_title_word(tok[i]);
    }
}

static bool terrain_word(const char *w, dj_terrain *t)
{
    static const struct {
        const char *word;
        dj_terrain terrain;
    } words[] = {{"LAND", DJ_LAND}, {"WATER", DJ_WATER},
                 {"COAST", DJ_COAST}, {"SHUT", DJ_SHUT},
                 {"PORT", DJ_PORT}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (word_is(w, words[i].word)) {
            *t = words[i].terrain;
            return true;
        }
    return false;
}

/* ---- step 3: fix the locations ------------------------------------------ */

/* Sort key pairing an abbreviation with its draft index. */
typedef struct abbr_key {
    const char *abbr;
    int draft;
} abbr_key;

static int cmp_abbr_key(const void *a, const void *b)
{
    return strcmp(((const abbr_key *)a)->abbr, ((const abbr_key *)b)->abbr);
}

/* Draft index of an abbreviation via the sorted keys, or -1. */
static int lookup_abbr(const abbr_key *keys, int n, const char *abbr)
{
    abbr_key k = {abbr, -1};
    const abbr_key *hit = bsearch(&k, keys, (size_t)n, sizeof *keys,
                                  cmp_abbr_key);
    return hit ? hit->draft : -1;
}

/* Link every coast ("spa/nc") to its base ("spa"). */
static void link_coasts(parser *p, const abbr_key *keys)
{
    for (int d = 0; d < p->ndrafts && !p->failed; d++) {
        loc_draft *ld = &p->drafts[d];
        ld->base = d;
        const char *slash = strchr(ld->abbr, '/');
        if (!slash)
            continue;
        char base[DJ_ABBR_MAX];
        snprintf(base, sizeof base, "%.*s", (int)(slash - ld->abbr), ld->abbr);
        int b = lookup_abbr(keys, p->ndrafts, base);
        if (b < 0 || strchr(base, '/')) {
            fail_at(p, ld->terrain_at, "coast '%s' of undeclared province '%s'",
                    ld->abbr, base);
            return;
        }
        if (ld->terrain != DJ_COAST && ld->terrain != DJ_WATER) {
            fail_at(p, ld->terrain_at, "coast '%s' must be COAST or WATER",
                    ld->abbr);
            return;
        }
        ld->base = b;
        p->drafts[b].has_coasts = true;
    }
}

/* Final numbering: each base, then its coasts, in declaration order. */
static void number_locations(parser *p)
{
    int next = 0;
    for (int d = 0; d < p->ndrafts; d++) {
        if (p->drafts[d].base != d)
            continue;
        p->final_of[d] = next++;
        for (int c = 0; c < p->ndrafts; c++)
            if (c != d && p->drafts[c].base == d)
                p->final_of[c] = next++;
    }
}

static void fill_location(parser *p, int d)
{
    const loc_draft *ld = &p->drafts[d];
    dj_location *l = &p->map->locs[p->final_of[d]];
    memcpy(l->abbr, ld->abbr, sizeof l->abbr);
    if (ld->has_name) {
        memcpy(l->name, ld->name, sizeof l->name);
    } else {
        for (size_t i = 0; ld->abbr[i]; i++)
            l->name[i] = (char)toupper((unsigned char)ld->abbr[i]);
    }
    l->province = p->final_of[ld->base];
    l->terrain = ld->terrain;
    l->is_coast = ld->base != d;
    bool land = ld->terrain == DJ_LAND || ld->terrain == DJ_COAST;
    bool sea = ld->terrain == DJ_WATER || ld->terrain == DJ_COAST;
    l->army_ok = land && !l->is_coast;
    l->fleet_ok = sea && !ld->fleets_barred && !ld->has_coasts;
    l->convoys = ld->terrain == DJ_WATER || ld->port;
}

/* OR type bits into from's entry for `to`, adding one if needed. */
static bool add_adj(dj_location *from, int to, uint8_t types)
{
    for (int i = 0; i < from->nadj; i++)
        if (from->adj[i].to == to) {
            from->adj[i].types |= types;
            return true;
        }
    if (from->nadj == DJ_MAX_ADJ)
        return false;
    from->adj[from->nadj++] = (dj_adj){(int16_t)to, types};
    return true;
}

static int cmp_adj(const void *a, const void *b)
{
    return ((const dj_adj *)a)->to - ((const dj_adj *)b)->to;
}

/* Turn one location's ABUTS words into typed, sorted adjacency entries. */
static void resolve_adjacency(parser *p, const abbr_key *keys, int d)
{
    const loc_draft *ld = &p->drafts[d];
    dj_location *locs = p->map->locs;
    dj_location *from = &locs[p->final_of[d]];
    for (int i = 0; i < ld->nraw; i++) {
        int t = lookup_abbr(keys, p->ndrafts, ld->raw[i].abbr);
        if (t < 0) {
            fail_at(p, ld->terrain_at, "'%s' abuts undeclared location '%s'",
                    ld->abbr, ld->raw[i].abbr);
            return;
        }
        if (t == d) {
            fail_at(p, ld->terrain_at, "'%s' abuts itself", ld->abbr);
            return;
        }
        int to = p->final_of[t];
        int prov = locs[to].province;
        bool ok = true;
        if (!ld->raw[i].army_only && from->fleet_ok && locs[to].fleet_ok)
            ok = add_adj(from, to, DJ_TYPE_BIT(DJ_FLEET));
        if (ok && !ld->raw[i].fleet_only && from->army_ok &&
            locs[prov].army_ok)
            ok = add_adj(from, prov, DJ_TYPE_BIT(DJ_ARMY));
        if (!ok) {
            fail_at(p, ld->terrain_at, "'%s' has more than %d adjacencies",
                    ld->abbr, DJ_MAX_ADJ);
            return;
        }
    }
    qsort(from->adj, (size_t)from->nadj, sizeof from->adj[0], cmp_adj);
}

static int cmp_alias_draft(const void *a, const void *b)
{
    const alias_draft *x = a, *y = b;
    int c = strcmp(x->text, y->text);
    return c ? c : x->seq - y->seq;
}

/* FNV-1a: the alias hash's function (orders and case files look up a
 * name for nearly every word they read). */
#define NAME_HASH_START 2166136261u

static uint32_t name_hash_step(uint32_t h, unsigned char c)
{
    return (h ^ c) * 16777619u;
}

static uint32_t name_hash(const char *s, size_t n)
{
    uint32_t h = NAME_HASH_START;
    for (size_t i = 0; i < n; i++)
        h = name_hash_step(h, (unsigned char)s[i]);
    return h;
}

/* Where a letter, either case, is in the alphabet; -1 for no letter. */
static int letter_index(char c)
{
    unsigned char l = (unsigned char)c | 0x20;
    return l >= 'a' && l <= 'z' ? l - 'a' : -1;
}

/* The three-letter aliases by their letters (dj_map.three_letter).  The
 * aliases are unique, so this gives the answer the hash gives. */
static void build_three_letter(parser *p)
{
    dj_map *m = p->map;
    m->three_letter = calloc(26 * 26 * 26, sizeof *m->three_letter);
    if (!m->three_letter) {
        fail_at(p, no_line, "out of memory");
        return;
    }
    for (int i = 0; i < m->naliases; i++) {
        const char *t = m->aliases[i].text;
        if (strlen(t) != 3 || letter_index(t[0]) < 0 || t[0] < 'a' ||
            letter_index(t[1]) < 0 || t[1] < 'a' || letter_index(t[2]) < 0 ||
            t[2] < 'a')
            continue; /* not three lower-case letters */
        uint16_t *slot = &m->three_letter[((t[0] - 'a') * 26 + (t[1] - 'a')) *
                                              26 + (t[2] - 'a')];
        if (*slot == 0)
            *slot = (uint16_t)(m->aliases[i].loc + 1);
    }
}

/* The aliases by hash, open addressing: entry i + 1 for alias i, 0 empty. */
static void build_alias_hash(parser *p)
{
    dj_map *m = p->map;
    int size = 16;
    while (size < 2 * m->naliases)
        size *= 2;
    m->alias_hash = calloc((size_t)size, sizeof *m->alias_hash);
    if (!m->alias_hash) {
        fail_at(p, no_line, "out of memory");
        return;
    }
    m->alias_hash_mask = (uint32_t)size - 1;
    for (int i = 0; i < m->naliases; i++) {
        const char *text = m->aliases[i].text;
        uint32_t h = name_hash(text, strlen(text)) & m->alias_hash_mask;
        while (m->alias_hash[h])
            h = (h + 1) & m->alias_hash_mask;
        m->alias_hash[h] = i + 1;
    }
    build_three_letter(p);
}

/* The words of a coast notation ("spa north coast", "spa (nc)"): each
 * coast's code, then the words that name it (coast_code), and the word
 * "coast" that may follow. */
static const char *const COAST_WORDS[][4] = {
    {"nc", "n", "north", "nc"}, {"sc", "s", "south", "sc"},
    {"ec", "e", "east", "ec"},  {"wc", "w", "west", "wc"}};
static const char COAST_SUFFIX[] = "coast";

/* Words of names, for dj_map_may_name: each alias cut at spaces,
 * parentheses and hyphens (the order reader's tokens), and the coast
 * words. */

static bool word_cut(char c)
{
    return c == ' ' || c == '(' || c == ')' || c == '-';
}

static int32_t find_word(const dj_map *m, const char *w, size_t n)
{
    uint32_t h = name_hash(w, n);
    for (h &= m->word_hash_mask; m->word_hash[h];
         h = (h + 1) & m->word_hash_mask) {
        const char *have = m->name_words + m->word_hash[h];
        if (strncmp(have, w, n) == 0 && have[n] == '\0')
            return (int32_t)h;
    }
    return -(int32_t)h - 1; /* where it would go */
}

/* Add each word of text to the word hash; *used is the next free offset
 * in name_words (sized by build_word_hash). */
static void add_words(dj_map *m, const char *t, size_t *used)
{
    while (*t) {
        while (*t && word_cut(*t))
            t++;
        size_t n = 0;
        while (t[n] && !word_cut(t[n]))
            n++;
        if (n == 0)
            break;
        int32_t at = find_word(m, t, n);
        if (at < 0) {
            memcpy(m->name_words + *used, t, n);
            m->name_words[*used + n] = '\0';
            m->word_hash[-at - 1] = (int32_t)*used;
            *used += n + 1;
        }
        t += n;
    }
}

static void build_word_hash(parser *p)
{
    dj_map *m = p->map;
    enum { NCOAST = sizeof COAST_WORDS / sizeof COAST_WORDS[0] };
    size_t bytes = 1 + sizeof COAST_SUFFIX, nwords = 4 * NCOAST + 1;
    for (int i = 0; i < m->naliases; i++) {
        bytes += strlen(m->aliases[i].text) + 1;
        for (const char *t = m->aliases[i].text; *t; t++)
            nwords += word_cut(*t);
        nwords++;
    }
    for (int k = 0; k < NCOAST; k++)
        for (int j = 0; j < 4; j++)
            bytes += strlen(COAST_WORDS[k][j]) + 1;
    int size = 16;
    while ((size_t)size < 2 * nwords)
        size *= 2;
    m->name_words = malloc(bytes);
    m->word_hash = calloc((size_t)size, sizeof *m->word_hash);
    if (!m->name_words || !m->word_hash) {
        fail_at(p, no_line, "out of memory");
        return;
    }
    m->word_hash_mask = (uint32_t)size - 1;
    size_t used = 1; /* offset 0 unused: 0 in the hash is an empty slot */
    m->name_words[0] = '\0';
    for (int i = 0; i < m->naliases; i++)
        add_words(m, m->aliases[i].text, &used);
    for (int k = 0; k < NCOAST; k++)
        for (int j = 0; j < 4; j++)
            add_words(m, COAST_WORDS[k][j], &used);
    add_words(m, COAST_SUFFIX, &used);
}

bool dj_map_may_name(const dj_map *map, const char *word, size_t n)
{
    char key[KEY_MAX];
    if (!map || !map->word_hash || n >= sizeof key)
        return true; /* longer than any name: let the lookup say */
    bool alnum = false;
    for (size_t i = 0; i < n && !alnum; i++)
        alnum = isalnum((unsigned char)word[i]);
    if (!alnum)
        return true;
    int klen = normalise_n(word, n, key, sizeof key);
    if (klen < 0)
        return true;
    return find_word(map, key, (size_t)klen) >= 0;
}

/* Sort every name, refuse one name for two locations, drop repeats. */
static void build_alias_table(parser *p)
{
    dj_map *m = p->map;
    qsort(p->aliases, (size_t)p->naliases, sizeof *p->aliases, cmp_alias_draft);
    m->aliases = calloc((size_t)p->naliases + 1, sizeof *m->aliases);
    if (!m->aliases) {
        fail_at(p, no_line, "out of memory");
        return;
    }
    for (int i = 0; i < p->naliases; i++) {
        const alias_draft *a = &p->aliases[i];
        int loc = p->final_of[a->loc];
        if (m->naliases > 0 &&
            strcmp(m->aliases[m->naliases - 1].text, a->text) == 0) {
            int prev = m->aliases[m->naliases - 1].loc;
            if (prev != loc) {
                fail_at(p, a->at, "name '%s' already stands for '%s'", a->text,
                        m->locs[prev].abbr);
                return;
            }
            continue;
        }
        dj_alias *out = &m->aliases[m->naliases++];
        memcpy(out->text, a->text, strlen(a->text) + 1);
        out->loc = loc;
    }
    build_alias_hash(p);
    if (!p->failed)
        build_word_hash(p);
}

static bool alloc_location_arrays(parser *p, int n)
{
    dj_map *m = p->map;
    m->locs = calloc((size_t)n, sizeof *m->locs);
    m->is_sc = calloc((size_t)n, sizeof *m->is_sc);
    m->home_of = calloc((size_t)n, sizeof *m->home_of);
    m->initial_owner = calloc((size_t)n, sizeof *m->initial_owner);
    m->start_units = calloc(DJ_MAX_UNITS, sizeof *m->start_units);
    p->final_of = calloc((size_t)n, sizeof *p->final_of);
    if (!m->locs || !m->is_sc || !m->home_of || !m->initial_owner ||
        !m->start_units || !p->final_of) {
        fail_at(p, no_line, "out of memory");
        return false;
    }
    for (int i = 0; i < n; i++)
        m->initial_owner[i] = -1;
    m->nlocs = n;
    return true;
}

static void fix_locations(parser *p)
{
    if (p->ndrafts == 0) {
        fail_at(p, no_line, "no locations declared");
        return;
    }
    for (int d = 0; d < p->ndrafts; d++)
        if (!p->drafts[d].has_terrain) {
            fail_at(p, p->drafts[d].name_at,
                    "'%s' is named but has no terrain line",
                    p->drafts[d].abbr);
            return;
        }
    abbr_key *keys = malloc((size_t)p->ndrafts * sizeof *keys);
    if (!keys || !alloc_location_arrays(p, p->ndrafts)) {
        fail_at(p, no_line, "out of memory");
        free(keys);
        return;
    }
    for (int d = 0; d < p->ndrafts; d++)
        keys[d] = (abbr_key){p->drafts[d].abbr, d};
    qsort(keys, (size_t)p->ndrafts, sizeof *keys, cmp_abbr_key);
    link_coasts(p, keys);
    if (!p->failed) {
        number_locations(p);
        for (int d = 0; d < p->ndrafts; d++)
            fill_location(p, d);
        for (int d = 0; d < p->ndrafts && !p->failed; d++)
            resolve_adjacency(p, keys, d);
    }
    free(keys);
    if (!p->failed)
        build_alias_table(p);
}

/* ---- step 4: powers, centres, units, directives -------------------------- */

static int power_by_name(const dj_map *m, const char *name)
{
    char want[DJ_NAME_MAX], have[DJ_NAME_MAX];
    if (!normalise(name, want, sizeof want))
        return -1;
    for (int i = 0; i < m->npowers; i++) {
        normalise(m->powers[i].name, have, sizeof have);
        if (strcmp(want, have) == 0)
            return i;
    }
    return -1;
}

static char pick_letter(const dj_map *m, const char *name)
{
    for (const char *s = name; *s; s++) {
        if (!isalnum((unsigned char)*s))
            continue;
        char c = (char)toupper((unsigned char)*s);
        bool used = false;
        for (int i = 0; i < m->npowers; i++)
            used = used || m->powers[i].letter == c;
        if (!used)
            return c;
    }
    return '\0';
}

/* Mark a supply centre; owner -1 for UNOWNED. */
static void add_centre(parser *p, const char *word, int owner, src_ref at)
{
    dj_map *m = p->map;
    int loc = dj_map_find_location(m, word);
    if (loc < 0) {
        fail_at(p, at, "unknown location '%s'", word);
        return;
    }
    int prov = m->locs[loc].province;
    if (!m->locs[prov].army_ok && !m->locs[prov].fleet_ok) {
        fail_at(p, at, "'%s' cannot be a supply centre: no unit can enter it",
                word);
        return;
    }
    if (m->is_sc[prov]) {
        fail_at(p, at, "'%s' is already a supply centre", word);
        return;
    }
    m->is_sc[prov] = true;
    m->initial_owner[prov] = (int16_t)owner;
    if (owner >= 0)
        m->home_of[prov] |= DJ_POWER_BIT(owner);
}

/* "FRANCE (FRENCH) BRE MAR PAR" */
static void power_line(parser *p, char **tok, int ntok, src_ref at)
{
    dj_map *m = p->map;
    size_t alen = strlen(tok[1]);
    if (alen < 3 || tok[1][alen - 1] != ')') {
        fail_at(p, at, "power %s: adjective must be written (ADJECTIVE)",
                tok[0]);
        return;
    }
    tok[1][alen - 1] = '\0';
    const char *adj = tok[1] + 1;
    char letter = '\0';
    char *colon = strchr(tok[1], ':');
    if (colon) { /* DPjudge's "(ADJECTIVE:L)" gives the power's letter */
        if (strlen(colon) != 2 || !isalnum((unsigned char)colon[1])) {
            fail_at(p, at, "power %s: the letter after ':' must be one "
                    "letter or digit", tok[0]);
            return;
        }
        letter = (char)toupper((unsigned char)colon[1]);
        *colon = '\0';
    }
    if (strlen(tok[0]) >= DJ_NAME_MAX || strlen(adj) >= DJ_NAME_MAX) {
        fail_at(p, at, "power name longer than %d characters", DJ_NAME_MAX - 1);
        return;
    }
    if (power_by_name(m, tok[0]) >= 0 || dj_map_find_power(m, adj) >= 0) {
        fail_at(p, at, "power %s declared twice", tok[0]);
        return;
    }
    if (m->npowers == DJ_MAX_POWERS) {
        fail_at(p, at, "more than %d powers", DJ_MAX_POWERS);
        return;
    }
    dj_power *pw = &m->powers[m->npowers];
    title_case(pw->name, tok[0], sizeof pw->name);
    title_case(pw->adjective, adj, sizeof pw->adjective);
    for (int i = 0; letter && i < m->npowers; i++)
        if (m->powers[i].letter == letter) {
            fail_at(p, at, "power %s: letter %c is already %s's", tok[0],
                    letter, m->powers[i].name);
            return;
        }
    pw->letter = letter ? letter : pick_letter(m, pw->name);
    if (!pw->letter) {
        fail_at(p, at, "power %s has no letter not already taken", tok[0]);
        return;
    }
    int power = m->npowers++;
    p->cur_power = power;
    for (int i = 2; i < ntok && !p->failed; i++)
        add_centre(p, tok[i], power, at);
}

static void remove_start_unit(parser *p, int i)
{
    dj_map *m = p->map;
    m->nstart--;
    memmove(&m->start_units[i], &m->start_units[i + 1],
            (size_t)(m->nstart - i) * sizeof m->start_units[0]);
    memmove(&p->start_file[i], &p->start_file[i + 1],
            (size_t)(m->nstart - i) * sizeof p->start_file[0]);
}

/* "UNITS" under a power: it starts with none of the units read so far
 * (a variant clearing what the map it is built on gave the power). */
static void units_line(parser *p, src_ref at)
{
    if (p->cur_power < 0) {
        fail_at(p, at, "UNITS does not follow a power");
        return;
    }
    for (int i = p->map->nstart - 1; i >= 0; i--)
        if (p->map->start_units[i].power == p->cur_power)
            remove_start_unit(p, i);
    p->unit_power = p->cur_power;
}

/* "A BUD" / "F STP/SC" under a power name. */
static void unit_line(parser *p, char **tok, int ntok, src_ref at)
{
    dj_map *m = p->map;
    if (ntok != 2) {
        fail_at(p, at, "unit line must be a unit type and one location");
        return;
    }
    if (p->unit_power < 0) {
        fail_at(p, at, "unit '%s %s' does not follow a power name", tok[0],
                tok[1]);
        return;
    }
    int loc = dj_map_find_location(m, tok[1]);
    if (loc < 0) {
        fail_at(p, at, "unknown location '%s'", tok[1]);
        return;
    }
    dj_unit_type type = toupper((unsigned char)tok[0][0]) == 'A' ? DJ_ARMY
                                                                 : DJ_FLEET;
    if (type == DJ_ARMY ? !m->locs[loc].army_ok : !m->locs[loc].fleet_ok) {
        fail_at(p, at, "%s cannot stand in '%s'",
                type == DJ_ARMY ? "an army" : "a fleet", tok[1]);
        return;
    }
    /* A variant may replace a unit of the map it is built on ("MAP
     * standard", then "ITALY" / "F ROM"); within one file two units in one
     * province are a mistake. */
    for (int i = 0; i < m->nstart; i++)
        if (m->locs[m->start_units[i].loc].province == m->locs[loc].province) {
            if (p->start_file[i] == at.file) {
                fail_at(p, at, "two units start in '%s'", tok[1]);
                return;
            }
            remove_start_unit(p, i);
            break;
        }
    if (m->nstart == DJ_MAX_UNITS) {
        fail_at(p, at, "more than %d starting units", DJ_MAX_UNITS);
        return;
    }
    p->start_file[m->nstart] = at.file;
    m->start_units[m->nstart++] = (dj_start_unit){p->unit_power, type, loc};
}

/* The text after a directive's keyword, trimmed. */
static char *after_keyword(char *line)
{
    char *s = trim(line);
    while (*s && !isspace((unsigned char)*s))
        s++;
    return trim(s);
}

static void add_rule(parser *p, const char *text, src_ref at);

/*
 * DPjudge writes rules as words: "RULE BUILD_ANY", "RULES A !B".  The ones
 * that change how a variant plays become dipjudge rule options; the ones
 * about DPjudge's web pages or game set-up are not rules of play here.
 */
static const struct {
    const char *word;
    const char *assignment; /* NULL: refused, with `why` */
    const char *why;
} dpjudge_rules[] = {
    {"BUILD_ANY", "build_sites=any", NULL},
    {"!BUILD_ANY", "build_sites=home", NULL},
    {"HOME_BUILDS", "build_sites=homes", NULL},
    {"!HOME_BUILDS", "build_sites=home", NULL},
    {"MOBILIZE", "", NULL}, /* sets dj_map.mobilize */
    {"BLANK_BOARD", NULL, "starting on an empty board is not supported yet"},
    {"POWER_CHOICE", NULL, "is a setting of the game, not of the map: "
                           "powers are chosen when players join"},
};

static void dpjudge_rule_words(parser *p, char **tok, int ntok, src_ref at)
{
    for (int i = 1; i < ntok && !p->failed; i++) {
        size_t k = 0, n = sizeof dpjudge_rules / sizeof dpjudge_rules[0];
        while (k < n && !word_is(tok[i], dpjudge_rules[k].word))
            k++;
        if (k == n)
            fail_at(p, at, "RULE %s: not a rule dipjudge knows (write "
                    "name=value; `judgectl rules` lists them)", tok[i]);
        else if (!dpjudge_rules[k].assignment)
            fail_at(p, at, "RULE %s: %s", tok[i], dpjudge_rules[k].why);
        else if (!dpjudge_rules[k].assignment[0])
            p->map->mobilize = true;
        else
            add_rule(p, dpjudge_rules[k].assignment, at);
    }
}

static void rule_line(parser *p, char *line, char **tok, int ntok,
                      src_ref at)
{
    char *text = after_keyword(line);
    if (!strchr(text, '=')) {
        if (ntok < 2)
            fail_at(p, at, "RULE needs name=value or DPjudge rule words");
        else
            dpjudge_rule_words(p, tok, ntok, at);
        return;
    }
    if (text[0] == '=') {
        fail_at(p, at, "RULE needs name=value");
        return;
    }
    add_rule(p, text, at);
}

static void add_rule(parser *p, const char *text, src_ref at)
{
    dj_map *m = p->map;
    if (strlen(text) >= DJ_NAME_MAX) {
        fail_at(p, at, "RULE longer than %d characters", DJ_NAME_MAX - 1);
        return;
    }
    if (m->nrules == DJ_MAX_RULES) {
        fail_at(p, at, "more than %d RULE lines", DJ_MAX_RULES);
        return;
    }
    memcpy(m->rules[m->nrules++], text, strlen(text) + 1);
}

static void number_directive(parser *p, char **tok, int ntok, src_ref at)
{
    dj_map *m = p->map;
    bool victory = word_is(tok[0], "VICTORY");
    int v;
    if (ntok != 2 || !parse_number(tok[1], 1, victory ? DJ_MAX_LOCS : 9999,
                                   &v)) {
        fail_at(p, at, "%s needs one number from 1 to %d", tok[0],
                victory ? DJ_MAX_LOCS : 9999);
        return;
    }
    if (victory) {
        m->victory = v;
        p->victory_set = true;
        p->victory_at = at;
    } else {
        m->start_year = v;
    }
}

/* "MAP name" names the map; in a file included by another (the map a
 * variant is built on) it names only that file's map and is passed over. */
static void map_name_line(parser *p, char *line, src_ref at)
{
    if (at.file != 0)
        return;
    char *name = after_keyword(line);
    if (!*name || strlen(name) >= DJ_NAME_MAX) {
        fail_at(p, at, "MAP needs a name of at most %d characters",
                DJ_NAME_MAX - 1);
        return;
    }
    memcpy(p->map->name, name, strlen(name) + 1);
}

/* A line that fits no other shape: say the likeliest mistake. */
static void unknown_line(parser *p, char **tok, src_ref at)
{
    bool has_lower = false;
    for (const char *s = tok[0]; *s; s++)
        has_lower = has_lower || islower((unsigned char)*s);
    if (has_lower)
        fail_at(p, at, "missing '=' in name line");
    else
        fail_at(p, at, "unknown keyword '%s'", tok[0]);
}

typedef enum line_kind {
    LK_BLANK, LK_RULE, LK_NAME, LK_TERRAIN, LK_CENTRES, LK_NUMBER,
    LK_MAP_NAME, LK_UNIT, LK_POWER, LK_HEADER, LK_BEGIN, LK_FLOW, LK_UNITS,
    LK_OWNS, LK_HOMES, LK_DUMMY, LK_IGNORED, LK_REFUSED, LK_UNKNOWN
} line_kind;

/*
 * DPjudge's keywords.  Every keyword of its map dialect is here: read,
 * passed over (it only steers DPjudge's web pages), or refused with the
 * reason, so a map never half-loads.
 */
static const struct {
    const char *word;
    line_kind kind;
    const char *why; /* LK_IGNORED, LK_REFUSED: the reason */
} keywords[] = {
    {"RULE", LK_RULE, NULL},        {"RULES", LK_RULE, NULL},
    {"UNOWNED", LK_CENTRES, NULL},  {"NEUTRAL", LK_CENTRES, NULL},
    {"VICTORY", LK_NUMBER, NULL},   {"YEAR", LK_NUMBER, NULL},
    {"MAP", LK_MAP_NAME, NULL},     {"BEGIN", LK_BEGIN, NULL},
    {"FLOW", LK_FLOW, NULL},
    {"UNITS", LK_UNITS, NULL},
    {"OWNS", LK_OWNS, NULL},        {"CENTERS", LK_OWNS, NULL},
    {"CENTRES", LK_OWNS, NULL},
    {"HOME", LK_HOMES, NULL},       {"HOMES", LK_HOMES, NULL},
    {"INHABITS", LK_HOMES, NULL},
    {"DUMMY", LK_DUMMY, NULL},      {"DUMMIES", LK_DUMMY, NULL},
    {"FLAG", LK_IGNORED, "a flag picture for DPjudge's web pages"},
    {"FLAGS", LK_IGNORED, "flag pictures for DPjudge's web pages"},
    {"TEXTONLY", LK_IGNORED, "DPjudge has no PostScript map for it"},
    {"NOTIFY", LK_IGNORED, "whom DPjudge mails when a game starts"},
    {"IN", LK_REFUSED, "a map that changes during the game is not supported"},
    {"FROM", LK_REFUSED, "a map that changes during the game is not "
                         "supported"},
    {"ROTATE", LK_REFUSED, "rotating control of powers is not supported"},
    {"NEWHOMES", LK_REFUSED, "home centres chosen during the game are not "
                             "supported"},
    {"TEAM", LK_REFUSED, "teams of powers are not supported"},
    {"TEAMS", LK_REFUSED, "teams of powers are not supported"},
    {"LEAGUE", LK_REFUSED, "leagues of powers are not supported"},
    {"CONTROL", LK_REFUSED, "powers controlled by other powers are not "
                            "supported"},
    {"RESERVES", LK_REFUSED, "reserve units are not supported"},
    {"MILITIA", LK_REFUSED, "militia units are not supported"},
    {"DROP", LK_REFUSED, "dropping places from an inherited map is not "
                         "supported"},
    {"AMEND", LK_REFUSED, "amending an inherited place's neighbours is not "
                          "supported"},
    {"UNPLAYED", LK_REFUSED, "unplayed powers are not supported: use DUMMY"},
};

static int keyword_index(const char *word)
{
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (word_is(word, keywords[i].word))
            return (int)i;
    return -1;
}

/* What a line is, from its shape; tok/ntok are its words. */
static line_kind classify(const char *line, char **tok, int ntok)
{
    dj_terrain t;
    if (ntok == 0)
        return LK_BLANK;
    if (word_is(tok[0], "RULE") || word_is(tok[0], "RULES"))
        return LK_RULE;
    if (word_is(tok[0], "FLOW")) /* IFYEARDIV:10=5 is no name line */
        return LK_FLOW;
    if (strchr(line, '='))
        return LK_NAME;
    if (terrain_word(tok[0], &t))
        return LK_TERRAIN;
    if (word_is(tok[ntok - 1], "DIRECTIVE") ||
        word_is(tok[ntok - 1], "DIRECTIVES"))
        return LK_REFUSED;
    int k = keyword_index(tok[0]);
    if (k >= 0)
        return keywords[k].kind;
    if ((word_is(tok[0], "A") || word_is(tok[0], "F")) && ntok >= 2)
        return LK_UNIT;
    if (ntok >= 2 && tok[1][0] == '(')
        return LK_POWER;
    if (ntok == 1)
        return LK_HEADER;
    return LK_UNKNOWN;
}

/* "FLOW A.D.:MOVEMENT,RETREATS": entries of the game's year (map_flow.h). */
static void flow_line(parser *p, char **tok, int ntok, src_ref at)
{
    if (ntok < 2) {
        fail_at(p, at, "FLOW needs SEASON:PHASE,... , NEWYEAR[:n] or "
                       "IFYEARDIV:d");
        return;
    }
    char why[200];
    for (int i = 1; i < ntok; i++) {
        char up[64];
        size_t n = 0;
        for (; tok[i][n] && n + 1 < sizeof up; n++)
            up[n] = (char)toupper((unsigned char)tok[i][n]);
        up[n] = '\0';
        if (!dj_flow_add(&p->flow, up, why, sizeof why)) {
            fail_at(p, at, "%s", why);
            return;
        }
    }
    if (!p->has_flow)
        p->flow_at = at;
    p->has_flow = true;
}

/* "BEGIN WINTER 1900 ADJUSTMENTS": the phase a new game starts in.  A
 * season of the map's own FLOW ("BEGIN A.D. 1425 MOVEMENT") is kept as
 * written and resolved when the whole map is read. */
static void begin_line(parser *p, char **tok, int ntok, src_ref at)
{
    int y;
    if (ntok == 4 && strlen(tok[1]) < sizeof p->begin_season &&
        strlen(tok[3]) < sizeof p->begin_type &&
        parse_number(tok[2], 1, 9999, &y)) {
        snprintf(p->begin_season, sizeof p->begin_season, "%s", tok[1]);
        snprintf(p->begin_type, sizeof p->begin_type, "%s", tok[3]);
        p->begin_year = y;
        p->begin_set = true;
        p->begin_at = at;
    }
    static const struct {
        const char *season, *type;
        int s, t;
    } phases[] = {
        {"SPRING", "MOVEMENT", 0, 0},    {"FALL", "MOVEMENT", 1, 0},
        {"AUTUMN", "MOVEMENT", 1, 0},    {"WINTER", "ADJUSTMENTS", 2, 2},
        {"WINTER", "ADJUSTMENT", 2, 2},  {"WINTER", "BUILDS", 2, 2},
    };
    int year;
    if (ntok == 4 && parse_number(tok[2], 1, 9999, &year))
        for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++)
            if (word_is(tok[1], phases[i].season) &&
                word_is(tok[3], phases[i].type)) {
                p->map->start_year = year;
                p->map->start_season = phases[i].s;
                p->map->start_type = phases[i].t;
                p->begin_standard = true;
                return;
            }
    p->begin_standard = false;
    if (p->begin_set)
        return; /* a FLOW season, perhaps: see resolve_flow */
    fail_at(p, at, "BEGIN needs a season, a year and a phase: SPRING 1901 "
            "MOVEMENT, FALL 1901 MOVEMENT or WINTER 1900 ADJUSTMENTS");
}

/* The FLOW and BEGIN read: the first phase and how the years advance. */
static void resolve_flow(parser *p)
{
    dj_map *m = p->map;
    if (!p->has_flow) {
        if (!p->begin_set || p->begin_standard)
            return;
        static const char *const seasons[] = {"SPRING", "FALL", "AUTUMN",
                                              "WINTER"};
        for (size_t i = 0; i < sizeof seasons / sizeof seasons[0]; i++)
            if (word_is(p->begin_season, seasons[i])) {
                fail_at(p, p->begin_at,
                        "BEGIN needs a season, a year and a phase: SPRING "
                        "1901 MOVEMENT, FALL 1901 MOVEMENT or WINTER 1900 "
                        "ADJUSTMENTS");
                return;
            }
        fail_at(p, p->begin_at,
                "BEGIN: unknown season '%s' (no FLOW line names it)",
                p->begin_season);
        return;
    }
    char season[DJ_FLOW_WORD_MAX], type[16];
    int year = m->start_year;
    snprintf(season, sizeof season, "%s",
             p->begin_set ? p->begin_season : "SPRING");
    snprintf(type, sizeof type, "%s",
             p->begin_set ? p->begin_type : "MOVEMENT");
    if (p->begin_set)
        year = p->begin_year;
    dj_flow_year fy;
    char why[300];
    if (!dj_flow_compile(&p->flow, season, year, type, &fy, why,
                         sizeof why)) {
        fail_at(p, p->begin_set ? p->begin_at : p->flow_at, "%s", why);
        return;
    }
    m->start_season = fy.start_season;
    m->start_type = fy.start_type;
    m->start_year = fy.start_year;
    m->years_to_fall = fy.years_to_fall;
    m->years_to_spring = fy.years_to_spring;
    static const char *const standard[3] = {"SPRING", "FALL", "WINTER"};
    for (int s = 0; s < 3; s++)
        if (!word_is(fy.season[s], standard[s]) &&
            !(s == 1 && word_is(fy.season[s], "AUTUMN")))
            snprintf(m->season_names[s], sizeof m->season_names[s], "%s",
                     fy.season[s]);
}

/* The supply centre named by `word` (any coast of it), or -1 after failing. */
static int centre_named(parser *p, const char *word, const char *what,
                        src_ref at)
{
    int loc = dj_map_find_location(p->map, word);
    if (loc < 0) {
        fail_at(p, at, "%s: unknown location '%s'", what, word);
        return -1;
    }
    int prov = p->map->locs[loc].province;
    if (!p->map->is_sc[prov]) {
        fail_at(p, at, "%s: '%s' is not a supply centre", what, word);
        return -1;
    }
    return prov;
}

/*
 * Pass 3, once every centre is known.  "OWNS X Y" (the power also owns
 * these at the start), "CENTERS X Y" (it owns exactly these); "HOME X Y",
 * "HOMES", "INHABITS" (its home centres are these instead of those of its
 * power line; a second line adds to the first).
 */
static void centres_line(parser *p, line_kind kind, char **tok, int ntok,
                         src_ref at)
{
    dj_map *m = p->map;
    int power = p->cur_power;
    if (power < 0) {
        fail_at(p, at, "%s does not follow a power", tok[0]);
        return;
    }
    dj_power_set bit = DJ_POWER_BIT(power);
    bool replace_owned = kind == LK_OWNS && word_is(tok[0], "OWNS") == false;
    bool replace_homes = kind == LK_HOMES && !(p->homes_reset & bit);
    for (int l = 0; l < m->nlocs; l++) {
        if (replace_owned && m->initial_owner[l] == power)
            m->initial_owner[l] = -1;
        if (replace_homes)
            m->home_of[l] &= ~bit;
    }
    if (kind == LK_HOMES)
        p->homes_reset |= bit;
    for (int i = 1; i < ntok && !p->failed; i++) {
        if (strchr("-*+~@", tok[i][0])) {
            fail_at(p, at, "%s %s: DPjudge's marked home centres (- * + ~ @) "
                    "are not supported", tok[0], tok[i]);
            return;
        }
        int prov = centre_named(p, tok[i], tok[0], at);
        if (prov < 0)
            return;
        if (kind == LK_OWNS)
            m->initial_owner[prov] = (int16_t)power;
        else
            m->home_of[prov] |= bit;
    }
}

/* Pass 3: "DUMMY" under a power, "DUMMIES France Italy", "DUMMIES ALL",
 * "DUMMIES ALL EXCEPT England": powers nobody plays (in civil disorder
 * from the start: their units hold, 4.D.8 removes). */
static void dummy_line(parser *p, char **tok, int ntok, src_ref at)
{
    dj_map *m = p->map;
    if (ntok == 1) {
        if (p->cur_power < 0)
            fail_at(p, at, "DUMMY does not follow a power");
        else
            m->dummies |= DJ_POWER_BIT(p->cur_power);
        return;
    }
    p->cur_power = -1;
    int first = 1;
    dj_power_set set = 0;
    if (word_is(tok[1], "ALL")) {
        if (ntok > 2 && !word_is(tok[2], "EXCEPT")) {
            fail_at(p, at, "%s ALL may only be followed by EXCEPT", tok[0]);
            return;
        }
        if (ntok == 3) {
            fail_at(p, at, "%s ALL EXCEPT needs the powers left out", tok[0]);
            return;
        }
        set = DJ_POWERS_UPTO(m->npowers);
        first = 3;
    }
    for (int i = first; i < ntok; i++) {
        int power = power_by_name(m, tok[i]);
        if (power < 0) {
            fail_at(p, at, "%s: unknown power '%s'", tok[0], tok[i]);
            return;
        }
        if (first == 3)
            set &= ~DJ_POWER_BIT(power);
        else
            set |= DJ_POWER_BIT(power);
    }
    m->dummies |= set;
}

/* Pass 3 sees only what needs every centre and power to be known. */
static void late_line(parser *p, line_kind kind, char **tok, int ntok,
                      src_ref at)
{
    switch (kind) {
    case LK_POWER:
    case LK_HEADER:
        p->cur_power = power_by_name(p->map, tok[0]);
        break;
    case LK_OWNS:
    case LK_HOMES:
        centres_line(p, kind, tok, ntok, at);
        break;
    case LK_DUMMY:
        dummy_line(p, tok, ntok, at);
        break;
    default:
        break;
    }
}

/* Pass 2 for everything but names and terrain. */
static void game_line(parser *p, line_kind kind, char *line, char **tok,
                      int ntok, src_ref at)
{
    /* Any other line closes a unit list; lines about the power keep it. */
    if (kind != LK_UNIT && kind != LK_IGNORED && kind != LK_OWNS &&
        kind != LK_HOMES && !(kind == LK_DUMMY && ntok == 1))
        p->unit_power = -1;
    switch (kind) {
    case LK_BEGIN:
        begin_line(p, tok, ntok, at);
        break;
    case LK_FLOW:
        flow_line(p, tok, ntok, at);
        break;
    case LK_UNITS:
        units_line(p, at);
        break;
    case LK_RULE:
        rule_line(p, line, tok, ntok, at);
        break;
    case LK_CENTRES:
        for (int i = 1; i < ntok && !p->failed; i++)
            add_centre(p, tok[i], -1, at);
        break;
    case LK_NUMBER:
        number_directive(p, tok, ntok, at);
        break;
    case LK_MAP_NAME:
        map_name_line(p, line, at);
        break;
    case LK_UNIT:
        unit_line(p, tok, ntok, at);
        break;
    case LK_POWER:
        power_line(p, tok, ntok, at);
        break;
    case LK_HEADER:
        p->unit_power = p->cur_power = power_by_name(p->map, tok[0]);
        if (p->unit_power < 0)
            fail_at(p, at, "unknown power '%s'", tok[0]);
        break;
    default:
        break;
    }
}

static void refused_line(parser *p, char **tok, int ntok, src_ref at)
{
    int k = keyword_index(tok[0]);
    if (k >= 0)
        fail_at(p, at, "keyword '%s' is not supported: %s", tok[0],
                keywords[k].why);
    else
        fail_at(p, at, "'%s %s': variant directive blocks are not supported",
                tok[0], ntok > 1 ? tok[ntok - 1] : "");
}

static bool is_empty_line(const map_line *l)
{
    for (int i = 0; i < l->len; i++)
        if (!isspace((unsigned char)l->text[i]))
            return false;
    return true;
}

/* Dispatch one line; pass 1 takes names and terrain, pass 2 the rest. */
static void handle_line(parser *p, const map_line *l, int pass)
{
    char buf[LINE_CHARS_MAX + 1], words[LINE_CHARS_MAX + 1];
    line_text(l, buf);
    char *line = trim(buf);
    memcpy(words, line, strlen(line) + 1);
    char *tok[TOKENS_MAX];
    int ntok = split_words(words, tok, TOKENS_MAX);
    line_kind kind = classify(line, tok, ntok);
    if (kind == LK_BLANK && !is_empty_line(l))
        return; /* a comment line does not close a unit list */
    if (pass == 1) {
        dj_terrain t;
        if (kind == LK_REFUSED)
            refused_line(p, tok, ntok, l->at);
        else if (kind == LK_NAME && strstr(line, "->"))
            fail_at(p, l->at, "renaming a place of an inherited map "
                    "(Old -> New = abbr) is not supported");
        else if (kind == LK_NAME)
            name_line(p, line, l->at);
        else if (kind == LK_TERRAIN && terrain_word(tok[0], &t))
            terrain_line(p, t, tok, ntok, l->at);
        else if (kind == LK_UNKNOWN)
            unknown_line(p, tok, l->at);
    } else if (pass == 2 && kind != LK_NAME && kind != LK_TERRAIN) {
        game_line(p, kind, line, tok, ntok, l->at);
    } else if (pass == 3) {
        late_line(p, kind, tok, ntok, l->at);
    }
}

/* Bits of dj_map::reach. */
enum {
    REACH_ARMY_ADJ = 1,
    REACH_FLEET_ADJ = 2,
    REACH_ARMY_PROV = 4,
    REACH_FLEET_PROV = 8,
};

/*
 * The engines ask "adjacent?" and "reaches that province?" millions of times
 * a second: answer every pair once, from the adjacency lists.  Skipped (the
 * lists are searched instead) if the table would be large or memory short.
 * Each entry sets the pairs it answers, so building the table costs the
 * lists' length times a province's locations, not a search per pair; the
 * answers are those of the searches below (test_map compares the two on
 * every board):
 *   army adjacent: an army entry of from's province names to's province;
 *   fleet adjacent: a fleet entry of from names to;
 *   an army reaches a province exactly where it is adjacent (it moves
 *   province to province);
 *   a fleet reaches to's province: a fleet entry of from names any
 *   location of that province.
 */
static void tabulate_reach(dj_map *m)
{
    size_t n = (size_t)m->nlocs;
    if (n == 0 || n > DJ_MAX_LOCS)
        return;
    uint8_t *t = calloc(n * n, 1);
    if (!t)
        return;
    /* The locations of each province, as lists: first[p], next[loc]. */
    int16_t first[DJ_MAX_LOCS], next[DJ_MAX_LOCS];
    for (int i = 0; i < m->nlocs; i++)
        first[i] = -1;
    for (int i = m->nlocs - 1; i >= 0; i--) {
        int p = m->locs[i].province;
        next[i] = first[p];
        first[p] = (int16_t)i;
    }
    for (int from = 0; from < m->nlocs; from++) {
        uint8_t *row = t + (size_t)from * n;
        const dj_location *own = &m->locs[m->locs[from].province];
        for (int i = 0; i < own->nadj; i++) {
            int to = own->adj[i].to;
            if (!(own->adj[i].types & DJ_TYPE_BIT(DJ_ARMY)) ||
                m->locs[to].province != to)
                continue;
            for (int k = first[to]; k >= 0; k = next[k])
                row[k] |= REACH_ARMY_ADJ | REACH_ARMY_PROV;
        }
        const dj_location *l = &m->locs[from];
        for (int i = 0; i < l->nadj; i++) {
            if (!(l->adj[i].types & DJ_TYPE_BIT(DJ_FLEET)))
                continue;
            row[l->adj[i].to] |= REACH_FLEET_ADJ;
            for (int k = first[m->locs[l->adj[i].to].province]; k >= 0;
                 k = next[k])
                row[k] |= REACH_FLEET_PROV;
        }
    }
    m->reach = t;
}

static void finish_map(parser *p)
{
    dj_map *m = p->map;
    if (m->npowers == 0) {
        fail_at(p, no_line, "no powers declared");
        return;
    }
    for (int i = 0; i < m->nlocs; i++)
        m->nsc += m->is_sc[i];
    resolve_flow(p);
    /* MOBILIZE starts with the builds: in the Winter before a movement
     * phase named by BEGIN (DPjudge does the same). */
    if (m->mobilize && m->start_type != DJ_ADJUSTMENT) {
        if (m->start_season == DJ_SPRING)
            m->start_year -= m->years_to_spring;
        m->start_season = DJ_WINTER;
        m->start_type = DJ_ADJUSTMENT;
    }
    if (!p->victory_set)
        m->victory = m->nsc / 2 + 1;
    else if (m->victory > m->nsc)
        fail_at(p, p->victory_at,
                "VICTORY %d is more than the %d supply centres", m->victory,
                m->nsc);
    if (!p->failed)
        tabulate_reach(m);
}

/* Default map name: the file's base name without ".map". */
static void name_from_path(dj_map *m, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".map") == 0)
        n -= 4;
    if (n >= sizeof m->name)
        n = sizeof m->name - 1;
    memcpy(m->name, base, n);
    m->name[n] = '\0';
}

static void parser_free(parser *p)
{
    for (int i = 0; i < p->nfiles; i++) {
        free(p->files[i].path);
        free(p->files[i].data);
    }
    free(p->lines);
    free(p->drafts);
    free(p->aliases);
    free(p->final_of);
}

/* Steps 2 to 4 over the flattened lines. */
static dj_map *build_map(parser *p, const char *path)
{
    p->map = calloc(1, sizeof *p->map);
    if (!p->map) {
        fail_at(p, no_line, "out of memory");
        parser_free(p);
        return NULL;
    }
    name_from_path(p->map, path);
    p->map->start_year = 1901;
    p->map->years_to_spring = 1;
    p->unit_power = p->cur_power = -1;
    for (int i = 0; i < p->nlines && !p->failed; i++)
        handle_line(p, &p->lines[i], 1);
    if (!p->failed)
        fix_locations(p);
    for (int i = 0; i < p->nlines && !p->failed; i++)
        handle_line(p, &p->lines[i], 2);
    p->cur_power = -1;
    for (int i = 0; i < p->nlines && !p->failed; i++)
        handle_line(p, &p->lines[i], 3);
    if (!p->failed)
        finish_map(p);
    dj_map *m = p->map;
    if (p->failed) {
        dj_map_free(m);
        m = NULL;
    } else if (p->err && p->errlen) {
        p->err[0] = '\0';
    }
    parser_free(p);
    return m;
}

/* ---- public: loading ---------------------------------------------------- */

dj_map *dj_map_load(const char *path, char *err, size_t errlen)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.err = err;
    p.errlen = errlen;
    p.allow_use = true;
    if (!path) {
        if (err && errlen)
            snprintf(err, errlen, "no map file given");
        return NULL;
    }
    /* Errors before the file is read name it in the message instead. */
    flatten_file(&p, path, (src_ref){-1, 0});
    if (p.failed) {
        parser_free(&p);
        return NULL;
    }
    return build_map(&p, path);
}

dj_map *dj_map_parse(const char *text, const char *filename, char *err,
                     size_t errlen)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.err = err;
    p.errlen = errlen;
    const char *name = filename ? filename : "<map>";
    if (add_file(&p, name, NULL, (src_ref){-1, 0}) < 0) {
        parser_free(&p);
        return NULL;
    }
    if (!text) {
        fail_at(&p, no_line, "no map text given");
        parser_free(&p);
        return NULL;
    }
    /* The text is borrowed, never freed or written. */
    p.files[0].data = (char *)(uintptr_t)text;
    flatten_lines(&p, 0);
    p.files[0].data = NULL;
    if (p.failed) {
        parser_free(&p);
        return NULL;
    }
    return build_map(&p, name);
}

const char *dj_map_season_name(const dj_map *map, int season)
{
    if (map && season >= 0 && season < 3 && map->season_names[season][0])
        return map->season_names[season];
    return dj_season_name((dj_season)season);
}

void dj_map_phase_format(const dj_map *map, int season, int year, int type,
                         char *buf, size_t len)
{
    if (buf && len)
        snprintf(buf, len, "%s %d %s", dj_map_season_name(map, season), year,
                 dj_phase_type_name((dj_phase_type)type));
}

void dj_map_free(dj_map *map)
{
    if (!map)
        return;
    free(map->locs);
    free(map->is_sc);
    free(map->home_of);
    free(map->initial_owner);
    free(map->start_units);
    free(map->aliases);
    free(map->alias_hash);
    free(map->three_letter);
    free(map->name_words);
    free(map->word_hash);
    free(map->reach);
    free(map);
}

/* ---- public: lookups ---------------------------------------------------- */

static bool valid_loc(const dj_map *map, int loc)
{
    return map && loc >= 0 && loc < map->nlocs;
}

static int cmp_alias_text(const void *key, const void *elem)
{
    return strcmp(key, ((const dj_alias *)elem)->text);
}

/* Exact lookup of normalised text (its length known) in the name table. */
static int lookup_name_n(const dj_map *map, const char *key, size_t klen)
{
    if (!map->aliases || map->naliases <= 0)
        return -1;
    if (map->alias_hash) {
        uint32_t h = name_hash(key, klen) & map->alias_hash_mask;
        for (int32_t e; (e = map->alias_hash[h]) != 0;
             h = (h + 1) & map->alias_hash_mask)
            if (strcmp(map->aliases[e - 1].text, key) == 0)
                return map->aliases[e - 1].loc;
        return -1;
    }
    const dj_alias *a = bsearch(key, map->aliases, (size_t)map->naliases,
                                sizeof *map->aliases, cmp_alias_text);
    return a ? a->loc : -1;
}

static int lookup_name(const dj_map *map, const char *key)
{
    return lookup_name_n(map, key, strlen(key));
}

/* "north", "n", "nc", "north coast" -> "nc"; other text is kept as is. */
static void coast_code(char *word, char *code, size_t size)
{
    size_t n = strlen(word);
    if (n >= 5 && strcmp(word + n - 5, COAST_SUFFIX) == 0)
        word[n - 5] = '\0';
    word = trim(word);
    for (size_t i = 0; i < sizeof COAST_WORDS / sizeof COAST_WORDS[0]; i++)
        for (int j = 1; j < 4; j++)
            if (strcmp(word, COAST_WORDS[i][j]) == 0) {
                snprintf(code, size, "%s", COAST_WORDS[i][0]);
                return;
            }
    snprintf(code, size, "%s", word);
}

/* Split "spa/nc", "spa(nc)", "spa nc", "spa north coast" in place into a
 * province part and a coast part; false if there is no coast part. */
static bool split_coast(char *key, char **prov, char **coast)
{
    char *cut = strrchr(key, '/');
    size_t n = strlen(key);
    if (!cut && n > 0 && key[n - 1] == ')' && (cut = strrchr(key, '(')))
        key[n - 1] = '\0';
    if (!cut) {
        if (n > 6 && strcmp(key + n - 6, " coast") == 0)
            key[n - 6] = '\0';
        cut = strrchr(key, ' ');
    }
    if (!cut)
        return false;
    *cut = '\0';
    *prov = trim(key);
    *coast = trim(cut + 1);
    return **prov && **coast;
}

static int find_with_coast(const dj_map *map, char *key)
{
    char *prov_text, *coast_text;
    if (!split_coast(key, &prov_text, &coast_text))
        return -1;
    int loc = lookup_name(map, prov_text);
    if (loc < 0)
        return -1;
    char code[KEY_MAX];
    coast_code(coast_text, code, sizeof code);
    int prov = map->locs[loc].province;
    for (int i = 0; i < dj_map_ncoasts(map, prov); i++) {
        int c = dj_map_coast(map, prov, i);
        const char *slash = strchr(map->locs[c].abbr, '/');
        if (slash && strcmp(slash + 1, code) == 0)
            return c;
    }
    return -1;
}

/*
 * The lookup of a plain word, letters, digits and '-' ("lon", "LON",
 * "mid-atlantic"), whose lookup form is itself in lower case: hashed and
 * compared where it stands, no copy.  Such a word that is no name is no
 * coast notation either (those need '/', '(' or a space), so a miss is
 * final (-1).  -2: not a plain word, for the general lookup.
 */
static __attribute__((noinline)) int find_plain_word(const dj_map *map,
                                                     const char *text,
                                                     size_t n)
{
    if (!map->alias_hash)
        return -2;
    uint32_t h = NAME_HASH_START; /* name_hash of the lower-cased word */
    bool upper = false;
    size_t i = 0;
    for (; i < n && text[i]; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 'A' && c <= 'Z') {
            c += 'a' - 'A';
            upper = true;
        } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                     c == '-')) {
            return -2;
        }
        h = name_hash_step(h, c);
    }
    if (i == 0 || i >= DJ_NAME_MAX) /* longer than any alias's text */
        return -2;
    for (h &= map->alias_hash_mask; map->alias_hash[h];
         h = (h + 1) & map->alias_hash_mask) {
        const dj_alias *a = &map->aliases[map->alias_hash[h] - 1];
        if (a->text[i] != '\0')
            continue;
        if (!upper) {
            if (memcmp(a->text, text, i) == 0)
                return a->loc;
            continue;
        }
        size_t j = 0;
        while (j < i && a->text[j] == ascii_lower(text[j]))
            j++;
        if (j == i)
            return a->loc;
    }
    return -1;
}

/* The lookup of any other text: normalised into a key first.  Kept out
 * of line so that the plain words' path sets up no key buffer. */
static __attribute__((noinline)) int find_normalised(const dj_map *map,
                                                     const char *text,
                                                     size_t n)
{
    char key[KEY_MAX];
    int klen = normalise_n(text, n, key, sizeof key);
    if (klen <= 0)
        return -1;
    int loc = lookup_name_n(map, key, (size_t)klen);
    return loc >= 0 ? loc : find_with_coast(map, key);
}

int dj_map_find_location_n(const dj_map *map, const char *text, size_t n)
{
    if (!map || !text)
        return -1;
    int l0, l1, l2; /* three letters, either case: one look in a table */
    if (map->three_letter && n >= 3 && (l0 = letter_index(text[0])) >= 0 &&
        (l1 = letter_index(text[1])) >= 0 &&
        (l2 = letter_index(text[2])) >= 0 && (n == 3 || text[3] == '\0'))
        return map->three_letter[(l0 * 26 + l1) * 26 + l2] - 1;
    int plain = find_plain_word(map, text, n);
    return plain != -2 ? plain : find_normalised(map, text, n);
}

int dj_map_find_location(const dj_map *map, const char *text)
{
    return dj_map_find_location_n(map, text, (size_t)-1);
}

int dj_map_find_power(const dj_map *map, const char *text)
{
    char key[DJ_NAME_MAX], have[DJ_NAME_MAX];
    if (!map || !text)
        return -1;
    /* Most lookups name a power exactly: no normalising needed (and the
     * first letter settles most of the comparisons). */
    char first = ascii_lower(text[0]);
    for (int i = 0; i < map->npowers; i++) {
        const char *a = text, *b = map->powers[i].name;
        if (ascii_lower(*b) != first)
            continue;
        while (*a && ascii_lower(*a) == ascii_lower(*b))
            a++, b++;
        if (!*a && !*b)
            return i;
    }
    if (!normalise(text, key, sizeof key) || !*key)
        return -1;
    for (int i = 0; i < map->npowers; i++) {
        const dj_power *pw = &map->powers[i];
        if (normalise(pw->name, have, sizeof have) && strcmp(key, have) == 0)
            return i;
        if (normalise(pw->adjective, have, sizeof have) &&
            strcmp(key, have) == 0)
            return i;
        if (key[1] == '\0' && toupper((unsigned char)key[0]) == pw->letter)
            return i;
    }
    return -1;
}

/* The entry for `to` in a location's sorted adjacency list, or NULL. */
static const dj_adj *find_adj(const dj_location *l, int to)
{
    int lo = 0, hi = l->nadj - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (l->adj[mid].to == to)
            return &l->adj[mid];
        if (l->adj[mid].to < to)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

bool dj_map_adjacent(const dj_map *map, int from, int to, dj_unit_type type)
{
    if (!valid_loc(map, from) || !valid_loc(map, to))
        return false;
    if (map->reach && (type == DJ_ARMY || type == DJ_FLEET))
        return map->reach[(size_t)from * (size_t)map->nlocs + (size_t)to] &
               (type == DJ_ARMY ? REACH_ARMY_ADJ : REACH_FLEET_ADJ);
    if (type == DJ_ARMY) {
        /* Armies move province to province: entries name base locations. */
        from = map->locs[from].province;
        to = map->locs[to].province;
    } else if (type != DJ_FLEET) {
        return false;
    }
    const dj_adj *a = find_adj(&map->locs[from], to);
    return a && (a->types & DJ_TYPE_BIT(type));
}

bool dj_map_reaches_province(const dj_map *map, int from, int prov,
                             dj_unit_type type)
{
    if (!valid_loc(map, from) || !valid_loc(map, prov))
        return false;
    if (map->reach && (type == DJ_ARMY || type == DJ_FLEET))
        return map->reach[(size_t)from * (size_t)map->nlocs + (size_t)prov] &
               (type == DJ_ARMY ? REACH_ARMY_PROV : REACH_FLEET_PROV);
    prov = map->locs[prov].province;
    if (type == DJ_ARMY)
        return dj_map_adjacent(map, from, prov, DJ_ARMY);
    if (type != DJ_FLEET)
        return false;
    const dj_location *l = &map->locs[from];
    for (int i = 0; i < l->nadj; i++)
        if ((l->adj[i].types & DJ_TYPE_BIT(DJ_FLEET)) &&
            map->locs[l->adj[i].to].province == prov)
            return true;
    return false;
}

/* The loader places a province's coasts right after its base location. */
int dj_map_ncoasts(const dj_map *map, int prov)
{
    if (!valid_loc(map, prov))
        return 0;
    prov = map->locs[prov].province;
    int n = 0;
    while (prov + 1 + n < map->nlocs &&
           map->locs[prov + 1 + n].province == prov &&
           map->locs[prov + 1 + n].is_coast)
        n++;
    return n;
}

int dj_map_coast(const dj_map *map, int prov, int i)
{
    if (!valid_loc(map, prov) || i < 0 || i >= dj_map_ncoasts(map, prov))
        return -1;
    return map->locs[prov].province + 1 + i;
}
