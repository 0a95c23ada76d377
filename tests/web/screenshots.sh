#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# screenshots.sh BUILDDIR SRCDIR [OUTDIR] — the pictures of judgeweb in
# doc/web/ (issue 38): web-lib.sh's game "demo" (a phase played, press),
# a judgeweb serving it, then tests/web/screenshots.py draws PNGs at 1280
# and 390 px wide of the front page, the game page signed in as France
# and, when the build has /game/NAME/desk, the master's desk.  Run by
# `make screenshots` (from the build tree) on the code as it is, so the
# pictures can be drawn again after any change to the pages.
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/scripts/web-lib.sh"
OUT=${3:-$S/doc/web}
cleanup() { web_stop; }
mkdir -p "$OUT"
web_setup || { echo "screenshots: setting up the game failed"; exit 1; }
J_WEB set demo movement_delay=2d >/dev/null 2>&1 || true
web_start "" || exit 1
HOME=$T /usr/bin/python3 "$S/tests/web/screenshots.py" "$WEB_URL" "$OUT"
