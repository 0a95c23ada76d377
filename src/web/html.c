/* SPDX-License-Identifier: MIT */
/*
 * html.c — escaping and the page frame.  See html.h.
 */
#include "web/html.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dj_html_text(dj_buf *out, const char *text)
{
    const char *run = text;
    for (const char *p = text;; p++) {
        const char *rep = NULL;
        switch (*p) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        case '\'': rep = "&#39;"; break;
        case '\0': break;
        default: continue;
        }
        dj_buf_append_n(out, run, (size_t)(p - run));
        if (!rep)
            return;
        dj_buf_append(out, rep);
        run = p + 1;
    }
}

void dj_html_textf(dj_buf *out, const char *fmt, ...)
{
    dj_buf tmp;
    dj_buf_init(&tmp);
    va_list ap;
    va_start(ap, fmt);
    dj_buf_vprintf(&tmp, fmt, ap);
    va_end(ap);
    if (dj_buf_ok(&tmp))
        dj_html_text(out, tmp.data);
    dj_buf_free(&tmp);
}

void dj_html_url_segment(dj_buf *out, const char *segment)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)segment; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' ||
            *p == '.') {
            char c = (char)*p;
            dj_buf_append_n(out, &c, 1);
        } else {
            char esc[3] = {'%', hex[*p >> 4], hex[*p & 15]};
            dj_buf_append_n(out, esc, 3);
        }
    }
}

void dj_html_begin(dj_buf *out, const char *judge, const char *title)
{
    dj_buf_append(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                       "<meta charset=\"utf-8\">\n"
                       "<meta name=\"viewport\" content=\"width=device-width, "
                       "initial-scale=1\">\n<title>");
    dj_html_text(out, title);
    dj_buf_append(out, " - ");
    dj_html_text(out, judge);
    dj_buf_append(out, "</title>\n"
                       "<link rel=\"stylesheet\" href=\"/style.css\">\n"
                       "<script src=\"/pad.js\" defer></script>\n"
                       "</head>\n<body>\n<header><a href=\"/\">");
    dj_html_text(out, judge);
    dj_buf_append(out, "</a></header>\n<main>\n");
}

void dj_html_end(dj_buf *out)
{
    dj_buf_append(out, "</main>\n<footer>dipjudge: a Diplomacy judge by mail "
                       "and on the web</footer>\n</body>\n</html>\n");
}

const char dj_html_style[] =
    "body{font-family:sans-serif;margin:0;line-height:1.4;color:#222;"
    "background:#fafaf7}\n"
    "header{background:#234;padding:.5em 1em}\n"
    "header a{color:#fff;font-weight:bold;text-decoration:none}\n"
    "main{max-width:60em;margin:0 auto;padding:0 1em}\n"
    "footer{color:#777;font-size:small;text-align:center;padding:1em}\n"
    "table{border-collapse:collapse;margin:.5em 0}\n"
    "th,td{border-bottom:1px solid #ccc;padding:.2em .5em;text-align:left}\n"
    ".scroll{overflow-x:auto}\n"
    "pre{white-space:pre-wrap;background:#fff;border:1px solid #ddd;"
    "padding:.5em;overflow-x:auto}\n"
    "img.board{max-width:100%;height:auto;border:1px solid #ccc}\n"
    /* the order pad (pad.c, pad.js): the picture's SVG laid over it,
     * seen through, taking taps; the zoom for a phone */
    ".board-wrap{margin:1em 0}\n"
    ".pad-inner{position:relative}\n"
    ".pad-inner img.board{width:100%;display:block;box-sizing:border-box}\n"
    ".pad-overlay{position:absolute;left:0;top:0;width:100%;height:100%;"
    "box-sizing:border-box;border:1px solid transparent;"
    "touch-action:manipulation;cursor:pointer}\n"
    ".pad-overlay *{fill-opacity:0!important;stroke-opacity:0!important}\n"
    ".pad-overlay text,.pad-overlay [data-order]{pointer-events:none}\n"
    ".pad-overlay path.pad-sel{fill:#fc0!important;fill-opacity:.5!important}"
    "\n.pad-overlay path.pad-to{fill:#2b7!important;"
    "fill-opacity:.35!important}\n"
    ".board-wrap.zoomed{overflow:auto}\n"
    ".board-wrap.zoomed .pad-inner{width:250%}\n"
    ".pad-panel{background:#fff;border:1px solid #ddd;padding:.3em .5em}\n"
    ".pad-panel button{margin:.2em .3em .2em 0;padding:.4em .6em}\n"
    "textarea,input,select{font-size:1em;max-width:100%}\n"
    "textarea{width:100%;box-sizing:border-box}\n"
    "form{margin:.5em 0}\n"
    "nav a{margin-right:1em}\n"
    ".bar{background:#468;height:.8em;display:inline-block}\n"
    ".notice{background:#ffd;border:1px solid #cc8;padding:.5em}\n"
    ".error{background:#fdd;border:1px solid #c88;padding:.5em}\n"
    /* the game page's table and deadline, the front page's lists and
     * filter (issue 38) */
    "td.num,th.num{text-align:right}\n"
    "table.powers{width:100%}\ntable.powers tr.own{background:#eef4ff}\n"
    "table.powers th[scope=row]{font-weight:bold}\n"
    ".orders-in{color:#262}\n.orders-awaited{color:#a40}\n"
    ".deadline{background:#fff;border:1px solid #ddd;padding:.5em}\n"
    ".deadline time{font-size:1.2em;font-weight:bold}\n"
    ".zone{color:#555;font-size:.9em}\n.late{color:#a00}\n"
    "details{margin:.5em 0}\nsummary{cursor:pointer}\n"
    "form.filter{display:flex;flex-wrap:wrap;gap:.5em 1em;"
    "align-items:end}\n"
    "nav.pages a{display:inline-block;padding:.3em 0}\n"
    "table .status{display:block;font-size:.85em;color:#666}\n"
    "@media (max-width:40em){main{padding:0 .5em}"
    "th,td{padding:.2em .3em}"
    "table.powers,table.list{font-size:.85em}"
    "h1{font-size:1.6em}}\n";
