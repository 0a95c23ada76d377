/* SPDX-License-Identifier: MIT */
/*
 * ingest.c — one incoming mail to one committed transaction.  See
 * ingest.h for the rules; this file is their order of work:
 *
 *   parse -> content hash -> BEGIN -> mail log (duplicate? stop) -> classify ->
 *   run commands | refuse | ignore -> outcome -> COMMIT
 *
 * and dj_ingest_fetch(), the loop over a mailbox that confirms a message
 * only after that commit.
 */
#define _GNU_SOURCE /* memmem */
#define _POSIX_C_SOURCE 200809L

#include "judge/ingest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "command/command.h"
#include "game/game.h"
#include "game/pictures.h"
#include "game/signon.h"
#include "judge/admin_notice.h"
#include "judge/reply_budget.h"
#include "mail/authres.h"
#include "mail/compose.h"
#include "mail/maildir.h"
#include "mail/message_key.h"
#include "mail/message.h"
#include "mail/reply_address.h"
#include "store/mail.h"
#include "store/sending.h"

const char *dj_ingest_status_name(dj_ingest_status st)
{
    switch (st) {
    case DJ_INGEST_DONE:
        return "done";
    case DJ_INGEST_DUPLICATE:
        return "duplicate";
    case DJ_INGEST_IGNORED:
        return "ignored";
    case DJ_INGEST_REFUSED:
        return "refused";
    case DJ_INGEST_RETRY:
        return "retry";
    }
    return "?";
}

static void fault(const dj_ingest_config *cfg, const char *point)
{
    if (cfg->fault)
        cfg->fault(cfg->fault_ctx, point);
}

/* A stable id for a message without a Message-ID: its content hash. */
static void hash_id(const char *hash, size_t len, char *out, size_t outlen)
{
    snprintf(out, outlen, "%.64s.%zu@raw.dipjudge.invalid", hash, len);
}

/*
 * The mail log's key: the sender, the Message-ID and the hash of what the
 * sender wrote (mail/message_key.h).  The same message read again (a
 * crash, a mailbox that offers it twice, a re-delivery through another
 * MX with other Received: lines) has the same key and is acted on once; a
 * forged mail that borrows a player's Message-ID has another, so it
 * cannot make the player's real mail look like one already seen.
 */
static void log_key(const char *message_id, const char *sender,
                    const char *hash, char *out, size_t outlen)
{
    snprintf(out, outlen, "%.200s %.64s %.200s", message_id, hash, sender);
}

/* Why an automatic message is ignored, as the mail log says it. */
static const char *auto_outcome(unsigned flags)
{
    if (flags & DJ_MSG_LOOP)
        return "ignored: our own mail (X-Loop)";
    if (flags & DJ_MSG_BOUNCE)
        return "ignored: bounce";
    if (flags & DJ_MSG_LIST)
        return "ignored: mailing list";
    return "ignored: automatic reply";
}

static const char *limit_name(int limit)
{
    switch (limit) {
    case DJ_MSG_LIMIT_SIZE:
        return "size";
    case DJ_MSG_LIMIT_HEADER:
        return "header size";
    case DJ_MSG_LIMIT_PARTS:
        return "MIME parts";
    case DJ_MSG_LIMIT_LINES:
        return "lines";
    case DJ_MSG_LIMIT_LINE_LENGTH:
        return "line length";
    }
    return "limits";
}

/*
 * May the sender get one more reply of this class?  1 yes, 0 no (the
 * budget in *why), -1 on a database error.
 */
static int reply_allowed(dj_store *st, const dj_ingest_config *cfg,
                         dj_reply_class c, const char *to, int64_t now,
                         const char **why)
{
    dj_reply_limits lim = {cfg->reply_limit, cfg->signon_reply_limit,
                           cfg->domain_reply_limit, cfg->judge_reply_limit,
                           cfg->reply_window};
    int rc = dj_reply_allowed(st, &lim, c, to, now, why);
    if (rc == 1) /* and in bytes (issue 33) */
        rc = dj_reply_bytes_allowed(st, &cfg->reply_bytes, c, to, now, why);
    return rc;
}

/* "<id>" for In-Reply-To, or "" for a hashed id (not the mail's own). */
static void in_reply_to(const dj_message *m, char *out, size_t outlen)
{
    if (m->message_id_hashed || !m->message_id[0])
        out[0] = '\0';
    else
        snprintf(out, outlen, "<%s>", m->message_id);
}

