#!/bin/sh
#
# run-suites.sh BUILDDIR SRCDIR — run every test suite and add up the counts.
# `make check` calls it (check-local); tests/run-all.sh calls it again under
# valgrind.
#
# Suites, in order:
#   unit     every BUILDDIR/tests/unit/test_* binary, run as `test_x SRCDIR`
#   datc     judgectl check --engine all --maps SRCDIR/maps
#            SRCDIR/tests/datc/*.txt: every case through DPjudge and
#            Kruijswijk (each counted) and Haplomacy (scored, not counted),
#            and the engines' results compared
#   extra    the same for SRCDIR/tests/datc-extra/*.txt (beyond the 158)
#   alt      the same for SRCDIR/tests/datc-alt/*.txt, when there are any
#   scripts  every executable SRCDIR/tests/scripts/*.sh, run as
#            `script BUILDDIR SRCDIR` (absolute paths)
#
# Each suite must end its standard output with a line "N passed, N failed".
# A suite that prints no such line (a crash, a missing binary), or exits
# non-zero while reporting no failure (a crash after the summary, a syntax
# error in a case file, a valgrind error), counts as one more failure.
# Output is kept in BUILDDIR/test-logs/; a failing suite's log is shown
# (head only unless DJ_TEST_VERBOSE=1).
#
# The last line printed is exactly "N passed, N failed", the sum over all
# suites; the exit status is 1 when anything failed.
#
# Environment:
#   DJ_SUITES        suites to run (default "unit datc alt scripts")
#   DJ_TEST_WRAPPER  command to run unit tests and judgectl under
#                    (e.g. "valgrind --error-exitcode=99 ..."); not scripts
#   DJ_TEST_TIMEOUT  seconds one suite may take (default 1200)
#   DJ_TEST_VERBOSE  1: show every suite's full output
#
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 BUILDDIR SRCDIR" >&2
    exit 2
fi
BUILDDIR=$(cd "$1" && pwd) || exit 2
SRCDIR=$(cd "$2" && pwd) || exit 2
SUITES=${DJ_SUITES:-unit datc extra alt scripts}
WRAPPER=${DJ_TEST_WRAPPER:-}
TIMEOUT=${DJ_TEST_TIMEOUT:-1200}
VERBOSE=${DJ_TEST_VERBOSE:-0}
LOGDIR=$BUILDDIR/test-logs
mkdir -p "$LOGDIR"

total_passed=0
total_failed=0
SUMMARY_RE='^[0-9][0-9]* passed, [0-9][0-9]* failed'

timeout_cmd=""
if command -v timeout >/dev/null 2>&1; then
    timeout_cmd="timeout $TIMEOUT"
fi

# show_log LOG: print a suite's captured output, indented.
show_log()
{
    if [ "$VERBOSE" = 1 ]; then
        sed 's/^/    /' "$1"
    else
        head -n 40 "$1" | sed 's/^/    /'
        n=$(wc -l <"$1")
        if [ "$n" -gt 40 ]; then
            echo "    ... ($n lines; full log: $1)"
        fi
    fi
}

# run_suite LABEL LOGNAME CMD...: run one suite, print "LABEL: N passed,
# N failed" and add its counts to the totals.
run_suite()
{
    label=$1
    log=$LOGDIR/$2.log
    out=$LOGDIR/$2.out
    shift 2
    # stderr first in the log, then stdout, whose last line is the summary.
    $timeout_cmd "$@" >"$out" 2>"$log.err"
    status=$?
    cat "$log.err" "$out" >"$log"
    rm -f "$log.err"

    summary=$(grep -v '^[[:space:]]*$' "$out" | tail -n 1)
    note=""
    if echo "$summary" | grep -q "$SUMMARY_RE"; then
        p=$(echo "$summary" | sed 's/^\([0-9]*\) passed.*/\1/')
        f=$(echo "$summary" | sed 's/^[0-9]* passed, \([0-9]*\) failed.*/\1/')
    else
        p=0
        f=1
        note=" (no summary line: crashed or not a test?)"
    fi
    if [ "$status" -ne 0 ] && [ -z "$note" ]; then
        case $status in
        1) [ "$f" -eq 0 ] && { f=1; note=" (exit 1 with no failure counted)"; } ;;
        2) f=$((f + 1)); note=" (exit 2: usage or syntax error)" ;;
        99) f=$((f + 1)); note=" (valgrind reported errors)" ;;
        124) f=$((f + 1)); note=" (timed out after ${TIMEOUT}s)" ;;
        *) f=$((f + 1)); note=" (exit status $status: crashed?)" ;;
        esac
    elif [ "$status" -eq 124 ]; then
        note=" (timed out after ${TIMEOUT}s)"
    fi

    if [ "$f" -ne 0 ] || [ "$VERBOSE" = 1 ]; then
        show_log "$log"
    fi
    echo "$label: $p passed, $f failed$note"
    total_passed=$((total_passed + p))
    total_failed=$((total_failed + f))
}

# missing LABEL WHY: a suite that should exist but cannot run.
missing()
{
    echo "$1: 0 passed, 1 failed ($2)"
    total_failed=$((total_failed + 1))
}

run_unit()
{
    found=0
    for t in "$BUILDDIR"/tests/unit/test_*; do
        # test_x.c, .o, .h are not tests; a dot elsewhere in the path is
        # fine (make distcheck builds in dipjudge-0.1.0/_build/sub).
        case ${t##*/} in *.*) continue ;; esac
        [ -f "$t" ] && [ -x "$t" ] || continue
        found=1
        name=$(basename "$t")
        # shellcheck disable=SC2086 # the wrapper is a command line
        run_suite "unit $name" "unit-$name" $WRAPPER "$t" "$SRCDIR"
    done
    [ $found = 1 ] || missing "unit" "no test binaries in $BUILDDIR/tests/unit"
}

# run_cases LABEL LOGNAME DIR: judgectl check over DIR/*.txt.
run_cases()
{
    if [ ! -x "$BUILDDIR/judgectl" ]; then
        missing "$1" "no $BUILDDIR/judgectl"
        return
    fi
    set -- "$1" "$2" "$3" "$3"/*.txt
    if [ ! -f "$4" ]; then
        if [ "$2" = datc ]; then
            missing "$1" "no case files in $3"
        fi
        return
    fi
    label=$1
    logname=$2
    shift 3
    # shellcheck disable=SC2086
    run_suite "$label" "$logname" $WRAPPER "$BUILDDIR/judgectl" check \
        --engine all --maps "$SRCDIR/maps" "$@"
}

run_scripts()
{
    for s in "$SRCDIR"/tests/scripts/*.sh; do
        [ -f "$s" ] && [ -x "$s" ] || continue
        name=$(basename "$s" .sh)
        run_suite "script $name" "script-$name" "$s" "$BUILDDIR" "$SRCDIR"
    done
}

for suite in $SUITES; do
    case $suite in
    unit) run_unit ;;
    datc) run_cases "DATC" datc "$SRCDIR/tests/datc" ;;
    extra) run_cases "Cases beyond the DATC" datc-extra "$SRCDIR/tests/datc-extra" ;;
    alt) run_cases "DATC alternative rules" datc-alt "$SRCDIR/tests/datc-alt" ;;
    scripts) run_scripts ;;
    *) echo "run-suites: unknown suite '$suite'" >&2; exit 2 ;;
    esac
done

echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
