/* SPDX-License-Identifier: MIT */
/*
 * cmd_admin.c — the judgectl subcommands an admin runs on the judge as a
 * whole rather than on a game: init (make the database), backup (a
 * consistent copy while the judge runs) and status (health, for a person
 * or a monitoring system).  Argument parsing and wiring only.
 *
 * status's exit status is the monitoring plugins' convention: 0 OK, 1
 * WARNING, 2 CRITICAL (thresholds in judge.conf's status { }, judge.conf(5));
 * with --json it prints one object, "format": "dipjudge-status", versioned
 * like the export (judgectl(8) describes it).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/args.h"
#include "cli/commands.h"
#include "game/game.h"
#include "store/health.h"
#include "util/buf.h"
#include "util/fmt.h"
#include "util/json.h"

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };
enum { STATUS_OK = 0, STATUS_WARNING = 1, STATUS_CRITICAL = 2 };

#define STATUS_JSON_VERSION 1

/* Parse a command taking `npos` arguments and the flags given: true to
 * go on, else false with the exit status in *status (--help printed: 0). */
static bool parse(int argc, char **argv, const char *flags,
                  const char *synopsis, int npos, cli_args *a, int *status)
{
    int rc = cli_parse(argc, argv, "", flags, synopsis, a);
    *status = rc == CLI_ARGS_DONE ? EXIT_OK : EXIT_USAGE;
    if (rc != 0)
        return false;
    if (a->npos != npos) {
        cli_usage(argv[0], synopsis,
                  a->npos < npos ? "missing arguments" : "unexpected argument",
                  a->npos > npos ? a->pos[npos] : NULL);
        return false;
    }
    return true;
}

#define PARSE_OR_RETURN(flags, synopsis, npos)                              \
    cli_args a;                                                             \
    int parse_status_;                                                      \
    if (!parse(argc, argv, flags, synopsis, npos, &a, &parse_status_))      \
        return parse_status_

/* ---- init ------------------------------------------------------------------- */

int cmd_init(int argc, char **argv)
{
    PARSE_OR_RETURN("", "", 0);
    int status;
    dj_judge *j = cli_open_judge(argv[0], true, &status);
    if (!j)
        return status;
    dj_store *s = dj_judge_store(j);
    printf("database %s ready (schema %d)\n", dj_judge_config(j)->database,
           dj_store_schema_version(s));
    dj_judge_close(j);
    return EXIT_OK;
}

/* ---- backup ----------------------------------------------------------------- */

int cmd_backup(int argc, char **argv)
{
    PARSE_OR_RETURN("", SYN_BACKUP, 1);
    int status;
    dj_judge *j = cli_open_judge(argv[0], false, &status);
    if (!j)
        return status;
    dj_store *s = dj_judge_store(j);
    int rc = dj_store_backup(s, a.pos[0]);
    if (rc < 0)
        fprintf(stderr, "judgectl backup: %s\n", dj_store_error(s));
    else
        printf("database %s copied to %s\n", dj_judge_config(j)->database,
               a.pos[0]);
    dj_judge_close(j);
    return rc < 0 ? EXIT_FAILED : EXIT_OK;
}

/* ---- status ----------------------------------------------------------------- */

static const char *const LEVELS[] = {"OK", "WARNING", "CRITICAL"};

typedef struct finding {
    int level;
    char why[512]; /* the reasons for the level, "; " between */
} finding;

