#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run-all.sh — every test dipjudge has, from a clean clone on a fresh Debian
# machine.  This is the README's test command, and CI runs exactly this
# (.ci/run).
#
# Stages:
#   1. deps      install missing build dependencies (tests/install-deps.sh)
#   2. gcc       ./autogen.sh; out-of-tree build in build/ with gcc (and,
#                as the sanitizer and valgrind stages, --enable-assertions:
#                the deb stage alone builds as a packager does) and
#                `make check`: Automake's parallel harness runs every suite
#                of Makefile.am's TESTS (unit tests, the DATC files through
#                every engine, shell tests), one .log each
#   3. asan      out-of-tree build in build-asan/ with clang and
#                --enable-sanitizers (ASan + UBSan), `make check`
#   3b. fuzz     `FUZZ_SEED=1 FUZZ_RUNS=100000 make fuzz FUZZ_SECONDS=20`:
#                every fuzz target (tests/fuzz) built with clang's
#                libFuzzer, ASan and UBSan, from a fixed seed, at most
#                100,000 inputs and 20 s each: one sequence of inputs per
#                target, the same on every machine, so that a finding here
#                is reproducible; exploring is the job of long runs
#   3c. deb      make deb (dpkg-buildpackage), lintian, dpkg -i, a short
#                game through the installed programs, dpkg --purge
#                (tests/scripts/deb.sh; root only)
#   4. valgrind  the gcc build's unit tests and DATC case files again under
#                valgrind (memcheck, definite and indirect leaks are errors):
#                `make check TESTS="unit and case suites"` with valgrind as
#                LOG_COMPILER and DJ_TEST_WRAPPER
#
# Counting.  The closing line "N passed, N failed" is the gcc build's own
# counts (every unit check and every DATC case), plus ONE pass or ONE
# failure for each of the sanitizer, fuzzing and valgrind stages as a whole: they
# run the same checks again, so their individual counts would only repeat
# the gcc figures.  A gcc build that fails to compile counts as 1 failed.
# Every stage prints its own summary line first, and the exit status is
# non-zero when anything failed.
#
# Environment: JOBS (parallel make jobs, default: number of cores),
# DJ_SKIP_DEPS=1 (skip stage 1), DJ_SKIP_ASAN=1 / DJ_SKIP_FUZZ=1 / DJ_SKIP_DEB=1 /
# DJ_SKIP_VALGRIND=1 (skip
# those stages; a skipped stage counts as nothing).
#
set -uo pipefail

cd "$(dirname "$0")/.."
TOP=$(pwd)
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
SUMMARY_RE='^[0-9]+ passed, [0-9]+ failed'
LOGDIR=$TOP/build/run-all-logs

total_passed=0
total_failed=0
stage_lines=()

banner()
{
    echo
    echo "=================== $* ==================="
}

# last_summary FILE: the last "N passed, N failed" line in FILE, or nothing.
last_summary()
{
    grep -E "$SUMMARY_RE" "$1" | tail -n 1
}

# record NAME PASSED FAILED SECONDS [NOTE]
record()
{
    local line
    line=$(printf '%-9s %5d passed, %5d failed  (%ds)%s' "$1:" "$2" "$3" \
           "$4" "${5:+  $5}")
    stage_lines+=("$line")
    echo "== stage $line"
    total_passed=$((total_passed + $2))
    total_failed=$((total_failed + $3))
}

# show_failed_logs DIR [SUITE-LOG]: the closing lines of the .log of every
# suite that failed in DIR's last `make check` (SUITE-LOG: its summary,
# test-suite.log by default), so that a failure on a CI machine can be
# read from CI's output alone.
show_failed_logs()
{
    local log suite=$1/${2:-test-suite.log}
    [[ -f "$suite" ]] || return 0
    grep -E '^(FAIL|ERROR): ' "$suite" | sed -E 's/^[A-Z]+: //' |
        sort -u | while read -r log; do
            [[ -f "$1/$log.log" ]] || continue
            echo "---- last lines of $1/$log.log ----"
            grep -v '^#[0-9]* 0x' "$1/$log.log" | tail -n 40 | sed 's/^/    /'
        done
}