/* The polite refusal of a message over a limit. */
static int queue_refusal(dj_judge *j, const dj_ingest_config *cfg,
                         const dj_message *m, const char *to, size_t len,
                         bool truncated)
{
    const dj_config *conf = dj_judge_config(j);
    size_t max_size = cfg->max_size ? cfg->max_size : DJ_MSG_DEFAULT_MAX_SIZE;
    size_t max_lines =
        cfg->max_lines ? cfg->max_lines : DJ_MSG_DEFAULT_MAX_LINES;
    dj_buf subject, body;
    dj_buf_init(&subject);
    dj_buf_init(&body);
    dj_game_mail_subject(&subject, cfg->judge_name, NULL, NULL,
                         "Message refused");
    if (m->limit_hit)
        dj_buf_printf(&body,
                      "Your message%s%s%s was not read: it is over this "
                      "judge's limit on %s.\n\n",
                      m->subject[0] ? " (subject \"" : "", m->subject,
                      m->subject[0] ? "\")" : "", limit_name(m->limit_hit));
    else
        dj_buf_printf(&body, "Your message was not read: its header could "
                             "not be read (no sender, or no header fields "
                             "at all).\n\n");
    if (m->limit_hit == DJ_MSG_LIMIT_SIZE)
        dj_buf_printf(&body, "It is %s%zu bytes long; the limit is %zu.\n",
                      truncated ? "more than " : "", len, max_size);
    else if (m->limit_hit == DJ_MSG_LIMIT_LINES)
        dj_buf_printf(&body, "The limit is %zu lines of text.\n", max_lines);
    dj_buf_printf(&body,
                  "\nNone of the commands in it were run.  Please send "
                  "your commands again as plain text, without "
                  "attachments, pictures or long quotations, and split "
                  "long messages in two.\n\nSend HELP to %s for the "
                  "commands.\n",
                  conf->judge_address);
    char irt[DJ_MSG_ID_MAX + 2];
    in_reply_to(m, irt, sizeof irt);
    int rc = -1;
    if (dj_buf_ok(&subject) && dj_buf_ok(&body))
        rc = dj_store_outbox_add_reply(dj_judge_store(j), "refusal", to,
                                       subject.data, body.data, irt,
                                       dj_judge_now(j));
    dj_buf_free(&subject);
    dj_buf_free(&body);
    return rc;
}

/*
 * The class's word on a reply, before the budgets: forged mail is answered
 * only when it signed on (the right password: the reply goes to the
 * participant's own address), never when it failed, so a forger draws no
 * mail at all; authenticated mail is always answered (its From: is
 * proven: no backscatter), so nothing spent by the others can silence
 * it; unknown mail goes to the budgets.  1: go on to the budgets (with
 * *class), 0: not answered (*why).
 */
static int class_allows_reply(dj_sender_class cls, bool signed_on,
                              dj_reply_class *class, const char **why)
{
    if (cls == DJ_SENDER_FORGED && !signed_on) {
        *why = "forged mail that failed";
        return 0;
    }
    if (cls == DJ_SENDER_AUTHENTICATED)
        *class = DJ_REPLY_SIGNED_ON;
    return 1;
}

/* Run the commands; queue the reply when allowed.  -1: roll back. */
static int run_commands(dj_judge *j, const dj_ingest_config *cfg,
                        const dj_message *m, const dj_identity *id,
                        dj_ingest_result *res)
{
    dj_store *st = dj_judge_store(j);
    dj_command_msg msg = {m->from.addr, m->subject, m->body ? m->body : "",
                          dj_judge_now(j), NULL, id};
    dj_command_reply reply;
    dj_command_reply_init(&reply);
    int rc = dj_command_execute(j, &msg, &reply);
    if (rc < 0) {
        snprintf(res->error, sizeof res->error, "%s", reply.error);
        dj_command_reply_free(&reply);
        return -1;
    }
    snprintf(res->game, sizeof res->game, "%s", reply.game);
    snprintf(res->outcome, sizeof res->outcome, "%s",
             reply.outcome[0] ? reply.outcome : "ok");
    const char *why = NULL;
    dj_reply_class class = reply.signed_on ? DJ_REPLY_SIGNED_ON
                           : strcmp(reply.outcome, "signon-failed") == 0
                               ? DJ_REPLY_SIGNON_FAILED
                               : DJ_REPLY_OTHER;
    int allowed = class_allows_reply(id->cls, reply.signed_on, &class, &why);
    if (allowed)
        allowed = reply_allowed(st, cfg, class, m->from.addr, msg.now, &why);
    if (allowed > 0) {
        char irt[DJ_MSG_ID_MAX + 2];
        in_reply_to(m, irt, sizeof irt);
        if (dj_command_queue_reply(j, &msg, &reply) < 0 ||
            (irt[0] && dj_store_outbox_thread_last(st, irt) < 0))
            allowed = -1;
        else
            res->replied = true;
    } else if (allowed == 0) {
        size_t n = strlen(res->outcome);
        snprintf(res->outcome + n, sizeof res->outcome - n,
                 " (not answered: %s)", why);
    }
    if (allowed < 0)
        snprintf(res->error, sizeof res->error, "%s", dj_store_error(st));
    dj_command_reply_free(&reply);
    return allowed < 0 ? -1 : 0;
}

