/* SPDX-License-Identifier: MIT */
/*
 * participant_address.c — a participant's addresses read from its record:
 * the first (participants.email) and up to two more (SET ADDRESS adds
 * them, addresses.c).  Apart from the rest of the game room's context
 * (context.c) because every file that mails or recognises a reader asks
 * it, and it asks nothing of them.
 */
#include "game/game_int.h"

#include <string.h>
#include <strings.h>

bool gv_has_address(const dj_participant_rec *p, const char *a)
{
    if (!p || !a || !*a)
        return false;
    if (p->email[0] && strcasecmp(p->email, a) == 0)
        return true;
    for (int k = 0; k < p->nmore && k < DJ_ADDRESSES_MAX - 1; k++)
        if (strcasecmp(p->more[k], a) == 0)
            return true;
    return false;
}

int gv_address_count(const dj_participant_rec *p)
{
    return p->email[0] ? 1 + p->nmore : 0;
}

const char *gv_address_at(const dj_participant_rec *p, int k)
{
    return k == 0 ? p->email : p->more[k - 1];
}

void gv_address_list(const dj_participant_rec *p, dj_buf *out)
{
    for (int k = 0; k < gv_address_count(p); k++)
        dj_buf_printf(out, "%s%s", k ? ", " : "", gv_address_at(p, k));
}
