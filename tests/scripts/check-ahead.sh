#!/bin/sh
#
# check-ahead.sh BUILDDIR SRCDIR — `judgectl check` reads the cases on a
# second thread while it adjudicates (src/cli/check_ahead.h): its output
# must be the one reading on one thread gives (--serial), byte for byte,
# on every case file of tests/ — alone, all at once, and run together
# into one long file whose cases switch variants back and forth and hold
# syntax errors — and on one processor it reads on one thread.
# Ends with "N passed, N failed".
#
set -u
B=${1:-$DJ_BUILDDIR}
S=${2:-$DJ_SRCDIR}
J="$B/judgectl"
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# same ARGS...: the threaded and serial runs print the same and exit alike.
same()
{
    "$J" check --maps "$S/maps" "$@" >"$T/threaded" 2>&1
    a=$?
    "$J" check --serial --maps "$S/maps" "$@" >"$T/serial" 2>&1
    b=$?
    if [ "$a" -eq "$b" ] && cmp -s "$T/threaded" "$T/serial"; then
        ok
    else
        bad "judgectl check $*: exit $a threaded, $b serial"
        diff "$T/serial" "$T/threaded" | head -10 | sed 's/^/    /'
    fi
}

files=$(ls "$S"/tests/datc/*.txt "$S"/tests/datc-alt/*.txt \
    "$S"/tests/datc-extra/*.txt "$S"/tests/casefile/*.txt)
for f in $files; do
    same --engine all "$f"
done
# shellcheck disable=SC2086 # the list of files
same --engine all $files
# shellcheck disable=SC2086
same --verbose $files

# One file of every case file, three times over: over 64 KB (several read-ahead
# chunks), variants switching back and forth (each map loaded once and
# kept while its cases are checked), errors and an END missing between.
# shellcheck disable=SC2086
cat $files $files $files >"$T/all.txt"
same --engine all "$T/all.txt"
same --verbose --engine kruijswijk "$T/all.txt"
check_count=$(grep -c '^CASE' "$T/all.txt")
if [ "$check_count" -gt 1000 ] && [ "$(wc -c <"$T/all.txt")" -gt 300000 ]; then
    ok
else
    bad "the long file has $check_count cases: too few to test"
fi

# With two processors or more the reading runs on its own thread (the
# timing line says how long adjudicating waited for it); on one, not.
if [ "$(nproc)" -ge 2 ]; then
    if "$J" check --timing --maps "$S/maps" "$T/all.txt" |
        grep -q '^timing: .*, waiting [0-9.]* ms for the reading thread$'; then
        ok
    else
        bad "two processors: no reading thread"
    fi
fi
if command -v taskset >/dev/null 2>&1; then
    taskset -c 0 "$J" check --timing --maps "$S/maps" "$T/all.txt" \
        >"$T/one" 2>&1
    "$J" check --serial --timing --maps "$S/maps" "$T/all.txt" \
        >"$T/serial" 2>&1
    if grep -q '^timing: reading [0-9.]* ms (case files and maps), adjudicating [0-9.]* ms$' "$T/one" &&
        [ "$(grep -v '^timing' "$T/one")" = "$(grep -v '^timing' "$T/serial")" ]; then
        ok
    else
        bad "one processor: not read on one thread, or not the same output"
    fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
