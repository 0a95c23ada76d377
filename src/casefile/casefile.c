/*
 * casefile.c — the case-file reader.
 *
 * Design.  The reader is a line-at-a-time state machine.  Outside a case
 * only VARIANT_ALL and CASE mean anything; inside one, a keyword line opens
 * a section (PRESTATE, ORDERS, ...) and every other line is a "Power: ..."
 * line belonging to the open section.  The file is read through a 64 KB
 * read-ahead buffer; a line is used where it lies there, or gathered into
 * a fixed line buffer when it crosses the buffer's end, so no input can
 * overrun either; a line longer than LINE_MAX_LEN is an error.
 *
 * A case is written straight into the caller's dj_case.  Two things wait
 * for END: the orders (kept as text until then, so they are read in the
 * phase the case finally states whatever the order of its sections), and
 * the retreat options of dislodged units, which need both the units and
 * the previous phase's results.
 *
 * After a syntax error the reader skips to the case's END, or stops before
 * the next CASE if END is missing, so one bad case costs only itself.
 *
 * Speed.  Lines of the usual shape ("England: F lon") are taken by a quick
 * reader straight from the read-ahead buffer (see "the quick reader"
 * below); everything else goes through the line-at-a-time machine above.
 * What the quick reader's time is spent on is branches the processor
 * guesses wrong, not instructions: which power a line names, whether a
 * unit is an army or a fleet and how long an order is are different on
 * every line.  So those three are read without a branch on them (words
 * compared under masks, a table, the bytes of four words tested at once);
 * cutting a fifth of its instructions had changed its time by 3%, this
 * cut it by 10% (doc/engine.md).
 */
#include "casefile/casefile.h"
#include "engine/rules_map.h"
#include "reader/notation.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_LEN 1024   /* longest line accepted */
/* NUL bytes kept after the data read ahead: the quick reader loads up to
 * QUICK_WINDOW bytes from any byte of the data without a bound test. */
#define QUICK_WINDOW 32
#define READ_SLACK (QUICK_WINDOW + 8)
#define PATH_MAX_LEN 4096   /* longest map path built */
#define QUOTE_MAX 40        /* longest text quoted back in a message */
#define DEFAULT_VARIANT "standard"

typedef enum {
    KW_NONE,  /* not a keyword: a "Power: ..." line */
    KW_UNKNOWN,
    KW_VARIANT,
    KW_CASE,
    KW_END,
    KW_RULE,
    KW_SETPHASE,
    KW_SC_OWNERS,
    KW_PRESTATE,
    KW_PRE_DISLODGED,
    KW_PRE_RESULTS,
    KW_ORDERS,
    KW_POSTSTATE,
    KW_POST_DISLODGED,
    KW_POST_SAME
} keyword;

static const struct keyword_name {
    const char *word;
    size_t len;
    keyword kw;
    bool takes_argument;
} KEYWORDS[] = {
#define KEYWORD(w, kw, arg) {w, sizeof w - 1, kw, arg}
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
    KEYWORD("POSTSTATE", KW_POSTSTATE, false),
    KEYWORD("POSTSTATE_DISLODGED", KW_POST_DISLODGED, false),
    KEYWORD("POSTSTATE_SAME", KW_POST_SAME, false),
#undef KEYWORD
};

/* One line of PRESTATE_RESULTS: a movement order and whether it worked. */
typedef struct prev_result {
    dj_order order;
    bool success;
} prev_result;

struct dj_casefile {
    FILE *fp;
    char *rbuf;                 /* DJ_CASEFILE_READ_CHUNK bytes read ahead
                                   from fp, then READ_SLACK NULs after the
                                   last byte read: the quick reader's scans
                                   stop there unchecked, and its word-wide
                                   loads may run into them */
    size_t rpos, rlen;
    size_t chunk;               /* bytes read at a time (tests: fewer) */
    char *path;
    char *mapdir;
    dj_map *map;                /* the current variant's, in loaded[] */
    dj_rules map_rules;         /* defaults with the map's RULE lines */
    /* Every map loaded, kept until the file is closed: a case's map stays
     * valid while later cases are read (judgectl check reads ahead on a
     * second thread), and a variant named again is not loaded again.  At
     * most one per map file of the directory. */
    struct loaded_map {
        char variant[DJ_NAME_MAX];
        dj_map *map;
        dj_rules rules;
    } *loaded;
    int nloaded, loaded_cap;
    /* Each power's "Name: " as a line starts with it, its length, and its
     * first 16 bytes as two words with the masks of the bytes it has: the
     * quick reader tests a line's power with two masked compares whatever
     * the name's length (a test of the length would be a branch the
     * processor guesses wrong on every other line), and the bytes after
     * the sixteenth, in a name of 15 letters or more, one by one. */
    char power_tag[DJ_MAX_POWERS][DJ_NAME_MAX + 2];
    size_t power_tag_len[DJ_MAX_POWERS];
    uint64_t power_head[DJ_MAX_POWERS][2];
    uint64_t power_mask[DJ_MAX_POWERS][2];
    /* By a name's first byte: the first power whose name starts so, -1
     * for none, and from each power the next of the same first byte (the
     * quick reader's test of a line's power). */
    signed char power_by_first[256];
    signed char next_same_first[DJ_MAX_POWERS];
    bool done;                  /* end of file, or the map failed */
    int lineno;
    bool general_only;          /* no quick reader (for tests) */
    bool pushed_back;           /* hand out the current line again */
    bool too_long;              /* the current line was cut short */
    char buf[LINE_MAX_LEN];     /* a line that crosses a read-ahead chunk */
    char *raw;                  /* the line read: in rbuf, or buf */
    size_t rawlen;              /* its length */
    char *cur;                  /* the current line: trimmed, no comment */

    /* State of the case being read. */
    keyword section;            /* the open section, KW_NONE before one */
    bool has_phase, has_post, owners_seen;
    int nresults;
    prev_result results[DJ_CASE_MAX_ORDERS];
    /* Which provinces each unit list of the case holds (one unit per
     * province): province p is in list k when occupied[k][p] == case_seq,
     * so a new case clears them all by counting on. */
    unsigned case_seq;
    unsigned occupied[3][DJ_MAX_LOCS];
};

/* The unit lists of a case, for occupied[]. */
enum { LIST_PRESTATE, LIST_POSTSTATE, LIST_POST_DISLODGED };

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

/* What the quick reader's scans look for in a byte. */
enum {
    BYTE_LOCATION = 1,  /* a letter, a digit or '/': a location's name */
    BYTE_ORDER_STOP = 2 /* '\n', '#' or NUL: where an order's text stops */
};

