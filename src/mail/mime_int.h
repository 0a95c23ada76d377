/* SPDX-License-Identifier: MIT */
/*
 * mime_int.h — the pieces of the message reader (message.h), shared
 * between its files and visible to its tests; not for other modules.
 *
 *   mime_charset.c  bytes in a charset -> valid UTF-8; RFC 2047 headers
 *   mime_decode.c   base64 and quoted-printable
 *   mime_body.c     the MIME tree -> the chosen part's text
 *   mime_clean.c    text -> what the command parser reads
 *   html2text.c     HTML -> text
 *
 * Every function appends to a dj_buf; an allocation failure shows in
 * dj_buf_ok() and is reported once by the caller.
 */
#ifndef DJ_MAIL_MIME_INT_H
#define DJ_MAIL_MIME_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

struct mailmime;

/*
 * Append in[0..len), encoded in charset (NULL or "" when undeclared), as
 * valid UTF-8.  UTF-8, US-ASCII, ISO-8859-1 and Windows-1252 are decoded
 * here; any other charset goes through iconv.  Undeclared, US-ASCII and
 * unknown charsets are sniffed: valid UTF-8 stays, anything else is read
 * as Windows-1252 (what such mail nearly always is).  Bytes that cannot
 * be decoded become U+FFFD; C0 controls other than TAB, LF and CR too.
 */
void dj_mime_to_utf8(const char *charset, const char *in, size_t len,
                     dj_buf *out);

/* True when s[0..len) is entirely valid UTF-8. */
bool dj_mime_utf8_valid(const char *s, size_t len);

/* The length of the longest prefix of s[0..len) that does not end in
 * the middle of a UTF-8 sequence and is shorter than max bytes. */
size_t dj_mime_utf8_fit(const char *s, size_t len, size_t max);

/* Transfer decoding (lenient; never fails; output no longer than the
 * input): base64, quoted-printable bodies, RFC 2047 "Q" words. */
void dj_mime_decode_base64(const char *s, size_t len, dj_buf *out);
void dj_mime_decode_qp(const char *s, size_t len, dj_buf *out);
void dj_mime_decode_q(const char *s, size_t len, dj_buf *out);

/*
 * Append a header field value decoded for display: folding undone,
 * RFC 2047 encoded words (B and Q, any charset) decoded, raw 8-bit bytes
 * sniffed like an undeclared charset, controls turned into spaces, runs
 * of white space squeezed and the ends trimmed.
 */
void dj_mime_decode_header(const char *raw, size_t len, dj_buf *out);

/*
 * Choose and decode the body of a parsed message (the root returned by
 * mailmime_parse).  Appends the chosen part's text as UTF-8 (HTML turned
 * into text, format=flowed joined) and returns DJ_MSG_BODY_*; sets
 * *report_bounce / *report_auto when a delivery-status report or a
 * disposition notification (read receipt) is found.
 */
int dj_mime_body_text(struct mailmime *root, dj_buf *out, bool *report_bounce,
                      bool *report_auto);

/* Append html[0..len) as text (see dj_html_to_text in message.h). */
void dj_mime_html_text(const char *html, size_t len, dj_buf *out);

/*
 * Append text[0..len) cleaned for the command parser: LF line ends, no
 * trailing blanks, no quoted lines or their attribution, nothing from a
 * signature separator or a forwarded/original-message block on, no
 * leading, trailing or repeated blank lines, every line ending in '\n'.
 */
void dj_mime_clean(const char *text, size_t len, dj_buf *out);

#endif
