/* SPDX-License-Identifier: MIT */
/*
 * picture_cache.c — pictures are derived data: the picture of a phase is
 * a function of what is stored (the phase's position, its orders and
 * results, the board and its geometry file), so it is drawn when first
 * needed and kept on disk, never in the database.
 *
 * A file is named for the game, the phase, a key and the format:
 * CACHE/GAME/S1901M-<16 hex>.png.  The key is a 64-bit FNV-1a hash of
 * everything the picture is drawn from — the position's snapshot text,
 * whether the phase was processed, its orders and its results text, the
 * map's name and the geometry file's size and time, the format and the
 * drawing's version — so a phase played again after a rollback (a new
 * row, new orders, new results) or a geometry file redrawn gets a new
 * file, and an old file is never shown for a changed phase.  A file is
 * written beside its place and renamed into it, so a reader never sees
 * half of one.  A cache that cannot be read or written costs only time:
 * the picture is drawn again.  Its size is bounded (picture_cache_prune,
 * below).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game/game_int.h"

/* Change when the drawing changes, so old files are drawn again. */
#define PICTURE_DRAWING_VERSION "issue31-4"
#define CACHE_MAX (64 * 1024 * 1024)

typedef struct fnv {
    uint64_t h;
} fnv;

static void fnv_add(fnv *f, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        f->h ^= p[i];
        f->h *= 1099511628211ULL;
    }
}

/* A string and its end, so "ab","c" and "a","bc" differ. */
static void fnv_text(fnv *f, const char *s)
{
    fnv_add(f, s ? s : "", s ? strlen(s) + 1 : 1);
}

static void fnv_number(fnv *f, int64_t n)
{
    char text[32];
    snprintf(text, sizeof text, "%" PRId64, n);
    fnv_text(f, text);
}

int gv_picture_cache_key(dj_judge *j, const game_view *v, const dj_phase_rec *ph,
                      bool processed, const char *geo_path, const char *format,
                      uint64_t *key)
{
    fnv f = {14695981039346656037ULL};
    fnv_text(&f, PICTURE_DRAWING_VERSION);
    fnv_text(&f, format);
    fnv_text(&f, v->g.name);
    fnv_text(&f, v->g.map);
    struct stat st;
    if (stat(geo_path, &st) == 0) {
        fnv_number(&f, (int64_t)st.st_size);
        fnv_number(&f, (int64_t)st.st_mtime);
    }
    fnv_number(&f, ph->id);
    fnv_text(&f, ph->name);
    fnv_text(&f, ph->position);
    fnv_number(&f, processed);
    if (v->blinded) { /* one viewer's picture never another's (blind.h) */
        fnv_text(&f, "blind");
        fnv_number(&f, v->viewer);
    }
    if (processed) {
        dj_orders_rec *recs = NULL;
        int n = 0;
        if (dj_store_orders_latest(j->store, ph->id, &recs, &n) < 0)
            return judge_store_fail(j);
        for (int i = 0; i < n; i++) {
            fnv_number(&f, recs[i].power);
            fnv_text(&f, recs[i].orders);
        }
        dj_orders_recs_free(recs, n);
        dj_result_rec r;
        int rc = dj_store_result_get(j->store, ph->id, &r);
        if (rc == 0) {
            fnv_text(&f, r.report);
            fnv_text(&f, r.detail);
            dj_result_rec_free(&r);
        } else if (rc != DJ_STORE_NOTFOUND) {
            return judge_store_fail(j);
        }
    }
    *key = f.h;
    return 0;
}

/* The cache's folder: judge.conf's picture_cache, else "pictures" beside
 * the database.  0, or -1 when there is none (an in-memory database). */
