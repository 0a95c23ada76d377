/* SPDX-License-Identifier: MIT */
/*
 * server.c — libmicrohttpd to dj_web_handle and back.  See server.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "web/server.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "web/access_log.h"
#include "web/door.h"
#include "web/web.h"

struct dj_web_server {
    struct MHD_Daemon *daemon;
    dj_web_door *door;
    const dj_config *cfg;
    const char *maps_dir;
    dj_web_shared *shared;
    pthread_key_t judge_key;
    struct sockaddr_storage addr;
    dj_access_log *access_log; /* access_log.h */
    dj_web_proxies proxies;       /* web.trusted_proxies */
    pthread_mutex_t warn_lock;
    bool warned_forwarded;        /* said once: a proxy, forwarded off */
};

/* One request while its body arrives. */
typedef struct pending {
    char *body;
    size_t len;
    bool too_large;
} pending;

static void close_judge(void *j)
{
    dj_judge_close(j);
}

/* The worker thread's session, opened at its first request. */
static dj_judge *worker_judge(dj_web_server *srv)
{
    dj_judge *j = pthread_getspecific(srv->judge_key);
    if (j)
        return j;
    char err[512];
    j = dj_judge_open(srv->cfg, srv->maps_dir, err, sizeof err);
    if (!j) {
        fprintf(stderr, "judgeweb: %s\n", err);
        return NULL;
    }
    pthread_setspecific(srv->judge_key, j);
    return j;
}

/* A proxy's request while web.forwarded is off: every visitor behind it
 * would be one client to the limits.  Said once, at the first. */
static void warn_forwarded(dj_web_server *srv, const char *proxy)
{
    pthread_mutex_lock(&srv->warn_lock);
    bool first = !srv->warned_forwarded;
    srv->warned_forwarded = true;
    pthread_mutex_unlock(&srv->warn_lock);
    if (first)
        fprintf(stderr,
                "judgeweb: warning: requests come through a proxy (%s sends "
                "X-Forwarded-For) but web.forwarded is false: everyone "
                "behind it counts as one client for the sign-in and "
                "connection limits; set forwarded = true (judgeweb(8))\n",
                proxy);
}

static void client_address(dj_web_server *srv, struct MHD_Connection *conn,
                           char *out, size_t len)
{
    snprintf(out, len, "?");
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!ci || !ci->client_addr)
        return;
    const struct sockaddr *sa = ci->client_addr;
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const void *)sa;
        inet_ntop(AF_INET, &in->sin_addr, out, (socklen_t)len);
    } else if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const void *)sa;
        inet_ntop(AF_INET6, &in6->sin6_addr, out, (socklen_t)len);
    }
    /* Behind nginx or Apache: the client is the last address the proxy
     * added — believed only from web.trusted_proxies, and only when
     * web.forwarded says a proxy is there. */
    if (!dj_web_proxies_has(&srv->proxies, sa))
        return;
    const char *fwd =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Forwarded-For");
    if (!fwd || !*fwd)
        return;
    if (!srv->cfg->web.forwarded) {
        warn_forwarded(srv, out);
        return;
    }
    const char *last = strrchr(fwd, ',');
    last = last ? last + 1 : fwd;
    while (*last == ' ')
        last++;
    size_t n = strcspn(last, " ");
    if (n > 0 && n < len && n < 64 &&
        strspn(last, "0123456789abcdefABCDEF.:") >= n) {
        memcpy(out, last, n);
        out[n] = '\0';
    }
}

