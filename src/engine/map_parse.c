/* SPDX-License-Identifier: MIT */
/*
 * map_parse.c — the first steps of loading a map file (map_load.c) and
 * the parser's helpers: the file and every file it USEs read into one list
 * of lines (step 1); the locations declared by name and terrain lines
 * (step 2, pass 1 of the lines); the locations fixed: provinces,
 * adjacency, the name tables (step 3).
 */
#define _POSIX_C_SOURCE 200809L

#include "map.h"
#include "map_flow.h"
#include "map_int.h"
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

/* ---- errors and small helpers ------------------------------------------ */

void mp_fail_at(parser *p, src_ref at, const char *fmt, ...)
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

const src_ref mp_no_line = {0, 0};

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

bool mp_word_is(const char *w, const char *kw)
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

/* "FRANCE" or "north+italy" -> "France", "North Italy" for display; as
 * DPjudge's title case, a word begins after a hyphen too
 * ("POLAND-LITHUANIA" -> "Poland-Lithuania", Renaissance's power). */
void mp_title_case(char *dst, const char *src, size_t size)
{
    size_t n = 0;
    bool start = true;
    for (; *src && n + 1 < size; src++) {
        char c = *src == '+' || *src == '_' ? ' ' : *src;
        dst[n++] = (char)(start ? toupper((unsigned char)c)
                                : tolower((unsigned char)c));
        start = c == ' ' || c == '-';
    }
    dst[n] = '\0';
}

/* Split a line in place into words; returns how many. */
int mp_split_words(char *s, char **tok, int max)
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
void mp_line_text(const map_line *l, char *buf)
{
    int n = l->len < LINE_CHARS_MAX ? l->len : LINE_CHARS_MAX;
    memcpy(buf, l->text, (size_t)n);
    buf[n] = '\0';
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
}

bool mp_parse_number(const char *s, int lo, int hi, int *out)
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

int mp_add_file(parser *p, const char *path, char *data, src_ref from)
{
    if (p->nfiles == FILES_MAX) {
        mp_fail_at(p, from, "more than %d map files", FILES_MAX);
        free(data);
        return -1;
    }
    char *copy = malloc(strlen(path) + 1);
    if (!copy) {
        mp_fail_at(p, from, "out of memory");
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
        mp_fail_at(p, at, "more than %d lines", LINES_MAX);
        return;
    }
    void *grown =
        grow(p->lines, &p->lines_cap, p->nlines + 1, sizeof *p->lines);
    if (!grown) {
        mp_fail_at(p, at, "out of memory");
        return;
    }
    p->lines = grown;
    p->lines[p->nlines++] = (map_line){text, len, at};
}

/* One file of a USE line, relative to the including one; DPjudge's
 * "USE modern" names modern.map (a name without a '.' that is no file). */
static void use_one(parser *p, const char *name, src_ref at)
{
    const char *dir = p->files[at.file].path;
    const char *slash = strrchr(dir, '/');
    size_t dirlen = name[0] == '/' || !slash ? 0 : (size_t)(slash - dir) + 1;
    char *full = malloc(dirlen + strlen(name) + 5);
    if (!full) {
        mp_fail_at(p, at, "out of memory");
        return;
    }
    memcpy(full, dir, dirlen);
    strcpy(full + dirlen, name);
    struct stat st;
    const char *base = strrchr(name, '/');
    if (!strchr(base ? base : name, '.') && stat(full, &st) != 0)
        strcat(full, ".map");
    mp_flatten_file(p, full, at);
    free(full);
}

