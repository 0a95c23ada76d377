#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# web-browser.sh BUILDDIR SRCDIR — judgeweb in a real browser: headless
# Chromium (chromium, chromium-driver, python3-selenium) plays a game on
# judgeweb over loopback (tests/web/browser.py: the list, the game, a
# phase, sign-in, orders with a typo the reader corrects, judgectl orders
# showing them, READY, press to one power read by it and not by a third,
# sign-out, a form without its CSRF token refused), validating every page
# as HTML5 with html5lib (strict) and tidy; then tests/web/slow_flood.py:
# 400 slow sockets from eight addresses and the game page still loads in
# under a second.  Skipped (exit 77, with a
# line saying why) only when Chromium or its driver is not installed.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/scripts/web-lib.sh"
cleanup() { web_stop; }

PY=/usr/bin/python3   # Debian's, with Debian's selenium and html5lib
for need in /usr/bin/chromium /usr/bin/chromedriver; do
    [ -x "$need" ] && continue
    if [ "${CI:-}" = true ]; then
        echo "web-browser: cannot run: $need is not installed (CI must run"\
             "this test; tests/install-deps.sh installs chromium and"\
             "chromium-driver)"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "web-browser: SKIPPED: $need is not installed (install chromium and"\
         "chromium-driver with tests/install-deps.sh)"
    echo "0 passed, 0 failed"
    exit 0
done
for mod in selenium html5lib; do
    if ! "$PY" -c "import $mod" 2>/dev/null; then
        echo "FAIL: python3 module $mod missing (python3-selenium, python3-html5lib)"
        echo "0 passed, 1 failed"
        exit 1
    fi
done
if ! command -v tidy >/dev/null; then
    echo "FAIL: tidy is missing (tests/install-deps.sh)"
    echo "0 passed, 1 failed"
    exit 1
fi

if ! web_setup; then
    echo "FAIL: setting up the game"
    echo "0 passed, 1 failed"
    exit 1
fi
web_start "" || { echo "0 passed, 1 failed"; exit 1; }
HOME=$T "$PY" "$S/tests/web/browser.py" "$WEB_URL" \
    "$JUDGECTL" --maps "$S/maps" --db "$T/judge.db"
rc=$?
# Slow clients (issue 33): 400 sockets trickling their heads from eight
# loopback addresses, and the browser still has the game page in under a
# second.
HOME=$T "$PY" "$S/tests/web/slow_flood.py" "$WEB_URL" || rc=1
exit $rc
