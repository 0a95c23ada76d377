/* SPDX-License-Identifier: MIT */
/*
 * form.h — what a browser sends: a form body
 * (application/x-www-form-urlencoded) and the Cookie header.  Pure (no
 * I/O) and fuzzed (tests/fuzz/fuzz_webform.c).
 *
 * Design.  A form is decoded once into one buffer of its own: at most
 * DJ_FORM_MAX_FIELDS fields, names of up to DJ_FORM_NAME_MAX bytes, and
 * values no longer than the body (which the server caps at 64 KiB).  '+'
 * is a space and %XX a byte; a malformed escape, a NUL byte, text that is
 * not UTF-8 or too many fields refuse the whole form (the page says the
 * form could not be read) rather than guess.  CR LF in values becomes LF.
 */
#ifndef DJ_WEB_FORM_H
#define DJ_WEB_FORM_H

#include <stdbool.h>
#include <stddef.h>

#define DJ_FORM_MAX_FIELDS 32
#define DJ_FORM_NAME_MAX 32

typedef struct dj_form {
    int n;
    char name[DJ_FORM_MAX_FIELDS][DJ_FORM_NAME_MAX];
    const char *value[DJ_FORM_MAX_FIELDS];
    char *store;             /* the decoded values, malloc'd */
} dj_form;

/* Decode body[0..len); 0, or -1 (refused: nothing to free). */
int dj_form_parse(const char *body, size_t len, dj_form *f);
void dj_form_free(dj_form *f);

/* The first value of a field, or NULL. */
const char *dj_form_get(const dj_form *f, const char *name);

/*
 * The value of cookie `name` in a Cookie header ("a=1; b=2") into out
 * (at most outlen - 1 bytes; a longer value is not taken).  true when
 * found.
 */
bool dj_cookie_get(const char *header, const char *name, char *out,
                   size_t outlen);

/* Is text[0..len) well-formed UTF-8 (no overlongs, no surrogates)? */
bool dj_form_utf8_ok(const char *text, size_t len);

#endif
