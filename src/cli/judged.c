/* SPDX-License-Identifier: MIT */
/*
 * judged.c — the mail judge: reads players' mail, answers it, runs the
 * deadlines and sends what the outbox holds.  Argument parsing and
 * wiring only: the work is in src/judge/daemon.h (the cycle and the
 * daemon's loop), src/judge/ingest.h (one message, one
 * transaction), src/judge/outbox.h (sending, retries, crash safety),
 * src/mail/fetch.h and send.h (the transports) and dj_judge_tick() (the
 * deadline scheduler judgectl tick runs too).  Manual: judged(8); the
 * settings: judge.conf(5).
 *
 * Modes:
 *   deliver  one message on stdin, from the MTA (Postfix pipe, procmail,
 *            .forward); the exit status tells the MTA what to do
 *            (sysexits: 75 = try again later), then the outbox is sent;
 *   run      the daemon: inbound mailbox (Maildir, IMAP with IDLE when
 *            offered, POP3) polled or waited on, the tick every
 *            tick_interval, the outbox flushed after each; SIGTERM or
 *            SIGINT end it cleanly between two steps;
 *            SIGHUP makes it read judge.conf again;
 *   once     one pass of all three, for a timer or cron;
 *   config   print the settings in force in judge.conf's syntax
 *            (passwords only with --show-secrets).
 *
 * The working cycle itself (the three steps, what they log, the loop of
 * `run` with its waits and signals) is src/judge/daemon.h's; this file
 * fills its dj_daemon and lends it the clock, the log and the re-reading
 * of judge.conf.  No globals: everything lives in one `judged` struct.
 *
 * The test copies' hooks (a clock set by the test, crashes at chosen
 * points, a poisoned message) are in test_hooks.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli/mapdir.h"
#include "cli/run_as.h"
#include "cli/test_hooks.h"
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "conf/judge_conf.h"
#include "game/pictures.h"
#include "game/signon.h"
#include "time/calendar.h"
#include "game/game.h"
#include "game/reply_key.h"
#include "mail/fetch.h"
#include "judge/daemon.h"
#include "judge/ingest.h"
#include "conf/conf_warnings.h"
#include "judge/outbox.h"
#include "mail/reply_address.h"
#include "mail/send.h"
#include "render/render.h"
#include "util/fmt.h"

/* sysexits(3) values, spelled out (not every libc has the header). */
enum {
    EX_OK_ = 0,
    EX_USAGE_ = 64,
    EX_TEMPFAIL_ = 75, /* try again later: the MTA keeps the message */
    EX_CONFIG_ = 78
};

#define DELIVER_DRAIN ((size_t)64 << 20) /* stdin read at most, in all */

typedef struct judged {
    /* options */
    const char *config_opt, *db_opt, *maps_opt, *mode;
    bool use_syslog, quiet, verbose, show_secrets; /* --no-send, --no-tick: dm */
    bool changed; /* config --changed */
    const char *envelope_sender; /* deliver -f */
    const char *envelope_recipient; /* deliver -r */
    /* state */
    dj_config cfg;
    char maps[DJ_PATH_MAX];
    char lock_path[DJ_PATH_MAX + 16];
    char key_path[DJ_PATH_MAX + 16];
    dj_daemon dm; /* the judge, mailbox, transport and the cycle's state */
    const char *authserv_ids[DJ_AUTHSERV_IDS_MAX]; /* dm.icfg's, into cfg */
    dj_test_hooks hooks; /* the test copies' only (test_hooks.h) */
} judged;

/* ---- logging ----------------------------------------------------------------- */

