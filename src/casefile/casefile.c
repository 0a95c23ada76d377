/* SPDX-License-Identifier: MIT */
/*
 * casefile.c — the case-file reader: lines, keywords, maps, and each case
 * from CASE to END.
 *
 * Design.  The reader is a line-at-a-time state machine.  Outside a case
 * only VARIANT_ALL and CASE mean anything; inside one, a keyword line opens
 * a section (PRESTATE, ORDERS, RESULTS, ...) and every other line is a
 * "Power: ..." line belonging to the open section, read by case_lines.c.
 * The file is read a buffer at a time; a line is used where it lies there,
 * or gathered into a fixed line buffer when it crosses the buffer's end,
 * so no input can overrun either; a line longer than LINE_MAX_LEN is an
 * error.
 *
 * A case is written straight into the caller's dj_case.  What needs the
 * whole case waits for END (case_lines.c): the orders, kept as text until
 * then so they are read in the phase the case finally states whatever the
 * order of its sections, the RESULTS matched with them, and the retreat
 * options of dislodged units, which need both the units and the previous
 * phase's results.
 *
 * After a syntax error the reader skips to the case's END, or stops before
 * the next CASE if END is missing, so one bad case costs only itself.
 */
#define _POSIX_C_SOURCE 200809L /* strnlen */

#include "casefile/casefile_int.h"
#include "engine/rules_map.h"
#include "reader/chars.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATH_MAX_LEN 4096   /* longest map path built */
#define DEFAULT_VARIANT "standard"

/* The keywords, in one table: the word and its length, what it opens,
 * and whether it takes an argument on its line. */
static const struct keyword_name {
    const char *word;
    size_t len;
    keyword kw;
    bool takes_argument;
} KEYWORDS[] = {
#define KEYWORD(word, kw, takes) {word, sizeof word - 1, kw, takes}
    KEYWORD("VARIANT_ALL", KW_VARIANT, true),
    KEYWORD("CASE", KW_CASE, true),
    KEYWORD("END", KW_END, false),
    KEYWORD("RULE", KW_RULE, true),
    KEYWORD("PRESTATE_SETPHASE", KW_SETPHASE, true),
    KEYWORD("PRESTATE_SUPPLYCENTER_OWNERS", KW_SC_OWNERS, false),
    KEYWORD("PRESTATE", KW_PRESTATE, false),
    KEYWORD("PRESTATE_DISLODGED", KW_PRE_DISLODGED, false),
    KEYWORD("PRESTATE_RESULTS", KW_PRE_RESULTS, false),
    KEYWORD("ORDERS", KW_ORDERS, false),
    KEYWORD("RESULTS", KW_RESULTS, false),
    KEYWORD("POSTSTATE", KW_POSTSTATE, false),
    KEYWORD("POSTSTATE_DISLODGED", KW_POST_DISLODGED, false),
    KEYWORD("POSTSTATE_SAME", KW_POST_SAME, false),
#undef KEYWORD
};
#define NKEYWORDS (sizeof KEYWORDS / sizeof KEYWORDS[0])

/* How a line ended up inside a case. */
typedef enum {
    STEP_MORE,          /* keep reading the case */
    STEP_DONE,          /* END read, case complete */
    STEP_ERROR,         /* error: skip to END */
    STEP_ERROR_AT_END   /* error found at END or at the next CASE: no skip */
} step;

/* ---- small helpers ------------------------------------------------------- */

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* ---- lines --------------------------------------------------------------- */

/* Refill the read buffer; false at the end of the file.  A NUL read is
 * made a space here, so that it cannot end a line. */
static bool refill(dj_casefile *cf)
{
    cf->rlen = fread(cf->rbuf, 1, sizeof cf->rbuf, cf->fp);
    cf->rpos = 0;
    cf->hash = NULL;
    char *z = cf->rbuf;
    while ((z = memchr(z, '\0', cf->rlen - (size_t)(z - cf->rbuf))) != NULL)
        *z = ' ';
    return cf->rlen > 0;
}

