#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# web-browser.sh BUILDDIR SRCDIR — judgeweb in a real browser: headless
# Chromium (chromium, chromium-driver, python3-selenium) plays a game on
# judgeweb over loopback (tests/web/browser.py: the list, the game, a
# phase, sign-in, orders with a typo the reader corrects, judgectl orders
# showing them, READY, press to one power read by it and not by a third,
# sign-out, a form without its CSRF token refused), validating every page
# as HTML5 with html5lib (strict) and tidy.  Skipped (exit 77, with a
# line saying why) only when Chromium or its driver is not installed.
# Ends with "N passed, N failed".
#
set -u
B=${1:-$DJ_BUILDDIR}
S=${2:-$DJ_SRCDIR}
. "$S/tests/games/play.sh"
. "$S/tests/scripts/web-lib.sh"

PY=/usr/bin/python3   # Debian's, with Debian's selenium and html5lib
for need in /usr/bin/chromium /usr/bin/chromedriver; do
    if [ ! -x "$need" ]; then
        echo "web-browser: SKIP: $need is not installed (tests/install-deps.sh installs chromium and chromium-driver)"
        exit 77
    fi
done
for mod in selenium html5lib; do
    if ! "$PY" -c "import $mod" 2>/dev/null; then
        echo "FAIL: python3 module $mod missing (python3-selenium, python3-html5lib)"
        echo "0 passed, 1 failed"
        exit 1
    fi
done
command -v tidy >/dev/null || { echo "FAIL: tidy missing"; echo "0 passed, 1 failed"; exit 1; }

T=$(game_tmpdir) || exit 2
trap 'web_stop; rm -rf "$T"' EXIT
web_setup || { echo "FAIL: setting up the game"; echo "0 passed, 1 failed"; exit 1; }
web_start "" || { echo "0 passed, 1 failed"; exit 1; }
HOME=$T "$PY" "$S/tests/web/browser.py" "$WEB_URL" \
    "$B/judgectl" --maps "$S/maps" --db "$T/judge.db"
