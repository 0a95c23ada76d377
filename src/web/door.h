/* SPDX-License-Identifier: MIT */
/*
 * door.h — judgeweb's front door: it accepts every connection itself,
 * holds it until its request head is in (head.h), and only then hands it
 * to libmicrohttpd.
 *
 * Why.  libmicrohttpd counts connections per address and times out only
 * an idle connection, so a few hundred sockets that send a header byte
 * now and then, from a handful of addresses, fill every slot and every
 * new visitor waits.  The door's rules:
 *   - a client is its network, not its address: an IPv4 /24 or an IPv6
 *     /64 (a host has many addresses there), and it may hold at most
 *     max_per_client connections at once (a trusted proxy, when
 *     web.forwarded is on, is not capped: it is everyone);
 *   - a connection whose head is not all in within header_timeout
 *     seconds is answered 408 and closed;
 *   - a new connection always gets a slot: when the client's share or the
 *     whole table (max_connections) is full, the oldest connection still
 *     sending its head is closed for it — of the same client when that
 *     client is at its cap, else of the client holding the most.  Only
 *     when every slot is a request being answered is a newcomer turned
 *     away (503).
 * libmicrohttpd then answers a whole head at once and closes the
 * connection after its answer (Connection: close), so no connection
 * waits idle in it.  What the door answers itself (400, 408, 414, 431,
 * 503) carries the same security headers as every other answer.
 */
#ifndef DJ_WEB_DOOR_H
#define DJ_WEB_DOOR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

struct MHD_Daemon;

/* The headers every answer of judgeweb carries, whoever writes it:
 * {name, value} pairs, ending with {NULL, NULL}. */
extern const char *const dj_web_security_headers[][2];

/* web.trusted_proxies: addresses or networks ("127.0.0.1", "::1",
 * "10.0.0.0/8"), separated by commas or spaces. */
#define DJ_WEB_PROXIES_MAX 16
typedef struct dj_web_proxies {
    int n;
    struct {
        int family;
        unsigned char addr[16];
        int bits;
    } net[DJ_WEB_PROXIES_MAX];
} dj_web_proxies;

/* 0, or -1 with a message. */
int dj_web_proxies_parse(const char *text, dj_web_proxies *out, char *err,
                         size_t errlen);
bool dj_web_proxies_has(const dj_web_proxies *p, const struct sockaddr *sa);

typedef struct dj_web_door dj_web_door;

typedef struct dj_web_door_options {
    int listen_fd;                  /* bound and listening */
    struct MHD_Daemon *daemon;      /* started with MHD_USE_NO_LISTEN_SOCKET */
    int max_connections;            /* slots in all */
    int max_per_client;             /* per /24 or /64; 0: no cap */
    int header_timeout;             /* seconds for the head to come in */
    const dj_web_proxies *uncapped; /* NULL, or proxies not capped */
} dj_web_door_options;

/* Start the door's thread; NULL with a message.  The listening socket is
 * the door's from then on. */
dj_web_door *dj_web_door_start(const dj_web_door_options *opt, char *err,
                               size_t errlen);
/* libmicrohttpd closed the connection on fd (its NOTIFY_CONNECTION). */
void dj_web_door_closed(dj_web_door *d, int fd);
/* Stop the thread and close what it holds.  Call before stopping the
 * daemon; free with dj_web_door_free after it (its notices come here). */
void dj_web_door_stop(dj_web_door *d);
void dj_web_door_free(dj_web_door *d);

#endif
