#!/bin/sh
# SPDX-License-Identifier: MIT
#
# fuzz.sh SRCDIR — `make fuzz`: every fuzz target (tests/fuzz/fuzz_*.c)
# built with clang's libFuzzer, AddressSanitizer and UBSan, and run for
# $FUZZ_SECONDS seconds (default 60) each, two at a time, from its seed
# corpus (tests/fuzz/corpus/NAME) and what earlier runs found.
#
# Run from a build directory: the project is configured and built again
# in ./fuzz-build with clang and the fuzzer's instrumentation, so coverage
# guides the fuzzer through all of our code; the corpora grow in
# ./fuzz-build/corpus, and a finding is kept as
# ./fuzz-build/artifacts/NAME-crash-... (add it to tests/fuzz/regress/NAME/
# once fixed: make check replays it for ever).
#
# $FUZZ_TARGETS chooses targets (default: all), $FUZZ_JOBS how many run
# at once (default 2), $FUZZ_SEED fixes libFuzzer's random seed (default:
# a new one each run), $FUZZ_RUNS stops each target after that many
# inputs (default: none; $FUZZ_SECONDS still caps the time).  CI fixes
# both, so its fuzzing is one sequence of inputs per target, the same on
# any machine: a finding there is replayed by the same command, a fast CI
# machine tries no input a slow one did not, and exploration is left to
# long runs.  One line per target with
# its runs and verdict, then "N passed, N failed" (one check per target).
# Without clang's libFuzzer it says so and counts one failure.
set -u
SRC=${1:?usage: fuzz.sh SRCDIR}
SECS=${FUZZ_SECONDS:-60}
JOBS=${FUZZ_JOBS:-2}
SEED=${FUZZ_SEED:-}
RUNS=${FUZZ_RUNS:-}
TARGETS=${FUZZ_TARGETS:-$(ls "$SRC"/tests/fuzz/fuzz_*.c | sed 's|.*/fuzz_||; s|\.c$||')}
OUT=$(pwd)/fuzz-build
CC_FUZZ=${CC_FUZZ:-clang}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"

probe=$(mktemp -d)
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' >"$probe/p.c"
if ! "$CC_FUZZ" -fsanitize=fuzzer "$probe/p.c" -o "$probe/p" 2>/dev/null; then
    rm -rf "$probe"
    echo "make fuzz: $CC_FUZZ cannot build libFuzzer targets" \
        "(install clang and libclang-rt-dev)"
    echo "0 passed, 1 failed"
    exit 1
fi
rm -rf "$probe"

mkdir -p "$OUT/corpus" "$OUT/artifacts" "$OUT/logs"
cd "$OUT" || exit 1
if [ ! -f Makefile ]; then
    CC=$CC_FUZZ CFLAGS="-g -O1 -fno-omit-frame-pointer $SAN -fsanitize=fuzzer-no-link" \
        "$SRC/configure" -q --disable-werror >logs/configure.log 2>&1 ||
        { tail -5 logs/configure.log; echo "0 passed, 1 failed"; exit 1; }
fi
# In link order: a library before those it uses (the web's route table
# uses the pages, which use the command and game rooms).
LIBS="libdjweb.a libdjconf.a libdjcommand.a libdjgame.a libdjcasefile.a libdjstore.a
      libdjreader.a libdjrender.a libdjtime.a libdjmail.a libdjengine.a libdjutil.a"
# shellcheck disable=SC2086 # lists
make -j2 $LIBS >logs/build.log 2>&1 ||
    { tail -20 logs/build.log; echo "0 passed, 1 failed"; exit 1; }
EXTERNAL=$(make -s print-link-libs)

passed=0
failed=0
build_one()
{
    # shellcheck disable=SC2086 # lists
    "$CC_FUZZ" -g -O1 -fno-omit-frame-pointer $SAN -fsanitize=fuzzer -pthread \
        -I"$SRC/src" -I. -I"$SRC/tests/fuzz" \
        -DDJ_FUZZ_MAP="\"$SRC/maps/standard.map\"" \
        "$SRC/tests/fuzz/fuzz_$1.c" $LIBS $EXTERNAL -o "fuzz_$1" \
        >"logs/build-$1.log" 2>&1
}
run_one()
{
    t=$1
    mkdir -p "corpus/$t"
    ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$SRC/tests/fuzz/lsan.supp \
        srcdir=$SRC ./"fuzz_$t" \
        -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -artifact_prefix="artifacts/$t-" \
        ${SEED:+-seed="$SEED"} ${RUNS:+-runs="$RUNS"} \
        "corpus/$t" "$SRC/tests/fuzz/corpus/$t" >"logs/$t.log" 2>&1
    echo $? >"logs/$t.status"
}

started=0
for t in $TARGETS; do
    if ! build_one "$t"; then
        echo "fuzz $t: does not build (fuzz-build/logs/build-$t.log)"
        echo 1 >"logs/$t.status"
        continue
    fi
    run_one "$t" &
    started=$((started + 1))
    # two at a time by default: the CI machine has two cores
    [ $((started % JOBS)) -eq 0 ] && wait
done
wait

for t in $TARGETS; do
    st=$(cat "logs/$t.status" 2>/dev/null || echo 1)
    runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "logs/$t.log" 2>/dev/null |
        tail -n 1)
    [ -n "$runs" ] || runs=$(grep -o '^#[0-9]*' "logs/$t.log" 2>/dev/null |
        tail -n 1 | tr -d '#')
    if [ "$st" = 0 ]; then
        echo "fuzz $t: ${runs:-0} runs in ${SECS}s, no finding"
        passed=$((passed + 1))
    else
        echo "fuzz $t: FINDING after ${runs:-0} runs (fuzz-build/logs/$t.log," \
            "artifacts in fuzz-build/artifacts/)"
        grep -m 3 -E "ERROR|SUMMARY|runtime error" "logs/$t.log" | sed 's/^/    /'
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
