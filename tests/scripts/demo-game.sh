#!/bin/sh
# SPDX-License-Identifier: MIT
#
# demo-game.sh BUILDDIR SRCDIR — the demo's game (contrib/demo, which
# ./demo.sh plays by mail) played through judgectl: every order is taken,
# and the year reads as the demo promises: the Fall's neutral centres change
# hands, the Turkish army in Bulgaria is dislodged and retreats to
# Constantinople, and the Winter's builds happen.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"

now=$GAME_T0
check "game set up" game_setup demo "$now"
game_play demo "$S/contrib/demo" || failed=$((failed + 1))
check "the four phases of 1901 played" [ "$game_played" -eq 4 ]
check "the game is at S1902M" [ "$(game_phase demo)" = S1902M ]

$J history demo >"$T/history" 2>&1
check "every order was taken (none refused)" \
    sh -c "! grep -q 'illegal\|ERROR' '$T/history'"
check "the Turkish army in Bulgaria was dislodged" \
    grep -q "Turkey: *Army Bulgaria -> Greece.  (\*bounce, dislodged\*)" \
    "$T/history"
check "and could retreat only to Constantinople" \
    grep -q "The Turkish Army in Bulgaria can retreat to Constantinople." \
    "$T/history"
check "it retreated there" \
    grep -q "Turkey: *Army Bulgaria -> Constantinople." "$T/history"
check "Norway taken by convoy" \
    grep -q "England: *Army Yorkshire -> Norway." "$T/history"
check "France builds three" grep -q "France: *6 Supply centers, *3 Units: *Builds *3 units." "$T/history"
check "the builds happened" \
    grep -q "Russia: *Build Fleet Sevastopol." "$T/history"

$J summary demo >"$T/summary" 2>&1
check "centres after 1901: A4 E4 F6 G5 I4 R6 T3, 2 unowned" \
    grep -Eq '^1901 +4 +4 +6 +5 +4 +6 +3 +2$' "$T/summary"

checks_done
