#!/bin/sh
# SPDX-License-Identifier: MIT
#
# cases.sh FOLDER — one DATC-style suite: `judgectl check --engine all`
# over every case file of tests/FOLDER.  Every case goes through the
# DPjudge and Kruijswijk engines (each counted) and the Haplomacy engine
# (scored, not counted: tests/scripts/haplomacy-score.sh pins its score),
# and every disagreement between engines is a failure.  datc.sh,
# datc-extra.sh and datc-alt.sh are the suites make check runs.
#
# Environment: DJ_BUILDDIR and DJ_SRCDIR (make check sets them),
# DJ_TEST_WRAPPER (a command to run judgectl under, e.g. valgrind).
# Ends with judgectl's "N passed, N failed".
#
set -u
B=${DJ_BUILDDIR:?"run by make check (DJ_BUILDDIR unset)"}
S=${DJ_SRCDIR:?"run by make check (DJ_SRCDIR unset)"}
folder=$S/tests/$1
set -- "$folder"/*.txt
if [ ! -f "$1" ]; then
    echo "no case files in $folder"
    echo "0 passed, 1 failed"
    exit 1
fi
# shellcheck disable=SC2086 # the wrapper is a command line
exec ${DJ_TEST_WRAPPER:-} "$B/judgectl" check --engine all --maps "$S/maps" "$@"
