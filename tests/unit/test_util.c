/* SPDX-License-Identifier: MIT */
/*
 * test_util.c — the shared helpers of src/util that no other suite covers
 * on its own: printf into bounded buffers (util/fmt.h), every edge the
 * rooms' error messages rely on (cut to fit, NULL or empty buffers, the
 * file:line prefix, notes joined by "; "); bytes as hex digits
 * and back (util/hex.h), the one doubling growth of arrays
 * (util/array.h) and random tokens (util/random.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "util/array.h"
#include "util/fmt.h"
#include "util/hex.h"
#include "util/random.h"
#include "util/typography.h"

static void test_fmt(void)
{
    char b[8];
    CHECK(dj_fmt(b, sizeof b, "%s-%d", "ab", 12));
    CHECK_STR(b, "ab-12");
    CHECK(!dj_fmt(b, sizeof b, "%s", "0123456789")); /* cut to fit */
    CHECK_STR(b, "0123456");
    CHECK(dj_fmt(b, sizeof b, "%s", "1234567")); /* exactly full */
    CHECK_STR(b, "1234567");
    CHECK(!dj_fmt(NULL, 0, "%s", "nobody wants it"));
    b[0] = 'x';
    CHECK(!dj_fmt(b, 0, "%s", "no room"));
    CHECK(b[0] == 'x'); /* a buffer of 0 bytes is left alone */
}

static void test_fmt_at(void)
{
    char b[64];
    dj_fmt_at(b, sizeof b, "judge.conf", 12, "unknown setting '%s'", "x");
    CHECK_STR(b, "judge.conf:12: unknown setting 'x'");
    dj_fmt_at(b, sizeof b, "std.geo", 0, "empty");
    CHECK_STR(b, "std.geo: empty");
    dj_fmt_at(b, sizeof b, NULL, 3, "no file");
    CHECK_STR(b, "no file");
    char s[10];
    dj_fmt_at(s, sizeof s, "judge.conf", 12, "%s", "message");
    CHECK_STR(s, "judge.con"); /* the prefix alone fills it */
    dj_fmt_at(s, sizeof s, "a", 1, "%s", "message");
    CHECK_STR(s, "a:1: mess");
    dj_fmt_at(NULL, 0, "a", 1, "%s", "nothing");
}

static void test_fmt_note(void)
{
    char b[16] = "";
    dj_fmt_note(b, sizeof b, "read %s", "A");
    CHECK_STR(b, "read A");
    dj_fmt_note(b, sizeof b, "and %d", 2);
    CHECK_STR(b, "read A; and 2");
    dj_fmt_note(b, sizeof b, "%s", "longer"); /* no room for "; " and more: dropped */
    CHECK_STR(b, "read A; and 2");
    char c[12] = "0123456";
    dj_fmt_note(c, sizeof c, "%s", "abcdef");
    CHECK_STR(c, "0123456; ab");
    dj_fmt_note(c, sizeof c, "%s", "more"); /* full: dropped */
    CHECK_STR(c, "0123456; ab");
    dj_fmt_note(NULL, 0, "%s", "nowhere");
}

static void test_hex(void)
{
    char out[9];
    dj_hex_encode("\x00\x7f\xa5\xff", 4, out);
    CHECK_STR(out, "007fa5ff");
    dj_hex_encode("", 0, out);
    CHECK_STR(out, "");
    /* and back: either case, -1 for anything else */
    CHECK(dj_hex_pair("00") == 0 && dj_hex_pair("7f") == 0x7f);
    CHECK(dj_hex_pair("A5") == 0xa5 && dj_hex_pair("fF") == 0xff);
    CHECK(dj_hex_pair("g0") == -1 && dj_hex_pair("0 ") == -1);
    CHECK(dj_hex_pair("\0" "0") == -1 && dj_hex_digit('/') == -1);
    CHECK(dj_hex_digit(':') == -1 && dj_hex_digit('G') == -1);
}