/* read_line's other way: a line that crosses the read buffer's end (or
 * is too long), gathered into cf->gathered; false at end of file. */
static bool gather_line(dj_casefile *cf)
{
    size_t n = 0;
    bool any = false;
    while (cf->rpos < cf->rlen || refill(cf)) {
        char *start = cf->rbuf + cf->rpos;
        size_t avail = cf->rlen - cf->rpos;
        char *nl = memchr(start, '\n', avail);
        size_t take = nl ? (size_t)(nl - start) : avail;
        size_t room = sizeof cf->gathered - 1 - n;
        size_t copy = take < room ? take : room;
        memcpy(cf->gathered + n, start, copy);
        n += copy;
        if (copy < take)
            cf->too_long = true;
        cf->rpos += take + (nl != NULL);
        any = true;
        if (nl)
            break;
    }
    cf->gathered[n] = '\0';
    cf->raw = cf->gathered;
    cf->rawlen = n;
    return any;
}

/*
 * Read one line; false at end of file.  A line wholly inside the read
 * buffer is used where it lies, its newline made its NUL; one that
 * crosses the buffer's end is gathered into cf->gathered, cut at
 * LINE_MAX_LEN - 1 bytes with cf->too_long set.  Either way cf->raw and
 * cf->rawlen say where it is.
 */
CF_EVERY_LINE bool read_line(dj_casefile *cf)
{
    cf->too_long = false;
    char *start = cf->rbuf + cf->rpos;
    char *nl = memchr(start, '\n', cf->rlen - cf->rpos);
    if (!nl || nl - start >= LINE_MAX_LEN)
        return gather_line(cf);
    *nl = '\0';
    cf->raw = start;
    cf->rawlen = (size_t)(nl - start);
    cf->rpos += cf->rawlen + 1;
    return true;
}

/* Where the comment of the line just read starts: the next '#' of the
 * buffer, looked for again only once the lines have passed it (most
 * files have few comments), or of the gathered line. */
CF_EVERY_LINE char *next_hash(dj_casefile *cf)
{
    if (cf->raw == cf->gathered)
        return memchr(cf->raw, '#', cf->rawlen);
    if (!cf->hash || cf->hash < cf->raw) {
        size_t from = (size_t)(cf->raw - cf->rbuf);
        cf->hash = memchr(cf->raw, '#', cf->rlen - from);
        if (!cf->hash) /* none in the buffer: none before it is refilled */
            cf->hash = cf->rbuf + cf->rlen;
    }
    return cf->hash;
}

/* The next line, comment cut off and trimmed, in cf->cur. */
CF_EVERY_LINE bool next_line(dj_casefile *cf)
{
    if (cf->pushed_back) {
        cf->pushed_back = false;
        return true;
    }
    if (!read_line(cf))
        return false;
    cf->lineno++;
    char *s = cf->raw, *end = s + cf->rawlen;
    char *hash = next_hash(cf);
    if (hash && hash < end)
        end = hash;
    while (end > s && dj_is_space(end[-1]))
        end--;
    *end = '\0';
    while (dj_is_space(*s))
        s++;
    cf->cur = s;
    cf->cur_end = end;
    return true;
}

/* Upper-case letters and underscores only: looks like a keyword. */
static bool looks_like_keyword(const char *s, size_t n)
{
    if (n < 2)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(s[i] >= 'A' && s[i] <= 'Z') && s[i] != '_')
            return false;
    return true;
}

/*
 * Which keyword starts the current line; *rest points after it, trimmed.
 * A line without a colon whose first word is in capitals is taken for a
 * keyword even when it is not one, so that a misspelt keyword is reported
 * as such.
 */
