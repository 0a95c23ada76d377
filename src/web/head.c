/* SPDX-License-Identifier: MIT */
/*
 * head.c — a request's head judged before libmicrohttpd sees it (see
 * head.h).  Every byte is read by index within len; nothing is copied.
 */
#include "web/head.h"

#include <stdbool.h>
#include <string.h>
#include <strings.h>

static bool tchar(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z') || strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static bool hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
           (c >= 'A' && c <= 'F');
}

/* The request line [p, p+n), without its line end. */
static int request_line(const char *p, size_t n, bool *http11, const char **why)
{
    size_t i = 0;
    while (i < n && tchar((unsigned char)p[i]))
        i++;
    if (i == 0 || i >= n || p[i] != ' ')
        return *why = "The request line is not METHOD /PATH HTTP/1.1.", 400;
    size_t t = ++i;
    if (t >= n || p[t] != '/')
        return *why = "The request's path does not start with '/'.", 400;
    for (; i < n && p[i] != ' '; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c < 0x21 || c == 0x7f)
            return *why = "The request's path holds a control byte.", 400;
        if (c == '%') {
            if (i + 2 >= n || !hex((unsigned char)p[i + 1]) ||
                !hex((unsigned char)p[i + 2]))
                return *why = "The request's path holds a '%' that is not "
                              "an escape of two hex digits.",
                       400;
            if (p[i + 1] == '0' && p[i + 2] == '0')
                return *why = "The request's path holds a NUL (%00).", 400;
            i += 2;
        }
    }
    if (i >= n || n - i != 9 || memcmp(p + i + 1, "HTTP/1.", 7) != 0 ||
        (p[n - 1] != '0' && p[n - 1] != '1'))
        return *why = "The request line is not METHOD /PATH HTTP/1.1.", 400;
    *http11 = p[n - 1] == '1';
    return DJ_HEAD_OK;
}

/* One field line [p, p+n): name ":" value; notes Host and Content-Length. */
static int field_line(const char *p, size_t n, bool *host, int *lengths,
                      const char **why)
{
    size_t i = 0;
    while (i < n && tchar((unsigned char)p[i]))
        i++;
    if (i == 0 || i >= n || p[i] != ':')
        return *why = "A header line is not NAME: VALUE.", 400;
    for (size_t k = i + 1; k < n; k++) {
        unsigned char c = (unsigned char)p[k];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return *why = "A header holds a control byte.", 400;
    }
    if (i == 4 && strncasecmp(p, "host", 4) == 0)
        *host = true;
    if (i == 14 && strncasecmp(p, "content-length", 14) == 0) {
        size_t k = i + 1, digits = 0;
        while (k < n && (p[k] == ' ' || p[k] == '\t'))
            k++;
        while (k < n && p[k] >= '0' && p[k] <= '9')
            k++, digits++;
        while (k < n && (p[k] == ' ' || p[k] == '\t'))
            k++;
        if (!digits || k != n || digits > 18 || ++*lengths > 1)
            return *why = "The Content-Length is not one number.", 400;
    }
    return DJ_HEAD_OK;
}

int dj_web_head_check(const char *buf, size_t len, const char **why)
{
    *why = "";
    bool http11 = false, host = false;
    int lengths = 0;
    size_t at = 0;
    for (int line = 0;; line++) {
        const char *nl = memchr(buf + at, '\n', len - at);
        size_t limit = line == 0 ? DJ_WEB_LINE_MAX : DJ_WEB_HEAD_MAX;
        if (!nl) {
            if (line == 0 && len - at > DJ_WEB_LINE_MAX)
                return *why = "The request line is too long.", 414;
            if (len > DJ_WEB_HEAD_MAX)
                return *why = "The request's headers are too long.", 431;
            return DJ_HEAD_MORE;
        }
        size_t end = (size_t)(nl - buf) + 1; /* past the '\n' */
        size_t n = end - 1 - at;
        if (n > 0 && buf[at + n - 1] == '\r')
            n--;
        if (line == 0 && n > limit)
            return *why = "The request line is too long.", 414;
        if (end > DJ_WEB_HEAD_MAX)
            return *why = "The request's headers are too long.", 431;
        const char *p = buf + at;
        int rc;
        if (line == 0)
            rc = request_line(p, n, &http11, why);
        else if (n == 0)
            break; /* the empty line: the head is in */
        else if (p[0] == ' ' || p[0] == '\t')
            return *why = "A folded header line.", 400;
        else
            rc = field_line(p, n, &host, &lengths, why);
        if (rc != DJ_HEAD_OK)
            return rc;
        at = end;
    }
    if (http11 && !host)
        return *why = "An HTTP/1.1 request without Host.", 400;
    return DJ_HEAD_OK;
}
