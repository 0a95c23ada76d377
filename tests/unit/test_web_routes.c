/* SPDX-License-Identifier: MIT */
/*
 * test_web_routes.c — the one table of judgeweb's routes
 * (src/web/route_table.c) against what its readers are told: every row's
 * path and method is an entry of judgeweb(8)'s PAGES and every entry
 * there is a row, as test_command_table holds the command table to
 * dipjudge(7).  And the table is one a server can walk: every row has a
 * pattern the matcher reads and a function, each row's path comes back
 * as that row for each of its methods (HEAD as GET), another method is
 * 405 with the path's methods in Allow, and a path of no row is 404.
 * Run as `test_web_routes SRCDIR`.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "web/web_int.h"

#define MAX_ENTRIES 64

/* An entry of PAGES: "GET /game/NAME/press" or "POST /signout". */
typedef struct entry {
    char text[200];
    int seen;
} entry;

/* A man line's text with the macro, quotes and font escapes taken out:
 * ".BI \"POST /game/\" NAME /orders" -> "POST /game/NAME/orders". */
static void plain(const char *line, char *out, size_t len)
{
    size_t k = 0;
    /* .B and .I set their words as written; .BI, .BR ... alternate fonts
     * between words set without a space */
    bool alternate = line[0] == '.' && line[1] && line[2] != ' ';
    const char *p = line + strcspn(line, " \n");
    while (*p == ' ')
        p++;
    bool quoted = false;
    for (; *p && *p != '\n' && k + 1 < len; p++) {
        if (*p == '"') {
            quoted = !quoted;
            continue;
        }
        if (*p == ' ' && !quoted && alternate)
            continue;
        if (*p == '\\' && p[1] == 'f' && p[2]) {
            p += 2;
            continue;
        }
        if (*p == '\\' && p[1] == '-') {
            out[k++] = '-';
            p++;
            continue;
        }
        out[k++] = *p;
    }
    out[k] = '\0';
}

/* The tags of PAGES' .TP and .TQ entries that are paths, with their
 * method ("GET" unless the tag names one). */
static int man_entries(const char *path, entry *e, int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024];
    bool in_pages = false, tag_next = false;
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, ".SH", 3) == 0) {
            in_pages = strncmp(line, ".SH PAGES", 9) == 0;
            continue;
        }
        if (!in_pages)
            continue;
        if (strncmp(line, ".TP", 3) == 0 || strncmp(line, ".TQ", 3) == 0) {
            tag_next = true;
            continue;
        }
        if (!tag_next)
            continue;
        tag_next = false;
        char text[160];
        plain(line, text, sizeof text);
        const char *slash = strchr(text, '/');
        if (!slash || n == max)
            continue;
        if (slash == text)
            snprintf(e[n].text, sizeof e[n].text, "GET %s", text);
        else
            snprintf(e[n].text, sizeof e[n].text, "%.*s %s",
                     (int)(slash - text - 1), text, slash);
        e[n++].seen = 0;
    }
    fclose(f);
    return n;
}

/* The row's methods, by name. */
static const char *const method_names[] = {"GET", "POST"};
static const unsigned method_bits[] = {DJ_ROUTE_GET, DJ_ROUTE_POST};

static void test_man(entry *e, int n)
{
    for (size_t i = 0; i < web_routes_len; i++) {
        const dj_route_row *r = &web_routes[i];
        for (int m = 0; m < 2; m++) {
            if (!(r->methods & method_bits[m]))
                continue;
            char want[160];
            snprintf(want, sizeof want, "%s %s", method_names[m], r->pattern);
            bool found = false;
            for (int k = 0; k < n; k++)
                if (strcmp(e[k].text, want) == 0) {
                    e[k].seen++;
                    found = true;
                }
            if (!found)
                fprintf(stderr, "row %s: not in judgeweb(8)'s PAGES\n", want);
            CHECK(found);
        }
    }
    for (int k = 0; k < n; k++) {
        if (e[k].seen != 1)
            fprintf(stderr, "judgeweb(8)'s PAGES lists %s, %d rows have it\n",
                    e[k].text, e[k].seen);
        CHECK(e[k].seen == 1);
    }
    CHECK(n >= (int)web_routes_len);
}

