/* SPDX-License-Identifier: MIT */
/*
 * flash.h — private to src/web: the store of POSTs' answers waiting for
 * their page's next view (flash_store.c), and one answer as kept there.
 * flash.c makes answers from a request and takes them for a page;
 * shared.c holds the one store of a judgeweb.
 */
#ifndef DJ_WEB_FLASH_H
#define DJ_WEB_FLASH_H

#include <stdbool.h>
#include <stdint.h>

#include "game/websession.h"
#include "web/form.h"

#define FLASH_SLOTS 256
#define FLASH_SECONDS 600
#define FLASH_NOTICE_MAX (32 * 1024)
#define FLASH_FIELDS 6
#define FLASH_FIELD_MAX (16 * 1024)
#define FLASH_PATH_MAX 128

typedef struct web_flash {
    char key[DJ_WEB_TOKEN_LEN + 1]; /* the visitor cookie */
    char path[FLASH_PATH_MAX];
    int64_t expires_at;
    char *notice;
    int nfields;
    char name[FLASH_FIELDS][DJ_FORM_NAME_MAX];
    char *value[FLASH_FIELDS];
} web_flash;

struct web_flash_store;

/* One answer's memory (NULL: nothing). */
void web_flash_free(web_flash *f);
/* The store takes f: the page's older answer for the key goes, and
 * expired ones; when every slot is held, the oldest. */
void web_flash_store_put(struct web_flash_store *fs, web_flash *f,
                         int64_t now);
/* The answer kept for key and path (the caller's to free), or NULL. */
web_flash *web_flash_store_take(struct web_flash_store *fs, const char *key,
                                const char *path, int64_t now);

#endif
