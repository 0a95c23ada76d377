#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# game-concurrent.sh BUILDDIR SRCDIR — ticks started at the same moment
# (cron overlapping itself) adjudicate every due phase exactly once.
#
# Eight games play the first phases of tests/games/full.  Each round, the
# orders go in, then two `judgectl tick`s start together on the same clock
# (and, in the last rounds, three).  Between them they must process each
# game once: the phases processed they report add up to the number of
# games, every game is at the next phase, and each phase has one results
# mail per participant.  Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
NGAMES=8
ROUNDS=5

now=$GAME_T0
for ((g = 1; g <= NGAMES; g++)); do
    game_setup "g$g" "$now" || bad "setup of g$g"
done

files=("$GAME"/[0-9]*-*.txt)
for ((r = 0; r < ROUNDS; r++)); do
    f=${files[r]}
    want=$(phase_of "$f")
    next=$(phase_of "${files[r + 1]}")
    for ((g = 1; g <= NGAMES; g++)); do
        game_orders "g$g" "$f" "$now" || bad "orders of g$g at $want"
    done
    now=$((now + GAME_STEP))
    nticks=2
    ((r >= 3)) && nticks=3
    pids=()
    for ((k = 0; k < nticks; k++)); do
        DIPJUDGE_NOW=$now $J tick >"$T/tick$k.out" 2>"$T/tick$k.err" &
        pids+=($!)
    done
    st=0
    for p in "${pids[@]}"; do wait "$p" || st=1; done
    if ((st == 0)); then ok; else
        bad "a tick failed at $want"
        cat "$T"/tick*.err
    fi
    total=0
    for ((k = 0; k < nticks; k++)); do
        n=$(awk '/phases? processed$/ { print $1 }' "$T/tick$k.out")
        total=$((total + ${n:-0}))
    done
    echo "round $want: processed per tick: $(cat "$T"/tick*.out | awk '/processed$/ {printf "%s ", $1}')"
    if ((total == NGAMES)); then ok; else
        bad "round $want: $nticks ticks processed $total phases, not $NGAMES"
    fi
    for ((g = 1; g <= NGAMES; g++)); do
        have=$(game_phase "g$g")
        if [[ $have == "$next" ]]; then ok; else
            bad "g$g is at '$have' after $want, not $next"
        fi
        n=$($J outbox "g$g" | grep -c "	results	.* $want Results\$")
        if ((n == 8)); then ok; else
            bad "g$g: $n results mails for $want, not 8"
        fi
    done
done

# Each game's export: one result per processed phase, nothing undone.
for ((g = 1; g <= NGAMES; g++)); do
    $J export "g$g" >"$T/g$g.json"
    n=$(grep -c '"processed_at": [0-9]' "$T/g$g.json")
    if ((n == ROUNDS)); then ok; else bad "g$g has $n results, not $ROUNDS"; fi
done

checks_done
