#!/usr/bin/env bash
#
# demo.sh — the README's demo: install what is missing, build, and play
# a game on the standard map through judgectl, as a game master would.
#
# Seven players join a game (it starts when the seventh arrives); then, for
# each phase of 1901, 1902 and 1903, every power's orders are entered from
# the scripted game of tests/games/full (the one the tests play to its
# end in 1911), the master processes the phase, and the results are
# printed exactly as the players would receive them by mail.  No mail is
# sent: the results wait in the outbox.  Everything runs on judgectl's
# built-in defaults, no configuration file; the database is
# build/demo/dipjudge.db (DIPJUDGE_DB).
#
# DEMO_YEARS=N plays N years instead of 3 (up to 11: the victory).
#
set -euo pipefail
cd "$(dirname "$0")"
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

step() { printf '\n==> %s\n' "$*"; }

step "Checking build dependencies"
bash tests/install-deps.sh

step "Building in build/"
if [[ ! -f build/config.status ]]; then
    ./autogen.sh
    mkdir -p build
    (cd build && ../configure CC=gcc >/dev/null)
fi
make -C build -j"$JOBS" --no-print-directory >/dev/null
echo "built build/judgectl"

export DIPJUDGE_DB=build/demo/dipjudge.db
J=build/judgectl
YEARS=${DEMO_YEARS:-3}
LAST_YEAR=$((1900 + YEARS))
POWERS=(Austria England France Germany Italy Russia Turkey)
rm -rf build/demo
mkdir -p build/demo

step "A new game, 'demo', and seven players (database $DIPJUDGE_DB)"
$J create demo --master gm@demo.example
for p in "${POWERS[@]}"; do
    $J join demo "${p,,}@demo.example" --power "$p" --name "$p player"
done

for f in tests/games/full/[0-9]*-*.txt; do
    phase=$(basename "$f" .txt)
    phase=${phase#*-}
    year=${phase:1:4}
    ((year > LAST_YEAR)) && break
    step "$phase: orders in, the master processes the phase"
    for p in "${POWERS[@]}"; do
        grep -q "^$p: " "$f" || continue
        grep "^$p: " "$f" | sed "s/^$p: //" | $J orders demo "$p" --set
    done
    $J process demo
    echo
    $J history demo "$phase"
done

step "Supply centres so far"
$J summary demo

step "The game now"
$J show demo

step "Mail waiting in the outbox (sent by the mail issue, later)"
$J outbox demo | awk -F'\t' '{ n[$3]++ } END { for (k in n) print "  " n[k], k }' |
    sort -k2