static const unsigned char BYTE_CLASS[256] = {
    ['a' ... 'z'] = BYTE_LOCATION, ['A' ... 'Z'] = BYTE_LOCATION,
    ['0' ... '9'] = BYTE_LOCATION, ['/'] = BYTE_LOCATION,
    ['\n'] = BYTE_ORDER_STOP,      ['#'] = BYTE_ORDER_STOP,
    ['\0'] = BYTE_ORDER_STOP};

/* s into dst of `size` bytes, cut short if need be: snprintf's "%s"
 * without the format's cost, once or twice per case. */
static void copy_bounded(char *dst, size_t size, const char *s)
{
    size_t n = 0;
    while (n + 1 < size && s[n])
        n++;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

/* White space as the C locale's isspace (the program sets no locale),
 * without a call: every line is trimmed two or three times. */
static bool is_blank(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

static char *trim(char *s)
{
    while (is_blank(*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && is_blank(s[n - 1]))
        s[--n] = '\0';
    return s;
}

static bool equal_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

/* Is `prefix` a (case-insensitive) prefix of `s`? */
static bool prefix_nocase(const char *prefix, const char *s)
{
    for (; *prefix; prefix++, s++)
        if (tolower((unsigned char)*prefix) != tolower((unsigned char)*s))
            return false;
    return true;
}

/* "file:line: message" into err. */
static void errorf(const dj_casefile *cf, int line, char *err, size_t errlen,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void errorf(const dj_casefile *cf, int line, char *err, size_t errlen,
                   const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    char msg[DJ_CASE_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "%s:%d: %s", cf->path, line, msg);
}

/* ---- powers ---------------------------------------------------------------- */

int dj_casefile_find_power(const dj_map *map, const char *text)
{
    int p = dj_map_find_power(map, text);
    if (p >= 0 || !*text)
        return p;
    int found = -1;
    for (int i = 0; i < map->npowers; i++) {
        if (!prefix_nocase(text, map->powers[i].name) &&
            !prefix_nocase(text, map->powers[i].adjective))
            continue;
        if (found >= 0 && found != i)
            return -1;  /* ambiguous */
        found = i;
    }
    return found;
}

/* ---- lines --------------------------------------------------------------- */

/* A NUL inside a line must not end it: it reads as a space. */
static void unnul(char *s, size_t n)
{
    char *z;
    while ((z = memchr(s, '\0', n)) != NULL) {
        *z = ' ';
        n -= (size_t)(z - s) + 1;
        s = z + 1;
    }
}

/*
 * Read one raw line into cf->raw; false at end of file.  A line wholly
 * inside the read-ahead chunk is used where it lies (its newline becomes
 * the NUL): the hot path, no copy.  Otherwise it is gathered into cf->buf,
 * cut at LINE_MAX_LEN - 1 bytes with cf->too_long set.
 */
static bool read_raw_line(dj_casefile *cf)
{
    cf->too_long = false;
    if (cf->rpos < cf->rlen) {
        char *start = cf->rbuf + cf->rpos;
        char *nl = memchr(start, '\n', cf->rlen - cf->rpos);
        if (nl && (size_t)(nl - start) < LINE_MAX_LEN) {
            size_t take = (size_t)(nl - start);
            *nl = '\0';
            unnul(start, take);
            cf->rpos += take + 1;
            cf->raw = start;
            cf->rawlen = take;
            return true;
        }
    }
    size_t n = 0;
    bool any = false;
    for (;;) {
        if (cf->rpos == cf->rlen) {
            cf->rlen = fread(cf->rbuf, 1, cf->chunk, cf->fp);
            memset(cf->rbuf + cf->rlen, 0, READ_SLACK);
            cf->rpos = 0;
            if (cf->rlen == 0)
                break;
        }
        const char *start = cf->rbuf + cf->rpos;
        size_t avail = cf->rlen - cf->rpos;
        const char *nl = memchr(start, '\n', avail);
        size_t take = nl ? (size_t)(nl - start) : avail;
        any = true;
        size_t room = sizeof cf->buf - 1 - n;
        size_t copy = take < room ? take : room;
        memcpy(cf->buf + n, start, copy);
        unnul(cf->buf + n, copy);
        n += copy;
        if (copy < take)
            cf->too_long = true;
        cf->rpos += take + (nl != NULL);
        if (nl)
            break;
    }
    cf->buf[n] = '\0';
    cf->raw = cf->buf;
    cf->rawlen = n;
    return any;
}

/* The next line, comment stripped and trimmed, in cf->cur. */
static bool next_line(dj_casefile *cf)
{
    if (cf->pushed_back) {
        cf->pushed_back = false;
        return true;
    }
    if (!read_raw_line(cf))
        return false;
    cf->lineno++;
    char *s = cf->raw, *end = s + cf->rawlen; /* *end is the NUL */
    char *hash = memchr(s, '#', cf->rawlen);
    if (hash)
        end = hash;
    while (end > s && is_blank(end[-1]))
        end--;
    *end = '\0';
    while (is_blank(*s))
        s++;
    cf->cur = s;
    return true;
}


/* Does the word of n bytes at s equal the wn bytes at w, ignoring case?
 * The words compared with (keywords, "army") are ASCII, and the program
 * sets no locale, so folding A-Z is all the ignoring there is. */
static bool word_equals(const char *s, size_t n, const char *w, size_t wn)
{
    if (wn != n)
        return false;
    if (memcmp(s, w, n) == 0) /* as written, nearly always */
        return true;
    for (size_t i = 0; i < n; i++) {
        unsigned char a = (unsigned char)s[i], b = (unsigned char)w[i];
        if ((a >= 'A' && a <= 'Z' ? a + ('a' - 'A') : a) !=
            (b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b))
            return false;
    }
    return true;
}

/* Upper-case letters and underscores only: looks like a keyword. */
static bool looks_like_keyword(const char *s, size_t n)
{
    if (n < 2)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isupper((unsigned char)s[i]) && s[i] != '_')
            return false;
    return true;
}

/*
 * Which keyword starts the line; *rest points after it, trimmed.  A line
 * without a colon whose first word is in capitals is taken for a keyword
 * even when it is not one, so that a misspelt keyword is reported as such.
 */
static keyword classify(const char *line, const char **rest, bool *argument)
{
    size_t n = 0;
    while (line[n] && line[n] != ' ' && line[n] != '\t')
        n++;
    const char *after = line + n;
    while (*after == ' ' || *after == '\t')
        after++;
    *rest = after;
    *argument = false;
    if (n > 0 && line[n - 1] == ':') /* "Power: ...", most lines: no keyword
                                        has a colon */
        return KW_NONE;
    for (size_t k = 0; k < sizeof KEYWORDS / sizeof KEYWORDS[0]; k++) {
        if (word_equals(line, n, KEYWORDS[k].word, KEYWORDS[k].len)) {
            *argument = KEYWORDS[k].takes_argument;
            return KEYWORDS[k].kw;
        }
    }
    if (!strchr(line, ':') && looks_like_keyword(line, n))
        return KW_UNKNOWN;
    return KW_NONE;
}

/* ---- maps ---------------------------------------------------------------- */

/* Variant names become file names: keep them to letters, digits, _ and -. */
static bool variant_name_ok(const char *name)
{
    if (!*name || strlen(name) >= DJ_NAME_MAX)
        return false;
    for (; *name; name++)
        if (!isalnum((unsigned char)*name) && *name != '_' && *name != '-')
            return false;
    return true;
}

/* Make a loaded map the current one: its rules, and its powers' "Name: "
 * for the quick reader. */
static void use_map(dj_casefile *cf, const struct loaded_map *l)
{
    const dj_map *map = l->map;
    cf->map = l->map;
    cf->map_rules = l->rules;
    memset(cf->power_by_first, -1, sizeof cf->power_by_first);
    for (int p = map->npowers - 1; p >= 0; p--) { /* chains in power order */
        char *tag = cf->power_tag[p];
        snprintf(tag, sizeof cf->power_tag[p], "%s: ", map->powers[p].name);
        size_t tag_len = strlen(tag);
        cf->power_tag_len[p] = tag_len;
        unsigned char head[sizeof cf->power_head[p]] = {0};
        unsigned char mask[sizeof cf->power_mask[p]] = {0};
        size_t k = tag_len < sizeof head ? tag_len : sizeof head;
        memcpy(head, tag, k);
        memset(mask, 0xff, k);
        memcpy(cf->power_head[p], head, sizeof head);
        memcpy(cf->power_mask[p], mask, sizeof mask);
        signed char *by = &cf->power_by_first[(unsigned char)map->powers[p].name[0]];
        cf->next_same_first[p] = *by;
        *by = (signed char)p;
    }
}

/* Make <mapdir>/<variant>.map the current map, loading it unless it has
 * been loaded already. */
static bool load_variant(dj_casefile *cf, const char *variant, char *err,
                         size_t errlen)
{
    char lower[DJ_NAME_MAX];
    if (!variant_name_ok(variant)) {
        errorf(cf, cf->lineno, err, errlen, "bad variant name '%.*s'",
               QUOTE_MAX, variant);
        return false;
    }
    size_t i = 0;
    for (; variant[i]; i++)
        lower[i] = (char)tolower((unsigned char)variant[i]);
    lower[i] = '\0';
    for (int k = 0; k < cf->nloaded; k++)
        if (strcmp(cf->loaded[k].variant, lower) == 0) {
            if (cf->loaded[k].map != cf->map)
                use_map(cf, &cf->loaded[k]);
            return true;
        }

    char path[PATH_MAX_LEN];
    int n = snprintf(path, sizeof path, "%s/%s.map", cf->mapdir, lower);
    if (n < 0 || (size_t)n >= sizeof path) {
        errorf(cf, cf->lineno, err, errlen, "map directory name too long");
        return false;
    }
    char maperr[DJ_CASE_ERR_MAX];
    dj_map *map = dj_map_load(path, maperr, sizeof maperr);
    if (!map) {
        errorf(cf, cf->lineno, err, errlen, "cannot load variant '%s': %s",
               variant, maperr);
        return false;
    }
    dj_rules map_rules;
    if (dj_rules_from_map(map, &map_rules, maperr, sizeof maperr) != 0) {
        errorf(cf, cf->lineno, err, errlen, "variant '%s' (%s): %s", variant,
               path, maperr);
        dj_map_free(map);
        return false;
    }
    if (cf->nloaded == cf->loaded_cap) {
        int cap = cf->loaded_cap ? 2 * cf->loaded_cap : 4;
        struct loaded_map *grown =
            realloc(cf->loaded, (size_t)cap * sizeof *grown);
        if (!grown) {
            errorf(cf, cf->lineno, err, errlen,
                   "cannot load variant '%s': out of memory", variant);
            dj_map_free(map);
            return false;
        }
        cf->loaded = grown;
        cf->loaded_cap = cap;
    }
    struct loaded_map *l = &cf->loaded[cf->nloaded++];
    snprintf(l->variant, sizeof l->variant, "%s", lower);
    l->map = map;
    l->rules = map_rules;
    use_map(cf, l);
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
    cf->chunk = DJ_CASEFILE_READ_CHUNK;
    cf->rbuf = calloc(1, DJ_CASEFILE_READ_CHUNK + READ_SLACK);
    if (!cf->path || !cf->mapdir || !cf->fp || !cf->rbuf) {
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
    free(cf->rbuf);
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

void dj_casefile_general_only(dj_casefile *cf)
{
    cf->general_only = true;
}

void dj_casefile_read_chunk(dj_casefile *cf, size_t bytes)
{
    if (bytes < 1)
        bytes = 1;
    if (bytes > DJ_CASEFILE_READ_CHUNK)
        bytes = DJ_CASEFILE_READ_CHUNK;
    cf->chunk = bytes;
}

/* ---- comparing cases ------------------------------------------------------ */

static int differ(char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int differ(char *why, size_t len, const char *fmt, ...)
{
    if (why && len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static bool units_equal(const dj_unit *a, const dj_unit *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i].power != b[i].power || a[i].loc != b[i].loc ||
            a[i].type != b[i].type)
            return false;
    return true;
}

static bool dislodged_equal(const dj_dislodged *a, const dj_dislodged *b)
{
    if (!units_equal(&a->unit, &b->unit, 1) ||
        a->attacker_from != b->attacker_from || a->by_convoy != b->by_convoy ||
        a->nretreats != b->nretreats)
        return false;
    for (int i = 0; i < a->nretreats && i < DJ_MAX_RETREATS; i++)
        if (a->retreats[i] != b->retreats[i])
            return false;
    return true;
}

static int positions_differ(const dj_position *a, const dj_position *b,
                            char *why, size_t len)
{
    if (a->phase.season != b->phase.season || a->phase.year != b->phase.year ||
        a->phase.type != b->phase.type)
        return differ(why, len, "phase");
    if (a->nunits != b->nunits || !units_equal(a->units, b->units, a->nunits))
        return differ(why, len, "units");
    if (a->ndislodged != b->ndislodged)
        return differ(why, len, "number of dislodged units");
    for (int i = 0; i < a->ndislodged; i++)
        if (!dislodged_equal(&a->dislodged[i], &b->dislodged[i]))
            return differ(why, len, "dislodged unit %d", i);
    for (int i = 0; i < DJ_MAX_LOCS; i++)
        if (a->owner[i] != b->owner[i])
            return differ(why, len, "owner of location %d", i);
    if (a->civil_disorder != b->civil_disorder)
        return differ(why, len, "civil disorder");
    return 0;
}

int dj_case_differs(const dj_case *a, const dj_case *b, char *why,
                    size_t whylen)
{
    if (strcmp(a->name, b->name) != 0 || a->line != b->line)
        return differ(why, whylen, "name or line");
    if (memcmp(a->rules.choice, b->rules.choice, sizeof a->rules.choice))
        return differ(why, whylen, "rules");
    if (positions_differ(&a->pre, &b->pre, why, whylen) < 0)
        return -1;
    if (a->norders != b->norders)
        return differ(why, whylen, "number of orders");
    for (int i = 0; i < a->norders; i++) {
        const dj_case_order *x = &a->orders[i], *y = &b->orders[i];
        if (x->line != y->line || strcmp(x->text, y->text) != 0 ||
            !dj_order_equal(&x->order, &y->order))
            return differ(why, whylen, "order %d ('%.*s')", i, QUOTE_MAX,
                          x->text);
    }
    if (a->post_same != b->post_same || a->npost != b->npost ||
        !units_equal(a->post, b->post, a->npost))
        return differ(why, whylen, "POSTSTATE");
    if (a->npost_dislodged != b->npost_dislodged ||
        !units_equal(a->post_dislodged, b->post_dislodged,
                     a->npost_dislodged))
        return differ(why, whylen, "POSTSTATE_DISLODGED");
    return 0;
}

/* ---- phases -------------------------------------------------------------- */

/* Cut s in place at any of `seps`; at most max words, the count returned. */
static int split_words(char *s, const char *seps, char **words, int max)
{
    int n = 0;
    while (n < max) {
        s += strspn(s, seps);
        if (!*s)
            break;
        words[n++] = s;
        s += strcspn(s, seps);
        if (*s)
            *s++ = '\0';
    }
    return n;
}

static bool parse_season(const char *w, dj_season *season)
{
    if (equal_nocase(w, "spring"))
        *season = DJ_SPRING;
    else if (equal_nocase(w, "fall") || equal_nocase(w, "autumn"))
        *season = DJ_FALL;
    else if (equal_nocase(w, "winter"))
        *season = DJ_WINTER;
    else
        return false;
    return true;
}

static bool parse_phase_type(const char *w, dj_phase_type *type)
{
    static const struct {
        const char *word;
        dj_phase_type type;
    } names[] = {{"movement", DJ_MOVEMENT},      {"moves", DJ_MOVEMENT},
                 {"retreat", DJ_RETREAT},        {"retreats", DJ_RETREAT},
                 {"adjustment", DJ_ADJUSTMENT}, {"adjustments", DJ_ADJUSTMENT},
                 {"builds", DJ_ADJUSTMENT}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (equal_nocase(w, names[i].word)) {
            *type = names[i].type;
            return true;
        }
    }
    return false;
}

static bool parse_year(const char *w, int *year)
{
    size_t n = strlen(w);
    if (n == 0 || n > 4 || strspn(w, "0123456789") != n)
        return false;
    *year = atoi(w);
    return *year > 0;
}

/* "Spring 1901, Movement", or jDip's "Spring 1901 (Movement)"; an
 * adjustment is always the winter's. */
static bool parse_phase(const char *text, dj_phase *ph, char *msg, size_t len)
{
    char copy[LINE_MAX_LEN];
    copy_bounded(copy, sizeof copy, text);
    char *words[4];
    int n = split_words(copy, " \t,()", words, 4);
    if (n > 3) {
        snprintf(msg, len, "unexpected '%.*s' in phase", QUOTE_MAX, words[3]);
        return false;
    }
    if (n != 3 || !parse_season(words[0], &ph->season) ||
        !parse_year(words[1], &ph->year) ||
        !parse_phase_type(words[2], &ph->type)) {
        snprintf(msg, len,
                 "bad phase '%.*s' (expected e.g. 'Spring 1901, Movement')",
                 QUOTE_MAX, text);
        return false;
    }
    if (ph->type == DJ_ADJUSTMENT) {
        ph->season = DJ_WINTER;
    } else if (ph->season == DJ_WINTER) {
        snprintf(msg, len, "winter has only an adjustment phase");
        return false;
    }
    return true;
}

/* ---- units --------------------------------------------------------------- */

/* The unit word of n bytes at w: "A", "army", "F", "fleet". */
static dj_unit_type unit_word(const char *w, size_t n)
{
    if (n == 1 || n == 4 || n == 5) {
        char first = (char)tolower((unsigned char)w[0]);
        if (first == 'a' && (n == 1 || word_equals(w, n, "army", 4)))
            return DJ_ARMY;
        if (first == 'f' && (n == 1 || word_equals(w, n, "fleet", 5)))
            return DJ_FLEET;
    }
    return DJ_NO_UNIT;
}

/* "A lon", "F spa/sc"; with !need_type also a bare "lon".  The text is
 * trimmed (a section line's rest). */
static bool parse_unit_text(const dj_map *map, const char *text,
                            bool need_type, dj_unit_type *type, int *loc,
                            char *msg, size_t len)
{
    const char *where = text;
    size_t n = strcspn(text, " \t");
    *type = unit_word(text, n);
    if (*type != DJ_NO_UNIT) {
        where = text + n;
        while (isspace((unsigned char)*where))
            where++;
    } else if (need_type) {
        snprintf(msg, len, "expected 'A' or 'F' and a location, got '%.*s'",
                 QUOTE_MAX, text);
        return false;
    }
    if (!*where) {
        snprintf(msg, len, "expected a location after '%.*s'", QUOTE_MAX,
                 text);
        return false;
    }
    *loc = dj_map_find_location(map, where);
    if (*loc < 0) {
        snprintf(msg, len, "unknown location '%.*s'", QUOTE_MAX, where);
        return false;
    }
    return true;
}

/* Can a unit of this type stand on this location at all? */
static bool can_stand(const dj_map *map, dj_unit_type type, int loc)
{
    const dj_location *l = &map->locs[loc];
    return type == DJ_ARMY ? l->army_ok : l->fleet_ok;
}

/* The same, with the reason when it cannot. */
static bool unit_can_stand(const dj_map *map, dj_unit_type type, int loc,
                           char *msg, size_t len)
{
    if (can_stand(map, type, loc))
        return true;
    const dj_location *l = &map->locs[loc];
    if (type == DJ_ARMY && !l->army_ok) {
        snprintf(msg, len, "an army cannot stand in %s", l->abbr);
        return false;
    }
    if (type == DJ_FLEET && !l->fleet_ok) {
        if (!l->is_coast && dj_map_ncoasts(map, l->province) > 0)
            snprintf(msg, len, "a fleet in %s needs a coast", l->abbr);
        else
            snprintf(msg, len, "a fleet cannot stand in %s", l->abbr);
        return false;
    }
    return true;
}

/* Append to one of the case's unit lists: bounded, one unit per
 * province. */
static bool add_to_list(dj_casefile *cf, int list, dj_unit *units, int *n,
                        dj_unit u, char *msg, size_t len)
{
    int prov = dj_province(cf->map, u.loc);
    if (cf->occupied[list][prov] == cf->case_seq) {
        snprintf(msg, len, "two units in %s", cf->map->locs[prov].abbr);
        return false;
    }
    if (*n >= DJ_MAX_UNITS) {
        snprintf(msg, len, "too many units (at most %d)", DJ_MAX_UNITS);
        return false;
    }
    cf->occupied[list][prov] = cf->case_seq;
    units[(*n)++] = u;
    return true;
}

static bool add_dislodged(const dj_map *map, dj_position *pos, dj_unit u,
                          char *msg, size_t len)
{
    int prov = dj_province(map, u.loc);
    if (dj_position_dislodged_at(map, pos, prov) >= 0) {
        snprintf(msg, len, "two dislodged units in %s", map->locs[prov].abbr);
        return false;
    }
    if (pos->ndislodged >= DJ_MAX_UNITS) {
        snprintf(msg, len, "too many units (at most %d)", DJ_MAX_UNITS);
        return false;
    }
    dj_dislodged *d = &pos->dislodged[pos->ndislodged++];
    memset(d, 0, sizeof *d);
    d->unit = u;
    d->attacker_from = -1;
    return true;
}

/* PRESTATE_SUPPLYCENTER_OWNERS: "Power: A prov" — the letter is decoration. */
static bool set_owner(const dj_map *map, dj_position *pos, int power, int loc,
                      char *msg, size_t len)
{
    int prov = dj_province(map, loc);
    if (!map->is_sc[prov]) {
        snprintf(msg, len, "%s is not a supply centre", map->locs[prov].abbr);
        return false;
    }
    pos->owner[prov] = (int16_t)power;
    return true;
}

/* ---- section lines ------------------------------------------------------- */

/*
 * Cut "Power: rest" at the colon.  The power is looked up; *rest points
 * after the colon, trimmed.
 */
static bool split_power(const dj_map *map, char *line, int *power,
                        char **rest, char *msg, size_t len)
{
    char *colon = strchr(line, ':');
    if (!colon) {
        snprintf(msg, len, "expected 'Power: ...', got '%.*s'", QUOTE_MAX,
                 line);
        return false;
    }
    *colon = '\0';
    char *name = trim(line);
    *rest = trim(colon + 1);
    *power = dj_casefile_find_power(map, name);
    if (*power < 0) {
        snprintf(msg, len, "unknown power '%.*s'", QUOTE_MAX, name);
        return false;
    }
    if (!**rest) {
        snprintf(msg, len, "nothing after '%s:'", name);
        return false;
    }
    return true;
}

/* "SUCCESS: Power: A bud-ser" / "FAILURE: Power: A gal-bud". */
static bool results_line(dj_casefile *cf, char *line, char *msg, size_t len)
{
    char *colon = strchr(line, ':');
    if (colon)
        *colon = '\0';
    char *outcome = trim(line);
    bool success = equal_nocase(outcome, "success");
    if (!colon || (!success && !equal_nocase(outcome, "failure"))) {
        snprintf(msg, len, "expected 'SUCCESS:' or 'FAILURE:', got '%.*s'",
                 QUOTE_MAX, outcome);
        return false;
    }
    int power;
    char *text, why[256];
    if (!split_power(cf->map, colon + 1, &power, &text, msg, len))
        return false;
    if (cf->nresults >= DJ_CASE_MAX_ORDERS) {
        snprintf(msg, len, "too many results (at most %d)",
                 DJ_CASE_MAX_ORDERS);
        return false;
    }
    prev_result *r = &cf->results[cf->nresults];
    if (dj_notation_parse(cf->map, power, DJ_MOVEMENT, text, &r->order, why,
                          sizeof why) < 0) {
        /* jDip names a unit that had no order ("FAILURE: Austria: A
         * war"): it held. */
        char held[LINE_MAX_LEN], why2[256];
        snprintf(held, sizeof held, "%s H", text);
        if (dj_notation_parse(cf->map, power, DJ_MOVEMENT, held, &r->order,
                              why2, sizeof why2) < 0) {
            snprintf(msg, len, "bad order '%.*s': %s", QUOTE_MAX, text, why);
            return false;
        }
    }
    r->success = success;
    cf->nresults++;
    return true;
}

/* ORDERS: keep the text; it is read at END, in the case's final phase. */
static bool order_line(dj_casefile *cf, dj_case *c, int power,
                       const char *text, char *msg, size_t len)
{
    if (c->norders >= DJ_CASE_MAX_ORDERS) {
        snprintf(msg, len, "too many orders (at most %d)", DJ_CASE_MAX_ORDERS);
        return false;
    }
    size_t n = strlen(text);
    if (n >= DJ_CASE_TEXT_MAX) {
        snprintf(msg, len, "order too long (at most %d characters)",
                 DJ_CASE_TEXT_MAX - 1);
        return false;
    }
    dj_case_order *o = &c->orders[c->norders++];
    dj_order_blank(&o->order, DJ_ORDER_NONE, power, DJ_NO_UNIT, -1);
    o->line = cf->lineno;
    memcpy(o->text, text, n + 1); /* hot: no snprintf */
    return true;
}

/* A "Power: ..." line in the open section. */
static bool section_line(dj_casefile *cf, dj_case *c, char *msg, size_t len)
{
    const dj_map *map = cf->map;
    char *line = cf->cur; /* cut in place: it is not handed out again */
    if (cf->section == KW_NONE) {
        snprintf(msg, len, "'%.*s' is not in a section (expected PRESTATE, "
                 "ORDERS, POSTSTATE, ...)", QUOTE_MAX, line);
        return false;
    }
    if (cf->section == KW_PRE_RESULTS)
        return results_line(cf, line, msg, len);

    int power, loc;
    dj_unit_type type;
    char *text;
    if (!split_power(map, line, &power, &text, msg, len))
        return false;
    if (cf->section == KW_ORDERS)
        return order_line(cf, c, power, text, msg, len);
    if (!parse_unit_text(map, text, cf->section != KW_SC_OWNERS, &type, &loc,
                         msg, len))
        return false;
    if (cf->section == KW_SC_OWNERS)
        return set_owner(map, &c->pre, power, loc, msg, len);
    if (!unit_can_stand(map, type, loc, msg, len))
        return false;
    dj_unit u = {.power = (int16_t)power, .loc = (int16_t)loc, .type = type};
    switch (cf->section) {
    case KW_PRESTATE:
        return add_to_list(cf, LIST_PRESTATE, c->pre.units, &c->pre.nunits,
                           u, msg, len);
    case KW_PRE_DISLODGED:
        return add_dislodged(map, &c->pre, u, msg, len);
    case KW_POSTSTATE:
        return add_to_list(cf, LIST_POSTSTATE, c->post, &c->npost, u, msg,
                           len);
    case KW_POST_DISLODGED:
        return add_to_list(cf, LIST_POST_DISLODGED, c->post_dislodged,
                           &c->npost_dislodged, u, msg, len);
    default:
        snprintf(msg, len, "internal error: unknown section");
        return false;
    }
}

/* ---- the quick reader ---------------------------------------------------- */

/*
 * Nearly every section line has the shape judgectl and jDip write:
 * "England: F lon", "Russia: A war - gal".  The quick reader takes a run of
 * such lines straight from the read-ahead chunk, one pass over each: a
 * power's name spelt as the map spells it, ": ", then for a unit "A" or
 * "F", one space and a location of letters, digits and '/' that ends the
 * line, or for an order any text without a comment, blank ends or NUL.
 * It stops at the first line of any other shape (a keyword, a blank line,
 * an adjective, "spa (nc)", a comment, anything wrong) and leaves it to
 * the general reader above, which gives the same answer for this shape:
 * names are unique ignoring case (the map loader refuses two powers of one
 * name), such a location is looked up by the same function, and a line the
 * general reader would refuse (a fleet inland, two units in a province, too
 * many) is not taken here either.  So the quick reader only saves time;
 * tests/unit/test_notation and the case-file fuzz target read files both
 * ways (dj_casefile_general_only) to keep it so.
 */

/* The 8 bytes at s as one word, in memory order. */
static inline uint64_t load_word(const char *s)
{
    uint64_t w;
    memcpy(&w, s, sizeof w);
    return w;
}

/* Reading eight bytes at a time (order_text_len), in memory order: the
 * first byte read is the lowest of the word, whatever the machine. */
static inline uint64_t load_word_le(const char *s)
{
    uint64_t w = load_word(s);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

#define BYTES_01 0x0101010101010101ull
#define BYTES_80 0x8080808080808080ull

/* The high bit of each byte of w that is 0.  A byte above the lowest such
 * may be marked too (a borrow), so only the lowest mark is to be read. */
static inline uint64_t zero_bytes(uint64_t w)
{
    return (w - BYTES_01) & ~w & BYTES_80;
}

/* The bytes of w where an order's text stops ('\n', '#' or NUL, as
 * BYTE_ORDER_STOP), to be read as zero_bytes. */
static inline uint64_t order_stops(uint64_t w)
{
    return zero_bytes(w) | zero_bytes(w ^ ('\n' * BYTES_01)) |
           zero_bytes(w ^ ('#' * BYTES_01));
}

/* The marks of zero_bytes, one bit a byte: bit i for byte i.  (The
 * multiplication moves the mark of byte i, bit 8i after the shift, to bit
 * 56 + i; no two products meet, so nothing carries.) */
static inline unsigned pack_marks(uint64_t marks)
{
    return (unsigned)(((marks >> 7) * 0x0102040810204080ull) >> 56);
}

/* How many bytes of t come before the first that stops an order's text,
 * looking QUICK_WINDOW bytes ahead (QUICK_WINDOW if none is there).  The
 * four words' marks are packed into one number whose lowest bit is the
 * answer: no branch depends on the length. */
static inline size_t order_text_len(const char *t)
{
    uint64_t marks = 1ull << QUICK_WINDOW; /* none: QUICK_WINDOW */
    for (unsigned i = 0; i < QUICK_WINDOW / 8; i++)
        marks |= (uint64_t)pack_marks(order_stops(load_word_le(t + 8 * i)))
                 << (8 * i);
    return (size_t)__builtin_ctzll(marks);
}

/* A unit's letter as the quick reader takes it: "A" or "F", either case. */
static const unsigned char UNIT_OF_LETTER[256] = {
    ['A'] = DJ_ARMY, ['a'] = DJ_ARMY, ['F'] = DJ_FLEET, ['f'] = DJ_FLEET};

/* "England: ..." at s, in read-ahead data that ends at end: the power
 * whose name starts the line, spelt as the map spells it, with *rest
 * after ": "; -1 if not that shape.  The 16 bytes at s are read whatever
 * the line's length: past the data they are the NULs of READ_SLACK, which
 * no power's "Name: " holds. */
static inline int quick_power(const dj_casefile *cf, const char *s,
                              const char *end, const char **rest)
{
    uint64_t w0 = load_word(s), w1 = load_word(s + 8);
    for (int i = cf->power_by_first[(unsigned char)s[0]]; i >= 0;
         i = cf->next_same_first[i]) {
        uint64_t differs = ((w0 & cf->power_mask[i][0]) ^ cf->power_head[i][0]) |
                           ((w1 & cf->power_mask[i][1]) ^ cf->power_head[i][1]);
        if (differs)
            continue;
        size_t n = cf->power_tag_len[i];
        if (n > 2 * sizeof w0) { /* a name of 15 letters or more */
            if ((size_t)(end - s) < n)
                continue;
            const char *tag = cf->power_tag[i];
            size_t k = 2 * sizeof w0;
            while (k < n && s[k] == tag[k])
                k++;
            if (k < n)
                continue;
        }
        *rest = s + n;
        return i;
    }
    return -1;
}

/* Where a run of unit lines goes: chosen once for the run, not per line. */
typedef struct unit_sink {
    bool owners;       /* PRESTATE_SUPPLYCENTER_OWNERS: set the owner */
    int list;          /* else the list, for the duplicate check */
    dj_unit *units;
    int *count;
} unit_sink;

static bool unit_sink_for(dj_casefile *cf, dj_case *c, unit_sink *k)
{
    switch (cf->section) {
    case KW_SC_OWNERS:
        *k = (unit_sink){true, 0, NULL, NULL};
        return true;
    case KW_PRESTATE:
        *k = (unit_sink){false, LIST_PRESTATE, c->pre.units, &c->pre.nunits};
        return true;
    case KW_POSTSTATE:
        *k = (unit_sink){false, LIST_POSTSTATE, c->post, &c->npost};
        return true;
    case KW_POST_DISLODGED:
        *k = (unit_sink){false, LIST_POST_DISLODGED, c->post_dislodged,
                         &c->npost_dislodged};
        return true;
    default:
        *k = (unit_sink){false, 0, NULL, NULL};
        return false;
    }
}

/* A unit line at s, in read-ahead data that ends at end, read and stored
 * in one pass: the newline that ends it, or NULL to leave it.  No search
 * for the newline first: a power's name and a location hold none, so a
 * line of this shape shows its end where the location does. */
static const char *quick_unit_line(dj_casefile *cf, dj_case *c,
                                   const unit_sink *k, const char *s,
                                   const char *end)
{
    const dj_map *map = cf->map;
    const char *u;
    int power = quick_power(cf, s, end, &u);
    if (power < 0 || end - u < 4 || u[1] != ' ')
        return NULL;
    dj_unit_type type = (dj_unit_type)UNIT_OF_LETTER[(unsigned char)u[0]];
    const char *where = u + 2;
    size_t n = 0;
    while (BYTE_CLASS[(unsigned char)where[n]] & BYTE_LOCATION)
        n++; /* stops at the NUL after the data, if not before */
    const char *nl = where + n;
    if (type == DJ_NO_UNIT || n == 0 || nl == end || *nl != '\n')
        return NULL;
    int loc = dj_map_find_location_n(map, where, n);
    if (loc < 0)
        return NULL;
    int prov = dj_province(map, loc);
    if (k->owners) {
        if (!map->is_sc[prov])
            return NULL;
        c->pre.owner[prov] = (int16_t)power;
        return nl;
    }
    if (!can_stand(map, type, loc) ||
        cf->occupied[k->list][prov] == cf->case_seq ||
        *k->count >= DJ_MAX_UNITS)
        return NULL;
    cf->occupied[k->list][prov] = cf->case_seq;
    k->units[(*k->count)++] =
        (dj_unit){.power = (int16_t)power, .loc = (int16_t)loc, .type = type};
    return nl;
}

/* An order line at s, in read-ahead data that ends at end, its text kept:
 * the newline that ends it, or NULL to leave it.  The text's end is found
 * without a branch on its length (order_text_len), and a text shorter
 * than QUICK_WINDOW is copied QUICK_WINDOW bytes at once, its NUL after:
 * the length of an order is what a processor cannot guess. */
static const char *quick_order_line(dj_casefile *cf, dj_case *c,
                                    const char *s, const char *end)
{
    const char *text;
    int power = quick_power(cf, s, end, &text);
    if (power < 0)
        return NULL;
    size_t n = order_text_len(text);
    if (n == QUICK_WINDOW) /* a long order: the rest byte by byte */
        while (!(BYTE_CLASS[(unsigned char)text[n]] & BYTE_ORDER_STOP))
            n++; /* stops at the NUL after the data, if not before */
    const char *nl = text + n;
    if (nl == end || *nl != '\n' || nl - s >= LINE_MAX_LEN || n == 0 ||
        is_blank(text[0]) || is_blank(text[n - 1]) ||
        n >= DJ_CASE_TEXT_MAX || c->norders >= DJ_CASE_MAX_ORDERS)
        return NULL;
    dj_case_order *o = &c->orders[c->norders++];
    dj_order_blank(&o->order, DJ_ORDER_NONE, power, DJ_NO_UNIT, -1);
    o->line = cf->lineno + 1;
    if (n < QUICK_WINDOW) /* one fixed-size copy: two vector moves */
        memcpy(o->text, text, QUICK_WINDOW);
    else
        memcpy(o->text, text, n);
    o->text[n] = '\0';
    return nl;
}

/* As many lines of the open section as the quick reader takes. */
static void quick_lines(dj_casefile *cf, dj_case *c)
{
    if (cf->pushed_back || cf->general_only)
        return;
    const char *end = cf->rbuf + cf->rlen;
    if (cf->section == KW_ORDERS) {
        for (;;) {
            const char *s = cf->rbuf + cf->rpos;
            const char *nl = quick_order_line(cf, c, s, end);
            if (!nl)
                return;
            cf->lineno++;
            cf->rpos += (size_t)(nl - s) + 1;
        }
    }
    unit_sink k;
    if (!unit_sink_for(cf, c, &k))
        return;
    for (;;) {
        const char *s = cf->rbuf + cf->rpos;
        const char *nl = s < end ? quick_unit_line(cf, c, &k, s, end) : NULL;
        if (!nl)
            return;
        cf->lineno++;
        cf->rpos += (size_t)(nl - s) + 1;
    }
}

/* ---- the end of a case --------------------------------------------------- */

/* Did this successful move arrive by convoy (so 4.A.5 may apply)? */
static bool came_by_convoy(const dj_map *map, const dj_position *pos,
                           const dj_order *o)
{
    if (o->via_convoy || o->npath > 0)
        return true;
    int to = dj_province(map, o->dest);
    int u = dj_position_unit_at(map, pos, to);
    dj_unit_type type = u >= 0 ? pos->units[u].type : o->unit_type;
    return type == DJ_ARMY &&
           !dj_map_reaches_province(map, o->loc, to, DJ_ARMY);
}

/*
 * From PRESTATE_RESULTS: who dislodged each unit and from where, which
 * provinces a standoff left empty, and so each unit's legal retreats.  A
 * standoff needs two failed moves into a province left empty: one failed
 * move alone (a broken convoy, an attack on a unit that then left) leaves
 * the province open to retreats, as jDip's DATC 6.H.9 and 6.H.12 have it.
 */
static void resolve_dislodged(const dj_casefile *cf, dj_case *c)
{
    const dj_map *map = cf->map;
    bool contested[DJ_MAX_LOCS] = {false};
    unsigned char bounced[DJ_MAX_LOCS] = {0};
    for (int i = 0; i < cf->nresults; i++) {
        const dj_order *o = &cf->results[i].order;
        if (o->kind != DJ_ORDER_MOVE || o->loc < 0 || o->dest < 0)
            continue;
        int to = dj_province(map, o->dest);
        if (!cf->results[i].success) {
            if (dj_position_unit_at(map, &c->pre, to) < 0 &&
                ++bounced[to] >= 2)
                contested[to] = true;
            continue;
        }
        int d = dj_position_dislodged_at(map, &c->pre, to);
        if (d >= 0) {
            c->pre.dislodged[d].attacker_from =
                (int16_t)dj_province(map, o->loc);
            c->pre.dislodged[d].by_convoy = came_by_convoy(map, &c->pre, o);
        }
    }
    bool convoy_retreat =
        dj_rule(&c->rules, DJ_RULE_CONVOY_RETREAT) == 'b';
    dj_position_compute_retreats(map, &c->pre, contested, convoy_retreat);
}

/* Read the orders kept as text, now that the phase is known. */
static bool parse_orders(const dj_casefile *cf, dj_case *c, char *err,
                         size_t errlen)
{
    for (int i = 0; i < c->norders; i++) {
        dj_case_order *o = &c->orders[i];
        char why[256];
        if (dj_notation_parse(cf->map, o->order.power, c->pre.phase.type,
                              o->text, &o->order, why, sizeof why) < 0) {
            errorf(cf, o->line, err, errlen, "bad order '%.*s': %s",
                   QUOTE_MAX, o->text, why);
            return false;
        }
    }
    return true;
}

static bool finish_case(dj_casefile *cf, dj_case *c, char *err,
                        size_t errlen)
{
    if (!cf->has_post && !c->post_same) {
        errorf(cf, cf->lineno, err, errlen,
               "case '%.*s' has no POSTSTATE or POSTSTATE_SAME", QUOTE_MAX,
               c->name);
        return false;
    }
    if (cf->has_post && c->post_same) {
        errorf(cf, cf->lineno, err, errlen,
               "case '%.*s' has both POSTSTATE and POSTSTATE_SAME", QUOTE_MAX,
               c->name);
        return false;
    }
    if (!parse_orders(cf, c, err, errlen))
        return false;
    resolve_dislodged(cf, c);
    return true;
}

/* ---- keyword lines inside a case ----------------------------------------- */

static const char *keyword_word(keyword kw)
{
    for (size_t k = 0; k < sizeof KEYWORDS / sizeof KEYWORDS[0]; k++)
        if (KEYWORDS[k].kw == kw)
            return KEYWORDS[k].word;
    return "?";
}

/* "RULE 4.A.2 = a" -> "4.A.2=a" for dj_rules_set. */
static bool apply_rule(dj_case *c, const char *arg, char *msg, size_t len)
{
    char assignment[LINE_MAX_LEN];
    size_t n = 0;
    for (; *arg && n + 1 < sizeof assignment; arg++)
        if (!isspace((unsigned char)*arg))
            assignment[n++] = *arg;
    assignment[n] = '\0';
    return dj_rules_set(&c->rules, assignment, msg, len);
}

/* Open a section; the first PRESTATE_SUPPLYCENTER_OWNERS clears ownership. */
static void open_section(dj_casefile *cf, dj_case *c, keyword kw)
{
    cf->section = kw;
    if (kw == KW_POSTSTATE)
        cf->has_post = true;
    if (kw == KW_SC_OWNERS && !cf->owners_seen) {
        cf->owners_seen = true;
        for (int i = 0; i < DJ_MAX_LOCS; i++)
            c->pre.owner[i] = -1;
    }
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
        cf->has_phase = true;
        cf->section = KW_NONE;
        return parse_phase(rest, &c->pre.phase, msg, len);
    case KW_POST_SAME:
        c->post_same = true;
        cf->section = KW_NONE;
        return true;
    default:
        open_section(cf, c, kw);
        return true;
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

/* One non-blank line inside a case. */
static step case_line(dj_casefile *cf, dj_case *c, char *err, size_t errlen)
{
    char msg[DJ_CASE_ERR_MAX];
    const char *rest;
    bool takes;
    keyword kw = classify(cf->cur, &rest, &takes);
    bool ok;

    if (cf->too_long) {
        snprintf(msg, sizeof msg, "line too long (more than %d characters)",
                 LINE_MAX_LEN - 1);
        ok = false;
    } else if (kw == KW_CASE) {
        errorf(cf, cf->lineno, err, errlen,
               "missing END for case '%.*s' (started at line %d)", QUOTE_MAX,
               c->name, c->line);
        cf->pushed_back = true;  /* the new case starts here */
        return STEP_ERROR_AT_END;
    } else if (!argument_ok(kw, takes, rest, msg, sizeof msg)) {
        ok = false;
    } else if (kw == KW_END) {
        return finish_case(cf, c, err, errlen) ? STEP_DONE : STEP_ERROR_AT_END;
    } else if (kw == KW_NONE) {
        ok = section_line(cf, c, msg, sizeof msg);
    } else {
        ok = keyword_line(cf, c, kw, rest, msg, sizeof msg);
    }
    if (ok)
        return STEP_MORE;
    errorf(cf, cf->lineno, err, errlen, "%s", msg);
    return STEP_ERROR;
}

/* ---- the reader loop ----------------------------------------------------- */

/* After an error: skip past the next END, or up to the next CASE. */
static void skip_case(dj_casefile *cf)
{
    while (next_line(cf)) {
        const char *rest;
        bool takes;
        keyword kw = classify(cf->cur, &rest, &takes);
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
    copy_bounded(c->name, sizeof c->name, name);
    c->file = cf->path;
    c->line = cf->lineno;
    c->rules = cf->map_rules;  /* the case's RULE lines come on top */
    dj_phase spring = {DJ_SPRING, 1901, DJ_MOVEMENT};
    dj_position_empty(cf->map, spring, &c->pre);
    c->norders = 0;
    c->post_same = false;
    c->npost = 0;
    c->npost_dislodged = 0;
    cf->section = KW_NONE;
    cf->has_phase = cf->has_post = cf->owners_seen = false;
    cf->nresults = 0;
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
    for (;;) {
        quick_lines(cf, c);
        if (!next_line(cf))
            break;
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
    errorf(cf, cf->lineno, err, errlen,
           "missing END for case '%.*s' (started at line %d)", QUOTE_MAX,
           c->name, c->line);
    return DJ_CASE_ERROR;
}

/* A line between cases that is neither VARIANT_ALL nor CASE. */
static dj_case_status stray_line(dj_casefile *cf, keyword kw, char *err,
                                 size_t errlen)
{
    if (cf->too_long)
        errorf(cf, cf->lineno, err, errlen,
               "line too long (more than %d characters)", LINE_MAX_LEN - 1);
    else if (kw == KW_UNKNOWN)
        errorf(cf, cf->lineno, err, errlen, "unknown keyword '%.*s'",
               (int)strcspn(cf->cur, " \t"), cf->cur);
    else
        errorf(cf, cf->lineno, err, errlen,
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
        keyword kw = classify(cf->cur, &rest, &takes);
        if (cf->too_long || (kw != KW_VARIANT && kw != KW_CASE))
            return stray_line(cf, kw, err, errlen);
        if (!*rest) {
            errorf(cf, cf->lineno, err, errlen, "%s needs an argument",
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
