/* SPDX-License-Identifier: MIT */
/*
 * server.h — judgeweb's HTTP server: libmicrohttpd carrying requests to
 * dj_web_handle and its answers back.
 *
 * Design.  libmicrohttpd runs a pool of worker threads, each polling its
 * share of the connections; each worker opens its own session on the
 * database (dj_judge) the first time it answers, so no lock is held
 * across a request.  The limits of a hostile-facing service are set
 * here: connections in all and per client address, an idle timeout, the
 * memory a connection may use for its headers, and request bodies of at
 * most DJ_WEB_BODY_MAX bytes (a longer Content-Length is answered 413
 * before the body is read; a body that grows past it while being read,
 * the same).  Every response carries the security headers.
 */
#ifndef DJ_WEB_SERVER_H
#define DJ_WEB_SERVER_H

#include <stddef.h>

#include "game/config.h"

typedef struct dj_web_server dj_web_server;

/*
 * Listen on cfg->web.listen ("127.0.0.1:8080", "[::1]:8080") and serve
 * until dj_web_server_stop.  `cfg` and `maps_dir` must outlive the
 * server.  NULL with a message on error.
 */
dj_web_server *dj_web_server_start(const dj_config *cfg, const char *maps_dir,
                                   char *err, size_t errlen);
void dj_web_server_stop(dj_web_server *srv);

/* Is `listen` an ADDRESS:PORT web.listen takes?  0, or -1 with why. */
int dj_web_listen_check(const char *listen, char *err, size_t errlen);

#endif
