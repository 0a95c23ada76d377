/* SPDX-License-Identifier: MIT */
/*
 * flash_store.c — the store of POSTs' answers (flash.h): FLASH_SLOTS
 * answers behind a lock, each for one browser's (visitor cookie's) next
 * view of one page, until FLASH_SECONDS pass.  Apart from flash.c, which
 * reads requests, so that shared.c, which makes the store, and flash.c,
 * which uses it, both stand on this file and not on each other.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "web/flash.h"
#include "web/web_int.h"

struct web_flash_store {
    pthread_mutex_t lock;
    web_flash *slot[FLASH_SLOTS]; /* NULL: free */
};

void web_flash_free(web_flash *f)
{
    if (!f)
        return;
    free(f->notice);
    for (int i = 0; i < f->nfields; i++)
        free(f->value[i]);
    free(f);
}

struct web_flash_store *web_flash_store_new(void)
{
    struct web_flash_store *fs = calloc(1, sizeof *fs);
    if (fs)
        pthread_mutex_init(&fs->lock, NULL);
    return fs;
}

void web_flash_store_free(struct web_flash_store *fs)
{
    if (!fs)
        return;
    for (int i = 0; i < FLASH_SLOTS; i++)
        web_flash_free(fs->slot[i]);
    pthread_mutex_destroy(&fs->lock);
    free(fs);
}

/* Same key, in time independent of where they differ. */
static bool same_key(const char *a, const char *b)
{
    size_t n = strlen(a);
    if (n != strlen(b))
        return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

void web_flash_store_put(struct web_flash_store *fs, web_flash *f,
                         int64_t now)
{
    pthread_mutex_lock(&fs->lock);
    int at = -1;
    for (int i = 0; i < FLASH_SLOTS; i++) {
        web_flash *s = fs->slot[i];
        if (s && (s->expires_at <= now || (same_key(s->key, f->key) &&
                                           strcmp(s->path, f->path) == 0))) {
            web_flash_free(s); /* stale, or this page's older answer */
            fs->slot[i] = NULL;
        }
        if (!fs->slot[i]) {
            if (at < 0 || fs->slot[at])
                at = i; /* the first free slot */
        } else if (at < 0 || (fs->slot[at] && fs->slot[i]->expires_at <
                                                  fs->slot[at]->expires_at)) {
            at = i; /* else the oldest */
        }
    }
    web_flash_free(fs->slot[at]); /* the oldest, when every slot is held */
    fs->slot[at] = f;
    pthread_mutex_unlock(&fs->lock);
}

web_flash *web_flash_store_take(struct web_flash_store *fs, const char *key,
                                const char *path, int64_t now)
{
    web_flash *got = NULL;
    pthread_mutex_lock(&fs->lock);
    for (int i = 0; i < FLASH_SLOTS && !got; i++) {
        web_flash *s = fs->slot[i];
        if (s && s->expires_at > now && same_key(s->key, key) &&
            strcmp(s->path, path) == 0) {
            got = s;
            fs->slot[i] = NULL;
        }
    }
    pthread_mutex_unlock(&fs->lock);
    return got;
}
