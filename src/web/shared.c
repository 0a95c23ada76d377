/* SPDX-License-Identifier: MIT */
/*
 * shared.c — what judgeweb's worker threads share (dj_web_shared): the
 * options, and the sign-in counts per client address, behind a lock.
 * Apart from the handler so that the actions, which count sign-ins, and
 * the handler, which walks the route table to the actions, both use it
 * and neither uses the other back.
 *
 * Sign-in counts per client address are kept here as well as in the
 * database's failure table (which the mail door shares, per client and
 * game and per target): a client failing signin_limit times within the
 * window, whatever games it tries, is refused until the window passes.
 * An attempt counts as a failure from its start (web_signin_begin), in
 * the same locked step as the check, and is taken back when it succeeds:
 * worker threads answering one client at once cannot each pass the check
 * before any of them has counted.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/web_int.h"

#define CLIENT_SLOTS 1024

typedef struct client_slot {
    char client[64];
    int64_t window_start;
    int failures;
} client_slot;

struct dj_web_shared {
    dj_web_options opt;
    char judge_name[64];
    char judge_address[256];
    pthread_mutex_t lock; /* for clients */
    client_slot clients[CLIENT_SLOTS];
    struct web_flash_store *flash; /* flash.c: POSTs' answers for one view */
};

dj_web_shared *dj_web_shared_new(const dj_web_options *opt)
{
    dj_web_shared *sh = calloc(1, sizeof *sh);
    if (!sh)
        return NULL;
    sh->opt = *opt;
    snprintf(sh->judge_name, sizeof sh->judge_name, "%s",
             opt->judge_name ? opt->judge_name : "dipjudge");
    snprintf(sh->judge_address, sizeof sh->judge_address, "%s",
             opt->judge_address ? opt->judge_address : "");
    sh->opt.judge_name = sh->judge_name;
    sh->opt.judge_address = sh->judge_address;
    pthread_mutex_init(&sh->lock, NULL);
    sh->flash = web_flash_store_new();
    if (!sh->flash) {
        dj_web_shared_free(sh);
        return NULL;
    }
    return sh;
}

void dj_web_shared_free(dj_web_shared *sh)
{
    if (!sh)
        return;
    web_flash_store_free(sh->flash);
    pthread_mutex_destroy(&sh->lock);
    free(sh);
}

struct web_flash_store *web_shared_flash(dj_web_shared *sh)
{
    return sh->flash;
}

const dj_web_options *web_shared_options(const dj_web_shared *sh)
{
    return &sh->opt;
}

/* ---- sign-in counts per client ------------------------------------------------- */

static client_slot *client_find(dj_web_shared *sh, const char *client,
                                int64_t now, bool make)
{
    client_slot *oldest = &sh->clients[0];
    for (int i = 0; i < CLIENT_SLOTS; i++) {
        client_slot *s = &sh->clients[i];
        if (s->client[0] && strcmp(s->client, client) == 0) {
            if (now - s->window_start >= sh->opt.signin_window) {
                s->window_start = now;
                s->failures = 0;
            }
            return s;
        }
        if (s->window_start < oldest->window_start)
            oldest = s;
    }
    if (!make)
        return NULL;
    snprintf(oldest->client, sizeof oldest->client, "%s", client);
    oldest->window_start = now;
    oldest->failures = 0;
    return oldest;
}

bool web_signin_begin(web_ctx *c)
{
    pthread_mutex_lock(&c->sh->lock);
    client_slot *s = client_find(c->sh, c->rq->client, c->rq->now, true);
    bool ok = s->failures < c->opt->signin_limit;
    if (ok)
        s->failures++; /* until web_signin_succeeded says otherwise */
    pthread_mutex_unlock(&c->sh->lock);
    return ok;
}

void web_signin_succeeded(web_ctx *c)
{
    pthread_mutex_lock(&c->sh->lock);
    client_slot *s = client_find(c->sh, c->rq->client, c->rq->now, false);
    if (s && s->failures > 0)
        s->failures--;
    pthread_mutex_unlock(&c->sh->lock);
}
