/* SPDX-License-Identifier: MIT */
/*
 * judgeweb.c — the web judge (judgeweb(8)): reads judge.conf, opens the
 * database and serves the pages of src/web until SIGTERM or SIGINT.
 * Argument parsing and wiring only.
 *
 * judgeweb reads the same judge.conf as judged and judgectl, but never
 * uses the mail settings: the mail servers' passwords it read with the
 * file are wiped at once, and it links nothing of the mail room.
 */
#define _POSIX_C_SOURCE 200809L

#include "config.h"

#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "cli/mapdir.h"
#include "cli/run_as.h"
#include "conf/conf_warnings.h"
#include "conf/judge_conf.h"
#include "game/game.h"
#include "web/server.h"

static void usage(FILE *f)
{
    fputs("usage: judgeweb [-c|--config FILE] [--db FILE] [--maps DIR] "
          "[--listen ADDRESS:PORT]\n"
          "       judgeweb --version | -h|--help\n"
          "Serves the judge's games on the web (judgeweb(8)).\n",
          f);
}

/* A line on stderr: with its syslog priority first ("<3>") under
 * systemd (JOURNAL_STREAM), so that journalctl -p err finds errors. */
static void weblog(int level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void weblog(int level, const char *fmt, ...)
{
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (getenv("JOURNAL_STREAM"))
        fprintf(stderr, "<%d>judgeweb: %s\n", level, msg);
    else
        fprintf(stderr, "judgeweb: %s%s\n", level <= LOG_ERR ? "error: " : "",
                msg);
}

/*
 * Refuse to start on a database that is not there (or does not open):
 * judgeweb would answer 503 to every request.  Opened and closed again;
 * the server's workers open their own.  0, or the exit status.
 */
static int database_ready(const dj_config *cfg, const char *maps)
{
    char err[1024];
    dj_store_open_failure failure;
    dj_judge *j = dj_judge_open_as(cfg, maps, false, &failure, err,
                                   sizeof err);
    if (j) {
        dj_judge_close(j);
        return 0;
    }
    if (failure == DJ_STORE_OPEN_MISSING)
        weblog(LOG_ERR, "no database at %s: make it with `judgectl init` "
               "(as the judge's user) first; not starting", cfg->database);
    else
        weblog(LOG_ERR, "%s; not starting", err);
    return failure == DJ_STORE_OPEN_MISSING ||
                   failure == DJ_STORE_OPEN_DENIED ||
                   failure == DJ_STORE_OPEN_NEWER
               ? 78
               : 69;
}

/* Forget what judgeweb must never hold: the mail servers' passwords. */
static void wipe_mail_credentials(dj_config *cfg)
{
    volatile char *p = cfg->mail.in.password;
    for (size_t i = 0; i < sizeof cfg->mail.in.password; i++)
        p[i] = 0;
    p = cfg->mail.out.password;
    for (size_t i = 0; i < sizeof cfg->mail.out.password; i++)
        p[i] = 0;
}

/* The risky settings judged warns of (conf_warnings.h), the same words:
 * judgeweb reads the same judge.conf, passwords and all. */
static void print_config_warnings(const dj_config *cfg)
{
    dj_buf warn;
    dj_buf_init(&warn);
    dj_config_warnings(cfg, &warn);
    for (const char *l = warn.data; l && *l;) {
        size_t n = strcspn(l, "\n");
        fprintf(stderr, "judgeweb: warning: %.*s\n", (int)n, l);
        l += n;
        if (*l)
            l++;
    }
    dj_buf_free(&warn);
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"config", required_argument, NULL, 'c'},
        {"db", required_argument, NULL, 'd'},
        {"maps", required_argument, NULL, 'm'},
        {"listen", required_argument, NULL, 'l'},
        {"version", no_argument, NULL, 'V'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *config_opt = NULL, *db_opt = NULL, *maps_opt = NULL,
               *listen_opt = NULL;
    int ch;
    while ((ch = getopt_long(argc, argv, "c:h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'c': config_opt = optarg; break;
        case 'd': db_opt = optarg; break;
        case 'm': maps_opt = optarg; break;
        case 'l': listen_opt = optarg; break;
        case 'V': puts("judgeweb (dipjudge) " PACKAGE_VERSION); return 0;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 64;
        }
    }
    if (optind < argc) {
        usage(stderr);
        return 64;
    }
    static dj_config cfg;
    char err[1024];
    /* A bad --listen is a usage error (64), checked before anything. */
    if (listen_opt && dj_web_listen_check(listen_opt, err, sizeof err) < 0) {
        fprintf(stderr, "judgeweb: --listen: %s\n", err);
        usage(stderr);
        return 64;
    }
    if (dj_config_read(config_opt, db_opt, &cfg, err, sizeof err) < 0) {
        weblog(LOG_ERR, "%s", err);
        return 78;
    }
    print_config_warnings(&cfg); /* before the passwords are wiped */
    wipe_mail_credentials(&cfg);
    char user[64];
    if (cli_run_as_state_owner(&cfg, user, sizeof user, err, sizeof err) < 0) {
        weblog(LOG_ERR, "%s", err);
        return 78;
    }
    if (listen_opt)
        snprintf(cfg.web.listen, sizeof cfg.web.listen, "%s", listen_opt);
    static char maps[DJ_PATH_MAX];
    snprintf(maps, sizeof maps, "%s",
             cli_maps_directory(maps_opt, cfg.maps_dir));
    if (dj_web_listen_check(cfg.web.listen, err, sizeof err) < 0) {
        weblog(LOG_ERR, "%s", err); /* judge.conf's: a configuration error */
        return 78;
    }
    int ready = database_ready(&cfg, maps);
    if (ready != 0)
        return ready;

    /* Signals are waited for here; the server's threads never take them. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    dj_web_server *srv = dj_web_server_start(&cfg, maps, err, sizeof err);
    if (!srv) {
        weblog(LOG_ERR, "%s", err);
        return 69;
    }
    weblog(LOG_INFO, "serving %s on %s (database %s)", cfg.web.base_url,
           cfg.web.listen, cfg.database);
    int sig = 0;
    sigwait(&stop, &sig);
    weblog(LOG_INFO, "stopping (signal %d)", sig);
    dj_web_server_stop(srv);
    return 0;
}
