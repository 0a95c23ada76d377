#!/bin/sh
# SPDX-License-Identifier: MIT
#
# test-hooks.sh BUILDDIR SRCDIR — the test hooks (src/cli/test_hooks.h)
# are in the copies make check runs and not in the programs installed:
# strings(1) of the installed judgectl and judged shows none of their
# names, and those programs ignore them; the test copies obey them.
# And assert() is compiled out of a build configured without
# --enable-assertions (the default), in by one configured with it.
# Ends with "N passed, N failed".
#
set -u
. "${2:-$DJ_SRCDIR}/tests/checks.sh"

HOOKS="DIPJUDGE_NOW DIPJUDGE_CRASH_AT DIPJUDGE_CRASH_POINT DIPJUDGE_TEST_POISON
       DIPJUDGE_TEST_DISAGREE DIPJUDGE_TEST_FETCH_PROBE"
for prog in judgectl judged; do
    strings "$B/$prog" >"$T/installed" || bad "strings $prog"
    strings "$B/tests/bin/$prog" >"$T/test-copy" || bad "strings test $prog"
    for hook in $HOOKS; do
        check "installed $prog: no $hook" \
            sh -c "! grep -q '$hook' '$T/installed'"
        check "test copy of $prog: $hook" grep -q "$hook" "$T/test-copy"
    done
done

# The mail reader's probe (mail/fetch_probe.c) is linked into the test
# copy of judged only.
strings "$B/judged" >"$T/installed" || bad "strings judged"
check "installed judged: no fetch reader probe" \
    sh -c "! grep -q 'fetch reader probe' '$T/installed'"
strings "$B/tests/bin/judged" | grep -q 'fetch reader probe'
expect "test copy of judged: the fetch reader probe" "$?" 0

# Assertions (configure --enable-assertions) are the test builds' too: a
# build configured without them (the default, the Debian package's) has
# none of their texts in its programs; one configured with them has.
ASSERT_TEXT='s->depth <= DJ_STORE_MAX_DEPTH'
strings "$B/judged" >"$T/installed" || bad "strings judged"
if grep -q '^ASSERT_CPPFLAGS = -DNDEBUG' "$B/Makefile"; then
    check "built without --enable-assertions: judged has no assertion" \
        sh -c "! grep -qF '$ASSERT_TEXT' '$T/installed'"
else
    check "built with --enable-assertions: judged checks its invariants" \
        grep -qF "$ASSERT_TEXT" "$T/installed"
fi

# A clock the installed programs never read: a bad one is no error there.
export DIPJUDGE_NOW="not a time"
$INSTALLED_JUDGECTL --maps "$S/maps" --db "$T/judge.db" create g >"$T/out" 2>&1
expect "installed judgectl ignores DIPJUDGE_NOW" "$?" 0
$JUDGECTL --maps "$S/maps" --db "$T/judge.db" create h >"$T/out" 2>&1
expect "the test copy of judgectl reads it" "$?" 1
has "bad DIPJUDGE_NOW 'not a time'"
(cd "$T" && $INSTALLED_JUDGED --db "$T/judge.db" config) >"$T/out" 2>&1
expect "installed judged ignores DIPJUDGE_NOW" "$?" 0
(cd "$T" && $JUDGED --db "$T/judge.db" config) >"$T/out" 2>&1
expect "the test copy of judged reads it" "$?" 64
has "bad DIPJUDGE_NOW 'not a time'"

checks_done
