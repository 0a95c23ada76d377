/* SPDX-License-Identifier: MIT */
/*
 * door.c — judgeweb's front door (see door.h): one thread, an epoll set
 * of the connections whose head is still coming, and the table of every
 * connection open (held here, or handed to libmicrohttpd), under a lock
 * libmicrohttpd's threads take when they report a connection closed.
 *
 * A held connection is watched edge-triggered: the door peeks at what
 * has arrived (MSG_PEEK, so libmicrohttpd later reads every byte itself)
 * each time more arrives, never spinning on bytes it has already seen.
 */
#define _GNU_SOURCE

#include "web/door.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "web/head.h"

const char *const dj_web_security_headers[][2] = {
    {"X-Content-Type-Options", "nosniff"},
    {"X-Frame-Options", "DENY"},
    {"Referrer-Policy", "same-origin"},
    {NULL, NULL},
};

/* ---- trusted proxies
 * ------------------------------------------------------------ */

int dj_web_proxies_parse(const char *text, dj_web_proxies *out, char *err,
                         size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *p = text ? text : "";
    while (*p) {
        p += strspn(p, ", \t");
        size_t n = strcspn(p, ", \t");
        if (!n)
            break;
        char word[64];
        if (n >= sizeof word || out->n == DJ_WEB_PROXIES_MAX) {
            snprintf(err, errlen,
                     "web.trusted_proxies: at most %d "
                     "addresses or networks, each an address "
                     "or ADDRESS/BITS",
                     DJ_WEB_PROXIES_MAX);
            return -1;
        }
        memcpy(word, p, n);
        word[n] = '\0';
        p += n;
        int bits = -1;
        char *slash = strchr(word, '/');
        if (slash) {
            char *end;
            long b = strtol(slash + 1, &end, 10);
            if (*end || end == slash + 1 || b < 0 || b > 128) {
                snprintf(err, errlen,
                         "web.trusted_proxies: '%s': bad "
                         "network length",
                         word);
                return -1;
            }
            bits = (int)b;
            *slash = '\0';
        }
        int f = strchr(word, ':') ? AF_INET6 : AF_INET;
        if (inet_pton(f, word, out->net[out->n].addr) != 1 ||
            bits > (f == AF_INET ? 32 : 128)) {
            snprintf(err, errlen,
                     "web.trusted_proxies: '%s' is not a "
                     "numeric address or network",
                     word);
            return -1;
        }
        out->net[out->n].family = f;
        out->net[out->n].bits = bits < 0 ? (f == AF_INET ? 32 : 128) : bits;
        out->n++;
    }
    return 0;
}

/* The address as IPv4 (4 bytes) or IPv6 (16), an IPv4-mapped IPv6
 * address as the IPv4 one. */
static int plain_address(const struct sockaddr *sa, unsigned char a[16])
{
    if (sa->sa_family == AF_INET) {
        memcpy(a, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
        return AF_INET;
    }
    if (sa->sa_family == AF_INET6) {
        const struct in6_addr *in6 =
            &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(in6)) {
            memcpy(a, in6->s6_addr + 12, 4);
            return AF_INET;
        }
        memcpy(a, in6->s6_addr, 16);
        return AF_INET6;
    }
    return -1;
}

static bool same_prefix(const unsigned char *a, const unsigned char *b,
                        int bits)
{
    int bytes = bits / 8, rest = bits % 8;
    if (memcmp(a, b, (size_t)bytes) != 0)
        return false;
    if (!rest)
        return true;
    unsigned char mask = (unsigned char)(0xff << (8 - rest));
    return (a[bytes] & mask) == (b[bytes] & mask);
}

bool dj_web_proxies_has(const dj_web_proxies *p, const struct sockaddr *sa)
{
    unsigned char a[16];
    int f = plain_address(sa, a);
    for (int i = 0; p && i < p->n; i++)
        if (p->net[i].family == f &&
            same_prefix(a, p->net[i].addr, p->net[i].bits))
            return true;
    return false;
}

/* ---- the table
 * ------------------------------------------------------------------- */

