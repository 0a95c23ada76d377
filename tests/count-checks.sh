#!/bin/sh
# SPDX-License-Identifier: MIT
#
# count-checks.sh LOG... — the closing line of `make check`: the checks of
# every suite added up.  Automake's harness counts suites (one PASS or
# FAIL each, in test-suite.log); each suite's .log ends with its own
# "N passed, N failed" line, and this adds those up, so the last line
# printed is exactly "N passed, N failed" over every check that ran.
#
# A suite whose log has no such line (it crashed, or never ran), or whose
# harness result (LOG's .trs) is FAIL or ERROR while its own line counts no
# failure (a crash after its summary, a valgrind error), counts as one more
# failure, named on a line of its own.  Exit status 1 when anything failed.
#
set -u
SUMMARY_RE='^[0-9][0-9]* passed, [0-9][0-9]* failed'
passed=0
failed=0
for log in "$@"; do
    name=${log%.log}
    trs=$name.trs
    result=$(sed -n 's/^:test-result: //p' "$trs" 2>/dev/null | head -n 1)
    [ "$result" = SKIP ] && continue
    line=$(grep "$SUMMARY_RE" "$log" 2>/dev/null | tail -n 1)
    if [ -z "$line" ]; then
        echo "$name: no \"N passed, N failed\" line (${result:-not run}): 1 failure"
        failed=$((failed + 1))
        continue
    fi
    p=${line%% passed*}
    f=${line#* passed, }
    f=${f%% failed*}
    if [ "$f" -eq 0 ] && [ "$result" != PASS ]; then
        echo "$name: $line, but the harness says ${result:-nothing}: 1 failure"
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