static enum MHD_Result send_response(struct MHD_Connection *conn,
                                     const dj_web_response *rs)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        rs->body.len, rs->body.data ? rs->body.data : (void *)"",
        MHD_RESPMEM_MUST_COPY);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type",
                            rs->content_type ? rs->content_type
                                             : "text/plain; charset=utf-8");
    MHD_add_response_header(r, "Cache-Control",
                            rs->cache ? rs->cache : "no-store");
    MHD_add_response_header(r, "Content-Security-Policy",
                            rs->csp ? rs->csp : "default-src 'none'");
    for (int i = 0; dj_web_security_headers[i][0]; i++)
        MHD_add_response_header(r, dj_web_security_headers[i][0],
                                dj_web_security_headers[i][1]);
    if (rs->allow)
        MHD_add_response_header(r, "Allow", rs->allow);
    /* one request a connection: none waits idle here (door.h) */
    MHD_add_response_header(r, "Connection", "close");
    for (int i = 0; i < rs->ncookies; i++)
        MHD_add_response_header(r, "Set-Cookie", rs->cookies[i]);
    if (rs->location[0])
        MHD_add_response_header(r, "Location", rs->location);
    enum MHD_Result ok = MHD_queue_response(conn, (unsigned)rs->status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result plain(struct MHD_Connection *conn, int status,
                             const char *text)
{
    dj_web_response rs;
    dj_web_response_init(&rs);
    rs.status = status;
    if (status == 405)
        rs.allow = "GET, HEAD, POST";
    dj_buf_append(&rs.body, text);
    enum MHD_Result ok = send_response(conn, &rs);
    dj_web_response_free(&rs);
    return ok;
}

static const char DB_GONE[] = "the judge's database cannot be opened\n";

/* The access log's line of one answer (access_log.h). */
static void log_request(dj_web_server *srv, struct MHD_Connection *conn,
                        dj_access_entry *e)
{
    e->referer = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Referer");
    e->user_agent =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "User-Agent");
    dj_access_log_write(srv->access_log, e);
}

/* /health: 200 "ok" when the database answers, 503 when not; no game
 * data, any method the server takes, no session. */
static enum MHD_Result health_answer(dj_web_server *srv,
                                     struct MHD_Connection *conn, dj_judge *j,
                                     dj_access_entry *e)
{
    bool up = dj_web_health(j);
    const char *text = up ? "ok\n" : "unavailable\n";
    e->status = up ? 200 : 503;
    e->bytes = strlen(text);
    log_request(srv, conn, e);
    return plain(conn, e->status, text);
}

/* The query string as libmicrohttpd parsed it, written back percent-
 * encoded ("state=play&board=standard") for the web door to read with
 * the form decoder: judgeweb's pages see the query as one string, as
 * bench_web and the tests give it. */
typedef struct query_buf {
    char *out;
    size_t len, used;
    bool full;
} query_buf;

static void query_put(query_buf *q, const char *text)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        char enc[3] = {(char)*p, 0, 0};
        size_t n = 1;
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || strchr("-_.~", *p))) {
            enc[0] = '%';
            enc[1] = hex[*p >> 4];
            enc[2] = hex[*p & 15];
            n = 3;
        }
        if (q->used + n + 1 > q->len) {
            q->full = true;
            return;
        }
        memcpy(q->out + q->used, enc, n);
        q->used += n;
        q->out[q->used] = '\0';
    }
}

/* Append a byte as it is. */
static void query_raw(query_buf *q, char ch)
{
    if (q->used + 2 > q->len) {
        q->full = true;
        return;
    }
    q->out[q->used++] = ch;
    q->out[q->used] = '\0';
}

