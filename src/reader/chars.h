/* SPDX-License-Identifier: MIT */
/*
 * chars.h — the classes of bytes the readers of orders and case files
 * share: white space, and the bytes a word of an order (a location's
 * name, a keyword) is made of.
 *
 * One table, looked up by byte: a chain of comparisons on a byte is a
 * chain of branches, and where orders vary from line to line a processor
 * guesses those wrong.  ASCII only, as the C locale's ctype (the programs
 * set no locale).
 */
#ifndef DJ_READER_CHARS_H
#define DJ_READER_CHARS_H

#include <stdbool.h>

enum {
    DJ_CHAR_SPACE = 1,   /* ' ', '\t', '\n', '\v', '\f', '\r' */
    DJ_CHAR_WORD = 2,    /* letters, digits and "/._'": inside a word */
    DJ_CHAR_LOCATION = 4 /* letters, digits and '/': a location written
                            plainly ("lon", "spa/nc") */
};

extern const unsigned char dj_char_class[256];

static inline bool dj_is_space(char c)
{
    return (dj_char_class[(unsigned char)c] & DJ_CHAR_SPACE) != 0;
}

static inline bool dj_is_word_char(char c)
{
    return (dj_char_class[(unsigned char)c] & DJ_CHAR_WORD) != 0;
}

static inline bool dj_is_location_char(char c)
{
    return (dj_char_class[(unsigned char)c] & DJ_CHAR_LOCATION) != 0;
}

#endif
