/* SPDX-License-Identifier: MIT */
/*
 * fuzz_webroute.c — judgeweb's router on any request path: the first
 * byte chooses the method (GET, HEAD, POST or another), the rest is the
 * path as the server hands it over (percent-decoded, so any byte).  What
 * comes out must be a route whose game name and phase have the shapes the
 * pages rely on.
 */
#include "fuzzlib.h"

#include <ctype.h>

#include "web/route.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const char *const methods[] = {"GET", "HEAD", "POST", "PUT",
                                          "DELETE", "OPTIONS", "", "get"};
    const char *method = methods[data[0] % 8];
    char *path = malloc(size);
    if (!path)
        abort();
    memcpy(path, data + 1, size - 1);
    dj_route r;
    dj_route_kind k = dj_route_parse(method, path, size - 1, &r);
    if (k != r.kind)
        abort();
    if (strlen(r.game) >= DJ_ROUTE_GAME_MAX ||
        strlen(r.phase) >= DJ_ROUTE_PHASE_MAX)
        abort();
    for (const char *p = r.game; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
            abort();
    for (const char *p = r.phase; *p; p++)
        if (!isdigit((unsigned char)*p) && !isupper((unsigned char)*p))
            abort();
    bool needs_game = k == DJ_ROUTE_GAME || k == DJ_ROUTE_GAME_JSON ||
                      k == DJ_ROUTE_PRESS || k == DJ_ROUTE_PHASE ||
                      k == DJ_ROUTE_BOARD_SVG || k == DJ_ROUTE_ORDERS_SVG ||
                      k == DJ_ROUTE_ORDERS ||
                      k == DJ_ROUTE_READY || k == DJ_ROUTE_SEND_PRESS ||
                      k == DJ_ROUTE_ACCOUNT;
    if (k == DJ_ROUTE_METHOD && !r.allow)
        abort();
    if (needs_game && !r.game[0])
        abort();
    if ((k == DJ_ROUTE_PHASE || k == DJ_ROUTE_BOARD_SVG ||
         k == DJ_ROUTE_ORDERS_SVG) && !r.phase[0])
        abort();
    free(path);
    return 0;
}
