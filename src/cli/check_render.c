/* SPDX-License-Identifier: MIT */
/*
 * check_render.c — see check_render.h.  The geometry of the last map used
 * is kept, since a case file's cases share one board.  Files are written
 * whole (a temporary name, then rename) so a reader never sees half a
 * picture.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli/check_render.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "render/geo.h"
#include "render/render.h"

#define NAME_MAX_LEN 80

struct check_render {
    char dir[1024];
    const dj_map *map; /* the map geo was loaded for */
    dj_geo *geo;
    int written;
};

check_render *check_render_new(const char *dir)
{
    if (strlen(dir) >= sizeof ((check_render *)0)->dir) {
        fprintf(stderr, "judgectl check: --render: the directory name is too "
                        "long\n");
        return NULL;
    }
    if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
        fprintf(stderr, "judgectl check: --render: cannot make %s: %s\n", dir,
                strerror(errno));
        return NULL;
    }
    check_render *cr = calloc(1, sizeof *cr);
    if (!cr) {
        fprintf(stderr, "judgectl check: out of memory\n");
        return NULL;
    }
    snprintf(cr->dir, sizeof cr->dir, "%s", dir);
    return cr;
}

void check_render_free(check_render *cr)
{
    if (cr)
        dj_geo_free(cr->geo);
    free(cr);
}

int check_render_count(const check_render *cr)
{
    return cr->written;
}

/* Keep [A-Za-z0-9._-] of in, up to NAME_MAX_LEN bytes; '_' for the rest. */
static void safe_name(const char *in, char *out, size_t outlen)
{
    size_t n = 0;
    for (const char *p = in; *p && n + 1 < outlen && n < NAME_MAX_LEN; p++) {
        char ch = *p;
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                  (ch >= '0' && ch <= '9') || ch == '.' || ch == '-';
        if (!ok && (n == 0 || out[n - 1] == '_'))
            continue; /* runs of anything else become one '_' */
        out[n++] = ok ? ch : '_';
    }
    while (n > 0 && (out[n - 1] == '_' || out[n - 1] == '.'))
        n--;
    out[n] = '\0';
    if (n == 0)
        snprintf(out, outlen, "case");
}

static int load_geo(check_render *cr, const char *mapdir, const dj_map *map)
{
    if (cr->geo && cr->map == map)
        return 0;
    dj_geo_free(cr->geo);
    cr->geo = NULL;
    char path[2048], why[512];
    snprintf(path, sizeof path, "%s/%s.map", mapdir, map->name);
    bool schematic;
    cr->geo = dj_geo_for_map(path, map, &schematic, why, sizeof why);
    if (cr->geo && schematic)
        printf("--render: the %s board has no geometry file: a schematic "
               "picture\n",
               map->name);
    if (!cr->geo) {
        printf("--render: %s\n", why);
        return -1;
    }
    cr->map = map;
    return 0;
}

static int write_picture(check_render *cr, const char *base, const char *when,
                         const dj_picture_request *rq)
{
    char path[1400], tmp[1410], why[512];
    snprintf(path, sizeof path, "%s/%s-%s.png", cr->dir, base, when);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    dj_picture pic;
    if (dj_render_picture(rq, DJ_PICTURE_PNG, &pic, why, sizeof why) < 0) {
        printf("--render: %s: %s\n", path, why);
        return -1;
    }
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(pic.data, 1, pic.len, f) == pic.len;
    ok = f && fclose(f) == 0 && ok;
    dj_picture_free(&pic);
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        printf("--render: cannot write %s\n", path);
        return -1;
    }
    cr->written++;
    return 0;
}

int check_render_case(check_render *cr, const char *mapdir, const dj_map *map,
                      const dj_case *c, const dj_result *res)
{
    if (load_geo(cr, mapdir, map) < 0)
        return -1;
    const char *slash = strrchr(c->file, '/');
    char file[NAME_MAX_LEN + 1], cname[NAME_MAX_LEN + 1], base[200];
    safe_name(slash ? slash + 1 : c->file, file, sizeof file);
    char *dot = strrchr(file, '.');
    if (dot && dot != file)
        *dot = '\0'; /* "datc.txt" -> "datc" */
    safe_name(c->name, cname, sizeof cname);
    snprintf(base, sizeof base, "%s-%s", file, cname);

    dj_order *orders = malloc(sizeof *orders * (size_t)(c->norders + 1));
    if (!orders) {
        printf("--render: out of memory\n");
        return -1;
    }
    for (int i = 0; i < c->norders; i++)
        orders[i] = c->orders[i].order;
    char title[300];
    snprintf(title, sizeof title, "%.200s: before", c->name);
    dj_picture_request rq = {map, cr->geo, &c->pre, orders, c->norders, res,
                             title, NULL};
    int rc = write_picture(cr, base, "before", &rq);
    snprintf(title, sizeof title, "%.200s: after, with the orders", c->name);
    dj_picture_request after = {map, cr->geo, &c->pre, orders, c->norders,
                                res, title, &res->next};
    if (write_picture(cr, base, "after", &after) < 0)
        rc = -1;
    free(orders);
    return rc;
}
