/* SPDX-License-Identifier: MIT */
/*
 * flash.c — post/redirect/get: every form's POST answers 303 with the page
 * to look at, and what the POST had to say (the judge's reply, a refusal)
 * waits server-side for that browser's next view of that page, once.
 *
 * Why.  A page written as the answer to a POST is sent again by a reload
 * (two copies of one press); a redirect to a GET is not.  And a refused
 * form must not lose what was typed: its text fields come back in the form
 * on the page redirected to.  Neither goes in the URL (a press or orders
 * in a URL would sit in logs and the history): both are kept here, in
 * judgeweb's memory, under the browser's visitor cookie (djc, which every
 * visitor of a form's page holds, signed in or not) and the page's path,
 * for FLASH_SECONDS, taken (and forgotten) by the first GET of that page.
 *
 * Bounded: FLASH_SLOTS answers at once (the oldest goes for a new one),
 * a notice of FLASH_NOTICE_MAX bytes, FLASH_FIELDS fields of at most
 * FLASH_FIELD_MAX bytes each; the CSRF token and passwords are never kept.
 * A judgeweb restarted between the POST and its GET shows the page without
 * the answer: what the POST did is done (the judge's log and mail log have
 * it), only its words are lost.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/form.h"
#include "web/web_int.h"

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

struct web_flash_store {
    pthread_mutex_t lock;
    web_flash *slot[FLASH_SLOTS]; /* NULL: free */
};

static void flash_free(web_flash *f)
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
        flash_free(fs->slot[i]);
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

static char *bounded_copy(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n > max) { /* cut at a character's start, not inside one */
        n = max;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* The page a POST's answer is for. */
static void answer_path(const web_ctx *c, char *out, size_t len)
{
    if (c->answer_path[0])
        snprintf(out, len, "%s", c->answer_path);
    else if (c->route.game[0])
        snprintf(out, len, "/game/%s", c->route.game);
    else
        snprintf(out, len, "/");
}

/* Is this field one a refused form gets back?  Never the token nor a
 * password. */
static bool kept_field(const char *name)
{
    return strcmp(name, "csrf") != 0 && strstr(name, "password") == NULL;
}

void web_flash_redirect(web_ctx *c, const char *notice)
{
    char path[FLASH_PATH_MAX];
    answer_path(c, path, sizeof path);
    web_flash *f = calloc(1, sizeof *f);
    if (f && c->visitor_csrf[0]) {
        snprintf(f->key, sizeof f->key, "%s", c->visitor_csrf);
        snprintf(f->path, sizeof f->path, "%s", path);
        f->expires_at = c->rq->now + FLASH_SECONDS;
        f->notice = notice ? bounded_copy(notice, FLASH_NOTICE_MAX) : NULL;
        dj_form form;
        if (c->keep_fields &&
            dj_form_parse(c->rq->body, c->rq->body_len, &form) == 0) {
            for (int i = 0; i < form.n && f->nfields < FLASH_FIELDS; i++) {
                if (!kept_field(form.name[i]))
                    continue;
                char *v = bounded_copy(form.value[i], FLASH_FIELD_MAX);
                if (!v)
                    break;
                snprintf(f->name[f->nfields], sizeof f->name[0], "%s",
                         form.name[i]);
                f->value[f->nfields++] = v;
            }
            dj_form_free(&form);
        }
        struct web_flash_store *fs = web_shared_flash(c->sh);
        pthread_mutex_lock(&fs->lock);
        int at = -1;
        for (int i = 0; i < FLASH_SLOTS; i++) {
            web_flash *s = fs->slot[i];
            if (s && (s->expires_at <= c->rq->now ||
                      (same_key(s->key, f->key) &&
                       strcmp(s->path, f->path) == 0))) {
                flash_free(s); /* stale, or this page's older answer */
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
        flash_free(fs->slot[at]); /* the oldest, when every slot is held */
        fs->slot[at] = f;
        f = NULL;
        pthread_mutex_unlock(&fs->lock);
    }
    flash_free(f);
    c->rs->status = 303;
    snprintf(c->rs->location, sizeof c->rs->location, "%s", path);
    c->rs->content_type = "text/plain; charset=utf-8";
    dj_buf_reset(&c->rs->body);
    dj_buf_append(&c->rs->body, "Done: see the page.\n");
}

void web_flash_take(web_ctx *c)
{
    if (c->flash || !c->visitor_csrf[0] || !c->rq->path)
        return;
    struct web_flash_store *fs = web_shared_flash(c->sh);
    pthread_mutex_lock(&fs->lock);
    for (int i = 0; i < FLASH_SLOTS; i++) {
        web_flash *s = fs->slot[i];
        if (s && s->expires_at > c->rq->now && same_key(s->key, c->visitor_csrf) &&
            strcmp(s->path, c->rq->path) == 0) {
            c->flash = s;
            fs->slot[i] = NULL;
            break;
        }
    }
    pthread_mutex_unlock(&fs->lock);
}

const char *web_flash_notice(const web_ctx *c)
{
    return c->flash ? c->flash->notice : NULL;
}

const char *web_flash_field(const web_ctx *c, const char *name)
{
    if (c->flash)
        for (int i = 0; i < c->flash->nfields; i++)
            if (strcmp(c->flash->name[i], name) == 0)
                return c->flash->value[i];
    return "";
}

void web_flash_done(web_ctx *c)
{
    flash_free(c->flash);
    c->flash = NULL;
}
