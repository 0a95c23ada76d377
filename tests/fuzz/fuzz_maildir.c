/* SPDX-License-Identifier: MIT */
/*
 * fuzz_maildir.c — Maildir message names as another process may leave
 * them in new/ and cur/: dj_maildir_id_ok decides which the judge will
 * touch; a name it accepts never climbs out of the directory.  The input
 * cut at its first NUL, and the rest, are two (or three) names for the
 * arrival order (dj_maildir_name_cmp): it must be an order, antisymmetric
 * and transitive, and equal only for equal names.
 */
#include "fuzzlib.h"

#include "mail/maildir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *name = fuzz_string(data, size);
    if (dj_maildir_id_ok(name) &&
        (strchr(name, '/') || strcmp(name, "..") == 0 ||
         strcmp(name, ".") == 0 || name[0] == '\0'))
        abort();
    size_t la = strlen(name);
    const char *b = la < size ? name + la + 1 : "";
    size_t lb = strlen(b);
    const char *c = la + 1 + lb < size ? b + lb + 1 : "1.M1";
    int ab = dj_maildir_name_cmp(name, b, 5, 7);
    int ba = dj_maildir_name_cmp(b, name, 7, 5);
    if ((ab > 0) != (ba < 0) || (ab == 0) != (ba == 0) ||
        (ab == 0 && strcmp(name, b) != 0) ||
        dj_maildir_name_cmp(name, name, 5, 5) != 0)
        abort();
    int bc = dj_maildir_name_cmp(b, c, 7, 9);
    int ac = dj_maildir_name_cmp(name, c, 5, 9);
    if (ab < 0 && bc < 0 && ac >= 0)
        abort();
    free(name);
    return 0;
}
