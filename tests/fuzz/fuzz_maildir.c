/*
 * fuzz_maildir.c — Maildir message names as another process may leave
 * them in new/ and cur/: dj_maildir_id_ok decides which the judge will
 * touch; a name it accepts never climbs out of the directory.
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
    free(name);
    return 0;
}
