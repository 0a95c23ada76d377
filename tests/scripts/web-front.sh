#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# web-front.sh BUILDDIR SRCDIR — the game page as a table and the front
# page that pages (issue 38), in headless Chromium at 1280 and 390 px
# (tests/web/front.py, every page validated as browser.py validates):
#   table       centres and units per power after a year played (France
#               5 and 5 after two captures and two builds), players named
#               as identities allows (public: by name; at-end: not), the
#               orders column (hide_late = yes: not told to others), the
#               deadline once as <time class="countdown">, a player's own
#               zone (SET ZONE) beside the game's
#   paging      123 games forming: 50 a page, next and previous links
#               through all of them once each, filters by board, press
#               and speed, bad values a 400 naming the values taken
#   press       grouped by correspondents
#   phone       at 390 px nothing is wider than the screen
# Skipped (0 passed, 0 failed) when Chromium is not installed, as
# web-browser.sh.  Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/scripts/web-lib.sh"
cleanup() { web_stop; }

PY=/usr/bin/python3
for need in /usr/bin/chromium /usr/bin/chromedriver; do
    [ -x "$need" ] && continue
    if [ "${CI:-}" = true ]; then
        echo "web-front: cannot run: $need is not installed"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "web-front: SKIPPED: $need is not installed (tests/install-deps.sh)"
    echo "0 passed, 0 failed"
    exit 0
done

setup()
{
    # "named": identities public, a year played so that France holds 5
    # centres and 5 units; England's zone Asia/Tokyo; press between powers
    J_WEB create named --master gm@named.example --password gm-password \
        press=white identities=public >/dev/null || return 1
    for p in Austria England France Germany Italy Russia Turkey; do
        lp=$(echo "$p" | tr 'A-Z' 'a-z')
        J_WEB join named "$lp@named.example" --power "$p" --name "Name $p" \
            --password "pw-$p" >/dev/null || return 1
    done
    printf 'A par-bur\nF bre-mao\nA mar h\n' | J_WEB orders named France --set >/dev/null || return 1
    J_WEB process named >/dev/null || return 1
    printf 'A bur-bel\nF mao-spa/sc\nA mar h\n' | J_WEB orders named France --set >/dev/null || return 1
    J_WEB process named >/dev/null || return 1
    printf 'build a par\nbuild f bre\n' | J_WEB orders named France --set >/dev/null || return 1
    J_WEB process named >/dev/null || return 1
    printf 'SIGNON Enamed pw-England\nSET ZONE Asia/Tokyo\nPRESS TO France\nShall we?\nENDPRESS\nBROADCAST\nHello all.\nENDPRESS\n' |
        J_WEB command --from england@named.example >/dev/null || return 1
    printf 'SIGNON Fnamed pw-France\nPRESS TO England\nYes.\nENDPRESS\n' |
        J_WEB command --from france@named.example >/dev/null || return 1
    # "late": hide_late = yes, identities hidden
    J_WEB create late --master gm@late.example identities=hidden \
        hide_late=yes >/dev/null || return 1
    for p in Austria England France Germany Italy Russia Turkey; do
        lp=$(echo "$p" | tr 'A-Z' 'a-z')
        J_WEB join late "$lp@late.example" --power "$p" --name "Secret $p" \
            --password "pw-$p" >/dev/null || return 1
    done
    # 120 games forming (with web_setup's "quiet": 121), every third
    # without press, every fourth fast, every fifth on ancmed
    local i args
    for i in $(seq -w 1 120); do
        args="press=white"
        [ $((10#$i % 3)) = 0 ] && args="press=none"
        [ $((10#$i % 4)) = 0 ] && args="$args movement_delay=12h"
        map=standard
        [ $((10#$i % 5)) = 0 ] && map=ancmed
        J_WEB create "p$i" --map "$map" --master "gm@p$i.example" $args \
            >/dev/null || { echo "create p$i"; return 1; }
    done
}

if ! web_setup || ! setup; then
    echo "FAIL: setting up the games"
    echo "0 passed, 1 failed"
    exit 1
fi
web_start "" || { echo "0 passed, 1 failed"; exit 1; }
HOME=$T "$PY" "$S/tests/web/front.py" "$WEB_URL" \
    "$JUDGECTL" --maps "$S/maps" --db "$T/judge.db"
