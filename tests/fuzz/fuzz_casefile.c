/* SPDX-License-Identifier: MIT */
/*
 * fuzz_casefile.c — the DATC case-file reader (jDip's dialect too) on
 * arbitrary files: every case read or refused with file:line, none
 * crashing the reader, however the file ends; and every case read is
 * checked by the adjudicator against what it expects, on each engine.
 */
#include "fuzzlib.h"

#include "casefile/casefile.h"
#include "casefile/check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], mapdir[2048], err[DJ_CASE_ERR_MAX];
    int fd = fuzz_as_file(data, size, path, sizeof path);
    snprintf(mapdir, sizeof mapdir, "%s/maps", fuzz_srcdir());
    dj_casefile *cf = dj_casefile_open(path, mapdir, err, sizeof err);
    dj_case *c = malloc(sizeof *c);
    dj_checker *ck = dj_checker_new();
    FILE *out = fopen("/dev/null", "w");
    if (!c || !ck || !out)
        abort();
    for (int n = 0; cf && n < 10000; n++) {
        dj_case_status st = dj_casefile_next(cf, c, err, sizeof err);
        if (st == DJ_CASE_EOF)
            break;
        if (st == DJ_CASE_ERROR && !strstr(err, path))
            abort(); /* an error names the file */
        if (st == DJ_CASE_OK)
            dj_check_case_with(ck, (dj_engine)(n % DJ_ENGINE_COUNT),
                               dj_casefile_map(cf), c, true, out);
    }
    fclose(out);
    dj_checker_free(ck);
    free(c);
    dj_casefile_close(cf);
    close(fd);
    return 0;
}
