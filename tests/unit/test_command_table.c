/* SPDX-License-Identifier: MIT */
/*
 * test_command_table.c — the one table of mail commands
 * (src/command/table.c) against what players read: every row has its
 * HELP line and its entry in dipjudge(7), HELP lists exactly the table's
 * rows, and every row's spellings read back as that row.  Run as
 * `test_command_table SRCDIR`.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command/command.h"
#include "command/table.h"
#include "testlib.h"

/* The man page's lines that name a command (.B, .BI, .BR, .TP-ed), with
 * quotes and font escapes taken out: "SET MAP  format". */
static char *man_names(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *all = malloc(cap), line[1024];
    all[0] = '\0';
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, ".B", 2) != 0)
            continue;
        char clean[1024];
        size_t k = 0;
        const char *from = line + strcspn(line, " \n");
        while (*from == ' ')
            from++;
        for (const char *p = from; *p && k + 1 < sizeof clean; p++) {
            if (*p == '"')
                continue;
            if (*p == '\\' && p[1] == 'f' && p[2]) {
                p += 2;
                continue;
            }
            if (*p == '\\' && p[1] == '-') {
                clean[k++] = '-';
                p++;
                continue;
            }
            clean[k++] = *p;
        }
        clean[k] = '\0';
        if (len + k + 2 > cap) {
            cap *= 2;
            all = realloc(all, cap);
        }
        memcpy(all + len, "\n", 2);
        len += 1;
        memcpy(all + len, clean, k + 1);
        len += k;
    }
    fclose(f);
    return all;
}

/* Does the man page have a line starting with the command's name? */
static bool in_man(const char *man, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strchr(man, '\n'); p; p = strchr(p + 1, '\n'))
        if (strncmp(p + 1, name, n) == 0 &&
            (p[1 + n] == ' ' || p[1 + n] == '\n' || p[1 + n] == '\0'))
            return true;
    return false;
}

static void test_rows(const char *man)
{
    for (size_t i = 0; i < cmd_table_len; i++) {
        const cmd_spec *r = &cmd_table[i];
        bool help = r->help && *r->help && r->usage &&
                    strncmp(r->usage, r->name, strlen(r->name)) == 0;
        if (!help)
            fprintf(stderr, "row %s: no help, or a usage not starting "
                            "with its name\n",
                    r->name);
        CHECK(help);
        bool documented = man && in_man(man, r->name);
        if (!documented)
            fprintf(stderr, "row %s: no entry in dipjudge(7)\n", r->name);
        CHECK(documented);
        CHECK(r->parse != NULL && r->run != NULL);
        CHECK(cmd_spec_of(r->kind) == r);
        CHECK_STR(cmd_name(r->kind), r->name);
        /* every spelling reads back as this row */
        const char *s = r->spellings ? r->spellings : r->name;
        while (*s) {
            size_t len = strcspn(s, "|");
            char line[128];
            snprintf(line, sizeof line, "%.*s", (int)len, s);
            words ws;
            cmd_words_split(line, &ws);
            int n = 0;
            bool same = cmd_spec_match(&ws, &n) == r && n == ws.n;
            if (!same)
                fprintf(stderr, "spelling '%s' is not row %s\n", line,
                        r->name);
            CHECK(same);
            s += len + (s[len] == '|');
        }
    }
}

/* HELP's command lines are exactly the rows' usages, each once. */
static void test_help(void)
{
    dj_buf help;
    dj_buf_init(&help);
    dj_command_help(&help);
    int *seen = calloc(cmd_table_len, sizeof *seen);
    int lines = 0;
    for (const char *l = help.data; *l;) {
        size_t n = strcspn(l, "\n");
        /* "  USAGE   help": two spaces, then a capital letter */
        if (n > 3 && l[0] == ' ' && l[1] == ' ' && l[2] >= 'A' &&
            l[2] <= 'Z') {
            lines++;
            bool found = false;
            for (size_t i = 0; i < cmd_table_len; i++) {
                size_t ul = strlen(cmd_table[i].usage);
                if (ul <= n - 2 && strncmp(l + 2, cmd_table[i].usage, ul) == 0 &&
                    (l[2 + ul] == ' ' || l[2 + ul] == '\n')) {
                    seen[i]++;
                    found = true;
                    break;
                }
            }
            if (!found)
                fprintf(stderr, "HELP line not in the table: %.*s\n", (int)n,
                        l);
            CHECK(found);
        }
        l += n + (l[n] == '\n');
    }
    for (size_t i = 0; i < cmd_table_len; i++) {
        if (seen[i] != 1)
            fprintf(stderr, "HELP lists %s %d times\n", cmd_table[i].name,
                    seen[i]);
        CHECK(seen[i] == 1);
    }
    CHECK(lines == (int)cmd_table_len);
    free(seen);
    dj_buf_free(&help);
}