/* Refuse the message to `to` (within the reply budgets). */
static int refuse(dj_judge *j, const dj_ingest_config *cfg,
                  const dj_message *m, const dj_identity *id, const char *to,
                  const char *outcome, size_t len, bool truncated,
                  dj_ingest_result *res)
{
    res->status = DJ_INGEST_REFUSED;
    snprintf(res->outcome, sizeof res->outcome, "%s", outcome);
    const char *why = NULL;
    dj_reply_class class = DJ_REPLY_OTHER;
    int allowed = class_allows_reply(id->cls, false, &class, &why);
    if (allowed)
        allowed = reply_allowed(dj_judge_store(j), cfg, class, to,
                                dj_judge_now(j), &why);
    if (allowed < 0 ||
        (allowed > 0 && queue_refusal(j, cfg, m, to, len, truncated) < 0))
        return -1;
    if (allowed > 0)
        res->replied = true;
    else
        snprintf(res->outcome, sizeof res->outcome, "%s (not answered: %s)",
                 outcome, why);
    return 0;
}

/*
 * Where a message without a readable From: is refused: its envelope
 * sender (judged deliver -f), else the Return-Path the mail system wrote
 * on its first lines; never the null sender nor the judge itself.  NULL
 * when there is none.
 */
static const char *envelope_of(const dj_ingest_config *cfg,
                               const dj_message *m, const char *raw,
                               size_t len, char *buf, size_t buflen)
{
    const char *own = cfg->judge_address ? cfg->judge_address : "";
    const char *addr = NULL;
    if (cfg->envelope_sender)
        addr = cfg->envelope_sender;
    else if (m->return_path_known)
        addr = m->return_path;
    else if (len > 13 && strncasecmp(raw, "Return-Path:", 12) == 0) {
        /* the header was not read: the first line, as the MDA wrote it */
        const char *lt = memchr(raw, '<', len < 512 ? len : 512);
        const char *gt = lt ? memchr(lt, '>', (size_t)(raw + len - lt)) : NULL;
        const char *nl = memchr(raw, '\n', len);
        if (lt && gt && (!nl || gt < nl) && (size_t)(gt - lt) < buflen) {
            snprintf(buf, buflen, "%.*s", (int)(gt - lt - 1), lt + 1);
            addr = buf;
        }
    }
    if (!addr || !*addr || !dj_compose_addr_ok(addr) ||
        dj_address_is_judges(addr, own))
        return NULL;
    return addr;
}

/* Inside the transaction, after the mail log row: decide and act. */
static int act(dj_judge *j, const dj_ingest_config *cfg, const dj_message *m,
               const dj_identity *id, bool unknown_token, const char *raw,
               int parsed, size_t len, bool truncated, dj_ingest_result *res)
{
    const char *own = cfg->judge_address ? cfg->judge_address : "";
    res->status = DJ_INGEST_IGNORED;
    char env[DJ_MSG_ADDR_MAX];
    const char *to = m->from.addr[0] ? m->from.addr
                                     : envelope_of(cfg, m, raw, len, env,
                                                   sizeof env);
    if (parsed == DJ_MSG_EPARSE && !m->from.addr[0] && to &&
        !dj_message_is_automatic(m))
        return refuse(j, cfg, m, id, to,
                      "refused: its header could not be read", len,
                      truncated, res);
    if (parsed == DJ_MSG_EPARSE) {
        snprintf(res->outcome, sizeof res->outcome,
                 "ignored: not a mail message");
        return 0;
    }
    if (dj_message_is_automatic(m)) {
        snprintf(res->outcome, sizeof res->outcome, "%s",
                 auto_outcome(m->flags));
        return 0;
    }
    if (!m->from.addr[0] && !(parsed == DJ_MSG_ELIMIT && to)) {
        snprintf(res->outcome, sizeof res->outcome,
                 "ignored: no sender address");
        return 0;
    }
    if (dj_address_is_judges(m->from.addr, own)) {
        snprintf(res->outcome, sizeof res->outcome,
                 "ignored: from the judge's own address");
        return 0;
    }
    if (parsed == DJ_MSG_ELIMIT) {
        char outcome[64];
        snprintf(outcome, sizeof outcome, "refused: over the %s limit",
                 limit_name(m->limit_hit));
        return refuse(j, cfg, m, id, to, outcome, len, truncated, res);
    }
    if (unknown_token) {
        /* A reply address nobody holds (made up, or old: a new password,
         * address or power, SET TOKEN NEW): an unknown address. */
        snprintf(res->outcome, sizeof res->outcome,
                 "ignored: unknown reply address");
        dj_sender_class was = dj_judge_sender_class(j);
        dj_judge_set_sender_class(j, id->cls);
        int rc = dj_game_token_refused(j, m->from.addr);
        dj_judge_set_sender_class(j, was);
        return rc;
    }
    res->status = DJ_INGEST_DONE;
    return run_commands(j, cfg, m, id, res);
}

