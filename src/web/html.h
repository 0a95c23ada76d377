/* SPDX-License-Identifier: MIT */
/*
 * html.h — writing HTML: the one escaping function every byte of text
 * goes through, and the frame every page shares.
 *
 * Design.  Markup is written by the page code as literal strings; text
 * from anywhere else (game names, players' press, the judge's replies,
 * numbers too) goes through dj_html_text or dj_html_textf, which escape
 * & < > " ' so it can sit in an element or a quoted attribute alike.
 * There is no other way to put text in a page, so nothing a player writes
 * becomes markup.  Pages link one stylesheet (/style.css) and one script
 * (/pad.js: the order pad and the countdowns, pad.c), none inline, and
 * everything works with forms and links without it.
 */
#ifndef DJ_WEB_HTML_H
#define DJ_WEB_HTML_H

#include "util/buf.h"

/* Append text, escaped for an element's content or a quoted attribute. */
void dj_html_text(dj_buf *out, const char *text);

/* printf, then dj_html_text on the result. */
void dj_html_textf(dj_buf *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Percent-encode a path segment (game names, phases) for an href. */
void dj_html_url_segment(dj_buf *out, const char *segment);

/* The page's start: doctype, head (title escaped), header with the
 * judge's name, and <main>.  */
void dj_html_begin(dj_buf *out, const char *judge, const char *title);
/* </main>, footer, </html>. */
void dj_html_end(dj_buf *out);

/* The stylesheet at /style.css. */
extern const char dj_html_style[];

#endif
