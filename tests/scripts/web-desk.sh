#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# web-desk.sh BUILDDIR SRCDIR — the master's desk, votes, joining and
# forms that behave (issue 38), in headless Chromium with JavaScript OFF
# (the pages are plain forms): tests/web/desk.py signs in as a game's
# master and, from the desk, moves the deadline, pauses and resumes and
# processes a phase (judgectl sees each); a player of that game gets 403
# on the desk; the same browser signed in to a second game acts in both;
# a press sent and the page reloaded is one press; a refused press keeps
# its text; a draw vote from the web is on file; a JOIN from the front
# page up to its code (the code read from the Maildir judged sends the
# outbox to) makes the address a player.  Hostile requests: a desk POST
# without its CSRF token, an oversize field, a field with a line break
# (a second command smuggled in), a SET of an account command: each
# refused with nothing done.  Every page is validated as HTML5 (html5lib
# strict, tidy).  Skipped (exit 0 with a line saying why) only when
# Chromium or its driver is not installed, as web-browser.sh.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/scripts/web-lib.sh"
cleanup() { web_stop; }

PY=/usr/bin/python3
for need in /usr/bin/chromium /usr/bin/chromedriver; do
    [ -x "$need" ] && continue
    if [ "${CI:-}" = true ]; then
        echo "web-desk: cannot run: $need is not installed"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "web-desk: SKIPPED: $need is not installed (tests/install-deps.sh)"
    echo "0 passed, 0 failed"
    exit 0
done
for mod in selenium html5lib; do
    if ! "$PY" -c "import $mod" 2>/dev/null; then
        echo "FAIL: python3 module $mod missing"
        echo "0 passed, 1 failed"
        exit 1
    fi
done

# game "demo" and "quiet" (web-lib.sh); game "desk" with a master who
# has a password, seven players, its first phase being played; game
# "open", forming, for the JOIN.
setup()
{
    web_setup || return 1
    J_WEB create desk --master gm@desk.example --password gm-pw-desk \
        >/dev/null || return 1
    for p in Austria England France Germany Italy Russia Turkey; do
        lp=$(echo "$p" | tr 'A-Z' 'a-z')
        J_WEB join desk "$lp@desk.example" --power "$p" \
            --password "pw-$p" >/dev/null || return 1
    done
    J_WEB create open --master gm@open.example >/dev/null || return 1
}
if ! setup; then
    echo "FAIL: setting up the games"
    echo "0 passed, 1 failed"
    exit 1
fi
web_start "signin_limit = 6;" || { echo "0 passed, 1 failed"; exit 1; }
# judged sends the outbox (the JOIN's code) into a Maildir the test reads
mkdir -p "$T/in/new" "$T/in/cur" "$T/in/tmp"
cat >"$T/judged.conf" <<CONF
database = "$T/judge.db";
judge_address = "judge@demo.example";
inbound: { type = "maildir"; path = "$T/in"; };
outbound: { type = "maildir"; path = "$T/out"; };
CONF
HOME=$T "$PY" "$S/tests/web/desk.py" "$WEB_URL" "$T/out" \
    "$JUDGED --config $T/judged.conf --maps $S/maps once --no-tick" \
    "$JUDGECTL" --maps "$S/maps" --db "$T/judge.db"
