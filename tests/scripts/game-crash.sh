#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# game-crash.sh BUILDDIR SRCDIR — `judgectl tick` killed at random points,
# then run again, must end in exactly the game an uninterrupted run gives:
# no order lost, no phase adjudicated twice, no result or mail missing or
# doubled.
#
# The scripted game of tests/games/full is played twice on the same fake
# clock: once straight through, once with every tick first run with
# DIPJUDGE_CRASH_AT=N (the process _exit()s at its N-th database write
# point, N random: before or after any statement of the processing
# transaction, or around its COMMIT) until at least 50 ticks have died,
# plus some ticks killed for real with SIGKILL after a random delay.  After
# each killed tick the phase must be unchanged (orders on file intact) or
# processed exactly once; then a normal tick finishes the job.  The two
# exports (positions, orders, results, mail queued, game log) must be
# identical.  Ends with "N passed, N failed".
#
# DJ_CRASH_SEED sets the random seed (the default makes runs repeatable).
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"
. "$S/tests/games/play.sh"
RANDOM=${DJ_CRASH_SEED:-2026}
WANT_CRASHES=50

# play DB MODE: the whole game; MODE "straight" or "crash".
crashes=0
kills=0
play()
{
    J="$JUDGECTL --maps $S/maps --db $1"
    local now=$GAME_T0 f want next have st n
    game_setup full "$now" || { bad "$2: setup"; return 1; }
    local files=("$GAME"/[0-9]*-*.txt)
    for ((i = 0; i < ${#files[@]}; i++)); do
        f=${files[i]}
        want=$(phase_of "$f")
        next=
        ((i + 1 < ${#files[@]})) && next=$(phase_of "${files[i + 1]}")
        have=$(game_phase full)
        if [[ $have != "$want" ]]; then
            bad "$2: at '$have' instead of $want"
            return 1
        fi
        game_orders full "$f" "$now" || { bad "$2: orders of $want"; return 1; }
        now=$((now + GAME_STEP))
        if [[ $2 == crash ]]; then
            crash_phase "$f" "$want" "$next" "$now" || return 1
        fi
        DIPJUDGE_NOW=$now $J tick >/dev/null 2>"$T/err" ||
            { bad "$2: tick at $want"; cat "$T/err"; return 1; }
    done
    [[ $(game_state full) == finished ]] || bad "$2: game not finished"
}

# crash_phase FILE PHASE NEXT NOW: kill ticks at this phase.
crash_phase()
{
    local f=$1 want=$2 next=$3 now=$4 attempt have=$2 st
    for attempt in 1 2 3; do
        ((crashes >= WANT_CRASHES)) && break
        DIPJUDGE_CRASH_AT=$((1 + RANDOM % 30)) DIPJUDGE_NOW=$now \
            $J tick >/dev/null 2>&1
        st=$?
        ((st == 86)) && crashes=$((crashes + 1))
        after_kill "$f" "$want" "$next" || return 1
        have=$(game_phase full)
        [[ $have == "$want" ]] || break # processed: nothing more to kill
    done
    # Now and then a real SIGKILL, at a random moment of the process.
    if [[ $have == "$want" ]] && ((RANDOM % 2 == 0)); then
        (DIPJUDGE_NOW=$now exec timeout -s KILL \
            "$(printf '0.%03d' $((1 + RANDOM % 8)))" $J tick) \
            >/dev/null 2>&1
        st=$?
        ((st == 124 || st == 137)) && kills=$((kills + 1))
        after_kill "$f" "$want" "$next" || return 1
    fi
}

# after_kill FILE PHASE NEXT: the phase is untouched or processed once.
after_kill()
{
    local have p lines stored
    have=$(game_phase full)
    if [[ $have == "$3" || ($3 == "" && $(game_state full) == finished) ]]; then
        return 0
    fi
    if [[ $have != "$2" ]]; then
        bad "after a kill at $2 the game is at '$have'"
        return 1
    fi
    # Unprocessed: every power's orders are still on file.
    for p in $POWERS; do
        lines=$(grep -c "^$p: " "$1")
        stored=$($J orders full "$p" | grep -c .)
        if ((lines != stored)); then
            bad "after a kill at $2, $p has $stored orders, not $lines"
            return 1
        fi
    done
}

play "$T/straight.db" straight && ok
J="$JUDGECTL --maps $S/maps --db $T/straight.db"
$J export full >"$T/straight.json"

play "$T/crash.db" crash && ok
J="$JUDGECTL --maps $S/maps --db $T/crash.db"
$J export full >"$T/crash.json"

if ((crashes >= WANT_CRASHES)); then ok; else
    bad "only $crashes ticks crashed (wanted $WANT_CRASHES)"
fi
echo "ticks killed: $crashes by fault injection, $kills by SIGKILL"
if cmp -s "$T/straight.json" "$T/crash.json"; then ok; else
    bad "exports differ"
    diff "$T/straight.json" "$T/crash.json" | head -20
fi
# The export holds every phase once and every mail once: check the counts.
n=$(grep -c '"seq": ' "$T/crash.json")
want=$(($(awk '$1 == "phases" { print $2 }' "$GAME/expect.txt") + 1))
if ((n == want)); then ok; else bad "$n phases exported, wanted $want"; fi
n=$(grep -c '"kind": "results"' "$T/crash.json")
if ((n == (want - 1) * 8)); then ok; else bad "$n results mails"; fi
if grep -q '"status": "undone"' "$T/crash.json"; then
    bad "undone phases after crashes"
else ok; fi

checks_done
