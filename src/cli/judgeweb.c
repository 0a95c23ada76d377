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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/mapdir.h"
#include "conf/conf_warnings.h"
#include "conf/judge_conf.h"
#include "web/server.h"

static void usage(FILE *f)
{
    fputs("usage: judgeweb [-c|--config FILE] [--db FILE] [--maps DIR] "
          "[--listen ADDRESS:PORT]\n"
          "       judgeweb --version | -h|--help\n"
          "Serves the judge's games on the web (judgeweb(8)).\n",
          f);
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
    if (dj_config_read(config_opt, db_opt, &cfg, err, sizeof err) < 0) {
        fprintf(stderr, "judgeweb: %s\n", err);
        return 78;
    }
    print_config_warnings(&cfg); /* before the passwords are wiped */
    wipe_mail_credentials(&cfg);
    if (listen_opt)
        snprintf(cfg.web.listen, sizeof cfg.web.listen, "%s", listen_opt);
    static char maps[DJ_PATH_MAX];
    snprintf(maps, sizeof maps, "%s",
             cli_maps_directory(maps_opt, cfg.maps_dir));

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
        fprintf(stderr, "judgeweb: %s\n", err);
        return 69;
    }
    fprintf(stderr, "judgeweb: serving %s on %s (database %s)\n",
            cfg.web.base_url, cfg.web.listen, cfg.database);
    int sig = 0;
    sigwait(&stop, &sig);
    fprintf(stderr, "judgeweb: stopping (signal %d)\n", sig);
    dj_web_server_stop(srv);
    return 0;
}
