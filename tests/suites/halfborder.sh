#!/bin/sh
# SPDX-License-Identifier: MIT
#
# halfborder.sh — make check's suite for DPjudge's half-strength border
# (`*`, maps/README.md): the rule cases of tests/halfborder on the fixture
# board tests/maps/halfborder.map, through `judgectl check --engine all`
# (the DPjudge and Kruijswijk engines counted, every disagreement between
# the trusted two a failure) and then the Haplomacy engine alone on
# halfborder.txt, counted too: every case there is one all three must get
# right (knots.txt, the backup rule for knots, is the trusted two's only).
#
# Environment: DJ_BUILDDIR and DJ_SRCDIR (make check sets them),
# DJ_TEST_WRAPPER (a command to run judgectl under, e.g. valgrind).
# Ends with "N passed, N failed" (the two runs added up).
#
set -u
B=${DJ_BUILDDIR:?"run by make check (DJ_BUILDDIR unset)"}
S=${DJ_SRCDIR:?"run by make check (DJ_SRCDIR unset)"}
passed=0
failed=0
for engine in all haplomacy; do
    # knots.txt: a backup rule the Haplomacy engine does not play
    files="$S/tests/halfborder/halfborder.txt"
    [ "$engine" = all ] && files="$files $S/tests/halfborder/knots.txt"
    # shellcheck disable=SC2086 # the wrapper is a command line; files split
    out=$(${DJ_TEST_WRAPPER:-} "$B/judgectl" check --engine "$engine" \
        --maps "$S/tests/maps" $files 2>&1)
    st=$?
    printf '%s\n' "$out" | sed '$d'
    last=$(printf '%s\n' "$out" | tail -n 1)
    p=$(printf '%s\n' "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(printf '%s\n' "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    if [ -z "$p" ] || [ -z "$f" ]; then
        echo "FAIL: judgectl check --engine $engine ended with '$last'"
        failed=$((failed + 1))
        continue
    fi
    if [ "$st" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL: judgectl check --engine $engine: exit $st"
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