static int64_t monotonic_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ---- who sent it ---------------------------------------------------------- */

static dj_sender_class class_of(dj_auth_class c)
{
    return c == DJ_AUTH_AUTHENTICATED ? DJ_SENDER_AUTHENTICATED
           : c == DJ_AUTH_FORGED      ? DJ_SENDER_FORGED
                                      : DJ_SENDER_UNKNOWN;
}

/*
 * Decided once, before the transaction (so nothing here holds the write
 * lock): the mail system's class from the trusted Authentication-Results
 * (mail/authres.h), then a reply token among the recipients (one indexed
 * lookup; it counts as authenticated: only the participant has it), then
 * the passwords of the SIGNON lines, checked now (command.h:
 * dj_command_prepare).  True when the mail came to a reply address that
 * is no live participant's and carries no SIGNON line: it is ignored,
 * unanswered, and counted.
 */
static bool identify(dj_judge *j, const dj_ingest_config *cfg,
                     const dj_message *m, const char *raw, size_t len,
                     int parsed, const dj_auth_verdict *v, dj_identity *id)
{
    memset(id, 0, sizeof *id);
    id->cls = class_of(v->cls);
    snprintf(id->verdict, sizeof id->verdict, "%s", v->verdict);
    if (parsed != DJ_MSG_OK || !m->from.addr[0] ||
        dj_message_is_automatic(m) ||
        dj_address_is_judges(m->from.addr,
                             cfg->judge_address ? cfg->judge_address : ""))
        return false;
    dj_reply_tag tags[DJ_REPLY_TAGS_MAX];
    bool malformed = false, unknown = false;
    size_t n = dj_reply_address_find(
        raw, len, cfg->envelope_recipient, cfg->judge_address,
        cfg->recipient_delimiter ? cfg->recipient_delimiter : "+", tags,
        DJ_REPLY_TAGS_MAX, &malformed);
    for (size_t i = 0; i < n && id->how == DJ_BY_NONE; i++) {
        int rc = dj_game_token_signon(j, tags[i].token, &id->who);
        if (rc == 0) {
            id->how = DJ_BY_TOKEN;
            id->cls = DJ_SENDER_AUTHENTICATED;
            id->press_reply = tags[i].press_id;
        } else if (rc == DJ_SIGNON_REFUSED) {
            unknown = true;
        }
    }
    dj_command_msg msg = {m->from.addr, m->subject, m->body ? m->body : "",
                          dj_judge_now(j), NULL, id};
    int signons = dj_command_prepare(j, &msg, id);
    return id->how == DJ_BY_NONE && unknown && signons == 0;
}

