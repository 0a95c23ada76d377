/* SPDX-License-Identifier: MIT */
/*
 * blind_view.c — who sees what of a blind game (blind = yes): the viewer
 * a participant, a mail address or the session's reader
 * (dj_game_read_as) is, and the view a loaded game shows (pictures draw
 * it, the web and the JSON read it).  The master (and every reader of a
 * game that is not blind or is over) sees everything, a player its
 * power's view, observers and the public nothing.  The rule itself is
 * blind.c's; the results mail and HISTORY of a view are blind_mail.c's.
 * Uses nothing of the other files of the room, so that all may use it.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "game/blind.h"
#include "game/game_int.h"
#include "reader/interpret.h"

static bool everything(const game_view *v)
{
    return !v->g.blind || strcmp(v->g.state, "finished") == 0;
}

int gv_viewer(const game_view *v, const dj_participant_rec *p)
{
    if (everything(v))
        return DJ_BLIND_ALL;
    if (!p)
        return DJ_BLIND_NONE;
    if (strcmp(p->role, "master") == 0)
        return DJ_BLIND_ALL;
    if (strcmp(p->role, "player") == 0 && p->power >= 0 &&
        p->power < v->map->npowers)
        return p->power;
    return DJ_BLIND_NONE;
}

int gv_viewer_of_address(const game_view *v, const char *address)
{
    /* a list of addresses: the first one's (mail is queued one reader a row) */
    if (everything(v))
        return DJ_BLIND_ALL;
    int viewer = DJ_BLIND_NONE;
    size_t alen = address ? strcspn(address, ",") : 0;
    char first[DJ_EMAIL_MAX];
    if (alen >= sizeof first)
        return viewer;
    if (address)
        memcpy(first, address, alen);
    first[alen] = '\0';
    for (int i = 0; address && i < v->nparts; i++) {
        const dj_participant_rec *p = &v->parts[i];
        /* any of the participant's addresses (SET ADDRESS adds up to 3) */
        if (!gv_has_address(p, first) ||
            strcmp(p->status, "resigned") == 0 ||
            strcmp(p->status, "replaced") == 0)
            continue;
        int w = gv_viewer(v, p);
        if (w == DJ_BLIND_ALL)
            return w;
        if (w >= 0)
            viewer = w;
    }
    return viewer;
}

int gv_viewer_of_power(const game_view *v, int power)
{
    return everything(v) ? DJ_BLIND_ALL : power;
}

/* The place of "PREFIX<place>SUFFIX" (SUFFIX "" : to the end), or 0. */
static size_t place_in(const char *msg, const char *prefix,
                       const char *suffix, const char **place)
{
    size_t pl = strlen(prefix);
    if (strncmp(msg, prefix, pl) != 0)
        return 0;
    *place = msg + pl;
    const char *end = *suffix ? strstr(*place, suffix) : *place + strlen(*place);
    return end && (!*suffix || strcmp(end, suffix) == 0 ||
                   strncmp(end, " is not yours (", 15) == 0)
               ? (size_t)(end - *place)
               : 0;
}

void gv_blind_readings(const game_view *v, dj_reading *reads, int n)
{
    if (everything(v))
        return;
    /* the reader's refusals (reader/interpret_refuse.c), a foreign unit's
     * and an empty province's in the same words */
    static const struct {
        const char *prefix, *suffix, *as;
    } same[] = {
        {"the unit in ", " is not yours", "no unit"},
        {"no unit in ", "", "no unit"},
        {"the dislodged unit in ", " is not yours", "no dislodged unit"},
        {"no dislodged unit in ", "", "no dislodged unit"},
    };
    for (int i = 0; i < n; i++) {
        if (reads[i].kind != DJ_READ_ERROR)
            continue;
        for (size_t k = 0; k < sizeof same / sizeof same[0]; k++) {
            const char *place = NULL;
            size_t len = place_in(reads[i].message, same[k].prefix,
                                  same[k].suffix, &place);
            if (!len)
                continue;
            char msg[sizeof reads[i].message];
            snprintf(msg, sizeof msg, "%s of yours in %.*s", same[k].as,
                     (int)len, place);
            snprintf(reads[i].message, sizeof reads[i].message, "%s", msg);
            break;
        }
    }
}

void gv_view(game_view *v, int viewer)
{
    v->blinded = !everything(v) && viewer != DJ_BLIND_ALL;
    v->viewer = v->blinded ? viewer : DJ_BLIND_ALL;
}

/* ---- reads shown to somebody ------------------------------------------------ */

void dj_game_read_as(dj_judge *j, const dj_signon *id)
{
    j->reader = id && id->participant_id > 0 ? 1 : 2;
    j->reader_pid = id ? id->participant_id : 0;
}

void dj_game_read_all(dj_judge *j)
{
    j->reader = 0;
    j->reader_pid = 0;
}

void gv_view_reader(const dj_judge *j, game_view *v)
{
    if (j->reader == 0) {
        gv_view(v, DJ_BLIND_ALL);
        return;
    }
    const dj_participant_rec *me = NULL;
    for (int i = 0; j->reader == 1 && i < v->nparts; i++)
        if (v->parts[i].id == j->reader_pid &&
            strcmp(v->parts[i].status, "resigned") != 0 &&
            strcmp(v->parts[i].status, "replaced") != 0)
            me = &v->parts[i];
    gv_view(v, gv_viewer(v, me));
}

