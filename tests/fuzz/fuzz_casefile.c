/*
 * fuzz_casefile.c — the DATC case-file reader (jDip's dialect too) on
 * arbitrary files: every case read or refused with file:line, none
 * crashing the reader, however the file ends.
 */
#include "fuzzlib.h"

#include "casefile/casefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], mapdir[2048], err[DJ_CASE_ERR_MAX];
    int fd = fuzz_as_file(data, size, path, sizeof path);
    snprintf(mapdir, sizeof mapdir, "%s/maps", fuzz_srcdir());
    dj_casefile *cf = dj_casefile_open(path, mapdir, err, sizeof err);
    dj_case *c = malloc(sizeof *c);
    if (!c)
        abort();
    for (int n = 0; cf && n < 10000; n++) {
        dj_case_status st = dj_casefile_next(cf, c, err, sizeof err);
        if (st == DJ_CASE_EOF)
            break;
        if (st == DJ_CASE_ERROR && !strstr(err, path))
            abort(); /* an error names the file */
    }
    free(c);
    dj_casefile_close(cf);
    close(fd);
    return 0;
}
