/*
 * fuzz_casefile.c — the DATC case-file reader (jDip's dialect too) on
 * arbitrary files: every case read or refused with file:line, none
 * crashing the reader, however the file ends; and the file read again by
 * the general reader alone (dj_casefile_general_only) gives the same cases
 * and messages as with the quick reader in front.  An input of odd length
 * is read by the quick reader 1 to 128 bytes at a time (its first byte
 * says how many), so that read-ahead chunks end inside its lines.
 */
#include "fuzzlib.h"

#include "casefile/casefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], mapdir[2048], err[DJ_CASE_ERR_MAX], gerr[DJ_CASE_ERR_MAX];
    int fd = fuzz_as_file(data, size, path, sizeof path);
    snprintf(mapdir, sizeof mapdir, "%s/maps", fuzz_srcdir());
    dj_casefile *cf = dj_casefile_open(path, mapdir, err, sizeof err);
    dj_casefile *gf = dj_casefile_open(path, mapdir, gerr, sizeof gerr);
    if (!cf != !gf)
        abort();
    if (gf)
        dj_casefile_general_only(gf);
    if (cf && size % 2 == 1)
        dj_casefile_read_chunk(cf, 1 + (size_t)data[0] % 128);
    dj_case *c = malloc(sizeof *c), *g = malloc(sizeof *g);
    if (!c || !g)
        abort();
    for (int n = 0; cf && n < 10000; n++) {
        dj_case_status st = dj_casefile_next(cf, c, err, sizeof err);
        dj_case_status gst = dj_casefile_next(gf, g, gerr, sizeof gerr);
        if (st != gst) /* the quick reader read it differently */
            abort();
        if (st == DJ_CASE_EOF)
            break;
        if (st == DJ_CASE_ERROR && (!strstr(err, path) || strcmp(err, gerr)))
            abort(); /* an error names the file, the same both ways */
        if (st == DJ_CASE_OK && dj_case_differs(c, g, NULL, 0) < 0)
            abort();
    }
    free(c);
    free(g);
    dj_casefile_close(cf);
    dj_casefile_close(gf);
    close(fd);
    return 0;
}