enum { FREE = 0, HELD, HANDED };

typedef struct slot {
    int state;
    int fd;
    unsigned char client[9]; /* family, then the /24 or /64 */
    bool uncapped;
    int64_t since; /* ms, monotonic */
    struct sockaddr_storage addr;
    socklen_t addrlen;
} slot;

struct dj_web_door {
    dj_web_door_options opt;
    int epfd;
    int stop[2];
    pthread_t thread;
    bool running;
    pthread_mutex_t lock;
    int nslots;
    slot *slots;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void client_key(const struct sockaddr *sa, unsigned char key[9])
{
    unsigned char a[16];
    memset(key, 0, 9);
    int f = plain_address(sa, a);
    key[0] = (unsigned char)(f == AF_INET ? 4 : f == AF_INET6 ? 6 : 0);
    memcpy(key + 1, a, f == AF_INET ? 3 : f == AF_INET6 ? 8 : 0);
}

static int count_client(const dj_web_door *d, const unsigned char key[9])
{
    int n = 0;
    for (int i = 0; i < d->nslots; i++)
        n += d->slots[i].state != FREE &&
             memcmp(d->slots[i].client, key, 9) == 0;
    return n;
}

/* ---- answers the door writes itself
 * ----------------------------------------------- */

static const char *reason(int status)
{
    switch (status) {
    case 400:
        return "Bad Request";
    case 408:
        return "Request Timeout";
    case 414:
        return "URI Too Long";
    case 431:
        return "Request Header Fields Too Large";
    default:
        return "Service Unavailable";
    }
}

/* Write the answer (at most one try: the socket's buffer takes it), read
 * what the client sent so closing does not reset the answer away, close. */
static void answer_close(int fd, int status, const char *why)
{
    char head[1024], body[512];
    int bn =
        snprintf(body, sizeof body, "%d %s: %s\n", status, reason(status), why);
    if (bn < 0 || (size_t)bn >= sizeof body)
        bn = (int)strlen(body);
    int hn = snprintf(head, sizeof head,
                      "HTTP/1.1 %d %s\r\n"
                      "Content-Type: text/plain; charset=utf-8\r\n"
                      "Content-Length: %d\r\n"
                      "Connection: close\r\n"
                      "Cache-Control: no-store\r\n"
                      "Content-Security-Policy: default-src 'none'\r\n",
                      status, reason(status), bn);
    for (int i = 0;
         dj_web_security_headers[i][0] && hn > 0 && (size_t)hn < sizeof head;
         i++)
        hn += snprintf(head + hn, sizeof head - (size_t)hn, "%s: %s\r\n",
                       dj_web_security_headers[i][0],
                       dj_web_security_headers[i][1]);
    if (hn > 0 && (size_t)hn + 2 < sizeof head) {
        memcpy(head + hn, "\r\n", 2);
        hn += 2;
        (void)!send(fd, head, (size_t)hn, MSG_NOSIGNAL | MSG_DONTWAIT);
        (void)!send(fd, body, (size_t)bn, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    shutdown(fd, SHUT_WR);
    char sink[4096];
    for (int i = 0; i < 16; i++)
        if (recv(fd, sink, sizeof sink, MSG_DONTWAIT) <= 0)
            break;
    close(fd);
}

/* Drop a held slot (lock held). */
static void drop(dj_web_door *d, slot *s, int status, const char *why)
{
    epoll_ctl(d->epfd, EPOLL_CTL_DEL, s->fd, NULL);
    if (status)
        answer_close(s->fd, status, why);
    else
        close(s->fd);
    s->state = FREE;
    s->fd = -1;
}

/* ---- admitting a connection
 * ------------------------------------------------------- */

/* The oldest held slot of the client `key` (NULL: of any client, the one
 * holding the most slots). */
static slot *victim(dj_web_door *d, const unsigned char *key)
{
    slot *best = NULL;
    int best_n = 0;
    for (int i = 0; i < d->nslots; i++) {
        slot *s = &d->slots[i];
        if (s->state != HELD || (key && memcmp(s->client, key, 9) != 0))
            continue;
        int n = key ? 1 : count_client(d, s->client);
        if (!best || n > best_n || (n == best_n && s->since < best->since)) {
            best = s;
            best_n = n;
        }
    }
    return best;
}

static void admit(dj_web_door *d, int fd, const struct sockaddr_storage *ss,
                  socklen_t len)
{
    unsigned char key[9];
    client_key((const struct sockaddr *)ss, key);
    bool uncapped =
        d->opt.uncapped &&
        dj_web_proxies_has(d->opt.uncapped, (const struct sockaddr *)ss);
    pthread_mutex_lock(&d->lock);
    slot *free_slot = NULL;
    for (int i = 0; i < d->nslots && !free_slot; i++)
        if (d->slots[i].state == FREE)
            free_slot = &d->slots[i];
    slot *v = NULL;
    bool refuse = false;
    if (!uncapped && d->opt.max_per_client > 0 &&
        count_client(d, key) >= d->opt.max_per_client) {
        v = victim(d, key);
        refuse = !v;
    } else if (!free_slot) {
        v = victim(d, NULL);
        refuse = !v;
    }
    if (refuse) {
        pthread_mutex_unlock(&d->lock);
        answer_close(fd, 503,
                     "Too many connections are being answered: "
                     "try again in a moment.");
        return;
    }
    if (v) {
        drop(d, v, 0, NULL);
        if (!free_slot)
            free_slot = v;
    }
    slot *s = free_slot;
    s->state = HELD;
    s->fd = fd;
    memcpy(s->client, key, 9);
    s->uncapped = uncapped;
    s->since = now_ms();
    memcpy(&s->addr, ss, sizeof *ss);
    s->addrlen = len;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | EPOLLET,
                             .data.ptr = s};
    if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
        close(fd);
        s->state = FREE;
    }
    pthread_mutex_unlock(&d->lock);
}

/* The head is in: libmicrohttpd's from now on. */
static void hand_over(dj_web_door *d, slot *s)
{
    epoll_ctl(d->epfd, EPOLL_CTL_DEL, s->fd, NULL);
    int fd = s->fd;
    struct sockaddr_storage ss = s->addr;
    socklen_t len = s->addrlen;
    pthread_mutex_lock(&d->lock);
    s->state = HANDED;
    pthread_mutex_unlock(&d->lock);
    if (MHD_add_connection(d->opt.daemon, fd, (struct sockaddr *)&ss, len) !=
        MHD_YES)
        dj_web_door_closed(d, fd); /* libmicrohttpd closed it */
}

void dj_web_door_closed(dj_web_door *d, int fd)
{
    pthread_mutex_lock(&d->lock);
    for (int i = 0; i < d->nslots; i++)
        if (d->slots[i].state == HANDED && d->slots[i].fd == fd) {
            d->slots[i].state = FREE;
            d->slots[i].fd = -1;
            break;
        }
    pthread_mutex_unlock(&d->lock);
}

/* ---- the thread
 * ------------------------------------------------------------------- */

/* What has arrived on a held connection: still coming, handed over, or
 * answered and closed. */
static void look(dj_web_door *d, slot *s)
{
    static char buf[DJ_WEB_HEAD_MAX + 1]; /* the door's thread only */
    ssize_t n = recv(s->fd, buf, sizeof buf, MSG_PEEK | MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (n <= 0) {
        pthread_mutex_lock(&d->lock);
        drop(d, s, 0, NULL);
        pthread_mutex_unlock(&d->lock);
        return;
    }
    const char *why;
    int rc = dj_web_head_check(buf, (size_t)n, &why);
    if (rc == DJ_HEAD_OK) {
        hand_over(d, s);
        return;
    }
    if (rc == DJ_HEAD_MORE)
        return;
    pthread_mutex_lock(&d->lock);
    drop(d, s, rc, why);
    pthread_mutex_unlock(&d->lock);
}

/* Close the held connections whose head is late; ms until the next is. */
static int expire(dj_web_door *d)
{
    int64_t now = now_ms(), limit = (int64_t)d->opt.header_timeout * 1000;
    int64_t next = -1;
    pthread_mutex_lock(&d->lock);
    for (int i = 0; i < d->nslots; i++) {
        slot *s = &d->slots[i];
        if (s->state != HELD)
            continue;
        int64_t left = s->since + limit - now;
        if (left <= 0)
            drop(d, s, 408, "The request's headers did not come in time.");
        else if (next < 0 || left < next)
            next = left;
    }
    pthread_mutex_unlock(&d->lock);
    return next < 0 ? -1 : (int)next + 1;
}

static void *door_main(void *arg)
{
    dj_web_door *d = arg;
    struct epoll_event evs[64];
    for (;;) {
        int wait = expire(d);
        int n = epoll_wait(d->epfd, evs, 64, wait);
        if (n < 0 && errno != EINTR)
            break;
        for (int i = 0; i < n; i++) {
            void *ptr = evs[i].data.ptr;
            if (ptr == &d->stop)
                return NULL;
            if (ptr == &d->opt.listen_fd) {
                for (int k = 0; k < 64; k++) {
                    struct sockaddr_storage ss;
                    socklen_t len = sizeof ss;
                    int fd = accept4(d->opt.listen_fd, (struct sockaddr *)&ss,
                                     &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
                    if (fd < 0)
                        break;
                    admit(d, fd, &ss, len);
                }
                continue;
            }
            slot *s = ptr;
            if (s->state == HELD)
                look(d, s);
        }
    }
    return NULL;
}

dj_web_door *dj_web_door_start(const dj_web_door_options *opt, char *err,
                               size_t errlen)
{
    dj_web_door *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    d->opt = *opt;
    d->nslots = opt->max_connections > 0 ? opt->max_connections : 1;
    d->slots = calloc((size_t)d->nslots, sizeof *d->slots);
    d->stop[0] = d->stop[1] = -1;
    d->epfd = epoll_create1(EPOLL_CLOEXEC);
    pthread_mutex_init(&d->lock, NULL);
    struct epoll_event lev = {.events = EPOLLIN, .data.ptr = &d->opt.listen_fd};
    struct epoll_event sev = {.events = EPOLLIN, .data.ptr = &d->stop};
    if (!d->slots || d->epfd < 0 || pipe2(d->stop, O_CLOEXEC) < 0 ||
        fcntl(opt->listen_fd, F_SETFL,
              fcntl(opt->listen_fd, F_GETFL) | O_NONBLOCK) < 0 ||
        epoll_ctl(d->epfd, EPOLL_CTL_ADD, opt->listen_fd, &lev) < 0 ||
        epoll_ctl(d->epfd, EPOLL_CTL_ADD, d->stop[0], &sev) < 0 ||
        pthread_create(&d->thread, NULL, door_main, d) != 0) {
        snprintf(err, errlen, "cannot start the front door: %s",
                 strerror(errno));
        dj_web_door_free(d);
        return NULL;
    }
    d->running = true;
    return d;
}

void dj_web_door_stop(dj_web_door *d)
{
    if (!d || !d->running)
        return;
    (void)!write(d->stop[1], "x", 1);
    pthread_join(d->thread, NULL);
    d->running = false;
    pthread_mutex_lock(&d->lock);
    for (int i = 0; i < d->nslots; i++)
        if (d->slots[i].state == HELD)
            drop(d, &d->slots[i], 0, NULL);
    pthread_mutex_unlock(&d->lock);
}

void dj_web_door_free(dj_web_door *d)
{
    if (!d)
        return;
    dj_web_door_stop(d);
    if (d->epfd >= 0)
        close(d->epfd);
    if (d->stop[0] >= 0)
        close(d->stop[0]);
    if (d->stop[1] >= 0)
        close(d->stop[1]);
    if (d->opt.listen_fd >= 0)
        close(d->opt.listen_fd);
    pthread_mutex_destroy(&d->lock);
    free(d->slots);
    free(d);
}