dj_ingest_status dj_ingest_message(dj_judge *j, const dj_ingest_config *cfg,
                                   const char *raw, size_t len,
                                   bool truncated, dj_ingest_result *res)
{
    memset(res, 0, sizeof *res);
    dj_store *st = dj_judge_store(j);
    dj_message_limits lim = {0};
    lim.max_size = cfg->max_size;
    lim.max_lines = cfg->max_lines;
    lim.own_loop = cfg->judge_address;
    lim.envelope_sender = cfg->envelope_sender;
    dj_message m;
    char why[256];
    int parsed = dj_message_parse(raw, len, &lim, &m, why, sizeof why);
    if (parsed == DJ_MSG_OK && truncated) {
        /* Only part of a longer message was read: never act on it (the
         * body, unused from here, is freed with the rest). */
        parsed = DJ_MSG_ELIMIT;
        m.limit_hit = DJ_MSG_LIMIT_SIZE;
    }
    if (parsed == DJ_MSG_ENOMEM) {
        dj_message_free(&m);
        snprintf(res->error, sizeof res->error, "out of memory");
        return res->status = DJ_INGEST_RETRY;
    }
    char hash[DJ_MESSAGE_HASH_HEX];
    if (dj_message_content_hash(raw, len, hash) < 0) {
        dj_message_free(&m);
        snprintf(res->error, sizeof res->error, "cannot hash the message");
        return res->status = DJ_INGEST_RETRY;
    }
    if (m.message_id[0])
        snprintf(res->message_id, sizeof res->message_id, "%s",
                 m.message_id);
    else
        hash_id(hash, len, res->message_id, sizeof res->message_id);
    snprintf(res->sender, sizeof res->sender, "%s", m.from.addr);
    const char *at_sign = strrchr(m.from.addr, '@');
    dj_authres_evaluate(raw, len, at_sign ? at_sign + 1 : "",
                        cfg->authserv_ids, cfg->n_authserv_ids, &res->auth);

    char key[512];
    log_key(res->message_id, m.from.addr, hash, key, sizeof key);
    dj_identity id;
    bool unknown_token = identify(j, cfg, &m, raw, len, parsed, &res->auth,
                                  &id);
    snprintf(res->sender_class, sizeof res->sender_class, "%s",
             dj_sender_class_name(id.cls));
    snprintf(res->signed_on_by, sizeof res->signed_on_by, "%s",
             dj_identity_how_name(id.how));
    int64_t locked_at = monotonic_us();
    if (dj_store_begin(st) < 0)
        goto retry;
    int dup = dj_store_maillog_add(st, key, m.from.addr, 0, "received",
                                   dj_judge_now(j));
    if (dup == DJ_STORE_DUPLICATE) {
        dj_store_rollback(st);
        dj_message_free(&m);
        snprintf(res->outcome, sizeof res->outcome, "seen before");
        return res->status = DJ_INGEST_DUPLICATE;
    }
    if (dup < 0 ||
        dj_store_maillog_set_auth(st, key, dj_auth_class_name(res->auth.cls),
                                  res->auth.verdict) < 0)
        goto rollback;
    fault(cfg, "ingest-logged");
    if (cfg->test_fail_marker && *cfg->test_fail_marker &&
        memmem(raw, len, cfg->test_fail_marker,
               strlen(cfg->test_fail_marker))) {
        snprintf(res->error, sizeof res->error, "the test's poison marker");
        goto rollback;
    }
    if (act(j, cfg, &m, &id, unknown_token, raw, parsed, len, truncated,
            res) < 0)
        goto rollback;
    if (dj_store_maillog_set_outcome(st, key, res->game, res->outcome) < 0 ||
        dj_store_maillog_set_signed_on_by(st, key, res->signed_on_by) < 0)
        goto rollback;
    fault(cfg, "ingest-executed");
    if (dj_store_commit(st) < 0)
        goto rollback;
    res->lock_us = monotonic_us() - locked_at;
    dj_message_free(&m);
    return res->status;

rollback:
    if (!res->error[0]) {
        snprintf(res->error, sizeof res->error, "%s", dj_store_error(st));
        res->busy = dj_store_busy(st);
    }
    dj_store_rollback(st);
    goto out;
retry:
    snprintf(res->error, sizeof res->error, "%s", dj_store_error(st));
    res->busy = dj_store_busy(st);
out:
    dj_message_free(&m);
    res->replied = false;
    return res->status = DJ_INGEST_RETRY;
}

/* ---- poison messages ---------------------------------------------------- */