/* Raise the level to `level`, adding the reason (printf-style). */
static void raise_to(finding *f, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void raise_to(finding *f, int level, const char *fmt, ...)
{
    if (level > f->level)
        f->level = level;
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt_note(f->why, sizeof f->why, fmt, ap);
    va_end(ap);
}

static finding judge_health(const dj_store_health *h,
                            const dj_status_settings *t, int64_t now)
{
    finding f = {STATUS_OK, ""};
    long long tick_age = h->last_tick ? (long long)(now - h->last_tick) : -1;
    if (tick_age < 0)
        raise_to(&f, STATUS_WARNING, "the deadline scheduler has never run");
    else if (tick_age > t->tick_critical)
        raise_to(&f, STATUS_CRITICAL, "last tick %llds ago (critical over %ds)",
                 tick_age, t->tick_critical);
    else if (tick_age > t->tick_warning)
        raise_to(&f, STATUS_WARNING, "last tick %llds ago (warning over %ds)",
                 tick_age, t->tick_warning);
    if (h->games_overdue > 0)
        raise_to(&f, STATUS_CRITICAL,
                 "%d games overdue (%ds past deadline and grace): %s",
                 h->games_overdue, t->overdue_after, h->overdue);
    long long waited = h->oldest_waiting ? (long long)(now - h->oldest_waiting)
                                         : 0;
    if (h->mail_waiting && waited > t->mail_critical)
        raise_to(&f, STATUS_CRITICAL, "mail waiting %llds (critical over %ds)",
                 waited, t->mail_critical);
    else if (h->mail_waiting && waited > t->mail_warning)
        raise_to(&f, STATUS_WARNING, "mail waiting %llds (warning over %ds)",
                 waited, t->mail_warning);
    if (t->failed_warning && h->mail_failed >= t->failed_warning)
        raise_to(&f, STATUS_WARNING, "%d mails failed (warning at %d)",
                 h->mail_failed, t->failed_warning);
    if (t->quarantine_warning && h->quarantined >= t->quarantine_warning)
        raise_to(&f, STATUS_WARNING, "%d messages quarantined (warning at %d)",
                 h->quarantined, t->quarantine_warning);
    return f;
}

static void status_text(const dj_store_health *h, const finding *f,
                        const dj_config *c, int64_t now)
{
    printf("%s: %s\n", LEVELS[f->level],
           f->why[0] ? f->why : "the judge is running");
    if (h->last_tick)
        printf("last tick        %llds ago\n",
               (long long)(now - h->last_tick));
    else
        printf("last tick        never\n");
    printf("games active     %d\n", h->games_active);
    printf("games overdue    %d%s%s\n", h->games_overdue,
           h->overdue[0] ? ": " : "", h->overdue);
    printf("mail waiting     %d", h->mail_waiting);
    if (h->oldest_waiting)
        printf(" (the oldest for %llds)",
               (long long)(now - h->oldest_waiting));
    printf("\nmail failed      %d (in the last %ds)\n", h->mail_failed,
           c->status.window);
    printf("quarantined      %d (in the last %ds)\n", h->quarantined,
           c->status.window);
    printf("confirmations    %d pending\n", h->confirmations);
    printf("database         %s, %lld bytes%s%s\n", c->database,
           (long long)h->db_bytes, h->written_by[0] ? ", written by " : "",
           h->written_by);
}

static void status_json(const dj_store_health *h, const finding *f,
                        const dj_config *c, int64_t now)
{
    dj_buf out;
    dj_buf_init(&out);
    dj_buf_printf(&out, "{\"format\": \"dipjudge-status\", \"version\": %d, ",
                  STATUS_JSON_VERSION);
    dj_json_kv_str(&out, "status", LEVELS[f->level], true);
    dj_json_kv_int(&out, "exit", f->level, true);
    dj_json_kv_str(&out, "reason", f->why, true);
    dj_json_kv_int(&out, "now", now, true);
    dj_json_kv_time(&out, "last_tick", h->last_tick, true);
    dj_json_kv_int(&out, "games_active", h->games_active, true);
    dj_json_kv_int(&out, "games_overdue", h->games_overdue, true);
    dj_json_kv_str(&out, "overdue", h->overdue, true);
    dj_json_kv_int(&out, "mail_waiting", h->mail_waiting, true);
    dj_json_kv_time(&out, "oldest_waiting", h->oldest_waiting, true);
    dj_json_kv_int(&out, "mail_failed", h->mail_failed, true);
    dj_json_kv_int(&out, "quarantined", h->quarantined, true);
    dj_json_kv_int(&out, "window", c->status.window, true);
    dj_json_kv_int(&out, "confirmations", h->confirmations, true);
    dj_json_kv_str(&out, "database", c->database, true);
    dj_json_kv_int(&out, "database_bytes", h->db_bytes, true);
    dj_json_kv_str(&out, "written_by", h->written_by, false);
    dj_buf_append(&out, "}\n");
    fputs(dj_buf_ok(&out) ? out.data : "{}\n", stdout);
    dj_buf_free(&out);
}

int cmd_status(int argc, char **argv)
{
    PARSE_OR_RETURN("--json", SYN_STATUS, 0);
    bool json = cli_flag(&a, "--json");
    int status;
    dj_judge *j = cli_open_judge(argv[0], false, &status);
    if (!j) {
        if (json)
            printf("{\"format\": \"dipjudge-status\", \"version\": %d, "
                   "\"status\": \"CRITICAL\", \"exit\": 2, "
                   "\"reason\": \"the database cannot be opened\"}\n",
                   STATUS_JSON_VERSION);
        else
            printf("CRITICAL: the database cannot be opened\n");
        return STATUS_CRITICAL;
    }
    const dj_config *c = dj_judge_config(j);
    int64_t now = dj_judge_now(j);
    dj_store_health h;
    int rc = dj_store_health_read(dj_judge_store(j), now,
                                  c->status.overdue_after,
                                  now - c->status.window, &h);
    if (rc < 0) {
        printf("CRITICAL: %s\n", dj_store_error(dj_judge_store(j)));
        dj_judge_close(j);
        return STATUS_CRITICAL;
    }
    finding f = judge_health(&h, &c->status, now);
    if (json)
        status_json(&h, &f, c, now);
    else
        status_text(&h, &f, c, now);
    dj_judge_close(j);
    return f.level;
}