# configure_build DIR CONFIGURE-ARGS...: configure (always, so options never
# go stale) and build into DIR.  Output goes to DIR/build.log; its tail is
# shown on failure.
configure_build()
{
    local dir=$1
    shift
    mkdir -p "$dir"
    if ! (cd "$dir" && "$TOP/configure" "$@" && make -j"$JOBS") \
        >"$dir/build.log" 2>&1; then
        echo "build in $dir failed; last lines of $dir/build.log:"
        tail -n 40 "$dir/build.log" | sed 's/^/    /'
        return 1
    fi
    echo "built in $dir ($*)"
}

# ---- 1. dependencies -----------------------------------------------------
banner "1. build dependencies"
if [[ "${DJ_SKIP_DEPS:-0}" != 1 ]]; then
    if ! bash tests/install-deps.sh; then
        echo "could not install the build dependencies"
        echo "0 passed, 1 failed"
        exit 1
    fi
fi
if ! ./autogen.sh; then
    echo "autogen.sh failed"
    echo "0 passed, 1 failed"
    exit 1
fi
mkdir -p "$LOGDIR"

# ---- 2. gcc build and make check -----------------------------------------
banner "2. gcc build: make check"
t0=$SECONDS
gcc_built=0
if configure_build build CC=gcc --enable-werror --enable-assertions; then
    gcc_built=1
    (cd build && make -j"$JOBS" --no-print-directory check) 2>&1 |
        tee "$LOGDIR/gcc-check.log"
    status=${PIPESTATUS[0]}
    # After a failure make stops before its closing line: count again.
    ((status == 0)) ||
        (cd build && make --no-print-directory check-counts) 2>&1 |
            tee -a "$LOGDIR/gcc-check.log"
    ((status == 0)) || show_failed_logs build
    summary=$(last_summary "$LOGDIR/gcc-check.log")
    if [[ -n "$summary" ]]; then
        read -r p _ f _ <<<"${summary//,/}"
        note=""
        if ((status != 0 && f == 0)); then
            f=1
            note="make check exited $status"
        fi
        record gcc "$p" "$f" $((SECONDS - t0)) "$note"
    else
        record gcc 0 1 $((SECONDS - t0)) "make check printed no summary"
    fi
else
    record gcc 0 1 $((SECONDS - t0)) "build failed"
fi

# ---- 3. sanitizers -------------------------------------------------------
if [[ "${DJ_SKIP_ASAN:-0}" != 1 ]]; then
    banner "3. clang ASan+UBSan build: make check"
    t0=$SECONDS
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
    if configure_build build-asan CC=clang --enable-sanitizers --enable-werror \
        --enable-assertions; then
        (cd build-asan && make -j"$JOBS" --no-print-directory check) 2>&1 |
            tee "$LOGDIR/asan-check.log"
        status=${PIPESTATUS[0]}
        ((status == 0)) ||
            (cd build-asan && make --no-print-directory check-counts) 2>&1 |
                tee -a "$LOGDIR/asan-check.log"
        ((status == 0)) || show_failed_logs build-asan
        summary=$(last_summary "$LOGDIR/asan-check.log")
        if ((status == 0)); then
            record sanitize 1 0 $((SECONDS - t0)) "suites: $summary"
        else
            record sanitize 0 1 $((SECONDS - t0)) "suites: ${summary:-no summary}"
        fi
    else
        record sanitize 0 1 $((SECONDS - t0)) "build failed"
    fi
fi