/* EXTEND (issue 37) is a phase's vote like WAIT: the web's order box
 * takes it; a draw vote still needs the account form. */
static void test_doors(void)
{
    char what[64];
    CHECK(dj_command_web_form("EXTEND\n", what, sizeof what) ==
          DJ_WEB_FORM_ORDERS);
    CHECK(dj_command_web_form("SET EXTEND\n", what, sizeof what) ==
          DJ_WEB_FORM_ORDERS);
    CHECK(dj_command_web_form("SET DRAW\n", what, sizeof what) ==
          DJ_WEB_FORM_ACCOUNT);
    /* SET PREFERENCE (issue 37): the account form carries it, with the
     * password again; it is no setting of the master's */
    CHECK(dj_command_web_form("SET PREFERENCE England, France, *\n", what,
                              sizeof what) == DJ_WEB_FORM_ACCOUNT);
    CHECK_STR(what, "SET PREFERENCE");
    /* the master's desk (issue 38): the game's clock and settings on the
     * session; EJECT and REPLACE with the password; never mixed */
    static const char *const desk[] = {
        "PROCESS\n",          "PAUSE\n",       "RESUME\n",
        "SET DEADLINE +2d\n", "SET PRESS grey\n", "ROLLBACK S1901M\n",
        "ROLLFORWARD\n"};
    for (size_t i = 0; i < sizeof desk / sizeof desk[0]; i++)
        CHECK(dj_command_web_form(desk[i], what, sizeof what) ==
              DJ_WEB_FORM_DESK);
    CHECK(dj_command_web_form("PROCESS\n", what, sizeof what) ==
              DJ_WEB_FORM_DESK &&
          strcmp(what, "PROCESS") == 0);
    CHECK(dj_command_web_form("EJECT France\n", what, sizeof what) ==
          DJ_WEB_FORM_ACCOUNT);
    CHECK(dj_command_web_form("REPLACE France new@example.org\n", what,
                              sizeof what) == DJ_WEB_FORM_ACCOUNT);
    CHECK(dj_command_web_form("SET PASSWORD x\n", what, sizeof what) ==
          DJ_WEB_FORM_ACCOUNT);
    CHECK(dj_command_web_form("SET DEADLINE +2d\nPROCESS\n", what,
                              sizeof what) == DJ_WEB_FORM_DESK);
    CHECK(dj_command_web_form("PROCESS\nA par-bur\n", what, sizeof what) ==
          DJ_WEB_FORM_MAIL);
    CHECK(dj_command_web_form("A par-bur\nPROCESS\n", what, sizeof what) ==
          DJ_WEB_FORM_MAIL);
    CHECK(dj_command_web_form("PAUSE\nEJECT France\n", what, sizeof what) ==
          DJ_WEB_FORM_MAIL);
    CHECK(dj_command_web_form("EJECT France\nPAUSE\n", what, sizeof what) ==
          DJ_WEB_FORM_MAIL);
    CHECK(dj_command_web_form("SIGNON Mdemo pw\nPROCESS\n", what,
                              sizeof what) == DJ_WEB_FORM_MAIL);
}

int main(int argc, char **argv)
{
    const char *srcdir = test_srcdir(argc, argv);
    char path[1024];
    snprintf(path, sizeof path, "%s/man/dipjudge.7", srcdir);
    char *man = man_names(path);
    CHECK(man != NULL);
    test_rows(man);
    test_help();
    test_doors();
    free(man);
    return test_summary();
}
