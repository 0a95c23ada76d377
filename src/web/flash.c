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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/flash.h"
#include "web/form.h"
#include "web/web_int.h"

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
        web_flash_store_put(web_shared_flash(c->sh), f, c->rq->now);
        f = NULL;
    }
    web_flash_free(f);
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
    c->flash = web_flash_store_take(web_shared_flash(c->sh), c->visitor_csrf,
                                    c->rq->path, c->rq->now);
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
    web_flash_free(c->flash);
    c->flash = NULL;
}
