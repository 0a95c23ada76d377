/* SPDX-License-Identifier: MIT */
/*
 * chars.c — the byte-class table of chars.h, in one place for every
 * reader.
 */
#include "reader/chars.h"

#define LOCATION (DJ_CHAR_WORD | DJ_CHAR_LOCATION)

const unsigned char dj_char_class[256] = {
    [' '] = DJ_CHAR_SPACE,  ['\t'] = DJ_CHAR_SPACE, ['\n'] = DJ_CHAR_SPACE,
    ['\v'] = DJ_CHAR_SPACE, ['\f'] = DJ_CHAR_SPACE, ['\r'] = DJ_CHAR_SPACE,
    ['a' ... 'z'] = LOCATION, ['A' ... 'Z'] = LOCATION,
    ['0' ... '9'] = LOCATION, ['/'] = LOCATION,
    ['.'] = DJ_CHAR_WORD,   ['_'] = DJ_CHAR_WORD,   ['\''] = DJ_CHAR_WORD};