static void test_array(void)
{
    int *v = NULL;
    size_t cap = 0, n = 0;
    for (int i = 0; i < 100; i++) {
        int *w = dj_array_grow(v, &cap, n, sizeof *w, 4);
        CHECK(w != NULL);
        if (!w)
            break;
        v = w;
        v[n++] = i;
    }
    CHECK(n == 100 && cap == 128 && v[99] == 99);
    /* room left: the same array, no move */
    size_t cap2 = 8;
    int small[8];
    CHECK(dj_array_grow(small, &cap2, 3, sizeof small[0], 4) == small);
    /* a size that would overflow: NULL, the array and cap as they were */
    cap2 = SIZE_MAX / 2 + 1;
    CHECK(dj_array_grow(v, &cap2, cap2, 1, 4) == NULL);
    CHECK(cap2 == SIZE_MAX / 2 + 1);
    free(v);
}

static void test_random(void)
{
    char a[65], b[65];
    CHECK(dj_random_hex(a, 32) == 0);
    CHECK(dj_random_hex(b, 32) == 0);
    CHECK(strlen(a) == 64 && strspn(a, "0123456789abcdef") == 64);
    CHECK(strcmp(a, b) != 0); /* 2^-256 to fail */
    char big[2 * 65 + 1];
    CHECK(dj_random_hex(big, 65) == -1); /* more than it takes */
}

/* typography: one line cleaned as the command reader cleans it */
static void typo(const char *in, const char *want)
{
    char b[256];
    snprintf(b, sizeof b, "%s", in);
    dj_typography_line(b);
    CHECK_STR(b, want);
}

static void test_typography(void)
{
    typo("\xef\xbb\xbf" "SIGNON Fdemo pw", "SIGNON Fdemo pw"); /* BOM */
    typo("A\xe2\x80\x8b par\xc2\xa0-\xe2\x80\xaf" "bur", "A par - bur");
    typo("Lon\xc2\xad" "don", "London");                     /* soft hyphen */
    typo("\xe2\x80\xa2\tA par - bur", "A par - bur");      /* Apple bullet */
    typo("  \xe2\x97\xa6 A par", "A par");
    typo("\xc2\xb7 A par", "A par");                       /* Outlook Symbol */
    typo("\xef\x82\xb7\tA par", "A par");
    typo("1. A par", "A par");
    typo("12) A par", "A par");
    typo("(3) A par", "A par");
    typo("[4] A par", "A par");
    typo("a) A par", "A par");
    typo("(b) A par", "A par");
    typo("- A par", "A par");
    typo("* A par", "A par");
    typo("1. \xe2\x80\xa2 A par", "A par");                /* two markers */
    typo("-- ", "--");                                    /* a sign-off */
    typo("1901 was good", "1901 was good");
    typo("1.5 A par", "1.5 A par");
    typo("a)A par", "a)A par");
    typo("A par \xe2\x80\x93 bur \xe2\x80\x94 x \xe2\x88\x92 y", "A par - bur - x - y");
    typo("A par \xe2\x86\x92 bur", "A par -> bur");
    typo("\xe2\x80\x9cHi\xe2\x80\x9d \xe2\x80\x98x\xe2\x80\x99 \xc2\xabq\xc2\xbb", "\"Hi\" 'x' \"q\"");
    typo("wait\xe2\x80\xa6", "wait...");
    typo("\xef\xbc\xa1 \xef\xbd\x90\xef\xbd\x81\xef\xbd\x92", "A par"); /* full width */
    typo("M\xc3\xbcnchen \xd0\x9c\xd0\xbe", "M\xc3\xbcnchen \xd0\x9c\xd0\xbe"); /* letters stay */
    typo("\xff bad \xe2\x80", "\xff bad \xe2\x80");          /* not UTF-8: left */
    typo("A\tpar\r", "A par");
    typo("\xe2\x80\x8b\xef\xbb\xbf", "");
    char out[4];
    bool bullet;
    CHECK(dj_typography_char("\xe2\x80\xa2", out, &bullet) == 3 && bullet);
    CHECK(dj_typography_char("\xc3\xa9", out, &bullet) == 0);
    CHECK(dj_typography_char("\xed\xa0\x80", out, &bullet) == 0); /* surrogate */
    CHECK(dj_typography_char("\xe0\x80\xa2", out, &bullet) == 0); /* overlong */
}

int main(void)
{
    test_typography();
    test_fmt();
    test_fmt_at();
    test_fmt_note();
    test_hex();
    test_array();
    test_random();
    return test_summary();
}
