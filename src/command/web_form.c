/* SPDX-License-Identifier: MIT */
/*
 * web_form.c — which of the web door's forms a message may be sent from
 * (dj_command_web_form, see command.h): the message read as the judge will
 * read it (parse.c), each command's door looked up in the table
 * (table.c's cmd_door_of).  A file of its own so that the table, which
 * the reader looks lines up in, calls nothing of the reader: the folder's
 * files stand on one another without a circle.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "command/command.h"
#include "command/parse.h"
#include "command/table.h"
#include "util/buf.h"

dj_web_form dj_command_web_form(const char *text, char *what, size_t whatlen)
{
    if (whatlen)
        what[0] = '\0';
    cmd_reader r;
    cmd_reader_init(&r, NULL, text ? text : "");
    cmd *c = malloc(sizeof *c);
    if (!c)
        return DJ_WEB_FORM_MAIL;
    dj_buf press;
    dj_buf_init(&press);
    bool orders = false, account = false, mail = false, desk = false;
    while (!mail && cmd_next(&r, c, &press)) {
        dj_buf_reset(&press);
        if (c->kind == CMD_BAD) /* refused when run, whatever it was */
            continue;
        const cmd_spec *spec = cmd_spec_of(c->kind);
        cmd_door door = cmd_door_of(c->kind);
        if (door == CMD_DOOR_MAIL || (door == CMD_DOOR_ACCOUNT && orders) ||
            (door == CMD_DOOR_ORDERS && account) ||
            (door == CMD_DOOR_DESK && (orders || account)) ||
            (door != CMD_DOOR_DESK && desk)) {
            mail = true;
            if (whatlen)
                snprintf(what, whatlen, "%s",
                         spec ? spec->name : cmd_name(c->kind));
        }
        orders |= door == CMD_DOOR_ORDERS;
        account |= door == CMD_DOOR_ACCOUNT;
        desk |= door == CMD_DOOR_DESK;
        if ((door == CMD_DOOR_ACCOUNT || door == CMD_DOOR_DESK) && whatlen &&
            !mail)
            snprintf(what, whatlen, "%s", spec ? spec->name : "");
    }
    dj_buf_free(&press);
    free(c);
    if (mail)
        return DJ_WEB_FORM_MAIL;
    if (desk)
        return DJ_WEB_FORM_DESK;
    return account ? DJ_WEB_FORM_ACCOUNT : DJ_WEB_FORM_ORDERS;
}
