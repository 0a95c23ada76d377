#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# screenshots.sh BUILDDIR SRCDIR [OUTDIR] — the pictures of judgeweb in
# doc/web/ (issue 38): a game "demo" (a phase played, press, France's own
# zone) and three more, a judgeweb serving them, then tests/web/screenshots.py draws PNGs at 1280
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
# demo: a year under way (players named, France in Europe/Paris), the
# master's password gm-password; three more games for the front page
setup()
{
    J_WEB create demo --master gm@demo.example --password gm-password \
        press=white identities=public >/dev/null || return 1
    for p in Austria England France Germany Italy Russia Turkey; do
        lp=$(echo "$p" | tr 'A-Z' 'a-z')
        J_WEB join demo "$lp@demo.example" --power "$p" --name "Player $p" \
            --password "pw-$p" >/dev/null || return 1
    done
    printf 'A par-bur\nF bre-mao\nA mar h\n' | J_WEB orders demo France --set >/dev/null || return 1
    printf 'F lon-nth\nF edi-nwg\nA lvp-yor\n' | J_WEB orders demo England --set >/dev/null || return 1
    J_WEB process demo >/dev/null || return 1
    printf 'SIGNON Fdemo pw-France\nSET ZONE Europe/Paris\nPRESS TO England\nShall we share the Channel?\nENDPRESS\n' |
        J_WEB command --from france@demo.example >/dev/null || return 1
    echo 'A bur-bel' | J_WEB orders demo France --set >/dev/null || return 1
    J_WEB create quiet --map ancmed --master gm@quiet.example press=none \
        movement_delay=12h >/dev/null || return 1
    J_WEB create open --master gm@open.example press=white+grey >/dev/null || return 1
    J_WEB create old --master gm@old.example >/dev/null || return 1
    for p in Austria England France Germany Italy Russia Turkey; do
        J_WEB join old "$p@old.example" --power "$p" --password "pw-$p" \
            >/dev/null || return 1
    done
    J_WEB terminate old "a draw agreed" >/dev/null || return 1
}
setup || { echo "screenshots: setting up the games failed"; exit 1; }
web_start "" || exit 1
HOME=$T /usr/bin/python3 "$S/tests/web/screenshots.py" "$WEB_URL" "$OUT"
