/* SPDX-License-Identifier: MIT */
/*
 * config.h — the judge's settings in force (what judge.conf sets) and
 * their embedded defaults.
 *
 * Design.  Every setting has an embedded default (dj_config_defaults), so
 * the judge runs with no file at all; a file only overrides what it names.
 * The game layer takes these settings as plain values; reading judge.conf
 * is the programs' business, next to them in src/conf/ (judge_conf.h).
 * judge.conf.example documents every setting; keep the three in step.
 */
#ifndef DJ_GAME_CONFIG_H
#define DJ_GAME_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "store/games.h"

#define DJ_PATH_MAX 1024

/*
 * The settings of new games: the settings table's defaults
 * (store/settings_table.h) as judge.conf's games { } changes them, and
 * the map of new games (games.map).
 */
typedef dj_game_rec dj_game_defaults;

/*
 * Mail settings: read here with the rest of judge.conf, used only by
 * judged (src/cli/judged.c turns them into the transports' own structs).
 * Times are in seconds; the file writes them "30s", "5m", "2h", "1d" or as
 * a plain number of seconds.
 */
typedef struct dj_inbound_config {
    char type[12];              /* maildir | imap | pop3 */
    char path[DJ_PATH_MAX];     /* maildir: the inbox Maildir */
    char host[256];             /* imap, pop3 */
    int port;                   /* 0: the protocol's usual port */
    char user[128];
    char password[256];
    char tls[12];               /* none | may | starttls | tls */
    bool tls_verify;            /* check the server's certificate */
    char tls_ca_file[DJ_PATH_MAX]; /* "": the system's CAs */
    char mailbox[128];          /* IMAP folder */
    bool idle;                  /* IMAP: wait with IDLE when offered */
    bool expunge;               /* IMAP: delete handled mail (else \Seen) */
    int poll_interval;          /* seconds between looks for new mail */
    int timeout;                /* seconds per network operation */
} dj_inbound_config;

typedef struct dj_outbound_config {
    char type[12];              /* maildir | sendmail | smtp */
    char path[DJ_PATH_MAX];     /* maildir: the outbox Maildir */
    char sendmail[DJ_PATH_MAX]; /* sendmail: the program */
    char host[256];             /* smtp */
    int port;                   /* 0: 25 (465 with tls = "tls") */
    char tls[12];               /* none | may | starttls | tls */
    bool tls_verify;            /* check the server's certificate */
    char tls_ca_file[DJ_PATH_MAX]; /* "": the system's CAs */
    char user[128];             /* "": no AUTH */
    char password[256];
    char helo[256];             /* "": the host name */
    int timeout;                /* seconds per network operation */
} dj_outbound_config;

/*
 * Whose RFC 8601 Authentication-Results to trust (judge.conf's
 * authentication { authserv_ids = [...] }; mail/authres.h reads them):
 * n == 0, the default, is "not configured".
 */
#define DJ_AUTHSERV_IDS_MAX 8
#define DJ_AUTHSERV_ID_SIZE 256
typedef struct dj_authserv_ids {
    int n;
    char id[DJ_AUTHSERV_IDS_MAX][DJ_AUTHSERV_ID_SIZE];
} dj_authserv_ids;

typedef struct dj_mail_settings {
    char admin_address[256];    /* undeliverable mail is reported here */
    int tick_interval;          /* seconds between deadline checks */
    int max_message_size;       /* bytes; larger mail is refused */
    int max_lines;              /* lines of a message's text */
    int max_reply_size;         /* bytes of one reply's text (a budget) */
    int message_tries;          /* failures before a message is moved aside */
    int keep_mail;              /* seconds the mail log and sent mail are
                                   kept; 0: for ever */
    int reply_limit;            /* replies per sender per window; 0: no cap */
    int reply_window;           /* seconds */
    int signon_reply_limit;     /* replies to failed sign-ons per sender */
    int domain_reply_limit;     /* replies per domain per window */
    int judge_reply_limit;      /* replies to anyone per window */
    int reply_bytes_limit;      /* bytes of replies per sender per window */
    int domain_reply_bytes_limit; /* bytes of replies per domain */
    int judge_reply_bytes_limit;  /* bytes of replies to anyone */
    int retry_attempts;         /* sending attempts before giving up */
    int retry_delay;            /* seconds before the first retry */
    int retry_max_delay;        /* seconds: the backoff's cap */
    dj_authserv_ids authserv_ids; /* authentication { authserv_ids } */
    dj_inbound_config in;
    dj_outbound_config out;
} dj_mail_settings;