static enum MHD_Result query_arg(void *cls, enum MHD_ValueKind kind,
                                 const char *key, const char *value)
{
    (void)kind;
    query_buf *q = cls;
    query_raw(q, q->used == 0 ? '?' : '&');
    query_put(q, key);
    if (value) {
        query_raw(q, '=');
        query_put(q, value);
    }
    return q->full ? MHD_NO : MHD_YES;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *conn,
                              const char *url, const char *method,
                              const char *version, const char *upload_data,
                              size_t *upload_data_size, void **con_cls)
{
    (void)version;
    dj_web_server *srv = cls;
    pending *p = *con_cls;
    if (!p) {
        if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0 &&
            strcmp(method, "POST") != 0)
            return plain(conn, 405, "method not allowed\n");
        p = calloc(1, sizeof *p);
        if (!p)
            return MHD_NO;
        *con_cls = p;
        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                     "Content-Length");
        if (cl && strtoull(cl, NULL, 10) > DJ_WEB_BODY_MAX)
            return plain(conn, 413, "request body too large (64 KiB at "
                                    "most)\n");
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (p->too_large || p->len + n > DJ_WEB_BODY_MAX) {
            p->too_large = true;
            return MHD_YES;
        }
        char *grown = realloc(p->body, p->len + n + 1);
        if (!grown)
            return MHD_NO;
        p->body = grown;
        memcpy(p->body + p->len, upload_data, n);
        p->len += n;
        p->body[p->len] = '\0';
        return MHD_YES;
    }
    if (p->too_large)
        return plain(conn, 413, "request body too large (64 KiB at most)\n");
    dj_judge *j = worker_judge(srv);
    char client[INET6_ADDRSTRLEN + 8];
    client_address(srv, conn, client, sizeof client);
    dj_access_entry entry = {client, method, url, version, 503, 0, NULL,
                             NULL, (int64_t)time(NULL)};
    if (strcmp(url, "/health") == 0)
        return health_answer(srv, conn, j, &entry);
    if (!j) {
        entry.bytes = sizeof DB_GONE - 1;
        log_request(srv, conn, &entry);
        return plain(conn, 503, DB_GONE);
    }
    /* the path and its query, if any, as one string */
    char with_query[2048];
    size_t ulen = strlen(url);
    const char *path = url;
    if (!strchr(url, '?') && ulen + 2 < sizeof with_query) {
        memcpy(with_query, url, ulen + 1);
        query_buf q = {with_query + ulen, sizeof with_query - ulen, 0,
                       false};
        MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, query_arg, &q);
        if (!q.full)
            path = with_query;
    }
    dj_web_request rq = {
        .method = method,
        .path = path,
        .cookie = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                              "Cookie"),
        .content_type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                    "Content-Type"),
        .body = p->body ? p->body : "",
        .body_len = p->len,
        .client = client,
        .now = (int64_t)time(NULL),
    };
    dj_web_response rs;
    dj_web_response_init(&rs);
    dj_web_handle(srv->shared, j, &rq, &rs);
    enum MHD_Result ok = send_response(conn, &rs);
    entry.status = rs.status;
    entry.bytes = rs.body.len;
    log_request(srv, conn, &entry);
    dj_web_response_free(&rs);
    return ok;
}

static void connection_note(void *cls, struct MHD_Connection *conn,
                            void **socket_context,
                            enum MHD_ConnectionNotificationCode toe)
{
    (void)socket_context;
    dj_web_server *srv = cls;
    if (toe != MHD_CONNECTION_NOTIFY_CLOSED || !srv->door)
        return;
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (ci)
        dj_web_door_closed(srv->door, ci->connect_fd);
}

static void completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                      enum MHD_RequestTerminationCode why)
{
    (void)cls;
    (void)conn;
    (void)why;
    pending *p = *con_cls;
    if (p) {
        free(p->body);
        free(p);
        *con_cls = NULL;
    }
}

/* "127.0.0.1:8080", "[::1]:8080", ":8080" (every IPv4 address). */
static int parse_listen(const char *text, struct sockaddr_storage *ss,
                        char *err, size_t errlen)
{
    memset(ss, 0, sizeof *ss);
    char host[128];
    const char *colon = strrchr(text, ':');
    if (!colon || colon - text >= (long)sizeof host) {
        snprintf(err, errlen, "web.listen '%s': want ADDRESS:PORT", text);
        return -1;
    }
    memcpy(host, text, (size_t)(colon - text));
    host[colon - text] = '\0';
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (*end || port < 1 || port > 65535) {
        snprintf(err, errlen, "web.listen '%s': bad port", text);
        return -1;
    }
    size_t hl = strlen(host);
    if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
        host[hl - 1] = '\0';
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t)port);
        if (inet_pton(AF_INET6, host + 1, &in6->sin6_addr) == 1)
            return 0;
    } else {
        struct sockaddr_in *in = (struct sockaddr_in *)ss;
        in->sin_family = AF_INET;
        in->sin_port = htons((uint16_t)port);
        if (!host[0])
            return 0;
        if (inet_pton(AF_INET, host, &in->sin_addr) == 1)
            return 0;
    }
    snprintf(err, errlen, "web.listen '%s': not a numeric address", text);
    return -1;
}

