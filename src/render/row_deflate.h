/* SPDX-License-Identifier: MIT */
/*
 * row_deflate.h — a zlib stream for image rows whose matches are the row
 * above and runs (render room only).  See row_deflate.c.
 */
#ifndef DJ_RENDER_ROW_DEFLATE_H
#define DJ_RENDER_ROW_DEFLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * data (n bytes, rows of `row` bytes, row at most 32768) compressed as a
 * zlib stream into *out (malloc'd, *outlen bytes); false when out of
 * memory or the rows are too long.  *sum is the data's Adler-32 check,
 * which the caller, laying the rows out as runs, has counted run by run
 * (row_adler_run from {1, 0}) in a fraction of the time byte by byte
 * takes.
 */
typedef struct row_adler {
    uint64_t a, b; /* its two sums, reduced modulo 65521 when large */
} row_adler;
bool row_deflate(const unsigned char *data, size_t n, size_t row,
                 const row_adler *sum, unsigned char **out, size_t *outlen);

/* The check of some bytes extended by count bytes of one value. */
void row_adler_run(row_adler *sum, unsigned char byte, size_t count);
uint32_t row_adler_value(const row_adler *sum);

#endif