static void logmsg(const judged *d, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void logmsg(const judged *d, int level, const char *fmt, ...)
{
    if (d->quiet && level > LOG_WARNING)
        return;
    if (!d->verbose && level >= LOG_DEBUG)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    dj_vfmt(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (d->use_syslog) {
        syslog(level, "%s", msg);
        return;
    }
    /* Under systemd (JOURNAL_STREAM set: stderr is the journal's), the
     * line starts with its syslog priority, sd-daemon(3)'s "<3>", so that
     * journalctl -p err finds the errors; the journal stamps the time. */
    char stamp[32] = "";
    if (getenv("JOURNAL_STREAM")) {
        snprintf(stamp, sizeof stamp, "<%d>", level);
    } else {
        time_t t = time(NULL);
        struct tm tm;
        if (gmtime_r(&t, &tm))
            strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ ", &tm);
    }
    fprintf(stderr, "%sjudged %s: %s%s\n", stamp, d->mode ? d->mode : "",
            level <= LOG_ERR       ? "error: "
            : level == LOG_WARNING ? "warning: "
                                   : "",
            msg);
}

/* Is a syslog daemon listening?  (Without one, syslog(3) drops every
 * line silently: --syslog then logs to stderr, with a warning.) */
#ifdef _PATH_LOG
#define SYSLOG_SOCKET _PATH_LOG
#else
#define SYSLOG_SOCKET "/dev/log"
#endif
static bool syslog_listening(void)
{
    struct stat st;
    return stat(SYSLOG_SOCKET, &st) == 0 && S_ISSOCK(st.st_mode);
}

/* ---- the clock ------------------------------------------------------------- */

static int64_t clock_now(const judged *d)
{
    return dj_test_hooks_now(&d->hooks);
}

/* ---- configuration to the modules' structs ----------------------------------- */

/* The picture a queued mail carries, drawn (or read from the picture
 * cache) as it goes out: pictures are never stored in the database. */
static int outbox_picture(void *ctx, dj_outbox_send_rec *row)
{
    judged *d = ctx;
    int f = dj_picture_format_from_name(row->picture_format);
    dj_picture pic;
    char name[sizeof row->picture_name];
    if (f < 0 || f == DJ_PICTURE_NONE || !d->dm.j ||
        dj_game_phase_picture_to(d->dm.j, row->picture_phase_id, f,
                                 row->recipients, &pic, name,
                                 sizeof name) < 0) {
        logmsg(d, LOG_WARNING, "outbox: mail %lld goes without its picture: %s",
               (long long)row->id, d->dm.j ? dj_judge_error(d->dm.j) : "no judge");
        return -1;
    }
    row->picture = pic.data;
    row->picture_len = pic.len;
    snprintf(row->picture_name, sizeof row->picture_name, "%s", name);
    snprintf(row->picture_type, sizeof row->picture_type, "%s",
             dj_picture_mime_type((dj_picture_format)f));
    return 0;
}

/* The reply address of a game's mail to one participant: its reply token
 * (game/reply_token.c), made when the mail goes out; a press mail's also
 * names the press message, so that answering it is press back to its
 * sender (judged(8)). */
static int outbox_reply_to(void *ctx, const dj_outbox_send_rec *row,
                           const char *to, char *out, size_t outlen)
{
    judged *d = ctx;
    char token[DJ_REPLY_TOKEN_LEN + 1];
    if (!d->dm.j || dj_game_reply_token(d->dm.j, row->game_id, to, token) != 0)
        return 1;
    return dj_reply_address_make(d->cfg.judge_address,
                                 d->cfg.recipient_delimiter, token,
                                 row->press_id, out, outlen) == 0
               ? 0
               : 1;
}

/* The risky settings (conf_warnings.h): printed by `judged config`,
 * logged at start by the other modes. */
static void config_warnings(const judged *d, bool print)
{
    dj_buf warn;
    dj_buf_init(&warn);
    dj_config_warnings(&d->cfg, &warn);
    for (char *l = warn.data; l && *l;) {
        char *nl = strchr(l, '\n');
        if (nl)
            *nl = '\0';
        if (print)
            printf("# WARNING: %s\n", l); /* a comment: pasteable */
        else
            logmsg(d, LOG_WARNING, "%s", l);
        l = nl ? nl + 1 : NULL;
    }
    dj_buf_free(&warn);
}

/* The daemon's callbacks (judge/daemon.h): the clock, the log, SIGHUP. */
static void reload(judged *d);

static int64_t daemon_now(void *ctx)
{
    return clock_now(ctx);
}

static void daemon_log(void *ctx, int level, const char *msg)
{
    logmsg(ctx, level, "%s", msg);
}

static void daemon_reload(void *ctx)
{
    reload(ctx);
}

/* The modules' structs from d->cfg (after reading it, or re-reading). */
static void apply_config(judged *d)
{
    const char *maps = cli_maps_directory(d->maps_opt, d->cfg.maps_dir);
    snprintf(d->maps, sizeof d->maps, "%s", maps);
    snprintf(d->lock_path, sizeof d->lock_path, "%s.outbox-lock",
             d->cfg.database);
    snprintf(d->key_path, sizeof d->key_path, "%s.reply-key",
             d->cfg.database);

    const dj_mail_settings *m = &d->cfg.mail;
    d->dm.icfg.judge_address = d->cfg.judge_address;
    d->dm.icfg.judge_name = d->cfg.judge_name;
    d->dm.icfg.max_size = (size_t)m->max_message_size;
    d->dm.icfg.max_lines = (size_t)m->max_lines;
    d->dm.icfg.reply_limit = m->reply_limit;
    d->dm.icfg.reply_window = m->reply_window;
    d->dm.icfg.signon_reply_limit = m->signon_reply_limit;
    d->dm.icfg.domain_reply_limit = m->domain_reply_limit;
    d->dm.icfg.judge_reply_limit = m->judge_reply_limit;
    d->dm.icfg.reply_bytes = (dj_reply_byte_limits){
        m->reply_bytes_limit, m->domain_reply_bytes_limit,
        m->judge_reply_bytes_limit, m->reply_window};
    d->dm.icfg.envelope_sender = d->envelope_sender;
    d->dm.icfg.envelope_recipient = d->envelope_recipient;
    d->dm.icfg.recipient_delimiter = d->cfg.recipient_delimiter;
    d->dm.icfg.max_tries = m->message_tries;
    d->dm.icfg.admin_address = m->admin_address;
    for (int i = 0; i < m->authserv_ids.n; i++)
        d->authserv_ids[i] = m->authserv_ids.id[i];
    d->dm.icfg.authserv_ids = d->authserv_ids;
    d->dm.icfg.n_authserv_ids = (size_t)m->authserv_ids.n;
    dj_test_hooks_ingest(&d->hooks, &d->dm.icfg);

    d->dm.ocfg.judge_address = d->cfg.judge_address;
    d->dm.ocfg.judge_name = d->cfg.judge_name;
    d->dm.ocfg.admin_address = m->admin_address;
    d->dm.ocfg.max_attempts = m->retry_attempts;
    d->dm.ocfg.retry_delay = m->retry_delay;
    d->dm.ocfg.retry_max_delay = m->retry_max_delay;
    d->dm.ocfg.lock_path = d->lock_path;
    dj_test_hooks_outbox(&d->hooks, &d->dm.ocfg);
    d->dm.ocfg.picture = outbox_picture;
    d->dm.ocfg.picture_ctx = d;
    d->dm.ocfg.reply_to = outbox_reply_to;
    d->dm.ocfg.reply_to_ctx = d;

    d->dm.imap = strcmp(m->in.type, "imap") == 0;
    d->dm.idle = m->in.idle;
    d->dm.poll_interval = m->in.poll_interval;
    d->dm.tick_interval = m->tick_interval;
    d->dm.ops = (dj_daemon_ops){d, daemon_now, daemon_log, daemon_reload};
}

static int load_config(judged *d)
{
    char err[1024];
    if (dj_config_read(d->config_opt, d->db_opt, &d->cfg, err,
                       sizeof err) < 0) {
        logmsg(d, LOG_ERR, "%s", err);
        return -1;
    }
    /* Root no more before anything is opened (and before the warnings
     * judge the file's mode against the judge's own group). */
    char user[64];
    int switched = cli_run_as_state_owner(&d->cfg, user, sizeof user, err,
                                          sizeof err);
    if (switched < 0) {
        logmsg(d, LOG_ERR, "%s", err);
        return -1;
    }
    if (switched)
        logmsg(d, LOG_DEBUG, "started as root: working as %s, the owner of "
               "the state folder", user);
    if (!d->mode || strcmp(d->mode, "config") != 0)
        config_warnings(d, false);
    apply_config(d);
    return 0;
}

/*
 * Make the directories above a Maildir (the embedded defaults are
 * ./mail/in and ./mail/out): the Maildir code makes the last one only.
 */
static void make_parents(const char *path)
{
    char p[DJ_PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        mkdir(p, 0700); /* an error shows when the Maildir is opened */
        *s = '/';
    }
}

static dj_tls_mode tls_of(const char *name)
{
    dj_tls_mode mode = DJ_TLS_NONE;
    dj_tls_mode_parse(name, &mode); /* judge_conf.c accepted only known names */
    return mode;
}

/* In the isolated mail reader, as it starts (fetch_child.c): the secrets
 * of judged's it has a copy of and does not need.  Its own password (the
 * inbound one) is in the fetcher's copy, which it wipes after logging in;
 * judged's copies of both passwords and the reply key go now. */
static void wipe_in_reader(void *ctx)
{
    judged *d = ctx;
    char *secrets[] = {d->cfg.mail.in.password, d->cfg.mail.out.password};
    for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++)
        for (volatile char *p = secrets[i]; *p; p++)
            *p = '\0';
    dj_sender_wipe_secrets(d->dm.sender);
    if (d->dm.j)
        dj_judge_wipe_reply_key(d->dm.j);
}

static int open_fetcher(judged *d)
{
    const dj_inbound_config *in = &d->cfg.mail.in;
    dj_fetch_config fc;
    memset(&fc, 0, sizeof fc);
    fc.kind = strcmp(in->type, "imap") == 0   ? DJ_FETCH_IMAP
              : strcmp(in->type, "pop3") == 0 ? DJ_FETCH_POP3
                                              : DJ_FETCH_MAILDIR;
    fc.maildir = in->path;
    if (fc.kind == DJ_FETCH_MAILDIR)
        make_parents(in->path);
    fc.host = in->host;
    fc.port = in->port;
    fc.tls = tls_of(in->tls);
    fc.trust.insecure = !in->tls_verify;
    fc.trust.ca_file = in->tls_ca_file;
    fc.user = in->user;
    fc.password = in->password;
    fc.mailbox = in->mailbox;
    fc.expunge = in->expunge;
    fc.isolate = true; /* the protocol parsers in a process of their own */
    fc.timeout = in->timeout;
    fc.child_wipe = wipe_in_reader;
    fc.child_ctx = d;
    dj_test_hooks_fetcher(&d->hooks, &fc);
    char err[DJ_MAIL_ERR_MAX];
    d->dm.fetcher = dj_fetch_open(&fc, err, sizeof err);
    if (!d->dm.fetcher) {
        logmsg(d, LOG_ERR, "inbound mailbox: %s", err);
        return -1;
    }
    return 0;
}

static int open_sender(judged *d)
{
    const dj_outbound_config *out = &d->cfg.mail.out;
    dj_send_config sc;
    memset(&sc, 0, sizeof sc);
    sc.kind = strcmp(out->type, "smtp") == 0       ? DJ_SEND_SMTP
              : strcmp(out->type, "sendmail") == 0 ? DJ_SEND_SENDMAIL
                                                   : DJ_SEND_MAILDIR;
    sc.maildir = out->path;
    if (sc.kind == DJ_SEND_MAILDIR)
        make_parents(out->path);
    sc.sendmail = out->sendmail;
    sc.host = out->host;
    sc.port = out->port;
    sc.tls = tls_of(out->tls);
    sc.trust.insecure = !out->tls_verify;
    sc.trust.ca_file = out->tls_ca_file;
    sc.user = out->user[0] ? out->user : NULL;
    sc.password = out->password;
    sc.helo = out->helo[0] ? out->helo : NULL;
    sc.timeout = out->timeout;
    char err[DJ_MAIL_ERR_MAX];
    d->dm.sender = dj_sender_open(&sc, err, sizeof err);
    if (!d->dm.sender) {
        logmsg(d, LOG_ERR, "outbound transport: %s", err);
        return -1;
    }
    return 0;
}

/*
 * Open the database (made at the first start).  0, or the exit status:
 * EX_CONFIG when only the admin can fix it (a file of another user, a
 * newer schema: the MTA and systemd must not retry for days), else
 * EX_TEMPFAIL.
 */
static int open_judge(judged *d)
{
    char err[1024];
    dj_store_open_failure failure;
    d->dm.j = dj_judge_open_as(&d->cfg, d->maps, true, &failure, err,
                            sizeof err);
    if (!d->dm.j) {
        logmsg(d, LOG_ERR, "%s", err);
        /* deliver: the MTA keeps the message whatever the cause (a
         * bounce would lose the player's mail for the judge's fault). */
        if (d->mode && strcmp(d->mode, "deliver") == 0)
            return EX_TEMPFAIL_;
        return failure == DJ_STORE_OPEN_DENIED ||
                       failure == DJ_STORE_OPEN_NEWER
                   ? EX_CONFIG_
                   : EX_TEMPFAIL_;
    }
    const char *notice = dj_store_notice(dj_judge_store(d->dm.j));
    if (notice[0])
        logmsg(d, LOG_WARNING, "%s", notice);
    dj_judge_set_actor(d->dm.j, "judged");
    dj_judge_set_now(d->dm.j, clock_now(d));
    /* Without its key the judge's mail carries no reply address, and
     * none is accepted: everything else works. */
    char kerr[DJ_PATH_MAX + 128];
    if (dj_judge_load_reply_key(d->dm.j, d->key_path, kerr, sizeof kerr) < 0)
        logmsg(d, LOG_WARNING, "%s: no reply addresses", kerr);
    dj_test_hooks_judge(&d->hooks, d->dm.j);
    return 0;
}

static void close_all(judged *d)
{
    dj_fetch_close(d->dm.fetcher);
    d->dm.fetcher = NULL;
    dj_sender_close(d->dm.sender);
    d->dm.sender = NULL;
    dj_judge_close(d->dm.j);
    d->dm.j = NULL;
}

/* ---- modes -------------------------------------------------------------------- */

/* Read stdin: at most max bytes kept, the rest read and dropped. */
static int read_stdin(dj_buf *out, size_t max, bool *truncated)
{
    char chunk[65536];
    size_t total = 0;
    *truncated = false;
    for (;;) {
        ssize_t n = read(STDIN_FILENO, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        size_t keep = out->len < max ? max - out->len : 0;
        if ((size_t)n < keep)
            keep = (size_t)n;
        if (keep)
            dj_buf_append_n(out, chunk, keep);
        if (keep < (size_t)n)
            *truncated = true;
        total += (size_t)n;
        if (total > DELIVER_DRAIN)
            break; /* enough: the message is refused anyway */
    }
    return dj_buf_ok(out) ? 0 : -1;
}

static int mode_deliver(judged *d)
{
    dj_buf raw;
    dj_buf_init(&raw);
    bool truncated = false;
    size_t max = (size_t)d->cfg.mail.max_message_size;
    if (read_stdin(&raw, max + 1, &truncated) < 0) {
        logmsg(d, LOG_ERR, "cannot read the message from stdin");
        dj_buf_free(&raw);
        return EX_TEMPFAIL_;
    }
    int opened = open_judge(d);
    if (opened != 0) {
        dj_buf_free(&raw);
        return opened;
    }
    dj_judge_set_now(d->dm.j, clock_now(d));
    dj_ingest_result res;
    dj_ingest_status st =
        dj_ingest_message(d->dm.j, &d->dm.icfg, raw.data, raw.len,
                          truncated || raw.len > max, &res);
    dj_buf_free(&raw);
    dj_daemon_note_message(&d->dm, NULL, &res);
    if (st == DJ_INGEST_RETRY) {
        close_all(d);
        return EX_TEMPFAIL_;
    }
    /* The message is safe in the database: whatever sending does now,
     * the MTA must not deliver it again (exit 0). */
    if (!d->dm.no_send && open_sender(d) == 0)
        dj_daemon_flush(&d->dm);
    close_all(d);
    return EX_OK_;
}

static int mode_once(judged *d)
{
    int opened = open_judge(d);
    if (opened != 0)
        return opened;
    if (open_fetcher(d) < 0 || (!d->dm.no_send && open_sender(d) < 0)) {
        close_all(d);
        return EX_CONFIG_;
    }
    while (dj_daemon_ingest_pass(&d->dm, DJ_DAEMON_BATCH) == DJ_DAEMON_BATCH)
        ; /* a full batch: there may be more */
    if (!d->dm.no_tick)
        dj_daemon_tick(&d->dm);
    dj_daemon_flush(&d->dm);
    close_all(d);
    return d->dm.trouble ? EX_TEMPFAIL_ : EX_OK_;
}

/*
 * judged deliver: a crash (a fault, an abort) exits 75 like every other
 * failure of the judge's own, so that the MTA keeps the message and
 * tries again instead of bouncing it.  Only _exit, which a handler may
 * call; the message is not in the database unless its transaction
 * committed, and then the retry is a duplicate, ignored.
 */
static void on_crash(int sig)
{
    (void)sig;
    _exit(EX_TEMPFAIL_);
}

static void install_crash_handlers(void)
{
    static const int SIGS[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    for (size_t i = 0; i < sizeof SIGS / sizeof SIGS[0]; i++)
        sigaction(SIGS[i], &sa, NULL);
}

/*
 * SIGHUP: read judge.conf again and go on with it, the mailbox, the
 * transport and the session opened anew.  A file that does not read, or
 * settings that do not open, leave the settings in force as they were.
 * The database stays the one judged started with (a new one needs a
 * restart: judged(8)).
 */
static void reload(judged *d)
{
    char err[1024];
    dj_config *fresh = malloc(sizeof *fresh);
    dj_config *old = malloc(sizeof *old);
    if (!fresh || !old ||
        dj_config_read(d->config_opt, d->db_opt, fresh, err, sizeof err) < 0) {
        logmsg(d, LOG_ERR, "SIGHUP: judge.conf not re-read: %s; going on "
               "with the settings in force",
               fresh && old ? err : "out of memory");
        free(fresh);
        free(old);
        return;
    }
    if (strcmp(fresh->database, d->cfg.database) != 0)
        logmsg(d, LOG_WARNING, "SIGHUP: the database stays %s until judged "
               "is restarted", d->cfg.database);
    snprintf(fresh->database, sizeof fresh->database, "%s", d->cfg.database);
    *old = d->cfg;
    close_all(d);
    d->cfg = *fresh;
    apply_config(d);
    if (open_judge(d) == 0 && open_fetcher(d) == 0 && open_sender(d) == 0) {
        logmsg(d, LOG_INFO, "SIGHUP: judge.conf re-read: inbound %s, "
               "outbound %s, tick every %ds", d->cfg.mail.in.type,
               d->cfg.mail.out.type, d->cfg.mail.tick_interval);
    } else {
        logmsg(d, LOG_ERR, "SIGHUP: the new settings do not open; going on "
               "with the settings in force");
        close_all(d);
        d->cfg = *old;
        apply_config(d);
        if (open_judge(d) != 0 || open_fetcher(d) != 0 ||
            open_sender(d) != 0) {
            logmsg(d, LOG_ERR, "SIGHUP: the old settings do not open "
                   "either: stopping");
            d->dm.trouble = true;
            dj_daemon_stop(SIGHUP);
        }
    }
    free(old);
    free(fresh);
}

static int mode_run(judged *d)
{
    dj_daemon_install_signals();
    int opened = open_judge(d);
    if (opened != 0)
        return opened;
    if (open_fetcher(d) < 0 || open_sender(d) < 0) {
        close_all(d);
        return EX_CONFIG_;
    }
    const dj_mail_settings *m = &d->cfg.mail;
    logmsg(d, LOG_INFO,
           "started: %s <%s>, database %s, inbound %s, outbound %s, tick "
           "every %ds",
           d->cfg.judge_name, d->cfg.judge_address, d->cfg.database,
           m->in.type, m->out.type, m->tick_interval);
    int sig = dj_daemon_run(&d->dm);
    logmsg(d, LOG_INFO, "stopping (signal %d)", sig);
    close_all(d);
    return sig == SIGHUP ? EX_CONFIG_ : EX_OK_;
}

/* judged config: the settings in force in judge.conf's syntax. */
static int print_config(judged *d)
{
    dj_buf out;
    dj_buf_init(&out);
    config_warnings(d, true);
    if (d->changed)
        dj_config_write_changed(&d->cfg, d->show_secrets, &out);
    else
        dj_config_write(&d->cfg, d->show_secrets, &out);
    int ok = dj_buf_ok(&out) && fputs(out.data, stdout) >= 0 &&
             fflush(stdout) == 0;
    dj_buf_free(&out);
    if (!ok)
        fprintf(stderr, "judged config: cannot write the configuration\n");
    return ok ? EX_OK_ : EX_TEMPFAIL_;
}

/* ---- arguments ------------------------------------------------------------------ */

static int usage(FILE *to)
{
    fprintf(to,
            "usage: judged [OPTION...] MODE [OPTION...]\n"
            "modes:\n"
            "  deliver [-f SENDER] [-r RECIPIENT] [--no-send]\n"
            "                                    one message on stdin "
            "(from the MTA)\n"
            "  run [--no-tick] [--no-send]       the daemon: mailbox, "
            "deadlines, outbox\n"
            "  once [--no-tick] [--no-send]      one pass of each, for "
            "cron\n"
            "  config [--show-secrets] [--changed]  the settings in force, "
            "as judge.conf\n"
            "                                    (--changed: only those "
            "not the defaults)\n"
            "options (before or after the mode):\n"
            "  -c, --config FILE   configuration (else $DIPJUDGE_CONF, else "
            "the installed one)\n"
            "  --db FILE           the database (else $DIPJUDGE_DB, else "
            "the configuration's)\n"
            "  --maps DIR          the maps\n"
            "  --syslog            log to syslog (mail facility), not "
            "stderr\n"
            "  -q, --quiet         warnings and errors only\n"
            "  -v, --verbose       debugging lines too\n"
            "  -h, --help          this text;  --version  the version\n"
            "See judged(8) and judge.conf(5).\n");
    return to == stderr ? EX_USAGE_ : EX_OK_;
}

/*
 * The command line, with getopt_long: every option anywhere, before or
 * after the mode (`judged --no-send deliver` is `judged deliver
 * --no-send`); then the options that belong to some modes only are
 * checked against the mode.  Returns 0, 1 (--help or --version printed)
 * or -1 (a message printed).
 */
static int parse_args(judged *d, int argc, char **argv)
{
    enum { OPT_DB = 256, OPT_MAPS, OPT_SYSLOG, OPT_NO_SEND, OPT_NO_TICK,
           OPT_VERSION, OPT_SHOW_SECRETS, OPT_CHANGED };
    static const struct option LONGS[] = {
        {"config", required_argument, NULL, 'c'},
        {"recipient", required_argument, NULL, 'r'},
        {"db", required_argument, NULL, OPT_DB},
        {"maps", required_argument, NULL, OPT_MAPS},
        {"syslog", no_argument, NULL, OPT_SYSLOG},
        {"quiet", no_argument, NULL, 'q'},
        {"verbose", no_argument, NULL, 'v'},
        {"no-send", no_argument, NULL, OPT_NO_SEND},
        {"no-tick", no_argument, NULL, OPT_NO_TICK},
        {"show-secrets", no_argument, NULL, OPT_SHOW_SECRETS},
        {"changed", no_argument, NULL, OPT_CHANGED},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0}};
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":c:f:r:qvh", LONGS, NULL)) != -1) {
        switch (c) {
        case 'c': d->config_opt = optarg; break;
        case OPT_DB: d->db_opt = optarg; break;
        case OPT_MAPS: d->maps_opt = optarg; break;
        case 'f': d->envelope_sender = optarg; break;
        case 'r': d->envelope_recipient = optarg; break;
        case OPT_SYSLOG: d->use_syslog = true; break;
        case 'q': d->quiet = true; break;
        case 'v': d->verbose = true; break;
        case OPT_NO_SEND: d->dm.no_send = true; break;
        case OPT_NO_TICK: d->dm.no_tick = true; break;
        case OPT_SHOW_SECRETS: d->show_secrets = true; break;
        case OPT_CHANGED: d->changed = true; break;
        case 'h': usage(stdout); return 1;
        case OPT_VERSION:
            printf("judged (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            return 1;
        case ':':
            fprintf(stderr, "judged: a value is needed after '%s'\n",
                    argv[optind - 1]);
            return -1;
        default:
            fprintf(stderr, "judged: unknown option '%s'\n",
                    argv[optind - 1]);
            return -1;
        }
    }
    if (optind < argc)
        d->mode = argv[optind++];
    if (optind < argc) {
        fprintf(stderr, "judged: unexpected argument '%s'\n", argv[optind]);
        return -1;
    }
    if (!d->mode) {
        fprintf(stderr, "judged: no mode given\n");
        return -1;
    }
    if (strcmp(d->mode, "help") == 0) {
        usage(stdout);
        return 1;
    }
    static const char *const MODES[] = {"deliver", "run", "once", "config"};
    bool known = false;
    for (size_t k = 0; k < sizeof MODES / sizeof MODES[0]; k++)
        known = known || strcmp(d->mode, MODES[k]) == 0;
    if (!known) {
        fprintf(stderr, "judged: unknown mode '%s' (deliver, run, once or "
                        "config)\n", d->mode);
        return -1;
    }
    const char *misplaced =
        d->envelope_sender && strcmp(d->mode, "deliver") != 0 ? "-f"
        : d->envelope_recipient && strcmp(d->mode, "deliver") != 0 ? "-r"
        : d->dm.no_tick && strcmp(d->mode, "run") != 0 &&
                strcmp(d->mode, "once") != 0
            ? "--no-tick"
        : d->dm.no_send && strcmp(d->mode, "config") == 0 ? "--no-send"
        : d->show_secrets && strcmp(d->mode, "config") != 0
            ? "--show-secrets"
        : d->changed && strcmp(d->mode, "config") != 0 ? "--changed"
            : NULL;
    if (misplaced) {
        fprintf(stderr, "judged: %s does not go with %s (judged --help)\n",
                misplaced, d->mode);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    judged *d = calloc(1, sizeof *d);
    if (!d) {
        fprintf(stderr, "judged: out of memory\n");
        return EX_TEMPFAIL_;
    }
    int rc;
    /* The MTA's command line: "deliver" anywhere in it (also when the
     * rest does not parse: that too must defer, see below). */
    bool deliver = false;
    for (int i = 1; i < argc; i++)
        deliver = deliver || strcmp(argv[i], "deliver") == 0;
    int parsed = parse_args(d, argc, argv);
    if (deliver)
        install_crash_handlers();
    if (parsed != 0) {
        rc = parsed > 0 ? EX_OK_ : usage(stderr);
        /* A bad command line in the MTA's service is the judge's fault,
         * not the sender's: defer. */
        if (deliver && rc != EX_OK_)
            rc = EX_TEMPFAIL_;
    } else {
        if (d->use_syslog && !syslog_listening()) {
            d->use_syslog = false;
            logmsg(d, LOG_WARNING, "--syslog: no syslog socket at %s: "
                   "logging to standard error", SYSLOG_SOCKET);
        }
        if (d->use_syslog)
            openlog("judged", LOG_PID, LOG_MAIL);
        char why[256];
        if (dj_test_hooks_read(&d->hooks, "judged", true, why,
                               sizeof why) < 0) {
            fprintf(stderr, "judged: %s\n", why);
            rc = EX_USAGE_;
        } else if (load_config(d) < 0)
            rc = deliver ? EX_TEMPFAIL_ : EX_CONFIG_;
        else if (strcmp(d->mode, "config") == 0) {
            rc = print_config(d);
        } else if (strcmp(d->mode, "deliver") == 0)
            rc = mode_deliver(d);
        else if (strcmp(d->mode, "once") == 0)
            rc = mode_once(d);
        else
            rc = mode_run(d);
        if (d->use_syslog)
            closelog();
    }
    free(d);
    return rc;
}