/* A USE line: include the named files (DPjudge allows several). */
static void use_file(parser *p, char **tok, int ntok, src_ref at)
{
    if (!p->allow_use) {
        mp_fail_at(p, at, "USE is not allowed in map text");
        return;
    }
    if (ntok < 2) {
        mp_fail_at(p, at, "USE needs a file name");
        return;
    }
    for (int i = 1; i < ntok && !p->failed; i++)
        use_one(p, tok[i], at);
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

void mp_flatten_lines(parser *p, int file)
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
            mp_fail_at(p, at, "line longer than %d characters", LINE_CHARS_MAX);
            return;
        }
        char buf[LINE_CHARS_MAX + 1];
        char *tok[TOKENS_MAX];
        map_line l = {s, len, at};
        mp_line_text(&l, buf);
        int ntok = mp_split_words(buf, tok, TOKENS_MAX);
        if (ntok > 0 &&
            (mp_word_is(tok[0], "USE") || mp_word_is(tok[0], "USES")))
            use_file(p, tok, ntok, at);
        else if (ntok == 2 && mp_word_is(tok[0], "MAP") && p->allow_use &&
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
        mp_fail_at(p, from, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    char *data = malloc(FILE_BYTES_MAX + 1);
    size_t n = data ? fread(data, 1, FILE_BYTES_MAX + 1, f) : 0;
    bool bad = data && ferror(f);
    fclose(f);
    if (!data)
        mp_fail_at(p, from, "out of memory");
    else if (bad)
        mp_fail_at(p, from, "cannot read %s", path);
    else if (n > FILE_BYTES_MAX)
        mp_fail_at(p, from, "%s is larger than %d bytes", path, FILE_BYTES_MAX);
    if (p->failed) {
        free(data);
        return NULL;
    }
    data[n] = '\0';
    char *small = realloc(data, n + 1);
    return small ? small : data;
}

void mp_flatten_file(parser *p, const char *path, src_ref from)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        mp_fail_at(p, from, "cannot open %s: %s", path, strerror(errno));
        return;
    }
    for (int i = 0; i < p->depth; i++) {
        const input_file *f = &p->files[p->stack[i]];
        if (f->dev == st.st_dev && f->ino == st.st_ino) {
            mp_fail_at(p, from, "USE cycle: %s is already being read", path);
            return;
        }
    }
    if (p->depth > USE_DEPTH_MAX) {
        mp_fail_at(p, from, "USE nested more than %d deep", USE_DEPTH_MAX);
        return;
    }
    char *data = read_whole_file(p, path, from);
    if (!data)
        return;
    int file = mp_add_file(p, path, data, from);
    if (file < 0)
        return;
    p->files[file].dev = st.st_dev;
    p->files[file].ino = st.st_ino;
    p->stack[p->depth++] = file;
    mp_flatten_lines(p, file);
    p->depth--;
}

/* ---- step 2: names and terrain ------------------------------------------ */

static int find_draft(const parser *p, const char *abbr)
{
    for (int i = 0; i < p->ndrafts; i++)
        if (!p->drafts[i].dropped && strcmp(p->drafts[i].abbr, abbr) == 0)
            return i;
    return -1;
}

/* Does abbreviation a name the place `base` or one of its coasts? */
static bool names_place(const char *a, const char *base)
{
    size_t n = strlen(base);
    return strncmp(a, base, n) == 0 && (a[n] == '\0' || a[n] == '/');
}

/* Remember a DROP or rename for the lines of pass 2 (mp_loc_as_of). */
static void add_change(parser *p, bool drop, const char *old,
                       const char *renamed, src_ref at)
{
    void *grown = grow(p->changes, &p->changes_cap, p->nchanges + 1,
                       sizeof *p->changes);
    if (!grown) {
        mp_fail_at(p, at, "out of memory");
        return;
    }
    p->changes = grown;
    map_change *c = &p->changes[p->nchanges++];
    memset(c, 0, sizeof *c);
    c->line = p->line_index;
    c->drop = drop;
    snprintf(c->old, sizeof c->old, "%s", old);
    snprintf(c->renamed, sizeof c->renamed, "%s", renamed);
}

/* Every name of draft d forgotten (a DROP, a rename). */
static void forget_names(parser *p, int d)
{
    for (int i = 0; i < p->naliases; i++)
        if (p->aliases[i].loc == d)
            p->aliases[i].loc = -1;
}

int mp_loc_as_of(parser *p, const char *word, bool *gone)
{
    *gone = false;
    char w[DJ_ABBR_MAX];
    if (strlen(word) >= sizeof w || p->nchanges == 0)
        return dj_map_find_location(p->map, word);
    lower_copy(w, word, sizeof w);
    for (int i = 0; i < p->nchanges; i++) {
        const map_change *c = &p->changes[i];
        if (c->line <= p->line_index || !names_place(w, c->old))
            continue;
        if (c->drop) {
            *gone = true;
            return -1;
        }
        char renamed[2 * DJ_ABBR_MAX];
        snprintf(renamed, sizeof renamed, "%s%s", c->renamed,
                 w + strlen(c->old));
        if (strlen(renamed) >= sizeof w)
            return -1;
        memcpy(w, renamed, strlen(renamed) + 1);
    }
    return dj_map_find_location(p->map, w);
}