/* The row's pattern as a path: NAME a game, PHASE a phase in lower case. */
static void instance(const char *pattern, char *out, size_t len)
{
    size_t k = 0;
    for (const char *p = pattern; *p && k + 8 < len;) {
        if (strncmp(p, "NAME", 4) == 0) {
            memcpy(out + k, "G_1-x", 5);
            k += 5;
            p += 4;
        } else if (strncmp(p, "PHASE", 5) == 0) {
            memcpy(out + k, "f1902r", 6);
            k += 6;
            p += 5;
        } else {
            out[k++] = *p++;
        }
    }
    out[k] = '\0';
}

/* The methods of every row with this pattern. */
static unsigned methods_of(const char *pattern)
{
    unsigned m = 0;
    for (size_t i = 0; i < web_routes_len; i++)
        if (strcmp(web_routes[i].pattern, pattern) == 0)
            m |= web_routes[i].methods;
    return m;
}

static void test_rows(void)
{
    CHECK(web_routes_len > 0);
    for (size_t i = 0; i < web_routes_len; i++) {
        const dj_route_row *r = &web_routes[i];
        bool ok = dj_route_pattern_ok(r->pattern);
        if (!ok)
            fprintf(stderr, "row %s: a pattern the matcher cannot read\n",
                    r->pattern);
        CHECK(ok);
        CHECK(r->run != NULL);
        CHECK(r->methods != 0 &&
              (r->methods & ~(unsigned)(DJ_ROUTE_GET | DJ_ROUTE_POST)) == 0);
        CHECK(r->who == DJ_WHO_STATIC || r->who == DJ_WHO_ANYONE ||
              r->who == DJ_WHO_SIGNED_IN || r->who == DJ_WHO_IN_GAME);
        /* a form's POST is never static: it has a CSRF token to check */
        CHECK(!(r->methods & DJ_ROUTE_POST) || r->who != DJ_WHO_STATIC);
        /* a row needing the path's game has NAME in its path */
        CHECK(r->who != DJ_WHO_IN_GAME || strstr(r->pattern, "NAME"));

        char path[200];
        instance(r->pattern, path, sizeof path);
        static const char *const methods[] = {"GET", "HEAD", "POST"};
        static const unsigned bits[] = {DJ_ROUTE_GET, DJ_ROUTE_GET,
                                        DJ_ROUTE_POST};
        for (int m = 0; m < 3; m++) {
            if (!(r->methods & bits[m]))
                continue;
            dj_route got;
            dj_route_result k = dj_route_match(web_routes, web_routes_len,
                                               methods[m], path,
                                               strlen(path), &got);
            bool same = k == DJ_ROUTE_FOUND && got.row == r;
            if (!same)
                fprintf(stderr, "%s %s: not row %s\n", methods[m], path,
                        r->pattern);
            CHECK(same);
            if (strstr(r->pattern, "NAME"))
                CHECK_STR(got.game, "G_1-x");
            if (strstr(r->pattern, "PHASE"))
                CHECK_STR(got.phase, "F1902R");
        }
        /* another method: 405, Allow naming every method of the path */
        unsigned all = methods_of(r->pattern);
        const char *want = all == DJ_ROUTE_GET    ? "GET, HEAD"
                           : all == DJ_ROUTE_POST ? "POST"
                                                  : "GET, HEAD, POST";
        static const char *const others[] = {"PUT", "DELETE", "get", "",
                                             "GET", "POST"};
        for (int m = 0; m < 6; m++) {
            if ((strcmp(others[m], "GET") == 0 && (all & DJ_ROUTE_GET)) ||
                (strcmp(others[m], "POST") == 0 && (all & DJ_ROUTE_POST)))
                continue;
            dj_route got;
            CHECK(dj_route_match(web_routes, web_routes_len, others[m], path,
                                 strlen(path), &got) == DJ_ROUTE_METHOD);
            CHECK(got.row == NULL);
            CHECK_STR(got.allow ? got.allow : "(none)", want);
        }
        dj_route got;
        CHECK(dj_route_match(web_routes, web_routes_len, NULL, path,
                             strlen(path), &got) == DJ_ROUTE_METHOD);
    }
}