/* The admin hears once of a message moved aside. */
static int tell_admin(dj_judge *j, const dj_ingest_config *cfg,
                      const char *id, const dj_ingest_result *res, int tries)
{
    dj_buf body;
    dj_buf_init(&body);
    dj_buf_printf(&body,
                  "The judge failed %d times on an incoming message, for a "
                  "reason other than a busy database, and moved it aside so "
                  "that the mail behind it goes on:\n\n"
                  "  mailbox id: %s\n"
                  "  from:       %s\n"
                  "  message-id: %s\n"
                  "  last error: %s\n\n"
                  "It is kept, unread by the judge: in a Maildir inbox in "
                  "its folder %s, over IMAP flagged $DipjudgeQuarantine, "
                  "over POP3 left in the maildrop and skipped.  Nobody was "
                  "answered.  Look at it, fix what it trips on, and deliver "
                  "it again if it should be played.\n",
                  tries, id, res->sender[0] ? res->sender : "(unknown)",
                  res->message_id[0] ? res->message_id : "(none)",
                  res->error, DJ_MAILDIR_QUARANTINE);
    int rc = dj_admin_notice(dj_judge_store(j), cfg->admin_address,
                                  cfg->judge_name, "Message moved aside",
                                  &body, dj_judge_now(j));
    dj_buf_free(&body);
    return rc;
}

/*
 * A message failed, not for a busy database: count it.  True when it has
 * now failed max_tries times and was moved aside (the pass goes on).
 */
static bool poison(dj_judge *j, const dj_ingest_config *cfg, dj_fetcher *f,
                   const char *id, const dj_ingest_result *res)
{
    dj_store *st = dj_judge_store(j);
    int tries = 0, max = cfg->max_tries > 0 ? cfg->max_tries
                                            : DJ_INGEST_MAX_TRIES;
    int64_t now = dj_judge_now(j);
    if (dj_store_begin(st) < 0)
        return false;
    if (dj_store_mail_failure(st, id, res->error, now, now - 30 * 86400,
                              &tries) < 0 ||
        (tries >= max && (dj_store_mail_quarantined(st, id, now) < 0 ||
                          tell_admin(j, cfg, id, res, tries) < 0)) ||
        dj_store_commit(st) < 0) {
        dj_store_rollback(st);
        return false;
    }
    if (tries < max)
        return false;
    char err[256];
    /* Recorded first: a crash before the move is finished next pass. */
    dj_mail_status ms = dj_fetch_quarantine(f, id, err, sizeof err);
    return ms == DJ_MAIL_OK || ms == DJ_MAIL_GONE;
}

dj_mail_status dj_ingest_fetch(dj_judge *j, const dj_ingest_config *cfg,
                               dj_fetcher *f, size_t max,
                               dj_ingest_note_fn note, void *ud,
                               dj_ingest_pass *pass, char *err,
                               size_t errlen)
{
    memset(pass, 0, sizeof *pass);
    dj_fetch_item *items = NULL;
    size_t n = 0;
    dj_mail_status st = dj_fetch_list(f, max, &items, &n, err, errlen);
    if (st != DJ_MAIL_OK)
        return st;
    size_t max_size = cfg->max_size ? cfg->max_size : DJ_MSG_DEFAULT_MAX_SIZE;
    dj_buf raw;
    dj_buf_init(&raw);
    for (size_t i = 0; i < n && st == DJ_MAIL_OK; i++) {
        /* Moved aside before (POP3 keeps it; a crash may have left the
         * move undone): never read again. */
        if (dj_store_mail_is_quarantined(dj_judge_store(j), items[i].id) ==
            1) {
            char qerr[256];
            dj_fetch_quarantine(f, items[i].id, qerr, sizeof qerr);
            continue;
        }
        bool truncated = false;
        st = dj_fetch_read(f, items[i].id, max_size + 1, &raw, &truncated,
                           err, errlen);
        if (st == DJ_MAIL_GONE) { /* handled meanwhile by someone else */
            st = DJ_MAIL_OK;
            continue;
        }
        if (st != DJ_MAIL_OK)
            break;
        if (!dj_buf_ok(&raw)) {
            st = dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                              "out of memory reading message %s",
                              items[i].id);
            break;
        }
        pass->seen++;
        dj_ingest_result res;
        dj_ingest_message(j, cfg, raw.data, raw.len,
                          truncated || raw.len > max_size, &res);
        if (note)
            note(ud, items[i].id, &res);
        if (res.status == DJ_INGEST_RETRY && !res.busy &&
            poison(j, cfg, f, items[i].id, &res)) {
            pass->quarantined++;
            continue;
        }
        if (res.status == DJ_INGEST_RETRY) {
            pass->retry++;
            st = dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL,
                              "message %s left for later: %s", items[i].id,
                              res.error);
            break;
        }
        fault(cfg, "ingest-committed");
        st = dj_fetch_confirm(f, items[i].id, err, errlen);
        if (st == DJ_MAIL_GONE)
            st = DJ_MAIL_OK;
        if (st == DJ_MAIL_OK)
            pass->handled++;
    }
    dj_buf_free(&raw);
    free(items);
    return st;
}
