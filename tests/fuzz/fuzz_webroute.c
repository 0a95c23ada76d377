/* SPDX-License-Identifier: MIT */
/*
 * fuzz_webroute.c — judgeweb's router on any request path, walking the
 * real route table (src/web/route_table.c): the first byte chooses the
 * method (GET, HEAD, POST or another), the rest is the path as the server
 * hands it over (percent-decoded, so any byte).  What comes out must be a
 * row of the table that takes the method, with a game name and phase of
 * the shapes the pages rely on wherever its pattern has NAME or PHASE; or
 * a 405 with its Allow; or not found.
 */
#include "fuzzlib.h"

#include <ctype.h>

#include "web/web_int.h"

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
    dj_route_result k =
        dj_route_match(web_routes, web_routes_len, method, path, size - 1, &r);
    if (strlen(r.game) >= DJ_ROUTE_GAME_MAX ||
        strlen(r.phase) >= DJ_ROUTE_PHASE_MAX)
        abort();
    for (const char *p = r.game; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
            abort();
    for (const char *p = r.phase; *p; p++)
        if (!isdigit((unsigned char)*p) && !isupper((unsigned char)*p))
            abort();
    if ((k == DJ_ROUTE_FOUND) != (r.row != NULL))
        abort();
    if ((k == DJ_ROUTE_METHOD) != (r.allow != NULL))
        abort();
    if (k == DJ_ROUTE_FOUND) {
        if (r.row < web_routes || r.row >= web_routes + web_routes_len ||
            !r.row->run)
            abort();
        unsigned m = strcmp(method, "POST") == 0 ? DJ_ROUTE_POST
                                                 : DJ_ROUTE_GET;
        if (!(r.row->methods & m))
            abort();
        if (strstr(r.row->pattern, "NAME") && !r.game[0])
            abort();
        if (strstr(r.row->pattern, "PHASE") && !r.phase[0])
            abort();
    }
    free(path);
    return 0;
}