/*
 * When `judgectl status` says WARNING or CRITICAL (judge.conf's
 * status { }).  Times in seconds; a count of 0 never warns.
 */
typedef struct dj_status_settings {
    int tick_warning;       /* the scheduler last ran longer ago than this */
    int tick_critical;
    int overdue_after;      /* a phase this long past deadline and grace is
                               overdue: CRITICAL */
    int mail_warning;       /* the oldest mail waiting to go has waited */
    int mail_critical;
    int failed_warning;     /* mails given up on within `window` */
    int quarantine_warning; /* messages moved aside within `window` */
    int window;
} dj_status_settings;

/*
 * The web judge's settings (judgeweb(8)): read here with the rest of
 * judge.conf, used only by judgeweb.  Times in seconds.
 */
typedef struct dj_web_settings {
    char listen[128];           /* "127.0.0.1:8080", "[::1]:8080" */
    char access_log[DJ_PATH_MAX]; /* "stderr", "syslog", "off" or a file */
    char base_url[256];         /* the public URL ("https://..."): links,
                                   and cookies marked Secure when https */
    int threads;                /* worker threads, each with its database
                                   connection */
    int max_connections;        /* open connections, in all */
    int max_per_client;         /* open connections from one address */
    int timeout;                /* seconds an idle connection is kept */
    int header_timeout;         /* seconds for a request's head to come */
    int session_lifetime;       /* seconds a sign-in lasts */
    int signin_limit;           /* failed sign-ins per client address,
                                   every game together, per window */
    int signin_day_limit;       /* failed sign-ins as one power a day,
                                   every client together, before only
                                   known browsers may try */
    bool forwarded;             /* behind a proxy: trust X-Forwarded-For
                                   from trusted_proxies */
    char trusted_proxies[256];  /* the proxies' addresses or networks */
} dj_web_settings;

typedef struct dj_config {
    char file[DJ_PATH_MAX];       /* the file read; "" for embedded defaults */
    char state_dir[DJ_PATH_MAX];  /* the judge's state: the database and
                                     local Maildirs unless set elsewhere;
                                     "" until the programs settle it */
    char database[DJ_PATH_MAX];   /* SQLite file */
    char maps_dir[DJ_PATH_MAX];   /* "" = judgectl decides (see judgectl(8)) */
    char picture_cache[DJ_PATH_MAX]; /* pictures drawn, kept on disk; "":
                                        "pictures" beside the database */
    int picture_cache_mb;         /* the cache's bound: the least recently
                                     used pictures go beyond it; 0: none */
    char judge_name[64];          /* in subjects and report headers */
    char judge_address[256];      /* the judge's mail address */
    /* Between judge_address's local part and a reply token
     * (LOCAL+TOKEN@DOMAIN), as Postfix's recipient_delimiter: one of
     * + - _ = (default "+"). */
    char recipient_delimiter[2];
    char zone[64];                /* time zone of new games */
    bool allow_create;            /* CREATE by mail allowed */
    int signon_limit;             /* failed sign-ons allowed per window */
    int signon_window;            /* minutes */
    int reminder;                 /* minutes before a deadline to remind
                                     powers missing orders; -1: never */
    dj_game_defaults game;
    dj_mail_settings mail;        /* judged's mail settings */
    dj_status_settings status;    /* judgectl status's thresholds */
    dj_web_settings web;          /* judgeweb's settings */
} dj_config;

/* The embedded defaults. */
void dj_config_defaults(dj_config *c);

#endif