# ---- 3b. fuzzing ----------------------------------------------------------
# Every fuzz target for at most 100,000 inputs and 20 seconds (make fuzz:
# clang, libFuzzer, ASan and UBSan, two at a time), from its seed corpus
# and a fixed seed.  One check for the stage.
if [[ "${DJ_SKIP_FUZZ:-0}" != 1 ]]; then
    banner "3b. fuzzing: FUZZ_SEED=1 FUZZ_RUNS=100000 make fuzz FUZZ_SECONDS=20"
    t0=$SECONDS
    if ((gcc_built == 0)); then
        record fuzz 0 1 $((SECONDS - t0)) "no build to fuzz from"
    else
        (cd build && FUZZ_SEED=1 FUZZ_RUNS=100000 make --no-print-directory fuzz FUZZ_SECONDS=20) 2>&1 |
            tee "$LOGDIR/fuzz.log"
        status=${PIPESTATUS[0]}
        summary=$(last_summary "$LOGDIR/fuzz.log")
        if ((status == 0)); then
            record fuzz 1 0 $((SECONDS - t0)) "targets: $summary"
        else
            record fuzz 0 1 $((SECONDS - t0)) "targets: ${summary:-no summary}"
            # kept for the summary, where a reader of the run's last lines
            # sees which target found what without the whole log
            fuzz_findings=$(grep -A3 ': FINDING\|does not build' "$LOGDIR/fuzz.log")
            for f in build/fuzz-build/logs/*.status; do
                [[ "$(cat "$f")" == 0 ]] && continue
                t=$(basename "$f" .status)
                fuzz_findings+=$'\n'"---- last lines of build/fuzz-build/logs/$t.log ----"
                fuzz_findings+=$'\n'"$(grep -v '^#[0-9]*\s' "build/fuzz-build/logs/$t.log" |
                    tail -n 25 | sed 's/^/    /')"
            done
        fi
    fi
fi

# ---- 3c. the Debian package -------------------------------------------------
# make deb, lintian, dpkg -i, a short game through the installed programs,
# dpkg --purge (tests/scripts/deb.sh; as root with dpkg-buildpackage).
if [[ "${DJ_SKIP_DEB:-0}" != 1 ]] && ((gcc_built == 1)); then
    banner "3c. Debian package: make deb, install, play, purge"
    t0=$SECONDS
    bash tests/scripts/deb.sh build . 2>&1 | tee "$LOGDIR/deb.log"
    status=${PIPESTATUS[0]}
    summary=$(last_summary "$LOGDIR/deb.log")
    read -r p _ f _ <<<"${summary//,/}"
    ((status != 0 && ${f:-0} == 0)) && f=1
    record deb "${p:-0}" "${f:-1}" $((SECONDS - t0))
fi

# ---- 4. valgrind ---------------------------------------------------------
if [[ "${DJ_SKIP_VALGRIND:-0}" != 1 ]]; then
    banner "4. valgrind: unit tests and DATC (gcc build)"
    t0=$SECONDS
    if ((gcc_built == 0)) || [[ ! -x build/judgectl ]]; then
        record valgrind 0 1 $((SECONDS - t0)) "no gcc build to run"
    else
        vg="valgrind -q --leak-check=full \
--errors-for-leak-kinds=definite,indirect \
--show-leak-kinds=definite,indirect --error-exitcode=99 \
--suppressions=$TOP/tests/valgrind.supp"
        # The unit programs and the case suites (not the shell tests).
        tests=$(cd build && make --no-print-directory -s print-valgrind-tests)
        (cd build &&
            DJ_TEST_WRAPPER="$vg" make -j"$JOBS" --no-print-directory check \
                TESTS="$tests" LOG_COMPILER="$vg" \
                TEST_SUITE_LOG=valgrind-suite.log) 2>&1 |
            tee "$LOGDIR/valgrind.log"
        status=${PIPESTATUS[0]}
        ((status == 0)) ||
            (cd build && make --no-print-directory check-counts \
                TESTS="$tests") 2>&1 | tee -a "$LOGDIR/valgrind.log"
        ((status == 0)) || show_failed_logs build valgrind-suite.log
        summary=$(last_summary "$LOGDIR/valgrind.log")
        if ((status == 0)); then
            record valgrind 1 0 $((SECONDS - t0)) "suites: $summary"
        else
            record valgrind 0 1 $((SECONDS - t0)) "suites: ${summary:-no summary}"
        fi
    fi
fi

# ---- summary -------------------------------------------------------------
banner "summary"
for line in "${stage_lines[@]}"; do
    echo "  $line"
done
if [[ -n "${fuzz_findings:-}" ]]; then
    echo "fuzzing found:"
    printf '%s\n' "$fuzz_findings" | sed 's/^/  /'
fi
echo "(gcc counts every check; the sanitizer, fuzzing and valgrind stages count as one each)"
echo "$total_passed passed, $total_failed failed"
((total_failed == 0))
