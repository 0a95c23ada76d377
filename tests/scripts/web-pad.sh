#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# web-pad.sh BUILDDIR SRCDIR — the order pad (issue 38) in a real browser:
# headless Chromium emulating a phone 390 pixels wide, by touch, enters a
# move, a supported move and a support on the board's picture and sends
# them, then a build in the adjustment; the power's own orders are drawn
# on its board and no one else's; legal.json and mine.svg are refused to
# visitors and observers; the same page with JavaScript off still sends
# orders from the textarea (tests/web/pad.py, every page validated as
# HTML5 as tests/web/browser.py does).  Skipped (as web-browser.sh) only
# when Chromium or its driver is not installed.
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
        echo "web-pad: cannot run: $need is not installed (CI must run"\
             "this test; tests/install-deps.sh installs chromium and"\
             "chromium-driver)"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "web-pad: SKIPPED: $need is not installed (install chromium and"\
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

if ! web_setup; then
    echo "FAIL: setting up the game"
    echo "0 passed, 1 failed"
    exit 1
fi
web_start "" || { echo "0 passed, 1 failed"; exit 1; }
HOME=$T "$PY" "$S/tests/web/pad.py" "$WEB_URL" \
    "$JUDGECTL" --maps "$S/maps" --db "$T/judge.db"
