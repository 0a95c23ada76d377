#!/bin/sh
#
# run.sh [SECONDS] — build the order-reader fuzz target with libFuzzer,
# AddressSanitizer and UBSan, and run it for SECONDS (default 60).
#
# The target is tests/fuzz/fuzz_interpret.c linked with the engine and
# reader sources directly (no configure needed).  It starts from a corpus
# seeded with every input line of tests/orders/*.txt; the corpus and any
# crash files are kept in $DJ_FUZZ_DIR (default ${TMPDIR:-/tmp}/dipjudge-fuzz)
# so later runs resume where earlier ones stopped.  Extra libFuzzer options
# may be given in $DJ_FUZZ_FLAGS (e.g. "-jobs=4 -workers=4").
#
# Exit status: 0 no finding, non-zero when libFuzzer found a crash, a leak
# or a sanitizer report (the reproducer is in $DJ_FUZZ_DIR).
set -eu

SECONDS_TO_RUN=${1:-60}
SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${DJ_FUZZ_DIR:-${TMPDIR:-/tmp}/dipjudge-fuzz}
CC=${CC_FUZZ:-clang}
mkdir -p "$DIR/corpus" "$DIR/seeds" "$DIR/artifacts"

"$CC" -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=all -fno-omit-frame-pointer \
    -I"$SRCDIR/src" -DDJ_FUZZ_MAP="\"$SRCDIR/maps/standard.map\"" \
    "$SRCDIR/tests/fuzz/fuzz_interpret.c" \
    "$SRCDIR"/src/reader/*.c "$SRCDIR"/src/engine/*.c \
    -o "$DIR/fuzz_interpret"

# Seeds: each corpus line, behind the three header bytes (France,
# movement, default rules).
n=0
for f in "$SRCDIR"/tests/orders/*.txt; do
    grep '=>' "$f" | sed 's/ *=>.*//' | while IFS= read -r line; do
        n=$((n + 1))
        printf '\002\000\000%s\n' "$line" >"$DIR/seeds/$(basename "$f" .txt)-$n"
    done
done

# shellcheck disable=SC2086 # extra flags are a list
"$DIR/fuzz_interpret" -max_total_time="$SECONDS_TO_RUN" -max_len=4096 \
    -artifact_prefix="$DIR/artifacts/" -print_final_stats=1 \
    ${DJ_FUZZ_FLAGS:-} "$DIR/corpus" "$DIR/seeds"
