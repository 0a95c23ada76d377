#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# game-options-play.sh BUILDDIR SRCDIR — the scripted game of
# tests/games/options (the first eight phases of tests/games/full) played
# twice through judgectl on the test clock: with end_year = 1902 it ends
# after the adjustments of 1902 in a draw among the survivors; with a low
# victory count it ends in a win as soon as one power alone holds that
# many centres.  expect.txt says where and how each ends.  The options'
# mail is tests/scripts/game-options.sh's.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
DIR=$S/tests/games/options
want() { sed -n "s/^$1 //p" "$DIR/expect.txt"; }

# play NAME: the files in order until the game is over; sets played.
play()
{
    played=0
    for f in "$DIR"/[0-9]*-*.txt; do
        [ "$(game_state "$1")" = finished ] && break
        expect "$1 at $(phase_of "$f")" "$(game_phase "$1")" "$(phase_of "$f")"
        game_orders "$1" "$f" "$now" || bad "$1: orders of $(phase_of "$f")"
        now=$((now + GAME_STEP))
        DIPJUDGE_NOW=$now $J tick >/dev/null 2>&1 || bad "$1: tick"
        played=$((played + 1))
    done
}
finals() # NAME: the mail that ended the game, in $T/out
{
    sql "SELECT o.body FROM outbox o JOIN games g ON g.id = o.game_id
         WHERE g.name = '$1' AND o.recipients = 'gm@$1.example'
         ORDER BY o.id DESC LIMIT 1" >"$T/out"
}

# ---- end_year: a draw among the survivors after that year's adjustments ------
now=$GAME_T0
game_setup ey "$now" end_year="$(want end_year)" || bad "ey: setup"
play ey
expect "ey: phases played" "$played" "$(want end_phases)"
expect "ey: finished" "$(game_state ey)" finished
$J show ey >"$T/out"
has "Ended: $(want end_ending)"
finals ey
has "$(want end_ending)"
has "The game 'ey' is over."
grep -q "^ *France .* drew" "$T/out" && ok || bad "ey: the final table's draw"

# ---- victory: a win at the game's own count ----------------------------------------
now=$GAME_T0
game_setup vi "$now" victory="$(want victory)" || bad "vi: setup"
play vi
expect "vi: phases played" "$played" "$(want victory_phases)"
expect "vi: finished" "$(game_state vi)" finished
$J show vi >"$T/out"
has "Ended: Victory of $(want victory_winner)."
finals vi
has "$(want victory_winner) has won the game with $(want victory) supply centers."
# the same game at the map's count goes on
now=$GAME_T0
game_setup mc "$now" || bad "mc: setup"
play mc
expect "mc: the map's count: still going" "$(game_state mc)" active

checks_done