/* Paths of no row: 404 whatever the method. */
static void test_not_found(void)
{
    static const char *const paths[] = {
        "", "x", "/x", "//", "/game", "/game/", "/game/g/", "/game//press",
        "/game/g//press", "/game/bad.name", "/game/g.JSON", "/game/.json",
        "/Game/g", "/game/g/S1901M/", "/game/g/S1901M/board.svg/x",
        "/game/g/X1901M", "/game/g/S19x1M", "/game/g/S1901Q", "/game/g/S1901",
        "/game/g/S123456M", "/game/g/SIGNIN", "/game/g/PRESS",
        "/game/g/S1901M/board.png", "/style.css/", "/STYLE.CSS", "/signin/",
        "/game/123456789012345678901234567890123",
        "/game/g/press/x", "/a/b/c/d/e", "/game/g/S1901M/board.svg/x/y"};
    static const char *const methods[] = {"GET", "POST", "PUT"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        for (int m = 0; m < 3; m++) {
            dj_route got;
            dj_route_result k =
                dj_route_match(web_routes, web_routes_len, methods[m],
                               paths[i], strlen(paths[i]), &got);
            if (k != DJ_ROUTE_NOT_FOUND)
                fprintf(stderr, "%s '%s': found\n", methods[m], paths[i]);
            CHECK(k == DJ_ROUTE_NOT_FOUND);
            CHECK(got.row == NULL && got.allow == NULL);
        }
    /* a NUL inside the path is a byte like any other, not an end */
    dj_route got;
    CHECK(dj_route_match(web_routes, web_routes_len, "GET", "/\0", 2, &got) ==
          DJ_ROUTE_NOT_FOUND);
    CHECK(dj_route_match(web_routes, web_routes_len, "GET", "/game/g\0x", 9,
                         &got) == DJ_ROUTE_NOT_FOUND);
    /* the longest game name is 32 */
    CHECK(dj_route_match(web_routes, web_routes_len, "GET",
                         "/game/12345678901234567890123456789012", 38,
                         &got) == DJ_ROUTE_FOUND);
    CHECK(dj_route_game_name("abc", 3) && !dj_route_game_name("a.b", 3) &&
          !dj_route_game_name("", 0));
}

/* Patterns the matcher refuses, so a typo in a row is caught. */
static void test_patterns(void)
{
    CHECK(dj_route_pattern_ok("/"));
    CHECK(dj_route_pattern_ok("/game/NAME.json"));
    CHECK(!dj_route_pattern_ok(""));
    CHECK(!dj_route_pattern_ok("game"));
    CHECK(!dj_route_pattern_ok("/game/"));
    CHECK(!dj_route_pattern_ok("//x"));
    CHECK(!dj_route_pattern_ok("/game/Name"));
    CHECK(!dj_route_pattern_ok("/game/{game}"));
}

int main(int argc, char **argv)
{
    const char *srcdir = test_srcdir(argc, argv);
    char path[1024];
    snprintf(path, sizeof path, "%s/man/judgeweb.8", srcdir);
    entry e[MAX_ENTRIES];
    int n = man_entries(path, e, MAX_ENTRIES);
    CHECK(n > 0);
    test_rows();
    test_not_found();
    test_patterns();
    if (n > 0)
        test_man(e, n);
    return test_summary();
}