static int cache_dir(const dj_judge *j, char *out, size_t len)
{
    if (j->cfg.picture_cache[0]) {
        return (size_t)snprintf(out, len, "%s", j->cfg.picture_cache) < len
                   ? 0
                   : -1;
    }
    const char *db = j->cfg.database;
    if (!db[0] || strcmp(db, ":memory:") == 0)
        return -1;
    const char *slash = strrchr(db, '/');
    int n = slash ? snprintf(out, len, "%.*s/pictures", (int)(slash - db), db)
                  : snprintf(out, len, "pictures");
    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* A name safe as one path component: letters, digits, - and _ kept. */
static void safe_component(const char *in, char *out, size_t len)
{
    size_t k = 0;
    for (; *in && k + 1 < len; in++)
        out[k++] = (*in >= 'a' && *in <= 'z') || (*in >= 'A' && *in <= 'Z') ||
                           (*in >= '0' && *in <= '9') || *in == '-'
                       ? *in
                       : '_';
    out[k] = '\0';
}

int gv_picture_cache_path(const dj_judge *j, const game_view *v,
                       const dj_phase_rec *ph, const char *format,
                       uint64_t key, char *out, size_t len)
{
    char dir[DJ_PATH_MAX], game[64], phase[32];
    if (cache_dir(j, dir, sizeof dir) < 0)
        return -1;
    safe_component(v->g.name, game, sizeof game);
    safe_component(ph->name, phase, sizeof phase);
    int n = snprintf(out, len, "%s/%s/%s-%016" PRIx64 ".%s", dir, game, phase,
                     key, format);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

int gv_picture_cache_read(const char *path, dj_picture *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    /* Used now: the pruning keeps the most recently used. */
    futimens(fileno(f), NULL);
    struct stat st;
    unsigned char *data = NULL;
    if (fstat(fileno(f), &st) == 0 && st.st_size > 0 &&
        st.st_size <= CACHE_MAX)
        data = malloc((size_t)st.st_size);
    bool ok = data && fread(data, 1, (size_t)st.st_size, f) ==
                          (size_t)st.st_size;
    fclose(f);
    if (!ok) {
        free(data);
        return -1;
    }
    out->data = data;
    out->len = (size_t)st.st_size;
    return 0;
}

/* mkdir -p for the folders of path (not its last part). */
static void make_parents(const char *path)
{
    char dir[DJ_PATH_MAX + 128];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0750) < 0 && errno != EEXIST)
            return;
        *p = '/';
    }
}

void gv_picture_cache_write(const char *path, const dj_picture *pic)
{
    char tmp[DJ_PATH_MAX + 200];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= sizeof tmp)
        return;
    make_parents(path);
    int fd = mkstemp(tmp); /* unique whoever else writes it at once */
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        remove(tmp);
        return;
    }
    bool ok = fwrite(pic->data, 1, pic->len, f) == pic->len;
    ok = fchmod(fd, 0640) == 0 && ok;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0)
        remove(tmp);
}

/* ---- pruning ------------------------------------------------------------- */

/*
 * The cache is bounded by judge.conf's picture_cache_mb: at the end of a
 * tick, at most once an hour (the time of the last pruning is kept in the
 * cache's .pruned file), when its files weigh more than that, the least
 * recently used go (a picture read from the cache is marked used, so
 * pictures still being asked for stay) until they weigh nine tenths of
 * it.  Pictures are derived data: a picture pruned is drawn again when
 * next needed.  Only files named as the cache names them are counted or
 * removed (GAME/PHASE-<16 hex>.FORMAT and the temporary files beside
 * them), so a cache folder set to a directory holding anything else loses
 * nothing else.
 */
#define PRUNE_EVERY (60 * 60)

typedef struct cached_file {
    char path[DJ_PATH_MAX + 160];
    int64_t used;
    int64_t bytes;
} cached_file;

/* Is this a name the cache gives: PHASE-<16 hex>.FORMAT, or one of its
 * temporary files (the same and .XXXXXX)? */