static keyword classify(const dj_casefile *cf, const char **rest,
                        bool *argument)
{
    const char *line = cf->cur;
    size_t n = 0;
    while (line[n] && !dj_is_space(line[n]))
        n++;
    const char *after = line + n;
    while (dj_is_space(*after))
        after++;
    *rest = after;
    *argument = false;
    if (n > 0 && line[n - 1] == ':') /* "Power: ...": no keyword has one */
        return KW_NONE;
    for (size_t k = 0; k < NKEYWORDS; k++) {
        /* As the table spells it (as nearly every file does), or in any
         * case. */
        if (KEYWORDS[k].len == n &&
            (memcmp(KEYWORDS[k].word, line, n) == 0 ||
             cf_prefix_nocase(KEYWORDS[k].word, line))) {
            *argument = KEYWORDS[k].takes_argument;
            return KEYWORDS[k].kw;
        }
    }
    if (!strchr(line, ':') && looks_like_keyword(line, n))
        return KW_UNKNOWN;
    return KW_NONE;
}

static const char *keyword_word(keyword kw)
{
    for (size_t k = 0; k < NKEYWORDS; k++)
        if (KEYWORDS[k].kw == kw)
            return KEYWORDS[k].word;
    return "?";
}

/* ---- maps ---------------------------------------------------------------- */

/* Variant names become file names: keep them to letters, digits, _ and -. */
static bool variant_name_ok(const char *name)
{
    if (!*name || strlen(name) >= DJ_NAME_MAX)
        return false;
    for (; *name; name++) {
        char c = cf_lower(*name);
        if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') && c != '_' &&
            c != '-')
            return false;
    }
    return true;
}

static void use_map(dj_casefile *cf, const struct loaded_map *l)
{
    cf->map = l->map;
    cf->map_rules = l->rules;
    memset(cf->power_by_first, -1, sizeof cf->power_by_first);
    for (int p = l->map->npowers - 1; p >= 0; p--) {
        const char *name = l->map->powers[p].name;
        size_t n = strlen(name);
        cf->power_by_first[(unsigned char)name[0]] = (signed char)p;
        cf->power_len[p] = n;
        char head[POWER_HEAD_BYTES] = {0}, mask[POWER_HEAD_BYTES] = {0};
        if (n < POWER_HEAD_BYTES) {
            memcpy(head, name, n);
            head[n] = ':';
            memset(mask, 0xff, n + 1);
        }
        memcpy(&cf->power_head[p], head, sizeof head);
        memcpy(&cf->power_mask[p], mask, sizeof mask);
    }
}