static void add_alias(parser *p, const char *text, int loc, src_ref at)
{
    void *grown =
        grow(p->aliases, &p->aliases_cap, p->naliases + 1, sizeof *p->aliases);
    if (!grown) {
        mp_fail_at(p, at, "out of memory");
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
        mp_fail_at(p, at, "abbreviation '%s' longer than %d characters", word,
                   DJ_ABBR_MAX - 1);
        return -1;
    }
    /* Lookups drop '.' and read '+' as a space: an abbreviation holding
     * either could never be found again. */
    if (strpbrk(word, ".+")) {
        mp_fail_at(p, at, "abbreviation '%s' may not contain '.' or '+'", word);
        return -1;
    }
    char abbr[DJ_ABBR_MAX];
    lower_copy(abbr, word, sizeof abbr);
    int d = find_draft(p, abbr);
    if (d >= 0)
        return d;
    if (p->ndrafts == DJ_MAX_LOCS) {
        mp_fail_at(p, at, "more than %d locations", DJ_MAX_LOCS);
        return -1;
    }
    void *grown =
        grow(p->drafts, &p->drafts_cap, p->ndrafts + 1, sizeof *p->drafts);
    if (!grown) {
        mp_fail_at(p, at, "out of memory");
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

/*
 * DPjudge's rename, "OLD -> New Name = new aliases": the place OLD of an
 * inherited map (its abbreviation) becomes `to`, its coasts with it; its
 * old names are forgotten, and every neighbour list naming it names the
 * new abbreviation.  The name line then names it afresh.
 */
static bool rename_place(parser *p, const char *from, const char *to,
                         src_ref at)
{
    char old[DJ_ABBR_MAX], neu[DJ_ABBR_MAX];
    if (strlen(from) >= sizeof old || strlen(to) >= sizeof neu) {
        mp_fail_at(p, at, "abbreviation longer than %d characters",
                   DJ_ABBR_MAX - 1);
        return false;
    }
    lower_copy(old, from, sizeof old);
    lower_copy(neu, to, sizeof neu);
    int d = find_draft(p, old);
    if (d < 0) {
        mp_fail_at(p, at, "rename: no place '%s' to rename", from);
        return false;
    }
    int other = find_draft(p, neu);
    if (other >= 0 && other != d) {
        mp_fail_at(p, at, "rename: '%s' is already a place", to);
        return false;
    }
    char buf[2 * DJ_ABBR_MAX];
    for (int i = 0; i < p->ndrafts; i++) {
        loc_draft *ld = &p->drafts[i];
        for (int r = 0; r < ld->nraw; r++)
            if (names_place(ld->raw[r].abbr, old)) {
                snprintf(buf, sizeof buf, "%s%s", neu,
                         ld->raw[r].abbr + strlen(old));
                if (strlen(buf) >= sizeof ld->raw[r].abbr) {
                    mp_fail_at(p, at, "rename: '%s' longer than %d "
                                      "characters", buf, DJ_ABBR_MAX - 1);
                    return false;
                }
                memcpy(ld->raw[r].abbr, buf, strlen(buf) + 1);
            }
        if (ld->dropped || !names_place(ld->abbr, old))
            continue;
        snprintf(buf, sizeof buf, "%s%s", neu, ld->abbr + strlen(old));
        if (strlen(buf) >= DJ_ABBR_MAX) {
            mp_fail_at(p, at, "rename: '%s' longer than %d characters", buf,
                       DJ_ABBR_MAX - 1);
            return false;
        }
        forget_names(p, i);
        memcpy(ld->abbr, buf, strlen(buf) + 1);
        ld->has_name = false;
        add_alias(p, ld->abbr, i, at);
    }
    add_change(p, false, old, neu, at);
    return !p->failed;
}

/* "Full Name = abbr alias alias ..." (or "OLD -> Full Name = ...") */
void mp_name_line(parser *p, char *text, src_ref at)
{
    char *eq = strchr(text, '=');
    *eq = '\0';
    char full[DJ_NAME_MAX];
    char *rename_from = NULL;
    char *arrow = strstr(text, "->");
    if (arrow) {
        *arrow = '\0';
        rename_from = mp_trim(text);
        text = arrow + 2;
        if (!*rename_from || strchr(rename_from, ' ') ||
            strchr(rename_from, '\t') || strstr(text, "->")) {
            mp_fail_at(p, at, "a rename is OLD -> New Name = abbr ...");
            return;
        }
    }
    char *left = mp_trim(text);
    char *tok[TOKENS_MAX];
    int ntok = mp_split_words(eq + 1, tok, TOKENS_MAX);
    if (!*left) {
        mp_fail_at(p, at, "name line has no full name before '='");
        return;
    }
    if (ntok == 0) {
        mp_fail_at(p, at, "name line has no abbreviation after '='");
        return;
    }
    /* Collapse inner spaces of the full name as written. */
    char *parts[TOKENS_MAX];
    int nparts = mp_split_words(left, parts, TOKENS_MAX);
    size_t n = 0;
    for (int i = 0; i < nparts; i++) {
        size_t len = strlen(parts[i]);
        if (n + len + (i > 0) >= sizeof full) {
            mp_fail_at(p, at, "full name longer than %d characters",
                       DJ_NAME_MAX - 1);
            return;
        }
        if (i > 0)
            full[n++] = ' ';
        memcpy(full + n, parts[i], len);
        n += len;
    }
    full[n] = '\0';
    if (rename_from && !rename_place(p, rename_from, tok[0], at))
        return;
    int d = draft_for(p, tok[0], at);
    if (d < 0)
        return;
    loc_draft *ld = &p->drafts[d];
    if (ld->has_name) {
        mp_fail_at(p, at, "'%s' is named twice", ld->abbr);
        return;
    }
    ld->has_name = true;
    ld->name_at = at;
    memcpy(ld->name, full, n + 1);
    char key[DJ_NAME_MAX];
    /* A name that lookups reduce to nothing (dots and '+' only) could
     * never be found: refused, like a name too long. */
    if (!mp_normalise(full, key, sizeof key) || !*key) {
        mp_fail_at(p, at, "full name '%s' has nothing but dots and '+'", full);
        return;
    }
    add_alias(p, key, d, at);
    for (int i = 1; i < ntok && !p->failed; i++) {
        if (!mp_normalise(tok[i], key, sizeof key)) {
            mp_fail_at(p, at, "alias '%s' longer than %d characters", tok[i],
                       DJ_NAME_MAX - 1);
            return;
        }
        if (!*key) {
            mp_fail_at(p, at, "alias '%s' has nothing but dots and '+'",
                       tok[i]);
            return;
        }
        add_alias(p, key, d, at);
    }
}

/* One neighbour word into ld's list.  DPjudge marks some borders with
 * signs round the abbreviation.  A leading * (DPjudge's half-strength
 * border, "*EGY": the border from here to EGY, one way) is read into
 * raw_adj.half and played (maps/README.md); the others are refused, each
 * with what it means there.
 * The meanings of * and ~ are those of DPjudge's Game.py: strengths
 * (Game.strengths: 1/2 and 0 for the move's last leg, from the unit or,
 * convoyed, from the last fleet of its written route), supports
 * (Game.validOrder: none across either), cuts (Game.cutSupport,
 * exceptions D and E; a dislodgement still cuts, resolveMoves step 9)
 * and retreats (Game.otherResults: crossers disbanded first, ~ before
 * *).  Map.py reads the signs into abutRules. */
static void add_raw(parser *p, loc_draft *ld, const char *word, src_ref at)
{
    static const struct {
        char sign;
        const char *what;
    } signs[] = {
        {'*', "DPjudge's half-strength border written other than *PLACE "
              "before the place"},
        {'~', "DPjudge's strait (~: a move across it, or a convoy's last "
              "leg from a fleet across it, has strength 0 plus its "
              "supports; no unit supports across it, to hold or to move; an "
              "unsupported move across it cuts no support; of units "
              "retreating to one place, those crossing it are disbanded "
              "first, before those crossing a *)"},
        {':', "DPjudge's border only one power may cross (POWER:PLACE)"},
        {'(', "DPjudge's border open only to the owner of a centre (PLACE(CENTRE))"},
    };
    bool half = word[0] == '*' && word[1];
    if (half)
        word++;
    for (size_t k = 0; k < sizeof signs / sizeof signs[0]; k++)
        if (strchr(word, signs[k].sign)) {
            mp_fail_at(p, at,
                       "'%s' ABUTS %s: %s is not supported",
                       ld->abbr, word, signs[k].what);
            return;
        }
    if (ld->nraw == DJ_MAX_ADJ) {
        mp_fail_at(p, at, "'%s' has more than %d neighbours", ld->abbr,
                   DJ_MAX_ADJ);
        return;
    }
    if (strlen(word) >= DJ_ABBR_MAX) {
        mp_fail_at(p, at, "abbreviation '%s' longer than %d characters", word,
                   DJ_ABBR_MAX - 1);
        return;
    }
    raw_adj *r = &ld->raw[ld->nraw++];
    lower_copy(r->abbr, word, sizeof r->abbr);
    r->army_only = is_lower_word(word);
    r->fleet_only = is_title_word(word);
    r->half = half;
}

/* The coasts of base draft d dropped: DPjudge's province written again in
 * capitals ("LAND SPA" after "COAST spa") has none. */
static void drop_coasts(parser *p, int d)
{
    char prefix[DJ_ABBR_MAX + 1];
    snprintf(prefix, sizeof prefix, "%s/", p->drafts[d].abbr);
    for (int i = 0; i < p->ndrafts; i++)
        if (!p->drafts[i].dropped &&
            strncmp(p->drafts[i].abbr, prefix, strlen(prefix)) == 0) {
            p->drafts[i].dropped = true;
            forget_names(p, i);
        }
}

/*
 * "NAMES abbr alias alias ...": more names for a place already named (the
 * names players write in their languages: maps/standard.names.de, ...).
 * The place must exist; an alias another place has is refused as any
 * name twice is.
 */
void mp_names_line(parser *p, char **tok, int ntok, src_ref at)
{
    if (ntok < 3) {
        mp_fail_at(p, at, "NAMES needs a place's abbreviation and its names");
        return;
    }
    char abbr[DJ_ABBR_MAX];
    if (strlen(tok[1]) >= sizeof abbr) {
        mp_fail_at(p, at, "NAMES: no place '%s'", tok[1]);
        return;
    }
    lower_copy(abbr, tok[1], sizeof abbr);
    int d = find_draft(p, abbr);
    if (d < 0) {
        mp_fail_at(p, at, "NAMES: no place '%s' (name it first)", tok[1]);
        return;
    }
    char key[DJ_NAME_MAX];
    for (int i = 2; i < ntok && !p->failed; i++) {
        if (!mp_normalise(tok[i], key, sizeof key)) {
            mp_fail_at(p, at, "alias '%s' longer than %d characters", tok[i],
                       DJ_NAME_MAX - 1);
            return;
        }
        if (!*key) {
            mp_fail_at(p, at, "alias '%s' has nothing but dots and '+'",
                       tok[i]);
            return;
        }
        add_alias(p, key, d, at);
    }
}

/*
 * "COAST LOC ABUTS n n n ...".  A place given a second terrain line takes
 * its terrain from the later one, and its neighbours too when the later
 * line has an ABUTS list (DPjudge: a variant's LAND SWI opens Switzerland).
 */
void mp_terrain_line(parser *p, dj_terrain terrain, char **tok, int ntok,
                     src_ref at)
{
    if (ntok < 2) {
        mp_fail_at(p, at, "%s line names no location", tok[0]);
        return;
    }
    if (ntok > 2 && !mp_word_is(tok[2], "ABUTS")) {
        mp_fail_at(p, at, "expected ABUTS after %s %s, found '%s'", tok[0],
                   tok[1], tok[2]);
        return;
    }
    int d = draft_for(p, tok[1], at);
    if (d < 0)
        return;
    loc_draft *ld = &p->drafts[d];
    bool lower = is_lower_word(tok[1]);
    if (ld->has_terrain && ld->fleets_barred && !lower)
        drop_coasts(p, d);
    if (!ld->has_terrain || ntok > 2)
        ld->nraw = 0;
    ld->has_terrain = true;
    ld->terrain_at = at;
    ld->port = terrain == DJ_PORT;
    ld->terrain = ld->port ? DJ_COAST : terrain;
    ld->fleets_barred = lower;
    for (int i = 3; i < ntok && !p->failed; i++)
        add_raw(p, ld, tok[i], at);
}

/* "AMEND LOC ABUTS n -n ...": neighbours added to a place already read,
 * and (-n) those whose abbreviation begins with n taken away; the place
 * written in another case changes as a terrain line would. */
void mp_amend_line(parser *p, char **tok, int ntok, src_ref at)
{
    if (ntok < 2 || (ntok > 2 && !mp_word_is(tok[2], "ABUTS"))) {
        mp_fail_at(p, at, "AMEND needs a place, ABUTS and its neighbours");
        return;
    }
    char abbr[DJ_ABBR_MAX];
    if (strlen(tok[1]) >= sizeof abbr) {
        mp_fail_at(p, at, "abbreviation '%s' longer than %d characters",
                   tok[1], DJ_ABBR_MAX - 1);
        return;
    }
    lower_copy(abbr, tok[1], sizeof abbr);
    int d = find_draft(p, abbr);
    if (d < 0 || !p->drafts[d].has_terrain) {
        mp_fail_at(p, at, "AMEND: no place '%s' to amend", tok[1]);
        return;
    }
    loc_draft *ld = &p->drafts[d];
    bool lower = is_lower_word(tok[1]);
    if (ld->fleets_barred && !lower)
        drop_coasts(p, d);
    ld->fleets_barred = lower;
    for (int i = 3; i < ntok && !p->failed; i++) {
        if (tok[i][0] != '-') {
            add_raw(p, ld, tok[i], at);
            continue;
        }
        char gone[DJ_ABBR_MAX];
        if (strlen(tok[i] + 1) >= sizeof gone || !tok[i][1]) {
            mp_fail_at(p, at, "AMEND: bad neighbour '%s' to take away",
                       tok[i]);
            return;
        }
        lower_copy(gone, tok[i] + 1, sizeof gone);
        int kept = 0;
        for (int r = 0; r < ld->nraw; r++)
            if (strncmp(ld->raw[r].abbr, gone, strlen(gone)) != 0)
                ld->raw[kept++] = ld->raw[r];
        ld->nraw = kept;
    }
}

/* "DROP LOC ...": places of an inherited map taken off the board, with
 * their coasts, names and every border to them. */
void mp_drop_line(parser *p, char **tok, int ntok, src_ref at)
{
    if (ntok < 2) {
        mp_fail_at(p, at, "DROP needs the places to drop");
        return;
    }
    for (int i = 1; i < ntok && !p->failed; i++) {
        char abbr[DJ_ABBR_MAX];
        if (strlen(tok[i]) >= sizeof abbr) {
            mp_fail_at(p, at, "abbreviation '%s' longer than %d characters",
                       tok[i], DJ_ABBR_MAX - 1);
            return;
        }
        lower_copy(abbr, tok[i], sizeof abbr);
        bool found = false;
        for (int d = 0; d < p->ndrafts; d++) {
            loc_draft *ld = &p->drafts[d];
            if (ld->dropped)
                continue;
            if (names_place(ld->abbr, abbr)) {
                ld->dropped = found = true;
                forget_names(p, d);
                continue;
            }
            int kept = 0;
            for (int r = 0; r < ld->nraw; r++)
                if (!names_place(ld->raw[r].abbr, abbr))
                    ld->raw[kept++] = ld->raw[r];
            ld->nraw = kept;
        }
        if (!found) {
            mp_fail_at(p, at, "DROP: no place '%s' to drop", tok[i]);
            return;
        }
        add_change(p, true, abbr, "", at);
    }
}

bool mp_terrain_word(const char *w, dj_terrain *t)
{
    static const struct {
        const char *word;
        dj_terrain terrain;
    } words[] = {{"LAND", DJ_LAND},
                 {"WATER", DJ_WATER},
                 {"COAST", DJ_COAST},
                 {"SHUT", DJ_SHUT},
                 {"PORT", DJ_PORT}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (mp_word_is(w, words[i].word)) {
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
    const abbr_key *hit =
        bsearch(&k, keys, (size_t)n, sizeof *keys, cmp_abbr_key);
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
            mp_fail_at(p, ld->terrain_at,
                       "coast '%s' of undeclared province '%s'", ld->abbr,
                       base);
            return;
        }
        if (ld->terrain != DJ_COAST && ld->terrain != DJ_WATER) {
            mp_fail_at(p, ld->terrain_at, "coast '%s' must be COAST or WATER",
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

/* OR type bits into from's entry for `to`, adding one if needed; the
 * same bits into its half-border bits when the word was "*TO" (a border
 * written twice, once with the sign, is a half border). */
static bool add_adj(dj_location *from, int to, uint8_t types, bool half)
{
    uint8_t h = half ? types : 0;
    for (int i = 0; i < from->nadj; i++)
        if (from->adj[i].to == to) {
            from->adj[i].types |= types;
            from->adj[i].half |= h;
            return true;
        }
    if (from->nadj == DJ_MAX_ADJ)
        return false;
    from->adj[from->nadj++] = (dj_adj){(int16_t)to, types, h};
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
            mp_fail_at(p, ld->terrain_at, "'%s' abuts undeclared location '%s'",
                       ld->abbr, ld->raw[i].abbr);
            return;
        }
        if (t == d)
            continue; /* DPjudge reads a place abutting itself as nothing */
        int to = p->final_of[t];
        int prov = locs[to].province;
        bool ok = true;
        bool half = ld->raw[i].half;
        if (!ld->raw[i].army_only && from->fleet_ok && locs[to].fleet_ok)
            ok = add_adj(from, to, DJ_TYPE_BIT(DJ_FLEET), half);
        if (ok && !ld->raw[i].fleet_only && from->army_ok && locs[prov].army_ok)
            ok = add_adj(from, prov, DJ_TYPE_BIT(DJ_ARMY), half);

        if (!ok) {
            mp_fail_at(p, ld->terrain_at, "'%s' has more than %d adjacencies",
                       ld->abbr, DJ_MAX_ADJ);
            return;
        }
    }
    qsort(from->adj, (size_t)from->nadj, sizeof from->adj[0], cmp_adj);
    for (int i = 0; i < from->nadj; i++)
        if (from->adj[i].half)
            p->map->half_borders = true;
}

static int cmp_alias_draft(const void *a, const void *b)
{
    const alias_draft *x = a, *y = b;
    int c = strcmp(x->text, y->text);
    return c ? c : x->seq - y->seq;
}

/* The three-letter aliases by their letters (dj_map.three_letter).  The
 * aliases are unique, so this gives the answer the hash gives. */
static void build_three_letter(parser *p)
{
    dj_map *m = p->map;
    m->three_letter = calloc(26 * 26 * 26, sizeof *m->three_letter);
    if (!m->three_letter) {
        mp_fail_at(p, mp_no_line, "out of memory");
        return;
    }
    for (int i = 0; i < m->naliases; i++) {
        const char *t = m->aliases[i].text;
        if (strlen(t) != 3 || mp_letter_index(t[0]) < 0 || t[0] < 'a' ||
            mp_letter_index(t[1]) < 0 || t[1] < 'a' ||
            mp_letter_index(t[2]) < 0 || t[2] < 'a')
            continue; /* not three lower-case letters */
        uint16_t *slot =
            &m->three_letter[((t[0] - 'a') * 26 + (t[1] - 'a')) * 26 +
                             (t[2] - 'a')];
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
        mp_fail_at(p, mp_no_line, "out of memory");
        return;
    }
    m->alias_hash_mask = (uint32_t)size - 1;
    for (int i = 0; i < m->naliases; i++) {
        const char *text = m->aliases[i].text;
        uint32_t h = mp_name_hash(text, strlen(text)) & m->alias_hash_mask;
        while (m->alias_hash[h])
            h = (h + 1) & m->alias_hash_mask;
        m->alias_hash[h] = i + 1;
    }
    build_three_letter(p);
}

/* Add each word of text to the word hash; *used is the next free offset
 * in name_words (sized by build_word_hash). */
static void add_words(dj_map *m, const char *t, size_t *used)
{
    while (*t) {
        while (*t && mp_word_cut(*t))
            t++;
        size_t n = 0;
        while (t[n] && !mp_word_cut(t[n]))
            n++;
        if (n == 0)
            break;
        int32_t at = mp_find_word(m, t, n);
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
    enum { NCOAST = sizeof MP_COAST_WORDS / sizeof MP_COAST_WORDS[0] };
    size_t bytes = 1 + sizeof MP_COAST_SUFFIX, nwords = 4 * NCOAST + 1;
    for (int i = 0; i < m->naliases; i++) {
        bytes += strlen(m->aliases[i].text) + 1;
        for (const char *t = m->aliases[i].text; *t; t++)
            nwords += mp_word_cut(*t);
        nwords++;
    }
    for (int k = 0; k < NCOAST; k++)
        for (int j = 0; j < 4; j++)
            bytes += strlen(MP_COAST_WORDS[k][j]) + 1;
    int size = 16;
    while ((size_t)size < 2 * nwords)
        size *= 2;
    m->name_words = malloc(bytes);
    m->word_hash = calloc((size_t)size, sizeof *m->word_hash);
    if (!m->name_words || !m->word_hash) {
        mp_fail_at(p, mp_no_line, "out of memory");
        return;
    }
    m->word_hash_mask = (uint32_t)size - 1;
    size_t used = 1; /* offset 0 unused: 0 in the hash is an empty slot */
    m->name_words[0] = '\0';
    for (int i = 0; i < m->naliases; i++)
        add_words(m, m->aliases[i].text, &used);
    for (int k = 0; k < NCOAST; k++)
        for (int j = 0; j < 4; j++)
            add_words(m, MP_COAST_WORDS[k][j], &used);
    add_words(m, MP_COAST_SUFFIX, &used);
}

/* Sort every name, refuse one name for two locations, drop repeats. */
static void build_alias_table(parser *p)
{
    dj_map *m = p->map;
    qsort(p->aliases, (size_t)p->naliases, sizeof *p->aliases, cmp_alias_draft);
    m->aliases = calloc((size_t)p->naliases + 1, sizeof *m->aliases);
    if (!m->aliases) {
        mp_fail_at(p, mp_no_line, "out of memory");
        return;
    }
    for (int i = 0; i < p->naliases; i++) {
        const alias_draft *a = &p->aliases[i];
        int loc = p->final_of[a->loc];
        if (m->naliases > 0 &&
            strcmp(m->aliases[m->naliases - 1].text, a->text) == 0) {
            int prev = m->aliases[m->naliases - 1].loc;
            if (prev != loc) {
                mp_fail_at(p, a->at, "name '%s' already stands for '%s'",
                           a->text, m->locs[prev].abbr);
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
        mp_fail_at(p, mp_no_line, "out of memory");
        return false;
    }
    for (int i = 0; i < n; i++)
        m->initial_owner[i] = -1;
    m->nlocs = n;
    return true;
}

/* The dropped drafts taken out, the names of the others renumbered. */
static void compact_drafts(parser *p)
{
    int *to = malloc((size_t)(p->ndrafts + 1) * sizeof *to);
    if (!to) {
        mp_fail_at(p, mp_no_line, "out of memory");
        return;
    }
    int n = 0;
    for (int d = 0; d < p->ndrafts; d++) {
        to[d] = p->drafts[d].dropped ? -1 : n;
        if (!p->drafts[d].dropped)
            p->drafts[n++] = p->drafts[d];
    }
    p->ndrafts = n;
    int kept = 0;
    for (int i = 0; i < p->naliases; i++)
        if (p->aliases[i].loc >= 0 && to[p->aliases[i].loc] >= 0) {
            p->aliases[kept] = p->aliases[i];
            p->aliases[kept].loc = to[p->aliases[i].loc];
            kept++;
        }
    p->naliases = kept;
    free(to);
}

void mp_fix_locations(parser *p)
{
    compact_drafts(p);
    if (p->failed)
        return;
    if (p->ndrafts == 0) {
        mp_fail_at(p, mp_no_line, "no locations declared");
        return;
    }
    for (int d = 0; d < p->ndrafts; d++)
        if (!p->drafts[d].has_terrain) {
            mp_fail_at(p, p->drafts[d].name_at,
                       "'%s' is named but has no terrain line",
                       p->drafts[d].abbr);
            return;
        }
    abbr_key *keys = malloc((size_t)p->ndrafts * sizeof *keys);
    if (!keys || !alloc_location_arrays(p, p->ndrafts)) {
        mp_fail_at(p, mp_no_line, "out of memory");
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