static bool cache_file_name(const char *name)
{
    const char *dash = strchr(name, '-');
    if (!dash || dash == name)
        return false;
    for (const char *p = name; p < dash; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
              (*p >= '0' && *p <= '9') || *p == '_'))
            return false;
    for (int i = 1; i <= 16; i++)
        if (!((dash[i] >= '0' && dash[i] <= '9') ||
              (dash[i] >= 'a' && dash[i] <= 'f')))
            return false;
    const char *format = dash + 17;
    static const char *const formats[] = {".png", ".svg", ".pdf"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        size_t n = strlen(formats[i]);
        if (strncmp(format, formats[i], n) == 0 &&
            (format[n] == '\0' || (format[n] == '.' && strlen(format + n) == 7)))
            return true;
    }
    return false;
}

static int by_use(const void *a, const void *b)
{
    const cached_file *x = a, *y = b;
    return x->used < y->used ? -1 : x->used > y->used ? 1
           : strcmp(x->path, y->path);
}

/* Every file of the cache, in *files (malloc'd); their weight in *total.
 * -1 when out of memory. */
static int list_cache(const char *dir, cached_file **files, int *n,
                      int64_t *total)
{
    int cap = 0;
    *files = NULL;
    *n = 0;
    *total = 0;
    DIR *top = opendir(dir);
    if (!top)
        return 0;
    struct dirent *game;
    int rc = 0;
    while (rc == 0 && (game = readdir(top))) {
        if (game->d_name[0] == '.')
            continue;
        char sub[DJ_PATH_MAX + 80];
        if ((size_t)snprintf(sub, sizeof sub, "%s/%s", dir, game->d_name) >=
            sizeof sub)
            continue;
        DIR *d = opendir(sub);
        if (!d)
            continue;
        struct dirent *e;
        while (rc == 0 && (e = readdir(d))) {
            cached_file f;
            struct stat st;
            if (!cache_file_name(e->d_name) ||
                (size_t)snprintf(f.path, sizeof f.path, "%s/%s", sub,
                                 e->d_name) >= sizeof f.path ||
                lstat(f.path, &st) < 0 || !S_ISREG(st.st_mode))
                continue;
            f.used = (int64_t)st.st_mtime;
            f.bytes = (int64_t)st.st_size;
            if (*n == cap) {
                cap = cap ? 2 * cap : 1024;
                cached_file *grown = realloc(*files, sizeof *grown * (size_t)cap);
                if (!grown) {
                    rc = -1;
                    break;
                }
                *files = grown;
            }
            (*files)[(*n)++] = f;
            *total += f.bytes;
        }
        closedir(d);
    }
    closedir(top);
    return rc;
}

int gv_picture_cache_prune(dj_judge *j, int *removed, int64_t *freed)
{
    *removed = 0;
    *freed = 0;
    int64_t limit = (int64_t)j->cfg.picture_cache_mb * 1024 * 1024;
    char dir[DJ_PATH_MAX], stamp[DJ_PATH_MAX + 16];
    if (limit <= 0 || cache_dir(j, dir, sizeof dir) < 0 ||
        (size_t)snprintf(stamp, sizeof stamp, "%s/.pruned", dir) >= sizeof stamp)
        return 0;
    FILE *f = fopen(stamp, "r");
    long long last = 0;
    if (f) {
        if (fscanf(f, "%lld", &last) != 1)
            last = 0;
        fclose(f);
    }
    if (last > 0 && j->now >= last && j->now - last < PRUNE_EVERY)
        return 0;
    cached_file *files;
    int n;
    int64_t total;
    if (list_cache(dir, &files, &n, &total) < 0) {
        free(files);
        return judge_fail(j, "picture cache %s: out of memory", dir);
    }
    if (total > limit) {
        qsort(files, (size_t)n, sizeof *files, by_use);
        for (int i = 0; i < n && total > limit / 10 * 9; i++)
            if (unlink(files[i].path) == 0) {
                total -= files[i].bytes;
                *freed += files[i].bytes;
                (*removed)++;
                char *slash = strrchr(files[i].path, '/');
                *slash = '\0';
                rmdir(files[i].path); /* the game's folder, once empty */
            }
    }
    free(files);
    f = fopen(stamp, "w");
    if (f) {
        fprintf(f, "%lld\n", (long long)j->now);
        fclose(f);
    }
    return 0;
}
