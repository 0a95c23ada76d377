/* SPDX-License-Identifier: MIT */
/*
 * web.h — the web door: one request in, one response out, acting through
 * the game and command rooms exactly as the mail door does.
 *
 * Design.  dj_web_handle() is the whole of judgeweb's behaviour with no
 * HTTP library in sight (server.c carries bytes between libmicrohttpd and
 * it), so tests and the benchmark can call it directly.  Each worker
 * thread owns its dj_judge (one database connection, with its compiled
 * statements); what threads share is in dj_web_shared (the per-client
 * sign-in counts), behind a lock.  Pictures come from the game room's
 * cache on disk, which every process shares.
 *
 * Every action is a message: orders, READY/WAIT and press are written as
 * the lines a player would mail and run by dj_command_run as the signed-in
 * participant (dj_command_msg.signed_on), recorded in the mail log under a
 * Message-ID of its own, in one transaction; the answer page shows the
 * reply a mail would get, line by line.
 */
#ifndef DJ_WEB_WEB_H
#define DJ_WEB_WEB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "util/buf.h"

#define DJ_WEB_BODY_MAX (64 * 1024)   /* bytes of a request body */

typedef struct dj_web_shared dj_web_shared;

/* What every worker needs to know (from judge.conf's web { }). */
typedef struct dj_web_options {
    const char *judge_name;
    const char *judge_address;
    bool secure_cookies;      /* base_url is https */
    int session_lifetime;     /* seconds */
    int signin_limit;         /* failed sign-ins per client per window */
    int signin_window;        /* seconds */
} dj_web_options;

dj_web_shared *dj_web_shared_new(const dj_web_options *opt);
void dj_web_shared_free(dj_web_shared *sh);

typedef struct dj_web_request {
    const char *method;
    const char *path;
    const char *cookie;       /* the Cookie header, or NULL */
    const char *content_type; /* of a POST, or NULL */
    const char *body;         /* a POST's body, at most DJ_WEB_BODY_MAX */
    size_t body_len;
    const char *client;       /* the client's address, "192.0.2.1" */
    int64_t now;
} dj_web_request;

typedef struct dj_web_response {
    int status;               /* 200, 303, 400, 403, 404, 405, 413, 500 */
    const char *content_type;
    dj_buf body;
    char cookies[3][640];     /* Set-Cookie values (djs: 8 sessions) */
    int ncookies;
    char location[300];       /* for 303 */
    const char *cache;        /* Cache-Control */
    const char *csp;          /* Content-Security-Policy */
    const char *allow;        /* Allow, with a 405 */
} dj_web_response;

void dj_web_response_init(dj_web_response *rs);
void dj_web_response_free(dj_web_response *rs);

/* Answer one request with the worker's session j. */
void dj_web_handle(dj_web_shared *sh, dj_judge *j, const dj_web_request *rq,
                   dj_web_response *rs);

#endif