/* A listening socket on the address; -1. */
static int listen_socket(const struct sockaddr_storage *ss, char *err,
                         size_t errlen)
{
    (void)err;
    (void)errlen;
    int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    socklen_t len = ss->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                              : sizeof(struct sockaddr_in);
    if (bind(fd, (const struct sockaddr *)ss, len) < 0 ||
        listen(fd, 1024) < 0) { /* a burst waits here, not dropped */
        close(fd);
        return -1;
    }
    return fd;
}

dj_web_server *dj_web_server_start(const dj_config *cfg, const char *maps_dir,
                                   char *err, size_t errlen)
{
    dj_web_server *srv = calloc(1, sizeof *srv);
    if (!srv) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    srv->cfg = cfg;
    srv->maps_dir = maps_dir;
    if (parse_listen(cfg->web.listen, &srv->addr, err, errlen) < 0 ||
        dj_web_proxies_parse(cfg->web.trusted_proxies, &srv->proxies, err,
                             errlen) < 0) {
        free(srv);
        return NULL;
    }
    srv->access_log = dj_access_log_open(cfg->web.access_log, err, errlen);
    if (!srv->access_log) {
        free(srv);
        return NULL;
    }
    pthread_mutex_init(&srv->warn_lock, NULL);
    dj_web_options opt = {
        .judge_name = cfg->judge_name,
        .judge_address = cfg->judge_address,
        .secure_cookies = strncmp(cfg->web.base_url, "https://", 8) == 0,
        .session_lifetime = cfg->web.session_lifetime,
        .signin_limit = cfg->web.signin_limit,
        .signin_window = cfg->signon_window * 60,
    };
    srv->shared = dj_web_shared_new(&opt);
    if (!srv->shared || pthread_key_create(&srv->judge_key, close_judge)) {
        dj_web_shared_free(srv->shared);
        dj_access_log_close(srv->access_log);
        pthread_mutex_destroy(&srv->warn_lock);
        free(srv);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    int fd = listen_socket(&srv->addr, err, errlen);
    if (fd < 0) {
        snprintf(err, errlen, "cannot listen on %s (in use, or not an "
                              "address of this machine?)",
                 cfg->web.listen);
        goto fail;
    }
    /* The door accepts and holds each connection until its head is in,
     * then adds it here (door.h): the limits per client are the door's. */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO |
                     MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC;
    srv->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, answer, srv,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)cfg->web.threads,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)cfg->web.max_connections + 8,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg->web.timeout,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)64 * 1024,
        MHD_OPTION_NOTIFY_CONNECTION, connection_note, srv,
        MHD_OPTION_NOTIFY_COMPLETED, completed, srv, MHD_OPTION_END);
    if (!srv->daemon) {
        close(fd);
        snprintf(err, errlen, "cannot start libmicrohttpd");
        goto fail;
    }
    dj_web_door_options door = {
        .listen_fd = fd,
        .daemon = srv->daemon,
        .max_connections = cfg->web.max_connections,
        .max_per_client = cfg->web.max_per_client,
        .header_timeout = cfg->web.header_timeout,
        .uncapped = cfg->web.forwarded ? &srv->proxies : NULL,
    };
    srv->door = dj_web_door_start(&door, err, errlen);
    if (!srv->door) {
        MHD_stop_daemon(srv->daemon);
        goto fail;
    }
    return srv;
fail:
    pthread_key_delete(srv->judge_key);
    dj_web_shared_free(srv->shared);
    dj_access_log_close(srv->access_log);
    pthread_mutex_destroy(&srv->warn_lock);
    free(srv);
    return NULL;
}

int dj_web_listen_check(const char *listen, char *err, size_t errlen)
{
    struct sockaddr_storage ss;
    return parse_listen(listen, &ss, err, errlen);
}

void dj_web_server_stop(dj_web_server *srv)
{
    if (!srv)
        return;
    dj_web_door_stop(srv->door);
    MHD_stop_daemon(srv->daemon);
    dj_web_door_free(srv->door);
    pthread_mutex_destroy(&srv->warn_lock);
    pthread_key_delete(srv->judge_key);
    dj_web_shared_free(srv->shared);
    dj_access_log_close(srv->access_log);
    free(srv);
}
