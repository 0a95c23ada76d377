#!/usr/bin/env bash
#
# demo.sh — the README's demo: install what is missing, build, and play
# Spring and Fall 1901 on the standard map through judgectl.
#
# For now the demo is a scripted case file (contrib/demo/opening.txt) run
# by `judgectl check --verbose`, which prints every order with its result
# and compares the board with the expected one.  Once game commands exist
# this becomes a full game driven through judgectl.
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

step "Adjudicating Spring and Fall 1901 (maps/standard.map, contrib/demo/opening.txt)"
exec build/judgectl check --verbose --maps maps contrib/demo/opening.txt
