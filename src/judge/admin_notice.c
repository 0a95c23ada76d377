/* SPDX-License-Identifier: MIT */
/*
 * admin_notice.c — a notice to the admin queued in the outbox.  See
 * admin_notice.h.
 */
#include "judge/admin_notice.h"

#include "game/pictures.h"
#include "store/mail.h"

int dj_admin_notice(dj_store *s, const char *admin, const char *judge_name,
                    const char *what, const dj_buf *body, int64_t now)
{
    if (!admin || !admin[0])
        return 0;
    dj_buf subject;
    dj_buf_init(&subject);
    dj_game_mail_subject(&subject, judge_name, NULL, NULL, what);
    int rc = dj_buf_ok(&subject) && dj_buf_ok(body)
                 ? dj_store_outbox_add(s, 0, 0, DJ_ADMIN_NOTICE_KIND, admin,
                                       subject.data, body->data, now)
                 : -1;
    dj_buf_free(&subject);
    return rc;
}
