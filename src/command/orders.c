/* SPDX-License-Identifier: MIT */
/*
 * orders.c — a message's order lines: gathered, read together by the
 * order reader, filed, and echoed each with what was read from it.
 *
 * Order lines are not sent to the game one by one: consecutive order
 * lines are gathered and read together when the next command (or the end)
 * comes, because the order reader decides better with all of a power's
 * orders in view ("not a unit already ordered on another line").
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command/session.h"
#include "game/game.h"
#include "game/orders.h"
#include "store/store.h"

/* ---- orders ------------------------------------------------------------------------ */

void cmd_batch_free(session *s)
{
    for (int i = 0; i < s->nbatch; i++) {
        free(s->batch[i].text);
        free(s->batch[i].echo);
    }
    s->nbatch = 0;
}

static void echo_reading(session *s, const dj_reading *r)
{
    dj_buf *o = cmd_say(s);
    switch (r->kind) {
    case DJ_READ_OK:
        dj_buf_printf(o, INDENT "%s", r->text);
        if (r->message[0])
            dj_buf_printf(o, "  (%s)", r->message);
        dj_buf_append(o, "\n");
        break;
    case DJ_READ_ERROR:
        /* 4.D.3 c: the unit's orders are all void and a hold (in a
         * retreat, a disband) is filed for it: say that, not "not
         * accepted" */
        if (r->stands_instead && r->text[0])
            dj_buf_printf(o, INDENT "ERROR: %s; filed instead: %s\n",
                          r->message, r->text);
        else
            dj_buf_printf(o, INDENT "ERROR: %s; not accepted\n", r->message);
        break;
    case DJ_READ_AMBIGUOUS:
        dj_buf_printf(o, INDENT "AMBIGUOUS: %s; not accepted (could be: ",
                      r->message);
        for (int k = 0; k < r->ncandidates; k++)
            dj_buf_printf(o, "%s%s", k ? " | " : "", r->candidates[k]);
        dj_buf_append(o, ")\n");
        break;
    case DJ_READ_PROSE: /* listed apart, see cmd_note_not_read */
        break;
    }
}

void cmd_note_not_read(session *s, const char *echoed)
{
    char shown[CMD_LINE_MAX];
    snprintf(shown, sizeof shown, "%s", echoed);
    cmd_mask_in(s, shown);
    cmd_mask_signon_words(s, shown);
    dj_buf_printf(&s->not_read, "  %s\n", shown);
}

/* Echo the batch's lines, each followed by what was read from it (the
 * readings' line is the message's line number - 1, see flush_batch). */
static void echo_batch(session *s, const dj_reading *reads, int n)
{
    int k = 0;
    for (int i = 0; i < s->nbatch; i++) {
        while (k < n && reads[k].line < s->batch[i].line - 1)
            k++; /* cannot happen: every reading comes from a batch line */
        int first = k, last = k;
        while (last < n && reads[last].line == s->batch[i].line - 1)
            last++;
        if (last - first == 1 && reads[first].kind == DJ_READ_PROSE) {
            /* a greeting, a sign-off: listed once at the end, no error */
            cmd_note_not_read(s, s->batch[i].echo);
            k = last;
            continue;
        }
        char shown[CMD_LINE_MAX];
        snprintf(shown, sizeof shown, "%s", s->batch[i].echo);
        cmd_mask_in(s, shown);
        dj_buf_printf(cmd_say(s), "> %s\n", shown);
        bool any = false;
        for (; k < last; k++) {
            echo_reading(s, &reads[k]);
            any = true;
            s->reply->commands++;
            if (reads[k].kind == DJ_READ_OK) {
                s->orders_taken++;
            } else {
                s->reply->failed++;
                s->orders_refused++;
            }
        }
        if (!any)
            dj_buf_append(cmd_say(s), INDENT "(no order found on this line)\n");
    }
}

/*
 * Read and file the gathered order lines.  They go to the reader at the
 * index of their line in the message (every other line empty, which the
 * reader skips), so that what it says about "lines 3 and 5" means the
 * lines of the message as the player wrote it.
 */
void cmd_flush_batch(session *s)
{
    if (s->nbatch == 0 || s->fatal)
        return;
    int nlines = s->batch[s->nbatch - 1].line;
    const char **lines = malloc(sizeof *lines * (size_t)(nlines + 1));
    dj_reading *reads = malloc(sizeof *reads * DJ_READ_MAX_ORDERS);
    int n = 0;
    if (!reads || !lines) {
        s->fatal = true;
        free(lines);
        free(reads);
        cmd_batch_free(s);
        return;
    }
    for (int i = 0; i < nlines; i++)
        lines[i] = "";
    for (int i = 0; i < s->nbatch; i++)
        lines[s->batch[i].line - 1] = s->batch[i].text;
    int rc = dj_game_submit_orders(s->j, s->game, s->power, lines, nlines,
                                   cmd_order_source(s), reads,
                                   DJ_READ_MAX_ORDERS, &n);
    free(lines);
    if (n > DJ_READ_MAX_ORDERS)
        n = DJ_READ_MAX_ORDERS;
    if (rc < 0) {
        for (int i = 0; i < s->nbatch; i++) {
            cmd_mask_in(s, s->batch[i].echo);
            dj_buf_printf(cmd_say(s), "> %s\n", s->batch[i].echo);
        }
        dj_buf_printf(cmd_say(s),
                      INDENT "ERROR: %s; these lines were not read "
                             "as orders\n",
                      dj_judge_error(s->j));
        s->reply->failed += s->nbatch;
        s->reply->commands += s->nbatch;
    } else {
        echo_batch(s, reads, n);
        s->reply->orders = true;
    }
    s->status_due = true;
    free(reads);
    cmd_batch_free(s);
    if (!dj_store_transaction_alive(cmd_session_store(s)))
        s->fatal = true;
}

void cmd_batch_add(session *s, const cmd *c)
{
    if (s->nbatch == MAX_BATCH)
        cmd_flush_batch(s);
    batch_line *b = &s->batch[s->nbatch];
    b->line = c->line;
    b->text = strdup(c->text);
    char shown[CMD_LINE_MAX];
    snprintf(shown, sizeof shown, "%s", c->echo);
    cmd_mask_signon_words(s, shown);
    b->echo = strdup(shown);
    if (!b->text || !b->echo) {
        free(b->text);
        free(b->echo);
        s->fatal = true;
        return;
    }
    s->nbatch++;
}