/* Keep a map just loaded; false when out of memory. */
static bool keep_map(dj_casefile *cf, const char *variant, dj_map *map,
                     const dj_rules *rules)
{
    if (cf->nloaded == cf->loaded_cap) {
        int cap = cf->loaded_cap ? 2 * cf->loaded_cap : 4;
        struct loaded_map *grown =
            realloc(cf->loaded, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        cf->loaded = grown;
        cf->loaded_cap = cap;
    }
    struct loaded_map *l = &cf->loaded[cf->nloaded++];
    snprintf(l->variant, sizeof l->variant, "%s", variant);
    l->map = map;
    l->rules = *rules;
    use_map(cf, l);
    return true;
}

/* Make <mapdir>/<variant>.map the current map, loading it unless it has
 * been loaded already. */
static bool load_variant(dj_casefile *cf, const char *variant, char *err,
                         size_t errlen)
{
    if (!variant_name_ok(variant)) {
        cf_errorf(cf, cf->lineno, err, errlen, "bad variant name '%.*s'",
                  QUOTE_MAX, variant);
        return false;
    }
    char name[DJ_NAME_MAX];
    size_t i = 0;
    for (; variant[i]; i++)
        name[i] = cf_lower(variant[i]);
    name[i] = '\0';
    for (int k = 0; k < cf->nloaded; k++)
        if (strcmp(cf->loaded[k].variant, name) == 0) {
            use_map(cf, &cf->loaded[k]);
            return true;
        }

    char path[PATH_MAX_LEN];
    int n = snprintf(path, sizeof path, "%s/%s.map", cf->mapdir, name);
    if (n < 0 || (size_t)n >= sizeof path) {
        cf_errorf(cf, cf->lineno, err, errlen, "map directory name too long");
        return false;
    }
    char maperr[DJ_CASE_ERR_MAX];
    dj_map *map = dj_map_load(path, maperr, sizeof maperr);
    if (!map) {
        cf_errorf(cf, cf->lineno, err, errlen, "cannot load variant '%s': %s",
                  variant, maperr);
        return false;
    }
    dj_rules map_rules;
    if (dj_rules_from_map(map, &map_rules, maperr, sizeof maperr) != 0) {
        cf_errorf(cf, cf->lineno, err, errlen, "variant '%s' (%s): %s",
                  variant, path, maperr);
        dj_map_free(map);
        return false;
    }
    if (!keep_map(cf, name, map, &map_rules)) {
        cf_errorf(cf, cf->lineno, err, errlen,
                  "cannot load variant '%s': out of memory", variant);
        dj_map_free(map);
        return false;
    }
    return true;
}

/* ---- opening and closing ------------------------------------------------- */

dj_casefile *dj_casefile_open(const char *path, const char *mapdir, char *err,
                              size_t errlen)
{
    dj_casefile *cf = calloc(1, sizeof *cf);
    if (!cf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    cf->path = dup_string(path);
    cf->mapdir = dup_string(mapdir ? mapdir : ".");
    cf->fp = fopen(path, "r");
    if (!cf->path || !cf->mapdir || !cf->fp) {
        snprintf(err, errlen, "%s: cannot open: %s", path,
                 cf->fp ? "out of memory" : strerror(errno));
        dj_casefile_close(cf);
        return NULL;
    }
    return cf;
}

void dj_casefile_close(dj_casefile *cf)
{
    if (!cf)
        return;
    if (cf->fp)
        fclose(cf->fp);
    for (int k = 0; k < cf->nloaded; k++)
        dj_map_free(cf->loaded[k].map);
    free(cf->loaded);
    free(cf->path);
    free(cf->mapdir);
    free(cf);
}

const dj_map *dj_casefile_map(const dj_casefile *cf)
{
    return cf->map;
}

/* ---- keyword lines inside a case ----------------------------------------- */

/* "RULE 4.A.2 = a" -> "4.A.2=a" for dj_rules_set. */
static bool apply_rule(dj_case *c, const char *arg, char *msg, size_t len)
{
    char assignment[LINE_MAX_LEN];
    size_t n = 0;
    for (; *arg && n + 1 < sizeof assignment; arg++)
        if (!dj_is_space(*arg))
            assignment[n++] = *arg;
    assignment[n] = '\0';
    return dj_rules_set(&c->rules, assignment, msg, len);
}

/* Open a section; the first PRESTATE_SUPPLYCENTER_OWNERS clears ownership. */
static bool open_section(dj_casefile *cf, dj_case *c, keyword kw, char *msg,
                         size_t len)
{
    if (kw == KW_RESULTS && c->has_results) {
        snprintf(msg, len, "a second RESULTS section");
        return false;
    }
    cf->section = kw;
    if (kw == KW_POSTSTATE)
        c->has_post = true;
    if (kw == KW_RESULTS)
        c->has_results = true;
    if (kw == KW_SC_OWNERS && !cf->owners_seen) {
        cf->owners_seen = true;
        memset(c->pre.owner, 0xff, sizeof c->pre.owner); /* all -1 */
    }
    return true;
}

/* A keyword line inside a case (CASE and END are handled by the caller). */
static bool keyword_line(dj_casefile *cf, dj_case *c, keyword kw,
                         const char *rest, char *msg, size_t len)
{
    switch (kw) {
    case KW_UNKNOWN:
        snprintf(msg, len, "unknown keyword '%.*s'",
                 (int)strcspn(cf->cur, " \t"), cf->cur);
        return false;
    case KW_VARIANT:
        snprintf(msg, len, "VARIANT_ALL inside a case");
        return false;
    case KW_RULE:
        return apply_rule(c, rest, msg, len);
    case KW_SETPHASE:
        cf->section = KW_NONE;
        return cf_parse_phase(rest, &c->pre.phase, msg, len);
    case KW_POST_SAME:
        c->post_same = true;
        cf->section = KW_NONE;
        return true;
    default:
        return open_section(cf, c, kw, msg, len);
    }
}

/* The argument a keyword takes, or the lack of one, is as it should be. */
static bool argument_ok(keyword kw, bool takes, const char *rest, char *msg,
                        size_t len)
{
    if (kw == KW_NONE || kw == KW_UNKNOWN)
        return true;
    if (takes && !*rest) {
        snprintf(msg, len, "%s needs an argument", keyword_word(kw));
        return false;
    }
    if (!takes && *rest) {
        snprintf(msg, len, "unexpected '%.*s' after %s", QUOTE_MAX, rest,
                 keyword_word(kw));
        return false;
    }
    return true;
}

/* The power whose name, spelt as the map spells it, and a colon start the
 * current line ("England: F lon"); -1 if none does. */
static int line_power(const dj_casefile *cf)
{
    const char *line = cf->cur;
    int p = cf->power_by_first[(unsigned char)line[0]];
    if (p < 0)
        return -1;
    size_t n = cf->power_len[p], have = (size_t)(cf->cur_end - line);
    if (n < POWER_HEAD_BYTES && have >= POWER_HEAD_BYTES) {
        uint64_t head;
        memcpy(&head, line, sizeof head);
        return (head & cf->power_mask[p]) == cf->power_head[p] ? p : -1;
    }
    if (have <= n || line[n] != ':' ||
        memcmp(line, cf->map->powers[p].name, n) != 0)
        return -1;
    return p;
}

/* One non-blank line inside a case.  Nearly every line starts with a
 * power's name and a colon (line_power): no keyword can, so those go
 * straight to the open section. */
CF_EVERY_LINE step case_line(dj_casefile *cf, dj_case *c, char *err,
                             size_t errlen)
{
    char msg[DJ_CASE_ERR_MAX];
    const char *rest;
    bool takes;
    int power = cf->too_long ? -1 : line_power(cf);
    keyword kw = power >= 0 ? KW_NONE : classify(cf, &rest, &takes);
    bool ok;

    if (cf->too_long) {
        snprintf(msg, sizeof msg, "line too long (more than %d characters)",
                 LINE_MAX_LEN - 1);
        ok = false;
    } else if (kw == KW_NONE) {
        ok = cf_section_line(cf, c, power, msg, sizeof msg);
    } else if (kw == KW_CASE) {
        cf_errorf(cf, cf->lineno, err, errlen,
                  "missing END for case '%.*s' (started at line %d)",
                  QUOTE_MAX, c->name, c->line);
        cf->pushed_back = true;  /* the new case starts here */
        return STEP_ERROR_AT_END;
    } else if (!argument_ok(kw, takes, rest, msg, sizeof msg)) {
        ok = false;
    } else if (kw == KW_END) {
        return cf_finish_case(cf, c, err, errlen) ? STEP_DONE
                                                  : STEP_ERROR_AT_END;
    } else {
        ok = keyword_line(cf, c, kw, rest, msg, sizeof msg);
    }
    if (ok)
        return STEP_MORE;
    cf_errorf(cf, cf->lineno, err, errlen, "%s", msg);
    return STEP_ERROR;
}

/* ---- the reader loop ----------------------------------------------------- */

/* After an error: skip past the next END, or up to the next CASE. */
static void skip_case(dj_casefile *cf)
{
    while (next_line(cf)) {
        const char *rest;
        bool takes;
        keyword kw = classify(cf, &rest, &takes);
        if (kw == KW_END)
            return;
        if (kw == KW_CASE) {
            cf->pushed_back = true;
            return;
        }
    }
}

static void begin_case(dj_casefile *cf, dj_case *c, const char *name)
{
    size_t n = strnlen(name, sizeof c->name - 1);
    memcpy(c->name, name, n);
    c->name[n] = '\0';
    c->file = cf->path;
    c->line = cf->lineno;
    c->rules = cf->map_rules;  /* the case's RULE lines come on top */
    dj_phase spring = {DJ_SPRING, 1901, DJ_MOVEMENT};
    dj_position_empty(cf->map, spring, &c->pre);
    c->norders = 0;
    c->post_same = false;
    c->npost = 0;
    c->npost_dislodged = 0;
    c->has_post = false;
    c->has_results = false;
    c->nexpect_dislodged = 0;
    cf->section = KW_NONE;
    cf->owners_seen = false;
    cf->nresults = 0;
    cf->nexpected = 0;
    if (++cf->case_seq == 0) { /* counted round: clear the lists for real */
        memset(cf->occupied, 0, sizeof cf->occupied);
        cf->case_seq = 1;
    }
}

/* From just after the CASE line to END. */
static dj_case_status read_case(dj_casefile *cf, dj_case *c, const char *name,
                                char *err, size_t errlen)
{
    if (!cf->map && !load_variant(cf, DEFAULT_VARIANT, err, errlen)) {
        cf->done = true;
        return DJ_CASE_ERROR;
    }
    begin_case(cf, c, name);
    while (next_line(cf)) {
        if (!*cf->cur && !cf->too_long)
            continue;
        switch (case_line(cf, c, err, errlen)) {
        case STEP_MORE:
            continue;
        case STEP_DONE:
            return DJ_CASE_OK;
        case STEP_ERROR:
            skip_case(cf);
            return DJ_CASE_ERROR;
        case STEP_ERROR_AT_END:
            return DJ_CASE_ERROR;
        }
    }
    cf_errorf(cf, cf->lineno, err, errlen,
              "missing END for case '%.*s' (started at line %d)", QUOTE_MAX,
              c->name, c->line);
    return DJ_CASE_ERROR;
}

/* A line between cases that is neither VARIANT_ALL nor CASE. */
static dj_case_status stray_line(dj_casefile *cf, keyword kw, char *err,
                                 size_t errlen)
{
    if (cf->too_long)
        cf_errorf(cf, cf->lineno, err, errlen,
                  "line too long (more than %d characters)", LINE_MAX_LEN - 1);
    else if (kw == KW_UNKNOWN)
        cf_errorf(cf, cf->lineno, err, errlen, "unknown keyword '%.*s'",
                  (int)strcspn(cf->cur, " \t"), cf->cur);
    else
        cf_errorf(cf, cf->lineno, err, errlen,
                  "'%.*s' outside a case (expected CASE)", QUOTE_MAX, cf->cur);
    skip_case(cf);
    return DJ_CASE_ERROR;
}

dj_case_status dj_casefile_next(dj_casefile *cf, dj_case *c, char *err,
                                size_t errlen)
{
    if (err && errlen > 0)
        err[0] = '\0';
    while (!cf->done && next_line(cf)) {
        if (!*cf->cur && !cf->too_long)
            continue;
        const char *rest;
        bool takes;
        keyword kw = classify(cf, &rest, &takes);
        if (cf->too_long || (kw != KW_VARIANT && kw != KW_CASE))
            return stray_line(cf, kw, err, errlen);
        if (!*rest) {
            cf_errorf(cf, cf->lineno, err, errlen, "%s needs an argument",
                      keyword_word(kw));
            if (kw == KW_CASE)
                skip_case(cf);
            return DJ_CASE_ERROR;
        }
        if (kw == KW_CASE)
            return read_case(cf, c, rest, err, errlen);
        if (!load_variant(cf, rest, err, errlen)) {
            cf->done = true;
            return DJ_CASE_ERROR;
        }
    }
    cf->done = true;
    return DJ_CASE_EOF;
}
